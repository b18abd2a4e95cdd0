/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the Tensix core firmware keeps in L1, and the launch protocol by
 * which the host (or another core) runs a binary on a hart.
 *
 *   0x00000  BRISC firmware: code, data, stack     TT_L1_FW_SIZE
 *   0x08000  NCRISC firmware
 *   0x10000  compute firmware
 *   0x18000  mailboxes, one struct tt_mailbox per hart
 *   0x19000  reserved for the firmware
 *   0x20000  TT_L1_UNRESERVED: free for kernels, arguments and data
 *
 * Launch, host side (for hart h):
 *   1. wait until mailbox[h].fw_state == TT_FW_READY and done.seq ==
 *      launch.seq (the hart is idle);
 *   2. put the binary and its arguments in L1 (at or above
 *      TT_L1_UNRESERVED);
 *   3. write launch.entry, .args, .nargs, then launch.seq = done.seq + 1
 *      (last: it starts the run).
 * The firmware calls entry(args, nargs) on its own stack, stores the
 * return value in done.ret, then writes done.seq = launch.seq, writes
 * TT_HART_HOST_IRQ (hw/hart.h) and waits for the next launch. A hart that
 * faults halts (state TT_HART_HALTED) instead of completing.
 */
#ifndef TT_HW_L1_H
#define TT_HW_L1_H

#include "bits.h"

#define TT_L1_FW_BRISC 0x00000u
#define TT_L1_FW_NCRISC 0x08000u
#define TT_L1_FW_COMPUTE 0x10000u
#define TT_L1_FW_SIZE 0x08000u
#define TT_L1_MAILBOX 0x18000u
#define TT_L1_MAILBOX_STRIDE 0x100u
#define TT_L1_UNRESERVED 0x20000u

/* Firmware region of hart h (enum tt_tensix_hart). */
#define TT_L1_FW_BASE(h) ((uint32_t)(h) * TT_L1_FW_SIZE)
/* Mailbox of hart h. */
#define TT_L1_MAILBOX_ADDR(h) (TT_L1_MAILBOX + (uint32_t)(h) * TT_L1_MAILBOX_STRIDE)

#define TT_FW_READY 0x52454459u /* "YDER": waiting for launches */

/* Kernel entry point: returns a value reported in done.ret. */
typedef int32_t (*tt_kernel_entry)(const uint32_t *args, uint32_t nargs);

struct tt_launch_msg {
	uint32_t seq; /* written last by the launcher */
	uint32_t entry; /* L1 address of the entry point */
	uint32_t args; /* L1 address of nargs 32-bit arguments */
	uint32_t nargs;
	uint32_t reserved[4];
};

struct tt_launch_done {
	uint32_t seq; /* = launch.seq once the run has returned */
	int32_t ret; /* the entry point's return value */
	uint32_t runs; /* launches completed since the firmware started */
	uint32_t reserved[5];
};

struct tt_mailbox {
	uint32_t fw_state; /* TT_FW_READY once the firmware waits */
	uint32_t fw_version; /* a.b.c.d */
	uint32_t hart; /* enum tt_tensix_hart, as the firmware saw it */
	uint32_t reserved0[5];
	struct tt_launch_msg launch;
	struct tt_launch_done done;
	uint32_t reserved1[40];
};

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct tt_mailbox) == TT_L1_MAILBOX_STRIDE,
	       "mailbox layout");
#endif

#endif /* TT_HW_L1_H */
