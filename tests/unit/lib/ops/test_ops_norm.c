// SPDX-License-Identifier: Apache-2.0
/*
 * The op library's softmax, layernorm and rmsnorm (tt/ops/norm.h) on the
 * embedded model, against libttc's goldens (ttir.softmax, layer_norm,
 * rms_norm, run by its interpreter; tools/ttc/golden/) where they apply
 * and a host reference in double for the masks, both on the inputs as the
 * device holds them (read back after conversion to their format):
 *
 *  - each op on shapes of rank 1 to 4 whose last dimensions are 1, 31,
 *    32, 33, 65, ... (padding ignored), in Float16_b (PCC >= 0.99),
 *    Float32 with fp32 accumulation at HiFi4 (>= 0.999), Bfp8_b (>=
 *    0.98), Float16 and Bfp4_b, every fidelity;
 *  - softmax's scale, causal mask and additive mask (broadcast over
 *    batch and heads), masked elements exactly 0;
 *  - layernorm with and without gamma and beta, rmsnorm with and
 *    without gamma;
 *  - explicit grids, splits, blocks, L1 placement, intermediate and
 *    output formats, a given output;
 *  - the program cache: a second call builds nothing and computes on
 *    its new buffers;
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

/* ---- host references (double) ---- */

/* Softmax of rows of length w; mask (NULL or rows x w, its matrix
 * index m of r rows) added, causal masks c > r within each matrix. */
struct sm_ref {
	float scale;
	bool causal;
	const float *mask;
	uint64_t mz, mw; /* mask's z and w (1 or a's) */
};

static void ref_softmax(const float *x, float *y, const uint64_t *d,
			const struct sm_ref *s)
{
	const uint64_t w = d[3], h = d[2];

	for (uint64_t row = 0; row < d[0] * d[1] * h; row++) {
		const uint64_t r = row % h, z = (row / h) % d[1],
			       ww = row / (h * d[1]);
		const float *mrow = s && s->mask ?
			s->mask + (((s->mw > 1 ? ww : 0) * s->mz +
				    (s->mz > 1 ? z : 0)) * h + r) * w : NULL;
		double v[4096], m = -INFINITY, sum = 0;

		assert_true(w <= 4096);
		for (uint64_t c = 0; c < w; c++) {
			v[c] = x[row * w + c] * (s ? s->scale : 1.0f);
			if (mrow)
				v[c] += mrow[c];
			if (s && s->causal && c > r)
				v[c] = -INFINITY;
			if (v[c] > m)
				m = v[c];
		}
		for (uint64_t c = 0; c < w; c++)
			sum += v[c] = exp(v[c] - m);
		for (uint64_t c = 0; c < w; c++)
			y[row * w + c] = (float)(v[c] / sum);
	}
}

static void ref_norm(const float *x, float *y, const uint64_t *d, bool rms,
		     const float *g, const float *b, float eps)
{
	const uint64_t w = d[3];

	for (uint64_t row = 0; row < d[0] * d[1] * d[2]; row++) {
		const float *p = x + row * w;
		double mean = 0, var = 0;

		if (!rms) {
			for (uint64_t c = 0; c < w; c++)
				mean += p[c];
			mean /= (double)w;
		}
		for (uint64_t c = 0; c < w; c++)
			var += (p[c] - mean) * (p[c] - mean);
		var /= (double)w;
		for (uint64_t c = 0; c < w; c++) {
			double v = (p[c] - mean) / sqrt(var + eps);

			if (g)
				v *= g[c];
			if (b)
				v += b[c];
			y[row * w + c] = (float)v;
		}
	}
}

static void dims(struct tt_shape s, uint64_t *d)
{
	TRY(tt_shape_wzrc(&s, d));
}

static size_t volume(const uint64_t *d)
{
	return (size_t)(d[0] * d[1] * d[2] * d[3]);
}

/* Compare, naming the case. */
static void check(const char *what, const float *got, const float *want,
		  size_t n, double need)
{
	double r = pcc(got, want, n);

	for (size_t i = 0; i < n; i++)
		if (!isfinite(got[i]))
			fail_msg("%s: element %zu is %g", what, i, (double)got[i]);
	if (r < need)
		fail_msg("%s: PCC %.5f < %.3f (first element %g, want %g)", what,
			 r, need, (double)got[0], (double)want[0]);
}

enum kind { K_SOFTMAX, K_LAYERNORM, K_RMSNORM };

/* ---- libttc's goldens (tools/ttc/golden/) ---- */

/*
 * The golden of ttir.softmax (dimension -1), ttir.layer_norm or
 * ttir.rms_norm (normalized_shape [W], epsilon eps, weight and bias as
 * given) of x (shape d, rank r), run by libttc's interpreter on the
 * values as the device holds them; y gets the result.
 */
static void golden(enum kind k, const float *x, const uint64_t *d,
		   unsigned rank, const float *g, const float *b, float eps,
		   float *y)
{
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	char ty[96] = "tensor<", wt[64], text[2048], props[256];
	size_t n = 1, pos = 7;
	ttc_module *m;
	ttc_func *f;
	ttc_tensor *args[3] = { NULL, NULL, NULL }, *res[1] = { NULL };
	const float *src[3] = { x, g, b };
	size_t nargs = 1;

	assert_non_null(ctx);
	for (unsigned i = 4 - rank; i < 4; i++) {
		pos += (size_t)snprintf(ty + pos, sizeof(ty) - pos, "%llux",
					(unsigned long long)d[i]);
		n *= d[i];
	}
	snprintf(ty + pos, sizeof(ty) - pos, "f32>");
	snprintf(wt, sizeof(wt), "tensor<%lluxf32>", (unsigned long long)d[3]);
	if (k == K_SOFTMAX) {
		snprintf(props, sizeof(props), "dimension = -1 : si32");
	} else {
		snprintf(props, sizeof(props),
			 "normalized_shape = array<i64: %llu>, epsilon = %.9e : f32, operandSegmentSizes = array<i32: 1, %d, %d>",
			 (unsigned long long)d[3], (double)eps, g != NULL, b != NULL);
		nargs += (g != NULL) + (b != NULL);
		if (!g)
			src[1] = b;
	}
	snprintf(text, sizeof(text),
		 "module {\n  func.func @main(%%x: %s%s%s%s%s) -> %s {\n"
		 "    %%0 = \"ttir.%s\"(%%x%s%s) <{%s}> : (%s%s%s%s%s) -> %s\n"
		 "    return %%0 : %s\n  }\n}\n",
		 ty, nargs > 1 ? ", %w: " : "", nargs > 1 ? wt : "",
		 nargs > 2 ? ", %b: " : "", nargs > 2 ? wt : "", ty,
		 k == K_SOFTMAX ? "softmax" : k == K_LAYERNORM ? "layer_norm" : "rms_norm",
		 nargs > 1 ? ", %w" : "", nargs > 2 ? ", %b" : "", props, ty,
		 nargs > 1 ? ", " : "", nargs > 1 ? wt : "", nargs > 2 ? ", " : "",
		 nargs > 2 ? wt : "", ty, ty);
	m = ttc_parse(ctx, "golden.mlir", text, strlen(text), 0);
	if (!m)
		fail_msg("golden: %s\n%s", ttc_ctx_error(ctx), text);
	f = ttc_module_lookup(m, "main");
	assert_non_null(f);
	for (size_t i = 0; i < nargs; i++) {
		args[i] = ttc_tensor_new(ctx, ttc_value_type(ttc_func_arg(f, i)));
		assert_non_null(args[i]);
		memcpy(args[i]->data, src[i], args[i]->numel * sizeof(float));
	}
	if (ttc_golden_run(f, args, nargs, res, NULL))
		fail_msg("golden: %s", ttc_ctx_error(ctx));
	assert_int_equal(res[0]->numel, n);
	memcpy(y, res[0]->data, n * sizeof(float));
	for (size_t i = 0; i < nargs; i++)
		ttc_tensor_free(args[i]);
	ttc_tensor_free(res[0]);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

/* One op on a fresh input of shape s, format fmt, with config fields;
 * gamma and beta when gb. */
static void run_case(struct fx *f, enum kind k, struct tt_shape s,
		     enum tt_data_format fmt, enum tt_math_fidelity fid,
		     bool gb, uint32_t seed)
{
	uint64_t d[4];
	struct tt_shape ps = TT_SHAPE(1);
	tt_device_tensor *a, *g = NULL, *b = NULL, *o = NULL;
	float *x, *gx = NULL, *bx = NULL, *want, *got;
	char what[160];
	size_t n;

	dims(s, d);
	ps.dims[0] = d[3];
	a = dev_tensor(f, s, fmt, TT_BUFFER_DRAM, k == K_SOFTMAX ? -4 : -2,
		       k == K_SOFTMAX ? 4 : 3, seed, &x);
	if (gb && k != K_SOFTMAX) {
		g = dev_tensor(f, ps, fmt, TT_BUFFER_DRAM, 0.5f, 1.5f, seed + 1, &gx);
		if (k == K_LAYERNORM)
			b = dev_tensor(f, ps, fmt, TT_BUFFER_DRAM, -1, 1, seed + 2, &bx);
	}
	want = malloc(volume(d) * sizeof(float));
	assert_non_null(want);
	if (k == K_SOFTMAX) {
		struct tt_softmax_cfg c = tt_op_softmax_config();

		c.math_fidelity = fid;
		TRY(tt_op_softmax(f->ctx, a, &c, &o));
		ref_softmax(x, want, d, NULL);
	} else {
		struct tt_norm_cfg c = tt_op_norm_config();

		c.math_fidelity = fid;
		if (k == K_LAYERNORM)
			TRY(tt_op_layernorm(f->ctx, a, g, b, 1e-5f, &c, &o));
		else
			TRY(tt_op_rmsnorm(f->ctx, a, g, 1e-5f, &c, &o));
		ref_norm(x, want, d, k == K_RMSNORM, gx, bx, 1e-5f);
	}
	got = dev_values(f, o, &n);
	assert_int_equal(n, volume(d));
	{
		/* libttc's golden agrees with the reference here (both in
		 * double); the device is held to the golden below. */
		float *gold = malloc(volume(d) * sizeof(float));

		assert_non_null(gold);
		golden(k, x, d, s.rank, gx, bx, 1e-5f, gold);
		for (size_t i = 0; i < n; i++)
			if (fabsf(gold[i] - want[i]) > 1e-5f * fmaxf(1, fabsf(want[i])))
				fail_msg("golden and reference differ at %zu: %g %g", i,
					 (double)gold[i], (double)want[i]);
		memcpy(want, gold, n * sizeof(float));
		free(gold);
	}
	snprintf(what, sizeof(what), "%s [%llu,%llu,%llu,%llu] %s fidelity %d%s",
		 k == K_SOFTMAX ? "softmax" : k == K_LAYERNORM ? "layernorm" : "rmsnorm",
		 (unsigned long long)d[0], (unsigned long long)d[1],
		 (unsigned long long)d[2], (unsigned long long)d[3],
		 tt_data_format_name(fmt), (int)fid, gb ? " gamma/beta" : "");
	check(what, got, want, n,
	      fid == TT_HIFI4 || fmt != TT_FLOAT32 ? min_pcc(fmt) : 0.99);
	free(got);
	free(want);
	free(x);
	free(gx);
	free(bx);
	tt_device_tensor_free(a);
	tt_device_tensor_free(g);
	tt_device_tensor_free(b);
	tt_device_tensor_free(o);
}

static const struct tt_shape sweep[] = {
	TT_SHAPE(1), TT_SHAPE(31), TT_SHAPE(3, 33), TT_SHAPE(2, 40, 65),
	TT_SHAPE(2, 3, 31, 100), TT_SHAPE(70, 32), TT_SHAPE(1, 1, 5, 1),
};

static void sweep_formats(void **state, enum kind k)
{
	static const enum tt_data_format fmts[] = {
		TT_FLOAT16_B, TT_FLOAT32, TT_BFP8_B,
	};
	struct fx *f = *state;

	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		for (size_t j = 0; j < sizeof(sweep) / sizeof(sweep[0]); j++) {
			run_case(f, k, sweep[j], fmts[i], TT_HIFI4, j % 2 == 0,
				 (uint32_t)(100 * i + j));
		}
	/* The other formats, one shape each. */
	run_case(f, k, TT_SHAPE(2, 33, 70), TT_FLOAT16, TT_HIFI4, true, 7);
	run_case(f, k, TT_SHAPE(2, 33, 70), TT_BFP4_B, TT_HIFI4, true, 8);
}

static void test_softmax(void **state)
{
	sweep_formats(state, K_SOFTMAX);
}

static void test_layernorm(void **state)
{
	sweep_formats(state, K_LAYERNORM);
}

static void test_rmsnorm(void **state)
{
	sweep_formats(state, K_RMSNORM);
}

/* Every fidelity, each op, Float16_b and Float32. */
static void test_fidelities(void **state)
{
	static const enum tt_math_fidelity fids[] = {
		TT_LOFI, TT_HIFI2, TT_HIFI3, TT_HIFI4,
	};
	struct fx *f = *state;

	for (size_t i = 0; i < 4; i++)
		for (int k = 0; k < 3; k++) {
			run_case(f, (enum kind)k, TT_SHAPE(2, 45, 97), TT_FLOAT16_B,
				 fids[i], true, (uint32_t)(10 * i + (unsigned)k));
			run_case(f, (enum kind)k, TT_SHAPE(45, 97), TT_FLOAT32,
				 fids[i], true, (uint32_t)(20 * i + (unsigned)k));
		}
}

/* Softmax's scale, causal mask and additive mask (broadcast over w and
 * z); masked elements come out exactly 0. */
static void test_softmax_masks(void **state)
{
	struct fx *f = *state;
	const struct tt_shape s = TT_SHAPE(2, 3, 70, 70);
	uint64_t d[4];
	tt_device_tensor *a, *o = NULL, *m1, *m2;
	float *x, *want, *got, *mv;
	struct tt_softmax_cfg c = tt_op_softmax_config();
	struct sm_ref r = { .scale = 0.125f, .causal = true };
	uint32_t seed = 5;
	size_t n, nm = 2 * 70 * 70;

	dims(s, d);
	a = dev_tensor(f, s, TT_FLOAT16_B, TT_BUFFER_DRAM, -8, 8, 11, &x);
	want = malloc(volume(d) * sizeof(float));
	assert_non_null(want);

	/* scale and causal */
	c.scale = 0.125f;
	c.causal = true;
	TRY(tt_op_softmax(f->ctx, a, &c, &o));
	ref_softmax(x, want, d, &r);
	got = dev_values(f, o, &n);
	check("softmax scale 0.125 causal", got, want, n, 0.99);
	for (size_t i = 0; i < n; i++)
		if ((i % 70) > (i / 70) % 70 && got[i] != 0)
			fail_msg("causal: element %zu (row %zu col %zu) is %g, not 0",
				 i, (i / 70) % 70, i % 70, (double)got[i]);
	free(got);

	/* a mask [2, 1, 70, 70] (Float32), -1e9 or 0; column 0 never masked */
	mv = malloc(nm * sizeof(float));
	assert_non_null(mv);
	for (size_t i = 0; i < nm; i++)
		mv[i] = i % 70 && seed_next(&seed) % 3 == 0 ? -1e9f : 0.0f;
	m1 = dev_from(f, TT_SHAPE(2, 1, 70, 70), TT_FLOAT32, mv);
	c = tt_op_softmax_config();
	c.mask = m1;
	TRY(tt_op_softmax(f->ctx, a, &c, &o));
	r = (struct sm_ref){ .scale = 1, .mask = mv, .mz = 1, .mw = 2 };
	ref_softmax(x, want, d, &r);
	got = dev_values(f, o, &n);
	check("softmax mask [2,1,70,70]", got, want, n, 0.99);
	for (size_t i = 0; i < n; i++) {
		size_t row = i / 70, col = i % 70, mw = row / (3 * 70);

		if (mv[(mw * 70 + row % 70) * 70 + col] != 0 && got[i] != 0)
			fail_msg("mask: element %zu is %g, not 0", i, (double)got[i]);
	}
	free(got);

	/* a mask [70, 70] (Float16_b) for every matrix, with causal and a
	 * scale */
	m2 = dev_from(f, TT_SHAPE(70, 70), TT_FLOAT16_B, mv);
	c.mask = m2;
	c.causal = true;
	c.scale = 0.5f;
	TRY(tt_op_softmax(f->ctx, a, &c, &o));
	r = (struct sm_ref){ .scale = 0.5f, .causal = true, .mask = mv,
			     .mz = 1, .mw = 1 };
	ref_softmax(x, want, d, &r);
	got = dev_values(f, o, &n);
	check("softmax mask [70,70] causal scale 0.5", got, want, n, 0.99);
	free(got);

	free(mv);
	free(want);
	free(x);
	tt_device_tensor_free(a);
	tt_device_tensor_free(o);
	tt_device_tensor_free(m1);
	tt_device_tensor_free(m2);
}

/* Grids, splits, blocks, buffering, placement, formats, a given output. */
static void test_configs(void **state)
{
	struct fx *f = *state;
	const struct tt_shape s = TT_SHAPE(3, 100, 130);
	uint64_t d[4];
	tt_device_tensor *a, *g, *b, *o = NULL, *given = NULL;
	float *x, *gx, *bx, *want, *got;
	struct tt_norm_cfg c;
	struct tt_softmax_cfg sc;
	size_t n;
	static const struct {
		struct tt_xy grid;
		uint32_t rpc, block, buffering;
		enum tt_ops_mem mem;
		enum tt_data_format out, inter;
		enum tt_ops_switch fp32;
		double need;
	} cases[] = {
		{ { 1, 1 }, 0, 0, 0, TT_OPS_MEM_AUTO, TT_OPS_FORMAT_AUTO, TT_OPS_FORMAT_AUTO, 0, 0.99 },
		{ { 2, 2 }, 3, 1, 1, TT_OPS_MEM_L1, TT_FLOAT32, TT_FLOAT32, TT_OPS_ON, 0.99 },
		{ { 0, 0 }, 1, 2, 2, TT_OPS_MEM_DRAM, TT_BFP8_B, TT_FLOAT16, TT_OPS_OFF, 0.98 },
		{ { 3, 1 }, 0, 3, 0, TT_OPS_MEM_L1, TT_FLOAT16_B, TT_BFP8_B, 0, 0.98 },
	};

	dims(s, d);
	a = dev_tensor(f, s, TT_FLOAT16_B, TT_BUFFER_DRAM, -2, 3, 21, &x);
	g = dev_tensor(f, TT_SHAPE(1, 1, 130), TT_FLOAT32, TT_BUFFER_L1, 0.5f, 1.5f, 22, &gx);
	b = dev_tensor(f, TT_SHAPE(130), TT_BFP8_B, TT_BUFFER_DRAM, -1, 1, 23, &bx);
	want = malloc(volume(d) * sizeof(float));
	assert_non_null(want);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char what[64];

		c = tt_op_norm_config();
		c.grid = cases[i].grid;
		c.rows_per_core = cases[i].rpc;
		c.block_tiles = cases[i].block;
		c.buffering = cases[i].buffering;
		c.out_mem = cases[i].mem;
		c.out_format = cases[i].out;
		c.inter_format = cases[i].inter;
		c.fp32_acc = cases[i].fp32;
		TRY(tt_op_layernorm(f->ctx, a, g, b, 1e-3f, &c, &o));
		if (cases[i].mem)
			assert_int_equal(tt_buffer_type(tt_device_tensor_buffer(o)),
					 cases[i].mem == TT_OPS_MEM_L1 ? TT_BUFFER_L1 : TT_BUFFER_DRAM);
		if (cases[i].out != TT_OPS_FORMAT_AUTO)
			assert_int_equal(tt_device_tensor_format(o), cases[i].out);
		ref_norm(x, want, d, false, gx, bx, 1e-3f);
		got = dev_values(f, o, &n);
		snprintf(what, sizeof(what), "layernorm config %zu", i);
		check(what, got, want, n, cases[i].need);
		free(got);
		tt_device_tensor_free(o);
		o = NULL;

		sc = tt_op_softmax_config();
		sc.grid = cases[i].grid;
		sc.rows_per_core = cases[i].rpc;
		sc.block_tiles = cases[i].block;
		sc.buffering = cases[i].buffering;
		sc.out_mem = cases[i].mem;
		sc.out_format = cases[i].out;
		sc.inter_format = cases[i].inter;
		sc.fp32_acc = cases[i].fp32;
		sc.causal = i % 2;
		TRY(tt_op_softmax(f->ctx, a, &sc, &o));
		{
			struct sm_ref r = { .scale = 1, .causal = i % 2 };

			ref_softmax(x, want, d, &r);
		}
		got = dev_values(f, o, &n);
		snprintf(what, sizeof(what), "softmax config %zu", i);
		check(what, got, want, n, cases[i].need);
		free(got);
		tt_device_tensor_free(o);
		o = NULL;
	}

	/* A given output (Float32 in L1) is used as it is. */
	TRY(tt_device_tensor_create(f->dev, &s, TT_FLOAT32, TT_BUFFER_L1, &given));
	o = given;
	TRY(tt_op_rmsnorm(f->ctx, a, g, 1e-5f, NULL, &o));
	assert_ptr_equal(o, given);
	ref_norm(x, want, d, true, gx, NULL, 1e-5f);
	got = dev_values(f, o, &n);
	check("rmsnorm into a given Float32 output", got, want, n, 0.99);
	free(got);

	free(want);
	free(x);
	free(gx);
	free(bx);
	tt_device_tensor_free(a);
	tt_device_tensor_free(g);
	tt_device_tensor_free(b);
	tt_device_tensor_free(given);
}

static unsigned long kbuild_calls(void)
{
	struct tt_kbuild_stats s;

	tt_kbuild_get_stats(&s);
	return s.mem_hits + s.disk_hits + s.builds;
}

/* A second call with the same key builds nothing and computes on its
 * own buffers; another key is a miss. */
static void test_program_cache(void **state)
{
	struct fx *f = *state;
	const struct tt_shape s = TT_SHAPE(2, 40, 70);
	struct tt_ops_cache_stats s0, s1;
	tt_device_tensor *a1, *a2, *g1, *g2, *o1 = NULL, *o2 = NULL, *o3 = NULL;
	float *x1, *x2, *gx1, *gx2, *want, *got;
	uint64_t d[4];
	unsigned long k0;
	size_t n;

	dims(s, d);
	TRY(tt_ops_cache_clear(f->ctx));
	a1 = dev_tensor(f, s, TT_FLOAT16_B, TT_BUFFER_DRAM, -2, 2, 31, &x1);
	a2 = dev_tensor(f, s, TT_FLOAT16_B, TT_BUFFER_DRAM, -2, 2, 32, &x2);
	g1 = dev_tensor(f, TT_SHAPE(70), TT_FLOAT16_B, TT_BUFFER_DRAM, 0.5f, 1.5f, 33, &gx1);
	g2 = dev_tensor(f, TT_SHAPE(70), TT_FLOAT16_B, TT_BUFFER_DRAM, -1.5f, -0.5f, 34, &gx2);
	want = malloc(volume(d) * sizeof(float));
	assert_non_null(want);

	TRY(tt_ops_cache_stats(f->ctx, &s0));
	TRY(tt_op_rmsnorm(f->ctx, a1, g1, 1e-5f, NULL, &o1));
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.misses, s0.misses + 1);
	assert_int_equal(s1.hits, s0.hits);
	assert_int_equal(s1.programs, 1);
	TRY(tt_ops_finish(f->ctx));

	k0 = kbuild_calls();
	TRY(tt_op_rmsnorm(f->ctx, a2, g2, 1e-5f, NULL, &o2));
	TRY(tt_ops_cache_stats(f->ctx, &s0));
	assert_int_equal(s0.hits, s1.hits + 1);
	assert_int_equal(s0.misses, s1.misses);
	assert_int_equal(s0.programs, 1);
	TRY(tt_ops_finish(f->ctx));
	assert_int_equal(kbuild_calls(), k0); /* nothing built or looked up */

	ref_norm(x1, want, d, true, gx1, NULL, 1e-5f);
	got = dev_values(f, o1, &n);
	check("rmsnorm first call", got, want, n, 0.99);
	free(got);
	ref_norm(x2, want, d, true, gx2, NULL, 1e-5f);
	got = dev_values(f, o2, &n);
	check("rmsnorm cached call", got, want, n, 0.99);
	free(got);

	/* Another eps is another program; softmax twice: a miss, a hit. */
	TRY(tt_op_rmsnorm(f->ctx, a2, g2, 1e-2f, NULL, &o3));
	TRY(tt_ops_finish(f->ctx)); /* before its output goes */
	tt_device_tensor_free(o3);
	o3 = NULL;
	TRY(tt_op_softmax(f->ctx, a1, NULL, &o3));
	TRY(tt_op_softmax(f->ctx, a2, NULL, &o3));
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.misses, s0.misses + 2);
	assert_int_equal(s1.hits, s0.hits + 1);
	assert_int_equal(s1.programs, 3);
	ref_softmax(x2, want, d, NULL);
	got = dev_values(f, o3, &n);
	check("softmax cached call", got, want, n, 0.99);
	free(got);

	free(want);
	free(x1);
	free(x2);
	free(gx1);
	free(gx2);
	tt_device_tensor_free(a1);
	tt_device_tensor_free(a2);
	tt_device_tensor_free(g1);
	tt_device_tensor_free(g2);
	tt_device_tensor_free(o1);
	tt_device_tensor_free(o2);
	tt_device_tensor_free(o3);
}

/* Each call is recorded for the profiler: op name, shapes, config, cache
 * hit (CSV and Chrome trace JSON). */
static void test_profile(void **state)
{
	struct fx *f = *state;
	char dir[256], prefix[300], cmd[1200];
	tt_device_tensor *a, *o = NULL;

	assert_non_null(test_mkdtemp(dir, sizeof(dir), "ops-norm-prof"));
	snprintf(prefix, sizeof(prefix), "%s/prof", dir);
	a = dev_tensor(f, TT_SHAPE(40, 70), TT_FLOAT16_B, TT_BUFFER_DRAM, -1, 1, 1, NULL);
	TRY(tt_ops_cache_clear(f->ctx));
	TRY(tt_ops_profile_start(f->ctx, prefix));
	TRY(tt_op_softmax(f->ctx, a, NULL, &o));
	TRY(tt_op_softmax(f->ctx, a, NULL, &o));
	TRY(tt_op_layernorm(f->ctx, a, NULL, NULL, 1e-5f, NULL, &o));
	TRY(tt_op_rmsnorm(f->ctx, a, NULL, 1e-5f, NULL, &o));
	TRY(tt_ops_profile_stop(f->ctx));
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import json, csv, sys\n"
		 "t = json.load(open(sys.argv[1] + \".json\"))\n"
		 "x = [e for e in t[\"traceEvents\"] if e[\"ph\"] == \"X\" and e[\"tid\"] == 1]\n"
		 "assert [e[\"name\"] for e in x] == [\"tt_op_softmax\", \"tt_op_softmax\", \"tt_op_layernorm\", \"tt_op_rmsnorm\"], x\n"
		 "assert [e[\"args\"][\"cache_hit\"] for e in x] == [False, True, False, False]\n"
		 "r = list(csv.DictReader(open(sys.argv[1] + \".csv\")))\n"
		 "assert [w[\"op\"] for w in r] == [\"tt_op_softmax\", \"tt_op_softmax\", \"tt_op_layernorm\", \"tt_op_rmsnorm\"], r\n"
		 "assert all(\"[40,70] Float16_b\" in w[\"shapes\"] for w in r), r\n"
		 "assert r[0][\"config\"].startswith(\"softmax grid\"), r[0]\n"
		 "assert all(float(w[\"device_us\"]) > 0 for w in r)\n' %s",
		 prefix);
	assert_int_equal(system(cmd), 0);
	tt_device_tensor_free(a);
	tt_device_tensor_free(o);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Every class of refused call, with its message; nothing runs. */
static void test_errors(void **state)
{
	struct fx *f = *state;
	tt_device_tensor *a, *g, *bad = NULL, *i32 = NULL, *wide, *o = NULL;
	struct tt_norm_cfg c = tt_op_norm_config();
	struct tt_softmax_cfg sc = tt_op_softmax_config();
	struct tt_ops_cache_stats s0, s1;
	const struct tt_shape s = TT_SHAPE(2, 40, 70);

	TRY(tt_ops_cache_stats(f->ctx, &s0));
	a = dev_tensor(f, s, TT_FLOAT16_B, TT_BUFFER_DRAM, -1, 1, 41, NULL);
	g = dev_tensor(f, TT_SHAPE(71), TT_FLOAT16_B, TT_BUFFER_DRAM, -1, 1, 42, NULL);
	TRY(tt_device_tensor_create(f->dev, &s, TT_INT32, TT_BUFFER_DRAM, &i32));

	expect_error(tt_op_softmax(NULL, a, NULL, &o), -EINVAL, "tt_op_softmax: ctx is NULL");
	expect_error(tt_op_softmax(f->ctx, NULL, NULL, &o), -EINVAL, "tt_op_softmax: a is NULL");
	expect_error(tt_op_layernorm(f->ctx, a, NULL, NULL, 1e-5f, NULL, NULL), -EINVAL,
		     "tt_op_layernorm: out is NULL");
	expect_error(tt_op_rmsnorm(f->ctx, i32, NULL, 1e-5f, NULL, &o), -ENOTSUP,
		     "tt_op_rmsnorm: a is Int32");
	expect_error(tt_op_layernorm(f->ctx, a, g, NULL, 1e-5f, NULL, &o), -EINVAL,
		     "tt_op_layernorm: gamma is [71]; it must be [70]");
	expect_error(tt_op_layernorm(f->ctx, a, NULL, g, 1e-5f, NULL, &o), -EINVAL,
		     "tt_op_layernorm: beta is [71]");
	expect_error(tt_op_layernorm(f->ctx, a, NULL, NULL, -1, NULL, &o), -EINVAL,
		     "tt_op_layernorm: eps -1 is not a finite value >= 0");
	expect_error(tt_op_rmsnorm(f->ctx, a, NULL, NAN, NULL, &o), -EINVAL,
		     "tt_op_rmsnorm: eps nan");
	sc.scale = INFINITY;
	expect_error(tt_op_softmax(f->ctx, a, &sc, &o), -EINVAL,
		     "tt_op_softmax: cfg.scale inf is not finite");
	sc = tt_op_softmax_config();
	sc.mask = g;
	expect_error(tt_op_softmax(f->ctx, a, &sc, &o), -EINVAL,
		     "tt_op_softmax: cfg.mask [71] does not broadcast to a [2,40,70]");
	sc.mask = i32;
	expect_error(tt_op_softmax(f->ctx, a, &sc, &o), -ENOTSUP,
		     "tt_op_softmax: cfg.mask is Int32");

	/* config */
	c.out_format = TT_INT32;
	expect_error(tt_op_rmsnorm(f->ctx, a, NULL, 0, &c, &o), -ENOTSUP,
		     "tt_op_rmsnorm: cfg.out_format Int32 (8): the op takes");
	c = tt_op_norm_config();
	c.inter_format = TT_UINT32;
	expect_error(tt_op_rmsnorm(f->ctx, a, NULL, 0, &c, &o), -ENOTSUP,
		     "tt_op_rmsnorm: cfg.inter_format UInt32");
	c = tt_op_norm_config();
	c.math_fidelity = (enum tt_math_fidelity)1;
	expect_error(tt_op_rmsnorm(f->ctx, a, NULL, 0, &c, &o), -EINVAL,
		     "tt_op_rmsnorm: cfg.math_fidelity 1 is not LoFi (0), HiFi2 (2), HiFi3 (3) or HiFi4 (4)");
	c = tt_op_norm_config();
	c.fp32_acc = (enum tt_ops_switch)7;
	expect_error(tt_op_rmsnorm(f->ctx, a, NULL, 0, &c, &o), -EINVAL,
		     "tt_op_rmsnorm: cfg.fp32_acc 7 is not auto (0), off (1) or on (2)");
	c = tt_op_norm_config();
	c.out_mem = (enum tt_ops_mem)9;
	expect_error(tt_op_rmsnorm(f->ctx, a, NULL, 0, &c, &o), -EINVAL,
		     "tt_op_rmsnorm: cfg.out_mem 9 is not a placement");
	c = tt_op_norm_config();
	c.grid = (struct tt_xy){ 100, 1 };
	expect_error(tt_op_layernorm(f->ctx, a, NULL, NULL, 0, &c, &o), -EINVAL,
		     "tt_op_layernorm: cfg.grid 100x1 does not fit the device's");
	c = tt_op_norm_config();
	c.grid = (struct tt_xy){ 1, 1 };
	c.rows_per_core = 1;
	expect_error(tt_op_layernorm(f->ctx, a, NULL, NULL, 0, &c, &o), -EINVAL,
		     "tt_op_layernorm: cfg.rows_per_core 1: 4 rows of tiles need 4 cores, cfg.grid 1x1 has 1");
	c = tt_op_norm_config();
	c.block_tiles = 65;
	expect_error(tt_op_layernorm(f->ctx, a, NULL, NULL, 0, &c, &o), -EINVAL,
		     "tt_op_layernorm: cfg.block_tiles 65: at most 64 output tiles per block");
	c = tt_op_norm_config();
	c.buffering = 3;
	expect_error(tt_op_layernorm(f->ctx, a, NULL, NULL, 0, &c, &o), -EINVAL,
		     "tt_op_layernorm: cfg.buffering 3: 1 or 2 rows of tiles");

	/* A row too long for L1: refused with the bytes. */
	TRY(tt_device_tensor_create(f->dev, &TT_SHAPE(32, 32 * 1024), TT_FLOAT32,
				    TT_BUFFER_DRAM, &wide));
	expect_error(tt_op_softmax(f->ctx, wide, NULL, &o), -ENOMEM,
		     "tt_op_softmax: a row of 1024 tiles (W 32768) needs");
	assert_non_null(strstr(tt_last_error(), "bytes of L1 per core"));
	assert_non_null(strstr(tt_last_error(), "a core has"));

	/* a given output of another shape or format */
	TRY(tt_device_tensor_create(f->dev, &TT_SHAPE(2, 40, 71), TT_FLOAT16_B,
				    TT_BUFFER_DRAM, &bad));
	o = bad;
	expect_error(tt_op_softmax(f->ctx, a, NULL, &o), -EINVAL,
		     "tt_op_softmax: out is [2,40,71]; the result is [2,40,70]");
	sc = tt_op_softmax_config();
	sc.out_format = TT_FLOAT32;
	o = i32;
	expect_error(tt_op_softmax(f->ctx, a, &sc, &o), -ENOTSUP,
		     "tt_op_softmax: out is Int32");
	o = NULL;

	/* Nothing ran, nothing was built. */
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.hits, s0.hits);
	assert_int_equal(s1.misses, s0.misses);
	tt_device_tensor_free(a);
	tt_device_tensor_free(g);
	tt_device_tensor_free(bad);
	tt_device_tensor_free(i32);
	tt_device_tensor_free(wide);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_softmax),
		cmocka_unit_test(test_layernorm),
		cmocka_unit_test(test_rmsnorm),
		cmocka_unit_test(test_softmax_masks),
		cmocka_unit_test(test_fidelities),
		cmocka_unit_test(test_configs),
		cmocka_unit_test(test_program_cache),
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_errors),
	};

	/* In the VM guest (TT_TEST_TRANSPORT=kmd, tests/unit/testcases.h):
	 * every case but the profiler's, which parses its files with
	 * Python, which the guest has not. */
	static const char *const kmd[] = {
		"test_softmax", "test_layernorm", "test_rmsnorm",
		"test_softmax_masks", "test_fidelities", "test_configs",
		"test_program_cache", "test_errors", NULL,
	};

	return RUN_GROUP("ops_norm", tests, fx_up, fx_down, kmd);
}
