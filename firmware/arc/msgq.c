// SPDX-License-Identifier: Apache-2.0
/*
 * The queues live in CSM, where the host can write anything at any time.
 * The firmware keeps its own pointers and serial numbers and only
 * publishes them; from CSM it reads just the host's two pointers, reduced
 * modulo the wrap, and the request it is about to serve.
 */
#include "msgq.h"

#include "hw/msgq.h"
#include "fw/mmio.h"
#include "fw/string.h"
#include "csm.h"
#include "messages.h"
#include "regs.h"

#define WRAP (2u * TT_MSGQ_SIZE)

struct queue {
	uint32_t req_rptr;
	uint32_t rsp_wptr;
	uint32_t last_serial;
};

static struct queue queues[TT_MSGQ_COUNT];

static uintptr_t queue_base(unsigned q)
{
	return CSM_MSGQ_BASE + q * TT_MSGQ_BYTES(TT_MSGQ_SIZE);
}

static volatile struct tt_msgq_header *header(unsigned q)
{
	return (volatile struct tt_msgq_header *)queue_base(q);
}

static volatile uint32_t *req_slot(unsigned q, uint32_t ptr)
{
	return (volatile uint32_t *)(queue_base(q) + TT_MSGQ_REQ_OFF +
				     (ptr % TT_MSGQ_SIZE) *
					     sizeof(struct tt_msg));
}

static volatile uint32_t *rsp_slot(unsigned q, uint32_t ptr)
{
	return (volatile uint32_t *)(queue_base(q) +
				     TT_MSGQ_RSP_OFF(TT_MSGQ_SIZE) +
				     (ptr % TT_MSGQ_SIZE) *
					     sizeof(struct tt_msg));
}

/* Entries between rptr and wptr in a double-wrapped ring. */
static uint32_t ring_used(uint32_t wptr, uint32_t rptr)
{
	return (wptr + WRAP - rptr) % WRAP;
}

static void publish(unsigned q)
{
	volatile struct tt_msgq_header *h = header(q);

	h->req_rptr = queues[q].req_rptr;
	h->rsp_wptr = queues[q].rsp_wptr;
	h->last_serial = queues[q].last_serial;
}

void msgq_init(void)
{
	volatile struct tt_msgq_info *info =
		(volatile struct tt_msgq_info *)CSM_MSGQ_INFO;
	volatile uint32_t *w = (volatile uint32_t *)CSM_MSGQ_BASE;

	for (uint32_t i = 0;
	     i < TT_MSGQ_COUNT * TT_MSGQ_BYTES(TT_MSGQ_SIZE) / 4; i++)
		w[i] = 0;
	memset(queues, 0, sizeof(queues));
	info->base = CSM_MSGQ_BASE;
	info->size_count = TT_MSGQ_SIZE | TT_MSGQ_COUNT << 8;
	info->reserved[0] = 0;
	info->reserved[1] = 0;
	mmio_barrier();
	scratch_ram_write(TT_ARC_SR_MSGQ_INFO, CSM_MSGQ_INFO);
	scratch_ram_write(TT_ARC_SR_BOOT_STATUS,
			  scratch_ram_read(TT_ARC_SR_BOOT_STATUS) |
				  TT_ARC_BOOT_STATUS_MSGQ_READY);
}

uint32_t msgq_doorbell_ack(void)
{
	uint32_t v = reset_read(TT_ARC_MISC_CNTL);

	if (v & TT_ARC_MISC_CNTL_IRQ0) {
		v &= ~TT_ARC_MISC_CNTL_IRQ0;
		reset_write(TT_ARC_MISC_CNTL, v);
	}
	return v;
}

/* Take one request if there is one and room for its response. */
static bool serve_one(unsigned q, bool *reset)
{
	volatile struct tt_msgq_header *h = header(q);
	struct queue *s = &queues[q];
	uint32_t req_wptr = h->req_wptr % WRAP;
	uint32_t rsp_rptr = h->rsp_rptr % WRAP;
	struct msg_ctx ctx = { .serial = s->last_serial };
	struct tt_msg req, rsp;
	volatile uint32_t *slot;
	unsigned i;

	/* More than a ring's worth is no state a correct host makes:
	 * leave the queue alone rather than serve garbage. */
	if (ring_used(req_wptr, s->req_rptr) == 0 ||
	    ring_used(req_wptr, s->req_rptr) > TT_MSGQ_SIZE ||
	    ring_used(s->rsp_wptr, rsp_rptr) >= TT_MSGQ_SIZE)
		return false;

	slot = req_slot(q, s->req_rptr);
	for (i = 0; i < TT_MSGQ_ENTRY_WORDS; i++)
		req.word[i] = slot[i];
	s->req_rptr = (s->req_rptr + 1) % WRAP;

	if ((req.word[0] & TT_MSG_CODE_MASK) != TT_MSG_SET_LAST_SERIAL)
		ctx.serial++;
	memset(&rsp, 0, sizeof(rsp));
	msg_handle(&req, &rsp, &ctx);
	s->last_serial = ctx.serial;

	slot = rsp_slot(q, s->rsp_wptr);
	for (i = 0; i < TT_MSGQ_ENTRY_WORDS; i++)
		slot[i] = rsp.word[i];
	s->rsp_wptr = (s->rsp_wptr + 1) % WRAP;
	/* The response is complete before the pointer announces it. */
	mmio_barrier();
	publish(q);
	*reset = ctx.reset;
	return true;
}

unsigned msgq_serve(bool *reset)
{
	unsigned served = 0;

	*reset = false;
	for (unsigned q = 0; q < TT_MSGQ_COUNT; q++) {
		for (unsigned n = 0; n < TT_MSGQ_SIZE; n++) {
			if (!serve_one(q, reset))
				break;
			served++;
			if (*reset)
				return served;
		}
	}
	return served;
}
