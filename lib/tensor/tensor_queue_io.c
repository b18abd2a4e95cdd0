// SPDX-License-Identifier: Apache-2.0
/*
 * Tensor queues, the data path: the header as both placements store it,
 * waiting for an entry or a free slot, push, get, read and pop
 * (tt/tensor_queue.h; the protocol is hw/tqueue.h).
 *
 * Host queues live in memory this process maps (and a forked child may
 * share): counters are loaded with acquire and stored with release, and
 * a store of ours is followed by a full fence before we look at the
 * other side's bell or waiters (hw/tqueue.h: store first, read second).
 * DRAM queues go through synchronous NOC transfers, which the device
 * carries out in order.
 */
#include <errno.h>
#include <linux/futex.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lib/device/fw.h"
#include "tensor_queue_internal.h"

/* Longest sleep when the peer may not wake us: a host process on a DRAM
 * queue, or a peer not known yet (a kernel that has not opened the queue
 * raises the host interrupt; a host process wakes only futex sleepers). */
#define TQ_POLL_MS 1

int tt_tensor_queue_hdr_check(struct tt_tensor_queue *q,
			      const struct tt_tq_header *h, const char *call)
{
	uint32_t fill;

	if (h->wr >= q->wrap || h->rd >= q->wrap)
		return tt_error(-EPROTO,
				"%s: %s: bad header: %s %u is not below %u, "
				"where the counters wrap",
				call, q->name, h->wr >= q->wrap ? "wr" : "rd",
				h->wr >= q->wrap ? h->wr : h->rd, q->wrap);
	fill = tt_tq_fill(h->wr, h->rd, q->wrap);
	if (fill > q->depth)
		return tt_error(-EPROTO,
				"%s: %s: bad header: wr %u and rd %u count %u "
				"entries, more than depth %u",
				call, q->name, h->wr, h->rd, fill, q->depth);
	return 0;
}

static uint32_t *hword(struct tt_tensor_queue *q, uint32_t off)
{
	return (uint32_t *)(void *)(q->mem + off);
}

int tt_tensor_queue_hdr_read(struct tt_tensor_queue *q, struct tt_tq_header *h)
{
	if (q->placement == TT_QUEUE_DRAM)
		return tt_read_from_buffer_region(q->buf, 0, h, sizeof(*h));
	/* Field by field with acquire: each counter before what it
	 * publishes. */
	for (uint32_t off = 0; off < sizeof(*h); off += 4) {
		uint32_t v = __atomic_load_n(hword(q, off), __ATOMIC_ACQUIRE);

		memcpy((uint8_t *)h + off, &v, 4);
	}
	return 0;
}

int tt_tensor_queue_hdr_write32(struct tt_tensor_queue *q, uint32_t off, uint32_t val)
{
	if (q->placement == TT_QUEUE_DRAM)
		return tt_write_to_buffer_region(q->buf, off, &val, 4);
	__atomic_store_n(hword(q, off), val, __ATOMIC_RELEASE);
	/* Our store before any later look at the other side's words. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return 0;
}

int tt_tensor_queue_ring_bell(struct tt_tensor_queue *q, uint64_t bell, uint32_t off,
		    uint32_t val)
{
	unsigned x = (unsigned)(bell >> 36) & 0x3F,
		 y = (unsigned)(bell >> 42) & 0x3F;

	return tt_noc_write32(q->dev, 0, x, y,
			      (bell & ((1ull << 36) - 1)) + off, val);
}

static long futex(uint32_t *word, int op, uint32_t val,
		  const struct timespec *ts)
{
	return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

void tt_tensor_queue_wake(struct tt_tensor_queue *q, uint32_t off)
{
	if (q->placement != TT_QUEUE_HOST)
		return;
	if (__atomic_load_n(hword(q, TT_TQ_WAITERS_OFF), __ATOMIC_SEQ_CST))
		futex(hword(q, off), FUTEX_WAKE, INT32_MAX, NULL);
}

static const char *breaker(uint32_t reason)
{
	switch (reason) {
	case TT_TQ_BROKEN_HOST:
		return "by the host (tt_tensor_queue_break)";
	case TT_TQ_BROKEN_KERNEL:
		return "by a device kernel (tq_break)";
	case TT_TQ_BROKEN_PEER_GONE:
		return "because the process at the other end exited";
	default:
		return "(unknown reason)";
	}
}

int tt_tensor_queue_broken_error(struct tt_tensor_queue *q, uint32_t reason,
		       const char *call)
{
	return tt_error(-EPIPE, "%s: %s is broken: marked %s (reason %u)", call,
			q->name, breaker(reason), reason);
}

int tt_tensor_queue_mark_broken(struct tt_tensor_queue *q, uint32_t reason)
{
	struct tt_tq_header h;

	tt_tensor_queue_hdr_write32(q, TT_TQ_BROKEN_OFF, reason);
	if (!tt_tensor_queue_hdr_read(q, &h)) {
		/* Kernels asleep on their bells look at its broken word. */
		if (h.cons_bell)
			tt_tensor_queue_ring_bell(q, h.cons_bell, TT_TQ_BELL_BROKEN_OFF,
					reason);
		if (h.prod_bell)
			tt_tensor_queue_ring_bell(q, h.prod_bell, TT_TQ_BELL_BROKEN_OFF,
					reason);
	}
	tt_tensor_queue_wake(q, TT_TQ_WR_OFF);
	tt_tensor_queue_wake(q, TT_TQ_RD_OFF);
	return -EPIPE;
}

/* ---- waiting ---- */

struct tq_wait {
	bool entry; /* for an entry (consumer), else a free slot */
	const char *call;
	int timeout_ms;
	int64_t deadline;
};

static bool ready(const struct tt_tensor_queue *q, const struct tt_tq_header *h,
		  bool entry)
{
	return entry ? h->wr != h->rd
		     : tt_tq_fill(h->wr, h->rd, q->wrap) < q->depth;
}

/* Is the host process at the other end gone? A zombie counts as alive
 * until reaped, as kill() sees it. */
static bool peer_gone(const struct tt_tq_header *h, bool entry)
{
	uint32_t pid = entry ? h->prod_pid : h->cons_pid;

	if (!pid || pid == (uint32_t)getpid())
		return false;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

static void sleep_slice(struct tt_tensor_queue *q, const struct tt_tq_header *h,
			bool entry, uint32_t irq_seen, int ms)
{
	uint64_t peer_bell = entry ? h->prod_bell : h->cons_bell;
	uint32_t peer_pid = entry ? h->prod_pid : h->cons_pid;
	uint32_t off = entry ? TT_TQ_WR_OFF : TT_TQ_RD_OFF;
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};

	if (peer_bell) { /* a kernel: it interrupts after each push/pop */
		q->dev->ops->irq_wait(q->dev, irq_seen, ms);
	} else if (q->placement == TT_QUEUE_HOST && peer_pid) {
		__atomic_fetch_add(hword(q, TT_TQ_WAITERS_OFF), 1,
				   __ATOMIC_SEQ_CST);
		futex(hword(q, off), FUTEX_WAIT, entry ? h->wr : h->rd, &ts);
		__atomic_fetch_sub(hword(q, TT_TQ_WAITERS_OFF), 1,
				   __ATOMIC_SEQ_CST);
	} else {
		q->dev->ops->irq_wait(q->dev, irq_seen,
				      ms < TQ_POLL_MS ? ms : TQ_POLL_MS);
	}
}

/* Wait until w says; *h is the header that satisfied it. */
static int tq_wait(struct tt_tensor_queue *q, struct tq_wait *w,
		   struct tt_tq_header *h)
{
	for (;;) {
		uint32_t seen = q->dev->ops->irq_seq(q->dev);
		int64_t left;
		int ret = tt_tensor_queue_hdr_read(q, h);

		if (ret)
			return ret;
		if (h->broken)
			return tt_tensor_queue_broken_error(q, h->broken, w->call);
		ret = tt_tensor_queue_hdr_check(q, h, w->call);
		if (ret)
			return ret;
		if (ready(q, h, w->entry))
			return 0;
		if (w->timeout_ms == TT_TQ_NONBLOCK)
			return tt_error(-EAGAIN, "%s: %s is %s", w->call,
					q->name, w->entry ? "empty" : "full");
		if (peer_gone(h, w->entry)) {
			tt_tensor_queue_mark_broken(q, TT_TQ_BROKEN_PEER_GONE);
			return tt_error(
				-EPIPE,
				"%s: %s is broken: the %s process %u exited",
				w->call, q->name,
				w->entry ? "producer" : "consumer",
				w->entry ? h->prod_pid : h->cons_pid);
		}
		left = w->deadline == INT64_MAX ? TT_FW_POLL_MS
						: w->deadline - tt_fw_now_ms();
		if (left <= 0)
			return tt_error(
				-ETIMEDOUT,
				"%s: %s: no %s within %d ms (wr %u, rd %u)",
				w->call, q->name,
				w->entry ? "entry" : "free slot", w->timeout_ms,
				h->wr, h->rd);
		sleep_slice(q, h, w->entry, seen,
			    left < TT_FW_POLL_MS ? (int)left : TT_FW_POLL_MS);
	}
}

static int wait_for(struct tt_tensor_queue *q, bool entry, int timeout_ms,
		    const char *call, struct tt_tq_header *h)
{
	struct tq_wait w = {
		.entry = entry,
		.call = call,
		.timeout_ms = timeout_ms,
		.deadline = timeout_ms < 0 ? INT64_MAX
					   : tt_fw_now_ms() + timeout_ms,
	};

	if (timeout_ms < TT_TQ_FOREVER)
		return tt_error(-EINVAL, "%s: timeout %d ms is negative", call,
				timeout_ms);
	return tq_wait(q, &w, h);
}

/* Our pid as this side's process, once per process (a forked child
 * stores its own). */
static int claim_side(struct tt_tensor_queue *q, bool producer)
{
	int pid = getpid();

	if (q->pid_stored[producer] == pid)
		return 0;
	q->pid_stored[producer] = pid;
	return tt_tensor_queue_hdr_write32(
		q, producer ? TT_TQ_PROD_PID_OFF : TT_TQ_CONS_PID_OFF,
		(uint32_t)pid);
}

/* Store the counter, then tell the other side: its bell (a kernel) or
 * its futex (a host thread). */
static int publish(struct tt_tensor_queue *q, bool producer, uint32_t val)
{
	uint32_t off = producer ? TT_TQ_WR_OFF : TT_TQ_RD_OFF;
	struct tt_tq_header h;
	uint64_t bell;
	int ret = tt_tensor_queue_hdr_write32(q, off, val);

	if (!ret)
		ret = tt_tensor_queue_hdr_read(q, &h);
	if (ret)
		return ret;
	bell = producer ? h.cons_bell : h.prod_bell;
	if (bell)
		ret = tt_tensor_queue_ring_bell(q, bell, TT_TQ_BELL_COUNT_OFF, val);
	tt_tensor_queue_wake(q, off);
	return ret;
}

/* Entry n's slot; continuous across the wrap, as the wrap point is a
 * multiple of depth (hw/tqueue.h). n < wrap: tq_wait checked it. */
static uint64_t slot_off(const struct tt_tensor_queue *q, uint32_t n)
{
	return TT_TQ_HEADER_SIZE + (uint64_t)(n % q->depth) * q->slot_size;
}

static int check_tensor(struct tt_tensor_queue *q, const tt_tensor *t,
			const char *call)
{
	char d[TT_DESC_LEN];

	if (!q || !t)
		return tt_error(-EINVAL, "%s: %s is NULL", call,
				q ? "tensor" : "queue");
	if (!tt_tgeom_same(&q->g, &t->g))
		return tt_error(-EINVAL, "%s: %s does not fit %s", call,
				tt_tensor_describe(t, d, sizeof(d)), q->name);
	return 0;
}

/* ---- producer ---- */

static int fill_slot(struct tt_tensor_queue *q, const tt_tensor *t,
		     uint64_t off)
{
	bool same = t->fmt == q->fmt && t->layout == TT_TENSOR_TILED;
	uint8_t *dst =
		q->placement == TT_QUEUE_HOST ? q->mem + off : q->stage_in;
	int ret = 0;

	/* The queue's own form: a plain copy, no conversion pass. */
	if (same && q->placement == TT_QUEUE_HOST) {
		memcpy(dst, t->data, q->entry_size);
		return 0;
	}
	if (same)
		return tt_write_to_buffer_region(q->buf, off, t->data,
						 q->entry_size);
	ret = tt_tensor_export(t, q->fmt, TT_TENSOR_TILED, dst, q->entry_size);
	if (!ret && q->placement == TT_QUEUE_DRAM)
		ret = tt_write_to_buffer_region(q->buf, off, dst,
						q->entry_size);
	return ret;
}

int tt_tensor_queue_push(tt_tensor_queue *q, const tt_tensor *t, int timeout_ms)
{
	static const char call[] = "tt_tensor_queue_push";
	struct tt_tq_header h;
	int ret = check_tensor(q, t, call);

	if (!ret)
		ret = claim_side(q, true);
	if (!ret)
		ret = wait_for(q, false, timeout_ms, call, &h);
	if (!ret)
		ret = fill_slot(q, t, slot_off(q, h.wr));
	if (!ret)
		ret = publish(q, true, tt_tq_next(h.wr, q->wrap));
	return ret;
}

/* ---- consumer ---- */

static int head(struct tt_tensor_queue *q, int timeout_ms, const char *call,
		uint64_t *off)
{
	struct tt_tq_header h;
	int ret = claim_side(q, false);

	if (!ret)
		ret = wait_for(q, true, timeout_ms, call, &h);
	if (!ret)
		*off = slot_off(q, h.rd);
	return ret;
}

int tt_tensor_queue_get(tt_tensor_queue *q, int timeout_ms, tt_tensor **out)
{
	static const char call[] = "tt_tensor_queue_get";
	tt_tensor *t = NULL;
	uint64_t off = 0;
	int ret;

	if (!q || !out)
		return tt_error(-EINVAL, "%s: %s is NULL", call,
				q ? "out" : "queue");
	ret = head(q, timeout_ms, call, &off);
	if (!ret)
		ret = tt_tensor_create(&q->shape, q->fmt, TT_TENSOR_TILED, &t);
	if (!ret && q->placement == TT_QUEUE_HOST)
		memcpy(t->data, q->mem + off, q->entry_size);
	else if (!ret)
		ret = tt_read_from_buffer_region(q->buf, off, t->data,
						 q->entry_size);
	if (ret) {
		tt_tensor_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

int tt_tensor_queue_read(tt_tensor_queue *q, tt_tensor *dst, int timeout_ms)
{
	static const char call[] = "tt_tensor_queue_read";
	const uint8_t *src;
	uint64_t off = 0;
	int ret = check_tensor(q, dst, call);

	if (!ret)
		ret = head(q, timeout_ms, call, &off);
	if (ret)
		return ret;
	if (dst->fmt == q->fmt && dst->layout == TT_TENSOR_TILED) {
		if (q->placement == TT_QUEUE_DRAM)
			return tt_read_from_buffer_region(
				q->buf, off, dst->data, q->entry_size);
		memcpy(dst->data, q->mem + off, q->entry_size);
		return 0;
	}
	if (q->placement == TT_QUEUE_HOST) {
		src = q->mem + off;
	} else {
		ret = tt_read_from_buffer_region(q->buf, off, q->stage_out,
						 q->entry_size);
		if (ret)
			return ret;
		src = q->stage_out;
	}
	return tt_tensor_import(dst, q->fmt, TT_TENSOR_TILED, src,
				q->entry_size);
}

int tt_tensor_queue_pop(tt_tensor_queue *q)
{
	static const char call[] = "tt_tensor_queue_pop";
	struct tt_tq_header h;
	int ret;

	if (!q)
		return tt_error(-EINVAL, "%s: queue is NULL", call);
	ret = wait_for(q, true, TT_TQ_NONBLOCK, call, &h);
	if (!ret)
		ret = publish(q, false, tt_tq_next(h.rd, q->wrap));
	return ret;
}
