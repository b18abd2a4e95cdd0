// SPDX-License-Identifier: Apache-2.0
/*
 * fuse (enable_auto_fusing): an op whose only use is a unary elementwise
 * op the device computes takes that op as its activation, which the
 * device op library applies to the result before it is stored (one pass
 * over the data instead of two). The producer gets the discardable
 * attributes ttc.activation (tt_unary_op_name's spelling) and, for
 * leaky_relu and clip, ttc.activation_p0 / _p1 (f32); the unary op goes.
 * One activation per op: the device applies one.
 */
#include <string.h>

#include "internal.h"

static const char *const products[] = {
	"ttir.matmul", "ttir.linear", "ttir.conv2d", "ttir.conv_transpose2d",
	"ttir.where",
};

static bool producer(const ttc_op *op)
{
	double p[2];
	unsigned np;

	if (ttc_op_num_results(op) != 1 || ttc_op_attr(op, "ttc.activation"))
		return false;
	for (size_t i = 0; i < sizeof(products) / sizeof(products[0]); i++)
		if (!strcmp(ttc_op_name(op), products[i]))
			return true;
	return pass_is_device_binary(op) ||
	       pass_unary_device_name(op, p, &np);
}

static const ttc_attr *set(ttc_ctx *ctx, const ttc_attr *d, const char *k,
			   const ttc_attr *v)
{
	return ttc_attr_dict_set(ctx, d, k, v);
}

/* Fuses op's single user into it when it can; true when done. */
static bool try_fuse(ttc_ctx *ctx, ttc_op *op)
{
	ttc_value *r = ttc_op_result(op, 0);
	ttc_use *u = ttc_value_first_use(r);
	ttc_op *act;
	const char *name;
	double p[2];
	unsigned np = 0;

	if (ttc_value_num_uses(r) != 1)
		return false;
	act = ttc_use_op(u);
	name = pass_unary_device_name(act, p, &np);
	if (!name || ttc_value_type(ttc_op_result(act, 0)) != ttc_value_type(r))
		return false;
	const ttc_attr *d = ttc_op_attrs(op);
	const ttc_type *f32 = ttc_float_type(ctx, TTC_F32);

	d = set(ctx, d, "ttc.activation",
		ttc_string_attr(ctx, name, strlen(name)));
	if (np > 0)
		d = set(ctx, d, "ttc.activation_p0",
			ttc_float_attr(ctx, p[0], f32));
	if (np > 1)
		d = set(ctx, d, "ttc.activation_p1",
			ttc_float_attr(ctx, p[1], f32));
	if (ttc_value_replace_all_uses(ttc_op_result(act, 0), r) ||
	    ttc_op_erase(act))
		return false;
	ttc_op_set_attrs(op, d);
	return true;
}

static int run(ttc_func *f, struct ttc_pass_ctx *pc)
{
	if (!pc->opts->enable_auto_fusing)
		return 0;
	for (ttc_op *op = ttc_func_first_op(f); op; op = ttc_op_next(op))
		if (producer(op) && try_fuse(pc->ctx, op))
			pc->stats->fused++;
	return 0;
}

const struct ttc_pass ttc_pass_fuse = {
	.name = "fuse",
	.summary = "fuses a unary activation into the op that feeds it "
		   "(enable_auto_fusing)",
	.run = run,
};
