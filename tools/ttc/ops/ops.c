// SPDX-License-Identifier: Apache-2.0
/* Registers the op tables of ops/ in a context, and PyBuda's aliases. */
#include <errno.h>

#include "ttc/ops.h"

#include "shape.h"

static int register_table(ttc_ctx *ctx, const struct ttc_op_def *defs,
			  size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int rc = ttc_register_op(ctx, &defs[i]);

		if (rc)
			return rc;
	}
	return 0;
}

int ttc_register_ttir_ops(ttc_ctx *ctx)
{
	int rc;

	if (!ctx)
		return -EINVAL;
	if (ttc_lookup_op(ctx, "ttir.add"))
		return 0;
	if ((rc = register_table(ctx, ttc_eltwise_defs, ttc_eltwise_count)) ||
	    (rc = register_table(ctx, ttc_matmul_defs, ttc_matmul_count)) ||
	    (rc = register_table(ctx, ttc_data_defs, ttc_data_count)) ||
	    (rc = register_table(ctx, ttc_reduce_defs, ttc_reduce_count)) ||
	    (rc = register_table(ctx, ttc_create_defs, ttc_create_count)) ||
	    (rc = register_table(ctx, ttc_nn_defs, ttc_nn_count)) ||
	    (rc = register_table(ctx, ttc_tm_defs, ttc_tm_count)) ||
	    (rc = register_table(ctx, ttc_pybuda_defs, ttc_pybuda_count)) ||
	    (rc = register_table(ctx, ttc_pybuda_nn_defs, ttc_pybuda_nn_count)))
		return rc;
	for (size_t i = 0; i < ttc_pybuda_alias_count; i++)
		if ((rc = ttc_register_alias(ctx, ttc_pybuda_aliases[i][0],
					     ttc_pybuda_aliases[i][1])))
			return rc;
	return 0;
}

ttc_ctx *ttc_ctx_new_ttir(void)
{
	ttc_ctx *ctx = ttc_ctx_new();

	if (ctx && ttc_register_ttir_ops(ctx)) {
		ttc_ctx_free(ctx);
		return NULL;
	}
	return ctx;
}
