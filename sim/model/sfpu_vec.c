// SPDX-License-Identifier: Apache-2.0
/*
 * The vector unit's transcendental functions over a tile, sixteen lanes
 * at a time with glibc's vector math library (libmvec), where the host
 * has AVX-512 and the library is there.
 *
 * The scalar forms in sfpu.c call libm once per element: for exp that is
 * most of a softmax on the model. libmvec's AVX-512 variants compute the
 * same functions within glibc's documented error bounds for them (a few
 * ulps, as its scalar functions), handling special inputs (NaN, inf, out
 * of range) as those do. Compound functions (gelu, sigmoid, silu) do the
 * same arithmetic as their scalar forms, operation by operation.
 */
#include <stddef.h>

#include "tensix_impl.h"

#if defined(SIM_HAVE_MVEC) && defined(__x86_64__)
#include <immintrin.h>

#pragma GCC push_options
#pragma GCC target("avx512f")

/* libmvec's AVX-512 entry points (glibc's vector ABI names). */
__m512 _ZGVeN16v_expf(__m512 x);
__m512 _ZGVeN16v_logf(__m512 x);
__m512 _ZGVeN16v_tanhf(__m512 x);
__m512 _ZGVeN16v_erff(__m512 x);
__m512 _ZGVeN16v_exp2f(__m512 x);
__m512 _ZGVeN16v_expm1f(__m512 x);
__m512 _ZGVeN16v_sinf(__m512 x);
__m512 _ZGVeN16v_cosf(__m512 x);

/* d[i] = fn(d[i]) over the tile, for a libmvec function or an inline
 * composition of them. */
#define VEC_TILE(name, expr)                                     \
	static void name(float *d, float p)                      \
	{                                                        \
		(void)p;                                         \
		for (unsigned i = 0; i < TX_ELEMS; i += 16) {    \
			__m512 x = _mm512_loadu_ps(d + i);       \
			_mm512_storeu_ps(d + i, (expr));         \
		}                                                \
	}

static inline __m512 one(void)
{
	return _mm512_set1_ps(1.0f);
}

static inline __m512 neg(__m512 x)
{
	return _mm512_sub_ps(_mm512_setzero_ps(), x);
}

VEC_TILE(v_exp, _ZGVeN16v_expf(x))
VEC_TILE(v_log, _ZGVeN16v_logf(x))
VEC_TILE(v_tanh, _ZGVeN16v_tanhf(x))
VEC_TILE(v_erf, _ZGVeN16v_erff(x))
VEC_TILE(v_exp2, _ZGVeN16v_exp2f(x))
VEC_TILE(v_expm1, _ZGVeN16v_expm1f(x))
VEC_TILE(v_sin, _ZGVeN16v_sinf(x))
VEC_TILE(v_cos, _ZGVeN16v_cosf(x))
/* 1 / (1 + e^-x) */
VEC_TILE(v_sigmoid,
	 _mm512_div_ps(one(), _mm512_add_ps(one(), _ZGVeN16v_expf(neg(x)))))
/* x / (1 + e^-x) */
VEC_TILE(v_silu,
	 _mm512_div_ps(x, _mm512_add_ps(one(), _ZGVeN16v_expf(neg(x)))))
/* 0.5 x (1 + erf(x / sqrt 2)), multiplied in the scalar form's order */
VEC_TILE(v_gelu,
	 _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.5f), x),
		       _mm512_add_ps(one(),
				     _ZGVeN16v_erff(_mm512_mul_ps(
					     x, _mm512_set1_ps(0.707106781f))))))

#pragma GCC pop_options

static const tx_tile_fn vec[TT_TX_SFPU_COUNT] = {
	[TT_TX_EXP] = v_exp,	     [TT_TX_LOG] = v_log,
	[TT_TX_TANH] = v_tanh,	     [TT_TX_ERF] = v_erf,
	[TT_TX_EXP2] = v_exp2,	     [TT_TX_EXPM1] = v_expm1,
	[TT_TX_SIN] = v_sin,	     [TT_TX_COS] = v_cos,
	[TT_TX_SIGMOID] = v_sigmoid, [TT_TX_SILU] = v_silu,
	[TT_TX_GELU] = v_gelu,
};

tx_tile_fn tx_sfpu_vec(unsigned sub)
{
	/* A look at the CPU model libgcc filled in at start-up. */
	__builtin_cpu_init();
	if (sub >= TT_TX_SFPU_COUNT || !__builtin_cpu_supports("avx512f"))
		return NULL;
	return vec[sub];
}
#else
tx_tile_fn tx_sfpu_vec(unsigned sub)
{
	(void)sub;
	return NULL;
}
#endif
