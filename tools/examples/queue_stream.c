// SPDX-License-Identifier: Apache-2.0
/*
 * queue_stream: tensors streamed through a resident kernel by tensor
 * queues. The host pushes 1000 input tensors of 32 x 256 bfloat16 into
 * an input queue; one kernel on core (0,0), started once, takes each
 * entry, doubles every value and pushes the result into an output queue;
 * the host pops the 1000 results and checks every value. Run twice: with
 * both queues in device DRAM, then in host memory the device reaches
 * through its PCIe core.
 *
 * Kernel: kernels/queue_stream/double.c.
 */
#include <errno.h>

#include "example.h"

#define NAME "queue_stream"
#define COUNT 1000u
#define DEPTH 4u
#define SHAPE TT_SHAPE(32, 256)

struct stream {
	tt_device *dev;
	tt_tensor_queue *in, *out;
	tt_tensor *x, *y; /* row-major Float32: one input, one output */
	size_t bad;
};

/* Input n: the same bf16 values each run, different for each n. */
static void fill_input(struct stream *s, unsigned n)
{
	ex_fill_bf16(tt_tensor_data(s->x), tt_tensor_volume(s->x), 7 + n);
}

/* The host pushes when the input queue has room and pops when an output
 * is there; one thread does both, so it never waits for a push while
 * outputs it should be taking fill the output queue. */
static void stream(struct stream *s)
{
	unsigned pushed = 0, popped = 0;
	float *want = ex_xmalloc(tt_tensor_size(s->x));

	while (popped < COUNT) {
		if (pushed < COUNT) {
			int r;

			fill_input(s, pushed);
			r = tt_tensor_queue_push(s->in, s->x, TT_TQ_NONBLOCK);
			if (r == 0) {
				pushed++;
				continue;
			}
			if (r != -EAGAIN)
				ex_die("push of input %u", pushed);
		}
		EX_TRY(tt_tensor_queue_read(s->out, s->y, 10000));
		ex_fill_bf16(want, tt_tensor_volume(s->y), 7 + popped);
		for (size_t i = 0; i < tt_tensor_volume(s->y); i++)
			s->bad += ((float *)tt_tensor_data(s->y))[i] !=
				  2 * want[i];
		EX_TRY(tt_tensor_queue_pop(s->out));
		popped++;
	}
	free(want);
}

/* One run with both queues placed at `where`; its time in ms. */
static double run(struct stream *s, enum tt_queue_placement where)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 0);
	struct tt_buffer_config scfg = {.device = s->dev, .type = TT_BUFFER_L1};
	uint32_t args[2 * TT_TQ_KERNEL_ARGS + 3];
	tt_command_queue *cq;
	tt_kernel_handle k;
	tt_buffer *scratch;
	tt_program *prog;
	double t0;

	EX_TRY(tt_tensor_queue_create(s->dev, &SHAPE, TT_FLOAT16_B, DEPTH,
				      where, &s->in));
	EX_TRY(tt_tensor_queue_create(s->dev, &SHAPE, TT_FLOAT16_B, DEPTH,
				      where, &s->out));
	scfg.size = scfg.page_size = tt_tensor_queue_entry_size(s->in);
	EX_TRY(tt_create_buffer(&scfg, &scratch));
	EX_TRY(tt_create_program(&prog));
	EX_TRY(tt_create_kernel(prog, ex_kernel("queue_stream/double.c"), &core,
				NULL, &k));
	/* The kernel opens each queue from its runtime arguments. */
	tt_tensor_queue_kernel_args(s->in, &args[0]);
	tt_tensor_queue_kernel_args(s->out, &args[TT_TQ_KERNEL_ARGS]);
	args[2 * TT_TQ_KERNEL_ARGS] = COUNT;
	args[2 * TT_TQ_KERNEL_ARGS + 1] = (uint32_t)tt_buffer_address(scratch);
	args[2 * TT_TQ_KERNEL_ARGS + 2] =
		(uint32_t)tt_tensor_queue_entry_size(s->in);
	EX_TRY(tt_set_runtime_args(prog, k, (struct tt_xy){0, 0}, args,
				   2 * TT_TQ_KERNEL_ARGS + 3));
	EX_TRY(tt_device_command_queue(s->dev, 0, &cq));

	t0 = ex_now_ms();
	/* Not blocking: the kernel stays resident while the host streams. */
	EX_TRY(tt_enqueue_program(cq, prog, false));
	stream(s);
	EX_TRY(tt_finish(cq));
	t0 = ex_now_ms() - t0;

	tt_program_free(prog);
	tt_buffer_free(scratch);
	tt_tensor_queue_free(s->in);
	tt_tensor_queue_free(s->out);
	return t0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: example-" NAME " [--help | --version]\n"
		"Stream %u tensors through a doubling kernel by tensor "
		"queues,\n"
		"in DRAM and in host memory.\n"
		EX_HELP_COMMON,
		COUNT);
}

int main(int argc, char **argv)
{
	struct stream s = {0};
	double ms_dram, ms_host;
	char detail[160];

	ex_no_args(argc, argv, usage);
	ex_open_device(&s.dev);
	EX_TRY(tt_tensor_create(&SHAPE, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &s.x));
	EX_TRY(tt_tensor_create(&SHAPE, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &s.y));
	ms_dram = run(&s, TT_QUEUE_DRAM);
	ms_host = run(&s, TT_QUEUE_HOST);
	snprintf(detail, sizeof(detail),
		 "%u tensors [32,256] bf16 doubled, %zu values wrong; DRAM "
		 "queues %.0f ms, host queues %.0f ms",
		 COUNT, s.bad, ms_dram, ms_host);
	tt_tensor_free(s.x);
	tt_tensor_free(s.y);
	tt_device_close(s.dev);
	return ex_verdict(NAME, s.bad == 0, detail);
}
