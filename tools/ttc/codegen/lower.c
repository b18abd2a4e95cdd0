// SPDX-License-Identifier: Apache-2.0
/*
 * TTIR to op records: every argument, constant and op result becomes a
 * tensor of the compiled model, every op one record of the device op
 * library (libtt's tt/model.h, docs/image.md "Ops"), by the table below.
 * An op with no rule is an error naming it: codegen never drops an op.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/internal.h"
#include "internal.h"
#include "ttc/golden.h"

/* ---- value -> tensor ---- */

struct vmap {
	const ttc_value **keys;
	unsigned *vals;
	size_t cap;
};

static size_t vslot(const struct vmap *m, const ttc_value *v)
{
	size_t h = ((uintptr_t)v >> 4) * 0x9e3779b97f4a7c15ull;

	for (h &= m->cap - 1; m->keys[h] && m->keys[h] != v;
	     h = (h + 1) & (m->cap - 1))
		;
	return h;
}

static void vput(struct vmap *m, const ttc_value *v, unsigned t)
{
	size_t h = vslot(m, v);

	m->keys[h] = v;
	m->vals[h] = t;
}

static int vget(const struct vmap *m, const ttc_value *v, unsigned *t)
{
	size_t h = vslot(m, v);

	if (!m->keys[h])
		return -ENOENT;
	*t = m->vals[h];
	return 0;
}

/* ---- tensors ---- */

static enum tt_data_format elem_format(const ttc_type *elem)
{
	if (ttc_type_kind(elem) == TTC_TYPE_FLOAT) {
		switch (ttc_type_float_kind(elem)) {
		case TTC_BF16:
			return TT_FLOAT16_B;
		case TTC_F16:
			return TT_FLOAT16;
		default:
			return TT_FLOAT32;
		}
	}
	if (ttc_type_kind(elem) == TTC_TYPE_INT)
		return ttc_type_signedness(elem) == TTC_UNSIGNED &&
				       ttc_type_width(elem) <= 16 ?
			       (ttc_type_width(elem) <= 8 ? TT_UINT8 : TT_UINT16) :
			       TT_INT32;
	return TT_INVALID;
}

/* The device format of a value: its op's ttc.df, the default, or its
 * element type's. */
static enum tt_data_format type_format(ttc_compiled *c, const ttc_type *t,
				       const ttc_op *def)
{
	const ttc_attr *df = def ? ttc_op_attr(def, "ttc.df") : NULL;
	enum tt_data_format f = elem_format(ttc_type_elem(t));

	if (f != TT_FLOAT32 && f != TT_FLOAT16_B && f != TT_FLOAT16)
		return f; /* integers keep their format */
	if (df && ttc_attr_kind(df) == TTC_ATTR_STRING &&
	    tt_data_format_parse(ttc_attr_str(df, NULL), &f) == 0)
		return f;
	return c->o.default_df != TT_INVALID ? c->o.default_df : f;
}

/* The device shape of rows: [1, 1, all but the last, the last]. */
static void rows_shape(struct tt_shape *s)
{
	uint64_t n = 1;

	for (unsigned k = 0; k + 1 < s->rank; k++)
		n *= s->dims[k];
	*s = TT_SHAPE(1, 1, n, s->dims[s->rank - 1]);
}

/* A tensor of type t (def: the op whose ttc.df gives its format, or
 * NULL), in its natural shape, or as rows. */
int cg_add_typed(ttc_compiled *c, const ttc_type *t, const ttc_op *def,
		 bool rows, const char *name, enum tt_model_tensor_kind kind,
		 const ttc_op *op, unsigned *out)
{
	struct cg_tensor *ct;
	unsigned rank = ttc_type_rank(t);

	if (!ttc_type_is_tensor(t) || rank > TT_TENSOR_MAX_RANK)
		return cg_error(c, op, -ENOTSUP,
				"%s: the device holds tensors of rank 0..%u",
				name, TT_TENSOR_MAX_RANK);
	if (c->ntensors == c->captensors) {
		c->captensors = c->captensors ? 2 * c->captensors : 64;
		c->tensors = ttc_xrealloc(c->tensors, c->captensors *
							      sizeof(*c->tensors));
	}
	ct = &c->tensors[c->ntensors];
	*ct = (struct cg_tensor){.first = ~0u, .last = 0, .rows = rows,
				 .twin = ~0u, .type = t};
	ct->t.name = name;
	ct->t.kind = kind;
	ct->t.slot = -1;
	ct->t.format = type_format(c, t, def);
	ct->t.shape.rank = rank ? rank : 1;
	ct->t.shape.dims[0] = 1;
	for (unsigned k = 0; k < rank; k++)
		ct->t.shape.dims[k] = (uint64_t)ttc_type_dims(t)[k];
	if (rows)
		rows_shape(&ct->t.shape);
	if (ct->t.format == TT_INVALID)
		return cg_error(c, op, -ENOTSUP,
				"%s: no device data format for its element type",
				name);
	*out = (unsigned)c->ntensors++;
	return 0;
}

int cg_add_tensor(ttc_compiled *c, const ttc_value *v, const char *name,
		  enum tt_model_tensor_kind kind, const ttc_op *op,
		  unsigned *out)
{
	int ret = cg_add_typed(c, ttc_value_type(v), ttc_value_def(v), false, name,
			    kind, op, out);

	if (!ret)
		c->tensors[*out].v = v;
	return ret;
}

/* Integer data is stored as Float32, as the pipeline writes integer
 * inputs (the loader converts to the tensor's integer format): exact up
 * to 2^24 in magnitude. */
static int check_int_data(ttc_compiled *c, const struct cg_tensor *t,
			  const ttc_tensor *h, const ttc_op *op)
{
	for (size_t k = 0; k < h->numel; k++) {
		double v = ttc_tensor_get(h, k);

		if (v > 16777216.0 || v < -16777216.0)
			return cg_error(c, op, -ENOTSUP,
					"%s: integer value %.0f (element %zu) is beyond 2^24, where its Float32 image is exact",
					t->t.name, v, k);
	}
	return 0;
}

/* Data of a parameter or constant, row-major: bf16 for Float16_b
 * tensors (their device values are exactly these), Float32 else. */
int cg_set_data(ttc_compiled *c, unsigned i, const ttc_tensor *h,
		const ttc_op *op)
{
	struct cg_tensor *t = &c->tensors[i];
	bool bf16 = t->t.format == TT_FLOAT16_B;
	bool is_int = ttc_type_kind(ttc_type_elem(h->type)) == TTC_TYPE_INT;
	size_t n = h->numel;
	int ret = is_int ? check_int_data(c, t, h, op) : 0;

	if (ret)
		return ret;
	t->t.data_format = bf16 ? TT_FLOAT16_B : TT_FLOAT32;
	t->bytes = n * (bf16 ? 2 : 4);
	t->data = ttc_xmalloc(t->bytes ? t->bytes : 1);
	for (size_t k = 0; k < n; k++) {
		float f = (float)ttc_tensor_get(h, k);

		if (bf16)
			((uint16_t *)t->data)[k] = tt_float_to_bf16(f);
		else
			((float *)t->data)[k] = f;
	}
	t->t.section = cg_printf(c, "d/%u", i);
	return t->t.section ? 0 : -ENOMEM;
}

/* ---- names ---- */

static const char *tensor_name(ttc_compiled *c, const char *want,
			       const char *fallback, size_t index)
{
	return cg_tame(c, want, fallback, index, true);
}

static const char *loc_name(const ttc_loc *l)
{
	return l && ttc_loc_kind(l) == TTC_LOC_NAME ? ttc_loc_str(l) : NULL;
}

/* ---- arguments ---- */

static enum tt_model_tensor_kind arg_kind(ttc_func *f, size_t i)
{
	const ttc_attr *d = ttc_func_arg_attrs(f, i);
	const ttc_attr *a = d ? ttc_attr_dict_get(d, "ttcore.argument_type")
			      : NULL;
	const char *s = a ? ttc_attr_str(a, NULL) : NULL;

	if (s && strstr(s, "parameter"))
		return TT_MODEL_PARAM;
	if (s && strstr(s, "constant"))
		return TT_MODEL_CONST;
	return TT_MODEL_INPUT;
}

/* A parameter's value must be of its argument's shape: its data is
 * written for the argument's tensor. */
static bool same_shape(const ttc_type *a, const ttc_type *b)
{
	unsigned r = ttc_type_rank(a);

	if (r != ttc_type_rank(b))
		return false;
	for (unsigned k = 0; k < r; k++)
		if (ttc_type_dims(a)[k] != ttc_type_dims(b)[k])
			return false;
	return true;
}

static int lower_args(ttc_compiled *c, ttc_func *f, struct vmap *vm,
		      ttc_param_fn param, void *arg)
{
	for (size_t i = 0; i < ttc_func_num_args(f); i++) {
		ttc_value *v = ttc_func_arg(f, i);
		enum tt_model_tensor_kind kind = arg_kind(f, i);
		const char *name = tensor_name(c, loc_name(ttc_func_arg_loc(f, i)),
					       "arg", i);
		const ttc_tensor *h;
		unsigned t;
		int ret;

		if (kind == TT_MODEL_INPUT && ttc_value_num_uses(v) == 0)
			; /* an unused input still takes its queue */
		else if (kind != TT_MODEL_INPUT && ttc_value_num_uses(v) == 0)
			continue; /* folded away: nothing to store */
		else if (kind != TT_MODEL_INPUT && cg_window_only_arg(v))
			continue; /* window.c stores it transformed */
		ret = cg_add_tensor(c, v, name, kind, NULL, &t);
		if (ret)
			return ret;
		vput(vm, v, t);
		if (kind == TT_MODEL_INPUT)
			continue;
		h = param ? param(arg, f, i) : NULL;
		if (!h)
			return cg_error(c, NULL, -EINVAL,
					"argument #%zu (%s) of @%s is a %s without a value",
					i, name, ttc_func_name(f),
					kind == TT_MODEL_PARAM ? "parameter"
							       : "constant");
		if (!same_shape(ttc_value_type(v), h->type))
			return cg_error(c, NULL, -EINVAL,
					"argument #%zu (%s) of @%s: the value given (%zu elements) is not of its shape (%llu elements)",
					i, name, ttc_func_name(f), h->numel,
					(unsigned long long)ttc_type_numel(
						ttc_value_type(v)));
		ret = cg_set_data(c, t, h, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- op records ---- */

static int attr_str(ttc_compiled *c, struct cg_op *o, const char *name,
		    const char *value)
{
	if (o->op.nattrs == CG_MAX_ATTRS || !value)
		return cg_error(c, o->src, -E2BIG, "too many attributes");
	o->attrs[o->op.nattrs++] = (struct tt_model_attr){name, value};
	return 0;
}

int cg_attr(ttc_compiled *c, struct cg_op *o, const char *name,
	    const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return attr_str(c, o, name, cg_str(c, buf));
}

static int attr_bool(ttc_compiled *c, struct cg_op *o, const char *name,
		     const char *ir_name)
{
	const ttc_attr *a = ttc_op_attr(o->src, ir_name);

	if (!a)
		return 0;
	return attr_str(c, o, name, ttc_attr_bool(a) ? "true" : "false");
}

static int attr_float(ttc_compiled *c, struct cg_op *o, const char *name,
		      const char *ir_name)
{
	const ttc_attr *a = ttc_op_attr(o->src, ir_name);

	if (!a)
		return 0;
	return cg_attr(c, o, name, "%.9g",
			ttc_attr_kind(a) == TTC_ATTR_INT ? (double)ttc_attr_int(a)
							 : ttc_attr_float(a));
}

static int attr_int(ttc_compiled *c, struct cg_op *o, const char *name,
		    const char *ir_name)
{
	const ttc_attr *a = ttc_op_attr(o->src, ir_name);

	return a ? cg_attr(c, o, name, "%lld", (long long)ttc_attr_int(a)) : 0;
}

/* A list attribute as "a,b,c"; negative dims made positive when rank. */
static int attr_ints(ttc_compiled *c, struct cg_op *o, const char *name,
		     const char *ir_name, unsigned rank)
{
	const ttc_attr *a = ttc_op_attr(o->src, ir_name);
	int64_t v[TTC_MAX_RANK];
	char buf[256];
	size_t n = 0;
	int k;

	if (!a)
		return 0;
	k = ttc_attr_ints(a, v, TTC_MAX_RANK);
	if (k < 0)
		return cg_error(c, o->src, -EINVAL, "%s: not a list of integers",
				ir_name);
	buf[0] = '\0';
	for (int i = 0; i < k; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%lld",
				      i ? "," : "",
				      (long long)(rank && v[i] < 0 ? v[i] + rank
								    : v[i]));
	return attr_str(c, o, name, cg_str(c, buf));
}

static bool int_type(const ttc_type *t)
{
	return ttc_type_kind(ttc_type_elem(t)) == TTC_TYPE_INT;
}

static unsigned in_rank(const struct cg_op *o)
{
	return ttc_type_rank(ttc_value_type(ttc_op_operand(o->src, 0)));
}

/* The attributes of each kind of op. */
static int a_none(ttc_compiled *c, struct cg_op *o)
{
	(void)c;
	(void)o;
	return 0;
}

/* The op library rounds an integer quotient to nearest (docs/ops.md,
 * "Integer tensors"); TTIR's div of integers truncates. */
static int a_div(ttc_compiled *c, struct cg_op *o)
{
	if (int_type(ttc_value_type(ttc_op_result(o->src, 0))))
		return cg_error(c, o->src, -ENOTSUP,
				"an integer div: the device rounds the quotient to nearest, TTIR truncates it");
	return 0;
}

static int a_matmul(ttc_compiled *c, struct cg_op *o)
{
	return attr_bool(c, o, "transpose_a", "transpose_a") ||
	       attr_bool(c, o, "transpose_b", "transpose_b");
}

static int a_leaky(ttc_compiled *c, struct cg_op *o)
{
	return attr_float(c, o, "p0", "parameter");
}

static int a_clip(ttc_compiled *c, struct cg_op *o)
{
	return attr_float(c, o, "p0", "min") || attr_float(c, o, "p1", "max");
}

static int a_softmax(ttc_compiled *c, struct cg_op *o)
{
	const ttc_attr *d = ttc_op_attr(o->src, "dimension");
	int64_t dim = d ? ttc_attr_int(d) : -1;
	unsigned rank = in_rank(o);

	if (dim != -1 && dim != (int64_t)rank - 1)
		return cg_error(c, o->src, -ENOTSUP,
				"softmax over dimension %lld of %u: the device op takes the last one",
				(long long)dim, rank);
	return 0;
}

static int a_norm(ttc_compiled *c, struct cg_op *o)
{
	int64_t ns[TTC_MAX_RANK];
	const ttc_attr *a = ttc_op_attr(o->src, "normalized_shape");
	const ttc_type *t = ttc_value_type(ttc_op_operand(o->src, 0));
	int n = a ? ttc_attr_ints(a, ns, TTC_MAX_RANK) : -1;
	const ttc_attr *seg = ttc_op_attr(o->src, "operandSegmentSizes");
	int64_t sv[3];

	if (n != 1 || ns[0] != ttc_type_dims(t)[ttc_type_rank(t) - 1])
		return cg_error(c, o->src, -ENOTSUP,
				"normalized_shape must be the last dimension alone: the device op normalises rows");
	/* The record's inputs are by position (x, weight, bias): a bias
	 * without a weight leaves the weight's place empty. */
	if (seg && ttc_attr_ints(seg, sv, 3) == 3 && !sv[1] && sv[2] &&
	    o->op.nin == 2) {
		o->in[2] = o->in[1];
		o->in[1] = TT_MODEL_NONE;
		o->op.nin = 3;
	}
	if (!strcmp(o->op.op, "rmsnorm") && o->op.nin > 2)
		return cg_error(c, o->src, -ENOTSUP,
				"rms_norm with a bias: the device op takes a weight only");
	return attr_float(c, o, "eps", "epsilon");
}

static int a_reduce(ttc_compiled *c, struct cg_op *o)
{
	int ret = attr_bool(c, o, "keepdim", "keep_dim");

	if (!ret && !ttc_op_attr(o->src, "dim_arg")) {
		/* Every dimension. */
		char buf[16] = "";
		for (unsigned i = 0; i < in_rank(o); i++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
				 "%s%u", i ? "," : "", i);
		return attr_str(c, o, "dims", cg_str(c, buf));
	}
	return ret ? ret : attr_ints(c, o, "dims", "dim_arg", in_rank(o));
}

/* tt_op_argmax runs along the last dimension (decompose moves another
 * one there). */
static int a_argmax(ttc_compiled *c, struct cg_op *o)
{
	const ttc_attr *a = ttc_op_attr(o->src, "dim_arg");
	int64_t d[TTC_MAX_RANK];
	int n = a ? ttc_attr_ints(a, d, TTC_MAX_RANK) : -1;
	unsigned rank = in_rank(o);

	if (rank == 0 || (a && (n != 1 || (d[0] != -1 &&
					   d[0] != (int64_t)rank - 1))) ||
	    (!a && rank != 1))
		return cg_error(c, o->src, -ENOTSUP,
				"argmax over other than the last dimension: the device op takes the last one");
	return attr_bool(c, o, "keepdim", "keep_dim");
}

static int a_transpose(ttc_compiled *c, struct cg_op *o)
{
	return attr_int(c, o, "dim0", "dim0") || attr_int(c, o, "dim1", "dim1");
}

static int a_permute(ttc_compiled *c, struct cg_op *o)
{
	return attr_ints(c, o, "perm", "permutation", 0);
}

static int a_concat(ttc_compiled *c, struct cg_op *o)
{
	return attr_int(c, o, "dim", "dim");
}

static int a_slice(ttc_compiled *c, struct cg_op *o)
{
	return attr_ints(c, o, "start", "begins", 0) ||
	       attr_ints(c, o, "end", "ends", 0) ||
	       attr_ints(c, o, "step", "step", 0);
}

/* padding [low, high] per dimension as before and after lists; the
 * device pads only (a negative entry crops). */
static int a_pad(ttc_compiled *c, struct cg_op *o)
{
	const ttc_attr *a = ttc_op_attr(o->src, "padding");
	int64_t p[2 * TTC_MAX_RANK];
	unsigned rank = in_rank(o);
	char lo[128] = "", hi[128] = "";
	int n = a ? ttc_attr_ints(a, p, 2 * TTC_MAX_RANK) : -1;

	if (n != 2 * (int)rank || rank == 0)
		return cg_error(c, o->src, -EINVAL,
				"padding: two entries per dimension");
	for (unsigned i = 0; i < rank; i++) {
		if (p[2 * i] < 0 || p[2 * i + 1] < 0)
			return cg_error(c, o->src, -ENOTSUP,
					"padding %lld, %lld of dimension %u: the device op pads, it does not crop",
					(long long)p[2 * i],
					(long long)p[2 * i + 1], i);
		snprintf(lo + strlen(lo), sizeof(lo) - strlen(lo), "%s%lld",
			 i ? "," : "", (long long)p[2 * i]);
		snprintf(hi + strlen(hi), sizeof(hi) - strlen(hi), "%s%lld",
			 i ? "," : "", (long long)p[2 * i + 1]);
	}
	return attr_str(c, o, "before", cg_str(c, lo)) ||
	       attr_str(c, o, "after", cg_str(c, hi)) ||
	       attr_float(c, o, "value", "value");
}

/* tt_op_embedding: indices [S] or [B, S] of integers, a table [V, D].
 * An index outside the table gives zeros there (TTIR's golden clamps it);
 * in range they agree. */
static int a_embedding(ttc_compiled *c, struct cg_op *o)
{
	const ttc_type *it = ttc_value_type(ttc_op_operand(o->src, 0));
	const ttc_type *wt = ttc_value_type(ttc_op_operand(o->src, 1));

	if (ttc_type_rank(it) < 1 || ttc_type_rank(it) > 2 ||
	    ttc_type_rank(wt) != 2 || !int_type(it))
		return cg_error(c, o->src, -ENOTSUP,
				"embedding: the device op takes integer indices [S] or [B, S] and a table [V, D]");
	return 0;
}

/* broadcast_dimensions and repeat_dimensions: repeat counts per
 * dimension (a broadcast's count applies to a dimension of 1), what
 * tt_op_repeat takes. */
static int a_repeat(ttc_compiled *c, struct cg_op *o)
{
	const char *name = ttc_op_attr(o->src, "broadcast_dimensions") ?
				   "broadcast_dimensions" :
				   "repeat_dimensions";

	if (in_rank(o) == 0)
		return cg_error(c, o->src, -ENOTSUP,
				"a rank-0 %s: nothing to repeat along",
				name);
	return attr_ints(c, o, "reps", name, 0);
}

/* tt_op_cumsum sums along the last two dimensions only, and exactly for
 * integers below 256 in magnitude only (its products pass the matrix
 * unit), which a compile cannot promise. */
static int a_cumsum(ttc_compiled *c, struct cg_op *o)
{
	int64_t d = ttc_attr_int(ttc_op_attr(o->src, "dim"));
	unsigned rank = in_rank(o);

	if (d < 0)
		d += rank;
	if (int_type(ttc_value_type(ttc_op_operand(o->src, 0))))
		return cg_error(c, o->src, -ENOTSUP,
				"an integer cumsum: the device's is exact below 256 in magnitude only");
	if (rank == 0 || d < 0 || d >= (int64_t)rank || d + 2 < (int64_t)rank)
		return cg_error(c, o->src, -ENOTSUP,
				"cumsum along dimension %lld of %u: the device op sums along the last two",
				(long long)d, rank);
	return cg_attr(c, o, "dim", "%lld", (long long)d);
}

struct rule {
	const char *ttir;
	const char *op; /* record op */
	const char *fn; /* its fn attribute, or NULL */
	int (*attrs)(ttc_compiled *c, struct cg_op *o);
};

static const struct rule rules[] = {
	/* unary */
	{"ttir.abs", "unary", "abs", a_none},
	{"ttir.ceil", "unary", "ceil", a_none},
	{"ttir.clamp_scalar", "unary", "clip", a_clip},
	{"ttir.cos", "unary", "cos", a_none},
	{"ttir.erf", "unary", "erf", a_none},
	{"ttir.erfc", "unary", "erfc", a_none},
	{"ttir.exp", "unary", "exp", a_none},
	{"ttir.exp2", "unary", "exp2", a_none},
	{"ttir.expm1", "unary", "expm1", a_none},
	{"ttir.floor", "unary", "floor", a_none},
	{"ttir.gelu", "unary", "gelu", a_none},
	{"ttir.hardsigmoid", "unary", "hardsigmoid", a_none},
	{"ttir.isfinite", "unary", "isfinite", a_none},
	{"ttir.leaky_relu", "unary", "leaky_relu", a_leaky},
	{"ttir.log", "unary", "log", a_none},
	{"ttir.log1p", "unary", "log1p", a_none},
	{"ttir.logical_not", "unary", "logical_not", a_none},
	{"ttir.mish", "unary", "mish", a_none},
	{"ttir.neg", "unary", "neg", a_none},
	{"ttir.reciprocal", "unary", "recip", a_none},
	{"ttir.relu", "unary", "relu", a_none},
	{"ttir.relu6", "unary", "relu6", a_none},
	{"ttir.rsqrt", "unary", "rsqrt", a_none},
	{"ttir.sigmoid", "unary", "sigmoid", a_none},
	{"ttir.sign", "unary", "sign", a_none},
	{"ttir.silu", "unary", "silu", a_none},
	{"ttir.sin", "unary", "sin", a_none},
	{"ttir.softsign", "unary", "softsign", a_none},
	{"ttir.sqrt", "unary", "sqrt", a_none},
	{"ttir.square", "unary", "square", a_none},
	{"ttir.tan", "unary", "tan", a_none},
	{"ttir.tanh", "unary", "tanh", a_none},
	{"ttir.trunc", "unary", "trunc", a_none},
	{"ttir.typecast", "typecast", NULL, a_none},
	/* binary */
	{"ttir.add", "binary", "add", a_none},
	{"ttir.subtract", "binary", "sub", a_none},
	{"ttir.multiply", "binary", "mul", a_none},
	{"ttir.div", "binary", "div", a_div},
	{"ttir.maximum", "binary", "max", a_none},
	{"ttir.minimum", "binary", "min", a_none},
	{"ttir.pow", "binary", "pow", a_none},
	{"ttir.eq", "binary", "eq", a_none},
	{"ttir.ne", "binary", "ne", a_none},
	{"ttir.lt", "binary", "lt", a_none},
	{"ttir.le", "binary", "le", a_none},
	{"ttir.gt", "binary", "gt", a_none},
	{"ttir.ge", "binary", "ge", a_none},
	{"ttir.logical_and", "binary", "logical_and", a_none},
	{"ttir.logical_or", "binary", "logical_or", a_none},
	{"ttir.logical_xor", "binary", "logical_xor", a_none},
	{"ttir.where", "where", NULL, a_none},
	/* the rest */
	{"ttir.matmul", "matmul", NULL, a_matmul},
	{"ttir.linear", "linear", NULL, a_matmul},
	{"ttir.softmax", "softmax", NULL, a_softmax},
	{"ttir.layer_norm", "layernorm", NULL, a_norm},
	{"ttir.rms_norm", "rmsnorm", NULL, a_norm},
	{"ttir.sum", "reduce", "sum", a_reduce},
	{"ttir.mean", "reduce", "mean", a_reduce},
	{"ttir.max", "reduce", "max", a_reduce},
	{"ttir.min", "reduce", "min", a_reduce},
	{"ttir.argmax", "argmax", NULL, a_argmax},
	{"ttir.transpose", "transpose", NULL, a_transpose},
	{"ttir.permute", "permute", NULL, a_permute},
	{"ttir.reshape", "reshape", NULL, a_none},
	{"ttir.squeeze", "reshape", NULL, a_none},
	{"ttir.unsqueeze", "reshape", NULL, a_none},
	{"ttir.concat", "concat", NULL, a_concat},
	{"ttir.slice_static", "slice", NULL, a_slice},
	{"ttir.pad", "pad", NULL, a_pad},
	{"ttir.embedding", "embedding", NULL, a_embedding},
	{"ttir.broadcast", "repeat", NULL, a_repeat},
	{"ttir.repeat", "repeat", NULL, a_repeat},
	{"ttir.cumsum", "cumsum", NULL, a_cumsum},
};

static const struct rule *find_rule(const char *name)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (strcmp(rules[i].ttir, name) == 0)
			return &rules[i];
	return NULL;
}

/* Whether an operand or the result is integer: the op library keeps
 * integers in a 32-bit DST only (a 16-bit one holds 8 bits of them), so
 * such an op accumulates in fp32 whatever ttc.acc_df says. */
static bool int_op(const ttc_op *op)
{
	for (size_t i = 0; i < ttc_op_num_operands(op); i++)
		if (int_type(ttc_value_type(ttc_op_operand(op, i))))
			return true;
	return int_type(ttc_value_type(ttc_op_result(op, 0)));
}

/* What the passes put on the op: format, fidelity, fused activation. */
static int pass_attrs(ttc_compiled *c, struct cg_op *o)
{
	static const char *const names[][2] = {
		{"ttc.fidelity", "fidelity"},
		{"ttc.activation", "activation"},
	};
	const ttc_attr *a;
	int ret = 0;

	for (size_t i = 0; !ret && i < 2; i++) {
		a = ttc_op_attr(o->src, names[i][0]);
		if (a && ttc_attr_kind(a) == TTC_ATTR_STRING)
			ret = attr_str(c, o, names[i][1],
				       cg_str(c, ttc_attr_str(a, NULL)));
	}
	if (!ret)
		ret = attr_float(c, o, "activation_p0", "ttc.activation_p0");
	if (!ret)
		ret = attr_float(c, o, "activation_p1", "ttc.activation_p1");
	a = ttc_op_attr(o->src, "ttc.acc_df");
	if (!ret && int_op(o->src))
		ret = attr_str(c, o, "fp32_acc", "true");
	else if (!ret && a && ttc_attr_kind(a) == TTC_ATTR_STRING)
		ret = attr_str(c, o, "fp32_acc",
			       strcmp(ttc_attr_str(a, NULL), "Float32") == 0 ?
				       "true" : "false");
	return ret;
}

/* ttc.weight_df (AMP levels 1 and 2): the device format of the weights
 * of a matmul-like op, operand 1, when they are data of the image (an
 * activation keeps the format its op writes). The data stays as it was
 * stored; the loader converts it. */
static void weight_format(ttc_compiled *c, struct cg_op *o)
{
	const ttc_attr *a = ttc_op_attr(o->src, "ttc.weight_df");
	struct cg_tensor *w;
	enum tt_data_format f;

	if (!a || ttc_attr_kind(a) != TTC_ATTR_STRING || o->op.nin < 2 ||
	    o->in[1] == TT_MODEL_NONE ||
	    tt_data_format_parse(ttc_attr_str(a, NULL), &f))
		return;
	w = &c->tensors[o->in[1]];
	if (w->t.kind == TT_MODEL_PARAM || w->t.kind == TT_MODEL_CONST)
		w->t.format = f;
}

static struct cg_op *new_op(ttc_compiled *c)
{
	if (c->nops == c->capops) {
		c->capops = c->capops ? 2 * c->capops : 64;
		c->ops = ttc_xrealloc(c->ops, c->capops * sizeof(*c->ops));
	}
	memset(&c->ops[c->nops], 0, sizeof(c->ops[0]));
	return &c->ops[c->nops++];
}

struct cg_op *cg_new_op(ttc_compiled *c, const ttc_op *op, const char *kind,
			size_t index)
{
	struct cg_op *o = new_op(c);

	o->src = op;
	o->op.name = cg_op_name(c, op, index);
	o->op.op = kind;
	o->op.in = o->in;
	o->op.attrs = o->attrs;
	return o;
}

/* ---- layouts: natural shapes, or rows for convolutions (window.c) ---- */

/* A new activation `name` of t's type and format, in rows or not, made
 * from t by a reshape record (the last tensor and op so far): *out. */
static int reshaped(ttc_compiled *c, unsigned t, bool rows, const char *name,
		    unsigned *out)
{
	struct cg_op *o;
	unsigned n;
	int ret;

	ret = cg_add_typed(c, c->tensors[t].type, NULL, rows, name,
			   TT_MODEL_ACT, NULL, &n);
	if (ret)
		return ret;
	c->tensors[n].t.format = c->tensors[t].t.format;
	o = new_op(c);
	o->op.name = name;
	o->op.op = "reshape";
	o->op.in = o->in;
	o->op.attrs = o->attrs;
	o->in[o->op.nin++] = t;
	o->op.out = n;
	*out = n;
	return 0;
}

int cg_layout(ttc_compiled *c, unsigned t, bool rows, size_t index,
	      unsigned *out)
{
	struct cg_tensor *ct = &c->tensors[t];
	const char *name;
	unsigned n;
	int ret;

	if (ct->rows == rows) {
		*out = t;
		return 0;
	}
	if (ct->twin != ~0u) {
		*out = ct->twin;
		return 0;
	}
	name = tensor_name(c, cg_printf(c, "%s.%s", ct->t.name,
					rows ? "rows" : "nhwc"),
			   "t", index);
	ret = reshaped(c, t, rows, name, &n);
	if (ret)
		return ret;
	c->tensors[t].twin = n;
	c->tensors[n].twin = t;
	*out = n;
	return 0;
}

static bool is_eltwise(const struct rule *r)
{
	return r && (!strcmp(r->op, "unary") || !strcmp(r->op, "binary") ||
		     !strcmp(r->op, "where") || !strcmp(r->op, "typecast"));
}

/* An operand that broadcasts over rows: every dimension but the last 1. */
static bool channel_only(const ttc_type *t)
{
	for (unsigned k = 0; k + 1 < ttc_type_rank(t); k++)
		if (ttc_type_dims(t)[k] != 1)
			return false;
	return true;
}

/* Whether an element-wise op runs on rows: one of its operands of the
 * result's shape is rows, and every other operand broadcasts over rows. */
static bool eltwise_rows(ttc_compiled *c, const ttc_op *op,
			 const unsigned *in, size_t n)
{
	const ttc_type *rt = ttc_value_type(ttc_op_result(op, 0));
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		const ttc_type *t = ttc_value_type(ttc_op_operand(op, i));

		if (same_shape(t, rt))
			any |= c->tensors[in[i]].rows;
		else if (!channel_only(t))
			return false;
	}
	return any;
}

/* The operands' tensors, each in the layout the op takes (a reshape
 * takes either); whether the result is rows. */
static int operands(ttc_compiled *c, const ttc_op *op, const struct rule *r,
		    size_t index, struct vmap *vm, unsigned *in, size_t *n,
		    bool *rows_out)
{
	bool window = cg_is_window_op(op);
	bool reshape = r && !strcmp(r->op, "reshape");
	const ttc_type *rt = ttc_value_type(ttc_op_result(op, 0));
	bool rows;
	int ret = 0;

	*n = window ? 1 : ttc_op_num_operands(op);
	for (size_t i = 0; i < *n; i++)
		if (vget(vm, ttc_op_operand(op, i), &in[i]))
			return cg_error(c, op, -EINVAL,
					"operand #%zu is not a tensor codegen knows",
					i);
	rows = window || (is_eltwise(r) && eltwise_rows(c, op, in, *n));
	for (size_t i = 0; !ret && i < *n && !reshape; i++) {
		if (in[i] == TT_MODEL_NONE)
			continue;
		bool want = rows && (window || same_shape(ttc_value_type(
						   ttc_op_operand(op, i)), rt));

		ret = cg_layout(c, in[i], want, index, &in[i]);
	}
	*rows_out = rows;
	return ret;
}

static int lower_constant(ttc_compiled *c, const ttc_op *op, size_t index,
			  struct vmap *vm)
{
	const ttc_attr *val = ttc_op_attr(op, "value");
	ttc_value *v = ttc_op_result(op, 0);
	ttc_tensor *h;
	unsigned t;
	int ret;

	if (!val || ttc_attr_kind(val) != TTC_ATTR_DENSE)
		return cg_error(c, op, -ENOTSUP,
				"a constant needs a dense value");
	ret = cg_add_tensor(c, v, tensor_name(c, loc_name(ttc_op_loc(op)), "const",
					   index),
			 TT_MODEL_CONST, op, &t);
	if (ret)
		return ret;
	h = ttc_tensor_new(c->ctx, ttc_value_type(v));
	if (!h)
		return -ENOMEM;
	for (size_t k = 0; k < h->numel; k++)
		ttc_tensor_set(h, k, ttc_attr_dense_get(val, k));
	ret = cg_set_data(c, t, h, op);
	ttc_tensor_free(h);
	vput(vm, v, t);
	return ret;
}

/* An op of no operands that makes a tensor (full, zeros, ones, arange):
 * its value, computed by its golden now, stored as a constant. */
static bool is_creation(const ttc_op *op)
{
	static const char *const names[] = {"ttir.full", "ttir.zeros",
					    "ttir.ones", "ttir.arange"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(ttc_op_name(op), names[i]))
			return ttc_op_num_operands(op) == 0 &&
			       ttc_op_num_results(op) == 1;
	return false;
}

static int lower_creation(ttc_compiled *c, const ttc_op *op, size_t index,
			  struct vmap *vm)
{
	ttc_value *v = ttc_op_result(op, 0);
	ttc_tensor *h = NULL;
	unsigned t;
	int ret;

	ret = cg_add_tensor(c, v,
			    tensor_name(c, loc_name(ttc_op_loc(op)), "const",
					index),
			    TT_MODEL_CONST, op, &t);
	if (ret)
		return ret;
	ret = ttc_golden_op(op, NULL, 0, &h, TT_FLOAT32);
	if (!ret)
		ret = cg_set_data(c, t, h, op);
	ttc_tensor_free(h);
	vput(vm, v, t);
	return ret;
}

static int lower_op(ttc_compiled *c, const ttc_op *op, size_t index,
		    struct vmap *vm)
{
	const struct rule *r = find_rule(ttc_op_name(op));
	bool window = cg_is_window_op(op), rows = false;
	unsigned in[TT_MODEL_MAX_OP_INPUTS], t;
	struct cg_op *o;
	size_t n;
	int ret;

	if (strcmp(ttc_op_name(op), "ttir.constant") == 0)
		return lower_constant(c, op, index, vm);
	if (is_creation(op))
		return lower_creation(c, op, index, vm);
	if (!r && !window)
		return cg_error(c, op, -ENOTSUP,
				"'%s' has no device op (ttc ops lists the ops; the decompose pass rewrites some)",
				ttc_op_name(op));
	if (ttc_op_num_results(op) != 1 ||
	    ttc_op_num_operands(op) > TT_MODEL_MAX_OP_INPUTS)
		return cg_error(c, op, -ENOTSUP,
				"ops of one result and at most %u operands only",
				TT_MODEL_MAX_OP_INPUTS);
	ret = operands(c, op, r, index, vm, in, &n, &rows);
	if (ret)
		return ret;
	o = cg_new_op(c, op, window ? cg_window_kind(op) : r->op, index);
	memcpy(o->in, in, n * sizeof(in[0]));
	o->op.nin = (unsigned)n;
	if (window)
		ret = cg_lower_window(c, op, index, o);
	else if (r->fn)
		ret = attr_str(c, o, "fn", r->fn);
	if (!ret && !window)
		ret = r->attrs(c, o);
	if (!ret)
		ret = pass_attrs(c, o);
	if (ret)
		return ret;
	weight_format(c, o);
	/* Ops may share a location name; tensors may not. */
	ret = cg_add_typed(c, ttc_value_type(ttc_op_result(op, 0)), op, rows,
			tensor_name(c, o->op.name, "t", index), TT_MODEL_ACT,
			op, &t);
	if (ret)
		return ret;
	c->tensors[t].v = ttc_op_result(op, 0);
	/* tt_op_argmax writes indices in Float32, which holds them exactly
	 * (the formats pass may ask for a narrower one). */
	if (r && !strcmp(r->op, "argmax"))
		c->tensors[t].t.format = TT_FLOAT32;
	c->ops[c->nops - 1].op.out = t;
	vput(vm, ttc_op_result(op, 0), t);
	return 0;
}

/* A copy of tensor t (a reshape record to its own shape) into a new
 * tensor, the last so far. */
static int copy_tensor(ttc_compiled *c, unsigned t, size_t i, unsigned *out)
{
	const char *name = tensor_name(
		c, cg_printf(c, "%s.copy", c->tensors[t].t.name), "t", i);

	return reshaped(c, t, false, name, out);
}

/*
 * f's results: activations become outputs, named output_N (PyBuda's
 * queues are named; a result's location names it when it has one). The
 * runtime takes the outputs in tensor order, so a result that is not an
 * activation written by an op (an argument, a constant), is returned
 * again, or comes before an earlier result, is copied by a reshape
 * record to a tensor of its own after them.
 */
static int lower_return(ttc_compiled *c, const ttc_op *ret_op,
			struct vmap *vm)
{
	unsigned last = 0;
	int ret;

	for (size_t i = 0; i < ttc_op_num_operands(ret_op); i++) {
		unsigned t;
		struct cg_tensor *ct;

		if (vget(vm, ttc_op_operand(ret_op, i), &t))
			return cg_error(c, ret_op, -EINVAL,
					"result #%zu is unknown", i);
		/* Outputs have their natural shape. */
		if (c->tensors[t].rows && (ret = cg_layout(c, t, false, i, &t)))
			return ret;
		ct = &c->tensors[t];
		if (ct->t.kind != TT_MODEL_ACT || t < last) {
			if ((ret = copy_tensor(c, t, i, &t)))
				return ret;
			ct = &c->tensors[t];
		}
		ct->t.kind = TT_MODEL_OUTPUT;
		last = t;
	}
	return 0;
}

int cg_lower(ttc_compiled *c, ttc_func *f, ttc_param_fn param, void *arg)
{
	struct vmap vm = {0};
	size_t index = 0;
	int ret;

	vm.cap = 64;
	while (vm.cap < 2 * (ttc_func_num_args(f) + 2 * ttc_func_num_ops(f)))
		vm.cap *= 2;
	vm.keys = calloc(vm.cap, sizeof(*vm.keys));
	vm.vals = calloc(vm.cap, sizeof(*vm.vals));
	if (!vm.keys || !vm.vals) {
		ret = -ENOMEM;
		goto out;
	}
	c->f = f;
	c->param = param;
	c->param_arg = arg;
	ret = lower_args(c, f, &vm, param, arg);
	for (ttc_op *op = ttc_func_first_op(f); !ret && op;
	     op = ttc_op_next(op), index++) {
		if (strcmp(ttc_op_name(op), "func.return") == 0)
			ret = lower_return(c, op, &vm);
		else
			ret = lower_op(c, op, index, &vm);
	}
out:
	free(vm.keys);
	free(vm.vals);
	return ret;
}
