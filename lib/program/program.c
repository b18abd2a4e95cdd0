// SPDX-License-Identifier: Apache-2.0
/*
 * Program objects: creation, the buffers they hold, shared helpers, and
 * finalizing (program_internal.h): validation against a device, kernel
 * builds, and the per-core layout the dispatcher reads.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/memory/alloc.h"
#include "program_internal.h"

static atomic_uint next_program_id = 1;
static atomic_uint_fast64_t next_generation = 1;

/* Both names of the constructor (tt/common.h) build here; fn is the one
 * the caller called, for the messages. */
static int program_create(const char *fn, tt_program **out)
{
	tt_program *p;

	if (TT_ARG_NULL_IN(fn, out))
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return tt_error(-ENOMEM, "%s: out of memory", fn);
	p->id = atomic_fetch_add(&next_program_id, 1);
	*out = p;
	return 0;
}

int tt_program_create(tt_program **out)
{
	return program_create(__func__, out);
}

int tt_create_program(tt_program **out)
{
	return program_create(__func__, out);
}

static void drop_layout(tt_program *p)
{
	for (unsigned i = 0; i < p->ntables; i++)
		free(p->tables[i]);
	free(p->tables);
	free(p->cores);
	p->tables = NULL;
	p->ntables = 0;
	p->cores = NULL;
	p->ncores = 0;
	p->laid_out = false;
}

void tt_program_free(tt_program *p)
{
	if (!p)
		return;
	drop_layout(p);
	for (unsigned i = 0; i < p->nkernels; i++)
		tt_kernel_obj_free(p->kernels[i]);
	for (unsigned i = 0; i < p->ncbs; i++)
		tt_cb_obj_free(p->cbs[i]);
	for (unsigned i = 0; i < p->nsems; i++)
		tt_sem_obj_free(p->sems[i]);
	for (unsigned i = 0; i < p->nheld; i++)
		tt_buffer_unref(p->held[i]);
	free(p->kernels);
	free(p->cbs);
	free(p->sems);
	free(p->held);
	free(p);
}

int tt_program_hold_buffer(tt_program *p, struct tt_buffer *buf)
{
	if (!p || !buf)
		return tt_error(-EINVAL,
				"tt_assign_global_buffer_to_program: %s is NULL",
				p ? "buffer" : "program");
	if (tt_append(&p->held, &p->nheld, buf))
		return tt_error(-ENOMEM,
				"tt_assign_global_buffer_to_program: program %u: out of memory",
				p->id);
	return 0;
}

/* The program stores the reference taken here and drops it when it is
 * freed. */
int tt_assign_global_buffer_to_program(tt_buffer *buf, tt_program *prog)
{
	int ret;

	TT_CHECK_ARG(buf);
	TT_CHECK_ARG(prog);
	tt_buffer_ref(buf);
	ret = tt_program_hold_buffer(prog, buf);
	if (ret)
		tt_buffer_unref(buf);
	return ret;
}

void tt_program_changed(tt_program *p)
{
	p->laid_out = false;
}

unsigned tt_program_id(const tt_program *p)
{
	return p->id;
}

uint64_t tt_program_generation(const tt_program *p)
{
	return p->gen;
}

unsigned tt_program_num_kernels(const tt_program *p)
{
	return p->nkernels;
}

const struct tt_program_kernel *tt_program_kernel(const tt_program *p,
						  unsigned k)
{
	return k < p->nkernels ? &p->kernels[k]->pub : NULL;
}

const struct tt_program_core *tt_program_cores(const tt_program *p,
					       unsigned *n)
{
	*n = p->laid_out ? p->ncores : 0;
	return p->laid_out ? p->cores : NULL;
}

/* ---- helpers shared by the program files ---- */

int tt_append(void *arr, unsigned *n, void *ptr)
{
	void ***a = arr;
	void **grown = realloc(*a, (*n + 1) * sizeof(void *));

	if (!grown)
		return -ENOMEM;
	grown[(*n)++] = ptr;
	*a = grown;
	return 0;
}

int tt_error_wrap(int code, const char *fmt, ...)
{
	char prefix[256], msg[4096];
	va_list ap;

	snprintf(msg, sizeof(msg), "%s", tt_last_error());
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	return tt_error(code, "%s: %s", prefix, msg);
}

int tt_program_rset_from(struct tt_program_rset *out, const struct tt_core_range_set *s,
		 const char *fn)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if (!s)
		return tt_error(-EINVAL, "%s: core range set is NULL", fn);
	ret = tt_core_range_set_check(s);
	if (ret)
		return tt_error_wrap(ret, "%s", fn);
	if (!s->count)
		return tt_error(-EINVAL, "%s: the core range set is empty", fn);
	out->r = malloc(s->count * sizeof(*out->r));
	if (!out->r)
		return tt_error(-ENOMEM, "%s: out of memory", fn);
	memcpy(out->r, s->ranges, s->count * sizeof(*out->r));
	out->count = s->count;
	tt_core_range_set_bounding_box(s, &out->box);
	out->ncores = tt_core_range_set_num_cores(s);
	return 0;
}

void tt_program_rset_free(struct tt_program_rset *r)
{
	free(r->r);
	r->r = NULL;
	r->count = 0;
}

bool tt_program_rset_contains(const struct tt_program_rset *r, struct tt_xy c)
{
	if (!tt_core_range_contains(&r->box, c))
		return false;
	for (unsigned i = 0; i < r->count; i++)
		if (tt_core_range_contains(&r->r[i], c))
			return true;
	return false;
}

bool tt_program_rset_common(const struct tt_program_rset *a, const struct tt_program_rset *b,
		    struct tt_xy *core)
{
	struct tt_core_range i;

	if (!tt_core_range_intersects(&a->box, &b->box, NULL))
		return false;
	for (unsigned x = 0; x < a->count; x++)
		for (unsigned y = 0; y < b->count; y++)
			if (tt_core_range_intersects(&a->r[x], &b->r[y], &i)) {
				*core = i.start;
				return true;
			}
	return false;
}

void tt_program_rset_to_set(const struct tt_program_rset *r, struct tt_core_range_set *out)
{
	out->count = r->count;
	memcpy(out->ranges, r->r, r->count * sizeof(*r->r));
}

/* ---- finalize: validation ---- */

static unsigned outside(unsigned start, unsigned end, unsigned limit)
{
	return end < limit ? start : (start > limit ? start : limit);
}

static int check_rset(const tt_program *p, const struct tt_device *dev,
		      const struct tt_program_rset *r, const char *what, unsigned id,
		      unsigned w, unsigned h)
{
	if (r->box.end.x < w && r->box.end.y < h)
		return 0;
	for (unsigned i = 0; i < r->count; i++) {
		const struct tt_core_range *c = &r->r[i];

		if (c->end.x < w && c->end.y < h)
			continue;
		return tt_error(-EINVAL,
				"program %u: %s %u is placed on core (%u,%u), outside the %ux%u logical grid of %s",
				p->id, what, id,
				outside(c->start.x, c->end.x, w),
				outside(c->start.y, c->end.y, h), w, h,
				dev->name);
	}
	return 0;
}

static int check_cores(const tt_program *p, const struct tt_device *dev,
		       unsigned w, unsigned h)
{
	int ret = 0;

	for (unsigned i = 0; i < p->nkernels && !ret; i++)
		ret = check_rset(p, dev, &p->kernels[i]->cores, "kernel", i, w,
				 h);
	for (unsigned i = 0; i < p->ncbs && !ret; i++)
		ret = check_rset(p, dev, &p->cbs[i]->cores,
				 "circular buffer", i, w, h);
	for (unsigned i = 0; i < p->nsems && !ret; i++)
		ret = check_rset(p, dev, &p->sems[i]->cores, "semaphore",
				 p->sems[i]->id, w, h);
	return ret;
}

static int build_kernels(tt_program *p)
{
	int ret;

	for (unsigned i = 0; i < p->nkernels; i++) {
		if (p->kernels[i]->pub.bin)
			continue;
		ret = tt_kernel_build(p, p->kernels[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static bool all_built(const tt_program *p)
{
	for (unsigned i = 0; i < p->nkernels; i++)
		if (!p->kernels[i]->pub.bin)
			return false;
	return true;
}

/* ---- finalize: static CB region against the L1 limit ---- */

static uint64_t usable_l1_end(const struct tt_device *dev)
{
	return dev->info.l1_size - TT_L1_ARGS_SIZE;
}

static int check_cb_end(const tt_program *p, struct tt_device *dev,
			const struct tt_program_limits *lim,
			const struct tt_program_core *c)
{
	uint64_t end = usable_l1_end(dev);
	uint64_t limit = end;

	if (c->cb_end <= TT_L1_PROG_UNRESERVED)
		return 0;
	if (lim && lim->l1_cb_limit)
		limit = lim->l1_cb_limit(dev, c->logical);
	if (c->cb_end <= limit && c->cb_end <= end)
		return 0;
	if (limit < end)
		return tt_error(-ENOMEM,
				"circular buffers in program %u clash with L1 buffers on core (%u,%u): L1 buffer allocated at 0x%" PRIx64 " and static circular buffer region ends at 0x%x",
				p->id, c->logical.x, c->logical.y, limit,
				c->cb_end);
	return tt_error(-ENOMEM,
			"static circular buffers of program %u on core (%u,%u) grow to 0x%x, beyond the usable L1 of %s (0x%" PRIx64 ")",
			p->id, c->logical.x, c->logical.y, c->cb_end,
			dev->name, end);
}

static int check_cb_limits(const tt_program *p, struct tt_device *dev,
			   const struct tt_program_limits *lim,
			   const struct tt_program_core *cores, unsigned n)
{
	int ret;

	for (unsigned i = 0; i < n; i++) {
		ret = check_cb_end(p, dev, lim, &cores[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Has a dynamic CB's buffer moved since the layout? */
static bool dynamic_moved(const tt_program *p)
{
	for (unsigned i = 0; i < p->ncbs; i++) {
		const struct tt_cb_obj *cb = p->cbs[i];

		if (cb->cfg.buffer && tt_cb_dynamic_address(cb) != cb->addr)
			return true;
	}
	return false;
}

/* ---- finalize: layout ---- */

struct layout {
	unsigned w, h;
	int *slot; /* per logical cell: core index, or -1 */
	uint32_t *top; /* per cell: static CB region end */
	struct tt_program_core *cores;
	unsigned ncores;
	struct tt_cb_table **tables;
	uint32_t *hashes; /* of each table */
	unsigned ntables;
};

static void mark(struct layout *l, const struct tt_program_rset *r)
{
	for (unsigned i = 0; i < r->count; i++)
		for (unsigned y = r->r[i].start.y; y <= r->r[i].end.y; y++)
			for (unsigned x = r->r[i].start.x; x <= r->r[i].end.x;
			     x++)
				l->slot[y * l->w + x] = 0;
}

static int assign_cores(const tt_program *p, struct tt_device *dev,
			struct layout *l)
{
	unsigned cells = l->w * l->h, n = 0;

	for (unsigned i = 0; i < cells; i++)
		l->slot[i] = -1;
	for (unsigned i = 0; i < p->nkernels; i++)
		mark(l, &p->kernels[i]->cores);
	for (unsigned i = 0; i < p->ncbs; i++)
		mark(l, &p->cbs[i]->cores);
	for (unsigned i = 0; i < p->nsems; i++)
		mark(l, &p->sems[i]->cores);
	for (unsigned i = 0; i < cells; i++)
		if (!l->slot[i])
			n++;
	l->cores = calloc(n ? n : 1, sizeof(*l->cores));
	if (!l->cores)
		return -ENOMEM;
	n = 0;
	for (unsigned i = 0; i < cells; i++) {
		struct tt_program_core *c;

		if (l->slot[i])
			continue;
		c = &l->cores[n];
		l->slot[i] = (int)n++;
		c->logical.x = i % l->w;
		c->logical.y = i / l->w;
		c->noc.x = dev->soc.tensix[i].x;
		c->noc.y = dev->soc.tensix[i].y;
		for (unsigned h = 0; h < TT_TENSIX_HARTS; h++)
			c->kernel[h] = -1;
	}
	l->ncores = n;
	return 0;
}

static struct tt_program_core *core_at(struct layout *l, unsigned x,
				       unsigned y)
{
	return &l->cores[l->slot[y * l->w + x]];
}

static void place_kernel(struct layout *l, const struct tt_kernel_obj *k)
{
	const struct tt_program_rset *r = &k->cores;
	unsigned h = k->pub.proc, n = 0;

	for (unsigned i = 0; i < r->count; i++)
		for (unsigned y = r->r[i].start.y; y <= r->r[i].end.y; y++)
			for (unsigned x = r->r[i].start.x; x <= r->r[i].end.x;
			     x++, n++) {
				struct tt_program_core *c = core_at(l, x, y);
				const struct tt_rta *a = &k->rta[n];

				c->kernel[h] = (int)k->pub.id;
				c->ctx[h].kernel_id = k->pub.id;
				c->ctx[h].noc = k->pub.noc;
				c->ctx[h].rta_count = a->count > 0 ? a->count : 0;
				c->rta[h] = a->count > 0 ? a->args : NULL;
				c->ctx[h].crta_count =
					k->crta_count > 0 ? k->crta_count : 0;
				c->crta[h] = k->crta_count > 0 ? k->crta : NULL;
			}
}

static void place_sem(struct layout *l, const struct tt_sem_obj *s)
{
	const struct tt_program_rset *r = &s->cores;

	for (unsigned i = 0; i < r->count; i++)
		for (unsigned y = r->r[i].start.y; y <= r->r[i].end.y; y++)
			for (unsigned x = r->r[i].start.x; x <= r->r[i].end.x;
			     x++) {
				struct tt_program_core *c = core_at(l, x, y);

				c->sem_mask |= 1u << s->id;
				c->sem[s->id] = s->initial;
			}
}

static uint32_t mix(uint32_t h, uint32_t v)
{
	return (h ^ v) * 16777619u;
}

/* Over the configured entries only: the others are zero. */
static uint32_t table_hash(const struct tt_cb_table *t)
{
	uint32_t h = mix(2166136261u, t->mask);

	for (uint32_t m = t->mask; m; m &= m - 1) {
		const struct tt_cb_config *e = &t->cb[__builtin_ctz(m)];

		h = mix(mix(mix(mix(mix(h, e->addr), e->size), e->num_pages),
			    e->page_size),
			e->format);
	}
	return h;
}

/* The shared copy of t (added if new); NULL if out of memory. */
static const struct tt_cb_table *share_table(struct layout *l,
					     const struct tt_cb_table *t)
{
	uint32_t h = table_hash(t), *hashes;
	struct tt_cb_table *copy;
	unsigned n = l->ntables;

	/* Most programs have one table for all cores, or a few: look at
	 * the most recent ones first. */
	for (unsigned i = n; i-- > 0;)
		if (l->hashes[i] == h && !memcmp(l->tables[i], t, sizeof(*t)))
			return l->tables[i];
	hashes = realloc(l->hashes, (n + 1) * sizeof(*hashes));
	if (!hashes)
		return NULL;
	l->hashes = hashes;
	hashes[n] = h;
	copy = malloc(sizeof(*copy));
	if (!copy)
		return NULL;
	*copy = *t;
	if (tt_append(&l->tables, &l->ntables, copy)) {
		free(copy);
		return NULL;
	}
	return copy;
}

static int fill_core(const tt_program *p, struct layout *l,
		     struct tt_program_core *c)
{
	struct tt_cb_table t;

	c->cb_end = l->top[c->logical.y * l->w + c->logical.x];
	tt_cb_fill_table(p, c->logical, &t);
	if (t.mask) {
		c->cbs = share_table(l, &t);
		if (!c->cbs)
			return -ENOMEM;
	}
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		struct tt_kernel_ctx *x = &c->ctx[h];

		if (c->kernel[h] < 0)
			continue;
		x->rta = TT_L1_RTA(h);
		x->crta = x->rta + 4 * x->rta_count;
		x->cb_mask = t.mask;
	}
	return 0;
}

static void layout_free(struct layout *l)
{
	for (unsigned i = 0; i < l->ntables; i++)
		free(l->tables[i]);
	free(l->tables);
	free(l->hashes);
	free(l->cores);
	free(l->slot);
	free(l->top);
}

static int lay_out(tt_program *p, struct tt_device *dev,
		   const struct tt_program_limits *lim, unsigned w, unsigned h)
{
	struct layout l = { .w = w, .h = h };
	int ret = -ENOMEM;

	l.slot = malloc(w * h * sizeof(*l.slot));
	l.top = malloc(w * h * sizeof(*l.top));
	if (!l.slot || !l.top || assign_cores(p, dev, &l))
		goto nomem;
	for (unsigned i = 0; i < w * h; i++)
		l.top[i] = TT_L1_PROG_UNRESERVED;
	for (unsigned i = 0; i < p->nkernels; i++)
		place_kernel(&l, p->kernels[i]);
	for (unsigned i = 0; i < p->nsems; i++)
		place_sem(&l, p->sems[i]);
	ret = tt_cb_place(p, l.top, w);
	if (ret)
		goto fail;
	for (unsigned i = 0; i < l.ncores; i++)
		if (fill_core(p, &l, &l.cores[i]))
			goto nomem;
	ret = check_cb_limits(p, dev, lim, l.cores, l.ncores);
	if (ret)
		goto fail;
	drop_layout(p);
	p->cores = l.cores;
	p->ncores = l.ncores;
	p->tables = l.tables;
	p->ntables = l.ntables;
	free(l.hashes);
	free(l.slot);
	free(l.top);
	return 0;
nomem:
	ret = tt_error(-ENOMEM, "program %u: out of memory", p->id);
fail:
	layout_free(&l);
	return ret;
}

/* What finalize does first, and all tt_compile_program does: the
 * program's cores against dev's grid (w x h), then its kernels built. */
static int check_and_build(tt_program *p, struct tt_device *dev, bool build,
			   unsigned *w, unsigned *h)
{
	int ret = tt_device_logical_grid(dev, w, h);

	if (!ret)
		ret = check_cores(p, dev, *w, *h);
	if (!ret && build)
		ret = build_kernels(p);
	return ret;
}

int tt_compile_program(tt_device *dev, tt_program *prog)
{
	unsigned w, h;

	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(prog);
	return check_and_build(prog, dev, true, &w, &h);
}

int tt_program_finalize(tt_program *p, struct tt_device *dev,
			const struct tt_program_limits *lim)
{
	bool build = !lim || !lim->skip_build;
	unsigned w, h;
	int ret;

	if (!p || !dev)
		return tt_error(-EINVAL, "tt_program_finalize: %s is NULL",
				p ? "device" : "program");
	if (p->laid_out && p->dev == dev && (!build || all_built(p)) &&
	    !dynamic_moved(p))
		return check_cb_limits(p, dev, lim, p->cores, p->ncores);
	ret = check_and_build(p, dev, build, &w, &h);
	if (!ret)
		ret = lay_out(p, dev, lim, w, h);
	if (ret)
		return ret;
	p->dev = dev;
	p->gen = atomic_fetch_add(&next_generation, 1);
	p->laid_out = true;
	return 0;
}
