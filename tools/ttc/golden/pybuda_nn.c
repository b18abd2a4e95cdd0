// SPDX-License-Identifier: Apache-2.0
/*
 * Goldens of PyBuda's ops with their own parameters (ops/pybuda_nn.c):
 * convolutions and pools through the shared cores with PyBuda's window
 * and layout, layernorm, pad, relu with threshold and mode, gelu with
 * approximate. (Softmax and Concatenate share ttir's goldens.)
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "tools/ttc/ops/pybuda_nn.h"

#include "internal.h"

static bool battr(const ttc_op *op, const char *name)
{
	return ttc_attr_bool(ttc_op_attr(op, name));
}

static bool str_is(const ttc_op *op, const char *name, const char *want)
{
	size_t n;
	const char *v = ttc_attr_str(ttc_op_attr(op, name), &n);

	return v && n == strlen(want) && !memcmp(v, want, n);
}

/* The window of the op over input x (layout l) with kernel k. */
static int window(const ttc_op *op, const ttc_tensor *x, const unsigned *l,
		  const int64_t *k, struct pybuda_window *w, char *err,
		  size_t len)
{
	int64_t xs[2];

	if (x->type->rank != 4)
		return gfail(err, len, "the input must have rank 4");
	xs[0] = x->type->dims[l[1]], xs[1] = x->type->dims[l[2]];
	if (pybuda_window(ttc_op_attr(op, "stride"),
			  ttc_op_attr(op, "dilation"),
			  ttc_op_attr(op, "padding"), k, xs, w, err, len))
		return -EINVAL;
	return 0;
}

int golden_pybuda_conv(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		       ttc_tensor *const *out, char *err, size_t len)
{
	struct golden_conv_params cp = {
		.g = ttc_attr_int(ttc_op_attr(op, "groups")),
		.tr = !strcmp(ttc_op_name(op), "pybuda.conv2d_transpose"),
	};
	struct pybuda_window w;

	pybuda_layout(battr(op, "channel_last"), cp.l);
	if (in[1]->type->rank != 4)
		return gfail(err, len, "the weights must have rank 4");
	if (window(op, in[0], cp.l, &in[1]->type->dims[2], &w, err, len))
		return -EINVAL;
	memcpy(cp.s, w.s, sizeof(cp.s));
	memcpy(cp.d, w.d, sizeof(cp.d));
	memcpy(cp.p, w.p, sizeof(cp.p));
	return golden_conv_core(&cp, in, nin, out, err, len);
}

int golden_pybuda_pool(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		       ttc_tensor *const *out, char *err, size_t len)
{
	struct golden_pool_params pp = {
		.avg = !strcmp(ttc_op_name(op), "pybuda.avg_pool2d"),
	};
	const ttc_attr *k = ttc_op_attr(op, "kernel_size");
	const ttc_attr *div = ttc_op_attr(op, "divisor_override");
	struct pybuda_window w;

	(void)nin;
	pybuda_layout(battr(op, "channel_last"), pp.l);
	if (ttc_attr_kind(k) == TTC_ATTR_INT)
		pp.k[0] = pp.k[1] = ttc_attr_int(k);
	else if (ttc_attr_ints(k, pp.k, 2) != 2)
		return gfail(err, len, "bad kernel_size");
	if (window(op, in[0], pp.l, pp.k, &w, err, len))
		return -EINVAL;
	memcpy(pp.s, w.s, sizeof(pp.s));
	memcpy(pp.d, w.d, sizeof(pp.d));
	memcpy(pp.p, w.p, sizeof(pp.p));
	pp.incl = pp.avg && battr(op, "count_include_pad");
	if (div)
		pp.divisor = ttc_attr_kind(div) == TTC_ATTR_INT ?
				     (double)ttc_attr_int(div) :
				     ttc_attr_float(div);
	return golden_pool_core(&pp, in, out);
}

int golden_pybuda_layernorm(const ttc_op *op, ttc_tensor *const *in,
			    size_t nin, ttc_tensor *const *out, char *err,
			    size_t len)
{
	const ttc_type *t = in[0]->type;

	(void)len, (void)err;
	golden_norm_rows(in[0], nin > 1 ? in[1] : NULL, nin > 2 ? in[2] : NULL,
			 t->rank ? (size_t)t->dims[t->rank - 1] : 1,
			 ttc_attr_float(ttc_op_attr(op, "epsilon")), false,
			 out[0]);
	return 0;
}

/* The source index of output index o along a dimension of n padded by lo
 * in mode: -1 for a constant 0. */
static int64_t pad_source(const ttc_op *op, int64_t o, int64_t lo, int64_t n)
{
	int64_t i = o - lo;

	if (i >= 0 && i < n)
		return i;
	if (str_is(op, "mode", "replicate"))
		return i < 0 ? 0 : n - 1;
	if (str_is(op, "mode", "reflect"))
		return i < 0 ? -i : 2 * (n - 1) - i;
	return -1;
}

/* pybuda.pad: [left, right] pads the width, [left, right, top, bottom]
 * the width and the height; the width is the last dimension, or the one
 * before it with channel_last. */
int golden_pybuda_pad(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		      ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *t = in[0]->type, *o = out[0]->type;
	int64_t p[4], lo[TTC_MAX_RANK] = { 0 }, idx[TTC_MAX_RANK] = { 0 };
	int64_t st[TTC_MAX_RANK];
	int n = op_ints(op, "pad", p);
	unsigned first = battr(op, "channel_last") ? 2 : 1;

	(void)nin;
	if ((n != 2 && n != 4) || t->rank < first + (unsigned)n / 2)
		return gfail(err, len, "bad pad");
	for (int i = 0; i < n; i += 2)
		lo[t->rank - first - (unsigned)i / 2] = p[i];
	strides_of(t, st);
	for (size_t i = 0; i < out[0]->numel; i++) {
		int64_t at = 0;

		for (unsigned d = 0; d < t->rank && at >= 0; d++) {
			int64_t s = pad_source(op, idx[d], lo[d], t->dims[d]);

			at = s < 0 ? -1 : at + s * st[d];
		}
		ttc_tensor_set(out[0], i,
			       at < 0 ? 0 : ttc_tensor_get(in[0], (size_t)at));
		next_index(idx, o->dims, o->rank);
	}
	return 0;
}

/* PyBuda's relu: mode "min" keeps x >= threshold, else 0; mode "max"
 * caps x at threshold, then keeps what is >= 0; NaN stays NaN. */
int golden_pybuda_relu(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		       ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_attr *ta = ttc_op_attr(op, "threshold");
	double th = ttc_attr_kind(ta) == TTC_ATTR_INT ?
			    (double)ttc_attr_int(ta) : ttc_attr_float(ta);
	bool max = str_is(op, "mode", "max");

	(void)nin, (void)err, (void)len;
	for (size_t i = 0; i < out[0]->numel; i++) {
		double x = ttc_tensor_get(in[0], i);

		if (max)
			x = x >= th ? th : x;
		/* NaN stays NaN (PyBuda multiplies x by its mask) */
		ttc_tensor_set(out[0], i,
			       isnan(x) || x >= (max ? 0 : th) ? x : 0);
	}
	return 0;
}

int golden_pybuda_gelu(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		       ttc_tensor *const *out, char *err, size_t len)
{
	bool tanh_form = str_is(op, "approximate", "tanh");

	(void)nin, (void)err, (void)len;
	for (size_t i = 0; i < out[0]->numel; i++)
		ttc_tensor_set(out[0], i,
			       golden_gelu_scalar(ttc_tensor_get(in[0], i),
						  tanh_form));
	return 0;
}
