// SPDX-License-Identifier: Apache-2.0
#include "errlog.h"

#include <errno.h>
#include <string.h>

#include "doorbell.h"

/*
 * Several writers (engine threads, client processes) may record at once:
 * each reserves a slot with an atomic increment of err_head and publishes the
 * record by writing its seq last. A reader that finds seq != slot + 1 is
 * looking at a record being written, or one already overwritten.
 */
enum tt_dev_err sim_errlog_record(struct sim_image *img, enum tt_dev_err code,
				  const struct sim_access *a)
{
	struct tt_host_regs *r = img->regs;
	uint32_t slot = __atomic_fetch_add(&r->err_head, 1, __ATOMIC_ACQ_REL);
	struct tt_dev_error *e = &r->err[slot % TT_DEV_ERR_RING];

	__atomic_store_n(&e->seq, 0, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	e->code = (uint8_t)code;
	e->op = (uint8_t)a->op;
	e->noc = (uint8_t)a->noc;
	e->initiator_x = (uint8_t)a->init_x;
	e->initiator_y = (uint8_t)a->init_y;
	e->target_x = (uint8_t)a->x;
	e->target_y = (uint8_t)a->y;
	e->len = a->len > UINT32_MAX ? UINT32_MAX : (uint32_t)a->len;
	e->addr = a->addr;
	__atomic_store_n(&e->seq, slot + 1, __ATOMIC_RELEASE);
	sim_irq_raise(r, TT_IRQ_DEV_ERROR);
	return code;
}

uint32_t sim_errlog_head(const struct tt_host_regs *regs)
{
	return __atomic_load_n(&regs->err_head, __ATOMIC_ACQUIRE);
}

int sim_errlog_read(struct tt_host_regs *regs, uint32_t seq,
		    struct tt_dev_error *rec)
{
	struct tt_dev_error *e = &regs->err[seq % TT_DEV_ERR_RING];

	if (__atomic_load_n(&e->seq, __ATOMIC_ACQUIRE) != seq + 1)
		return -ESTALE;
	memcpy(rec, e, sizeof(*rec));
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	/* A writer may have reused the slot while we copied. */
	if (__atomic_load_n(&e->seq, __ATOMIC_ACQUIRE) != seq + 1)
		return -ESTALE;
	return 0;
}
