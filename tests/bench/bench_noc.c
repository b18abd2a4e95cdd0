// SPDX-License-Identifier: Apache-2.0
/*
 * NOC bandwidth through libtt on the embedded model, each figure beside
 * memcpy of the same size measured in the same run:
 *
 *   noc_write_bw  host -> L1, 1 MiB per transfer (tt_noc_write)
 *   noc_read_bw   L1 -> host, 1 MiB per transfer (tt_noc_read)
 *   noc_copy_bw   L1 -> L1 on the device: an NIU WRITE command of 1 MiB,
 *                 issued by the host and waited for
 *
 * Each figure is the best of several rounds, to keep a busy machine's
 * noise out of the ratio.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hw/tt_hw.h"
#include "tt.h"

#define SIZE (1u << 20)
#define ROUNDS 7
#define ITERS 64

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef int (*op_fn)(tt_device *dev, void *a, void *b);

/* Best bandwidth in GiB/s of ITERS calls of fn, over ROUNDS rounds. */
static double best_bw(op_fn fn, tt_device *dev, void *a, void *b)
{
	double best = 0;

	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now(), bw;

		for (int i = 0; i < ITERS; i++)
			if (fn(dev, a, b)) {
				fprintf(stderr, "bench-noc: %s\n", tt_last_error());
				exit(1);
			}
		bw = (double)SIZE * ITERS / (now() - t0) / (1u << 30);
		if (bw > best)
			best = bw;
	}
	return best;
}

static int do_memcpy(tt_device *dev, void *dst, void *src)
{
	(void)dev;
	memcpy(dst, src, SIZE);
	__asm__ volatile("" ::: "memory");
	return 0;
}

static int do_write(tt_device *dev, void *unused, void *src)
{
	(void)unused;
	return tt_noc_write(dev, 0, 1, 1, 0, src, SIZE);
}

static int do_read(tt_device *dev, void *dst, void *unused)
{
	(void)unused;
	return tt_noc_read(dev, 0, 1, 1, 0, dst, SIZE);
}

/* Device-side copy: node 1-1 writes its L1 [0, 1 MiB) to node 2-1. */
static int do_copy(tt_device *dev, void *a, void *b)
{
	uint64_t base = TT_REG_NIU0_ADDR + TT_NIU_CMD(0, 0);
	uint32_t regs[9] = {
		0, 0, TT_FIELD_PREP(TT_NIU_COORD_X_MASK, 2u) |
			      TT_FIELD_PREP(TT_NIU_COORD_Y_MASK, 1u),
		0, 0, SIZE, TT_NIU_OP_WRITE, 0, 1,
	};
	uint32_t busy = 1, status = 0;
	int ret;

	(void)a;
	(void)b;
	ret = tt_noc_write(dev, 0, 1, 1, base, regs, sizeof(regs));
	while (!ret && busy)
		ret = tt_noc_read32(dev, 0, 1, 1, base + TT_NIU_CMD_ISSUE, &busy);
	if (!ret)
		ret = tt_noc_read32(dev, 0, 1, 1, base + TT_NIU_CMD_STATUS, &status);
	return ret ? ret : (int)status;
}

static void report(const char *name, double bw, double peer)
{
	printf("BENCH name=%s value=%.2f unit=GiB/s ratio=%.2f vs=memcpy\n", name,
	       bw, bw / peer);
}

int main(void)
{
	uint8_t *a = malloc(SIZE), *b = malloc(SIZE);
	double mem;
	tt_device *dev;

	setenv("TT_TRANSPORT", "embedded", 1);
	/* The NOC alone: a blank flash keeps firmware out of L1. */
	setenv("TT_FIRMWARE", "/dev/null", 1);
	if (!a || !b || tt_device_open(0, &dev)) {
		fprintf(stderr, "bench-noc: %s\n", tt_last_error());
		return 1;
	}
	memset(a, 1, SIZE);
	memset(b, 2, SIZE);
	do_write(dev, NULL, a); /* touch device pages once */
	tt_noc_write(dev, 0, 2, 1, 0, a, SIZE);

	mem = best_bw(do_memcpy, dev, b, a);
	report("noc_write_bw", best_bw(do_write, dev, NULL, a), mem);
	mem = best_bw(do_memcpy, dev, b, a);
	report("noc_read_bw", best_bw(do_read, dev, b, NULL), mem);
	mem = best_bw(do_memcpy, dev, b, a);
	report("noc_copy_bw", best_bw(do_copy, dev, NULL, NULL), mem);
	tt_device_close(dev);
	free(a);
	free(b);
	return 0;
}
