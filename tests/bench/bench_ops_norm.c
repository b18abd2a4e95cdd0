// SPDX-License-Identifier: Apache-2.0
/*
 * bench-ops-norm: softmax and layernorm (tt/ops/norm.h) on the embedded
 * model against NumPy doing the same in the same run.
 *
 *   op_softmax: tt_op_softmax of a 1x1x2048x2048 bfloat16 tensor in
 *     DRAM, default config, cached program (one warm-up call), enqueue
 *     to finish, in ms; ratio = NumPy's time / ours (target >= 1).
 *   op_layernorm: tt_op_layernorm of the same tensor with gamma and
 *     beta ([2048] bfloat16), eps 1e-5, likewise.
 *
 * The peer: /usr/bin/python3 with NumPy on float32 arrays of the same
 * values (NumPy has no bfloat16), softmax as max, subtract, exp, sum,
 * divide along the last axis; layernorm as mean, subtract, mean of
 * squares, divide by sqrt(var + eps), times gamma plus beta. It runs
 * with as many threads as the model runs harts on (OMP_NUM_THREADS,
 * OPENBLAS_NUM_THREADS) and OpenBLAS's best core type
 * (openblas_peer.h), which vs= names. Every figure is the best of 7
 * runs (on a shared machine a neighbour's busy spell slows the runs it
 * overlaps; the best run is what each side costs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "openblas_peer.h"
#include "python_peer.h"
#include "tt.h"

#ifndef RUNS
#define RUNS 7
#endif
#define N 2048
#define MAX_HART_THREADS 64

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static void die(const char *what)
{
	fprintf(stderr, "bench-ops-norm: %s: %s\n", what, tt_last_error());
	exit(1);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double best(double *t, size_t n)
{
	qsort(t, n, sizeof(t[0]), cmp);
	return t[0];
}

/* Threads the model runs harts on (as bench-matmul counts them). */
static int hart_threads(void)
{
	const char *v = getenv("TT_SIM_THREADS");
	long n;

	if (v && *v) {
		char *end;
		unsigned long t = strtoul(v, &end, 10);

		if (!*end && t >= 1 && t <= MAX_HART_THREADS)
			return (int)t;
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_HART_THREADS ? MAX_HART_THREADS : (int)n;
}

static tt_device_tensor *bf16_tensor(tt_device *dev, struct tt_shape s,
				     uint32_t seed, float lo, float hi)
{
	tt_device_tensor *dt;
	tt_tensor *t;
	float *p;

	if (tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t))
		die("tensor");
	p = tt_tensor_data(t);
	for (size_t i = 0; i < tt_tensor_volume(t); i++) {
		seed = seed * 1664525u + 1013904223u;
		p[i] = lo + (hi - lo) * (float)(seed >> 8) / 16777216.0f;
	}
	if (tt_device_tensor_create(dev, &s, TT_FLOAT16_B, TT_BUFFER_DRAM, &dt) ||
	    tt_device_tensor_write(dt, NULL, t))
		die("device tensor");
	tt_tensor_free(t);
	return dt;
}

/* NumPy's best of 7 runs, in us: softmax, then layernorm. */
static const char peer_script[] =
	"import time, numpy as np\n"
	"R = np.random.default_rng(1)\n"
	"x = R.uniform(-4, 4, (1, 1, 2048, 2048)).astype(np.float32)\n"
	"g = R.uniform(0.5, 1.5, 2048).astype(np.float32)\n"
	"b = R.uniform(-1, 1, 2048).astype(np.float32)\n"
	"def softmax(x):\n"
	"    e = np.exp(x - x.max(axis=-1, keepdims=True))\n"
	"    return e / e.sum(axis=-1, keepdims=True)\n"
	"def layernorm(x):\n"
	"    xc = x - x.mean(axis=-1, keepdims=True)\n"
	"    var = (xc * xc).mean(axis=-1, keepdims=True)\n"
	"    return xc / np.sqrt(var + np.float32(1e-5)) * g + b\n"
	"for f in (softmax, layernorm):\n"
	"    f(x)\n"
	"    t = []\n"
	"    for i in range(7):\n"
	"        t0 = time.perf_counter(); f(x); t.append(time.perf_counter() - t0)\n"
	"    print(min(t) * 1e6)\n";

static int peer(int threads, double *sm_us, double *ln_us)
{
	char out[128];

	if (bench_python_peer(peer_script, threads, false, out, sizeof(out)) ||
	    sscanf(out, "%lf %lf", sm_us, ln_us) != 2)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *core = bench_openblas_peer(argv);
	int threads = hart_threads();
	tt_ops_ctx *ctx;
	tt_device *dev;
	tt_device_tensor *x, *g, *b, *o = NULL;
	double t_sm[RUNS], t_ln[RUNS], sm, ln, np_sm, np_ln;

	(void)argc;
	if (tt_device_open(0, &dev) || tt_ops_ctx_create(dev, &ctx))
		die("device");
	x = bf16_tensor(dev, TT_SHAPE(1, 1, N, N), 1, -4, 4);
	g = bf16_tensor(dev, TT_SHAPE(N), 2, 0.5f, 1.5f);
	b = bf16_tensor(dev, TT_SHAPE(N), 3, -1, 1);
	for (int i = -1; i < RUNS; i++) {
		double t0 = now_us();

		if (tt_op_softmax(ctx, x, NULL, &o) || tt_ops_finish(ctx))
			die("tt_op_softmax");
		if (i >= 0)
			t_sm[i] = now_us() - t0;
	}
	for (int i = -1; i < RUNS; i++) {
		double t0 = now_us();

		if (tt_op_layernorm(ctx, x, g, b, 1e-5f, NULL, &o) ||
		    tt_ops_finish(ctx))
			die("tt_op_layernorm");
		if (i >= 0)
			t_ln[i] = now_us() - t0;
	}
	sm = best(t_sm, RUNS);
	ln = best(t_ln, RUNS);
	if (peer(threads, &np_sm, &np_ln)) {
		fprintf(stderr, "bench-ops-norm: the NumPy peer (/usr/bin/python3) failed\n");
		return 1;
	}
	printf("BENCH name=op_softmax value=%.2f unit=ms ratio=%.2f vs=numpy_%dthreads_openblas_%s_%.2fms\n",
	       sm / 1e3, np_sm / sm, threads, core, np_sm / 1e3);
	printf("BENCH name=op_layernorm value=%.2f unit=ms ratio=%.2f vs=numpy_%dthreads_openblas_%s_%.2fms\n",
	       ln / 1e3, np_ln / ln, threads, core, np_ln / 1e3);
	tt_device_tensor_free(o);
	tt_device_tensor_free(x);
	tt_device_tensor_free(g);
	tt_device_tensor_free(b);
	tt_ops_ctx_free(ctx);
	tt_device_close(dev);
	return 0;
}
