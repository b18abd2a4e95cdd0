// SPDX-License-Identifier: Apache-2.0
/*
 * The embedded backend API (tt/backend.h) on the embedded model, queues
 * in DRAM and in host memory: PyBuda's flow end to end (inputs pushed
 * by name, every program run with "$p_loop_count", outputs got and popped
 * by name) with two programs whose kernel (tests/unit/kernels/
 * backend_kernel.c) adds a bias to each entry; loop counts of 1 and
 * more, defaults that do not stick, values at their bounds, a failed run
 * reported by the next run_program and by finish, a backend freed under
 * a waiting run; and every error: NULL arguments, hostile names (NULL,
 * empty, control characters, too long), wrong direction, unknown and
 * duplicate names, bad bindings, bad parameter values, timeouts.
 *
 * With TT_TEST_TRANSPORT=kmd (tests/unit/testcases.h) only the cases that
 * run no kernel run: a guest has no RISC-V compiler to build one.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testcases.h"
#include "testutil.h"

#define SHAPE TT_SHAPE(32, 64) /* 2 UInt32 tiles */
#define ENTRY_BYTES 8192u
#define WORDS (ENTRY_BYTES / 4)
#define DEPTH 4u

/* The kernel's unique args: two queues, loop count, scratch, bytes,
 * fault; and one common arg, the bias. */
#define A_LOOPS (2 * TT_TQ_KERNEL_ARGS)
#define A_SCRATCH (A_LOOPS + 1)
#define A_BYTES (A_LOOPS + 2)
#define A_FAULT (A_LOOPS + 3)
#define NARGS (A_LOOPS + 4)
#define BIAS_DEFAULT 1000u

struct fix {
	tt_device *dev;
	enum tt_queue_placement placement;
	tt_backend *b;
	tt_buffer *l1; /* the kernels' scratch: one entry */
};

static tt_device *dev;

/* ---- helpers ---- */

static void expect_error(int ret, int code, const char *text)
{
	assert_int_equal(ret, code);
	if (!strstr(tt_last_error(), text))
		fail_msg("message \"%s\" lacks \"%s\"", tt_last_error(), text);
}

/* Both texts in the message (a parameter and its program, say). */
static void expect_error2(int ret, int code, const char *a, const char *b)
{
	expect_error(ret, code, a);
	expect_error(ret, code, b);
}

static const char *kernel_path(void)
{
	static char path[512];
	const char *src = getenv("TT_TEST_SRC");

	snprintf(path, sizeof(path), "%s/unit/kernels/backend_kernel.c",
		 src ? src : "tests");
	return path;
}

static void add_queue(struct fix *f, const char *name, enum tt_io_kind kind)
{
	assert_int_equal(tt_backend_add_queue(f->b, name, kind, &SHAPE,
					      TT_UINT32, DEPTH, f->placement),
			 0);
}

static struct tt_io_desc io(struct fix *f, const char *name)
{
	struct tt_io_desc d;

	assert_int_equal(tt_backend_get_io(f->b, name, &d), 0);
	return d;
}

/* Tiled UInt32 entry n: word i is n * 7 + i. */
static tt_tensor *entry(uint32_t n)
{
	tt_tensor *t;
	uint32_t *w;

	assert_int_equal(
		tt_tensor_create(&SHAPE, TT_UINT32, TT_TENSOR_TILED, &t), 0);
	w = tt_tensor_data(t);
	for (uint32_t i = 0; i < WORDS; i++)
		w[i] = n * 7 + i;
	return t;
}

static void check_entry(const tt_tensor *t, uint32_t n, uint32_t bias)
{
	const uint32_t *w = tt_tensor_data(t);

	assert_int_equal(tt_tensor_format(t), TT_UINT32);
	for (uint32_t i = 0; i < WORDS; i++)
		if (w[i] != n * 7 + i + bias)
			fail_msg("entry %u word %u: %u, want %u", n, i, w[i],
				 n * 7 + i + bias);
}

static void push(struct fix *f, const char *name, uint32_t n)
{
	struct tt_io_desc d = io(f, name);
	tt_tensor *t = entry(n);

	assert_int_equal(tt_backend_push_input(&d, t, 10000), 0);
	tt_backend_free_tensor(t);
}

static void get_pop(struct fix *f, const char *name, uint32_t n, uint32_t bias)
{
	struct tt_io_desc d = io(f, name);
	tt_tensor *t = NULL;

	assert_int_equal(tt_backend_get_output(&d, 10000, &t), 0);
	check_entry(t, n, bias);
	assert_int_equal(tt_backend_pop_output(&d, 10000), 0);
	tt_backend_free_tensor(t);
}

/*
 * A program with the test kernel on logical core (x, y) serving queues
 * `in` and `out`: its unique args (loop count 1, no fault) and common
 * args (the bias) set. Never built unless run.
 */
static tt_program *stream_program(struct fix *f, unsigned x, unsigned y,
				  const char *in, const char *out,
				  tt_kernel_handle *k)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(x, y);
	uint32_t a[NARGS] = {0}, bias = BIAS_DEFAULT;
	tt_program *p;

	assert_int_equal(tt_create_program(&p), 0);
	assert_int_equal(tt_create_kernel(p, kernel_path(), &core, NULL, k), 0);
	tt_tensor_queue_kernel_args(io(f, in).queue, &a[0]);
	tt_tensor_queue_kernel_args(io(f, out).queue, &a[TT_TQ_KERNEL_ARGS]);
	a[A_LOOPS] = 1;
	a[A_SCRATCH] = (uint32_t)tt_buffer_address(f->l1);
	a[A_BYTES] = ENTRY_BYTES;
	assert_int_equal(
		tt_set_runtime_args(p, *k, (struct tt_xy){x, y}, a, NARGS), 0);
	assert_int_equal(tt_set_common_runtime_args(p, *k, &bias, 1), 0);
	return p;
}

/* The program's three parameters. */
static void add_stream_program(struct fix *f, const char *name, unsigned x,
			       unsigned y, const char *in, const char *out)
{
	tt_kernel_handle k;
	tt_program *p = stream_program(f, x, y, in, out, &k);
	const struct tt_backend_binding bind[] = {
		{"$p_loop_count", k, false, {x, y}, A_LOOPS, 1},
		{"$p_fault", k, false, {x, y}, A_FAULT, 0},
		{"$p_bias", k, true, {0, 0}, 0, BIAS_DEFAULT},
	};

	assert_int_equal(tt_backend_add_program(f->b, name, p, bind, 3), 0);
}

/* The usual set-up: input "in", output "out", program "fwd" on core
 * (0,0) between them. */
static void add_fwd(struct fix *f)
{
	add_queue(f, "in", TT_IO_INPUT);
	add_queue(f, "out", TT_IO_OUTPUT);
	add_stream_program(f, "fwd", 0, 0, "in", "out");
}

/* A program of one kernel from source text, with `n` unique args on core
 * (0,0) and `nc` common args: for binding checks (never built). */
static tt_program *plain_program(unsigned n, unsigned nc, tt_kernel_handle *k)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 0);
	uint32_t a[8] = {0};
	tt_program *p;

	assert_int_equal(tt_create_program(&p), 0);
	assert_int_equal(
		tt_create_kernel_from_string(p, "void kernel_main(void) {}\n",
					     &core, NULL, k),
		0);
	if (n)
		assert_int_equal(
			tt_set_runtime_args(p, *k, (struct tt_xy){0, 0}, a, n),
			0);
	if (nc)
		assert_int_equal(tt_set_common_runtime_args(p, *k, a, nc), 0);
	return p;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- building and names ---- */

static void test_create_bad_args(void **state)
{
	tt_backend *b;

	(void)state;
	expect_error(tt_backend_create(NULL, &b), -EINVAL, "dev is NULL");
	expect_error(tt_backend_create(dev, NULL), -EINVAL, "out is NULL");
	tt_backend_free(NULL);
	tt_backend_free_tensor(NULL);
}

static void test_add_queue_names(void **state)
{
	struct fix *f = *state;
	char long_name[TT_BACKEND_NAME_MAX + 2];

	memset(long_name, 'q', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	expect_error(tt_backend_add_queue(NULL, "x", TT_IO_INPUT, &SHAPE,
					  TT_UINT32, DEPTH, f->placement),
		     -EINVAL, "backend is NULL");
	expect_error(tt_backend_add_queue(f->b, NULL, TT_IO_INPUT, &SHAPE,
					  TT_UINT32, DEPTH, f->placement),
		     -EINVAL, "name is NULL");
	expect_error(tt_backend_add_queue(f->b, "", TT_IO_INPUT, &SHAPE,
					  TT_UINT32, DEPTH, f->placement),
		     -EINVAL, "name is empty");
	expect_error(tt_backend_add_queue(f->b, long_name, TT_IO_INPUT, &SHAPE,
					  TT_UINT32, DEPTH, f->placement),
		     -ENAMETOOLONG, "longer than 255 bytes");
	expect_error(tt_backend_add_queue(f->b, "a\nb", TT_IO_INPUT, &SHAPE,
					  TT_UINT32, DEPTH, f->placement),
		     -EINVAL, "\"a?b\" has a control character at byte 1");
	expect_error(tt_backend_add_queue(f->b, "x", 0, &SHAPE, TT_UINT32,
					  DEPTH, f->placement),
		     -EINVAL, "kind 0 is neither");
	expect_error(tt_backend_add_queue(f->b, "x", TT_IO_INPUT | TT_IO_OUTPUT,
					  &SHAPE, TT_UINT32, DEPTH,
					  f->placement),
		     -EINVAL, "kind 3 is neither");
	/* The longest name is fine; inputs and outputs share names. */
	long_name[TT_BACKEND_NAME_MAX] = '\0';
	add_queue(f, long_name, TT_IO_INPUT);
	add_queue(f, "x", TT_IO_INPUT);
	expect_error(tt_backend_add_queue(f->b, "x", TT_IO_OUTPUT, &SHAPE,
					  TT_UINT32, DEPTH, f->placement),
		     -EEXIST, "there is a queue \"x\" already (input)");
}

/* A queue the tensor queue refuses: its error, named; nothing added. */
static void test_add_queue_bad_geometry(void **state)
{
	struct fix *f = *state;
	const char *const *names;
	unsigned n;

	expect_error2(tt_backend_add_queue(f->b, "x", TT_IO_INPUT, &SHAPE,
					   TT_UINT32, 0, f->placement),
		      -EINVAL, "input \"x\"", "depth 0");
	expect_error2(tt_backend_add_queue(f->b, "y", TT_IO_OUTPUT, NULL,
					   TT_UINT32, DEPTH, f->placement),
		      -EINVAL, "output \"y\"", "shape is NULL");
	expect_error(tt_backend_add_queue(f->b, "x", TT_IO_INPUT, &SHAPE,
					  TT_UINT32, DEPTH, 7),
		     -EINVAL, "placement 7");
	assert_int_equal(tt_backend_input_names(f->b, &names, &n), 0);
	assert_int_equal(n, 0);
	add_queue(f, "x", TT_IO_INPUT);
}

static void test_get_io(void **state)
{
	struct fix *f = *state;
	struct tt_io_desc d;
	size_t huge = 1u << 20;
	char *name = malloc(huge + 1);

	add_queue(f, "act", TT_IO_INPUT);
	add_queue(f, "logits", TT_IO_OUTPUT);
	d = io(f, "logits");
	assert_string_equal(d.name, "logits");
	assert_int_equal(d.kind, TT_IO_OUTPUT);
	assert_int_equal(d.format, TT_UINT32);
	assert_int_equal(d.depth, DEPTH);
	assert_int_equal(d.placement, f->placement);
	assert_int_equal(d.shape.rank, 2);
	assert_int_equal(d.shape.dims[0], 32);
	assert_int_equal(d.shape.dims[1], 64);
	assert_non_null(d.queue);
	assert_int_equal(tt_tensor_queue_depth(d.queue), DEPTH);
	assert_int_equal(io(f, "act").kind, TT_IO_INPUT);

	expect_error(tt_backend_get_io(f->b, "nope", &d), -ENOENT,
		     "no input or output named \"nope\"");
	expect_error(tt_backend_get_io(f->b, "Act", &d), -ENOENT, "\"Act\"");
	expect_error(tt_backend_get_io(f->b, NULL, &d), -EINVAL,
		     "name is NULL");
	expect_error(tt_backend_get_io(f->b, "", &d), -EINVAL, "name is empty");
	expect_error(tt_backend_get_io(NULL, "act", &d), -EINVAL,
		     "backend is NULL");
	expect_error(tt_backend_get_io(f->b, "act", NULL), -EINVAL,
		     "out is NULL");
	/* A megabyte of name is merely not found; the message stays short. */
	assert_non_null(name);
	memset(name, 'n', huge);
	name[huge] = '\0';
	expect_error(tt_backend_get_io(f->b, name, &d), -ENOENT, "nnn\"...");
	assert_true(strlen(tt_last_error()) < 200);
	free(name);
}

static void expect_names(const char *const *names, unsigned n,
			 const char *const *want, unsigned nwant)
{
	assert_int_equal(n, nwant);
	for (unsigned i = 0; i < n; i++)
		assert_string_equal(names[i], want[i]);
}

static void test_names_in_order(void **state)
{
	struct fix *f = *state;
	static const char *const in[] = {"in2", "in1"}, *const out[] = {"o"},
				 *const progs[] = {"second", "first"};
	const char *const *names;
	tt_kernel_handle k;
	unsigned n;

	assert_int_equal(tt_backend_program_names(f->b, &names, &n), 0);
	assert_int_equal(n, 0);
	add_queue(f, "in2", TT_IO_INPUT);
	add_queue(f, "o", TT_IO_OUTPUT);
	add_queue(f, "in1", TT_IO_INPUT);
	assert_int_equal(tt_backend_add_program(f->b, "second",
						plain_program(0, 0, &k), NULL,
						0),
			 0);
	assert_int_equal(tt_backend_add_program(f->b, "first",
						plain_program(0, 0, &k), NULL,
						0),
			 0);
	assert_int_equal(tt_backend_input_names(f->b, &names, &n), 0);
	expect_names(names, n, in, 2);
	assert_int_equal(tt_backend_output_names(f->b, &names, &n), 0);
	expect_names(names, n, out, 1);
	assert_int_equal(tt_backend_program_names(f->b, &names, &n), 0);
	expect_names(names, n, progs, 2);
	expect_error(tt_backend_input_names(NULL, &names, &n), -EINVAL,
		     "backend is NULL");
	expect_error(tt_backend_output_names(f->b, NULL, &n), -EINVAL,
		     "names is NULL");
	expect_error(tt_backend_program_names(f->b, &names, NULL), -EINVAL,
		     "count is NULL");
}

/* ---- data, with the host on the device's side of each queue ---- */

static void test_push_input_reaches_queue(void **state)
{
	struct fix *f = *state;
	struct tt_io_desc d;
	tt_tensor *t;

	add_queue(f, "in", TT_IO_INPUT);
	d = io(f, "in");
	for (uint32_t n = 0; n < 2; n++)
		push(f, "in", n);
	for (uint32_t n = 0; n < 2; n++) {
		assert_int_equal(tt_tensor_queue_get(d.queue, 1000, &t), 0);
		check_entry(t, n, 0);
		tt_tensor_free(t);
		assert_int_equal(tt_tensor_queue_pop(d.queue), 0);
	}
}

static void test_output_got_and_popped(void **state)
{
	struct fix *f = *state;
	struct tt_tensor_queue_state st;
	struct tt_io_desc d;
	tt_tensor *t;

	add_queue(f, "out", TT_IO_OUTPUT);
	d = io(f, "out");
	for (uint32_t n = 0; n < 3; n++) {
		t = entry(n);
		assert_int_equal(tt_tensor_queue_push(d.queue, t, 1000), 0);
		tt_tensor_free(t);
	}
	/* get peeks: twice the same head. */
	assert_int_equal(tt_backend_get_output(&d, TT_TQ_NONBLOCK, &t), 0);
	check_entry(t, 0, 0);
	tt_backend_free_tensor(t);
	get_pop(f, "out", 0, 0);
	/* pop without a get drops the head. */
	assert_int_equal(tt_backend_pop_output(&d, TT_TQ_NONBLOCK), 0);
	get_pop(f, "out", 2, 0);
	assert_int_equal(tt_tensor_queue_state(d.queue, &st), 0);
	assert_int_equal(st.occupancy, 0);
}

static void test_wrong_direction(void **state)
{
	struct fix *f = *state;
	struct tt_io_desc in, out, blank = {0};
	tt_tensor *t = entry(0), *got = NULL;

	add_queue(f, "in", TT_IO_INPUT);
	add_queue(f, "out", TT_IO_OUTPUT);
	in = io(f, "in");
	out = io(f, "out");
	expect_error(tt_backend_push_input(&out, t, 0), -EINVAL,
		     "\"out\" is an output, not an input");
	expect_error(tt_backend_get_output(&in, 0, &got), -EINVAL,
		     "\"in\" is an input, not an output");
	expect_error(tt_backend_pop_output(&in, 0), -EINVAL,
		     "\"in\" is an input, not an output");
	/* Only the descriptor's io counts, not fields changed by hand. */
	in.kind = TT_IO_OUTPUT;
	expect_error(tt_backend_pop_output(&in, 0), -EINVAL, "is an input");
	expect_error(tt_backend_push_input(NULL, t, 0), -EINVAL,
		     "descriptor is NULL");
	expect_error(tt_backend_push_input(&blank, t, 0), -EINVAL,
		     "not filled by tt_backend_get_io");
	expect_error(tt_backend_get_output(&blank, 0, &got), -EINVAL,
		     "not filled");
	expect_error(tt_backend_pop_output(NULL, 0), -EINVAL,
		     "descriptor is NULL");
	expect_error(tt_backend_push_input(&out, NULL, 0), -EINVAL,
		     "is an output");
	in = io(f, "in");
	expect_error(tt_backend_push_input(&in, NULL, 0), -EINVAL,
		     "tensor is NULL");
	expect_error(tt_backend_get_output(&out, 0, NULL), -EINVAL,
		     "tensor pointer is NULL");
	assert_null(got);
	tt_tensor_free(t);
}

static void test_timeouts(void **state)
{
	struct fix *f = *state;
	struct tt_io_desc in, out;
	tt_tensor *t = NULL;
	double t0;

	add_queue(f, "in", TT_IO_INPUT);
	add_queue(f, "out", TT_IO_OUTPUT);
	in = io(f, "in");
	out = io(f, "out");
	t0 = now_ms();
	expect_error2(tt_backend_get_output(&out, 50, &t), -ETIMEDOUT,
		      "output \"out\"", "within 50 ms");
	assert_true(now_ms() - t0 >= 45);
	assert_null(t);
	expect_error(tt_backend_get_output(&out, TT_TQ_NONBLOCK, &t), -EAGAIN,
		     "output \"out\"");
	t0 = now_ms();
	expect_error(tt_backend_pop_output(&out, 50), -ETIMEDOUT,
		     "output \"out\"");
	assert_true(now_ms() - t0 >= 45);
	expect_error(tt_backend_pop_output(&out, TT_TQ_NONBLOCK), -EAGAIN,
		     "output \"out\"");
	/* A full input. */
	for (uint32_t n = 0; n < DEPTH; n++)
		push(f, "in", n);
	t = entry(9);
	expect_error(tt_backend_push_input(&in, t, TT_TQ_NONBLOCK), -EAGAIN,
		     "input \"in\"");
	expect_error(tt_backend_push_input(&in, t, 50), -ETIMEDOUT,
		     "input \"in\"");
	tt_tensor_free(t);
}

/* A broken queue: -EPIPE, with the queue's name and why. */
static void test_broken_queue(void **state)
{
	struct fix *f = *state;
	struct tt_io_desc in, out;
	tt_tensor *t = entry(0), *got = NULL;

	add_queue(f, "in", TT_IO_INPUT);
	add_queue(f, "out", TT_IO_OUTPUT);
	in = io(f, "in");
	out = io(f, "out");
	assert_int_equal(tt_tensor_queue_break(in.queue), 0);
	assert_int_equal(tt_tensor_queue_break(out.queue), 0);
	expect_error2(tt_backend_push_input(&in, t, TT_TQ_FOREVER), -EPIPE,
		      "input \"in\"", "broken");
	expect_error2(tt_backend_get_output(&out, TT_TQ_FOREVER, &got), -EPIPE,
		      "output \"out\"", "broken");
	expect_error(tt_backend_pop_output(&out, TT_TQ_FOREVER), -EPIPE,
		     "output \"out\"");
	tt_tensor_free(t);
}

/* ---- programs and parameters (nothing runs) ---- */

static void test_add_program_errors(void **state)
{
	struct fix *f = *state;
	tt_kernel_handle k;
	tt_program *p = plain_program(4, 2, &k);
	struct tt_backend_binding ok = {
		.param = "$p_loop_count",
		.kernel = k,
		.index = 3,
		.default_value = 1,
	};
	struct tt_backend_binding bad[2] = {ok, ok};

	expect_error(tt_backend_add_program(NULL, "p", p, &ok, 1), -EINVAL,
		     "backend is NULL");
	expect_error(tt_backend_add_program(f->b, "p", NULL, &ok, 1), -EINVAL,
		     "program is NULL");
	expect_error(tt_backend_add_program(f->b, NULL, p, &ok, 1), -EINVAL,
		     "program name is NULL");
	expect_error(tt_backend_add_program(f->b, "", p, &ok, 1), -EINVAL,
		     "program name is empty");
	expect_error(tt_backend_add_program(f->b, "p", p, NULL, 1), -EINVAL,
		     "1 bindings but bindings is NULL");
	/* Bindings: each names the program and the binding. */
	bad[0].param = NULL;
	expect_error2(tt_backend_add_program(f->b, "p", p, bad, 1), -EINVAL,
		      "program \"p\"", "binding 0 parameter name is NULL");
	bad[0].param = "";
	expect_error(tt_backend_add_program(f->b, "p", p, bad, 1), -EINVAL,
		     "binding 0 parameter name is empty");
	bad[0] = ok;
	bad[0].kernel = 5;
	expect_error2(tt_backend_add_program(f->b, "p", p, bad, 1), -EINVAL,
		      "binding 0 (\"$p_loop_count\")", "kernel 5");
	bad[0] = ok;
	bad[0].core = (struct tt_xy){1, 0};
	expect_error2(tt_backend_add_program(f->b, "p", p, bad, 1), -EINVAL,
		      "binding 0", "not placed on core (1,0)");
	bad[0] = ok;
	bad[0].index = 4;
	expect_error(tt_backend_add_program(f->b, "p", p, bad, 1), -EINVAL,
		     "kernel 0 on core (0,0) has no arg 4 (it has 4;");
	bad[0].common = true;
	bad[0].index = 2;
	expect_error(tt_backend_add_program(f->b, "p", p, bad, 1), -EINVAL,
		     "kernel 0 has no common arg 2 (it has 2;");
	/* Two parameters on one word; one parameter with two defaults. */
	bad[0] = ok;
	bad[1] = ok;
	bad[1].param = "$p_other";
	expect_error2(tt_backend_add_program(f->b, "p", p, bad, 2), -EINVAL,
		      "binding 1 (\"$p_other\")",
		      "bound to parameter \"$p_loop_count\" already");
	bad[1] = ok;
	bad[1].index = 0;
	bad[1].default_value = 2;
	expect_error(tt_backend_add_program(f->b, "p", p, bad, 2), -EINVAL,
		     "default 2, an earlier binding of it has 1");
	/* One parameter on two words, one of them common: fine. */
	bad[1].default_value = 1;
	bad[1].common = true;
	assert_int_equal(tt_backend_add_program(f->b, "p", p, bad, 2), 0);
	/* Now the backend's: not again, under no name. */
	expect_error(tt_backend_add_program(f->b, "q", p, NULL, 0), -EEXIST,
		     "the backend's already, as \"p\"");
	p = plain_program(0, 0, &k);
	expect_error(tt_backend_add_program(f->b, "p", p, NULL, 0), -EEXIST,
		     "there is a program \"p\" already");
	/* Refused programs stay the caller's (ASan sees a double free). */
	tt_program_free(p);
}

/* The program's args words after a run that failed: untouched. */
static void expect_args(tt_program *p, tt_kernel_handle k, uint32_t a3,
			uint32_t c1)
{
	uint32_t *w;
	unsigned n;

	assert_int_equal(
		tt_get_runtime_args(p, k, (struct tt_xy){0, 0}, &w, &n), 0);
	assert_int_equal(w[3], a3);
	assert_int_equal(tt_get_common_runtime_args(p, k, &w, &n), 0);
	assert_int_equal(w[1], c1);
}

static void test_run_param_errors(void **state)
{
	struct fix *f = *state;
	static const char *const bad_values[][2] = {
		{"", "is empty"},
		{"abc", "is not a decimal number"},
		{"-1", "is not a decimal number"},
		{"+4", "is not a decimal number"},
		{" 4", "is not a decimal number"},
		{"4 ", "is not a decimal number"},
		{"0x10", "is not a decimal number"},
		{"1.5", "is not a decimal number"},
		{"4294967296", "is larger than 4294967295"},
		{"99999999999999999999999", "is larger than 4294967295"},
	};
	tt_kernel_handle k;
	tt_program *p = plain_program(4, 2, &k);
	const struct tt_backend_binding bind[] = {
		{"$p_loop_count", k, false, {0, 0}, 3, 7},
		{"$p_bias", k, true, {0, 0}, 1, 9},
	};
	struct tt_backend_param par[2] = {{"$p_loop_count", "2"},
					  {"$p_bias", "3"}};

	assert_int_equal(tt_backend_add_program(f->b, "fwd", p, bind, 2), 0);
	expect_error(tt_backend_run_program(f->b, "bwd", par, 1), -ENOENT,
		     "no program \"bwd\"");
	expect_error(tt_backend_run_program(f->b, NULL, par, 1), -EINVAL,
		     "program name is NULL");
	expect_error(tt_backend_run_program(f->b, "", par, 1), -EINVAL,
		     "program name is empty");
	expect_error(tt_backend_run_program(NULL, "fwd", par, 1), -EINVAL,
		     "backend is NULL");
	expect_error(tt_backend_run_program(f->b, "fwd", NULL, 1), -EINVAL,
		     "1 params but params is NULL");
	for (unsigned i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]);
	     i++) {
		char want[128];

		par[1].value = bad_values[i][0];
		snprintf(want, sizeof(want),
			 "parameter \"$p_bias\": value \"%s\" %s",
			 bad_values[i][0], bad_values[i][1]);
		expect_error2(tt_backend_run_program(f->b, "fwd", par, 2),
			      -EINVAL, "program \"fwd\"", want);
	}
	par[1].value = NULL;
	expect_error(tt_backend_run_program(f->b, "fwd", par, 2), -EINVAL,
		     "parameter \"$p_bias\": value is NULL");
	par[1] = (struct tt_backend_param){"$p_loop_count", "1"};
	expect_error(tt_backend_run_program(f->b, "fwd", par, 2), -EINVAL,
		     "parameter \"$p_loop_count\" is given twice");
	par[1] = (struct tt_backend_param){"$p_nope", "1"};
	expect_error2(tt_backend_run_program(f->b, "fwd", par, 2), -ENOENT,
		      "program \"fwd\"", "no parameter \"$p_nope\" (it has 2)");
	par[1] = (struct tt_backend_param){NULL, "1"};
	expect_error(tt_backend_run_program(f->b, "fwd", par, 2), -EINVAL,
		     "params[1]: name is NULL");
	/* Nothing was written by any of them. */
	expect_args(p, k, 0, 0);
}

static void test_finish_idle(void **state)
{
	struct fix *f = *state;

	assert_int_equal(tt_backend_finish(f->b), 0);
	expect_error(tt_backend_finish(NULL), -EINVAL, "backend is NULL");
}

/* ---- runs on the device ---- */

/*
 * PyBuda's main(): for each inference loop, push every input by name,
 * run every program with $p_loop_count 1, get and pop every output by
 * name. Two programs on two cores, each serving its own pair of queues.
 */
static void test_seed_flow(void **state)
{
	struct fix *f = *state;
	const struct tt_backend_param par[] = {{"$p_loop_count", "1"}};
	const char *const *names;
	unsigned n;

	add_queue(f, "act_a", TT_IO_INPUT);
	add_queue(f, "act_b", TT_IO_INPUT);
	add_queue(f, "out_a", TT_IO_OUTPUT);
	add_queue(f, "out_b", TT_IO_OUTPUT);
	add_stream_program(f, "fwd_a", 0, 0, "act_a", "out_a");
	add_stream_program(f, "fwd_b", 1, 0, "act_b", "out_b");
	for (uint32_t loop = 0; loop < 3; loop++) {
		assert_int_equal(tt_backend_input_names(f->b, &names, &n), 0);
		for (unsigned i = 0; i < n; i++)
			push(f, names[i], 10 * loop + i);
		assert_int_equal(tt_backend_program_names(f->b, &names, &n), 0);
		for (unsigned i = 0; i < n; i++)
			assert_int_equal(
				tt_backend_run_program(f->b, names[i], par, 1),
				0);
		assert_int_equal(tt_backend_output_names(f->b, &names, &n), 0);
		for (unsigned i = 0; i < n; i++)
			get_pop(f, names[i], 10 * loop + i, BIAS_DEFAULT);
	}
	assert_int_equal(tt_backend_finish(f->b), 0);
}

/* Loop counts above 1, a parameter given then left to its default (it
 * does not stick), and the host getting outputs while a run goes on. */
static void test_loop_counts(void **state)
{
	struct fix *f = *state;
	const struct tt_backend_param three[] = {{"$p_loop_count", "3"},
						 {"$p_bias", "5"}};
	const struct tt_backend_param four[] = {{"$p_loop_count", "4"}};

	add_fwd(f);
	for (uint32_t n = 0; n < 3; n++)
		push(f, "in", n);
	assert_int_equal(tt_backend_run_program(f->b, "fwd", three, 2), 0);
	for (uint32_t n = 0; n < 3; n++)
		get_pop(f, "out", n, 5);
	/* Four with a queue of depth 4 both ways, pushed after the start. */
	assert_int_equal(tt_backend_run_program(f->b, "fwd", four, 1), 0);
	for (uint32_t n = 3; n < 7; n++)
		push(f, "in", n);
	for (uint32_t n = 3; n < 7; n++)
		get_pop(f, "out", n, BIAS_DEFAULT);
	/* No parameters at all: every default (one loop). */
	push(f, "in", 7);
	assert_int_equal(tt_backend_run_program(f->b, "fwd", NULL, 0), 0);
	get_pop(f, "out", 7, BIAS_DEFAULT);
	assert_int_equal(tt_backend_finish(f->b), 0);
}

/* Values at their bounds: 0 loops, a bias of 2^32 - 1 (adds -1). */
static void test_value_bounds(void **state)
{
	struct fix *f = *state;
	const struct tt_backend_param none[] = {{"$p_loop_count", "0"}};
	const struct tt_backend_param max[] = {{"$p_bias", "4294967295"},
					       {"$p_loop_count", "0001"}};

	add_fwd(f);
	push(f, "in", 1);
	assert_int_equal(tt_backend_run_program(f->b, "fwd", none, 1), 0);
	assert_int_equal(tt_backend_finish(f->b), 0);
	assert_int_equal(tt_backend_run_program(f->b, "fwd", max, 2), 0);
	get_pop(f, "out", 1, UINT32_MAX);
	assert_int_equal(tt_backend_finish(f->b), 0);
}

/*
 * A kernel that faults ($p_fault): the next run_program reports it,
 * naming program and run, and does not start; after that the backend
 * goes on. A fault is reported by finish the same way. A core of its own
 * for each fault: a halted hart stays halted.
 */
static void test_failed_run_reported(void **state)
{
	struct fix *f = *state;
	const struct tt_backend_param fault[] = {{"$p_fault", "1"}};
	tt_command_queue *cq;

	add_queue(f, "in", TT_IO_INPUT);
	add_queue(f, "out", TT_IO_OUTPUT);
	add_queue(f, "in2", TT_IO_INPUT);
	add_queue(f, "out2", TT_IO_OUTPUT);
	add_stream_program(f, "good", 0, 0, "in", "out");
	add_stream_program(f, "crash", 2, 1, "in2", "out2");
	add_stream_program(f, "crash_again", 3, 1, "in2", "out2");
	assert_int_equal(tt_device_command_queue(f->dev, TT_CQ_MAX - 1, &cq),
			 0);
	tt_command_queue_set_timeout(cq, 5000);

	assert_int_equal(tt_backend_run_program(f->b, "good", NULL, 0), 0);
	push(f, "in", 0);
	assert_int_equal(tt_backend_run_program(f->b, "crash", fault, 1), 0);
	get_pop(f, "out", 0, BIAS_DEFAULT);
	expect_error2(tt_backend_run_program(f->b, "good", NULL, 0), -EFAULT,
		      "program \"good\" not started",
		      "program \"crash\" run 1");
	/* The failure was reported once: the backend goes on. */
	push(f, "in", 1);
	assert_int_equal(tt_backend_run_program(f->b, "good", NULL, 0), 0);
	get_pop(f, "out", 1, BIAS_DEFAULT);
	assert_int_equal(tt_backend_run_program(f->b, "crash_again", fault, 1),
			 0);
	expect_error2(tt_backend_finish(f->b), -EFAULT, "tt_backend_finish",
		      "program \"crash_again\" run 1");
	assert_int_equal(tt_backend_finish(f->b), 0);
	tt_command_queue_set_timeout(cq, 20000);
}

/* Freeing the backend under a run that waits for inputs: the queues
 * break, the kernel stops, nothing hangs until the program timeout. */
static void test_free_abandons_run(void **state)
{
	struct fix *f = *state;
	const struct tt_backend_param three[] = {{"$p_loop_count", "3"}};
	struct tt_io_desc d;
	double t0;

	add_fwd(f);
	push(f, "in", 0);
	assert_int_equal(tt_backend_run_program(f->b, "fwd", three, 1), 0);
	get_pop(f, "out", 0, BIAS_DEFAULT);

	/* An error the caller may still be reading: freeing keeps it. */
	assert_int_equal(tt_backend_get_io(f->b, "kept", &d), -ENOENT);
	t0 = now_ms();
	tt_backend_free(f->b);
	f->b = NULL;
	assert_true(now_ms() - t0 < 3000);
	assert_non_null(strstr(tt_last_error(), "\"kept\""));
}

/* ---- fixtures ---- */

/* The device stays out of the group's state: cmocka would give it to
 * every case in place of the case's own initial state. */
static int group_up(void **state)
{
	void *opened = NULL;
	int ret = booted_up(&opened);

	(void)state;
	dev = opened;
	return ret;
}

static int group_down(void **state)
{
	(void)state;
	tt_device_close(dev);
	return 0;
}

/* Initial state: the placement + 1 (NULL would mean the group's state).
 * A backend, and one entry of L1. */
static int case_up(void **state)
{
	static struct fix fixes[2];
	uintptr_t where = (uintptr_t)*state - 1;
	struct fix *f = &fixes[where];
	struct tt_buffer_config c = {.device = dev,
				     .type = TT_BUFFER_L1,
				     .size = ENTRY_BYTES,
				     .page_size = ENTRY_BYTES};

	*f = (struct fix){.dev = dev,
			  .placement = where ? TT_QUEUE_HOST : TT_QUEUE_DRAM};
	if (tt_backend_create(dev, &f->b) || tt_create_buffer(&c, &f->l1))
		return -1;
	*state = f;
	return 0;
}

static int case_down(void **state)
{
	struct fix *f = *state;

	tt_backend_free(f->b);
	tt_buffer_free(f->l1);
	return 0;
}

#define CASE_AT(fn, where, suffix)                                             \
	{                                                                      \
#fn suffix, fn, case_up, case_down,                            \
			(void *)(uintptr_t)((where) + 1)                       \
	}
#define CASE(fn) CASE_AT(fn, TT_QUEUE_DRAM, "")
#define BOTH(fn)                                                               \
	CASE_AT(fn, TT_QUEUE_DRAM, "_dram"), CASE_AT(fn, TT_QUEUE_HOST, "_host")

/* What runs on kmd in the VM guest: every case that runs no kernel. */
static const char *const kmd_cases[] = {
	"test_create_bad_args",
	"test_add_queue_names",
	"test_add_queue_bad_geometry",
	"test_get_io",
	"test_names_in_order",
	"test_push_input_reaches_queue_dram",
	"test_push_input_reaches_queue_host",
	"test_output_got_and_popped_dram",
	"test_output_got_and_popped_host",
	"test_wrong_direction",
	"test_timeouts_dram",
	"test_timeouts_host",
	"test_broken_queue",
	"test_add_program_errors",
	"test_run_param_errors",
	"test_finish_idle",
	NULL,
};

int main(void)
{
	const struct CMUnitTest tests[] = {
		CASE(test_create_bad_args),
		CASE(test_add_queue_names),
		CASE(test_add_queue_bad_geometry),
		CASE(test_get_io),
		CASE(test_names_in_order),
		BOTH(test_push_input_reaches_queue),
		BOTH(test_output_got_and_popped),
		CASE(test_wrong_direction),
		BOTH(test_timeouts),
		CASE(test_broken_queue),
		CASE(test_add_program_errors),
		CASE(test_run_param_errors),
		CASE(test_finish_idle),
		BOTH(test_seed_flow),
		BOTH(test_loop_counts),
		CASE(test_value_bounds),
		CASE(test_failed_run_reported),
		BOTH(test_free_abandons_run),
	};

	return RUN_GROUP("backend", tests, group_up, group_down, kmd_cases);
}
