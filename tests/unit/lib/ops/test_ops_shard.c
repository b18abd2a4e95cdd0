// SPDX-License-Identifier: Apache-2.0
/*
 * The op library with sharded tensors (tt/ops.h, enum tt_ops_mem), on
 * the embedded model. Placement must never change a result: every case
 * compares, bit for bit, the op's output on sharded tensors with the
 * same op on interleaved DRAM tensors.
 *
 *  - outputs the op creates height, width and block sharded, on the
 *    whole grid and on a small one, over shapes whose tiles do not divide
 *    evenly among the cores (edge shards), with the buffer's layout and
 *    shard shape checked;
 *  - sharded inputs (each layout) with broadcasting, interleaved and
 *    sharded outputs;
 *  - the program cache: a sharded call twice is one program, a sharded
 *    and an interleaved output are two;
 *  - refusals: a placement out of range, a given output whose layout is
 *    not the one cfg.out_mem asks for.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ops_testutil.h"
#include "testutil.h"
#include "tt/ops.h"

static void fill(tt_tensor *t, uint32_t seed)
{
	float *p = tt_tensor_data(t);

	for (size_t i = 0; i < tt_tensor_volume(t); i++) {
		seed = seed * 1664525u + 1013904223u;
		p[i] = (float)(seed >> 8) / 16777216.0f * 4.0f - 2.0f;
	}
}

/* Tiles of shape s as (rows, columns): W*Z*Ht x Wt. */
static void tile_matrix(struct tt_shape s, uint32_t *rows, uint32_t *cols)
{
	uint64_t d[4];

	TRY(tt_shape_wzrc(&s, d));
	*cols = (uint32_t)((d[3] + 31) / 32);
	*rows = (uint32_t)(d[0] * d[1] * ((d[2] + 31) / 32));
}

/*
 * A device tensor of s on an L1 buffer of layout `layout` (interleaved
 * DRAM for TT_LAYOUT_INTERLEAVED) with shards of sr x sc tiles over the
 * first cores of a gx-wide grid, holding host tensor t.
 */
static tt_device_tensor *on_layout(struct fx *f, struct tt_shape s,
				   enum tt_tensor_memory_layout layout,
				   uint32_t sr, uint32_t sc, const tt_tensor *t)
{
	struct tt_buffer_config cfg = { .device = f->dev, .type = TT_BUFFER_L1,
					.layout = layout };
	struct tt_core_range_set cores;
	tt_device_tensor *dt = NULL;
	uint32_t rows, cols, shards;
	tt_buffer *buf;

	if (layout == TT_LAYOUT_INTERLEAVED) {
		TRY(tt_device_tensor_create(f->dev, &s, TT_FLOAT16_B,
					    TT_BUFFER_DRAM, &dt));
		TRY(tt_device_tensor_write(dt, NULL, t));
		return dt;
	}
	tile_matrix(s, &rows, &cols);
	shards = ((rows + sr - 1) / sr) * ((cols + sc - 1) / sc);
	TRY(tt_num_cores_to_core_range_set(shards, (struct tt_xy){ 8, 8 }, true,
					   &cores));
	cfg.page_size = tt_tile_size(TT_FLOAT16_B);
	cfg.size = (uint64_t)rows * cols * cfg.page_size;
	cfg.shard = (struct tt_shard_spec_buffer){
		.spec = { .grid = &cores, .shape = { sr * 32, sc * 32 } },
		.page_shape = { 32, 32 },
		.tensor2d_shape_in_pages = { rows, cols },
	};
	TRY(tt_create_buffer(&cfg, &buf));
	TRY(tt_device_tensor_on_buffer(buf, 0, &s, TT_FLOAT16_B, &dt));
	tt_buffer_free(buf);
	TRY(tt_device_tensor_write(dt, NULL, t));
	return dt;
}

/* dt's values as Float32, in a new host tensor. */
static tt_tensor *values(struct fx *f, const tt_device_tensor *dt)
{
	tt_tensor *t = NULL;

	TRY(tt_ops_finish(f->ctx));
	TRY(tt_tensor_create(tt_device_tensor_shape(dt), TT_FLOAT32,
			     TT_TENSOR_ROW_MAJOR, &t));
	TRY(tt_device_tensor_read(dt, NULL, t));
	return t;
}

static void assert_same(const tt_tensor *want, const tt_tensor *got,
			const char *what)
{
	const float *w = tt_tensor_data(want), *g = tt_tensor_data(got);

	assert_int_equal(tt_tensor_volume(want), tt_tensor_volume(got));
	for (size_t i = 0; i < tt_tensor_volume(want); i++)
		if (memcmp(&w[i], &g[i], sizeof(float)))
			fail_msg("%s: element %zu is %g, interleaved gives %g",
				 what, i, (double)g[i], (double)w[i]);
}

static tt_tensor *host(struct tt_shape s, uint32_t seed)
{
	tt_tensor *t = NULL;

	TRY(tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t));
	fill(t, seed);
	return t;
}

static uint32_t div_up(uint32_t a, uint32_t b)
{
	return (a + b - 1) / b;
}

/*
 * An output the op made is laid out as tt/ops.h says: which core holds
 * each tile, for shards over grid (the device's when {0, 0}).
 */
static void expect_layout(struct fx *f, const tt_device_tensor *dt,
			  enum tt_tensor_memory_layout layout, struct tt_xy grid)
{
	tt_buffer *buf = tt_device_tensor_buffer(dt);
	uint32_t rows, cols, sr, sc, n;
	unsigned gw, gh;

	assert_int_equal(tt_buffer_type(buf), TT_BUFFER_L1);
	assert_int_equal(tt_buffer_layout(buf), layout);
	TRY(tt_device_logical_grid(f->dev, &gw, &gh));
	if (!grid.x)
		grid = (struct tt_xy){ gw, gh };
	n = grid.x * grid.y;
	tile_matrix(*tt_device_tensor_shape(dt), &rows, &cols);
	sr = layout == TT_LAYOUT_HEIGHT_SHARDED ? div_up(rows, n) :
	     layout == TT_LAYOUT_WIDTH_SHARDED	? rows :
						  div_up(rows, grid.y);
	sc = layout == TT_LAYOUT_HEIGHT_SHARDED ? cols :
	     layout == TT_LAYOUT_WIDTH_SHARDED	? div_up(cols, n) :
						  div_up(cols, grid.x);
	for (uint32_t t = 0; t < rows * cols; t++) {
		struct tt_buffer_page_location loc;
		uint32_t r = t / cols, c = t % cols, k;
		struct tt_xy want;

		TRY(tt_buffer_page_location(buf, t, &loc));
		if (layout == TT_LAYOUT_BLOCK_SHARDED) {
			want = (struct tt_xy){ c / sc, r / sr };
		} else {
			k = layout == TT_LAYOUT_HEIGHT_SHARDED ? r / sr : c / sc;
			want = (struct tt_xy){ k % grid.x, k / grid.x };
		}
		if (loc.logical.x != want.x || loc.logical.y != want.y)
			fail_msg("%s: tile %u (row %u, column %u) is on core (%u,%u), not (%u,%u)",
				 tt_tensor_memory_layout_name(layout), t, r, c,
				 loc.logical.x, loc.logical.y, want.x, want.y);
	}
}

static const enum tt_ops_mem sharded_mems[] = {
	TT_OPS_MEM_L1_HEIGHT_SHARDED, TT_OPS_MEM_L1_WIDTH_SHARDED,
	TT_OPS_MEM_L1_BLOCK_SHARDED,
};
static const enum tt_tensor_memory_layout sharded_layouts[] = {
	TT_LAYOUT_HEIGHT_SHARDED, TT_LAYOUT_WIDTH_SHARDED,
	TT_LAYOUT_BLOCK_SHARDED,
};

/* Outputs the op shards, against the interleaved result. */
static void test_sharded_outputs(void **state)
{
	struct fx *f = *state;
	static const struct {
		struct tt_shape s;
		struct tt_xy grid;
	} cases[] = {
		{ TT_SHAPE(2, 3, 40, 70), { 0, 0 } },  /* 12 x 3 tiles */
		{ TT_SHAPE(2, 3, 40, 70), { 3, 2 } },  /* uneven edges */
		{ TT_SHAPE(33, 257), { 2, 2 } },       /* 2 x 9 tiles */
		{ TT_SHAPE(1, 1), { 0, 0 } },          /* one tile */
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		tt_tensor *ha = host(cases[c].s, 1 + (uint32_t)c);
		tt_tensor *hb = host(cases[c].s, 100 + (uint32_t)c), *want, *got;
		tt_device_tensor *a = on_layout(f, cases[c].s,
						TT_LAYOUT_INTERLEAVED, 0, 0, ha);
		tt_device_tensor *b = on_layout(f, cases[c].s,
						TT_LAYOUT_INTERLEAVED, 0, 0, hb);
		tt_device_tensor *ref = NULL;

		TRY(tt_op_mul(f->ctx, a, b, NULL, &ref));
		want = values(f, ref);
		for (int m = 0; m < 3; m++) {
			struct tt_eltwise_cfg cfg = tt_op_eltwise_config();
			tt_device_tensor *o = NULL;
			char what[64];

			cfg.out_mem = sharded_mems[m];
			cfg.grid = cases[c].grid;
			TRY(tt_op_mul(f->ctx, a, b, &cfg, &o));
			expect_layout(f, o, sharded_layouts[m], cases[c].grid);
			got = values(f, o);
			snprintf(what, sizeof(what), "case %zu %s", c,
				 tt_tensor_memory_layout_name(sharded_layouts[m]));
			assert_same(want, got, what);
			tt_tensor_free(got);
			tt_device_tensor_free(o);
		}
		tt_tensor_free(want);
		tt_tensor_free(ha);
		tt_tensor_free(hb);
		tt_device_tensor_free(ref);
		tt_device_tensor_free(a);
		tt_device_tensor_free(b);
	}
}

/* Sharded inputs, broadcasting too, into both kinds of output. */
static void test_sharded_inputs(void **state)
{
	struct fx *f = *state;
	const struct tt_shape sa = TT_SHAPE(2, 70, 100), sb = TT_SHAPE(1, 100);
	/* a: 6 x 4 tiles; b: 1 x 4 (broadcast over rows and over w) */
	static const uint32_t shard[3][2] = { { 2, 4 }, { 6, 1 }, { 4, 3 } };
	tt_tensor *ha = host(sa, 7), *hb = host(sb, 8), *want, *got;
	tt_device_tensor *ia = on_layout(f, sa, TT_LAYOUT_INTERLEAVED, 0, 0, ha);
	tt_device_tensor *ib = on_layout(f, sb, TT_LAYOUT_INTERLEAVED, 0, 0, hb);
	tt_device_tensor *ref = NULL;

	TRY(tt_op_sub(f->ctx, ia, ib, NULL, &ref));
	want = values(f, ref);
	for (int m = 0; m < 3; m++) {
		tt_device_tensor *a = on_layout(f, sa, sharded_layouts[m],
						shard[m][0], shard[m][1], ha);
		tt_device_tensor *b = on_layout(f, sb, TT_LAYOUT_WIDTH_SHARDED,
						1, 1, hb);

		for (int out = 0; out < 2; out++) {
			struct tt_eltwise_cfg cfg = tt_op_eltwise_config();
			tt_device_tensor *o = NULL;
			char what[64];

			cfg.out_mem = out ? TT_OPS_MEM_L1_BLOCK_SHARDED :
					    TT_OPS_MEM_DRAM;
			TRY(tt_op_sub(f->ctx, a, b, &cfg, &o));
			got = values(f, o);
			snprintf(what, sizeof(what), "a %s, out %s",
				 tt_tensor_memory_layout_name(sharded_layouts[m]),
				 out ? "block sharded" : "DRAM");
			assert_same(want, got, what);
			tt_tensor_free(got);
			tt_device_tensor_free(o);
		}
		/* A unary op reads a through its accessor too. */
		{
			tt_device_tensor *o = NULL, *io = NULL;
			tt_tensor *w2, *g2;

			TRY(tt_op_neg(f->ctx, ia, NULL, &io));
			TRY(tt_op_neg(f->ctx, a, NULL, &o));
			w2 = values(f, io);
			g2 = values(f, o);
			assert_same(w2, g2, "neg of a sharded a");
			tt_tensor_free(w2);
			tt_tensor_free(g2);
			tt_device_tensor_free(o);
			tt_device_tensor_free(io);
		}
		tt_device_tensor_free(a);
		tt_device_tensor_free(b);
	}
	tt_tensor_free(want);
	tt_tensor_free(ha);
	tt_tensor_free(hb);
	tt_device_tensor_free(ref);
	tt_device_tensor_free(ia);
	tt_device_tensor_free(ib);
}

static void test_sharded_cache(void **state)
{
	struct fx *f = *state;
	const struct tt_shape s = TT_SHAPE(64, 96);
	tt_tensor *h = host(s, 3);
	tt_device_tensor *a = on_layout(f, s, TT_LAYOUT_INTERLEAVED, 0, 0, h);
	struct tt_eltwise_cfg cfg = tt_op_eltwise_config();
	struct tt_ops_cache_stats s0, s1, s2, s3;
	tt_device_tensor *o1 = NULL, *o2 = NULL, *o3 = NULL;

	cfg.out_mem = TT_OPS_MEM_L1_HEIGHT_SHARDED;
	TRY(tt_ops_cache_stats(f->ctx, &s0));
	TRY(tt_op_abs(f->ctx, a, &cfg, &o1));
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	TRY(tt_op_abs(f->ctx, a, &cfg, &o2));
	TRY(tt_ops_cache_stats(f->ctx, &s2));
	assert_int_equal(s1.misses, s0.misses + 1);
	assert_int_equal(s2.misses, s1.misses);
	assert_int_equal(s2.hits, s1.hits + 1);
	/* The same op writing interleaved is another program. */
	cfg.out_mem = TT_OPS_MEM_L1;
	TRY(tt_op_abs(f->ctx, a, &cfg, &o3));
	TRY(tt_ops_cache_stats(f->ctx, &s3));
	assert_int_equal(s3.misses, s2.misses + 1);
	{
		tt_tensor *v1 = values(f, o1), *v2 = values(f, o2),
			  *v3 = values(f, o3);

		assert_same(v3, v1, "first sharded call");
		assert_same(v3, v2, "cached sharded call");
		tt_tensor_free(v1);
		tt_tensor_free(v2);
		tt_tensor_free(v3);
	}
	tt_device_tensor_free(o1);
	tt_device_tensor_free(o2);
	tt_device_tensor_free(o3);
	tt_device_tensor_free(a);
	tt_tensor_free(h);
}

static void test_sharded_errors(void **state)
{
	struct fx *f = *state;
	const struct tt_shape s = TT_SHAPE(64, 64);
	tt_tensor *h = host(s, 4);
	tt_device_tensor *a = on_layout(f, s, TT_LAYOUT_INTERLEAVED, 0, 0, h);
	tt_device_tensor *hs = on_layout(f, s, TT_LAYOUT_HEIGHT_SHARDED, 1, 2, h);
	struct tt_eltwise_cfg cfg = tt_op_eltwise_config();
	tt_device_tensor *o = NULL;

	cfg.out_mem = (enum tt_ops_mem)6;
	expect_error(tt_op_exp(f->ctx, a, &cfg, &o), -EINVAL,
		     "tt_op_exp: cfg.out_mem 6 is not a placement");
	assert_null(o);
	/* A given output must have the layout asked for. */
	cfg.out_mem = TT_OPS_MEM_L1_WIDTH_SHARDED;
	o = hs;
	expect_error(tt_op_exp(f->ctx, a, &cfg, &o), -EINVAL,
		     "tt_op_exp: out is height_sharded; cfg.out_mem asks for L1 width sharded");
	assert_ptr_equal(o, hs);
	tt_device_tensor_free(hs);
	tt_device_tensor_free(a);
	tt_tensor_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sharded_outputs),
		cmocka_unit_test(test_sharded_inputs),
		cmocka_unit_test(test_sharded_cache),
		cmocka_unit_test(test_sharded_errors),
	};

	return cmocka_run_group_tests_name("ops_shard", tests, fx_up, fx_down);
}
