/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * The flash image the management processor boots from (TT_ARC_FLASH_BASE,
 * hw/arc.h): a header, a table of entries, then their payloads.
 *
 * The firmware build writes the firmware entries (tt-flash.bin, made by
 * scripts/mkflash.py); the model adds the TT_FLASH_BOARD_INFO entry, as a
 * factory programs each board, when it builds a device. Offsets are from
 * the start of the flash; every offset and size must be checked against
 * TT_ARC_FLASH_SIZE before use.
 */
#ifndef TT_HW_FLASH_H
#define TT_HW_FLASH_H

#include "bits.h"
#include "card.h" /* enum tt_card_type */

#define TT_FLASH_MAGIC 0x4C465454u /* "TTFL" */
#define TT_FLASH_FORMAT 1
#define TT_FLASH_MAX_ENTRIES 15

enum tt_flash_kind {
	TT_FLASH_EMPTY = 0,
	TT_FLASH_ARC_FW = 1, /* management firmware, loaded into CSM */
	TT_FLASH_BRISC_FW = 2, /* Tensix core firmware, one per hart kind */
	TT_FLASH_NCRISC_FW = 3,
	TT_FLASH_COMPUTE_FW = 4,
	TT_FLASH_BOARD_INFO = 5, /* struct tt_board_info */
};

/* A payload is a flat image: `size` bytes to be copied to `load_addr` (a
 * local address of the hart kind that runs it), then bss_size zero bytes
 * after it; execution starts at `entry`. */
struct tt_flash_entry {
	uint32_t kind; /* enum tt_flash_kind */
	uint32_t offset; /* payload, from the start of the flash */
	uint32_t size;
	uint32_t load_addr;
	uint32_t bss_size;
	uint32_t entry;
	uint32_t version; /* firmware version, one byte per part: a.b.c.d */
	uint32_t crc32; /* of the payload (IEEE 802.3, as zlib) */
};

struct tt_flash_header {
	uint32_t magic; /* TT_FLASH_MAGIC */
	uint32_t format; /* TT_FLASH_FORMAT */
	uint32_t bundle_version; /* firmware bundle, a.b.c.d */
	uint32_t entry_count; /* <= TT_FLASH_MAX_ENTRIES */
	struct tt_flash_entry entry[TT_FLASH_MAX_ENTRIES];
};

/* Board information, written by the "factory" (the model). */
struct tt_board_info {
	uint32_t board_id_hi; /* card type in [19:4] (hw/card.h) */
	uint32_t board_id_lo; /* serial number */
	uint32_t asic_id_hi;
	uint32_t asic_id_lo;
	uint32_t card_type; /* enum tt_card_type */
	uint32_t chip_index; /* position on the board */
	/* Limits the firmware enforces (telemetry limit tags). */
	uint32_t aiclk_max; /* MHz, busy */
	uint32_t aiclk_min; /* MHz, idle */
	uint32_t axiclk; /* MHz */
	uint32_t arcclk; /* MHz */
	uint32_t vdd_min; /* mV */
	uint32_t vdd_max; /* mV */
	uint32_t tdp_limit; /* W */
	uint32_t tdc_limit; /* A */
	uint32_t thm_limit_throttle; /* degC */
	uint32_t thm_limit_shutdown; /* degC */
	uint32_t board_power_limit; /* W */
	uint32_t dm_app_fw_version; /* board management firmware, a.b.c.d */
	uint32_t dm_bl_fw_version;
	uint32_t flash_tool_version; /* tt-flash that wrote the image */
	uint32_t grid_x, grid_y; /* NOC grid, for multicasts to every core */
	uint32_t tensix_count; /* enabled Tensix cores */
	uint32_t harvesting; /* bit per harvested Tensix row (WH) or column (BH) */
	uint32_t reserved[8];
};

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct tt_flash_entry) == 32, "flash entry layout");
_Static_assert(sizeof(struct tt_flash_header) == 16 + 15 * 32,
	       "flash header layout");
_Static_assert(sizeof(struct tt_board_info) == 128, "board info layout");
#endif

#endif /* TT_HW_FLASH_H */
