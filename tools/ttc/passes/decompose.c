// SPDX-License-Identifier: Apache-2.0
/*
 * decompose: rewrites ops the device op library (lib/include/tt/ops.h and
 * the headers of tt/ops/) has no op for into ops it has, keeping the
 * golden result. docs/compiler.md ("Passes") has the table of rewrites.
 * An op a rule cannot take (a rank over TTC_MAX_RANK after a split, mixed
 * element types) is left as it is.
 */
#include <math.h>
#include <string.h>

#include "../ops/pybuda_nn.h"
#include "internal.h"

/* The most elements a reversed dimension may have: the inputs of a
 * concat record (TT_MODEL_MAX_OP_INPUTS). */
#define REVERSE_MAX 16

struct rw {
	ttc_op *op;
	ttc_ctx *ctx;
	const ttc_type *rt; /* the op's result type */
};

static ttc_value *in(const struct rw *r, size_t i)
{
	return ttc_op_operand(r->op, i);
}

static const ttc_type *in_type(const struct rw *r, size_t i)
{
	return ttc_value_type(in(r, i));
}

/* A new op before the one rewritten; its result or NULL. */
static ttc_value *mk(const struct rw *r, const char *name,
		     ttc_value *const *ops, size_t n, const ttc_type *t,
		     const ttc_attr *props)
{
	ttc_op *op = pass_new_op(r->op, name, ops, n, t, props);

	return op ? ttc_op_result(op, 0) : NULL;
}

static ttc_value *reshape(const struct rw *r, ttc_value *x,
			  const ttc_type *t)
{
	const ttc_attr *p = pass_dict1(r->ctx, "shape",
				       pass_i32_list(r->ctx, ttc_type_dims(t),
						     ttc_type_rank(t)));

	return x ? mk(r, "ttir.reshape", &x, 1, t, p) : NULL;
}

/* squeeze, unsqueeze, vslice, vstack: the same elements, another shape. */
static ttc_value *to_reshape(const struct rw *r)
{
	return reshape(r, in(r, 0), r->rt);
}

/*
 * hslice and hstack move slices of C to Z and back ([..., Z, R, C]):
 * reshape to rank + 1 with the slice index next to the dimension it
 * leaves, swap it past R, reshape to the result. hslice s: [Z, R, s, w]
 * -> [Z, s, R, w]; hstack s: [Z/s, s, R, C] -> [Z/s, R, s, C].
 */
static ttc_value *hmove(const struct rw *r, bool stack)
{
	const ttc_type *t = in_type(r, 0);
	unsigned n = ttc_type_rank(t), z = n - 3;
	int64_t d[TTC_MAX_RANK], pd[TTC_MAX_RANK], perm[TTC_MAX_RANK];
	int64_t s = ttc_attr_int(ttc_op_attr(r->op, "slices"));
	const int64_t *x = ttc_type_dims(t);

	if (n + 1 > TTC_MAX_RANK || n < 3)
		return NULL;
	if (stack && s == -1)
		s = x[z];
	memcpy(d, x, z * sizeof(*d));
	if (!stack) {
		d[z] = x[z], d[z + 1] = x[z + 1], d[z + 2] = s;
		d[z + 3] = x[z + 2] / s;
	} else {
		d[z] = x[z] / s, d[z + 1] = s, d[z + 2] = x[z + 1];
		d[z + 3] = x[z + 2];
	}
	for (unsigned i = 0; i <= n; i++)
		perm[i] = i;
	perm[z + 1] = z + 2, perm[z + 2] = z + 1;
	for (unsigned i = 0; i <= n; i++)
		pd[i] = d[perm[i]];
	ttc_value *a = reshape(r, in(r, 0), pass_tensor_like(r->ctx, t, d,
							     n + 1));
	const ttc_attr *p = pass_dict1(r->ctx, "permutation",
				       pass_i64_array(r->ctx, perm, n + 1));
	ttc_value *b = a ? mk(r, "ttir.permute", &a, 1,
			      pass_tensor_like(r->ctx, t, pd, n + 1), p) :
			   NULL;

	return reshape(r, b, r->rt);
}

static ttc_value *hslice(const struct rw *r)
{
	return hmove(r, false);
}

static ttc_value *hstack(const struct rw *r)
{
	return hmove(r, true);
}

static bool same_elem(const ttc_type *a, const ttc_type *b)
{
	return ttc_type_elem(a) == ttc_type_elem(b);
}

/* heaviside(x, y) = where(x == 0, y, x > 0). */
static ttc_value *heaviside(const struct rw *r)
{
	const ttc_type *xt = in_type(r, 0);
	char zero[8] = { 0 };

	if (!same_elem(xt, in_type(r, 1)) || !same_elem(xt, r->rt))
		return NULL;
	const ttc_attr *z = ttc_dense_attr(
		r->ctx, xt, zero, ttc_type_elem_bytes(ttc_type_elem(xt)), true,
		false);
	ttc_value *c = z ? mk(r, "ttir.constant", NULL, 0, xt,
			      pass_dict1(r->ctx, "value", z)) :
			   NULL;
	ttc_value *eq_ops[2] = { in(r, 0), c };
	ttc_value *eq = c ? mk(r, "ttir.eq", eq_ops, 2, xt, NULL) : NULL;
	ttc_value *gt = eq ? mk(r, "ttir.gt", eq_ops, 2, xt, NULL) : NULL;
	ttc_value *w[3] = { eq, in(r, 1), gt };

	return gt ? mk(r, "ttir.where", w, 3, r->rt, NULL) : NULL;
}

/* clamp_tensor(x, lo, hi) = minimum(maximum(x, lo), hi). */
static ttc_value *clamp_tensor(const struct rw *r)
{
	for (size_t i = 0; i < 3; i++)
		if (!same_elem(in_type(r, i), r->rt))
			return NULL;
	ttc_value *a[2] = { in(r, 0), in(r, 1) };
	ttc_value *mx = mk(r, "ttir.maximum", a, 2, r->rt, NULL);
	ttc_value *b[2] = { mx, in(r, 2) };

	return mx ? mk(r, "ttir.minimum", b, 2, r->rt, NULL) : NULL;
}

/* Whether list names exactly want[0..n). */
static bool dims_are(const ttc_attr *a, const int64_t *want, int n)
{
	int64_t v[TTC_MAX_RANK];

	if (!a || ttc_attr_ints(a, v, TTC_MAX_RANK) != n)
		return false;
	for (int i = 0; i < n; i++)
		if (v[i] != want[i])
			return false;
	return true;
}

static int contract_dim(const ttc_op *op, const char *name)
{
	int64_t v[TTC_MAX_RANK];
	const ttc_attr *a = ttc_op_attr(op, name);

	return a && ttc_attr_ints(a, v, TTC_MAX_RANK) == 1 ? (int)v[0] : -1;
}

/*
 * dot_general with leading batch dimensions [0, nb) on both sides, one
 * free and one contracting dimension each: a batched matmul, transposing
 * an operand whose contracting dimension is not where matmul reads it.
 */
static ttc_value *dot_general(const struct rw *r)
{
	const ttc_type *a = in_type(r, 0), *b = in_type(r, 1);
	int nb = (int)ttc_type_rank(a) - 2;
	int64_t batch[TTC_MAX_RANK];
	int cl = contract_dim(r->op, "contract_dims_lhs");
	int cr = contract_dim(r->op, "contract_dims_rhs");

	if (nb < 0 || (int)ttc_type_rank(b) != nb + 2 || !same_elem(a, b) ||
	    !same_elem(a, r->rt) || cl < nb || cr < nb)
		return NULL;
	for (int i = 0; i < nb; i++)
		batch[i] = i;
	if (!dims_are(ttc_op_attr(r->op, "batch_dims_lhs"), batch, nb) ||
	    !dims_are(ttc_op_attr(r->op, "batch_dims_rhs"), batch, nb))
		return NULL;
	const ttc_attr *yes = ttc_bool_attr(r->ctx, true);
	struct ttc_named_attr e[2];
	size_t ne = 0;

	if (cl == nb)
		e[ne++] = (struct ttc_named_attr){ "transpose_a", yes };
	if (cr == nb + 1)
		e[ne++] = (struct ttc_named_attr){ "transpose_b", yes };
	ttc_value *ops[2] = { in(r, 0), in(r, 1) };

	return mk(r, "ttir.matmul", ops, 2, r->rt,
		  ne ? ttc_dict_attr(r->ctx, e, ne) : NULL);
}

/* PyBuda's exact gelu is TTIR's (the tanh form stays: its own op). */
static ttc_value *gelu(const struct rw *r)
{
	const ttc_attr *a = ttc_op_attr(r->op, "approximate");
	const char *s = a ? ttc_attr_str(a, NULL) : "none";
	ttc_value *x = in(r, 0);

	if (!s || strcmp(s, "none"))
		return NULL;
	return mk(r, "ttir.gelu", &x, 1, r->rt, NULL);
}

/* reduce_sum / reduce_avg (dim): sum / mean keeping the dimension. */
static ttc_value *reduce(const struct rw *r, const char *name)
{
	int64_t d = ttc_attr_int(ttc_op_attr(r->op, "dim"));
	struct ttc_named_attr e[2] = {
		{ "dim_arg", pass_i32_list(r->ctx, &d, 1) },
		{ "keep_dim", ttc_bool_attr(r->ctx, true) },
	};
	ttc_value *x = in(r, 0);

	return mk(r, name, &x, 1, r->rt, ttc_dict_attr(r->ctx, e, 2));
}

static ttc_value *reduce_sum(const struct rw *r)
{
	return reduce(r, "ttir.sum");
}

static ttc_value *reduce_avg(const struct rw *r)
{
	return reduce(r, "ttir.mean");
}

static ttc_value *softmax(const struct rw *r)
{
	const ttc_attr *st = ttc_op_attr(r->op, "stable");
	struct ttc_named_attr e[2] = {
		{ "dimension",
		  pass_si32(r->ctx, ttc_attr_int(ttc_op_attr(r->op, "dim"))) },
		{ "numericStable",
		  ttc_bool_attr(r->ctx, st ? ttc_attr_bool(st) : true) },
	};
	ttc_value *x = in(r, 0);

	return mk(r, "ttir.softmax", &x, 1, r->rt, ttc_dict_attr(r->ctx, e, 2));
}

static double num(const ttc_attr *a)
{
	return ttc_attr_kind(a) == TTC_ATTR_INT ? (double)ttc_attr_int(a) :
						  ttc_attr_float(a);
}

/* PyBuda's relu: threshold 0, mode "min" is TTIR's relu; mode "max" with
 * a threshold t >= 0 is clip(x, 0, t). */
static ttc_value *pybuda_relu(const struct rw *r)
{
	const ttc_attr *ta = ttc_op_attr(r->op, "threshold");
	const ttc_attr *ma = ttc_op_attr(r->op, "mode");
	const char *mode = ma ? ttc_attr_str(ma, NULL) : "min";
	double t = ta ? num(ta) : 0;
	ttc_value *x = in(r, 0);

	if (!mode || (!strcmp(mode, "min") && t != 0) ||
	    (!strcmp(mode, "max") && !(t >= 0)))
		return NULL;
	if (!strcmp(mode, "min"))
		return mk(r, "ttir.relu", &x, 1, r->rt, NULL);
	const ttc_type *f32 = ttc_float_type(r->ctx, TTC_F32);
	struct ttc_named_attr e[2] = {
		{ "max", ttc_float_attr(r->ctx, t, f32) },
		{ "min", ttc_float_attr(r->ctx, 0, f32) },
	};

	/* The bound must survive f32 (the device's parameter). */
	if (ttc_attr_float(e[0].value) != t)
		return NULL;
	return mk(r, "ttir.clamp_scalar", &x, 1, r->rt,
		  ttc_dict_attr(r->ctx, e, 2));
}

/* PyBuda's identity (with or without an inserted dimension). */
static ttc_value *identity(const struct rw *r)
{
	if (in_type(r, 0) == r->rt)
		return in(r, 0);
	return to_reshape(r);
}

static ttc_value *concatenate(const struct rw *r)
{
	size_t n = ttc_op_num_operands(r->op);
	ttc_value *ops[64];
	const ttc_attr *p = pass_dict1(
		r->ctx, "dim",
		pass_si32(r->ctx, ttc_attr_int(ttc_op_attr(r->op, "axis"))));

	if (n > 64)
		return NULL;
	for (size_t i = 0; i < n; i++)
		ops[i] = in(r, i);
	return mk(r, "ttir.concat", ops, n, r->rt, p);
}

/* index(dim, start, stop, stride): a slice_static of that dimension. */
static ttc_value *pybuda_index(const struct rw *r)
{
	const ttc_type *t = in_type(r, 0);
	unsigned n = ttc_type_rank(t);
	int64_t b[TTC_MAX_RANK], e[TTC_MAX_RANK], st[TTC_MAX_RANK];
	int64_t d = ttc_attr_int(ttc_op_attr(r->op, "dim"));
	int64_t s = ttc_attr_int(ttc_op_attr(r->op, "stride"));
	int64_t start = ttc_attr_int(ttc_op_attr(r->op, "start"));

	d = d < 0 ? d + n : d;
	if (d < 0 || d >= (int64_t)n || s < 1)
		return NULL;
	for (unsigned i = 0; i < n; i++)
		b[i] = 0, e[i] = ttc_type_dims(t)[i], st[i] = 1;
	b[d] = start < 0 ? start + ttc_type_dims(t)[d] : start;
	e[d] = b[d] + (ttc_type_dims(r->rt)[d] - 1) * s + 1;
	st[d] = s;
	struct ttc_named_attr a[3] = {
		{ "begins", pass_i32_list(r->ctx, b, n) },
		{ "ends", pass_i32_list(r->ctx, e, n) },
		{ "step", pass_i32_list(r->ctx, st, n) },
	};
	ttc_value *x = in(r, 0);

	if (ttc_type_dims(r->rt)[d] == 0)
		return NULL;
	return mk(r, "ttir.slice_static", &x, 1, r->rt,
		  ttc_dict_attr(r->ctx, a, 3));
}

/* frac(x) = x - trunc(x) (exact in floating point). */
static ttc_value *frac(const struct rw *r)
{
	ttc_value *x = in(r, 0);

	if (ttc_type_kind(ttc_type_elem(r->rt)) != TTC_TYPE_FLOAT)
		return NULL;
	ttc_value *t = mk(r, "ttir.trunc", &x, 1, r->rt, NULL);
	ttc_value *ops[2] = { x, t };

	return t ? mk(r, "ttir.subtract", ops, 2, r->rt, NULL) : NULL;
}

static const ttc_attr *i32s(ttc_ctx *ctx, const int64_t *v, size_t n)
{
	return ttc_dense_int_array_attr(
		ctx, ttc_int_type(ctx, 32, TTC_SIGNLESS), v, n);
}

/* NCHW <-> NHWC. */
static const int64_t to_nhwc[4] = { 0, 2, 3, 1 }, to_nchw[4] = { 0, 3, 1, 2 };

static ttc_value *permute4(const struct rw *r, ttc_value *x,
			   const int64_t *perm)
{
	const ttc_type *t = ttc_value_type(x);
	int64_t d[4];

	for (int i = 0; i < 4; i++)
		d[i] = ttc_type_dims(t)[perm[i]];
	return mk(r, "ttir.permute", &x, 1, pass_tensor_like(r->ctx, t, d, 4),
		  pass_dict1(r->ctx, "permutation",
			     pass_i64_array(r->ctx, perm, 4)));
}

/*
 * PyBuda's conv2d and conv2d_transpose (NCHW unless channel_last, "same"
 * padding by default, padding in PyBuda's order) are TTIR's NHWC ones
 * with the window made explicit, between permutes when NCHW.
 */
static ttc_value *pybuda_conv(const struct rw *r, bool transposed)
{
	const ttc_type *xt = in_type(r, 0), *wt = in_type(r, 1);
	const ttc_attr *cl = ttc_op_attr(r->op, "channel_last");
	bool nhwc = cl && ttc_attr_bool(cl);
	unsigned l[4];
	int64_t xs[2], k[2], d[4], zero[2] = { 0, 0 };
	struct pybuda_window w;
	char err[128];

	if (ttc_type_rank(xt) != 4 || ttc_type_rank(wt) != 4 ||
	    ttc_type_rank(r->rt) != 4)
		return NULL;
	pybuda_layout(nhwc, l);
	xs[0] = ttc_type_dims(xt)[l[1]], xs[1] = ttc_type_dims(xt)[l[2]];
	k[0] = ttc_type_dims(wt)[2], k[1] = ttc_type_dims(wt)[3];
	if (pybuda_window(ttc_op_attr(r->op, "stride"),
			  ttc_op_attr(r->op, "dilation"),
			  ttc_op_attr(r->op, "padding"), k, xs, &w, err,
			  sizeof(err)))
		return NULL;
	struct ttc_named_attr e[] = {
		{ "dilation", i32s(r->ctx, w.d, 2) },
		{ "groups", ttc_op_attr(r->op, "groups") },
		{ "padding", i32s(r->ctx, w.p, 4) },
		{ "stride", i32s(r->ctx, w.s, 2) },
		{ "output_padding", i32s(r->ctx, zero, 2) },
	};
	ttc_value *ops[3];
	size_t n = ttc_op_num_operands(r->op);

	if (!e[1].value || n > 3)
		return NULL;
	for (size_t i = 0; i < n; i++)
		ops[i] = in(r, i);
	if (!nhwc && !(ops[0] = permute4(r, ops[0], to_nhwc)))
		return NULL;
	for (int i = 0; i < 4; i++)
		d[i] = ttc_type_dims(r->rt)[nhwc ? i : to_nhwc[i]];
	ttc_value *y = mk(r, transposed ? "ttir.conv_transpose2d" :
					  "ttir.conv2d",
			  ops, n, pass_tensor_like(r->ctx, r->rt, d, 4),
			  ttc_dict_attr(r->ctx, e, transposed ? 5 : 4));

	return y && !nhwc ? permute4(r, y, to_nchw) : y;
}

static ttc_value *pybuda_conv2d(const struct rw *r)
{
	return pybuda_conv(r, false);
}

static ttc_value *pybuda_conv2d_t(const struct rw *r)
{
	return pybuda_conv(r, true);
}

/* PyBuda's max_pool2d and avg_pool2d: TTIR's NHWC pools with the window
 * made explicit, between permutes when NCHW (as the convolutions). */
static ttc_value *pybuda_pool(const struct rw *r, bool avg)
{
	const ttc_type *xt = in_type(r, 0);
	const ttc_attr *cl = ttc_op_attr(r->op, "channel_last");
	const ttc_attr *ka = ttc_op_attr(r->op, "kernel_size");
	const ttc_attr *ceil = ttc_op_attr(r->op, "ceil_mode");
	bool nhwc = cl && ttc_attr_bool(cl);
	unsigned l[4];
	int64_t xs[2], k[2], d[4];
	struct pybuda_window w;
	char err[128];

	if (ttc_type_rank(xt) != 4 || ttc_type_rank(r->rt) != 4 || !ka ||
	    !ceil || (avg && ttc_op_attr(r->op, "divisor_override")))
		return NULL;
	if (ttc_attr_kind(ka) == TTC_ATTR_INT)
		k[0] = k[1] = ttc_attr_int(ka);
	else if (ttc_attr_ints(ka, k, 2) != 2)
		return NULL;
	pybuda_layout(nhwc, l);
	xs[0] = ttc_type_dims(xt)[l[1]], xs[1] = ttc_type_dims(xt)[l[2]];
	if (pybuda_window(ttc_op_attr(r->op, "stride"),
			  ttc_op_attr(r->op, "dilation"),
			  ttc_op_attr(r->op, "padding"), k, xs, &w, err,
			  sizeof(err)))
		return NULL;
	const ttc_attr *cip = ttc_op_attr(r->op, "count_include_pad");
	struct ttc_named_attr e[] = {
		{ "ceil_mode", ceil },
		{ "dilation", i32s(r->ctx, w.d, 2) },
		{ "kernel", i32s(r->ctx, w.k, 2) },
		{ "padding", i32s(r->ctx, w.p, 4) },
		{ "stride", i32s(r->ctx, w.s, 2) },
		{ "count_include_pad", cip },
	};
	ttc_value *x = in(r, 0);

	if (avg && !cip)
		return NULL;
	if (!nhwc && !(x = permute4(r, x, to_nhwc)))
		return NULL;
	for (int i = 0; i < 4; i++)
		d[i] = ttc_type_dims(r->rt)[nhwc ? i : to_nhwc[i]];
	ttc_value *y = mk(r, avg ? "ttir.avg_pool2d" : "ttir.max_pool2d", &x,
			  1, pass_tensor_like(r->ctx, r->rt, d, 4),
			  ttc_dict_attr(r->ctx, e, avg ? 6 : 5));

	return y && !nhwc ? permute4(r, y, to_nchw) : y;
}

static ttc_value *pybuda_max_pool(const struct rw *r)
{
	return pybuda_pool(r, false);
}

static ttc_value *pybuda_avg_pool(const struct rw *r)
{
	return pybuda_pool(r, true);
}

/* A value of n elements as a rank-1 tensor (a reshape unless it is). */
static ttc_value *as_vector(const struct rw *r, ttc_value *v, int64_t n)
{
	const ttc_type *t = ttc_value_type(v);

	if (ttc_type_rank(t) == 1)
		return v;
	return reshape(r, v, pass_tensor_like(r->ctx, t, &n, 1));
}

/* PyBuda's layernorm (over the last dimension; weights and bias of any
 * shape holding one value per element of it) is TTIR's layer_norm. */
static ttc_value *layernorm(const struct rw *r)
{
	const ttc_type *t = in_type(r, 0);
	int64_t c = ttc_type_dims(t)[ttc_type_rank(t) - 1], seg[3] = { 1, 1, 1 };
	ttc_value *ops[3] = { in(r, 0), as_vector(r, in(r, 1), c),
			      as_vector(r, in(r, 2), c) };
	const ttc_attr *eps = ttc_op_attr(r->op, "epsilon");
	struct ttc_named_attr e[] = {
		{ "epsilon", eps },
		{ "normalized_shape", pass_i64_array(r->ctx, &c, 1) },
		{ "operandSegmentSizes",
		  ttc_dense_int_array_attr(
			  r->ctx, ttc_int_type(r->ctx, 32, TTC_SIGNLESS), seg,
			  3) },
	};

	if (!ttc_type_rank(t) || !ops[1] || !ops[2] || !eps)
		return NULL;
	return mk(r, "ttir.layer_norm", ops, 3, r->rt,
		  ttc_dict_attr(r->ctx, e, 3));
}

/* binary_stack(a, b, dim): a and b interleaved along dim is both
 * stacked on a new dimension after dim, then merged into it. */
static ttc_value *binary_stack(const struct rw *r)
{
	const ttc_type *t = in_type(r, 0);
	unsigned n = ttc_type_rank(t);
	int64_t d = ttc_attr_int(ttc_op_attr(r->op, "dim")), u[TTC_MAX_RANK],
		c[TTC_MAX_RANK];

	d = d < 0 ? d + n : d;
	if (n + 1 > TTC_MAX_RANK || d < 0 || d >= (int64_t)n)
		return NULL;
	for (unsigned i = 0, k = 0; i <= n; i++)
		u[i] = i == d + 1 ? 1 : ttc_type_dims(t)[k++];
	memcpy(c, u, sizeof(c));
	c[d + 1] = 2;
	const ttc_type *ut = pass_tensor_like(r->ctx, t, u, n + 1);
	ttc_value *ops[2] = { reshape(r, in(r, 0), ut), reshape(r, in(r, 1), ut) };

	if (!ops[0] || !ops[1])
		return NULL;
	ttc_value *cat = mk(r, "ttir.concat", ops, 2,
			    pass_tensor_like(r->ctx, t, c, n + 1),
			    pass_dict1(r->ctx, "dim", pass_si32(r->ctx, d + 1)));

	return reshape(r, cat, r->rt);
}

/*
 * linear whose bias is not a row of N ([N] or [1, N], what tt_op_linear
 * adds): the matmul, then the bias added with broadcasting. Left alone
 * when the bias makes the result larger than the product.
 */
static ttc_value *linear(const struct rw *r)
{
	const ttc_type *bt;
	unsigned br;
	int64_t n = ttc_type_dims(r->rt)[ttc_type_rank(r->rt) - 1];

	if (ttc_op_num_operands(r->op) < 3 || ttc_type_rank(r->rt) < 1)
		return NULL;
	bt = in_type(r, 2);
	br = ttc_type_rank(bt);
	if ((br == 1 || (br == 2 && ttc_type_dims(bt)[0] == 1)) &&
	    ttc_type_dims(bt)[br - 1] == n)
		return NULL;
	if (!same_elem(bt, r->rt) || br > ttc_type_rank(r->rt))
		return NULL;
	for (unsigned k = 0; k < br; k++)
		if (ttc_type_dims(bt)[br - 1 - k] != 1 &&
		    ttc_type_dims(bt)[br - 1 - k] !=
			    ttc_type_dims(r->rt)[ttc_type_rank(r->rt) - 1 - k])
			return NULL;
	ttc_value *ab[2] = { in(r, 0), in(r, 1) };
	ttc_value *mm = mk(r, "ttir.matmul", ab, 2, r->rt,
			   ttc_op_props(r->op));
	ttc_value *sum[2] = { mm, in(r, 2) };

	return mm ? mk(r, "ttir.add", sum, 2, r->rt, NULL) : NULL;
}

/* x with dimensions a and b swapped (the permutation is its own inverse). */
static ttc_value *swap_dims(const struct rw *r, ttc_value *x, unsigned a,
			    unsigned b)
{
	const ttc_type *t = ttc_value_type(x);
	unsigned n = ttc_type_rank(t);
	int64_t perm[TTC_MAX_RANK], d[TTC_MAX_RANK];

	for (unsigned i = 0; i < n; i++)
		perm[i] = i;
	perm[a] = b, perm[b] = a;
	for (unsigned i = 0; i < n; i++)
		d[i] = ttc_type_dims(t)[perm[i]];
	return x ? mk(r, "ttir.permute", &x, 1,
		      pass_tensor_like(r->ctx, t, d, n),
		      pass_dict1(r->ctx, "permutation",
				 pass_i64_array(r->ctx, perm, n))) :
		   NULL;
}

/* softmax over a dimension d not the last (the device op's): d swapped
 * with the last, softmax there, swapped back. */
static ttc_value *softmax_dim(const struct rw *r)
{
	unsigned n = ttc_type_rank(r->rt);
	int64_t d = ttc_attr_int(ttc_op_attr(r->op, "dimension"));
	const ttc_attr *st = ttc_op_attr(r->op, "numericStable");

	if (d < 0)
		d += n;
	if (n < 2 || d < 0 || d >= (int64_t)n - 1)
		return NULL;
	ttc_value *x = swap_dims(r, in(r, 0), (unsigned)d, n - 1);
	struct ttc_named_attr e[2] = {
		{ "dimension", pass_si32(r->ctx, -1) },
		{ "numericStable",
		  ttc_bool_attr(r->ctx, st ? ttc_attr_bool(st) : false) },
	};
	ttc_value *y = x ? mk(r, "ttir.softmax", &x, 1, ttc_value_type(x),
			      ttc_dict_attr(r->ctx, e, 2)) :
			   NULL;

	return swap_dims(r, y, (unsigned)d, n - 1);
}

/* The reduced dimensions of a reduction (no dim_arg: every one), as a
 * mask; -1 when dim_arg is out of range. */
static int64_t reduced_mask(const struct rw *r, unsigned n)
{
	const ttc_attr *a = ttc_op_attr(r->op, "dim_arg");
	int64_t v[TTC_MAX_RANK], mask = 0;
	int k;

	if (!a)
		return (1 << n) - 1;
	k = ttc_attr_ints(a, v, TTC_MAX_RANK);
	for (int i = 0; i < k; i++) {
		int64_t d = v[i] < 0 ? v[i] + n : v[i];

		if (d < 0 || d >= (int64_t)n)
			return -1;
		mask |= (int64_t)1 << d;
	}
	return k < 0 ? -1 : mask;
}

/* The device's view of a shape (tt_shape_wzrc): [W, Z, R, C], ranks
 * below 4 with leading 1s, above 4 with the leading dimensions in W. */
static void wzrc(const int64_t *d, unsigned n, int64_t out[4])
{
	out[0] = out[1] = out[2] = out[3] = 1;
	for (unsigned i = 0; i < n; i++) {
		int k = 4 - (int)n + (int)i;

		out[k < 0 ? 0 : k] *= d[i];
	}
}

/*
 * sum, mean, max, min without keep_dim where dropping the reduced
 * dimensions would move elements between tiles (tt_op_reduce refuses
 * it): the reduction keeping them, then a reshape.
 */
static ttc_value *reduce_keep(const struct rw *r)
{
	const ttc_type *t = in_type(r, 0);
	unsigned n = ttc_type_rank(t);
	const ttc_attr *kd = ttc_op_attr(r->op, "keep_dim");
	int64_t mask = reduced_mask(r, n), d[TTC_MAX_RANK], a[4], b[4];

	if ((kd && ttc_attr_bool(kd)) || mask < 0 || n == 0)
		return NULL;
	for (unsigned i = 0; i < n; i++)
		d[i] = mask >> i & 1 ? 1 : ttc_type_dims(t)[i];
	wzrc(d, n, a);
	wzrc(ttc_type_dims(r->rt), ttc_type_rank(r->rt), b);
	if (!memcmp(a, b, sizeof(a)))
		return NULL;
	const ttc_attr *dims = ttc_op_attr(r->op, "dim_arg");
	struct ttc_named_attr e[2] = {
		{ "keep_dim", ttc_bool_attr(r->ctx, true) },
		{ "dim_arg", dims },
	};
	ttc_value *x = in(r, 0);
	ttc_value *y = mk(r, ttc_op_name(r->op), &x, 1,
			  pass_tensor_like(r->ctx, r->rt, d, n),
			  ttc_dict_attr(r->ctx, e, dims ? 2 : 1));

	return reshape(r, y, r->rt);
}

/*
 * argmax along one dimension d to an integer result: the device's
 * argmax runs along the last dimension and gives the index as a float
 * (exact up to 2048). x with d moved last (the others in order), argmax
 * there kept as 1 in f32, reshaped to the result's shape (the same
 * elements in the same order), typecast to its integers.
 */
static ttc_value *argmax(const struct rw *r)
{
	const ttc_type *t = in_type(r, 0);
	unsigned n = ttc_type_rank(t), dim = 0;
	int64_t mask = reduced_mask(r, n), perm[TTC_MAX_RANK], d[TTC_MAX_RANK];
	ttc_value *x = in(r, 0);

	if (n == 0 || mask <= 0 || (mask & (mask - 1)) ||
	    ttc_type_kind(ttc_type_elem(r->rt)) != TTC_TYPE_INT)
		return NULL;
	while (!(mask >> dim & 1))
		dim++;
	for (unsigned i = 0, k = 0; i < n; i++)
		if (i != dim)
			perm[k++] = i;
	perm[n - 1] = dim;
	for (unsigned i = 0; i < n; i++)
		d[i] = ttc_type_dims(t)[perm[i]];
	if (dim != n - 1)
		x = mk(r, "ttir.permute", &x, 1,
		       pass_tensor_like(r->ctx, t, d, n),
		       pass_dict1(r->ctx, "permutation",
				  pass_i64_array(r->ctx, perm, n)));
	d[n - 1] = 1;
	int64_t last = (int64_t)n - 1;
	struct ttc_named_attr e[2] = {
		{ "keep_dim", ttc_bool_attr(r->ctx, true) },
		{ "dim_arg", pass_i32_list(r->ctx, &last, 1) },
	};
	const ttc_type *ft = ttc_tensor_type(
		r->ctx, d, n, ttc_float_type(r->ctx, TTC_F32), NULL);
	ttc_value *y = x ? mk(r, "ttir.argmax", &x, 1, ft,
			      ttc_dict_attr(r->ctx, e, 2)) :
			   NULL;

	y = reshape(r, y,
		    pass_tensor_like(r->ctx, ft, ttc_type_dims(r->rt),
				     ttc_type_rank(r->rt)));
	return y ? mk(r, "ttir.typecast", &y, 1, r->rt, NULL) : NULL;
}

/* An attribute of one, two or four integers as four (top, left, bottom,
 * right; or h, w repeated); false when it is none of those. */
static bool four_ints(const ttc_attr *a, int64_t def, int64_t out[4])
{
	int64_t v[TTC_MAX_RANK];
	int n = 1;

	v[0] = def;
	if (a && ttc_attr_kind(a) == TTC_ATTR_INT)
		v[0] = ttc_attr_int(a);
	else if (a)
		n = ttc_attr_ints(a, v, TTC_MAX_RANK);
	if (n != 1 && n != 2 && n != 4)
		return false;
	for (int i = 0; i < 4; i++)
		out[i] = n == 1 ? v[0] : n == 2 ? v[i % 2] : v[i];
	return true;
}

/* A unary or binary op of r's result type. */
static ttc_value *op1(const struct rw *r, const char *name, ttc_value *x)
{
	return x ? mk(r, name, &x, 1, r->rt, NULL) : NULL;
}

static ttc_value *op2(const struct rw *r, const char *name, ttc_value *a,
		      ttc_value *b)
{
	ttc_value *ab[2] = { a, b };

	return a && b ? mk(r, name, ab, 2, r->rt, NULL) : NULL;
}

/*
 * asinh (the device has no such function) with the functions it has:
 * a = |x|, t = 1 / a, asinh(x) = sign(x) log1p(a + a / (t + sqrt(1 +
 * t^2))), a form without cancellation (a^2 / (1 + sqrt(1 + a^2)) written
 * so that it neither overflows for large a nor loses small ones: a = 0
 * gives 0 / inf, infinities give infinities). Not bit for bit the
 * golden's asinh: within a few ulps.
 */
static ttc_value *asinh_fn(const struct rw *r)
{
	const ttc_type *t = r->rt;
	unsigned n = ttc_type_rank(t);
	int64_t one = 1;

	if (ttc_type_kind(ttc_type_elem(t)) != TTC_TYPE_FLOAT ||
	    !same_elem(in_type(r, 0), t))
		return NULL;
	struct ttc_named_attr e[2] = {
		{ "shape", i32s(r->ctx, n ? ttc_type_dims(t) : &one,
				n ? n : 0) },
		{ "fill_value", ttc_float_attr(r->ctx, 1.0,
					       ttc_float_type(r->ctx, TTC_F32)) },
	};
	ttc_value *x = in(r, 0);
	ttc_value *c1 = mk(r, "ttir.full", NULL, 0, t,
			   ttc_dict_attr(r->ctx, e, 2));
	ttc_value *a = op1(r, "ttir.abs", x);
	ttc_value *rt = op1(r, "ttir.reciprocal", a);
	ttc_value *t2 = op2(r, "ttir.multiply", rt, rt);
	ttc_value *s = op1(r, "ttir.sqrt", op2(r, "ttir.add", c1, t2));
	ttc_value *q = op2(r, "ttir.div", a, op2(r, "ttir.add", rt, s));
	ttc_value *l = op1(r, "ttir.log1p", op2(r, "ttir.add", a, q));

	return op2(r, "ttir.multiply", op1(r, "ttir.sign", x), l);
}

/* Element i of x along dimension d (kept as 1). */
static ttc_value *slice1(const struct rw *r, ttc_value *x, unsigned d,
			 int64_t i)
{
	const ttc_type *t = ttc_value_type(x);
	unsigned n = ttc_type_rank(t);
	int64_t b[TTC_MAX_RANK], e[TTC_MAX_RANK], st[TTC_MAX_RANK],
		sd[TTC_MAX_RANK];

	for (unsigned k = 0; k < n; k++) {
		b[k] = k == d ? i : 0;
		e[k] = k == d ? i + 1 : ttc_type_dims(t)[k];
		st[k] = 1;
		sd[k] = k == d ? 1 : ttc_type_dims(t)[k];
	}
	struct ttc_named_attr a[3] = {
		{ "begins", pass_i32_list(r->ctx, b, n) },
		{ "ends", pass_i32_list(r->ctx, e, n) },
		{ "step", pass_i32_list(r->ctx, st, n) },
	};
	return mk(r, "ttir.slice_static", &x, 1,
		  pass_tensor_like(r->ctx, t, sd, n),
		  ttc_dict_attr(r->ctx, a, 3));
}

/* The elements of x along dimension d in reverse order: each one's slice,
 * last first, concatenated. */
static ttc_value *reverse_dim(const struct rw *r, ttc_value *x, unsigned d)
{
	const ttc_type *t = ttc_value_type(x);
	int64_t size = ttc_type_dims(t)[d];
	ttc_value *parts[REVERSE_MAX];

	for (int64_t i = 0; i < size; i++)
		if (!(parts[i] = slice1(r, x, d, size - 1 - i)))
			return NULL;
	return mk(r, "ttir.concat", parts, (size_t)size, t,
		  pass_dict1(r->ctx, "dim", pass_si32(r->ctx, d)));
}

/*
 * reverse (the device has no such op) along dimensions of at most
 * REVERSE_MAX elements (a concat record's inputs): slices of one
 * element, last first, concatenated; exact (data movement). Left alone:
 * a longer dimension (a slice per element would not pay).
 */
static ttc_value *reverse(const struct rw *r)
{
	const ttc_attr *a = ttc_op_attr(r->op, "dimensions");
	unsigned n = ttc_type_rank(r->rt);
	int64_t v[TTC_MAX_RANK];
	int k = a ? ttc_attr_ints(a, v, TTC_MAX_RANK) : -1;
	ttc_value *x = in(r, 0);

	if (k < 0)
		return NULL;
	for (int i = 0; i < k; i++) {
		int64_t d = v[i] < 0 ? v[i] + n : v[i];

		if (d < 0 || d >= (int64_t)n ||
		    ttc_type_dims(r->rt)[d] > REVERSE_MAX)
			return NULL;
		v[i] = d;
	}
	for (int i = 0; i < k && x; i++)
		if (ttc_type_dims(r->rt)[v[i]] > 1)
			x = reverse_dim(r, x, (unsigned)v[i]);
	/* Nothing to reverse: the value as it is, through a reshape. */
	return x == in(r, 0) ? reshape(r, x, r->rt) : x;
}

/*
 * prod (the device has no product reduction) over dimensions of at most
 * REVERSE_MAX elements: along each, the product of its one-element
 * slices in index order, then a reshape to the result. Each product
 * rounds to the element type where the golden multiplies in double: not
 * bit for bit. Left alone: floats only, longer dimensions.
 */
static ttc_value *prod(const struct rw *r)
{
	const ttc_type *t = in_type(r, 0);
	unsigned n = ttc_type_rank(t);
	int64_t mask = reduced_mask(r, n);
	ttc_value *x = in(r, 0);

	if (mask < 0 || n == 0 || !same_elem(t, r->rt) ||
	    ttc_type_kind(ttc_type_elem(t)) != TTC_TYPE_FLOAT)
		return NULL;
	for (unsigned d = 0; d < n; d++)
		if (mask >> d & 1 && ttc_type_dims(t)[d] > REVERSE_MAX)
			return NULL;
	for (unsigned d = 0; d < n && x; d++) {
		int64_t size = ttc_type_dims(t)[d];
		ttc_value *acc;

		if (!(mask >> d & 1) || size == 1)
			continue;
		acc = slice1(r, x, d, 0);
		for (int64_t i = 1; i < size && acc; i++) {
			ttc_value *ab[2] = { acc, slice1(r, x, d, i) };

			acc = ab[1] ? mk(r, "ttir.multiply", ab, 2,
					 ttc_value_type(acc), NULL) :
				      NULL;
		}
		x = acc;
	}
	return reshape(r, x, r->rt);
}

/* A constant of type t holding h's elements. */
static ttc_value *constant_of(const struct rw *r, const ttc_type *t,
			      const ttc_tensor *h)
{
	size_t bytes = h->numel * ttc_type_elem_bytes(ttc_type_elem(t));
	const ttc_attr *v = ttc_dense_attr(r->ctx, t, h->data, bytes, false,
					   true);

	return v ? mk(r, "ttir.constant", NULL, 0, t,
		      pass_dict1(r->ctx, "value", v)) :
		   NULL;
}

/*
 * gather (torch.gather: out[o] = x[o with o[d] = index[o]]; the device has
 * no such op) as an embedding of one-element rows: the flat offset of each
 * element, index * stride(d) + the offset of o's other coordinates (a
 * constant), picks a row of x reshaped to [numel, 1]. The offsets are
 * integer arithmetic, exact on the device below 2^24 elements. An index
 * outside the dimension gives 0 where the golden fails.
 */
static ttc_value *gather(const struct rw *r)
{
	const ttc_type *t = in_type(r, 0), *it = in_type(r, 1);
	unsigned n = ttc_type_rank(t);
	int64_t d = ttc_attr_int(ttc_op_attr(r->op, "dim"));
	int64_t st[TTC_MAX_RANK], o[TTC_MAX_RANK] = { 0 };
	int64_t numel = (int64_t)ttc_type_numel(t);
	int64_t ni = (int64_t)ttc_type_numel(it);
	ttc_tensor *h;

	if (d < 0)
		d += n;
	if (n == 0 || ttc_type_rank(it) != n || d < 0 || d >= (int64_t)n ||
	    ttc_type_kind(ttc_type_elem(it)) != TTC_TYPE_INT ||
	    !same_elem(t, r->rt) || numel > (1 << 24) || ni == 0)
		return NULL;
	st[n - 1] = 1;
	for (unsigned k = n - 1; k > 0; k--)
		st[k - 1] = st[k] * ttc_type_dims(t)[k];
	h = ttc_tensor_new(r->ctx, it);
	if (!h)
		return NULL;
	for (int64_t i = 0; i < ni; i++) {
		int64_t off = 0;

		for (unsigned k = 0; k < n; k++)
			off += k == (unsigned)d ? 0 : o[k] * st[k];
		ttc_tensor_set(h, (size_t)i, (double)off);
		for (int k = (int)n - 1; k >= 0; k--) {
			if (++o[k] < ttc_type_dims(it)[k])
				break;
			o[k] = 0;
		}
	}
	ttc_value *c = constant_of(r, it, h);
	ttc_value *idx = in(r, 1);

	for (int64_t i = 0; i < ni; i++)
		ttc_tensor_set(h, (size_t)i, (double)st[d]);
	if (st[d] != 1) {
		ttc_value *s = constant_of(r, it, h);
		ttc_value *m[2] = { idx, s };

		idx = s ? mk(r, "ttir.multiply", m, 2, it, NULL) : NULL;
	}
	ttc_tensor_free(h);
	ttc_value *a[2] = { idx, c };
	ttc_value *flat = idx && c ? mk(r, "ttir.add", a, 2, it, NULL) : NULL;

	flat = reshape(r, flat, pass_tensor_like(r->ctx, it, &ni, 1));
	int64_t td[2] = { numel, 1 }, ed[2] = { ni, 1 };
	ttc_value *table = reshape(r, in(r, 0),
				   pass_tensor_like(r->ctx, t, td, 2));
	ttc_value *e[2] = { flat, table };
	ttc_value *rows = flat && table ?
				  mk(r, "ttir.embedding", e, 2,
				     pass_tensor_like(r->ctx, t, ed, 2), NULL) :
				  NULL;

	return reshape(r, rows, r->rt);
}

/*
 * repeat_interleave (each element r times along dim; no device op): x
 * seen as [A, n, 1, B] (A, B the products of the dimensions before and
 * after dim), repeated r times along the 1, reshaped to the result. Rank
 * 4 whatever x's, so the device holds it.
 */
static ttc_value *repeat_interleave(const struct rw *r)
{
	const ttc_type *t = in_type(r, 0);
	unsigned n = ttc_type_rank(t);
	int64_t d = ttc_attr_int(ttc_op_attr(r->op, "dim"));
	int64_t reps = ttc_attr_int(ttc_op_attr(r->op, "repeats"));
	int64_t v[4] = { 1, 1, 1, 1 }, f[4] = { 1, 1, 1, 1 }, w[4];

	if (d < 0)
		d += n;
	if (n == 0 || d < 0 || d >= (int64_t)n || reps < 1)
		return NULL;
	for (unsigned k = 0; k < n; k++)
		v[k < d ? 0 : k == d ? 1 : 3] *= ttc_type_dims(t)[k];
	f[2] = reps;
	memcpy(w, v, sizeof(w));
	w[2] = reps;
	ttc_value *x = reshape(r, in(r, 0), pass_tensor_like(r->ctx, t, v, 4));
	ttc_value *y = x ? mk(r, "ttir.repeat", &x, 1,
			      pass_tensor_like(r->ctx, t, w, 4),
			      pass_dict1(r->ctx, "repeat_dimensions",
					 pass_i64_array(r->ctx, f, 4))) :
			   NULL;

	return reshape(r, y, r->rt);
}

/* A tensor type of t's shape with f32 elements. */
static const ttc_type *f32_like(ttc_ctx *ctx, const ttc_type *t)
{
	return ttc_tensor_type(ctx, ttc_type_dims(t), ttc_type_rank(t),
			       ttc_float_type(ctx, TTC_F32), NULL);
}

/*
 * max_pool2d and avg_pool2d (NHWC) the device's pools refuse:
 * - a side padded by more than half the kernel: the padding made
 *   explicit by ttir.pad (-inf for max, which no window's maximum keeps
 *   unless the window is all padding; 0 for avg with count_include_pad,
 *   whose divisor is the whole window either way), then the pool without
 *   padding. Left alone: avg without count_include_pad (the divisor would
 *   change), ceil_mode (its last window may start in the padding, which
 *   it drops).
 * - max_pool2d of integers (the pools take float formats): in f32
 *   between typecasts, exact (a maximum is one of the values, each exact
 *   in f32 below 2^24).
 */
static ttc_value *pool(const struct rw *r)
{
	const ttc_type *t = in_type(r, 0), *rt = r->rt;
	bool avg = !strcmp(ttc_op_name(r->op), "ttir.avg_pool2d");
	const ttc_attr *cip = ttc_op_attr(r->op, "count_include_pad");
	const ttc_attr *cm = ttc_op_attr(r->op, "ceil_mode");
	const ttc_attr *props = ttc_op_props(r->op);
	int64_t k[4], p[4], pp[8] = {0}, d[4], zero[4] = {0};
	bool big = false, neg = false, pad, ints;

	if (ttc_type_rank(t) != 4 ||
	    ttc_op_attr(r->op, "flattened_compat_info") ||
	    !four_ints(ttc_op_attr(r->op, "kernel"), 1, k) ||
	    !four_ints(ttc_op_attr(r->op, "padding"), 0, p))
		return NULL;
	for (int i = 0; i < 4; i++) {
		big |= 2 * p[i] > k[i % 2];
		neg |= p[i] < 0;
	}
	pad = big && !neg && !(cm && ttc_attr_bool(cm)) &&
	      !(avg && (!cip || !ttc_attr_bool(cip)));
	ints = !avg && ttc_type_kind(ttc_type_elem(t)) == TTC_TYPE_INT &&
	       same_elem(t, rt);
	if (!pad && !ints)
		return NULL;
	ttc_value *x = in(r, 0);

	if (ints) {
		t = f32_like(r->ctx, t);
		rt = f32_like(r->ctx, rt);
		x = mk(r, "ttir.typecast", &x, 1, t, NULL);
	}
	if (pad && x) {
		pp[2] = p[0], pp[3] = p[2], pp[4] = p[1], pp[5] = p[3];
		memcpy(d, ttc_type_dims(t), sizeof(d));
		d[1] += p[0] + p[2];
		d[2] += p[1] + p[3];
		struct ttc_named_attr e[2] = {
			{ "padding", i32s(r->ctx, pp, 8) },
			{ "value",
			  ttc_float_attr(r->ctx, avg ? 0.0 : -INFINITY,
					 ttc_float_type(r->ctx, TTC_F32)) },
		};
		x = mk(r, "ttir.pad", &x, 1, pass_tensor_like(r->ctx, t, d, 4),
		       ttc_dict_attr(r->ctx, e, 2));
		props = ttc_attr_dict_set(r->ctx, props, "padding",
					  i32s(r->ctx, zero, 4));
	}
	ttc_value *y = x ? mk(r, ttc_op_name(r->op), &x, 1, rt, props) : NULL;

	return ints && y ? mk(r, "ttir.typecast", &y, 1, r->rt, NULL) : y;
}

static const struct {
	const char *op;
	ttc_value *(*fn)(const struct rw *r);
} rules[] = {
	{ "pybuda.hslice", hslice },	   { "pybuda.hstack", hstack },
	{ "pybuda.vslice", to_reshape },   { "pybuda.vstack", to_reshape },
	{ "ttir.squeeze", to_reshape },	   { "ttir.unsqueeze", to_reshape },
	{ "pybuda.heaviside", heaviside },
	{ "ttir.clamp_tensor", clamp_tensor },
	{ "ttir.dot_general", dot_general }, { "pybuda.gelu", gelu },
	{ "pybuda.reduce_sum", reduce_sum },
	{ "pybuda.reduce_avg", reduce_avg },
	{ "pybuda.softmax", softmax },
	{ "pybuda.relu", pybuda_relu },
	{ "pybuda.identity", identity },
	{ "pybuda.concatenate", concatenate },
	{ "pybuda.index", pybuda_index },
	{ "ttir.frac", frac },
	{ "pybuda.conv2d", pybuda_conv2d },
	{ "pybuda.conv2d_transpose", pybuda_conv2d_t },
	{ "pybuda.layernorm", layernorm },
	{ "pybuda.binary_stack", binary_stack },
	{ "pybuda.max_pool2d", pybuda_max_pool },
	{ "pybuda.avg_pool2d", pybuda_avg_pool },
	{ "ttir.linear", linear },
	{ "ttir.softmax", softmax_dim },
	{ "ttir.sum", reduce_keep },
	{ "ttir.mean", reduce_keep },
	{ "ttir.max", reduce_keep },
	{ "ttir.min", reduce_keep },
	{ "ttir.argmax", argmax },
	{ "ttir.asinh", asinh_fn },
	{ "ttir.reverse", reverse },
	{ "ttir.prod", prod },
	{ "ttir.gather", gather },
	{ "ttir.repeat_interleave", repeat_interleave },
	{ "ttir.max_pool2d", pool },
	{ "ttir.avg_pool2d", pool },
};

static int rewrite(ttc_op *op, struct ttc_pass_ctx *pc)
{
	struct rw r = { op, pc->ctx, NULL };
	ttc_value *v;
	int rc;

	if (ttc_op_num_results(op) != 1)
		return 0;
	r.rt = ttc_value_type(ttc_op_result(op, 0));
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (strcmp(ttc_op_name(op), rules[i].op))
			continue;
		if (!ttc_type_is_tensor(r.rt) || !(v = rules[i].fn(&r)))
			return 0;
		if ((rc = pass_replace_op(op, &v)))
			return pass_fail(pc, op, rc, "cannot replace the op");
		pc->stats->decomposed++;
		return 0;
	}
	return 0;
}

static int run(ttc_func *f, struct ttc_pass_ctx *pc)
{
	ttc_op *op, *next;
	int rc = 0;

	for (op = ttc_func_first_op(f); op && !rc; op = next) {
		next = ttc_op_next(op);
		rc = rewrite(op, pc);
	}
	return rc;
}

const struct ttc_pass ttc_pass_decompose = {
	.name = "decompose",
	.summary = "rewrites ops the device has no op for into ops it has",
	.run = run,
};
