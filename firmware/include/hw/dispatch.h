/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * Fast dispatch: the contract between the host's command queue and the
 * dispatcher, a program that runs on the BRISC hart of a Tensix core the
 * host keeps out of the user's grid (docs/dispatch.md).
 *
 * The issue ring lives in host memory the device reaches through the PCIe
 * core (a DMA buffer). The host appends commands and then stores the total
 * number of bytes it has appended (a wrapping 32-bit count) at
 * TT_DISPATCH_WP in the dispatcher's L1; the dispatcher sleeps on that
 * word. It reads commands from the ring into its L1 with NOC reads and
 * carries them out with NOC writes and multicasts. A DONE command appends
 * a record to the completion ring, also in host memory, stores its own
 * count of records after the record, and interrupts the host.
 *
 * Every command is a 16-byte header and a payload of `len` bytes padded to
 * 16; a command never wraps around the ring's end (the host writes a WRAP
 * there instead) and is never longer than TT_DISPATCH_MAX_CMD.
 */
#ifndef TT_HW_DISPATCH_H
#define TT_HW_DISPATCH_H

#include <stdint.h>

#include "l1.h"

/* The dispatcher's L1: the issue write pointer, the launch counter the
 * workers it starts count into, then the staging area for commands. All
 * in the NCRISC and compute kernel slots, which the dispatcher's core does
 * not otherwise use. */
#define TT_DISPATCH_WP TT_L1_KERNEL_SLOT(1)
#define TT_DISPATCH_COUNTER (TT_L1_KERNEL_SLOT(1) + 0x10u)
#define TT_DISPATCH_STAGE (TT_L1_KERNEL_SLOT(1) + 0x100u)
#define TT_DISPATCH_STAGE_SIZE (2u * TT_L1_KERNEL_SLOT_SIZE - 0x100u)
#define TT_DISPATCH_MAX_CMD TT_DISPATCH_STAGE_SIZE

#define TT_DISPATCH_ALIGN 16u

enum tt_dispatch_op {
	/* Copy the payload to [addr, +len) of every enabled Tensix node in
	 * the rectangle (x0, y0)..(x1, y1), NOC 0 coordinates; one node
	 * when both corners are the same. */
	TT_DCMD_WRITE = 1,
	/* Wait until the 32-bit word at TT_DISPATCH_COUNTER, less `value`,
	 * is not negative (wrapping): the workers started so far are done. */
	TT_DCMD_WAIT = 2,
	/* Append {value, status} to the completion ring. */
	TT_DCMD_DONE = 3,
	/* Continue at the start of the ring. */
	TT_DCMD_WRAP = 4,
	/* Complete with {value, 0} and return: the dispatcher stops. */
	TT_DCMD_EXIT = 5,
};

struct tt_dispatch_cmd {
	uint8_t op; /* enum tt_dispatch_op */
	uint8_t x0, y0, x1, y1;
	uint8_t reserved[3];
	uint32_t addr; /* WRITE: target address */
	uint32_t len; /* WRITE: payload bytes; others: 0 */
};

/* WAIT and DONE reuse the header: the value is in `addr`. */
#define tt_dispatch_cmd_value addr

struct tt_dispatch_completion {
	uint32_t value; /* the DONE command's value */
	uint32_t status; /* 0, or a TT_DEV_ERR_* code of a failed write */
};

/*
 * The dispatcher's kernel arguments (get_arg_val order): where the rings
 * are, as NOC addresses on the PCIe core.
 */
enum tt_dispatch_arg {
	TT_DARG_PCIE_XY, /* x | y << 8 */
	TT_DARG_RING_LO, /* issue ring, its first byte */
	TT_DARG_RING_HI,
	TT_DARG_RING_SIZE, /* bytes, a multiple of TT_DISPATCH_ALIGN */
	TT_DARG_DONE_LO, /* completion ring: records, then the count */
	TT_DARG_DONE_HI,
	TT_DARG_DONE_RECORDS, /* records in the completion ring */
	TT_DARG_START, /* the issue count the dispatcher starts from */
	TT_DARG_COUNT
};

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct tt_dispatch_cmd) == TT_DISPATCH_ALIGN,
	       "dispatch command header");
_Static_assert(TT_DISPATCH_STAGE + TT_DISPATCH_STAGE_SIZE <=
		       TT_L1_PROG_UNRESERVED,
	       "dispatch staging area");
#endif

#endif /* TT_HW_DISPATCH_H */
