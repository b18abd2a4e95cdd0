/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tensor queues from a data-movement kernel (docs/queues.md; the layout
 * is hw/tqueue.h, the host side tt/tensor_queue.h).
 *
 *   tq_t q;
 *   tq_open(&q, first_arg, TQ_CONSUMER)   handle from TT_TQ_ARGS runtime
 *                                         args (tt_tensor_queue_kernel_args)
 *   tq_wait_entry(&q, timeout_us)         0, TQ_EPIPE or TQ_ETIMEDOUT
 *   tq_entry_addr(&q)                     NOC address of the head entry
 *   tq_tile_addr(&q, tile_bytes, i)       ... of its tile i
 *   tq_pop(&q)                            mark the head consumed
 *   tq_wait_free(&q, timeout_us)          (producer) a slot is free
 *   tq_free_addr(&q)                      NOC address of that slot
 *   tq_push(&q)                           mark it produced
 *   tq_break(&q)                          mark the queue broken
 *   tq_broken(&q)                         non-zero once broken
 *   tq_close(&q)                          before the kernel returns
 *
 * timeout_us 0 waits until the condition holds or the queue is broken.
 * A waiting kernel sleeps on its bell, a word of the handle in its own L1
 * that the other side writes after each push or pop (hw/tqueue.h), and
 * looks at the time every TQ_POLL_US: it costs the host nothing.
 *
 * Ordering. The kernel reads an entry with noc_async_read and must wait
 * for those reads (noc_async_read_barrier) before tq_pop; tq_push waits
 * for the kernel's writes itself before it publishes the entry.
 *
 * The handle must stay in L1 (a local or global variable) and the kernel
 * must call tq_close before it returns, so that nobody rings a bell in
 * memory the next kernel owns.
 */
#ifndef TT_KERNEL_API_TENSOR_QUEUE_H
#define TT_KERNEL_API_TENSOR_QUEUE_H

#include "debug/waypoint.h"
#include "fw/hart.h"
#include "hw/tqueue.h"
#include "kernel_api/args.h"
#include "kernel_api/noc.h"

#define TQ_EPIPE (-32)
#define TQ_ETIMEDOUT (-110)
#define TQ_POLL_US 2000u

enum tq_role { TQ_CONSUMER = 0, TQ_PRODUCER = 1 };

typedef struct tq {
	/* Written by the other side (the bell); first, 16-byte aligned. */
	volatile uint32_t bell[4];
	/* NOC transfers to and from the header go through here. */
	uint32_t stage[16];
	uint64_t hdr; /* NOC address of the header */
	uint32_t depth, slot_size;
	uint32_t wrap;	       /* tt_tq_wrap(depth), computed once */
	uint32_t wr, rd;       /* this side's counter is current */
	uint32_t peer_at_open; /* the other side's counter at tq_open */
	uint32_t role;
} __attribute__((aligned(16))) tq_t;

static inline uint32_t ttk_tq_l1(const volatile void *p)
{
	return (uint32_t)(uintptr_t)p;
}

static inline void ttk_tq_read_header(tq_t *q)
{
	noc_async_read(q->hdr, ttk_tq_l1(q->stage), TT_TQ_HEADER_SIZE);
	noc_async_read_barrier();
}

static inline void ttk_tq_write(tq_t *q, uint32_t off, uint32_t len)
{
	noc_async_write(ttk_tq_l1(q->stage), q->hdr + off, len);
	noc_async_write_barrier();
}

/* Entries in the queue if the producer's counter is wr and the
 * consumer's rd. */
static inline uint32_t ttk_tq_fill(const tq_t *q, uint32_t wr, uint32_t rd)
{
	return tt_tq_fill(wr, rd, q->wrap);
}

/* The other side's counter as far as we know it: the later of its value
 * at open and the last one rung on the bell. "Later" is judged against
 * our own counter, which the peer's is never more than depth away from
 * (the consumer's wr is 0..depth entries ahead of rd, the producer's rd
 * 0..depth behind wr), so it holds across the wrap; a bell not rung yet
 * (TT_TQ_BELL_NONE) or out of range counts as not rung. */
static inline uint32_t ttk_tq_peer(const tq_t *q)
{
	uint32_t b = q->bell[TT_TQ_BELL_COUNT_OFF / 4], a = q->peer_at_open;
	uint32_t fa, fb;

	if (b >= q->wrap)
		return a;
	if (q->role == TQ_CONSUMER) { /* wr: more entries is later */
		fa = ttk_tq_fill(q, a, q->rd);
		fb = ttk_tq_fill(q, b, q->rd);
		if (fb > q->depth)
			return a;
		return fa > q->depth || fb > fa ? b : a;
	}
	/* rd: fewer entries is later */
	fa = ttk_tq_fill(q, q->wr, a);
	fb = ttk_tq_fill(q, q->wr, b);
	if (fb > q->depth)
		return a;
	return fa > q->depth || fb < fa ? b : a;
}

static inline bool ttk_tq_ready(const tq_t *q)
{
	uint32_t peer = ttk_tq_peer(q);

	return q->role == TQ_CONSUMER ? peer != q->rd
				      : ttk_tq_fill(q, q->wr, peer) < q->depth;
}

static inline void tq_open(tq_t *q, uint32_t arg, enum tq_role role)
{
	uint32_t xy = get_arg_val(arg + TT_TQ_ARG_XY);
	uint64_t addr = (uint64_t)get_arg_val(arg + TT_TQ_ARG_ADDR_HI) << 32 |
			get_arg_val(arg + TT_TQ_ARG_ADDR_LO);
	uint64_t bell = get_noc_addr(ttk_tq_l1(q->bell));
	const struct tt_tq_header *h = (const struct tt_tq_header *)q->stage;

	q->hdr = ttk_noc_xy(xy & 0xFFFF, xy >> 16, 0) |
		 (addr & TTK_NOC_LOCAL_MASK);
	q->depth = get_arg_val(arg + TT_TQ_ARG_DEPTH);
	q->slot_size = get_arg_val(arg + TT_TQ_ARG_SLOT_SIZE);
	q->role = role;
	for (int i = 0; i < 4; i++)
		q->bell[i] = 0;
	q->bell[TT_TQ_BELL_COUNT_OFF / 4] = TT_TQ_BELL_NONE;
	ttk_tq_read_header(q);
	if (h->magic != TT_TQ_MAGIC || h->version != TT_TQ_VERSION ||
	    h->depth != q->depth || !q->depth || h->slot_size != q->slot_size)
		ttk_fatal("tensor queue at 0x%x: bad header (magic 0x%x depth "
			  "%u slot %u)",
			  (unsigned)q->hdr, (unsigned)h->magic,
			  (unsigned)h->depth, (unsigned)h->slot_size);
	q->wrap = tt_tq_wrap(q->depth); /* depth >= 1: the header said so */
	/* Publish the bell, then read the peer's counter: a push that
	 * missed the bell is seen here (hw/tqueue.h). */
	q->stage[0] = (uint32_t)bell;
	q->stage[1] = (uint32_t)(bell >> 32);
	ttk_tq_write(q,
		     role == TQ_CONSUMER ? TT_TQ_CONS_BELL_OFF
					 : TT_TQ_PROD_BELL_OFF,
		     8);
	q->stage[0] = 0; /* no host process on this side */
	ttk_tq_write(q,
		     role == TQ_CONSUMER ? TT_TQ_CONS_PID_OFF
					 : TT_TQ_PROD_PID_OFF,
		     4);
	ttk_tq_read_header(q);
	/* Nothing in the header is trusted (hw/tqueue.h). */
	if (h->wr >= q->wrap || h->rd >= q->wrap ||
	    ttk_tq_fill(q, h->wr, h->rd) > q->depth)
		ttk_fatal("tensor queue at 0x%x: bad header: wr %u rd %u "
			  "(depth %u, counters wrap at %u)",
			  (unsigned)q->hdr, (unsigned)h->wr, (unsigned)h->rd,
			  (unsigned)q->depth, (unsigned)q->wrap);
	q->wr = h->wr;
	q->rd = h->rd;
	q->peer_at_open = role == TQ_CONSUMER ? h->wr : h->rd;
	q->bell[TT_TQ_BELL_BROKEN_OFF / 4] = h->broken;
}

static inline uint32_t tq_broken(const tq_t *q)
{
	return q->bell[TT_TQ_BELL_BROKEN_OFF / 4];
}

/* Sleep until ready, broken, or the deadline (0: none). */
static inline int ttk_tq_wait(tq_t *q, uint32_t timeout_us)
{
	uint64_t now, end = 0;
	int ret;

	if (TTK_LIKELY(ttk_tq_ready(q) && !tq_broken(q))) {
		ttk_fence();
		return 0;
	}
	WAYPOINT("TQW");
	if (timeout_us)
		end = hart_time_us() + timeout_us;
	for (;;) {
		uint32_t seen = q->bell[TT_TQ_BELL_COUNT_OFF / 4];
		uint64_t wake;

		if (tq_broken(q)) {
			ret = TQ_EPIPE;
			break;
		}
		if (ttk_tq_ready(q)) {
			ret = 0;
			break;
		}
		now = hart_time_us();
		if (end && now >= end) {
			ret = TQ_ETIMEDOUT;
			break;
		}
		wake = now + TQ_POLL_US;
		hart_set_wake_at(end && end < wake ? end : wake);
		tt_wait_ne(&q->bell[TT_TQ_BELL_COUNT_OFF / 4], seen);
	}
	hart_set_wake_at(0);
	WAYPOINT("TQD");
	ttk_fence();
	return ret;
}

static inline int tq_wait_entry(tq_t *q, uint32_t timeout_us)
{
	return ttk_tq_wait(q, timeout_us);
}

static inline int tq_wait_free(tq_t *q, uint32_t timeout_us)
{
	return ttk_tq_wait(q, timeout_us);
}

/* Entry n's slot: continuous across the wrap (a multiple of depth). */
static inline uint64_t ttk_tq_slot(const tq_t *q, uint32_t n)
{
	return q->hdr + TT_TQ_HEADER_SIZE + (n % q->depth) * q->slot_size;
}

static inline uint64_t tq_entry_addr(const tq_t *q)
{
	return ttk_tq_slot(q, q->rd);
}

static inline uint64_t tq_free_addr(const tq_t *q)
{
	return ttk_tq_slot(q, q->wr);
}

/* Tile i of the current entry (consumer) or slot (producer). */
static inline uint64_t tq_tile_addr(const tq_t *q, uint32_t tile_bytes,
				    uint32_t i)
{
	return ttk_tq_slot(q, q->role == TQ_CONSUMER ? q->rd : q->wr) +
	       i * tile_bytes;
}

/* Store our counter, then tell the other side: its bell if it is a
 * kernel, else the host's interrupt. */
static inline void ttk_tq_publish(tq_t *q, uint32_t off, uint32_t val,
				  uint32_t bell_off)
{
	uint64_t bell;

	q->stage[0] = val;
	ttk_tq_write(q, off, 4);
	noc_async_read(q->hdr + bell_off, ttk_tq_l1(&q->stage[4]), 8);
	noc_async_read_barrier();
	bell = (uint64_t)q->stage[5] << 32 | q->stage[4];
	if (bell) {
		noc_inline_dw_write(bell + TT_TQ_BELL_COUNT_OFF, val);
		noc_async_write_barrier();
	} else {
		hart_host_irq();
	}
}

static inline void tq_pop(tq_t *q)
{
	noc_async_read_barrier(); /* the entry is read before it is freed */
	q->rd = tt_tq_next(q->rd, q->wrap);
	ttk_tq_publish(q, TT_TQ_RD_OFF, q->rd, TT_TQ_PROD_BELL_OFF);
}

static inline void tq_push(tq_t *q)
{
	noc_async_write_barrier(); /* the entry lands before wr says so */
	q->wr = tt_tq_next(q->wr, q->wrap);
	ttk_tq_publish(q, TT_TQ_WR_OFF, q->wr, TT_TQ_CONS_BELL_OFF);
}

static inline void tq_break(tq_t *q)
{
	const struct tt_tq_header *h = (const struct tt_tq_header *)q->stage;
	uint64_t bells[2];

	q->bell[TT_TQ_BELL_BROKEN_OFF / 4] = TT_TQ_BROKEN_KERNEL;
	q->stage[0] = TT_TQ_BROKEN_KERNEL;
	ttk_tq_write(q, TT_TQ_BROKEN_OFF, 4);
	ttk_tq_read_header(q);
	bells[0] = h->cons_bell;
	bells[1] = h->prod_bell;
	for (int i = 0; i < 2; i++)
		if (bells[i])
			noc_inline_dw_write(bells[i] + TT_TQ_BELL_BROKEN_OFF,
					    TT_TQ_BROKEN_KERNEL);
	noc_async_write_barrier();
	hart_host_irq();
}

/* Withdraw the bell (if the header still names ours). */
static inline void tq_close(tq_t *q)
{
	const struct tt_tq_header *h = (const struct tt_tq_header *)q->stage;
	uint32_t off = q->role == TQ_CONSUMER ? TT_TQ_CONS_BELL_OFF
					      : TT_TQ_PROD_BELL_OFF;
	uint64_t mine = get_noc_addr(ttk_tq_l1(q->bell));

	ttk_tq_read_header(q);
	if ((q->role == TQ_CONSUMER ? h->cons_bell : h->prod_bell) != mine)
		return;
	q->stage[0] = 0;
	q->stage[1] = 0;
	ttk_tq_write(q, off, 8);
}

#endif /* TT_KERNEL_API_TENSOR_QUEUE_H */
