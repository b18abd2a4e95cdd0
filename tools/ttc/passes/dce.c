// SPDX-License-Identifier: Apache-2.0
/*
 * dce: removes ops whose results are all unused. Only pure ops go (every
 * registered op but terminators, calls and empty tensors; opaque ops may
 * have effects). Walking backwards removes a dead chain in one sweep: an
 * op's users come after it, so they are gone when it is reached.
 */
#include "internal.h"

static bool unused(const ttc_op *op)
{
	for (size_t i = 0; i < ttc_op_num_results(op); i++)
		if (ttc_value_num_uses(ttc_op_result(op, i)))
			return false;
	return true;
}

static int run(ttc_func *f, struct ttc_pass_ctx *pc)
{
	ttc_op *op = ttc_func_last_op(f), *prev;
	int rc;

	for (; op; op = prev) {
		prev = ttc_op_prev(op);
		if (!pass_op_is_pure(op) || !unused(op))
			continue;
		if ((rc = ttc_op_erase(op)))
			return pass_fail(pc, op, rc, "cannot erase the op");
		pc->stats->erased++;
	}
	return 0;
}

const struct ttc_pass ttc_pass_dce = {
	.name = "dce",
	.summary = "removes ops whose results are unused",
	.run = run,
};
