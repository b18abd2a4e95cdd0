// SPDX-License-Identifier: Apache-2.0
/*
 * The public data-format API (tt/dataformat.h): the wrappers reach the
 * shared implementation (common/dataformat.h, tested in depth by
 * test_dataformat.c) and add messages naming formats and sizes.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tt.h"

static void test_enum_and_sizes(void **state)
{
	(void)state;
	assert_int_equal(TT_FLOAT16_B, 5);
	assert_int_equal(TT_BFP8_B, 6);
	assert_int_equal(TT_UINT8, 30);
	assert_int_equal(tt_tile_size(TT_FLOAT32), 4096);
	assert_int_equal(tt_tile_size(TT_FLOAT16_B), 2048);
	assert_int_equal(tt_tile_size(TT_BFP8_B), 1088);
	assert_int_equal(tt_tile_size(TT_BFP4_B), 576);
	assert_int_equal(tt_tile_size(TT_BFP2_B), 320);
	assert_int_equal(tt_tile_size(TT_UINT8), 1024);
	assert_int_equal(tt_tile_size(TT_INVALID), 0);
	assert_int_equal(tt_tile_size((enum tt_data_format)4), 0);
	assert_int_equal(tt_data_format_elem_size(TT_INT32), 4);
	assert_int_equal(tt_data_format_elem_size(TT_BFP8_B), 0);
	assert_true(tt_data_format_is_block(TT_BFP4_B));
	assert_false(tt_data_format_is_block(TT_FLOAT16));
}

static void test_names(void **state)
{
	enum tt_data_format f = TT_INVALID;

	(void)state;
	assert_string_equal(tt_data_format_name(TT_FLOAT16_B), "Float16_b");
	assert_string_equal(tt_data_format_name((enum tt_data_format)99),
			    "Invalid");
	assert_int_equal(tt_data_format_parse("bfloat16", &f), 0);
	assert_int_equal(f, TT_FLOAT16_B);
	assert_int_equal(tt_data_format_parse("BFP8_B", &f), 0);
	assert_int_equal(f, TT_BFP8_B);
	f = TT_FLOAT32;
	assert_int_equal(tt_data_format_parse("float64", &f), -EINVAL);
	assert_string_equal(tt_last_error(), "unknown data format \"float64\"");
	assert_int_equal(f, TT_FLOAT32);
	assert_int_equal(tt_data_format_parse(NULL, &f), -EINVAL);
	assert_int_equal(tt_data_format_parse("Invalid", &f), -EINVAL);
}

static void test_scalars(void **state)
{
	(void)state;
	assert_int_equal(tt_float_to_bf16(1.0f), 0x3F80);
	/* 1 + 2^-8 is a tie: rounds to even (down); truncation too. */
	assert_int_equal(tt_float_to_bf16(1.00390625f), 0x3F80);
	assert_int_equal(tt_float_to_bf16(1.01171875f), 0x3F82);
	assert_int_equal(tt_float_to_bf16_trunc(1.01171875f), 0x3F81);
	assert_true(tt_bf16_to_float(0xC000) == -2.0f);
	assert_int_equal(tt_float_to_f16(1.0f), 0x3C00);
	assert_true(tt_f16_to_float(0x3C00) == 1.0f);
	assert_int_equal(tt_float_to_bf16(NAN), 0x7FC0);
}

static void test_convert(void **state)
{
	float in[5] = { 0.5f, -1.0f, 3.0f, 1e30f, -0.0f }, back[5];
	uint16_t bf[5];

	(void)state;
	assert_int_equal(tt_convert(TT_FLOAT16_B, bf, sizeof(bf), TT_FLOAT32,
				    in, sizeof(in), 5), 0);
	assert_int_equal(bf[0], 0x3F00);
	assert_int_equal(tt_convert(TT_FLOAT32, back, sizeof(back),
				    TT_FLOAT16_B, bf, sizeof(bf), 5), 0);
	assert_true(back[2] == 3.0f);
	assert_int_equal(tt_convert(TT_FLOAT16_B, bf, 8, TT_FLOAT32, in,
				    sizeof(in), 5), -ENOBUFS);
	assert_string_equal(tt_last_error(),
			    "convert 5 elements from Float32 (0, 20 bytes) to Float16_b (5, 8 bytes): a buffer length is too small");
	assert_int_equal(tt_convert(TT_BFP8_B, bf, sizeof(bf), TT_FLOAT32, in,
				    sizeof(in), 5), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "to Bfp8_b (6,"));
	assert_int_equal(tt_convert(TT_BFP8, bf, sizeof(bf), TT_FLOAT32, in,
				    sizeof(in), 5), -ENOTSUP);
	assert_non_null(strstr(tt_last_error(),
			       "to Bfp8 (2, 10 bytes): format not supported"));
}

static void test_tilize_roundtrip(void **state)
{
	/* 40 x 50 uint16: padded to 64 x 64, 4 tiles. */
	static uint16_t m[40 * 50], back[40 * 50], tiles[64 * 64];
	uint16_t pad = 0xABCD;
	size_t bytes = 0;

	(void)state;
	for (size_t i = 0; i < 40 * 50; i++)
		m[i] = (uint16_t)(i * 7);
	assert_int_equal(tt_tiled_size(TT_FLOAT16_B, 40, 50, &bytes), 0);
	assert_int_equal(bytes, 4 * 2048);
	assert_int_equal(tt_tilize(tiles, sizeof(tiles), m, sizeof(m), 40, 50,
				   2, &pad), 0);
	/* Element (0, 16) is face 1's first element. */
	assert_int_equal(tiles[256], m[16]);
	/* Row 0 of tile 1 (columns 32..63): columns 50.. are padding. */
	assert_int_equal(tiles[1024 + 256 + 2], 0xABCD);
	assert_int_equal(tt_untilize(back, sizeof(back), tiles, sizeof(tiles),
				     40, 50, 2), 0);
	assert_memory_equal(back, m, sizeof(m));
	assert_int_equal(tt_tilize(tiles, 100, m, sizeof(m), 40, 50, 2, NULL),
			 -ENOBUFS);
	assert_non_null(strstr(tt_last_error(),
			       "tilize 40x50 of 2-byte elements (source 4000 bytes, destination 100 bytes)"));
	assert_int_equal(tt_tiled_size(TT_FLOAT32, 0, 5, &bytes), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "tiled size of 0x5 Float32 (0)"));
}

static void test_tilize_convert_bfp(void **state)
{
	static float m[32 * 32], back[32 * 32];
	static uint8_t tile[1088];

	(void)state;
	for (size_t i = 0; i < 32 * 32; i++)
		m[i] = (float)(i % 16) * 0.25f;
	assert_int_equal(tt_tilize_convert(TT_BFP8_B, tile, sizeof(tile),
					   TT_FLOAT32, m, sizeof(m), 32, 32), 0);
	assert_int_equal(tt_untilize_convert(TT_FLOAT32, back, sizeof(back),
					     TT_BFP8_B, tile, sizeof(tile), 32,
					     32), 0);
	/* Multiples of 1/4 up to 3.75 are exact in Bfp8_b. */
	assert_memory_equal(back, m, sizeof(m));
	assert_int_equal(tt_untilize_convert(TT_BFP8_B, back, sizeof(back),
					     TT_BFP8_B, tile, sizeof(tile), 32,
					     32), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "untilize 32x32 from Bfp8_b tiles"));
	assert_int_equal(tt_tilize_convert(TT_BFP8_B, tile, 100, TT_FLOAT32, m,
					   sizeof(m), 32, 32), -ENOBUFS);
}

static void test_convert_tiles(void **state)
{
	static float m[32 * 32], back[32 * 32];
	static uint8_t bfp[1088];
	static uint16_t bf[1024];

	(void)state;
	for (size_t i = 0; i < 32 * 32; i++)
		m[i] = (float)(i % 16) * 0.25f;
	assert_int_equal(tt_tilize_convert(TT_BFP8_B, bfp, sizeof(bfp),
					   TT_FLOAT32, m, sizeof(m), 32, 32), 0);
	assert_int_equal(tt_convert_tiles(TT_FLOAT16_B, bf, sizeof(bf),
					  TT_BFP8_B, bfp, sizeof(bfp), 1), 0);
	assert_int_equal(tt_untilize_convert(TT_FLOAT32, back, sizeof(back),
					     TT_FLOAT16_B, bf, sizeof(bf), 32,
					     32), 0);
	assert_memory_equal(back, m, sizeof(m));
	assert_int_equal(tt_convert_tiles(TT_FLOAT16_B, bf, 100, TT_BFP8_B,
					  bfp, sizeof(bfp), 1), -ENOBUFS);
	assert_string_equal(tt_last_error(),
			    "convert 1 tiles from Bfp8_b (6, 1088 bytes) to Float16_b (5, 100 bytes): a buffer length is too small");
}

static void test_bf16_vectors(void **state)
{
	uint16_t a[1000], b[1000], m[12];
	float lo = 1e30f, hi = -1e30f, sum = 0;

	(void)state;
	/* Packing: the first value in the low half, as in memory. */
	assert_int_equal(tt_pack_two_bf16(0x3F80, 0x4000), 0x40003F80u);
	{
		uint32_t w = tt_pack_two_bf16(0x1234, 0xABCD);
		uint16_t h[2];

		memcpy(h, &w, 4);
		assert_int_equal(h[0], 0x1234);
		assert_int_equal(h[1], 0xABCD);
	}
	/* Random: in range, spread over it, repeatable by seed. */
	assert_int_equal(tt_bf16_random_vector(a, 1000, 100.0f, 7, -50.0f), 0);
	assert_int_equal(tt_bf16_random_vector(b, 1000, 100.0f, 7, -50.0f), 0);
	assert_memory_equal(a, b, sizeof(a));
	for (unsigned i = 0; i < 1000; i++) {
		float v = tt_bf16_to_float(a[i]);

		assert_true(v >= -50.0f && v <= 50.0f);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		sum += v;
	}
	assert_true(lo < -45.0f && hi > 45.0f);
	assert_true(fabsf(sum / 1000) < 5.0f);
	assert_int_equal(tt_bf16_random_vector(b, 1000, 100.0f, 8, -50.0f), 0);
	assert_memory_not_equal(a, b, sizeof(a));
	assert_int_equal(tt_bf16_random_vector(a, 3, 0.0f, 1, 2.5f), 0);
	assert_int_equal(a[0], 0x4020); /* 2.5 */
	assert_int_equal(tt_bf16_random_vector(a, 1, -1.0f, 1, 0), -EINVAL);
	assert_int_equal(tt_bf16_random_vector(a, 1, NAN, 1, 0), -EINVAL);
	assert_int_equal(tt_bf16_random_vector(a, 1, 1.0f, 1, INFINITY),
			 -EINVAL);
	assert_int_equal(tt_bf16_random_vector(NULL, 0, 1.0f, 1, 0), 0);
	/* Constant: rounded to nearest. */
	assert_int_equal(tt_bf16_constant_vector(a, 5, 1.00390625f), 0);
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(a[i], 0x3F80); /* ties to even */
	assert_int_equal(tt_bf16_constant_vector(a, 1, -2.0f), 0);
	assert_int_equal(a[0], 0xC000);
	/* Identity. */
	memset(m, 0xFF, sizeof(m));
	assert_int_equal(tt_bf16_identity_matrix(m, 3, 4, 2), 0);
	for (unsigned r = 0; r < 3; r++)
		for (unsigned c = 0; c < 4; c++)
			assert_int_equal(m[r * 4 + c],
					 r == c && r < 2 ? 0x3F80 : 0);
	assert_int_equal(tt_bf16_identity_matrix(m, 3, 4, 4), -EINVAL);
	assert_non_null(strstr(tt_last_error(),
			       "4 ones do not fit the diagonal of a 3x4 matrix"));
	assert_int_equal(tt_bf16_identity_matrix(NULL, 0, 4, 0), 0);
	assert_int_equal(tt_bf16_identity_matrix(m, (size_t)1 << 40,
						 (size_t)1 << 40, 0),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enum_and_sizes),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_scalars),
		cmocka_unit_test(test_convert),
		cmocka_unit_test(test_tilize_roundtrip),
		cmocka_unit_test(test_tilize_convert_bfp),
		cmocka_unit_test(test_convert_tiles),
		cmocka_unit_test(test_bf16_vectors),
	};

	return cmocka_run_group_tests_name("dataformat_api", tests, NULL, NULL);
}
