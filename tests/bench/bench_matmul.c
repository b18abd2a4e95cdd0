// SPDX-License-Identifier: Apache-2.0
/*
 * A 1024 x 1024 x 1024 matmul on the chip model's whole Tensix grid (the
 * multi-core example, tools/examples/matmul_multi_core.h: bf16 in and
 * out), beside OpenBLAS cblas_sgemm (fp32) of the same inputs in the same
 * process, on as many threads as the model runs harts on:
 *
 *   BENCH name=matmul_gflops value=<model GFLOPS> unit=GFLOPS
 *         ratio=<model / OpenBLAS> vs=openblas_sgemm_<T>threads_<core>
 *
 * with OpenBLAS's core type set to the CPU's best (openblas_peer.h).
 *
 * The model's time is enqueue + finish of the program; the upload of the
 * inputs and the kernels' build and first load are left out. Each side's
 * figure is the median of RUNS runs after an untimed one. The model's
 * result must match OpenBLAS's with PCC >= 0.99, or the bench fails.
 */
#include "tools/examples/example.h"

#include <cblas.h>
#include <unistd.h>

#include "openblas_peer.h"
#include "tools/examples/matmul_multi_core.h"

#define DIM 1024u
#define RUNS 7
#define PCC_MIN 0.99
/* The chip model's cap on hart threads (sim/model/scheduler.h). */
#define MAX_HART_THREADS 64

void openblas_set_num_threads(int n);

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		fprintf(stderr, "bench-matmul: out of memory (%zu bytes)\n", n);
		exit(1);
	}
	return p;
}

/*
 * Threads the model runs harts on, as sim/model/device.c and sim/model/scheduler.c
 * choose them: TT_SIM_THREADS if it is a number in 1..64, else the online
 * CPUs, at most 64.
 */
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

/* bf16 values in [-1, 1): the inputs both sides multiply. */
static void fill_bf16(float *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		p[i] = tt_bf16_to_float(tt_float_to_bf16(
			(float)(seed >> 8) / 8388608.0f - 1.0f));
	}
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

static void blas_sgemm(const float *a, const float *b, float *c)
{
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, DIM, DIM, DIM,
		    1.0f, a, DIM, b, DIM, 0.0f, c, DIM);
}

/* Median ms of OpenBLAS on `threads` threads; its product into c. */
static double time_blas(const float *a, const float *b, float *c, int threads)
{
	double ms[RUNS];

	openblas_set_num_threads(threads);
	blas_sgemm(a, b, c); /* warm: thread pool, pages, caches */
	for (int r = 0; r < RUNS; r++) {
		double t0 = ex_now_ms();

		blas_sgemm(a, b, c);
		ms[r] = ex_now_ms() - t0;
	}
	return median(ms, RUNS);
}

static __attribute__((noreturn)) void mm_die(const char *what)
{
	fprintf(stderr, "bench-matmul: %s: %s\n", what, mm_multi_error());
	exit(1);
}

/* Median ms of the model's enqueue + finish; its product into c. */
static double time_model(tt_device *dev, const float *a, const float *b,
			 float *c)
{
	struct mm_multi *mm;
	double ms[RUNS];
	const struct mm_multi_plan *p;

	if (mm_multi_create(dev, DIM, DIM, DIM, 0, &mm))
		mm_die("create");
	if (mm_multi_write_inputs(mm, a, b))
		mm_die("upload");
	/* Kernel build and load, then a whole run for the caches. */
	if (mm_multi_warm_up(mm) || mm_multi_run(mm, NULL))
		mm_die("warm-up run");
	for (int r = 0; r < RUNS; r++)
		if (mm_multi_run(mm, &ms[r]))
			mm_die("run");
	if (mm_multi_read_output(mm, c))
		mm_die("read");
	p = mm_multi_plan(mm);
	fprintf(stderr, "# model: %ux%u of %ux%u cores, block %ux%u tiles, sub-block %ux%u, K chunk %u, multicast A %s B %s\n",
		p->cols, p->rows, p->grid_w, p->grid_h, p->bm, p->bn, p->sh,
		p->sw, p->kb, p->mcast_a ? "yes" : "no",
		p->mcast_b ? "yes" : "no");
	mm_multi_free(mm);
	return median(ms, RUNS);
}

int main(int argc, char **argv)
{
	const char *core = bench_openblas_peer(argv);
	size_t n = (size_t)DIM * DIM;
	float *a = xmalloc(sizeof(float) * n), *b = xmalloc(sizeof(float) * n);
	float *c = xmalloc(sizeof(float) * n), *ref = xmalloc(sizeof(float) * n);
	double flops = 2.0 * DIM * DIM * DIM, model_ms, blas_ms, pcc;
	int threads = hart_threads();
	tt_device *dev;

	(void)argc;
	fill_bf16(a, n, 1);
	fill_bf16(b, n, 2);
	if (tt_device_open(0, &dev)) {
		fprintf(stderr, "bench-matmul: tt_device_open: %s\n",
			tt_last_error());
		return 1;
	}
	model_ms = time_model(dev, a, b, c);
	tt_device_close(dev);
	blas_ms = time_blas(a, b, ref, threads);
	pcc = ex_pcc(c, ref, n);
	fprintf(stderr, "# model %.2f ms, OpenBLAS %.2f ms on %d threads, PCC %.6f\n",
		model_ms, blas_ms, threads, pcc);
	if (!(pcc >= PCC_MIN)) {
		fprintf(stderr, "bench-matmul: the model's product is wrong: PCC %.6f < %.2f\n",
			pcc, PCC_MIN);
		return 1;
	}
	printf("BENCH name=matmul_gflops value=%.1f unit=GFLOPS ratio=%.3f vs=openblas_sgemm_%dthreads_%s\n",
	       flops / (model_ms * 1e6), blas_ms / model_ms, threads, core);
	free(a);
	free(b);
	free(c);
	free(ref);
	return 0;
}
