/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data formats and tiles (TT-Metal's tt::DataFormat and tile layout), one
 * implementation shared by libtt and the chip model.
 *
 * A tile is 32x32 elements stored as four 16x16 faces (0 top-left, 1
 * top-right, 2 bottom-left, 3 bottom-right), each face row-major: element
 * (r, c) of a tile is at index face*256 + (r%16)*16 + (c%16) with
 * face = (r/16)*2 + (c/16). A tiled matrix is its tiles in row-major tile
 * order, rows and columns padded up to multiples of 32. Everything is
 * little-endian.
 *
 * Block floating point (Bfp8_b, Bfp4_b, Bfp2_b) exists only tiled. A tile
 * is 64 shared exponent bytes (one per 16-element face row, face 0 rows
 * 0..15 then faces 1, 2, 3) followed by the elements in tile order, each a
 * sign bit above w = 7, 3 or 1 magnitude bits, packed from the least
 * significant bits of each byte up. The magnitude carries its leading one
 * explicitly: value = (-1)^s * m * 2^(E - 127 - (w - 1)).
 *
 * Encoding into a block format, per 16-element row:
 *   - denormal inputs are flushed to zero; zero is encoded with sign 0;
 *   - +-inf become +-FLT_MAX, NaN becomes +FLT_MAX, so they saturate to
 *     the largest magnitude of the row (exponent 254);
 *   - E is the largest exponent in the row (0 if the row is all zero);
 *   - each 24-bit significand is shifted right by (E - own exponent) and
 *     its top w bits kept, rounding to nearest, ties to even, and
 *     saturating at 2^w - 1.
 * Decoding computes the value above exactly and rounds it to float (only
 * rows with E < 127 - 126 + w can produce float denormals; an untrusted
 * E = 255 can decode to inf).
 *
 * Scalar conversions from float to integers round to nearest, ties to
 * even, saturate at the integer type's limits, and map NaN to 0.
 * Conversions between float formats round to nearest even; NaN stays NaN
 * (bfloat16 NaN is always 0x7FC0, half NaN is quiet with the sign kept).
 *
 * Functions that can fail return 0 or a negative errno and never read or
 * write outside the lengths they are given: -EINVAL for a bad argument
 * (zero rows or columns, a block format where none can be, unknown
 * format), -ENOTSUP for a known format this module does not convert,
 * -EOVERFLOW when a size does not fit size_t, -ENOBUFS when dst_len or
 * src_len is too small. Source and destination must not overlap.
 */
#ifndef TT_COMMON_DATAFORMAT_H
#define TT_COMMON_DATAFORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DF_TILE_DIM 32u
#define DF_FACE_DIM 16u
#define DF_TILE_ELEMS 1024u
#define DF_FACE_ELEMS 256u
#define DF_BFP_EXP_BYTES 64u /* shared exponents at the start of a tile */

/* TT-Metal's tt::DataFormat values. */
enum df_format {
	DF_FLOAT32 = 0,
	DF_FLOAT16 = 1,
	DF_BFP8 = 2,
	DF_BFP4 = 3,
	DF_FLOAT16_B = 5,
	DF_BFP8_B = 6,
	DF_BFP4_B = 7,
	DF_INT32 = 8,
	DF_UINT16 = 9,
	DF_BFP2 = 11,
	DF_INT8 = 14,
	DF_BFP2_B = 15,
	DF_UINT32 = 24,
	DF_UINT8 = 30,
	DF_INVALID = 255,
};

/* The enum's name as TT-Metal spells it ("Float16_b"), or "Invalid" for a
 * value that is not in enum df_format. */
const char *df_name(enum df_format fmt);

/* Parse a format name: the names df_name returns, case-insensitively, and
 * the aliases bfloat16, bf16, fp32, float32, fp16, float16. Returns
 * DF_INVALID for anything else, including NULL. */
enum df_format df_from_name(const char *name);

/* True for the block floating-point formats (Bfp*), which exist only as
 * whole tiles. */
bool df_is_block(enum df_format fmt);

/* True if this module converts fmt (non-"_b" Bfp formats are not). */
bool df_is_supported(enum df_format fmt);

/* Bytes per element of a non-block format; 0 for block and unknown
 * formats. */
size_t df_elem_bytes(enum df_format fmt);

/* Bytes of one 32x32 tile (tt::tile_size: 4096, 2048, 1088, 576, 320,
 * 1024); 0 for an unknown format. */
size_t df_tile_bytes(enum df_format fmt);

/* Bytes of n_elems row-major elements of a non-block format; 0 for block
 * or unknown formats and when the size does not fit size_t. */
size_t df_bytes(enum df_format fmt, size_t n_elems);

/* Bytes of a rows x cols matrix tiled in fmt (padded to whole tiles) in
 * *bytes. Returns 0, -EINVAL (rows or cols 0, unknown format) or
 * -EOVERFLOW. */
int df_tiled_bytes(enum df_format fmt, size_t rows, size_t cols, size_t *bytes);

/* ---- scalars ---- */

/* float -> bfloat16 bits, round to nearest even; overflow rounds to inf,
 * infinities are kept, NaN -> 0x7FC0. */
uint16_t df_f32_to_bf16_rne(float f);

/* float -> bfloat16 bits by dropping the low 16 bits; NaN -> 0x7FC0 (a
 * NaN whose payload is only in the low bits would otherwise become inf). */
uint16_t df_f32_to_bf16_trunc(float f);

/* bfloat16 bits -> float (exact). */
float df_bf16_to_f32(uint16_t h);

/* float -> IEEE half bits, round to nearest even, with subnormal results;
 * values from 65520 up become inf, NaN becomes a quiet NaN with the sign
 * and the top payload bits kept. */
uint16_t df_f32_to_f16(float f);

/* IEEE half bits -> float (exact). */
float df_f16_to_f32(uint16_t h);

/* float -> integers: round to nearest, ties to even, saturate, NaN -> 0. */
int8_t df_f32_to_i8(float f);
uint8_t df_f32_to_u8(float f);
uint16_t df_f32_to_u16(float f);
int32_t df_f32_to_i32(float f);
uint32_t df_f32_to_u32(float f);

/* ---- bulk row-major conversion ---- */

/*
 * Convert n elements from src (format from, src_len bytes) to dst (format
 * to, dst_len bytes). Both formats must be supported and non-block.
 * Integer to integer conversions saturate; conversions into bfloat16 and
 * half from 32-bit integers round once (to nearest even). Returns 0,
 * -EINVAL, -ENOTSUP, -EOVERFLOW or -ENOBUFS (nothing written then).
 */
int df_convert(enum df_format to, void *dst, size_t dst_len,
	       enum df_format from, const void *src, size_t src_len, size_t n);

/* ---- tiles ---- */

/*
 * Tilize a row-major rows x cols matrix of elem_size-byte elements
 * (src_len >= rows*cols*elem_size) into dst (dst_len >= the padded tiled
 * size). Padding elements are copies of pad (elem_size bytes), or zero
 * bytes if pad is NULL. elem_size may be 1..16. Returns 0, -EINVAL,
 * -EOVERFLOW or -ENOBUFS.
 */
int df_tilize(void *dst, size_t dst_len, const void *src, size_t src_len,
	      size_t rows, size_t cols, size_t elem_size, const void *pad);

/* The inverse of df_tilize: the rows x cols matrix from a tiled buffer,
 * dropping the padding. Same arguments and errors. */
int df_untilize(void *dst, size_t dst_len, const void *src, size_t src_len,
		size_t rows, size_t cols, size_t elem_size);

/*
 * Tilize a row-major rows x cols matrix in format from (non-block) into
 * tiles of format to (any supported format, including Bfp*_b), converting
 * as df_convert does and padding with zero. Returns 0, -EINVAL, -ENOTSUP,
 * -EOVERFLOW or -ENOBUFS.
 */
int df_tilize_convert(enum df_format to, void *dst, size_t dst_len,
		      enum df_format from, const void *src, size_t src_len,
		      size_t rows, size_t cols);

/* The inverse: tiles of format from (any supported format) into a
 * row-major rows x cols matrix of format to (non-block), dropping the
 * padding. Same errors. */
int df_untilize_convert(enum df_format to, void *dst, size_t dst_len,
			enum df_format from, const void *src, size_t src_len,
			size_t rows, size_t cols);

/*
 * Convert ntiles whole tiles from format from to format to (any supported
 * formats, block or not), tile order kept: element by element as
 * df_convert does between non-block formats; through float (as the
 * fused tilize does) when either side is a block format. Returns 0,
 * -EINVAL, -ENOTSUP, -EOVERFLOW or -ENOBUFS.
 */
int df_convert_tiles(enum df_format to, void *dst, size_t dst_len,
		     enum df_format from, const void *src, size_t src_len,
		     size_t ntiles);

/* ---- block floating point, one tile ---- */

/* Encode 1024 floats in tile order into one tile of fmt (Bfp8_b, Bfp4_b
 * or Bfp2_b; df_tile_bytes(fmt) bytes at dst) as described above.
 * Returns 0 or -EINVAL for another format. */
int df_bfp_encode_tile(enum df_format fmt, void *dst,
		       const float src[DF_TILE_ELEMS]);

/* Decode one tile of fmt (df_tile_bytes(fmt) bytes at src) into 1024
 * floats in tile order. Returns 0 or -EINVAL for another format. */
int df_bfp_decode_tile(enum df_format fmt, float dst[DF_TILE_ELEMS],
		       const void *src);

#endif
