// SPDX-License-Identifier: Apache-2.0
/*
 * The op library's convolution and pooling ops (tt/ops/conv.h) on the
 * embedded model, against host references in this file computed from the
 * inputs as the device holds them (read back after conversion):
 *
 *  - conv2d over a sweep of stride 1/2, symmetric and asymmetric padding,
 *    dilation 1/2, groups 1/2/depthwise, odd channel counts (3, 33) and
 *    odd spatial sizes, batch 1 and 2, with and without bias, fused and
 *    unfused activations, multi-core;
 *  - every format (Float32 >= 0.999 at HiFi4 with fp32 accumulation,
 *    Float16_b and Float16 >= 0.99, Bfp8_b >= 0.98, Bfp4_b >= 0.9) and
 *    every fidelity;
 *  - conv_transpose2d with stride, padding, output padding, dilation,
 *    groups;
 *  - max and avg pools (ceil_mode, count_include_pad, dilation), global
 *    average pool, nearest upsample (exact);
 *    (max exact, pools in every format);
 *  - the program cache (a second call builds nothing), explicit configs,
 *    inputs in L1 and a given output, the profiler's records, the NCHW
 *    host conversions;
 *  - a refused call for every class of bad input or config.
 *
 * The sweep and the activations also bound the largest error (3% of the
 * largest value), which PCC alone would not catch for a clipped tail.
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

#include "lib/kbuild/kbuild.h"
#include "ops_testutil.h"
#include "testutil.h"
#include "tmpdir.h"
#include "tt/ops.h"

/* n values k/64, k in [-64, 64): exact in every 16-bit format. */
static float *randv(size_t n, uint32_t seed)
{
	float *v = malloc(n * sizeof(float));

	assert_non_null(v);
	for (size_t i = 0; i < n; i++)
		v[i] = (float)((int)(seed_next(&seed) % 128) - 64) / 64.0f;
	return v;
}

/* A device tensor of shape s holding v (replaced by what the device
 * holds). */
static tt_device_tensor *dev_from(struct fx *f, struct tt_shape s,
				  enum tt_data_format fmt,
				  enum tt_buffer_type where, float *v)
{
	tt_device_tensor *dt = NULL;
	tt_tensor *t = NULL;

	TRY(tt_tensor_create(&s, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &t));
	memcpy(tt_tensor_data(t), v, tt_tensor_volume(t) * sizeof(float));
	TRY(tt_device_tensor_create(f->dev, &s, fmt, where, &dt));
	TRY(tt_device_tensor_write(dt, NULL, t));
	TRY(tt_device_tensor_read(dt, NULL, t));
	memcpy(v, tt_tensor_data(t), tt_tensor_volume(t) * sizeof(float));
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
			if (x[i] != y[i])
				return 0;
		return 1;
	}
	return sxy / sqrt(sxx * syy);
}

static double min_pcc(enum tt_data_format fmt)
{
	switch (fmt) {
	case TT_FLOAT32: return 0.999;
	case TT_FLOAT16_B: case TT_FLOAT16: return 0.99;
	case TT_BFP8_B: return 0.98;
	default: return 0.9;
	}
}

static float ref_act(const struct tt_unary_fn *a, float x)
{
	switch (a->op) {
	case TT_UNARY_RELU: return x > 0 ? x : 0;
	case TT_UNARY_RELU6: return fminf(fmaxf(x, 0), 6);
	case TT_UNARY_CLIP: return fminf(fmaxf(x, a->p0), a->p1);
	case TT_UNARY_LEAKY_RELU: return x < 0 ? a->p0 * x : x;
	case TT_UNARY_SIGMOID: return 1 / (1 + expf(-x));
	case TT_UNARY_TANH: return tanhf(x);
	case TT_UNARY_GELU: return 0.5f * x * (1 + erff(x / sqrtf(2)));
	case TT_UNARY_SILU: return x / (1 + expf(-x));
	case TT_UNARY_EXP: return expf(x);
	case TT_UNARY_SQUARE: return x * x;
	default: return x;
	}
}

/* ---- conv references (rows [N*H*W][C]) ---- */

static float *ref_conv(const float *x, const float *w, const float *b,
		       uint32_t cin, uint32_t cout, const struct tt_conv2d_params *p,
		       uint32_t oh, uint32_t ow, const struct tt_unary_fn *act)
{
	const uint32_t g = p->groups, cig = cin / g, cog = cout / g;
	float *o = calloc((size_t)p->batch * oh * ow * cout, sizeof(float));

	assert_non_null(o);
	for (uint32_t n = 0; n < p->batch; n++)
		for (uint32_t y = 0; y < oh; y++)
			for (uint32_t xx = 0; xx < ow; xx++)
				for (uint32_t co = 0; co < cout; co++) {
					double s = b ? b[co] : 0;
					uint32_t gi = co / cog;

					for (uint32_t kh = 0; kh < p->kernel_h; kh++)
						for (uint32_t kw = 0; kw < p->kernel_w; kw++) {
							int ih = (int)(y * p->stride_h + kh * p->dilation_h) - (int)p->pad_top;
							int iw = (int)(xx * p->stride_w + kw * p->dilation_w) - (int)p->pad_left;

							if (ih < 0 || iw < 0 || ih >= (int)p->in_h || iw >= (int)p->in_w)
								continue;
							for (uint32_t c = 0; c < cig; c++)
								s += (double)x[(((size_t)n * p->in_h + ih) * p->in_w + iw) * cin + gi * cig + c] *
								     w[(((size_t)co * cig + c) * p->kernel_h + kh) * p->kernel_w + kw];
						}
					o[(((size_t)n * oh + y) * ow + xx) * cout + co] = ref_act(act, (float)s);
				}
	return o;
}

static float *ref_convt(const float *x, const float *w, const float *b,
			uint32_t cin, uint32_t cout,
			const struct tt_conv2d_params *p, uint32_t oh,
			uint32_t ow)
{
	const uint32_t g = p->groups, cig = cin / g, cog = cout / g;
	size_t no = (size_t)p->batch * oh * ow * cout;
	double *acc = calloc(no, sizeof(double));
	float *o = malloc(no * sizeof(float));

	assert_non_null(acc);
	assert_non_null(o);
	for (uint32_t n = 0; n < p->batch; n++)
		for (uint32_t ih = 0; ih < p->in_h; ih++)
			for (uint32_t iw = 0; iw < p->in_w; iw++)
				for (uint32_t ci = 0; ci < cin; ci++)
					for (uint32_t kh = 0; kh < p->kernel_h; kh++)
						for (uint32_t kw = 0; kw < p->kernel_w; kw++) {
							int y = (int)(ih * p->stride_h + kh * p->dilation_h) - (int)p->pad_top;
							int xx = (int)(iw * p->stride_w + kw * p->dilation_w) - (int)p->pad_left;

							if (y < 0 || xx < 0 || y >= (int)oh || xx >= (int)ow)
								continue;
							for (uint32_t j = 0; j < cog; j++) {
								uint32_t co = (ci / cig) * cog + j;

								acc[(((size_t)n * oh + y) * ow + xx) * cout + co] +=
									(double)x[(((size_t)n * p->in_h + ih) * p->in_w + iw) * cin + ci] *
									w[(((size_t)ci * cog + j) * p->kernel_h + kh) * p->kernel_w + kw];
							}
						}
	for (size_t i = 0; i < no; i++)
		o[i] = (float)(acc[i] + (b ? b[i % cout] : 0));
	free(acc);
	return o;
}

/* The last conv_case's largest error over the reference's largest value. */
static double last_rel_err;
/* Where the next conv_case puts x, w and bias; whether it gives the
 * output (one-shot: conv_case resets them). */
static enum tt_buffer_type case_where = TT_BUFFER_DRAM;
static bool case_given_out;

static double rel_err(const float *got, const float *ref, size_t n)
{
	double e = 0, m = 0;

	for (size_t i = 0; i < n; i++) {
		if (fabs(got[i] - ref[i]) > e)
			e = fabs(got[i] - ref[i]);
		if (fabs(ref[i]) > m)
			m = fabs(ref[i]);
	}
	return m > 0 ? e / m : e;
}

struct ccase {
	uint32_t n, h, w, cin, cout, k, s, pt, pb, pl, pr, d, g;
	bool bias;
};

/* One conv2d against the reference; returns the PCC. */
static double conv_case(struct fx *f, const struct ccase *c,
			enum tt_data_format fx_fmt, enum tt_data_format fw_fmt,
			const struct tt_conv2d_cfg *cfg, bool tr, uint32_t opad,
			uint32_t seed)
{
	struct tt_conv2d_params p = tt_conv2d_params_default();
	uint32_t oh, ow, cig = c->cin / c->g, cog = c->cout / c->g;
	size_t nx = (size_t)c->n * c->h * c->w * c->cin, nw, n;
	float *x = randv(nx, seed), *w, *b = NULL, *ref, *got;
	tt_device_tensor *dx, *dw = NULL, *db = NULL, *o = NULL;
	struct tt_unary_fn none = { TT_UNARY_NONE, 0, 0 };
	const enum tt_buffer_type where = case_where;
	const bool given_out = case_given_out;
	double r;

	case_where = TT_BUFFER_DRAM;
	case_given_out = false;
	p.batch = c->n;
	p.in_h = c->h;
	p.in_w = c->w;
	p.kernel_h = p.kernel_w = c->k;
	p.stride_h = p.stride_w = c->s;
	p.pad_top = c->pt;
	p.pad_bottom = c->pb;
	p.pad_left = c->pl;
	p.pad_right = c->pr;
	p.dilation_h = p.dilation_w = c->d;
	p.groups = c->g;
	p.out_pad_h = p.out_pad_w = opad;
	TRY(tt_conv2d_out_hw(&p, tr, &oh, &ow));
	nw = (size_t)(tr ? c->cin * cog : c->cout * cig) * c->k * c->k;
	w = randv(nw, seed + 1);
	dx = dev_from(f, TT_SHAPE(1, 1, nx / c->cin, c->cin), fx_fmt, where, x);
	{
		enum tt_ops_mem m = where == TT_BUFFER_L1 ? TT_OPS_MEM_L1 : TT_OPS_MEM_DRAM;

		if (tr)
			TRY(tt_conv_transpose2d_weights_create(f->ctx, w, c->cin, c->cout, c->k,
							       c->k, c->g, fw_fmt, m, &dw));
		else
			TRY(tt_conv2d_weights_create(f->ctx, w, c->cout, c->cin, c->k, c->k,
						     c->g, fw_fmt, m, &dw));
	}
	if (c->bias) {
		b = randv(c->cout, seed + 2);
		db = dev_from(f, TT_SHAPE(c->cout), fx_fmt, where, b);
	}
	if (given_out)
		TRY(tt_device_tensor_create(f->dev, &TT_SHAPE(1, 1, (uint64_t)c->n * oh * ow, c->cout),
					    TT_FLOAT32, TT_BUFFER_DRAM, &o));
	if (tr)
		TRY(tt_op_conv_transpose2d(f->ctx, dx, dw, db, &p, cfg, &o));
	else
		TRY(tt_op_conv2d(f->ctx, dx, dw, db, &p, cfg, &o));
	got = dev_values(f, o, &n);
	assert_int_equal(n, (size_t)c->n * oh * ow * c->cout);
	ref = tr ? ref_convt(x, w, b, c->cin, c->cout, &p, oh, ow) :
		   ref_conv(x, w, b, c->cin, c->cout, &p, oh, ow,
			    cfg ? &cfg->activation : &none);
	r = pcc(got, ref, n);
	last_rel_err = rel_err(got, ref, n);
	if (r < 0.999)
		fprintf(stderr, "# conv %ux%ux%u %u->%u k%u s%u p%u,%u,%u,%u d%u g%u%s: pcc %.5f (got[0] %g ref[0] %g)\n",
			c->n, c->h, c->w, c->cin, c->cout, c->k, c->s, c->pt, c->pb,
			c->pl, c->pr, c->d, c->g, tr ? " transposed" : "", r,
			(double)got[0], (double)ref[0]);
	free(x);
	free(w);
	free(b);
	free(ref);
	free(got);
	tt_device_tensor_free(dx);
	tt_device_tensor_free(dw);
	tt_device_tensor_free(db);
	tt_device_tensor_free(o);
	return r;
}

static const struct ccase sweep[] = {
	/* n  h   w  cin cout k  s  pt pb pl pr d  g  bias */
	{ 1, 8, 8, 3, 8, 3, 1, 1, 1, 1, 1, 1, 1, true },
	{ 2, 7, 9, 33, 33, 3, 2, 1, 1, 1, 1, 1, 1, true },
	{ 1, 10, 11, 16, 33, 3, 1, 0, 2, 1, 0, 2, 1, false },
	{ 1, 9, 9, 8, 6, 3, 1, 1, 1, 1, 1, 1, 2, true },
	{ 2, 6, 7, 33, 33, 3, 1, 1, 1, 1, 1, 1, 33, true },
	{ 1, 13, 13, 64, 40, 1, 2, 0, 0, 0, 0, 1, 1, true },
	{ 1, 30, 30, 32, 64, 3, 1, 1, 1, 1, 1, 1, 1, false },
	{ 1, 5, 5, 3, 5, 5, 1, 0, 0, 0, 0, 1, 1, true },
	{ 2, 12, 10, 3, 16, 2, 2, 0, 1, 1, 0, 2, 1, true },
};

static void test_conv2d_sweep(void **state)
{
	struct fx *f = *state;

	for (size_t i = 0; i < sizeof(sweep) / sizeof(sweep[0]); i++) {
		double r = conv_case(f, &sweep[i], TT_FLOAT16_B, TT_FLOAT16_B, NULL,
				     false, 0, 100 + (uint32_t)i);

		if (r < 0.99 || last_rel_err > 0.03)
			fail_msg("case %zu: pcc %.5f, largest error %.4f of the largest value",
				 i, r, last_rel_err);
	}
}

/* Every format of x and w, every fidelity. */
static void test_conv2d_formats(void **state)
{
	struct fx *f = *state;
	const struct ccase c = { 1, 9, 11, 33, 40, 3, 1, 1, 1, 1, 1, 1, 1, true };
	const enum tt_data_format fmts[] = { TT_FLOAT32, TT_FLOAT16_B, TT_FLOAT16,
					     TT_BFP8_B, TT_BFP4_B };
	const enum tt_math_fidelity fids[] = { TT_LOFI, TT_HIFI2, TT_HIFI3, TT_HIFI4 };

	for (size_t i = 0; i < 5; i++) {
		struct tt_conv2d_cfg cfg = tt_op_conv2d_config();
		double r;

		if (fmts[i] == TT_FLOAT32)
			cfg.fp32_acc = TT_OPS_ON;
		r = conv_case(f, &c, fmts[i], fmts[i], &cfg, false, 0, 7);
		if (r < min_pcc(fmts[i]))
			fail_msg("%s: pcc %.5f", tt_data_format_name(fmts[i]), r);
	}
	for (size_t i = 0; i < 4; i++) {
		struct tt_conv2d_cfg cfg = tt_op_conv2d_config();
		double r;

		cfg.math_fidelity = fids[i];
		r = conv_case(f, &c, TT_FLOAT16_B, TT_FLOAT16_B, &cfg, false, 0, 8);
		if (r < 0.99)
			fail_msg("fidelity %d: pcc %.5f", (int)fids[i], r);
	}
	/* Mixed: bf16 activations, Bfp8_b weights, Float32 output. */
	{
		struct tt_conv2d_cfg cfg = tt_op_conv2d_config();
		double r;

		cfg.out_format = TT_FLOAT32;
		r = conv_case(f, &c, TT_FLOAT16_B, TT_BFP8_B, &cfg, false, 0, 9);
		if (r < 0.98)
			fail_msg("mixed: pcc %.5f", r);
	}
}

static void test_conv2d_activation(void **state)
{
	struct fx *f = *state;
	const struct ccase c = { 1, 7, 8, 5, 9, 3, 1, 1, 1, 1, 1, 1, 1, true };
	const struct tt_unary_fn acts[] = {
		{ TT_UNARY_RELU, 0, 0 }, { TT_UNARY_RELU6, 0, 0 },
		{ TT_UNARY_CLIP, -0.5f, 0.5f }, { TT_UNARY_LEAKY_RELU, 0.1f, 0 },
		{ TT_UNARY_SIGMOID, 0, 0 }, { TT_UNARY_TANH, 0, 0 },
		{ TT_UNARY_GELU, 0, 0 }, { TT_UNARY_SILU, 0, 0 },
		{ TT_UNARY_SQUARE, 0, 0 }, /* not fused: tt_op_unary after */
	};

	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++) {
		struct tt_conv2d_cfg cfg = tt_op_conv2d_config();
		double r;

		cfg.activation = acts[i];
		r = conv_case(f, &c, TT_FLOAT16_B, TT_FLOAT16_B, &cfg, false, 0, 20);
		if (r < 0.99 || last_rel_err > 0.03)
			fail_msg("activation %s: pcc %.5f, largest error %.4f of the largest value",
				 tt_unary_op_name(acts[i].op), r, last_rel_err);
	}
}

static void test_conv2d_configs(void **state)
{
	struct fx *f = *state;
	const struct ccase c = { 2, 9, 10, 40, 70, 3, 1, 1, 1, 1, 1, 1, 1, true };
	struct tt_conv2d_cfg cfg = tt_op_conv2d_config();
	double r;

	/* explicit grid and blocks, one K tile per transfer */
	cfg.grid = (struct tt_xy){ 2, 3 };
	cfg.block_rows = 2;
	cfg.block_cols = 2;
	cfg.block_k = 1;
	r = conv_case(f, &c, TT_FLOAT16_B, TT_FLOAT16_B, &cfg, false, 0, 30);
	if (r < 0.99)
		fail_msg("blocks: pcc %.5f", r);
	/* one core, output in L1 */
	cfg = tt_op_conv2d_config();
	cfg.grid = (struct tt_xy){ 1, 1 };
	cfg.out_mem = TT_OPS_MEM_L1;
	r = conv_case(f, &c, TT_FLOAT16_B, TT_FLOAT16_B, &cfg, false, 0, 31);
	if (r < 0.99)
		fail_msg("one core: pcc %.5f", r);
	/* many input channels in Float32: auto block_k shrinks until the
	 * buffers fit L1, so K takes several steps */
	{
		const struct ccase big = { 1, 6, 6, 256, 16, 3, 1, 1, 1, 1, 1, 1, 1, true };

		r = conv_case(f, &big, TT_FLOAT32, TT_FLOAT32, NULL, false, 0, 33);
		if (r < 0.999)
			fail_msg("256 channels, Float32: pcc %.5f", r);
	}
	/* x, w and bias in L1; a given Float32 output (its format is the
	 * output's) */
	case_where = TT_BUFFER_L1;
	case_given_out = true;
	r = conv_case(f, &c, TT_FLOAT16_B, TT_FLOAT16_B, NULL, false, 0, 32);
	if (r < 0.99 || last_rel_err > 0.03)
		fail_msg("L1 inputs, given output: pcc %.5f, error %.4f", r, last_rel_err);
}

static void test_conv_transpose2d(void **state)
{
	struct fx *f = *state;
	const struct {
		struct ccase c;
		uint32_t opad;
	} cases[] = {
		{ { 1, 5, 6, 8, 6, 3, 2, 1, 1, 1, 1, 1, 1, true }, 1 },
		{ { 2, 4, 4, 33, 3, 4, 2, 1, 1, 1, 1, 1, 1, false }, 0 },
		{ { 1, 6, 5, 8, 4, 3, 1, 0, 0, 0, 0, 2, 2, true }, 0 },
		{ { 1, 3, 7, 4, 4, 3, 3, 2, 1, 0, 2, 1, 1, true }, 2 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double r = conv_case(f, &cases[i].c, TT_FLOAT16_B, TT_FLOAT16_B, NULL,
				     true, cases[i].opad, 40 + (uint32_t)i);

		if (r < 0.99)
			fail_msg("transposed case %zu: pcc %.5f", i, r);
	}
}

/* ---- pools ---- */

static float *ref_pool(const float *x, uint32_t c, const struct tt_pool2d_params *p,
		       uint32_t oh, uint32_t ow, bool avg)
{
	float *o = malloc((size_t)p->batch * oh * ow * c * sizeof(float));

	assert_non_null(o);
	for (uint32_t n = 0; n < p->batch; n++)
		for (uint32_t y = 0; y < oh; y++)
			for (uint32_t xx = 0; xx < ow; xx++)
				for (uint32_t ch = 0; ch < c; ch++) {
					double s = 0, m = -INFINITY;
					int hs = (int)(y * p->stride_h) - (int)p->pad_top;
					int ws = (int)(xx * p->stride_w) - (int)p->pad_left;
					int he = hs + (int)p->kernel_h, we = ws + (int)p->kernel_w;
					int cnt;

					if (he > (int)(p->in_h + p->pad_bottom))
						he = (int)(p->in_h + p->pad_bottom);
					if (we > (int)(p->in_w + p->pad_right))
						we = (int)(p->in_w + p->pad_right);
					cnt = (he - hs) * (we - ws);
					for (uint32_t kh = 0; kh < p->kernel_h; kh++)
						for (uint32_t kw = 0; kw < p->kernel_w; kw++) {
							int ih = hs + (int)(kh * p->dilation_h);
							int iw = ws + (int)(kw * p->dilation_w);
							float v;

							if (ih < 0 || iw < 0 || ih >= (int)p->in_h || iw >= (int)p->in_w)
								continue;
							v = x[(((size_t)n * p->in_h + ih) * p->in_w + iw) * c + ch];
							s += v;
							if (v > m)
								m = v;
						}
					if (avg && !p->count_include_pad) {
						int a = hs < 0 ? 0 : hs, bb = ws < 0 ? 0 : ws;
						int e = he > (int)p->in_h ? (int)p->in_h : he;
						int g = we > (int)p->in_w ? (int)p->in_w : we;

						cnt = (e - a) * (g - bb);
					}
					o[(((size_t)n * oh + y) * ow + xx) * c + ch] =
						avg ? (float)(s / cnt) : (float)m;
				}
	return o;
}

struct pcase {
	uint32_t n, h, w, c, k, s, pad, d;
	bool ceil, cip;
};

static void pool_case(struct fx *f, const struct pcase *pc, bool avg,
		      enum tt_data_format fmt, uint32_t seed)
{
	struct tt_pool2d_params p = tt_pool2d_params_default();
	size_t nx = (size_t)pc->n * pc->h * pc->w * pc->c, n;
	float *x = randv(nx, seed), *ref, *got;
	tt_device_tensor *dx, *o = NULL;
	uint32_t oh, ow;
	double r;

	p.batch = pc->n;
	p.in_h = pc->h;
	p.in_w = pc->w;
	p.kernel_h = p.kernel_w = pc->k;
	p.stride_h = p.stride_w = pc->s;
	p.pad_top = p.pad_bottom = p.pad_left = p.pad_right = pc->pad;
	p.dilation_h = p.dilation_w = pc->d;
	p.ceil_mode = pc->ceil;
	p.count_include_pad = pc->cip;
	TRY(tt_pool2d_out_hw(&p, &oh, &ow));
	dx = dev_from(f, TT_SHAPE(1, 1, nx / pc->c, pc->c), fmt, TT_BUFFER_DRAM, x);
	if (avg)
		TRY(tt_op_avg_pool2d(f->ctx, dx, &p, NULL, &o));
	else
		TRY(tt_op_max_pool2d(f->ctx, dx, &p, NULL, &o));
	got = dev_values(f, o, &n);
	assert_int_equal(n, (size_t)pc->n * oh * ow * pc->c);
	ref = ref_pool(x, pc->c, &p, oh, ow, avg);
	if (!avg && fmt != TT_BFP8_B && fmt != TT_BFP4_B) {
		/* max: exact */
		for (size_t i = 0; i < n; i++)
			if (got[i] != ref[i])
				fail_msg("max pool %ux%u k%u s%u p%u d%u ceil %d: [%zu] %g, want %g",
					 pc->h, pc->w, pc->k, pc->s, pc->pad, pc->d, pc->ceil, i,
					 (double)got[i], (double)ref[i]);
	} else {
		r = pcc(got, ref, n);
		if (r < min_pcc(fmt))
			fail_msg("%s pool %ux%u k%u s%u p%u ceil %d cip %d: pcc %.5f",
				 avg ? "avg" : "max", pc->h, pc->w, pc->k, pc->s, pc->pad,
				 pc->ceil, pc->cip, r);
	}
	free(x);
	free(ref);
	free(got);
	tt_device_tensor_free(dx);
	tt_device_tensor_free(o);
}

static void test_max_pool2d(void **state)
{
	struct fx *f = *state;
	const struct pcase cases[] = {
		{ 1, 8, 8, 3, 2, 2, 0, 1, false, false },
		{ 2, 11, 9, 33, 3, 2, 1, 1, false, false },
		{ 1, 10, 10, 8, 3, 2, 1, 1, true, false },
		{ 1, 9, 12, 5, 3, 1, 1, 2, false, false },
		{ 1, 7, 7, 40, 2, 3, 1, 1, true, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		pool_case(f, &cases[i], false, TT_FLOAT16_B, 50 + (uint32_t)i);
	pool_case(f, &cases[1], false, TT_FLOAT32, 60);
	pool_case(f, &cases[1], false, TT_BFP8_B, 61);
	pool_case(f, &cases[2], false, TT_FLOAT16, 62);
	pool_case(f, &cases[3], false, TT_BFP4_B, 63);
}

static void test_avg_pool2d(void **state)
{
	struct fx *f = *state;
	const struct pcase cases[] = {
		{ 1, 8, 8, 3, 2, 2, 0, 1, false, true },
		{ 2, 11, 9, 33, 3, 2, 1, 1, false, true },
		{ 2, 11, 9, 33, 3, 2, 1, 1, false, false },
		{ 1, 10, 10, 8, 3, 2, 1, 1, true, true },
		{ 1, 10, 10, 8, 3, 2, 1, 1, true, false },
		{ 1, 7, 7, 40, 2, 3, 1, 1, true, true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		pool_case(f, &cases[i], true, TT_FLOAT16_B, 70 + (uint32_t)i);
	pool_case(f, &cases[1], true, TT_FLOAT32, 80);
	pool_case(f, &cases[2], true, TT_BFP8_B, 81);
	pool_case(f, &cases[3], true, TT_FLOAT16, 82);
	pool_case(f, &cases[4], true, TT_BFP4_B, 83);
}

static void test_global_avg_pool_and_upsample(void **state)
{
	struct fx *f = *state;
	const uint32_t nb = 2, h = 7, w = 5, c = 33;
	size_t nx = (size_t)nb * h * w * c, n;
	float *x = randv(nx, 90), *got;
	tt_device_tensor *dx, *o = NULL, *u = NULL;

	dx = dev_from(f, TT_SHAPE(1, 1, nx / c, c), TT_FLOAT16_B, TT_BUFFER_DRAM, x);
	TRY(tt_op_global_avg_pool2d(f->ctx, dx, nb, h, w, NULL, &o));
	got = dev_values(f, o, &n);
	assert_int_equal(n, nb * c);
	for (uint32_t b = 0; b < nb; b++)
		for (uint32_t ch = 0; ch < c; ch++) {
			double s = 0;

			for (uint32_t i = 0; i < h * w; i++)
				s += x[((size_t)b * h * w + i) * c + ch];
			s /= h * w;
			if (fabs(got[b * c + ch] - s) > 0.01)
				fail_msg("global avg [%u,%u]: %g, want %g", b, ch,
					 (double)got[b * c + ch], s);
		}
	free(got);

	/* upsample: exact */
	TRY(tt_op_upsample_nearest(f->ctx, dx, nb, h, w, 2, 3, NULL, &u));
	got = dev_values(f, u, &n);
	assert_int_equal(n, (size_t)nb * h * 2 * w * 3 * c);
	for (uint32_t b = 0; b < nb; b++)
		for (uint32_t y = 0; y < h * 2; y++)
			for (uint32_t xx = 0; xx < w * 3; xx++)
				for (uint32_t ch = 0; ch < c; ch++) {
					float g = got[(((size_t)b * h * 2 + y) * w * 3 + xx) * c + ch];
					float want = x[(((size_t)b * h + y / 2) * w + xx / 3) * c + ch];

					if (g != want)
						fail_msg("upsample [%u,%u,%u,%u]: %g, want %g", b, y, xx,
							 ch, (double)g, (double)want);
				}
	free(got);
	free(x);
	tt_device_tensor_free(dx);
	tt_device_tensor_free(o);
	tt_device_tensor_free(u);
}

/* ---- cache ---- */

static unsigned long kbuild_calls(void)
{
	struct tt_kbuild_stats s;

	tt_kbuild_get_stats(&s);
	return s.mem_hits + s.disk_hits + s.builds;
}

static void test_program_cache(void **state)
{
	struct fx *f = *state;
	const struct ccase c = { 1, 9, 9, 16, 20, 3, 1, 1, 1, 1, 1, 1, 1, true };
	struct tt_ops_cache_stats s0, s1;
	tt_device_tensor *spacer = NULL;
	unsigned long k0;
	double r;

	TRY(tt_ops_cache_clear(f->ctx));
	TRY(tt_ops_cache_stats(f->ctx, &s0));
	r = conv_case(f, &c, TT_FLOAT16_B, TT_FLOAT16_B, NULL, false, 0, 1);
	assert_true(r >= 0.99);
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.misses, s0.misses + 1);
	assert_int_equal(s1.hits, s0.hits);
	/* the same shapes on new buffers (a spacer takes the old ones'
	 * place) and values: a hit, nothing built */
	TRY(tt_device_tensor_create(f->dev, &TT_SHAPE(1, 1, 512, 1024), TT_FLOAT16_B,
				    TT_BUFFER_DRAM, &spacer));
	k0 = kbuild_calls();
	r = conv_case(f, &c, TT_FLOAT16_B, TT_FLOAT16_B, NULL, false, 0, 2);
	assert_true(r >= 0.99);
	tt_device_tensor_free(spacer);
	assert_int_equal(kbuild_calls(), k0);
	TRY(tt_ops_cache_stats(f->ctx, &s0));
	assert_int_equal(s0.hits, s1.hits + 1);
	assert_int_equal(s0.misses, s1.misses);
	assert_int_equal(s0.programs, 1);

	/* pools too */
	{
		const struct pcase pc = { 1, 8, 8, 3, 2, 2, 0, 1, false, false };

		pool_case(f, &pc, false, TT_FLOAT16_B, 3);
		TRY(tt_ops_cache_stats(f->ctx, &s1));
		k0 = kbuild_calls();
		pool_case(f, &pc, false, TT_FLOAT16_B, 4);
		assert_int_equal(kbuild_calls(), k0);
		TRY(tt_ops_cache_stats(f->ctx, &s0));
		assert_int_equal(s0.hits, s1.hits + 1);
		assert_int_equal(s0.misses, s1.misses);
	}
}

/* ---- errors ---- */

static void test_errors(void **state)
{
	struct fx *f = *state;
	struct tt_conv2d_params p = tt_conv2d_params_default();
	struct tt_pool2d_params pp = tt_pool2d_params_default();
	struct tt_conv2d_cfg cfg = tt_op_conv2d_config();
	struct tt_pool_cfg pc = tt_op_pool_config();
	struct tt_ops_cache_stats s0, s1;
	float *xv = randv(4 * 4 * 6, 1), *wv = randv(8 * 6 * 9, 2);
	tt_device_tensor *x, *w = NULL, *o = NULL, *i32 = NULL, *bad = NULL;

	TRY(tt_ops_cache_stats(f->ctx, &s0));
	x = dev_from(f, TT_SHAPE(1, 1, 16, 6), TT_FLOAT16_B, TT_BUFFER_DRAM, xv);
	TRY(tt_conv2d_weights_create(f->ctx, wv, 8, 6, 3, 3, 1, TT_FLOAT16_B,
				     TT_OPS_MEM_DRAM, &w));
	p.batch = 1;
	p.in_h = p.in_w = 4;
	p.kernel_h = p.kernel_w = 3;

	/* NULLs */
	expect_error(tt_conv2d_weights_create(f->ctx, NULL, 8, 6, 3, 3, 1, TT_FLOAT16_B,
					      TT_OPS_MEM_DRAM, &bad),
		     -EINVAL, "tt_conv2d_weights_create: w is NULL");
	expect_error(tt_op_conv2d(NULL, x, w, NULL, &p, NULL, &o), -EINVAL, "tt_op_conv2d: ctx is NULL");
	expect_error(tt_op_conv2d(f->ctx, NULL, w, NULL, &p, NULL, &o), -EINVAL, "tt_op_conv2d: x is NULL");
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, NULL, NULL, &o), -EINVAL, "tt_op_conv2d: p is NULL");
	/* zero stride, dilation, groups */
	p.stride_h = 0;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, NULL, &o), -EINVAL, "a stride of 0");
	p.stride_h = 1;
	p.dilation_w = 0;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, NULL, &o), -EINVAL, "a dilation of 0");
	p.dilation_w = 1;
	/* channels not divisible by groups */
	p.groups = 4;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, NULL, &o), -EINVAL,
		     "groups 4 does not divide the input channels 6");
	expect_error(tt_conv2d_weights_create(f->ctx, wv, 8, 6, 3, 3, 4, TT_FLOAT16_B,
					      TT_OPS_MEM_DRAM, &bad),
		     -EINVAL, "groups 4 does not divide cin 6 and cout 8");
	p.groups = 1;
	/* kernel larger than the padded input: output size <= 0 */
	p.kernel_h = 7;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, NULL, &o), -EINVAL,
		     "is larger than the padded input 4x4");
	p.kernel_h = 3;
	/* output padding on a plain conv */
	p.out_pad_h = 1;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, NULL, &o), -EINVAL,
		     "only conv_transpose2d has an output padding");
	p.stride_h = 1;
	expect_error(tt_op_conv_transpose2d(f->ctx, x, w, NULL, &p, NULL, &o), -EINVAL,
		     "out_pad_h 1: must be below stride_h 1 or dilation_h 1");
	p.out_pad_h = 0;
	/* x not matching batch, h, w */
	p.in_h = 5;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, NULL, &o), -EINVAL,
		     "it must be [1, 1, 20, C] (NHWC flattened)");
	p.in_h = 4;
	/* weights of another kernel size */
	p.kernel_w = 1;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, NULL, &o), -EINVAL,
		     "for a 3x1 kernel over 6 input channels it must be [1, 1, 96, Cout]");
	p.kernel_w = 3;
	/* bias of the wrong size */
	expect_error(tt_op_conv2d(f->ctx, x, w, x, &p, NULL, &o), -EINVAL,
		     "bias is [1,1,16,6]; it must be [8]");
	/* configs */
	cfg.block_cols = 17;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, &cfg, &o), -EINVAL,
		     "cfg.block_cols 17: a block's tiles must fit DST's 16");
	cfg = tt_op_conv2d_config();
	cfg.block_rows = 9;
	cfg.block_cols = 1;
	cfg.fp32_acc = TT_OPS_ON;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, &cfg, &o), -EINVAL,
		     "cfg.block_rows 9 x block_cols 1 = 9 tiles; DST holds 8 with fp32 accumulation");
	cfg = tt_op_conv2d_config();
	cfg.grid = (struct tt_xy){ 99, 1 };
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, &cfg, &o), -EINVAL,
		     "cfg.grid 99x1 does not fit");
	cfg = tt_op_conv2d_config();
	cfg.math_fidelity = (enum tt_math_fidelity)7;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, &cfg, &o), -EINVAL,
		     "cfg.math_fidelity 7 is not");
	cfg = tt_op_conv2d_config();
	cfg.out_format = TT_INT32;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, &cfg, &o), -ENOTSUP,
		     "cfg.out_format Int32");
	cfg = tt_op_conv2d_config();
	cfg.block_k = 256;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, &cfg, &o), -EINVAL,
		     "cfg.block_k 256: at most 255 tiles");
	cfg = tt_op_conv2d_config();
	cfg.fp32_acc = (enum tt_ops_switch)5;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, &cfg, &o), -EINVAL,
		     "cfg.fp32_acc 5 is not auto (0), off (1) or on (2)");
	cfg = tt_op_conv2d_config();
	cfg.activation.op = TT_UNARY_OP_COUNT;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, &cfg, &o), -EINVAL,
		     "cfg.activation");
	/* L1: blocks that cannot fit */
	cfg = tt_op_conv2d_config();
	cfg.block_k = 255;
	cfg.block_rows = 16;
	cfg.block_cols = 1;
	{
		float *bw = randv((size_t)8 * 1024 * 9, 3);
		float *bx = randv((size_t)16 * 1024, 4);
		tt_device_tensor *wx = NULL, *xx;

		xx = dev_from(f, TT_SHAPE(1, 1, 16, 1024), TT_FLOAT16_B, TT_BUFFER_DRAM, bx);
		TRY(tt_conv2d_weights_create(f->ctx, bw, 8, 1024, 3, 3, 1, TT_FLOAT16_B,
					     TT_OPS_MEM_DRAM, &wx));
		expect_error(tt_op_conv2d(f->ctx, xx, wx, NULL, &p, &cfg, &o), -ENOMEM,
			     "circular buffers need");
		tt_device_tensor_free(wx);
		tt_device_tensor_free(xx);
		free(bw);
		free(bx);
	}
	/* a tensor format the ops do not take */
	TRY(tt_device_tensor_create(f->dev, &TT_SHAPE(1, 1, 16, 6), TT_INT32, TT_BUFFER_DRAM, &i32));
	expect_error(tt_op_conv2d(f->ctx, i32, w, NULL, &p, NULL, &o), -ENOTSUP,
		     "tt_op_conv2d: x is Int32");
	/* a given output of the wrong shape */
	bad = x;
	expect_error(tt_op_conv2d(f->ctx, x, w, NULL, &p, NULL, &bad), -EINVAL,
		     "tt_op_conv2d: out is [1,1,16,6]; the result is [1,1,4,8]");
	bad = NULL;

	/* pools */
	pp.batch = 1;
	pp.in_h = pp.in_w = 4;
	pp.kernel_h = pp.kernel_w = 2;
	pp.stride_h = 0;
	expect_error(tt_op_max_pool2d(f->ctx, x, &pp, NULL, &o), -EINVAL,
		     "tt_op_max_pool2d: p stride 0x1: a stride of 0");
	pp.stride_h = 2;
	pp.kernel_h = 9;
	expect_error(tt_op_max_pool2d(f->ctx, x, &pp, NULL, &o), -EINVAL,
		     "is larger than the padded input 4x4");
	pp.kernel_h = 2;
	pp.pad_top = 2;
	expect_error(tt_op_avg_pool2d(f->ctx, x, &pp, NULL, &o), -EINVAL,
		     "at most half the kernel");
	pp.pad_top = 0;
	pp.dilation_h = 2;
	expect_error(tt_op_avg_pool2d(f->ctx, x, &pp, NULL, &o), -EINVAL,
		     "avg_pool2d has no dilation");
	pp.dilation_h = 1;
	pc.tiles_per_core = 1;
	pc.grid = (struct tt_xy){ 1, 1 };
	expect_error(tt_op_max_pool2d(f->ctx, x, &pp, &pc, &o), 0, "");
	tt_device_tensor_free(o);
	o = NULL;
	pc.out_mem = (enum tt_ops_mem)9;
	expect_error(tt_op_max_pool2d(f->ctx, x, &pp, &pc, &o), -EINVAL,
		     "cfg.out_mem 9 is not a placement");
	expect_error(tt_op_upsample_nearest(f->ctx, x, 1, 4, 4, 0, 2, NULL, &o), -EINVAL,
		     "tt_op_upsample_nearest: scale 0x2: each must be 1..1024");
	expect_error(tt_op_global_avg_pool2d(f->ctx, x, 1, 4, 5, NULL, &o), -EINVAL,
		     "tt_op_global_avg_pool2d: x is [1,1,16,6]; with batch 1, in_h 4, in_w 5 it must be [1, 1, 20, C]");

	assert_null(o);
	TRY(tt_ops_cache_stats(f->ctx, &s1));
	assert_int_equal(s1.hits, s0.hits);
	assert_int_equal(s1.misses, s0.misses + 1); /* the one good pool */
	tt_device_tensor_free(i32);
	tt_device_tensor_free(x);
	tt_device_tensor_free(w);
	free(xv);
	free(wv);
}

/* Conv and pool calls are recorded by the profiler: names, hits, times. */
static void test_profile(void **state)
{
	struct fx *f = *state;
	const struct ccase c = { 1, 6, 6, 4, 8, 3, 1, 1, 1, 1, 1, 1, 1, true };
	const struct pcase pc = { 1, 6, 6, 4, 2, 2, 0, 1, false, false };
	char dir[256], prefix[300], cmd[1200];

	assert_non_null(test_mkdtemp(dir, sizeof(dir), "ops-conv-prof"));
	snprintf(prefix, sizeof(prefix), "%s/prof", dir);
	TRY(tt_ops_cache_clear(f->ctx));
	TRY(tt_ops_profile_start(f->ctx, prefix));
	assert_true(conv_case(f, &c, TT_FLOAT16_B, TT_FLOAT16_B, NULL, false, 0, 5) >= 0.99);
	assert_true(conv_case(f, &c, TT_FLOAT16_B, TT_FLOAT16_B, NULL, false, 0, 6) >= 0.99);
	pool_case(f, &pc, true, TT_FLOAT16_B, 7);
	TRY(tt_ops_profile_stop(f->ctx));
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import csv, sys\n"
		 "r = list(csv.DictReader(open(sys.argv[1] + \".csv\")))\n"
		 "assert [w[\"op\"] for w in r] == [\"tt_op_conv2d\", \"tt_op_conv2d\", \"tt_op_avg_pool2d\"], r\n"
		 "assert [w[\"cache_hit\"] for w in r] == [\"0\", \"1\", \"0\"], r\n"
		 "assert \"block_k 9\" in r[0][\"config\"], r[0]\n"
		 "assert all(float(w[\"device_us\"]) > 0 for w in r)\n' %s",
		 prefix);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* NCHW host arrays to rows [N*H*W][C] and back. */
static void test_nchw_conversions(void **state)
{
	const uint32_t n = 2, c = 3, h = 4, w = 5;
	float nchw[120], rows[120], back[120];

	(void)state;
	for (uint32_t i = 0; i < 120; i++)
		nchw[i] = (float)i;
	tt_conv_nchw_to_rows(nchw, n, c, h, w, rows);
	/* element (n 1, c 2, h 3, w 4) is row (1*4 + 3)*5 + 4 = 39, column 2 */
	assert_true(rows[39 * c + 2] == nchw[((1 * c + 2) * h + 3) * w + 4]);
	assert_true(rows[0 * c + 1] == nchw[1 * h * w]);
	tt_conv_rows_to_nchw(rows, n, c, h, w, back);
	assert_memory_equal(back, nchw, sizeof(nchw));
	tt_conv_nchw_to_rows(NULL, n, c, h, w, rows);
	assert_non_null(strstr(tt_last_error(), "tt_conv_nchw_to_rows: nchw is NULL"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conv2d_sweep),
		cmocka_unit_test(test_conv2d_formats),
		cmocka_unit_test(test_conv2d_activation),
		cmocka_unit_test(test_conv2d_configs),
		cmocka_unit_test(test_conv_transpose2d),
		cmocka_unit_test(test_max_pool2d),
		cmocka_unit_test(test_avg_pool2d),
		cmocka_unit_test(test_global_avg_pool_and_upsample),
		cmocka_unit_test(test_program_cache),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_profile),
		cmocka_unit_test(test_nchw_conversions),
	};

	return cmocka_run_group_tests_name("ops_conv", tests, fx_up, fx_down);
}
