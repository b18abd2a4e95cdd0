// SPDX-License-Identifier: Apache-2.0
/*
 * Tensor queues with device kernels on either side (kernel_api/
 * tensor_queue.h, kernel tests/unit/kernels/tq_kernel.c), queues in DRAM
 * and in host memory, on the embedded model and through a ttsim daemon:
 * a kernel consuming what the host pushes (depth 2, so the host waits
 * for the kernel and the kernel for the host), a kernel producing for
 * the host, one kernel producing for another on a second core, a kernel
 * waiting with a timeout, a kernel breaking the queue under the host, the
 * host breaking it under a waiting kernel, and a producer kernel that
 * dies mid-stream (its hart halts): the host consumer times out instead
 * of hanging, and after it breaks the queue every call fails with -EPIPE.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

#define SHAPE TT_SHAPE(32, 64) /* 2 UInt32 tiles: 8 KiB */
#define ENTRY_BYTES 8192u
#define N 24u

enum { CONSUME = 1, PRODUCE = 2, PRODUCE_HALT = 3, BREAK = 4 };

struct fix {
	tt_device *dev;
	enum tt_queue_placement placement;
	tt_command_queue *cq;
	tt_buffer *l1; /* results and scratch, same address on every core */
};

static tt_device *devs[2];
static char rundir[128];

static void expect_error(int ret, int code, const char *text)
{
	assert_int_equal(ret, code);
	if (!strstr(tt_last_error(), text))
		fail_msg("message \"%s\" lacks \"%s\"", tt_last_error(), text);
}

static const char *kernel_path(void)
{
	static char path[512];
	const char *src = getenv("TT_TEST_SRC");

	snprintf(path, sizeof(path), "%s/unit/kernels/tq_kernel.c",
		 src ? src : "tests");
	return path;
}

static uint32_t results_addr(struct fix *f)
{
	return (uint32_t)tt_buffer_address(f->l1);
}

/* One kernel on logical core (x, 0) in mode, on queue q. */
static void add_kernel(struct fix *f, tt_program *p, unsigned x, uint32_t mode,
		       tt_tensor_queue *q, uint32_t count, uint32_t timeout_us)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(x, 0);
	uint32_t a[1 + TT_TQ_KERNEL_ARGS + 5];
	tt_kernel_handle k;

	assert_int_equal(tt_create_kernel(p, kernel_path(), &core, NULL, &k),
			 0);
	a[0] = mode;
	tt_tensor_queue_kernel_args(q, &a[1]);
	a[6] = count;
	a[7] = results_addr(f);
	a[8] = results_addr(f) + 4096; /* scratch: one entry */
	a[9] = timeout_us;
	a[10] = ENTRY_BYTES;
	assert_int_equal(tt_set_runtime_args(p, k, (struct tt_xy){x, 0}, a, 11),
			 0);
}

static void results(struct fix *f, unsigned x, uint32_t *out, unsigned n)
{
	assert_int_equal(tt_read_from_device_l1(f->dev, (struct tt_xy){x, 0},
						results_addr(f), out, 4 * n),
			 0);
}

static tt_tensor_queue *make_queue(struct fix *f, unsigned depth)
{
	tt_tensor_queue *q;

	assert_int_equal(tt_tensor_queue_create(f->dev, &SHAPE, TT_UINT32,
						depth, f->placement, &q),
			 0);
	return q;
}

/* Tiled UInt32 entry n whose words are n * 7 + i; their sum. */
static tt_tensor *host_entry(uint32_t n, uint32_t *sum)
{
	tt_tensor *t;
	uint32_t *w;

	assert_int_equal(
		tt_tensor_create(&SHAPE, TT_UINT32, TT_TENSOR_TILED, &t), 0);
	w = tt_tensor_data(t);
	*sum = 0;
	for (uint32_t i = 0; i < ENTRY_BYTES / 4; i++)
		*sum += w[i] = n * 7 + i;
	return t;
}

static void clear_results(struct fix *f, unsigned x)
{
	static uint32_t zero[64];

	assert_int_equal(tt_write_to_device_l1(f->dev, (struct tt_xy){x, 0},
					       results_addr(f), zero,
					       sizeof(zero)),
			 0);
}

/* ---- cases ---- */

static void test_device_consumer(void **state)
{
	struct fix *f = *state;
	tt_tensor_queue *q = make_queue(f, 2);
	uint32_t sums[N], got[1 + N];
	tt_program *p;

	clear_results(f, 0);
	assert_int_equal(tt_create_program(&p), 0);
	add_kernel(f, p, 0, CONSUME, q, N, 0);
	assert_int_equal(tt_enqueue_program(f->cq, p, false), 0);
	for (uint32_t n = 0; n < N; n++) {
		tt_tensor *t = host_entry(n, &sums[n]);

		assert_int_equal(tt_tensor_queue_push(q, t, 10000), 0);
		tt_tensor_free(t);
	}
	assert_int_equal(tt_finish(f->cq), 0);
	results(f, 0, got, 1 + N);
	assert_int_equal(got[0], 0);
	assert_memory_equal(&got[1], sums, sizeof(sums));
	tt_program_free(p);
	tt_tensor_queue_free(q);
}

static void check_produced(const tt_tensor *t, uint32_t n)
{
	const uint32_t *w = tt_tensor_data(t);

	for (uint32_t i = 0; i < ENTRY_BYTES / 4; i++)
		if (w[i] != n * 1000003u + i)
			fail_msg("entry %u word %u: 0x%x", n, i, w[i]);
}

static void test_device_producer(void **state)
{
	struct fix *f = *state;
	tt_tensor_queue *q = make_queue(f, 2);
	struct tt_tensor_queue_state st;
	tt_program *p;

	assert_int_equal(tt_create_program(&p), 0);
	add_kernel(f, p, 0, PRODUCE, q, N, 0);
	assert_int_equal(tt_enqueue_program(f->cq, p, false), 0);
	for (uint32_t n = 0; n < N; n++) {
		tt_tensor *t;

		assert_int_equal(tt_tensor_queue_get(q, 10000, &t), 0);
		check_produced(t, n);
		tt_tensor_free(t);
		assert_int_equal(tt_tensor_queue_pop(q), 0);
	}
	assert_int_equal(tt_finish(f->cq), 0);
	/* The kernel withdrew its bell when it returned. */
	assert_int_equal(tt_tensor_queue_state(q, &st), 0);
	assert_false(st.device_producer);
	assert_int_equal(st.wr, N);
	tt_program_free(p);
	tt_tensor_queue_free(q);
}

/* Producer on core (0,0), consumer on core (1,0): bells both ways. */
static void test_device_to_device(void **state)
{
	struct fix *f = *state;
	tt_tensor_queue *q = make_queue(f, 3);
	uint32_t got[1 + N];
	tt_program *p;

	clear_results(f, 1);
	assert_int_equal(tt_create_program(&p), 0);
	add_kernel(f, p, 0, PRODUCE, q, N, 0);
	add_kernel(f, p, 1, CONSUME, q, N, 0);
	assert_int_equal(tt_enqueue_program(f->cq, p, true), 0);
	results(f, 1, got, 1 + N);
	assert_int_equal(got[0], 0);
	for (uint32_t n = 0; n < N; n++) {
		uint32_t want = 0;

		for (uint32_t i = 0; i < ENTRY_BYTES / 4; i++)
			want += n * 1000003u + i;
		assert_int_equal(got[1 + n], want);
	}
	tt_program_free(p);
	tt_tensor_queue_free(q);
}

/* A kernel waiting 20 ms on an empty queue times out. */
static void test_kernel_timeout(void **state)
{
	struct fix *f = *state;
	tt_tensor_queue *q = make_queue(f, 2);
	uint32_t got[1];
	tt_program *p;

	clear_results(f, 0);
	assert_int_equal(tt_create_program(&p), 0);
	add_kernel(f, p, 0, CONSUME, q, 1, 20000);
	assert_int_equal(tt_enqueue_program(f->cq, p, true), 0);
	results(f, 0, got, 1);
	assert_int_equal((int32_t)got[0], -110);
	tt_program_free(p);
	tt_tensor_queue_free(q);
}

/* A kernel breaks the queue: the host producer is told who did. */
static void test_kernel_breaks(void **state)
{
	struct fix *f = *state;
	tt_tensor_queue *q = make_queue(f, 2);
	struct tt_tensor_queue_state st;
	tt_program *p;
	uint32_t sum;
	tt_tensor *t = host_entry(0, &sum);

	assert_int_equal(tt_create_program(&p), 0);
	add_kernel(f, p, 0, BREAK, q, 0, 0);
	assert_int_equal(tt_enqueue_program(f->cq, p, true), 0);
	expect_error(tt_tensor_queue_push(q, t, TT_TQ_FOREVER), -EPIPE,
		     "by a device kernel");
	assert_int_equal(tt_tensor_queue_state(q, &st), 0);
	assert_int_equal(st.broken, 2);
	tt_tensor_free(t);
	tt_program_free(p);
	tt_tensor_queue_free(q);
}

/* The host breaks the queue under a kernel waiting forever: the kernel
 * returns TQ_EPIPE and the program ends. */
static void test_host_breaks_kernel_wait(void **state)
{
	struct fix *f = *state;
	tt_tensor_queue *q = make_queue(f, 2);
	struct tt_tensor_queue_state st;
	uint32_t got[1];
	tt_program *p;

	clear_results(f, 0);
	assert_int_equal(tt_create_program(&p), 0);
	add_kernel(f, p, 0, CONSUME, q, 1, 0);
	assert_int_equal(tt_enqueue_program(f->cq, p, false), 0);
	/* Break once the kernel has registered (its bell is set). */
	for (int i = 0; i < 2000; i++) {
		assert_int_equal(tt_tensor_queue_state(q, &st), 0);
		if (st.device_consumer)
			break;
		usleep(1000);
	}
	assert_true(st.device_consumer);
	assert_int_equal(tt_tensor_queue_break(q), 0);
	assert_int_equal(tt_finish(f->cq), 0);
	results(f, 0, got, 1);
	assert_int_equal((int32_t)got[0], -32);
	tt_program_free(p);
	tt_tensor_queue_free(q);
}

/*
 * A producer kernel that dies after 3 entries (its hart halts without
 * closing the queue): the host consumer gets the 3, then times out
 * rather than hanging; the program is reported as failed; the host then
 * breaks the queue and every call fails with -EPIPE.
 */
static void test_producer_dies(void **state)
{
	struct fix *f = *state;
	tt_tensor_queue *q = make_queue(f, 4);
	tt_program *p;
	tt_tensor *t;

	assert_int_equal(tt_create_program(&p), 0);
	/* A core of its own per case: the halted hart stays halted. */
	add_kernel(f, p, 2 + f->placement, PRODUCE_HALT, q, 3, 0);
	tt_command_queue_set_timeout(f->cq, 5000);
	assert_int_equal(tt_enqueue_program(f->cq, p, false), 0);
	for (uint32_t n = 0; n < 3; n++) {
		assert_int_equal(tt_tensor_queue_get(q, 10000, &t), 0);
		check_produced(t, n);
		tt_tensor_free(t);
		assert_int_equal(tt_tensor_queue_pop(q), 0);
	}
	expect_error(tt_tensor_queue_get(q, 100, &t), -ETIMEDOUT,
		     "no entry within 100 ms");
	assert_int_not_equal(tt_finish(f->cq), 0);
	assert_int_equal(tt_tensor_queue_break(q), 0);
	expect_error(tt_tensor_queue_get(q, TT_TQ_FOREVER, &t), -EPIPE,
		     "is broken");
	tt_program_free(p);
	tt_tensor_queue_free(q);
}

/* ---- transports and placements ---- */

static struct fix fixes[2][2]; /* [ttsim][placement] */

static int open_dev(int ttsim)
{
	setenv("TT_TRANSPORT", ttsim ? "ttsim" : "embedded", 1);
	return tt_device_open(0, &devs[ttsim]) ||
			       tt_mgmt_wait_ready(devs[ttsim], BOOT_MS)
		       ? -1
		       : 0;
}

static int embedded_up(void **state)
{
	(void)state;
	return open_dev(0);
}

static int ttsim_up(void **state)
{
	(void)state;
	if (!test_rundir(rundir, sizeof(rundir)) ||
	    run_ttsim("start --board n150 --name tqd") != 0)
		return -1;
	return open_dev(1);
}

static int embedded_down(void **state)
{
	(void)state;
	tt_device_close(devs[0]);
	return 0;
}

static int ttsim_down(void **state)
{
	(void)state;
	tt_device_close(devs[1]);
	return ttsim_clean_up(rundir, true);
}

static int pick(void **state)
{
	uintptr_t k = (uintptr_t)*state;
	struct fix *f = &fixes[k >> 1][k & 1];
	struct tt_buffer_config c = {.type = TT_BUFFER_L1,
				     .size = 4096 + ENTRY_BYTES};

	f->dev = devs[k >> 1];
	f->placement = (k & 1) ? TT_QUEUE_HOST : TT_QUEUE_DRAM;
	c.device = f->dev;
	c.page_size = c.size;
	if (tt_device_command_queue(f->dev, 0, &f->cq) ||
	    tt_create_buffer(&c, &f->l1))
		return -1;
	tt_command_queue_set_timeout(f->cq, 20000);
	*state = f;
	return 0;
}

static int unpick(void **state)
{
	struct fix *f = *state;

	tt_buffer_free(f->l1);
	return 0;
}

/* Initial state k: bit 1 ttsim, bit 0 host placement. */
#define CASE(fn, k, where)                                                     \
	{                                                                      \
#fn "_" where, fn, pick, unpick, (void *)(k)                   \
	}
#define BOTH(fn, b) CASE(fn, (b), "dram"), CASE(fn, (b) + 1, "host")
#define ALL(b)                                                                 \
	BOTH(test_device_consumer, b), BOTH(test_device_producer, b),          \
		BOTH(test_device_to_device, b), BOTH(test_kernel_timeout, b),  \
		BOTH(test_kernel_breaks, b),                                   \
		BOTH(test_host_breaks_kernel_wait, b),                         \
		BOTH(test_producer_dies, b)

int main(void)
{
	const struct CMUnitTest embedded[] = {ALL(0)};
	const struct CMUnitTest ttsim[] = {ALL(2)};
	int fails;

	fails = cmocka_run_group_tests_name("tensor_queue_device_embedded",
					    embedded, embedded_up,
					    embedded_down);
	return fails + cmocka_run_group_tests_name("tensor_queue_device_ttsim",
						   ttsim, ttsim_up, ttsim_down);
}
