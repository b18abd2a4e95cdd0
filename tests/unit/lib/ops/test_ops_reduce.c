// SPDX-License-Identifier: Apache-2.0
/*
 * The op library's reductions, argmax and cumsum (tt/ops/reduce.h) on the
 * embedded model, against libttc's goldens (ttir.sum, mean, max, min,
 * argmax, cumsum through its interpreter; tools/ttc/golden/), checked in
 * turn against references in double, on the inputs as the device holds
 * them:
 *
 *  - sum, mean, max, min over the last dimension, the one before, both,
 *    the batch dimensions and mixes, on shapes of rank 1 to 4 with sizes
 *    1, 31, 33, 65, ... (padding ignored), in Float16_b (PCC >= 0.99),
 *    Float32 at HiFi4 (>= 0.999), Bfp8_b (>= 0.98), Float16, Bfp4_b,
 *    every fidelity; exact on integer-valued inputs; Float32 to fp32
 *    precision;
 *  - argmax along the last dimension, exact, ties to the first index;
 *  - cumsum along the last two dimensions, exact on integer values;
 *  - keepdim and the shapes it gives; grids, splits, chunks, L1 output;
 *  - the program cache: a second call builds nothing;
 *  - a refused call for every class of bad input or config.
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

#include <cmocka.h>

#include "lib/kbuild/kbuild.h"
#include "ops_testutil.h"
#include "testutil.h"
#include "tmpdir.h"
#include "tt/ops.h"
#include "ttc/golden.h"
#include "ttc/ops.h"
#include "ttc/text.h"

/* A device tensor of shape s and format f holding values in [lo, hi);
 * *host gets the values as the device holds them. */
static tt_device_tensor *dev_tensor(struct fx *f, struct tt_shape s,
				    enum tt_data_format fmt,
				    enum tt_buffer_type where, float lo,
				    float hi, uint32_t seed, float **host)
{
	tt_device_tensor *dt = NULL;
	tt_tensor *t = NULL;
	float *p;

	TRY(tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t));
	p = tt_tensor_data(t);
	for (size_t i = 0; i < tt_tensor_volume(t); i++) {
		float u = (float)seed_next(&seed) / 16777216.0f;

		p[i] = lo + (hi - lo) * u;
	}
	TRY(tt_device_tensor_create(f->dev, &s, fmt, where, &dt));
	TRY(tt_device_tensor_write(dt, NULL, t));
	TRY(tt_device_tensor_read(dt, NULL, t));
	if (host) {
		*host = malloc(tt_tensor_volume(t) * sizeof(float));
		assert_non_null(*host);
		memcpy(*host, p, tt_tensor_volume(t) * sizeof(float));
	}
	tt_tensor_free(t);
	return dt;
}

/* A device tensor of exactly these values (before rounding). */
static tt_device_tensor *dev_from(struct fx *f, struct tt_shape s,
				  enum tt_data_format fmt, const float *v)
{
	tt_device_tensor *dt = NULL;
	tt_tensor *t = NULL;

	TRY(tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t));
	memcpy(tt_tensor_data(t), v, tt_tensor_volume(t) * sizeof(float));
	TRY(tt_device_tensor_create(f->dev, &s, fmt, TT_BUFFER_DRAM, &dt));
	TRY(tt_device_tensor_write(dt, NULL, t));
	tt_tensor_free(t);
	return dt;
}

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
			if (fabsf(x[i] - y[i]) > 4e-3f * fmaxf(1, fabsf(y[i])))
				return 0;
		return 1;
	}
	return sxy / sqrt(sxx * syy);
}

static double min_pcc(enum tt_data_format fmt)
{
	return fmt == TT_FLOAT32 ? 0.999 :
	       fmt == TT_FLOAT16_B || fmt == TT_FLOAT16 ? 0.99 :
	       fmt == TT_BFP8_B ? 0.98 : 0.9;
}

/* Integer values in [lo, hi), exactly as given (ints survive every
 * format for small magnitudes). */
static tt_device_tensor *dev_ints(struct fx *f, struct tt_shape s,
				  enum tt_data_format fmt, int lo, int hi,
				  uint32_t seed, float **host)
{
	size_t n;
	float *v;

	TRY(tt_shape_volume(&s, &n));
	v = malloc(n * sizeof(float));
	assert_non_null(v);
	for (size_t i = 0; i < n; i++)
		v[i] = (float)(lo + (int)(seed_next(&seed) % (uint32_t)(hi - lo)));
	*host = v;
	return dev_from(f, s, fmt, v);
}

static void dims_of(struct tt_shape s, uint64_t *d)
{
	TRY(tt_shape_wzrc(&s, d));
}

/* ---- libttc's goldens (tools/ttc/golden/) ---- */

/* "tensor<2x3x40xf32>" of the last rank dims of d (out: reduced ones 1,
 * as red says, if red). */
static void ttype(char *buf, size_t len, const uint64_t *d, unsigned rank,
		  const bool *red, const char *elem)
{
	size_t pos = (size_t)snprintf(buf, len, "tensor<");

	for (unsigned i = 4 - rank; i < 4; i++)
		pos += (size_t)snprintf(buf + pos, len - pos, "%llux",
					(unsigned long long)(red && red[i] ? 1 : d[i]));
	snprintf(buf + pos, len - pos, "%s>", elem);
}

/*
 * The golden of "ttir.<op>" with properties props on x (shape d, rank r),
 * run by libttc's interpreter on the values as the device holds them;
 * the result has the reduced dimensions (red) 1 and element type elem;
 * y gets its ny values as floats.
 */
static void golden(const char *op, const char *props, const float *x,
		   const uint64_t *d, unsigned rank, const bool *red,
		   const char *elem, float *y, size_t ny)
{
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	char ti[96], to[96], text[1024];
	ttc_module *m;
	ttc_func *f;
	ttc_tensor *args[1], *res[1] = { NULL };

	assert_non_null(ctx);
	ttype(ti, sizeof(ti), d, rank, NULL, "f32");
	ttype(to, sizeof(to), d, rank, red, elem);
	snprintf(text, sizeof(text),
		 "module {\n  func.func @main(%%x: %s) -> %s {\n"
		 "    %%0 = \"ttir.%s\"(%%x) <{%s}> : (%s) -> %s\n"
		 "    return %%0 : %s\n  }\n}\n",
		 ti, to, op, props, ti, to, to);
	m = ttc_parse(ctx, "golden.mlir", text, strlen(text), 0);
	if (!m)
		fail_msg("golden: %s\n%s", ttc_ctx_error(ctx), text);
	f = ttc_module_lookup(m, "main");
	assert_non_null(f);
	args[0] = ttc_tensor_new(ctx, ttc_value_type(ttc_func_arg(f, 0)));
	assert_non_null(args[0]);
	memcpy(args[0]->data, x, args[0]->numel * sizeof(float));
	if (ttc_golden_run(f, args, 1, res, NULL))
		fail_msg("golden: %s\n%s", ttc_ctx_error(ctx), text);
	assert_int_equal(res[0]->numel, ny);
	for (size_t i = 0; i < res[0]->numel; i++)
		y[i] = (float)ttc_tensor_get(res[0], i);
	ttc_tensor_free(args[0]);
	ttc_tensor_free(res[0]);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

/* dim_arg of the reduced dimensions of a rank-r shape. */
static void dim_arg(char *buf, size_t len, const bool *red, unsigned rank)
{
	size_t pos = (size_t)snprintf(buf, len, "keep_dim = true, dim_arg = [");
	bool first = true;

	for (unsigned i = 0; i < rank; i++)
		if (red[4 - rank + i]) {
			pos += (size_t)snprintf(buf + pos, len - pos, "%s%u : i32",
						first ? "" : ", ", i);
			first = false;
		}
	snprintf(buf + pos, len - pos, "]");
}

/* Reference reduction over [w, z, r, c] with red flags; out has the
 * reduced dims 1 (row-major over the kept ones). */
static void ref_reduce(const float *x, const uint64_t *d, const bool *red,
		       enum tt_reduce_op op, float *y)
{
	uint64_t o[4], n = 1;

	for (int i = 0; i < 4; i++) {
		o[i] = red[i] ? 1 : d[i];
		if (red[i])
			n *= d[i];
	}
	for (uint64_t j = 0; j < o[0] * o[1] * o[2] * o[3]; j++) {
		uint64_t oc = j % o[3], orr = (j / o[3]) % o[2];
		uint64_t oz = (j / (o[3] * o[2])) % o[1], ow = j / (o[3] * o[2] * o[1]);
		double acc = op == TT_REDUCE_MAX ? -INFINITY :
			     op == TT_REDUCE_MIN ? INFINITY : 0;

		for (uint64_t l = 0; l < n; l++) {
			uint64_t k = l, c, r, z, w;
			double v;

			c = red[3] ? k % d[3] : oc;
			k /= red[3] ? d[3] : 1;
			r = red[2] ? k % d[2] : orr;
			k /= red[2] ? d[2] : 1;
			z = red[1] ? k % d[1] : oz;
			k /= red[1] ? d[1] : 1;
			w = red[0] ? k : ow;
			v = x[((w * d[1] + z) * d[2] + r) * d[3] + c];
			if (op == TT_REDUCE_MAX)
				acc = fmax(acc, v);
			else if (op == TT_REDUCE_MIN)
				acc = fmin(acc, v);
			else
				acc += v;
		}
		y[j] = (float)(op == TT_REDUCE_MEAN ? acc / (double)n : acc);
	}
}

/* One reduction of a fresh input; exact compare when ints. */
static void reduce_case(struct fx *f, enum tt_reduce_op op, struct tt_shape s,
			uint32_t dims, enum tt_data_format fmt,
			enum tt_math_fidelity fid, bool ints, uint32_t seed)
{
	uint64_t d[4], od[4];
	bool red[4] = { false, false, false, false };
	struct tt_reduce_cfg c = tt_op_reduce_config();
	tt_device_tensor *a, *o = NULL;
	float *x, *want, *got;
	size_t n, nw;
	char what[160];

	dims_of(s, d);
	for (unsigned i = 0; i < s.rank; i++)
		if (!dims || dims >> i & 1)
			red[4 - s.rank + i] = true;
	if (ints)
		a = dev_ints(f, s, fmt, -20, 20, seed, &x);
	else
		a = dev_tensor(f, s, fmt, TT_BUFFER_DRAM, -3, 2, seed, &x);
	c.math_fidelity = fid;
	TRY(tt_op_reduce(f->ctx, a, op, dims, true, &c, &o));
	TRY(tt_shape_wzrc(tt_device_tensor_shape(o), od));
	for (int i = 0; i < 4; i++)
		assert_int_equal(od[i], red[i] ? 1 : d[i]);
	nw = (size_t)(od[0] * od[1] * od[2] * od[3]);
	want = malloc(nw * sizeof(float));
	assert_non_null(want);
	ref_reduce(x, d, red, op, want);
	{
		/* libttc's golden agrees with the reference (both in double);
		 * the device is held to the golden. */
		char props[160];
		float *gold = malloc(nw * sizeof(float));

		assert_non_null(gold);
		dim_arg(props, sizeof(props), red, s.rank);
		golden(tt_reduce_op_name(op), props, x, d, s.rank, red, "f32", gold, nw);
		for (size_t i = 0; i < nw; i++)
			if (fabsf(gold[i] - want[i]) > 1e-5f * fmaxf(1, fabsf(want[i])))
				fail_msg("golden and reference differ at %zu: %g %g", i,
					 (double)gold[i], (double)want[i]);
		memcpy(want, gold, nw * sizeof(float));
		free(gold);
	}
	if (fmt == TT_FLOAT16_B) /* the result is in a's format */
		for (size_t i = 0; i < nw; i++)
			want[i] = tt_bf16_to_float(tt_float_to_bf16(want[i]));
	got = dev_values(f, o, &n);
	assert_int_equal(n, nw);
	snprintf(what, sizeof(what), "%s dims 0x%x of [%llu,%llu,%llu,%llu] %s fidelity %d",
		 tt_reduce_op_name(op), dims, (unsigned long long)d[0],
		 (unsigned long long)d[1], (unsigned long long)d[2],
		 (unsigned long long)d[3], tt_data_format_name(fmt), (int)fid);
	if (ints && op != TT_REDUCE_MEAN) {
		for (size_t i = 0; i < n; i++)
			if (got[i] != want[i])
				fail_msg("%s: element %zu is %g, want %g exactly", what,
					 i, (double)got[i], (double)want[i]);
	} else {
		double r = pcc(got, want, n), need = fid == TT_HIFI4 ? min_pcc(fmt) : 0.99;

		if (n < 3) { /* PCC means nothing: a relative bound */
			for (size_t i = 0; i < n; i++)
				if (fabsf(got[i] - want[i]) > 0.02f * fmaxf(1, fabsf(want[i])))
					fail_msg("%s: element %zu is %g, want %g", what, i,
						 (double)got[i], (double)want[i]);
		} else if (r < need) {
			fail_msg("%s: PCC %.5f < %.3f (first %g, want %g)", what, r,
				 need, (double)got[0], (double)want[0]);
		}
	}
	free(got);
	free(want);
	free(x);
	tt_device_tensor_free(a);
	tt_device_tensor_free(o);
}

#define LAST(s) TT_REDUCE_DIM((s).rank - 1)
#define PREV(s) TT_REDUCE_DIM((s).rank - 2)

static const struct tt_shape shapes[] = {
	TT_SHAPE(33), TT_SHAPE(1), TT_SHAPE(31, 65), TT_SHAPE(3, 33, 70),
	TT_SHAPE(2, 3, 40, 100), TT_SHAPE(64, 32),
};

/* sum, mean, max, min over W, H and both, every shape, one format. */
static void sweep_wh(struct fx *f, enum tt_data_format fmt)
{
	for (int op = 0; op < TT_REDUCE_OP_COUNT; op++)
		for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
			const struct tt_shape s = shapes[i];
			uint32_t seed = (uint32_t)(op * 100 + (int)i);

			reduce_case(f, op, s, LAST(s), fmt, TT_HIFI4, false, seed);
			if (s.rank >= 2) {
				reduce_case(f, op, s, PREV(s), fmt, TT_HIFI4, false, seed + 1);
				reduce_case(f, op, s, LAST(s) | PREV(s), fmt, TT_HIFI4,
					    false, seed + 2);
			}
		}
}

static void test_reduce_float16_b(void **state)
{
	sweep_wh(*state, TT_FLOAT16_B);
}

static void test_reduce_float32(void **state)
{
	sweep_wh(*state, TT_FLOAT32);
}

static void test_reduce_bfp8_b(void **state)
{
	sweep_wh(*state, TT_BFP8_B);
}

/* Batch dimensions, mixes, every dimension; Float16, Bfp4_b; every
 * fidelity; exact on integers. */
static void test_reduce_dims_formats(void **state)
{
	struct fx *f = *state;
	const struct tt_shape s = TT_SHAPE(2, 3, 40, 50);
	static const uint32_t dd[] = { 1, 2, 3, 2 | 8, 1 | 4, 0, 1 | 2 | 4 };
	static const enum tt_math_fidelity fids[] = { TT_LOFI, TT_HIFI2, TT_HIFI3 };

	for (int op = 0; op < TT_REDUCE_OP_COUNT; op++)
		for (size_t i = 0; i < sizeof(dd) / sizeof(dd[0]); i++)
			reduce_case(f, op, s, dd[i], TT_FLOAT16_B, TT_HIFI4, false,
				    (uint32_t)(op * 10 + (int)i));
	for (int op = 0; op < TT_REDUCE_OP_COUNT; op++) {
		reduce_case(f, op, TT_SHAPE(3, 33, 70), 4, TT_FLOAT16, TT_HIFI4, false, 1);
		reduce_case(f, op, TT_SHAPE(3, 33, 70), 2, TT_BFP4_B, TT_HIFI4, false, 2);
		for (size_t i = 0; i < 3; i++)
			reduce_case(f, op, TT_SHAPE(3, 33, 70), 4 | 2, TT_FLOAT16_B,
				    fids[i], false, 3);
		/* exact: integers */
		reduce_case(f, op, TT_SHAPE(2, 3, 40, 50), 8, TT_FLOAT16_B, TT_HIFI4, true, 4);
		reduce_case(f, op, TT_SHAPE(2, 3, 40, 50), 4, TT_FLOAT32, TT_HIFI4, true, 5);
		reduce_case(f, op, TT_SHAPE(2, 3, 40, 50), 1 | 8, TT_FLOAT16_B, TT_HIFI4, true, 6);
		reduce_case(f, op, TT_SHAPE(70, 45), 0, TT_FLOAT16_B, TT_HIFI4, true, 7);
	}
}

/* Float32 at fp32 precision: sums, means, maxima and minima of values
 * with full 24-bit mantissas agree with double to 2e-6 (the matrix
 * unit's multiplier keeps 8 bits of them; the folds make up for it). */
static void test_reduce_precision(void **state)
{
	struct fx *f = *state;
	static const uint32_t dd[] = { 4, 2, 6, 1 };
	const struct tt_shape s = TT_SHAPE(3, 33, 70);

	for (int op = 0; op < TT_REDUCE_OP_COUNT; op++)
		for (size_t i = 0; i < sizeof(dd) / sizeof(dd[0]); i++) {
			uint64_t d[4], od[4];
			bool red[4] = { false, dd[i] & 1, dd[i] & 2, dd[i] & 4 };
			tt_device_tensor *a, *o = NULL;
			float *x, *want, *got;
			size_t n;

			dims_of(s, d);
			a = dev_tensor(f, s, TT_FLOAT32, TT_BUFFER_DRAM, 1, 2,
				       (uint32_t)(op * 10 + (int)i), &x);
			TRY(tt_op_reduce(f->ctx, a, op, dd[i], true, NULL, &o));
			TRY(tt_shape_wzrc(tt_device_tensor_shape(o), od));
			want = malloc(od[1] * od[2] * od[3] * sizeof(float));
			assert_non_null(want);
			ref_reduce(x, d, red, op, want);
			got = dev_values(f, o, &n);
			for (size_t k = 0; k < n; k++)
				if (fabsf(got[k] - want[k]) > 2e-6f * fabsf(want[k]))
					fail_msg("%s dims 0x%x Float32: element %zu is %.9g, want %.9g",
						 tt_reduce_op_name(op), dd[i], k,
						 (double)got[k], (double)want[k]);
			free(got);
			free(want);
			free(x);
			tt_device_tensor_free(a);
			tt_device_tensor_free(o);
		}
}

/* argmax along the last dimension: integers with many ties, exact, the
 * first index of the maximum. */
static void test_argmax(void **state)
{
	struct fx *f = *state;
	static const struct tt_shape sh[] = {
		TT_SHAPE(33), TT_SHAPE(3, 70), TT_SHAPE(2, 40, 100),
		TT_SHAPE(2, 2, 33, 65), TT_SHAPE(5, 2048), TT_SHAPE(4, 1),
	};
	static const enum tt_data_format fmts[] = { TT_FLOAT16_B, TT_FLOAT32, TT_BFP8_B };

	for (size_t i = 0; i < sizeof(sh) / sizeof(sh[0]); i++) {
		const enum tt_data_format fmt = fmts[i % 3];
		uint64_t d[4], rows;
		tt_device_tensor *a, *o = NULL;
		float *x, *got;
		size_t n;

		dims_of(sh[i], d);
		a = dev_ints(f, sh[i], fmt, -4, 4, (uint32_t)i, &x);
		/* keepdim (a rank-1 input without: shape [1]) */
		TRY(tt_op_argmax(f->ctx, a, sh[i].rank > 1, NULL, &o));
		assert_int_equal(tt_device_tensor_format(o), TT_FLOAT32);
		assert_int_equal(tt_device_tensor_shape(o)->rank, sh[i].rank);
		got = dev_values(f, o, &n);
		rows = d[0] * d[1] * d[2];
		assert_int_equal(n, rows);
		{
			/* libttc's golden (i32 indices, first of equal maxima) */
			bool red[4] = { false, false, false, true };
			char props[80];
			float *gold = malloc(rows * sizeof(float));

			assert_non_null(gold);
			snprintf(props, sizeof(props), "keep_dim = true, dim_arg = [%u : i32]",
				 sh[i].rank - 1);
			golden("argmax", props, x, d, sh[i].rank, red, "i32", gold, rows);
			for (uint64_t r = 0; r < rows; r++)
				if (got[r] != gold[r])
					fail_msg("argmax of row %llu of shape %zu: %g, golden %g",
						 (unsigned long long)r, i, (double)got[r],
						 (double)gold[r]);
			free(gold);
		}
		for (uint64_t r = 0; r < rows; r++) {
			uint64_t best = 0;

			for (uint64_t c = 1; c < d[3]; c++)
				if (x[r * d[3] + c] > x[r * d[3] + best])
					best = c;
			if (got[r] != (float)best)
				fail_msg("argmax of row %llu of shape %zu (%s): %g, want %llu",
					 (unsigned long long)r, i, tt_data_format_name(fmt),
					 (double)got[r], (unsigned long long)best);
		}
		free(got);
		free(x);
		tt_device_tensor_free(a);
		tt_device_tensor_free(o);
	}
}

/* cumsum along the last dimension and the one before: exact on
 * integers. */
static void test_cumsum(void **state)
{
	struct fx *f = *state;
	static const struct tt_shape sh[] = {
		TT_SHAPE(33), TT_SHAPE(3, 70), TT_SHAPE(2, 45, 100),
		TT_SHAPE(1, 2, 65, 33), TT_SHAPE(64, 96),
	};
	static const enum tt_data_format fmts[] = { TT_FLOAT32, TT_FLOAT16_B };

	for (size_t i = 0; i < sizeof(sh) / sizeof(sh[0]); i++)
		for (int dim = -1; dim >= (sh[i].rank > 1 ? -2 : -1); dim--) {
			const enum tt_data_format fmt = fmts[(i + (size_t)-dim) % 2];
			uint64_t d[4];
			tt_device_tensor *a, *o = NULL;
			float *x, *got;
			size_t n;

			dims_of(sh[i], d);
			/* bf16 holds integers up to 256 exactly */
			a = dev_ints(f, sh[i], fmt, -3, 5, (uint32_t)i, &x);
			TRY(tt_op_cumsum(f->ctx, a, dim, NULL, &o));
			got = dev_values(f, o, &n);
			{
				/* libttc's golden, exact on these integers */
				char props[40];
				float *gold = malloc(n * sizeof(float));

				assert_non_null(gold);
				snprintf(props, sizeof(props), "dim = %d : i64",
					 (int)sh[i].rank + dim);
				golden("cumsum", props, x, d, sh[i].rank, NULL, "f32", gold, n);
				for (size_t k = 0; k < n; k++) {
					float w = fmt == TT_FLOAT16_B ?
						tt_bf16_to_float(tt_float_to_bf16(gold[k])) : gold[k];

					if (got[k] != w)
						fail_msg("cumsum dim %d of shape %zu: element %zu is %g, golden %g",
							 dim, i, k, (double)got[k], (double)w);
				}
				free(gold);
			}
			for (uint64_t m = 0; m < d[0] * d[1]; m++)
				for (uint64_t r = 0; r < d[2]; r++)
					for (uint64_t c = 0; c < d[3]; c++) {
						const float *p = x + m * d[2] * d[3];
						double want = 0;

						if (dim == -1)
							for (uint64_t k = 0; k <= c; k++)
								want += p[r * d[3] + k];
						else
							for (uint64_t k = 0; k <= r; k++)
								want += p[k * d[3] + c];
						if (fmt == TT_FLOAT16_B)
							want = (double)tt_bf16_to_float(tt_float_to_bf16((float)want));
						if (got[(m * d[2] + r) * d[3] + c] != (float)want)
							fail_msg("cumsum dim %d of shape %zu (%s) at [%llu,%llu,%llu]: %g, want %g",
								 dim, i, tt_data_format_name(fmt),
								 (unsigned long long)m,
								 (unsigned long long)r,
								 (unsigned long long)c,
								 (double)got[(m * d[2] + r) * d[3] + c],
								 want);
					}
			free(got);
			free(x);
			tt_device_tensor_free(a);
			tt_device_tensor_free(o);
		}
}

/* keepdim off where the elements stay in place; refused where not. */
static void test_keepdim(void **state)
{
	struct fx *f = *state;
	tt_device_tensor *a, *b, *o = NULL;
	const struct tt_shape *os;
	float *x, *y, *got;
	size_t n;

	a = dev_ints(f, TT_SHAPE(3, 40, 50), TT_FLOAT32, -5, 5, 1, &x);
	/* outer dimensions: [3, 40, 50] -> [40, 50] */
	TRY(tt_op_sum(f->ctx, a, TT_REDUCE_DIM(0), false, NULL, &o));
	os = tt_device_tensor_shape(o);
	assert_int_equal(os->rank, 2);
	assert_int_equal(os->dims[0], 40);
	assert_int_equal(os->dims[1], 50);
	got = dev_values(f, o, &n);
	for (size_t i = 0; i < n; i++)
		assert_true(got[i] == x[i] + x[2000 + i] + x[4000 + i]);
	free(got);
	tt_device_tensor_free(o);
	o = NULL;
	/* every dimension: [1] */
	TRY(tt_op_amax(f->ctx, a, 0, false, NULL, &o));
	os = tt_device_tensor_shape(o);
	assert_int_equal(os->rank, 1);
	assert_int_equal(os->dims[0], 1);
	got = dev_values(f, o, &n);
	assert_true(got[0] == 4);
	free(got);
	tt_device_tensor_free(o);
	o = NULL;
	/* H of [1, 40, 50] -> [1, 50] is in place too */
	b = dev_ints(f, TT_SHAPE(40, 50), TT_FLOAT32, -5, 5, 2, &y);
	TRY(tt_op_amin(f->ctx, b, TT_REDUCE_DIM(0), false, NULL, &o));
	os = tt_device_tensor_shape(o);
	assert_int_equal(os->rank, 1);
	assert_int_equal(os->dims[0], 50);
	TRY(tt_ops_finish(f->ctx)); /* before its output goes */
	tt_device_tensor_free(o);
	o = NULL;
	/* the last dimension of [3, 40, 50] -> [3, 40]: elements would move */
	expect_error(tt_op_sum(f->ctx, a, TT_REDUCE_DIM(2), false, NULL, &o), -ENOTSUP,
		     "tt_op_sum: without keepdim the result [3,40] would move elements between tiles");
	assert_null(o);
	free(x);
	free(y);
	tt_device_tensor_free(a);
	tt_device_tensor_free(b);
}

/* Grids, splits, chunks, placement, output formats, a given output. */
static void test_configs(void **state)
{
	struct fx *f = *state;
	tt_device_tensor *a, *o = NULL, *given = NULL;
	float *x, *want, *got;
	struct tt_reduce_cfg c;
	uint64_t d[4];
	bool red[4] = { false, false, false, true };
	size_t n;
	static const struct {
		struct tt_xy grid;
		uint32_t tpc, block;
		enum tt_ops_mem mem;
		enum tt_data_format out;
		enum tt_ops_switch fp32;
	} cases[] = {
		{ { 1, 1 }, 0, 0, TT_OPS_MEM_AUTO, TT_OPS_FORMAT_AUTO, 0 },
		{ { 2, 2 }, 2, 1, TT_OPS_MEM_L1, TT_FLOAT32, TT_OPS_ON },
		{ { 0, 0 }, 1, 3, TT_OPS_MEM_DRAM, TT_BFP8_B, TT_OPS_OFF },
		{ { 3, 1 }, 0, 64, TT_OPS_MEM_L1, TT_FLOAT16, 0 },
	};

	dims_of(TT_SHAPE(2, 100, 200), d);
	a = dev_ints(f, TT_SHAPE(2, 100, 200), TT_FLOAT16_B, -4, 4, 9, &x);
	want = malloc(400 * sizeof(float));
	assert_non_null(want);
	ref_reduce(x, d, red, TT_REDUCE_SUM, want);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		c = tt_op_reduce_config();
		c.grid = cases[i].grid;
		c.tiles_per_core = cases[i].tpc;
		c.block_tiles = cases[i].block;
		c.out_mem = cases[i].mem;
		c.out_format = cases[i].out;
		c.fp32_acc = cases[i].fp32;
		TRY(tt_op_sum(f->ctx, a, TT_REDUCE_DIM(2), true, &c, &o));
		if (cases[i].mem)
			assert_int_equal(tt_buffer_type(tt_device_tensor_buffer(o)),
					 cases[i].mem == TT_OPS_MEM_L1 ? TT_BUFFER_L1 : TT_BUFFER_DRAM);
		if (cases[i].out != TT_OPS_FORMAT_AUTO)
			assert_int_equal(tt_device_tensor_format(o), cases[i].out);
		got = dev_values(f, o, &n);
		assert_int_equal(n, 200);
		/* integer sums below 256 in magnitude: exact in every format
		 * but the block floats, whose shared exponents round */
		for (size_t k = 0; k < n; k++)
			if (cases[i].out != TT_BFP8_B ? got[k] != want[k] :
			    fabsf(got[k] - want[k]) > 0.02f * fabsf(want[k]) + 1)
				fail_msg("config %zu: element %zu is %g, want %g", i, k,
					 (double)got[k], (double)want[k]);
		free(got);
		tt_device_tensor_free(o);
		o = NULL;
	}
	/* a given output */
	TRY(tt_device_tensor_create(f->dev, &TT_SHAPE(2, 1, 200), TT_FLOAT32,
				    TT_BUFFER_L1, &given));
	o = given;
	TRY(tt_op_sum(f->ctx, a, TT_REDUCE_DIM(1), true, NULL, &o));
	assert_ptr_equal(o, given);
	red[3] = false;
	red[2] = true;
	ref_reduce(x, d, red, TT_REDUCE_SUM, want);
	got = dev_values(f, o, &n);
	for (size_t k = 0; k < n; k++)
		assert_true(got[k] == want[k]);
	free(got);
	free(want);
	free(x);
	tt_device_tensor_free(a);
	tt_device_tensor_free(given);
}

static unsigned long kbuild_calls(void)
{
	struct tt_kbuild_stats s;

	tt_kbuild_get_stats(&s);
	return s.mem_hits + s.disk_hits + s.builds;
}

/* A second call builds nothing and computes on its own buffers. */
static void test_program_cache(void **state)
{
	struct fx *f = *state;
	struct tt_ops_cache_stats s0, s1;
	tt_device_tensor *a1, *a2, *o1 = NULL, *o2 = NULL;
	float *x1, *x2, *got;
	unsigned long k0;
	size_t n;

	TRY(tt_ops_cache_clear(f->ctx));
	a1 = dev_ints(f, TT_SHAPE(3, 50, 60), TT_FLOAT32, -9, 9, 1, &x1);
	a2 = dev_ints(f, TT_SHAPE(3, 50, 60), TT_FLOAT32, -9, 9, 2, &x2);
	TRY(tt_ops_cache_stats(f->ctx, &s0));
	TRY(tt_op_amax(f->ctx, a1, 0, true, NULL, &o1));
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.misses, s0.misses + 1);
	assert_int_equal(s1.programs, 1);
	TRY(tt_ops_finish(f->ctx));
	k0 = kbuild_calls();
	TRY(tt_op_amax(f->ctx, a2, 0, true, NULL, &o2));
	TRY(tt_ops_cache_stats(f->ctx, &s0));
	assert_int_equal(s0.hits, s1.hits + 1);
	assert_int_equal(s0.misses, s1.misses);
	assert_int_equal(s0.programs, 1);
	TRY(tt_ops_finish(f->ctx));
	assert_int_equal(kbuild_calls(), k0);
	{
		float m1 = -1e9f, m2 = -1e9f;

		for (size_t i = 0; i < 9000; i++) {
			m1 = fmaxf(m1, x1[i]);
			m2 = fmaxf(m2, x2[i]);
		}
		got = dev_values(f, o1, &n);
		assert_true(n == 1 && got[0] == m1);
		free(got);
		got = dev_values(f, o2, &n);
		assert_true(n == 1 && got[0] == m2);
		free(got);
	}
	/* cumsum twice: a miss, a hit */
	tt_device_tensor_free(o1);
	o1 = NULL;
	TRY(tt_op_cumsum(f->ctx, a1, -1, NULL, &o1));
	TRY(tt_op_cumsum(f->ctx, a2, -1, NULL, &o1));
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.misses, s0.misses + 1);
	assert_int_equal(s1.hits, s0.hits + 1);
	got = dev_values(f, o1, &n);
	assert_true(got[1] == x2[0] + x2[1]);
	free(got);
	free(x1);
	free(x2);
	tt_device_tensor_free(a1);
	tt_device_tensor_free(a2);
	tt_device_tensor_free(o1);
	tt_device_tensor_free(o2);
}

/* Each call is recorded for the profiler. */
static void test_profile(void **state)
{
	struct fx *f = *state;
	char dir[256], prefix[300], cmd[1200];
	tt_device_tensor *a, *o = NULL, *o2 = NULL;

	assert_non_null(test_mkdtemp(dir, sizeof(dir), "ops-reduce-prof"));
	snprintf(prefix, sizeof(prefix), "%s/prof", dir);
	a = dev_tensor(f, TT_SHAPE(40, 70), TT_FLOAT16_B, TT_BUFFER_DRAM, -1, 1, 1, NULL);
	TRY(tt_ops_profile_start(f->ctx, prefix));
	TRY(tt_op_sum(f->ctx, a, 0, true, NULL, &o));
	TRY(tt_op_cumsum(f->ctx, a, -1, NULL, &o2));
	TRY(tt_ops_profile_stop(f->ctx));
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import csv, sys\n"
		 "r = list(csv.DictReader(open(sys.argv[1] + \".csv\")))\n"
		 "assert [w[\"op\"] for w in r] == [\"tt_op_sum\", \"tt_op_cumsum\"], r\n"
		 "assert \"[40,70] Float16_b -> [1,1] Float16_b\" in r[0][\"shapes\"], r\n"
		 "assert r[0][\"config\"].startswith(\"dims wzrc 0011\"), r\n"
		 "assert all(float(w[\"device_us\"]) > 0 for w in r)\n' %s",
		 prefix);
	assert_int_equal(system(cmd), 0);
	tt_device_tensor_free(a);
	tt_device_tensor_free(o);
	tt_device_tensor_free(o2);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Every class of refused call; nothing runs. */
static void test_errors(void **state)
{
	struct fx *f = *state;
	tt_device_tensor *a, *i32 = NULL, *wide = NULL, *o = NULL, *bad = NULL;
	struct tt_reduce_cfg c = tt_op_reduce_config();
	struct tt_ops_cache_stats s0, s1;

	TRY(tt_ops_cache_stats(f->ctx, &s0));
	a = dev_tensor(f, TT_SHAPE(2, 40, 70), TT_FLOAT16_B, TT_BUFFER_DRAM, -1, 1, 1, NULL);
	TRY(tt_device_tensor_create(f->dev, &TT_SHAPE(2, 40, 70), TT_INT32,
				    TT_BUFFER_DRAM, &i32));
	expect_error(tt_op_sum(NULL, a, 0, true, NULL, &o), -EINVAL, "tt_op_sum: ctx is NULL");
	expect_error(tt_op_mean(f->ctx, NULL, 0, true, NULL, &o), -EINVAL, "tt_op_mean: a is NULL");
	expect_error(tt_op_amax(f->ctx, a, 0, true, NULL, NULL), -EINVAL, "tt_op_amax: out is NULL");
	expect_error(tt_op_amin(f->ctx, i32, 0, true, NULL, &o), -ENOTSUP, "tt_op_amin: a is Int32");
	expect_error(tt_op_reduce(f->ctx, a, (enum tt_reduce_op)9, 0, true, NULL, &o), -EINVAL,
		     "tt_op_reduce: op 9 is not a reduction");
	expect_error(tt_op_sum(f->ctx, a, 8, true, NULL, &o), -EINVAL,
		     "tt_op_sum: dims 0x8 names a dimension beyond a's 3 (a is [2,40,70])");
	TRY(tt_device_tensor_create(f->dev, &TT_SHAPE(2, 2049), TT_FLOAT16_B,
				    TT_BUFFER_DRAM, &wide));
	expect_error(tt_op_argmax(f->ctx, wide, true, NULL, &o), -ENOTSUP,
		     "tt_op_argmax: a's last dimension is 2049; at most 2048");
	expect_error(tt_op_cumsum(f->ctx, a, 3, NULL, &o), -EINVAL,
		     "tt_op_cumsum: dim 3 is not a dimension of a (rank 3)");
	expect_error(tt_op_cumsum(f->ctx, a, -3, NULL, &o), -ENOTSUP,
		     "tt_op_cumsum: dim -3: the op sums along the last two dimensions only");
	c.out_format = TT_UINT32;
	expect_error(tt_op_sum(f->ctx, a, 0, true, &c, &o), -ENOTSUP,
		     "tt_op_sum: cfg.out_format UInt32");
	c = tt_op_reduce_config();
	c.math_fidelity = (enum tt_math_fidelity)5;
	expect_error(tt_op_sum(f->ctx, a, 0, true, &c, &o), -EINVAL,
		     "tt_op_sum: cfg.math_fidelity 5 is not LoFi");
	c = tt_op_reduce_config();
	c.fp32_acc = (enum tt_ops_switch)3;
	expect_error(tt_op_sum(f->ctx, a, 0, true, &c, &o), -EINVAL,
		     "tt_op_sum: cfg.fp32_acc 3 is not auto");
	c = tt_op_reduce_config();
	c.out_mem = (enum tt_ops_mem)6;
	expect_error(tt_op_sum(f->ctx, a, 0, true, &c, &o), -EINVAL,
		     "tt_op_sum: cfg.out_mem 6 is not a placement");
	/* The reductions write interleaved outputs only. */
	c.out_mem = TT_OPS_MEM_L1_WIDTH_SHARDED;
	expect_error(tt_op_sum(f->ctx, a, 0, true, &c, &o), -ENOTSUP,
		     "tt_op_sum: cfg.out_mem L1 width sharded: this op writes interleaved outputs (DRAM or L1) only");
	c = tt_op_reduce_config();
	c.grid = (struct tt_xy){ 0, 99 };
	expect_error(tt_op_sum(f->ctx, a, 0, true, &c, &o), -EINVAL,
		     "tt_op_sum: cfg.grid 0x99 does not fit");
	c = tt_op_reduce_config();
	c.grid = (struct tt_xy){ 1, 1 };
	c.tiles_per_core = 1;
	expect_error(tt_op_sum(f->ctx, a, 4, true, &c, &o), -EINVAL,
		     "tt_op_sum: cfg.tiles_per_core 1: 4 output tiles need 4 cores, cfg.grid 1x1 has 1");
	c = tt_op_reduce_config();
	c.block_tiles = 65;
	expect_error(tt_op_sum(f->ctx, a, 0, true, &c, &o), -EINVAL,
		     "tt_op_sum: cfg.block_tiles 65: at most 64 tiles per chunk");
	TRY(tt_device_tensor_create(f->dev, &TT_SHAPE(2, 40, 2), TT_FLOAT16_B,
				    TT_BUFFER_DRAM, &bad));
	o = bad;
	expect_error(tt_op_sum(f->ctx, a, 4, true, NULL, &o), -EINVAL,
		     "tt_op_sum: out is [2,40,2]; the result is [2,40,1]");
	o = NULL;
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.hits, s0.hits);
	assert_int_equal(s1.misses, s0.misses);
	tt_device_tensor_free(a);
	tt_device_tensor_free(i32);
	tt_device_tensor_free(wide);
	tt_device_tensor_free(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reduce_float16_b),
		cmocka_unit_test(test_reduce_float32),
		cmocka_unit_test(test_reduce_bfp8_b),
		cmocka_unit_test(test_reduce_dims_formats),
		cmocka_unit_test(test_reduce_precision),
		cmocka_unit_test(test_argmax),
		cmocka_unit_test(test_cumsum),
		cmocka_unit_test(test_keepdim),
		cmocka_unit_test(test_configs),
		cmocka_unit_test(test_program_cache),
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests_name("ops_reduce", tests, fx_up, fx_down);
}
