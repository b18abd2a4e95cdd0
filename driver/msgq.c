// SPDX-License-Identifier: GPL-2.0-only
/*
 * The management firmware's message queues (hw/msgq.h), as the driver uses
 * them: queue 0 is the kernel's, so the driver is its only writer on the
 * host, serialised by the caller.
 *
 * The queues are found afresh at every message: a reset reloads the
 * firmware, which may put them elsewhere. Nothing the device says is
 * trusted: the info block and the queue must lie in CSM, pointers within
 * twice the ring size, fill levels within the ring size.
 *
 * Answers are matched to requests by position: the firmware answers in
 * order, so a request sent with p requests still pending and u answers
 * unread (left by an earlier call that timed out) takes the
 * (p + u + 1)-th answer and drops the ones before it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/sched/signal.h>
#include <linux/stddef.h>

#include <hw/arc.h>
#include <hw/msgq.h>
#include <hw/tile.h>

#include "msgq.h"

/* Sanity bounds for what the firmware publishes. */
#define TT_MSGQ_MAX_SIZE 64
#define TT_MSGQ_MAX_COUNT 16

struct tt_msgq {
	u32 base; /* CSM offset of the queue's header */
	u32 size; /* entries per ring */
};

#define TT_MSGQ_HDR(field) offsetof(struct tt_msgq_header, field)

static bool tt_csm_fits(const struct tt_fw_io *io, u64 off, u64 len)
{
	return off <= io->csm_size && len <= io->csm_size - off;
}

static int tt_msgq_find(const struct tt_fw_io *io, struct tt_msgq *q)
{
	u32 addr, size, count, size_count, base;

	if (!(io->reg_read32(io, TT_ARC_SCRATCH_RAM(TT_ARC_SR_BOOT_STATUS)) &
	      TT_ARC_BOOT_STATUS_MSGQ_READY))
		return -ENODEV;
	addr = io->reg_read32(io, TT_ARC_SCRATCH_RAM(TT_ARC_SR_MSGQ_INFO));
	if (addr < TT_ARC_CSM_BASE ||
	    !tt_csm_fits(io, addr - TT_ARC_CSM_BASE, sizeof(struct tt_msgq_info)))
		return -EPROTO;
	addr -= TT_ARC_CSM_BASE;
	base = io->csm_read32(io, addr + offsetof(struct tt_msgq_info, base));
	size_count = io->csm_read32(io, addr + offsetof(struct tt_msgq_info,
							size_count));
	size = size_count & 0xFF;
	count = (size_count >> 8) & 0xFF;
	if (!size || size > TT_MSGQ_MAX_SIZE || !count ||
	    count > TT_MSGQ_MAX_COUNT || base < TT_ARC_CSM_BASE ||
	    !tt_csm_fits(io, base - TT_ARC_CSM_BASE,
			 (u64)count * TT_MSGQ_BYTES(size)))
		return -EPROTO;
	q->base = base - TT_ARC_CSM_BASE + TT_MSGQ_KMD * TT_MSGQ_BYTES(size);
	q->size = size;
	return 0;
}

/* Entries from pointer @from to pointer @to, modulo twice the size. */
static u32 tt_ring_fill(const struct tt_msgq *q, u32 from, u32 to)
{
	return (to + 2 * q->size - from) % (2 * q->size);
}

/* The four pointers, checked; -EPROTO for a corrupt queue. */
static int tt_msgq_ptrs(const struct tt_fw_io *io, const struct tt_msgq *q,
			struct tt_msgq_header *h)
{
	u32 lim = 2 * q->size;

	h->req_wptr = io->csm_read32(io, q->base + TT_MSGQ_HDR(req_wptr));
	h->req_rptr = io->csm_read32(io, q->base + TT_MSGQ_HDR(req_rptr));
	h->rsp_wptr = io->csm_read32(io, q->base + TT_MSGQ_HDR(rsp_wptr));
	h->rsp_rptr = io->csm_read32(io, q->base + TT_MSGQ_HDR(rsp_rptr));
	if (h->req_wptr >= lim || h->req_rptr >= lim || h->rsp_wptr >= lim ||
	    h->rsp_rptr >= lim ||
	    tt_ring_fill(q, h->req_rptr, h->req_wptr) > q->size ||
	    tt_ring_fill(q, h->rsp_rptr, h->rsp_wptr) > q->size)
		return -EPROTO;
	return 0;
}

/* Sleep a little; false once @deadline (jiffies) has passed. */
static bool tt_msgq_wait(unsigned long deadline, int *err)
{
	if (time_after(jiffies, deadline)) {
		*err = -ETIMEDOUT;
		return false;
	}
	if (fatal_signal_pending(current)) {
		*err = -EINTR;
		return false;
	}
	usleep_range(200, 1000);
	return true;
}

static int tt_msgq_send(const struct tt_fw_io *io, const struct tt_msgq *q,
			const u32 *req, unsigned long deadline, u32 *skip)
{
	struct tt_msgq_header h;
	u32 slot, i;
	int ret;

	for (;;) {
		ret = tt_msgq_ptrs(io, q, &h);
		if (ret)
			return ret;
		if (tt_ring_fill(q, h.req_rptr, h.req_wptr) < q->size)
			break;
		if (!tt_msgq_wait(deadline, &ret))
			return ret;
	}
	*skip = tt_ring_fill(q, h.req_rptr, h.req_wptr) +
		tt_ring_fill(q, h.rsp_rptr, h.rsp_wptr);
	slot = q->base + TT_MSGQ_REQ_OFF +
	       (h.req_wptr % q->size) * sizeof(struct tt_msg);
	for (i = 0; i < TT_MSGQ_ENTRY_WORDS; i++)
		io->csm_write32(io, slot + 4 * i, req[i]);
	wmb(); /* the request before the pointer that publishes it */
	io->csm_write32(io, q->base + TT_MSGQ_HDR(req_wptr),
			(h.req_wptr + 1) % (2 * q->size));
	io->ring(io);
	return 0;
}

/* Take the answers there are; 1 once ours is in @rsp. */
static int tt_msgq_take(const struct tt_fw_io *io, const struct tt_msgq *q,
			u32 *skip, u32 *rsp)
{
	struct tt_msgq_header h;
	u32 slot, i;
	int ret = tt_msgq_ptrs(io, q, &h);

	while (!ret && h.rsp_rptr != h.rsp_wptr) {
		rmb(); /* the pointer before the answer it published */
		slot = q->base + TT_MSGQ_RSP_OFF(q->size) +
		       (h.rsp_rptr % q->size) * sizeof(struct tt_msg);
		for (i = 0; i < TT_MSGQ_ENTRY_WORDS; i++)
			rsp[i] = io->csm_read32(io, slot + 4 * i);
		h.rsp_rptr = (h.rsp_rptr + 1) % (2 * q->size);
		io->csm_write32(io, q->base + TT_MSGQ_HDR(rsp_rptr),
				h.rsp_rptr);
		if (!*skip)
			return 1;
		(*skip)--;
	}
	return ret;
}

/**
 * tt_msgq_call - send one message on the kernel's queue and wait for its answer
 * @io: the firmware's memory and doorbell
 * @req: TT_MSGQ_ENTRY_WORDS words; word 0 holds the code
 * @rsp: TT_MSGQ_ENTRY_WORDS words for the answer, or NULL to only post
 *	the message (TRIGGER_RESET: the chip's reset may wipe the answer)
 * @timeout_ms: for room in the queue and then for the answer
 *
 * Returns 0 with the answer in @rsp (whose status may still be an error),
 * -ENODEV if the firmware's queues are not ready, -EPROTO for a corrupt
 * queue, -ETIMEDOUT, or -EINTR on a fatal signal. Callers serialise.
 */
int tt_msgq_call(const struct tt_fw_io *io, const u32 *req, u32 *rsp,
		 unsigned int timeout_ms)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(timeout_ms);
	struct tt_msgq q;
	u32 skip = 0;
	int ret;

	ret = tt_msgq_find(io, &q);
	if (!ret)
		ret = tt_msgq_send(io, &q, req, deadline, &skip);
	while (!ret && rsp) {
		ret = tt_msgq_take(io, &q, &skip, rsp);
		if (ret == 1)
			return 0;
		if (!ret && !tt_msgq_wait(deadline, &ret))
			break;
	}
	return ret;
}
