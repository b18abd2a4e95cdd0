/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data formats and tiles (TT-Metal's tt::DataFormat, tile layout and
 * tilize/untilize helpers).
 *
 * A tile is 32x32 elements stored as four 16x16 faces (0 top-left, 1
 * top-right, 2 bottom-left, 3 bottom-right), each face row-major. A tiled
 * matrix is its tiles in row-major tile order, rows and columns padded up
 * to multiples of 32. Everything is little-endian. Block floating point
 * formats (Bfp8_b, Bfp4_b, Bfp2_b) exist only as whole tiles: 64 shared
 * exponent bytes (one per 16-element face row) followed by the packed
 * elements.
 *
 * Conversions round to nearest, ties to even; conversions to integers
 * saturate and map NaN to 0; denormals are flushed to zero when encoding
 * block formats. Functions that can fail return 0 or a negative errno and
 * never read or write outside the lengths they are given: -EINVAL for a
 * bad argument (zero rows or columns, a block format where none can be,
 * unknown format), -ENOTSUP for a known format that is not converted
 * (Bfp8, Bfp4, Bfp2 without "_b"), -EOVERFLOW when a size does not fit
 * size_t, -ENOBUFS when a length is too small. Nothing is written on
 * failure. Source and destination must not overlap.
 *
 * Thread-safety: all functions are pure and may be called from any
 * thread.
 */
#ifndef TT_DATAFORMAT_API_H
#define TT_DATAFORMAT_API_H

#include "common.h"

#define TT_TILE_DIM 32u
#define TT_FACE_DIM 16u
#define TT_TILE_ELEMS 1024u

/* TT-Metal's tt::DataFormat values. */
enum tt_data_format {
	TT_FLOAT32 = 0,
	TT_FLOAT16 = 1,
	TT_BFP8 = 2,
	TT_BFP4 = 3,
	TT_FLOAT16_B = 5,
	TT_BFP8_B = 6,
	TT_BFP4_B = 7,
	TT_INT32 = 8,
	TT_UINT16 = 9,
	TT_BFP2 = 11,
	TT_INT8 = 14,
	TT_BFP2_B = 15,
	TT_UINT32 = 24,
	TT_UINT8 = 30,
	TT_INVALID = 255,
};

/* Bytes of one 32x32 tile of fmt (tt::tile_size: Float32 4096, Float16_b
 * 2048, Bfp8_b 1088, ...); 0 for an invalid format. */
TT_API size_t tt_tile_size(enum tt_data_format fmt);

/* Bytes per element of a non-block format; 0 for block and invalid
 * formats. */
TT_API size_t tt_data_format_elem_size(enum tt_data_format fmt);

/* True for the block floating-point formats (Bfp*). */
TT_API bool tt_data_format_is_block(enum tt_data_format fmt);

/* The format's name as TT-Metal spells it ("Float16_b"); "Invalid" for a
 * value that is not a format. Never NULL. */
TT_API const char *tt_data_format_name(enum tt_data_format fmt);

/*
 * Parse a format name: the names tt_data_format_name returns, in any case,
 * and the aliases bfloat16, bf16, fp32, float32, fp16, float16. Returns 0
 * and sets *fmt, or -EINVAL (naming the string) for anything else.
 */
TT_API int tt_data_format_parse(const char *name, enum tt_data_format *fmt);

/* Bytes of a rows x cols matrix tiled in fmt (padded to whole tiles).
 * Returns 0, -EINVAL or -EOVERFLOW. */
TT_API int tt_tiled_size(enum tt_data_format fmt, size_t rows, size_t cols,
			 size_t *bytes);

/* ---- scalars ---- */

/* float -> bfloat16 bits, round to nearest even (NaN -> 0x7FC0). */
TT_API uint16_t tt_float_to_bf16(float f);
/* float -> bfloat16 bits by truncation (NaN -> 0x7FC0). */
TT_API uint16_t tt_float_to_bf16_trunc(float f);
/* bfloat16 bits -> float (exact). */
TT_API float tt_bf16_to_float(uint16_t h);
/* float <-> IEEE half bits. */
TT_API uint16_t tt_float_to_f16(float f);
TT_API float tt_f16_to_float(uint16_t h);

/* ---- bfloat16 vectors (TT-Metal's bfloat16.hpp helpers) ----
 *
 * Arrays of bfloat16 bits. Two of them packed into a 32-bit word are the
 * same bytes in memory as TT-Metal's packed uint32 vectors (the first
 * value in the low half), so an array of n values is what
 * create_*_vector_of_bfloat16(2 * n bytes, ...) makes. out may be NULL
 * only when n is 0; -EINVAL otherwise. */

/* first | second << 16 (pack_two_bfloat16_into_uint32). */
TT_API uint32_t tt_pack_two_bf16(uint16_t first, uint16_t second);

/* n values u * rand_max + offset, u uniform in [0, 1), each rounded to
 * the nearest bfloat16 (create_random_vector_of_bfloat16). The same seed gives the same
 * values on every machine; they are not the values TT-Metal's generator
 * gives. rand_max must be finite and not negative. */
TT_API int tt_bf16_random_vector(uint16_t *out, size_t n, float rand_max,
				 uint32_t seed, float offset);

/* n copies of value (create_constant_vector_of_bfloat16). */
TT_API int tt_bf16_constant_vector(uint16_t *out, size_t n, float value);

/* A rows x cols row-major matrix of zeros with 1.0 at (i, i) for i <
 * num_ones (create_identity_matrix); num_ones must not exceed rows or
 * cols. */
TT_API int tt_bf16_identity_matrix(uint16_t *out, size_t rows, size_t cols,
				   size_t num_ones);

/* ---- arrays ---- */

/*
 * Convert n row-major elements from src (format from, src_len bytes) to
 * dst (format to, dst_len bytes). Both formats must be non-block. Returns
 * 0, -EINVAL, -ENOTSUP, -EOVERFLOW or -ENOBUFS.
 */
TT_API int tt_convert(enum tt_data_format to, void *dst, size_t dst_len,
		      enum tt_data_format from, const void *src,
		      size_t src_len, size_t n);

/*
 * Tilize a row-major rows x cols matrix of elem_size-byte elements
 * (1..16 bytes) into dst, padding with copies of pad (elem_size bytes) or
 * zero bytes if pad is NULL.
 */
TT_API int tt_tilize(void *dst, size_t dst_len, const void *src,
		     size_t src_len, size_t rows, size_t cols,
		     size_t elem_size, const void *pad);

/* The inverse of tt_tilize: drops the padding. */
TT_API int tt_untilize(void *dst, size_t dst_len, const void *src,
		       size_t src_len, size_t rows, size_t cols,
		       size_t elem_size);

/*
 * Tilize a row-major rows x cols matrix of format from (non-block) into
 * tiles of format to (any converted format, including Bfp*_b), padding
 * with zero.
 */
TT_API int tt_tilize_convert(enum tt_data_format to, void *dst,
			     size_t dst_len, enum tt_data_format from,
			     const void *src, size_t src_len, size_t rows,
			     size_t cols);

/* The inverse: tiles of format from into a row-major rows x cols matrix
 * of format to (non-block), dropping the padding. */
TT_API int tt_untilize_convert(enum tt_data_format to, void *dst,
			       size_t dst_len, enum tt_data_format from,
			       const void *src, size_t src_len, size_t rows,
			       size_t cols);

/*
 * Convert ntiles whole tiles of format from into tiles of format to (any
 * converted formats, block or not), keeping tile order.
 */
TT_API int tt_convert_tiles(enum tt_data_format to, void *dst,
			    size_t dst_len, enum tt_data_format from,
			    const void *src, size_t src_len, size_t ntiles);

#endif /* TT_DATAFORMAT_API_H */
