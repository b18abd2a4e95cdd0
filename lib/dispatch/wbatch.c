// SPDX-License-Identifier: Apache-2.0
#include "wbatch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tt/device.h"

struct tt_wentry {
	unsigned phase;
	struct tt_xy core;
	uint32_t addr, len;
	const void *data; /* or, while copies are pending, NULL */
	size_t copy; /* arena offset of a copy */
	uint64_t hash;
};

void tt_wbatch_init(struct tt_wbatch *b, const struct tt_device *dev)
{
	memset(b, 0, sizeof(*b));
	b->dev = dev;
}

void tt_wbatch_free(struct tt_wbatch *b)
{
	free(b->w);
	free(b->arena);
	tt_wbatch_init(b, b->dev);
}

/* Groups candidates only (equal data is confirmed with memcmp): eight
 * bytes a step, as launches hash every core's configuration. */
static uint64_t hash_bytes(const void *p, uint32_t len)
{
	const uint8_t *s = p;
	uint64_t h = 0x9E3779B97F4A7C15ull ^ len, w;
	uint32_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xFF51AFD7ED558CCDull;
		h ^= h >> 29;
	}
	for (; i < len; i++)
		h = (h ^ s[i]) * 0x100000001B3ull;
	return h;
}

static struct tt_wentry *add(struct tt_wbatch *b, unsigned phase,
			     struct tt_xy core, uint32_t addr,
			     const void *data, uint32_t len)
{
	struct tt_wentry *e;

	if (b->n == b->cap) {
		unsigned cap = b->cap ? 2 * b->cap : 64;
		struct tt_wentry *w = realloc(b->w, cap * sizeof(*w));

		if (!w)
			return NULL;
		b->w = w;
		b->cap = cap;
	}
	e = &b->w[b->n++];
	*e = (struct tt_wentry){ .phase = phase, .core = core, .addr = addr,
				 .len = len, .data = data,
				 .hash = hash_bytes(data, len) };
	return e;
}

int tt_wbatch_ref(struct tt_wbatch *b, unsigned phase, struct tt_xy core,
		  uint32_t addr, const void *data, uint32_t len)
{
	return add(b, phase, core, addr, data, len) ?
		       0 :
		       tt_error(-ENOMEM, "out of memory batching writes");
}

int tt_wbatch_copy(struct tt_wbatch *b, unsigned phase, struct tt_xy core,
		   uint32_t addr, const void *data, uint32_t len)
{
	struct tt_wentry *e;

	if (b->used + len > b->size) {
		size_t size = b->size ? 2 * b->size : 16384;
		uint8_t *a;

		while (size < b->used + len)
			size *= 2;
		a = realloc(b->arena, size);
		if (!a)
			return tt_error(-ENOMEM, "out of memory batching writes");
		b->arena = a;
		b->size = size;
	}
	memcpy(b->arena + b->used, data, len);
	e = add(b, phase, core, addr, b->arena + b->used, len);
	if (!e)
		return tt_error(-ENOMEM, "out of memory batching writes");
	/* The arena may move before the batch is emitted. */
	e->data = NULL;
	e->copy = b->used;
	b->used += (len + 7) & ~7u;
	return 0;
}

static const void *data_of(const struct tt_wbatch *b, const struct tt_wentry *e)
{
	return e->data ? e->data : b->arena + e->copy;
}

/* ---- grouping ---- */

static int cmp_entry(const void *pa, const void *pb)
{
	const struct tt_wentry *a = pa, *b = pb;

	if (a->phase != b->phase)
		return a->phase < b->phase ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	if (a->core.y != b->core.y)
		return a->core.y < b->core.y ? -1 : 1;
	if (a->core.x != b->core.x)
		return a->core.x < b->core.x ? -1 : 1;
	return 0;
}

static bool same_write(const struct tt_wbatch *b, const struct tt_wentry *x,
		       const struct tt_wentry *y)
{
	return x->phase == y->phase && x->addr == y->addr &&
	       x->len == y->len && x->hash == y->hash &&
	       !memcmp(data_of(b, x), data_of(b, y), x->len);
}

/* ---- rectangles ---- */

enum { ABSENT, WANTED, COVERED };

struct cover {
	unsigned gx, gy;
	uint8_t *state; /* gx * gy */
	uint8_t *tensix; /* gx * gy: an enabled Tensix node, which multicasts
			  * reach; looked up once per batch */
};

static bool enabled_tensix(const struct cover *c, unsigned x, unsigned y)
{
	return c->tensix[y * c->gx + x];
}

/* May a multicast cover x0..x1, y0..y1? Every enabled Tensix core in it
 * must want this write and not have it yet. */
static bool rect_ok(const struct cover *c, unsigned x0, unsigned y0,
		    unsigned x1, unsigned y1)
{
	for (unsigned y = y0; y <= y1; y++)
		for (unsigned x = x0; x <= x1; x++)
			if (enabled_tensix(c, x, y) &&
			    c->state[y * c->gx + x] != WANTED)
				return false;
	return true;
}

/* Grow right, then down, as far as rect_ok allows. */
static void grow(const struct cover *c, struct tt_xy a, struct tt_xy *b)
{
	*b = a;
	for (unsigned x = a.x + 1; x < c->gx; x++)
		if (rect_ok(c, a.x, a.y, x, a.y))
			b->x = x;
		else
			break;
	for (unsigned y = a.y + 1; y < c->gy; y++)
		if (rect_ok(c, a.x, a.y, b->x, y))
			b->y = y;
		else
			break;
}

static void mark(struct cover *c, struct tt_xy a, struct tt_xy b)
{
	for (unsigned y = a.y; y <= b.y; y++)
		for (unsigned x = a.x; x <= b.x; x++)
			if (c->state[y * c->gx + x] == WANTED)
				c->state[y * c->gx + x] = COVERED;
}

static int emit_group(const struct tt_wbatch *b, struct cover *c,
		      const struct tt_wentry *g, unsigned n, tt_wemit_fn emit,
		      void *ctx)
{
	int ret = 0;

	memset(c->state, ABSENT, c->gx * c->gy);
	for (unsigned i = 0; i < n; i++)
		c->state[g[i].core.y * c->gx + g[i].core.x] = WANTED;
	/* g is sorted row-major: each rectangle starts at its top-left. */
	for (unsigned i = 0; i < n && !ret; i++) {
		struct tt_xy a = g[i].core, e;

		if (c->state[a.y * c->gx + a.x] != WANTED)
			continue;
		grow(c, a, &e);
		mark(c, a, e);
		ret = emit(ctx, a, e, g[i].addr, data_of(b, &g[i]), g[i].len);
	}
	return ret;
}

int tt_wbatch_emit(struct tt_wbatch *b, tt_wemit_fn emit, void *ctx)
{
	struct cover c = { .gx = b->dev->soc.grid_x, .gy = b->dev->soc.grid_y };
	int ret = 0;

	for (unsigned i = 0; i < b->n; i++)
		if (b->w[i].core.x >= c.gx || b->w[i].core.y >= c.gy)
			return tt_error(-EINVAL,
					"%s: core (%u,%u) is outside the NOC grid",
					b->dev->name, b->w[i].core.x,
					b->w[i].core.y);
	c.state = malloc(2 * (size_t)c.gx * c.gy + 1);
	if (!c.state)
		return tt_error(-ENOMEM, "out of memory batching writes");
	c.tensix = c.state + (size_t)c.gx * c.gy;
	for (unsigned y = 0; y < c.gy; y++)
		for (unsigned x = 0; x < c.gx; x++)
			c.tensix[y * c.gx + x] =
				tt_device_core_type(b->dev, x, y) ==
					TT_CORE_TENSIX &&
				!tt_device_core_harvested(b->dev, x, y);
	qsort(b->w, b->n, sizeof(*b->w), cmp_entry);
	for (unsigned i = 0, j; i < b->n && !ret; i = j) {
		for (j = i + 1; j < b->n && same_write(b, &b->w[i], &b->w[j]);
		     j++)
			;
		ret = emit_group(b, &c, &b->w[i], j - i, emit, ctx);
	}
	free(c.state);
	return ret;
}
