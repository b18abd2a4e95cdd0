// SPDX-License-Identifier: Apache-2.0
/*
 * The func dialect's ops, part of the IR's structure: func.return ends a
 * function, func.call calls one. The module verifier checks their types
 * against the functions (verify.c); these entries make them known ops.
 */
#include "internal.h"

static const char *const return_operands[] = { "operands" };
static const char *const call_operands[] = { "operands" };
static const struct ttc_attr_spec call_attrs[] = {
	{ .name = "callee", .kind = TTC_AK_ANY,
	  .presence = TTC_ATTR_REQUIRED },
};

static const struct ttc_op_def builtin_defs[] = {
	{ .name = "func.return",
	  .summary = "returns the function's results",
	  .operands = return_operands, .noperands = 1,
	  .flags = TTC_OPF_VARIADIC | TTC_OPF_TERMINATOR |
		   TTC_OPF_VARIADIC_RESULTS },
	{ .name = "func.call",
	  .summary = "calls a function of the module",
	  .operands = call_operands, .noperands = 1,
	  .flags = TTC_OPF_VARIADIC | TTC_OPF_VARIADIC_RESULTS,
	  .attrs = call_attrs, .nattrs = 1 },
};

void ttc_register_builtin(ttc_ctx *ctx)
{
	for (size_t i = 0; i < sizeof(builtin_defs) / sizeof(*builtin_defs);
	     i++)
		ttc_register_op(ctx, &builtin_defs[i]);
}
