// SPDX-License-Identifier: Apache-2.0
#include "addr.h"

bool sim_noc_to_noc0(const struct sim_image *img, unsigned noc, unsigned *x,
		     unsigned *y)
{
	if (*x >= img->grid_x || *y >= img->grid_y)
		return false;
	if (noc) {
		*x = tt_noc_mirror(*x, img->grid_x);
		*y = tt_noc_mirror(*y, img->grid_y);
	}
	return true;
}

/* Does an access at addr start inside [base, base + size)? */
static bool starts_in(uint64_t addr, uint64_t base, uint64_t size)
{
	return addr >= base && addr - base < size;
}

static enum tt_dev_err decode_reg(struct sim_image *img, struct tt_node_desc *n,
				  uint64_t addr, uint64_t len,
				  struct sim_target *t)
{
	int page = tt_reg_page_of(addr);

	if (page < 0)
		return TT_DEV_ERR_UNMAPPED;
	if (!sim_reg_page_present(n, (enum tt_reg_page)page))
		return TT_DEV_ERR_UNMAPPED;
	t->kind = SIM_TARGET_REG;
	t->page = (enum tt_reg_page)page;
	t->page_off = (unsigned)(addr & (TT_REG_PAGE_SIZE - 1));
	if (len > TT_REG_PAGE_SIZE - t->page_off)
		return TT_DEV_ERR_RANGE;
	t->ptr = sim_image_regs(img, n, t->page) + t->page_off;
	return TT_DEV_ERR_NONE;
}

enum tt_dev_err sim_decode(struct sim_image *img, unsigned noc, unsigned x,
			   unsigned y, uint64_t addr, uint64_t len,
			   struct sim_target *t)
{
	struct tt_node_desc *n;

	if (noc >= TT_NOC_COUNT || !sim_noc_to_noc0(img, noc, &x, &y))
		return TT_DEV_ERR_NO_NODE;
	n = sim_image_node(img, x, y);
	if (n->type == TT_NODE_NONE)
		return TT_DEV_ERR_NO_NODE;
	if (n->flags & TT_NODE_F_HARVESTED)
		return TT_DEV_ERR_HARVESTED;
	if (addr > TT_NOC_ADDR_LOCAL_MASK)
		return TT_DEV_ERR_UNMAPPED;
	t->node = n;
	if (n->mem_size && starts_in(addr, n->mem_base, n->mem_size)) {
		if (len > n->mem_size - (addr - n->mem_base))
			return TT_DEV_ERR_RANGE;
		t->kind = SIM_TARGET_MEM;
		t->ptr = img->base + n->mem_off + (addr - n->mem_base);
		return TT_DEV_ERR_NONE;
	}
	if (starts_in(addr, TT_REG_SPACE_BASE, TT_REG_SPACE_SIZE))
		return decode_reg(img, n, addr, len, t);
	if (n->type == TT_NODE_PCIE &&
	    starts_in(addr, TT_PCIE_HOST_WINDOW_BASE,
		      TT_PCIE_HOST_WINDOW_SIZE)) {
		if (len > TT_PCIE_HOST_WINDOW_SIZE -
				  (addr - TT_PCIE_HOST_WINDOW_BASE))
			return TT_DEV_ERR_RANGE;
		t->kind = SIM_TARGET_HOST;
		t->host_addr = addr;
		return TT_DEV_ERR_NONE;
	}
	return TT_DEV_ERR_UNMAPPED;
}

bool sim_reg_page_present(const struct tt_node_desc *n, enum tt_reg_page p)
{
	switch (p) {
	case TT_REG_PCIE_ATU:
		return n->type == TT_NODE_PCIE;
	case TT_REG_HART:
		return n->type == TT_NODE_TENSIX || n->type == TT_NODE_ARC;
	case TT_REG_ARC_RESET:
	case TT_REG_ARC_SENSORS:
		return n->type == TT_NODE_ARC;
	case TT_REG_TENSIX:
	case TT_REG_CB:
		return n->type == TT_NODE_TENSIX;
	default:
		return true;
	}
}

static bool hart_reg_writable(unsigned off)
{
	unsigned reg = off % TT_HART_STRIDE;

	if (off < TT_HART_MAX * TT_HART_STRIDE)
		return reg == TT_HART_RESET_PC || reg == TT_HART_BUDGET_LO ||
		       reg == TT_HART_BUDGET_HI || reg == TT_HART_WAKE_AT_LO ||
		       reg == TT_HART_WAKE_AT_HI;
	return off == TT_HART_WAKE || off == TT_HART_HOST_IRQ;
}

static bool arc_reset_writable(unsigned off)
{
	if (off >= TT_ARC_SCRATCH(0) && off <= TT_ARC_SCRATCH(7))
		return true;
	if (off >= TT_ARC_SCRATCH_RAM(0) && off <= TT_ARC_SCRATCH_RAM(63))
		return true;
	return off == TT_ARC_MISC_CNTL || off == TT_ARC_CHIP_RESET ||
	       off == TT_ARC_WDT_TIMEOUT || off == TT_ARC_WDT_PET;
}

static bool sensors_writable(unsigned off)
{
	return (off >= TT_SENS_AICLK && off <= TT_SENS_FAN_DUTY) ||
	       off == TT_SENS_AMBIENT;
}

/* Is the 32-bit register at byte offset `off` of `page` writable? */
static bool reg_writable(enum tt_reg_page page, unsigned off)
{
	switch (page) {
	case TT_REG_HART:
		return hart_reg_writable(off);
	case TT_REG_ARC_RESET:
		return arc_reset_writable(off);
	case TT_REG_ARC_SENSORS:
		return sensors_writable(off);
	case TT_REG_TILE_CTRL:
		return off == TT_TILE_SOFT_RESET;
	case TT_REG_NIU0:
	case TT_REG_NIU1:
		return off < TT_NIU_CMD_BUFS * TT_NIU_CMD_STRIDE &&
		       off % TT_NIU_CMD_STRIDE < TT_NIU_CMD_STATUS;
	case TT_REG_PCIE_ATU:
		return off < TT_PCIE_ATU_REGIONS * TT_PCIE_ATU_STRIDE;
	case TT_REG_TENSIX:
		return off <= TT_TX_CMD; /* operands and CMD; then RO */
	case TT_REG_CB:
		return off < TT_CB_COUNT * TT_CB_STRIDE;
	default:
		return false;
	}
}

enum tt_dev_err sim_reg_check(enum tt_reg_page page, unsigned off,
			      uint64_t len, bool write)
{
	uint64_t o;

	if (off % 4 || len % 4)
		return TT_DEV_ERR_ALIGN;
	if (!write)
		return TT_DEV_ERR_NONE;
	for (o = off; o < off + len; o += 4)
		if (!reg_writable(page, (unsigned)o))
			return TT_DEV_ERR_READ_ONLY;
	return TT_DEV_ERR_NONE;
}
