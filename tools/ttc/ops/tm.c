// SPDX-License-Identifier: Apache-2.0
/*
 * More data movement: squeeze, unsqueeze, repeat, repeat_interleave,
 * reverse, pad,
 * embedding, gather, and the running ops cumsum, cumprod.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "shape.h"

static const char *const in1[] = { "input" };
static const char *const emb_in[] = { "input", "weight" };
static const char *const gather_in[] = { "input", "index" };

static const struct ttc_attr_spec dim_attrs[] = {
	{ "dim", TTC_AK_INT, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec repeat_attrs[] = {
	{ "repeat_dimensions", TTC_AK_INTS, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec interleave_attrs[] = {
	{ "repeats", TTC_AK_INT, TTC_ATTR_REQUIRED },
	{ "dim", TTC_AK_INT, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec reverse_attrs[] = {
	{ "dimensions", TTC_AK_INTS, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec pad_attrs[] = {
	{ "padding", TTC_AK_INTS, TTC_ATTR_REQUIRED },
	{ "value", TTC_AK_FLOAT, TTC_ATTR_REQUIRED },
};

static int64_t dim_of(struct ttc_infer *in, const char *name)
{
	return ttc_attr_int(ttc_infer_attr(in, name));
}

/* squeeze: removes dimension dim, which must be 1. */
static int infer_squeeze(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	int64_t dims[TTC_MAX_RANK];
	unsigned d, n = 0;

	if (!t)
		return rc;
	if ((rc = norm_dim(in, "dim", dim_of(in, "dim"), t->rank, &d)))
		return rc;
	if (t->dims[d] != 1)
		return fail(in, "attribute 'dim' names dimension %u of size "
				"%" PRId64 "; squeeze needs size 1",
			    d, t->dims[d]);
	for (unsigned i = 0; i < t->rank; i++)
		if (i != d)
			dims[n++] = t->dims[i];
	out[0] = make_tensor(in, dims, n, t->elem);
	return out[0] ? 0 : -EINVAL;
}

/* unsqueeze: a dimension of size 1 at dim (0..rank; negative counts
 * from the end of the result). */
static int infer_unsqueeze(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	int64_t dims[TTC_MAX_RANK + 1];
	unsigned d, n = 0;

	if (!t)
		return rc;
	if ((rc = norm_dim(in, "dim", dim_of(in, "dim"), t->rank + 1, &d)))
		return rc;
	for (unsigned i = 0; i <= t->rank; i++)
		dims[n++] = i == d ? 1 : t->dims[i < d ? i : i - 1];
	out[0] = make_tensor(in, dims, n, t->elem);
	return out[0] ? 0 : -EINVAL;
}

/* repeat: the whole tensor tiled repeat_dimensions[i] times along i. */
static int infer_repeat(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	int64_t f[TTC_MAX_RANK], dims[TTC_MAX_RANK];

	if (!t)
		return rc;
	if ((rc = attr_ints(in, "repeat_dimensions", f, TTC_MAX_RANK,
			    false)) < 0)
		return rc;
	if ((unsigned)rc != t->rank)
		return fail(in, "attribute 'repeat_dimensions' has %d entries "
				"for an operand of rank %u",
			    rc, t->rank);
	for (unsigned i = 0; i < t->rank; i++) {
		if (f[i] < 1)
			return fail(in, "attribute 'repeat_dimensions' entry %u "
					"is %" PRId64 " (it must be >= 1)",
				    i, f[i]);
		dims[i] = t->dims[i] * f[i];
	}
	out[0] = make_tensor(in, dims, t->rank, t->elem);
	return 0;
}

/* repeat_interleave: each element repeats times along dim. */
static int infer_interleave(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	int64_t dims[TTC_MAX_RANK], r = dim_of(in, "repeats");
	unsigned d;

	if (!t)
		return rc;
	if ((rc = norm_dim(in, "dim", dim_of(in, "dim"), t->rank, &d)))
		return rc;
	if (r < 1)
		return fail(in, "attribute 'repeats' is %" PRId64 " (it must "
				"be >= 1)",
			    r);
	memcpy(dims, t->dims, t->rank * sizeof(*dims));
	dims[d] *= r;
	out[0] = make_tensor(in, dims, t->rank, t->elem);
	return 0;
}

/* pad: padding holds [low, high] per dimension; negative values crop. */
static int infer_pad(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	int64_t p[2 * TTC_MAX_RANK], dims[TTC_MAX_RANK];

	if (!t)
		return rc;
	if ((rc = attr_ints(in, "padding", p, 2 * TTC_MAX_RANK, false)) < 0)
		return rc;
	if ((unsigned)rc != 2 * t->rank)
		return fail(in, "attribute 'padding' has %d entries; an operand "
				"of rank %u needs %u (low, high per dimension)",
			    rc, t->rank, 2 * t->rank);
	for (unsigned i = 0; i < t->rank; i++) {
		dims[i] = t->dims[i] + p[2 * i] + p[2 * i + 1];
		if (dims[i] < 0)
			return fail(in, "attribute 'padding' crops dimension "
					"%u of size %" PRId64 " below 0",
				    i, t->dims[i]);
	}
	out[0] = make_tensor(in, dims, t->rank, t->elem);
	return out[0] ? 0 : -EINVAL;
}

/* embedding: each index of input becomes a row of weight, whose leading
 * dimensions other than the last two must be 1 ([vocab, width]). */
static int infer_embedding(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *x = operand_tensor(in, 0, &rc), *w;
	int64_t dims[TTC_MAX_RANK + 1];
	char tb[128];

	if (!x || !(w = operand_tensor(in, 1, &rc)))
		return rc;
	bool ok = w->rank >= 2;

	for (unsigned i = 0; ok && i + 2 < w->rank; i++)
		ok = w->dims[i] == 1;
	if (!ok)
		return fail(in, "operand #1 (weight) %s must be a table "
				"[vocabulary, width] (leading dimensions of 1 "
				"allowed)",
			    type_text(w, tb, sizeof(tb)));
	memcpy(dims, x->dims, x->rank * sizeof(*dims));
	dims[x->rank] = w->dims[w->rank - 1];
	out[0] = make_tensor(in, dims, x->rank + 1, w->elem);
	return out[0] ? 0 : -EINVAL;
}

/* gather (torch.gather): the result has index's shape; index has input's
 * rank and no dimension larger than input's outside dim. */
static int infer_gather(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *x = operand_tensor(in, 0, &rc), *ix;
	unsigned d;
	char sx[128], si[128];

	if (!x || !(ix = operand_tensor(in, 1, &rc)))
		return rc;
	if ((rc = norm_dim(in, "dim", dim_of(in, "dim"), x->rank, &d)))
		return rc;
	bool ok = ix->rank == x->rank;

	for (unsigned i = 0; ok && i < x->rank; i++)
		ok = i == d || ix->dims[i] <= x->dims[i];
	if (!ok)
		return fail(in, "operand #1 (index) %s must have the rank of "
				"operand #0 (input) %s and no larger dimension "
				"outside dimension %u",
			    type_text(ix, si, sizeof(si)),
			    type_text(x, sx, sizeof(sx)), d);
	out[0] = make_tensor(in, ix->dims, ix->rank, x->elem);
	return out[0] ? 0 : -EINVAL;
}

/* reverse: the input's type; dimensions are distinct dimensions. */
static int infer_reverse(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	int64_t v[TTC_MAX_RANK];
	unsigned seen = 0, d;

	if (!t)
		return rc;
	int n = attr_ints(in, "dimensions", v, TTC_MAX_RANK, false);

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		if ((rc = norm_dim(in, "dimensions", v[i], t->rank, &d)))
			return rc;
		if (seen & (1u << d))
			return fail(in, "attribute 'dimensions' names dimension "
					"%u twice",
				    d);
		seen |= 1u << d;
	}
	out[0] = ttc_tensor_type(in->ctx, t->dims, t->rank, t->elem, NULL);
	return 0;
}

/* cumsum, cumprod: the input's type; dim must name a dimension. */
static int infer_running(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	unsigned d;

	if (!t)
		return rc;
	if ((rc = norm_dim(in, "dim", dim_of(in, "dim"), t->rank, &d)))
		return rc;
	out[0] = ttc_tensor_type(in->ctx, t->dims, t->rank, t->elem, NULL);
	return 0;
}

#define TDEF(n, s, ops, no, a, f) \
	{ .name = "ttir." n, .summary = s, .operands = ops, .noperands = no, \
	  .nresults = 1, .flags = TTC_OPF_DPS, .attrs = a, \
	  .nattrs = sizeof(a) / sizeof(a[0]), .infer = f }

const struct ttc_op_def ttc_tm_defs[] = {
	TDEF("squeeze", "removes a dimension of size 1", in1, 1, dim_attrs,
	     infer_squeeze),
	TDEF("unsqueeze", "inserts a dimension of size 1", in1, 1, dim_attrs,
	     infer_unsqueeze),
	TDEF("repeat", "tiles the tensor repeat_dimensions times", in1, 1,
	     repeat_attrs, infer_repeat),
	TDEF("repeat_interleave", "repeats each element along dim", in1, 1,
	     interleave_attrs, infer_interleave),
	TDEF("reverse", "reverses the order along dimensions", in1, 1,
	     reverse_attrs, infer_reverse),
	TDEF("pad", "pads (or crops) each dimension with value", in1, 1,
	     pad_attrs, infer_pad),
	{ .name = "ttir.embedding", .summary = "rows of weight at the indices "
					       "of input",
	  .operands = emb_in, .noperands = 2, .nresults = 1,
	  .flags = TTC_OPF_DPS, .infer = infer_embedding },
	TDEF("gather", "values of input at index along dim (torch.gather)",
	     gather_in, 2, dim_attrs, infer_gather),
	TDEF("cumsum", "running sum along dim", in1, 1, dim_attrs,
	     infer_running),
	TDEF("cumprod", "running product along dim", in1, 1, dim_attrs,
	     infer_running),
};

const size_t ttc_tm_count = sizeof(ttc_tm_defs) / sizeof(ttc_tm_defs[0]);
