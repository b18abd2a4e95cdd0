/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internals shared by the files of the data-format module (dataformat.c,
 * tilize.c, bfp.c); not part of its API.
 */
#ifndef TT_COMMON_DATAFORMAT_IMPL_H
#define TT_COMMON_DATAFORMAT_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dataformat.h"

struct df_conv;

/* Convert n elements, no checks: the caller has validated both formats
 * (supported, non-block) and both lengths. */
typedef void (*df_run_fn)(const struct df_conv *c, void *dst, const void *src,
			  size_t n);

/* A converter from one supported non-block format to another. */
struct df_conv {
	df_run_fn run;
	enum df_format to, from;
	size_t to_size, from_size; /* element bytes */
};

/* Fill *c for the pair; the caller has checked both formats. */
void df_conv_init(struct df_conv *c, enum df_format to, enum df_format from);

/* Magnitude bits of a block format (7, 3, 1), 0 for any other format. */
unsigned df_bfp_mag_bits(enum df_format fmt);

static inline uint32_t df_f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static inline float df_bits_f32(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* Branch-free bfloat16 rounding, so that loops over it vectorise. */
static inline uint16_t df_bf16_rne_bits(uint32_t u)
{
	uint32_t r = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;

	return (u & 0x7fffffffu) > 0x7f800000u ? 0x7fc0u : (uint16_t)r;
}

#endif
