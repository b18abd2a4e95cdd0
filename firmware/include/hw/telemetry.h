/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * Telemetry table, as Blackhole's CMFW publishes it (reference/device.md
 * sections 1.7 and 2.1; tags as in tt-kmd's sysfs, reference/kmd.md 1.10).
 *
 * TT_ARC_SCRATCH_RAM(TT_ARC_SR_TELEM_TABLE) holds the CSM address of
 * struct tt_telem_table, TT_ARC_SCRATCH_RAM(TT_ARC_SR_TELEM_DATA) that of
 * its values. Each entry is tag [15:0] | offset [31:16]; the tag's value is
 * data[offset]. Readers must bound entry_count and offsets and must not
 * assume offset == tag. The firmware refreshes the values every
 * UPDATE_TELEM_SPEED ms and increments TIMER_HEARTBEAT each time.
 */
#ifndef TT_HW_TELEMETRY_H
#define TT_HW_TELEMETRY_H

#include "bits.h"

#define TT_TELEM_VERSION 0x00000100u
#define TT_TELEM_MAX_ENTRIES 128

enum tt_telem_tag {
	TT_TAG_BOARD_ID_HIGH = 1,
	TT_TAG_BOARD_ID_LOW = 2,
	TT_TAG_ASIC_ID = 3,
	TT_TAG_HARVESTING_STATE = 4,
	TT_TAG_UPDATE_TELEM_SPEED = 5, /* ms */
	TT_TAG_VCORE = 6, /* mV */
	TT_TAG_TDP = 7, /* W (power) */
	TT_TAG_TDC = 8, /* A (current) */
	TT_TAG_VDD_LIMITS = 9, /* [15:0] min mV, [31:16] max mV */
	TT_TAG_THM_LIMIT_SHUTDOWN = 10, /* degC */
	TT_TAG_ASIC_TEMPERATURE = 11, /* s16.16 degC */
	TT_TAG_VREG_TEMPERATURE = 12, /* degC */
	TT_TAG_BOARD_TEMPERATURE = 13, /* degC */
	TT_TAG_AICLK = 14, /* MHz */
	TT_TAG_AXICLK = 15, /* MHz */
	TT_TAG_ARCCLK = 16, /* MHz */
	TT_TAG_ETH_FW_VERSION = 24,
	TT_TAG_DM_APP_FW_VERSION = 26,
	TT_TAG_DM_BL_FW_VERSION = 27,
	TT_TAG_FLASH_BUNDLE_VERSION = 28,
	TT_TAG_CM_FW_VERSION = 29,
	TT_TAG_FAN_SPEED = 31, /* percent */
	TT_TAG_TIMER_HEARTBEAT = 32,
	TT_TAG_TELEM_ENUM_COUNT = 33,
	TT_TAG_ENABLED_TENSIX_COL = 34,
	TT_TAG_INPUT_CURRENT = 39, /* A */
	TT_TAG_FAN_RPM = 41,
	TT_TAG_BOARD_POWER_LIMIT = 53, /* W */
	TT_TAG_INPUT_POWER = 54, /* W */
	TT_TAG_TDC_LIMIT_MAX = 55, /* A */
	TT_TAG_THM_LIMIT_THROTTLE = 56, /* degC */
	TT_TAG_TT_FLASH_VERSION = 58,
	TT_TAG_THERM_TRIP_COUNT = 60,
	TT_TAG_ASIC_ID_HIGH = 61,
	TT_TAG_ASIC_ID_LOW = 62,
	TT_TAG_AICLK_LIMIT_MAX = 63, /* MHz */
	TT_TAG_TDP_LIMIT_MAX = 64, /* W */
	/* Ours, after Blackhole's last tag (70). */
	TT_TAG_THROTTLED = 100, /* 1 while the thermal policy holds AICLK down */
	TT_TAG_CORE_FW_VERSION = 101, /* Tensix core firmware, a.b.c.d */
	TT_TAG_ASIC_STATE = 102, /* 0 = A0, 3 = A3 */
	TT_TAG_POWER_MW = 103, /* mW, the precise figure behind TDP */
	TT_TAG_CURRENT_MA = 104, /* mA, the precise figure behind TDC */
	TT_TAG_WDT_TIMEOUT = 105, /* ms, 0 = off */
	/* s16.16 degC: air leaving the board (BOARD_TEMPERATURE is the air
	 * coming in), so outlet - inlet shows the heat the card sheds. */
	TT_TAG_OUTLET_TEMPERATURE = 106,
	TT_TAG_COUNT_MAX = 128
};

struct tt_telem_table {
	uint32_t version; /* TT_TELEM_VERSION */
	uint32_t entry_count; /* <= TT_TELEM_MAX_ENTRIES */
	uint32_t entry[]; /* tag [15:0] | offset [31:16]; values follow */
};

#define TT_TELEM_ENTRY(tag, off) (((uint32_t)(off) << 16) | (tag))
#define TT_TELEM_ENTRY_TAG(e) ((e) & 0xFFFFu)
#define TT_TELEM_ENTRY_OFF(e) ((e) >> 16)

#endif /* TT_HW_TELEMETRY_H */
