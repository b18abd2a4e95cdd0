/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Address decoding: what a NOC address names in the device image. One
 * decoder serves every initiator (host windows, the NOC engine, harts), so
 * the map is checked the same way whoever asks.
 */
#ifndef TT_SIM_ADDR_H
#define TT_SIM_ADDR_H

#include "image.h"

enum sim_target_kind {
	SIM_TARGET_MEM, /* L1, CSM or DRAM: ptr is valid for len bytes */
	SIM_TARGET_REG, /* a register page: ptr, page and offset valid */
	SIM_TARGET_HOST, /* the PCIe host window: host_addr valid */
};

struct sim_target {
	enum sim_target_kind kind;
	struct tt_node_desc *node;
	uint8_t *ptr;
	enum tt_reg_page page; /* SIM_TARGET_REG */
	unsigned page_off; /* SIM_TARGET_REG: byte offset in the page */
	uint64_t host_addr; /* SIM_TARGET_HOST: offset in the host window */
};

/*
 * Decode [addr, addr + len) at node (x, y) of NOC `noc` (coordinates on
 * that NOC). Returns TT_DEV_ERR_NONE and fills t, or the error code that
 * describes why the access is refused. A range must stay inside one region.
 */
enum tt_dev_err sim_decode(struct sim_image *img, unsigned noc, unsigned x,
			   unsigned y, uint64_t addr, uint64_t len,
			   struct sim_target *t);

/* NOC 0 coordinates of (x, y) on `noc`; false if outside the grid. */
bool sim_noc_to_noc0(const struct sim_image *img, unsigned noc, unsigned *x,
		     unsigned *y);

/* Does node n have register page p? */
bool sim_reg_page_present(const struct tt_node_desc *n, enum tt_reg_page p);

/*
 * Register accesses must be whole aligned 32-bit words. A write must only
 * touch writable registers (read-only ones keep their value).
 */
enum tt_dev_err sim_reg_check(enum tt_reg_page page, unsigned off,
			      uint64_t len, bool write);

#endif /* TT_SIM_ADDR_H */
