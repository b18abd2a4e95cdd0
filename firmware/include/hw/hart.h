/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * Harts: the RV32IM cores of a node, and the hart control page through
 * which the host and the harts themselves see them.
 *
 * Every hart is RV32IM, little-endian, and sees its own node's local
 * address map (hw/tile.h): on a Tensix node L1 at 0 and the register pages;
 * on the ARC node CSM, the flash (hw/arc.h) and the register pages. Remote
 * memory is reached through the NIU (hw/niu.h), as on the real chip.
 *
 * Besides RV32IM a hart executes:
 *   fence, fence.i   ordering (no-ops in the model: memory is coherent, and a
 *                    changed instruction word is always seen)
 *   ecall, ebreak    debug traps: the hart halts with TT_HART_FAULT_ECALL or
 *                    TT_HART_FAULT_EBREAK and its fault record is filled
 *   wfi              a hint: may sleep until an event on this node (below)
 *                    or WAKE_AT. It cannot tell what happened before it
 *                    went to sleep (a write may land as it retires), so
 *                    code that waits for a condition uses TT_WAIT_NE; a
 *                    write to TT_HART_WAKE is never missed.
 *   TT_WAIT_NE       custom-0 R-type, funct3 0, funct7 0: "tt.waitne rs1, rs2":
 *                    sleep while the 32-bit word at address rs1 (memory or
 *                    a register) equals rs2, or until WAKE_AT. It may return
 *                    early; callers loop. No wake-up is lost: a writer that
 *                    changes the word wakes the hart.
 *   TT_WAIT_GE       custom-0 R-type, funct3 1, funct7 0: "tt.waitge rs1, rs2":
 *                    the same, but sleep while the word is below rs2 in
 *                    wrapping order ((int32_t)(word - rs2) < 0): a counter
 *                    that many agents increment wakes the waiter once, when
 *                    it reaches rs2, not at every increment.
 *
 * An event on a node is any write to its memory or register pages by the
 * host or the NOC (including the end of a NOC command the node issued), a
 * write to its TT_HART_WAKE register, or a store by one of its harts to an
 * address a sibling waits on. A hart's writes to its own node's registers
 * are not events, except those to the circular-buffer counters and the
 * coprocessor's packs into L1 (hw/tensix.h). A waiting hart costs the
 * host nothing.
 *
 * A hart halts on a fault: illegal instruction, misaligned load/store/fetch,
 * an access outside its map, ecall/ebreak, or running past its instruction
 * budget. The fault record below stays until the hart is reset; the rest of
 * the chip keeps running.
 */
#ifndef TT_HW_HART_H
#define TT_HW_HART_H

#include "bits.h"
#include "tile.h"

/* Harts of a Tensix node, by index. */
enum tt_tensix_hart {
	TT_HART_BRISC = 0, /* data movement, RISCV_0 (writer by convention) */
	TT_HART_NCRISC = 1, /* data movement, RISCV_1 (reader by convention) */
	TT_HART_COMPUTE = 2, /* stands for TRISC0-2 (unpack, math, pack) */
	TT_TENSIX_HARTS = 3
};

/* The ARC node has one hart, index 0: the management processor. */
#define TT_ARC_HARTS 1
#define TT_HART_MAX 3

/* Reset line of hart index h in TT_TILE_SOFT_RESET (1 = held in reset). */
static inline uint32_t tt_hart_reset_bit(unsigned h)
{
	return h == TT_HART_BRISC    ? TT_TILE_SOFT_RESET_BRISC :
	       h == TT_HART_NCRISC   ? TT_TILE_SOFT_RESET_NCRISC :
	       h == TT_HART_COMPUTE  ? TT_TILE_SOFT_RESET_TRISC : 0;
}

/* All reset lines of a Tensix node. */
#define TT_TILE_SOFT_RESET_ALL \
	(TT_TILE_SOFT_RESET_BRISC | TT_TILE_SOFT_RESET_NCRISC | \
	 TT_TILE_SOFT_RESET_TRISC)

/*
 * Hart control page (TT_REG_HART, local address TT_REG_HART_ADDR), on nodes
 * with harts. Per-hart blocks of TT_HART_STRIDE bytes at h * TT_HART_STRIDE;
 * node-wide registers from TT_HART_NODE_REGS. RO unless marked RW.
 */
#define TT_HART_STRIDE 0x40
#define TT_HART_REG(h, reg) ((h) * TT_HART_STRIDE + (reg))

#define TT_HART_STATE 0x00 /* enum tt_hart_state */
#define TT_HART_PC 0x04 /* pc when the hart last stopped or was sampled */
#define TT_HART_RESET_PC 0x08 /* RW: where the hart starts out of reset */
#define TT_HART_FAULT_CAUSE 0x0C /* enum tt_hart_fault */
#define TT_HART_FAULT_PC 0x10 /* pc of the faulting instruction */
#define TT_HART_FAULT_ADDR 0x14 /* data address, or the instruction word */
#define TT_HART_INSTRET_LO 0x18 /* instructions retired since reset */
#define TT_HART_INSTRET_HI 0x1C
#define TT_HART_BUDGET_LO 0x20 /* RW: runaway limit in instructions since */
#define TT_HART_BUDGET_HI 0x24 /*     reset; 0 = none */
#define TT_HART_WAKE_AT_LO 0x28 /* RW: a wait also ends when TT_HART_TIME */
#define TT_HART_WAKE_AT_HI 0x2C /*     reaches this; 0 = no timer */
#define TT_HART_WAIT_ADDR 0x30 /* address a WAITING hart watches (debug) */

#define TT_HART_NODE_REGS 0x800
#define TT_HART_TIME_LO 0x800 /* device time, microseconds since power-on */
#define TT_HART_TIME_HI 0x804 /*   (read HI, LO, HI again if it moved) */
#define TT_HART_SELF 0x808 /* index of the reading hart; host: 0xFFFFFFFF */
#define TT_HART_WAKE 0x80C /* RW: any write is an event on this node */
#define TT_HART_WAITERS 0x810 /* non-zero while a hart here waits */
#define TT_HART_COUNT 0x814 /* harts on this node */
#define TT_HART_HOST_IRQ 0x818 /* RW: any write raises TT_IRQ_HART */

enum tt_hart_state {
	TT_HART_IN_RESET = 0, /* reset line asserted */
	TT_HART_RUNNING = 1, /* runnable or running */
	TT_HART_WAITING = 2, /* in wfi, TT_WAIT_NE or TT_WAIT_GE */
	TT_HART_HALTED = 3, /* faulted; see the fault record */
};

enum tt_hart_fault {
	TT_HART_FAULT_NONE = 0,
	TT_HART_FAULT_ILLEGAL = 1, /* FAULT_ADDR = the instruction word */
	TT_HART_FAULT_FETCH_ALIGN = 2, /* pc not a multiple of 4 */
	TT_HART_FAULT_FETCH_ACCESS = 3, /* pc outside the hart's memory */
	TT_HART_FAULT_LOAD_ALIGN = 4,
	TT_HART_FAULT_LOAD_ACCESS = 5, /* outside the map, or refused */
	TT_HART_FAULT_STORE_ALIGN = 6,
	TT_HART_FAULT_STORE_ACCESS = 7, /* outside the map, read-only, refused */
	TT_HART_FAULT_ECALL = 8,
	TT_HART_FAULT_EBREAK = 9,
	TT_HART_FAULT_RUNAWAY = 10, /* instruction budget exhausted */
	TT_HART_FAULT_COUNT
};

/* "tt.waitne rs1, rs2" and "tt.waitge rs1, rs2" (custom-0 opcode 0x0B). */
#define TT_OPCODE_CUSTOM0 0x0Bu
#define TT_INSN_WAIT_NE(rs1, rs2) \
	(TT_OPCODE_CUSTOM0 | ((uint32_t)(rs1) << 15) | ((uint32_t)(rs2) << 20))
#define TT_INSN_WAIT_GE(rs1, rs2) (TT_INSN_WAIT_NE(rs1, rs2) | (1u << 12))

#endif /* TT_HW_HART_H */
