// SPDX-License-Identifier: Apache-2.0
/* Reductions over dim_arg (all dimensions when absent), and softmax. */
#include <errno.h>
#include <string.h>

#include "shape.h"

static const char *const in1[] = { "input" };

static const struct ttc_attr_spec reduce_attrs[] = {
	{ "keep_dim", TTC_AK_BOOL, TTC_ATTR_REQUIRED },
	{ "dim_arg", TTC_AK_INTS, TTC_ATTR_OPTIONAL },
};
static const struct ttc_attr_spec softmax_attrs[] = {
	{ "dimension", TTC_AK_INT, TTC_ATTR_REQUIRED },
	{ "numericStable", TTC_AK_BOOL, TTC_ATTR_DEFAULT },
};

static int infer_reduce(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	int64_t dl[TTC_MAX_RANK], dims[TTC_MAX_RANK];
	bool reduced[TTC_MAX_RANK] = { false };
	unsigned n = 0;

	if (!t)
		return rc;
	int nd = attr_ints(in, "dim_arg", dl, TTC_MAX_RANK, true);

	if (nd == -ENOENT) {
		for (unsigned i = 0; i < t->rank; i++)
			reduced[i] = true;
	} else if (nd < 0) {
		return nd;
	}
	for (int i = 0; i < nd; i++) {
		unsigned d;

		if ((rc = norm_dim(in, "dim_arg", dl[i], t->rank, &d)))
			return rc;
		if (reduced[d])
			return fail(in, "attribute 'dim_arg' names dimension "
					"%u twice",
				    d);
		reduced[d] = true;
	}
	bool keep = ttc_attr_bool(ttc_infer_attr(in, "keep_dim"));

	for (unsigned i = 0; i < t->rank; i++)
		if (!reduced[i] || keep)
			dims[n++] = reduced[i] ? 1 : t->dims[i];
	out[0] = make_tensor(in, dims, n, t->elem);
	return 0;
}

static int infer_softmax(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);
	unsigned d;

	if (!t)
		return rc;
	rc = norm_dim(in, "dimension",
		      ttc_attr_int(ttc_infer_attr(in, "dimension")), t->rank,
		      &d);
	if (rc)
		return rc;
	out[0] = ttc_tensor_type(in->ctx, t->dims, t->rank, t->elem, NULL);
	return 0;
}

#define REDUCE_F(n, s, f) \
	{ .name = "ttir." n, .summary = s, .operands = in1, .noperands = 1, \
	  .nresults = 1, .flags = TTC_OPF_DPS | (f), .attrs = reduce_attrs, \
	  .nattrs = 2, .infer = infer_reduce }
#define REDUCE(n, s) REDUCE_F(n, s, 0)

const struct ttc_op_def ttc_reduce_defs[] = {
	REDUCE("sum", "sum over dim_arg"),
	REDUCE("mean", "mean over dim_arg"),
	REDUCE("max", "maximum over dim_arg"),
	REDUCE("min", "minimum over dim_arg"),
	REDUCE("prod", "product over dim_arg"),
	REDUCE_F("argmax", "index of the maximum over dim_arg",
		 TTC_OPF_ELEM_FREE),
	REDUCE_F("reduce_and", "logical and over dim_arg", TTC_OPF_ELEM_FREE),
	REDUCE_F("reduce_or", "logical or over dim_arg", TTC_OPF_ELEM_FREE),
	{ .name = "ttir.softmax", .summary = "softmax along dimension",
	  .operands = in1, .noperands = 1, .nresults = 1,
	  .flags = TTC_OPF_DPS, .attrs = softmax_attrs, .nattrs = 2,
	  .infer = infer_softmax },
};

const size_t ttc_reduce_count =
	sizeof(ttc_reduce_defs) / sizeof(ttc_reduce_defs[0]);
