// SPDX-License-Identifier: Apache-2.0
/*
 * Tensor queues (tt/tensor_queue.h), host side: every case runs with the
 * queue in DRAM and in host memory, on the embedded model and through a
 * private ttsim daemon (in the VM guest, tests/vm: through tenstorrent.ko). Entries come back as pushed (converted to the
 * queue's format) across many wrap-arounds; full and empty queues refuse
 * non-blocking calls with -EAGAIN; timeouts end waits with -ETIMEDOUT;
 * a broken queue fails every call with -EPIPE, wakes a waiter blocked
 * forever, and works again after a reset; a producer thread and a
 * consumer thread stream through a queue of depth 2; a producer or
 * consumer process killed mid-stream leaves its host-memory queue broken,
 * not hanging;
 * bad arguments are refused with a message naming them; the counters
 * wrap at the largest multiple of the depth below 2^32 (depths 1, 3, 7,
 * 8 and 65535, started just below the wrap point, entries in order with
 * their contents, full and empty across the wrap) and a header whose
 * counters are out of range is refused.
 *
 * Fixtures: every queue, tensor, thread and child process a case makes is
 * recorded in its fixture, and the per-case teardown releases what is
 * left, so a case that fails half-way does not leak a DMA buffer into
 * tt_device_close and the other cases still run.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/tensor/tensor_queue_internal.h"
#include "testcases.h"
#include "testutil.h"

#define SHAPE TT_SHAPE(2, 33, 40) /* 2 x 2 x 2 = 8 tiles, padded */

#define MAX_HELD 16

struct fix {
	tt_device *dev;
	enum tt_queue_placement placement;
	/* What the running case holds, released by unpick. */
	tt_tensor_queue *queues[MAX_HELD];
	tt_tensor *tensors[MAX_HELD];
	pthread_t threads[2];
	bool thread_live[2];
	pid_t child;
};

static struct fix *cur; /* the running case's fixture */

static tt_tensor_queue *hold_queue(tt_tensor_queue *q)
{
	for (int i = 0; i < MAX_HELD; i++)
		if (!cur->queues[i])
			return cur->queues[i] = q;
	fail_msg("more than %d queues held", MAX_HELD);
	return q;
}

static tt_tensor *hold(tt_tensor *t)
{
	for (int i = 0; i < MAX_HELD; i++)
		if (!cur->tensors[i])
			return cur->tensors[i] = t;
	fail_msg("more than %d tensors held", MAX_HELD);
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

static void start_thread(int i, void *(*fn)(void *), void *arg)
{
	assert_int_equal(pthread_create(&cur->threads[i], NULL, fn, arg), 0);
	cur->thread_live[i] = true;
}

static void join_thread(int i)
{
	cur->thread_live[i] = false;
	assert_int_equal(pthread_join(cur->threads[i], NULL), 0);
}

static tt_device *ttsim_dev, *embedded_dev;
static char rundir[128];

static void expect_error(int ret, int code, const char *text)
{
	assert_int_equal(ret, code);
	if (!strstr(tt_last_error(), text))
		fail_msg("message \"%s\" lacks \"%s\"", tt_last_error(), text);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Row-major Float32 tensor of SHAPE whose values are exact in bf16 and
 * differ with n. */
static tt_tensor *make_entry(unsigned n)
{
	tt_tensor *t;
	float *p;

	if (tt_tensor_create(&SHAPE, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t))
		return NULL;
	p = tt_tensor_data(t);
	for (size_t i = 0; i < tt_tensor_volume(t); i++)
		p[i] = (float)((n * 7 + i) % 251) - 125.0f;
	return t;
}

/* make_entry, held by the case. */
static tt_tensor *entry(unsigned n)
{
	tt_tensor *t = make_entry(n);

	assert_non_null(t);
	return hold(t);
}

static void check_entry(const tt_tensor *t, unsigned n)
{
	const float *p = tt_tensor_data(t);

	for (size_t i = 0; i < tt_tensor_volume(t); i++)
		if (p[i] != (float)((n * 7 + i) % 251) - 125.0f)
			fail_msg("entry %u element %zu: %g", n, i, p[i]);
}

static tt_tensor_queue *make_queue(struct fix *f, unsigned depth)
{
	tt_tensor_queue *q;

	assert_int_equal(tt_tensor_queue_create(f->dev, &SHAPE, TT_FLOAT16_B,
						depth, f->placement, &q),
			 0);
	return hold_queue(q);
}

static void push(tt_tensor_queue *q, unsigned n, int timeout_ms)
{
	tt_tensor *t = entry(n);

	assert_int_equal(tt_tensor_queue_push(q, t, timeout_ms), 0);
	drop(t);
}

/* Read the head into Float32 row-major, check it is entry n, pop. */
static void pop_check(tt_tensor_queue *q, unsigned n, int timeout_ms)
{
	tt_tensor *t;

	assert_int_equal(
		tt_tensor_create(&SHAPE, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t),
		0);
	hold(t);
	assert_int_equal(tt_tensor_queue_read(q, t, timeout_ms), 0);
	check_entry(t, n);
	drop(t);
	assert_int_equal(tt_tensor_queue_pop(q), 0);
}

/* ---- cases ---- */

static void test_create_geometry(void **state)
{
	struct fix *f = *state;
	tt_tensor_queue *q = make_queue(f, 4);
	struct tt_tensor_queue_state st;
	uint32_t args[TT_TQ_KERNEL_ARGS];

	assert_int_equal(tt_tensor_queue_tiles(q), 8);
	assert_int_equal(tt_tensor_queue_entry_size(q), 8 * 2048);
	assert_int_equal(tt_tensor_queue_slot_size(q), 8 * 2048);
	assert_int_equal(tt_tensor_queue_depth(q), 4);
	assert_int_equal(tt_tensor_queue_format(q), TT_FLOAT16_B);
	assert_int_equal(tt_tensor_queue_placement(q), f->placement);
	assert_int_equal(tt_tensor_queue_shape(q)->dims[1], 33);
	assert_int_equal(tt_tensor_queue_state(q, &st), 0);
	assert_int_equal(st.depth, 4);
	assert_int_equal(st.occupancy, 0);
	assert_int_equal(st.broken, 0);
	assert_false(st.device_producer || st.device_consumer);
	tt_tensor_queue_kernel_args(q, args);
	assert_int_equal(args[3], 4);
	assert_int_equal(args[4], 8 * 2048);
	assert_int_equal(args[1], (uint32_t)tt_tensor_queue_noc_addr(q));
}

/* 3 slots, 40 entries in an uneven rhythm: the ring wraps 13 times. */
static void test_wrap_around(void **state)
{
	tt_tensor_queue *q = make_queue(*state, 3);
	struct tt_tensor_queue_state st;
	unsigned pushed = 0, popped = 0;

	for (unsigned round = 0; popped < 40; round++) {
		for (unsigned k = 0;
		     k < 1 + round % 3 && pushed < 40 && pushed - popped < 3;
		     k++)
			push(q, pushed++, TT_TQ_NONBLOCK);
		assert_int_equal(tt_tensor_queue_state(q, &st), 0);
		assert_int_equal(st.occupancy, pushed - popped);
		for (unsigned k = 0; k < 1 + (round + 1) % 2 && popped < pushed;
		     k++)
			pop_check(q, popped++, TT_TQ_NONBLOCK);
	}
	assert_int_equal(tt_tensor_queue_state(q, &st), 0);
	assert_int_equal(st.wr, 40);
	assert_int_equal(st.rd, 40);
}

/* get returns the head as a tiled tensor in the queue's format, and does
 * not consume it. */
static void test_get_peeks(void **state)
{
	tt_tensor_queue *q = make_queue(*state, 2);
	tt_tensor *a, *b, *rm;

	push(q, 5, TT_TQ_NONBLOCK);
	assert_int_equal(tt_tensor_queue_get(q, TT_TQ_NONBLOCK, &a), 0);
	hold(a);
	assert_int_equal(tt_tensor_queue_get(q, TT_TQ_NONBLOCK, &b), 0);
	hold(b);
	assert_int_equal(tt_tensor_format(a), TT_FLOAT16_B);
	assert_int_equal(tt_tensor_layout(a), TT_TENSOR_TILED);
	assert_memory_equal(tt_tensor_data(a), tt_tensor_data(b),
			    tt_tensor_size(a));
	assert_int_equal(tt_tensor_to(a, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &rm),
			 0);
	hold(rm);
	check_entry(rm, 5);
	assert_int_equal(tt_tensor_queue_pop(q), 0);
	drop(rm);
	drop(a);
	drop(b);
}

static void test_full_and_empty(void **state)
{
	tt_tensor_queue *q = make_queue(*state, 2);
	tt_tensor *t = entry(0), *out = NULL;

	expect_error(tt_tensor_queue_get(q, TT_TQ_NONBLOCK, &out), -EAGAIN,
		     "is empty");
	assert_null(out);
	expect_error(tt_tensor_queue_read(q, t, TT_TQ_NONBLOCK), -EAGAIN,
		     "is empty");
	expect_error(tt_tensor_queue_pop(q), -EAGAIN, "is empty");
	assert_int_equal(tt_tensor_queue_push(q, t, TT_TQ_NONBLOCK), 0);
	assert_int_equal(tt_tensor_queue_push(q, t, TT_TQ_NONBLOCK), 0);
	expect_error(tt_tensor_queue_push(q, t, TT_TQ_NONBLOCK), -EAGAIN,
		     "is full");
	/* The message names the queue. */
	expect_error(tt_tensor_queue_push(q, t, TT_TQ_NONBLOCK), -EAGAIN,
		     "queue [2,33,40] Float16_b x2");
	drop(t);
}

static void test_timeouts(void **state)
{
	tt_tensor_queue *q = make_queue(*state, 1);
	tt_tensor *t = entry(0);
	double t0 = now_ms(), dt;

	expect_error(tt_tensor_queue_read(q, t, 60), -ETIMEDOUT,
		     "no entry within 60 ms");
	dt = now_ms() - t0;
	assert_true(dt >= 59 && dt < 2000);
	assert_int_equal(tt_tensor_queue_push(q, t, 60), 0);
	t0 = now_ms();
	expect_error(tt_tensor_queue_push(q, t, 60), -ETIMEDOUT,
		     "no free slot within 60 ms");
	dt = now_ms() - t0;
	assert_true(dt >= 59 && dt < 2000);
	drop(t);
}

static void test_broken_and_reset(void **state)
{
	tt_tensor_queue *q = make_queue(*state, 2);
	struct tt_tensor_queue_state st;
	tt_tensor *t = entry(1), *out;

	push(q, 0, TT_TQ_NONBLOCK);
	assert_int_equal(tt_tensor_queue_break(q), 0);
	expect_error(tt_tensor_queue_push(q, t, TT_TQ_FOREVER), -EPIPE,
		     "is broken: marked by the host");
	expect_error(tt_tensor_queue_get(q, TT_TQ_FOREVER, &out), -EPIPE,
		     "tt_tensor_queue_get");
	expect_error(tt_tensor_queue_pop(q), -EPIPE, "is broken");
	assert_int_equal(tt_tensor_queue_state(q, &st), 0);
	assert_int_equal(st.broken, 1);
	assert_int_equal(tt_tensor_queue_reset(q), 0);
	assert_int_equal(tt_tensor_queue_state(q, &st), 0);
	assert_int_equal(st.broken, 0);
	assert_int_equal(st.occupancy, 0);
	push(q, 7, TT_TQ_NONBLOCK);
	pop_check(q, 7, TT_TQ_NONBLOCK);
	drop(t);
}

struct waiter {
	tt_tensor_queue *q;
	int ret;
	double woke_ms;
};

static void *wait_forever(void *arg)
{
	struct waiter *w = arg;
	tt_tensor *t = NULL;

	w->ret = tt_tensor_queue_get(w->q, TT_TQ_FOREVER, &t);
	w->woke_ms = now_ms();
	tt_tensor_free(t);
	return NULL;
}

/* A consumer blocked forever on an empty queue is released by a break
 * from another thread, promptly. */
static void test_break_wakes_waiter(void **state)
{
	/* Static: the thread may outlive a failed case (unpick joins it). */
	static struct waiter w;

	w = (struct waiter){.q = make_queue(*state, 2)};
	double t0;

	start_thread(0, wait_forever, &w);
	usleep(50000);
	t0 = now_ms();
	assert_int_equal(tt_tensor_queue_break(w.q), 0);
	join_thread(0);
	assert_int_equal(w.ret, -EPIPE);
	assert_true(w.woke_ms - t0 < 1000);
}

struct producer {
	tt_tensor_queue *q;
	unsigned n;
	int ret;
};

static void *produce(void *arg)
{
	struct producer *p = arg;

	for (unsigned i = 0; i < p->n && !p->ret; i++) {
		tt_tensor *t = make_entry(i);

		p->ret = t ? tt_tensor_queue_push(p->q, t, 10000) : -ENOMEM;
		tt_tensor_free(t);
	}
	return NULL;
}

/* A producer thread and this thread as consumer, depth 2: each side
 * waits for the other many times. */
static void test_threads_stream(void **state)
{
	static struct producer p;

	p = (struct producer){.q = make_queue(*state, 2), .n = 150};

	start_thread(0, produce, &p);
	for (unsigned i = 0; i < p.n; i++)
		pop_check(p.q, i, 10000);
	join_thread(0);
	assert_int_equal(p.ret, 0);
}

/*
 * A producer process (a forked child pushing into the shared host
 * memory) killed mid-stream: the consumer takes what was pushed, then
 * finds the queue broken (the producer's process is gone) instead of
 * waiting forever. DRAM queues cannot be shared with a child of the
 * embedded model's process (the model runs in the parent), so this is
 * host memory only; the device-side equivalent is in
 * test_tensor_queue_device.
 */
static void test_killed_producer(void **state)
{
	struct fix *f = *state;
	tt_tensor_queue *q;
	tt_tensor *t;
	pid_t pid;
	int st;

	q = make_queue(f, 4);
	t = entry(0);
	pid = fork();
	assert_true(pid >= 0);
	cur->child = pid;
	if (pid == 0) {
		/* Push until killed; the queue fills, then each push waits. */
		for (;;)
			if (tt_tensor_queue_push(q, t, TT_TQ_FOREVER))
				_exit(3);
	}
	for (unsigned i = 0; i < 6; i++)
		pop_check(q, 0, 10000);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	cur->child = 0;
	assert_true(WIFSIGNALED(st));
	/* Up to depth entries may still be there; then the break. */
	for (unsigned i = 0;; i++) {
		int ret = tt_tensor_queue_read(q, t, TT_TQ_FOREVER);

		if (ret) {
			expect_error(ret, -EPIPE, "the producer process");
			break;
		}
		assert_true(i < 4);
		assert_int_equal(tt_tensor_queue_pop(q), 0);
	}
	expect_error(tt_tensor_queue_pop(q), -EPIPE,
		     "because the process at the other end exited");
	drop(t);
}

/*
 * The other way round: a consumer process killed mid-stream. The parent,
 * pushing with no timeout into the full queue, finds the consumer gone
 * and fails with -EPIPE instead of waiting forever.
 */
static void test_killed_consumer(void **state)
{
	struct fix *f = *state;
	tt_tensor_queue *q;
	tt_tensor *t;
	pid_t pid;
	int st, ret;

	q = make_queue(f, 4);
	t = entry(0);
	pid = fork();
	assert_true(pid >= 0);
	cur->child = pid;
	if (pid == 0) {
		/* Pop two entries, then wait for a third until killed. */
		for (unsigned i = 0;; i++)
			if (tt_tensor_queue_read(q, t, TT_TQ_FOREVER) ||
			    (i < 2 && tt_tensor_queue_pop(q)))
				_exit(3);
	}
	for (unsigned i = 0; i < 6; i++)
		assert_int_equal(tt_tensor_queue_push(q, t, 10000), 0);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	cur->child = 0;
	assert_true(WIFSIGNALED(st));
	/* 6 pushed, 2 popped: the queue is full, the next push waits. */
	ret = tt_tensor_queue_push(q, t, TT_TQ_FOREVER);
	expect_error(ret, -EPIPE, "the consumer process");
	expect_error(tt_tensor_queue_push(q, t, TT_TQ_NONBLOCK), -EPIPE,
		     "because the process at the other end exited");
	drop(t);
}

static void test_bad_arguments(void **state)
{
	struct fix *f = *state;
	tt_tensor_queue *q = NULL;
	struct tt_shape zero = TT_SHAPE(2, 0, 4), other = TT_SHAPE(2, 33, 41);
	tt_tensor *t;

	expect_error(tt_tensor_queue_create(NULL, &SHAPE, TT_FLOAT16_B, 2,
					    f->placement, &q),
		     -EINVAL, "device is NULL");
	expect_error(tt_tensor_queue_create(f->dev, &SHAPE, TT_FLOAT16_B, 0,
					    f->placement, &q),
		     -EINVAL, "depth 0 is not in 1..65536");
	expect_error(tt_tensor_queue_create(f->dev, &SHAPE, TT_FLOAT16_B, 70000,
					    f->placement, &q),
		     -EINVAL, "depth 70000");
	expect_error(tt_tensor_queue_create(f->dev, &SHAPE, TT_FLOAT16_B, 2,
					    (enum tt_queue_placement)7, &q),
		     -EINVAL, "placement 7");
	expect_error(tt_tensor_queue_create(f->dev, &zero, TT_FLOAT16_B, 2,
					    f->placement, &q),
		     -EINVAL, "dimension 1 is 0");
	assert_int_not_equal(tt_tensor_queue_create(f->dev, &SHAPE, TT_BFP8, 2,
						    f->placement, &q),
			     0);
	assert_null(q);
	q = make_queue(f, 2);
	assert_int_equal(
		tt_tensor_create(&other, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t),
		0);
	hold(t);
	expect_error(tt_tensor_queue_push(q, t, TT_TQ_NONBLOCK), -EINVAL,
		     "[2,33,41] Float32 row-major does not fit");
	expect_error(tt_tensor_queue_read(q, t, TT_TQ_NONBLOCK), -EINVAL,
		     "does not fit");
	expect_error(tt_tensor_queue_push(q, NULL, 0), -EINVAL,
		     "tensor is NULL");
	drop(t);
	t = entry(0);
	expect_error(tt_tensor_queue_push(q, t, -5), -EINVAL,
		     "timeout -5 ms is negative");
	expect_error(tt_tensor_queue_get(q, 0, NULL), -EINVAL, "out is NULL");
	expect_error(tt_tensor_queue_pop(NULL), -EINVAL, "queue is NULL");
	drop(t);
	tt_tensor_queue_free(NULL);
}

/* ---- counters at the wrap point ---- */

/* Where the counters of a queue of depth d wrap (hw/tqueue.h), computed
 * here independently of the library. */
static uint32_t wrap_of(uint32_t d)
{
	return (uint32_t)(0xFFFFFFFFull / d * d);
}

#define SMALL TT_SHAPE(32, 32) /* one UInt8 tile: 1 KiB slots */

/* NULL only on kmd when the guest's kernel has no 64 MiB of contiguous
 * DMA memory for a host queue of depth 65535 (dma_alloc_coherent). */
static tt_tensor_queue *make_small(struct fix *f, unsigned depth)
{
	tt_tensor_queue *q;
	int ret = tt_tensor_queue_create(f->dev, &SMALL, TT_UINT8, depth,
					 f->placement, &q);

	if (ret == -ENOMEM && test_on_kmd() && f->placement == TT_QUEUE_HOST) {
		print_message("# depth %u: no DMA buffer of %zu bytes on kmd, "
			      "not tested\n",
			      depth, (size_t)depth * 1024);
		return NULL;
	}
	assert_int_equal(ret, 0);
	return hold_queue(q);
}

static uint8_t small_byte(unsigned n, size_t i)
{
	return (uint8_t)((n * 131u + i * 7u) % 251u);
}

static void push_small(tt_tensor_queue *q, unsigned n)
{
	tt_tensor *t;
	uint8_t *p;

	assert_int_equal(
		tt_tensor_create(&SMALL, TT_UINT8, TT_TENSOR_TILED, &t), 0);
	hold(t);
	p = tt_tensor_data(t);
	for (size_t i = 0; i < tt_tensor_size(t); i++)
		p[i] = small_byte(n, i);
	assert_int_equal(tt_tensor_queue_push(q, t, TT_TQ_NONBLOCK), 0);
	drop(t);
}

static void pop_small(tt_tensor_queue *q, unsigned n)
{
	tt_tensor *t;
	const uint8_t *p;

	assert_int_equal(tt_tensor_queue_get(q, TT_TQ_NONBLOCK, &t), 0);
	hold(t);
	p = tt_tensor_data(t);
	for (size_t i = 0; i < tt_tensor_size(t); i++)
		if (p[i] != small_byte(n, i))
			fail_msg("entry %u byte %zu: %u, not %u", n, i, p[i],
				 small_byte(n, i));
	drop(t);
	assert_int_equal(tt_tensor_queue_pop(q), 0);
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

/*
 * Depth d, counters started just below the wrap point W: entries
 * streamed two ahead across the wrap, then the queue filled exactly to
 * full across the wrap (a further push is refused) and emptied in order. Every
 * entry comes back in order with its contents. Depth 65535 starts with
 * d - 3 entries already counted (their slots unchecked) and skips them
 * before popping, so that 3 pushes fill it.
 */
static void wrap_case(struct fix *f, uint32_t d)
{
	tt_tensor_queue *q = make_small(f, d);
	uint32_t w = wrap_of(d), pre = d > 16 ? d - 3 : 0, mine = d - pre;
	uint32_t rd0 = w - pre - (mine + 1) / 2, wr0 = rd0 + pre;
	uint32_t lag = d < 2 ? d : 2, wr;
	tt_tensor *t;

	if (!q)
		return;
	/* Two ahead (one for depth 1) across the wrap. */
	assert_int_equal(tt_tensor_queue_set_counters(q, w - 3, w - 3), 0);
	for (unsigned n = 0; n < 10; n++) {
		push_small(q, 100 + n);
		if (n + 1 >= lag)
			pop_small(q, 100 + n + 1 - lag);
	}
	for (unsigned n = 10 + 1 - lag; n < 10; n++)
		pop_small(q, 100 + n);
	expect_counters(q, 7, 7, 0);

	/* Exactly full across the wrap, then empty. */
	assert_int_equal(tt_tensor_queue_set_counters(q, wr0, rd0), 0);
	for (unsigned n = 0; n < mine; n++)
		push_small(q, n);
	wr = mine / 2; /* wr0 + mine - w */
	expect_counters(q, wr, rd0, d);
	assert_int_equal(
		tt_tensor_create(&SMALL, TT_UINT8, TT_TENSOR_TILED, &t), 0);
	hold(t);
	expect_error(tt_tensor_queue_push(q, t, TT_TQ_NONBLOCK), -EAGAIN,
		     "is full");
	drop(t);
	if (pre) /* skip the entries counted but never pushed */
		assert_int_equal(tt_tensor_queue_set_counters(q, wr, wr0), 0);
	for (unsigned n = 0; n < mine; n++)
		pop_small(q, n);
	expect_counters(q, wr, wr, 0);
}

static void test_counter_wrap(void **state)
{
	static const uint32_t depths[] = {3, 1, 7, 8, 65535};

	for (unsigned i = 0; i < sizeof(depths) / sizeof(depths[0]); i++)
		wrap_case(*state, depths[i]);
}

/* A header whose counters a device (or a peer) left out of range is
 * refused with a message naming the queue and the value. */
static void test_hostile_counters(void **state)
{
	tt_tensor_queue *q = make_queue(*state, 4);
	struct tt_tensor_queue_state st;
	tt_tensor *t = entry(0), *out = NULL;
	uint32_t w = wrap_of(4);

	assert_int_equal(tt_tensor_queue_set_counters(q, w, 0), 0);
	expect_error(tt_tensor_queue_push(q, t, TT_TQ_NONBLOCK), -EPROTO,
		     "queue [2,33,40] Float16_b x4: bad header: wr 4294967292");
	expect_error(tt_tensor_queue_state(q, &st), -EPROTO, "wr 4294967292");
	assert_int_equal(tt_tensor_queue_set_counters(q, 1, 0xFFFFFFFFu), 0);
	expect_error(tt_tensor_queue_get(q, TT_TQ_NONBLOCK, &out), -EPROTO,
		     "bad header: rd 4294967295");
	assert_null(out);
	/* In range, but 5 entries in 4 slots. */
	assert_int_equal(tt_tensor_queue_set_counters(q, 2, w - 3), 0);
	expect_error(tt_tensor_queue_read(q, t, TT_TQ_NONBLOCK), -EPROTO,
		     "wr 2 and rd 4294967289 count 5 entries");
	expect_error(tt_tensor_queue_pop(q), -EPROTO, "more than depth 4");
	expect_error(tt_tensor_queue_push(q, t, TT_TQ_FOREVER), -EPROTO,
		     "count 5 entries");
	/* A reset makes it usable again. */
	assert_int_equal(tt_tensor_queue_reset(q), 0);
	push(q, 3, TT_TQ_NONBLOCK);
	pop_check(q, 3, TT_TQ_NONBLOCK);
	drop(t);
}

/* ---- transports and placements ---- */

static struct fix fixes[2][2]; /* [ttsim][placement] */

/* On the host, the embedded model; in the VM guest (TT_TEST_TRANSPORT=kmd,
 * tests/vm), the device behind tenstorrent.ko. */
static int embedded_up(void **state)
{
	void *dev = NULL;
	int ret = booted_up(&dev);

	(void)state;
	embedded_dev = dev;
	return ret;
}

static int ttsim_up(void **state)
{
	(void)state;
	if (!test_rundir(rundir, sizeof(rundir)) ||
	    run_ttsim("start --board n150 --name tq") != 0)
		return -1;
	setenv("TT_TRANSPORT", "ttsim", 1);
	return tt_device_open(0, &ttsim_dev) ? -1 : 0;
}

static int embedded_down(void **state)
{
	(void)state;
	tt_device_close(embedded_dev);
	return 0;
}

static int ttsim_down(void **state)
{
	(void)state;
	tt_device_close(ttsim_dev);
	return ttsim_clean_up(rundir, true);
}

/* Per-case set-up: the fixture of the case's transport and placement,
 * chosen by its initial state. */
static int pick(void **state)
{
	uintptr_t k = (uintptr_t)*state;
	struct fix *f = &fixes[k >> 1][k & 1];

	f->dev = k >> 1 ? ttsim_dev : embedded_dev;
	f->placement = (k & 1) ? TT_QUEUE_HOST : TT_QUEUE_DRAM;
	*state = cur = f;
	return 0;
}

/* Per-case teardown, also after a failed case: the child killed, the
 * queues broken (a waiting thread returns), the threads joined, then
 * every tensor and queue freed. */
static int unpick(void **state)
{
	struct fix *f = *state;

	if (f->child > 0) {
		kill(f->child, SIGKILL);
		waitpid(f->child, NULL, 0);
		f->child = 0;
	}
	for (int i = 0; i < MAX_HELD; i++)
		if (f->queues[i])
			tt_tensor_queue_break(f->queues[i]);
	for (int i = 0; i < 2; i++)
		if (f->thread_live[i]) {
			pthread_join(f->threads[i], NULL);
			f->thread_live[i] = false;
		}
	for (int i = 0; i < MAX_HELD; i++) {
		tt_tensor_free(f->tensors[i]);
		f->tensors[i] = NULL;
		tt_tensor_queue_free(f->queues[i]);
		f->queues[i] = NULL;
	}
	cur = NULL;
	return 0;
}

/* Initial state k: bit 1 ttsim, bit 0 host placement. */
#define CASE(fn, k, where)                                                     \
	{                                                                      \
#fn "_" where, fn, pick, unpick, (void *)(uintptr_t)(k)        \
	}
#define BOTH(fn, b) CASE(fn, (b), "dram"), CASE(fn, (b) + 1, "host")
#define ALL(b)                                                                 \
	BOTH(test_create_geometry, b), BOTH(test_wrap_around, b),              \
		BOTH(test_get_peeks, b), BOTH(test_full_and_empty, b),         \
		BOTH(test_timeouts, b), BOTH(test_broken_and_reset, b),        \
		BOTH(test_break_wakes_waiter, b),                              \
		BOTH(test_threads_stream, b),                                  \
		CASE(test_killed_producer, (b) + 1, "host"),                   \
		CASE(test_killed_consumer, (b) + 1, "host"),                   \
		BOTH(test_bad_arguments, b), BOTH(test_counter_wrap, b),       \
		BOTH(test_hostile_counters, b)

int main(void)
{
	const struct CMUnitTest embedded[] = {ALL(0)};
	const struct CMUnitTest ttsim[] = {ALL(2)};
	int fails;

	/* On kmd every case runs (none needs a kernel), in one group. */
	if (test_on_kmd())
		return cmocka_run_group_tests_name("tensor_queue_kmd", embedded,
						   embedded_up, embedded_down);
	fails = cmocka_run_group_tests_name("tensor_queue_embedded", embedded,
					    embedded_up, embedded_down);
	return fails + cmocka_run_group_tests_name("tensor_queue_ttsim", ttsim,
						   ttsim_up, ttsim_down);
}
