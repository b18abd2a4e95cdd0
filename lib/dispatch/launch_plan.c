// SPDX-License-Identifier: Apache-2.0
#include "launch_plan.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct tt_launch_plan_write {
	struct tt_xy a, b;
	uint32_t addr, len;
	size_t off; /* in data */
	bool seq; /* launch words: replayed with the new seq */
};

static bool reserve(struct tt_launch_plan_bytes *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 4096;
	uint8_t *p;

	if (b->len + more <= b->cap)
		return true;
	while (cap < b->len + more)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p)
		return false;
	b->p = p;
	b->cap = cap;
	return true;
}

static void put(struct tt_launch_plan_bytes *b, const void *v, size_t len)
{
	memcpy(b->p + b->len, v, len);
	b->len += len;
}

static unsigned cb_count(uint32_t mask)
{
	return mask ? 32u - (unsigned)__builtin_clz(mask) : 0;
}

/* Bytes describe_core() may append for c. */
static size_t core_size(const struct tt_launch_core *c)
{
	size_t n = sizeof(c->logical) + sizeof(c->noc) + 2 * sizeof(uint32_t) +
		   sizeof(c->sem) +
		   cb_count(c->cb_mask) * sizeof(struct tt_cb_config);

	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++)
		n += 32 + 6 * sizeof(uint32_t) +
		     4 * ((size_t)c->hart[h].rta_count + c->hart[h].crta_count);
	return n;
}

static void describe_hart(struct tt_launch_plan_bytes *b,
			  const struct tt_launch_hart *k)
{
	static const uint8_t none[32];
	uint32_t v[6] = { 0 };

	put(b, k->bin ? k->bin->hash : none, 32);
	if (k->bin) {
		v[0] = k->bin->load_addr;
		v[1] = (uint32_t)k->bin->image_len;
	}
	v[2] = k->kernel_id;
	v[3] = k->noc;
	v[4] = k->rta_count;
	v[5] = k->crta_count;
	put(b, v, sizeof(v));
	if (k->rta_count)
		put(b, k->rta, 4 * (size_t)k->rta_count);
	if (k->crta_count)
		put(b, k->crta, 4 * (size_t)k->crta_count);
}

static void describe_core(struct tt_launch_plan_bytes *b,
			  const struct tt_launch_core *c)
{
	put(b, &c->logical, sizeof(c->logical));
	put(b, &c->noc, sizeof(c->noc));
	put(b, &c->cb_mask, sizeof(c->cb_mask));
	put(b, &c->sem_mask, sizeof(c->sem_mask));
	put(b, c->sem, sizeof(c->sem));
	if (c->cbs)
		put(b, c->cbs,
		    cb_count(c->cb_mask) * sizeof(struct tt_cb_config));
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++)
		describe_hart(b, &c->hart[h]);
}

int tt_launch_plan_describe(struct tt_launch_plan *p, const struct tt_launch *l,
		     struct tt_xy notify_core, uint32_t notify_addr)
{
	uint32_t head[7] = { l->fast, l->print, l->cb_checks,
			     (uint32_t)notify_core.x | notify_core.y << 8,
			     notify_addr, l->ncores, l->print_sel.hash };

	p->next.len = 0;
	if (!reserve(&p->next, sizeof(head)))
		return -1;
	put(&p->next, head, sizeof(head));
	for (unsigned i = 0; i < l->ncores; i++) {
		if (!reserve(&p->next, core_size(&l->cores[i])))
			return -1;
		describe_core(&p->next, &l->cores[i]);
	}
	return 0;
}

static bool same_input(const struct tt_launch_plan *p)
{
	return p->valid && p->last.len == p->next.len &&
	       !memcmp(p->last.p, p->next.p, p->next.len);
}

bool tt_launch_plan_replayable(const struct tt_launch_plan *p)
{
	return p->recorded && same_input(p);
}

int tt_launch_plan_replay(const struct tt_launch_plan *p, uint32_t seq,
		   tt_wemit_fn emit, void *ctx)
{
	uint32_t seqs[TT_TENSIX_HARTS];
	int ret = 0;

	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++)
		seqs[h] = seq;
	for (unsigned i = 0; i < p->nw && !ret; i++) {
		const struct tt_launch_plan_write *w = &p->w[i];

		/* A launch-word write is never longer than seqs
		 * (is_launch_words). */
		ret = emit(ctx, w->a, w->b, w->addr,
			   w->seq ? (const void *)seqs : p->data.p + w->off,
			   w->len);
	}
	return ret;
}

void tt_launch_plan_record_start(struct tt_launch_plan *p, uint32_t seq,
			  tt_wemit_fn emit, void *ctx)
{
	p->recorded = false;
	p->nw = 0;
	p->data.len = 0;
	p->inner = emit;
	p->inner_ctx = ctx;
	p->seq = seq;
	p->rec_ok = true;
}

/* Launch words of harts (hw/l1.h), each written with this launch's seq:
 * every launch writes these and only these differently. */
static bool is_launch_words(uint32_t addr, const void *data, uint32_t len,
			    uint32_t seq)
{
	if (addr < TT_L1_LAUNCH_SEQ(0) || addr % 4 || !len || len % 4 ||
	    len > TT_L1_LAUNCH_SEQ(TT_TENSIX_HARTS) - addr)
		return false;
	for (uint32_t i = 0; i < len; i += 4) {
		uint32_t v;

		memcpy(&v, (const uint8_t *)data + i, 4);
		if (v != seq)
			return false;
	}
	return true;
}

static void record(struct tt_launch_plan *p, struct tt_xy a, struct tt_xy b,
		   uint32_t addr, const void *data, uint32_t len)
{
	struct tt_launch_plan_write *w;

	if (p->nw == p->cap) {
		unsigned cap = p->cap ? 2 * p->cap : 64;

		w = realloc(p->w, cap * sizeof(*w));
		if (!w) {
			p->rec_ok = false;
			return;
		}
		p->w = w;
		p->cap = cap;
	}
	if (!reserve(&p->data, len)) {
		p->rec_ok = false;
		return;
	}
	p->w[p->nw++] = (struct tt_launch_plan_write){
		.a = a, .b = b, .addr = addr, .len = len, .off = p->data.len,
		.seq = is_launch_words(addr, data, len, p->seq),
	};
	put(&p->data, data, len);
}

int tt_launch_plan_record_emit(void *plan, struct tt_xy a, struct tt_xy b,
			uint32_t addr, const void *data, uint32_t len)
{
	struct tt_launch_plan *p = plan;
	int ret = p->inner(p->inner_ctx, a, b, addr, data, len);

	if (!ret && p->rec_ok)
		record(p, a, b, addr, data, len);
	return ret;
}

void tt_launch_plan_launched(struct tt_launch_plan *p, unsigned counts)
{
	struct tt_launch_plan_bytes t;

	if (same_input(p)) {
		p->recorded = p->rec_ok;
		p->counts = counts;
		return;
	}
	/* A new input: the writes were made against another state. */
	t = p->last;
	p->last = p->next;
	p->next = t;
	p->valid = true;
	p->recorded = false;
}

void tt_launch_plan_forget(struct tt_launch_plan *p)
{
	p->valid = false;
	p->recorded = false;
}

void tt_launch_plan_free(struct tt_launch_plan *p)
{
	free(p->last.p);
	free(p->next.p);
	free(p->w);
	free(p->data.p);
	memset(p, 0, sizeof(*p));
}
