// SPDX-License-Identifier: Apache-2.0
/*
 * C = A x B on the whole Tensix grid (matmul_multi_core.h has the split).
 *
 * A and B are random bf16 matrices (fixed seed). The program runs once
 * without work to build and load its kernels, then twice timed (enqueue +
 * finish, without the upload of the inputs): the best run is reported,
 * since the first also pays for touching the chip model's memory. The
 * result is compared with an fp32 host product of the same bf16 inputs;
 * for big sizes on a sample of C's rows, which keeps the host's side to a
 * fraction of a second.
 *
 * Usage: example-matmul_multi [-m M] [-n N] [-k K] [--cores N]
 */
#include "example.h"

#include <getopt.h>

#include "matmul_multi_core.h"

#define PCC_MIN 0.99
/* Multiply-adds the host reference may spend: about 0.03 s at -O2. */
#define REF_MACS (1u << 25)
#define RUNS 2

struct opts {
	uint32_t m, n, k;
	unsigned cores; /* 0: the whole grid */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: example-matmul_multi [-m M] [-n N] [-k K] [--cores N]\n"
		"  C[M x N] = A[M x K] x B[K x N] in bf16 on the Tensix grid;\n"
		"  sizes are multiples of 32 (default 1024 each); --cores caps\n"
		"  the cores used (default: the whole logical grid)\n"
		EX_HELP_COMMON);
}

static struct opts parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cores", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { 1024, 1024, 1024, 0 };
	int c;

	opterr = 0; /* getopt's messages would name the path, not the program */
	while ((c = getopt_long(argc, argv, ":m:n:k:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			o.m = ex_parse_count("-m", optarg, 32, 8192);
			break;
		case 'n':
			o.n = ex_parse_count("-n", optarg, 32, 8192);
			break;
		case 'k':
			o.k = ex_parse_count("-k", optarg, 32, 8192);
			break;
		case 'c':
			o.cores = ex_parse_count("--cores", optarg, 1, 4096);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			ex_version_option("--version");
			break;
		default:
			ex_getopt_error(c, argv);
		}
	}
	if (optind < argc)
		ex_usage_error("unexpected argument '%s'", argv[optind]);
	return o;
}

/* Row i of a x b (fp32) into out: i-k-j, every inner loop sequential. */
static void host_row(const float *a, const float *b, float *out, uint32_t i,
		     const struct opts *o)
{
	memset(out, 0, sizeof(float) * o->n);
	for (uint32_t p = 0; p < o->k; p++) {
		float x = a[(size_t)i * o->k + p];
		const float *br = b + (size_t)p * o->n;

		for (uint32_t j = 0; j < o->n; j++)
			out[j] += x * br[j];
	}
}

/*
 * PCC of C against the host product on rows j * stride + j % stride
 * (every row if the product is small): spread over C, and over every row
 * position within a tile. *rows: how many were checked.
 */
static double check(const float *a, const float *b, const float *c,
		    const struct opts *o, unsigned *rows)
{
	uint64_t macs = (uint64_t)o->m * o->n * o->k;
	uint32_t stride = (uint32_t)((macs + REF_MACS - 1) / REF_MACS);
	float *got = ex_xmalloc(sizeof(float) * o->m * o->n);
	float *want = ex_xmalloc(sizeof(float) * o->m * o->n);
	size_t n = 0;
	double pcc;

	*rows = 0;
	for (uint32_t j = 0; (uint64_t)j * stride + j % stride < o->m; j++) {
		uint32_t i = j * stride + j % stride;

		host_row(a, b, want + n, i, o);
		memcpy(got + n, c + (size_t)i * o->n, sizeof(float) * o->n);
		n += o->n;
		(*rows)++;
	}
	pcc = ex_pcc(got, want, n);
	free(got);
	free(want);
	return pcc;
}

static __attribute__((noreturn)) void mm_die(void)
{
	fprintf(stderr, EX_NAME ": %s\n", mm_multi_error());
	exit(EX_EXIT_FAIL);
}

/* Upload, kernel build and load (a run without work), the timed runs, C
 * into c; the best time. */
static double run_device(const struct opts *o, const float *a, const float *b,
			 float *c)
{
	const struct mm_multi_plan *p;
	struct mm_multi *mm;
	tt_device *dev;
	double ms, best = 0;

	ex_open_device(&dev);
	if (mm_multi_create(dev, o->m, o->n, o->k, o->cores, &mm) ||
	    mm_multi_write_inputs(mm, a, b) || mm_multi_warm_up(mm))
		mm_die();
	for (int r = 0; r < RUNS; r++) {
		if (mm_multi_run(mm, &ms))
			mm_die();
		if (r == 0 || ms < best)
			best = ms;
	}
	if (mm_multi_read_output(mm, c))
		mm_die();
	p = mm_multi_plan(mm);
	printf("matmul_multi: C[%ux%u] = A[%ux%u] x B[%ux%u], bf16, on %u of %ux%u cores\n",
	       o->m, o->n, o->m, o->k, o->k, o->n, p->cols * p->rows,
	       p->grid_w, p->grid_h);
	printf("  split: %ux%u cores, %ux%u output tiles each, sub-blocks of %ux%u, K in chunks of %u tiles\n",
	       p->cols, p->rows, p->bm, p->bn, p->sh, p->sw, p->kb);
	printf("  inputs: A %s, B %s\n",
	       p->mcast_a ? "multicast along rows" : "read by every core",
	       p->mcast_b ? "multicast down columns" : "read by every core");
	mm_multi_free(mm);
	tt_device_close(dev);
	return best;
}

int main(int argc, char **argv)
{
	struct opts o = parse_args(argc, argv);
	float *a = ex_xmalloc(sizeof(float) * o.m * o.k);
	float *b = ex_xmalloc(sizeof(float) * o.k * o.n);
	float *c = ex_xmalloc(sizeof(float) * o.m * o.n);
	char detail[64];
	unsigned rows;
	double ms, pcc;

	ex_fill_bf16(a, (size_t)o.m * o.k, 1);
	ex_fill_bf16(b, (size_t)o.k * o.n, 2);
	ms = run_device(&o, a, b, c);
	printf("  device: %.2f ms (enqueue + finish, best of %d runs), %.1f GFLOPS\n",
	       ms, RUNS, 2.0 * o.m * o.n * o.k / (ms * 1e6));
	pcc = check(a, b, c, &o, &rows);
	printf("  check: PCC %.6f vs fp32 host product on %u of %u rows\n", pcc,
	       rows, o.m);
	snprintf(detail, sizeof(detail), "PCC %.6f, need >= %.2f", pcc, PCC_MIN);
	free(a);
	free(b);
	free(c);
	return ex_verdict("matmul_multi", pcc >= PCC_MIN, detail);
}
