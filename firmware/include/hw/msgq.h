/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * Management message queues, after Blackhole's CMFW (tt-zephyr-platforms'
 * include/tenstorrent/msgqueue.h and lib/tenstorrent/bh_arc/msgqueue.c):
 * host requests and firmware responses of 32 bytes in rings in ARC CSM.
 *
 * Discovery: TT_ARC_SCRATCH_RAM(TT_ARC_SR_MSGQ_INFO) holds the CSM address
 * of struct tt_msgq_info; the queues are ready when bit 0 of
 * TT_ARC_SCRATCH_RAM(TT_ARC_SR_BOOT_STATUS) is set. Queue i lives at
 * info.base + i * TT_MSGQ_BYTES(size).
 *
 * Pointers count modulo 2 * size ("double wrap"): a ring is empty when its
 * pointers are equal and full when they differ by size. Slot = ptr % size.
 *
 * Host, to send: wait for room (req_wptr - req_rptr != size), write the
 * request into its slot, then advance req_wptr, then ring the doorbell by
 * writing TT_ARC_MISC_CNTL_IRQ0 to TT_ARC_MISC_CNTL. To receive: wait until
 * rsp_wptr != rsp_rptr, read the response, advance rsp_rptr.
 * Firmware: clears the doorbell bit, then serves every queue in order,
 * taking a request only when the response ring has room; after writing
 * responses it raises TT_IRQ_HART (TT_HART_HOST_IRQ) so a sleeping host
 * wakes.
 *
 * Queue use (as in UMD): 0 kernel driver, 1 monitoring, 2 tools, 3
 * applications. Each queue has one writer on the host side.
 */
#ifndef TT_HW_MSGQ_H
#define TT_HW_MSGQ_H

#include "bits.h"

#define TT_MSGQ_COUNT 4
#define TT_MSGQ_SIZE 4 /* entries per ring */
#define TT_MSGQ_ENTRY_WORDS 8

enum tt_msgq_id {
	TT_MSGQ_KMD = 0,
	TT_MSGQ_MONITOR = 1,
	TT_MSGQ_TOOLS = 2,
	TT_MSGQ_APP = 3,
};

struct tt_msgq_info {
	uint32_t base; /* CSM address of queue 0 */
	uint32_t size_count; /* [7:0] entries per ring, [15:8] queues */
	uint32_t reserved[2];
};

/* Header words of one queue; who writes each. */
struct tt_msgq_header {
	uint32_t req_wptr; /* host */
	uint32_t rsp_rptr; /* host */
	uint32_t reserved0[2];
	uint32_t req_rptr; /* firmware */
	uint32_t rsp_wptr; /* firmware */
	uint32_t last_serial; /* firmware: messages served */
	uint32_t reserved1;
};

struct tt_msg {
	uint32_t word[TT_MSGQ_ENTRY_WORDS];
};

#define TT_MSGQ_BYTES(size) \
	(sizeof(struct tt_msgq_header) + 2u * (size) * sizeof(struct tt_msg))
#define TT_MSGQ_REQ_OFF sizeof(struct tt_msgq_header)
#define TT_MSGQ_RSP_OFF(size) \
	(sizeof(struct tt_msgq_header) + (size) * sizeof(struct tt_msg))

/*
 * Request: word 0 [7:0] = message code, words 1..7 = arguments.
 * Response: word 0 [7:0] = status, [31:16] = result; words 1..7 = data.
 * A status below TT_MSG_STATUS_ERROR_MIN is success (UMD's rule).
 */
#define TT_MSG_CODE_MASK TT_GENMASK(7, 0)
#define TT_MSG_STATUS_MASK TT_GENMASK(7, 0)
#define TT_MSG_RESULT_MASK TT_GENMASK(31, 16)

enum tt_msg_status {
	TT_MSG_OK = 0x00,
	TT_MSG_STATUS_ERROR_MIN = 0xF0,
	TT_MSG_BAD_ARG = 0xF0, /* an argument is out of range */
	TT_MSG_UNKNOWN = 0xFF, /* the firmware does not know the code */
};

/* Message codes (numbers as in Blackhole's smc_msg.h where one exists). */
enum tt_msg_code {
	TT_MSG_READ_BOARD_INFO = 0x19, /* w1 byte offset into struct
					* tt_board_info, w2 count <= 24;
					* rsp w1..w6 the bytes */
	TT_MSG_NOP = 0x11,
	TT_MSG_FORCE_AICLK = 0x33, /* w1 MHz, 0 = back to the policy */
	TT_MSG_GET_AICLK = 0x34, /* rsp w1 MHz, w2 enum tt_aiclk_mode */
	TT_MSG_AICLK_GO_BUSY = 0x52, /* power state: busy clocks */
	TT_MSG_AICLK_GO_LONG_IDLE = 0x54, /* power state: idle clocks */
	TT_MSG_TRIGGER_RESET = 0x56, /* answered, then the chip resets */
	TT_MSG_TEST = 0x90, /* w1 n; rsp w1 n + 1, w2 last_serial */
	TT_MSG_ASIC_STATE0 = 0xA0, /* ASIC state A0: normal operation */
	TT_MSG_ASIC_STATE3 = 0xA3, /* ASIC state A3: quiesced, before reset */
	TT_MSG_FORCE_FAN_SPEED = 0xAC, /* w1 percent; 0xFFFFFFFF = auto */
	TT_MSG_FW_VERSION = 0xB9, /* w1 enum tt_fw_which; rsp w1 version */
	TT_MSG_SET_LAST_SERIAL = 0xBE, /* w1 the new last_serial */
	TT_MSG_SET_WDT_TIMEOUT = 0xC1, /* w1 ms, 0 = off */
};

enum tt_aiclk_mode {
	TT_AICLK_POLICY = 1, /* power state and thermal policy decide */
	TT_AICLK_FORCED = 2, /* FORCE_AICLK set it */
};

enum tt_fw_which {
	TT_FW_ARC = 0, /* the running management firmware */
	TT_FW_BUNDLE = 1, /* the flash bundle */
	TT_FW_CORE = 2, /* Tensix core firmware */
};

#endif /* TT_HW_MSGQ_H */
