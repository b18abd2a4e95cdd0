// SPDX-License-Identifier: Apache-2.0
/*
 * dispatch_latency: enqueue + finish of an empty program (an empty kernel
 * on each processor of its cores), on one core and on the whole grid, in
 * microseconds, on the in-process model, in the dispatch mode TT_DISPATCH
 * selects (fast by default), after a warm-up that builds the kernels and
 * uploads them once. dispatch_latency_grid_1k is the whole grid with one
 * empty kernel per core (BRISC only).
 *
 * The figure is the lowest of BATCHES medians, each over RUNS
 * back-to-back runs: the model runs on every CPU of the machine, so on a
 * shared machine a neighbour's busy spell raises every run it overlaps,
 * and the best batch is what the stack itself costs. The median of all
 * runs is printed too (..._all_median), for comparison.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tt.h"

#define BATCHES 5
#define RUNS 400

static const char *const empty = "void kernel_main(void) {}\n";

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int die(const char *what)
{
	fprintf(stderr, "bench-dispatch: %s: %s\n", what, tt_last_error());
	exit(1);
}

static tt_program *empty_program(const struct tt_core_range_set *cores,
				 unsigned kernels)
{
	struct tt_kernel_config dm0 = tt_data_movement_config(TT_RISCV_0);
	struct tt_kernel_config dm1 = tt_data_movement_config(TT_RISCV_1);
	struct tt_kernel_config comp = tt_compute_config();
	tt_kernel_handle k;
	tt_program *p;

	if (tt_create_program(&p) ||
	    tt_create_kernel_from_string(p, empty, cores, &dm0, &k) ||
	    (kernels > 1 &&
	     tt_create_kernel_from_string(p, empty, cores, &dm1, &k)) ||
	    (kernels > 2 &&
	     tt_create_kernel_from_string(p, empty, cores, &comp, &k)))
		die("program");
	return p;
}

static double median(double *t, size_t n)
{
	qsort(t, n, sizeof(t[0]), cmp);
	return t[n / 2];
}

/* Print name's best batch median and the median of all its runs. */
static void measure(tt_command_queue *cq, tt_program *p, const char *name)
{
	static double all[BATCHES * RUNS], batch[RUNS];
	double best = 0;

	for (int i = 0; i < 20; i++)
		if (tt_enqueue_program(cq, p, false) || tt_finish(cq))
			die("warm-up");
	for (int b = 0; b < BATCHES; b++) {
		for (int i = 0; i < RUNS; i++) {
			double t0 = now_us();

			if (tt_enqueue_program(cq, p, false) || tt_finish(cq))
				die("run");
			batch[i] = all[b * RUNS + i] = now_us() - t0;
		}
		double m = median(batch, RUNS);

		best = b == 0 || m < best ? m : best;
	}
	printf("BENCH name=%s value=%.1f unit=us\n", name, best);
	printf("BENCH name=%s_all_median value=%.1f unit=us\n", name,
	       median(all, BATCHES * RUNS));
}

int main(void)
{
	struct tt_core_range_set one = tt_core_range_set_of_core(0, 0), grid;
	tt_command_queue *cq;
	tt_program *p1, *pg, *pg1;
	unsigned w, h;
	tt_device *dev;

	if (tt_device_open(0, &dev) || tt_device_command_queue(dev, 0, &cq) ||
	    tt_device_logical_grid(dev, &w, &h))
		die("device");
	grid = tt_core_range_set_of_range(0, 0, w - 1, h - 1);
	p1 = empty_program(&one, 3);
	pg = empty_program(&grid, 3);
	pg1 = empty_program(&grid, 1);
	measure(cq, p1, "dispatch_latency_1core");
	measure(cq, pg, "dispatch_latency_grid");
	measure(cq, pg1, "dispatch_latency_grid_1k");
	tt_program_free(p1);
	tt_program_free(pg);
	tt_program_free(pg1);
	tt_device_close(dev);
	return 0;
}
