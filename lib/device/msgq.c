// SPDX-License-Identifier: Apache-2.0
/*
 * The management firmware's message queues (hw/msgq.h), host side.
 *
 * Every call rediscovers the queues from the scratch RAM and validates
 * them, so a reset or a firmware that moved them is never a problem, and
 * nothing the device says is trusted: addresses must lie in CSM, pointers
 * within twice the ring size, fill levels within the ring size.
 *
 * Answers are matched to requests by position: the firmware answers one
 * queue's requests in order, so a caller whose request found p requests
 * still pending and u answers nobody read (left by callers that timed
 * out) takes the (p + u + 1)-th answer and discards the ones before it.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "fw.h"
#include "hw/arc.h"
#include "hw/msgq.h"
#include "hw/tile.h"

/* Sanity bounds for what the firmware publishes. */
#define MSGQ_MAX_SIZE 64
#define MSGQ_MAX_COUNT 16

struct msgq {
	struct tt_xy arc;
	uint64_t base; /* CSM address of this queue's header */
	unsigned index, size;
};

/*
 * Callers of one queue take its device lock (lock.c), whichever thread,
 * handle or process they are in, for the whole exchange: requests of two
 * writers would land in the same slot, and an answer would go to whoever
 * reads it first. Waiting for it counts against the call's deadline.
 */
static int queue_lock(struct tt_device *dev, unsigned queue, int64_t deadline)
{
	int64_t left = deadline - tt_fw_now_ms();

	if (deadline == INT64_MAX)
		left = -1; /* no limit */
	else if (left < 0)
		left = 0;
	else if (left > INT_MAX)
		left = INT_MAX;
	return tt_device_lock(dev, TT_LOCK_MSGQ(queue), (int)left);
}

/* Locate queue `index` from the published info block, checking it all. */
static int msgq_find(struct tt_device *dev, unsigned index, struct msgq *q)
{
	struct tt_msgq_info info;
	unsigned size, count;
	uint32_t addr;
	int ret;

	ret = tt_fw_arc(dev, &q->arc);
	if (!ret)
		ret = tt_fw_reset_unit_read(
			dev, TT_ARC_SCRATCH_RAM(TT_ARC_SR_MSGQ_INFO), &addr);
	if (ret)
		return ret;
	if (!tt_fw_csm_ok(addr, sizeof(info)))
		return tt_error(-EPROTO,
				"%s: management firmware publishes its message queue info at 0x%08x, outside CSM",
				dev->name, addr);
	ret = tt_noc_read(dev, 0, q->arc.x, q->arc.y, addr, &info,
			  sizeof(info));
	if (ret)
		return ret;
	size = info.size_count & 0xFF;
	count = (info.size_count >> 8) & 0xFF;
	if (!size || size > MSGQ_MAX_SIZE || !count || count > MSGQ_MAX_COUNT)
		return tt_error(-EPROTO,
				"%s: management firmware publishes %u message queues of %u entries (size_count 0x%08x)",
				dev->name, count, size, info.size_count);
	if (index >= count)
		return tt_error(-EINVAL,
				"%s: management firmware has no message queue %u (%u queues)",
				dev->name, index, count);
	if (!tt_fw_csm_ok(info.base, (uint64_t)count * TT_MSGQ_BYTES(size)))
		return tt_error(-EPROTO,
				"%s: management firmware message queues at 0x%08x (%u x %u bytes) do not fit in CSM",
				dev->name, info.base, count,
				(unsigned)TT_MSGQ_BYTES(size));
	q->base = info.base + (uint64_t)index * TT_MSGQ_BYTES(size);
	q->index = index;
	q->size = size;
	return 0;
}

/* Entries from pointer `from` to pointer `to`, modulo twice the size. */
static unsigned ring_fill(const struct msgq *q, uint32_t from, uint32_t to)
{
	return (to + 2 * q->size - from) % (2 * q->size);
}

static int read_header(struct tt_device *dev, const struct msgq *q,
		       struct tt_msgq_header *h)
{
	uint32_t lim = 2 * q->size;
	int ret;

	ret = tt_noc_read(dev, 0, q->arc.x, q->arc.y, q->base, h, sizeof(*h));
	if (ret)
		return ret;
	if (h->req_wptr >= lim || h->req_rptr >= lim || h->rsp_wptr >= lim ||
	    h->rsp_rptr >= lim ||
	    ring_fill(q, h->req_rptr, h->req_wptr) > q->size ||
	    ring_fill(q, h->rsp_rptr, h->rsp_wptr) > q->size)
		return tt_error(-EPROTO,
				"%s: message queue %u is corrupt (request wptr %u rptr %u, response wptr %u rptr %u, %u entries)",
				dev->name, q->index, h->req_wptr, h->req_rptr,
				h->rsp_wptr, h->rsp_rptr, q->size);
	return 0;
}

struct send_ctx {
	const struct msgq *q;
	struct tt_msgq_header h;
};

static int has_room(struct tt_device *dev, void *ctx)
{
	struct send_ctx *s = ctx;
	int ret = read_header(dev, s->q, &s->h);

	if (ret)
		return ret;
	return ring_fill(s->q, s->h.req_rptr, s->h.req_wptr) < s->q->size;
}

/*
 * Wait for room, write the request, advance the write pointer, ring the
 * doorbell. *skip = answers that will come before this one's.
 */
static int msgq_send(struct tt_device *dev, const struct msgq *q,
		     const uint32_t req[8], int64_t deadline, unsigned *skip)
{
	struct send_ctx s = { .q = q };
	uint64_t slot;
	int ret;

	ret = tt_fw_wait(dev, deadline, has_room, &s);
	if (ret == -ETIMEDOUT)
		return tt_error(-ETIMEDOUT,
				"%s: message queue %u stayed full; message 0x%02x not sent",
				dev->name, q->index, req[0] & TT_MSG_CODE_MASK);
	if (ret)
		return ret;
	*skip = ring_fill(q, s.h.req_rptr, s.h.req_wptr) +
		ring_fill(q, s.h.rsp_rptr, s.h.rsp_wptr);
	slot = q->base + TT_MSGQ_REQ_OFF +
	       (uint64_t)(s.h.req_wptr % q->size) * sizeof(struct tt_msg);
	ret = tt_noc_write(dev, 0, q->arc.x, q->arc.y, slot, req,
			   sizeof(struct tt_msg));
	if (!ret)
		ret = tt_noc_write32(dev, 0, q->arc.x, q->arc.y,
				     q->base + offsetof(struct tt_msgq_header,
							req_wptr),
				     (s.h.req_wptr + 1) % (2 * q->size));
	if (!ret)
		ret = tt_noc_write32(dev, 0, q->arc.x, q->arc.y,
				     TT_REG_ARC_RESET_ADDR + TT_ARC_MISC_CNTL,
				     TT_ARC_MISC_CNTL_IRQ0);
	return ret;
}

struct recv_ctx {
	const struct msgq *q;
	unsigned skip;
	uint32_t *rsp;
};

/* Take every answer available; 1 once ours is in rsp. */
static int take_answers(struct tt_device *dev, void *ctx)
{
	struct recv_ctx *r = ctx;
	const struct msgq *q = r->q;
	struct tt_msgq_header h;
	int ret = read_header(dev, q, &h);

	while (!ret && h.rsp_rptr != h.rsp_wptr) {
		uint64_t slot = q->base + TT_MSGQ_RSP_OFF(q->size) +
				(uint64_t)(h.rsp_rptr % q->size) *
					sizeof(struct tt_msg);

		ret = tt_noc_read(dev, 0, q->arc.x, q->arc.y, slot, r->rsp,
				  sizeof(struct tt_msg));
		if (ret)
			break;
		h.rsp_rptr = (h.rsp_rptr + 1) % (2 * q->size);
		ret = tt_noc_write32(dev, 0, q->arc.x, q->arc.y,
				     q->base + offsetof(struct tt_msgq_header,
							rsp_rptr),
				     h.rsp_rptr);
		if (ret)
			break;
		if (!r->skip)
			return 1;
		r->skip--;
	}
	return ret;
}

static int msgq_receive(struct tt_device *dev, const struct msgq *q,
			unsigned skip, uint32_t rsp[8], int64_t deadline,
			uint32_t code, int timeout_ms)
{
	struct recv_ctx r = { .q = q, .skip = skip, .rsp = rsp };
	int ret = tt_fw_wait(dev, deadline, take_answers, &r);

	if (ret == -ETIMEDOUT)
		return tt_error(-ETIMEDOUT,
				"%s: management firmware did not answer message 0x%02x within %d ms (queue %u)",
				dev->name, code, timeout_ms, q->index);
	return ret;
}

static int check_queue_arg(struct tt_device *dev, unsigned queue)
{
	if (queue >= TT_MSGQ_COUNT)
		return tt_error(-EINVAL,
				"%s: message queue %u does not exist (0..%u)",
				dev->name, queue, TT_MSGQ_COUNT - 1);
	return 0;
}

int tt_msgq_call(struct tt_device *dev, unsigned queue, const uint32_t req[8],
		 uint32_t rsp[8], int64_t deadline, int timeout_ms)
{
	struct msgq q;
	unsigned skip = 0;
	int ret = check_queue_arg(dev, queue);

	if (!ret)
		ret = queue_lock(dev, queue, deadline);
	if (ret)
		return ret;
	ret = tt_fw_wait_arc(dev, deadline, timeout_ms);
	if (!ret)
		ret = msgq_find(dev, queue, &q);
	if (!ret)
		ret = msgq_send(dev, &q, req, deadline, &skip);
	if (!ret)
		ret = msgq_receive(dev, &q, skip, rsp, deadline,
				   req[0] & TT_MSG_CODE_MASK, timeout_ms);
	tt_device_unlock(dev, TT_LOCK_MSGQ(queue));
	return ret;
}

int tt_msgq_post(struct tt_device *dev, unsigned queue, const uint32_t req[8],
		 int64_t deadline)
{
	struct msgq q;
	unsigned skip;
	int ret = check_queue_arg(dev, queue);

	if (!ret)
		ret = queue_lock(dev, queue, deadline);
	if (ret)
		return ret;
	ret = tt_fw_arc_ready(dev, NULL);
	if (ret == 0)
		ret = tt_error(-EAGAIN, "%s: management firmware not ready",
			       dev->name);
	if (ret > 0)
		ret = msgq_find(dev, queue, &q);
	if (!ret)
		ret = msgq_send(dev, &q, req, deadline, &skip);
	tt_device_unlock(dev, TT_LOCK_MSGQ(queue));
	return ret;
}
