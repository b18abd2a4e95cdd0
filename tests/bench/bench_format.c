// SPDX-License-Identifier: Apache-2.0
/*
 * Host tile conversion throughput (common/dataformat.h), each figure in
 * GiB/s of fp32 matrix bytes beside memcpy of the same fp32 bytes,
 * measured in the same run:
 *
 *   tilize    2048x2048 fp32 row-major -> Float16_b tiles
 *             (df_tilize_convert)
 *   untilize  Float16_b tiles -> 2048x2048 fp32 row-major
 *             (df_untilize_convert)
 *
 * Each figure is the best of several rounds, to keep a busy machine's
 * noise out of the ratio.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dataformat.h"

#define DIM 2048u
#define ELEMS ((size_t)DIM * DIM)
#define FP32_BYTES (ELEMS * 4)
#define BF16_BYTES (ELEMS * 2)
#define ROUNDS 7
#define ITERS 8

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef int (*op_fn)(void *a, void *b);

/* Best bandwidth in GiB/s of fp32 bytes over ITERS calls of fn. */
static double best_bw(op_fn fn, void *a, void *b)
{
	double best = 0;

	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now(), bw;

		for (int i = 0; i < ITERS; i++)
			if (fn(a, b)) {
				fprintf(stderr, "bench-format: failed\n");
				exit(1);
			}
		bw = (double)FP32_BYTES * ITERS / (now() - t0) / (1u << 30);
		if (bw > best)
			best = bw;
	}
	return best;
}

static int do_memcpy(void *dst, void *src)
{
	memcpy(dst, src, FP32_BYTES);
	__asm__ volatile("" ::: "memory");
	return 0;
}

static int do_tilize(void *tiles, void *flat)
{
	return df_tilize_convert(DF_FLOAT16_B, tiles, BF16_BYTES, DF_FLOAT32,
				 flat, FP32_BYTES, DIM, DIM);
}

static int do_untilize(void *flat, void *tiles)
{
	return df_untilize_convert(DF_FLOAT32, flat, FP32_BYTES, DF_FLOAT16_B,
				   tiles, BF16_BYTES, DIM, DIM);
}

static void report(const char *name, double bw, double peer)
{
	printf("BENCH name=%s value=%.2f unit=GiB/s ratio=%.2f vs=memcpy\n",
	       name, bw, bw / peer);
}

int main(void)
{
	float *flat = malloc(FP32_BYTES), *copy = malloc(FP32_BYTES);
	uint16_t *tiles = malloc(BF16_BYTES);
	double mem;

	if (!flat || !copy || !tiles) {
		fprintf(stderr, "bench-format: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < ELEMS; i++)
		flat[i] = (float)i * 0.37f - 1000.0f;
	memset(copy, 1, FP32_BYTES);
	memset(tiles, 1, BF16_BYTES);

	mem = best_bw(do_memcpy, copy, flat);
	report("tilize", best_bw(do_tilize, tiles, flat), mem);
	mem = best_bw(do_memcpy, copy, flat);
	report("untilize", best_bw(do_untilize, copy, tiles), mem);
	free(flat);
	free(copy);
	free(tiles);
	return 0;
}
