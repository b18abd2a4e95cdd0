/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Boards: which chips a product carries. One table, used by the chip model
 * (what to build) and libtt (what a device is).
 */
#ifndef TT_COMMON_BOARD_H
#define TT_COMMON_BOARD_H

#include "hw/arch.h"

#define BOARD_MAX_CHIPS 2

struct board_info {
	const char *name; /* "n150", ... */
	enum tt_hw_board id;
	enum tt_hw_arch arch;
	unsigned chips;
	const char *soc[BOARD_MAX_CHIPS]; /* built-in descriptor per chip */
	const char *summary; /* one line for --help */
};

/* Board by name ("n150"), or NULL. */
const struct board_info *board_find(const char *name);
/* Board by id, or NULL. */
const struct board_info *board_by_id(enum tt_hw_board id);
/* All boards, NULL-terminated. */
const struct board_info *const *board_list(void);
/* The board used when none is named. */
#define BOARD_DEFAULT "n150"

#endif /* TT_COMMON_BOARD_H */
