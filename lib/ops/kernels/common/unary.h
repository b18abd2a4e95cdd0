/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The op library's unary functions on DST tiles, for every compute kernel
 * that applies one (the element-wise ops, fused activations of matmul):
 * unary(op, p0, p1, d, s) sets DST[d] = fn(DST[d]) for enum tt_unary_op
 * op of tt/ops.h with parameters p0, p1 (fp32 bits), DST[s] and
 * DST[s + 1] scratch (docs/ops.md: the tiles each function needs).
 * Inlined into each kernel's text by scripts/embed-text.py.
 */
#ifndef TT_OPS_KERNELS_UNARY_H
#define TT_OPS_KERNELS_UNARY_H

/* enum tt_unary_op of tt/ops.h, by value. */
enum {
	U_NONE, U_EXP, U_LOG, U_SQRT, U_RSQRT, U_RECIP, U_SIGMOID, U_TANH,
	U_GELU, U_GELU_TANH, U_RELU, U_SILU, U_ABS, U_NEG, U_SIGN, U_SQUARE,
	U_SIN, U_COS, U_ERF, U_EXP2, U_EXPM1, U_POWER, U_LEAKY_RELU, U_RELU6,
	U_CLIP, U_HARDSIGMOID, U_HARDSWISH, U_ELU, U_SOFTPLUS, U_MISH,
	U_SOFTSIGN, U_ERFC, U_TAN, U_LOG1P, U_FLOOR, U_CEIL, U_TRUNC, U_ROUND,
	U_LOGICAL_NOT, U_ISFINITE,
};

#define V0 SFPI_V0
#define V1 SFPI_V1
#define V2 SFPI_V2
#define V3 SFPI_V3
#define V4 SFPI_V4
#define V5 SFPI_V5

#define TWO23 8388608.0f

static float f32(uint32_t bits)
{
	union {
		uint32_t u;
		float f;
	} v = { .u = bits };

	return v.f;
}

/* DST[to] = DST[from]. */
static void dst_copy(uint32_t to, uint32_t from)
{
	sfpi_init();
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(V0, sfpi_dst(from, v));
		sfpi_store(sfpi_dst(to, v), V0);
	}
}

/* DST[d] = min(max(DST[d], lo), hi). */
static void clamp(uint32_t d, float lo, float hi)
{
	sfpi_init();
	sfpi_loadi(V1, lo);
	sfpi_loadi(V2, hi);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(V0, sfpi_dst(d, v));
		sfpi_max(V0, V0, V1);
		sfpi_min(V0, V0, V2);
		sfpi_store(sfpi_dst(d, v), V0);
	}
}

/* DST[d] = DST[d] + c. */
static void add_const(uint32_t d, float c)
{
	sfpi_init();
	sfpi_loadi(V1, c);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(V0, sfpi_dst(d, v));
		sfpi_add(V0, V0, V1);
		sfpi_store(sfpi_dst(d, v), V0);
	}
}

/* DST[d] = hardsigmoid(DST[d]), times x for hardswish. */
static void hard(uint32_t d, bool swish)
{
	sfpi_init();
	sfpi_loadi(V1, 1.0f / 6.0f);
	sfpi_loadi(V2, 0.5f);
	sfpi_loadi(V3, 0.0f);
	sfpi_loadi(V4, 1.0f);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(V0, sfpi_dst(d, v));
		sfpi_mad(V5, V0, V1, V2);
		sfpi_max(V5, V5, V3);
		sfpi_min(V5, V5, V4);
		if (swish)
			sfpi_mul(V5, V5, V0);
		sfpi_store(sfpi_dst(d, v), V5);
	}
}

/* DST[d] = DST[d] < 0 ? alpha * DST[s] : DST[d] (s holds e^x - 1). */
static void elu_merge(uint32_t d, uint32_t s, float alpha)
{
	sfpi_init();
	sfpi_loadi(V2, alpha);
	sfpi_loadi(V3, 0.0f);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(V0, sfpi_dst(d, v));
		sfpi_load(V1, sfpi_dst(s, v));
		SFPI_IF(sfpi_lt(V0, V3)) {
			sfpi_mul(V0, V1, V2);
		} SFPI_ENDIF;
		sfpi_store(sfpi_dst(d, v), V0);
	}
}

/* DST[d] = log(1 + e^DST[d]), DST[d] itself above 20; s is scratch. */
static void softplus(uint32_t d, uint32_t s)
{
	dst_copy(s, d);
	exp_tile(d);
	add_const(d, 1.0f);
	log_tile(d);
	sfpi_init();
	sfpi_loadi(V2, 20.0f);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(V0, sfpi_dst(s, v));
		sfpi_load(V1, sfpi_dst(d, v));
		SFPI_IF(sfpi_gt(V0, V2)) {
			sfpi_mov(V1, V0);
		} SFPI_ENDIF;
		sfpi_store(sfpi_dst(d, v), V1);
	}
}

/* DST[d] = 1 - DST[d]. */
static void one_minus(uint32_t d)
{
	sfpi_init();
	sfpi_loadi(V1, 1.0f);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(V0, sfpi_dst(d, v));
		sfpi_sub(V0, V1, V0);
		sfpi_store(sfpi_dst(d, v), V0);
	}
}

/* DST[d] = 1 + |DST[d]|. */
static void one_plus_abs(uint32_t d)
{
	sfpi_init();
	sfpi_loadi(V1, 1.0f);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(V0, sfpi_dst(d, v));
		sfpi_abs(V0, V0);
		sfpi_add(V0, V0, V1);
		sfpi_store(sfpi_dst(d, v), V0);
	}
}

/*
 * Rounding to an integer: |x| < 2^23 rounds to the nearest integer (ties
 * to even) by adding and subtracting 2^23 (every fp32 of [2^23, 2^24) is
 * an integer), on the side of x's sign; larger, NaN and infinite x are
 * integers already. Then floor, ceil and trunc correct by one.
 */
static void rounding(uint32_t d, uint32_t op)
{
	sfpi_init();
	sfpi_loadi(V1, TWO23);
	sfpi_loadi(V2, 0.0f);
	sfpi_loadi(V5, 1.0f);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(V0, sfpi_dst(d, v));
		sfpi_abs(V3, V0);
		sfpi_mov(V4, V0);
		SFPI_IF(sfpi_lt(V3, V1), sfpi_ge(V0, V2)) {
			sfpi_add(V4, V0, V1);
			sfpi_sub(V4, V4, V1);
		} SFPI_ENDIF;
		SFPI_IF(sfpi_lt(V3, V1), sfpi_lt(V0, V2)) {
			sfpi_sub(V4, V0, V1);
			sfpi_add(V4, V4, V1);
		} SFPI_ENDIF;
		if (op == U_FLOOR || op == U_TRUNC) {
			/* floor: down where rounding went up (trunc: x >= 0) */
			if (op == U_FLOOR) {
				SFPI_IF(sfpi_gt(V4, V0)) {
					sfpi_sub(V4, V4, V5);
				} SFPI_ENDIF;
			} else {
				SFPI_IF(sfpi_gt(V4, V0), sfpi_ge(V0, V2)) {
					sfpi_sub(V4, V4, V5);
				} SFPI_ENDIF;
			}
		}
		if (op == U_CEIL || op == U_TRUNC) {
			if (op == U_CEIL) {
				SFPI_IF(sfpi_lt(V4, V0)) {
					sfpi_add(V4, V4, V5);
				} SFPI_ENDIF;
			} else {
				SFPI_IF(sfpi_lt(V4, V0), sfpi_lt(V0, V2)) {
					sfpi_add(V4, V4, V5);
				} SFPI_ENDIF;
			}
		}
		sfpi_store(sfpi_dst(d, v), V4);
	}
}

/* DST[d] = 1 where a condition of DST[d] holds, else 0. */
static void unary_test(uint32_t d, uint32_t op)
{
	sfpi_init();
	sfpi_loadi(V1, 0.0f);
	sfpi_loadi(V2, 1.0f);
	sfpi_loadi(V3, 3.40282347e38f);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(V0, sfpi_dst(d, v));
		sfpi_mov(V4, V1);
		if (op == U_LOGICAL_NOT) {
			SFPI_IF(sfpi_eq(V0, V1)) {
				sfpi_mov(V4, V2);
			} SFPI_ENDIF;
		} else {
			sfpi_abs(V0, V0);
			SFPI_IF(sfpi_le(V0, V3)) {
				sfpi_mov(V4, V2);
			} SFPI_ENDIF;
		}
		sfpi_store(sfpi_dst(d, v), V4);
	}
}

/* DST[d] = fn(DST[d]); DST[s], DST[s + 1] are scratch. */
static void unary(uint32_t op, uint32_t p0, uint32_t p1, uint32_t d,
		  uint32_t s)
{
	switch (op) {
	case U_NONE: break;
	case U_EXP: exp_tile(d); break;
	case U_LOG: log_tile(d); break;
	case U_SQRT: sqrt_tile(d); break;
	case U_RSQRT: rsqrt_tile(d); break;
	case U_RECIP: recip_tile(d); break;
	case U_SIGMOID: sigmoid_tile(d); break;
	case U_TANH: tanh_tile(d); break;
	case U_GELU: gelu_tile(d); break;
	case U_GELU_TANH: gelu_tile(d); break; /* built with APPROX */
	case U_RELU: relu_tile(d); break;
	case U_SILU: silu_tile(d); break;
	case U_ABS: abs_tile(d); break;
	case U_NEG: negative_tile(d); break;
	case U_SIGN: sign_tile(d); break;
	case U_SQUARE: square_tile(d); break;
	case U_SIN: sin_tile(d); break;
	case U_COS: cos_tile(d); break;
	case U_ERF: erf_tile(d); break;
	case U_EXP2: exp2_tile(d); break;
	case U_EXPM1: expm1_tile(d); break;
	case U_POWER: power_tile(d, (uint32_t)f32(p0)); break;
	case U_LEAKY_RELU: leaky_relu_tile(d, p0); break;
	case U_RELU6: clamp(d, 0.0f, 6.0f); break;
	case U_CLIP: clamp(d, f32(p0), f32(p1)); break;
	case U_HARDSIGMOID: hard(d, false); break;
	case U_HARDSWISH: hard(d, true); break;
	case U_ELU:
		dst_copy(s, d);
		expm1_tile(s);
		elu_merge(d, s, f32(p0));
		break;
	case U_SOFTPLUS: softplus(d, s); break;
	case U_MISH:
		dst_copy(s, d);
		softplus(s, s + 1);
		tanh_tile(s);
		mul_binary_tile(d, s);
		break;
	case U_SOFTSIGN:
		dst_copy(s, d);
		one_plus_abs(s);
		div_binary_tile(d, s);
		break;
	case U_ERFC:
		erf_tile(d);
		one_minus(d);
		break;
	case U_TAN:
		dst_copy(s, d);
		sin_tile(d);
		cos_tile(s);
		div_binary_tile(d, s);
		break;
	case U_LOG1P:
		add_const(d, 1.0f);
		log_tile(d);
		break;
	case U_FLOOR:
	case U_CEIL:
	case U_TRUNC:
	case U_ROUND: rounding(d, op); break;
	case U_LOGICAL_NOT:
	case U_ISFINITE: unary_test(d, op); break;
	default: break;
	}
}

#endif /* TT_OPS_KERNELS_UNARY_H */
