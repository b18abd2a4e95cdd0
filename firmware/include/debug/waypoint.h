/* SPDX-License-Identifier: Apache-2.0 */
/*
 * WAYPOINT("ABCD"): record in this hart's mailbox (hw/l1.h, waypoint)
 * where the kernel is, up to four characters, first in the low byte. A
 * report on a hung or halted program shows the last one. The runtime sets
 * "R" when the kernel starts and "D" when it returns; the library sets
 * "CRBW"/"CRBD" around a wait in cb_reserve_back, "CWFW"/"CWFD" in
 * cb_wait_front, "NSW"/"NSD" in noc_semaphore_wait, "NBW"/"NBD" in a NOC
 * barrier, "DPW"/"DPD" while a print waits for room, and "ERR!" on an
 * error report.
 */
#ifndef TT_DEBUG_WAYPOINT_H
#define TT_DEBUG_WAYPOINT_H

#include "kernel_api/base.h"

/* The four characters of a string literal as one word (shorter literals
 * end in zeros). Constant-folded. */
#define TTK_WAYPOINT_WORD(s)                                                  \
	((uint32_t)(uint8_t)(s)[0] |                                          \
	 (uint32_t)(uint8_t)(s)[sizeof(s) > 2 ? 1 : 0] *                      \
		 (sizeof(s) > 2) << 8 |                                       \
	 (uint32_t)(uint8_t)(s)[sizeof(s) > 3 ? 2 : 0] *                      \
		 (sizeof(s) > 3) << 16 |                                      \
	 (uint32_t)(uint8_t)(s)[sizeof(s) > 4 ? 3 : 0] *                      \
		 (sizeof(s) > 4) << 24)

static inline void ttk_waypoint(uint32_t word)
{
	volatile struct tt_mailbox *mb =
		(volatile struct tt_mailbox *)TT_L1_MAILBOX_ADDR(TT_KERNEL_PROC);

	mb->waypoint = word;
}

#define WAYPOINT(s) ttk_waypoint(TTK_WAYPOINT_WORD("" s ""))

#endif /* TT_DEBUG_WAYPOINT_H */
