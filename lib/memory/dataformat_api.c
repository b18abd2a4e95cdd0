// SPDX-License-Identifier: Apache-2.0
/*
 * The public data-format API (tt/dataformat.h): thin wrappers over
 * common/dataformat.h, the one implementation shared with the chip model.
 * What the wrappers add is the error message naming the failing call's
 * formats and sizes.
 */
#include <errno.h>

#include "common/dataformat.h"
#include "lib/device/internal.h"
#include "tt/dataformat.h"

#define SAME(a, b) _Static_assert((int)TT_##a == (int)DF_##b, #a)
SAME(FLOAT32, FLOAT32);
SAME(FLOAT16, FLOAT16);
SAME(BFP8, BFP8);
SAME(BFP4, BFP4);
SAME(FLOAT16_B, FLOAT16_B);
SAME(BFP8_B, BFP8_B);
SAME(BFP4_B, BFP4_B);
SAME(INT32, INT32);
SAME(UINT16, UINT16);
SAME(BFP2, BFP2);
SAME(INT8, INT8);
SAME(BFP2_B, BFP2_B);
SAME(UINT32, UINT32);
SAME(UINT8, UINT8);
SAME(INVALID, INVALID);
#undef SAME
_Static_assert(TT_TILE_DIM == DF_TILE_DIM && TT_FACE_DIM == DF_FACE_DIM &&
		       TT_TILE_ELEMS == DF_TILE_ELEMS,
	       "tile geometry");

static enum df_format df(enum tt_data_format f)
{
	return (enum df_format)f;
}

const char *tt_convert_why(int ret)
{
	switch (ret) {
	case -EINVAL:
		return "invalid argument (zero rows or columns, a block format where none can be, or an unknown format)";
	case -ENOTSUP:
		return "format not supported by the converter";
	case -EOVERFLOW:
		return "size does not fit size_t";
	case -ENOBUFS:
		return "a buffer length is too small";
	default:
		return "failed";
	}
}

size_t tt_tile_size(enum tt_data_format fmt)
{
	return df_tile_bytes(df(fmt));
}

size_t tt_data_format_elem_size(enum tt_data_format fmt)
{
	return df_elem_bytes(df(fmt));
}

bool tt_data_format_is_block(enum tt_data_format fmt)
{
	return df_is_block(df(fmt));
}

const char *tt_data_format_name(enum tt_data_format fmt)
{
	return df_name(df(fmt));
}

int tt_data_format_parse(const char *name, enum tt_data_format *fmt)
{
	enum df_format f;

	TT_CHECK_ARG(name);
	f = df_from_name(name);
	if (f == DF_INVALID)
		return tt_error(-EINVAL, "unknown data format \"%s\"", name);
	if (fmt)
		*fmt = (enum tt_data_format)f;
	return 0;
}

int tt_tiled_size(enum tt_data_format fmt, size_t rows, size_t cols,
		  size_t *bytes)
{
	int ret;

	TT_CHECK_ARG(bytes);
	ret = df_tiled_bytes(df(fmt), rows, cols, bytes);
	if (ret)
		return tt_error(ret, "tiled size of %zux%zu %s (%d): %s", rows,
				cols, df_name(df(fmt)), (int)fmt,
				tt_convert_why(ret));
	return 0;
}

uint16_t tt_float_to_bf16(float f)
{
	return df_f32_to_bf16_rne(f);
}

uint16_t tt_float_to_bf16_trunc(float f)
{
	return df_f32_to_bf16_trunc(f);
}

float tt_bf16_to_float(uint16_t h)
{
	return df_bf16_to_f32(h);
}

uint16_t tt_float_to_f16(float f)
{
	return df_f32_to_f16(f);
}

float tt_f16_to_float(uint16_t h)
{
	return df_f16_to_f32(h);
}

int tt_convert(enum tt_data_format to, void *dst, size_t dst_len,
	       enum tt_data_format from, const void *src, size_t src_len,
	       size_t n)
{
	int ret;

	if (TT_ARG_NULL_LEN(dst, dst_len) || TT_ARG_NULL_LEN(src, src_len))
		return -EINVAL;
	ret = df_convert(df(to), dst, dst_len, df(from), src, src_len, n);
	if (ret)
		return tt_error(ret,
				"convert %zu elements from %s (%d, %zu bytes) to %s (%d, %zu bytes): %s",
				n, df_name(df(from)), (int)from, src_len,
				df_name(df(to)), (int)to, dst_len,
				tt_convert_why(ret));
	return 0;
}

int tt_tilize(void *dst, size_t dst_len, const void *src, size_t src_len,
	      size_t rows, size_t cols, size_t elem_size, const void *pad)
{
	int ret;

	if (TT_ARG_NULL_LEN(dst, dst_len) || TT_ARG_NULL_LEN(src, src_len))
		return -EINVAL;
	ret = df_tilize(dst, dst_len, src, src_len, rows, cols, elem_size, pad);
	if (ret)
		return tt_error(ret,
				"tilize %zux%zu of %zu-byte elements (source %zu bytes, destination %zu bytes): %s",
				rows, cols, elem_size, src_len, dst_len,
				tt_convert_why(ret));
	return 0;
}

int tt_untilize(void *dst, size_t dst_len, const void *src, size_t src_len,
		size_t rows, size_t cols, size_t elem_size)
{
	int ret;

	if (TT_ARG_NULL_LEN(dst, dst_len) || TT_ARG_NULL_LEN(src, src_len))
		return -EINVAL;
	ret = df_untilize(dst, dst_len, src, src_len, rows, cols, elem_size);
	if (ret)
		return tt_error(ret,
				"untilize %zux%zu of %zu-byte elements (source %zu bytes, destination %zu bytes): %s",
				rows, cols, elem_size, src_len, dst_len,
				tt_convert_why(ret));
	return 0;
}

int tt_tilize_convert(enum tt_data_format to, void *dst, size_t dst_len,
		      enum tt_data_format from, const void *src,
		      size_t src_len, size_t rows, size_t cols)
{
	int ret;

	if (TT_ARG_NULL_LEN(dst, dst_len) || TT_ARG_NULL_LEN(src, src_len))
		return -EINVAL;
	ret = df_tilize_convert(df(to), dst, dst_len, df(from), src, src_len,
				rows, cols);
	if (ret)
		return tt_error(ret,
				"tilize %zux%zu from %s (%d, %zu bytes) to %s tiles (%d, %zu bytes): %s",
				rows, cols, df_name(df(from)), (int)from,
				src_len, df_name(df(to)), (int)to, dst_len,
				tt_convert_why(ret));
	return 0;
}

int tt_untilize_convert(enum tt_data_format to, void *dst, size_t dst_len,
			enum tt_data_format from, const void *src,
			size_t src_len, size_t rows, size_t cols)
{
	int ret;

	if (TT_ARG_NULL_LEN(dst, dst_len) || TT_ARG_NULL_LEN(src, src_len))
		return -EINVAL;
	ret = df_untilize_convert(df(to), dst, dst_len, df(from), src, src_len,
				  rows, cols);
	if (ret)
		return tt_error(ret,
				"untilize %zux%zu from %s tiles (%d, %zu bytes) to %s (%d, %zu bytes): %s",
				rows, cols, df_name(df(from)), (int)from,
				src_len, df_name(df(to)), (int)to, dst_len,
				tt_convert_why(ret));
	return 0;
}

int tt_convert_tiles(enum tt_data_format to, void *dst, size_t dst_len,
		     enum tt_data_format from, const void *src, size_t src_len,
		     size_t ntiles)
{
	int ret;

	if (TT_ARG_NULL_LEN(dst, dst_len) || TT_ARG_NULL_LEN(src, src_len))
		return -EINVAL;
	ret = df_convert_tiles(df(to), dst, dst_len, df(from), src, src_len,
			       ntiles);
	if (ret)
		return tt_error(ret,
				"convert %zu tiles from %s (%d, %zu bytes) to %s (%d, %zu bytes): %s",
				ntiles, df_name(df(from)), (int)from, src_len,
				df_name(df(to)), (int)to, dst_len,
				tt_convert_why(ret));
	return 0;
}

/* ---- bfloat16 vectors ---- */

uint32_t tt_pack_two_bf16(uint16_t first, uint16_t second)
{
	return (uint32_t)first | (uint32_t)second << 16;
}

/* splitmix32-style mixing of a counter: a fixed sequence per seed. */
static uint32_t mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7FEB352Du;
	x ^= x >> 15;
	x *= 0x846CA68Bu;
	x ^= x >> 16;
	return x;
}

int tt_bf16_random_vector(uint16_t *out, size_t n, float rand_max,
			  uint32_t seed, float offset)
{
	static const char fn[] = "tt_bf16_random_vector";
	uint32_t state = seed * 0x9E3779B9u;

	if (!out && n)
		return tt_error(-EINVAL, "%s: out is NULL", fn);
	if (!(rand_max >= 0.0f && rand_max <= 3.4e38f) ||
	    !(offset >= -3.4e38f && offset <= 3.4e38f))
		return tt_error(-EINVAL, "%s: rand_max %g and offset %g must be finite, rand_max not negative",
				fn, (double)rand_max, (double)offset);
	for (size_t i = 0; i < n; i++) {
		/* 24 random bits: a float in [0, 1). */
		float u = (float)(mix(state += 0x6D2B79F5u) >> 8) /
			  16777216.0f;

		out[i] = tt_float_to_bf16(u * rand_max + offset);
	}
	return 0;
}

int tt_bf16_constant_vector(uint16_t *out, size_t n, float value)
{
	uint16_t v = tt_float_to_bf16(value);

	if (!out && n)
		return tt_error(-EINVAL, "tt_bf16_constant_vector: out is NULL");
	for (size_t i = 0; i < n; i++)
		out[i] = v;
	return 0;
}

int tt_bf16_identity_matrix(uint16_t *out, size_t rows, size_t cols,
			    size_t num_ones)
{
	static const char fn[] = "tt_bf16_identity_matrix";

	if (!out && rows && cols)
		return tt_error(-EINVAL, "%s: out is NULL", fn);
	if (num_ones > rows || num_ones > cols)
		return tt_error(-EINVAL, "%s: %zu ones do not fit the diagonal of a %zux%zu matrix",
				fn, num_ones, rows, cols);
	if (rows && cols && rows > SIZE_MAX / cols)
		return tt_error(-EINVAL, "%s: a %zux%zu matrix is too large", fn,
				rows, cols);
	for (size_t i = 0; i < rows * cols; i++)
		out[i] = 0;
	for (size_t i = 0; i < num_ones; i++)
		out[i * cols + i] = 0x3F80; /* 1.0 */
	return 0;
}
