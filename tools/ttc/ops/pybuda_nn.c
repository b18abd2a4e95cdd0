// SPDX-License-Identifier: Apache-2.0
/*
 * PyBuda's ops whose parameters differ from their TTIR counterparts:
 * Conv2d, Conv2dTranspose, MaxPool2d, AvgPool2d (NCHW unless
 * channel_last, "same" padding by default, padding in PyBuda's order),
 * Softmax (dim, stable), Layernorm (over the last dimension), Pad (the
 * last one or two spatial dimensions, three modes), Concatenate (axis),
 * Relu (threshold and mode) and Gelu (approximate). Named as PyBuda's
 * classes in snake case, with PyBuda's parameter names as attributes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pybuda_nn.h"
#include "shape.h"

/* ---- windows, shared with the goldens ------------------------------------ */

static int hw_of(const ttc_attr *a, const char *name, int64_t *v, char *err,
		 size_t len)
{
	int n = 1;

	if (!a)
		v[0] = v[1] = 1;
	else if (ttc_attr_kind(a) == TTC_ATTR_INT)
		v[0] = v[1] = ttc_attr_int(a);
	else
		n = ttc_attr_ints(a, v, 2);
	if (n != 1 && n != 2) {
		snprintf(err, len, "attribute '%s' must be an integer or 2 "
				   "integers [height, width]",
			 name);
		return -EINVAL;
	}
	if (v[0] < 1 || v[1] < 1) {
		snprintf(err, len, "attribute '%s' must be >= 1, got [%" PRId64
				   ", %" PRId64 "]",
			 name, v[0], v[1]);
		return -EINVAL;
	}
	return 0;
}

/* "same": out = ceil(x / s); the padding that gives it, split with the
 * odd pixel high. */
static void same_padding(struct pybuda_window *w, const int64_t *x)
{
	for (int i = 0; i < 2; i++) {
		int64_t out = (x[i] + w->s[i] - 1) / w->s[i];
		int64_t total = (out - 1) * w->s[i] + w->d[i] * (w->k[i] - 1) +
				1 - x[i];

		if (total < 0)
			total = 0;
		w->p[i] = total / 2;
		w->p[i + 2] = total - total / 2;
	}
}

int pybuda_window(const ttc_attr *stride, const ttc_attr *dilation,
		  const ttc_attr *padding, const int64_t *k, const int64_t *x,
		  struct pybuda_window *w, char *err, size_t len)
{
	int64_t v[4];
	size_t slen;
	const char *str;

	w->k[0] = k[0], w->k[1] = k[1];
	if (hw_of(stride, "stride", w->s, err, len) ||
	    hw_of(dilation, "dilation", w->d, err, len))
		return -EINVAL;
	if (!padding || ((str = ttc_attr_str(padding, &slen)) &&
			 ttc_attr_kind(padding) == TTC_ATTR_STRING &&
			 slen == 4 && !memcmp(str, "same", 4))) {
		same_padding(w, x);
		return 0;
	}
	if (ttc_attr_kind(padding) == TTC_ATTR_INT) {
		v[0] = v[1] = v[2] = v[3] = ttc_attr_int(padding);
	} else if (ttc_attr_kind(padding) == TTC_ATTR_STRING ||
		   ttc_attr_ints(padding, v, 4) != 4) {
		snprintf(err, len, "attribute 'padding' must be \"same\", an "
				   "integer or 4 integers [left, right, top, "
				   "bottom]");
		return -EINVAL;
	} else {
		/* [left, right, top, bottom] to [top, left, bottom, right] */
		int64_t l = v[0], r = v[1];

		v[0] = v[2], v[1] = l, v[2] = v[3], v[3] = r;
	}
	for (int i = 0; i < 4; i++) {
		if (v[i] < 0) {
			snprintf(err, len, "attribute 'padding' must be >= 0, "
					   "got %" PRId64,
				 v[i]);
			return -EINVAL;
		}
		w->p[i] = v[i];
	}
	return 0;
}

void pybuda_layout(bool channel_last, unsigned *l)
{
	static const unsigned nchw[4] = { 0, 2, 3, 1 }, nhwc[4] = { 0, 1, 2, 3 };

	memcpy(l, channel_last ? nhwc : nchw, sizeof(nchw));
}

/* ---- shape inference ----------------------------------------------------- */

static const char *const conv_in[] = { "activations", "weights", "bias" };
static const char *const act_in[] = { "activations" };
static const char *const in1[] = { "input" };
static const char *const norm_in[] = { "input", "weights", "bias" };
static const char *const cat_in[] = { "operands" };

#define OPT(n, k) { n, k, TTC_ATTR_OPTIONAL }
#define DEF_INT(n, v) { n, TTC_AK_INT, TTC_ATTR_DEFAULT, "i32", v }
#define DEF_BOOL(n, v) { n, TTC_AK_BOOL, TTC_ATTR_DEFAULT, NULL, v }
#define DEF_STR(n, v) { n, TTC_AK_STRING, TTC_ATTR_DEFAULT, .def_str = v }

static const struct ttc_attr_spec conv_attrs[] = {
	OPT("stride", TTC_AK_INT_OR_INTS), OPT("padding", TTC_AK_ANY),
	OPT("dilation", TTC_AK_INT_OR_INTS), DEF_INT("groups", 1),
	DEF_BOOL("channel_last", 0),
};
static const struct ttc_attr_spec max_pool_attrs[] = {
	{ "kernel_size", TTC_AK_INT_OR_INTS, TTC_ATTR_REQUIRED },
	OPT("stride", TTC_AK_INT_OR_INTS), OPT("padding", TTC_AK_ANY),
	OPT("dilation", TTC_AK_INT_OR_INTS), DEF_BOOL("ceil_mode", 0),
	DEF_BOOL("return_indices", 0), DEF_BOOL("channel_last", 0),
};
static const struct ttc_attr_spec avg_pool_attrs[] = {
	{ "kernel_size", TTC_AK_INT_OR_INTS, TTC_ATTR_REQUIRED },
	OPT("stride", TTC_AK_INT_OR_INTS), OPT("padding", TTC_AK_ANY),
	DEF_BOOL("ceil_mode", 0), DEF_BOOL("count_include_pad", 1),
	OPT("divisor_override", TTC_AK_NUMBER), DEF_BOOL("channel_last", 0),
};
static const struct ttc_attr_spec softmax_attrs[] = {
	{ "dim", TTC_AK_INT, TTC_ATTR_REQUIRED }, DEF_BOOL("stable", 1),
};
static const struct ttc_attr_spec layernorm_attrs[] = {
	DEF_INT("dim", -1),
	{ "epsilon", TTC_AK_FLOAT, TTC_ATTR_DEFAULT, "f32", 0, 1e-5 },
};
static const struct ttc_attr_spec cat_attrs[] = {
	{ "axis", TTC_AK_INT, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec pad_attrs[] = {
	{ "pad", TTC_AK_INTS, TTC_ATTR_REQUIRED },
	DEF_STR("mode", "constant"), DEF_BOOL("channel_last", 0),
};
static const struct ttc_attr_spec relu_attrs[] = {
	{ "threshold", TTC_AK_NUMBER, TTC_ATTR_DEFAULT, "f32", 0, 0.0 },
	DEF_STR("mode", "min"),
};
static const struct ttc_attr_spec gelu_attrs[] = {
	DEF_STR("approximate", "none"),
};

static bool battr(struct ttc_infer *in, const char *name)
{
	return ttc_attr_bool(ttc_infer_attr(in, name));
}

/* The window of the op's attributes over x with kernel k. */
static int window_of(struct ttc_infer *in, const int64_t *k,
		     const int64_t *x, struct pybuda_window *w)
{
	char err[sizeof(in->err)];

	if (pybuda_window(ttc_infer_attr(in, "stride"),
			  ttc_infer_attr(in, "dilation"),
			  ttc_infer_attr(in, "padding"), k, x, w, err,
			  sizeof(err)))
		return fail(in, "%s", err);
	return 0;
}

/* The output extents of a window; fails when none fits. */
static int window_hw(struct ttc_infer *in, const struct pybuda_window *w,
		     const int64_t *x, bool ceil, int64_t *out)
{
	for (int i = 0; i < 2; i++) {
		out[i] = ttc_window_out(x[i], w->p[i], w->p[i + 2], w->k[i],
					w->s[i], w->d[i], ceil);
		if (out[i] < 1)
			return fail(in, "the %" PRId64 "x%" PRId64 " window "
					"does not fit the padded input %" PRId64
					"x%" PRId64,
				    w->k[0], w->k[1], x[0] + w->p[0] + w->p[2],
				    x[1] + w->p[1] + w->p[3]);
	}
	return 0;
}

/* conv2d: weights (Cout, Cin/groups, kH, kW); conv2d_transpose: weights
 * (Cin, Cout/groups, kH, kW). */
static int infer_conv(struct ttc_infer *in, const ttc_type **out)
{
	const ttc_type *x, *wt;
	struct pybuda_window w;
	unsigned l[4];
	int64_t hw[2], xs[2], g = ttc_attr_int(ttc_infer_attr(in, "groups"));
	bool tr = strstr(in->def->name, "transpose") != NULL;
	int rc;
	char sw[128];

	if ((rc = operand_rank4(in, 0, &x)) || (rc = operand_rank4(in, 1, &wt)))
		return rc;
	pybuda_layout(battr(in, "channel_last"), l);
	int64_t c = x->dims[l[3]];
	int64_t o = tr ? wt->dims[1] * (g > 0 ? g : 1) : wt->dims[0];

	if (g < 1 || c % g || o % g)
		return fail(in, "attribute 'groups' is %" PRId64 ": it must be "
				">= 1 and divide the input channels (%" PRId64
				") and the output channels (%" PRId64 ")",
			    g, c, o);
	if ((tr && wt->dims[0] != c) || (!tr && wt->dims[1] * g != c))
		return fail(in, "operand #1 (weights) %s does not fit %" PRId64
				" input channels in groups of %" PRId64,
			    type_text(wt, sw, sizeof(sw)), c, g);
	xs[0] = x->dims[l[1]], xs[1] = x->dims[l[2]];
	if ((rc = window_of(in, &wt->dims[2], xs, &w)))
		return rc;
	if (!tr && (rc = window_hw(in, &w, xs, false, hw)))
		return rc;
	for (int i = 0; tr && i < 2; i++) {
		hw[i] = (xs[i] - 1) * w.s[i] - w.p[i] - w.p[i + 2] +
			w.d[i] * (w.k[i] - 1) + 1;
		if (hw[i] < 1)
			return fail(in, "gives an output %s of %" PRId64
					" (it must be >= 1)",
				    i ? "width" : "height", hw[i]);
	}
	if ((rc = check_conv_bias(in, o)))
		return rc;
	out[0] = with_hwc(in, x, l, hw, o);
	return out[0] ? 0 : -EINVAL;
}

static int infer_pool(struct ttc_infer *in, const ttc_type **out)
{
	const ttc_type *x;
	struct pybuda_window w;
	unsigned l[4];
	int64_t k[2], hw[2], xs[2];
	char err[sizeof(in->err)];
	int rc;

	if ((rc = operand_rank4(in, 0, &x)))
		return rc;
	if (hw_of(ttc_infer_attr(in, "kernel_size"), "kernel_size", k, err,
		  sizeof(err)))
		return fail(in, "%s", err);
	if (battr(in, "return_indices"))
		return fail(in, "attribute 'return_indices' is not supported "
				"(the op has one result)");
	pybuda_layout(battr(in, "channel_last"), l);
	xs[0] = x->dims[l[1]], xs[1] = x->dims[l[2]];
	if ((rc = window_of(in, k, xs, &w)) ||
	    (rc = window_hw(in, &w, xs, battr(in, "ceil_mode"), hw)))
		return rc;
	const ttc_attr *div = ttc_infer_attr(in, "divisor_override");

	if (div && !(ttc_attr_kind(div) == TTC_ATTR_INT ?
			     ttc_attr_int(div) != 0 : ttc_attr_float(div) != 0))
		return fail(in, "attribute 'divisor_override' must not be 0");
	out[0] = with_hwc(in, x, l, hw, x->dims[l[3]]);
	return out[0] ? 0 : -EINVAL;
}

static int infer_softmax(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	unsigned d;
	const ttc_type *t = operand_tensor(in, 0, &rc);

	if (!t)
		return rc;
	if ((rc = norm_dim(in, "dim", ttc_attr_int(ttc_infer_attr(in, "dim")),
			   t->rank, &d)))
		return rc;
	return infer_same_type(in, out);
}

/* Layernorm: over the last dimension (PyBuda's only one); weights and
 * bias one value per element of it. */
static int infer_layernorm(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	unsigned d;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	char tb[128];

	if (!t)
		return rc;
	if ((rc = norm_dim(in, "dim", ttc_attr_int(ttc_infer_attr(in, "dim")),
			   t->rank, &d)))
		return rc;
	if (d + 1 != t->rank)
		return fail(in, "attribute 'dim' must name the last dimension "
				"(%u), got %u",
			    t->rank - 1, d);
	for (size_t i = 1; i < 3; i++) {
		const ttc_type *a = operand_tensor(in, i, &rc);

		if (!a)
			return rc;
		if (ttc_type_numel(a) != t->dims[d])
			return fail(in, "operand #%zu (%s) %s must hold %" PRId64
					" values, one per element of the last "
					"dimension",
				    i, i == 1 ? "weights" : "bias",
				    type_text(a, tb, sizeof(tb)), t->dims[d]);
	}
	return infer_same_type(in, out);
}

static int infer_concatenate(struct ttc_infer *in, const ttc_type **out)
{
	return infer_concat_along(in, "axis", out);
}

static bool str_is(const ttc_attr *a, const char *s)
{
	size_t n;
	const char *v = ttc_attr_str(a, &n);

	return v && n == strlen(s) && !memcmp(v, s, n);
}

static int infer_pad(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	const ttc_attr *mode = ttc_infer_attr(in, "mode");
	int64_t p[TTC_MAX_RANK], dims[TTC_MAX_RANK];
	int n;

	if (!t)
		return rc;
	if ((n = attr_ints(in, "pad", p, 4, false)) < 0)
		return n;
	if (n != 2 && n != 4)
		return fail(in, "attribute 'pad' must be [left, right] or "
				"[left, right, top, bottom], got %d values",
			    n);
	if (!str_is(mode, "constant") && !str_is(mode, "replicate") &&
	    !str_is(mode, "reflect"))
		return fail(in, "attribute 'mode' must be \"constant\", "
				"\"replicate\" or \"reflect\"");
	unsigned first = battr(in, "channel_last") ? 2 : 1;

	if (t->rank < first + (unsigned)n / 2)
		return fail(in, "operand #0 (input) has rank %u: too few "
				"dimensions to pad",
			    t->rank);
	memcpy(dims, t->dims, t->rank * sizeof(*dims));
	for (int i = 0; i < n; i += 2) {
		unsigned d = t->rank - first - (unsigned)i / 2;

		if (p[i] < 0 || p[i + 1] < 0 ||
		    (str_is(mode, "reflect") &&
		     (p[i] >= t->dims[d] || p[i + 1] >= t->dims[d])))
			return fail(in, "attribute 'pad' [%" PRId64 ", %" PRId64
					"] does not fit dimension %u of %" PRId64
					" (>= 0; less than it to reflect)",
				    p[i], p[i + 1], d, t->dims[d]);
		dims[d] += p[i] + p[i + 1];
	}
	out[0] = make_tensor(in, dims, t->rank, t->elem);
	return out[0] ? 0 : -EINVAL;
}

static int infer_relu(struct ttc_infer *in, const ttc_type **out)
{
	const ttc_attr *mode = ttc_infer_attr(in, "mode");

	if (!str_is(mode, "min") && !str_is(mode, "max"))
		return fail(in, "attribute 'mode' must be \"min\" or \"max\"");
	return infer_same_type(in, out);
}

static int infer_gelu(struct ttc_infer *in, const ttc_type **out)
{
	const ttc_attr *a = ttc_infer_attr(in, "approximate");

	if (!str_is(a, "none") && !str_is(a, "tanh"))
		return fail(in, "attribute 'approximate' must be \"none\" or "
				"\"tanh\"");
	return infer_same_type(in, out);
}

#define NDEF(n, s, ops, no, fl, a, f) \
	{ .name = "pybuda." n, .summary = s, .operands = ops, \
	  .noperands = no, .nresults = 1, .flags = (fl), .attrs = a, \
	  .nattrs = sizeof(a) / sizeof(a[0]), .infer = f }

const struct ttc_op_def ttc_pybuda_nn_defs[] = {
	NDEF("avg_pool2d", "average over 2-D windows (NCHW unless "
	     "channel_last)", act_in, 1, 0, avg_pool_attrs, infer_pool),
	NDEF("concatenate", "joins tensors along axis", cat_in, 1,
	     TTC_OPF_VARIADIC, cat_attrs, infer_concatenate),
	NDEF("conv2d", "2-D convolution (NCHW unless channel_last; weights "
	     "Cout x Cin/groups x kH x kW)", conv_in, 3, TTC_OPF_OPTIONAL_LAST,
	     conv_attrs, infer_conv),
	NDEF("conv2d_transpose", "2-D transposed convolution (weights Cin x "
	     "Cout/groups x kH x kW)", conv_in, 3, TTC_OPF_OPTIONAL_LAST,
	     conv_attrs, infer_conv),
	NDEF("gelu", "GELU, erf form or (approximate \"tanh\") tanh form", in1,
	     1, 0, gelu_attrs, infer_gelu),
	NDEF("layernorm", "(x - mean) / sqrt(var + epsilon) * weights + bias "
	     "over the last dimension", norm_in, 3, 0, layernorm_attrs,
	     infer_layernorm),
	NDEF("max_pool2d", "maximum over 2-D windows (NCHW unless "
	     "channel_last)", act_in, 1, 0, max_pool_attrs, infer_pool),
	NDEF("pad", "pads the last one or two spatial dimensions (constant "
	     "0, replicate or reflect)", in1, 1, 0, pad_attrs, infer_pad),
	NDEF("relu", "x where x >= threshold, else 0 (mode min); min(x, "
	     "threshold) clamped at 0 (mode max)", in1, 1, 0,
	     relu_attrs, infer_relu),
	NDEF("softmax", "softmax along dim", in1, 1, 0, softmax_attrs,
	     infer_softmax),
};

const size_t ttc_pybuda_nn_count =
	sizeof(ttc_pybuda_nn_defs) / sizeof(ttc_pybuda_nn_defs[0]);
