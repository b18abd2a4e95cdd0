// SPDX-License-Identifier: Apache-2.0
/*
 * Convolutions and pooling over NHWC tensors (tt-mlir's layout; the
 * *_dim attributes of a convolution may name another), and
 * batch_norm_inference, layer_norm, rms_norm.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "shape.h"

static const char *const conv_in[] = { "input", "weight", "bias" };
static const char *const pool_in[] = { "input" };
static const char *const norm_in[] = { "input", "weight", "bias" };

#define HW_ATTR(n) { n, TTC_AK_INT_OR_INTS, TTC_ATTR_REQUIRED }
#define LAYOUT_ATTR(n, d) { n, TTC_AK_INT, TTC_ATTR_DEFAULT, "i64", d }

static const struct ttc_attr_spec conv_attrs[] = {
	HW_ATTR("stride"), HW_ATTR("padding"), HW_ATTR("dilation"),
	{ "groups", TTC_AK_INT, TTC_ATTR_REQUIRED },
	LAYOUT_ATTR("batch_dim", 0), LAYOUT_ATTR("height_dim", 1),
	LAYOUT_ATTR("width_dim", 2), LAYOUT_ATTR("channel_dim", 3),
	{ "flattened_compat_info", TTC_AK_ANY, TTC_ATTR_OPTIONAL },
};
static const struct ttc_attr_spec conv_t_attrs[] = {
	HW_ATTR("stride"), HW_ATTR("padding"), HW_ATTR("output_padding"),
	HW_ATTR("dilation"),
	{ "groups", TTC_AK_INT, TTC_ATTR_REQUIRED },
	LAYOUT_ATTR("batch_dim", 0), LAYOUT_ATTR("height_dim", 1),
	LAYOUT_ATTR("width_dim", 2), LAYOUT_ATTR("channel_dim", 3),
	{ "flattened_compat_info", TTC_AK_ANY, TTC_ATTR_OPTIONAL },
};
static const struct ttc_attr_spec max_pool_attrs[] = {
	HW_ATTR("kernel"), HW_ATTR("stride"), HW_ATTR("dilation"),
	HW_ATTR("padding"),
	{ "ceil_mode", TTC_AK_BOOL, TTC_ATTR_REQUIRED },
	{ "flattened_compat_info", TTC_AK_ANY, TTC_ATTR_OPTIONAL },
};
static const struct ttc_attr_spec avg_pool_attrs[] = {
	HW_ATTR("kernel"), HW_ATTR("stride"), HW_ATTR("dilation"),
	HW_ATTR("padding"),
	{ "ceil_mode", TTC_AK_BOOL, TTC_ATTR_REQUIRED },
	{ "count_include_pad", TTC_AK_BOOL, TTC_ATTR_DEFAULT, NULL, 1 },
	{ "flattened_compat_info", TTC_AK_ANY, TTC_ATTR_OPTIONAL },
};
static const char *const bn_in[] = { "operand", "scale", "offset", "mean",
				     "variance" };
static const struct ttc_attr_spec bn_attrs[] = {
	{ "epsilon", TTC_AK_FLOAT, TTC_ATTR_REQUIRED },
	{ "dimension", TTC_AK_INT, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec norm_attrs[] = {
	{ "normalized_shape", TTC_AK_INTS, TTC_ATTR_REQUIRED },
	{ "epsilon", TTC_AK_FLOAT, TTC_ATTR_DEFAULT, "f32", 0, 1e-5 },
};

/* The layout of a 4-D activation: which dimension is which. */
struct layout {
	unsigned n, h, w, c;
};

/* A (height, width) attribute: one integer for both or [h, w]. min is
 * the least value allowed. */
static int hw_attr(struct ttc_infer *in, const char *name, int64_t min,
		   int64_t *v)
{
	const ttc_attr *a = ttc_infer_attr(in, name);
	int n;

	if (a && ttc_attr_kind(a) == TTC_ATTR_INT) {
		v[0] = v[1] = ttc_attr_int(a);
		n = 2;
	} else if ((n = attr_ints(in, name, v, 2, false)) < 0) {
		return fail(in, "attribute '%s' must be an integer or 2 "
				"integers [height, width]",
			    name);
	}
	if (n != 2)
		return fail(in, "attribute '%s' must be an integer or 2 "
				"integers [height, width], got %d",
			    name, n);
	if (v[0] < min || v[1] < min)
		return fail(in, "attribute '%s' must be >= %" PRId64 ", got "
				"[%" PRId64 ", %" PRId64 "]",
			    name, min, v[0], v[1]);
	return 0;
}

/* padding: one integer, [h, w] or [top, left, bottom, right] into
 * p[4] = top, left, bottom, right. */
static int pad_attr(struct ttc_infer *in, int64_t *p)
{
	const ttc_attr *a = ttc_infer_attr(in, "padding");
	int64_t v[4];
	int n = 1;

	if (a && ttc_attr_kind(a) == TTC_ATTR_INT)
		v[0] = ttc_attr_int(a);
	else if ((n = attr_ints(in, "padding", v, 4, false)) < 0 ||
		 (n != 2 && n != 4))
		return fail(in, "attribute 'padding' must be an integer, 2 "
				"integers [height, width] or 4 [top, left, "
				"bottom, right]");
	for (int i = 0; i < 4; i++)
		p[i] = n == 1 ? v[0] : n == 2 ? v[i % 2] : v[i];
	for (int i = 0; i < 4; i++)
		if (p[i] < 0)
			return fail(in, "attribute 'padding' must be >= 0, "
					"got %" PRId64,
				    p[i]);
	return 0;
}

/* The layout attributes of a convolution: four distinct dims of 0..3. */
static int conv_layout(struct ttc_infer *in, struct layout *l)
{
	static const char *const names[] = { "batch_dim", "height_dim",
					     "width_dim", "channel_dim" };
	unsigned *dst[] = { &l->n, &l->h, &l->w, &l->c };
	unsigned seen = 0;
	int rc;

	for (int i = 0; i < 4; i++) {
		int64_t d = ttc_attr_int(ttc_infer_attr(in, names[i]));

		if ((rc = norm_dim(in, names[i], d, 4, dst[i])))
			return rc;
		if (seen & (1u << *dst[i]))
			return fail(in, "attribute '%s' names dimension %u, "
					"which another layout attribute names",
				    names[i], *dst[i]);
		seen |= 1u << *dst[i];
	}
	return 0;
}

/* A flattened op (flattened_compat_info set) holds its activations as
 * 1 x 1 x NHW x C; the attribute, opaque to us, carries the real sizes,
 * so the declared result type stands. */
static bool flattened(struct ttc_infer *in)
{
	return ttc_infer_attr(in, "flattened_compat_info") != NULL;
}

/* One output extent of a window of k (dilated by d) sliding by s over
 * x plus padding lo, hi; ceil rounds the last partial window up, but (as
 * PyTorch) never keeps a last window that starts in the high padding. */
int64_t ttc_window_out(int64_t x, int64_t lo, int64_t hi, int64_t k,
		       int64_t s, int64_t d, bool ceil)
{
	int64_t span = x + lo + hi - d * (k - 1) - 1, n;

	if (span < 0)
		return 0;
	n = (ceil ? (span + s - 1) / s : span / s) + 1;
	if (ceil && n > 1 && (n - 1) * s >= x + lo)
		n--;
	return n;
}

/* Window attributes shared by convolutions and pools. */
struct window {
	int64_t k[2], s[2], d[2], p[4];
};

static int window_attrs(struct ttc_infer *in, struct window *w)
{
	int rc;

	if ((rc = hw_attr(in, "stride", 1, w->s)) ||
	    (rc = hw_attr(in, "dilation", 1, w->d)))
		return rc;
	return pad_attr(in, w->p);
}

/* The output extents; fails when the window does not fit. */
static int window_hw(struct ttc_infer *in, const struct window *w,
		     int64_t h, int64_t wd, bool ceil, int64_t *out)
{
	out[0] = ttc_window_out(h, w->p[0], w->p[2], w->k[0], w->s[0], w->d[0],
			    ceil);
	out[1] = ttc_window_out(wd, w->p[1], w->p[3], w->k[1], w->s[1], w->d[1],
			    ceil);
	if (out[0] < 1 || out[1] < 1)
		return fail(in, "window %" PRId64 "x%" PRId64 " (dilation "
				"%" PRId64 "x%" PRId64 ") does not fit the padded "
				"input %" PRId64 "x%" PRId64,
			    w->k[0], w->k[1], w->d[0], w->d[1],
			    h + w->p[0] + w->p[2], wd + w->p[1] + w->p[3]);
	return 0;
}

static int check_groups(struct ttc_infer *in, int64_t c, int64_t o,
			int64_t *g)
{
	*g = ttc_attr_int(ttc_infer_attr(in, "groups"));
	if (*g < 1 || c % *g || o % *g)
		return fail(in, "attribute 'groups' is %" PRId64 ": it must be "
				">= 1 and divide the input channels (%" PRId64
				") and the output channels (%" PRId64 ")",
			    *g, c, o);
	return 0;
}

/* conv2d: weight (O, C/groups, KH, KW). */
static int infer_conv2d(struct ttc_infer *in, const ttc_type **out)
{
	const ttc_type *x, *wt;
	struct layout l;
	struct window w;
	int64_t hw[2], g;
	int rc;
	char sx[128], sw[128];

	if (flattened(in))
		return 1;
	if ((rc = operand_rank4(in, 0, &x)) || (rc = operand_rank4(in, 1, &wt)) ||
	    (rc = conv_layout(in, &l)) || (rc = window_attrs(in, &w)))
		return rc;
	int64_t c = x->dims[l.c], o = wt->dims[0];

	if ((rc = check_groups(in, c, o, &g)))
		return rc;
	if (wt->dims[1] * g != c)
		return fail(in, "operand #1 (weight) %s must have %" PRId64
				" input channels per group (dimension 1) for "
				"operand #0 (input) %s and groups %" PRId64,
			    type_text(wt, sw, sizeof(sw)), c / g,
			    type_text(x, sx, sizeof(sx)), g);
	w.k[0] = wt->dims[2];
	w.k[1] = wt->dims[3];
	if ((rc = window_hw(in, &w, x->dims[l.h], x->dims[l.w], false, hw)) ||
	    (rc = check_conv_bias(in, o)))
		return rc;
	out[0] = with_hwc(in, x, (const unsigned[]){ l.n, l.h, l.w, l.c }, hw,
			  o);
	return out[0] ? 0 : -EINVAL;
}

/* conv_transpose2d: weight (C, O/groups, KH, KW); the output grows:
 * (x - 1) * s - pad + d * (k - 1) + output_padding + 1. */
static int infer_conv_t(struct ttc_infer *in, const ttc_type **out)
{
	const ttc_type *x, *wt;
	struct layout l;
	struct window w;
	int64_t op[2], g, hw[2];
	int rc;
	char sx[128], sw[128];

	if (flattened(in))
		return 1;
	if ((rc = operand_rank4(in, 0, &x)) || (rc = operand_rank4(in, 1, &wt)) ||
	    (rc = conv_layout(in, &l)) || (rc = window_attrs(in, &w)) ||
	    (rc = hw_attr(in, "output_padding", 0, op)))
		return rc;
	int64_t c = x->dims[l.c];

	if (wt->dims[0] != c)
		return fail(in, "operand #1 (weight) %s must have the %" PRId64
				" input channels of operand #0 (input) %s in "
				"dimension 0",
			    type_text(wt, sw, sizeof(sw)), c,
			    type_text(x, sx, sizeof(sx)));
	/* The weight holds O / groups output channels: only the input
	 * channels must divide by groups. */
	g = ttc_attr_int(ttc_infer_attr(in, "groups"));
	if ((rc = check_groups(in, c, wt->dims[1] * (g > 0 ? g : 1), &g)))
		return rc;
	int64_t o = wt->dims[1] * g;

	for (int i = 0; i < 2; i++) {
		int64_t xi = x->dims[i ? l.w : l.h];

		hw[i] = (xi - 1) * w.s[i] - w.p[i] - w.p[i + 2] +
			w.d[i] * (wt->dims[2 + i] - 1) + op[i] + 1;
		if (hw[i] < 1)
			return fail(in, "gives an output %s of %" PRId64
					" (it must be >= 1)",
				    i ? "width" : "height", hw[i]);
	}
	if ((rc = check_conv_bias(in, o)))
		return rc;
	out[0] = with_hwc(in, x, (const unsigned[]){ l.n, l.h, l.w, l.c }, hw,
			  o);
	return out[0] ? 0 : -EINVAL;
}

/* max_pool2d, avg_pool2d: NHWC, channels kept. */
static int infer_pool(struct ttc_infer *in, const ttc_type **out)
{
	const ttc_type *x;
	struct window w;
	int64_t hw[2];
	int rc;

	if (flattened(in))
		return 1;
	if ((rc = operand_rank4(in, 0, &x)) || (rc = hw_attr(in, "kernel", 1, w.k)) ||
	    (rc = window_attrs(in, &w)))
		return rc;
	bool ceil = ttc_attr_bool(ttc_infer_attr(in, "ceil_mode"));

	if ((rc = window_hw(in, &w, x->dims[1], x->dims[2], ceil, hw)))
		return rc;
	out[0] = with_hwc(in, x, (const unsigned[]){ 0, 1, 2, 3 }, hw,
			  x->dims[3]);
	return out[0] ? 0 : -EINVAL;
}

/* Which of weight, bias are present: operandSegmentSizes when given,
 * else the operands in order. */
static int norm_segments(struct ttc_infer *in, bool *has_w, bool *has_b)
{
	const ttc_attr *s = ttc_infer_attr(in, "operandSegmentSizes");
	int64_t v[4];
	int n;

	*has_w = in->nin > 1;
	*has_b = in->nin > 2;
	if (!s)
		return 0;
	n = ttc_attr_ints(s, v, 4);
	if (n != 3 || v[0] != 1 || v[1] < 0 || v[1] > 1 || v[2] < 0 ||
	    v[2] > 1 || (size_t)(v[0] + v[1] + v[2]) != in->nin)
		return fail(in, "property 'operandSegmentSizes' must be "
				"array<i32: 1, 0|1, 0|1> adding up to the %zu "
				"operands",
			    in->nin);
	*has_w = v[1];
	*has_b = v[2];
	return 0;
}

/* weight and bias have normalized_shape. */
static int check_affine(struct ttc_infer *in, size_t i, const char *what,
			const int64_t *ns, int n)
{
	int rc;
	const ttc_type *t = operand_tensor(in, i, &rc);
	char tb[128];

	if (!t)
		return rc;
	bool ok = t->rank == (unsigned)n;

	for (int k = 0; ok && k < n; k++)
		ok = t->dims[k] == ns[k];
	if (!ok)
		return fail(in, "operand #%zu (%s) %s must have the shape of "
				"attribute 'normalized_shape'",
			    i, what, type_text(t, tb, sizeof(tb)));
	return 0;
}

/* layer_norm, rms_norm: the trailing dims are normalized_shape. */
static int infer_norm(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *x = operand_tensor(in, 0, &rc);
	int64_t ns[TTC_MAX_RANK];
	bool has_w, has_b;
	char tb[128];

	if (!x)
		return rc;
	int n = attr_ints(in, "normalized_shape", ns, TTC_MAX_RANK, false);

	if (n < 0 || (rc = norm_segments(in, &has_w, &has_b)))
		return n < 0 ? n : rc;
	bool ok = n >= 1 && (unsigned)n <= x->rank;

	for (int k = 0; ok && k < n; k++)
		ok = x->dims[x->rank - n + k] == ns[k];
	if (!ok)
		return fail(in, "attribute 'normalized_shape' must be 1 or more "
				"trailing dimensions of operand #0 (input) %s",
			    type_text(x, tb, sizeof(tb)));
	if (has_w && (rc = check_affine(in, 1, "weight", ns, n)))
		return rc;
	if (has_b && (rc = check_affine(in, has_w ? 2 : 1, "bias", ns, n)))
		return rc;
	out[0] = ttc_tensor_type(in->ctx, x->dims, x->rank, x->elem, NULL);
	return 0;
}

/* batch_norm_inference: scale, offset, mean and variance hold one value
 * per channel (the size of dimension). */
static int infer_batch_norm(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *x = operand_tensor(in, 0, &rc);
	unsigned d;
	char tb[128];

	if (!x)
		return rc;
	if ((rc = norm_dim(in, "dimension",
			   ttc_attr_int(ttc_infer_attr(in, "dimension")),
			   x->rank, &d)))
		return rc;
	for (size_t i = 1; i < 5; i++) {
		const ttc_type *t = operand_tensor(in, i, &rc);

		if (!t)
			return rc;
		if (ttc_type_numel(t) != x->dims[d])
			return fail(in, "operand #%zu (%s) %s must hold the %"
					PRId64 " channels of dimension %u",
				    i, bn_in[i], type_text(t, tb, sizeof(tb)),
				    x->dims[d], d);
	}
	out[0] = ttc_tensor_type(in->ctx, x->dims, x->rank, x->elem, NULL);
	return 0;
}

#define NDEF(n, s, ops, no, fl, a, f) \
	{ .name = "ttir." n, .summary = s, .operands = ops, .noperands = no, \
	  .nresults = 1, .flags = (fl), .attrs = a, \
	  .nattrs = sizeof(a) / sizeof(a[0]), .infer = f }

const struct ttc_op_def ttc_nn_defs[] = {
	NDEF("conv2d", "2-D convolution (NHWC; weight O x C/groups x KH x KW)",
	     conv_in, 3, TTC_OPF_DPS | TTC_OPF_OPTIONAL_LAST, conv_attrs, infer_conv2d),
	NDEF("conv_transpose2d", "2-D transposed convolution (NHWC; weight "
	     "C x O/groups x KH x KW)", conv_in, 3, TTC_OPF_DPS | TTC_OPF_OPTIONAL_LAST,
	     conv_t_attrs, infer_conv_t),
	NDEF("max_pool2d", "maximum over 2-D windows (NHWC)", pool_in, 1, TTC_OPF_DPS,
	     max_pool_attrs, infer_pool),
	NDEF("avg_pool2d", "average over 2-D windows (NHWC)", pool_in, 1, TTC_OPF_DPS,
	     avg_pool_attrs, infer_pool),
	NDEF("batch_norm_inference", "(x - mean) / sqrt(variance + epsilon) "
	     "* scale + offset per channel", bn_in, 5, TTC_OPF_DPS, bn_attrs,
	     infer_batch_norm),
	NDEF("layer_norm", "(x - mean) / sqrt(var + epsilon) * weight + bias "
	     "over normalized_shape", norm_in, 3, TTC_OPF_SEGMENTS,
	     norm_attrs, infer_norm),
	NDEF("rms_norm", "x / sqrt(mean(x^2) + epsilon) * weight + bias over "
	     "normalized_shape", norm_in, 3, TTC_OPF_SEGMENTS, norm_attrs,
	     infer_norm),
};

const size_t ttc_nn_count = sizeof(ttc_nn_defs) / sizeof(ttc_nn_defs[0]);
