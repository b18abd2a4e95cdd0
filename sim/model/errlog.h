/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Device error log: refused accesses, recorded in the host registers of the
 * image where every host can read them (hw/host.h), and signalled with
 * TT_IRQ_DEV_ERROR.
 */
#ifndef TT_SIM_ERRLOG_H
#define TT_SIM_ERRLOG_H

#include <stdbool.h>

#include "image.h"

struct sim_access {
	enum tt_dev_op op;
	unsigned noc;
	unsigned init_x, init_y; /* TT_DEV_INITIATOR_HOST for the host */
	unsigned x, y; /* target, on `noc` */
	uint64_t addr;
	uint64_t len;
	/* A hart of the target node itself: no doorbell and no node event
	 * are raised, the hart's own code signals what is needed. */
	bool from_hart;
};

/* Record a refused access; returns `code` for convenient tail calls. */
enum tt_dev_err sim_errlog_record(struct sim_image *img, enum tt_dev_err code,
				  const struct sim_access *a);

/* Records ever written; record i is at i % TT_DEV_ERR_RING. */
uint32_t sim_errlog_head(const struct tt_host_regs *regs);

/*
 * Copy record `seq` (0-based) into *rec: 0, or -ESTALE if that slot holds
 * another record (not written yet, being written, or overwritten).
 */
int sim_errlog_read(struct tt_host_regs *regs, uint32_t seq,
		    struct tt_dev_error *rec);

#endif /* TT_SIM_ERRLOG_H */
