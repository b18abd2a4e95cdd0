// SPDX-License-Identifier: Apache-2.0
/*
 * Convolutions and pools (docs/compiler.md, "Codegen"): TTIR's NHWC
 * activations are held on the device as rows [1, 1, N*H*W, C], the
 * layout the op library's conv2d and pools take: the same elements in the
 * same row-major order, so element-wise ops and reshapes run on them
 * unchanged and only other ops need the natural shape back (lower.c
 * converts at those edges). A convolution's weights are stored as the
 * device takes them (libtt's tt_conv2d_weights_host: taps x padded input
 * channels by output channels), its bias as [Cout]; mean over H and W is
 * the global average pool.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/internal.h"
#include "internal.h"
#include "tt/ops.h"

/* An int or a list of ints as a list (n values), -1 for anything else. */
static int ints(const ttc_attr *a, int64_t *v)
{
	if (ttc_attr_kind(a) == TTC_ATTR_INT) {
		v[0] = ttc_attr_int(a);
		return 1;
	}
	return ttc_attr_ints(a, v, TTC_MAX_RANK);
}

static const int64_t *dims_of(const ttc_value *v)
{
	return ttc_type_dims(ttc_value_type(v));
}

/* mean over H and W (dims 1 and 2, or -3 and -2) of a rank-4 tensor. */
static bool is_global_pool(const ttc_op *op)
{
	const ttc_attr *a = ttc_op_attr(op, "dim_arg");
	int64_t d[TTC_MAX_RANK];

	if (strcmp(ttc_op_name(op), "ttir.mean") ||
	    ttc_type_rank(ttc_value_type(ttc_op_operand(op, 0))) != 4 || !a ||
	    ttc_attr_ints(a, d, TTC_MAX_RANK) != 2)
		return false;
	for (int i = 0; i < 2; i++)
		d[i] = d[i] < 0 ? d[i] + 4 : d[i];
	return (d[0] == 1 && d[1] == 2) || (d[0] == 2 && d[1] == 1);
}

bool cg_is_window_op(const ttc_op *op)
{
	const char *n = ttc_op_name(op);

	return !strcmp(n, "ttir.conv2d") || !strcmp(n, "ttir.max_pool2d") ||
	       !strcmp(n, "ttir.avg_pool2d") || is_global_pool(op);
}

bool cg_window_only_arg(const ttc_value *v)
{
	if (!ttc_value_first_use(v))
		return false;
	for (ttc_use *u = ttc_value_first_use(v); u; u = ttc_use_next(u))
		if (strcmp(ttc_op_name(ttc_use_op(u)), "ttir.conv2d") ||
		    ttc_use_index(u) == 0)
			return false;
	return true;
}

/* A window attribute: one value for both, or (h, w). */
static int hw(ttc_compiled *c, const ttc_op *op, const char *name,
	      int64_t def, int64_t *h, int64_t *w)
{
	const ttc_attr *a = ttc_op_attr(op, name);
	int64_t v[TTC_MAX_RANK];
	int n = a ? ints(a, v) : 0;

	if (!a) {
		*h = *w = def;
		return 0;
	}
	if (n == 1)
		v[1] = v[0];
	else if (n != 2)
		return cg_error(c, op, -EINVAL, "%s: one or two values", name);
	*h = v[0];
	*w = v[1];
	return 0;
}

/* padding: one value, (h, w), or (top, left, bottom, right). */
static int padding(ttc_compiled *c, const ttc_op *op, int64_t *p)
{
	const ttc_attr *a = ttc_op_attr(op, "padding");
	int64_t v[TTC_MAX_RANK];
	int n = a ? ints(a, v) : 1;

	if (!a)
		v[0] = 0;
	if (n != 1 && n != 2 && n != 4)
		return cg_error(c, op, -EINVAL, "padding: 1, 2 or 4 values");
	for (int i = 0; i < 4; i++)
		p[i] = n == 1 ? v[0] : n == 2 ? v[i % 2] : v[i];
	return 0;
}

/* The window attributes every window record has. */
static int window_attrs(ttc_compiled *c, const ttc_op *op, struct cg_op *o,
			int64_t kh, int64_t kw, bool dilation)
{
	const int64_t *x = dims_of(ttc_op_operand(op, 0));
	int64_t sh, sw, dh, dw, p[4];
	int ret = hw(c, op, "stride", 1, &sh, &sw);

	if (!ret)
		ret = hw(c, op, "dilation", 1, &dh, &dw);
	if (!ret)
		ret = padding(c, op, p);
	if (ret)
		return ret;
	return cg_attr(c, o, "batch", "%lld", (long long)x[0]) ||
	       cg_attr(c, o, "in_h", "%lld", (long long)x[1]) ||
	       cg_attr(c, o, "in_w", "%lld", (long long)x[2]) ||
	       cg_attr(c, o, "kernel_h", "%lld", (long long)kh) ||
	       cg_attr(c, o, "kernel_w", "%lld", (long long)kw) ||
	       cg_attr(c, o, "stride_h", "%lld", (long long)sh) ||
	       cg_attr(c, o, "stride_w", "%lld", (long long)sw) ||
	       cg_attr(c, o, "pad_top", "%lld", (long long)p[0]) ||
	       cg_attr(c, o, "pad_left", "%lld", (long long)p[1]) ||
	       cg_attr(c, o, "pad_bottom", "%lld", (long long)p[2]) ||
	       cg_attr(c, o, "pad_right", "%lld", (long long)p[3]) ||
	       (dilation &&
		(cg_attr(c, o, "dilation_h", "%lld", (long long)dh) ||
		 cg_attr(c, o, "dilation_w", "%lld", (long long)dw))) ?
		       -ENOMEM : 0;
}

/* The host value of a parameter, constant argument or ttir.constant. */
static ttc_tensor *value_data(ttc_compiled *c, const ttc_value *v)
{
	ttc_func *owner = ttc_value_func_arg_owner(v);
	const ttc_op *def = ttc_value_def(v);
	const ttc_tensor *h;
	ttc_tensor *t;

	if (owner) {
		h = c->param ? c->param(c->param_arg, owner, ttc_value_index(v))
			     : NULL;
		return h ? ttc_tensor_clone(h) : NULL;
	}
	if (!def || strcmp(ttc_op_name(def), "ttir.constant"))
		return NULL;
	t = ttc_tensor_new(c->ctx, ttc_value_type(v));
	for (size_t k = 0; t && k < t->numel; k++)
		ttc_tensor_set(t, k, ttc_attr_dense_get(ttc_op_attr(def, "value"),
							k));
	return t;
}

/* A new parameter tensor of shape dims holding vals (float32). */
static int weight_tensor(ttc_compiled *c, const ttc_op *op,
			 const ttc_value *v, const char *suffix,
			 const int64_t *dims, unsigned rank,
			 const float *vals, unsigned *out)
{
	const ttc_type *t = ttc_tensor_type(c->ctx, dims, rank,
					    ttc_type_elem(ttc_value_type(v)),
					    NULL);
	ttc_tensor *h = ttc_tensor_new(c->ctx, t);
	const ttc_loc *l = ttc_value_func_arg_owner(v) ?
				   ttc_func_arg_loc(c->f, ttc_value_index(v)) :
				   NULL;
	const char *base = l && ttc_loc_kind(l) == TTC_LOC_NAME ?
				   ttc_loc_str(l) : "w";
	int ret;

	if (!h)
		return -ENOMEM;
	for (size_t k = 0; k < h->numel; k++)
		ttc_tensor_set(h, k, vals[k]);
	ret = cg_add_typed(c, t, NULL, false,
			   cg_tame(c, cg_printf(c, "%s.%s", base, suffix), "w",
				   c->ntensors, true),
			   TT_MODEL_PARAM, op, out);
	if (!ret)
		ret = cg_set_data(c, *out, h, op);
	ttc_tensor_free(h);
	return ret;
}

static int conv_weights(ttc_compiled *c, const ttc_op *op, struct cg_op *o,
			int64_t groups)
{
	const ttc_value *wv = ttc_op_operand(op, 1);
	const int64_t *w = dims_of(wv);
	int64_t cin = dims_of(ttc_op_operand(op, 0))[3];
	int64_t rows = w[2] * w[3] * ((cin + 31) / 32 * 32);
	ttc_tensor *h = value_data(c, wv);
	float *src, *m;
	int ret;

	if (!h)
		return cg_error(c, op, -ENOTSUP,
				"the weights must be a parameter or a constant (the device takes them transformed)");
	src = malloc(h->numel * sizeof(float) + 1);
	m = malloc((size_t)(rows * w[0]) * sizeof(float) + 1);
	for (size_t k = 0; src && k < h->numel; k++)
		src[k] = (float)ttc_tensor_get(h, k);
	ret = src && m ? tt_conv2d_weights_host(src, (uint32_t)w[0],
						(uint32_t)cin, (uint32_t)w[2],
						(uint32_t)w[3], (uint32_t)groups,
						false, m, (size_t)(rows * w[0]))
		       : -ENOMEM;
	if (ret)
		ret = cg_error(c, op, ret, "weights: %s", tt_last_error());
	else
		ret = weight_tensor(c, op, wv, "conv",
				    (int64_t[]){1, 1, rows, w[0]}, 4, m,
				    &o->in[1]);
	free(src);
	free(m);
	ttc_tensor_free(h);
	return ret;
}

static int conv_bias(ttc_compiled *c, const ttc_op *op, struct cg_op *o)
{
	const ttc_value *bv = ttc_op_operand(op, 2);
	ttc_tensor *h = value_data(c, bv);
	float *vals;
	int ret;

	if (!h)
		return cg_error(c, op, -ENOTSUP,
				"the bias must be a parameter or a constant");
	vals = malloc(h->numel * sizeof(float) + 1);
	for (size_t k = 0; vals && k < h->numel; k++)
		vals[k] = (float)ttc_tensor_get(h, k);
	ret = vals ? weight_tensor(c, op, bv, "bias",
				   (int64_t[]){(int64_t)h->numel}, 1, vals,
				   &o->in[2])
		   : -ENOMEM;
	free(vals);
	ttc_tensor_free(h);
	return ret;
}

static int lower_conv(ttc_compiled *c, const ttc_op *op, struct cg_op *o)
{
	static const char *const layout[] = {"batch_dim", "height_dim",
					     "width_dim", "channel_dim"};
	const int64_t *w = dims_of(ttc_op_operand(op, 1));
	const ttc_attr *g = ttc_op_attr(op, "groups");
	int64_t groups = g ? ttc_attr_int(g) : 1;
	int ret;

	for (int i = 0; i < 4; i++) {
		const ttc_attr *a = ttc_op_attr(op, layout[i]);

		if (a && ttc_attr_int(a) != (i == 0 ? 0 : i == 3 ? 3 : i))
			return cg_error(c, op, -ENOTSUP,
					"%s %lld: the device takes NHWC only",
					layout[i], (long long)ttc_attr_int(a));
	}
	ret = window_attrs(c, op, o, w[2], w[3], true);
	if (!ret)
		ret = cg_attr(c, o, "groups", "%lld", (long long)groups);
	if (!ret)
		ret = conv_weights(c, op, o, groups);
	o->op.nin = 2;
	if (!ret && ttc_op_num_operands(op) > 2) {
		ret = conv_bias(c, op, o);
		o->op.nin = 3;
	}
	return ret;
}

static int lower_pool(ttc_compiled *c, const ttc_op *op, struct cg_op *o,
		      bool max)
{
	const ttc_attr *cm = ttc_op_attr(op, "ceil_mode");
	const ttc_attr *cip = ttc_op_attr(op, "count_include_pad");
	int64_t kh, kw;
	int ret = hw(c, op, "kernel", 1, &kh, &kw);

	if (!ret)
		ret = window_attrs(c, op, o, kh, kw, max);
	if (!ret && cm)
		ret = cg_attr(c, o, "ceil_mode", "%s",
			      ttc_attr_bool(cm) ? "true" : "false");
	if (!ret && cip && !max)
		ret = cg_attr(c, o, "count_include_pad", "%s",
			      ttc_attr_bool(cip) ? "true" : "false");
	return ret;
}

int cg_lower_window(ttc_compiled *c, const ttc_op *op, size_t index,
		    struct cg_op *o)
{
	const char *n = ttc_op_name(op);
	const int64_t *x = dims_of(ttc_op_operand(op, 0));

	(void)index;
	if (ttc_op_attr(op, "flattened_compat_info"))
		return cg_error(c, op, -ENOTSUP,
				"flattened_compat_info: give the NHWC form");
	if (!strcmp(n, "ttir.conv2d"))
		return lower_conv(c, op, o);
	if (!strcmp(n, "ttir.max_pool2d") || !strcmp(n, "ttir.avg_pool2d"))
		return lower_pool(c, op, o, !strcmp(n, "ttir.max_pool2d"));
	return cg_attr(c, o, "batch", "%lld", (long long)x[0]) ||
			       cg_attr(c, o, "in_h", "%lld", (long long)x[1]) ||
			       cg_attr(c, o, "in_w", "%lld", (long long)x[2]) ?
		       -ENOMEM : 0;
}

/* The record kind of a window op. */
const char *cg_window_kind(const ttc_op *op)
{
	const char *n = ttc_op_name(op);

	if (!strcmp(n, "ttir.conv2d"))
		return "conv2d";
	if (!strcmp(n, "ttir.max_pool2d"))
		return "max_pool2d";
	if (!strcmp(n, "ttir.avg_pool2d"))
		return "avg_pool2d";
	return "global_avg_pool";
}
