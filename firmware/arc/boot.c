// SPDX-License-Identifier: Apache-2.0
#include "boot.h"

#include <stdbool.h>

#include "hw/noc.h"
#include "fw/hart.h"
#include "fw/string.h"
#include "cores.h"
#include "csm.h"
#include "flash.h"
#include "regs.h"
#include "state.h"

/* Static rather than on the stack: it is half a kilobyte. */
static struct tt_flash_header flash_header;

void boot_fail(enum tt_arc_boot_error err)
{
	scratch_ram_write(TT_ARC_SR_ERROR_STATUS, err);
	post(TT_ARC_POST_FAIL);
	hart_sleep_forever();
}

/* Limits everything else relies on: the grid for the multicasts, the
 * clock range and temperature limits for the power policy. */
static bool board_ok(const struct tt_board_info *b)
{
	return b->grid_x >= 1 && b->grid_x <= TT_NOC_MAX_COORD + 1 &&
	       b->grid_y >= 1 && b->grid_y <= TT_NOC_MAX_COORD + 1 &&
	       b->tensix_count <= b->grid_x * b->grid_y &&
	       b->aiclk_min >= 1 && b->aiclk_min <= b->aiclk_max &&
	       b->thm_limit_throttle >= 1 &&
	       b->thm_limit_throttle <= b->thm_limit_shutdown;
}

/* The payload goes through the staging area so that its CRC covers all
 * of it, however large a newer format makes it; only the part this
 * firmware knows is kept. */
static void read_board_info(const struct tt_flash_header *h)
{
	const struct tt_flash_entry *e = flash_find(h, TT_FLASH_BOARD_INFO);

	if (!e || e->size < sizeof(arc.board) ||
	    flash_load(e, (void *)CSM_STAGING_BASE, CSM_STAGING_SIZE) != 0)
		boot_fail(TT_ARC_BOOT_BAD_BOARD_INFO);
	memcpy(&arc.board, (const void *)CSM_STAGING_BASE, sizeof(arc.board));
	if (!board_ok(&arc.board))
		boot_fail(TT_ARC_BOOT_BAD_BOARD_INFO);
}

void boot(void)
{
	const struct tt_flash_entry *core;
	enum tt_arc_boot_error err;

	if (flash_read_header(&flash_header) != 0)
		boot_fail(TT_ARC_BOOT_BAD_FLASH);
	arc.bundle_version = flash_header.bundle_version;
	/* The three core images are built from one source with one version;
	 * BRISC's stands for all. */
	core = flash_find(&flash_header, TT_FLASH_BRISC_FW);
	arc.core_version = core ? core->version : 0;
	read_board_info(&flash_header);
	post(TT_ARC_POST_FLASH);

	err = cores_boot(&flash_header);
	if (err != TT_ARC_BOOT_OK)
		boot_fail(err);
	post(TT_ARC_POST_TENSIX);
}
