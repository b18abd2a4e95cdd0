// SPDX-License-Identifier: Apache-2.0
/*
 * PyBuda's ops (the Operations section of PyBuda's documentation). Those
 * that are a TTIR op under another name are aliases (the table at the
 * end); the others are pybuda.* ops here, named as PyBuda's classes in
 * snake case, with PyBuda's parameter names as attributes. PyBuda's
 * tensors keep their rank: its reductions leave the reduced dimension as
 * 1.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "shape.h"

static const char *const in1[] = { "input" };
static const char *const in2[] = { "lhs", "rhs" };

static const struct ttc_attr_spec dim_attrs[] = {
	{ "dim", TTC_AK_INT, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec opt_dim_attrs[] = {
	{ "dim", TTC_AK_INT, TTC_ATTR_OPTIONAL },
};
static const struct ttc_attr_spec slices_attrs[] = {
	{ "slices", TTC_AK_INT, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec stack_attrs[] = {
	{ "slices", TTC_AK_INT, TTC_ATTR_DEFAULT, "i32", -1 },
};
static const struct ttc_attr_spec index_attrs[] = {
	{ "dim", TTC_AK_INT, TTC_ATTR_REQUIRED },
	{ "start", TTC_AK_INT, TTC_ATTR_REQUIRED },
	{ "stop", TTC_AK_INT, TTC_ATTR_OPTIONAL },
	{ "stride", TTC_AK_INT, TTC_ATTR_DEFAULT, "i32", 1 },
};
static const struct ttc_attr_spec select_attrs[] = {
	{ "dim", TTC_AK_INT, TTC_ATTR_REQUIRED },
	{ "index", TTC_AK_INT_OR_INTS, TTC_ATTR_REQUIRED },
	{ "stride", TTC_AK_INT, TTC_ATTR_DEFAULT, "i32", 0 },
};
static const struct ttc_attr_spec identity_attrs[] = {
	{ "unsqueeze", TTC_AK_STRING, TTC_ATTR_OPTIONAL },
	{ "unsqueeze_dim", TTC_AK_INT, TTC_ATTR_OPTIONAL },
};
static const struct ttc_attr_spec constant_attrs[] = {
	{ "constant", TTC_AK_NUMBER, TTC_ATTR_REQUIRED },
};

static int64_t iattr(struct ttc_infer *in, const char *name)
{
	return ttc_attr_int(ttc_infer_attr(in, name));
}

/* The input with dimension d set to n. */
static int with_dim(struct ttc_infer *in, const ttc_type *t, unsigned d,
		    int64_t n, const ttc_type **out)
{
	int64_t dims[TTC_MAX_RANK];

	memcpy(dims, t->dims, t->rank * sizeof(*dims));
	dims[d] = n;
	*out = make_tensor(in, dims, t->rank, t->elem);
	return *out ? 0 : -EINVAL;
}

static int infer_heaviside(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *a = operand_tensor(in, 0, &rc), *b;
	int64_t dims[TTC_MAX_RANK];
	unsigned r;

	if (!a || !(b = operand_tensor(in, 1, &rc)))
		return rc;
	if ((rc = broadcast2(in, a, 0, b, 1, dims, &r)))
		return rc;
	out[0] = make_tensor(in, dims, r, a->elem);
	return out[0] ? 0 : -EINVAL;
}

/* binary_stack: lhs and rhs interleaved along dim, which doubles. */
static int infer_binary_stack(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *a = operand_tensor(in, 0, &rc), *b;
	unsigned d;
	char sa[128], sb[128];

	if (!a || !(b = operand_tensor(in, 1, &rc)))
		return rc;
	if (a != b)
		return fail(in, "operand #0 (lhs) %s and operand #1 (rhs) %s "
				"must have the same type",
			    type_text(a, sa, sizeof(sa)),
			    type_text(b, sb, sizeof(sb)));
	if ((rc = norm_dim(in, "dim", iattr(in, "dim"), a->rank, &d)))
		return rc;
	return with_dim(in, a, d, a->dims[d] * 2, out);
}

/*
 * hslice, hstack, vslice, vstack move data between Z (rank - 3) and C
 * (rank - 1, horizontal) or R (rank - 2, vertical). slice: Z grows by
 * slices, the other shrinks; stack: the reverse (slices -1: all of Z).
 */
static int infer_zmove(struct ttc_infer *in, const ttc_type **out,
		       unsigned off, bool slice)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	int64_t dims[TTC_MAX_RANK], s = iattr(in, "slices");
	char tb[128];

	if (!t)
		return rc;
	if (t->rank < 3)
		return fail(in, "operand #0 (input) %s must have rank 3 or "
				"more ([..., Z, R, C])",
			    type_text(t, tb, sizeof(tb)));
	unsigned z = t->rank - 3, x = t->rank - off;

	if (!slice && s == -1)
		s = t->dims[z];
	unsigned from = slice ? x : z;

	if (s < 1 || t->dims[from] % s)
		return fail(in, "attribute 'slices' is %" PRId64 ": it must be "
				">= 1 and divide dimension %u (%" PRId64 ")",
			    s, from, t->dims[from]);
	memcpy(dims, t->dims, t->rank * sizeof(*dims));
	dims[z] = slice ? dims[z] * s : dims[z] / s;
	dims[x] = slice ? dims[x] / s : dims[x] * s;
	out[0] = make_tensor(in, dims, t->rank, t->elem);
	return out[0] ? 0 : -EINVAL;
}

static int infer_hslice(struct ttc_infer *in, const ttc_type **out)
{
	return infer_zmove(in, out, 1, true);
}

static int infer_hstack(struct ttc_infer *in, const ttc_type **out)
{
	return infer_zmove(in, out, 1, false);
}

static int infer_vslice(struct ttc_infer *in, const ttc_type **out)
{
	return infer_zmove(in, out, 2, true);
}

static int infer_vstack(struct ttc_infer *in, const ttc_type **out)
{
	return infer_zmove(in, out, 2, false);
}

/* index: start:stop:stride along dim (stop absent: start + 1). */
static int infer_index(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	unsigned d;

	if (!t)
		return rc;
	if ((rc = norm_dim(in, "dim", iattr(in, "dim"), t->rank, &d)))
		return rc;
	int64_t n = t->dims[d], b = iattr(in, "start"), st = iattr(in, "stride");
	const ttc_attr *e = ttc_infer_attr(in, "stop");

	b = b < 0 ? b + n : b;
	/* Without stop, one element: start's, after start's wrap-around. */
	int64_t end = e ? ttc_attr_int(e) : b + 1;

	end = end < 0 ? end + n : end;
	if (st < 1 || b < 0 || b >= n || end <= b || end > n)
		return fail(in, "attributes 'start', 'stop' and 'stride' must "
				"give 0 <= start < stop <= %" PRId64 " and stride "
				">= 1 along dimension %u",
			    n, d);
	return with_dim(in, t, d, (end - b + st - 1) / st, out);
}

/* select: index is one position or [start, length]; with a stride, the
 * range is taken from each block of stride elements. */
static int infer_select(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	int64_t v[2] = { 0, 1 }, st = iattr(in, "stride");
	const ttc_attr *ix = ttc_infer_attr(in, "index");
	unsigned d;

	if (!t)
		return rc;
	if ((rc = norm_dim(in, "dim", iattr(in, "dim"), t->rank, &d)))
		return rc;
	if (ttc_attr_kind(ix) == TTC_ATTR_INT)
		v[0] = ttc_attr_int(ix);
	else if (ttc_attr_ints(ix, v, 2) != 2)
		return fail(in, "attribute 'index' must be an integer or 2 "
				"integers [start, length]");
	int64_t block = st ? st : t->dims[d];

	if (st < 0 || v[0] < 0 || v[1] < 1 || v[0] + v[1] > block ||
	    t->dims[d] % block)
		return fail(in, "attributes 'index' [%" PRId64 ", %" PRId64
				"] and 'stride' %" PRId64 " must select within "
				"blocks that divide dimension %u (%" PRId64 ")",
			    v[0], v[1], st, d, t->dims[d]);
	return with_dim(in, t, d, t->dims[d] / block * v[1], out);
}

/* identity: the input, with a dimension of 1 inserted at unsqueeze_dim
 * when unsqueeze is given. */
static int infer_identity(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	const ttc_attr *u = ttc_infer_attr(in, "unsqueeze");
	const ttc_attr *ud = ttc_infer_attr(in, "unsqueeze_dim");
	int64_t dims[TTC_MAX_RANK + 1];
	unsigned d;

	if (!t)
		return rc;
	if (!u)
		return infer_same_type(in, out);
	if (!ud)
		return fail(in, "attribute 'unsqueeze' needs 'unsqueeze_dim'");
	if ((rc = norm_dim(in, "unsqueeze_dim", ttc_attr_int(ud), t->rank + 1,
			   &d)))
		return rc;
	for (unsigned i = 0; i <= t->rank; i++)
		dims[i] = i == d ? 1 : t->dims[i < d ? i : i - 1];
	out[0] = make_tensor(in, dims, t->rank + 1, t->elem);
	return out[0] ? 0 : -EINVAL;
}

/* reduce_sum, reduce_avg, argmax: dim becomes 1 (argmax without dim:
 * every dimension). */
static int infer_reduce_keep(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	int64_t dims[TTC_MAX_RANK];
	const ttc_attr *a = ttc_infer_attr(in, "dim");
	unsigned d;

	if (!t)
		return rc;
	if (!a) {
		for (unsigned i = 0; i < t->rank; i++)
			dims[i] = 1;
		out[0] = make_tensor(in, dims, t->rank, t->elem);
		return out[0] ? 0 : -EINVAL;
	}
	if ((rc = norm_dim(in, "dim", ttc_attr_int(a), t->rank, &d)))
		return rc;
	return with_dim(in, t, d, 1, out);
}

/* constant: one value, a tensor of one element. */
static int infer_constant(struct ttc_infer *in, const ttc_type **out)
{
	int64_t one = 1;

	out[0] = make_tensor(in, &one, 1, ttc_float_type(in->ctx, TTC_F32));
	return out[0] ? 0 : -EINVAL;
}

#define PDEF(n, s, ops, no, fl, a, f) \
	{ .name = "pybuda." n, .summary = s, .operands = ops, \
	  .noperands = no, .nresults = 1, .flags = (fl), .attrs = a, \
	  .nattrs = sizeof(a) / sizeof(a[0]), .infer = f }
#define PDEF0(n, s, ops, no, fl, f) \
	{ .name = "pybuda." n, .summary = s, .operands = ops, \
	  .noperands = no, .nresults = 1, .flags = (fl), .infer = f }

const struct ttc_op_def ttc_pybuda_defs[] = {
	PDEF("argmax", "index of the maximum along dim (kept as 1)", in1, 1,
	     TTC_OPF_ELEM_FREE, opt_dim_attrs, infer_reduce_keep),
	PDEF("binary_stack", "lhs and rhs interleaved along dim", in2, 2, 0,
	     dim_attrs, infer_binary_stack),
	PDEF0("buffer", "identity that is kept (not lowered to a nop)", in1,
	      1, 0, infer_same_type),
	PDEF("constant", "a one-element tensor of value constant", NULL, 0,
	     TTC_OPF_ELEM_FREE, constant_attrs, infer_constant),
	PDEF0("heaviside", "0 where lhs < 0, rhs where lhs == 0, 1 where "
	      "lhs > 0", in2, 2, TTC_OPF_ELEM_FREE, infer_heaviside),
	PDEF("hslice", "C split into slices moved to Z", in1, 1, 0,
	     slices_attrs, infer_hslice),
	PDEF("hstack", "Z's slices laid side by side along C", in1, 1, 0,
	     stack_attrs, infer_hstack),
	PDEF("identity", "the input (optionally with a dimension of 1 "
	     "inserted)", in1, 1, 0, identity_attrs, infer_identity),
	PDEF("index", "start:stop:stride along dim", in1, 1, 0, index_attrs,
	     infer_index),
	PDEF("reduce_avg", "mean along dim (kept as 1)", in1, 1, 0, dim_attrs,
	     infer_reduce_keep),
	PDEF("reduce_sum", "sum along dim (kept as 1)", in1, 1, 0, dim_attrs,
	     infer_reduce_keep),
	PDEF("select", "index [start, length] along dim, per block of stride",
	     in1, 1, 0, select_attrs, infer_select),
	PDEF("vslice", "R split into slices moved to Z", in1, 1, 0,
	     slices_attrs, infer_vslice),
	PDEF("vstack", "Z's slices stacked along R", in1, 1, 0, stack_attrs,
	     infer_vstack),
};

const size_t ttc_pybuda_count =
	sizeof(ttc_pybuda_defs) / sizeof(ttc_pybuda_defs[0]);

/* PyBuda ops that are TTIR ops: same operands, same attributes. */
const char *const ttc_pybuda_aliases[][2] = {
	{ "pybuda.abs", "ttir.abs" },
	{ "pybuda.add", "ttir.add" },
	{ "pybuda.clip", "ttir.clamp_scalar" },
	{ "pybuda.exp", "ttir.exp" },
	{ "pybuda.log", "ttir.log" },
	{ "pybuda.matmul", "ttir.linear" },
	{ "pybuda.max", "ttir.maximum" },
	{ "pybuda.multiply", "ttir.multiply" },
	{ "pybuda.reciprocal", "ttir.reciprocal" },
	{ "pybuda.reshape", "ttir.reshape" },
	{ "pybuda.sigmoid", "ttir.sigmoid" },
	{ "pybuda.sqrt", "ttir.sqrt" },
	{ "pybuda.subtract", "ttir.subtract" },
};

const size_t ttc_pybuda_alias_count =
	sizeof(ttc_pybuda_aliases) / sizeof(ttc_pybuda_aliases[0]);
