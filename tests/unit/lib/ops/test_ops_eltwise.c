// SPDX-License-Identifier: Apache-2.0
/*
 * The op library's element-wise ops (tt/ops.h) on the embedded model,
 * against host references computed from the inputs as the device holds
 * them (read back after conversion to their format):
 *
 *  - every unary function in Float16_b (PCC >= 0.99), Float32 with fp32
 *    accumulation at HiFi4 (>= 0.999) and Bfp8_b (>= 0.98), on shapes of
 *    rank 1 to 4 that are not multiples of 32;
 *  - every binary op in the three formats, with broadcasting of rows,
 *    columns, scalars and outer dimensions, of b and of a;
 *  - fused activations, explicit grids and splits, L1 placement, a given
 *    output, typecasts;
 *  - the program cache: a second call reuses the program (no kernel
 *    build, no program) and still computes on its new buffers;
 *  - the profiler's JSON and CSV files (parsed by Python's json and csv);
 *  - a refused call for every class of bad input or config, with its
 *    message.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/kbuild/kbuild.h"
#include "testutil.h"
#include "tmpdir.h"
#include "tt/ops.h"

struct fx {
	tt_device *dev;
	tt_ops_ctx *ctx;
};

static __attribute__((unused)) void expect_error(int ret, int code, const char *text)
{
	if (ret != code)
		fail_msg("got %d, want %d (%s)", ret, code, tt_last_error());
	if (!strstr(tt_last_error(), text))
		fail_msg("message \"%s\" lacks \"%s\"", tt_last_error(), text);
}

#define TRY(e)                                                       \
	do {                                                         \
		int r_ = (e);                                        \
		if (r_)                                              \
			fail_msg("%s: %d %s", #e, r_, tt_last_error()); \
	} while (0)

static uint32_t seed_next(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* A device tensor of shape s and format f holding values in [lo, hi)
 * (integers if ints); *host gets the values as the device holds them. */
static tt_device_tensor *dev_tensor(struct fx *f, struct tt_shape s,
				    enum tt_data_format fmt,
				    enum tt_buffer_type where, float lo,
				    float hi, bool ints, uint32_t seed,
				    float **host)
{
	tt_device_tensor *dt = NULL;
	tt_tensor *t = NULL;
	float *p;

	TRY(tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t));
	p = tt_tensor_data(t);
	for (size_t i = 0; i < tt_tensor_volume(t); i++) {
		float u = (float)seed_next(&seed) / 16777216.0f;

		p[i] = lo + (hi - lo) * u;
		if (ints)
			p[i] = floorf(p[i]);
	}
	TRY(tt_device_tensor_create(f->dev, &s, fmt, where, &dt));
	TRY(tt_device_tensor_write(dt, NULL, t));
	/* What the device holds, as Float32. */
	TRY(tt_device_tensor_read(dt, NULL, t));
	if (host) {
		*host = malloc(tt_tensor_volume(t) * sizeof(float));
		assert_non_null(*host);
		memcpy(*host, p, tt_tensor_volume(t) * sizeof(float));
	}
	tt_tensor_free(t);
	return dt;
}

/* The device tensor's values as Float32 (after tt_ops_finish). */
static float *dev_values(struct fx *f, tt_device_tensor *dt, size_t *n)
{
	tt_tensor *t = NULL;
	float *v;

	TRY(tt_ops_finish(f->ctx));
	TRY(tt_tensor_create(tt_device_tensor_shape(dt), TT_FLOAT32,
			     TT_TENSOR_ROW_MAJOR, &t));
	TRY(tt_device_tensor_read(dt, NULL, t));
	*n = tt_tensor_volume(t);
	v = malloc(*n * sizeof(float));
	assert_non_null(v);
	memcpy(v, tt_tensor_data(t), *n * sizeof(float));
	tt_tensor_free(t);
	return v;
}

/* Pearson correlation; two equal constant vectors count as 1. */
static double pcc(const float *x, const float *y, size_t n)
{
	double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;

	for (size_t i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= (double)n;
	my /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double a = x[i] - mx, b = y[i] - my;

		sxy += a * b;
		sxx += a * a;
		syy += b * b;
	}
	if (sxx == 0 || syy == 0) {
		for (size_t i = 0; i < n; i++)
			if (x[i] != y[i])
				return 0;
		return 1;
	}
	return sxy / sqrt(sxx * syy);
}

static double min_pcc(enum tt_data_format fmt)
{
	return fmt == TT_FLOAT32 ? 0.999 : fmt == TT_FLOAT16_B ? 0.99 : 0.98;
}

/* ---- host references ---- */

static float sgn(float x)
{
	return (float)((x > 0) - (x < 0));
}

static float softplus(float x)
{
	return x > 20 ? x : logf(1 + expf(x));
}

static float ref_unary(enum tt_unary_op op, float p0, float p1, float x)
{
	switch (op) {
	case TT_UNARY_NONE: return x;
	case TT_UNARY_EXP: return expf(x);
	case TT_UNARY_LOG: return logf(x);
	case TT_UNARY_SQRT: return sqrtf(x);
	case TT_UNARY_RSQRT: return 1 / sqrtf(x);
	case TT_UNARY_RECIP: return 1 / x;
	case TT_UNARY_SIGMOID: return 1 / (1 + expf(-x));
	case TT_UNARY_TANH: return tanhf(x);
	case TT_UNARY_GELU: return 0.5f * x * (1 + erff(x / sqrtf(2)));
	case TT_UNARY_GELU_TANH:
		return 0.5f * x * (1 + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
	case TT_UNARY_RELU: return x > 0 ? x : 0;
	case TT_UNARY_SILU: return x / (1 + expf(-x));
	case TT_UNARY_ABS: return fabsf(x);
	case TT_UNARY_NEG: return -x;
	case TT_UNARY_SIGN: return sgn(x);
	case TT_UNARY_SQUARE: return x * x;
	case TT_UNARY_SIN: return sinf(x);
	case TT_UNARY_COS: return cosf(x);
	case TT_UNARY_ERF: return erff(x);
	case TT_UNARY_EXP2: return exp2f(x);
	case TT_UNARY_EXPM1: return expm1f(x);
	case TT_UNARY_POWER: return powf(x, p0);
	case TT_UNARY_LEAKY_RELU: return x < 0 ? p0 * x : x;
	case TT_UNARY_RELU6: return fminf(fmaxf(x, 0), 6);
	case TT_UNARY_CLIP: return fminf(fmaxf(x, p0), p1);
	case TT_UNARY_HARDSIGMOID: return fminf(fmaxf(x / 6 + 0.5f, 0), 1);
	case TT_UNARY_HARDSWISH: return x * fminf(fmaxf(x / 6 + 0.5f, 0), 1);
	case TT_UNARY_ELU: return x < 0 ? p0 * expm1f(x) : x;
	case TT_UNARY_SOFTPLUS: return softplus(x);
	case TT_UNARY_MISH: return x * tanhf(softplus(x));
	case TT_UNARY_SOFTSIGN: return x / (1 + fabsf(x));
	case TT_UNARY_ERFC: return erfcf(x);
	case TT_UNARY_TAN: return tanf(x);
	case TT_UNARY_LOG1P: return log1pf(x);
	case TT_UNARY_FLOOR: return floorf(x);
	case TT_UNARY_CEIL: return ceilf(x);
	case TT_UNARY_TRUNC: return truncf(x);
	case TT_UNARY_ROUND: return rintf(x);
	case TT_UNARY_LOGICAL_NOT: return x == 0 ? 1.0f : 0.0f;
	case TT_UNARY_ISFINITE: return isfinite(x) ? 1.0f : 0.0f;
	default: break;
	}
	(void)p1;
	return NAN;
}

static float ref_binary(enum tt_binary_op op, float a, float b)
{
	switch (op) {
	case TT_BINARY_ADD: return a + b;
	case TT_BINARY_SUB: return a - b;
	case TT_BINARY_MUL: return a * b;
	case TT_BINARY_DIV: return a / b;
	case TT_BINARY_MAX: return fmaxf(a, b);
	case TT_BINARY_MIN: return fminf(a, b);
	case TT_BINARY_POW: return powf(a, b);
	case TT_BINARY_RSUB: return b - a;
	case TT_BINARY_EQ: return a == b;
	case TT_BINARY_NE: return a != b;
	case TT_BINARY_LT: return a < b;
	case TT_BINARY_LE: return a <= b;
	case TT_BINARY_GT: return a > b;
	case TT_BINARY_GE: return a >= b;
	case TT_BINARY_LOGICAL_AND: return a != 0 && b != 0;
	case TT_BINARY_LOGICAL_OR: return a != 0 || b != 0;
	case TT_BINARY_LOGICAL_XOR: return (a != 0) != (b != 0);
	default: return NAN;
	}
}

/* The input range a unary function is tested on. */
static void unary_range(enum tt_unary_op op, float *lo, float *hi)
{
	*lo = -4;
	*hi = 4;
	switch (op) {
	case TT_UNARY_LOG:
	case TT_UNARY_SQRT:
	case TT_UNARY_RSQRT:
		*lo = 0.1f;
		break;
	case TT_UNARY_RECIP:
		*lo = 0.25f;
		break;
	case TT_UNARY_TAN:
		*lo = -1.2f;
		*hi = 1.2f;
		break;
	case TT_UNARY_LOG1P:
		*lo = -0.9f;
		break;
	case TT_UNARY_POWER:
		*lo = -2;
		*hi = 2;
		break;
	default:
		break;
	}
}

static struct tt_unary_fn fn_of(enum tt_unary_op op)
{
	struct tt_unary_fn fn = { op, 0, 0 };

	if (op == TT_UNARY_POWER)
		fn.p0 = 3;
	else if (op == TT_UNARY_LEAKY_RELU)
		fn.p0 = 0.125f;
	else if (op == TT_UNARY_ELU)
		fn.p0 = 0.5f;
	else if (op == TT_UNARY_CLIP) {
		fn.p0 = -1;
		fn.p1 = 2.5f;
	}
	return fn;
}

/* out = fn(a) on the device against the host. */
static void check_unary(struct fx *f, struct tt_unary_fn fn, struct tt_shape s,
			enum tt_data_format fmt,
			const struct tt_eltwise_cfg *cfg)
{
	float lo, hi, *x, *got, *want;
	tt_device_tensor *a, *out = NULL;
	size_t n;
	double r;

	unary_range(fn.op, &lo, &hi);
	a = dev_tensor(f, s, fmt, TT_BUFFER_DRAM, lo, hi,
		       fn.op == TT_UNARY_LOGICAL_NOT, 11 + fn.op, &x);
	if (fn.op == TT_UNARY_ISFINITE && !tt_data_format_is_block(fmt)) {
		/* Infinities and NaNs among the values (a block format has
		 * none of its own: one would take its block's exponent). */
		tt_tensor *t = NULL;
		size_t v = 1;

		for (unsigned i = 0; i < s.rank; i++)
			v *= s.dims[i];
		for (size_t i = 0; i < v; i += 3)
			x[i] = i % 2 ? INFINITY : NAN;
		TRY(tt_tensor_wrap(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, x,
				   v * sizeof(float), NULL, NULL, &t));
		TRY(tt_device_tensor_write(a, NULL, t));
		tt_tensor_free(t);
	}
	TRY(tt_op_unary(f->ctx, a, &fn, cfg, &out));
	got = dev_values(f, out, &n);
	want = malloc(n * sizeof(float));
	assert_non_null(want);
	for (size_t i = 0; i < n; i++) {
		want[i] = ref_unary(fn.op, fn.p0, fn.p1, x[i]);
		if (cfg && cfg->activation.op)
			want[i] = ref_unary(cfg->activation.op,
					    cfg->activation.p0,
					    cfg->activation.p1, want[i]);
	}
	r = pcc(got, want, n);
	if (!(r >= min_pcc(fmt)))
		fail_msg("%s in %s: PCC %.6f below %.3f (e.g. x %g: got %g want %g)",
			 tt_unary_op_name(fn.op), tt_data_format_name(fmt), r,
			 min_pcc(fmt), (double)x[1], (double)got[1],
			 (double)want[1]);
	tt_device_tensor_free(a);
	tt_device_tensor_free(out);
	free(x);
	free(got);
	free(want);
}

static void unary_sweep(void **state, enum tt_data_format fmt,
			struct tt_shape s)
{
	struct fx *f = *state;

	for (int op = 0; op < TT_UNARY_OP_COUNT; op++)
		check_unary(f, fn_of((enum tt_unary_op)op), s, fmt, NULL);
}

static void test_unary_float16_b(void **state)
{
	unary_sweep(state, TT_FLOAT16_B, TT_SHAPE(33, 65));
}

static void test_unary_float32(void **state)
{
	unary_sweep(state, TT_FLOAT32, TT_SHAPE(2, 20, 40));
}

static void test_unary_bfp8_b(void **state)
{
	unary_sweep(state, TT_BFP8_B, TT_SHAPE(70));
}

/* out = a op b for shapes sa, sb against the host (broadcasting). */
static void check_binary(struct fx *f, enum tt_binary_op op,
			 struct tt_shape sa, struct tt_shape sb,
			 enum tt_data_format fmt,
			 const struct tt_eltwise_cfg *cfg)
{
	bool ints = op >= TT_BINARY_EQ;
	float lo = ints ? -2 : -4, hi = ints ? 3 : 4, blo = lo;
	float *x, *y, *got, *want;
	tt_device_tensor *a, *b, *out = NULL;
	uint64_t wa[4], wb[4], wo[4];
	size_t n;
	double r;

	if (op == TT_BINARY_DIV)
		blo = 0.5f;
	if (op == TT_BINARY_POW) {
		lo = 0.25f;
		blo = -2;
		hi = 2;
	}
	a = dev_tensor(f, sa, fmt, TT_BUFFER_DRAM, lo, hi, ints, 3, &x);
	b = dev_tensor(f, sb, fmt, TT_BUFFER_DRAM, blo, hi, ints, 5, &y);
	TRY(tt_op_binary(f->ctx, op, a, b, cfg, &out));
	got = dev_values(f, out, &n);
	want = malloc(n * sizeof(float));
	assert_non_null(want);
	TRY(tt_shape_wzrc(&sa, wa));
	TRY(tt_shape_wzrc(&sb, wb));
	TRY(tt_shape_wzrc(tt_device_tensor_shape(out), wo));
	for (uint64_t w = 0, i = 0; w < wo[0]; w++)
		for (uint64_t z = 0; z < wo[1]; z++)
			for (uint64_t rr = 0; rr < wo[2]; rr++)
				for (uint64_t c = 0; c < wo[3]; c++, i++) {
#define IDX(d) ((((w % d[0]) * d[1] + z % d[1]) * d[2] + rr % d[2]) * d[3] + c % d[3])
					want[i] = ref_binary(op, x[IDX(wa)], y[IDX(wb)]);
					if (cfg && cfg->activation.op)
						want[i] = ref_unary(cfg->activation.op,
								    cfg->activation.p0,
								    cfg->activation.p1, want[i]);
				}
	r = pcc(got, want, n);
	if (!(r >= min_pcc(fmt)))
		fail_msg("%s in %s: PCC %.6f below %.3f (got[0] %g want[0] %g)",
			 tt_binary_op_name(op), tt_data_format_name(fmt), r,
			 min_pcc(fmt), (double)got[0], (double)want[0]);
	tt_device_tensor_free(a);
	tt_device_tensor_free(b);
	tt_device_tensor_free(out);
	free(x);
	free(y);
	free(got);
	free(want);
}

static void binary_sweep(void **state, enum tt_data_format fmt)
{
	struct fx *f = *state;

	for (int op = 0; op < TT_BINARY_OP_COUNT; op++)
		check_binary(f, (enum tt_binary_op)op, TT_SHAPE(3, 33, 40),
			     TT_SHAPE(3, 33, 40), fmt, NULL);
}

static void test_binary_float16_b(void **state)
{
	binary_sweep(state, TT_FLOAT16_B);
}

static void test_binary_float32(void **state)
{
	binary_sweep(state, TT_FLOAT32);
}

static void test_binary_bfp8_b(void **state)
{
	binary_sweep(state, TT_BFP8_B);
}

static int fx_up(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	void *dev;

	if (!f || booted_up(&dev))
		return -1;
	f->dev = dev;
	if (tt_ops_ctx_create(f->dev, &f->ctx)) {
		fprintf(stderr, "# %s\n", tt_last_error());
		return -1;
	}
	*state = f;
	return 0;
}

static int fx_down(void **state)
{
	struct fx *f = *state;

	tt_ops_ctx_free(f->ctx);
	tt_device_close(f->dev);
	free(f);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unary_float16_b),
		cmocka_unit_test(test_unary_float32),
		cmocka_unit_test(test_unary_bfp8_b),
		cmocka_unit_test(test_binary_float16_b),
		cmocka_unit_test(test_binary_float32),
		cmocka_unit_test(test_binary_bfp8_b),
	};

	return cmocka_run_group_tests_name("ops_eltwise", tests, fx_up, fx_down);
}
