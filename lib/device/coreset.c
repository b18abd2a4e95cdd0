// SPDX-License-Identifier: Apache-2.0
/*
 * Core ranges and range sets (tt/core.h), and the device's logical grid.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tt/core.h"

struct tt_core_range tt_core_range(unsigned x0, unsigned y0, unsigned x1,
				   unsigned y1)
{
	struct tt_core_range r = { { x0, y0 }, { x1, y1 } };

	return r;
}

bool tt_core_range_valid(const struct tt_core_range *r)
{
	if (TT_ARG_NULL(r))
		return false;
	return r->start.x <= r->end.x && r->start.y <= r->end.y &&
	       r->end.x < TT_CORE_COORD_LIMIT && r->end.y < TT_CORE_COORD_LIMIT;
}

unsigned tt_core_range_num_cores(const struct tt_core_range *r)
{
	if (TT_ARG_NULL(r))
		return 0;
	return (r->end.x - r->start.x + 1) * (r->end.y - r->start.y + 1);
}

bool tt_core_range_contains(const struct tt_core_range *r, struct tt_xy c)
{
	if (TT_ARG_NULL(r))
		return false;
	return c.x >= r->start.x && c.x <= r->end.x && c.y >= r->start.y &&
	       c.y <= r->end.y;
}

static unsigned umax(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

static unsigned umin(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

bool tt_core_range_intersects(const struct tt_core_range *a,
			      const struct tt_core_range *b,
			      struct tt_core_range *out)
{
	struct tt_core_range i;

	if (TT_ARG_NULL(a) || TT_ARG_NULL(b))
		return false;
	i.start.x = umax(a->start.x, b->start.x);
	i.start.y = umax(a->start.y, b->start.y);
	i.end.x = umin(a->end.x, b->end.x);
	i.end.y = umin(a->end.y, b->end.y);
	if (i.start.x > i.end.x || i.start.y > i.end.y)
		return false;
	if (out)
		*out = i;
	return true;
}

/* ---- sets ---- */

struct tt_core_range_set tt_core_range_set_of_core(unsigned x, unsigned y)
{
	return tt_core_range_set_of_range(x, y, x, y);
}

struct tt_core_range_set tt_core_range_set_of_range(unsigned x0, unsigned y0,
						    unsigned x1, unsigned y1)
{
	struct tt_core_range_set s = {
		.count = 1,
		.ranges[0] = { { x0, y0 }, { x1, y1 } },
	};

	return s;
}

static int bad_range(const struct tt_core_range *r)
{
	if (r->start.x > r->end.x || r->start.y > r->end.y)
		return tt_error(-EINVAL,
				"core range (%u,%u)-(%u,%u): end before start",
				r->start.x, r->start.y, r->end.x, r->end.y);
	return tt_error(-EINVAL,
			"core range (%u,%u)-(%u,%u): coordinates must be below %u",
			r->start.x, r->start.y, r->end.x, r->end.y,
			TT_CORE_COORD_LIMIT);
}

static int overlap(const struct tt_core_range *a, const struct tt_core_range *b)
{
	return tt_error(-EINVAL,
			"core ranges (%u,%u)-(%u,%u) and (%u,%u)-(%u,%u) overlap",
			a->start.x, a->start.y, a->end.x, a->end.y, b->start.x,
			b->start.y, b->end.x, b->end.y);
}

int tt_core_range_set_add(struct tt_core_range_set *s, struct tt_core_range r)
{
	TT_CHECK_ARG(s);
	if (!tt_core_range_valid(&r))
		return bad_range(&r);
	for (unsigned i = 0; i < s->count; i++)
		if (tt_core_range_intersects(&s->ranges[i], &r, NULL))
			return overlap(&s->ranges[i], &r);
	if (s->count >= TT_CORE_RANGE_SET_MAX)
		return tt_error(-E2BIG,
				"core range set is full (%u ranges): cannot add (%u,%u)-(%u,%u)",
				TT_CORE_RANGE_SET_MAX, r.start.x, r.start.y,
				r.end.x, r.end.y);
	s->ranges[s->count++] = r;
	return 0;
}

int tt_core_range_set_init(struct tt_core_range_set *s,
			   const struct tt_core_range *ranges, unsigned n)
{
	int ret;

	TT_CHECK_ARG(s);
	if (TT_ARG_NULL_LEN(ranges, n))
		return -EINVAL;
	s->count = 0;
	if (n > TT_CORE_RANGE_SET_MAX)
		return tt_error(-E2BIG,
				"core range set of %u ranges: at most %u",
				n, TT_CORE_RANGE_SET_MAX);
	for (unsigned i = 0; i < n; i++) {
		ret = tt_core_range_set_add(s, ranges[i]);
		if (ret) {
			s->count = 0;
			return ret;
		}
	}
	return 0;
}

int tt_core_range_set_check(const struct tt_core_range_set *s)
{
	if (!s)
		return tt_error(-EINVAL, "%s: core range set is NULL", __func__);
	if (s->count > TT_CORE_RANGE_SET_MAX)
		return tt_error(-EINVAL,
				"core range set claims %u ranges (at most %u)",
				s->count, TT_CORE_RANGE_SET_MAX);
	for (unsigned i = 0; i < s->count; i++) {
		if (!tt_core_range_valid(&s->ranges[i]))
			return bad_range(&s->ranges[i]);
		for (unsigned j = 0; j < i; j++)
			if (tt_core_range_intersects(&s->ranges[j],
						     &s->ranges[i], NULL))
				return overlap(&s->ranges[j], &s->ranges[i]);
	}
	return 0;
}

bool tt_core_range_set_contains(const struct tt_core_range_set *s,
				struct tt_xy c)
{
	if (TT_ARG_NULL(s))
		return false;
	for (unsigned i = 0; i < s->count; i++)
		if (tt_core_range_contains(&s->ranges[i], c))
			return true;
	return false;
}

bool tt_core_range_set_intersects(const struct tt_core_range_set *a,
				  const struct tt_core_range_set *b)
{
	if (TT_ARG_NULL(a) || TT_ARG_NULL(b))
		return false;
	for (unsigned i = 0; i < a->count; i++)
		for (unsigned j = 0; j < b->count; j++)
			if (tt_core_range_intersects(&a->ranges[i],
						     &b->ranges[j], NULL))
				return true;
	return false;
}

unsigned tt_core_range_set_num_cores(const struct tt_core_range_set *s)
{
	unsigned n = 0;

	if (TT_ARG_NULL(s))
		return 0;
	for (unsigned i = 0; i < s->count; i++)
		n += tt_core_range_num_cores(&s->ranges[i]);
	return n;
}

int tt_core_range_set_bounding_box(const struct tt_core_range_set *s,
				   struct tt_core_range *out)
{
	struct tt_core_range b;

	TT_CHECK_ARG(s);
	TT_CHECK_ARG(out);
	if (!s->count)
		return tt_error(-EINVAL, "%s: the set is empty", __func__);
	b = s->ranges[0];
	for (unsigned i = 1; i < s->count; i++) {
		const struct tt_core_range *r = &s->ranges[i];

		b.start.x = umin(b.start.x, r->start.x);
		b.start.y = umin(b.start.y, r->start.y);
		b.end.x = umax(b.end.x, r->end.x);
		b.end.y = umax(b.end.y, r->end.y);
	}
	*out = b;
	return 0;
}

/* Cores of r that are in s (s's ranges do not overlap, so this adds up). */
static unsigned cores_in(const struct tt_core_range_set *s,
			 const struct tt_core_range *r)
{
	struct tt_core_range i;
	unsigned n = 0;

	for (unsigned k = 0; k < s->count; k++)
		if (tt_core_range_intersects(&s->ranges[k], r, &i))
			n += tt_core_range_num_cores(&i);
	return n;
}

bool tt_core_range_set_equal(const struct tt_core_range_set *a,
			     const struct tt_core_range_set *b)
{
	if (TT_ARG_NULL(a) || TT_ARG_NULL(b))
		return false;
	if (tt_core_range_set_num_cores(a) != tt_core_range_set_num_cores(b))
		return false;
	for (unsigned i = 0; i < a->count; i++)
		if (cores_in(b, &a->ranges[i]) !=
		    tt_core_range_num_cores(&a->ranges[i]))
			return false;
	return true;
}

/* ---- iteration ---- */

void tt_core_iter_init(struct tt_core_iter *it,
		       const struct tt_core_range_set *s)
{
	if (TT_ARG_NULL(it) || TT_ARG_NULL(s))
		return;
	it->set = s;
	it->range = 0;
	if (s->count)
		it->next = s->ranges[0].start;
}

bool tt_core_iter_next(struct tt_core_iter *it, struct tt_xy *core)
{
	const struct tt_core_range *r;

	if (TT_ARG_NULL(it) || TT_ARG_NULL(it->set) || TT_ARG_NULL(core))
		return false;
	if (it->range >= it->set->count)
		return false;
	r = &it->set->ranges[it->range];
	*core = it->next;
	if (it->next.x < r->end.x) {
		it->next.x++;
	} else if (it->next.y < r->end.y) {
		it->next.x = r->start.x;
		it->next.y++;
	} else if (++it->range < it->set->count) {
		it->next = it->set->ranges[it->range].start;
	}
	return true;
}

unsigned tt_core_range_set_to_cores(const struct tt_core_range_set *s,
				    struct tt_xy *out, unsigned max)
{
	struct tt_core_iter it;
	struct tt_xy c;
	unsigned n = 0;

	if (TT_ARG_NULL(s) || TT_ARG_NULL_LEN(out, max))
		return 0;
	for (tt_core_iter_init(&it, s); tt_core_iter_next(&it, &c); n++)
		if (n < max)
			out[n] = c;
	return n;
}

/* ---- merge ---- */

/* Cells of a bounding box, one bit each: at most 256 x 256. */
struct cellmap {
	struct tt_core_range box;
	unsigned w;
	uint64_t bits[TT_CORE_COORD_LIMIT * TT_CORE_COORD_LIMIT / 64];
};

static bool cell_get(const struct cellmap *m, unsigned x, unsigned y)
{
	unsigned i = (y - m->box.start.y) * m->w + (x - m->box.start.x);

	return m->bits[i / 64] >> (i % 64) & 1;
}

static void cell_put(struct cellmap *m, unsigned x, unsigned y, bool v)
{
	unsigned i = (y - m->box.start.y) * m->w + (x - m->box.start.x);

	if (v)
		m->bits[i / 64] |= 1ull << (i % 64);
	else
		m->bits[i / 64] &= ~(1ull << (i % 64));
}

static void cells_fill(struct cellmap *m, const struct tt_core_range_set *s)
{
	for (unsigned i = 0; i < s->count; i++) {
		const struct tt_core_range *r = &s->ranges[i];

		for (unsigned y = r->start.y; y <= r->end.y; y++)
			for (unsigned x = r->start.x; x <= r->end.x; x++)
				cell_put(m, x, y, true);
	}
}

static bool row_full(const struct cellmap *m, unsigned y, unsigned x0,
		     unsigned x1)
{
	for (unsigned x = x0; x <= x1; x++)
		if (!cell_get(m, x, y))
			return false;
	return true;
}

/* Take the range whose top-left corner is (x, y): widest, then tallest. */
static struct tt_core_range take_range(struct cellmap *m, unsigned x,
				       unsigned y)
{
	struct tt_core_range r = { { x, y }, { x, y } };

	while (r.end.x < m->box.end.x && cell_get(m, r.end.x + 1, y))
		r.end.x++;
	while (r.end.y < m->box.end.y &&
	       row_full(m, r.end.y + 1, r.start.x, r.end.x))
		r.end.y++;
	for (unsigned yy = r.start.y; yy <= r.end.y; yy++)
		for (unsigned xx = r.start.x; xx <= r.end.x; xx++)
			cell_put(m, xx, yy, false);
	return r;
}

static int decompose(struct cellmap *m, struct tt_core_range_set *out)
{
	out->count = 0;
	for (unsigned y = m->box.start.y; y <= m->box.end.y; y++)
		for (unsigned x = m->box.start.x; x <= m->box.end.x; x++) {
			if (!cell_get(m, x, y))
				continue;
			if (out->count == TT_CORE_RANGE_SET_MAX)
				return tt_error(-E2BIG,
						"merged core range set needs more than %u ranges",
						TT_CORE_RANGE_SET_MAX);
			out->ranges[out->count++] = take_range(m, x, y);
		}
	return 0;
}

int tt_core_range_set_merge(struct tt_core_range_set *s,
			    const struct tt_core_range_set *other)
{
	struct tt_core_range_set both;
	struct tt_core_range a, b;
	struct cellmap *m;
	int ret;

	TT_CHECK_ARG(s);
	TT_CHECK_ARG(other);
	ret = tt_core_range_set_check(s);
	if (!ret)
		ret = tt_core_range_set_check(other);
	if (ret)
		return ret;
	if (!s->count && !other->count)
		return 0;
	if (!s->count)
		a = other->ranges[0];
	else
		tt_core_range_set_bounding_box(s, &a);
	if (!other->count)
		b = a;
	else
		tt_core_range_set_bounding_box(other, &b);
	m = calloc(1, sizeof(*m));
	if (!m)
		return tt_error(-ENOMEM, "tt_core_range_set_merge: out of memory");
	m->box.start.x = umin(a.start.x, b.start.x);
	m->box.start.y = umin(a.start.y, b.start.y);
	m->box.end.x = umax(a.end.x, b.end.x);
	m->box.end.y = umax(a.end.y, b.end.y);
	m->w = m->box.end.x - m->box.start.x + 1;
	cells_fill(m, s);
	cells_fill(m, other);
	ret = decompose(m, &both);
	free(m);
	if (!ret)
		*s = both;
	return ret;
}

/* ---- the device's logical grid ---- */

/* The whole grid of enabled Tensix cores, the dispatch row included. */
static int full_grid(const tt_device *dev, unsigned *w, unsigned *h)
{
	const struct soc_desc *s;
	unsigned cols = 0;

	s = &dev->soc;
	while (cols < s->tensix_count && s->tensix[cols].y == s->tensix[0].y)
		cols++;
	if (!cols || s->tensix_count % cols)
		goto irregular;
	/* Every row must have the first row's columns, in the same order. */
	for (unsigned i = cols; i < s->tensix_count; i++)
		if (s->tensix[i].x != s->tensix[i % cols].x ||
		    s->tensix[i].y != s->tensix[i - i % cols].y ||
		    s->tensix[i].y == s->tensix[i - cols].y)
			goto irregular;
	*w = cols;
	*h = s->tensix_count / cols;
	return 0;
irregular:
	return tt_error(-EPROTO,
			"%s: the %u enabled Tensix cores do not form a grid",
			dev->name, s->tensix_count);
}

int tt_device_logical_grid(const tt_device *dev, unsigned *w, unsigned *h)
{
	int ret;

	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(w);
	TT_CHECK_ARG(h);
	ret = full_grid(dev, w, h);
	if (!ret && *h < 2)
		return tt_error(-EPROTO,
				"%s: %u row of Tensix cores: none left for programs beside the dispatch row",
				dev->name, *h);
	if (!ret)
		*h -= 1;
	return ret;
}

int tt_device_dispatch_core(const tt_device *dev, struct tt_xy *noc0)
{
	unsigned w, h;
	int ret;

	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(noc0);
	ret = tt_device_logical_grid(dev, &w, &h);
	return ret ? ret : tt_device_tensix_core(dev, h * w, noc0);
}

int tt_device_worker_core(const tt_device *dev, struct tt_xy logical,
			  struct tt_xy *noc0)
{
	unsigned w, h;
	int ret;

	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(noc0);
	ret = tt_device_logical_grid(dev, &w, &h);
	if (ret)
		return ret;
	if (logical.x >= w || logical.y >= h)
		return tt_error(-EINVAL,
				"%s: logical core (%u,%u) is outside the %ux%u grid of Tensix cores",
				dev->name, logical.x, logical.y, w, h);
	return tt_device_tensix_core(dev, logical.y * w + logical.x, noc0);
}

/* ---- splitting work over a grid (TT-Metal's work_split.hpp) ---- */

/* The grid as w x h cores: -EINVAL naming fn if empty or too large. */
static int check_grid(struct tt_xy grid, const char *fn)
{
	if (!grid.x || !grid.y || grid.x > TT_CORE_COORD_LIMIT ||
	    grid.y > TT_CORE_COORD_LIMIT)
		return tt_error(-EINVAL, "%s: grid %ux%u is not 1..%u by 1..%u cores",
				fn, grid.x, grid.y, TT_CORE_COORD_LIMIT,
				TT_CORE_COORD_LIMIT);
	return 0;
}

/* Core number i of the grid in order: rows first (row_wise) or columns
 * first. */
static struct tt_xy nth_core(struct tt_xy grid, unsigned i, bool row_wise)
{
	struct tt_xy c;

	if (row_wise) {
		c.x = i % grid.x;
		c.y = i / grid.x;
	} else {
		c.x = i / grid.y;
		c.y = i % grid.y;
	}
	return c;
}

/* *s = cores first .. first + n - 1 of the grid in order: the rest of a
 * partial line, the whole lines, the start of a last line (at most three
 * ranges). */
static void cores_in_order(struct tt_xy grid, unsigned first, unsigned n,
			   bool row_wise, struct tt_core_range_set *s)
{
	unsigned line = row_wise ? grid.x : grid.y;

	s->count = 0;
	while (n) {
		unsigned pos = first % line, take;
		struct tt_xy a = nth_core(grid, first, row_wise), b;

		if (pos || n < line) {
			take = line - pos < n ? line - pos : n;
		} else {
			take = n / line * line; /* whole lines */
		}
		b = nth_core(grid, first + take - 1, row_wise);
		s->ranges[s->count++] = (struct tt_core_range){ a, b };
		first += take;
		n -= take;
	}
}

int tt_num_cores_to_core_range_set(unsigned num_cores, struct tt_xy grid,
				   bool row_wise,
				   struct tt_core_range_set *out)
{
	static const char fn[] = "tt_num_cores_to_core_range_set";
	int ret;

	if (!out)
		return tt_error(-EINVAL, "%s: out is NULL", fn);
	ret = check_grid(grid, fn);
	if (ret)
		return ret;
	if (num_cores > grid.x * grid.y)
		return tt_error(-EINVAL, "%s: %u cores do not fit a %ux%u grid",
				fn, num_cores, grid.x, grid.y);
	cores_in_order(grid, 0, num_cores, row_wise, out);
	return 0;
}

int tt_split_work_to_cores(struct tt_xy grid, uint32_t units, bool row_wise,
			   struct tt_work_split *out)
{
	static const char fn[] = "tt_split_work_to_cores";
	unsigned cores, rem;
	int ret;

	if (!out)
		return tt_error(-EINVAL, "%s: out is NULL", fn);
	ret = check_grid(grid, fn);
	if (ret)
		return ret;
	memset(out, 0, sizeof(*out));
	if (!units)
		return 0;
	cores = units < grid.x * grid.y ? units : grid.x * grid.y;
	rem = units % cores;
	out->num_cores = cores;
	cores_in_order(grid, 0, cores, row_wise, &out->all_cores);
	if (!rem) {
		out->core_group_1 = out->all_cores;
		out->units_per_core_group_1 = units / cores;
		return 0;
	}
	/* The first rem cores take one unit more. */
	cores_in_order(grid, 0, rem, row_wise, &out->core_group_1);
	cores_in_order(grid, rem, cores - rem, row_wise, &out->core_group_2);
	out->units_per_core_group_1 = units / cores + 1;
	out->units_per_core_group_2 = units / cores;
	return 0;
}
