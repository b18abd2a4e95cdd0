// SPDX-License-Identifier: Apache-2.0
/*
 * The element-wise ops on integer tensors (Int32, UInt32, UInt16, UInt8;
 * tt/ops.h), on the embedded model. Integers go through the vector unit
 * in a 32-bit DST, so every result below 2^24 in magnitude is exact; the
 * cases check that exactly:
 *
 *  - add, sub, mul, max, min, comparisons and logical ops on Int32, with
 *    negative values, broadcasting and results up to 2^24 - 1;
 *  - UInt32, UInt16 and UInt8 arithmetic, and the clamp to each format's
 *    range when a result leaves it (UInt8: 250 + 10 is 255, 3 - 5 is 0);
 *  - typecasts float -> integer (round half to even, clamp, NaN -> 0)
 *    and integer -> float;
 *  - refusals: fp32_acc off with integer tensors, an integer format an op
 *    of another family does not take.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ops_testutil.h"
#include "testutil.h"
#include "tt/ops.h"

/* A device tensor of fmt holding v (doubles, exact in fmt). */
static tt_device_tensor *dev_of(struct fx *f, struct tt_shape s,
				enum tt_data_format fmt, const double *v)
{
	tt_device_tensor *dt = NULL;
	tt_tensor *t = NULL;
	float *p;

	TRY(tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t));
	p = tt_tensor_data(t);
	for (size_t i = 0; i < tt_tensor_volume(t); i++)
		p[i] = (float)v[i];
	TRY(tt_device_tensor_create(f->dev, &s, fmt, TT_BUFFER_DRAM, &dt));
	TRY(tt_device_tensor_write(dt, NULL, t));
	tt_tensor_free(t);
	return dt;
}

/* dt's values, read back as Int32 host values (exact for every integer
 * format) or as Float32 for a float tensor. */
static double *values_of(struct fx *f, const tt_device_tensor *dt)
{
	enum tt_data_format fmt = tt_device_tensor_format(dt);
	bool ints = fmt == TT_INT32 || fmt == TT_UINT32 || fmt == TT_UINT16 ||
		    fmt == TT_UINT8;
	tt_tensor *t = NULL;
	double *v;
	size_t n;

	TRY(tt_ops_finish(f->ctx));
	TRY(tt_tensor_create(tt_device_tensor_shape(dt),
			     fmt == TT_UINT32 ? TT_UINT32 : ints ? TT_INT32 : TT_FLOAT32,
			     TT_TENSOR_ROW_MAJOR, &t));
	TRY(tt_device_tensor_read(dt, NULL, t));
	n = tt_tensor_volume(t);
	v = malloc(n * sizeof(*v));
	assert_non_null(v);
	for (size_t i = 0; i < n; i++) {
		if (fmt == TT_UINT32)
			v[i] = ((const uint32_t *)tt_tensor_data(t))[i];
		else if (ints)
			v[i] = ((const int32_t *)tt_tensor_data(t))[i];
		else
			v[i] = ((const float *)tt_tensor_data(t))[i];
	}
	tt_tensor_free(t);
	return v;
}

static void expect_values(struct fx *f, const tt_device_tensor *dt,
			  const double *want, size_t n, const char *what)
{
	double *got = values_of(f, dt);

	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i])
			fail_msg("%s: element %zu is %.17g, want %.17g", what, i,
				 got[i], want[i]);
	free(got);
}

static uint32_t next(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* Int32 binary ops, exact. a in +-2^23, b small (so products stay
 * below 2^24), b broadcast over rows. */
static void test_int32_binary(void **state)
{
	struct fx *f = *state;
	const unsigned rows = 40, cols = 70;
	const struct tt_shape sa = TT_SHAPE(rows, cols), sb = TT_SHAPE(1, cols);
	double *a = malloc(rows * cols * sizeof(double));
	double *b = malloc(cols * sizeof(double));
	double *want = malloc(rows * cols * sizeof(double));
	static const enum tt_binary_op ops[] = {
		TT_BINARY_ADD, TT_BINARY_SUB, TT_BINARY_MUL, TT_BINARY_MAX,
		TT_BINARY_MIN, TT_BINARY_EQ, TT_BINARY_LT, TT_BINARY_GE,
		TT_BINARY_LOGICAL_AND,
	};
	tt_device_tensor *da, *db;
	uint32_t seed = 5;

	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(want);
	for (unsigned i = 0; i < rows * cols; i++)
		a[i] = (double)((int32_t)(next(&seed) % (1u << 22)) - (1 << 21));
	a[0] = (1 << 23) - 1; /* the largest exact sum below: + 2^23 */
	a[1] = -(1 << 23);
	for (unsigned j = 0; j < cols; j++)
		b[j] = (double)((int32_t)(next(&seed) % 7) - 3);
	b[0] = 3;
	da = dev_of(f, sa, TT_INT32, a);
	db = dev_of(f, sb, TT_INT32, b);
	for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
		tt_device_tensor *out = NULL;
		char what[64];

		for (unsigned i = 0; i < rows * cols; i++) {
			double x = a[i], y = b[i % cols];

			switch (ops[o]) {
			case TT_BINARY_ADD: want[i] = x + y; break;
			case TT_BINARY_SUB: want[i] = x - y; break;
			case TT_BINARY_MUL: want[i] = x * y; break;
			case TT_BINARY_MAX: want[i] = x > y ? x : y; break;
			case TT_BINARY_MIN: want[i] = x < y ? x : y; break;
			case TT_BINARY_EQ: want[i] = x == y; break;
			case TT_BINARY_LT: want[i] = x < y; break;
			case TT_BINARY_GE: want[i] = x >= y; break;
			default: want[i] = x != 0 && y != 0; break;
			}
			/* Products beyond 2^24 are not exact in fp32: keep the
			 * check to those that are. */
			if (ops[o] == TT_BINARY_MUL && fabs(want[i]) >= 16777216)
				want[i] = (double)(float)want[i];
		}
		TRY(tt_op_binary(f->ctx, ops[o], da, db, NULL, &out));
		assert_int_equal(tt_device_tensor_format(out), TT_INT32);
		snprintf(what, sizeof(what), "Int32 %s", tt_binary_op_name(ops[o]));
		expect_values(f, out, want, rows * cols, what);
		tt_device_tensor_free(out);
	}
	tt_device_tensor_free(da);
	tt_device_tensor_free(db);
	free(a);
	free(b);
	free(want);
}

/* Unsigned formats, and the clamp when a result leaves the range. */
static void test_unsigned_and_clamp(void **state)
{
	struct fx *f = *state;
	static const struct {
		enum tt_data_format fmt;
		double a, b, sum, diff;
	} cases[] = {
		{ TT_UINT8, 250, 10, 255, 240 },
		{ TT_UINT8, 3, 5, 8, 0 },
		{ TT_UINT16, 65000, 600, 65535, 64400 },
		{ TT_UINT16, 7, 9, 16, 0 },
		{ TT_UINT32, 16000000, 700000, 16700000, 15300000 },
		{ TT_UINT32, 1, 2, 3, 0 },
	};
	const struct tt_shape s = TT_SHAPE(33, 33);
	double *a = malloc(33 * 33 * sizeof(double));
	double *b = malloc(33 * 33 * sizeof(double));
	double *w = malloc(33 * 33 * sizeof(double));

	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(w);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		tt_device_tensor *da, *db, *sum = NULL, *diff = NULL;
		char what[64];

		for (unsigned i = 0; i < 33 * 33; i++) {
			a[i] = cases[c].a;
			b[i] = cases[c].b;
		}
		da = dev_of(f, s, cases[c].fmt, a);
		db = dev_of(f, s, cases[c].fmt, b);
		TRY(tt_op_add(f->ctx, da, db, NULL, &sum));
		TRY(tt_op_sub(f->ctx, da, db, NULL, &diff));
		for (unsigned i = 0; i < 33 * 33; i++)
			w[i] = cases[c].sum;
		snprintf(what, sizeof(what), "%s %g + %g",
			 tt_data_format_name(cases[c].fmt), cases[c].a, cases[c].b);
		expect_values(f, sum, w, 33 * 33, what);
		for (unsigned i = 0; i < 33 * 33; i++)
			w[i] = cases[c].diff;
		snprintf(what, sizeof(what), "%s %g - %g",
			 tt_data_format_name(cases[c].fmt), cases[c].a, cases[c].b);
		expect_values(f, diff, w, 33 * 33, what);
		tt_device_tensor_free(da);
		tt_device_tensor_free(db);
		tt_device_tensor_free(sum);
		tt_device_tensor_free(diff);
	}
	free(a);
	free(b);
	free(w);
}

/* Float -> integer: round half to even, clamp, NaN -> 0; and back. */
static void test_typecasts(void **state)
{
	struct fx *f = *state;
	static const double in[] = {
		2.5, 3.5, -2.5, -0.4, 0.6, 1e10, -1e10, NAN, 16777215, -7.5,
	};
	static const double want_i32[] = {
		2, 4, -2, 0, 1, 2147483647, -2147483648.0, 0, 16777215, -8,
	};
	static const double want_u8[] = {
		2, 4, 0, 0, 1, 255, 0, 0, 255, 0,
	};
	const size_t n = sizeof(in) / sizeof(in[0]);
	const struct tt_shape s = TT_SHAPE(n);
	tt_device_tensor *x = dev_of(f, s, TT_FLOAT32, in);
	tt_device_tensor *i32 = NULL, *u8 = NULL, *back = NULL;
	double want_back[sizeof(in) / sizeof(in[0])];

	TRY(tt_op_typecast(f->ctx, x, TT_INT32, NULL, &i32));
	expect_values(f, i32, want_i32, n, "Float32 -> Int32");
	TRY(tt_op_typecast(f->ctx, x, TT_UINT8, NULL, &u8));
	expect_values(f, u8, want_u8, n, "Float32 -> UInt8");
	TRY(tt_op_typecast(f->ctx, i32, TT_FLOAT32, NULL, &back));
	for (size_t i = 0; i < n; i++)
		want_back[i] = (double)(float)want_i32[i];
	expect_values(f, back, want_back, n, "Int32 -> Float32");
	tt_device_tensor_free(x);
	tt_device_tensor_free(i32);
	tt_device_tensor_free(u8);
	tt_device_tensor_free(back);
}

static void test_int_errors(void **state)
{
	struct fx *f = *state;
	static const double v[64] = { 1, 2, 3 };
	tt_device_tensor *a = dev_of(f, TT_SHAPE(64), TT_INT32, v);
	tt_device_tensor *fl = dev_of(f, TT_SHAPE(64), TT_FLOAT16_B, v);
	struct tt_eltwise_cfg cfg = tt_op_eltwise_config();
	tt_device_tensor *o = NULL;

	cfg.fp32_acc = TT_OPS_OFF;
	expect_error(tt_op_abs(f->ctx, a, &cfg, &o), -EINVAL,
		     "tt_op_abs: integer tensors need fp32_acc");
	assert_null(o);
	/* An integer output of a float op needs it too. */
	cfg.out_format = TT_UINT16;
	expect_error(tt_op_abs(f->ctx, fl, &cfg, &o), -EINVAL,
		     "integer tensors need fp32_acc");
	assert_null(o);
	/* Int8 is a tile format, not one the ops take. */
	cfg = tt_op_eltwise_config();
	cfg.out_format = TT_INT8;
	expect_error(tt_op_abs(f->ctx, fl, &cfg, &o), -ENOTSUP,
		     "cfg.out_format Int8");
	tt_device_tensor_free(a);
	tt_device_tensor_free(fl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int32_binary),
		cmocka_unit_test(test_unsigned_and_clamp),
		cmocka_unit_test(test_typecasts),
		cmocka_unit_test(test_int_errors),
	};

	return cmocka_run_group_tests_name("ops_int", tests, fx_up, fx_down);
}
