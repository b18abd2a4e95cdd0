// SPDX-License-Identifier: Apache-2.0
/*
 * Elementwise ops: unary, binary (NumPy broadcasting) and where. Adding
 * one is one line of the table below.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "shape.h"

static const char *const in1[] = { "input" };
static const char *const in2[] = { "lhs", "rhs" };
static const char *const in3[] = { "first", "second", "third" };
static const char *const clamp_in[] = { "input", "min", "max" };

/* The broadcast shape of lhs and rhs, of lhs's element type. */
static int infer_binary(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *a = operand_tensor(in, 0, &rc), *b;
	int64_t dims[TTC_MAX_RANK];
	unsigned rank;

	if (!a)
		return rc;
	b = operand_tensor(in, 1, &rc);
	if (!b)
		return rc;
	if ((rc = broadcast2(in, a, 0, b, 1, dims, &rank)))
		return rc;
	out[0] = make_tensor(in, dims, rank, a->elem);
	return out[0] ? 0 : -EINVAL;
}

/* where(cond, a, b): the broadcast of all three, of a's element type. */
static int infer_where(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t[3];
	int64_t d1[TTC_MAX_RANK], d2[TTC_MAX_RANK];
	unsigned r1, r2;

	for (size_t i = 0; i < 3; i++)
		if (!(t[i] = operand_tensor(in, i, &rc)))
			return rc;
	if ((rc = broadcast2(in, t[1], 1, t[2], 2, d1, &r1)))
		return rc;
	const ttc_type *ab = ttc_tensor_type(in->ctx, d1, r1, t[1]->elem,
					     NULL);

	if ((rc = broadcast2(in, t[0], 0, ab, 1, d2, &r2)))
		return rc;
	out[0] = make_tensor(in, d2, r2, t[1]->elem);
	return out[0] ? 0 : -EINVAL;
}

/* clamp_tensor(input, min, max): input's shape; min and max broadcast
 * to it. */
static int infer_clamp_tensor(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t[3];
	int64_t d[TTC_MAX_RANK];
	unsigned r;
	char sb[128], st[128];

	for (size_t i = 0; i < 3; i++)
		if (!(t[i] = operand_tensor(in, i, &rc)))
			return rc;
	for (size_t i = 1; i < 3; i++) {
		if ((rc = broadcast2(in, t[0], 0, t[i], i, d, &r)))
			return rc;
		if (r != t[0]->rank ||
		    memcmp(d, t[0]->dims, r * sizeof(*d)))
			return fail(in, "operand #%zu (%s) %s must broadcast "
					"to operand #0 (input) %s",
				    i, clamp_in[i],
				    type_text(t[i], sb, sizeof(sb)),
				    type_text(t[0], st, sizeof(st)));
	}
	out[0] = ttc_tensor_type(in->ctx, t[0]->dims, t[0]->rank, t[0]->elem,
				 NULL);
	return 0;
}

/* bitcast_convert: the bits stay, so the element widths must match
 * (tt-mlir's verifier). */
static int verify_bitcast(const ttc_op *op, char *err, size_t len)
{
	const ttc_type *a = ttc_value_type(ttc_op_operand(op, 0));
	const ttc_type *r = ttc_value_type(ttc_op_result(op, 0));
	unsigned wa, wr;

	if (!ttc_type_is_tensor(a) || !ttc_type_is_tensor(r))
		return 0;
	wa = ttc_type_width(ttc_type_elem(a));
	wr = ttc_type_width(ttc_type_elem(r));
	if (wa != wr) {
		snprintf(err, len, "operand #0 (input) has %u-bit elements but "
				   "result #0 %u-bit ones: a bitcast keeps the "
				   "width",
			 wa, wr);
		return -EINVAL;
	}
	return 0;
}

/*
 * Like tt-mlir, elementwise ops do not tie element types together: the
 * operands may differ (si32 + f32) and the result has the declared type
 * (relu from f32 to bf16). Inference fixes the shape and proposes the
 * first operand's element type.
 */
#define UNARY_F(n, s, f) \
	{ .name = "ttir." n, .summary = s, .operands = in1, .noperands = 1, \
	  .nresults = 1, .flags = TTC_OPF_DPS | TTC_OPF_ELEM_FREE | (f), \
	  .infer = infer_same_type }
#define UNARY(n, s) UNARY_F(n, s, 0)
#define BINARY_F(n, s, f) \
	{ .name = "ttir." n, .summary = s, .operands = in2, .noperands = 2, \
	  .nresults = 1, .flags = TTC_OPF_DPS | TTC_OPF_ELEM_FREE | (f), \
	  .infer = infer_binary }
#define BINARY(n, s) BINARY_F(n, s, 0)
/* Comparisons and logical ops give 1/0 in the declared element type (i1
 * or the inputs'). */
#define COMPARE(n, s) BINARY_F(n, s, TTC_OPF_ELEM_FREE)

static const struct ttc_attr_spec leaky_relu_attrs[] = {
	{ "parameter", TTC_AK_FLOAT, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec selu_attrs[] = {
	{ "scale", TTC_AK_FLOAT, TTC_ATTR_DEFAULT, "f32", 0, 1.0507009873390197 },
	{ "alpha", TTC_AK_FLOAT, TTC_ATTR_DEFAULT, "f32", 0, 1.6732635498046875 },
};
static const struct ttc_attr_spec gelu_bw_attrs[] = {
	{ "approximate", TTC_AK_STRING, TTC_ATTR_DEFAULT, NULL, 0, 0, "none" },
};
static const struct ttc_attr_spec clamp_attrs[] = {
	{ "min", TTC_AK_NUMBER, TTC_ATTR_REQUIRED },
	{ "max", TTC_AK_NUMBER, TTC_ATTR_REQUIRED },
};
static const struct ttc_attr_spec typecast_attrs[] = {
	{ "conservative_folding", TTC_AK_BOOL, TTC_ATTR_DEFAULT },
};

const struct ttc_op_def ttc_eltwise_defs[] = {
	UNARY("abs", "|x|"),
	UNARY("acos", "arc cosine"),
	UNARY("asin", "arc sine"),
	UNARY("asinh", "inverse hyperbolic sine"),
	UNARY("atan", "arc tangent"),
	{ .name = "ttir.bitcast_convert", .summary = "reinterprets the bits "
	  "as the result's element type (of the same width)", .operands = in1,
	  .noperands = 1, .nresults = 1,
	  .flags = TTC_OPF_DPS | TTC_OPF_ELEM_FREE, .infer = infer_same_type,
	  .verify = verify_bitcast },
	UNARY("bitwise_not", "~x"),
	UNARY("cbrt", "cube root"),
	UNARY("ceil", "rounds up"),
	UNARY("cos", "cosine"),
	UNARY("erf", "error function"),
	UNARY("erfc", "complementary error function"),
	UNARY("exp", "e^x"),
	UNARY("exp2", "2^x"),
	UNARY("expm1", "e^x - 1"),
	UNARY("floor", "rounds down"),
	UNARY("frac", "x - trunc(x)"),
	UNARY("gelu", "GELU (erf form)"),
	UNARY("hardsigmoid", "max(0, min(1, x/6 + 1/2))"),
	UNARY_F("isfinite", "1 where x is finite", TTC_OPF_ELEM_FREE),
	UNARY("log", "natural logarithm"),
	UNARY("log1p", "log(1 + x)"),
	UNARY_F("logical_not", "1 where x is 0", TTC_OPF_ELEM_FREE),
	UNARY("mish", "x * tanh(softplus(x))"),
	UNARY("neg", "-x"),
	UNARY("reciprocal", "1 / x"),
	UNARY("relu", "max(x, 0)"),
	UNARY("relu6", "min(max(x, 0), 6)"),
	UNARY("rsqrt", "1 / sqrt(x)"),
	UNARY("sigmoid", "1 / (1 + e^-x)"),
	UNARY("sign", "-1, 0 or 1"),
	UNARY_F("signbit", "1 where the sign bit is set", TTC_OPF_ELEM_FREE),
	UNARY("silu", "x * sigmoid(x)"),
	UNARY("sin", "sine"),
	UNARY("softsign", "x / (1 + |x|)"),
	UNARY("sqrt", "square root"),
	UNARY("square", "x * x"),
	UNARY("tan", "tangent"),
	UNARY("tanh", "hyperbolic tangent"),
	UNARY("trunc", "rounds toward zero"),
	{ .name = "ttir.leaky_relu", .summary = "x < 0 ? parameter * x : x",
	  .operands = in1, .noperands = 1, .nresults = 1,
	  .flags = TTC_OPF_DPS | TTC_OPF_ELEM_FREE, .attrs = leaky_relu_attrs, .nattrs = 1,
	  .infer = infer_same_type },
	{ .name = "ttir.selu", .summary = "scale * (x > 0 ? x : alpha * "
					   "(e^x - 1))",
	  .operands = in1, .noperands = 1, .nresults = 1,
	  .flags = TTC_OPF_DPS | TTC_OPF_ELEM_FREE, .attrs = selu_attrs,
	  .nattrs = 2, .infer = infer_same_type },
	{ .name = "ttir.clamp_scalar", .summary = "min(max(x, min), max)",
	  .operands = in1, .noperands = 1, .nresults = 1,
	  .flags = TTC_OPF_DPS | TTC_OPF_ELEM_FREE, .attrs = clamp_attrs,
	  .nattrs = 2, .infer = infer_same_type },
	{ .name = "ttir.clamp_tensor", .summary = "min(max(x, min), max), "
						  "elementwise bounds",
	  .operands = clamp_in, .noperands = 3, .nresults = 1,
	  .flags = TTC_OPF_DPS | TTC_OPF_ELEM_FREE,
	  .infer = infer_clamp_tensor },
	{ .name = "ttir.gelu_bw", .summary = "GELU's gradient: lhs (the "
					     "incoming gradient) times "
					     "gelu'(rhs)",
	  .operands = in2, .noperands = 2, .nresults = 1,
	  .flags = TTC_OPF_DPS | TTC_OPF_ELEM_FREE, .attrs = gelu_bw_attrs,
	  .nattrs = 1, .infer = infer_binary },
	{ .name = "ttir.typecast", .summary = "converts to the result's "
					      "element type",
	  .operands = in1, .noperands = 1, .nresults = 1,
	  .flags = TTC_OPF_DPS | TTC_OPF_ELEM_FREE, .attrs = typecast_attrs,
	  .nattrs = 1, .infer = infer_same_type },
	BINARY("add", "lhs + rhs"),
	BINARY("atan2", "atan2(lhs, rhs)"),
	BINARY("bitwise_and", "lhs & rhs"),
	BINARY("bitwise_or", "lhs | rhs"),
	BINARY("bitwise_xor", "lhs ^ rhs"),
	BINARY("div", "lhs / rhs"),
	COMPARE("eq", "lhs == rhs"),
	COMPARE("ge", "lhs >= rhs"),
	COMPARE("gt", "lhs > rhs"),
	COMPARE("le", "lhs <= rhs"),
	BINARY("logical_left_shift", "lhs << rhs"),
	BINARY("logical_right_shift", "lhs >> rhs, zero-filling"),
	COMPARE("logical_and", "lhs && rhs"),
	COMPARE("logical_or", "lhs || rhs"),
	COMPARE("logical_xor", "lhs != rhs as booleans"),
	COMPARE("lt", "lhs < rhs"),
	BINARY("maximum", "max(lhs, rhs)"),
	BINARY("minimum", "min(lhs, rhs)"),
	BINARY("multiply", "lhs * rhs"),
	COMPARE("ne", "lhs != rhs"),
	BINARY("pow", "lhs ^ rhs"),
	BINARY("remainder", "lhs mod rhs"),
	BINARY("right_shift", "lhs >> rhs, sign-filling"),
	BINARY("subtract", "lhs - rhs"),
	{ .name = "ttir.where", .summary = "first != 0 ? second : third",
	  .operands = in3, .noperands = 3, .nresults = 1,
	  .flags = TTC_OPF_DPS | TTC_OPF_ELEM_FREE, .infer = infer_where },
};

const size_t ttc_eltwise_count =
	sizeof(ttc_eltwise_defs) / sizeof(ttc_eltwise_defs[0]);
