/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Core coordinates, ranges and range sets (TT-Metal's CoreCoord, CoreRange
 * and CoreRangeSet).
 *
 * Program calls name cores by LOGICAL coordinates: (x, y) in the grid of
 * the device's enabled Tensix cores, (0, 0) top left, x the column. Logical
 * core (x, y) is enabled Tensix core number y * w + x of the device (w, h:
 * tt_device_logical_grid), whose NOC coordinates tt_device_worker_core
 * gives -- kernels that address other cores over the NOC need those.
 *
 * A range is a rectangle of cores, both corners included. A range set is a
 * value (no allocation, safe to copy) holding up to TT_CORE_RANGE_SET_MAX
 * ranges that do not overlap; the empty set is valid. Building a set:
 *
 *   tt_core_range_set_of_core / _of_range   one core, one rectangle
 *   tt_core_range_set_init / _add           exact ranges; an overlap is
 *                                           an error (TT-Metal's
 *                                           CoreRangeSet constructor)
 *   tt_core_range_set_merge                 union; overlapping and
 *                                           adjacent ranges are combined
 *                                           into the fewest rectangles
 *                                           (TT-Metal's merge)
 *
 * Functions taking a set check it (tt_core_range_set_check): every range
 * has start <= end in both coordinates and x, y < TT_CORE_COORD_LIMIT, no
 * two ranges overlap. A set built with the functions above always passes.
 *
 * Iteration order (tt_core_iter, tt_core_range_set_to_cores): the ranges
 * in the set's order, each row by row (y outer, x inner). init and add keep
 * the order given; merge sorts by (start.y, start.x).
 *
 * Thread-safety: all functions are pure.
 */
#ifndef TT_CORE_API_H
#define TT_CORE_API_H

#include "common.h"
#include "device.h"

/* Ranges in one set: a range per core even on a grid of 256 cores (the
 * most any device has), and small enough (4 KiB) to keep sets on the
 * stack. */
#define TT_CORE_RANGE_SET_MAX 256u
/* Logical coordinates are below this (no device has a wider grid). */
#define TT_CORE_COORD_LIMIT 256u

/* An inclusive rectangle of logical cores. */
struct tt_core_range {
	struct tt_xy start, end;
};

struct tt_core_range_set {
	unsigned count;
	struct tt_core_range ranges[TT_CORE_RANGE_SET_MAX];
};

/* ---- ranges ---- */

/* The range (x0, y0)-(x1, y1). */
TT_API struct tt_core_range tt_core_range(unsigned x0, unsigned y0,
					  unsigned x1, unsigned y1);

/* start <= end in both coordinates, and both below TT_CORE_COORD_LIMIT. */
TT_API bool tt_core_range_valid(const struct tt_core_range *r);

/* Cores in a valid range. */
TT_API unsigned tt_core_range_num_cores(const struct tt_core_range *r);

TT_API bool tt_core_range_contains(const struct tt_core_range *r,
				   struct tt_xy core);

/* Do two valid ranges share a core? If so and out is not NULL, *out is
 * their intersection. */
TT_API bool tt_core_range_intersects(const struct tt_core_range *a,
				     const struct tt_core_range *b,
				     struct tt_core_range *out);

/* ---- range sets ---- */

/* The set of one core; of one range (not checked here: a bad range makes
 * a set that every call refuses with a message naming it). */
TT_API struct tt_core_range_set tt_core_range_set_of_core(unsigned x,
							  unsigned y);
TT_API struct tt_core_range_set tt_core_range_set_of_range(unsigned x0,
							   unsigned y0,
							   unsigned x1,
							   unsigned y1);

/*
 * Set *s to the n ranges given, in that order. -EINVAL if a range is
 * invalid or two overlap (the message names them), -E2BIG if n >
 * TT_CORE_RANGE_SET_MAX. *s is empty after a failure.
 */
TT_API int tt_core_range_set_init(struct tt_core_range_set *s,
				  const struct tt_core_range *ranges,
				  unsigned n);

/* Append one range: -EINVAL if invalid or overlapping, -E2BIG if full.
 * *s is unchanged after a failure. */
TT_API int tt_core_range_set_add(struct tt_core_range_set *s,
				 struct tt_core_range r);

/*
 * *s = the union of *s and *other, as the fewest ranges the canonical
 * decomposition gives: each range is as wide as possible, then as tall as
 * possible, scanning rows top-down (so a rectangle made of adjacent pieces
 * becomes one range). -EINVAL if either set fails the check, -E2BIG if
 * the result needs more than TT_CORE_RANGE_SET_MAX ranges; *s is unchanged
 * after a failure. other may be s (then *s is just canonicalised).
 */
TT_API int tt_core_range_set_merge(struct tt_core_range_set *s,
				   const struct tt_core_range_set *other);

/* 0 if s is a well-formed set (above), else -EINVAL naming the first bad
 * range or pair. */
TT_API int tt_core_range_set_check(const struct tt_core_range_set *s);

/* Queries on well-formed sets. */
TT_API bool tt_core_range_set_contains(const struct tt_core_range_set *s,
				       struct tt_xy core);
TT_API bool tt_core_range_set_intersects(const struct tt_core_range_set *a,
					 const struct tt_core_range_set *b);
TT_API unsigned tt_core_range_set_num_cores(const struct tt_core_range_set *s);

/* The smallest range containing every core: -EINVAL (and *out unchanged)
 * if s is empty. */
TT_API int tt_core_range_set_bounding_box(const struct tt_core_range_set *s,
					  struct tt_core_range *out);

/* Are a and b the same set of cores (whatever their ranges)? */
TT_API bool tt_core_range_set_equal(const struct tt_core_range_set *a,
				    const struct tt_core_range_set *b);

/*
 * Write the cores of s, in iteration order, to out (at most max of them).
 * Returns the number of cores in s (may be more than max).
 */
TT_API unsigned tt_core_range_set_to_cores(const struct tt_core_range_set *s,
					   struct tt_xy *out, unsigned max);

/* Iteration without a buffer:
 *   struct tt_core_iter it; struct tt_xy c;
 *   for (tt_core_iter_init(&it, &set); tt_core_iter_next(&it, &c);) ...
 * The set must outlive the iterator and stay unchanged. */
struct tt_core_iter {
	const struct tt_core_range_set *set;
	unsigned range;
	struct tt_xy next;
};

TT_API void tt_core_iter_init(struct tt_core_iter *it,
			      const struct tt_core_range_set *s);
TT_API bool tt_core_iter_next(struct tt_core_iter *it, struct tt_xy *core);

/* ---- splitting work over a grid (TT-Metal's work_split.hpp) ---- */

/*
 * *out = the first num_cores cores of a grid.x x grid.y grid from (0, 0),
 * row by row (row_wise) or column by column (TT-Metal's
 * num_cores_to_corerangeset): the whole rows (columns) as one range, then
 * the start of the next. -EINVAL for an empty grid, one beyond
 * TT_CORE_COORD_LIMIT, or more cores than it has.
 */
TT_API int tt_num_cores_to_core_range_set(unsigned num_cores,
					  struct tt_xy grid, bool row_wise,
					  struct tt_core_range_set *out);

/* What tt_split_work_to_cores returns (TT-Metal's tuple, in its order). */
struct tt_work_split {
	unsigned num_cores;
	struct tt_core_range_set all_cores;
	struct tt_core_range_set core_group_1;
	struct tt_core_range_set core_group_2;
	uint32_t units_per_core_group_1;
	uint32_t units_per_core_group_2;
};

/*
 * Split `units` units of work over a grid.x x grid.y grid (TT-Metal's
 * split_work_to_cores): num_cores = min(units, cores of the grid), taken
 * in order as tt_num_cores_to_core_range_set takes them (all_cores). If
 * they divide the units evenly, core_group_1 = all_cores with units /
 * num_cores each and core_group_2 is empty with 0; else the first units %
 * num_cores cores (core_group_1) take one unit more than the others
 * (core_group_2). units 0: everything 0 and empty. Errors as
 * tt_num_cores_to_core_range_set.
 */
TT_API int tt_split_work_to_cores(struct tt_xy grid, uint32_t units,
				  bool row_wise, struct tt_work_split *out);

/* ---- the device's logical grid ---- */

/*
 * Size of dev's logical grid of Tensix cores (TT-Metal's
 * compute_with_storage_grid_size()): w columns, h rows. The last row of
 * enabled Tensix cores is not part of it: it is the dispatch row, where
 * the fast-dispatch dispatcher runs (docs/dispatch.md), in both dispatch
 * modes so that a program runs unchanged in either. -EPROTO if the
 * enabled cores do not form a grid of at least two rows.
 */
TT_API int tt_device_logical_grid(const tt_device *dev, unsigned *w,
				  unsigned *h);

/* NOC 0 coordinates of the core the dispatcher runs on: the first core
 * of the dispatch row. */
TT_API int tt_device_dispatch_core(const tt_device *dev, struct tt_xy *noc0);

/* NOC 0 coordinates of logical core `logical` (TT-Metal's
 * worker_core_from_logical_core); -EINVAL outside the logical grid. */
TT_API int tt_device_worker_core(const tt_device *dev, struct tt_xy logical,
				 struct tt_xy *noc0);

#endif /* TT_CORE_API_H */
