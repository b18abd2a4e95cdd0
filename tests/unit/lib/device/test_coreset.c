// SPDX-License-Identifier: Apache-2.0
/*
 * Core ranges and range sets (tt/core.h): construction, overlap rules,
 * merge, queries, iteration order, and the logical grid of every board.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tt.h"

#define assert_error_contains(s) \
	assert_non_null(strstr(tt_last_error(), (s)))

static struct tt_xy xy(unsigned x, unsigned y)
{
	struct tt_xy c = { x, y };

	return c;
}

static void test_range_basics(void **state)
{
	struct tt_core_range r = tt_core_range(1, 2, 3, 5), a, b, i;

	(void)state;
	assert_true(tt_core_range_valid(&r));
	assert_int_equal(tt_core_range_num_cores(&r), 3 * 4);
	assert_true(tt_core_range_contains(&r, xy(1, 2)));
	assert_true(tt_core_range_contains(&r, xy(3, 5)));
	assert_false(tt_core_range_contains(&r, xy(0, 2)));
	assert_false(tt_core_range_contains(&r, xy(3, 6)));

	a = tt_core_range(3, 0, 1, 0); /* end before start */
	assert_false(tt_core_range_valid(&a));
	a = tt_core_range(0, 1, 0, 0);
	assert_false(tt_core_range_valid(&a));
	a = tt_core_range(0, 0, TT_CORE_COORD_LIMIT, 0);
	assert_false(tt_core_range_valid(&a));
	assert_false(tt_core_range_valid(NULL));

	a = tt_core_range(0, 0, 2, 2);
	b = tt_core_range(2, 2, 4, 4);
	assert_true(tt_core_range_intersects(&a, &b, &i));
	assert_int_equal(i.start.x, 2);
	assert_int_equal(i.start.y, 2);
	assert_int_equal(i.end.x, 2);
	assert_int_equal(i.end.y, 2);
	b = tt_core_range(3, 0, 4, 4); /* adjacent, not overlapping */
	assert_false(tt_core_range_intersects(&a, &b, NULL));
	b = tt_core_range(0, 3, 2, 3);
	assert_false(tt_core_range_intersects(&a, &b, NULL));
}

static void test_set_constructors(void **state)
{
	struct tt_core_range_set s = tt_core_range_set_of_core(4, 7);

	(void)state;
	assert_int_equal(s.count, 1);
	assert_int_equal(tt_core_range_set_num_cores(&s), 1);
	assert_true(tt_core_range_set_contains(&s, xy(4, 7)));
	assert_int_equal(tt_core_range_set_check(&s), 0);

	s = tt_core_range_set_of_range(0, 0, 7, 7);
	assert_int_equal(tt_core_range_set_num_cores(&s), 64);
	assert_int_equal(tt_core_range_set_check(&s), 0);

	/* A bad range makes a set every user refuses. */
	s = tt_core_range_set_of_range(3, 0, 1, 0);
	assert_int_equal(tt_core_range_set_check(&s), -EINVAL);
	assert_error_contains("core range (3,0)-(1,0): end before start");
	s = tt_core_range_set_of_core(TT_CORE_COORD_LIMIT, 0);
	assert_int_equal(tt_core_range_set_check(&s), -EINVAL);
	assert_error_contains("must be below 256");
}

static void test_set_init_and_add(void **state)
{
	struct tt_core_range ok[] = { tt_core_range(0, 0, 1, 1),
				      tt_core_range(2, 0, 3, 1),
				      tt_core_range(0, 2, 3, 2) };
	struct tt_core_range bad[] = { tt_core_range(0, 0, 2, 2),
				       tt_core_range(2, 2, 3, 3) };
	struct tt_core_range_set s;

	(void)state;
	assert_int_equal(tt_core_range_set_init(&s, ok, 3), 0);
	assert_int_equal(s.count, 3);
	assert_int_equal(tt_core_range_set_num_cores(&s), 12);

	/* CoreRangeSet's constructor: overlapping ranges are an error. */
	assert_int_equal(tt_core_range_set_init(&s, bad, 2), -EINVAL);
	assert_error_contains("(0,0)-(2,2) and (2,2)-(3,3) overlap");
	assert_int_equal(s.count, 0);

	bad[1] = tt_core_range(5, 5, 4, 5);
	assert_int_equal(tt_core_range_set_init(&s, bad, 2), -EINVAL);
	assert_error_contains("(5,5)-(4,5): end before start");

	assert_int_equal(tt_core_range_set_init(&s, ok, 3), 0);
	assert_int_equal(tt_core_range_set_add(&s, tt_core_range(3, 2, 5, 5)),
			 -EINVAL);
	assert_int_equal(s.count, 3); /* unchanged */
	assert_int_equal(tt_core_range_set_add(&s, tt_core_range(4, 0, 5, 5)),
			 0);
	assert_int_equal(s.count, 4);

	assert_int_equal(tt_core_range_set_init(&s, ok,
						TT_CORE_RANGE_SET_MAX + 1),
			 -E2BIG);
	assert_int_equal(tt_core_range_set_init(NULL, ok, 1), -EINVAL);
	assert_int_equal(tt_core_range_set_init(&s, NULL, 1), -EINVAL);
	assert_int_equal(tt_core_range_set_init(&s, NULL, 0), 0);
	assert_int_equal(s.count, 0);
	assert_int_equal(tt_core_range_set_add(NULL, ok[0]), -EINVAL);
}

static void test_set_full(void **state)
{
	struct tt_core_range_set *s = calloc(1, sizeof(*s));

	(void)state;
	for (unsigned i = 0; i < TT_CORE_RANGE_SET_MAX; i++)
		assert_int_equal(tt_core_range_set_add(
					 s, tt_core_range(i % 32, i / 32,
							  i % 32, i / 32)),
				 0);
	assert_int_equal(tt_core_range_set_add(s, tt_core_range(0, 9, 0, 9)),
			 -E2BIG);
	assert_error_contains("full");
	assert_int_equal(s->count, TT_CORE_RANGE_SET_MAX);
	assert_int_equal(tt_core_range_set_check(s), 0);
	free(s);
}

static void assert_range(const struct tt_core_range *r, unsigned x0,
			 unsigned y0, unsigned x1, unsigned y1)
{
	assert_int_equal(r->start.x, x0);
	assert_int_equal(r->start.y, y0);
	assert_int_equal(r->end.x, x1);
	assert_int_equal(r->end.y, y1);
}

static void test_merge(void **state)
{
	struct tt_core_range_set a = tt_core_range_set_of_range(0, 0, 1, 1);
	struct tt_core_range_set b = tt_core_range_set_of_range(2, 0, 3, 1);
	struct tt_core_range_set c, e = { 0 };

	(void)state;
	/* Adjacent rectangles become one. */
	assert_int_equal(tt_core_range_set_merge(&a, &b), 0);
	assert_int_equal(a.count, 1);
	assert_range(&a.ranges[0], 0, 0, 3, 1);

	/* Overlapping: the union, each core once. */
	b = tt_core_range_set_of_range(2, 1, 5, 2);
	assert_int_equal(tt_core_range_set_merge(&a, &b), 0);
	assert_int_equal(tt_core_range_set_num_cores(&a), 8 + 8 - 2);
	assert_int_equal(tt_core_range_set_check(&a), 0);
	/* Canonical: widest first, then tallest, rows top-down. */
	assert_int_equal(a.count, 3);
	assert_range(&a.ranges[0], 0, 0, 3, 1);
	assert_range(&a.ranges[1], 4, 1, 5, 2);
	assert_range(&a.ranges[2], 2, 2, 3, 2);

	/* Stacked rows become one range. */
	a = tt_core_range_set_of_range(0, 0, 7, 0);
	b = tt_core_range_set_of_range(0, 1, 7, 6);
	assert_int_equal(tt_core_range_set_merge(&a, &b), 0);
	assert_int_equal(a.count, 1);
	assert_range(&a.ranges[0], 0, 0, 7, 6);

	/* With itself, with the empty set, into the empty set. */
	assert_int_equal(tt_core_range_set_merge(&a, &a), 0);
	assert_int_equal(a.count, 1);
	assert_int_equal(tt_core_range_set_merge(&a, &e), 0);
	assert_int_equal(a.count, 1);
	c = e;
	assert_int_equal(tt_core_range_set_merge(&c, &a), 0);
	assert_true(tt_core_range_set_equal(&c, &a));
	c = e;
	assert_int_equal(tt_core_range_set_merge(&c, &e), 0);
	assert_int_equal(c.count, 0);

	/* A bad operand: refused, *s unchanged. */
	b = tt_core_range_set_of_range(4, 4, 3, 3);
	assert_int_equal(tt_core_range_set_merge(&a, &b), -EINVAL);
	assert_error_contains("end before start");
	assert_range(&a.ranges[0], 0, 0, 7, 6);
	assert_int_equal(tt_core_range_set_merge(NULL, &a), -EINVAL);
}

static void test_merge_too_many(void **state)
{
	struct tt_core_range_set *s = calloc(1, sizeof(*s));
	struct tt_core_range_set one = tt_core_range_set_of_core(0, 200);

	(void)state;
	/* A checkerboard of 256 isolated cores, then one more. */
	for (unsigned i = 0; i < TT_CORE_RANGE_SET_MAX; i++) {
		unsigned y = i / 16, x = (i % 16) * 2 + y % 2;

		assert_int_equal(tt_core_range_set_add(
					 s, tt_core_range(x, y, x, y)),
				 0);
	}
	assert_int_equal(tt_core_range_set_merge(s, s), 0);
	assert_int_equal(s->count, TT_CORE_RANGE_SET_MAX);
	assert_int_equal(tt_core_range_set_merge(s, &one), -E2BIG);
	assert_int_equal(s->count, TT_CORE_RANGE_SET_MAX);
	assert_false(tt_core_range_set_contains(s, xy(0, 200)));
	free(s);
}

static void test_queries(void **state)
{
	struct tt_core_range r[] = { tt_core_range(0, 0, 1, 0),
				     tt_core_range(5, 3, 6, 4) };
	struct tt_core_range_set s, t, u, e = { 0 };
	struct tt_core_range box;

	(void)state;
	assert_int_equal(tt_core_range_set_init(&s, r, 2), 0);
	assert_int_equal(tt_core_range_set_num_cores(&s), 6);
	assert_true(tt_core_range_set_contains(&s, xy(6, 4)));
	assert_false(tt_core_range_set_contains(&s, xy(2, 0)));
	assert_int_equal(tt_core_range_set_bounding_box(&s, &box), 0);
	assert_range(&box, 0, 0, 6, 4);
	assert_int_equal(tt_core_range_set_bounding_box(&e, &box), -EINVAL);
	assert_error_contains("empty");
	assert_range(&box, 0, 0, 6, 4);

	t = tt_core_range_set_of_range(6, 4, 9, 9);
	assert_true(tt_core_range_set_intersects(&s, &t));
	t = tt_core_range_set_of_range(2, 0, 4, 9);
	assert_false(tt_core_range_set_intersects(&s, &t));
	assert_false(tt_core_range_set_intersects(&s, &e));

	/* Equality is about cores, not ranges. */
	u = tt_core_range_set_of_range(0, 0, 0, 0);
	assert_int_equal(tt_core_range_set_add(&u, tt_core_range(1, 0, 1, 0)),
			 0);
	assert_int_equal(tt_core_range_set_add(&u, tt_core_range(5, 3, 6, 3)),
			 0);
	assert_false(tt_core_range_set_equal(&s, &u));
	assert_int_equal(tt_core_range_set_add(&u, tt_core_range(5, 4, 6, 4)),
			 0);
	assert_true(tt_core_range_set_equal(&s, &u));
	assert_true(tt_core_range_set_equal(&e, &e));
	assert_false(tt_core_range_set_equal(&s, &e));
}

static void test_iteration_order(void **state)
{
	struct tt_core_range r[] = { tt_core_range(4, 4, 5, 5),
				     tt_core_range(0, 0, 1, 0) };
	const unsigned want[][2] = { { 4, 4 }, { 5, 4 }, { 4, 5 },
				     { 5, 5 }, { 0, 0 }, { 1, 0 } };
	struct tt_core_range_set s, e = { 0 };
	struct tt_core_iter it;
	struct tt_xy out[8], c;
	unsigned n = 0;

	(void)state;
	assert_int_equal(tt_core_range_set_init(&s, r, 2), 0);
	assert_int_equal(tt_core_range_set_to_cores(&s, out, 8), 6);
	for (unsigned i = 0; i < 6; i++) {
		assert_int_equal(out[i].x, want[i][0]);
		assert_int_equal(out[i].y, want[i][1]);
	}
	/* A short buffer gets the first cores and the full count. */
	memset(out, 0xff, sizeof(out));
	assert_int_equal(tt_core_range_set_to_cores(&s, out, 2), 6);
	assert_int_equal(out[1].x, 5);
	assert_int_equal(out[2].x, 0xffffffffu);

	for (tt_core_iter_init(&it, &s); tt_core_iter_next(&it, &c); n++) {
		assert_int_equal(c.x, want[n][0]);
		assert_int_equal(c.y, want[n][1]);
	}
	assert_int_equal(n, 6);
	assert_false(tt_core_iter_next(&it, &c));
	tt_core_iter_init(&it, &e);
	assert_false(tt_core_iter_next(&it, &c));
}

/* ---- the logical grid of devices ---- */

/* ---- splitting work ---- */

static void test_num_cores_to_set(void **state)
{
	struct tt_core_range_set s;

	(void)state;
	/* Column by column (TT-Metal's default): 2 whole columns of 4,
	 * then 3 of the third. */
	assert_int_equal(tt_num_cores_to_core_range_set(11, xy(5, 4), false,
							&s), 0);
	assert_int_equal(s.count, 2);
	assert_range(&s.ranges[0], 0, 0, 1, 3);
	assert_range(&s.ranges[1], 2, 0, 2, 2);
	/* Row by row. */
	assert_int_equal(tt_num_cores_to_core_range_set(11, xy(5, 4), true,
							&s), 0);
	assert_int_equal(s.count, 2);
	assert_range(&s.ranges[0], 0, 0, 4, 1);
	assert_range(&s.ranges[1], 0, 2, 0, 2);
	assert_int_equal(tt_core_range_set_check(&s), 0);
	/* Less than a line; exactly the grid; none. */
	assert_int_equal(tt_num_cores_to_core_range_set(3, xy(5, 4), true, &s),
			 0);
	assert_int_equal(s.count, 1);
	assert_range(&s.ranges[0], 0, 0, 2, 0);
	assert_int_equal(tt_num_cores_to_core_range_set(20, xy(5, 4), false,
							&s), 0);
	assert_int_equal(s.count, 1);
	assert_range(&s.ranges[0], 0, 0, 4, 3);
	assert_int_equal(tt_num_cores_to_core_range_set(0, xy(5, 4), false, &s),
			 0);
	assert_int_equal(s.count, 0);
	/* Errors. */
	assert_int_equal(tt_num_cores_to_core_range_set(21, xy(5, 4), false,
							&s), -EINVAL);
	assert_error_contains("21 cores do not fit a 5x4 grid");
	assert_int_equal(tt_num_cores_to_core_range_set(1, xy(0, 4), false,
							&s), -EINVAL);
	assert_error_contains("grid 0x4");
	assert_int_equal(tt_num_cores_to_core_range_set(1, xy(257, 1), false,
							&s), -EINVAL);
	assert_int_equal(tt_num_cores_to_core_range_set(1, xy(1, 1), false,
							NULL), -EINVAL);
	assert_error_contains("out is NULL");
}

static void test_split_work(void **state)
{
	struct tt_work_split w;

	(void)state;
	/* Fewer units than cores: one unit on each of the first cores. */
	assert_int_equal(tt_split_work_to_cores(xy(4, 3), 7, false, &w), 0);
	assert_int_equal(w.num_cores, 7);
	assert_int_equal(tt_core_range_set_num_cores(&w.all_cores), 7);
	assert_true(tt_core_range_set_equal(&w.core_group_1, &w.all_cores));
	assert_int_equal(w.units_per_core_group_1, 1);
	assert_int_equal(w.core_group_2.count, 0);
	assert_int_equal(w.units_per_core_group_2, 0);
	assert_range(&w.all_cores.ranges[0], 0, 0, 1, 2);
	assert_range(&w.all_cores.ranges[1], 2, 0, 2, 0);
	/* Evenly divided over the whole grid. */
	assert_int_equal(tt_split_work_to_cores(xy(4, 3), 36, true, &w), 0);
	assert_int_equal(w.num_cores, 12);
	assert_int_equal(w.all_cores.count, 1);
	assert_range(&w.all_cores.ranges[0], 0, 0, 3, 2);
	assert_true(tt_core_range_set_equal(&w.core_group_1, &w.all_cores));
	assert_int_equal(w.units_per_core_group_1, 3);
	assert_int_equal(w.core_group_2.count, 0);
	/* Uneven, row-wise: 29 = 5 cores x 3 + 7 cores x 2. */
	assert_int_equal(tt_split_work_to_cores(xy(4, 3), 29, true, &w), 0);
	assert_int_equal(w.num_cores, 12);
	assert_int_equal(w.units_per_core_group_1, 3);
	assert_int_equal(w.units_per_core_group_2, 2);
	assert_int_equal(tt_core_range_set_num_cores(&w.core_group_1), 5);
	assert_int_equal(tt_core_range_set_num_cores(&w.core_group_2), 7);
	assert_range(&w.core_group_1.ranges[0], 0, 0, 3, 0);
	assert_range(&w.core_group_1.ranges[1], 0, 1, 0, 1);
	assert_int_equal(w.core_group_2.count, 2);
	assert_range(&w.core_group_2.ranges[0], 1, 1, 3, 1);
	assert_range(&w.core_group_2.ranges[1], 0, 2, 3, 2);
	assert_false(tt_core_range_set_intersects(&w.core_group_1,
						  &w.core_group_2));
	/* Uneven, column-wise: 14 = 2 x 2 + 10 x 1. */
	assert_int_equal(tt_split_work_to_cores(xy(4, 3), 14, false, &w), 0);
	assert_int_equal(w.units_per_core_group_1, 2);
	assert_int_equal(w.units_per_core_group_2, 1);
	assert_int_equal(w.core_group_1.count, 1);
	assert_range(&w.core_group_1.ranges[0], 0, 0, 0, 1);
	assert_int_equal(w.core_group_2.count, 2);
	assert_range(&w.core_group_2.ranges[0], 0, 2, 0, 2);
	assert_range(&w.core_group_2.ranges[1], 1, 0, 3, 2);
	/* Every unit is given out exactly once, whatever the split. */
	for (uint32_t u = 0; u < 200; u += 7) {
		unsigned n1, n2;

		assert_int_equal(tt_split_work_to_cores(xy(5, 4), u, u % 2, &w),
				 0);
		n1 = tt_core_range_set_num_cores(&w.core_group_1);
		n2 = tt_core_range_set_num_cores(&w.core_group_2);
		assert_int_equal(n1 + n2, w.num_cores);
		assert_int_equal(n1 * w.units_per_core_group_1 +
					 n2 * w.units_per_core_group_2,
				 u);
		assert_int_equal(tt_core_range_set_check(&w.all_cores), 0);
	}
	/* None. */
	assert_int_equal(tt_split_work_to_cores(xy(4, 3), 0, false, &w), 0);
	assert_int_equal(w.num_cores, 0);
	assert_int_equal(w.all_cores.count, 0);
	assert_int_equal(w.units_per_core_group_1, 0);
	/* Errors. */
	assert_int_equal(tt_split_work_to_cores(xy(4, 0), 5, false, &w),
			 -EINVAL);
	assert_error_contains("tt_split_work_to_cores: grid 4x0");
	assert_int_equal(tt_split_work_to_cores(xy(4, 3), 5, false, NULL),
			 -EINVAL);
}

static void check_grid(const char *board)
{
	const struct tt_device_info *i;
	struct tt_xy noc, want;
	unsigned w = 0, h = 0;
	tt_device *dev;

	setenv("TT_SIM_BOARD", board, 1);
	assert_int_equal(tt_device_open(0, &dev), 0);
	i = tt_device_get_info(dev);
	assert_int_equal(tt_device_logical_grid(dev, &w, &h), 0);
	/* The last row of enabled Tensix cores is the dispatch row. */
	assert_int_equal(w * (h + 1), i->tensix_count);
	assert_int_equal(tt_device_dispatch_core(dev, &noc), 0);
	assert_int_equal(tt_device_tensix_core(dev, h * w, &want), 0);
	assert_true(noc.x == want.x && noc.y == want.y);
	assert_int_equal(tt_device_dispatch_core(dev, NULL), -EINVAL);
	/* Logical (x, y) is enabled Tensix core y * w + x. */
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			assert_int_equal(tt_device_worker_core(dev, xy(x, y),
							       &noc),
					 0);
			assert_int_equal(tt_device_tensix_core(dev, y * w + x,
							       &want),
					 0);
			assert_int_equal(noc.x, want.x);
			assert_int_equal(noc.y, want.y);
			assert_int_equal(tt_device_core_type(dev, noc.x, noc.y),
					 TT_CORE_TENSIX);
			if (x)
				assert_int_equal(tt_device_worker_core(
							 dev, xy(x - 1, y),
							 &want),
						 0);
			if (x)
				assert_true(want.y == noc.y && want.x < noc.x);
		}
	assert_int_equal(tt_device_worker_core(dev, xy(w, 0), &noc), -EINVAL);
	assert_error_contains("outside the");
	assert_int_equal(tt_device_worker_core(dev, xy(0, h), &noc), -EINVAL);
	assert_int_equal(tt_device_worker_core(NULL, xy(0, 0), &noc), -EINVAL);
	assert_int_equal(tt_device_worker_core(dev, xy(0, 0), NULL), -EINVAL);
	assert_int_equal(tt_device_logical_grid(dev, NULL, &h), -EINVAL);
	tt_device_close(dev);
}

static void test_logical_grid(void **state)
{
	(void)state;
	check_grid("n150");
	check_grid("n300");
	check_grid("p150");
	check_grid("e150");
	unsetenv("TT_SIM_BOARD");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_range_basics),
		cmocka_unit_test(test_set_constructors),
		cmocka_unit_test(test_set_init_and_add),
		cmocka_unit_test(test_set_full),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_merge_too_many),
		cmocka_unit_test(test_queries),
		cmocka_unit_test(test_iteration_order),
		cmocka_unit_test(test_logical_grid),
		cmocka_unit_test(test_num_cores_to_set),
		cmocka_unit_test(test_split_work),
	};

	setenv("TT_TRANSPORT", "embedded", 1);
	/* A blank chip: only the SoC's shape matters here. */
	setenv("TT_FIRMWARE", "/dev/null", 1);
	return cmocka_run_group_tests_name("coreset", tests, NULL, NULL);
}
