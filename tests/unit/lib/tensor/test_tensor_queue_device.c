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
 * Counters placed just below the wrap point (depths 1, 3, 7, 8, 65535):
 * a kernel consumes what the host pushed, and the host what a kernel
 * produced, filling the queue exactly to full across the wrap, every
 * entry in order with its contents.
 *
 * Fixtures: every queue, program and tensor a case makes is recorded in
 * its fixture; the per-case teardown breaks the queues (a waiting kernel
 * returns), waits for the programs and frees everything, also after a
 * failed case, so the other cases still run.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/tensor/tensor_queue_internal.h"
#include "testutil.h"

#define SHAPE TT_SHAPE(32, 64) /* 2 UInt32 tiles: 8 KiB */
#define ENTRY_BYTES 8192u
#define N 24u

enum { CONSUME = 1, PRODUCE = 2, PRODUCE_HALT = 3, BREAK = 4 };

#define MAX_HELD 8

struct fix {
	tt_device *dev;
	enum tt_queue_placement placement;
	tt_command_queue *cq;
	tt_buffer *l1; /* results and scratch, same address on every core */
	/* What the running case holds, released by unpick. */
	tt_tensor_queue *queues[MAX_HELD];
	tt_program *programs[MAX_HELD];
	tt_tensor *tensors[MAX_HELD];
};

static struct fix *cur; /* the running case's fixture */

#define HOLD(arr, x)                                                           \
	do {                                                                   \
		int i_ = 0;                                                    \
		while (i_ < MAX_HELD && cur->arr[i_])                          \
			i_++;                                                  \
		if (i_ == MAX_HELD)                                            \
			fail_msg("more than %d " #arr " held", MAX_HELD);      \
		cur->arr[i_] = (x);                                            \
	} while (0)

static tt_tensor *hold(tt_tensor *t)
{
	HOLD(tensors, t);
	return t;
}

/* Free a tensor made by hold() (or NULL). */
static void drop(tt_tensor *t)
{
	for (int i = 0; t && i < MAX_HELD; i++)
		if (cur->tensors[i] == t)
			cur->tensors[i] = NULL;
	tt_tensor_free(t);
}

static tt_program *new_program(void)
{
	tt_program *p;

	assert_int_equal(tt_create_program(&p), 0);
	HOLD(programs, p);
	return p;
}

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
static void add_kernel_bytes(struct fix *f, tt_program *p, unsigned x,
			     uint32_t mode, tt_tensor_queue *q, uint32_t count,
			     uint32_t timeout_us, uint32_t bytes)
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
	a[10] = bytes;
	assert_int_equal(tt_set_runtime_args(p, k, (struct tt_xy){x, 0}, a, 11),
			 0);
}

static void add_kernel(struct fix *f, tt_program *p, unsigned x, uint32_t mode,
		       tt_tensor_queue *q, uint32_t count, uint32_t timeout_us)
{
	add_kernel_bytes(f, p, x, mode, q, count, timeout_us, ENTRY_BYTES);
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
	HOLD(queues, q);
	return q;
}

/* Tiled UInt32 entry n whose words are n * 7 + i; their sum. */
static tt_tensor *host_entry(uint32_t n, uint32_t *sum)
{
	tt_tensor *t;
	uint32_t *w;

	assert_int_equal(
		tt_tensor_create(&SHAPE, TT_UINT32, TT_TENSOR_TILED, &t), 0);
	hold(t);
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
	p = new_program();
	add_kernel(f, p, 0, CONSUME, q, N, 0);
	assert_int_equal(tt_enqueue_program(f->cq, p, false), 0);
	for (uint32_t n = 0; n < N; n++) {
		tt_tensor *t = host_entry(n, &sums[n]);

		assert_int_equal(tt_tensor_queue_push(q, t, 10000), 0);
		drop(t);
	}
	assert_int_equal(tt_finish(f->cq), 0);
	results(f, 0, got, 1 + N);
	assert_int_equal(got[0], 0);
	assert_memory_equal(&got[1], sums, sizeof(sums));
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

	p = new_program();
	add_kernel(f, p, 0, PRODUCE, q, N, 0);
	assert_int_equal(tt_enqueue_program(f->cq, p, false), 0);
	for (uint32_t n = 0; n < N; n++) {
		tt_tensor *t;

		assert_int_equal(tt_tensor_queue_get(q, 10000, &t), 0);
		hold(t);
		check_produced(t, n);
		drop(t);
		assert_int_equal(tt_tensor_queue_pop(q), 0);
	}
	assert_int_equal(tt_finish(f->cq), 0);
	/* The kernel withdrew its bell when it returned. */
	assert_int_equal(tt_tensor_queue_state(q, &st), 0);
	assert_false(st.device_producer);
	assert_int_equal(st.wr, N);
}

/* Producer on core (0,0), consumer on core (1,0): bells both ways. */
static void test_device_to_device(void **state)
{
	struct fix *f = *state;
	tt_tensor_queue *q = make_queue(f, 3);
	uint32_t got[1 + N];
	tt_program *p;

	clear_results(f, 1);
	p = new_program();
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
}

/* A kernel waiting 20 ms on an empty queue times out. */
static void test_kernel_timeout(void **state)
{
	struct fix *f = *state;
	tt_tensor_queue *q = make_queue(f, 2);
	uint32_t got[1];
	tt_program *p;

	clear_results(f, 0);
	p = new_program();
	add_kernel(f, p, 0, CONSUME, q, 1, 20000);
	assert_int_equal(tt_enqueue_program(f->cq, p, true), 0);
	results(f, 0, got, 1);
	assert_int_equal((int32_t)got[0], -110);
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

	p = new_program();
	add_kernel(f, p, 0, BREAK, q, 0, 0);
	assert_int_equal(tt_enqueue_program(f->cq, p, true), 0);
	expect_error(tt_tensor_queue_push(q, t, TT_TQ_FOREVER), -EPIPE,
		     "by a device kernel");
	assert_int_equal(tt_tensor_queue_state(q, &st), 0);
	assert_int_equal(st.broken, 2);
	drop(t);
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
	p = new_program();
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

	p = new_program();
	/* A core of its own per case: the halted hart stays halted. */
	add_kernel(f, p, 2 + f->placement, PRODUCE_HALT, q, 3, 0);
	tt_command_queue_set_timeout(f->cq, 5000);
	assert_int_equal(tt_enqueue_program(f->cq, p, false), 0);
	for (uint32_t n = 0; n < 3; n++) {
		assert_int_equal(tt_tensor_queue_get(q, 10000, &t), 0);
		hold(t);
		check_produced(t, n);
		drop(t);
		assert_int_equal(tt_tensor_queue_pop(q), 0);
	}
	expect_error(tt_tensor_queue_get(q, 100, &t), -ETIMEDOUT,
		     "no entry within 100 ms");
	assert_int_not_equal(tt_finish(f->cq), 0);
	assert_int_equal(tt_tensor_queue_break(q), 0);
	expect_error(tt_tensor_queue_get(q, TT_TQ_FOREVER, &t), -EPIPE,
		     "is broken");
}

/* ---- counters at the wrap point ---- */

#define SMALL TT_SHAPE(32, 32) /* one UInt8 tile: 1 KiB slots */
#define SMALL_BYTES 1024u
#define EXTRA 6u /* entries streamed past the full queue */

static const uint32_t wrap_depths[] = {1, 3, 7, 8, 65535};

/* Where the counters of a queue of depth d wrap (hw/tqueue.h), computed
 * here independently of the library. */
static uint32_t wrap_of(uint32_t d)
{
	return (uint32_t)(0xFFFFFFFFull / d * d);
}

static tt_tensor_queue *make_small(struct fix *f, unsigned depth)
{
	tt_tensor_queue *q;

	assert_int_equal(tt_tensor_queue_create(f->dev, &SMALL, TT_UINT8, depth,
						f->placement, &q),
			 0);
	HOLD(queues, q);
	return q;
}

static void expect_counters(tt_tensor_queue *q, uint32_t wr, uint32_t rd,
			    uint32_t occupancy)
{
	struct tt_tensor_queue_state st;

	assert_int_equal(tt_tensor_queue_state(q, &st), 0);
	assert_int_equal(st.wr, wr);
	assert_int_equal(st.rd, rd);
	assert_int_equal(st.occupancy, occupancy);
}

/* Counters for depth d so that m = min(d, 4) pushes fill the queue
 * across the wrap: d - m entries already counted (never pushed; the
 * consumer skips them), rd0 = W - (d - m) - ceil(m / 2). */
struct wrap_plan {
	uint32_t w, pre, m, rd0, wr0, wr_full;
};

static struct wrap_plan plan_for(uint32_t d)
{
	struct wrap_plan p = {.w = wrap_of(d), .m = d < 4 ? d : 4};

	p.pre = d - p.m;
	p.rd0 = p.w - p.pre - (p.m + 1) / 2;
	p.wr0 = p.rd0 + p.pre;
	p.wr_full = p.m / 2; /* wr0 + m - W */
	return p;
}

/* Tiled UInt8 entry n: its 256 words n * 7 + i; their sum. */
static tt_tensor *small_entry(uint32_t n, uint32_t *sum)
{
	tt_tensor *t;
	uint32_t *w;

	assert_int_equal(
		tt_tensor_create(&SMALL, TT_UINT8, TT_TENSOR_TILED, &t), 0);
	hold(t);
	w = tt_tensor_data(t);
	*sum = 0;
	for (uint32_t i = 0; i < SMALL_BYTES / 4; i++)
		*sum += w[i] = n * 7 + i;
	return t;
}

/*
 * Host producer, kernel consumer: the host fills the queue exactly to
 * full across the wrap (one more push is refused), skips the entries
 * only counted, then a kernel consumes the m entries and EXTRA more the
 * host pushes while it runs; the sums it reports are those pushed.
 */
static void wrap_consumer(struct fix *f, uint32_t d)
{
	tt_tensor_queue *q = make_small(f, d);
	struct wrap_plan pl = plan_for(d);
	uint32_t n_all = pl.m + EXTRA, sums[4 + EXTRA], got[1 + 4 + EXTRA];
	tt_program *p;
	tt_tensor *t;
	uint32_t sum;

	assert_int_equal(tt_tensor_queue_set_counters(q, pl.wr0, pl.rd0), 0);
	for (uint32_t n = 0; n < pl.m; n++) {
		t = small_entry(n, &sums[n]);
		assert_int_equal(tt_tensor_queue_push(q, t, TT_TQ_NONBLOCK), 0);
		drop(t);
	}
	expect_counters(q, pl.wr_full, pl.rd0, d);
	t = small_entry(99, &sum);
	expect_error(tt_tensor_queue_push(q, t, TT_TQ_NONBLOCK), -EAGAIN,
		     "is full");
	drop(t);
	if (pl.pre)
		assert_int_equal(
			tt_tensor_queue_set_counters(q, pl.wr_full, pl.wr0), 0);
	clear_results(f, 0);
	p = new_program();
	add_kernel_bytes(f, p, 0, CONSUME, q, n_all, 0, SMALL_BYTES);
	assert_int_equal(tt_enqueue_program(f->cq, p, false), 0);
	for (uint32_t n = pl.m; n < n_all; n++) {
		t = small_entry(n, &sums[n]);
		assert_int_equal(tt_tensor_queue_push(q, t, 10000), 0);
		drop(t);
	}
	assert_int_equal(tt_finish(f->cq), 0);
	results(f, 0, got, 1 + n_all);
	assert_int_equal(got[0], 0);
	for (uint32_t n = 0; n < n_all; n++)
		if (got[1 + n] != sums[n])
			fail_msg("depth %u: entry %u summed 0x%x, not 0x%x", d,
				 n, got[1 + n], sums[n]);
	expect_counters(q, pl.wr_full + EXTRA, pl.wr_full + EXTRA, 0);
}

static void test_wrap_device_consumer(void **state)
{
	for (unsigned i = 0; i < sizeof(wrap_depths) / 4; i++)
		wrap_consumer(*state, wrap_depths[i]);
}

/*
 * Kernel producer, host consumer: the kernel fills the queue exactly to
 * full across the wrap (the host waits to see it full), the host skips
 * the entries only counted, then takes the m entries and EXTRA more in
 * order with their contents.
 */
static void wrap_producer(struct fix *f, uint32_t d)
{
	tt_tensor_queue *q = make_small(f, d);
	struct wrap_plan pl = plan_for(d);
	uint32_t n_all = pl.m + EXTRA;
	struct tt_tensor_queue_state st = {0};
	tt_program *p;
	tt_tensor *t;

	assert_int_equal(tt_tensor_queue_set_counters(q, pl.wr0, pl.rd0), 0);
	p = new_program();
	add_kernel_bytes(f, p, 0, PRODUCE, q, n_all, 0, SMALL_BYTES);
	assert_int_equal(tt_enqueue_program(f->cq, p, false), 0);
	for (int i = 0; i < 5000; i++) {
		assert_int_equal(tt_tensor_queue_state(q, &st), 0);
		if (st.occupancy == d)
			break;
		usleep(1000);
	}
	assert_int_equal(st.occupancy, d);
	assert_int_equal(st.wr, pl.wr_full);
	assert_int_equal(st.rd, pl.rd0);
	/* The kernel waits for a free slot: still full a moment later. */
	usleep(20000);
	expect_counters(q, pl.wr_full, pl.rd0, d);
	if (pl.pre) /* the kernel, blocked, does not write wr meanwhile */
		assert_int_equal(
			tt_tensor_queue_set_counters(q, pl.wr_full, pl.wr0), 0);
	for (uint32_t n = 0; n < n_all; n++) {
		const uint32_t *w;

		assert_int_equal(tt_tensor_queue_get(q, 10000, &t), 0);
		hold(t);
		w = tt_tensor_data(t);
		for (uint32_t i = 0; i < SMALL_BYTES / 4; i++)
			if (w[i] != n * 1000003u + i)
				fail_msg("depth %u: entry %u word %u: 0x%x", d,
					 n, i, w[i]);
		drop(t);
		assert_int_equal(tt_tensor_queue_pop(q), 0);
	}
	assert_int_equal(tt_finish(f->cq), 0);
	expect_counters(q, pl.wr_full + EXTRA, pl.wr_full + EXTRA, 0);
}

static void test_wrap_device_producer(void **state)
{
	for (unsigned i = 0; i < sizeof(wrap_depths) / 4; i++)
		wrap_producer(*state, wrap_depths[i]);
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
	*state = cur = f;
	return 0;
}

/* Per-case teardown, also after a failed case: the queues broken (a
 * kernel waiting on one returns), the programs waited for, then every
 * program, tensor, queue and the L1 buffer freed. */
static int unpick(void **state)
{
	struct fix *f = *state;

	for (int i = 0; i < MAX_HELD; i++)
		if (f->queues[i])
			tt_tensor_queue_break(f->queues[i]);
	tt_finish(f->cq);
	for (int i = 0; i < MAX_HELD; i++) {
		tt_program_free(f->programs[i]);
		f->programs[i] = NULL;
		tt_tensor_free(f->tensors[i]);
		f->tensors[i] = NULL;
		tt_tensor_queue_free(f->queues[i]);
		f->queues[i] = NULL;
	}
	tt_buffer_free(f->l1);
	f->l1 = NULL;
	cur = NULL;
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
		BOTH(test_producer_dies, b),                                   \
		BOTH(test_wrap_device_consumer, b),                            \
		BOTH(test_wrap_device_producer, b)

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
