// SPDX-License-Identifier: Apache-2.0
/*
 * Reductions: ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd and
 * those made of an elementwise step around a sum (ReduceL1, ReduceL2,
 * ReduceSumSquare, ReduceLogSum, ReduceLogSumExp); ArgMax and ArgMin.
 * The axes are an attribute, except ReduceSum's from opset 13 (an input);
 * no axes means every dimension.
 */
#include <string.h>

#include "internal.h"

static bool is_int(ttc_value *v)
{
	return ttc_type_kind(onx_elem(v)) == TTC_TYPE_INT;
}

/* ---- Reduce* ---- */

/* The node's axes, normalized and sorted into dims: their count; every
 * dimension when none are given, unless noop_with_empty_axes (then
 * *noop). Negative errno with a diagnostic. */
static int reduce_axes(struct onx *im, unsigned rank, int64_t *dims,
		       bool *noop)
{
	int64_t axes[TTC_MAX_RANK];
	bool red[TTC_MAX_RANK] = {false};
	int n, k = 0;

	*noop = false;
	if (!strcmp(im->node->op_type, "ReduceSum") && im->opset >= 13) {
		n = onx_has_in(im, 1) ?
			    onx_in_ints(im, 1, axes, TTC_MAX_RANK) : 0;
		if (n < 0)
			return n;
		if (!n && onx_attr_int(im, "noop_with_empty_axes", 0)) {
			*noop = true;
			return 0;
		}
	} else {
		n = onx_attr_ints(im, "axes", axes, TTC_MAX_RANK);
		if (n == -ENOENT)
			n = 0;
		if (n < 0)
			return n;
	}
	for (int i = 0; i < n; i++) {
		int a = onx_axis(im, axes[i], rank, "axis");

		if (a < 0)
			return -EINVAL;
		if (red[a])
			return onx_fail(im, "axis %d is given twice", a);
		red[a] = true;
	}
	for (unsigned d = 0; d < rank; d++)
		if (red[d] || !n)
			dims[k++] = d;
	return k;
}

/* log(sum(exp(x))) as m + log(sum(exp(x - m))), m the maximum, so that
 * large inputs do not overflow; integers go through f32 (exp of an int
 * stored as an int would truncate). */
static ttc_value *log_sum_exp(struct onx *im, ttc_value *x,
			      const int64_t *dims, size_t n)
{
	const ttc_type *elem = onx_elem(x);

	if (is_int(x))
		x = onx_typecast(im, x, ttc_float_type(im->ctx, TTC_F32));
	ttc_value *m = onx_reduce(im, "ttir.max", x, dims, n, true);
	ttc_value *e = onx_op1(im, "ttir.exp", onx_op2(im, "ttir.subtract", x, m));
	ttc_value *s = onx_op1(im, "ttir.log",
			     onx_reduce(im, "ttir.sum", e, dims, n, true));

	return onx_typecast(im, onx_op2(im, "ttir.add", s, m), elem);
}

/* Each Reduce* as (elementwise step before, reduction, step after). */
static const struct {
	const char *onnx, *pre, *red, *post;
} reductions[] = {
	{"ReduceSum", NULL, "ttir.sum", NULL},
	{"ReduceMean", NULL, "ttir.mean", NULL},
	{"ReduceMax", NULL, "ttir.max", NULL},
	{"ReduceMin", NULL, "ttir.min", NULL},
	{"ReduceProd", NULL, "ttir.prod", NULL},
	{"ReduceL1", "ttir.abs", "ttir.sum", NULL},
	{"ReduceL2", "square", "ttir.sum", "ttir.sqrt"},
	{"ReduceSumSquare", "square", "ttir.sum", NULL},
	{"ReduceLogSum", NULL, "ttir.sum", "ttir.log"},
	{"ReduceLogSumExp", NULL, NULL, NULL},
};

static int reduce(struct onx *im)
{
	const char *t = im->node->op_type;
	ttc_value *x = onx_in(im, 0), *y;
	unsigned rank = onx_in_rank(im, 0);
	bool keep = onx_attr_int(im, "keepdims", 1) != 0, noop;
	int64_t dims[TTC_MAX_RANK];
	size_t r = 0;

	if (!x)
		return -EINVAL;
	int n = reduce_axes(im, rank, dims, &noop);

	if (n < 0)
		return n;
	if (noop)
		return onx_out(im, 0, x);
	while (strcmp(reductions[r].onnx, t))
		r++;
	if (!strcmp(t, "ReduceLogSumExp")) {
		/* reduced with keep_dim, then the kept ones dropped */
		const ttc_type *xt = ttc_value_type(x);
		int64_t od[TTC_MAX_RANK];
		unsigned on = 0;

		for (unsigned d = 0, k = 0; d < rank; d++) {
			bool red = k < (unsigned)n && dims[k] == d;

			k += red;
			if (!red || keep)
				od[on++] = red ? 1 : ttc_type_dims(xt)[d];
		}
		return onx_out(im, 0, onx_reshape(im, log_sum_exp(im, x, dims,
								  (size_t)n),
						  od, on));
	}
	y = x;
	if (reductions[r].pre && !strcmp(reductions[r].pre, "square"))
		y = onx_op2(im, "ttir.multiply", x, x);
	else if (reductions[r].pre)
		y = onx_op1(im, reductions[r].pre, x);
	y = onx_reduce(im, reductions[r].red, y, dims, (size_t)n, keep);
	if (reductions[r].post)
		y = onx_op1(im, reductions[r].post, y);
	return onx_out(im, 0, y);
}

/* ---- ArgMax, ArgMin ---- */

/* ArgMin is ArgMax of an order-reversing map of x: -x for floats, ~x for
 * integers (exact, where -x overflows at the minimum and breaks unsigned
 * types). select_last_index is ArgMax of x reversed along the axis,
 * counted from the end. The indices are int64. */
static int arg_reduce(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	unsigned rank = onx_in_rank(im, 0);
	bool keep = onx_attr_int(im, "keepdims", 1) != 0;
	bool last = onx_attr_int(im, "select_last_index", 0) != 0;
	int a = onx_axis(im, onx_attr_int(im, "axis", 0), rank, "axis");

	if (!x || a < 0)
		return -EINVAL;
	if (ttc_type_kind(onx_elem(x)) == TTC_TYPE_INT &&
	    ttc_type_width(onx_elem(x)) == 1)
		return onx_unsupported(im, "bool input");
	if (!strcmp(im->node->op_type, "ArgMin"))
		x = onx_op1(im, is_int(x) ? "ttir.bitwise_not" : "ttir.neg", x);
	if (last) {
		int64_t d = a;
		struct ttc_named_attr e = {"dimensions", onx_i64s(im, &d, 1)};

		x = onx_build(im, "ttir.reverse", &x, 1, onx_props(im, &e, 1));
	}
	int64_t d = a, len = ttc_type_dims(ttc_value_type(x))[a];
	const ttc_type *i32 = onx_elem_type(im->ctx,
					    ONNX__TENSOR_PROTO__DATA_TYPE__INT32);

	ttc_builder_output_elem(im->b, i32);
	ttc_value *y = onx_reduce(im, "ttir.argmax", x, &d, 1, keep);

	if (last && y)
		y = onx_op2(im, "ttir.subtract",
			   onx_const_scalar(im, i32, (double)(len - 1)), y);
	return onx_out(im, 0,
		       onx_typecast(im, y,
				    onx_elem_type(im->ctx,
						  ONNX__TENSOR_PROTO__DATA_TYPE__INT64)));
}

#define REDUCE(name) {name, reduce, "axes,keepdims", 7, 17}

const struct onx_op onx_ops_reduce[] = {
	{"ReduceSum", reduce, "axes,keepdims", 7, 12},
	{"ReduceSum", reduce, "keepdims,noop_with_empty_axes", 13, 0},
	REDUCE("ReduceMean"),
	REDUCE("ReduceMax"),
	REDUCE("ReduceMin"),
	REDUCE("ReduceProd"),
	REDUCE("ReduceL1"),
	REDUCE("ReduceL2"),
	REDUCE("ReduceSumSquare"),
	REDUCE("ReduceLogSum"),
	REDUCE("ReduceLogSumExp"),
	{"ArgMax", arg_reduce, "axis,keepdims", 7, 11},
	{"ArgMax", arg_reduce, "axis,keepdims,select_last_index", 12, 0},
	{"ArgMin", arg_reduce, "axis,keepdims", 7, 11},
	{"ArgMin", arg_reduce, "axis,keepdims,select_last_index", 12, 0},
	{NULL, NULL, NULL, 0, 0},
};
