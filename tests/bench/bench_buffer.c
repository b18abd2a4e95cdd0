// SPDX-License-Identifier: Apache-2.0
/*
 * Buffer bandwidth through libtt's direct I/O on the embedded model, each
 * figure beside memcpy of the same 64 MiB measured in the same run:
 *
 *   buffer_write_bw  host -> a 64 MiB interleaved DRAM buffer
 *                    (tt_write_to_buffer), pages of 2048 bytes (one
 *                    bfloat16 tile)
 *   buffer_read_bw   the buffer -> host (tt_read_from_buffer)
 *
 * Each figure is the median of several runs. The chip is blank
 * (TT_FIRMWARE=/dev/null): nothing else runs on it. DRAM pages are
 * touched once before timing, so the figures do not count the model's
 * sparse DRAM being populated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tt.h"

#define SIZE (64u << 20)
#define PAGE 2048u
#define RUNS 7

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

typedef int (*op_fn)(tt_buffer *buf, void *a, void *b);

/* Median bandwidth in GiB/s of RUNS calls of fn. */
static double median_bw(op_fn fn, tt_buffer *buf, void *a, void *b)
{
	double bw[RUNS];

	for (int r = 0; r < RUNS; r++) {
		double t0 = now();

		if (fn(buf, a, b)) {
			fprintf(stderr, "bench-buffer: %s\n", tt_last_error());
			exit(1);
		}
		bw[r] = (double)SIZE / (now() - t0) / (1u << 30);
	}
	qsort(bw, RUNS, sizeof(bw[0]), cmp);
	return bw[RUNS / 2];
}

static int do_memcpy(tt_buffer *buf, void *dst, void *src)
{
	(void)buf;
	memcpy(dst, src, SIZE);
	__asm__ volatile("" ::: "memory");
	return 0;
}

static int do_write(tt_buffer *buf, void *unused, void *src)
{
	(void)unused;
	return tt_write_to_buffer(buf, src, SIZE);
}

static int do_read(tt_buffer *buf, void *dst, void *unused)
{
	(void)unused;
	return tt_read_from_buffer(buf, dst, SIZE);
}

int main(void)
{
	struct tt_buffer_config cfg = {
		.size = SIZE, .page_size = PAGE, .type = TT_BUFFER_DRAM,
	};
	uint8_t *a = malloc(SIZE), *b = malloc(SIZE);
	double mc, wr, rd;
	tt_buffer *buf;
	tt_device *dev;

	setenv("TT_FIRMWARE", "/dev/null", 0);
	if (!a || !b || tt_device_open(0, &dev)) {
		fprintf(stderr, "bench-buffer: %s\n", tt_last_error());
		return 1;
	}
	cfg.device = dev;
	if (tt_create_buffer(&cfg, &buf)) {
		fprintf(stderr, "bench-buffer: %s\n", tt_last_error());
		return 1;
	}
	for (size_t i = 0; i < SIZE; i++)
		a[i] = (uint8_t)(i * 31 + (i >> 11));
	memset(b, 0, SIZE);
	do_write(buf, NULL, a); /* populate the model's DRAM pages */
	mc = median_bw(do_memcpy, buf, b, a);
	wr = median_bw(do_write, buf, NULL, a);
	rd = median_bw(do_read, buf, b, NULL);
	if (memcmp(a, b, SIZE)) {
		fprintf(stderr, "bench-buffer: data read back differs\n");
		return 1;
	}
	printf("BENCH name=buffer_write_bw value=%.2f unit=GiB/s ratio=%.2f vs=memcpy\n",
	       wr, wr / mc);
	printf("BENCH name=buffer_read_bw value=%.2f unit=GiB/s ratio=%.2f vs=memcpy\n",
	       rd, rd / mc);
	tt_buffer_free(buf);
	tt_device_close(dev);
	free(a);
	free(b);
	return 0;
}
