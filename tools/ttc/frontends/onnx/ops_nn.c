// SPDX-License-Identifier: Apache-2.0
/*
 * Convolutions, pools and normalisations. ONNX is NCHW, TTIR's
 * convolutions and pools NHWC: each is a permute in, the TTIR op, a
 * permute back (the canonicalizer folds the pairs between two of them).
 * 1-D ones go through 2-D with H = 1; 3-D ones are not supported.
 * BatchNormalization after a convolution whose weights are known folds
 * into it; otherwise it is x * s + t per channel.
 */
#include <math.h>
#include <string.h>

#include "internal.h"

/* ---- layouts ---- */

/* NCHW to NHWC; 1-D [N, C, L] as [N, 1, L, C]. */
static ttc_value *to_nhwc(struct onx *im, ttc_value *x)
{
	static const int64_t perm[] = {0, 2, 3, 1};

	if (x && onx_rank(x) == 4)
		return onx_to_nhwc(im, x);
	if (x && onx_rank(x) == 3) {
		const int64_t *d = onx_dims(x);

		x = onx_reshape(im, x, (const int64_t[]){d[0], d[1], 1, d[2]},
				4);
	}
	return onx_permute(im, x, perm, 4);
}

/* NHWC back to NCHW, of rank 3 when the node was 1-D. */
static ttc_value *from_nhwc(struct onx *im, ttc_value *y, unsigned rank)
{
	y = onx_from_nhwc(im, y);
	if (y && rank == 3) {
		const int64_t *d = onx_dims(y);

		y = onx_reshape(im, y, (const int64_t[]){d[0], d[1], d[3]}, 3);
	}
	return y;
}

/* [C] as [C, 1, ...] for an input of rank rank (broadcast per channel);
 * a tensor of more dims (BatchNormalization-7's spatial = 0) as is. */
static ttc_value *per_channel(struct onx *im, ttc_value *v, unsigned rank)
{
	int64_t d[TTC_MAX_RANK];

	if (!v || onx_rank(v) > 1 || rank < 2)
		return v;
	d[0] = ttc_type_numel(ttc_value_type(v));
	for (unsigned k = 1; k + 1 < rank; k++)
		d[k] = 1;
	return onx_reshape(im, v, d, rank - 1);
}

/* ---- window geometry ---- */

/* A conv or pool window in the 2-D form: [h, w] (a 1-D node's h is 1),
 * padding [top, left, bottom, right]. */
struct win {
	unsigned nsp; /* the node's spatial dims: 1 or 2 */
	int64_t in[2], k[2], s[2], d[2], p[4];
};

/* The input's rank: 3 or 4 (1-D or 2-D), 3-D unsupported. */
static int check_rank(struct onx *im, ttc_value *x, const char *what)
{
	unsigned r = onx_rank(x);

	if (r == 5)
		return onx_unsupported(im, "3-D %s (a rank-5 input)", what);
	if (r != 3 && r != 4)
		return onx_fail(im, "input 0 has rank %u (3 or 4 expected: N, "
				    "C and 1 or 2 spatial dims)", r);
	return 0;
}

/* Attribute name's nsp values (each >= min) into v[2] as [h, w]; def
 * where absent (and a 1-D node's h). */
static int spatial_attr(struct onx *im, const char *name, unsigned nsp,
			int64_t def, int64_t min, int64_t *v)
{
	int64_t a[TTC_MAX_RANK];
	int n = onx_attr_ints(im, name, a, TTC_MAX_RANK);

	v[0] = v[1] = def;
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return n;
	if ((unsigned)n != nsp)
		return onx_fail(im, "attribute '%s' has %d values for %u "
				    "spatial dims", name, n, nsp);
	for (int i = 0; i < n; i++)
		if (a[i] < min)
			return onx_fail(im, "attribute '%s' value %lld is "
					    "below %lld", name,
					(long long)a[i], (long long)min);
	memcpy(v + 2 - nsp, a, nsp * sizeof(*a));
	return 0;
}

/* pads [begin..., end...] into w->p. */
static int pads_attr(struct onx *im, struct win *w)
{
	int64_t a[2 * TTC_MAX_RANK];
	int n = onx_attr_ints(im, "pads", a, 2 * TTC_MAX_RANK);
	unsigned nsp = w->nsp;

	memset(w->p, 0, sizeof(w->p));
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return n;
	if ((unsigned)n != 2 * nsp)
		return onx_fail(im, "attribute 'pads' has %d values for %u "
				    "spatial dims", n, nsp);
	for (unsigned i = 0; i < nsp; i++) {
		if (a[i] < 0 || a[nsp + i] < 0)
			return onx_unsupported(im, "negative 'pads'");
		w->p[2 - nsp + i] = a[i];
		w->p[4 - nsp + i] = a[nsp + i];
	}
	return 0;
}

/* Splits total padding between the two sides of dim i, the extra one at
 * the end when end_big. */
static void split_pad(struct win *w, int i, int64_t total, bool end_big)
{
	int64_t small = total / 2;

	w->p[i] = end_big ? small : total - small;
	w->p[i + 2] = end_big ? total - small : small;
}

/* auto_pad: NOTSET keeps pads; VALID none; SAME_UPPER and SAME_LOWER the
 * padding giving ceil(in / stride) outputs, the odd one at the end for
 * SAME_UPPER. */
static int auto_pad(struct onx *im, struct win *w)
{
	const char *ap = onx_attr_str(im, "auto_pad", "NOTSET");
	bool upper = !strcmp(ap, "SAME_UPPER");

	if (!strcmp(ap, "NOTSET"))
		return 0;
	if (w->p[0] || w->p[1] || w->p[2] || w->p[3])
		return onx_fail(im, "attributes 'pads' and 'auto_pad' %s "
				    "together", ap);
	if (!strcmp(ap, "VALID"))
		return 0;
	if (!upper && strcmp(ap, "SAME_LOWER"))
		return onx_unsupported(im, "attribute 'auto_pad' %s", ap);
	for (int i = 0; i < 2; i++) {
		int64_t out = (w->in[i] + w->s[i] - 1) / w->s[i];
		int64_t ek = (w->k[i] - 1) * w->d[i] + 1;
		int64_t total = (out - 1) * w->s[i] + ek - w->in[i];

		split_pad(w, i, total > 0 ? total : 0, upper);
	}
	return 0;
}

/* The window of input x (rank 3 or 4) and kernel k[nsp]: strides,
 * dilations (when dil; else 1), pads and auto_pad. */
static int window(struct onx *im, ttc_value *x, const int64_t *k, bool dil,
		  struct win *w)
{
	int rc;

	memset(w, 0, sizeof(*w));
	w->nsp = onx_rank(x) - 2;
	w->in[0] = w->k[0] = 1;
	memcpy(w->in + 2 - w->nsp, onx_dims(x) + 2, w->nsp * sizeof(*k));
	memcpy(w->k + 2 - w->nsp, k, w->nsp * sizeof(*k));
	if ((rc = spatial_attr(im, "strides", w->nsp, 1, 1, w->s)))
		return rc;
	if (dil && (rc = spatial_attr(im, "dilations", w->nsp, 1, 1, w->d)))
		return rc;
	if (!dil)
		w->d[0] = w->d[1] = 1;
	if ((rc = pads_attr(im, w)))
		return rc;
	return auto_pad(im, w);
}

/* kernel_shape, when given, is the weight's spatial dims. */
static int check_kernel(struct onx *im, ttc_value *wt)
{
	int64_t k[TTC_MAX_RANK];
	int n = onx_attr_ints(im, "kernel_shape", k, TTC_MAX_RANK);
	unsigned nsp = onx_rank(wt) - 2;

	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return n;
	if ((unsigned)n != nsp || memcmp(k, onx_dims(wt) + 2, nsp * sizeof(*k)))
		return onx_fail(im, "attribute 'kernel_shape' does not match "
				    "the weight's spatial dims");
	return 0;
}

/* ---- Conv, ConvTranspose ---- */

static void conv_params(const struct win *w, int64_t group,
			struct ttc_conv2d_params *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < 2; i++) {
		p->stride[i] = (int32_t)w->s[i];
		p->dilation[i] = (int32_t)w->d[i];
	}
	for (int i = 0; i < 4; i++)
		p->padding[i] = (int32_t)w->p[i];
	p->groups = (int32_t)group;
}

/* The weight in 2-D form: a 1-D one's [A, B, K] as [A, B, 1, K]. */
static ttc_value *weight_2d(struct onx *im, ttc_value *wt)
{
	const int64_t *d = onx_dims(wt);

	if (onx_rank(wt) != 3)
		return wt;
	return onx_reshape(im, wt, (const int64_t[]){d[0], d[1], 1, d[2]}, 4);
}

/* The optional bias input 2 as [1, 1, 1, O] (tt-mlir's form); *b stays
 * NULL when absent. */
static int conv_bias(struct onx *im, int64_t o, ttc_value **b)
{
	*b = NULL;
	if (!onx_has_in(im, 2))
		return 0;
	*b = onx_in(im, 2);
	if (*b && ttc_type_numel(ttc_value_type(*b)) != o)
		return onx_fail(im, "input 2 (B) must hold the %lld output "
				    "channels", (long long)o);
	*b = onx_reshape(im, *b, (const int64_t[]){1, 1, 1, o}, 4);
	return *b ? 0 : -EINVAL;
}

/* The weight (input 1) and group of a convolution on x. */
static int conv_operands(struct onx *im, ttc_value *x, ttc_value **wt,
			 int64_t *group)
{
	int rc;

	*wt = onx_in(im, 1);
	*group = onx_attr_int(im, "group", 1);
	if (!*wt)
		return -EINVAL;
	if ((rc = check_rank(im, x, im->node->op_type)))
		return rc;
	if (onx_rank(*wt) != onx_rank(x))
		return onx_fail(im, "the weight has rank %u, the input %u",
				onx_rank(*wt), onx_rank(x));
	if (*group < 1)
		return onx_fail(im, "attribute 'group' is %lld",
				(long long)*group);
	return check_kernel(im, *wt);
}

static int conv(struct onx *im)
{
	ttc_value *x = onx_in(im, 0), *wt, *b, *y;
	struct ttc_conv2d_params p;
	struct win w;
	int64_t group;
	int rc;

	if (!x)
		return -EINVAL;
	if ((rc = conv_operands(im, x, &wt, &group)) ||
	    (rc = window(im, x, onx_dims(wt) + 2, true, &w)) ||
	    (rc = conv_bias(im, onx_dims(wt)[0], &b)))
		return rc;
	conv_params(&w, group, &p);
	y = ttc_conv2d(im->b, to_nhwc(im, x), weight_2d(im, wt), b, &p);
	return onx_out(im, 0, from_nhwc(im, y, onx_rank(x)));
}

/* ConvTranspose's padding from output_shape or SAME_*: total =
 * stride * (in - 1) + output_padding + (k - 1) * dilation + 1 - out,
 * split with the odd one at the start, or at the end for SAME_UPPER
 * (opset 11; before, the other way round). An output larger than that
 * grows at the end (as ONNX's reference does), by output_padding. */
static int conv_t_pads(struct onx *im, struct win *w, int64_t *op)
{
	const char *ap = onx_attr_str(im, "auto_pad", "NOTSET");
	bool upper = !strcmp(ap, "SAME_UPPER");
	int64_t os[TTC_MAX_RANK + 2], out[2];
	int n = onx_attr_ints(im, "output_shape", os, TTC_MAX_RANK + 2);
	unsigned nsp = w->nsp;
	int rc;

	if (n < 0 && n != -ENOENT)
		return n;
	if (n == -ENOENT && (!strcmp(ap, "NOTSET") || !strcmp(ap, "VALID")))
		return !strcmp(ap, "VALID") ? 0 : pads_attr(im, w);
	if (!upper && strcmp(ap, "SAME_LOWER") && strcmp(ap, "NOTSET") &&
	    strcmp(ap, "VALID"))
		return onx_unsupported(im, "attribute 'auto_pad' %s", ap);
	if (n >= 0 && (unsigned)n != nsp && (unsigned)n != nsp + 2)
		return onx_fail(im, "attribute 'output_shape' has %d values "
				    "for %u spatial dims", n, nsp);
	if ((rc = pads_attr(im, w)))
		return rc;
	for (int i = 0; i < 2; i++) {
		out[i] = w->in[i] * w->s[i];
		if (n >= 0 && i >= 2 - (int)nsp)
			out[i] = os[n - 2 + i];
		int64_t total = w->s[i] * (w->in[i] - 1) + op[i] +
				(w->k[i] - 1) * w->d[i] + 1 - out[i];

		if (total < 0)
			op[i] -= total;
		split_pad(w, i, total > 0 ? total : 0,
			  (im->opset >= 11) == upper);
	}
	return 0;
}

static int conv_transpose(struct onx *im)
{
	ttc_value *x = onx_in(im, 0), *wt, *b, *y;
	struct ttc_conv2d_params p;
	struct win w;
	int64_t group, op[2];
	int rc;

	if (!x)
		return -EINVAL;
	if ((rc = conv_operands(im, x, &wt, &group)))
		return rc;
	memset(&w, 0, sizeof(w));
	w.nsp = onx_rank(x) - 2;
	w.in[0] = w.k[0] = 1;
	memcpy(w.in + 2 - w.nsp, onx_dims(x) + 2, w.nsp * sizeof(int64_t));
	memcpy(w.k + 2 - w.nsp, onx_dims(wt) + 2, w.nsp * sizeof(int64_t));
	if ((rc = spatial_attr(im, "strides", w.nsp, 1, 1, w.s)) ||
	    (rc = spatial_attr(im, "dilations", w.nsp, 1, 1, w.d)) ||
	    (rc = spatial_attr(im, "output_padding", w.nsp, 0, 0, op)) ||
	    (rc = conv_t_pads(im, &w, op)) ||
	    (rc = conv_bias(im, onx_dims(wt)[1] * group, &b)))
		return rc;
	conv_params(&w, group, &p);
	p.output_padding[0] = (int32_t)op[0];
	p.output_padding[1] = (int32_t)op[1];
	y = ttc_conv_transpose2d(im->b, to_nhwc(im, x), weight_2d(im, wt), b,
				 &p);
	return onx_out(im, 0, from_nhwc(im, y, onx_rank(x)));
}

/* ---- pools ---- */

/* MaxPool, AveragePool. With ceil_mode, TTIR (as PyTorch, and ONNX's
 * later text) drops a last window that would start in the end padding,
 * where ONNX 1.12's formula keeps it; no test case has such a window.
 * storage_order only orders Indices, which is not supported. */
static int pool(struct onx *im, bool max)
{
	ttc_value *x = onx_in(im, 0);
	int64_t k[TTC_MAX_RANK];
	struct win w;
	int n, rc;

	if (!x)
		return -EINVAL;
	if ((rc = check_rank(im, x, "pooling")))
		return rc;
	n = onx_attr_ints(im, "kernel_shape", k, TTC_MAX_RANK);
	if (n == -ENOENT)
		return onx_fail(im, "attribute 'kernel_shape' is missing");
	if (n >= 0 && (unsigned)n != onx_rank(x) - 2)
		return onx_fail(im, "attribute 'kernel_shape' has %d values "
				    "for %u spatial dims", n, onx_rank(x) - 2);
	if (n < 0 || (rc = window(im, x, k, max, &w)))
		return n < 0 ? n : rc;
	if (max && im->node->n_output > 1 && im->node->output[1][0])
		return onx_unsupported(im, "output 1 (Indices)");
	struct ttc_named_attr e[] = {
		{"ceil_mode", onx_bool(im, onx_attr_int(im, "ceil_mode", 0))},
		{"dilation", onx_i32s(im, w.d, 2)},
		{"kernel", onx_i32s(im, w.k, 2)},
		{"padding", onx_i32s(im, w.p, 4)},
		{"stride", onx_i32s(im, w.s, 2)},
		{"count_include_pad",
		 onx_bool(im, onx_attr_int(im, "count_include_pad", 0))},
	};
	ttc_value *y = to_nhwc(im, x);

	y = onx_build(im, max ? "ttir.max_pool2d" : "ttir.avg_pool2d", &y, 1,
		      onx_props(im, e, max ? 5 : 6));
	return onx_out(im, 0, from_nhwc(im, y, onx_rank(x)));
}

static int max_pool(struct onx *im)
{
	return pool(im, true);
}

static int average_pool(struct onx *im)
{
	return pool(im, false);
}

/* Global pools: a rank-4 input as mean (max) over H and W of NHWC with
 * keep_dim (the form the device lowers to its global average pool),
 * then [N, 1, 1, C] is [N, C, 1, 1] by a reshape; other ranks reduce
 * over the spatial dims in place. */
static int global_pool(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	bool max = !strcmp(im->node->op_type, "GlobalMaxPool");
	int dims[TTC_MAX_RANK];
	unsigned r;

	if (!x)
		return -EINVAL;
	r = onx_rank(x);
	if (r < 3)
		return onx_fail(im, "input 0 has rank %u (at least 3)", r);
	if (r == 4) {
		const int64_t *d = onx_dims(x);
		int64_t out[4] = {d[0], d[1], 1, 1};
		ttc_value *y = to_nhwc(im, x);

		y = max ? ttc_max(im->b, y, (const int[]){1, 2}, 2, true) :
			  ttc_mean(im->b, y, (const int[]){1, 2}, 2, true);
		return onx_out(im, 0, onx_reshape(im, y, out, 4));
	}
	for (unsigned k = 2; k < r; k++)
		dims[k - 2] = (int)k;
	return onx_out(im, 0, max ? ttc_max(im->b, x, dims, r - 2, true) :
				    ttc_mean(im->b, x, dims, r - 2, true));
}

/* ---- BatchNormalization ---- */

/* How many nodes read ONNX value name, the graph's outputs counted. */
static size_t consumers(struct onx *im, const char *name)
{
	const Onnx__GraphProto *g = im->model->graph;
	size_t n = 0;

	for (size_t i = 0; i < g->n_node; i++)
		for (size_t k = 0; k < g->node[i]->n_input; k++)
			n += !strcmp(g->node[i]->input[k], name);
	for (size_t i = 0; i < g->n_output; i++)
		n += !strcmp(g->output[i]->name, name);
	return n;
}

/* The ttir.conv2d under permute(conv2d) that made v, when v is a
 * convolution's output this importer made. */
static ttc_op *made_conv(ttc_value *v)
{
	ttc_op *p = ttc_value_def(v);
	int64_t perm[4];
	ttc_op *c;

	if (!p || strcmp(ttc_op_name(p), "ttir.permute") ||
	    ttc_attr_ints(ttc_op_attr(p, "permutation"), perm, 4) != 4 ||
	    perm[0] != 0 || perm[1] != 3 || perm[2] != 1 || perm[3] != 2)
		return NULL;
	c = ttc_value_def(ttc_op_operand(p, 0));
	return c && !strcmp(ttc_op_name(c), "ttir.conv2d") ? c : NULL;
}

/* The convolution c with weight W * s[o] and bias b * s + t: a new one
 * (the old one, now unread, is dropped at the end of the import). */
static ttc_value *fold_bn(struct onx *im, ttc_op *c, ttc_value *s,
			  ttc_value *t)
{
	ttc_value *wt = ttc_op_operand(c, 1);
	int64_t o = onx_dims(wt)[0];
	ttc_value *in[3] = {ttc_op_operand(c, 0), NULL, NULL};
	ttc_value *bs = onx_reshape(im, s, (const int64_t[]){1, 1, 1, o}, 4);

	in[1] = onx_op2(im, "ttir.multiply", wt,
		      onx_reshape(im, s, (const int64_t[]){o, 1, 1, 1}, 4));
	in[2] = onx_reshape(im, t, (const int64_t[]){1, 1, 1, o}, 4);
	if (ttc_op_num_operands(c) > 2)
		in[2] = onx_op2(im, "ttir.add",
			      onx_op2(im, "ttir.multiply", ttc_op_operand(c, 2),
				    bs),
			      in[2]);
	return from_nhwc(im, onx_build(im, "ttir.conv2d", in, 3,
				       ttc_op_props(c)),
			 4);
}

/* Whether the BatchNormalization on x can fold into the convolution
 * making it: its weights and bias known, s and t too, and the ONNX value
 * read by this node alone. */
static ttc_op *foldable_conv(struct onx *im, ttc_value *x, ttc_value *s,
			     ttc_value *t)
{
	ttc_op *c = made_conv(x);

	if (!c || !onx_data(im, s) || !onx_data(im, t) ||
	    !onx_data(im, ttc_op_operand(c, 1)) ||
	    (ttc_op_num_operands(c) > 2 &&
	     !onx_data(im, ttc_op_operand(c, 2))) ||
	    onx_rank(s) != 1 || consumers(im, im->node->input[0]) != 1)
		return NULL;
	return c;
}

/* Input i (scale, B, mean or var) in x's element type. */
static ttc_value *bn_param(struct onx *im, size_t i, ttc_value *x)
{
	return onx_typecast(im, onx_in(im, i), onx_elem(x));
}

static int batch_norm(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	double eps = onx_attr_float(im, "epsilon", 1e-5);

	if (!x)
		return -EINVAL;
	if (onx_attr_int(im, "training_mode", 0))
		return onx_unsupported(im, "training_mode 1 (only inference)");
	for (size_t i = 1; i < im->node->n_output; i++)
		if (im->node->output[i][0])
			return onx_unsupported(im, "output %zu (the running "
						   "statistics of training)",
					       i);
	if (im->opset < 9 && !onx_attr_int(im, "spatial", 1) &&
	    onx_rank(x) > 2 && onx_in_rank(im, 1) < 2)
		return onx_unsupported(im, "spatial 0 with parameters of one "
					   "dim");
	ttc_value *var = onx_op_scalar(im, "ttir.add", bn_param(im, 4, x), eps);
	ttc_value *s = onx_op2(im, "ttir.div", bn_param(im, 1, x),
			     onx_op1(im, "ttir.sqrt", var));
	ttc_value *t = onx_op2(im, "ttir.subtract", bn_param(im, 2, x),
			     onx_op2(im, "ttir.multiply", bn_param(im, 3, x), s));
	ttc_op *c = s && t ? foldable_conv(im, x, s, t) : NULL;

	if (c)
		return onx_out(im, 0, fold_bn(im, c, s, t));
	return onx_out(im, 0, onx_op2(im, "ttir.add",
				    onx_op2(im, "ttir.multiply", x,
					  per_channel(im, s, onx_rank(x))),
				    per_channel(im, t, onx_rank(x))));
}

/* ---- normalisations over trailing dims ---- */

/* ttir.layer_norm of x over its dims from axis on (one row each: the
 * device op normalises the last dim, so more are flattened into one),
 * with weight and bias (may be NULL) of those dims' shape. */
static ttc_value *norm_rows(struct onx *im, ttc_value *x, unsigned axis,
			    ttc_value *wt, ttc_value *b, double eps)
{
	const int64_t *d = onx_dims(x);
	unsigned r = onx_rank(x);
	int64_t shape[TTC_MAX_RANK], m = 1;

	for (unsigned k = 0; k < axis; k++)
		shape[k] = d[k];
	for (unsigned k = axis; k < r; k++)
		m *= d[k];
	shape[axis] = m;
	ttc_value *y = onx_reshape(im, x, shape, axis + 1);

	if (wt)
		wt = onx_reshape(im, wt, &m, 1);
	if (b)
		b = onx_reshape(im, b, &m, 1);
	y = ttc_layer_norm(im->b, y, wt, b, 1, (float)eps);
	return onx_reshape(im, y, d, r);
}

/* Whether v has exactly x's dims from axis on. */
static bool trailing_shape(ttc_value *v, ttc_value *x, unsigned axis)
{
	unsigned r = onx_rank(x);

	return onx_rank(v) == r - axis &&
	       !memcmp(onx_dims(v), onx_dims(x) + axis,
		       (r - axis) * sizeof(int64_t));
}

/* LayerNormalization's optional outputs: Mean and InvStdDev over the
 * dims from axis on, kept. */
static int norm_stats(struct onx *im, ttc_value *x, unsigned axis,
		      double eps)
{
	int dims[TTC_MAX_RANK];
	unsigned r = onx_rank(x), nd = r - axis;

	if (im->node->n_output < 2)
		return 0;
	for (unsigned k = 0; k < nd; k++)
		dims[k] = (int)(axis + k);
	ttc_value *mean = ttc_mean(im->b, x, dims, nd, true);
	ttc_value *dx = onx_op2(im, "ttir.subtract", x, mean);
	ttc_value *var = ttc_mean(im->b, onx_op2(im, "ttir.multiply", dx, dx),
				  dims, nd, true);
	ttc_value *inv = onx_op1(im, "ttir.rsqrt",
			      onx_op_scalar(im, "ttir.add", var, eps));

	if (onx_out(im, 1, mean))
		return -EINVAL;
	return im->node->n_output > 2 ? onx_out(im, 2, inv) : 0;
}

static int layer_norm(struct onx *im)
{
	ttc_value *x = onx_in(im, 0), *wt = onx_in(im, 1), *b = NULL;
	double eps = onx_attr_float(im, "epsilon", 1e-5);
	int axis;

	if (!x || !wt)
		return -EINVAL;
	axis = onx_axis(im, onx_attr_int(im, "axis", -1), onx_rank(x), "axis");
	if (axis < 0)
		return -EINVAL;
	if (onx_attr_int(im, "stash_type", 1) != 1)
		return onx_unsupported(im, "stash_type %lld (1, float, is)",
				       (long long)onx_attr_int(im, "stash_type",
							       1));
	if (onx_has_in(im, 2) && !(b = onx_in(im, 2)))
		return -EINVAL;
	/* a scale or bias broadcast to the normalised shape applies after */
	bool wfit = trailing_shape(wt, x, (unsigned)axis);
	bool bfit = !b || (wfit && trailing_shape(b, x, (unsigned)axis));
	ttc_value *y = norm_rows(im, x, (unsigned)axis, wfit ? wt : NULL,
				 bfit ? b : NULL, eps);

	if (!wfit)
		y = onx_op2(im, "ttir.multiply", y, wt);
	if (!bfit)
		y = onx_op2(im, "ttir.add", y, b);
	if (norm_stats(im, x, (unsigned)axis, eps))
		return -EINVAL;
	return onx_out(im, 0, y);
}

/* Per (n, c) over the spatial dims, then scale and B per channel. */
static int instance_norm(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	ttc_value *scale = onx_in(im, 1), *b = onx_in(im, 2);

	if (!x || !scale || !b)
		return -EINVAL;
	unsigned r = onx_rank(x);

	if (r < 3)
		return onx_fail(im, "input 0 has rank %u (at least 3)", r);
	ttc_value *y = norm_rows(im, x, 2, NULL, NULL,
				 onx_attr_float(im, "epsilon", 1e-5));

	y = onx_op2(im, "ttir.multiply", y, per_channel(im, scale, r));
	return onx_out(im, 0, onx_op2(im, "ttir.add", y, per_channel(im, b, r)));
}

/* x / norm(x) along axis, p 1 or 2. */
static int lp_norm(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t p = onx_attr_int(im, "p", 2);
	int axis;

	if (!x)
		return -EINVAL;
	axis = onx_axis(im, onx_attr_int(im, "axis", -1), onx_rank(x), "axis");
	if (axis < 0)
		return -EINVAL;
	if (p != 1 && p != 2)
		return onx_unsupported(im, "p %lld (1 and 2 are)",
				       (long long)p);
	ttc_value *n = p == 1 ? onx_op1(im, "ttir.abs", x) :
				onx_op2(im, "ttir.multiply", x, x);

	n = ttc_sum(im->b, n, &axis, 1, true);
	if (p == 2)
		n = onx_op1(im, "ttir.sqrt", n);
	return onx_out(im, 0, onx_op2(im, "ttir.div", x, n));
}

/* x / (bias + alpha / size * sum of x^2 over size channels)^beta: the
 * sum is an average pool over C (as the H of [N, C, H*W, 1]), counting
 * the zero padding. */
static int lrn(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t size = onx_attr_int(im, "size", 0);

	if (!x)
		return -EINVAL;
	unsigned r = onx_rank(x);
	const int64_t *d = onx_dims(x);
	int64_t hw = 1;

	if (size < 1 || r < 3)
		return onx_fail(im, "attribute 'size' %lld, or an input of "
				    "rank %u (at least 3)",
				(long long)size, r);
	for (unsigned k = 2; k < r; k++)
		hw *= d[k];
	int64_t one[2] = {1, 1}, kern[2] = {size, 1};
	int64_t pad[4] = {(size - 1) / 2, 0, size / 2, 0};
	struct ttc_named_attr e[] = {
		{"ceil_mode", onx_bool(im, false)},
		{"dilation", onx_i32s(im, one, 2)},
		{"kernel", onx_i32s(im, kern, 2)},
		{"padding", onx_i32s(im, pad, 4)},
		{"stride", onx_i32s(im, one, 2)},
		{"count_include_pad", onx_bool(im, true)},
	};
	ttc_value *sq = onx_op2(im, "ttir.multiply", x, x);

	sq = onx_reshape(im, sq, (const int64_t[]){d[0], d[1], hw, 1}, 4);
	sq = onx_build(im, "ttir.avg_pool2d", &sq, 1, onx_props(im, e, 6));
	sq = onx_reshape(im, sq, d, r);
	sq = onx_op_scalar(im, "ttir.add",
		       onx_op_scalar(im, "ttir.multiply", sq,
				 onx_attr_float(im, "alpha", 1e-4)),
		       onx_attr_float(im, "bias", 1.0));
	sq = onx_op_scalar(im, "ttir.pow", sq, onx_attr_float(im, "beta", 0.75));
	return onx_out(im, 0, onx_op2(im, "ttir.div", x, sq));
}

#define CONV_ATTRS "auto_pad,dilations,group,kernel_shape,pads,strides"
#define POOL_ATTRS "auto_pad,kernel_shape,pads,strides"

const struct onx_op onx_ops_nn[] = {
	{"Conv", conv, CONV_ATTRS, 7, 0},
	{"ConvTranspose", conv_transpose,
	 CONV_ATTRS ",output_padding,output_shape", 7, 0},
	{"MaxPool", max_pool, POOL_ATTRS, 7, 7},
	{"MaxPool", max_pool, POOL_ATTRS ",storage_order", 8, 9},
	{"MaxPool", max_pool,
	 POOL_ATTRS ",storage_order,ceil_mode,dilations", 10, 0},
	{"AveragePool", average_pool, POOL_ATTRS ",count_include_pad", 7, 9},
	{"AveragePool", average_pool,
	 POOL_ATTRS ",count_include_pad,ceil_mode", 10, 0},
	{"GlobalAveragePool", global_pool, "", 7, 0},
	{"GlobalMaxPool", global_pool, "", 7, 0},
	{"BatchNormalization", batch_norm, "epsilon,momentum,spatial", 7, 8},
	{"BatchNormalization", batch_norm, "epsilon,momentum", 9, 13},
	{"BatchNormalization", batch_norm, "epsilon,momentum,training_mode",
	 14, 0},
	{"InstanceNormalization", instance_norm, "epsilon", 7, 0},
	{"LayerNormalization", layer_norm, "axis,epsilon,stash_type", 17, 0},
	{"LpNormalization", lp_norm, "axis,p", 7, 0},
	{"LRN", lrn, "alpha,beta,bias,size", 7, 0},
	{NULL, NULL, NULL, 0, 0},
};
