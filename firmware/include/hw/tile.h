/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * A node's local address map, as seen over the NOC.
 *
 *   0x0_0000_0000  memory: Tensix/ETH L1 (size from the SoC descriptor),
 *                  one DRAM channel (DRAM endpoints), nothing elsewhere
 *   0x0_1000_0000  ARC only: CSM, TT_ARC_CSM_SIZE bytes
 *   0x8_0000_0000  PCIe only: host window, TT_PCIE_HOST_WINDOW_SIZE bytes,
 *                  translated to host bus addresses by the ATU (hw/pcie.h)
 *   0x0_FFB0_0000  register space: 4 KiB pages listed below; any other page
 *                  of the register space is outside the map
 *
 * Every access is checked against this map; an access outside it is refused
 * and recorded in the device error log (hw/host.h).
 *
 * Register pages (the same set on every node type unless noted):
 *
 *   TT_REG_TILE_CTRL  0xFFB1_2000  node identity, soft reset (hw/tile.h)
 *   TT_REG_NIU0       0xFFB2_0000  NOC 0 interface: command buffers (hw/niu.h)
 *   TT_REG_NIU1       0xFFB3_0000  NOC 1 interface
 *   TT_REG_PCIE_ATU   0xFFB4_0000  PCIe nodes only: outbound ATU (hw/pcie.h)
 *   TT_REG_HART       0xFFB1_4000  nodes with harts (hw/hart.h)
 *   TT_REG_TENSIX     0xFFB1_6000  Tensix only: tile coprocessor (hw/tensix.h)
 *   TT_REG_CB         0xFFB1_7000  Tensix only: circular-buffer counters
 */
#ifndef TT_HW_TILE_H
#define TT_HW_TILE_H

#include "bits.h"

#define TT_REG_PAGE_SIZE 0x1000u
#define TT_REG_SPACE_BASE 0xFFB00000ull
#define TT_REG_SPACE_SIZE 0x00100000ull

/* Register pages, in the order they are stored in a node's register block
 * (hw/host.h: node descriptor regs_off + index * TT_REG_PAGE_SIZE). */
enum tt_reg_page {
	TT_REG_TILE_CTRL = 0,
	TT_REG_NIU0 = 1,
	TT_REG_NIU1 = 2,
	TT_REG_PCIE_ATU = 3,
	TT_REG_HART = 4,
	TT_REG_ARC_RESET = 5,
	TT_REG_ARC_SENSORS = 6,
	TT_REG_TENSIX = 7, /* Tensix only: tile coprocessor (hw/tensix.h) */
	TT_REG_CB = 8, /* Tensix only: circular-buffer counters */
	TT_REG_PAGE_COUNT
};

/* Bytes reserved per node for register pages in the device image. */
#define TT_REG_BLOCK_SIZE (16u * TT_REG_PAGE_SIZE)

#define TT_REG_TILE_CTRL_ADDR 0xFFB12000ull
#define TT_REG_NIU0_ADDR 0xFFB20000ull
#define TT_REG_NIU1_ADDR 0xFFB30000ull
#define TT_REG_PCIE_ATU_ADDR 0xFFB40000ull
#define TT_REG_HART_ADDR 0xFFB14000ull
#define TT_REG_ARC_RESET_ADDR 0xFFB60000ull
#define TT_REG_ARC_SENSORS_ADDR 0xFFB61000ull
#define TT_REG_TENSIX_ADDR 0xFFB16000ull
#define TT_REG_CB_ADDR 0xFFB17000ull

/* Local address of register page p. */
static inline uint64_t tt_reg_page_addr(enum tt_reg_page p)
{
	switch (p) {
	case TT_REG_TILE_CTRL:
		return TT_REG_TILE_CTRL_ADDR;
	case TT_REG_NIU0:
		return TT_REG_NIU0_ADDR;
	case TT_REG_NIU1:
		return TT_REG_NIU1_ADDR;
	case TT_REG_PCIE_ATU:
		return TT_REG_PCIE_ATU_ADDR;
	case TT_REG_HART:
		return TT_REG_HART_ADDR;
	case TT_REG_ARC_RESET:
		return TT_REG_ARC_RESET_ADDR;
	case TT_REG_ARC_SENSORS:
		return TT_REG_ARC_SENSORS_ADDR;
	case TT_REG_TENSIX:
		return TT_REG_TENSIX_ADDR;
	case TT_REG_CB:
		return TT_REG_CB_ADDR;
	default:
		return 0;
	}
}

/* Register page holding local address a, or -1 if a is no register page. */
static inline int tt_reg_page_of(uint64_t a)
{
	uint64_t page = a & ~(uint64_t)(TT_REG_PAGE_SIZE - 1);
	int p;

	for (p = 0; p < TT_REG_PAGE_COUNT; p++)
		if (tt_reg_page_addr((enum tt_reg_page)p) == page)
			return p;
	return -1;
}

/* Local address of the NIU page of a NOC (0 or 1). */
#define TT_REG_NIU_ADDR(noc) ((noc) ? TT_REG_NIU1_ADDR : TT_REG_NIU0_ADDR)

/* ARC management processor memory. */
#define TT_ARC_CSM_BASE 0x10000000ull
#define TT_ARC_CSM_SIZE 0x80000ull /* 512 KiB */

/*
 * Tile control page (TT_REG_TILE_CTRL). Offsets in bytes, registers 32-bit.
 */
#define TT_TILE_NODE_ID 0x000 /* RO: [5:0] x, [11:6] y (NOC 0) */
#define TT_TILE_NODE_ID_X_MASK TT_GENMASK(5, 0)
#define TT_TILE_NODE_ID_Y_MASK TT_GENMASK(11, 6)
#define TT_TILE_NODE_TYPE 0x004 /* RO: enum tt_hw_node_type */
#define TT_TILE_NODE_FLAGS 0x008 /* RO: TT_NODE_F_* */
/* Soft reset lines, one bit per hart (tt_hart_reset_bit(), hw/hart.h);
 * 1 = held in reset (Wormhole bit positions). Tensix harts come out of a
 * chip reset held in reset; the management firmware releases them. */
#define TT_TILE_SOFT_RESET 0x1B0
#define TT_TILE_SOFT_RESET_BRISC TT_BIT(11)
#define TT_TILE_SOFT_RESET_TRISC TT_BIT(12)
#define TT_TILE_SOFT_RESET_NCRISC TT_BIT(18)
/* RO: lines set by any write since the model last acted on them, so a
 * reset pulse (assert, then release) is never missed. */
#define TT_TILE_SOFT_RESET_SEEN 0x1B4

#endif /* TT_HW_TILE_H */
