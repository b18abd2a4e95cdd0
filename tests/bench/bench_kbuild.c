// SPDX-License-Identifier: Apache-2.0
/*
 * Run-time kernel compilation (lib/kbuild/kbuild.c), in milliseconds:
 *
 *   kernel_build_cold    median of 5 builds of a typical data-movement
 *                        kernel (a reader like TT-Metal's eltwise binary
 *                        reader), each into a fresh, empty cache directory
 *                        and with an empty memory cache: one compiler run
 *   kernel_build_cached  median of many requests for the same kernel in
 *                        the same process (the memory cache)
 *
 * The SDK hash and the compiler's identity are computed once per process;
 * a warm-up build pays for them before anything is timed (their cost is
 * printed as a comment).
 */
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/kbuild/kbuild.h"
#include "lib/kbuild/kcache.h"
#include "tmpdir.h"

#define COLD_RUNS 5
#define CACHED_RUNS 2000

/* TT-Metal's eltwise binary reader in C: two interleaved inputs (DRAM
 * or L1 by compile-time argument), tile by tile into CBs 0 and 1. */
static const char reader[] =
	"#include \"dataflow_api.h\"\n"
	"\n"
	"void kernel_main(void)\n"
	"{\n"
	"\tuint32_t src0_addr = get_arg_val(0);\n"
	"\tuint32_t src1_addr = get_arg_val(1);\n"
	"\tuint32_t num_tiles = get_arg_val(2);\n"
	"\tconst bool src0_is_dram = get_compile_time_arg_val(0) == 1;\n"
	"\tconst bool src1_is_dram = get_compile_time_arg_val(1) == 1;\n"
	"\tconst uint32_t cb_in0 = 0, cb_in1 = 1;\n"
	"\tconst uint32_t tile0 = get_tile_size(cb_in0);\n"
	"\tconst uint32_t tile1 = get_tile_size(cb_in1);\n"
	"\tconst InterleavedAddrGenFast s0 = {\n"
	"\t\t.bank_base_address = src0_addr,\n"
	"\t\t.page_size = tile0,\n"
	"\t\t.data_format = get_dataformat(cb_in0),\n"
	"\t\t.is_dram = src0_is_dram,\n"
	"\t};\n"
	"\tconst InterleavedAddrGenFast s1 = {\n"
	"\t\t.bank_base_address = src1_addr,\n"
	"\t\t.page_size = tile1,\n"
	"\t\t.data_format = get_dataformat(cb_in1),\n"
	"\t\t.is_dram = src1_is_dram,\n"
	"\t};\n"
	"\n"
	"\tfor (uint32_t i = 0; i < num_tiles; i++) {\n"
	"\t\tcb_reserve_back(cb_in0, 1);\n"
	"\t\tnoc_async_read_tile(i, s0, get_write_ptr(cb_in0));\n"
	"\t\tcb_reserve_back(cb_in1, 1);\n"
	"\t\tnoc_async_read_tile(i, s1, get_write_ptr(cb_in1));\n"
	"\t\tnoc_async_read_barrier();\n"
	"\t\tcb_push_back(cb_in0, 1);\n"
	"\t\tcb_push_back(cb_in1, 1);\n"
	"\t}\n"
	"}\n";

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* One build of the reader; its time in ms, or exit on failure. */
static double timed_build(void)
{
	static const uint32_t ct_args[] = { 1, 1 };
	struct tt_kbuild_opts o = {
		.proc = TT_KPROC_NCRISC,
		.source = reader,
		.name = "reader",
		.noc = 1,
		.ct_args = ct_args,
		.ct_arg_count = 2,
	};
	struct tt_kbinary *b;
	double t0 = now_ms(), t;

	if (tt_kbuild(&o, &b)) {
		fprintf(stderr, "bench-kbuild: %s\n", tt_last_error());
		exit(1);
	}
	t = now_ms() - t0;
	tt_kbinary_put(b);
	return t;
}

/* A fresh, empty cache: TT_KERNEL_CACHE and the memory. */
static void fresh_cache(char *dir, size_t len)
{
	if (!test_mkdtemp(dir, len, "tt-bench-kcache")) {
		perror("bench-kbuild: mkdtemp");
		exit(1);
	}
	setenv("TT_KERNEL_CACHE", dir, 1);
	tt_kcache_reset_memory();
}

int main(void)
{
	double cold[COLD_RUNS], *cached = malloc(CACHED_RUNS * sizeof(double));
	char dir[PATH_MAX];
	unsigned i;

	if (!cached)
		return 1;
	fresh_cache(dir, sizeof(dir));
	printf("# first build, with SDK hash and compiler identity: %.1f ms\n",
	       timed_build());
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	for (i = 0; i < COLD_RUNS; i++) {
		fresh_cache(dir, sizeof(dir));
		cold[i] = timed_build();
		if (i + 1 < COLD_RUNS)
			nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	}
	/* The last cold build's cache serves the cached ones. */
	for (i = 0; i < CACHED_RUNS; i++)
		cached[i] = timed_build();
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	printf("BENCH name=kernel_build_cold value=%.2f unit=ms\n",
	       median(cold, COLD_RUNS));
	printf("BENCH name=kernel_build_cached value=%.4f unit=ms\n",
	       median(cached, CACHED_RUNS));
	free(cached);
	return 0;
}
