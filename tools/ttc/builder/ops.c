// SPDX-License-Identifier: Apache-2.0
/*
 * One builder function per op: each turns its C arguments into the op's
 * attributes, named and typed as tt-mlir writes them, and calls
 * ttc_build.
 */
#include <string.h>

#include "internal.h"

#define TTC_BUILDER_UNARY(n) \
	ttc_value *ttc_##n(ttc_builder *b, ttc_value *x) \
	{ \
		return ttc_build(b, "ttir." #n, &x, 1, NULL); \
	}
#define TTC_BUILDER_BINARY(n) \
	ttc_value *ttc_##n(ttc_builder *b, ttc_value *x, ttc_value *y) \
	{ \
		ttc_value *ops[2] = { x, y }; \
		return ttc_build(b, "ttir." #n, ops, 2, NULL); \
	}
#include "ttc/builder_ops.def"

/* ---- attribute makers (b is never NULL past ttc_build's check) ---- */

static const ttc_type *ty(ttc_builder *b, unsigned w, enum ttc_signedness s)
{
	return ttc_int_type(b->ctx, w, s);
}

static const ttc_attr *i32(ttc_builder *b, int64_t v)
{
	return ttc_int_attr(b->ctx, v, ty(b, 32, TTC_SIGNLESS));
}

static const ttc_attr *si32(ttc_builder *b, int64_t v)
{
	return ttc_int_attr(b->ctx, v, ty(b, 32, TTC_SIGNED));
}

static const ttc_attr *f32(ttc_builder *b, double v)
{
	return ttc_float_attr(b->ctx, v, ttc_float_type(b->ctx, TTC_F32));
}

static const ttc_attr *arr(ttc_builder *b, unsigned w, const int64_t *v,
			   size_t n)
{
	return ttc_dense_int_array_attr(b->ctx, ty(b, w, TTC_SIGNLESS), v, n);
}

/* [v : i32, ...], the ArrayAttr form of reshape's shape and dim_arg. */
static const ttc_attr *i32_list(ttc_builder *b, const int64_t *v, size_t n)
{
	const ttc_attr *e[TTC_MAX_RANK];

	for (size_t i = 0; i < n && i < TTC_MAX_RANK; i++)
		e[i] = i32(b, v[i]);
	return ttc_array_attr(b->ctx, e, n < TTC_MAX_RANK ? n : TTC_MAX_RANK);
}

static const ttc_attr *dict(ttc_builder *b, struct ttc_named_attr *e,
			    size_t n)
{
	return ttc_dict_attr(b->ctx, e, n);
}

static ttc_value *op1(ttc_builder *b, const char *name, ttc_value *x,
		      struct ttc_named_attr *e, size_t n)
{
	if (!b)
		return NULL;
	return ttc_build(b, name, &x, 1, dict(b, e, n));
}

/* ---- elementwise with attributes ---- */

ttc_value *ttc_where(ttc_builder *b, ttc_value *cond, ttc_value *x,
		     ttc_value *y)
{
	ttc_value *ops[3] = { cond, x, y };

	return ttc_build(b, "ttir.where", ops, 3, NULL);
}

ttc_value *ttc_leaky_relu(ttc_builder *b, ttc_value *x, float slope)
{
	struct ttc_named_attr e[] = { { "parameter", b ? f32(b, slope) : NULL } };

	return op1(b, "ttir.leaky_relu", x, e, 1);
}

ttc_value *ttc_clamp_scalar(ttc_builder *b, ttc_value *x, float min,
			    float max)
{
	if (!b)
		return NULL;
	struct ttc_named_attr e[] = { { "max", f32(b, max) },
				      { "min", f32(b, min) } };

	return op1(b, "ttir.clamp_scalar", x, e, 2);
}

ttc_value *ttc_typecast(ttc_builder *b, ttc_value *x, const ttc_type *elem)
{
	ttc_builder_output_elem(b, elem);
	return ttc_build(b, "ttir.typecast", &x, 1, NULL);
}

/* ---- matrix products ---- */

ttc_value *ttc_matmul(ttc_builder *b, ttc_value *a, ttc_value *w)
{
	ttc_value *ops[2] = { a, w };

	return ttc_build(b, "ttir.matmul", ops, 2, NULL);
}

ttc_value *ttc_linear(ttc_builder *b, ttc_value *a, ttc_value *w,
		      ttc_value *bias)
{
	ttc_value *ops[3] = { a, w, bias };

	return ttc_build(b, "ttir.linear", ops, bias ? 3 : 2, NULL);
}

/* ---- convolutions and pools ---- */

static int64_t or1(int32_t v)
{
	return v ? v : 1;
}

static const ttc_attr *hw(ttc_builder *b, const int32_t *v, bool ones)
{
	int64_t x[2] = { ones ? or1(v[0]) : v[0], ones ? or1(v[1]) : v[1] };

	return arr(b, 32, x, 2);
}

static const ttc_attr *pad4(ttc_builder *b, const int32_t *p)
{
	int64_t x[4] = { p[0], p[1], p[2], p[3] };

	return arr(b, 32, x, 4);
}

static ttc_value *conv(ttc_builder *b, const char *name, ttc_value *x,
		       ttc_value *w, ttc_value *bias,
		       const struct ttc_conv2d_params *p, bool transpose)
{
	static const struct ttc_conv2d_params none;
	ttc_value *ops[3] = { x, w, bias };

	if (!b)
		return NULL;
	if (!p)
		p = &none;
	struct ttc_named_attr e[] = {
		{ "dilation", hw(b, p->dilation, true) },
		{ "groups", i32(b, or1(p->groups)) },
		{ "padding", pad4(b, p->padding) },
		{ "stride", hw(b, p->stride, true) },
		{ "output_padding", hw(b, p->output_padding, false) },
	};

	return ttc_build(b, name, ops, bias ? 3 : 2,
			 dict(b, e, transpose ? 5 : 4));
}

ttc_value *ttc_conv2d(ttc_builder *b, ttc_value *x, ttc_value *w,
		      ttc_value *bias, const struct ttc_conv2d_params *p)
{
	return conv(b, "ttir.conv2d", x, w, bias, p, false);
}

ttc_value *ttc_conv_transpose2d(ttc_builder *b, ttc_value *x, ttc_value *w,
				ttc_value *bias,
				const struct ttc_conv2d_params *p)
{
	return conv(b, "ttir.conv_transpose2d", x, w, bias, p, true);
}

static ttc_value *pool(ttc_builder *b, const char *name, ttc_value *x,
		       const struct ttc_pool2d_params *p)
{
	static const struct ttc_pool2d_params none;

	if (!b)
		return NULL;
	if (!p)
		p = &none;
	struct ttc_named_attr e[] = {
		{ "ceil_mode", ttc_bool_attr(b->ctx, p->ceil_mode) },
		{ "dilation", hw(b, p->dilation, true) },
		{ "kernel", hw(b, p->kernel, true) },
		{ "padding", pad4(b, p->padding) },
		{ "stride", hw(b, p->stride, true) },
	};

	return op1(b, name, x, e, 5);
}

ttc_value *ttc_max_pool2d(ttc_builder *b, ttc_value *x,
			  const struct ttc_pool2d_params *p)
{
	return pool(b, "ttir.max_pool2d", x, p);
}

ttc_value *ttc_avg_pool2d(ttc_builder *b, ttc_value *x,
			  const struct ttc_pool2d_params *p)
{
	return pool(b, "ttir.avg_pool2d", x, p);
}

/* ---- data movement ---- */

ttc_value *ttc_reshape(ttc_builder *b, ttc_value *x, const int64_t *shape,
		       unsigned rank)
{
	struct ttc_named_attr e[] = { { "shape",
					b ? i32_list(b, shape, rank) : NULL } };

	return op1(b, "ttir.reshape", x, e, 1);
}

ttc_value *ttc_transpose(ttc_builder *b, ttc_value *x, int dim0, int dim1)
{
	if (!b)
		return NULL;
	struct ttc_named_attr e[] = { { "dim0", si32(b, dim0) },
				      { "dim1", si32(b, dim1) } };

	return op1(b, "ttir.transpose", x, e, 2);
}

ttc_value *ttc_permute(ttc_builder *b, ttc_value *x, const int64_t *perm,
		       unsigned rank)
{
	struct ttc_named_attr e[] = { { "permutation",
					b ? arr(b, 64, perm, rank) : NULL } };

	return op1(b, "ttir.permute", x, e, 1);
}

ttc_value *ttc_concat(ttc_builder *b, ttc_value *const *xs, size_t n, int dim)
{
	if (!b)
		return NULL;
	struct ttc_named_attr e[] = { { "dim", si32(b, dim) } };

	return ttc_build(b, "ttir.concat", xs, n, dict(b, e, 1));
}

ttc_value *ttc_squeeze(ttc_builder *b, ttc_value *x, int dim)
{
	struct ttc_named_attr e[] = { { "dim", b ? si32(b, dim) : NULL } };

	return op1(b, "ttir.squeeze", x, e, 1);
}

ttc_value *ttc_unsqueeze(ttc_builder *b, ttc_value *x, int dim)
{
	struct ttc_named_attr e[] = { { "dim", b ? si32(b, dim) : NULL } };

	return op1(b, "ttir.unsqueeze", x, e, 1);
}

/* ---- reductions and normalisations ---- */

static ttc_value *reduce(ttc_builder *b, const char *name, ttc_value *x,
			 const int *dims, unsigned n, bool keep)
{
	int64_t d[TTC_MAX_RANK] = { 0 };

	if (!b)
		return NULL;
	for (unsigned i = 0; i < n && i < TTC_MAX_RANK; i++)
		d[i] = dims[i];
	struct ttc_named_attr e[] = {
		{ "dim_arg", i32_list(b, d, n) },
		{ "keep_dim", ttc_bool_attr(b->ctx, keep) },
	};

	return n ? op1(b, name, x, e, 2) : op1(b, name, x, e + 1, 1);
}

ttc_value *ttc_sum(ttc_builder *b, ttc_value *x, const int *dims,
		   unsigned ndims, bool keep_dim)
{
	return reduce(b, "ttir.sum", x, dims, ndims, keep_dim);
}

ttc_value *ttc_mean(ttc_builder *b, ttc_value *x, const int *dims,
		    unsigned ndims, bool keep_dim)
{
	return reduce(b, "ttir.mean", x, dims, ndims, keep_dim);
}

ttc_value *ttc_max(ttc_builder *b, ttc_value *x, const int *dims,
		   unsigned ndims, bool keep_dim)
{
	return reduce(b, "ttir.max", x, dims, ndims, keep_dim);
}

ttc_value *ttc_softmax(ttc_builder *b, ttc_value *x, int dimension)
{
	struct ttc_named_attr e[] = { { "dimension",
					b ? si32(b, dimension) : NULL } };

	return op1(b, "ttir.softmax", x, e, 1);
}

static ttc_value *norm(ttc_builder *b, const char *name, ttc_value *x,
		       ttc_value *w, ttc_value *bias, unsigned nnorm,
		       float eps)
{
	ttc_value *ops[3] = { x, NULL, NULL };
	int64_t ns[TTC_MAX_RANK], seg[3] = { 1, w != NULL, bias != NULL };
	size_t n = 1;
	const ttc_type *t = x ? ttc_value_type(x) : NULL;

	if (!b || !t || nnorm > ttc_type_rank(t))
		return ttc_build(b, name, ops, 1, NULL);
	for (unsigned i = 0; i < nnorm; i++)
		ns[i] = ttc_type_dims(t)[ttc_type_rank(t) - nnorm + i];
	if (w)
		ops[n++] = w;
	if (bias)
		ops[n++] = bias;
	struct ttc_named_attr e[] = {
		{ "epsilon", f32(b, eps) },
		{ "normalized_shape", arr(b, 64, ns, nnorm) },
		{ "operandSegmentSizes", arr(b, 32, seg, 3) },
	};

	return ttc_build(b, name, ops, n, dict(b, e, 3));
}

ttc_value *ttc_layer_norm(ttc_builder *b, ttc_value *x, ttc_value *weight,
			  ttc_value *bias, unsigned nnorm, float epsilon)
{
	return norm(b, "ttir.layer_norm", x, weight, bias, nnorm, epsilon);
}

ttc_value *ttc_rms_norm(ttc_builder *b, ttc_value *x, ttc_value *weight,
			ttc_value *bias, unsigned nnorm, float epsilon)
{
	return norm(b, "ttir.rms_norm", x, weight, bias, nnorm, epsilon);
}

ttc_value *ttc_embedding(ttc_builder *b, ttc_value *ids, ttc_value *table)
{
	ttc_value *ops[2] = { ids, table };

	return ttc_build(b, "ttir.embedding", ops, 2, NULL);
}

ttc_value *ttc_arange(ttc_builder *b, const ttc_type *t, int64_t start,
		      int64_t end, int64_t step, int64_t dim)
{
	if (!b)
		return NULL;
	const ttc_type *s64 = ty(b, 64, TTC_SIGNED);
	struct ttc_named_attr e[] = {
		{ "arange_dimension", ttc_int_attr(b->ctx, dim, NULL) },
		{ "end", ttc_int_attr(b->ctx, end, s64) },
		{ "start", ttc_int_attr(b->ctx, start, s64) },
		{ "step", ttc_int_attr(b->ctx, step, s64) },
	};

	ttc_builder_output_type(b, t);
	return ttc_build(b, "ttir.arange", NULL, 0, dict(b, e, 4));
}
