/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Vector-unit programming (TT-Metal's SFPI, in C): a compute kernel's own
 * element-wise function over DST, written with the vector unit's
 * instructions (hw/sfpi.h). compute_kernel_api.h includes it.
 *
 * The unit has 8 vector registers, SFPI_V0 .. SFPI_V7, of 32 fp32 lanes
 * each (TT-Metal's vFloat). A DST tile is 32 vectors of 32 lanes: 4
 * faces of 16x16, 8 vectors per face, as SFPI kernels iterate; vector v
 * of DST tile idst is sfpi_dst(idst, v) (TT-Metal: dst_reg[idst * 32 + v]).
 * Every call is one or two instructions; the destination comes first.
 *
 *   sfpi_init()                 all lanes enabled, no open conditional
 *   sfpi_dst(idst, v)           DST vector v (0..31) of DST tile idst
 *   sfpi_load(d, vec)           d = DST vector vec        (vFloat d = dst_reg[i])
 *   sfpi_store(vec, s)          DST vector vec = s        (dst_reg[i] = s)
 *   sfpi_loadi(d, value)        d = value (a float) in every lane
 *   sfpi_loadi_bits(d, bits)    the same from fp32 bits
 *   sfpi_mov(d, a)              d = a
 *   sfpi_add(d, a, b)           d = a + b
 *   sfpi_sub(d, a, b)           d = a - b
 *   sfpi_mul(d, a, b)           d = a * b
 *   sfpi_mad(d, a, b, c)        d = a * b + c, fused (one rounding)
 *   sfpi_abs(d, a)  sfpi_neg(d, a)  sfpi_min(d, a, b)  sfpi_max(d, a, b)
 *   sfpi_lt(a, b) sfpi_le sfpi_gt sfpi_ge sfpi_eq sfpi_ne
 *                               conditions, for the macros below
 *
 * Per-lane conditionals (v_if / v_elseif / v_else / v_endif):
 *
 *   SFPI_IF(sfpi_lt(SFPI_V0, SFPI_V1)) {
 *           sfpi_mov(SFPI_V0, SFPI_V1);
 *   } SFPI_ELSEIF(sfpi_gt(SFPI_V0, SFPI_V2)) {
 *           sfpi_mov(SFPI_V0, SFPI_V2);
 *   } SFPI_ELSE {
 *           sfpi_add(SFPI_V0, SFPI_V0, SFPI_V3);
 *   } SFPI_ENDIF;
 *
 * SFPI_IF and SFPI_ELSEIF take one or more conditions, separated by
 * commas: a lane takes the branch if all of them hold. Conditionals nest
 * up to 8 deep. Like SFPI's, they are lane masks, not jumps: the hart
 * runs every branch, in order, and each instruction writes only the lanes
 * whose branch is taken (registers and DST alike; an instruction outside
 * any branch writes all 32 lanes). A forgotten SFPI_ENDIF is a compile
 * error; leaving a conditional by return, break or goto leaves lanes
 * disabled until sfpi_init().
 *
 * Arithmetic is IEEE fp32 per lane. DST keeps what the kernel's mode
 * keeps: sfpi_store rounds to bfloat16 in 16-bit mode and keeps fp32 with
 * DST_ACCUM_MODE. A register number or DST tile out of range is a
 * compile-time error when constant; at run time a DST tile beyond the
 * usable ones is reported like every DST index (docs/kernels.md), and a
 * bad register halts the kernel with a store access fault.
 */
#ifndef TT_COMPUTE_KERNEL_API_SFPI_H
#define TT_COMPUTE_KERNEL_API_SFPI_H

#include "compute_kernel_api/common.h"
#include "hw/sfpi.h"

enum sfpi_reg {
	SFPI_V0,
	SFPI_V1,
	SFPI_V2,
	SFPI_V3,
	SFPI_V4,
	SFPI_V5,
	SFPI_V6,
	SFPI_V7,
};

#define SFPI_LANES TT_SFPI_LANES /* 32 lanes per vector */
#define SFPI_FACE_VECS TT_SFPI_FACE_VECS /* 8 vectors per face */
#define SFPI_TILE_VECS TT_SFPI_TILE_VECS /* 32 vectors per tile */

/* ---- instructions ---- */

static inline void ttk_sfpi(uint32_t insn)
{
	*ttk_tx_reg(TT_TX_SFPI) = insn;
}

uint32_t ttk_sfpi_bad_reg(void) __attribute__((error(
	"sfpi: vector register not below 8 (SFPI_V0 .. SFPI_V7)")));

/* A register operand: a constant one checked at compile time, a variable
 * one out of range made 15, which the unit refuses. */
#define TTK_SFPI_REG(r)                                                   \
	(__builtin_constant_p(r) ?                                        \
		 ((uint32_t)(r) < TT_SFPI_LREGS ? (uint32_t)(r)           \
						: ttk_sfpi_bad_reg()) :   \
		 ((uint32_t)(r) < TT_SFPI_LREGS ? (uint32_t)(r) : 15u))

/* A DST vector operand; one beyond the field, the unit refuses too. */
#define TTK_SFPI_VEC(v) \
	((uint32_t)(v) <= 0xFFFFFu ? (uint32_t)(v) : 0xFFFFFu)

#define TTK_SFPI_OP3(op, d, a, b, c)                                  \
	ttk_sfpi(TT_SFPI_R(op, TTK_SFPI_REG(d), TTK_SFPI_REG(a),       \
			   TTK_SFPI_REG(b), TTK_SFPI_REG(c)))

static inline void sfpi_init(void)
{
	ttk_sfpi(TT_SFPI_R(TT_SFPI_RESET, 0, 0, 0, 0));
}

/* DST vector v (0 .. 31: face v / 8) of DST tile idst. */
static inline uint32_t sfpi_dst(uint32_t idst, uint32_t v)
{
	ttk_dst_check("sfpi_dst", idst, 1);
	return idst * TT_SFPI_TILE_VECS + v;
}

#define sfpi_load(d, vec) \
	ttk_sfpi(TT_SFPI_M(TT_SFPI_LOAD, TTK_SFPI_REG(d), TTK_SFPI_VEC(vec)))
#define sfpi_store(vec, s) \
	ttk_sfpi(TT_SFPI_M(TT_SFPI_STORE, TTK_SFPI_REG(s), TTK_SFPI_VEC(vec)))

static inline void ttk_sfpi_loadi(uint32_t d, uint32_t bits)
{
	ttk_sfpi(TT_SFPI_I(TT_SFPI_LOADI, d, TT_SFPI_LOADI_BF16, bits >> 16));
	if (bits & 0xFFFFu)
		ttk_sfpi(TT_SFPI_I(TT_SFPI_LOADI, d, TT_SFPI_LOADI_LO16,
				   bits & 0xFFFFu));
}

/* The fp32 bits of a float, without float arithmetic. */
static inline uint32_t ttk_sfpi_float_bits(float f)
{
	union {
		float f;
		uint32_t u;
	} v = { .f = f };

	return v.u;
}

#define sfpi_loadi_bits(d, bits) ttk_sfpi_loadi(TTK_SFPI_REG(d), (bits))
#define sfpi_loadi(d, value) \
	ttk_sfpi_loadi(TTK_SFPI_REG(d), ttk_sfpi_float_bits(value))

#define sfpi_mov(d, a) TTK_SFPI_OP3(TT_SFPI_MOV, d, a, 0, 0)
#define sfpi_add(d, a, b) TTK_SFPI_OP3(TT_SFPI_ADD, d, a, b, 0)
#define sfpi_sub(d, a, b) TTK_SFPI_OP3(TT_SFPI_SUB, d, a, b, 0)
#define sfpi_mul(d, a, b) TTK_SFPI_OP3(TT_SFPI_MUL, d, a, b, 0)
#define sfpi_mad(d, a, b, c) TTK_SFPI_OP3(TT_SFPI_MAD, d, a, b, c)
#define sfpi_abs(d, a) TTK_SFPI_OP3(TT_SFPI_ABS, d, a, 0, 0)
#define sfpi_neg(d, a) TTK_SFPI_OP3(TT_SFPI_NEG, d, a, 0, 0)
#define sfpi_min(d, a, b) TTK_SFPI_OP3(TT_SFPI_MIN, d, a, b, 0)
#define sfpi_max(d, a, b) TTK_SFPI_OP3(TT_SFPI_MAX, d, a, b, 0)

/* ---- conditions and conditionals ---- */

#define TTK_SFPI_CMP(cond, a, b) TTK_SFPI_OP3(TT_SFPI_CMP, cond, a, b, 0)
#define sfpi_lt(a, b) TTK_SFPI_CMP(TT_SFPI_LT, a, b)
#define sfpi_le(a, b) TTK_SFPI_CMP(TT_SFPI_LE, a, b)
#define sfpi_gt(a, b) TTK_SFPI_CMP(TT_SFPI_GT, a, b)
#define sfpi_ge(a, b) TTK_SFPI_CMP(TT_SFPI_GE, a, b)
#define sfpi_eq(a, b) TTK_SFPI_CMP(TT_SFPI_EQ, a, b)
#define sfpi_ne(a, b) TTK_SFPI_CMP(TT_SFPI_NE, a, b)

/* The instructions the macros use: open a conditional, switch to the
 * lanes not taken yet, close it. */
static inline void sfpi_pushc(void)
{
	ttk_sfpi(TT_SFPI_R(TT_SFPI_PUSHC, 0, 0, 0, 0));
}

static inline void sfpi_else(void)
{
	ttk_sfpi(TT_SFPI_R(TT_SFPI_ELSE, 0, 0, 0, 0));
}

static inline void sfpi_popc(void)
{
	ttk_sfpi(TT_SFPI_R(TT_SFPI_POPC, 0, 0, 0, 0));
}

#define SFPI_IF(...)     \
	do {             \
		sfpi_pushc(); \
		__VA_ARGS__;
#define SFPI_ELSEIF(...) \
	sfpi_else();     \
	__VA_ARGS__;
#define SFPI_ELSE sfpi_else();
#define SFPI_ENDIF    \
	sfpi_popc();  \
	}             \
	while (0)

#endif /* TT_COMPUTE_KERNEL_API_SFPI_H */
