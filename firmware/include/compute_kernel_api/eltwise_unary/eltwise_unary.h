/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Element-wise functions of one DST tile on the vector unit, in place:
 * DST[idst] = f(DST[idst]) (TT-Metal's headers in
 * tt_metal/hw/inc/api/compute/eltwise_unary/). Each has an <name>_init()
 * that only programs CFG (APPROX chooses the faster approximations of exp,
 * log, sqrt, recip, gelu, sigmoid, tanh).
 *
 *   exp_tile log_tile sqrt_tile rsqrt_tile recip_tile relu_tile
 *   gelu_tile sigmoid_tile silu_tile tanh_tile abs_tile sign_tile
 *   square_tile negative_tile exp2_tile expm1_tile erf_tile sin_tile
 *   cos_tile                       (idst)
 *   power_tile(idst, exponent)     x^exponent, an unsigned integer
 *   fill_tile(idst, value)         every element = value (a float)
 *   fill_tile_bitcast(idst, bits)  the same from fp32 bits
 *   leaky_relu_tile(idst, slope)   x < 0 ? slope * x : x, slope as fp32
 *                                  bits (TT-Metal's uint32 parameter)
 *   unary_op_init_common(icb, ocb), init_sfpu(icb, ocb): see common.h
 */
#ifndef TT_COMPUTE_KERNEL_API_ELTWISE_UNARY_H
#define TT_COMPUTE_KERNEL_API_ELTWISE_UNARY_H

#include "compute_kernel_api/common.h"

static inline void ttk_sfpu(uint32_t sub, uint32_t idst, const char *op)
{
	ttk_dst_check(op, idst, 1);
	ttk_tx_set(TT_TX_DST, idst);
	ttk_tx_run(TT_TX_SFPU, sub, 0);
}

static inline void ttk_sfpu_param(uint32_t sub, uint32_t idst,
				  uint32_t param, const char *op)
{
	ttk_tx_set(TT_TX_ARG0, param);
	ttk_sfpu(sub, idst, op);
}

#define TTK_SFPU_OP(name, sub)                                  \
	static inline void name##_tile(uint32_t idst)           \
	{                                                       \
		ttk_sfpu(sub, idst, #name "_tile");             \
	}                                                       \
	static inline void name##_tile_init(void)               \
	{                                                       \
		ttk_compute_init();                             \
	}

TTK_SFPU_OP(exp, TT_TX_EXP)
TTK_SFPU_OP(log, TT_TX_LOG)
TTK_SFPU_OP(sqrt, TT_TX_SQRT)
TTK_SFPU_OP(rsqrt, TT_TX_RSQRT)
TTK_SFPU_OP(recip, TT_TX_RECIP)
TTK_SFPU_OP(relu, TT_TX_RELU)
TTK_SFPU_OP(gelu, TT_TX_GELU)
TTK_SFPU_OP(sigmoid, TT_TX_SIGMOID)
TTK_SFPU_OP(silu, TT_TX_SILU)
TTK_SFPU_OP(tanh, TT_TX_TANH)
TTK_SFPU_OP(abs, TT_TX_ABS)
TTK_SFPU_OP(sign, TT_TX_SIGN)
TTK_SFPU_OP(square, TT_TX_SQUARE)
TTK_SFPU_OP(negative, TT_TX_NEG)
TTK_SFPU_OP(exp2, TT_TX_EXP2)
TTK_SFPU_OP(expm1, TT_TX_EXPM1)
TTK_SFPU_OP(erf, TT_TX_ERF)
TTK_SFPU_OP(sin, TT_TX_SIN)
TTK_SFPU_OP(cos, TT_TX_COS)

/* The fp32 bits of a float, without any float arithmetic. */
static inline uint32_t ttk_float_bits(float f)
{
	union {
		float f;
		uint32_t u;
	} v = { .f = f };

	return v.u;
}

static inline void power_tile(uint32_t idst, uint32_t exponent)
{
	ttk_sfpu_param(TT_TX_POWER, idst, ttk_float_bits((float)exponent),
		       "power_tile");
}

static inline void fill_tile_bitcast(uint32_t idst, uint32_t bits)
{
	ttk_sfpu_param(TT_TX_FILL, idst, bits, "fill_tile");
}

static inline void fill_tile(uint32_t idst, float value)
{
	fill_tile_bitcast(idst, ttk_float_bits(value));
}

static inline void leaky_relu_tile(uint32_t idst, uint32_t slope)
{
	ttk_sfpu_param(TT_TX_LEAKY_RELU, idst, slope, "leaky_relu_tile");
}

static inline void power_tile_init(void)
{
	ttk_compute_init();
}

static inline void fill_tile_init(void)
{
	ttk_compute_init();
}

static inline void leaky_relu_tile_init(void)
{
	ttk_compute_init();
}

#endif /* TT_COMPUTE_KERNEL_API_ELTWISE_UNARY_H */
