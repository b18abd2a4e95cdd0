/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * Architectures, boards and node types known to the contract. These numbers
 * appear in the identity page and in the node table, so they never change
 * meaning; new values are appended.
 */
#ifndef TT_HW_ARCH_H
#define TT_HW_ARCH_H

enum tt_hw_arch {
	TT_HW_ARCH_UNKNOWN = 0,
	TT_HW_ARCH_GRAYSKULL = 1,
	TT_HW_ARCH_WORMHOLE_B0 = 2,
	TT_HW_ARCH_BLACKHOLE = 3,
};

enum tt_hw_board {
	TT_HW_BOARD_UNKNOWN = 0,
	TT_HW_BOARD_E150 = 1, /* Grayskull, one chip */
	TT_HW_BOARD_N150 = 2, /* Wormhole, one chip */
	TT_HW_BOARD_N300 = 3, /* Wormhole, two chips */
	TT_HW_BOARD_P150 = 4, /* Blackhole, one chip */
};

/*
 * Names, one spelling for every layer (soc descriptors, libtt, tt-smi,
 * ttsim --board, the driver's log). Board names are macros too, so that
 * static tables (common/board.c) can hold them.
 */
#define TT_HW_BOARD_NAME_E150 "e150"
#define TT_HW_BOARD_NAME_N150 "n150"
#define TT_HW_BOARD_NAME_N300 "n300"
#define TT_HW_BOARD_NAME_P150 "p150"

/* "grayskull", "wormhole_b0", "blackhole"; "unknown" for other values. */
static inline const char *tt_hw_arch_name(unsigned int arch)
{
	switch (arch) {
	case TT_HW_ARCH_GRAYSKULL:
		return "grayskull";
	case TT_HW_ARCH_WORMHOLE_B0:
		return "wormhole_b0";
	case TT_HW_ARCH_BLACKHOLE:
		return "blackhole";
	default:
		return "unknown";
	}
}

/* "e150", "n150", "n300", "p150"; "unknown" for other values. */
static inline const char *tt_hw_board_name(unsigned int board)
{
	switch (board) {
	case TT_HW_BOARD_E150:
		return TT_HW_BOARD_NAME_E150;
	case TT_HW_BOARD_N150:
		return TT_HW_BOARD_NAME_N150;
	case TT_HW_BOARD_N300:
		return TT_HW_BOARD_NAME_N300;
	case TT_HW_BOARD_P150:
		return TT_HW_BOARD_NAME_P150;
	default:
		return "unknown";
	}
}

/* What sits at a NOC node. */
enum tt_hw_node_type {
	TT_NODE_NONE = 0,     /* no node at these coordinates */
	TT_NODE_TENSIX = 1,   /* worker: L1 at local address 0 */
	TT_NODE_ETH = 2,      /* Ethernet: L1 at local address 0 */
	TT_NODE_DRAM = 3,     /* one endpoint ("port") of a DRAM channel */
	TT_NODE_PCIE = 4,     /* host interface: host window through the ATU */
	TT_NODE_ARC = 5,      /* management processor: CSM memory */
	TT_NODE_ROUTER = 6,   /* router only: registers, no memory */
	TT_NODE_SECURITY = 7, /* Blackhole security node: registers only */
	TT_NODE_L2CPU = 8,    /* Blackhole L2CPU node: registers only */
	TT_NODE_TYPE_COUNT
};

/* Node flags (node table, hw/host.h). */
#define TT_NODE_F_HARVESTED 0x01u /* fused off: every access faults */

#endif /* TT_HW_ARCH_H */
