// SPDX-License-Identifier: Apache-2.0
/*
 * Programs through command queues, end to end on the embedded model:
 * kernels built at run time, uploaded, launched, waited for; buffers
 * written and read in queue order; events; runtime-argument updates
 * between enqueues; hangs and faults reported with core and kernel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

#define PAGE 2048u

static const char *const copy_kernel =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void)\n"
	"{\n"
	"	uint32_t src = get_arg_val(0), dst = get_arg_val(1);\n"
	"	uint32_t n = get_arg_val(2), l1 = get_arg_val(3);\n"
	"	InterleavedAddrGen s = { .bank_base_address = src, .page_size = 2048, .is_dram = true };\n"
	"	InterleavedAddrGen d = { .bank_base_address = dst, .page_size = 2048, .is_dram = true };\n"
	"	for (uint32_t i = 0; i < n; i++) {\n"
	"		noc_async_read_page(i, s, l1);\n"
	"		noc_async_read_barrier();\n"
	"		uint32_t *w = (uint32_t *)l1;\n"
	"		for (uint32_t j = 0; j < 512; j++) w[j] += get_common_arg_val(0);\n"
	"		noc_async_write_page(i, d, l1);\n"
	"		noc_async_write_barrier();\n"
	"	}\n"
	"}\n";

static tt_buffer *dram_buffer(tt_device *dev, unsigned pages)
{
	struct tt_buffer_config cfg = {
		.device = dev,
		.size = (uint64_t)pages * PAGE,
		.page_size = PAGE,
		.type = TT_BUFFER_DRAM,
	};
	tt_buffer *b = NULL;

	assert_int_equal(tt_create_buffer(&cfg, &b), 0);
	return b;
}

static tt_buffer *l1_buffer(tt_device *dev, uint64_t size)
{
	struct tt_buffer_config cfg = {
		.device = dev,
		.size = size,
		.page_size = size,
		.type = TT_BUFFER_L1,
	};
	tt_buffer *b = NULL;

	assert_int_equal(tt_create_buffer(&cfg, &b), 0);
	return b;
}

/* DRAM -> L1 -> DRAM with +add on every word, through the queue; the
 * program is enqueued twice with changed args and common args. */
static void test_copy_program_reuse(void **state)
{
	tt_device *dev = *state;
	struct tt_core_range_set core = tt_core_range_set_of_core(1, 1);
	enum { N = 24 };
	uint32_t *in = malloc(N * PAGE), *out = malloc(N * PAGE);
	tt_buffer *src = dram_buffer(dev, N), *dst = dram_buffer(dev, N);
	tt_buffer *scratch = l1_buffer(dev, PAGE);
	tt_command_queue *cq;
	tt_kernel_handle k;
	tt_program *p;
	uint32_t args[4], add = 5, *rta;
	unsigned count;

	for (unsigned i = 0; i < N * PAGE / 4; i++)
		in[i] = i * 2654435761u;
	assert_int_equal(tt_device_command_queue(dev, 0, &cq), 0);
	assert_int_equal(tt_enqueue_write_buffer(cq, src, in, false), 0);
	assert_int_equal(tt_create_program(&p), 0);
	assert_int_equal(tt_create_kernel_from_string(p, copy_kernel, &core,
						      NULL, &k), 0);
	args[0] = (uint32_t)tt_buffer_address(src);
	args[1] = (uint32_t)tt_buffer_address(dst);
	args[2] = N;
	args[3] = (uint32_t)tt_buffer_address(scratch);
	assert_int_equal(tt_set_runtime_args(p, k, (struct tt_xy){ 1, 1 },
					     args, 4), 0);
	assert_int_equal(tt_set_common_runtime_args(p, k, &add, 1), 0);
	assert_int_equal(tt_enqueue_program(cq, p, false), 0);
	assert_int_equal(tt_enqueue_read_buffer(cq, dst, out, true), 0);
	for (unsigned i = 0; i < N * PAGE / 4; i++)
		assert_int_equal(out[i], in[i] + 5);

	/* In place, as TT-Metal's RuntimeArgsData: half the pages, +9. */
	assert_int_equal(tt_get_runtime_args(p, k, (struct tt_xy){ 1, 1 },
					     &rta, &count), 0);
	assert_int_equal(count, 4);
	rta[2] = N / 2;
	add = 9;
	assert_int_equal(tt_set_common_runtime_args(p, k, &add, 1), 0);
	memset(out, 0, N * PAGE);
	assert_int_equal(tt_enqueue_write_buffer(cq, dst, out, false), 0);
	assert_int_equal(tt_enqueue_program(cq, p, true), 0);
	assert_int_equal(tt_enqueue_read_buffer(cq, dst, out, true), 0);
	for (unsigned i = 0; i < N * PAGE / 4; i++)
		assert_int_equal(out[i], i < N / 2 * PAGE / 4 ? in[i] + 9 : 0);
	assert_int_equal(tt_finish(cq), 0);

	tt_program_free(p);
	tt_buffer_free(scratch);
	tt_buffer_free(src);
	tt_buffer_free(dst);
	free(in);
	free(out);
}

/* An event recorded after a program completes with it. */
static const char *const stamp_kernel =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void)\n"
	"{\n"
	"	*(volatile uint32_t *)get_arg_val(1) =\n"
	"		get_arg_val(0) + get_common_arg_val(0);\n"
	"}\n";

#define STAMP_W 4u
#define STAMP_H 2u

static tt_program *stamp_program(uint32_t where, uint32_t base, uint32_t add,
				 tt_kernel_handle *kernel)
{
	struct tt_core_range_set cores =
		tt_core_range_set_of_range(0, 0, STAMP_W - 1, STAMP_H - 1);
	tt_kernel_handle k;
	tt_program *p;

	assert_int_equal(tt_create_program(&p), 0);
	assert_int_equal(tt_create_kernel_from_string(p, stamp_kernel, &cores,
						      NULL, &k), 0);
	for (uint32_t y = 0; y < STAMP_H; y++)
		for (uint32_t x = 0; x < STAMP_W; x++) {
			uint32_t args[2] = { base + y * STAMP_W + x, where };

			assert_int_equal(tt_set_runtime_args(p, k,
							     (struct tt_xy){ x, y },
							     args, 2), 0);
		}
	assert_int_equal(tt_set_common_runtime_args(p, k, &add, 1), 0);
	*kernel = k;
	return p;
}

/* Every core's stamp is base + its index + add, save one: odd. */
static void expect_stamps(tt_device *dev, uint32_t where, uint32_t base,
			  uint32_t add, unsigned odd_one, uint32_t odd)
{
	for (unsigned i = 0; i < STAMP_W * STAMP_H; i++) {
		struct tt_xy noc;
		uint32_t v;

		assert_int_equal(tt_device_worker_core(dev,
						       (struct tt_xy){ i % STAMP_W,
								       i / STAMP_W },
						       &noc), 0);
		assert_int_equal(tt_noc_read32(dev, 0, noc.x, noc.y, where,
					       &v), 0);
		assert_int_equal(v, i == odd_one ? odd : base + i + add);
	}
}

/* Runs of an unchanged program after the second are replayed from the
 * last one's writes (lib/dispatch/launch_plan.h): each must still see its own
 * launch, arguments changed in place, and the state another program left
 * on the cores. */
static void test_repeated_program_runs(void **state)
{
	tt_device *dev = *state;
	tt_buffer *l1 = l1_buffer(dev, 64);
	uint32_t where = (uint32_t)tt_buffer_address(l1), *rta, zero = 0;
	tt_kernel_handle k, kq;
	tt_program *p = stamp_program(where, 100, 7, &k);
	tt_program *q = stamp_program(where, 500, 1, &kq);
	tt_command_queue *cq;
	unsigned count;

	assert_int_equal(tt_device_command_queue(dev, 0, &cq), 0);
	for (unsigned run = 0; run < 5; run++) {
		for (unsigned i = 0; i < STAMP_W * STAMP_H; i++) {
			struct tt_xy noc;

			assert_int_equal(tt_device_worker_core(
						 dev, (struct tt_xy){ i % STAMP_W,
								      i / STAMP_W },
						 &noc), 0);
			assert_int_equal(tt_noc_write(dev, 0, noc.x, noc.y,
						      where, &zero, 4), 0);
		}
		assert_int_equal(tt_enqueue_program(cq, p, true), 0);
		expect_stamps(dev, where, 100, 7, ~0u, 0);
	}
	/* In place, between two runs that would otherwise be replayed. */
	assert_int_equal(tt_get_runtime_args(p, k, (struct tt_xy){ 2, 1 },
					     &rta, &count), 0);
	rta[0] = 9000;
	for (unsigned run = 0; run < 3; run++) {
		assert_int_equal(tt_enqueue_program(cq, p, true), 0);
		expect_stamps(dev, where, 100, 7, 6, 9007);
	}
	/* Another program in between, then the first again. */
	assert_int_equal(tt_enqueue_program(cq, q, true), 0);
	expect_stamps(dev, where, 500, 1, ~0u, 0);
	for (unsigned run = 0; run < 4; run++) {
		assert_int_equal(tt_enqueue_program(cq, p, run % 2 == 1), 0);
		assert_int_equal(tt_finish(cq), 0);
		expect_stamps(dev, where, 100, 7, 6, 9007);
	}
	tt_program_free(q);
	tt_program_free(p);
	tt_buffer_free(l1);
}

static void test_events(void **state)
{
	tt_device *dev = *state;
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 0);
	static const char *const spin =
		"#include \"dataflow_api.h\"\n"
		"void kernel_main(void) { for (volatile uint32_t i = 0; i < get_arg_val(0); i++) ; }\n";
	tt_command_queue *cq;
	tt_kernel_handle k;
	tt_event *ev, *never;
	tt_program *p;
	uint32_t n = 200000;

	assert_int_equal(tt_device_command_queue(dev, 0, &cq), 0);
	assert_int_equal(tt_event_create(&ev), 0);
	assert_int_equal(tt_event_create(&never), 0);
	assert_true(tt_event_query(never) < 0);
	assert_true(tt_event_synchronize(never) < 0);
	assert_int_equal(tt_create_program(&p), 0);
	assert_int_equal(tt_create_kernel_from_string(p, spin, &core, NULL, &k),
			 0);
	assert_int_equal(tt_set_runtime_args(p, k, (struct tt_xy){ 0, 0 }, &n,
					     1), 0);
	assert_int_equal(tt_enqueue_program(cq, p, false), 0);
	assert_int_equal(tt_enqueue_record_event(cq, ev), 0);
	assert_int_equal(tt_event_synchronize(ev), 0);
	assert_int_equal(tt_event_query(ev), 1);
	tt_event_free(ev);
	tt_event_free(never);
	tt_program_free(p);
}

/* A kernel that never ends is reported with its core and name, and the
 * queue stays usable once the core is reset. */
static void test_hang_report(void **state)
{
	tt_device *dev = *state;
	struct tt_core_range_set core = tt_core_range_set_of_core(2, 0);
	static const char *const hang =
		"#include \"dataflow_api.h\"\n"
		"void kernel_main(void) { WAYPOINT(\"HANG\"); for (;;) noc_semaphore_wait((volatile uint32_t *)get_semaphore(0), 1); }\n";
	tt_command_queue *cq;
	tt_kernel_handle k;
	tt_program *p;
	uint32_t sem;

	p = program_prologue(dev, 1, 300, &cq);
	assert_int_equal(tt_create_semaphore(p, &core, 0, TT_CORE_TENSIX, &sem),
			 0);
	assert_int_equal(tt_create_kernel_from_string(p, hang, &core, NULL, &k),
			 0);
	assert_int_equal(tt_enqueue_program(cq, p, true), -ETIMEDOUT);
	assert_non_null(strstr(tt_last_error(), "core (2,0)"));
	assert_non_null(strstr(tt_last_error(), "BRISC"));
	fprintf(stderr, "# %s\n", tt_last_error());
	assert_non_null(strstr(tt_last_error(), "waypoint NSW"));
	assert_null(strstr(tt_last_error(), "TT_CB_CHECKS"));
	assert_non_null(strstr(tt_last_error(), "<string"));
	tt_program_free(p);
	assert_int_equal(tt_device_reset(dev, 10000), 0);
}

/* A kernel asleep in a CB wait: the hang report says so and suggests
 * TT_CB_CHECKS=1, unless the checks are already on. */
static void cb_hang(tt_device *dev, bool checks)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(3, 0);
	struct tt_circular_buffer_config c =
		tt_circular_buffer_config(2 * 64, 0, TT_FLOAT32, 64);
	static const char *const hang =
		"#include \"dataflow_api.h\"\n"
		"void kernel_main(void) { cb_wait_front(0, 1); }\n";
	tt_command_queue *cq;
	tt_kernel_handle k;
	tt_cb_handle cb;
	tt_program *p;

	if (checks)
		setenv("TT_CB_CHECKS", "1", 1);
	else
		unsetenv("TT_CB_CHECKS");
	p = program_prologue(dev, 1, 300, &cq);
	assert_int_equal(tt_create_circular_buffer(p, &core, &c, &cb), 0);
	assert_int_equal(tt_create_kernel_from_string(p, hang, &core, NULL, &k),
			 0);
	assert_int_equal(tt_enqueue_program(cq, p, true), -ETIMEDOUT);
	fprintf(stderr, "# %s\n", tt_last_error());
	assert_non_null(strstr(tt_last_error(), "core (3,0)"));
	assert_non_null(strstr(tt_last_error(), "waypoint CWFW"));
	if (checks)
		assert_null(strstr(tt_last_error(), "TT_CB_CHECKS"));
	else
		assert_non_null(strstr(tt_last_error(),
				       "1 of them wait on a circular buffer (waypoint CRBW or CWFW): run again with TT_CB_CHECKS=1"));
	unsetenv("TT_CB_CHECKS");
	tt_program_free(p);
	assert_int_equal(tt_device_reset(dev, 10000), 0);
}

static void test_cb_hang_suggests_checks(void **state)
{
	cb_hang(*state, false);
	cb_hang(*state, true);
}

/* A kernel that halts is reported with what it said. */
static void test_fault_report(void **state)
{
	tt_device *dev = *state;
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 1);
	static const char *const bad =
		"#include \"dataflow_api.h\"\n"
		"void kernel_main(void) { ASSERT(get_arg_val(0) == 7); }\n";
	tt_command_queue *cq;
	tt_kernel_handle k;
	tt_program *p;
	uint32_t v = 3;

	p = program_prologue(dev, 0, 0, &cq);
	assert_int_equal(tt_create_kernel_from_string(p, bad, &core, NULL, &k),
			 0);
	assert_int_equal(tt_set_runtime_args(p, k, (struct tt_xy){ 0, 1 }, &v,
					     1), 0);
	assert_int_equal(tt_enqueue_program(cq, p, false), 0);
	assert_int_equal(tt_finish(cq), -EFAULT);
	assert_non_null(strstr(tt_last_error(), "core (0,1)"));
	assert_non_null(strstr(tt_last_error(), "assert"));
	/* The error is reported once. */
	assert_int_equal(tt_finish(cq), 0);
	tt_program_free(p);
	assert_int_equal(tt_device_reset(dev, 10000), 0);
}

/* The length forms move the whole buffer, and only with its length. */
static void test_write_read_len(void **state)
{
	tt_device *dev = *state;
	tt_buffer *b = dram_buffer(dev, 3);
	uint8_t in[3 * PAGE + 16], out[3 * PAGE + 16];
	tt_command_queue *cq;

	assert_int_equal(tt_device_command_queue(dev, 0, &cq), 0);
	for (unsigned i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7 + 1);
	memset(out, 0xEE, sizeof(out));
	assert_int_equal(tt_enqueue_write_buffer_len(cq, b, in, 3 * PAGE, false),
			 0);
	assert_int_equal(tt_enqueue_read_buffer_len(cq, b, out, 3 * PAGE, true),
			 0);
	assert_memory_equal(in, out, 3 * PAGE);
	assert_int_equal(out[3 * PAGE], 0xEE);
	/* Too short and too long are refused; nothing moves. */
	assert_int_equal(tt_enqueue_write_buffer_len(cq, b, out, 3 * PAGE - 1,
						     true), -EINVAL);
	assert_non_null(strstr(tt_last_error(),
			       "tt_enqueue_write_buffer_len: 6143 bytes given for a buffer of 6144 bytes"));
	assert_int_equal(tt_enqueue_read_buffer_len(cq, b, out, 3 * PAGE + 16,
						    true), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "tt_enqueue_read_buffer_len"));
	assert_int_equal(tt_enqueue_read_buffer(cq, b, out, true), 0);
	assert_memory_equal(in, out, 3 * PAGE);
	assert_int_equal(tt_enqueue_write_buffer_len(cq, b, NULL, 3 * PAGE,
						     true), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "src is NULL"));
	tt_buffer_free(b);
}

/* A compile error surfaces at enqueue with the compiler's line. */
static void test_compile_error(void **state)
{
	tt_device *dev = *state;
	struct tt_core_range_set core = tt_core_range_set_of_core(0, 0);
	tt_command_queue *cq;
	tt_kernel_handle k;
	tt_program *p;

	p = program_prologue(dev, 0, 0, &cq);
	assert_int_equal(tt_create_kernel_from_string(
				 p, "void kernel_main(void) { oops }\n", &core,
				 NULL, &k),
			 0);
	assert_int_equal(tt_enqueue_program(cq, p, true), -ENOEXEC);
	assert_non_null(strstr(tt_last_error(), ":1:"));
	assert_non_null(strstr(tt_last_error(), "error"));
	tt_program_free(p);
	assert_int_equal(tt_device_command_queue(dev, 2, &cq), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_program_reuse),
		cmocka_unit_test(test_repeated_program_runs),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_compile_error),
		cmocka_unit_test(test_write_read_len),
		cmocka_unit_test(test_fault_report),
		cmocka_unit_test(test_hang_report),
		cmocka_unit_test(test_cb_hang_suggests_checks),
	};

	return cmocka_run_group_tests_name("dispatch", tests, booted_up,
					   booted_down);
}
