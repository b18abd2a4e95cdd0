/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The management firmware's message queues (msgq.c), over whatever path a
 * backend has to the ARC node.
 */
#ifndef TT_DRIVER_MSGQ_H
#define TT_DRIVER_MSGQ_H

#include <linux/types.h>

/**
 * struct tt_fw_io - a backend's path to the management firmware
 * @csm_read32: read the word at byte @off of CSM (checked against @csm_size)
 * @csm_write32: write it
 * @reg_read32: read the word at byte @off of the ARC reset-unit page
 * @ring: tell the firmware that a request is waiting (TT_ARC_MISC_CNTL)
 * @csm_size: bytes of CSM the backend reaches
 * @ctx: the backend's
 */
struct tt_fw_io {
	u32 (*csm_read32)(const struct tt_fw_io *io, u32 off);
	void (*csm_write32)(const struct tt_fw_io *io, u32 off, u32 val);
	u32 (*reg_read32)(const struct tt_fw_io *io, u32 off);
	void (*ring)(const struct tt_fw_io *io);
	u32 csm_size;
	void *ctx;
};

int tt_msgq_call(const struct tt_fw_io *io, const u32 *req, u32 *rsp,
		 unsigned int timeout_ms);

#endif /* TT_DRIVER_MSGQ_H */
