// SPDX-License-Identifier: Apache-2.0
/* Ops that make tensors: constant, full, zeros, ones, empty. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "shape.h"

static const struct ttc_attr_spec constant_attrs[] = {
	{ "value", TTC_AK_ANY, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec full_attrs[] = {
	{ "shape", TTC_AK_INTS, TTC_ATTR_REQUIRED },
	{ "fill_value", TTC_AK_NUMBER, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec shape_attrs[] = {
	{ "shape", TTC_AK_INTS, TTC_ATTR_REQUIRED },
};

/* The type of the value; dense_resource<...> (kept opaque) fixes none. */
static int infer_constant(struct ttc_infer *in, const ttc_type **out)
{
	const ttc_attr *v = ttc_infer_attr(in, "value");

	if (!v || ttc_attr_kind(v) == TTC_ATTR_OPAQUE)
		return 1;
	if (ttc_attr_kind(v) != TTC_ATTR_DENSE)
		return fail(in, "attribute 'value' must be dense elements "
				"(dense<...> : tensor<...>)");
	out[0] = ttc_attr_type(v);
	return 0;
}

/* The shape attribute; the element type is the declared result's. */
static int infer_shape(struct ttc_infer *in, const ttc_type **out)
{
	int64_t shape[TTC_MAX_RANK];
	int n = attr_ints(in, "shape", shape, TTC_MAX_RANK, false);

	if (n < 0)
		return n;
	out[0] = make_tensor(in, shape, (unsigned)n,
			     ttc_float_type(in->ctx, TTC_F32));
	return out[0] ? 0 : -EINVAL;
}

static const struct ttc_attr_spec arange_attrs[] = {
	{ "start", TTC_AK_INT, TTC_ATTR_REQUIRED },
	{ "end", TTC_AK_INT, TTC_ATTR_REQUIRED },
	{ "step", TTC_AK_INT, TTC_ATTR_REQUIRED },
	{ "arange_dimension", TTC_AK_INT, TTC_ATTR_REQUIRED },
};

/* arange: the attributes fix one dimension of the result, not its shape
 * (the values are broadcast along the others): the declared type stands
 * and the verifier checks it. */
static int infer_arange(struct ttc_infer *in, const ttc_type **out)
{
	(void)out;
	if (ttc_attr_int(ttc_infer_attr(in, "step")) == 0)
		return fail(in, "attribute 'step' is 0");
	return 1;
}

/* ceil((end - start) / step) values, at least 0. */
int64_t ttc_arange_count(int64_t start, int64_t end, int64_t step)
{
	int64_t span = end - start;

	if (step == 0 || (span > 0) != (step > 0) || span == 0)
		return 0;
	return step > 0 ? (span + step - 1) / step : (span + step + 1) / step;
}

static int verify_arange(const ttc_op *op, char *err, size_t len)
{
	const ttc_type *t = ttc_value_type(ttc_op_result(op, 0));
	int64_t d = ttc_attr_int(ttc_op_attr(op, "arange_dimension"));
	int64_t n = ttc_arange_count(ttc_attr_int(ttc_op_attr(op, "start")),
				     ttc_attr_int(ttc_op_attr(op, "end")),
				     ttc_attr_int(ttc_op_attr(op, "step")));

	if (!ttc_type_is_tensor(t) || d < 0 || d >= ttc_type_rank(t)) {
		snprintf(err, len, "attribute 'arange_dimension' (%" PRId64
				   ") must name a dimension of the result",
			 d);
		return -EINVAL;
	}
	if (ttc_type_dims(t)[d] != n) {
		snprintf(err, len, "result dimension %" PRId64 " is %" PRId64
				   " but start, end and step give %" PRId64
				   " values",
			 d, ttc_type_dims(t)[d], n);
		return -EINVAL;
	}
	return 0;
}

#define SHAPED(n, s, a) \
	{ .name = "ttir." n, .summary = s, .nresults = 1, \
	  .flags = TTC_OPF_ELEM_FREE, .attrs = a, \
	  .nattrs = sizeof(a) / sizeof(a[0]), .infer = infer_shape }

const struct ttc_op_def ttc_create_defs[] = {
	{ .name = "ttir.constant", .summary = "a tensor of given elements",
	  .nresults = 1, .attrs = constant_attrs, .nattrs = 1,
	  .infer = infer_constant },
	SHAPED("full", "a tensor of one value", full_attrs),
	SHAPED("zeros", "a tensor of zeros", shape_attrs),
	SHAPED("ones", "a tensor of ones", shape_attrs),
	{ .name = "ttir.arange", .summary = "start, start + step, ... below "
					     "end along arange_dimension",
	  .nresults = 1, .flags = TTC_OPF_ELEM_FREE, .attrs = arange_attrs,
	  .nattrs = 4, .infer = infer_arange, .verify = verify_arange },
	{ .name = "ttir.empty", .summary = "an uninitialised tensor",
	  .nresults = 1 },
	{ .name = "tensor.empty", .summary = "an uninitialised tensor (the "
					     "older spelling of ttir.empty)",
	  .nresults = 1 },
};

const size_t ttc_create_count =
	sizeof(ttc_create_defs) / sizeof(ttc_create_defs[0]);
