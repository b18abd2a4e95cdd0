// SPDX-License-Identifier: Apache-2.0
#include "addr.h"

#include "hw/decode.h"

/* The decoding itself is the contract's (hw/decode.h): the same code
 * decides for the host's kmd transport, which has no model behind it. */
bool sim_noc_to_noc0(const struct sim_image *img, unsigned noc, unsigned *x,
		     unsigned *y)
{
	return tt_noc_to_noc0(img->grid_x, img->grid_y, noc, x, y);
}

enum tt_dev_err sim_decode(struct sim_image *img, unsigned noc, unsigned x,
			   unsigned y, uint64_t addr, uint64_t len,
			   struct sim_target *t)
{
	struct tt_target c;
	struct tt_node_desc *n;
	enum tt_dev_err e;

	e = tt_decode(img->nodes, img->grid_x, img->grid_y, noc, x, y, addr,
		      len, &c);
	if (e)
		return e;
	n = &img->nodes[c.node];
	t->node = n;
	switch (c.kind) {
	case TT_TARGET_MEM:
		t->kind = SIM_TARGET_MEM;
		t->ptr = img->base + n->mem_off + c.mem_off;
		break;
	case TT_TARGET_REG:
		t->kind = SIM_TARGET_REG;
		t->page = c.page;
		t->page_off = c.page_off;
		t->ptr = sim_image_regs(img, n, c.page) + c.page_off;
		break;
	case TT_TARGET_HOST:
		t->kind = SIM_TARGET_HOST;
		t->host_addr = c.host_addr;
		break;
	}
	return TT_DEV_ERR_NONE;
}

bool sim_reg_page_present(const struct tt_node_desc *n, enum tt_reg_page p)
{
	return tt_reg_page_present(n->type, p);
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
		/* operands and CMD; then RO but for the instruction register */
		return off <= TT_TX_CMD || off == TT_TX_SFPI;
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
