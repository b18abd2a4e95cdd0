// SPDX-License-Identifier: Apache-2.0
/*
 * The scalar functions of the elementwise ops, by op name, in double
 * (the result is rounded to the result's element type when stored).
 * Each follows the op's meaning in tt-mlir's goldens (PyTorch's
 * functions): gelu is the erf form, remainder takes the divisor's sign,
 * maximum and minimum propagate NaN.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

static double f_abs(double x) { return fabs(x); }
static double f_acos(double x) { return acos(x); }
static double f_asin(double x) { return asin(x); }
static double f_asinh(double x) { return asinh(x); }
static double f_atan(double x) { return atan(x); }
static double f_bnot(double x) { return (double)~(int64_t)x; }
static double f_cbrt(double x) { return cbrt(x); }
static double f_ceil(double x) { return ceil(x); }
static double f_cos(double x) { return cos(x); }
static double f_erf(double x) { return erf(x); }
static double f_erfc(double x) { return erfc(x); }
static double f_exp(double x) { return exp(x); }
static double f_exp2(double x) { return exp2(x); }
static double f_expm1(double x) { return expm1(x); }
static double f_floor(double x) { return floor(x); }
static double f_frac(double x) { return x - trunc(x); }
static double f_gelu(double x) { return 0.5 * x * (1 + erf(x / sqrt(2))); }
static double f_hsig(double x)
{
	return isnan(x) ? x : fmax(0, fmin(1, x / 6 + 0.5));
}
static double f_isfinite(double x) { return isfinite(x); }
static double f_log(double x) { return log(x); }
static double f_log1p(double x) { return log1p(x); }
static double f_not(double x) { return x == 0; }
static double softplus(double x) { return x > 20 ? x : log1p(exp(x)); }
static double f_mish(double x) { return x * tanh(softplus(x)); }
static double f_neg(double x) { return -x; }
static double f_recip(double x) { return 1 / x; }
static double f_relu(double x) { return isnan(x) ? x : x > 0 ? x : 0; }
static double f_relu6(double x) { return isnan(x) ? x : fmin(fmax(x, 0), 6); }
static double f_rsqrt(double x) { return 1 / sqrt(x); }
static double f_sigmoid(double x) { return 1 / (1 + exp(-x)); }
static double f_sign(double x) { return isnan(x) ? x : (x > 0) - (x < 0); }
static double f_signbit(double x) { return signbit(x) != 0; }
static double f_silu(double x) { return x / (1 + exp(-x)); }
static double f_sin(double x) { return sin(x); }
static double f_softsign(double x) { return x / (1 + fabs(x)); }
static double f_sqrt(double x) { return sqrt(x); }
static double f_square(double x) { return x * x; }
static double f_tan(double x) { return tan(x); }
static double f_tanh(double x) { return tanh(x); }
static double f_trunc(double x) { return trunc(x); }
static double f_id(double x) { return x; }

static const struct { const char *name; scalar1_fn fn; } unary[] = {
	{ "abs", f_abs }, { "acos", f_acos }, { "asin", f_asin },
	{ "asinh", f_asinh }, { "atan", f_atan }, { "bitwise_not", f_bnot },
	{ "cbrt", f_cbrt }, { "ceil", f_ceil }, { "cos", f_cos },
	{ "erf", f_erf }, { "erfc", f_erfc }, { "exp", f_exp },
	{ "exp2", f_exp2 }, { "expm1", f_expm1 }, { "floor", f_floor },
	{ "frac", f_frac }, { "gelu", f_gelu }, { "hardsigmoid", f_hsig },
	{ "isfinite", f_isfinite }, { "log", f_log }, { "log1p", f_log1p },
	{ "logical_not", f_not }, { "mish", f_mish }, { "neg", f_neg },
	{ "reciprocal", f_recip }, { "relu", f_relu }, { "relu6", f_relu6 },
	{ "rsqrt", f_rsqrt }, { "sigmoid", f_sigmoid }, { "sign", f_sign },
	{ "signbit", f_signbit }, { "silu", f_silu }, { "sin", f_sin },
	{ "softsign", f_softsign }, { "sqrt", f_sqrt },
	{ "square", f_square }, { "tan", f_tan }, { "tanh", f_tanh },
	{ "trunc", f_trunc }, { "typecast", f_id },
};

static double f_add(double a, double b) { return a + b; }
static double f_sub(double a, double b) { return a - b; }
static double f_mul(double a, double b) { return a * b; }
static double f_div(double a, double b) { return a / b; }
static double f_atan2(double a, double b) { return atan2(a, b); }
static double f_max(double a, double b)
{
	return isnan(a) || isnan(b) ? NAN : fmax(a, b);
}
static double f_min(double a, double b)
{
	return isnan(a) || isnan(b) ? NAN : fmin(a, b);
}
static double f_pow(double a, double b) { return pow(a, b); }
static double f_rem(double a, double b)
{
	double r = fmod(a, b);

	return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}
static double f_band(double a, double b)
{
	return (double)((int64_t)a & (int64_t)b);
}
static double f_bor(double a, double b)
{
	return (double)((int64_t)a | (int64_t)b);
}
static double f_bxor(double a, double b)
{
	return (double)((int64_t)a ^ (int64_t)b);
}
/* Shifts by 64 or more (or negative) give 0 (or the sign), not UB. */
static double f_shl(double a, double b)
{
	return b < 0 || b > 63 ? 0 : (double)(int64_t)((uint64_t)(int64_t)a << (int)b);
}
static double f_sar(double a, double b)
{
	int64_t x = (int64_t)a;

	return b < 0 || b > 63 ? (x < 0 ? -1 : 0) : (double)(x >> (int)b);
}
static double f_eq(double a, double b) { return a == b; }
static double f_ne(double a, double b) { return a != b; }
static double f_gt(double a, double b) { return a > b; }
static double f_ge(double a, double b) { return a >= b; }
static double f_lt(double a, double b) { return a < b; }
static double f_le(double a, double b) { return a <= b; }
static double f_land(double a, double b) { return a != 0 && b != 0; }
static double f_lor(double a, double b) { return a != 0 || b != 0; }
static double f_lxor(double a, double b) { return (a != 0) != (b != 0); }

static const struct { const char *name; scalar2_fn fn; } binary[] = {
	{ "add", f_add }, { "subtract", f_sub }, { "multiply", f_mul },
	{ "div", f_div }, { "atan2", f_atan2 }, { "maximum", f_max },
	{ "minimum", f_min }, { "pow", f_pow }, { "remainder", f_rem },
	{ "bitwise_and", f_band }, { "bitwise_or", f_bor },
	{ "bitwise_xor", f_bxor }, { "logical_left_shift", f_shl },
	{ "right_shift", f_sar }, { "logical_right_shift", f_sar },
	{ "eq", f_eq }, { "ne", f_ne }, { "gt", f_gt }, { "ge", f_ge },
	{ "lt", f_lt }, { "le", f_le }, { "logical_and", f_land },
	{ "logical_or", f_lor }, { "logical_xor", f_lxor },
};

/* "ttir.exp" -> "exp" */
static const char *base(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot ? dot + 1 : name;
}

scalar1_fn eltwise_unary_fn(const char *name)
{
	for (size_t i = 0; i < sizeof(unary) / sizeof(unary[0]); i++)
		if (!strcmp(unary[i].name, base(name)))
			return unary[i].fn;
	return NULL;
}

scalar2_fn eltwise_binary_fn(const char *name)
{
	for (size_t i = 0; i < sizeof(binary) / sizeof(binary[0]); i++)
		if (!strcmp(binary[i].name, base(name)))
			return binary[i].fn;
	return NULL;
}
