/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NOC transfers from a hart, through its node's NIU command buffers
 * (hw/niu.h).
 *
 * "local" is always this node's own memory (L1 on a Tensix node, CSM on
 * the ARC node), "remote" a local address of the target node. A hart uses
 * the command buffer with its own index (BRISC 0, NCRISC 1, compute 2, the
 * ARC hart 0), so the harts of a node never share one; buffer 3 is left to
 * the host.
 *
 * The blocking calls wait (without spinning) until the engine has taken
 * the command and return its status: 0 or a TT_DEV_ERR_* code (hw/host.h).
 */
#ifndef TT_FW_NOC_H
#define TT_FW_NOC_H

#include <stdint.h>

#include "hw/niu.h"
#include "fw/mmio.h"

/* A command to issue: see the field comments in hw/niu.h. */
struct noc_cmd {
	unsigned noc; /* 0 or 1 */
	uint32_t x, y; /* target, or the multicast rectangle's end corner */
	uint32_t x_start, y_start; /* multicast only */
	uint64_t remote; /* target local address */
	uint32_t local; /* this node's memory */
	uint32_t len;
	uint32_t ctrl; /* enum tt_niu_op | TT_NIU_CTRL_* */
	uint32_t incr; /* ATOMIC_INC */
};

/* Issue cmd on this hart's command buffer once the buffer is free; does
 * not wait for the command. */
void noc_issue(const struct noc_cmd *cmd);

/* Wait until this hart's command buffer is free; returns the status of
 * its last command. */
uint32_t noc_wait(unsigned noc);

/* noc_issue() then noc_wait(). */
uint32_t noc_run(const struct noc_cmd *cmd);

/* remote [addr, +len) of node (x, y) -> local [local, +len). */
uint32_t noc_read(unsigned noc, uint32_t x, uint32_t y, uint64_t addr,
		  uint32_t local, uint32_t len);

/* local [local, +len) -> remote [addr, +len) of node (x, y). */
uint32_t noc_write(unsigned noc, uint32_t x, uint32_t y, uint64_t addr,
		   uint32_t local, uint32_t len);

/* local [local, +len) -> [addr, +len) of every enabled Tensix node in the
 * rectangle (x0, y0)..(x1, y1), corners in any order. */
uint32_t noc_mcast_write(unsigned noc, uint32_t x0, uint32_t y0, uint32_t x1,
			 uint32_t y1, uint64_t addr, uint32_t local,
			 uint32_t len);

/* One 32-bit word to node (x, y); staged in this hart's stack, which is in
 * local memory. */
uint32_t noc_write32(unsigned noc, uint32_t x, uint32_t y, uint64_t addr,
		     uint32_t val);

/* One 32-bit word to every enabled Tensix node of a rectangle (register
 * pages included, e.g. the soft-reset register of every core). */
uint32_t noc_mcast_write32(unsigned noc, uint32_t x0, uint32_t y0,
			   uint32_t x1, uint32_t y1, uint64_t addr,
			   uint32_t val);

/*
 * Add incr to the 32-bit word at addr of node (x, y), wrapping at
 * 2^(wrap + 1), without waiting for the result: only the registers an
 * atomic uses are written. The next command on the buffer waits for it.
 */
void noc_post_atomic_inc(unsigned noc, uint32_t x, uint32_t y, uint32_t addr,
			 uint32_t incr, uint32_t wrap);

/* noc_wait() on the command buffer at local address base. */
uint32_t noc_wait_at(uintptr_t base);

/*
 * noc_post_atomic_inc() on the command buffer at local address base
 * (TT_REG_NIU_ADDR(noc) + TT_NIU_CMD(buffer, 0)), inline: for a caller
 * that knows its buffer when it is built and runs this for every hart of
 * every program (the core firmware's completion count).
 */
static inline void noc_post_atomic_inc_at(uintptr_t base, uint32_t x,
					  uint32_t y, uint32_t addr,
					  uint32_t incr, uint32_t wrap)
{
	/* Usually free already: the model runs a hart's own command as it
	 * writes ISSUE. */
	if (mmio_read32(base + TT_NIU_CMD_ISSUE))
		noc_wait_at(base);
	mmio_write32(base + TT_NIU_CMD_TARG_LO, addr);
	mmio_write32(base + TT_NIU_CMD_TARG_HI, 0);
	mmio_write32(base + TT_NIU_CMD_TARG_COORD,
		     TT_FIELD_PREP(TT_NIU_COORD_X_MASK, x) |
			     TT_FIELD_PREP(TT_NIU_COORD_Y_MASK, y));
	mmio_write32(base + TT_NIU_CMD_CTRL,
		     TT_NIU_OP_ATOMIC_INC |
			     TT_FIELD_PREP(TT_NIU_CTRL_WRAP_MASK, wrap));
	mmio_write32(base + TT_NIU_CMD_INCR, incr);
	/* What this hart wrote before must be seen before the count. */
	mmio_barrier();
	mmio_write32(base + TT_NIU_CMD_ISSUE, 1);
}

#endif /* TT_FW_NOC_H */
