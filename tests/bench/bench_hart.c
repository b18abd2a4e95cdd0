// SPDX-License-Identifier: Apache-2.0
/*
 * Speed of one RV32IM hart (sim/model/rv32.c) on a compute-bound program:
 *
 *   hart_mips  million RV32 instructions per second, running the RV32IM
 *              image of workload_crc.c; ratio against the same source
 *              compiled for the host, counted as the RV32 instruction
 *              count over the native run time (so ratio = native time /
 *              interpreted time).
 *
 * The image (built by tests/bench/meson.build) is HART_IMAGE, or argv[1].
 * Both runs must return the same checksum. Each time is the best of
 * several runs, to keep a busy machine's noise out of the ratio.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/model/rv32.h"
#include "rv32/workload.h"

#define MEM_SIZE (1u << 20) /* as rv32/hart.ld */
#define ROUNDS 600u
#define RUNS 3
#define NATIVE_RUNS 9

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t read_image(const char *path, uint8_t *mem, size_t max)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		perror(path);
		exit(1);
	}
	n = fread(mem, 1, max, f);
	if (ferror(f) || !feof(f) || n == 0) {
		fprintf(stderr, "bench-hart: %s: unreadable or too big\n",
			path);
		exit(1);
	}
	fclose(f);
	return n;
}

/* One interpreted run from a fresh copy of the image; returns seconds. */
static double run_rv32(uint8_t *mem, const uint8_t *image, size_t len,
		       uint32_t *result, uint64_t *insns)
{
	struct rv32_hart h;
	enum rv32_exit why;
	double t0, t;

	memset(mem, 0, MEM_SIZE);
	memcpy(mem, image, len);
	rv32_init(&h, 0);
	h.mem = mem;
	h.mem_size = MEM_SIZE;
	h.x[10] = ROUNDS; /* a0 */
	t0 = now();
	do
		why = rv32_run(&h, UINT64_MAX);
	while (why == RV32_EXIT_BUDGET);
	t = now() - t0;
	if (why != RV32_EXIT_FAULT || h.fault_cause != TT_HART_FAULT_EBREAK) {
		fprintf(stderr, "bench-hart: stopped at pc 0x%x: %s\n", h.pc,
			rv32_fault_name(h.fault_cause));
		exit(1);
	}
	*result = h.x[10];
	*insns = h.instret;
	rv32_fini(&h);
	return t;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : HART_IMAGE;
	uint8_t *mem = malloc(MEM_SIZE), *image = malloc(MEM_SIZE);
	double rv = 1e30, native = 1e30, mips;
	uint32_t rv_result = 0, native_result = 0;
	uint64_t insns = 0;
	size_t len;

	if (!mem || !image)
		return 1;
	len = read_image(path, image, MEM_SIZE);
	for (int i = 0; i < RUNS; i++) {
		double t = run_rv32(mem, image, len, &rv_result, &insns);

		if (t < rv)
			rv = t;
	}
	for (int i = 0; i < NATIVE_RUNS; i++) {
		double t0 = now(), t;

		native_result = workload(ROUNDS);
		t = now() - t0;
		if (t < native)
			native = t;
	}
	if (rv_result != native_result) {
		fprintf(stderr,
			"bench-hart: RV32 result 0x%08x, native 0x%08x\n",
			rv_result, native_result);
		return 1;
	}
	mips = (double)insns / rv / 1e6;
	printf("BENCH name=hart_mips value=%.1f unit=MIPS ratio=%.3f "
	       "vs=native\n",
	       mips, native / rv);
	free(mem);
	free(image);
	return 0;
}
