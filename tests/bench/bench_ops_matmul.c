// SPDX-License-Identifier: Apache-2.0
/*
 * op_matmul_2048: a 2048 x 2048 x 2048 bf16 matmul through the op
 * library's tt_op_matmul with its default config (NULL), beside OpenBLAS
 * cblas_sgemm (fp32) of the same inputs in the same process:
 *
 *   BENCH name=op_matmul_2048 value=<GFLOPS> unit=GFLOPS
 *         ratio=<model / OpenBLAS> vs=openblas_sgemm_<T>threads_<core>
 *
 * The peer runs on as many threads as the chip model runs the device's
 * harts on (sim/model/scheduler.c's worker pool: TT_SIM_THREADS if it is
 * a number in 1..64, else the online CPUs, at most 64), with OpenBLAS's
 * core type set to the CPU's best (openblas_peer.h).
 *
 * The model's figure is enqueue to finish of a call whose program is
 * cached (a warm-up call builds and loads it); the inputs' upload is left
 * out. Each side's figure is the median of RUNS runs. The model's result
 * must match OpenBLAS's with PCC >= 0.99, or the bench fails.
 */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "openblas_peer.h"
#include "tt/ops.h"

#define DIM 2048u
#define RUNS 5
#define PCC_MIN 0.99
#define MAX_HART_THREADS 64

void openblas_set_num_threads(int n);

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* CPU seconds of this process so far (every thread). */
static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	       ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
}

/*
 * For experiments only: BENCH_MM_CFG="variant gx gy pm pn kb sh sw"
 * (0 = auto) replaces the default config; the BENCH line then says
 * config=custom.
 */
static const struct tt_matmul_cfg *custom_cfg(struct tt_matmul_cfg *c)
{
	const char *v = getenv("BENCH_MM_CFG");
	unsigned x[8] = { 0 };

	if (!v || !*v)
		return NULL;
	*c = tt_op_matmul_config();
	sscanf(v, "%u %u %u %u %u %u %u %u", &x[0], &x[1], &x[2], &x[3],
	       &x[4], &x[5], &x[6], &x[7]);
	c->variant = (enum tt_matmul_variant)x[0];
	c->grid = (struct tt_xy){ x[1], x[2] };
	c->per_core_m = x[3];
	c->per_core_n = x[4];
	c->in0_block_w = x[5];
	c->out_subblock_h = x[6];
	c->out_subblock_w = x[7];
	return c;
}

static __attribute__((noreturn)) void die(const char *what)
{
	fprintf(stderr, "bench-ops-matmul: %s: %s\n", what, tt_last_error());
	exit(1);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		fprintf(stderr, "bench-ops-matmul: out of memory (%zu bytes)\n", n);
		exit(1);
	}
	return p;
}

/* The model's hart threads (see the top). */
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

static double pcc(const float *x, const float *y, size_t n)
{
	double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;

	for (size_t i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= (double)n;
	my /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double a = x[i] - mx, b = y[i] - my;

		sxy += a * b;
		sxx += a * a;
		syy += b * b;
	}
	return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 0;
}

/* bf16 device tensor of values in [-1, 1); *host gets them as the device
 * holds them. */
static tt_device_tensor *input(tt_device *dev, uint32_t seed, float **host)
{
	struct tt_shape s = TT_SHAPE(DIM, DIM);
	tt_device_tensor *dt = NULL;
	tt_tensor *t = NULL;
	float *p;

	if (tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t))
		die("tensor");
	p = tt_tensor_data(t);
	for (size_t i = 0; i < (size_t)DIM * DIM; i++) {
		seed = seed * 1664525u + 1013904223u;
		p[i] = (float)(seed >> 8) / 8388608.0f - 1.0f;
	}
	if (tt_device_tensor_create(dev, &s, TT_FLOAT16_B, TT_BUFFER_DRAM, &dt) ||
	    tt_device_tensor_write(dt, NULL, t) ||
	    tt_device_tensor_read(dt, NULL, t))
		die("upload");
	*host = xmalloc(sizeof(float) * DIM * DIM);
	memcpy(*host, p, sizeof(float) * DIM * DIM);
	tt_tensor_free(t);
	return dt;
}

int main(int argc, char **argv)
{
	const char *core = bench_openblas_peer(argv);
	size_t n = (size_t)DIM * DIM;
	double flops = 2.0 * DIM * DIM * DIM, ms[RUNS], model_ms, blas_ms, p;
	int threads = hart_threads();
	struct tt_ops_cache_stats st;
	tt_device_tensor *a, *b, *out = NULL;
	float *ha, *hb, *ref = xmalloc(sizeof(float) * n), *got;
	tt_tensor *t = NULL;
	tt_ops_ctx *ctx;
	tt_device *dev;
	struct tt_shape s = TT_SHAPE(DIM, DIM);
	struct tt_matmul_cfg cbuf;
	const struct tt_matmul_cfg *cfg = custom_cfg(&cbuf);
	double cpu0, model_cpu;

	(void)argc;
	if (tt_device_open(0, &dev) || tt_ops_ctx_create(dev, &ctx))
		die("open");
	a = input(dev, 1, &ha);
	b = input(dev, 2, &hb);
	/* Build, load and one whole run (caches), then the timed runs. */
	if (tt_op_matmul(ctx, a, b, cfg, &out) || tt_ops_finish(ctx))
		die("warm-up");
	cpu0 = cpu_s();
	for (int r = 0; r < RUNS; r++) {
		double t0 = now_ms();

		if (tt_op_matmul(ctx, a, b, cfg, &out) || tt_ops_finish(ctx))
			die("tt_op_matmul");
		ms[r] = now_ms() - t0;
	}
	model_cpu = (cpu_s() - cpu0) / RUNS * 1e3;
	model_ms = median(ms, RUNS);
	if (tt_ops_cache_stats(ctx, &st) || st.misses != 1 || st.hits != RUNS) {
		fprintf(stderr, "bench-ops-matmul: the program cache missed (%llu misses, %llu hits)\n",
			(unsigned long long)st.misses, (unsigned long long)st.hits);
		return 1;
	}
	if (tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t) ||
	    tt_device_tensor_read(out, NULL, t))
		die("read");
	got = tt_tensor_data(t);

	openblas_set_num_threads(threads);
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, DIM, DIM, DIM,
		    1.0f, ha, DIM, hb, DIM, 0.0f, ref, DIM);
	for (int r = 0; r < RUNS; r++) {
		double t0 = now_ms();

		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, DIM, DIM,
			    DIM, 1.0f, ha, DIM, hb, DIM, 0.0f, ref, DIM);
		ms[r] = now_ms() - t0;
	}
	blas_ms = median(ms, RUNS);
	p = pcc(got, ref, n);
	fprintf(stderr, "# model %.1f ms (%.1f ms of CPU), OpenBLAS %.1f ms on %d threads, PCC %.6f\n",
		model_ms, model_cpu, blas_ms, threads, p);
	if (!(p >= PCC_MIN)) {
		fprintf(stderr, "bench-ops-matmul: the model's product is wrong: PCC %.6f < %.2f\n",
			p, PCC_MIN);
		return 1;
	}
	printf("BENCH name=op_matmul_2048 value=%.1f unit=GFLOPS ratio=%.3f vs=openblas_sgemm_%dthreads_%s%s\n",
	       flops / (model_ms * 1e6), blas_ms / model_ms, threads, core,
	       cfg ? " config=custom" : "");
	tt_tensor_free(t);
	tt_device_tensor_free(a);
	tt_device_tensor_free(b);
	tt_device_tensor_free(out);
	tt_ops_ctx_free(ctx);
	tt_device_close(dev);
	free(ha);
	free(hb);
	free(ref);
	return 0;
}
