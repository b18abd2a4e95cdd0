// SPDX-License-Identifier: Apache-2.0
/*
 * Device tensors (tt/tensor.h) on the embedded model: every format
 * written from a row-major Float32 host tensor and read back, in DRAM
 * and L1, through a command queue and by direct I/O (the pages hold
 * exactly the host's tiled form; the values come back exactly as the
 * host's own conversion gives them); tensors on caller buffers at a
 * page offset; views of tile ranges read and written without touching
 * the other tiles; lifetimes (views and buffers outliving their
 * parents); every refused argument with its message.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

static const enum tt_data_format all_formats[] = {
	TT_FLOAT32, TT_FLOAT16, TT_FLOAT16_B, TT_BFP8_B, TT_BFP4_B, TT_BFP2_B,
	TT_INT32,   TT_UINT32,	TT_UINT16,    TT_INT8,	 TT_UINT8,
};
#define N_FORMATS (sizeof(all_formats) / sizeof(all_formats[0]))

static void expect_error(int ret, int code, const char *text)
{
	assert_int_equal(ret, code);
	if (!strstr(tt_last_error(), text))
		fail_msg("message \"%s\" lacks \"%s\"", tt_last_error(), text);
}

/* Row-major Float32 host tensor; element i is a signed value with a
 * fraction, different for each seed. */
static tt_tensor *host_f32(struct tt_shape s, unsigned seed)
{
	tt_tensor *t = NULL;
	float *p;

	if (tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t))
		fail_msg("%s", tt_last_error());
	p = tt_tensor_data(t);
	for (size_t i = 0; i < tt_tensor_volume(t); i++)
		p[i] = (float)((int)((i * 37 + seed * 11) % 201) - 100) * 0.75f;
	return t;
}

static tt_tensor *make(const struct tt_shape *s, enum tt_data_format f,
		       enum tt_tensor_layout l)
{
	tt_tensor *t = NULL;

	if (tt_tensor_create(s, f, l, &t))
		fail_msg("%s", tt_last_error());
	return t;
}

/* The buffer's bytes of dt's tiles, read raw. */
static uint8_t *raw_tiles(tt_device_tensor *dt, size_t *len)
{
	tt_buffer *b = tt_device_tensor_buffer(dt);
	uint64_t ps = tt_buffer_page_size(b);
	uint8_t *p;

	*len = tt_device_tensor_num_tiles(dt) * ps;
	p = malloc(*len);
	assert_non_null(p);
	assert_int_equal(
		tt_read_from_buffer_region(
			b, tt_device_tensor_first_tile(dt) * ps, p, *len),
		0);
	return p;
}

/* dt holds exactly host's tiled form in dt's format. */
static void expect_tiles(tt_device_tensor *dt, const tt_tensor *host)
{
	tt_tensor *want;
	uint8_t *got;
	size_t len;

	assert_int_equal(tt_tensor_to(host, tt_device_tensor_format(dt),
				      TT_TENSOR_TILED, &want),
			 0);
	got = raw_tiles(dt, &len);
	assert_int_equal(len, tt_tensor_size(want));
	assert_memory_equal(got, tt_tensor_data(want), len);
	free(got);
	tt_tensor_free(want);
}

/* Write host into dt; read it back as Float32 row-major and as dt's own
 * tiled form; both equal the host-side conversion. */
static void round_trip(tt_device_tensor *dt, tt_command_queue *wq,
		       tt_command_queue *rq, const tt_tensor *host)
{
	enum tt_data_format f = tt_device_tensor_format(dt);
	const struct tt_shape *s = tt_device_tensor_shape(dt);
	tt_tensor *tiles, *want,
		*back = make(s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR);
	tt_tensor *own = make(s, f, TT_TENSOR_TILED);

	if (tt_device_tensor_write(dt, wq, host))
		fail_msg("%s", tt_last_error());
	expect_tiles(dt, host);
	assert_int_equal(tt_device_tensor_read(dt, rq, back), 0);
	assert_int_equal(tt_tensor_to(host, f, TT_TENSOR_TILED, &tiles), 0);
	assert_int_equal(
		tt_tensor_to(tiles, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &want), 0);
	assert_memory_equal(tt_tensor_data(back), tt_tensor_data(want),
			    tt_tensor_size(want));
	assert_int_equal(tt_device_tensor_read(dt, rq, own), 0);
	assert_memory_equal(tt_tensor_data(own), tt_tensor_data(tiles),
			    tt_tensor_size(tiles));
	tt_tensor_free(tiles);
	tt_tensor_free(want);
	tt_tensor_free(back);
	tt_tensor_free(own);
}

static void every_format(tt_device *dev, enum tt_buffer_type type)
{
	struct tt_shape s = TT_SHAPE(1, 2, 33, 65);
	tt_command_queue *cq;

	assert_int_equal(tt_device_command_queue(dev, 0, &cq), 0);
	for (size_t i = 0; i < N_FORMATS; i++) {
		tt_tensor *host = host_f32(s, (unsigned)i);
		tt_device_tensor *dt;
		tt_buffer *b;

		if (tt_device_tensor_create(dev, &s, all_formats[i], type, &dt))
			fail_msg("%s", tt_last_error());
		b = tt_device_tensor_buffer(dt);
		assert_int_equal(tt_buffer_type(b), type);
		assert_int_equal(tt_buffer_layout(b), TT_LAYOUT_INTERLEAVED);
		assert_int_equal(tt_buffer_page_size(b),
				 tt_tile_size(all_formats[i]));
		assert_int_equal(tt_buffer_num_pages(b), 12);
		assert_int_equal(tt_device_tensor_num_tiles(dt), 12);
		assert_int_equal(tt_device_tensor_first_tile(dt), 0);
		round_trip(dt, cq, NULL, host);
		tt_tensor_free(host);
		host = host_f32(s, (unsigned)i + 100);
		round_trip(dt, NULL, cq, host);
		tt_tensor_free(host);
		tt_device_tensor_free(dt);
	}
}

static void test_every_format_dram(void **state)
{
	every_format(*state, TT_BUFFER_DRAM);
}

static void test_every_format_l1(void **state)
{
	every_format(*state, TT_BUFFER_L1);
}

/* Host tensors of any layout and rank with the same [w,z,r,c]. */
static void test_host_forms(void **state)
{
	struct tt_shape s = TT_SHAPE(3, 40, 50), s4 = TT_SHAPE(1, 3, 40, 50);
	tt_tensor *host = host_f32(s, 7), *tiled, *back;
	tt_device_tensor *dt;

	assert_int_equal(tt_device_tensor_create(*state, &s4, TT_FLOAT16_B,
						 TT_BUFFER_DRAM, &dt),
			 0);
	/* From Float16_b tiles: written as they are. */
	assert_int_equal(
		tt_tensor_to(host, TT_FLOAT16_B, TT_TENSOR_TILED, &tiled), 0);
	assert_int_equal(tt_device_tensor_write(dt, NULL, tiled), 0);
	expect_tiles(dt, host);
	/* Into Int32 row-major of rank 3. */
	back = make(&s, TT_INT32, TT_TENSOR_ROW_MAJOR);
	assert_int_equal(tt_device_tensor_read(dt, NULL, back), 0);
	for (size_t i = 0; i < tt_tensor_volume(back); i++) {
		float v = ((float *)tt_tensor_data(host))[i];
		/* bf16 first, then to the nearest integer, ties to even */
		float want = nearbyintf(tt_bf16_to_float(tt_float_to_bf16(v)));

		assert_int_equal(((int32_t *)tt_tensor_data(back))[i],
				 (int32_t)want);
	}
	tt_tensor_free(back);
	tt_tensor_free(tiled);
	tt_tensor_free(host);
	tt_device_tensor_free(dt);
}

/* ---- tensors on caller buffers, views ---- */

static void test_on_buffer(void **state)
{
	struct tt_buffer_config c = {
		.device = *state,
		.size = 10 * 1088,
		.page_size = 1088,
		.type = TT_BUFFER_L1,
	};
	struct tt_shape s = TT_SHAPE(64, 64);
	tt_tensor *host = host_f32(s, 3);
	tt_device_tensor *dt;
	uint8_t *all;
	tt_buffer *b;

	assert_int_equal(tt_create_buffer(&c, &b), 0);
	all = calloc(1, c.size);
	assert_non_null(all);
	assert_int_equal(tt_write_to_buffer(b, all, c.size), 0);
	assert_int_equal(tt_device_tensor_on_buffer(b, 3, &s, TT_BFP8_B, &dt),
			 0);
	/* The tensor keeps the buffer alive. */
	tt_buffer_free(b);
	assert_int_equal(tt_device_tensor_first_tile(dt), 3);
	assert_int_equal(tt_device_tensor_num_tiles(dt), 4);
	round_trip(dt, NULL, NULL, host);
	/* Pages 0..2 and 7..9 untouched. */
	assert_int_equal(
		tt_read_from_buffer(tt_device_tensor_buffer(dt), all, c.size),
		0);
	for (size_t i = 0; i < c.size; i++)
		if (i < 3 * 1088 || i >= 7 * 1088)
			assert_int_equal(all[i], 0);
	free(all);
	tt_tensor_free(host);
	tt_device_tensor_free(dt);
}

static void test_on_buffer_errors(void **state)
{
	struct tt_buffer_config c = {
		.device = *state,
		.size = 4 * 2048,
		.page_size = 2048,
		.type = TT_BUFFER_DRAM,
	};
	struct tt_shape s = TT_SHAPE(64, 64), big = TT_SHAPE(64, 96);
	tt_device_tensor *dt = NULL;
	tt_buffer *b;

	assert_int_equal(tt_create_buffer(&c, &b), 0);
	expect_error(tt_device_tensor_on_buffer(b, 0, &s, TT_FLOAT32, &dt),
		     -EINVAL, "device tensor [64,64] Float32: DRAM buffer #");
	expect_error(tt_device_tensor_on_buffer(b, 0, &s, TT_FLOAT32, &dt),
		     -EINVAL,
		     "has pages of 2048 bytes, not one Float32 tile (4096)");
	expect_error(tt_device_tensor_on_buffer(b, 1, &s, TT_UINT16, &dt),
		     -EINVAL, "tiles [1, +4) are not inside the 4 pages of");
	expect_error(tt_device_tensor_on_buffer(b, 0, &big, TT_UINT16, &dt),
		     -EINVAL, "tiles [0, +6) are not inside");
	expect_error(
		tt_device_tensor_on_buffer(b, UINT64_MAX, &s, TT_UINT16, &dt),
		-EINVAL, "are not inside");
	expect_error(tt_device_tensor_on_buffer(NULL, 0, &s, TT_UINT16, &dt),
		     -EINVAL, "buffer is NULL");
	assert_null(dt);
	tt_buffer_free(b);
}

static void test_views(void **state)
{
	struct tt_shape s = TT_SHAPE(2, 1, 64, 64), t3 = TT_SHAPE(3, 32, 32);
	struct tt_shape half = TT_SHAPE(32, 64);
	tt_tensor *zero = make(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR);
	tt_tensor *ones = host_f32(t3, 1), *rows;
	tt_device_tensor *dt, *v, *w;
	tt_command_queue *cq;
	uint8_t *raw;
	size_t len;

	assert_int_equal(tt_device_command_queue(*state, 0, &cq), 0);
	assert_int_equal(tt_device_tensor_create(*state, &s, TT_FLOAT16_B,
						 TT_BUFFER_DRAM, &dt),
			 0);
	assert_int_equal(tt_device_tensor_write(dt, cq, zero), 0);
	/* Tiles 5..7 one by one ([3, 32, 32]), the default shape. */
	assert_int_equal(tt_device_tensor_view(dt, 5, NULL, &v), 0);
	assert_int_equal(tt_device_tensor_shape(v)->rank, 3);
	assert_int_equal(tt_device_tensor_shape(v)->dims[0], 3);
	assert_int_equal(tt_device_tensor_first_tile(v), 5);
	assert_int_equal(tt_device_tensor_write(v, cq, ones), 0);
	expect_tiles(v, ones);
	raw = raw_tiles(dt, &len);
	for (size_t i = 0; i < 5 * 2048; i++)
		assert_int_equal(raw[i], 0);
	free(raw);
	/* A view outlives its parent. */
	tt_device_tensor_free(dt);
	/* Tiles 6..7 of the buffer as rows 32..63 of matrix 1. */
	assert_int_equal(tt_device_tensor_view(v, 1, &half, &w), 0);
	assert_int_equal(tt_device_tensor_first_tile(w), 6);
	rows = make(&half, TT_FLOAT32, TT_TENSOR_ROW_MAJOR);
	assert_int_equal(tt_device_tensor_read(w, NULL, rows), 0);
	/* Expected: tiles 1 and 2 of `ones` side by side, in bf16. */
	for (size_t r = 0; r < 32; r++)
		for (size_t c = 0; c < 64; c++) {
			float o = ((float *)tt_tensor_data(
				ones))[(1 + c / 32) * 1024 + r * 32 + c % 32];

			assert_true(
				((float *)tt_tensor_data(rows))[r * 64 + c] ==
				tt_bf16_to_float(tt_float_to_bf16(o)));
		}
	/* Errors. */
	expect_error(tt_device_tensor_view(v, 3, NULL, &dt), -EINVAL,
		     "tile 3 is past its end");
	expect_error(
		tt_device_tensor_view(v, 2, &half, &dt), -EINVAL,
		"a view of [32,64] from tile 2 (2 tiles) runs past its end");
	expect_error(tt_device_tensor_write(w, NULL, ones), -EINVAL,
		     "the shapes differ");
	tt_tensor_free(rows);
	tt_tensor_free(ones);
	tt_tensor_free(zero);
	tt_device_tensor_free(v);
	tt_device_tensor_free(w);
}

static void test_errors(void **state)
{
	struct tt_shape s = TT_SHAPE(32, 32), zero = TT_SHAPE(2, 0, 32, 32);
	tt_device_tensor *dt = NULL;
	tt_command_queue *cq;
	tt_device *other;
	tt_tensor *h;

	expect_error(tt_device_tensor_create(*state, &zero, TT_FLOAT32,
					     TT_BUFFER_DRAM, &dt),
		     -EINVAL,
		     "device tensor shape [2,0,32,32]: dimension 1 is 0");
	expect_error(tt_device_tensor_create(*state, &s, TT_BFP8,
					     TT_BUFFER_DRAM, &dt),
		     -ENOTSUP,
		     "device tensor [32,32]: format Bfp8 is not supported");
	expect_error(tt_device_tensor_create(*state, &s, TT_FLOAT32,
					     TT_BUFFER_SYSTEM_MEMORY, &dt),
		     -ENOTSUP, "buffer type SYSTEM_MEMORY is not supported");
	expect_error(tt_device_tensor_create(NULL, &s, TT_FLOAT32,
					     TT_BUFFER_DRAM, &dt),
		     -EINVAL, "device is NULL");
	assert_null(dt);
	/* A command queue of another device handle. */
	assert_int_equal(tt_device_tensor_create(*state, &s, TT_FLOAT32,
						 TT_BUFFER_DRAM, &dt),
			 0);
	h = make(&s, TT_FLOAT32, TT_TENSOR_TILED);
	assert_int_equal(tt_device_open(0, &other), 0);
	assert_int_equal(tt_device_command_queue(other, 0, &cq), 0);
	expect_error(tt_device_tensor_write(dt, cq, h), -EINVAL,
		     "command queue 0 belongs to another device");
	tt_device_close(other);
	expect_error(tt_device_tensor_read(dt, NULL, NULL), -EINVAL,
		     "host tensor is NULL");
	/* A deallocated buffer: the buffer's own message, prefixed. */
	assert_int_equal(tt_deallocate_buffer(tt_device_tensor_buffer(dt)), 0);
	expect_error(tt_device_tensor_read(dt, NULL, h), -ENXIO,
		     "tt_device_tensor_read: device tensor [32,32] Float32 on "
		     "DRAM buffer #");
	expect_error(tt_device_tensor_read(dt, NULL, h), -ENXIO, "deallocated");
	tt_tensor_free(h);
	tt_device_tensor_free(dt);
	tt_device_tensor_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_format_dram),
		cmocka_unit_test(test_every_format_l1),
		cmocka_unit_test(test_host_forms),
		cmocka_unit_test(test_on_buffer),
		cmocka_unit_test(test_on_buffer_errors),
		cmocka_unit_test(test_views),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, booted_up, booted_down);
}
