// SPDX-License-Identifier: Apache-2.0
/*
 * Write batches (lib/dispatch/wbatch.h): what a launch's writes become. Every
 * emitted rectangle is expanded the way the NOC multicasts (every enabled
 * Tensix node inside it) and checked against what was asked: each core
 * gets exactly its bytes, once, and nothing else is touched.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "testutil.h"
#include "lib/dispatch/wbatch.h"

#define MAXW 256

struct got {
	struct tt_xy a, b;
	uint32_t addr, len;
	uint8_t data[64];
	unsigned phase_mark; /* order of the call */
};

struct rec {
	struct got w[MAXW];
	unsigned n;
};

static int record(void *ctx, struct tt_xy a, struct tt_xy b, uint32_t addr,
		  const void *data, uint32_t len)
{
	struct rec *r = ctx;
	struct got *g;

	assert_true(r->n < MAXW);
	assert_true(len <= sizeof(g->data));
	g = &r->w[r->n];
	*g = (struct got){ .a = a, .b = b, .addr = addr, .len = len,
			   .phase_mark = r->n };
	memcpy(g->data, data, len);
	r->n++;
	return 0;
}

static bool enabled(tt_device *dev, unsigned x, unsigned y)
{
	return tt_device_core_type(dev, x, y) == TT_CORE_TENSIX &&
	       !tt_device_core_harvested(dev, x, y);
}

/* How many times each node got a write of (addr, 4 bytes == value). */
static unsigned hits(tt_device *dev, const struct rec *r, struct tt_xy c,
		     uint32_t addr, uint32_t value)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->n; i++) {
		const struct got *g = &r->w[i];
		uint32_t v;

		if (g->addr != addr || c.x < g->a.x || c.x > g->b.x ||
		    c.y < g->a.y || c.y > g->b.y || !enabled(dev, c.x, c.y))
			continue;
		memcpy(&v, g->data, 4);
		assert_int_equal(v, value);
		n++;
	}
	return n;
}

static struct tt_xy logical(tt_device *dev, unsigned x, unsigned y)
{
	struct tt_xy noc;

	assert_int_equal(tt_device_worker_core(dev, (struct tt_xy){ x, y },
					       &noc),
			 0);
	return noc;
}

/* The same word to the whole logical grid: one multicast, and the
 * dispatch row untouched. */
static void test_whole_grid_one_multicast(void **state)
{
	tt_device *dev = *state;
	static struct rec r;
	struct tt_wbatch b;
	struct tt_xy disp;
	uint32_t v = 0xC0FFEE;
	unsigned w, h;

	memset(&r, 0, sizeof(r));
	assert_int_equal(tt_device_logical_grid(dev, &w, &h), 0);
	tt_wbatch_init(&b, dev);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++)
			assert_int_equal(tt_wbatch_copy(&b, 0, logical(dev, x, y),
							 0x1000, &v, 4),
					 0);
	assert_int_equal(tt_wbatch_emit(&b, record, &r), 0);
	assert_int_equal(r.n, 1);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++)
			assert_int_equal(hits(dev, &r, logical(dev, x, y),
					      0x1000, v),
					 1);
	assert_int_equal(tt_device_dispatch_core(dev, &disp), 0);
	assert_int_equal(hits(dev, &r, disp, 0x1000, v), 0);
	tt_wbatch_free(&b);
}

/* A set with holes: every wanted core once, no other core ever. */
static void test_holes_never_written(void **state)
{
	tt_device *dev = *state;
	static struct rec r;
	struct tt_wbatch b;
	uint32_t v = 7;
	unsigned w, h, wanted = 0;

	memset(&r, 0, sizeof(r));
	assert_int_equal(tt_device_logical_grid(dev, &w, &h), 0);
	tt_wbatch_init(&b, dev);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++)
			if ((x * 7 + y * 3) % 5 != 0) {
				assert_int_equal(tt_wbatch_copy(&b, 0,
								logical(dev, x, y),
								0x2000, &v, 4),
						 0);
				wanted++;
			}
	assert_int_equal(tt_wbatch_emit(&b, record, &r), 0);
	assert_true(r.n < wanted); /* some merging happened */
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++)
			assert_int_equal(hits(dev, &r, logical(dev, x, y),
					      0x2000, v),
					 (x * 7 + y * 3) % 5 != 0 ? 1u : 0u);
	tt_wbatch_free(&b);
}

/* Different bytes are never merged; phase 1 comes after all of phase 0;
 * copies survive the arena growing under them. */
static void test_distinct_data_and_phases(void **state)
{
	tt_device *dev = *state;
	static struct rec r;
	struct tt_wbatch b;
	unsigned w, h, n = 0;

	memset(&r, 0, sizeof(r));
	assert_int_equal(tt_device_logical_grid(dev, &w, &h), 0);
	tt_wbatch_init(&b, dev);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			uint32_t v = y * w + x, big[16] = { v };

			assert_int_equal(tt_wbatch_copy(&b, 1, logical(dev, x, y),
							0x3000, &v, 4),
					 0);
			assert_int_equal(tt_wbatch_copy(&b, 0, logical(dev, x, y),
							0x4000, big,
							sizeof(big)),
					 0);
			n++;
		}
	assert_int_equal(tt_wbatch_emit(&b, record, &r), 0);
	assert_int_equal(r.n, 2 * n);
	for (unsigned i = 0; i < r.n; i++)
		assert_int_equal(r.w[i].addr, i < n ? 0x4000u : 0x3000u);
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			assert_int_equal(hits(dev, &r, logical(dev, x, y),
					      0x3000, y * w + x),
					 1);
			assert_int_equal(hits(dev, &r, logical(dev, x, y),
					      0x4000, y * w + x),
					 1);
		}
	tt_wbatch_free(&b);
}

static void test_outside_grid(void **state)
{
	tt_device *dev = *state;
	static struct rec r;
	struct tt_wbatch b;
	uint32_t v = 1;

	tt_wbatch_init(&b, dev);
	assert_int_equal(tt_wbatch_copy(&b, 0, (struct tt_xy){ 200, 1 }, 0,
					&v, 4),
			 0);
	assert_int_equal(tt_wbatch_emit(&b, record, &r), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "core (200,1)"));
	tt_wbatch_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_grid_one_multicast),
		cmocka_unit_test(test_holes_never_written),
		cmocka_unit_test(test_distinct_data_and_phases),
		cmocka_unit_test(test_outside_grid),
	};

	return cmocka_run_group_tests_name("wbatch", tests, booted_up,
					   booted_down);
}
