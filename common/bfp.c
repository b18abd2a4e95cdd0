// SPDX-License-Identifier: Apache-2.0
/*
 * Block floating point tiles (Bfp8_b, Bfp4_b, Bfp2_b): encoding and
 * decoding of one 32x32 tile, as dataformat.h describes.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "dataformat.h"
#include "dataformat_impl.h"

#define ROWS_PER_TILE (DF_TILE_ELEMS / DF_FACE_DIM) /* 64 shared exponents */

/* A float's bits with denormals flushed to (signed) zero and inf/NaN
 * clamped to the largest finite magnitude (NaN positive). */
static uint32_t sanitize(uint32_t u)
{
	uint32_t e = (u >> 23) & 0xffu;

	if (e == 0)
		return u & 0x80000000u;
	if (e == 0xffu)
		return (u & 0x7fffffu) ? 0x7f7fffffu
				       : (u & 0x80000000u) | 0x7f7fffffu;
	return u;
}

/* Sign-and-magnitude code (w magnitude bits) of u in a row with shared
 * exponent shared (>= u's exponent). */
static uint32_t encode_one(uint32_t u, uint32_t shared, unsigned w)
{
	uint32_t e = (u >> 23) & 0xffu, sig, m, rem, half;
	unsigned s;

	if (e == 0)
		return 0;
	sig = (u & 0x7fffffu) | 0x800000u;
	s = 24 - w + (shared - e); /* >= 17, 21, 23 */
	if (s > 24)
		return 0; /* below half a unit */
	m = sig >> s;
	rem = sig & ((1u << s) - 1);
	half = 1u << (s - 1);
	if (rem > half || (rem == half && (m & 1)))
		m++;
	if (m > (1u << w) - 1)
		m = (1u << w) - 1;
	if (!m)
		return 0;
	return ((u >> 31) << w) | m;
}

static void encode_row(uint8_t *exp, uint8_t *mant, const float *src,
		       unsigned row, unsigned w)
{
	uint32_t u[DF_FACE_DIM], shared = 0;
	unsigned bits = w + 1, per_byte = 8 / bits;

	for (unsigned i = 0; i < DF_FACE_DIM; i++) {
		u[i] = sanitize(df_f32_bits(src[i]));
		if (((u[i] >> 23) & 0xffu) > shared)
			shared = (u[i] >> 23) & 0xffu;
	}
	exp[row] = (uint8_t)shared;
	for (unsigned i = 0; i < DF_FACE_DIM; i++) {
		unsigned idx = row * DF_FACE_DIM + i;
		uint8_t *b = &mant[idx / per_byte];
		unsigned sh = (idx % per_byte) * bits;

		*b |= (uint8_t)(encode_one(u[i], shared, w) << sh);
	}
}

int df_bfp_encode_tile(enum df_format fmt, void *dst,
		       const float src[DF_TILE_ELEMS])
{
	unsigned w = df_bfp_mag_bits(fmt);
	uint8_t *d = dst;

	if (!w || !df_is_supported(fmt) || !dst || !src)
		return -EINVAL;
	memset(d, 0, df_tile_bytes(fmt));
	for (unsigned r = 0; r < ROWS_PER_TILE; r++)
		encode_row(d, d + DF_BFP_EXP_BYTES, src + r * DF_FACE_DIM, r,
			   w);
	return 0;
}

/* 2^k as a double, for k well inside double's normal range. */
static double pow2(int k)
{
	uint64_t b = (uint64_t)(k + 1023) << 52;
	double d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

int df_bfp_decode_tile(enum df_format fmt, float dst[DF_TILE_ELEMS],
		       const void *src)
{
	unsigned w = df_bfp_mag_bits(fmt), bits = w + 1, per_byte = 8 / bits;
	const uint8_t *s = src, *mant = s + DF_BFP_EXP_BYTES;

	if (!w || !df_is_supported(fmt) || !dst || !src)
		return -EINVAL;
	for (unsigned r = 0; r < ROWS_PER_TILE; r++) {
		/* Exact in double: m < 2^7, scale >= 2^-133. */
		double scale = pow2((int)s[r] - 127 - (int)(w - 1));

		for (unsigned i = 0; i < DF_FACE_DIM; i++) {
			unsigned idx = r * DF_FACE_DIM + i;
			unsigned code = (mant[idx / per_byte] >>
					 ((idx % per_byte) * bits)) &
					((1u << bits) - 1);
			double v = (double)(code & ((1u << w) - 1)) * scale;

			dst[idx] = (float)((code >> w) ? -v : v);
		}
	}
	return 0;
}
