/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The management firmware: messages to the chip's management processor
 * (the "ARC"), readiness, and warm reset.
 *
 * A device boots by itself: the management firmware starts on the ARC
 * node, loads the Tensix core firmware, then serves four message queues in
 * its memory (queue 0 kernel driver, 1 monitoring, 2 tools,
 * 3 applications; one writer per queue). A message is a code and up to
 * seven 32-bit arguments; the answer is a status byte, a 16-bit result and
 * seven data words. Everything read from the device is validated: a
 * firmware that publishes nonsense makes calls fail with -EPROTO, never
 * misbehave.
 *
 * Waiting never spins: libtt sleeps on the device's interrupts and
 * re-checks. A timeout_ms below zero waits without limit.
 *
 * Thread-safety: calls on one device may come from several threads; the
 * calls on one queue are serialised within the process.
 */
#ifndef TT_MGMT_H
#define TT_MGMT_H

#include "device.h"

/* Message queues. */
enum tt_mgmt_queue {
	TT_MGMT_QUEUE_KMD = 0,
	TT_MGMT_QUEUE_MONITOR = 1,
	TT_MGMT_QUEUE_TOOLS = 2,
	TT_MGMT_QUEUE_APP = 3,
	TT_MGMT_QUEUES = 4
};

/* Message codes (as in Blackhole's management firmware). */
enum tt_mgmt_code {
	TT_MGMT_NOP = 0x11,
	TT_MGMT_READ_BOARD_INFO = 0x19, /* a1 byte offset, a2 count <= 24 */
	TT_MGMT_FORCE_AICLK = 0x33, /* a1 MHz, 0 = back to the policy */
	TT_MGMT_GET_AICLK = 0x34, /* data[0] MHz, data[1] 1 policy 2 forced */
	TT_MGMT_AICLK_GO_BUSY = 0x52,
	TT_MGMT_AICLK_GO_LONG_IDLE = 0x54,
	TT_MGMT_TRIGGER_RESET = 0x56,
	TT_MGMT_TEST = 0x90, /* a1 n; data[0] n + 1, data[1] serial */
	TT_MGMT_ASIC_STATE0 = 0xA0,
	TT_MGMT_ASIC_STATE3 = 0xA3,
	TT_MGMT_FORCE_FAN_SPEED = 0xAC, /* a1 percent, 0xFFFFFFFF = auto */
	TT_MGMT_FW_VERSION = 0xB9, /* a1 enum tt_mgmt_fw; data[0] version */
	TT_MGMT_SET_LAST_SERIAL = 0xBE,
	TT_MGMT_SET_WDT_TIMEOUT = 0xC1, /* a1 ms, 0 = off */
};

/* Reply statuses: below TT_MGMT_STATUS_ERROR_MIN is success. */
#define TT_MGMT_STATUS_OK 0x00
#define TT_MGMT_STATUS_ERROR_MIN 0xF0
#define TT_MGMT_STATUS_BAD_ARG 0xF0
#define TT_MGMT_STATUS_UNKNOWN 0xFF

/* Which firmware tt_mgmt_fw_version() asks about. */
enum tt_mgmt_fw {
	TT_MGMT_FW_ARC = 0, /* the running management firmware */
	TT_MGMT_FW_BUNDLE = 1, /* the flash bundle */
	TT_MGMT_FW_CORE = 2, /* the Tensix core firmware */
};

/* Default timeout of the convenience calls below. */
#define TT_MGMT_TIMEOUT_MS 2000

/* A message's answer. */
struct tt_msg_reply {
	unsigned status; /* word 0 [7:0]: TT_MGMT_STATUS_*, or the message's */
	unsigned result; /* word 0 [31:16] */
	uint32_t data[7]; /* words 1..7 */
};

/*
 * Send message `code` with args[0..6] (NULL: all zero) on `queue` and wait
 * up to timeout_ms for the answer, which is stored in *reply (may be NULL).
 * Waits (within the same timeout) for the firmware to be ready first.
 *
 * Returns 0; -EIO if the firmware answered with an error status
 * (-EOPNOTSUPP for TT_MGMT_STATUS_UNKNOWN), *reply filled all the same;
 * -ETIMEDOUT if no answer came in time; -EINVAL for a bad queue; -EPROTO
 * if the device's queues are malformed; -ENODEV if the chip was reset.
 */
TT_API int tt_mgmt_call(tt_device *dev, unsigned queue, uint8_t code,
			const uint32_t args[7], struct tt_msg_reply *reply,
			int timeout_ms);

/*
 * Wait until the management firmware has booted (POST code READY) and its
 * message queues are ready. Returns 0, -EIO at once if its boot failed
 * (the message names the POST code and boot error), or -ETIMEDOUT naming
 * the stage it was at.
 */
TT_API int tt_mgmt_wait_ready(tt_device *dev, int timeout_ms);

/*
 * Warm reset of the chip: asks the firmware (TRIGGER_RESET on the kernel
 * driver's queue, not waiting for its answer); if the firmware cannot take
 * the message or has not reset the chip within a second, writes the reset
 * unit's chip reset register instead. Then waits for the chip to come back:
 * management firmware ready, every hart of every enabled Tensix core
 * running its core firmware and idle.
 *
 * Whatever the harts were doing (hung, halted, running raw programs) is
 * gone. This handle keeps working; every other handle of the chip (in any
 * process) fails with -ENODEV from then on and must be reopened.
 * Returns 0, -ETIMEDOUT naming what it was waiting for, or another error.
 * Thread-safety: no other call may use this handle meanwhile.
 */
TT_API int tt_device_reset(tt_device *dev, int timeout_ms);

/*
 * Convenience calls on the application queue with TT_MGMT_TIMEOUT_MS;
 * errors as tt_mgmt_call().
 */

/* TEST: *out = n + 1 as computed by the firmware (-EPROTO if it is not). */
TT_API int tt_mgmt_test(tt_device *dev, uint32_t n, uint32_t *out);

/* Power state: busy (AICLK_GO_BUSY) or long idle (AICLK_GO_LONG_IDLE). */
TT_API int tt_mgmt_set_power_state(tt_device *dev, bool busy);

/* Force AICLK to mhz (the firmware refuses values outside the board's
 * range with -EIO), or 0 to give it back to the power policy. */
TT_API int tt_mgmt_force_aiclk(tt_device *dev, unsigned mhz);

/* Current AICLK; *forced (may be NULL) says whether FORCE_AICLK set it. */
TT_API int tt_mgmt_get_aiclk(tt_device *dev, unsigned *mhz, bool *forced);

/* Watchdog timeout in ms; 0 turns the watchdog off. */
TT_API int tt_mgmt_set_watchdog(tt_device *dev, unsigned ms);

/* Fan duty in percent (0..100), or -1 to give the fan back to the
 * firmware's policy. -EINVAL for other values. */
TT_API int tt_mgmt_force_fan(tt_device *dev, int percent);

/* Version (a.b.c.d, one byte each) of a firmware, enum tt_mgmt_fw. */
TT_API int tt_mgmt_fw_version(tt_device *dev, unsigned which,
			      uint32_t *version);

/* What the board's factory data says (READ_BOARD_INFO). */
struct tt_mgmt_board_info {
	uint64_t board_id; /* BOARD_ID_HIGH << 32 | BOARD_ID_LOW */
	uint64_t asic_id;
	unsigned card_type; /* tt_card_type_name() (tt/telemetry.h) */
	unsigned chip_index; /* position on the board */
	unsigned aiclk_max_mhz, aiclk_min_mhz; /* busy, idle */
	unsigned axiclk_mhz, arcclk_mhz;
	unsigned vdd_min_mv, vdd_max_mv;
	unsigned tdp_limit_w, tdc_limit_a;
	unsigned thm_limit_throttle_c, thm_limit_shutdown_c;
	unsigned board_power_limit_w;
	uint32_t dm_app_fw_version, dm_bl_fw_version, flash_tool_version;
	unsigned grid_x, grid_y, tensix_count;
	uint32_t harvesting; /* bit per harvested Tensix row or column */
};

/* Read the board information, 24 bytes per message. */
TT_API int tt_mgmt_board_info(tt_device *dev, struct tt_mgmt_board_info *out);

#endif /* TT_MGMT_H */
