// SPDX-License-Identifier: Apache-2.0
/*
 * Tensor queue throughput, host -> device -> host (tt/tensor_queue.h):
 * the host pushes COUNT tensors of 32 x 1024 bfloat16 (already tiled,
 * 64 KiB each) into an input queue, a resident kernel
 * (kernels/queue_copy.c) copies each entry to an output queue, the host
 * reads and pops each output. One thread pushes when there is room and
 * pops when there is an output. MB/s (10^6 bytes) of tensor bytes
 * delivered, beside memcpy of the same number of bytes (one copy of
 * COUNT * 64 KiB) measured in the same run:
 *
 *   queue_stream       both queues in host memory (DMA buffers)
 *   queue_stream_dram  both queues in device DRAM
 *
 * Best of ROUNDS runs each. Target: queue_stream ratio >= 0.3.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tt.h"

#define COUNT 400u
#define DEPTH 4u
#define ROUNDS 3
#define SHAPE TT_SHAPE(32, 1024)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
	fprintf(stderr, "bench-queue: %s: %s\n", what, tt_last_error());
	exit(1);
}

#define TRY(f)                                                                 \
	do {                                                                   \
		if ((f) != 0)                                                  \
			die(#f);                                               \
	} while (0)

struct pipe {
	tt_device *dev;
	tt_command_queue *cq;
	tt_tensor_queue *in, *out;
	tt_tensor *x, *y; /* tiled bf16: what is pushed, what is read */
	tt_program *prog;
	tt_buffer *scratch;
};

static void setup(struct pipe *p, enum tt_queue_placement where)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 0);
	struct tt_buffer_config c = {.device = p->dev, .type = TT_BUFFER_L1};
	uint32_t a[2 * TT_TQ_KERNEL_ARGS + 3];
	tt_kernel_handle k;

	TRY(tt_tensor_queue_create(p->dev, &SHAPE, TT_FLOAT16_B, DEPTH, where,
				   &p->in));
	TRY(tt_tensor_queue_create(p->dev, &SHAPE, TT_FLOAT16_B, DEPTH, where,
				   &p->out));
	c.size = c.page_size = tt_tensor_queue_entry_size(p->in);
	TRY(tt_create_buffer(&c, &p->scratch));
	TRY(tt_create_program(&p->prog));
	TRY(tt_create_kernel(p->prog, BENCH_KERNELS "/queue_copy.c", &core,
			     NULL, &k));
	tt_tensor_queue_kernel_args(p->in, &a[0]);
	tt_tensor_queue_kernel_args(p->out, &a[TT_TQ_KERNEL_ARGS]);
	a[2 * TT_TQ_KERNEL_ARGS] = COUNT;
	a[2 * TT_TQ_KERNEL_ARGS + 1] = (uint32_t)tt_buffer_address(p->scratch);
	a[2 * TT_TQ_KERNEL_ARGS + 2] =
		(uint32_t)tt_tensor_queue_entry_size(p->in);
	TRY(tt_set_runtime_args(p->prog, k, (struct tt_xy){0, 0}, a,
				2 * TT_TQ_KERNEL_ARGS + 3));
}

static void teardown(struct pipe *p)
{
	tt_program_free(p->prog);
	tt_buffer_free(p->scratch);
	tt_tensor_queue_free(p->in);
	tt_tensor_queue_free(p->out);
}

/* One pass of COUNT tensors; seconds. */
static double pass(struct pipe *p)
{
	unsigned pushed = 0, popped = 0;
	double t0 = now();

	TRY(tt_enqueue_program(p->cq, p->prog, false));
	while (popped < COUNT) {
		if (pushed < COUNT) {
			int r = tt_tensor_queue_push(p->in, p->x,
						     TT_TQ_NONBLOCK);

			if (r == 0) {
				pushed++;
				continue;
			}
			if (r != -EAGAIN)
				die("push");
		}
		TRY(tt_tensor_queue_read(p->out, p->y, 10000));
		TRY(tt_tensor_queue_pop(p->out));
		popped++;
	}
	TRY(tt_finish(p->cq));
	return now() - t0;
}

static double best_mbs(struct pipe *p, enum tt_queue_placement where)
{
	double best = 0;

	setup(p, where);
	pass(p); /* warm-up: kernel build and first launch */
	for (int r = 0; r < ROUNDS; r++) {
		double mbs =
			(double)tt_tensor_size(p->x) * COUNT / pass(p) / 1e6;

		if (mbs > best)
			best = mbs;
	}
	teardown(p);
	return best;
}

/* memcpy of COUNT tensors' bytes, one buffer to another. */
static double memcpy_mbs(size_t bytes)
{
	char *a = malloc(bytes), *b = malloc(bytes);
	double best = 0;

	if (!a || !b) {
		fprintf(stderr, "bench-queue: out of memory\n");
		exit(1);
	}
	memset(a, 1, bytes);
	memset(b, 2, bytes);
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now(), mbs;

		memcpy(b, a, bytes);
		__asm__ volatile("" ::: "memory");
		mbs = (double)bytes / (now() - t0) / 1e6;
		if (mbs > best)
			best = mbs;
	}
	free(a);
	free(b);
	return best;
}

static void report(const char *name, double mbs, double peer)
{
	printf("BENCH name=%s value=%.0f unit=MB/s ratio=%.2f vs=memcpy\n",
	       name, mbs, mbs / peer);
}

int main(void)
{
	struct pipe p = {0};
	double host, dram, mem;

	TRY(tt_device_open(0, &p.dev));
	TRY(tt_device_command_queue(p.dev, 0, &p.cq));
	TRY(tt_tensor_create(&SHAPE, TT_FLOAT16_B, TT_TENSOR_TILED, &p.x));
	TRY(tt_tensor_create(&SHAPE, TT_FLOAT16_B, TT_TENSOR_TILED, &p.y));
	memset(tt_tensor_data(p.x), 0x3F, tt_tensor_size(p.x));
	host = best_mbs(&p, TT_QUEUE_HOST);
	dram = best_mbs(&p, TT_QUEUE_DRAM);
	mem = memcpy_mbs(tt_tensor_size(p.x) * COUNT);
	report("queue_stream", host, mem);
	report("queue_stream_dram", dram, mem);
	tt_tensor_free(p.x);
	tt_tensor_free(p.y);
	tt_device_close(p.dev);
	return 0;
}
