// SPDX-License-Identifier: Apache-2.0
/* Data movement: reshape, transpose, permute, broadcast, concat,
 * slice_static. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "shape.h"

static const char *const in1[] = { "input" };
static const char *const concat_in[] = { "inputs" };

static const struct ttc_attr_spec reshape_attrs[] = {
	{ "shape", TTC_AK_INTS, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec transpose_attrs[] = {
	{ "dim0", TTC_AK_INT, TTC_ATTR_REQUIRED },
	{ "dim1", TTC_AK_INT, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec permute_attrs[] = {
	{ "permutation", TTC_AK_INTS, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec broadcast_attrs[] = {
	{ "broadcast_dimensions", TTC_AK_INTS, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec concat_attrs[] = {
	{ "dim", TTC_AK_INT, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec slice_attrs[] = {
	{ "begins", TTC_AK_INTS, TTC_ATTR_REQUIRED },
	{ "ends", TTC_AK_INTS, TTC_ATTR_REQUIRED },
	{ "step", TTC_AK_INTS, TTC_ATTR_REQUIRED },
};

static int infer_reshape(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	int64_t shape[TTC_MAX_RANK], n = 1;

	if (!t)
		return rc;
	if ((rc = attr_ints(in, "shape", shape, TTC_MAX_RANK, false)) < 0)
		return rc;
	for (int i = 0; i < rc; i++)
		n *= shape[i];
	if (n != ttc_type_numel(t)) {
		char s[128];

		return fail(in, "attribute 'shape' has %" PRId64 " elements, "
				"operand #0 (input) %s has %" PRId64,
			    n, type_text(t, s, sizeof(s)), ttc_type_numel(t));
	}
	out[0] = make_tensor(in, shape, (unsigned)rc, t->elem);
	return out[0] ? 0 : -EINVAL;
}

static int infer_transpose(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	unsigned d0, d1;

	if (!t)
		return rc;
	if ((rc = norm_dim(in, "dim0", ttc_attr_int(ttc_infer_attr(in, "dim0")),
			   t->rank, &d0)) ||
	    (rc = norm_dim(in, "dim1", ttc_attr_int(ttc_infer_attr(in, "dim1")),
			   t->rank, &d1)))
		return rc;
	int64_t dims[TTC_MAX_RANK];

	memcpy(dims, t->dims, t->rank * sizeof(*dims));
	dims[d0] = t->dims[d1];
	dims[d1] = t->dims[d0];
	out[0] = make_tensor(in, dims, t->rank, t->elem);
	return 0;
}

static int infer_permute(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	int64_t perm[TTC_MAX_RANK], dims[TTC_MAX_RANK];
	bool seen[TTC_MAX_RANK] = { false };

	if (!t)
		return rc;
	if ((rc = attr_ints(in, "permutation", perm, TTC_MAX_RANK, false)) < 0)
		return rc;
	if ((unsigned)rc != t->rank)
		return fail(in, "attribute 'permutation' has %d entries for an "
				"operand of rank %u",
			    rc, t->rank);
	for (unsigned i = 0; i < t->rank; i++) {
		if (perm[i] < 0 || perm[i] >= t->rank || seen[perm[i]])
			return fail(in, "attribute 'permutation' is not a "
					"permutation of 0..%u (entry %u is %" PRId64
					")",
				    t->rank - 1, i, perm[i]);
		seen[perm[i]] = true;
		dims[i] = t->dims[perm[i]];
	}
	out[0] = make_tensor(in, dims, t->rank, t->elem);
	return 0;
}

/* broadcast_dimensions holds a repeat factor per dimension; a factor
 * other than 1 applies to a dimension of size 1. */
static int infer_broadcast(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	int64_t f[TTC_MAX_RANK], dims[TTC_MAX_RANK];

	if (!t)
		return rc;
	if ((rc = attr_ints(in, "broadcast_dimensions", f, TTC_MAX_RANK,
			    false)) < 0)
		return rc;
	if ((unsigned)rc != t->rank)
		return fail(in, "attribute 'broadcast_dimensions' has %d "
				"entries for an operand of rank %u",
			    rc, t->rank);
	for (unsigned i = 0; i < t->rank; i++) {
		if (f[i] < 1 || (f[i] != 1 && t->dims[i] != 1))
			return fail(in, "attribute 'broadcast_dimensions' "
					"entry %u is %" PRId64 " for a dimension "
					"of size %" PRId64 " (a factor must be "
					">= 1, and 1 unless the dimension is 1)",
				    i, f[i], t->dims[i]);
		dims[i] = t->dims[i] * f[i];
	}
	out[0] = make_tensor(in, dims, t->rank, t->elem);
	return 0;
}

int infer_concat_along(struct ttc_infer *in, const char *attr,
		       const ttc_type **out)
{
	int rc;
	const ttc_type *t0 = operand_tensor(in, 0, &rc);
	unsigned d;

	if (!t0)
		return rc;
	if ((rc = norm_dim(in, attr, ttc_attr_int(ttc_infer_attr(in, attr)),
			   t0->rank, &d)))
		return rc;
	int64_t dims[TTC_MAX_RANK];

	memcpy(dims, t0->dims, t0->rank * sizeof(*dims));
	for (size_t i = 1; i < in->nin; i++) {
		const ttc_type *t = operand_tensor(in, i, &rc);
		char s0[128], s[128];

		if (!t || (rc = same_elem(in, 0, i)))
			return rc;
		bool ok = t->rank == t0->rank;

		for (unsigned k = 0; ok && k < t->rank; k++)
			ok = k == d || t->dims[k] == t0->dims[k];
		if (!ok)
			return fail(in, "operand #%zu (inputs) %s does not "
					"match operand #0 %s outside dimension "
					"%u",
				    i, type_text(t, s, sizeof(s)),
				    type_text(t0, s0, sizeof(s0)), d);
		dims[d] += t->dims[d];
	}
	out[0] = make_tensor(in, dims, t0->rank, t0->elem);
	return out[0] ? 0 : -EINVAL;
}

static int infer_concat(struct ttc_infer *in, const ttc_type **out)
{
	return infer_concat_along(in, "dim", out);
}

/* Elements of begin:end:step along a dimension of size n (Python's
 * slicing, negative indices from the end, clamped). */
static int64_t slice_len(int64_t b, int64_t e, int64_t s, int64_t n)
{
	if (b < 0)
		b += n;
	if (e < 0)
		e += n;
	b = b < 0 ? 0 : b > n ? n : b;
	e = e < -1 ? -1 : e > n ? n : e;
	if (s > 0)
		return e > b ? (e - b + s - 1) / s : 0;
	return b > e ? (b - e - s - 1) / -s : 0;
}

static int infer_slice(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	int64_t b[TTC_MAX_RANK], e[TTC_MAX_RANK], s[TTC_MAX_RANK];
	int64_t dims[TTC_MAX_RANK];
	int nb, ne, ns;

	if (!t)
		return rc;
	if ((nb = attr_ints(in, "begins", b, TTC_MAX_RANK, false)) < 0 ||
	    (ne = attr_ints(in, "ends", e, TTC_MAX_RANK, false)) < 0 ||
	    (ns = attr_ints(in, "step", s, TTC_MAX_RANK, false)) < 0)
		return -EINVAL;
	if ((unsigned)nb != t->rank || nb != ne || ne != ns)
		return fail(in, "attributes 'begins', 'ends' and 'step' need "
				"%u entries each (the operand's rank), got %d, "
				"%d and %d",
			    t->rank, nb, ne, ns);
	for (unsigned i = 0; i < t->rank; i++) {
		if (s[i] == 0)
			return fail(in, "attribute 'step' entry %u is 0", i);
		dims[i] = slice_len(b[i], e[i], s[i], t->dims[i]);
	}
	out[0] = make_tensor(in, dims, t->rank, t->elem);
	return 0;
}

#define OP1(n, s, a, f) \
	{ .name = "ttir." n, .summary = s, .operands = in1, .noperands = 1, \
	  .nresults = 1, .flags = TTC_OPF_DPS, .attrs = a, \
	  .nattrs = sizeof(a) / sizeof(a[0]), .infer = f }

const struct ttc_op_def ttc_data_defs[] = {
	OP1("reshape", "the same elements in another shape", reshape_attrs,
	    infer_reshape),
	OP1("transpose", "swaps two dimensions", transpose_attrs,
	    infer_transpose),
	OP1("permute", "reorders the dimensions", permute_attrs,
	    infer_permute),
	OP1("broadcast", "repeats size-1 dimensions", broadcast_attrs,
	    infer_broadcast),
	OP1("slice_static", "begins:ends:step per dimension", slice_attrs,
	    infer_slice),
	{ .name = "ttir.concat", .summary = "joins tensors along a dimension",
	  .operands = concat_in, .noperands = 1, .nresults = 1,
	  .flags = TTC_OPF_DPS | TTC_OPF_VARIADIC, .attrs = concat_attrs,
	  .nattrs = 1, .infer = infer_concat },
};

const size_t ttc_data_count = sizeof(ttc_data_defs) / sizeof(ttc_data_defs[0]);
