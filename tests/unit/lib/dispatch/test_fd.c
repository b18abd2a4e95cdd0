// SPDX-License-Identifier: Apache-2.0
/*
 * Dispatch under load, in both modes (this suite is registered twice,
 * the second time with TT_DISPATCH=slow): many launches of a whole-grid
 * program with per-core arguments, a launch larger than the fast-dispatch
 * ring, and programs after a hang and after a fault. The fast-dispatch
 * ring is made small (TT_DISPATCH_RING_KIB) so that it wraps often.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "hw/dispatch.h"
#include "lib/dispatch/fd.h"
#include "lib/dispatch/runtime.h"
#include "testutil.h"

/* Each core stores (tag, its index and logical coordinates, a word of its
 * common args, its last unique arg) in its own page of an interleaved L1
 * buffer: page i lives on logical core i. */
static const char *const stamp =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void)\n"
	"{\n"
	"	volatile uint32_t *p = (volatile uint32_t *)get_arg_val(0);\n"
	"	p[0] = get_arg_val(1);\n"
	"	p[1] = get_arg_val(2) * 1000000u + get_absolute_logical_y() * 1000u + get_absolute_logical_x();\n"
	"	p[2] = get_common_arg_val(0);\n"
	"	p[3] = get_arg_val(get_arg_val(3));\n"
	"}\n";

struct grid_prog {
	tt_program *p;
	tt_kernel_handle k;
	tt_buffer *out;
	unsigned w, h, nargs;
};

/* g's output buffer and an empty program; returns the whole grid. */
static struct tt_core_range_set grid_setup(tt_device *dev,
					   struct grid_prog *g)
{
	struct tt_buffer_config c = { .device = dev, .type = TT_BUFFER_L1,
				      .page_size = 16 };

	assert_int_equal(tt_device_logical_grid(dev, &g->w, &g->h), 0);
	c.size = 16ull * g->w * g->h;
	assert_int_equal(tt_create_buffer(&c, &g->out), 0);
	assert_int_equal(tt_create_program(&g->p), 0);
	return tt_core_range_set_of_range(0, 0, g->w - 1, g->h - 1);
}

static void grid_prog(tt_device *dev, struct grid_prog *g, unsigned nargs)
{
	struct tt_core_range_set all = grid_setup(dev, g);

	assert_int_equal(tt_create_kernel_from_string(g->p, stamp, &all, NULL,
						      &g->k),
			 0);
	g->nargs = nargs;
}

/* Arguments for run `run`: the last one is what p[3] reads. */
static void set_args(struct grid_prog *g, uint32_t run)
{
	static uint32_t a[255];

	for (unsigned y = 0; y < g->h; y++)
		for (unsigned x = 0; x < g->w; x++) {
			for (unsigned i = 0; i < g->nargs; i++)
				a[i] = run * 1000003u + i * 7u + x + 100 * y;
			a[0] = (uint32_t)tt_buffer_address(g->out);
			a[1] = 0x5EED0000u + run;
			a[2] = y * g->w + x;
			a[3] = g->nargs - 1;
			assert_int_equal(tt_set_runtime_args(g->p, g->k,
							     (struct tt_xy){ x, y },
							     a, g->nargs),
					 0);
		}
	assert_int_equal(tt_set_common_runtime_args(g->p, g->k, &run, 1), 0);
}

static void check_run(struct grid_prog *g, uint32_t run)
{
	unsigned n = g->w * g->h;
	uint32_t *got = calloc(n, 16);

	assert_int_equal(tt_read_from_buffer(g->out, got, 16ull * n), 0);
	for (unsigned i = 0; i < n; i++) {
		unsigned x = i % g->w, y = i / g->w;

		assert_int_equal(got[4 * i], 0x5EED0000u + run);
		/* The core's own idea of its logical coordinates. */
		assert_int_equal(got[4 * i + 1], i * 1000000u + y * 1000u + x);
		assert_int_equal(got[4 * i + 2], run);
		assert_int_equal(got[4 * i + 3],
				 run * 1000003u + (g->nargs - 1) * 7u + x +
					 100 * y);
	}
	free(got);
}

static void free_prog(struct grid_prog *g)
{
	tt_program_free(g->p);
	tt_buffer_free(g->out);
}

/* 300 launches with new arguments each time: the ring wraps many times
 * and every core sees its own arguments of every run. */
static void test_many_grid_launches(void **state)
{
	struct grid_prog g;
	tt_command_queue *cq;

	grid_prog(*state, &g, 8);
	assert_int_equal(tt_device_command_queue(*state, 0, &cq), 0);
	for (uint32_t run = 1; run <= 300; run++) {
		set_args(&g, run);
		assert_int_equal(tt_enqueue_program(cq, g.p, false), 0);
		if (run % 50 == 0) {
			assert_int_equal(tt_finish(cq), 0);
			check_run(&g, run);
		}
	}
	free_prog(&g);
}

/* 255 argument words on every core: one launch is larger than the
 * 128 KiB ring, so the host must wait for the dispatcher mid-launch. */
static void test_launch_larger_than_ring(void **state)
{
	struct grid_prog g;
	tt_command_queue *cq;

	grid_prog(*state, &g, 255);
	assert_int_equal(tt_device_command_queue(*state, 0, &cq), 0);
	for (uint32_t run = 1; run <= 3; run++) {
		set_args(&g, run);
		assert_int_equal(tt_enqueue_program(cq, g.p, true), 0);
		check_run(&g, run);
	}
	free_prog(&g);
}

static void run_bad(tt_device *dev, unsigned x, const char *src, int want)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(x, 2);
	char where[16];
	tt_command_queue *cq;
	tt_kernel_handle k;
	tt_program *p;

	p = program_prologue(dev, 1, 300, &cq);
	assert_int_equal(tt_create_kernel_from_string(p, src, &core, NULL, &k),
			 0);
	assert_int_equal(tt_enqueue_program(cq, p, true), want);
	snprintf(where, sizeof(where), "(%u,2)", x);
	assert_non_null(strstr(tt_last_error(), where));
	tt_program_free(p);
}

/* Each bad value of `name` makes call() fail with -EINVAL and the error
 * "<name>='<value>' " followed by `what`; then the variable is unset. */
static void refused(const char *name, const char *const *bad, size_t n,
		    const char *what, int (*call)(void *), void *ctx)
{
	char want[160];

	for (size_t i = 0; i < n; i++) {
		setenv(name, bad[i], 1);
		assert_int_equal(call(ctx), -EINVAL);
		snprintf(want, sizeof(want), "%s='%s' %s", name, bad[i], what);
		assert_string_equal(tt_last_error(), want);
	}
	unsetenv(name);
}

struct settings_case {
	tt_device *dev;
	tt_command_queue *cq;
	tt_program *p;
};

static int get_cq(void *ctx)
{
	struct settings_case *c = ctx;

	return tt_device_command_queue(c->dev, 0, &c->cq);
}

static int enqueue(void *ctx)
{
	struct settings_case *c = ctx;

	return tt_enqueue_program(c->cq, c->p, true);
}

/* TT_PROGRAM_TIMEOUT_MS, TT_DISPATCH and TT_DISPATCH_RING_KIB are numbers
 * in range or known words, or the calls that read them fail naming the
 * variable, its value and what it accepts: nothing falls back quietly. The
 * ring is read when fast dispatch starts, so this case runs first. */
static void test_bad_settings_refused(void **state)
{
	static const char *const bad_ms[] = { "abc", "10s", "-5", " 5", "+5",
					      "86400001",
					      "99999999999999999999" };
	static const char *const bad_mode[] = { "Slow", "fast ", "1", "none" };
	static const char *const bad_kib[] = { "64", "127", "65537", "128k",
					       "0x80" };
	static const char *const odd_kib[] = { "192", "1000" };
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 0);
	struct settings_case c = { .dev = *state };
	const char *mode = getenv("TT_DISPATCH");
	char *saved = mode ? strdup(mode) : NULL;
	bool fast = !saved || !strcmp(saved, "fast");
	tt_kernel_handle k;

	refused("TT_PROGRAM_TIMEOUT_MS", bad_ms, 7,
		"is not a whole number in 0..86400000", get_cq, &c);
	c.p = program_prologue(c.dev, 0, 0, &c.cq);
	assert_int_equal(tt_create_kernel_from_string(c.p,
			"void kernel_main(void) {}\n", &core, NULL, &k),
			 0);
	refused("TT_DISPATCH", bad_mode, 4, "is not one of: fast, slow",
		enqueue, &c);
	if (fast) {
		refused("TT_DISPATCH_RING_KIB", bad_kib, 5,
			"is not a whole number in 128..65536", enqueue, &c);
		refused("TT_DISPATCH_RING_KIB", odd_kib, 2,
			"is not a power of two in 128..65536", enqueue, &c);
	}
	setenv("TT_DISPATCH_RING_KIB", "128", 1);
	if (saved)
		setenv("TT_DISPATCH", saved, 1);
	assert_int_equal(enqueue(&c), 0);
	tt_program_free(c.p);
	free(saved);
}

/* TT-Metal's TT_METAL_SLOW_DISPATCH_MODE: 1 is TT_DISPATCH=slow, 0
 * fast; with TT_DISPATCH both must agree; other values are refused. */
static void want(const char *own, const char *metal, int ret, bool fast)
{
	bool got = !fast;

	if (own)
		setenv("TT_DISPATCH", own, 1);
	else
		unsetenv("TT_DISPATCH");
	if (metal)
		setenv("TT_METAL_SLOW_DISPATCH_MODE", metal, 1);
	else
		unsetenv("TT_METAL_SLOW_DISPATCH_MODE");
	assert_int_equal(tt_fd_wanted(&got), ret);
	if (!ret)
		assert_int_equal(got, fast);
}

static void test_metal_slow_dispatch_mode(void **state)
{
	const char *mode = getenv("TT_DISPATCH");
	char *saved = mode ? strdup(mode) : NULL;

	(void)state;
	want(NULL, NULL, 0, true);
	want("slow", NULL, 0, false);
	want(NULL, "1", 0, false);
	want(NULL, "0", 0, true);
	want(NULL, "", 0, true);
	want("slow", "1", 0, false);
	want("fast", "0", 0, true);
	want("", "1", 0, false);
	want("fast", "1", -EINVAL, true);
	assert_string_equal(tt_last_error(),
			    "TT_DISPATCH='fast' and TT_METAL_SLOW_DISPATCH_MODE='1' disagree: they name the same setting, set one");
	want("slow", "0", -EINVAL, true);
	want(NULL, "yes", -EINVAL, true);
	assert_string_equal(tt_last_error(),
			    "TT_METAL_SLOW_DISPATCH_MODE='yes' is not one of: 0, 1");
	want("Slow", "1", -EINVAL, true);
	assert_non_null(strstr(tt_last_error(), "TT_DISPATCH='Slow'"));
	unsetenv("TT_METAL_SLOW_DISPATCH_MODE");
	if (saved)
		setenv("TT_DISPATCH", saved, 1);
	else
		unsetenv("TT_DISPATCH");
	free(saved);
}

/* After a program that hangs or faults on one core, programs on the
 * other cores still run (fast dispatch starts a new dispatcher). */
static void test_programs_after_hang_and_fault(void **state)
{
	tt_device *dev = *state;
	struct grid_prog g;
	tt_command_queue *cq;
	struct tt_core_range_set rest;

	run_bad(dev, 3,
		"#include \"dataflow_api.h\"\n"
		"void kernel_main(void) { for (;;) noc_semaphore_wait((volatile uint32_t *)0x40000, 12345); }\n",
		-ETIMEDOUT);
	run_bad(dev, 4,
		"#include \"dataflow_api.h\"\n"
		"void kernel_main(void) { ASSERT(get_arg_val(0) == 1); }\n",
		-EFAULT);
	/* Cores (3,2) and (4,2) halted: this case leaves them out (their
	 * recovery at the next launch is test_recovery's). */
	grid_prog(dev, &g, 4);
	rest = tt_core_range_set_of_range(0, 3, g.w - 1, g.h - 1);
	tt_program_free(g.p);
	assert_int_equal(tt_create_program(&g.p), 0);
	assert_int_equal(tt_create_kernel_from_string(g.p, stamp, &rest, NULL,
						      &g.k),
			 0);
	for (unsigned y = 3; y < g.h; y++)
		for (unsigned x = 0; x < g.w; x++) {
			uint32_t a[4] = { (uint32_t)tt_buffer_address(g.out),
					  0xABCD, y * g.w + x, 1 };

			assert_int_equal(tt_set_runtime_args(g.p, g.k,
							     (struct tt_xy){ x, y },
							     a, 4),
					 0);
		}
	assert_int_equal(tt_set_common_runtime_args(g.p, g.k,
						    (uint32_t[]){ 9 }, 1),
			 0);
	assert_int_equal(tt_device_command_queue(dev, 0, &cq), 0);
	assert_int_equal(tt_enqueue_program(cq, g.p, true), 0);
	{
		unsigned n = g.w * g.h;
		uint32_t *got = calloc(n, 16);

		assert_int_equal(tt_read_from_buffer(g.out, got, 16ull * n), 0);
		for (unsigned i = 3 * g.w; i < n; i++) {
			assert_int_equal(got[4 * i], 0xABCD);
			assert_int_equal(got[4 * i + 1], i * 1000000u +
							 i / g.w * 1000u +
							 i % g.w);
			assert_int_equal(got[4 * i + 2], 9);
		}
		free(got);
	}
	free_prog(&g);
	assert_int_equal(tt_device_reset(dev, 10000), 0);
}

/* Each core stores (tag, the semaphore's value at start, CB 3's write
 * pointer, CB 3's page count) in its page, then changes the semaphore. */
static const char *const rerun_src =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void)\n"
	"{\n"
	"	volatile uint32_t *p = (volatile uint32_t *)get_arg_val(0);\n"
	"	volatile uint32_t *sem = (volatile uint32_t *)get_semaphore(0);\n"
	"	p[0] = TAG;\n"
	"	p[1] = *sem;\n"
	"	p[2] = get_write_ptr(3);\n"
	"	p[3] = get_arg_val(1);\n"
	"	*sem = *sem + 100;\n"
	"}\n";

static tt_program *rerun_prog(tt_device *dev, const struct grid_prog *g,
			      uint32_t tag, uint32_t sem, uint32_t cb_size)
{
	struct tt_core_range_set all =
		tt_core_range_set_of_range(0, 0, g->w - 1, g->h - 1);
	struct tt_circular_buffer_config cb =
		tt_circular_buffer_config(cb_size, 3, TT_FLOAT16_B, 2048);
	struct tt_kernel_config kc = tt_data_movement_config(TT_RISCV_0);
	char def[32];
	tt_kernel_handle k;
	tt_cb_handle h;
	tt_program *p;
	uint32_t id;

	struct tt_define d = { .name = "TAG", .value = def };

	snprintf(def, sizeof(def), "%u", tag);
	kc.defines = &d;
	kc.define_count = 1;
	assert_int_equal(tt_create_program(&p), 0);
	assert_int_equal(tt_create_kernel_from_string(p, rerun_src, &all, &kc,
						      &k),
			 0);
	assert_int_equal(tt_create_semaphore(p, &all, sem, TT_CORE_TENSIX, &id),
			 0);
	assert_int_equal(id, 0);
	assert_int_equal(tt_create_circular_buffer(p, &all, &cb, &h), 0);
	for (unsigned y = 0; y < g->h; y++)
		for (unsigned x = 0; x < g->w; x++) {
			uint32_t a[2] = { (uint32_t)tt_buffer_address(g->out),
					  cb_size / 2048 };

			assert_int_equal(tt_set_runtime_args(p, k,
							     (struct tt_xy){ x, y },
							     a, 2),
					 0);
		}
	(void)dev;
	return p;
}

static void check_rerun(const struct grid_prog *g, uint32_t tag,
			uint32_t sem, uint32_t pages, uint32_t *cb_addr)
{
	unsigned n = g->w * g->h;
	uint32_t *got = calloc(n, 16);

	assert_int_equal(tt_read_from_buffer(g->out, got, 16ull * n), 0);
	if (!*cb_addr)
		*cb_addr = got[2];
	for (unsigned i = 0; i < n; i++) {
		assert_int_equal(got[4 * i], tag);
		assert_int_equal(got[4 * i + 1], sem);
		assert_int_equal(got[4 * i + 2], *cb_addr);
		assert_int_equal(got[4 * i + 3], pages);
	}
	free(got);
}

/* Programs run again, and two programs taking turns on the same cores:
 * each run starts with its own semaphore values (which kernels change),
 * its own kernel and its own CB table, however little the host rewrites
 * between runs of the same program. */
static void test_reruns_start_from_their_program(void **state)
{
	tt_device *dev = *state;
	uint32_t cb_a = 0, cb_b = 0;
	struct grid_prog g;
	tt_command_queue *cq;
	tt_program *a, *b;

	grid_prog(dev, &g, 1);
	a = rerun_prog(dev, &g, 0xA, 5, 4096);
	b = rerun_prog(dev, &g, 0xB, 7, 8192);
	assert_int_equal(tt_device_command_queue(dev, 0, &cq), 0);
	for (unsigned run = 0; run < 6; run++) {
		bool use_a = run % 3 != 2; /* a, a, b, a, a, b */

		assert_int_equal(tt_enqueue_program(cq, use_a ? a : b, true),
				 0);
		if (use_a)
			check_rerun(&g, 0xA, 5, 2, &cb_a);
		else
			check_rerun(&g, 0xB, 7, 4, &cb_b);
	}
	assert_int_not_equal(cb_a, 0);
	tt_program_free(a);
	tt_program_free(b);
	free_prog(&g);
}

/* A core counts as finished once each of its harts is: here the hart
 * that counts for the core finishes first, and the one that finishes
 * last stamps its page only after the others are done. */
static const char *const stamp_late =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void)\n"
	"{\n"
	"	volatile uint32_t *p = (volatile uint32_t *)get_arg_val(0);\n"
	"	while (p[1] != get_arg_val(1))\n"
	"		;\n"
	"	for (volatile uint32_t i = 0; i < 3000; i++)\n"
	"		;\n"
	"	p[0] = get_arg_val(1);\n"
	"}\n";
#define FLAG_EARLY(api)                                                       \
	"#include \"" api "\"\n"                                               \
	"void kernel_main(void)\n"                                             \
	"{\n"                                                                  \
	"	((volatile uint32_t *)get_arg_val(0))[1] = get_arg_val(1);\n"    \
	"}\n"

static void late_stamps(tt_device *dev, bool compute)
{
	struct tt_kernel_config late = tt_data_movement_config(TT_RISCV_0);
	struct tt_kernel_config early = compute ? tt_compute_config() :
						  tt_data_movement_config(TT_RISCV_1);
	struct tt_core_range_set all;
	tt_kernel_handle kl, ke;
	struct grid_prog g;
	tt_command_queue *cq;
	const char *src = compute ? FLAG_EARLY("compute_kernel_api.h") :
				    FLAG_EARLY("dataflow_api.h");

	all = grid_setup(dev, &g);
	assert_int_equal(tt_create_kernel_from_string(g.p, stamp_late, &all,
						      &late, &kl),
			 0);
	assert_int_equal(tt_create_kernel_from_string(g.p, src, &all, &early,
						      &ke),
			 0);
	assert_int_equal(tt_device_command_queue(dev, 0, &cq), 0);
	for (uint32_t run = 1; run <= 4; run++) {
		uint32_t a[2] = { (uint32_t)tt_buffer_address(g.out),
				  0x1A7E0000u + run };
		unsigned n = g.w * g.h;
		uint32_t *got = calloc(n, 16);

		for (unsigned y = 0; y < g.h; y++)
			for (unsigned x = 0; x < g.w; x++) {
				struct tt_xy c = { x, y };

				assert_int_equal(tt_set_runtime_args(g.p, kl, c,
								     a, 2),
						 0);
				assert_int_equal(tt_set_runtime_args(g.p, ke, c,
								     a, 2),
						 0);
			}
		assert_int_equal(tt_enqueue_program(cq, g.p, false), 0);
		assert_int_equal(tt_finish(cq), 0);
		assert_int_equal(tt_read_from_buffer(g.out, got, 16ull * n), 0);
		for (unsigned i = 0; i < n; i++)
			assert_int_equal(got[4 * i], a[1]);
		free(got);
	}
	free_prog(&g);
}

static void test_finish_waits_for_the_last_hart_of_each_core(void **state)
{
	late_stamps(*state, true);
	late_stamps(*state, false);
}

/* ---- the ring filled exactly while the dispatcher is stalled ----
 *
 * fd.c keeps RESERVE (2 * TT_DISPATCH_ALIGN) bytes of the issue ring free
 * so that a full ring can always take the DONE that flushes it. The test
 * appends WRITE commands itself (under the runtime's lock, as launches
 * do) and follows the ring's arithmetic: everything published before is
 * complete, so the dispatcher's consumed count is TT_DISPATCH_WP as it
 * reads in the dispatch core's L1. */

#define RING (128u * 1024u) /* TT_DISPATCH_RING_KIB, setup() */
#define RING_RESERVE (2u * TT_DISPATCH_ALIGN)

struct ring_fill {
	tt_device *dev;
	struct tt_runtime *rt;
	struct tt_xy dcore; /* the dispatch core */
	struct tt_xy target; /* where the WRITEs go: one L1 buffer page */
	uint64_t base;
	tt_buffer *buf;
	uint8_t *want; /* what the target should hold */
	uint32_t len; /* bytes of it written so far */
	uint32_t consumed, wp; /* as fd.c counts them */
	int ret; /* of the last append made in a thread */
	volatile int done;
};

static uint32_t dcore_word(struct ring_fill *f, uint32_t addr)
{
	uint32_t v = 0;

	assert_int_equal(tt_noc_read32(f->dev, 0, f->dcore.x, f->dcore.y, addr,
				       &v),
			 0);
	return v;
}

/* Append one WRITE of n payload bytes, keeping count as fd.c does. */
static int put_write(struct ring_fill *f, uint32_t n)
{
	uint32_t need = TT_DISPATCH_ALIGN + ((n + 15) & ~15u);
	uint32_t to_end = RING - (f->wp & (RING - 1));
	int ret;

	for (uint32_t i = 0; i < n; i++)
		f->want[f->len + i] = (uint8_t)(f->len + i + 0x3D);
	pthread_mutex_lock(&f->rt->lock);
	ret = tt_fd_write(f->dev, f->target, f->target,
			  (uint32_t)f->base + f->len, f->want + f->len, n);
	pthread_mutex_unlock(&f->rt->lock);
	if (need > to_end)
		f->wp += to_end; /* a WRAP */
	f->wp += need;
	f->len += n;
	return ret;
}

/* Free issue bytes before the reserve. */
static uint32_t room(const struct ring_fill *f)
{
	return RING - RING_RESERVE - (f->wp - f->consumed);
}

/* Fill the ring to exactly RING - RING_RESERVE bytes past the consumed
 * count, never crossing its end with a WRAP (a command ends at it
 * instead): every append fits, so none flushes. */
static void fill_exactly(struct ring_fill *f)
{
	while (room(f)) {
		uint32_t to_end = RING - (f->wp & (RING - 1));
		uint32_t need = 32;

		if (room(f) < 64)
			need = room(f);
		else if (to_end < 64)
			need = to_end;
		assert_true(need >= 32 && need <= to_end);
		assert_int_equal(put_write(f, need - TT_DISPATCH_ALIGN), 0);
	}
	assert_int_equal(f->wp - f->consumed, RING - RING_RESERVE);
}

static void *put_one(void *arg)
{
	struct ring_fill *f = arg;

	f->ret = put_write(f, 16);
	__atomic_store_n(&f->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Publish everything with a last DONE and wait for it. */
static void drain(struct ring_fill *f)
{
	uint32_t pos = 0;
	int ret;

	pthread_mutex_lock(&f->rt->lock);
	ret = tt_fd_finish_launch(f->dev, 0, &pos);
	pthread_mutex_unlock(&f->rt->lock);
	assert_int_equal(ret, 0);
	for (int i = 0; i < 2000 && !tt_fd_poll(f->dev, pos); i++) {
		assert_int_equal(tt_fd_check(f->dev), 0);
		usleep(5000);
	}
	assert_int_equal(tt_fd_poll(f->dev, pos), 1);
}

static void expect_target(struct ring_fill *f)
{
	uint8_t *got = calloc(1, f->len);

	assert_non_null(got);
	assert_int_equal(tt_noc_read(f->dev, 0, f->target.x, f->target.y,
				     f->base, got, f->len),
			 0);
	assert_memory_equal(got, f->want, f->len);
	free(got);
}

/* A grid launch that completes (the dispatcher runs), then the state the
 * filling starts from. */
static void ring_start(tt_device *dev, struct ring_fill *f,
		       struct grid_prog *g, uint32_t run)
{
	struct tt_buffer_config c = { .device = dev, .type = TT_BUFFER_L1,
				      .size = RING, .page_size = RING };
	struct tt_buffer_page_location loc;
	tt_command_queue *cq;

	memset(f, 0, sizeof(*f));
	f->dev = dev;
	grid_prog(dev, g, 8);
	assert_int_equal(tt_device_command_queue(dev, 0, &cq), 0);
	set_args(g, run);
	assert_int_equal(tt_enqueue_program(cq, g->p, true), 0);
	check_run(g, run);
	assert_int_equal(tt_create_buffer(&c, &f->buf), 0);
	assert_int_equal(tt_buffer_page_location(f->buf, 0, &loc), 0);
	f->target = loc.noc;
	f->base = loc.address;
	f->want = calloc(1, RING);
	assert_non_null(f->want);
	f->rt = tt_runtime_get(dev);
	assert_non_null(f->rt);
	assert_int_equal(tt_device_dispatch_core(dev, &f->dcore), 0);
	f->consumed = f->wp = dcore_word(f, TT_DISPATCH_WP);
}

static void ring_end(struct ring_fill *f, struct grid_prog *g, uint32_t run)
{
	tt_command_queue *cq;

	/* The chip and the dispatcher serve the next launch. */
	assert_int_equal(tt_device_command_queue(f->dev, 0, &cq), 0);
	set_args(g, run);
	assert_int_equal(tt_enqueue_program(cq, g->p, true), 0);
	check_run(g, run);
	free(f->want);
	tt_buffer_free(f->buf);
	free_prog(g);
}

/* With TT_DISPATCH=slow (fd_slow) there is no ring: main leaves the
 * ring's cases out rather than skip them (a skip is a defect in CI). */
static bool fast_mode(void)
{
	bool fast = false;

	return tt_fd_wanted(&fast) == 0 && fast;
}

/*
 * The dispatcher stalls in a WAIT for a worker completion that only the
 * test gives (it bumps the dispatch core's counter); the ring is filled
 * to exactly its usable size behind it without a flush; the next append
 * must wait for the dispatcher, and go on once the stall is released;
 * every WRITE lands.
 */
static void test_ring_full_while_stalled(void **state)
{
	struct ring_fill f;
	struct grid_prog g;
	pthread_t t;
	uint32_t pos = 0, counter;
	int ret, returned;

	ring_start(*state, &f, &g, 7);
	/* The stall: a WAIT for one completion more than there will be. */
	pthread_mutex_lock(&f.rt->lock);
	ret = tt_fd_finish_launch(f.dev, 1, &pos);
	pthread_mutex_unlock(&f.rt->lock);
	assert_int_equal(ret, 0);
	f.wp += 2 * TT_DISPATCH_ALIGN; /* WAIT, DONE */
	assert_int_equal(dcore_word(&f, TT_DISPATCH_WP), f.wp);
	counter = dcore_word(&f, TT_DISPATCH_COUNTER);

	fill_exactly(&f);
	usleep(100 * 1000);
	assert_int_equal(tt_fd_poll(f.dev, pos), 0); /* still stalled */

	/* One more: it must wait for the dispatcher. */
	assert_int_equal(pthread_create(&t, NULL, put_one, &f), 0);
	usleep(300 * 1000);
	returned = __atomic_load_n(&f.done, __ATOMIC_ACQUIRE);
	/* Release (the completion the WAIT counts) before any verdict, so
	 * that the next case finds a dispatcher that runs. */
	assert_int_equal(tt_noc_write32(f.dev, 0, f.dcore.x, f.dcore.y,
					TT_DISPATCH_COUNTER, counter + 1),
			 0);
	pthread_join(t, NULL);
	if (returned)
		fail_msg("an append into a full ring returned (%d) while the dispatcher was stalled",
			 f.ret);
	assert_int_equal(f.ret, 0);
	assert_int_equal(tt_fd_poll(f.dev, pos), 1);
	drain(&f);
	expect_target(&f);
	ring_end(&f, &g, 8);
}

/*
 * The same fill while the dispatcher waits for the host to publish (it
 * has read nothing of it): the append after the last that fits flushes,
 * and its DONE must not overwrite the first command.
 */
static void test_ring_full_unpublished(void **state)
{
	struct ring_fill f;
	struct grid_prog g;

	ring_start(*state, &f, &g, 9);
	fill_exactly(&f);
	assert_int_equal(dcore_word(&f, TT_DISPATCH_WP), f.consumed);
	assert_int_equal(put_write(&f, 16), 0);
	drain(&f);
	expect_target(&f);
	ring_end(&f, &g, 10);
}

static int setup(void **state)
{
	setenv("TT_DISPATCH_RING_KIB", "128", 1);
	return booted_up(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_settings_refused),
		cmocka_unit_test(test_metal_slow_dispatch_mode),
		cmocka_unit_test(test_many_grid_launches),
		cmocka_unit_test(test_launch_larger_than_ring),
		cmocka_unit_test(test_reruns_start_from_their_program),
		cmocka_unit_test(test_programs_after_hang_and_fault),
		cmocka_unit_test(test_finish_waits_for_the_last_hart_of_each_core),
	};
	const struct CMUnitTest ring[] = {
		cmocka_unit_test(test_ring_full_while_stalled),
		cmocka_unit_test(test_ring_full_unpublished),
	};
	int fails = cmocka_run_group_tests_name("fd", tests, setup, booted_down);

	if (fast_mode())
		fails += cmocka_run_group_tests_name("fd_ring", ring, setup,
						     booted_down);
	return fails;
}
