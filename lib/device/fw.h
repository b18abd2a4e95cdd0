/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libtt internals shared by the firmware-facing parts (mgmt.c, msgq.c,
 * telemetry.c, hart.c): finding the ARC node, its registers, checking
 * addresses the firmware publishes, and sleeping on device interrupts
 * until a condition holds.
 */
#ifndef TT_LIB_FW_H
#define TT_LIB_FW_H

#include <stdint.h>

#include "hw/l1.h"
#include "internal.h"

/* Longest single sleep while waiting: a missed interrupt costs at most
 * this much latency, never a hang. */
#define TT_FW_POLL_MS 20

/* A point in time on CLOCK_MONOTONIC, in ms; INT64_MAX = never. */
TT_HIDDEN int64_t tt_fw_now_ms(void);
TT_HIDDEN int64_t tt_fw_deadline(int timeout_ms);

/*
 * Check function for tt_fw_wait: 1 done, 0 not yet, < 0 error (stops the
 * wait; the function has set the error message).
 */
typedef int (*tt_fw_cond)(struct tt_device *dev, void *ctx);

/*
 * Call cond until it returns non-zero or the deadline passes, sleeping on
 * the device's interrupts in between (at most TT_FW_POLL_MS at a time).
 * The interrupt sequence is read before each check, so an interrupt that
 * comes after the check ends the sleep. Returns 0, cond's error, or
 * -ETIMEDOUT (no message set: the caller knows what it waited for).
 */
TT_HIDDEN int tt_fw_wait(struct tt_device *dev, int64_t deadline,
			 tt_fw_cond cond, void *ctx);

/* NOC 0 coordinates of the ARC node; -ENODEV if the chip has none. */
TT_HIDDEN int tt_fw_arc(struct tt_device *dev, struct tt_xy *arc);

/* Read/write a register of the ARC reset unit page (hw/arc.h). */
TT_HIDDEN int tt_fw_reset_unit_read(struct tt_device *dev, uint32_t reg,
				    uint32_t *val);
TT_HIDDEN int tt_fw_reset_unit_write(struct tt_device *dev, uint32_t reg,
				     uint32_t val);

/* Is [addr, addr + len) inside ARC CSM, addr 4-byte aligned? */
TT_HIDDEN bool tt_fw_csm_ok(uint64_t addr, uint64_t len);

/*
 * Management firmware state, from its POST code and boot status.
 * Returns 1 ready, 0 not yet, -EIO (message set) if its boot failed.
 */
TT_HIDDEN int tt_fw_arc_ready(struct tt_device *dev, void *unused);

/*
 * Wait until the management firmware is ready (tt_fw_arc_ready) or the
 * deadline passes; on timeout the message names timeout_ms and the boot
 * progress.
 */
TT_HIDDEN int tt_fw_wait_arc(struct tt_device *dev, int64_t deadline,
			     int timeout_ms);

/* Describe the firmware's boot progress for a timeout message. */
TT_HIDDEN void tt_fw_describe_boot(struct tt_device *dev, char *buf,
				   size_t len);

/* Is (x, y) an enabled Tensix core? Sets an error naming it if not. */
TT_HIDDEN int tt_fw_check_tensix(struct tt_device *dev, struct tt_xy core);

/* A hart's mailbox and its launch word, which lies outside the mailbox
 * (hw/l1.h). */
struct tt_fw_launch_state {
	struct tt_mailbox mb;
	uint32_t seq; /* TT_L1_LAUNCH_SEQ(hart) */
};

TT_HIDDEN int tt_fw_read_launch_state(struct tt_device *dev, struct tt_xy core,
				      unsigned hart,
				      struct tt_fw_launch_state *out);

/* The core firmware is up and the last launch returned. */
TT_HIDDEN bool tt_fw_hart_idle(const struct tt_fw_launch_state *s);

/* Whether every hart of every enabled Tensix core has its core firmware
 * running and idle: 1, 0 not yet. Used by tt_device_reset. */
struct tt_fw_cores_state {
	unsigned ready; /* cores found ready so far (checked once each) */
	unsigned first_waiting; /* first core not ready at the last check */
	uint8_t done[1024]; /* per logical core */
};
TT_HIDDEN int tt_fw_cores_ready(struct tt_device *dev, void *ctx);

/*
 * Message queues (msgq.c). tt_msgq_call sends one message and waits for
 * its answer; tt_msgq_post only sends (for messages the firmware may never
 * answer, like TRIGGER_RESET). Both serialise users of the queue within
 * the process and wait for the firmware to be ready up to the deadline.
 * rsp gets the answer's 8 raw words.
 */
TT_HIDDEN int tt_msgq_call(struct tt_device *dev, unsigned queue,
			   const uint32_t req[8], uint32_t rsp[8],
			   int64_t deadline, int timeout_ms);
TT_HIDDEN int tt_msgq_post(struct tt_device *dev, unsigned queue,
			   const uint32_t req[8], int64_t deadline);

#endif /* TT_LIB_FW_H */
