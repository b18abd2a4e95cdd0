/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How the management firmware lays out CSM (TT_ARC_CSM_BASE, 512 KiB).
 * The host finds the message queues and the telemetry table through the
 * scratch RAM pointers (hw/msgq.h, hw/telemetry.h), never through these
 * constants; they are the firmware's own business.
 *
 *   0x1000_0000  firmware image and its stack (ld/arc.ld)      128 KiB
 *   0x1002_0000  message queues: struct tt_msgq_info, then the
 *                queues from +0x40                               4 KiB
 *   0x1002_1000  telemetry: struct tt_telem_table, values after   4 KiB
 *   0x1004_0000  staging area: core firmware on its way from flash
 *                to the Tensix cores over the NOC               64 KiB
 *   0x1005_0000  free                                          192 KiB
 */
#ifndef TT_ARC_CSM_H
#define TT_ARC_CSM_H

#include "hw/l1.h"
#include "hw/msgq.h"
#include "hw/telemetry.h"
#include "hw/tile.h"

#define CSM_FW_BASE 0x10000000u
#define CSM_FW_SIZE 0x20000u /* = LENGTH(FW) in ld/arc.ld */

#define CSM_MSGQ_INFO 0x10020000u
#define CSM_MSGQ_BASE (CSM_MSGQ_INFO + 0x40u)
#define CSM_MSGQ_END 0x10021000u

#define CSM_TELEM_BASE 0x10021000u
#define CSM_TELEM_END 0x10022000u

#define CSM_STAGING_BASE 0x10040000u
#define CSM_STAGING_SIZE 0x10000u

_Static_assert(CSM_FW_BASE == TT_ARC_CSM_BASE, "firmware at the start of CSM");
_Static_assert(CSM_FW_BASE + CSM_FW_SIZE <= CSM_MSGQ_INFO, "CSM overlap");
_Static_assert(CSM_MSGQ_BASE +
			       TT_MSGQ_COUNT * TT_MSGQ_BYTES(TT_MSGQ_SIZE) <=
		       CSM_MSGQ_END,
	       "message queues fit their area");
_Static_assert(CSM_TELEM_BASE + 8 + 8 * TT_TELEM_MAX_ENTRIES <= CSM_TELEM_END,
	       "telemetry fits its area");
_Static_assert(CSM_STAGING_SIZE >= TT_L1_FW_SIZE,
	       "a core firmware image fits the staging area");
_Static_assert(CSM_STAGING_BASE + CSM_STAGING_SIZE <=
		       TT_ARC_CSM_BASE + TT_ARC_CSM_SIZE,
	       "staging area inside CSM");

#endif /* TT_ARC_CSM_H */
