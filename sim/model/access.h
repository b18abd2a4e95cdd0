/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Checked accesses to device memory: the one path by which host windows,
 * the NOC engine and (later) harts read and write the chip. Every access is
 * decoded against the address map; a refused one is recorded in the device
 * error log and returned as its TT_DEV_ERR_* code.
 *
 * Writes to an NIU register page ring that NIU's doorbell, which is how a
 * write of TT_NIU_CMD_ISSUE reaches the engine: in the model, registers
 * are shared memory and cannot trap.
 */
#ifndef TT_SIM_ACCESS_H
#define TT_SIM_ACCESS_H

#include "errlog.h"
#include "hostmem.h"

struct sim_ctx {
	struct sim_image *img;
	/* Host memory behind the PCIe host window; NULL where this process
	 * does not run the device (a client's host windows). */
	struct sim_hostmem *hostmem;
};

/*
 * Copy between buf and target [a->addr, + a->len) on a->noc at (a->x,
 * a->y). a->op selects the direction (READ: target -> buf; WRITE or MCAST:
 * buf -> target). Returns TT_DEV_ERR_NONE or the recorded error.
 */
enum tt_dev_err sim_access(struct sim_ctx *c, const struct sim_access *a,
			   void *buf);

/*
 * Write buf to every enabled Tensix node in the rectangle with corners
 * (x0, y0) and (x1, y1), inclusive, NOC coordinates of a->noc (a->x/a->y
 * give the second corner and are ignored here). Non-Tensix nodes inside the
 * rectangle are skipped; a rectangle outside the grid or with no Tensix
 * node is an error.
 */
enum tt_dev_err sim_multicast(struct sim_ctx *c, const struct sim_access *a,
			      unsigned x0, unsigned y0, unsigned x1,
			      unsigned y1, const void *buf);

/*
 * Atomic increment of the 32-bit L1 word at the target: new = (old + incr)
 * mod 2^(wrap + 1). *old receives the previous value.
 */
enum tt_dev_err sim_atomic_inc(struct sim_ctx *c, const struct sim_access *a,
			       uint32_t incr, unsigned wrap, uint32_t *old);

#endif /* TT_SIM_ACCESS_H */
