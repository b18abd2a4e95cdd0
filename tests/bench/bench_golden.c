// SPDX-License-Identifier: Apache-2.0
/*
 * bench-golden: golden_matmul, libttc's golden of a 1024^3 fp32
 * ttir.matmul (ttc_golden_op on host tensors, as the interpreter runs
 * it), in GFLOPS, against OpenBLAS's cblas_sgemm of the same matrices in
 * the same run on as many threads. prints
 *   BENCH name=golden_matmul value=<GFLOPS> unit=GFLOPS
 *         ratio=<golden / OpenBLAS> vs=openblas_sgemm_<T>threads_<core>
 * and the golden's backend (docs/decisions.md) on a comment line.
 */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "openblas_peer.h"
#include "ttc/golden.h"
#include "ttc/ops.h"
#include "ttc/text.h"

#define DIM 1024
#define RUNS 9

int openblas_get_num_threads(void);

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static const char MODULE[] =
	"func.func @mm(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>)"
	" -> tensor<1024x1024xf32> {\n"
	"  %0 = \"ttir.matmul\"(%a, %b) : (tensor<1024x1024xf32>, "
	"tensor<1024x1024xf32>) -> tensor<1024x1024xf32>\n"
	"  return %0 : tensor<1024x1024xf32>\n}\n";

/*
 * Median seconds of the golden and of sgemm, runs interleaved so that both
 * see the same load of a shared machine; the last products in *out and c.
 */
static int time_both(ttc_op *op, ttc_tensor **in, ttc_tensor **out, float *c,
		     double *tg, double *tb)
{
	double g[RUNS], b[RUNS];

	for (int r = 0; r <= RUNS; r++) {
		double t0 = now();

		ttc_tensor_free(*out);
		if (ttc_golden_op(op, in, 2, out, TT_FLOAT32))
			return -1;
		double t1 = now();

		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, DIM, DIM,
			    DIM, 1.0f, in[0]->data, DIM, in[1]->data, DIM, 0.0f,
			    c, DIM);
		if (r) { /* run 0 warms up */
			g[r - 1] = t1 - t0;
			b[r - 1] = now() - t1;
		}
	}
	qsort(g, RUNS, sizeof(g[0]), cmp_double);
	qsort(b, RUNS, sizeof(b[0]), cmp_double);
	*tg = g[RUNS / 2];
	*tb = b[RUNS / 2];
	return 0;
}

int main(int argc, char **argv)
{
	const char *core = bench_openblas_peer(argv);
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = ttc_parse(ctx, "bench.mlir", MODULE, strlen(MODULE), 0);

	(void)argc;
	if (!m || ttc_module_verify(m)) {
		fprintf(stderr, "bench-golden: %s", ttc_ctx_error(ctx));
		return 1;
	}
	ttc_func *f = ttc_module_lookup(m, "mm");
	ttc_op *op = ttc_func_first_op(f);
	ttc_tensor *in[2], *out = NULL;

	for (int i = 0; i < 2; i++)
		in[i] = ttc_tensor_random(ctx, ttc_value_type(ttc_func_arg(f, i)),
					  (uint64_t)i + 1);
	float *c = malloc(sizeof(float) * DIM * DIM);
	double tg, tb;

	if (time_both(op, in, &out, c, &tg, &tb)) {
		fprintf(stderr, "bench-golden: %s", ttc_ctx_error(ctx));
		return 1;
	}
	/* The two products must agree (a wrong fast golden is no figure). */
	double worst = 0;

	for (size_t i = 0; i < (size_t)DIM * DIM; i++) {
		double d = ((float *)out->data)[i] - c[i];

		worst = d < 0 ? (-d > worst ? -d : worst) : (d > worst ? d : worst);
	}
	if (worst > 1e-3) {
		fprintf(stderr, "bench-golden: golden and sgemm differ by %g\n",
			worst);
		return 1;
	}
	double flops = 2.0 * DIM * DIM * DIM;

	printf("# golden_matmul: backend %s, panels of k %d summed in double\n",
	       ttc_golden_gemm_backend(), TTC_GEMM_KC);
	printf("BENCH name=golden_matmul value=%.1f unit=GFLOPS ratio=%.2f "
	       "vs=openblas_sgemm_%dthreads_%s\n",
	       flops / tg * 1e-9, tb / tg, openblas_get_num_threads(), core);
	free(c);
	ttc_tensor_free(out);
	ttc_tensor_free(in[0]);
	ttc_tensor_free(in[1]);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
	return 0;
}
