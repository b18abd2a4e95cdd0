// SPDX-License-Identifier: Apache-2.0
/*
 * Everything goes out as multicast writes on NOC 0 to the whole grid: the
 * NOC delivers only to enabled Tensix nodes, so harvested cores and other
 * node types need no special casing here. Register pages are written the
 * same way as L1.
 */
#include "cores.h"

#include <stdbool.h>

#include "hw/hart.h"
#include "hw/l1.h"
#include "hw/noc.h"
#include "fw/noc.h"
#include "fw/string.h"
#include "csm.h"
#include "flash.h"
#include "state.h"

static const uint32_t core_fw_kind[TT_TENSIX_HARTS] = {
	[TT_HART_BRISC] = TT_FLASH_BRISC_FW,
	[TT_HART_NCRISC] = TT_FLASH_NCRISC_FW,
	[TT_HART_COMPUTE] = TT_FLASH_COMPUTE_FW,
};

/* The mailboxes of all three harts. */
#define MAILBOX_BYTES (TT_TENSIX_HARTS * TT_L1_MAILBOX_STRIDE)

static uint8_t *const staging = (uint8_t *)CSM_STAGING_BASE;

/* [local, +len) of CSM to addr in every Tensix core. */
static bool mcast(uint64_t addr, uint32_t local, uint32_t len)
{
	return noc_mcast_write(0, 0, 0, arc.board.grid_x - 1,
			       arc.board.grid_y - 1, addr, local, len) == 0;
}

static bool mcast32(uint64_t addr, uint32_t val)
{
	return noc_mcast_write32(0, 0, 0, arc.board.grid_x - 1,
				 arc.board.grid_y - 1, addr, val) == 0;
}

static bool mcast_zero(uint64_t addr, uint32_t len)
{
	memset(staging, 0, len);
	return mcast(addr, CSM_STAGING_BASE, len);
}

/* The image, its .bss and its entry all inside hart h's firmware region,
 * so a bad entry cannot overwrite a sibling's image or the mailboxes. */
static bool image_fits(const struct tt_flash_entry *e, unsigned h)
{
	uint32_t base = TT_L1_FW_BASE(h), off;

	if (e->load_addr < base || e->load_addr - base > TT_L1_FW_SIZE)
		return false;
	off = e->load_addr - base;
	if (e->size == 0 || e->size > TT_L1_FW_SIZE - off ||
	    e->bss_size > TT_L1_FW_SIZE - off - e->size)
		return false;
	return e->entry % 4 == 0 && e->entry >= e->load_addr &&
	       e->entry - e->load_addr < e->size;
}

static enum tt_arc_boot_error load_one(const struct tt_flash_header *h,
				       unsigned hart)
{
	const struct tt_flash_entry *e = flash_find(h, core_fw_kind[hart]);
	uint64_t reset_pc = TT_REG_HART_ADDR +
			    TT_HART_REG(hart, TT_HART_RESET_PC);

	if (!e)
		return TT_ARC_BOOT_NO_CORE_FW;
	if (!image_fits(e, hart) ||
	    flash_load(e, staging, CSM_STAGING_SIZE) != 0)
		return TT_ARC_BOOT_BAD_FLASH;
	if (!mcast(e->load_addr, CSM_STAGING_BASE, e->size) ||
	    (e->bss_size && !mcast_zero(e->load_addr + e->size, e->bss_size)) ||
	    !mcast32(reset_pc, e->entry))
		return TT_ARC_BOOT_NOC_ERROR;
	return TT_ARC_BOOT_OK;
}

enum tt_arc_boot_error cores_boot(const struct tt_flash_header *h)
{
	uint64_t soft_reset = TT_REG_TILE_CTRL_ADDR + TT_TILE_SOFT_RESET;
	enum tt_arc_boot_error err;

	/* A grid without Tensix cores has nothing to load; a multicast to
	 * it would be refused. */
	if (arc.board.tensix_count == 0)
		return TT_ARC_BOOT_OK;
	/* They come out of a chip reset held, but make sure: an image must
	 * not change under a running hart. */
	if (!mcast32(soft_reset, TT_TILE_SOFT_RESET_ALL))
		return TT_ARC_BOOT_NOC_ERROR;
	for (unsigned hart = 0; hart < TT_TENSIX_HARTS; hart++) {
		err = load_one(h, hart);
		if (err != TT_ARC_BOOT_OK)
			return err;
	}
	/* Stale launch messages must not start anything. */
	if (!mcast_zero(TT_L1_MAILBOX, MAILBOX_BYTES) || !mcast32(soft_reset, 0))
		return TT_ARC_BOOT_NOC_ERROR;
	return TT_ARC_BOOT_OK;
}
