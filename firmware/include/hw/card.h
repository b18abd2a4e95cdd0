/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * Card types: the product code in the telemetry BOARD_ID_HIGH tag
 * (hw/telemetry.h) and in the board information (hw/flash.h), and its
 * name. The code is BOARD_ID_HIGH [19:4], the field tt-kmd decodes for
 * its tt_card_type attribute (tt-kmd's hwmon code; tt-umd reads [23:4],
 * the same for every code here). The names are tt-kmd's; the Grayskull
 * codes, which tt-kmd does not know, are luwen's (crates/luwen-api,
 * chip/mod.rs: 0x3 e150, 0x7 e75).
 */
#ifndef TT_HW_CARD_H
#define TT_HW_CARD_H

#include "bits.h"

enum tt_card_type {
	TT_CARD_E150 = 0x03, /* luwen's; tt-kmd knows no Grayskull */
	TT_CARD_E75 = 0x07,
	TT_CARD_N300 = 0x14,
	TT_CARD_N150 = 0x18,
	TT_CARD_GALAXY_WH = 0x35,
	TT_CARD_P100 = 0x36,
	TT_CARD_P150A = 0x40,
	TT_CARD_P150B = 0x41,
	TT_CARD_P150C = 0x42,
	TT_CARD_P100A = 0x43,
	TT_CARD_P300B = 0x44,
	TT_CARD_P300A = 0x45,
	TT_CARD_P300C = 0x46,
	TT_CARD_GALAXY_BH = 0x47,
};

#define TT_BOARD_ID_HIGH_CARD TT_GENMASK(19, 4)

/* The card type in a BOARD_ID_HIGH value. */
static inline unsigned int tt_hw_card_type(uint32_t board_id_high)
{
	return (board_id_high & TT_BOARD_ID_HIGH_CARD) >> 4;
}

/* The card's name ("n150", "p150a", ...), or "unknown". */
static inline const char *tt_hw_card_name(unsigned int card_type)
{
	switch (card_type) {
	case TT_CARD_E150:
		return "e150";
	case TT_CARD_E75:
		return "e75";
	case TT_CARD_N300:
		return "n300";
	case TT_CARD_N150:
		return "n150";
	case TT_CARD_GALAXY_WH:
		return "galaxy-wormhole";
	case TT_CARD_P100:
		return "p100";
	case TT_CARD_P150A:
		return "p150a";
	case TT_CARD_P150B:
		return "p150b";
	case TT_CARD_P150C:
		return "p150c";
	case TT_CARD_P100A:
		return "p100a";
	case TT_CARD_P300B:
		return "p300b";
	case TT_CARD_P300A:
		return "p300a";
	case TT_CARD_P300C:
		return "p300c";
	case TT_CARD_GALAXY_BH:
		return "galaxy-blackhole";
	default:
		return "unknown";
	}
}

#endif /* TT_HW_CARD_H */
