// SPDX-License-Identifier: Apache-2.0
#include "board.h"

#include <string.h>

static const struct board_info boards[] = {
	{ TT_HW_BOARD_NAME_N150, TT_HW_BOARD_N150, TT_HW_ARCH_WORMHOLE_B0, 1,
	  { "wormhole_b0_n150" }, "Wormhole n150: one chip, 72 Tensix" },
	{ TT_HW_BOARD_NAME_N300, TT_HW_BOARD_N300, TT_HW_ARCH_WORMHOLE_B0, 2,
	  { "wormhole_b0_n300", "wormhole_b0_n300" },
	  "Wormhole n300: two chips, 64 Tensix each" },
	{ TT_HW_BOARD_NAME_P150, TT_HW_BOARD_P150, TT_HW_ARCH_BLACKHOLE, 1,
	  { "blackhole_p150" }, "Blackhole p150: one chip, 120 Tensix" },
	{ TT_HW_BOARD_NAME_E150, TT_HW_BOARD_E150, TT_HW_ARCH_GRAYSKULL, 1,
	  { "grayskull_e150" }, "Grayskull e150: one chip, 120 Tensix" },
};

static const struct board_info *const board_ptrs[] = {
	&boards[0], &boards[1], &boards[2], &boards[3], NULL,
};

const struct board_info *board_find(const char *name)
{
	for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++)
		if (name && strcmp(boards[i].name, name) == 0)
			return &boards[i];
	return NULL;
}

const struct board_info *board_by_id(enum tt_hw_board id)
{
	for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++)
		if (boards[i].id == id)
			return &boards[i];
	return NULL;
}

const struct board_info *const *board_list(void)
{
	return board_ptrs;
}
