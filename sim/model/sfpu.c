// SPDX-License-Identifier: Apache-2.0
/*
 * The coprocessor's vector unit (SFPU): element-wise functions of DST
 * tiles, in fp32 with libm (its vector forms where the host has them:
 * sfpu_vec.c). CFG.APPROX selects cheaper forms of exp, log,
 * sqrt, reciprocal, sigmoid and tanh, each within 1e-3 relative of the
 * exact function on normal inputs (they are far closer: 5e-6 at worst), and
 * the tanh form of gelu, which is within 5e-4 of the erf form everywhere
 * (relatively so where |gelu(x)| >= 1; its negative tail tends to zero
 * faster than the exact one).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "tensix_impl.h"

typedef tx_tile_fn tile_fn;

/* ---- approximations ---- */

/* e^x = 2^n * 2^f with n = rint(x log2 e), |f| <= 1/2: 2^f by its Taylor
 * series to degree 6 (error below 3e-7). */
static float exp_approx(float x)
{
	float t, f, n, q;

	if (!(x > -87.5f))
		return x != x ? x : 0.0f;
	if (x > 88.7f)
		return INFINITY;
	t = x * 1.44269504f;
	n = rintf(t);
	f = (t - n) * 0.693147181f;
	q = 1.0f + f * (1.0f + f * (0.5f + f * (1.0f / 6 + f * (1.0f / 24 +
		f * (1.0f / 120 + f * (1.0f / 720))))));
	return ldexpf(q, (int)n);
}

/* log x = e ln 2 + log m, m in [sqrt(1/2), sqrt(2)), log m by the series
 * of 2 atanh(s), s = (m - 1)/(m + 1), |s| < 0.172 (error below 1e-7). */
static float log_approx(float x)
{
	float m, s, s2;
	int e;

	if (!(x > 0.0f) || isinf(x))
		return logf(x);
	m = frexpf(x, &e);
	if (m < 0.70710678f) {
		m *= 2.0f;
		e--;
	}
	s = (m - 1.0f) / (m + 1.0f);
	s2 = s * s;
	return (float)e * 0.693147181f +
	       2.0f * s * (1.0f + s2 * (1.0f / 3 + s2 * (1.0f / 5 + s2 / 7)));
}

static float bits_float(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint32_t float_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* 1/sqrt(x) from the exponent-halving guess and two Newton steps. */
static float rsqrt_newton(float x)
{
	float y = bits_float(0x5F3759DFu - (float_bits(x) >> 1));

	y = y * (1.5f - 0.5f * x * y * y);
	return y * (1.5f - 0.5f * x * y * y);
}

static float sqrt_approx(float x)
{
	if (!(x >= FLT_MIN) || isinf(x))
		return sqrtf(x);
	return x * rsqrt_newton(x);
}

/* 1/x from the exponent-negating guess and three Newton steps. */
static float recip_approx(float x)
{
	float ax = fabsf(x), y;

	if (!(ax >= FLT_MIN) || ax > 1e37f)
		return 1.0f / x;
	y = bits_float(0x7EF311C3u - float_bits(ax));
	for (int i = 0; i < 3; i++)
		y = y * (2.0f - ax * y);
	return x < 0 ? -y : y;
}

static float sigmoid_approx(float x)
{
	return 1.0f / (1.0f + exp_approx(-x));
}

/* Odd series near 0, where 1 - e^-2x would cancel; the exp form beyond. */
static float tanh_approx(float x)
{
	float ax = fabsf(x), x2, e, r;

	if (ax < 0.25f) {
		x2 = x * x;
		return x * (1.0f + x2 * (-1.0f / 3 + x2 * (2.0f / 15 +
			x2 * (-17.0f / 315))));
	}
	if (ax > 9.0f || isnan(x))
		return isnan(x) ? x : copysignf(1.0f, x);
	e = exp_approx(-2.0f * ax);
	r = (1.0f - e) / (1.0f + e);
	return copysignf(r, x);
}

static float gelu_approx(float x)
{
	return 0.5f * x *
	       (1.0f + tanh_approx(0.797884561f * (x + 0.044715f * x * x * x)));
}

/* ---- the functions ---- */

static float f_exp(float x, float p)
{
	(void)p;
	return expf(x);
}

static float f_log(float x, float p)
{
	(void)p;
	return logf(x);
}

static float f_sqrt(float x, float p)
{
	(void)p;
	return sqrtf(x);
}

static float f_recip(float x, float p)
{
	(void)p;
	return 1.0f / x;
}

static float f_relu(float x, float p)
{
	(void)p;
	return x > 0.0f ? x : 0.0f;
}

static float f_gelu(float x, float p)
{
	(void)p;
	return 0.5f * x * (1.0f + erff(x * 0.707106781f));
}

static float f_sigmoid(float x, float p)
{
	(void)p;
	return 1.0f / (1.0f + expf(-x));
}

static float f_tanh(float x, float p)
{
	(void)p;
	return tanhf(x);
}

static float f_abs(float x, float p)
{
	(void)p;
	return fabsf(x);
}

static float f_square(float x, float p)
{
	(void)p;
	return x * x;
}

static float f_neg(float x, float p)
{
	(void)p;
	return -x;
}

static float f_power(float x, float p)
{
	return powf(x, p);
}

static float f_rsqrt(float x, float p)
{
	(void)p;
	return 1.0f / sqrtf(x);
}

static float f_exp2(float x, float p)
{
	(void)p;
	return exp2f(x);
}

static float f_silu(float x, float p)
{
	(void)p;
	return x / (1.0f + expf(-x));
}

static float f_sin(float x, float p)
{
	(void)p;
	return sinf(x);
}

static float f_cos(float x, float p)
{
	(void)p;
	return cosf(x);
}

static float f_sign(float x, float p)
{
	(void)p;
	return (float)((x > 0.0f) - (x < 0.0f));
}

static float f_fill(float x, float p)
{
	(void)x;
	return p;
}

static float f_leaky_relu(float x, float p)
{
	return x > 0.0f ? x : p * x;
}

static float f_expm1(float x, float p)
{
	(void)p;
	return expm1f(x);
}

static float f_erf(float x, float p)
{
	(void)p;
	return erff(x);
}

#define APPROX_FN(name, fn)                 \
	static float name(float x, float p) \
	{                                   \
		(void)p;                    \
		return fn(x);               \
	}

APPROX_FN(a_exp, exp_approx)
APPROX_FN(a_log, log_approx)
APPROX_FN(a_sqrt, sqrt_approx)
APPROX_FN(a_recip, recip_approx)
APPROX_FN(a_gelu, gelu_approx)
APPROX_FN(a_sigmoid, sigmoid_approx)
APPROX_FN(a_tanh, tanh_approx)

/* Each function over a whole tile: the element function inlined into
 * its own loop, rather than called through a pointer per element (the
 * simple ones vectorise). */
#define TILE_FN(fn)                                                   \
	static void fn##_tile(float *d, float p)                      \
	{                                                             \
		for (unsigned i = 0; i < TX_ELEMS; i++)               \
			d[i] = fn(d[i], p);                           \
	}

TILE_FN(f_exp)
TILE_FN(f_log)
TILE_FN(f_sqrt)
TILE_FN(f_recip)
TILE_FN(f_relu)
TILE_FN(f_gelu)
TILE_FN(f_sigmoid)
TILE_FN(f_tanh)
TILE_FN(f_abs)
TILE_FN(f_square)
TILE_FN(f_neg)
TILE_FN(f_power)
TILE_FN(f_rsqrt)
TILE_FN(f_exp2)
TILE_FN(f_silu)
TILE_FN(f_sin)
TILE_FN(f_cos)
TILE_FN(f_sign)
TILE_FN(f_fill)
TILE_FN(f_leaky_relu)
TILE_FN(f_expm1)
TILE_FN(f_erf)
TILE_FN(a_exp)
TILE_FN(a_log)
TILE_FN(a_sqrt)
TILE_FN(a_recip)
TILE_FN(a_gelu)
TILE_FN(a_sigmoid)
TILE_FN(a_tanh)

static const tile_fn exact[TT_TX_SFPU_COUNT] = {
	[TT_TX_EXP] = f_exp_tile,	       [TT_TX_LOG] = f_log_tile,
	[TT_TX_SQRT] = f_sqrt_tile,	       [TT_TX_RECIP] = f_recip_tile,
	[TT_TX_RELU] = f_relu_tile,	       [TT_TX_GELU] = f_gelu_tile,
	[TT_TX_SIGMOID] = f_sigmoid_tile,   [TT_TX_TANH] = f_tanh_tile,
	[TT_TX_ABS] = f_abs_tile,	       [TT_TX_SQUARE] = f_square_tile,
	[TT_TX_NEG] = f_neg_tile,	       [TT_TX_POWER] = f_power_tile,
	[TT_TX_RSQRT] = f_rsqrt_tile,       [TT_TX_EXP2] = f_exp2_tile,
	[TT_TX_SILU] = f_silu_tile,	       [TT_TX_SIN] = f_sin_tile,
	[TT_TX_COS] = f_cos_tile,	       [TT_TX_SIGN] = f_sign_tile,
	[TT_TX_FILL] = f_fill_tile,	       [TT_TX_LEAKY_RELU] = f_leaky_relu_tile,
	[TT_TX_EXPM1] = f_expm1_tile,       [TT_TX_ERF] = f_erf_tile,
};

/* CFG.APPROX: these instead; the rest as exact. */
static const tile_fn approx[TT_TX_SFPU_COUNT] = {
	[TT_TX_EXP] = a_exp_tile,	     [TT_TX_LOG] = a_log_tile,
	[TT_TX_SQRT] = a_sqrt_tile,	     [TT_TX_RECIP] = a_recip_tile,
	[TT_TX_GELU] = a_gelu_tile,	     [TT_TX_SIGMOID] = a_sigmoid_tile,
	[TT_TX_TANH] = a_tanh_tile,
};

enum tt_tx_err tx_sfpu(struct tx_cmd *c)
{
	tile_fn fn;
	float *d;

	if (c->flags || c->sub >= TT_TX_SFPU_COUNT)
		return TT_TX_ERR_OP;
	d = tx_dst(c, c->dst, 1);
	if (!d)
		return TT_TX_ERR_DST;
	if (c->approx && approx[c->sub])
		fn = approx[c->sub];
	else if (!(fn = tx_sfpu_vec(c->sub)))
		fn = exact[c->sub];
	fn(d, bits_float(c->arg[0]));
	tx_dst_written(c, c->dst, NULL, 0);
	c->macs = TX_ELEMS;
	return TT_TX_OK;
}

/* d = d op s over a tile: one plain loop per op over a copy of s (s may
 * be d itself), so that the compiler can vectorise the ones it may. */
static void binary(unsigned op, float *d, const float *src)
{
	float s[TX_ELEMS];
	unsigned i;

	memcpy(s, src, sizeof(s));

	switch (op) {
	case TT_TX_ADD:
		for (i = 0; i < TX_ELEMS; i++)
			d[i] = d[i] + s[i];
		break;
	case TT_TX_SUB:
		for (i = 0; i < TX_ELEMS; i++)
			d[i] = d[i] - s[i];
		break;
	case TT_TX_MUL:
		for (i = 0; i < TX_ELEMS; i++)
			d[i] = d[i] * s[i];
		break;
	case TT_TX_DIV:
		for (i = 0; i < TX_ELEMS; i++)
			d[i] = d[i] / s[i];
		break;
	/* fmaxf and fminf (a NaN loses to a number), written as compares
	 * so that the loops vectorise rather than call libm per element. */
	case TT_TX_MAX:
		for (i = 0; i < TX_ELEMS; i++)
			d[i] = d[i] > s[i] || s[i] != s[i] ? d[i] : s[i];
		break;
	case TT_TX_MIN:
		for (i = 0; i < TX_ELEMS; i++)
			d[i] = d[i] < s[i] || s[i] != s[i] ? d[i] : s[i];
		break;
	case TT_TX_RSUB:
		for (i = 0; i < TX_ELEMS; i++)
			d[i] = s[i] - d[i];
		break;
	default: /* TT_TX_POW */
		for (i = 0; i < TX_ELEMS; i++)
			d[i] = powf(d[i], s[i]);
		break;
	}
}

enum tt_tx_err tx_sfpu_binary(struct tx_cmd *c)
{
	float *d, *s;

	if (c->flags || c->sub > TT_TX_POW)
		return TT_TX_ERR_OP;
	d = tx_dst(c, c->dst, 1);
	s = tx_dst(c, c->arg[0], 1);
	if (!d || !s)
		return TT_TX_ERR_DST;
	binary(c->sub, d, s);
	tx_dst_written(c, c->dst, NULL, 0);
	c->macs = TX_ELEMS;
	return TT_TX_OK;
}
