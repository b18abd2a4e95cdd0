// SPDX-License-Identifier: Apache-2.0
/*
 * Bulk rounding to a 16-bit float format's precision (tile_io.h), with
 * the module's own rounding (dataformat_impl.h).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "dataformat_impl.h"
#include "tile_io.h"

#define RUN 16u

/* A run of floats' bits to bfloat16 precision: a fixed trip count over
 * branch-free rounding, which the compiler vectorises. */
static void bf16_run(uint32_t *u)
{
	for (unsigned i = 0; i < RUN; i++)
		u[i] = (uint32_t)df_bf16_rne_bits(u[i]) << 16;
}

int df_round_to(enum df_format fmt, float *v, size_t n)
{
	uint32_t u[RUN];
	size_t i = 0;

	if ((fmt != DF_FLOAT16_B && fmt != DF_FLOAT16) || (n && !v))
		return -EINVAL;
	if (fmt == DF_FLOAT16) {
		for (; i < n; i++)
			v[i] = df_f16_to_f32(df_f32_to_f16(v[i]));
		return 0;
	}
	for (; i + RUN <= n; i += RUN) {
		memcpy(u, v + i, sizeof(u));
		bf16_run(u);
		memcpy(v + i, u, sizeof(u));
	}
	for (; i < n; i++)
		v[i] = df_bf16_to_f32(df_f32_to_bf16_rne(v[i]));
	return 0;
}
