/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * NOC interface unit (NIU): one register page per NOC per node
 * (TT_REG_NIU0_ADDR, TT_REG_NIU1_ADDR in hw/tile.h).
 *
 * A node issues NOC transactions through TT_NIU_CMD_BUFS command buffers.
 * "Local" is the issuing node's own memory, "target" the remote node:
 *
 *   READ        target[addr, +len)  -> local[ret, +len)
 *   WRITE       local[ret, +len)    -> target[addr, +len)
 *               with TT_NIU_CTRL_MCAST: to every enabled Tensix node in the
 *               rectangle (x_start, y_start)..(x, y), inclusive
 *   ATOMIC_INC  target 32-bit L1 word += incr, wrapping at 2^(wrap+1);
 *               with TT_NIU_CTRL_RETURN the old value is written to
 *               local[ret, +4)
 *
 * To issue: fill the buffer, then write 1 to TT_NIU_CMD_ISSUE. The register
 * reads non-zero (1 queued, 2 in flight) until the command is done and 0
 * afterwards;
 * TT_NIU_CMD_STATUS then holds 0 or a TT_DEV_ERR_* code (hw/host.h).
 * A host that writes these registers through a window rings the node's
 * doorbell (hw/host.h); on the model that is done by the window itself.
 *
 * Transaction counters count completed work and only grow (mod 2^32): a
 * barrier waits until the count reaches the number it issued.
 */
#ifndef TT_HW_NIU_H
#define TT_HW_NIU_H

#include "bits.h"

#define TT_NIU_CMD_BUFS 4
#define TT_NIU_CMD_STRIDE 0x40

/* Command buffer b register offset. */
#define TT_NIU_CMD(b, reg) ((b) * TT_NIU_CMD_STRIDE + (reg))

#define TT_NIU_CMD_TARG_LO 0x00 /* target local address [31:0] */
#define TT_NIU_CMD_TARG_HI 0x04 /* target local address [35:32] */
#define TT_NIU_CMD_TARG_COORD 0x08 /* target coordinates, below */
#define TT_NIU_CMD_RET_LO 0x0C /* local address [31:0] */
#define TT_NIU_CMD_RET_HI 0x10 /* local address [35:32] */
#define TT_NIU_CMD_LEN 0x14 /* bytes (READ/WRITE) */
#define TT_NIU_CMD_CTRL 0x18 /* command and flags, below */
#define TT_NIU_CMD_INCR 0x1C /* ATOMIC_INC increment */
#define TT_NIU_CMD_ISSUE 0x20 /* write 1: issue; reads 1 while pending */
#define TT_NIU_CMD_STATUS 0x24 /* result of the last command */

#define TT_NIU_COORD_X_MASK TT_GENMASK(5, 0)
#define TT_NIU_COORD_Y_MASK TT_GENMASK(11, 6)
#define TT_NIU_COORD_X_START_MASK TT_GENMASK(17, 12) /* multicast only */
#define TT_NIU_COORD_Y_START_MASK TT_GENMASK(23, 18) /* multicast only */

#define TT_NIU_CTRL_OP_MASK TT_GENMASK(3, 0)
#define TT_NIU_CTRL_MCAST TT_BIT(8) /* WRITE to a rectangle */
#define TT_NIU_CTRL_IRQ TT_BIT(9) /* raise TT_IRQ_NOC_DONE when done */
#define TT_NIU_CTRL_RETURN TT_BIT(10) /* ATOMIC_INC: return old value */
#define TT_NIU_CTRL_WRAP_MASK TT_GENMASK(20, 16) /* ATOMIC_INC wrap bit */

enum tt_niu_op {
	TT_NIU_OP_NONE = 0,
	TT_NIU_OP_READ = 1,
	TT_NIU_OP_WRITE = 2,
	TT_NIU_OP_ATOMIC_INC = 3,
};

/* Status block, after the command buffers. */
#define TT_NIU_NODE_ID 0x800 /* RO: [5:0] x, [11:6] y on this NOC */
#define TT_NIU_READS_DONE 0x810 /* READ commands completed */
#define TT_NIU_WRITES_DONE 0x814 /* WRITE commands completed (acked) */
#define TT_NIU_ATOMICS_DONE 0x818 /* ATOMIC_INC commands completed */
#define TT_NIU_ERRORS 0x81C /* commands that failed */
#define TT_NIU_BYTES_LO 0x820 /* bytes moved [31:0] */
#define TT_NIU_BYTES_HI 0x824 /* bytes moved [63:32] */

#endif /* TT_HW_NIU_H */
