// SPDX-License-Identifier: Apache-2.0
/*
 * What converters share: the node's inputs (as IR values, or as values
 * known at import time), its outputs, ops built at the node's location,
 * attribute dictionaries, and the table of converters.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

/* ---- inputs and outputs ---- */

bool onx_has_in(struct onx *im, size_t i)
{
	return i < im->node->n_input && im->node->input[i][0];
}

ttc_value *onx_in(struct onx *im, size_t i)
{
	ttc_value *v;

	if (!onx_has_in(im, i)) {
		onx_fail(im, "input %zu is missing", i);
		return NULL;
	}
	v = onx_lookup(im, im->node->input[i]);
	if (!v)
		onx_fail(im, "input %zu ('%s') is not defined", i,
			 im->node->input[i]);
	return v;
}

const ttc_type *onx_in_type(struct onx *im, size_t i)
{
	ttc_value *v = onx_has_in(im, i) ? onx_lookup(im, im->node->input[i])
					 : NULL;

	return v ? ttc_value_type(v) : NULL;
}

unsigned onx_in_rank(struct onx *im, size_t i)
{
	const ttc_type *t = onx_in_type(im, i);

	return t ? ttc_type_rank(t) : 0;
}

const void *onx_data(struct onx *im, const ttc_value *v)
{
	return ttc_builder_data(im->b, v, NULL);
}

/* Input i as a host tensor view (not owned), or NULL with a diagnostic. */
static int known_input(struct onx *im, size_t i, ttc_tensor *view)
{
	ttc_value *v = onx_in(im, i);

	if (!v)
		return -EINVAL;
	view->data = (void *)onx_data(im, v);
	if (!view->data)
		return onx_unsupported(im, "input %zu ('%s') must be known at "
					   "import time (a constant, an "
					   "initializer, or computed from "
					   "them)", i, im->node->input[i]);
	view->type = ttc_value_type(v);
	view->numel = (size_t)ttc_type_numel(view->type);
	return 0;
}

int onx_in_ints(struct onx *im, size_t i, int64_t *out, size_t max)
{
	ttc_tensor view;
	int rc = known_input(im, i, &view);

	if (rc)
		return rc;
	if (ttc_type_kind(ttc_type_elem(view.type)) != TTC_TYPE_INT)
		return onx_fail(im, "input %zu ('%s') must hold integers", i,
				im->node->input[i]);
	if (view.numel > max)
		return onx_fail(im, "input %zu ('%s') has %zu values (at most "
				    "%zu)", i, im->node->input[i], view.numel, max);
	for (size_t k = 0; k < view.numel; k++) {
		if (ttc_type_elem_bytes(ttc_type_elem(view.type)) == 8)
			memcpy(&out[k], (const int64_t *)view.data + k, 8);
		else
			out[k] = (int64_t)ttc_tensor_get(&view, k);
	}
	return (int)view.numel;
}

int onx_in_scalar(struct onx *im, size_t i, double *out)
{
	ttc_tensor view;
	int rc = known_input(im, i, &view);

	if (rc)
		return rc;
	if (view.numel != 1)
		return onx_fail(im, "input %zu ('%s') must hold one value, it "
				    "has %zu", i, im->node->input[i], view.numel);
	*out = ttc_tensor_get(&view, 0);
	return 0;
}

int onx_out(struct onx *im, size_t i, ttc_value *v)
{
	if (!v)
		return -EINVAL;
	if (i >= im->node->n_output || !im->node->output[i][0])
		return 0; /* an optional output nobody reads */
	return onx_bind(im, im->node->output[i], v);
}

/* ---- building ---- */

ttc_value *onx_build(struct onx *im, const char *op, ttc_value *const *in,
		     size_t n, const ttc_attr *props)
{
	for (size_t i = 0; i < n; i++)
		if (!in[i])
			return NULL; /* the diagnostic is there already */
	return ttc_build(im->b, op, in, n, props);
}

ttc_value *onx_const(struct onx *im, const ttc_type *t, const void *raw)
{
	size_t nbytes = (size_t)ttc_type_numel(t) *
			ttc_type_elem_bytes(ttc_type_elem(t));

	if (nbytes > ONX_MAX_FOLD_BYTES) {
		onx_unsupported(im, "a constant of %zu bytes (at most %u)",
				nbytes, ONX_MAX_FOLD_BYTES);
		return NULL;
	}
	struct ttc_named_attr e = {
		/* hex when large, or empty (an empty tensor of huge dims
		 * would print as that many nested []) */
		"value", ttc_dense_attr(im->ctx, t, raw, nbytes, false,
					nbytes > 64 || !nbytes)};

	return onx_build(im, "ttir.constant", NULL, 0, onx_props(im, &e, 1));
}

ttc_tensor *onx_host_tensor(struct onx *im, const ttc_type *t)
{
	uint64_t n = 1, bytes;

	if (!t)
		return NULL;
	for (unsigned k = 0; k < ttc_type_rank(t); k++) {
		uint64_t d = (uint64_t)ttc_type_dims(t)[k];

		if (d && n > ONX_MAX_NUMEL / d) {
			onx_unsupported(im, "a constant of over 2^40 elements");
			return NULL;
		}
		n *= d;
	}
	bytes = n * ttc_type_elem_bytes(ttc_type_elem(t));
	if (bytes > ONX_MAX_FOLD_BYTES) {
		onx_unsupported(im, "a constant of %llu bytes (at most %u)",
				(unsigned long long)bytes, ONX_MAX_FOLD_BYTES);
		return NULL;
	}
	return ttc_tensor_new(im->ctx, t);
}

ttc_value *onx_const_scalar(struct onx *im, const ttc_type *elem, double v)
{
	const ttc_type *t = ttc_tensor_type(im->ctx, NULL, 0, elem, NULL);
	ttc_tensor *h = onx_host_tensor(im, t);
	ttc_value *c;

	if (!h)
		return NULL;
	ttc_tensor_set(h, 0, v);
	c = onx_const(im, t, h->data);
	ttc_tensor_free(h);
	return c;
}

ttc_value *onx_reshape(struct onx *im, ttc_value *x, const int64_t *dims,
		       unsigned rank)
{
	if (x && ttc_type_rank(ttc_value_type(x)) == rank &&
	    (!rank || !memcmp(ttc_type_dims(ttc_value_type(x)), dims,
			      rank * sizeof(*dims))))
		return x;
	return x ? ttc_reshape(im->b, x, dims, rank) : NULL;
}

ttc_value *onx_permute(struct onx *im, ttc_value *x, const int64_t *perm,
		       unsigned rank)
{
	bool identity = true;

	for (unsigned k = 0; k < rank; k++)
		identity &= perm[k] == k;
	if (identity || !x)
		return x;
	return ttc_permute(im->b, x, perm, rank);
}

ttc_value *onx_typecast(struct onx *im, ttc_value *x, const ttc_type *elem)
{
	if (!x || ttc_type_elem(ttc_value_type(x)) == elem)
		return x;
	ttc_builder_output_elem(im->b, elem);
	return onx_build(im, "ttir.typecast", &x, 1, NULL);
}

/* ---- NHWC twins ---- */

static const int64_t to_nhwc_perm[] = {0, 2, 3, 1};
static const int64_t to_nchw_perm[] = {0, 3, 1, 2};

ttc_value *onx_nhwc_of(ttc_value *x)
{
	ttc_op *def = x ? ttc_value_def(x) : NULL;
	const ttc_attr *p;
	int64_t perm[4];

	if (!def || strcmp(ttc_op_name(def), "ttir.permute"))
		return NULL;
	p = ttc_op_attr(def, "permutation");
	if (!p || ttc_attr_ints(p, perm, 4) != 4 ||
	    memcmp(perm, to_nchw_perm, sizeof(perm)))
		return NULL;
	return ttc_op_operand(def, 0);
}

ttc_value *onx_to_nhwc(struct onx *im, ttc_value *x)
{
	ttc_value *t = onx_nhwc_of(x);

	return t ? t : onx_permute(im, x, to_nhwc_perm, 4);
}

ttc_value *onx_from_nhwc(struct onx *im, ttc_value *y)
{
	return onx_permute(im, y, to_nchw_perm, 4);
}

/* An operand of an element-wise op on NCHW tensors, in NHWC: of rank 4
 * through its twin or a permute; of a lower rank (it broadcasts from the
 * right) made rank 4 first. Constants fold. */
static ttc_value *nhwc_operand(struct onx *im, ttc_value *v)
{
	const ttc_type *t = ttc_value_type(v);
	unsigned r = ttc_type_rank(t);
	int64_t d[4] = {1, 1, 1, 1};

	if (r == 4)
		return onx_to_nhwc(im, v);
	for (unsigned k = 0; k < r; k++)
		d[4 - r + k] = ttc_type_dims(t)[k];
	return onx_permute(im, onx_reshape(im, v, d, 4), to_nhwc_perm, 4);
}

ttc_value *onx_eltwise(struct onx *im, const char *op, ttc_value *const *in,
		       size_t n, const ttc_attr *props)
{
	ttc_value *t[4];
	bool twin = false;
	unsigned maxr = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned r;

		if (!in[i])
			return NULL;
		r = ttc_type_rank(ttc_value_type(in[i]));
		maxr = r > maxr ? r : maxr;
		twin |= r == 4 && onx_nhwc_of(in[i]);
	}
	if (!twin || maxr != 4 || n > 4)
		return onx_build(im, op, in, n, props);
	for (size_t i = 0; i < n; i++)
		if (!(t[i] = nhwc_operand(im, in[i])))
			return NULL;
	return onx_from_nhwc(im, onx_build(im, op, t, n, props));
}

/* ---- folding at import time ---- */

int onx_use_folding(struct onx *im)
{
	int rc = ttc_builder_use_goldens(im->b, TT_FLOAT32);

	ttc_builder_golden_limit(im->b, ONX_MAX_FOLD_BYTES);
	return rc;
}

/* ---- small helpers ---- */

const ttc_type *onx_elem(const ttc_value *v)
{
	return ttc_type_elem(ttc_value_type(v));
}

const int64_t *onx_dims(const ttc_value *v)
{
	return ttc_type_dims(ttc_value_type(v));
}

unsigned onx_rank(const ttc_value *v)
{
	return ttc_type_rank(ttc_value_type(v));
}

ttc_value *onx_op1(struct onx *im, const char *op, ttc_value *x)
{
	return x ? onx_build(im, op, &x, 1, NULL) : NULL;
}

ttc_value *onx_op2(struct onx *im, const char *op, ttc_value *a,
		   ttc_value *b)
{
	ttc_value *in[2] = {a, b};

	return onx_build(im, op, in, 2, NULL);
}

ttc_value *onx_op_scalar(struct onx *im, const char *op, ttc_value *x,
			 double c)
{
	return x ? onx_op2(im, op, x, onx_const_scalar(im, onx_elem(x), c)) :
		   NULL;
}

const ttc_attr *onx_dim_list(struct onx *im, const int64_t *d, size_t n)
{
	const ttc_type *i32 = ttc_int_type(im->ctx, 32, TTC_SIGNLESS);
	const ttc_attr *e[TTC_MAX_RANK];

	for (size_t i = 0; i < n && i < TTC_MAX_RANK; i++)
		e[i] = ttc_int_attr(im->ctx, d[i], i32);
	return ttc_array_attr(im->ctx, e, n < TTC_MAX_RANK ? n : TTC_MAX_RANK);
}

ttc_value *onx_reduce(struct onx *im, const char *op, ttc_value *x,
		      const int64_t *dims, size_t n, bool keep)
{
	struct ttc_named_attr e[] = {{"dim_arg", onx_dim_list(im, dims, n)},
				     {"keep_dim", onx_bool(im, keep)}};

	return x ? onx_build(im, op, &x, 1, onx_props(im, e, 2)) : NULL;
}

/* ---- attribute dictionaries ---- */

const ttc_attr *onx_props(struct onx *im, const struct ttc_named_attr *e,
			  size_t n)
{
	return ttc_dict_attr(im->ctx, e, n);
}

const ttc_attr *onx_i64(struct onx *im, int64_t v)
{
	return ttc_int_attr(im->ctx, v, NULL);
}

const ttc_attr *onx_i32(struct onx *im, int64_t v)
{
	return ttc_int_attr(im->ctx, v, ttc_int_type(im->ctx, 32, TTC_SIGNED));
}

const ttc_attr *onx_f32(struct onx *im, double v)
{
	return ttc_float_attr(im->ctx, v, ttc_float_type(im->ctx, TTC_F32));
}

const ttc_attr *onx_bool(struct onx *im, bool v)
{
	return ttc_bool_attr(im->ctx, v);
}

const ttc_attr *onx_i64s(struct onx *im, const int64_t *v, size_t n)
{
	return ttc_dense_int_array_attr(
		im->ctx, ttc_int_type(im->ctx, 64, TTC_SIGNLESS), v, n);
}

const ttc_attr *onx_i32s(struct onx *im, const int64_t *v, size_t n)
{
	return ttc_dense_int_array_attr(
		im->ctx, ttc_int_type(im->ctx, 32, TTC_SIGNLESS), v, n);
}

int onx_axis(struct onx *im, int64_t axis, unsigned rank, const char *what)
{
	if (axis < -(int64_t)rank || axis >= (int64_t)rank) {
		onx_fail(im, "%s %lld is out of range for rank %u", what,
			 (long long)axis, rank);
		return -1;
	}
	return (int)(axis < 0 ? axis + rank : axis);
}

/* ---- the converters ---- */

static const struct onx_op *const tables[] = {
	onx_ops_eltwise, onx_ops_math, onx_ops_shape, onx_ops_nn,
	onx_ops_reduce,
};

const struct onx_op *onx_find_op(const char *type, int64_t opset)
{
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		for (const struct onx_op *op = tables[t]; op->type; op++)
			if (!strcmp(op->type, type) && opset >= op->since &&
			    (!op->until || opset <= op->until))
				return op;
	return NULL;
}

int ttc_onnx_op_at(size_t i, struct ttc_onnx_op_info *out)
{
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		for (const struct onx_op *op = tables[t]; op->type; op++)
			if (!i--) {
				*out = (struct ttc_onnx_op_info){
					op->type, op->attrs ? op->attrs : "",
					op->since, op->until};
				return 0;
			}
	return -ERANGE;
}
