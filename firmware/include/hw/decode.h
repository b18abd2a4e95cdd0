/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * Reading a device image (hw/host.h) as the contract defines it: checks of
 * the identity page and of node table entries, and the address decoder
 * that says what a NOC address names on a node. The chip model decodes
 * with it, and so does a host that reaches a card through its BAR, so an
 * access is accepted or refused for the same reason wherever it is made.
 *
 * Header-only C99 with no libc. Every check takes the image or BAR size:
 * the device is untrusted, so callers check a private copy of each
 * structure and use that copy, never the shared one again.
 */
#ifndef TT_HW_DECODE_H
#define TT_HW_DECODE_H

#include "arch.h"
#include "host.h"
#include "noc.h"
#include "pcie.h"
#include "tile.h"
#include "version.h"

/* Why an identity page is refused (0: it is usable). */
enum tt_identity_fault {
	TT_IDENTITY_OK = 0,
	TT_IDENTITY_BAD_MAGIC, /* not a device image */
	TT_IDENTITY_BAD_CONTRACT, /* another contract major */
	TT_IDENTITY_CORRUPT, /* size, node table or grid do not fit */
};

/* Why a node table entry is refused (0: it is usable). */
enum tt_node_fault {
	TT_NODE_OK = 0,
	TT_NODE_CORRUPT, /* unknown type, or not at its own index */
	TT_NODE_OUTSIDE, /* registers or memory outside the image */
};

/* Does [off, off + len) lie inside size bytes? */
static inline int tt_image_region_ok(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/* Check an identity page (a private copy) of an image of `size` bytes. */
static inline enum tt_identity_fault
tt_identity_check(const struct tt_identity *id, uint64_t size)
{
	if (id->magic_lo != TT_IDENTITY_MAGIC_LO ||
	    id->magic_hi != TT_IDENTITY_MAGIC_HI)
		return TT_IDENTITY_BAD_MAGIC;
	if (id->contract_major != TT_HW_CONTRACT_MAJOR)
		return TT_IDENTITY_BAD_CONTRACT;
	if (id->image_size != size ||
	    id->node_table_off != TT_IMAGE_NODE_TABLE_OFF ||
	    id->node_size != sizeof(struct tt_node_desc) || !id->grid_x ||
	    !id->grid_y || id->grid_x > TT_NOC_MAX_COORD + 1 ||
	    id->grid_y > TT_NOC_MAX_COORD + 1 ||
	    !tt_image_region_ok(id->node_table_off,
				(uint64_t)id->grid_x * id->grid_y *
					id->node_size,
				size))
		return TT_IDENTITY_CORRUPT;
	return TT_IDENTITY_OK;
}

/* Check entry i of a node table (a private copy) of a grid_x-wide grid. */
static inline enum tt_node_fault tt_node_check(const struct tt_node_desc *n,
					       unsigned i, unsigned grid_x,
					       uint64_t size)
{
	if (n->type >= TT_NODE_TYPE_COUNT || n->x != i % grid_x ||
	    n->y != i / grid_x)
		return TT_NODE_CORRUPT;
	if (n->type == TT_NODE_NONE)
		return TT_NODE_OK;
	if (!tt_image_region_ok(n->regs_off, TT_REG_BLOCK_SIZE, size) ||
	    (n->mem_size && !tt_image_region_ok(n->mem_off, n->mem_size, size)) ||
	    n->mem_base > TT_NOC_ADDR_LOCAL_MASK ||
	    n->mem_size > TT_NOC_ADDR_LOCAL_MASK - n->mem_base)
		return TT_NODE_OUTSIDE;
	return TT_NODE_OK;
}

/* Does a node of this type have register page p? */
static inline int tt_reg_page_present(unsigned type, enum tt_reg_page p)
{
	switch (p) {
	case TT_REG_PCIE_ATU:
		return type == TT_NODE_PCIE;
	case TT_REG_HART:
		return type == TT_NODE_TENSIX || type == TT_NODE_ARC;
	case TT_REG_ARC_RESET:
	case TT_REG_ARC_SENSORS:
		return type == TT_NODE_ARC;
	case TT_REG_TENSIX:
	case TT_REG_CB:
		return type == TT_NODE_TENSIX;
	default:
		return 1;
	}
}

/* NOC 0 coordinates of (x, y) on `noc`; 0 if outside the grid. */
static inline int tt_noc_to_noc0(unsigned grid_x, unsigned grid_y,
				 unsigned noc, unsigned *x, unsigned *y)
{
	if (*x >= grid_x || *y >= grid_y)
		return 0;
	if (noc) {
		*x = tt_noc_mirror(*x, grid_x);
		*y = tt_noc_mirror(*y, grid_y);
	}
	return 1;
}

enum tt_target_kind {
	TT_TARGET_MEM, /* node memory: mem_off bytes into it */
	TT_TARGET_REG, /* a register page: page and page_off */
	TT_TARGET_HOST, /* the PCIe node's host window: host_addr */
};

/* What an access names. */
struct tt_target {
	enum tt_target_kind kind;
	unsigned node; /* index in the node table (NOC 0 y * grid_x + x) */
	uint64_t mem_off; /* TT_TARGET_MEM: offset from the node's mem_base */
	enum tt_reg_page page; /* TT_TARGET_REG */
	unsigned page_off; /* TT_TARGET_REG: byte offset in the page */
	uint64_t host_addr; /* TT_TARGET_HOST: local address */
};

/* Does an access at addr start inside [base, base + size)? */
static inline int tt_addr_in(uint64_t addr, uint64_t base, uint64_t size)
{
	return addr >= base && addr - base < size;
}

static inline enum tt_dev_err tt_decode_reg(const struct tt_node_desc *n,
					    uint64_t addr, uint64_t len,
					    struct tt_target *t)
{
	int page = tt_reg_page_of(addr);

	if (page < 0 || !tt_reg_page_present(n->type, (enum tt_reg_page)page))
		return TT_DEV_ERR_UNMAPPED;
	t->kind = TT_TARGET_REG;
	t->page = (enum tt_reg_page)page;
	t->page_off = (unsigned)(addr & (TT_REG_PAGE_SIZE - 1));
	if (len > TT_REG_PAGE_SIZE - t->page_off)
		return TT_DEV_ERR_RANGE;
	return TT_DEV_ERR_NONE;
}

/*
 * Decode [addr, addr + len) at node (x, y) of NOC `noc` (coordinates on
 * that NOC) against a checked node table of grid_x * grid_y entries.
 * Returns TT_DEV_ERR_NONE and fills t, or the code the device records for
 * the refusal. t->node is valid from the moment the node exists and is
 * enabled, even if the address is then refused. A range must stay inside
 * one region.
 */
static inline enum tt_dev_err tt_decode(const struct tt_node_desc *nodes,
					unsigned grid_x, unsigned grid_y,
					unsigned noc, unsigned x, unsigned y,
					uint64_t addr, uint64_t len,
					struct tt_target *t)
{
	const struct tt_node_desc *n;

	if (noc >= TT_NOC_COUNT || !tt_noc_to_noc0(grid_x, grid_y, noc, &x, &y))
		return TT_DEV_ERR_NO_NODE;
	n = &nodes[y * grid_x + x];
	if (n->type == TT_NODE_NONE)
		return TT_DEV_ERR_NO_NODE;
	if (n->flags & TT_NODE_F_HARVESTED)
		return TT_DEV_ERR_HARVESTED;
	if (addr > TT_NOC_ADDR_LOCAL_MASK)
		return TT_DEV_ERR_UNMAPPED;
	t->node = y * grid_x + x;
	if (n->mem_size && tt_addr_in(addr, n->mem_base, n->mem_size)) {
		if (len > n->mem_size - (addr - n->mem_base))
			return TT_DEV_ERR_RANGE;
		t->kind = TT_TARGET_MEM;
		t->mem_off = addr - n->mem_base;
		return TT_DEV_ERR_NONE;
	}
	if (tt_addr_in(addr, TT_REG_SPACE_BASE, TT_REG_SPACE_SIZE))
		return tt_decode_reg(n, addr, len, t);
	if (n->type == TT_NODE_PCIE &&
	    tt_addr_in(addr, TT_PCIE_HOST_WINDOW_BASE,
		       TT_PCIE_HOST_WINDOW_SIZE)) {
		if (len > TT_PCIE_HOST_WINDOW_SIZE -
				  (addr - TT_PCIE_HOST_WINDOW_BASE))
			return TT_DEV_ERR_RANGE;
		t->kind = TT_TARGET_HOST;
		t->host_addr = addr;
		return TT_DEV_ERR_NONE;
	}
	return TT_DEV_ERR_UNMAPPED;
}

#endif /* TT_HW_DECODE_H */
