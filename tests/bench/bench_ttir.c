// SPDX-License-Identifier: Apache-2.0
/*
 * bench-ttir: ttir_parse, libttc parsing, verifying and printing a
 * generated TTIR module of 100k ops (attributes in the {...} dictionary
 * form MLIR 15 reads), in MB/s of input, against Debian's mlir-opt-15
 * --allow-unregistered-dialect --mlir-print-op-generic on the same file
 * in the same run. Without mlir-opt-15 (package mlir-15-tools) the figure
 * is skipped with a message and no BENCH line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ttc/ops.h"
#include "tmpdir.h"
#include "ttc/text.h"

#define NOPS 100000

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A chain of elementwise ops, reductions, reshapes, softmax and matmuls. */
static char *generate(size_t *len)
{
	size_t cap = 256u << 20, n = 0;
	char *s = malloc(cap);
	const char *t = "tensor<32x64xf32>";

	n += (size_t)snprintf(s + n, cap - n,
			      "module {\n  func.func @main(%%arg0: %s, %%arg1: "
			      "%s, %%arg2: tensor<32x32xf32>) -> %s {\n", t, t,
			      t);
	n += (size_t)snprintf(s + n, cap - n,
			      "    %%0 = \"ttir.add\"(%%arg0, %%arg1) : (%s, %s) "
			      "-> %s\n", t, t, t);
	for (int i = 1; i < NOPS; i++) {
		int k = i % 5, p = i - 1;

		if (k == 0)
			n += (size_t)snprintf(s + n, cap - n,
				"    %%%d = \"ttir.multiply\"(%%%d, %%arg1) : (%s, "
				"%s) -> %s\n", i, p, t, t, t);
		else if (k == 1)
			n += (size_t)snprintf(s + n, cap - n,
				"    %%%d = \"ttir.softmax\"(%%%d) {dimension = -1 "
				": si32} : (%s) -> %s\n", i, p, t, t);
		else if (k == 2)
			n += (size_t)snprintf(s + n, cap - n,
				"    %%%d = \"ttir.reshape\"(%%%d) {shape = [64 : "
				"i32, 32 : i32]} : (%s) -> tensor<64x32xf32>\n",
				i, p, t);
		else if (k == 3)
			n += (size_t)snprintf(s + n, cap - n,
				"    %%%d = \"ttir.matmul\"(%%%d, %%arg2) "
				"{transpose_a = false, transpose_b = false} : "
				"(tensor<64x32xf32>, tensor<32x32xf32>) -> "
				"tensor<64x32xf32>\n", i, p);
		else
			n += (size_t)snprintf(s + n, cap - n,
				"    %%%d = \"ttir.reshape\"(%%%d) {shape = [32 : "
				"i32, 64 : i32]} : (tensor<64x32xf32>) -> %s\n",
				i, p, t);
	}
	n += (size_t)snprintf(s + n, cap - n,
			      "    return %%%d : %s\n  }\n}\n", NOPS - 1, t);
	*len = n;
	return s;
}

static double ours(const char *text, size_t len)
{
	double best = 1e9;

	for (int r = 0; r < 3; r++) {
		ttc_ctx *ctx = ttc_ctx_new_ttir();
		double t0 = now();
		ttc_module *m = ttc_parse(ctx, "bench.mlir", text, len, 0);

		if (!m || ttc_module_verify(m)) {
			fprintf(stderr, "bench-ttir: %.2000s", ttc_ctx_error(ctx));
			exit(1);
		}
		char *out = ttc_print(m, 0, NULL);
		double dt = now() - t0;

		free(out);
		ttc_module_free(m);
		ttc_ctx_free(ctx);
		best = dt < best ? dt : best;
	}
	return best;
}

static double theirs(const char *path)
{
	char cmd[512];
	double best = 1e9;

	snprintf(cmd, sizeof(cmd),
		 "mlir-opt-15 --allow-unregistered-dialect "
		 "--mlir-print-op-generic %s > /dev/null", path);
	for (int r = 0; r < 3; r++) {
		double t0 = now();

		if (system(cmd) != 0)
			return -1;
		double dt = now() - t0;

		best = dt < best ? dt : best;
	}
	return best;
}

int main(void)
{
	size_t len;
	char *text = generate(&len);
	char dir[256], path[300];
	FILE *f = NULL;

	if (test_mkdtemp(dir, sizeof(dir), "bench-ttir")) {
		snprintf(path, sizeof(path), "%s/module.mlir", dir);
		f = fopen(path, "w");
	}
	if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
		perror("bench-ttir: the generated module");
		return 1;
	}
	double a = ours(text, len);
	double mb = (double)len / 1e6;

	if (system("command -v mlir-opt-15 > /dev/null 2>&1") != 0) {
		printf("bench-ttir: ttir_parse skipped: mlir-opt-15 (Debian "
		       "package mlir-15-tools) is not installed\n");
	} else {
		double b = theirs(path);

		if (b < 0)
			printf("bench-ttir: ttir_parse skipped: mlir-opt-15 "
			       "failed on the generated module\n");
		else
			printf("BENCH name=ttir_parse value=%.1f unit=MB/s "
			       "ratio=%.2f vs=mlir-opt-15\n", mb / a, b / a);
	}
	unlink(path);
	rmdir(dir);
	free(text);
	return 0;
}
