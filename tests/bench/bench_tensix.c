// SPDX-License-Identifier: Apache-2.0
/*
 * The coprocessor's matrix unit, beside OpenBLAS sgemm on one thread, in
 * the same run:
 *
 *   tensix_gemm_gflops      sim_gemm (sim/model/gemm.h) on a 64x1024 times
 *                           1024x128 block, the shape of a big MATMUL
 *                           command, against cblas_sgemm on it
 *   tensix_matmul_gflops    whole TT_TX_MATMUL commands (RT=2, CT=4,
 *                           KT=32, Float16_b tiles in L1, fp32 DST, HiFi4)
 *                           issued through the register page on a blank
 *                           chip: unpack, fidelity, product, DST update
 *   tensix_matmul_tile_us   one such command on a single tile product
 *                           into 16-bit DST (what matmul_tiles costs)
 *
 * Each figure is the best of several rounds, to keep a busy machine's
 * noise out of the ratio. OpenBLAS runs with the CPU's best core type
 * (openblas_peer.h), named in vs=.
 */
#include <cblas.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "openblas_peer.h"

#include "sim/model/access.h"
#include "common/dataformat.h"
#include "sim/model/device.h"
#include "sim/model/gemm.h"
#include "common/soc_desc.h"

#define M 64
#define K 1024
#define N 128
#define ROUNDS 7

void openblas_set_num_threads(int n);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fill(float *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (float)((seed >> 8) & 0xFFFF) / 65536.0f - 0.5f;
	}
}

typedef void (*gemm_fn)(const float *a, const float *b, float *c);

static void run_sim(const float *a, const float *b, float *c)
{
	if (sim_gemm(M, N, K, a, K, b, N, c, N)) {
		fprintf(stderr, "bench-tensix: out of memory\n");
		exit(1);
	}
}

static void run_blas(const float *a, const float *b, float *c)
{
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f,
		    a, K, b, N, 1.0f, c, N);
}

/* Best GFLOPS of fn over ROUNDS rounds of about 0.1 s. */
static double best_gflops(gemm_fn fn, const float *a, const float *b,
			  float *c)
{
	double flops = 2.0 * M * N * K, best = 0;

	fn(a, b, c); /* warm: scratch, caches, thread pools */
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now(), t;
		unsigned iters = 0;

		do {
			fn(a, b, c);
			iters++;
			t = now() - t0;
		} while (t < 0.1);
		if (flops * iters / t / 1e9 > best)
			best = flops * iters / t / 1e9;
	}
	return best;
}

/* The two agree: same products, possibly summed in another order. */
static void check(const float *a, const float *b)
{
	float *c1 = calloc(M * N, sizeof(float));
	float *c2 = calloc(M * N, sizeof(float));

	if (!c1 || !c2)
		exit(1);
	run_sim(a, b, c1);
	run_blas(a, b, c2);
	for (size_t i = 0; i < M * N; i++)
		if (c1[i] - c2[i] > 1e-3f || c2[i] - c1[i] > 1e-3f) {
			fprintf(stderr, "bench-tensix: sim_gemm differs from sgemm at %zu: %g vs %g\n",
				i, c1[i], c2[i]);
			exit(1);
		}
	free(c1);
	free(c2);
}

/* The core type OpenBLAS runs with. */
static const char *peer_core;

static void bench_gemm(void)
{
	float *a = malloc(sizeof(float) * M * K);
	float *b = malloc(sizeof(float) * K * N);
	float *c = calloc(M * N, sizeof(float));
	double sim, blas;

	if (!a || !b || !c)
		exit(1);
	fill(a, (size_t)M * K, 1);
	fill(b, (size_t)K * N, 2);
	openblas_set_num_threads(1);
	check(a, b);
	sim = best_gflops(run_sim, a, b, c);
	blas = best_gflops(run_blas, a, b, c);
	printf("BENCH name=tensix_gemm_gflops value=%.1f unit=GFLOPS ratio=%.3f vs=openblas_1thread_%s\n",
	       sim, sim / blas, peer_core);
	fprintf(stderr, "# gemm: %s %.1f GFLOPS, OpenBLAS %.1f GFLOPS\n",
		sim_gemm_impl(), sim, blas);
	free(a);
	free(b);
	free(c);
}

/* ---- whole MATMUL commands ---- */

#define RT 2
#define CT 4
#define KT 32
#define A_ADDR 0x40000u
#define B_ADDR 0x80000u

static enum tt_dev_err host_write(struct sim_device *dev, uint64_t addr,
				  const void *p, size_t len)
{
	struct sim_access a = { .op = TT_DEV_OP_WRITE, .x = 1, .y = 1,
				.init_x = TT_DEV_INITIATOR_HOST,
				.init_y = TT_DEV_INITIATOR_HOST,
				.addr = addr, .len = len };

	return sim_access(&dev->ctx, &a, (void *)p);
}

static void reg(struct sim_device *dev, unsigned off, uint32_t v)
{
	if (host_write(dev, TT_REG_TENSIX_ADDR + off, &v, 4)) {
		fprintf(stderr, "bench-tensix: register %#x refused\n", off);
		exit(1);
	}
}

/* Random bf16 tiles for the A (RT x KT) and B (KT x CT) blocks. */
static void load_blocks(struct sim_device *dev)
{
	size_t n = (size_t)(RT * KT + KT * CT) * 1024;
	float *v = malloc(n * sizeof(float));
	uint16_t *t = malloc(n * 2);

	if (!v || !t)
		exit(1);
	fill(v, n, 3);
	for (size_t i = 0; i < n; i++)
		t[i] = df_f32_to_bf16_rne(v[i]);
	if (host_write(dev, A_ADDR, t, (size_t)RT * KT * 2048) ||
	    host_write(dev, B_ADDR, t + (size_t)RT * KT * 1024,
		       (size_t)KT * CT * 2048))
		exit(1);
	free(v);
	free(t);
}

/* Best GFLOPS of MATMUL commands on the configured rt x ct x kt block. */
static double best_cmd_gflops(struct sim_device *dev, unsigned rt,
			      unsigned ct, unsigned kt)
{
	double flops = 2.0 * rt * 32 * ct * 32 * kt * 32, best = 0;
	uint32_t cmd = TT_TX_COMMAND(TT_TX_MATMUL, 0, 0);

	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now(), t;
		unsigned iters = 0;

		do {
			if (host_write(dev, TT_REG_TENSIX_ADDR + TT_TX_CMD,
				       &cmd, 4)) {
				fprintf(stderr, "bench-tensix: refused\n");
				exit(1);
			}
			iters++;
			t = now() - t0;
		} while (t < 0.1);
		if (flops * iters / t / 1e9 > best)
			best = flops * iters / t / 1e9;
	}
	return best;
}

static void bench_matmul(void)
{
	float *a = malloc(sizeof(float) * M * K);
	float *b = malloc(sizeof(float) * K * N);
	float *c = calloc(M * N, sizeof(float));
	char err[SIM_ERR_LEN];
	struct soc_desc *soc = malloc(sizeof(*soc));
	struct sim_device *dev;
	double cmd, blas, tile;

	if (!a || !b || !c || !soc)
		exit(1);
	setenv("TT_FIRMWARE", "/dev/null", 1);
	setenv("TT_SIM_THREADS", "1", 1);
	if (soc_desc_builtin("wormhole_b0_n150", soc, err, sizeof(err)) ||
	    sim_device_create(soc, TT_HW_BOARD_N150, 0, 0, &dev, err)) {
		fprintf(stderr, "bench-tensix: %s\n", err);
		exit(1);
	}
	load_blocks(dev);
	reg(dev, TT_TX_CFG, TT_TX_CFG_FP32_DST |
				TT_FIELD_PREP(TT_TX_CFG_FIDELITY_MASK,
					      TT_TX_HIFI4));
	reg(dev, TT_TX_A_ADDR, A_ADDR);
	reg(dev, TT_TX_A_FMT, DF_FLOAT16_B);
	reg(dev, TT_TX_B_ADDR, B_ADDR);
	reg(dev, TT_TX_B_FMT, DF_FLOAT16_B);
	reg(dev, TT_TX_DST, 0);
	reg(dev, TT_TX_ARG0, RT | CT << 8 | KT << 16);
	reg(dev, TT_TX_ARG1, KT);
	reg(dev, TT_TX_ARG2, CT);
	cmd = best_cmd_gflops(dev, RT, CT, KT);
	/* One tile product per command into 16-bit DST, as a kernel's
	 * matmul_tiles would issue them. */
	reg(dev, TT_TX_CFG, TT_FIELD_PREP(TT_TX_CFG_FIDELITY_MASK,
					  TT_TX_HIFI4));
	reg(dev, TT_TX_ARG0, 1 | 1 << 8 | 1 << 16);
	tile = 2.0 * 32768 / best_cmd_gflops(dev, 1, 1, 1) / 1e3;
	fill(a, (size_t)M * K, 1);
	fill(b, (size_t)K * N, 2);
	blas = best_gflops(run_blas, a, b, c);
	printf("BENCH name=tensix_matmul_gflops value=%.1f unit=GFLOPS ratio=%.3f vs=openblas_1thread_%s\n",
	       cmd, cmd / blas, peer_core);
	printf("BENCH name=tensix_matmul_tile_us value=%.2f unit=us\n", tile);
	sim_device_destroy(dev);
	free(soc);
	free(a);
	free(b);
	free(c);
}

int main(int argc, char **argv)
{
	(void)argc;
	peer_core = bench_openblas_peer(argv);
	bench_gemm();
	bench_matmul();
	return 0;
}
