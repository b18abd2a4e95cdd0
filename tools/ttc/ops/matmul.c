// SPDX-License-Identifier: Apache-2.0
/* matmul and linear: batched matrix products with NumPy's rules for rank
 * 1 operands and broadcast batch dimensions. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "shape.h"

static const char *const mm_in[] = { "a", "b" };
static const char *const linear_in[] = { "a", "b", "bias" };

static const struct ttc_attr_spec mm_attrs[] = {
	{ "transpose_a", TTC_AK_BOOL, TTC_ATTR_DEFAULT },
	{ "transpose_b", TTC_AK_BOOL, TTC_ATTR_DEFAULT },
};

/* A matrix operand as [batch..., rows, cols] after its transpose flag;
 * rank 1 is a row (a) or a column (b) vector. */
struct mat {
	int64_t batch[TTC_MAX_RANK];
	unsigned nbatch;
	int64_t rows, cols;
	bool vector;
};

static struct mat as_matrix(const ttc_type *t, bool is_a, bool transpose)
{
	struct mat m = { .vector = t->rank == 1 };

	if (m.vector) {
		m.rows = is_a ? 1 : t->dims[0];
		m.cols = is_a ? t->dims[0] : 1;
		return m;
	}
	m.nbatch = t->rank - 2;
	memcpy(m.batch, t->dims, m.nbatch * sizeof(int64_t));
	m.rows = t->dims[t->rank - 2];
	m.cols = t->dims[t->rank - 1];
	if (transpose) {
		int64_t x = m.rows;

		m.rows = m.cols;
		m.cols = x;
	}
	return m;
}

static int broadcast_batch(struct ttc_infer *in, const struct mat *a,
			   const struct mat *b, int64_t *dims, unsigned *n)
{
	const ttc_type *ta = ttc_tensor_type(in->ctx, a->batch, a->nbatch,
					     in->in[0]->elem, NULL);
	const ttc_type *tb = ttc_tensor_type(in->ctx, b->batch, b->nbatch,
					     in->in[0]->elem, NULL);

	return broadcast2(in, ta, 0, tb, 1, dims, n);
}

static int infer_product(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *ta = operand_tensor(in, 0, &rc), *tb;

	if (!ta)
		return rc;
	if (!(tb = operand_tensor(in, 1, &rc)) || (rc = same_elem(in, 0, 1)))
		return rc;
	if (ta->rank == 0 || tb->rank == 0)
		return fail(in, "operands must have rank 1 or more");
	struct mat a = as_matrix(ta, true,
				 ttc_attr_bool(ttc_infer_attr(in, "transpose_a")));
	struct mat b = as_matrix(tb, false,
				 ttc_attr_bool(ttc_infer_attr(in, "transpose_b")));
	char sa[128], sb[128];

	if (a.cols != b.rows)
		return fail(in, "operand #0 (a) %s contracts over %" PRId64
				" elements but operand #1 (b) %s over %" PRId64,
			    type_text(ta, sa, sizeof(sa)), a.cols,
			    type_text(tb, sb, sizeof(sb)), b.rows);
	int64_t dims[TTC_MAX_RANK + 2];
	unsigned n;

	if ((rc = broadcast_batch(in, &a, &b, dims, &n)))
		return rc;
	if (!a.vector)
		dims[n++] = a.rows;
	if (!b.vector)
		dims[n++] = b.cols;
	/* vector . vector: tt-mlir's IR has no scalars, the product is a
	 * tensor<1> (NumPy's would have rank 0) */
	if (!n)
		dims[n++] = 1;
	out[0] = make_tensor(in, dims, n, ta->elem);
	return out[0] ? 0 : -EINVAL;
}

/* Whether bias broadcasts to the product's shape (which stays). */
static bool bias_fits(const ttc_type *bias, const ttc_type *prod)
{
	if (bias->rank > prod->rank)
		return false;
	for (unsigned i = 0; i < bias->rank; i++) {
		int64_t b = bias->dims[bias->rank - 1 - i];
		int64_t p = prod->dims[prod->rank - 1 - i];

		if (b != 1 && b != p)
			return false;
	}
	return true;
}

/* linear: the product plus a bias that broadcasts into it. */
static int infer_linear(struct ttc_infer *in, const ttc_type **out)
{
	int rc = infer_product(in, out);

	if (rc || in->nin < 3)
		return rc;
	const ttc_type *bias = operand_tensor(in, 2, &rc);

	if (!bias || (rc = same_elem(in, 0, 2)))
		return rc;
	if (!bias_fits(bias, out[0])) {
		char sb[128], so[128];

		return fail(in, "operand #2 (bias) %s must broadcast to the "
				"product's shape %s",
			    type_text(bias, sb, sizeof(sb)),
			    type_text(out[0], so, sizeof(so)));
	}
	return 0;
}

static const char *const dg_in[] = { "lhs", "rhs" };
static const struct ttc_attr_spec dg_attrs[] = {
	{ "batch_dims_lhs", TTC_AK_INTS, TTC_ATTR_REQUIRED },
	{ "contract_dims_lhs", TTC_AK_INTS, TTC_ATTR_REQUIRED },
	{ "batch_dims_rhs", TTC_AK_INTS, TTC_ATTR_REQUIRED },
	{ "contract_dims_rhs", TTC_AK_INTS, TTC_ATTR_REQUIRED },
};

/* A list of distinct dimensions of an operand of rank r, marked in used. */
static int dim_list(struct ttc_infer *in, const char *attr, unsigned r,
		    int64_t *v, unsigned *used)
{
	int n = attr_ints(in, attr, v, TTC_MAX_RANK, false);

	for (int i = 0; i < n; i++) {
		if (v[i] < 0 || v[i] >= r || (*used & (1u << v[i])))
			return fail(in, "attribute '%s' entry %d is %" PRId64
					": not a dimension of rank %u, or named "
					"twice",
				    attr, i, v[i], r);
		*used |= 1u << v[i];
	}
	return n;
}

/* Pairs of lhs and rhs dimensions that must have equal sizes. */
static int dims_agree(struct ttc_infer *in, const char *what,
		      const int64_t *l, const int64_t *r, int n)
{
	const ttc_type *a = in->in[0], *b = in->in[1];

	for (int i = 0; i < n; i++)
		if (a->dims[l[i]] != b->dims[r[i]])
			return fail(in, "%s dimension %" PRId64 " of operand #0 "
					"(lhs) is %" PRId64 " but dimension %"
					PRId64 " of operand #1 (rhs) is %" PRId64,
				    what, l[i], a->dims[l[i]], r[i],
				    b->dims[r[i]]);
	return 0;
}

/* dot_general (StableHLO's): batch dims, then lhs's free dims, then
 * rhs's free dims. */
static int infer_dot_general(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *a = operand_tensor(in, 0, &rc), *b;
	int64_t bl[TTC_MAX_RANK], br[TTC_MAX_RANK], cl[TTC_MAX_RANK],
		cr[TTC_MAX_RANK], dims[2 * TTC_MAX_RANK];
	unsigned ul = 0, ur = 0, n = 0;
	int nb, nbr, nc, ncr;

	if (!a || !(b = operand_tensor(in, 1, &rc)))
		return rc;
	if ((nb = dim_list(in, "batch_dims_lhs", a->rank, bl, &ul)) < 0 ||
	    (nc = dim_list(in, "contract_dims_lhs", a->rank, cl, &ul)) < 0 ||
	    (nbr = dim_list(in, "batch_dims_rhs", b->rank, br, &ur)) < 0 ||
	    (ncr = dim_list(in, "contract_dims_rhs", b->rank, cr, &ur)) < 0)
		return -EINVAL;
	if (nb != nbr || nc != ncr)
		return fail(in, "lhs and rhs name %d and %d batch dimensions, "
				"%d and %d contracting ones; they must match",
			    nb, nbr, nc, ncr);
	if ((rc = dims_agree(in, "batch", bl, br, nb)) ||
	    (rc = dims_agree(in, "contracting", cl, cr, nc)))
		return rc;
	for (int i = 0; i < nb; i++)
		dims[n++] = a->dims[bl[i]];
	for (unsigned i = 0; i < a->rank; i++)
		if (!(ul & (1u << i)))
			dims[n++] = a->dims[i];
	for (unsigned i = 0; i < b->rank; i++)
		if (!(ur & (1u << i)))
			dims[n++] = b->dims[i];
	out[0] = make_tensor(in, dims, n, a->elem);
	return out[0] ? 0 : -EINVAL;
}

const struct ttc_op_def ttc_matmul_defs[] = {
	{ .name = "ttir.dot_general", .summary = "StableHLO's dot_general: "
						 "batch, contracting and free "
						 "dimensions",
	  .operands = dg_in, .noperands = 2, .nresults = 1,
	  .flags = TTC_OPF_DPS | TTC_OPF_ELEM_FREE, .attrs = dg_attrs,
	  .nattrs = 4, .infer = infer_dot_general },
	{ .name = "ttir.matmul", .summary = "batched matrix product",
	  .operands = mm_in, .noperands = 2, .nresults = 1,
	  .flags = TTC_OPF_DPS, .attrs = mm_attrs, .nattrs = 2,
	  .infer = infer_product },
	{ .name = "ttir.linear", .summary = "matrix product plus bias",
	  .operands = linear_in, .noperands = 3, .nresults = 1,
	  .flags = TTC_OPF_DPS | TTC_OPF_OPTIONAL_LAST, .attrs = mm_attrs,
	  .nattrs = 2, .infer = infer_linear },
};

const size_t ttc_matmul_count =
	sizeof(ttc_matmul_defs) / sizeof(ttc_matmul_defs[0]);
