/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A few RV32IM instruction encoders, for tests that hand-assemble small
 * programs for the model's harts.
 */
#ifndef TT_TESTS_RV32ASM_H
#define TT_TESTS_RV32ASM_H

#include <stdint.h>

#include "hw/hart.h"

static inline uint32_t rv_i(uint32_t op, unsigned f3, unsigned rd,
			    unsigned rs1, int32_t imm)
{
	return op | rd << 7 | f3 << 12 | rs1 << 15 | ((uint32_t)imm & 0xFFF) << 20;
}

static inline uint32_t rv_r(unsigned f7, unsigned f3, unsigned rd,
			    unsigned rs1, unsigned rs2)
{
	return 0x33 | rd << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | f7 << 25;
}

static inline uint32_t rv_s(unsigned f3, unsigned rs1, unsigned rs2, int32_t imm)
{
	uint32_t u = (uint32_t)imm;

	return 0x23 | (u & 0x1F) << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 |
	       ((u >> 5) & 0x7F) << 25;
}

static inline uint32_t rv_b(unsigned f3, unsigned rs1, unsigned rs2, int32_t off)
{
	uint32_t u = (uint32_t)off;

	return 0x63 | ((u >> 11) & 1) << 7 | ((u >> 1) & 0xF) << 8 | f3 << 12 |
	       rs1 << 15 | rs2 << 20 | ((u >> 5) & 0x3F) << 25 |
	       ((u >> 12) & 1) << 31;
}

#define RV_LUI(rd, imm20) (0x37u | (unsigned)(rd) << 7 | ((uint32_t)(imm20) << 12))
#define RV_ADDI(rd, rs1, imm) rv_i(0x13, 0, rd, rs1, imm)
#define RV_ADD(rd, rs1, rs2) rv_r(0, 0, rd, rs1, rs2)
#define RV_LW(rd, rs1, imm) rv_i(0x03, 2, rd, rs1, imm)
#define RV_SW(rs2, rs1, imm) rv_s(2, rs1, rs2, imm)
#define RV_BEQ(rs1, rs2, off) rv_b(0, rs1, rs2, off)
#define RV_BNE(rs1, rs2, off) rv_b(1, rs1, rs2, off)
#define RV_JAL0(off) (0x6Fu | ((((uint32_t)(off) >> 12) & 0xFF) << 12) | \
		      ((((uint32_t)(off) >> 11) & 1) << 20) |            \
		      ((((uint32_t)(off) >> 1) & 0x3FF) << 21) |         \
		      ((((uint32_t)(off) >> 20) & 1) << 31))
#define RV_EBREAK 0x00100073u
#define RV_WFI 0x10500073u
#define RV_WAITNE(rs1, rs2) TT_INSN_WAIT_NE(rs1, rs2)

/* Load a 32-bit constant into rd (two instructions). */
#define RV_LI(rd, v)                                                       \
	RV_LUI(rd, (((uint32_t)(v) + 0x800u) >> 12) & 0xFFFFFu),           \
		RV_ADDI(rd, rd, (int32_t)((uint32_t)(v) << 20) >> 20)

#endif /* TT_TESTS_RV32ASM_H */
