/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * The vector unit's instructions: what a kernel uses to write its own
 * element-wise function of DST (TT-Metal's SFPI level), next to the fixed
 * functions of TT_TX_SFPU (hw/tensix.h).
 *
 * An instruction is one 32-bit word written to the coprocessor register
 * TT_TX_SFPI; it is done when the store returns. A bad instruction (unknown
 * opcode, a register or field out of range, a reserved field not zero, a
 * DST vector beyond the capacity, a condition-stack overflow or underflow)
 * changes nothing, sets TT_TX_STATUS (TT_TX_ERR_OP, _DST or _CC) and
 * refuses the store, exactly as a bad TT_TX_CMD does: a hart that issues
 * one halts with a store access fault.
 *
 * State of the unit, per Tensix node (a chip reset clears all of it):
 *
 *   LREG[0..7]   vector registers of TT_SFPI_LANES (32) fp32 lanes
 *   ENABLE       the lane-enable mask, one bit per lane
 *   CC stack     TT_SFPI_CC_DEPTH entries of (OUTER, TAKEN) lane masks
 *
 * DST as vectors. Each DST tile is TT_SFPI_TILE_VECS (32) vectors of 32
 * lanes in face order: vector v of tile t is DST vector t * 32 + v, and
 * holds the tile's elements 32v .. 32v + 31 in face order (the order of a
 * tile in L1): face v / 8 (0 top left, 1 top right, 2 bottom left, 3
 * bottom right), face rows 2 (v % 8) and 2 (v % 8) + 1, lane l at face row
 * 2 (v % 8) + l / 16, face column l % 16. So 8 vectors make a face and
 * 4 faces a tile, as SFPI kernels iterate.
 *
 * Lanes are fp32 and every operation is IEEE single precision, rounded to
 * nearest even (subnormals kept). LOAD reads DST's value as DST holds it;
 * STORE rounds to DST's precision (bfloat16 in 16-bit mode, half if
 * operand A's format is Float16; nothing with CFG.FP32_DST), as every
 * write to DST does.
 *
 * Masked execution: every instruction that writes a register or DST
 * (LOAD, STORE, LOADI, MOV .. MAX) writes only the lanes whose ENABLE bit
 * is set. Outside conditionals all 32 lanes are enabled. A conditional is
 * PUSHC, one or more CMPs (each narrows ENABLE: their AND), the body, then
 * ELSE and more CMPs for an else-if, ELSE alone for an else, and POPC:
 *
 *   PUSHC  push (OUTER = ENABLE, TAKEN = 0)
 *   CMP    ENABLE &= lanes where (A cond B) holds (needs an entry)
 *   ELSE   TAKEN |= ENABLE; ENABLE = OUTER & ~TAKEN (needs an entry)
 *   POPC   ENABLE = OUTER; pop (needs an entry)
 *   RESET  ENABLE = all lanes; empty the stack (LREGs are kept)
 *
 * Encodings ([7:0] always the opcode; fields an instruction does not use
 * must be 0, as must [31:24] of the R form):
 *
 *   R form  [11:8] D  [15:12] A  [19:16] B  [23:20] C   registers 0..7
 *   M form  [11:8] R  [31:12] DST vector                LOAD, STORE
 *   I form  [11:8] D  [15:12] mode  [31:16] imm16       LOADI
 */
#ifndef TT_HW_SFPI_H
#define TT_HW_SFPI_H

#include "bits.h"

#define TT_SFPI_LREGS 8u /* vector registers */
#define TT_SFPI_LANES 32u /* fp32 lanes per register */
#define TT_SFPI_FACE_VECS 8u /* DST vectors per 16x16 face */
#define TT_SFPI_TILE_VECS 32u /* DST vectors per 32x32 tile */
#define TT_SFPI_CC_DEPTH 8u /* condition stack entries */

#define TT_SFPI_OP_MASK TT_GENMASK(7, 0)
#define TT_SFPI_D_MASK TT_GENMASK(11, 8)
#define TT_SFPI_A_MASK TT_GENMASK(15, 12)
#define TT_SFPI_B_MASK TT_GENMASK(19, 16)
#define TT_SFPI_C_MASK TT_GENMASK(23, 20)
#define TT_SFPI_R_RSVD_MASK TT_GENMASK(31, 24)
#define TT_SFPI_VEC_MASK TT_GENMASK(31, 12)
#define TT_SFPI_MODE_MASK TT_GENMASK(15, 12)
#define TT_SFPI_IMM_MASK TT_GENMASK(31, 16)

#define TT_SFPI_R(op, d, a, b, c)                                      \
	((uint32_t)(op) | (uint32_t)(d) << 8 | (uint32_t)(a) << 12 |    \
	 (uint32_t)(b) << 16 | (uint32_t)(c) << 20)
#define TT_SFPI_M(op, r, vec) \
	((uint32_t)(op) | (uint32_t)(r) << 8 | (uint32_t)(vec) << 12)
#define TT_SFPI_I(op, d, mode, imm)                                   \
	((uint32_t)(op) | (uint32_t)(d) << 8 | (uint32_t)(mode) << 12 | \
	 ((uint32_t)(imm) & 0xFFFFu) << 16)

enum tt_sfpi_op {
	/* 0 is no instruction. M form: */
	TT_SFPI_LOAD = 1, /* LREG[R] = DST vector */
	TT_SFPI_STORE = 2, /* DST vector = LREG[R] */
	/* I form: LREG[D] lanes from imm16 (enum tt_sfpi_loadi). */
	TT_SFPI_LOADI = 3,
	/* R form: */
	TT_SFPI_MOV = 4, /* D = A */
	TT_SFPI_ADD = 5, /* D = A + B */
	TT_SFPI_SUB = 6, /* D = A - B */
	TT_SFPI_MUL = 7, /* D = A * B */
	TT_SFPI_MAD = 8, /* D = A * B + C, fused: one rounding */
	TT_SFPI_ABS = 9, /* D = |A| (the sign bit cleared) */
	TT_SFPI_NEG = 10, /* D = -A (the sign bit flipped) */
	/* D = the smaller / larger of A and B, as C's fminf / fmaxf: a NaN
	 * operand gives the other; min(-0, +0) = -0, max(-0, +0) = +0. */
	TT_SFPI_MIN = 11,
	TT_SFPI_MAX = 12,
	TT_SFPI_PUSHC = 13, /* no operands */
	/* ENABLE &= (A cond B), D holds enum tt_sfpi_cond; IEEE comparisons
	 * (a NaN lane compares false except for NE). */
	TT_SFPI_CMP = 14,
	TT_SFPI_ELSE = 15, /* no operands */
	TT_SFPI_POPC = 16, /* no operands */
	TT_SFPI_RESET = 17, /* no operands */
	TT_SFPI_OP_COUNT
};

/* LOADI modes: the lanes' fp32 bits become */
enum tt_sfpi_loadi {
	TT_SFPI_LOADI_BF16 = 0, /* imm16 << 16 (a bfloat16 value) */
	TT_SFPI_LOADI_LO16 = 1, /* [31:16] kept, [15:0] = imm16 */
	TT_SFPI_LOADI_HI16 = 2, /* [31:16] = imm16, [15:0] kept */
};

/* CMP conditions, A against B */
enum tt_sfpi_cond {
	TT_SFPI_LT = 0,
	TT_SFPI_LE = 1,
	TT_SFPI_GT = 2,
	TT_SFPI_GE = 3,
	TT_SFPI_EQ = 4,
	TT_SFPI_NE = 5,
	TT_SFPI_COND_COUNT
};

#endif /* TT_HW_SFPI_H */
