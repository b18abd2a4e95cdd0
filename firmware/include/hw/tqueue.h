/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * Tensor queues: the memory layout both sides agree on (docs/queues.md).
 *
 * A queue is one contiguous block, in device DRAM (one bank) or in host
 * memory the device reaches through the PCIe core: a 64-byte header, then
 * `depth` slots of `slot_size` bytes. Slot k holds entry number n when
 * n % depth == k; an entry is one tensor in tile layout.
 *
 * wr counts entries pushed and rd entries popped, both 32-bit counters
 * that wrap at W = tt_tq_wrap(depth), the largest multiple of depth below
 * 2^32 (after W - 1 comes 0), so that entry n's slot n % depth stays
 * continuous across the wrap for every depth, powers of two or not
 * (wrapping at 2^32, depth 3 would put the entries W - 1 and W in slot 0).
 * The queue holds tt_tq_fill(wr, rd, W) entries (wr - rd modulo W): empty
 * when wr == rd, full at depth. Both sides step a counter with tt_tq_next
 * and count with tt_tq_fill. A counter >= W, or a fill above depth, is a
 * corrupt or hostile header: the host refuses it (-EPROTO, naming the
 * queue and the value), a kernel stops at tq_open (ttk_fatal).
 * Only the producer writes wr, only the consumer rd.
 * A producer writes the entry, makes it visible (barrier / release), then
 * stores wr; a consumer loads wr, reads the entry, then stores rd.
 *
 * Doorbells. A side running as a device kernel sleeps on a word in its
 * own L1 instead of polling the header over the NOC: it publishes the
 * word's NOC address in cons_bell (consumer) or prod_bell (producer).
 * The other side, after storing wr (rd), reads the peer's bell and, if it
 * is not 0, also writes the new counter to it. A bell is two words: the
 * counter, and a broken word (non-zero once the queue is broken); a
 * kernel starts its bell's counter at TT_TQ_BELL_NONE, which is never a
 * counter (W <= 0xFFFFFFFF), so that 0 is not mistaken for one. Both
 * sides store their counter first and read the other's bell (or counter)
 * second, so a bell registered concurrently with a push is either written
 * by the pusher or sees the new counter when it registers.
 * A side on the host that waits sleeps on the device's interrupts (a
 * kernel raises TT_IRQ_HART after a push or pop when the peer has no
 * bell) or, for host-memory queues between host processes, on a futex.
 *
 * Broken. Either side may store a non-zero reason in `broken`; every later
 * operation on the queue fails. prod_pid / cons_pid name the host process
 * of each side (0: none known, or a device kernel), so a host waiting on a
 * peer process that no longer exists can declare the queue broken.
 */
#ifndef TT_HW_TQUEUE_H
#define TT_HW_TQUEUE_H

#include <stdint.h>

#define TT_TQ_MAGIC 0x51455454u /* "TTEQ" */
/* 2: counters wrap at tt_tq_wrap(depth) instead of 2^32. */
#define TT_TQ_VERSION 2u
#define TT_TQ_HEADER_SIZE 64u
/* Slot sizes are multiples of this (DRAM and NOC alignment). */
#define TT_TQ_SLOT_ALIGN 64u

/* Header offsets. */
#define TT_TQ_MAGIC_OFF 0x00u
#define TT_TQ_VERSION_OFF 0x04u
#define TT_TQ_DEPTH_OFF 0x08u
#define TT_TQ_SLOT_SIZE_OFF 0x0Cu
#define TT_TQ_WR_OFF 0x10u
#define TT_TQ_RD_OFF 0x14u
#define TT_TQ_BROKEN_OFF 0x18u
#define TT_TQ_WAITERS_OFF 0x1Cu
#define TT_TQ_CONS_BELL_OFF 0x20u
#define TT_TQ_PROD_BELL_OFF 0x28u
#define TT_TQ_PROD_PID_OFF 0x30u
#define TT_TQ_CONS_PID_OFF 0x34u

struct tt_tq_header {
	uint32_t magic;
	uint32_t version;
	uint32_t depth;
	uint32_t slot_size; /* bytes, a multiple of TT_TQ_SLOT_ALIGN */
	uint32_t wr;	    /* entries pushed (producer writes) */
	uint32_t rd;	    /* entries popped (consumer writes) */
	uint32_t broken;    /* 0, or enum tt_tq_broken */
	uint32_t waiters;   /* host threads asleep on a futex of wr/rd */
	uint64_t cons_bell; /* NOC address of the consumer kernel's bell */
	uint64_t prod_bell; /* NOC address of the producer kernel's bell */
	uint32_t prod_pid;  /* host process producing, 0 if none known */
	uint32_t cons_pid;  /* host process consuming, 0 if none known */
	uint32_t reserved[2];
};

/* Who declared the queue broken. */
enum tt_tq_broken {
	TT_TQ_OK = 0,
	TT_TQ_BROKEN_HOST = 1,	 /* a host call (tt_tensor_queue_break) */
	TT_TQ_BROKEN_KERNEL = 2, /* a device kernel (tq_break) */
	TT_TQ_BROKEN_PEER_GONE =
		3, /* a host side found its peer's process gone */
};

/* A kernel's bell, in its L1 (NOC address published in the header). */
#define TT_TQ_BELL_COUNT_OFF 0u
#define TT_TQ_BELL_BROKEN_OFF 4u
/* A bell's counter before the other side first rings it. */
#define TT_TQ_BELL_NONE 0xFFFFFFFFu

/*
 * The counting both sides share (host and rv32im kernels: 32-bit
 * arithmetic only; tt_tq_wrap divides once, a handle keeps the result).
 * depth is 1..65536, so W >= 0xFFFF0000 and W - 1 < TT_TQ_BELL_NONE.
 */
static inline uint32_t tt_tq_wrap(uint32_t depth)
{
	return 0xFFFFFFFFu / depth * depth;
}

/* The counter after n (n < wrap). */
static inline uint32_t tt_tq_next(uint32_t n, uint32_t wrap)
{
	return n + 1 == wrap ? 0 : n + 1;
}

/* Entries between rd and wr: wr - rd modulo wrap (both < wrap). */
static inline uint32_t tt_tq_fill(uint32_t wr, uint32_t rd, uint32_t wrap)
{
	return wr >= rd ? wr - rd : wrap - rd + wr;
}

/* Runtime arguments a kernel's queue handle is made from, as
 * tt_tensor_queue_kernel_args fills them. */
enum tt_tq_arg {
	TT_TQ_ARG_XY = 0,      /* NOC 0 x | y << 16 of the queue's node */
	TT_TQ_ARG_ADDR_LO = 1, /* local address of the header at that node */
	TT_TQ_ARG_ADDR_HI = 2,
	TT_TQ_ARG_DEPTH = 3,
	TT_TQ_ARG_SLOT_SIZE = 4,
	TT_TQ_ARGS = 5
};

#ifdef __STDC_VERSION__
_Static_assert(sizeof(struct tt_tq_header) == TT_TQ_HEADER_SIZE,
	       "queue header size");
_Static_assert(__builtin_offsetof(struct tt_tq_header, cons_bell) ==
		       TT_TQ_CONS_BELL_OFF,
	       "cons_bell offset");
_Static_assert(__builtin_offsetof(struct tt_tq_header, cons_pid) ==
		       TT_TQ_CONS_PID_OFF,
	       "cons_pid offset");
#endif

#endif /* TT_HW_TQUEUE_H */
