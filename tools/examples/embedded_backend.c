// SPDX-License-Identifier: Apache-2.0
/*
 * embedded_backend: PyBuda's "Embedded TTI Loading" main() in C, on the
 * embedded backend API (tt/backend.h, docs/backend.md). A model is set up
 * by hand where the seed loads a .tti image: inputs "activations" and
 * "bias", output "result", and one program "forward" whose kernel adds
 * the two inputs element by element in bfloat16, once per entry, for as
 * many entries as its parameter $p_loop_count says.
 *
 * Then, as in the seed, for each inference loop: every input is looked
 * up by name and a microbatch of tensors pushed into it (and the host
 * tensor freed), every program is run with {"$p_loop_count", "<n>"},
 * and every output is looked up by name, its entries got, checked
 * against a host sum, popped and freed. At the end, finish.
 *
 * Kernel: kernels/embedded_backend/add.c.
 */
#include <ctype.h>
#include <errno.h>

#include "example.h"

#define NAME "embedded_backend"
#define SHAPE TT_SHAPE(32, 64)
#define DEPTH 8u /* a whole microbatch is pushed before its run */
#define MAX_LOOPS 100000u

struct model {
	tt_device *dev;
	tt_backend *b;
	tt_buffer *scratch; /* the kernel's L1: one entry of each input */
	unsigned microbatch;
	size_t checked, bad;
};

/* The values of input `input` for entry `item` of loop `loop`: bf16
 * values in [-1, 1), different for each. */
static void input_values(float *p, size_t n, unsigned input, unsigned loop,
			 unsigned item)
{
	ex_fill_bf16(p, n, 1 + input + 7 * item + 1009 * loop);
}

/* ---- the model (what PyBuda's tt_backend::create gets from a .tti) */

static void add_program(struct model *m)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 0);
	uint32_t args[3 * TT_TQ_KERNEL_ARGS + 3];
	static const char *const queues[] = {"activations", "bias", "result"};
	struct tt_backend_binding loops = {
		.param = "$p_loop_count",
		.core = {0, 0},
		.index = 3 * TT_TQ_KERNEL_ARGS,
		.default_value = 1,
	};
	struct tt_io_desc d;
	tt_program *prog;

	EX_TRY(tt_create_program(&prog));
	EX_TRY(tt_create_kernel(prog, ex_kernel("embedded_backend/add.c"),
				&core, NULL, &loops.kernel));
	/* The kernel opens each queue from its runtime arguments. */
	for (unsigned i = 0; i < 3; i++) {
		EX_TRY(tt_backend_get_io(m->b, queues[i], &d));
		tt_tensor_queue_kernel_args(d.queue,
					    &args[i * TT_TQ_KERNEL_ARGS]);
	}
	args[3 * TT_TQ_KERNEL_ARGS] = 1; /* $p_loop_count, set by each run */
	args[3 * TT_TQ_KERNEL_ARGS + 1] =
		(uint32_t)tt_buffer_address(m->scratch);
	/* Entry bytes: the three queues share one shape and format. */
	args[3 * TT_TQ_KERNEL_ARGS + 2] =
		(uint32_t)tt_tensor_queue_entry_size(d.queue);
	EX_TRY(tt_set_runtime_args(prog, loops.kernel, (struct tt_xy){0, 0},
				   args, 3 * TT_TQ_KERNEL_ARGS + 3));
	/* From here on the backend owns the program. */
	EX_TRY(tt_backend_add_program(m->b, "forward", prog, &loops, 1));
}

static void create_model(struct model *m)
{
	struct tt_buffer_config scfg = {.device = m->dev, .type = TT_BUFFER_L1};
	struct tt_io_desc d;

	EX_TRY(tt_backend_create(m->dev, &m->b));
	/* Inputs in host memory, the output in device DRAM: both kinds of
	 * tensor queue (docs/queues.md). */
	EX_TRY(tt_backend_add_queue(m->b, "activations", TT_IO_INPUT, &SHAPE,
				    TT_FLOAT16_B, DEPTH, TT_QUEUE_HOST));
	EX_TRY(tt_backend_add_queue(m->b, "bias", TT_IO_INPUT, &SHAPE,
				    TT_FLOAT16_B, DEPTH, TT_QUEUE_HOST));
	EX_TRY(tt_backend_add_queue(m->b, "result", TT_IO_OUTPUT, &SHAPE,
				    TT_FLOAT16_B, DEPTH, TT_QUEUE_DRAM));
	EX_TRY(tt_backend_get_io(m->b, "activations", &d));
	scfg.size = scfg.page_size = 2 * tt_tensor_queue_entry_size(d.queue);
	EX_TRY(tt_create_buffer(&scfg, &m->scratch));
	add_program(m);
}

/* ---- one inference loop, as PyBuda's ---- */

/* <io process>: push a microbatch of every input. */
static void push_inputs(struct model *m, unsigned loop)
{
	const char *const *names;
	unsigned n;

	EX_TRY(tt_backend_input_names(m->b, &names, &n));
	for (unsigned i = 0; i < n; i++) {
		struct tt_io_desc d;

		EX_TRY(tt_backend_get_io(m->b, names[i], &d));
		for (unsigned item = 0; item < m->microbatch; item++) {
			tt_tensor *t;

			/* Any format and layout: the queue converts. */
			EX_TRY(tt_tensor_create(&d.shape, TT_FLOAT32,
						TT_TENSOR_ROW_MAJOR, &t));
			input_values(tt_tensor_data(t), tt_tensor_volume(t), i,
				     loop, item);
			EX_TRY(tt_backend_push_input(&d, t, 1000));
			tt_backend_free_tensor(t);
		}
	}
}

/* <runtime process>: run every program on the microbatch. */
static void run_programs(struct model *m)
{
	char count[16];
	const struct tt_backend_param params[] = {{"$p_loop_count", count}};
	const char *const *names;
	unsigned n;

	snprintf(count, sizeof(count), "%u", m->microbatch);
	EX_TRY(tt_backend_program_names(m->b, &names, &n));
	for (unsigned i = 0; i < n; i++)
		EX_TRY(tt_backend_run_program(m->b, names[i], params, 1));
}

/* The output entry for (loop, item) against the host's sum. */
static void check(struct model *m, const tt_tensor *got, unsigned loop,
		  unsigned item)
{
	size_t n = tt_tensor_volume(got);
	float *act = ex_xmalloc(n * sizeof(float));
	float *bias = ex_xmalloc(n * sizeof(float));
	tt_tensor *f32;
	const float *y;

	EX_TRY(tt_tensor_to(got, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &f32));
	y = tt_tensor_data(f32);
	input_values(act, n, 0, loop, item);
	input_values(bias, n, 1, loop, item);
	for (size_t i = 0; i < n; i++)
		m->bad += y[i] !=
			  tt_bf16_to_float(tt_float_to_bf16(act[i] + bias[i]));
	m->checked += n;
	tt_tensor_free(f32);
	free(act);
	free(bias);
}

/* <io process>: get, check and pop the microbatch of every output. */
static void pop_outputs(struct model *m, unsigned loop)
{
	const char *const *names;
	unsigned n;

	EX_TRY(tt_backend_output_names(m->b, &names, &n));
	for (unsigned i = 0; i < n; i++) {
		struct tt_io_desc d;

		EX_TRY(tt_backend_get_io(m->b, names[i], &d));
		for (unsigned item = 0; item < m->microbatch; item++) {
			tt_tensor *t;

			EX_TRY(tt_backend_get_output(&d, 10000, &t));
			EX_TRY(tt_backend_pop_output(&d, 10000));
			check(m, t, loop, item);
			tt_backend_free_tensor(t);
		}
	}
}

/* ---- command line ---- */

static void usage(FILE *to)
{
	fprintf(to,
		"usage: example-" NAME " [--help | --version] [LOOPS [MICROBATCH]]\n"
		"Run a two-input model through the embedded backend API as "
		"PyBuda's\n"
		"Embedded TTI Loading does: LOOPS inference loops (default 4, "
		"at most %u),\n"
		"each pushing MICROBATCH entries of every input (default 2, "
		"1..%u),\n"
		"running every program with $p_loop_count = MICROBATCH and "
		"getting,\n"
		"checking and popping as many entries of every output.\n"
		EX_HELP_COMMON,
		MAX_LOOPS, DEPTH);
}

/* A decimal argument in 1..max, else a usage error. */
static unsigned number(const char *arg, const char *what, unsigned max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < 1 || v > max)
		ex_usage_error("%s '%s' is not a number in 1..%u", what, arg,
			       max);
	return (unsigned)v;
}

int main(int argc, char **argv)
{
	struct model m = {.microbatch = 2};
	unsigned loops = 4;
	char detail[160];

	for (int i = 1; i < argc; i++) {
		ex_version_option(argv[i]);
		if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if (argv[i][0] == '-' && argv[i][1] && !isdigit(argv[i][1]))
			ex_usage_error("unknown option '%s'", argv[i]);
	}
	if (argc > 3)
		ex_usage_error("unexpected argument '%s'", argv[3]);
	if (argc > 1)
		loops = number(argv[1], "LOOPS", MAX_LOOPS);
	if (argc > 2)
		m.microbatch = number(argv[2], "MICROBATCH", DEPTH);

	ex_open_device(&m.dev);
	create_model(&m);
	for (unsigned loop = 0; loop < loops; loop++) {
		push_inputs(&m, loop);
		run_programs(&m);
		pop_outputs(&m, loop);
	}
	EX_TRY(tt_backend_finish(m.b));

	snprintf(detail, sizeof(detail),
		 "%u loops of %u, %zu bf16 sums checked, %zu wrong", loops,
		 m.microbatch, m.checked, m.bad);
	tt_backend_free(m.b);
	tt_buffer_free(m.scratch);
	tt_device_close(m.dev);
	return ex_verdict(NAME, m.checked && m.bad == 0, detail);
}
