// SPDX-License-Identifier: Apache-2.0
/*
 * Host tilize throughput through the tensor API (tt/tensor.h), in MB/s
 * (10^6 bytes) of fp32 matrix bytes, beside memcpy of the same fp32
 * bytes measured in the same run:
 *
 *   tilize    a 4096x4096 Float32 row-major tensor exported as
 *             Float16_b tiles (tt_tensor_export; the conversion module's
 *             df_tilize_convert underneath)
 *   untilize  the Float16_b tiles back into Float32 row-major
 *
 * Each figure is the best of several rounds, to keep a busy machine's
 * noise out of the ratio. Target: tilize ratio >= 0.5.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tt.h"

#define DIM 4096u
#define ELEMS ((size_t)DIM * DIM)
#define FP32_BYTES (ELEMS * 4)
#define BF16_BYTES (ELEMS * 2)
#define ROUNDS 7
#define ITERS 3

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct op {
	int (*fn)(const struct op *op);
	void *dst;
	const void *src;
	tt_tensor *t;
};

/* Best bandwidth in MB/s of fp32 bytes over ITERS calls of op. */
static double best_bw(const struct op *op)
{
	double best = 0;

	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now(), bw;

		for (int i = 0; i < ITERS; i++)
			if (op->fn(op)) {
				fprintf(stderr, "bench-tilize: %s\n",
					tt_last_error());
				exit(1);
			}
		bw = (double)FP32_BYTES * ITERS / (now() - t0) / 1e6;
		if (bw > best)
			best = bw;
	}
	return best;
}

static int do_memcpy(const struct op *op)
{
	memcpy(op->dst, op->src, FP32_BYTES);
	__asm__ volatile("" ::: "memory");
	return 0;
}

static int do_tilize(const struct op *op)
{
	return tt_tensor_export(op->t, TT_FLOAT16_B, TT_TENSOR_TILED, op->dst,
				BF16_BYTES);
}

static int do_untilize(const struct op *op)
{
	return tt_tensor_export(op->t, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, op->dst,
				FP32_BYTES);
}

static void report(const char *name, double bw, double peer)
{
	printf("BENCH name=%s value=%.0f unit=MB/s ratio=%.2f vs=memcpy\n",
	       name, bw, bw / peer);
}

int main(void)
{
	struct tt_shape s = TT_SHAPE(DIM, DIM);
	float *flat = malloc(FP32_BYTES), *copy = malloc(FP32_BYTES);
	uint16_t *tiles = malloc(BF16_BYTES);
	tt_tensor *rm, *tiled;
	double mem;

	if (!flat || !copy || !tiles) {
		fprintf(stderr, "bench-tilize: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < ELEMS; i++)
		flat[i] = (float)i * 0.37f - 1000.0f;
	memset(copy, 1, FP32_BYTES);
	memset(tiles, 1, BF16_BYTES);
	if (tt_tensor_wrap(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, flat,
			   FP32_BYTES, NULL, NULL, &rm) ||
	    tt_tensor_wrap(&s, TT_FLOAT16_B, TT_TENSOR_TILED, tiles, BF16_BYTES,
			   NULL, NULL, &tiled)) {
		fprintf(stderr, "bench-tilize: %s\n", tt_last_error());
		return 1;
	}
	mem = best_bw(&(struct op){do_memcpy, copy, flat, NULL});
	report("tilize", best_bw(&(struct op){do_tilize, tiles, NULL, rm}),
	       mem);
	mem = best_bw(&(struct op){do_memcpy, copy, flat, NULL});
	report("untilize",
	       best_bw(&(struct op){do_untilize, copy, NULL, tiled}), mem);
	tt_tensor_free(rm);
	tt_tensor_free(tiled);
	free(flat);
	free(copy);
	free(tiles);
	return 0;
}
