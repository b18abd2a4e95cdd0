// SPDX-License-Identifier: Apache-2.0
/*
 * Helpers of the passes: diagnostics, the ops' kinds as the device op
 * library (lib/include/tt/ops.h) sees them, and rewriting.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tt/ops.h"

#include "internal.h"

int pass_fail(struct ttc_pass_ctx *pc, const ttc_op *op, int rc,
	      const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (op)
		ttc_op_error(op, "pass '%s': %s", pc->pass->name, msg);
	else
		ttc_diag_addf(pc->ctx, "pass '%s': %s", pc->pass->name, msg);
	return rc;
}

bool pass_op_is_pure(const ttc_op *op)
{
	const struct ttc_op_def *d = ttc_op_get_def(op);
	const char *n = ttc_op_name(op);

	if (!d || (d->flags & TTC_OPF_TERMINATOR))
		return false;
	/* A call may reach anything; an empty tensor is a destination whose
	 * identity matters to the older destination-passing form. */
	return strcmp(n, "func.call") && strcmp(n, "ttir.empty") &&
	       strcmp(n, "tensor.empty");
}

/* TTIR's unary ops and the device function of each (parameters from
 * attributes: p0, p1). */
static const struct {
	const char *op;
	enum tt_unary_op fn;
	const char *p0, *p1;
} unary[] = {
	{ "ttir.abs", TT_UNARY_ABS, NULL, NULL },
	{ "ttir.ceil", TT_UNARY_CEIL, NULL, NULL },
	{ "ttir.clamp_scalar", TT_UNARY_CLIP, "min", "max" },
	{ "ttir.cos", TT_UNARY_COS, NULL, NULL },
	{ "ttir.erf", TT_UNARY_ERF, NULL, NULL },
	{ "ttir.erfc", TT_UNARY_ERFC, NULL, NULL },
	{ "ttir.exp", TT_UNARY_EXP, NULL, NULL },
	{ "ttir.exp2", TT_UNARY_EXP2, NULL, NULL },
	{ "ttir.expm1", TT_UNARY_EXPM1, NULL, NULL },
	{ "ttir.floor", TT_UNARY_FLOOR, NULL, NULL },
	{ "ttir.gelu", TT_UNARY_GELU, NULL, NULL },
	{ "ttir.hardsigmoid", TT_UNARY_HARDSIGMOID, NULL, NULL },
	{ "ttir.isfinite", TT_UNARY_ISFINITE, NULL, NULL },
	{ "ttir.leaky_relu", TT_UNARY_LEAKY_RELU, "parameter", NULL },
	{ "ttir.log", TT_UNARY_LOG, NULL, NULL },
	{ "ttir.log1p", TT_UNARY_LOG1P, NULL, NULL },
	{ "ttir.logical_not", TT_UNARY_LOGICAL_NOT, NULL, NULL },
	{ "ttir.mish", TT_UNARY_MISH, NULL, NULL },
	{ "ttir.neg", TT_UNARY_NEG, NULL, NULL },
	{ "ttir.reciprocal", TT_UNARY_RECIP, NULL, NULL },
	{ "ttir.relu", TT_UNARY_RELU, NULL, NULL },
	{ "ttir.relu6", TT_UNARY_RELU6, NULL, NULL },
	{ "ttir.rsqrt", TT_UNARY_RSQRT, NULL, NULL },
	{ "ttir.sigmoid", TT_UNARY_SIGMOID, NULL, NULL },
	{ "ttir.sign", TT_UNARY_SIGN, NULL, NULL },
	{ "ttir.silu", TT_UNARY_SILU, NULL, NULL },
	{ "ttir.sin", TT_UNARY_SIN, NULL, NULL },
	{ "ttir.softsign", TT_UNARY_SOFTSIGN, NULL, NULL },
	{ "ttir.sqrt", TT_UNARY_SQRT, NULL, NULL },
	{ "ttir.square", TT_UNARY_SQUARE, NULL, NULL },
	{ "ttir.tan", TT_UNARY_TAN, NULL, NULL },
	{ "ttir.tanh", TT_UNARY_TANH, NULL, NULL },
	{ "ttir.trunc", TT_UNARY_TRUNC, NULL, NULL },
};

static double num(const ttc_attr *a)
{
	if (!a)
		return 0;
	return ttc_attr_kind(a) == TTC_ATTR_INT ? (double)ttc_attr_int(a) :
						  ttc_attr_float(a);
}

const char *pass_unary_device_name(const ttc_op *op, double p[2],
				   unsigned *np)
{
	const char *n = ttc_op_name(op);

	if (ttc_op_num_operands(op) != 1 || ttc_op_num_results(op) != 1)
		return NULL;
	for (size_t i = 0; i < sizeof(unary) / sizeof(unary[0]); i++) {
		if (strcmp(n, unary[i].op))
			continue;
		*np = 0;
		if (unary[i].p0)
			p[(*np)++] = num(ttc_op_attr(op, unary[i].p0));
		if (unary[i].p1)
			p[(*np)++] = num(ttc_op_attr(op, unary[i].p1));
		return tt_unary_op_name(unary[i].fn);
	}
	return NULL;
}

/* TTIR's binary ops that tt_op_binary computes. */
static const char *const binary[] = {
	"ttir.add",	    "ttir.subtract",   "ttir.multiply",
	"ttir.div",	    "ttir.maximum",    "ttir.minimum",
	"ttir.pow",	    "ttir.eq",	       "ttir.ne",
	"ttir.lt",	    "ttir.le",	       "ttir.gt",
	"ttir.ge",	    "ttir.logical_and", "ttir.logical_or",
	"ttir.logical_xor",
};

bool pass_is_device_binary(const ttc_op *op)
{
	const char *n = ttc_op_name(op);

	for (size_t i = 0; i < sizeof(binary) / sizeof(binary[0]); i++)
		if (!strcmp(n, binary[i]))
			return true;
	return false;
}

bool pass_value_is_splat(const ttc_value *v, double x)
{
	const ttc_op *d = ttc_value_def(v);
	const char *n;

	if (!d)
		return false;
	n = ttc_op_name(d);
	if (!strcmp(n, "ttir.zeros"))
		return x == 0;
	if (!strcmp(n, "ttir.ones"))
		return x == 1;
	if (!strcmp(n, "ttir.full")) {
		const ttc_attr *a = ttc_op_attr(d, "fill_value");

		return a && num(a) == x;
	}
	if (!strcmp(n, "ttir.constant")) {
		const ttc_attr *a = ttc_op_attr(d, "value");

		if (!a || ttc_attr_kind(a) != TTC_ATTR_DENSE)
			return false;
		size_t cnt = ttc_attr_dense_is_splat(a) ? 1 : ttc_attr_size(a);

		for (size_t i = 0; i < cnt; i++)
			if (ttc_attr_dense_get(a, i) != x)
				return false;
		return true;
	}
	return false;
}

ttc_op *pass_new_op(ttc_op *pos, const char *name, ttc_value *const *ops,
		    size_t nops, const ttc_type *result, const ttc_attr *props)
{
	ttc_module *m = ttc_func_module(ttc_op_func(pos));
	ttc_op *op = ttc_op_create(m, name, ops, nops, &result, 1, props, NULL,
				   ttc_op_loc(pos));

	if (op && ttc_op_insert_before(pos, op)) {
		ttc_op_erase(op);
		return NULL;
	}
	return op;
}

int pass_replace_op(ttc_op *op, ttc_value *const *vals)
{
	int rc;

	for (size_t i = 0; i < ttc_op_num_results(op); i++)
		if ((rc = ttc_value_replace_all_uses(ttc_op_result(op, i),
						     vals[i])))
			return rc;
	return ttc_op_erase(op);
}

const ttc_attr *pass_i32_list(ttc_ctx *ctx, const int64_t *v, size_t n)
{
	const ttc_attr *e[TTC_MAX_RANK];
	const ttc_type *i32 = ttc_int_type(ctx, 32, TTC_SIGNLESS);

	if (n > TTC_MAX_RANK)
		n = TTC_MAX_RANK;
	for (size_t i = 0; i < n; i++)
		e[i] = ttc_int_attr(ctx, v[i], i32);
	return ttc_array_attr(ctx, e, n);
}

const ttc_attr *pass_i64_array(ttc_ctx *ctx, const int64_t *v, size_t n)
{
	return ttc_dense_int_array_attr(
		ctx, ttc_int_type(ctx, 64, TTC_SIGNLESS), v, n);
}

const ttc_attr *pass_si32(ttc_ctx *ctx, int64_t v)
{
	return ttc_int_attr(ctx, v, ttc_int_type(ctx, 32, TTC_SIGNED));
}

const ttc_attr *pass_dict1(ttc_ctx *ctx, const char *k, const ttc_attr *v)
{
	struct ttc_named_attr e = { k, v };

	return ttc_dict_attr(ctx, &e, 1);
}

const ttc_type *pass_tensor_like(ttc_ctx *ctx, const ttc_type *like,
				 const int64_t *dims, unsigned rank)
{
	return ttc_tensor_type(ctx, dims, rank, ttc_type_elem(like),
			       ttc_type_encoding(like));
}
