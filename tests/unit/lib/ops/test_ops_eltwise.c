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
#include "ops_testutil.h"
#include "testutil.h"
#include "tmpdir.h"
#include "tt/ops.h"

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

/* Broadcasting of b and of a: rows, columns, scalars, outer dimensions,
 * ranks 1 to 4, on the matrix unit (add, sub, mul) and the vector unit. */
static void test_broadcast(void **state)
{
	static const struct {
		struct tt_shape a, b;
	} cases[] = {
		{ TT_SHAPE(2, 3, 40, 70), TT_SHAPE(3, 1, 70) },   /* rows, w */
		{ TT_SHAPE(2, 3, 40, 70), TT_SHAPE(40, 1) },      /* columns */
		{ TT_SHAPE(3, 40, 70), TT_SHAPE(1) },             /* scalar */
		{ TT_SHAPE(2, 1, 33, 65), TT_SHAPE(1, 4, 33, 65) }, /* z of a */
		{ TT_SHAPE(1, 70), TT_SHAPE(2, 40, 70) },         /* rows of a */
		{ TT_SHAPE(40, 1), TT_SHAPE(40, 70) },            /* columns of a */
		{ TT_SHAPE(40, 1), TT_SHAPE(1, 70) },             /* both */
		{ TT_SHAPE(5), TT_SHAPE(5) },                     /* rank 1 */
	};
	static const enum tt_binary_op ops[] = {
		TT_BINARY_ADD, TT_BINARY_SUB, TT_BINARY_MUL, TT_BINARY_DIV,
		TT_BINARY_MAX, TT_BINARY_GE,
	};
	struct fx *f = *state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
			check_binary(f, ops[k], cases[i].a, cases[i].b,
				     i % 2 ? TT_FLOAT32 : TT_FLOAT16_B, NULL);
	/* Broadcast in block formats too (the padding masks). */
	check_binary(f, TT_BINARY_MUL, TT_SHAPE(2, 40, 70), TT_SHAPE(40, 1),
		     TT_BFP8_B, NULL);
	check_binary(f, TT_BINARY_DIV, TT_SHAPE(1, 70), TT_SHAPE(2, 40, 70),
		     TT_BFP8_B, NULL);
}

/* A fused activation on binary and unary ops. */
static void test_fused_activation(void **state)
{
	struct fx *f = *state;
	struct tt_eltwise_cfg c = tt_op_eltwise_config();

	c.activation = (struct tt_unary_fn){ TT_UNARY_RELU, 0, 0 };
	check_binary(f, TT_BINARY_ADD, TT_SHAPE(40, 70), TT_SHAPE(40, 70),
		     TT_FLOAT16_B, &c);
	c.activation = (struct tt_unary_fn){ TT_UNARY_GELU, 0, 0 };
	check_binary(f, TT_BINARY_MUL, TT_SHAPE(2, 40, 70), TT_SHAPE(1, 70),
		     TT_FLOAT32, &c);
	c.activation = (struct tt_unary_fn){ TT_UNARY_MISH, 0, 0 };
	check_binary(f, TT_BINARY_DIV, TT_SHAPE(40, 70), TT_SHAPE(40, 1),
		     TT_FLOAT16_B, &c);
	c.activation = (struct tt_unary_fn){ TT_UNARY_SIGMOID, 0, 0 };
	check_unary(f, fn_of(TT_UNARY_SQUARE), TT_SHAPE(33, 33), TT_FLOAT16_B,
		    &c);
}

/* Grids, splits, blocks and fidelities the caller chooses. */
static void test_configs(void **state)
{
	struct fx *f = *state;
	struct tt_eltwise_cfg c = tt_op_eltwise_config();

	c.grid = (struct tt_xy){ 3, 2 };
	check_binary(f, TT_BINARY_ADD, TT_SHAPE(4, 64, 100), TT_SHAPE(4, 64, 100),
		     TT_FLOAT16_B, &c); /* 32 tiles on 6 cores: 6, 6, 5, ... */
	c.tiles_per_core = 11;
	c.block_tiles = 3;
	c.buffering = 3;
	check_binary(f, TT_BINARY_SUB, TT_SHAPE(4, 64, 100), TT_SHAPE(1, 100),
		     TT_FLOAT16_B, &c);
	c = tt_op_eltwise_config();
	c.block_tiles = 1;
	c.buffering = 1;
	check_unary(f, fn_of(TT_UNARY_EXP), TT_SHAPE(3, 40, 40), TT_FLOAT16_B,
		    &c);
	for (int fid = 0; fid <= 4; fid++) {
		if (fid == 1)
			continue;
		c = tt_op_eltwise_config();
		c.math_fidelity = (enum tt_math_fidelity)fid;
		/* Even LoFi keeps bf16 products well correlated. */
		check_binary(f, TT_BINARY_MUL, TT_SHAPE(40, 70),
			     TT_SHAPE(40, 70), TT_FLOAT16_B, &c);
	}
	c = tt_op_eltwise_config();
	c.fp32_acc = TT_OPS_OFF;
	check_binary(f, TT_BINARY_ADD, TT_SHAPE(40, 70), TT_SHAPE(40, 70),
		     TT_FLOAT32, &c); /* bf16 DST: still 0.999 */
	c.fp32_acc = TT_OPS_ON;
	check_unary(f, fn_of(TT_UNARY_TANH), TT_SHAPE(40, 70), TT_FLOAT16_B,
		    &c);
}

/* Inputs and outputs in L1, a given output, another output format. */
static void test_placement_and_formats(void **state)
{
	struct fx *f = *state;
	struct tt_eltwise_cfg c = tt_op_eltwise_config();
	tt_device_tensor *a, *b, *out = NULL, *given = NULL;
	float *x, *y, *got;
	size_t n;

	a = dev_tensor(f, TT_SHAPE(40, 70), TT_FLOAT16_B, TT_BUFFER_L1, -4, 4,
		       false, 1, &x);
	b = dev_tensor(f, TT_SHAPE(40, 70), TT_FLOAT32, TT_BUFFER_DRAM, -4, 4,
		       false, 2, &y);
	c.out_mem = TT_OPS_MEM_L1;
	c.out_format = TT_BFP8_B;
	TRY(tt_op_add(f->ctx, a, b, &c, &out));
	assert_int_equal(tt_device_tensor_format(out), TT_BFP8_B);
	assert_int_equal(tt_buffer_type(tt_device_tensor_buffer(out)),
			 TT_BUFFER_L1);
	got = dev_values(f, out, &n);
	for (size_t i = 0; i < n; i++)
		y[i] += x[i];
	assert_true(pcc(got, y, n) >= 0.98);
	free(got);
	/* A given output: its format and place are the op's. */
	TRY(tt_device_tensor_create(f->dev, &TT_SHAPE(40, 70), TT_FLOAT32,
				    TT_BUFFER_DRAM, &given));
	TRY(tt_op_typecast(f->ctx, out, TT_FLOAT32, NULL, &given));
	got = dev_values(f, given, &n);
	{
		float *want = dev_values(f, out, &n);

		for (size_t i = 0; i < n; i++)
			assert_true(got[i] == want[i]); /* Bfp8_b -> Float32: exact */
		free(want);
	}
	free(got);
	/* In place, on several cores: given = given * given, then + 1
	 * through a broadcast scalar (b [1] made of ones). */
	{
		float *before = dev_values(f, given, &n), *one;
		tt_device_tensor *ones = dev_tensor(f, TT_SHAPE(1), TT_FLOAT32,
						    TT_BUFFER_DRAM, 1, 1, false,
						    1, &one);

		c = tt_op_eltwise_config();
		c.grid = (struct tt_xy){ 2, 2 };
		TRY(tt_op_mul(f->ctx, given, given, &c, &given));
		TRY(tt_op_add(f->ctx, given, ones, &c, &given));
		got = dev_values(f, given, &n);
		for (size_t i = 0; i < n; i++)
			assert_true(fabsf(got[i] - (before[i] * before[i] + 1)) <=
				    0.01f * (before[i] * before[i] + 1));
		free(before);
		free(one);
		free(got);
		tt_device_tensor_free(ones);
	}
	tt_device_tensor_free(given);
	tt_device_tensor_free(out);
	tt_device_tensor_free(a);
	tt_device_tensor_free(b);
	free(x);
	free(y);
}

static unsigned long kbuild_calls(void)
{
	struct tt_kbuild_stats s;

	tt_kbuild_get_stats(&s);
	return s.mem_hits + s.disk_hits + s.builds;
}

/* A second call with the same key builds nothing: no kernel build (not
 * even a lookup in the kernel cache), no program; it computes on its own
 * buffers. Another shape or config is a miss. */
static void test_program_cache(void **state)
{
	struct fx *f = *state;
	struct tt_ops_cache_stats s0, s1;
	tt_device_tensor *a1, *b1, *a2, *b2, *o1 = NULL, *o2 = NULL, *o3 = NULL;
	struct tt_eltwise_cfg c = tt_op_eltwise_config();
	float *x1, *y1, *x2, *y2, *got;
	unsigned long k0;
	size_t n;

	TRY(tt_ops_cache_clear(f->ctx));
	a1 = dev_tensor(f, TT_SHAPE(2, 50, 60), TT_FLOAT16_B, TT_BUFFER_DRAM, -4, 4, false, 1, &x1);
	b1 = dev_tensor(f, TT_SHAPE(2, 50, 60), TT_FLOAT16_B, TT_BUFFER_DRAM, -4, 4, false, 2, &y1);
	a2 = dev_tensor(f, TT_SHAPE(2, 50, 60), TT_FLOAT16_B, TT_BUFFER_DRAM, -4, 4, false, 3, &x2);
	b2 = dev_tensor(f, TT_SHAPE(2, 50, 60), TT_FLOAT16_B, TT_BUFFER_DRAM, -4, 4, false, 4, &y2);
	TRY(tt_ops_cache_stats(f->ctx, &s0));
	TRY(tt_op_sub(f->ctx, a1, b1, NULL, &o1));
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.misses, s0.misses + 1);
	assert_int_equal(s1.hits, s0.hits);
	assert_int_equal(s1.programs, 1);
	TRY(tt_ops_finish(f->ctx));

	k0 = kbuild_calls();
	TRY(tt_op_sub(f->ctx, a2, b2, NULL, &o2));
	TRY(tt_ops_cache_stats(f->ctx, &s0));
	assert_int_equal(s0.hits, s1.hits + 1);
	assert_int_equal(s0.misses, s1.misses);
	assert_int_equal(s0.programs, 1);
	TRY(tt_ops_finish(f->ctx));
	assert_int_equal(kbuild_calls(), k0); /* nothing built or looked up */

	/* Both results right: the hit ran on its own buffers. */
	got = dev_values(f, o1, &n);
	for (size_t i = 0; i < n; i++)
		assert_true(fabsf(got[i] - (x1[i] - y1[i])) <= 0.07f);
	free(got);
	got = dev_values(f, o2, &n);
	for (size_t i = 0; i < n; i++)
		assert_true(fabsf(got[i] - (x2[i] - y2[i])) <= 0.07f);
	free(got);

	/* Another config: a miss, then its own hit. */
	c.grid = (struct tt_xy){ 2, 1 };
	TRY(tt_op_sub(f->ctx, a1, b2, &c, &o3));
	TRY(tt_op_sub(f->ctx, a2, b1, &c, &o3));
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.misses, s0.misses + 1);
	assert_int_equal(s1.hits, s0.hits + 1);
	assert_int_equal(s1.programs, 2);
	got = dev_values(f, o3, &n);
	for (size_t i = 0; i < n; i++)
		assert_true(fabsf(got[i] - (x2[i] - y1[i])) <= 0.07f);
	free(got);

	TRY(tt_ops_cache_clear(f->ctx));
	TRY(tt_ops_cache_stats(f->ctx, &s0));
	assert_int_equal(s0.programs, 0);
	assert_int_equal(s0.misses, s1.misses);
	tt_device_tensor_free(a1);
	tt_device_tensor_free(b1);
	tt_device_tensor_free(a2);
	tt_device_tensor_free(b2);
	tt_device_tensor_free(o1);
	tt_device_tensor_free(o2);
	tt_device_tensor_free(o3);
	free(x1);
	free(y1);
	free(x2);
	free(y2);
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf;
	long len;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	rewind(fp);
	buf = calloc(1, (size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
	fclose(fp);
	return buf;
}

static unsigned count(const char *s, const char *what)
{
	unsigned n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

/* The profiler writes a trace Python's json reads (two events per call)
 * and a CSV with a row per call, hits and misses told apart. */
static void test_profile(void **state)
{
	struct fx *f = *state;
	char dir[256], prefix[300], cmd[1200], *json, *csv;
	tt_device_tensor *a, *b, *o = NULL;

	assert_non_null(test_mkdtemp(dir, sizeof(dir), "ops-prof"));
	snprintf(prefix, sizeof(prefix), "%s/prof", dir);
	a = dev_tensor(f, TT_SHAPE(40, 40), TT_FLOAT16_B, TT_BUFFER_DRAM, -1, 1, false, 1, NULL);
	b = dev_tensor(f, TT_SHAPE(40, 40), TT_FLOAT16_B, TT_BUFFER_DRAM, -1, 1, false, 2, NULL);
	TRY(tt_ops_profile_start(f->ctx, prefix));
	TRY(tt_op_add(f->ctx, a, b, NULL, &o));
	TRY(tt_op_add(f->ctx, a, b, NULL, &o));
	TRY(tt_op_exp(f->ctx, a, NULL, &o));
	TRY(tt_ops_profile_stop(f->ctx));
	TRY(tt_ops_profile_stop(f->ctx)); /* nothing on: nothing to do */

	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import json, csv, sys\n"
		 "t = json.load(open(sys.argv[1] + \".json\"))\n"
		 "x = [e for e in t[\"traceEvents\"] if e[\"ph\"] == \"X\"]\n"
		 "assert len(x) == 6, len(x)\n"
		 "assert [e[\"name\"] for e in x if e[\"tid\"] == 1] == [\"tt_op_add\", \"tt_op_add\", \"tt_op_exp\"]\n"
		 "assert [e[\"args\"][\"cache_hit\"] for e in x if e[\"tid\"] == 1] == [False, True, False]\n"
		 "r = list(csv.DictReader(open(sys.argv[1] + \".csv\")))\n"
		 "assert [w[\"op\"] for w in r] == [\"tt_op_add\", \"tt_op_add\", \"tt_op_exp\"], r\n"
		 "assert all(float(w[\"device_us\"]) > 0 for w in r)\n' %s",
		 prefix);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s.json", prefix);
	json = slurp(cmd);
	/* two tracks, a and out named in each event */
	assert_int_equal(count(json, "[40,40] Float16_b"), 12);
	free(json);
	snprintf(cmd, sizeof(cmd), "%s.csv", prefix);
	csv = slurp(cmd);
	assert_int_equal(count(csv, "\n"), 4);
	free(csv);

	/* A prefix that cannot be written is reported at stop. */
	TRY(tt_ops_profile_start(f->ctx, "/nonexistent-dir/prof"));
	TRY(tt_op_exp(f->ctx, a, NULL, &o));
	expect_error(tt_ops_profile_stop(f->ctx), -ENOENT, "/nonexistent-dir/prof.json");
	expect_error(tt_ops_profile_start(f->ctx, ""), -EINVAL, "prefix is empty");
	tt_device_tensor_free(a);
	tt_device_tensor_free(b);
	tt_device_tensor_free(o);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Every class of refused call: nothing runs, nothing is created, and the
 * message names the op, the argument and the limit. */
/* where: every element is a's or b's, chosen by cond != 0; with cond,
 * a and b broadcast against each other, in Float32 (exact), bfloat16
 * and Int32; a second call is a cache hit. */
static void test_where(void **state)
{
	struct fx *f = *state;
	static const struct {
		struct tt_shape c, a, b;
		enum tt_data_format fmt;
	} cases[] = {
		{ TT_SHAPE(2, 40, 70), TT_SHAPE(2, 40, 70), TT_SHAPE(2, 40, 70), TT_FLOAT32 },
		{ TT_SHAPE(1, 70), TT_SHAPE(2, 40, 70), TT_SHAPE(1), TT_FLOAT32 },
		{ TT_SHAPE(2, 40, 1), TT_SHAPE(40, 70), TT_SHAPE(2, 1, 70), TT_FLOAT16_B },
		{ TT_SHAPE(33, 33), TT_SHAPE(33, 33), TT_SHAPE(33, 1), TT_INT32 },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		float *hc, *ha, *hb, *got;
		tt_device_tensor *c, *a, *b, *o = NULL, *o2 = NULL;
		struct tt_ops_cache_stats s0, s1;
		uint64_t dc[4], da[4], db[4], dout[4];
		size_t n;

		/* cond: integers in [-1, 2): zero about a third of the time */
		c = dev_tensor(f, cases[k].c, TT_FLOAT16_B, TT_BUFFER_DRAM, -1,
			       2, true, 11 + (uint32_t)k, &hc);
		/* a and b: bfloat16 values (exact in every format here and
		 * through the matrix unit's broadcast), integers for Int32 */
		a = dev_tensor(f, cases[k].a, cases[k].fmt, TT_BUFFER_DRAM,
			       -1000, 1000, true, 21 + (uint32_t)k, &ha);
		b = dev_tensor(f, cases[k].b, cases[k].fmt, TT_BUFFER_L1, -1000,
			       1000, true, 31 + (uint32_t)k, &hb);
		TRY(tt_op_where(f->ctx, c, a, b, NULL, &o));
		assert_int_equal(tt_device_tensor_format(o), cases[k].fmt);
		got = dev_values(f, o, &n);
		TRY(tt_shape_wzrc(tt_device_tensor_shape(c), dc));
		TRY(tt_shape_wzrc(tt_device_tensor_shape(a), da));
		TRY(tt_shape_wzrc(tt_device_tensor_shape(b), db));
		TRY(tt_shape_wzrc(tt_device_tensor_shape(o), dout));
		for (size_t i = 0; i < n; i++) {
			uint64_t w = i / (dout[1] * dout[2] * dout[3]);
			uint64_t z = i / (dout[2] * dout[3]) % dout[1];
			uint64_t r = i / dout[3] % dout[2], col = i % dout[3];
#define AT(d, h) h[(((w % d[0]) * d[1] + z % d[1]) * d[2] + r % d[2]) * d[3] + col % d[3]]
			float want = AT(dc, hc) != 0 ? AT(da, ha) : AT(db, hb);
#undef AT
			if (memcmp(&got[i], &want, sizeof(want)))
				fail_msg("case %zu: element %zu is %g, want %g", k,
					 i, (double)got[i], (double)want);
		}
		free(got);
		TRY(tt_ops_cache_stats(f->ctx, &s0));
		TRY(tt_op_where(f->ctx, c, a, b, NULL, &o2));
		TRY(tt_ops_cache_stats(f->ctx, &s1));
		assert_int_equal(s1.hits, s0.hits + 1);
		assert_int_equal(s1.misses, s0.misses);
		TRY(tt_ops_finish(f->ctx));
		tt_device_tensor_free(o);
		tt_device_tensor_free(o2);
		tt_device_tensor_free(a);
		tt_device_tensor_free(b);
		tt_device_tensor_free(c);
		free(hc);
		free(ha);
		free(hb);
	}
	{
		tt_device_tensor *a = dev_tensor(f, TT_SHAPE(2, 40, 70), TT_FLOAT16_B,
						 TT_BUFFER_DRAM, 0, 1, false, 1, NULL);
		tt_device_tensor *c3 = dev_tensor(f, TT_SHAPE(3, 1, 70), TT_FLOAT16_B,
						  TT_BUFFER_DRAM, 0, 1, false, 2, NULL);
		tt_device_tensor *o = NULL;

		expect_error(tt_op_where(f->ctx, NULL, a, a, NULL, &o), -EINVAL,
			     "tt_op_where: cond is NULL");
		expect_error(tt_op_where(f->ctx, c3, a, a, NULL, &o), -EINVAL,
			     "tt_op_where: cond [3,1,70] does not broadcast with a and b's [2,40,70]: dimension z is 2 there and 3 in cond");
		assert_null(o);
		tt_device_tensor_free(a);
		tt_device_tensor_free(c3);
	}
}

static void test_errors(void **state)
{
	struct fx *f = *state;
	struct tt_eltwise_cfg c;
	struct tt_unary_fn fn = { TT_UNARY_EXP, 0, 0 };
	tt_device_tensor *a, *b, *bad, *i32 = NULL, *o = NULL, *other_t = NULL;
	struct tt_ops_cache_stats s0, s1;
	tt_device *other;

	a = dev_tensor(f, TT_SHAPE(2, 40, 70), TT_FLOAT16_B, TT_BUFFER_DRAM, -1, 1, false, 1, NULL);
	b = dev_tensor(f, TT_SHAPE(40, 70), TT_FLOAT16_B, TT_BUFFER_DRAM, -1, 1, false, 2, NULL);
	bad = dev_tensor(f, TT_SHAPE(3, 40, 70), TT_FLOAT16_B, TT_BUFFER_DRAM, -1, 1, false, 3, NULL);
	TRY(tt_ops_cache_stats(f->ctx, &s0));

	/* NULL arguments */
	expect_error(tt_op_add(NULL, a, b, NULL, &o), -EINVAL, "tt_op_add: ctx is NULL");
	expect_error(tt_op_add(f->ctx, NULL, b, NULL, &o), -EINVAL, "tt_op_add: a is NULL");
	expect_error(tt_op_add(f->ctx, a, NULL, NULL, &o), -EINVAL, "tt_op_add: b is NULL");
	expect_error(tt_op_add(f->ctx, a, b, NULL, NULL), -EINVAL, "tt_op_add: out is NULL");
	expect_error(tt_op_unary(f->ctx, a, NULL, NULL, &o), -EINVAL, "tt_op_unary: fn is NULL");

	/* shapes */
	expect_error(tt_op_mul(f->ctx, a, bad, NULL, &o), -EINVAL,
		     "tt_op_mul: b [3,40,70] does not broadcast with a [2,40,70]: dimension z is 2 in a and 3 in b");

	/* formats */
	/* (integer formats: test_ops_int; Int8 is a tile format the ops do
	 * not take) */
	TRY(tt_device_tensor_create(f->dev, &TT_SHAPE(40, 70), TT_INT8, TT_BUFFER_DRAM, &i32));
	expect_error(tt_op_exp(f->ctx, i32, NULL, &o), -ENOTSUP,
		     "tt_op_exp: a is Int8; the op takes Float32, Float16, Float16_b, Bfp8_b and Bfp4_b, Int32, UInt32, UInt16 and UInt8");
	c = tt_op_eltwise_config();
	c.out_format = TT_INT8;
	expect_error(tt_op_exp(f->ctx, a, &c, &o), -ENOTSUP, "tt_op_exp: cfg.out_format Int8");
	c.out_format = (enum tt_data_format)77;
	expect_error(tt_op_exp(f->ctx, a, &c, &o), -EINVAL, "tt_op_exp: cfg.out_format");

	/* config values */
	c = tt_op_eltwise_config();
	c.grid = (struct tt_xy){ 100, 1 };
	expect_error(tt_op_exp(f->ctx, a, &c, &o), -EINVAL,
		     "tt_op_exp: cfg.grid 100x1 does not fit the device's");
	c = tt_op_eltwise_config();
	c.grid = (struct tt_xy){ 2, 1 };
	c.tiles_per_core = 2;
	expect_error(tt_op_exp(f->ctx, a, &c, &o), -EINVAL,
		     "tt_op_exp: cfg.tiles_per_core 2: 12 tiles need 6 cores, cfg.grid 2x1 has 2");
	c = tt_op_eltwise_config();
	c.block_tiles = 17;
	expect_error(tt_op_exp(f->ctx, a, &c, &o), -EINVAL,
		     "tt_op_exp: cfg.block_tiles 17 needs 17 DST tiles (1 per tile); DST holds 16");
	c = tt_op_eltwise_config();
	c.block_tiles = 9;
	expect_error(tt_op_div(f->ctx, a, b, &c, &o), -EINVAL,
		     "tt_op_div: cfg.block_tiles 9 needs 18 DST tiles (2 per tile); DST holds 16");
	c = tt_op_eltwise_config();
	c.math_fidelity = (enum tt_math_fidelity)1;
	expect_error(tt_op_mul(f->ctx, a, b, &c, &o), -EINVAL,
		     "tt_op_mul: cfg.math_fidelity 1 is not LoFi (0), HiFi2 (2), HiFi3 (3) or HiFi4 (4)");
	c = tt_op_eltwise_config();
	c.out_mem = (enum tt_ops_mem)9;
	expect_error(tt_op_exp(f->ctx, a, &c, &o), -EINVAL, "tt_op_exp: cfg.out_mem 9 is not a placement");
	c = tt_op_eltwise_config();
	c.fp32_acc = (enum tt_ops_switch)5;
	expect_error(tt_op_exp(f->ctx, a, &c, &o), -EINVAL, "tt_op_exp: cfg.fp32_acc 5 is not auto (0), off (1) or on (2)");

	/* L1: circular buffers that do not fit */
	c = tt_op_eltwise_config();
	c.buffering = 1000;
	expect_error(tt_op_add(f->ctx, a, b, &c, &o), -ENOMEM,
		     "tt_op_add: circular buffers need");
	assert_non_null(strstr(tt_last_error(), "bytes of L1 per core (cfg.buffering 1000 x cfg.block_tiles"));
	assert_non_null(strstr(tt_last_error(), "a core has"));
	c.buffering = 5000;
	expect_error(tt_op_add(f->ctx, a, b, &c, &o), -EINVAL, "cfg.buffering 5000: at most 1024");

	/* functions and their parameters */
	expect_error(tt_op_power(f->ctx, a, 65, NULL, &o), -EINVAL,
		     "tt_op_power: function power: exponent 65 is not an integer 0..64");
	fn = (struct tt_unary_fn){ TT_UNARY_POWER, 2.5f, 0 };
	expect_error(tt_op_unary(f->ctx, a, &fn, NULL, &o), -EINVAL, "exponent 2.5 is not an integer");
	expect_error(tt_op_clip(f->ctx, a, 2, 1, NULL, &o), -EINVAL,
		     "tt_op_clip: function clip: lower bound 2 above upper bound 1");
	expect_error(tt_op_leaky_relu(f->ctx, a, NAN, NULL, &o), -EINVAL,
		     "tt_op_leaky_relu: function leaky_relu: parameter nan is not finite");
	fn = (struct tt_unary_fn){ (enum tt_unary_op)99, 0, 0 };
	expect_error(tt_op_unary(f->ctx, a, &fn, NULL, &o), -EINVAL,
		     "tt_op_unary: function 99 is not a unary function");
	c = tt_op_eltwise_config();
	c.activation.op = (enum tt_unary_op)-3;
	expect_error(tt_op_add(f->ctx, a, b, &c, &o), -EINVAL,
		     "tt_op_add: cfg.activation -3 is not a unary function");
	expect_error(tt_op_binary(f->ctx, (enum tt_binary_op)40, a, b, NULL, &o), -EINVAL,
		     "tt_op_binary: op 40 is not a binary op");
	c = tt_op_eltwise_config();
	c.approx = TT_OPS_OFF;
	expect_error(tt_op_gelu_tanh(f->ctx, a, &c, &o), -EINVAL,
		     "tt_op_gelu_tanh: gelu_tanh needs approximate mode");
	c.approx = TT_OPS_ON;
	expect_error(tt_op_gelu(f->ctx, a, &c, &o), -EINVAL, "tt_op_gelu: exact gelu in approximate mode");

	/* outputs that do not match */
	expect_error(tt_op_add(f->ctx, a, b, NULL, &b), -EINVAL,
		     "tt_op_add: out is [40,70]; the result is [2,40,70]");
	c = tt_op_eltwise_config();
	c.out_format = TT_FLOAT32;
	expect_error(tt_op_exp(f->ctx, b, &c, &b), -EINVAL,
		     "tt_op_exp: out is Float16_b; cfg.out_format asks for Float32");
	c = tt_op_eltwise_config();
	c.out_mem = TT_OPS_MEM_L1;
	expect_error(tt_op_exp(f->ctx, b, &c, &b), -EINVAL,
		     "tt_op_exp: out is in DRAM; cfg.out_mem asks for L1");
	c.out_format = TT_FLOAT32;
	expect_error(tt_op_typecast(f->ctx, b, TT_BFP8_B, &c, &o), -EINVAL,
		     "tt_op_typecast: cfg.out_format Float32 is not the format asked for, Bfp8_b");

	/* a tensor of another device handle */
	TRY(tt_device_open(0, &other));
	TRY(tt_device_tensor_create(other, &TT_SHAPE(40, 70), TT_FLOAT16_B, TT_BUFFER_DRAM, &other_t));
	expect_error(tt_op_add(f->ctx, b, other_t, NULL, &o), -ENODEV,
		     "tt_op_add: b is on another device than the context's");
	tt_device_tensor_free(other_t);
	tt_device_close(other);

	/* NULL context calls */
	expect_error(tt_ops_ctx_create(NULL, NULL), -EINVAL, "tt_ops_ctx_create: dev is NULL");
	expect_error(tt_ops_finish(NULL), -EINVAL, "tt_ops_finish: ctx is NULL");

	/* Nothing ran, nothing was made. */
	assert_null(o);
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.hits, s0.hits);
	assert_int_equal(s1.misses, s0.misses);
	tt_device_tensor_free(i32);
	tt_device_tensor_free(a);
	tt_device_tensor_free(b);
	tt_device_tensor_free(bad);
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
		cmocka_unit_test(test_broadcast),
		cmocka_unit_test(test_fused_activation),
		cmocka_unit_test(test_configs),
		cmocka_unit_test(test_placement_and_formats),
		cmocka_unit_test(test_program_cache),
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_where),
		cmocka_unit_test(test_errors),
	};

	/* In the VM guest (TT_TEST_TRANSPORT=kmd, tests/unit/testcases.h):
	 * every case but the profiler's, which parses its files with
	 * Python, which the guest has not. */
	static const char *const kmd[] = {
		"test_unary_float16_b", "test_unary_float32",
		"test_unary_bfp8_b", "test_binary_float16_b",
		"test_binary_float32", "test_binary_bfp8_b", "test_broadcast",
		"test_fused_activation", "test_configs",
		"test_placement_and_formats", "test_program_cache",
		"test_where", "test_errors", NULL,
	};

	return RUN_GROUP("ops_eltwise", tests, fx_up, fx_down, kmd);
}
