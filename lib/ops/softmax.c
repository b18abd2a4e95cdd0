// SPDX-License-Identifier: Apache-2.0
/*
 * Softmax along the last dimension, with a scale, a causal mask and an
 * additive mask tensor; the program is norm.c's (kernels/norm/), which
 * runs the three row ops of this family.
 */
#include <errno.h>

#include "ops_internal.h"

struct tt_softmax_cfg tt_op_softmax_config(void)
{
	return (struct tt_softmax_cfg){
		.out_format = TT_OPS_FORMAT_AUTO,
		.inter_format = TT_OPS_FORMAT_AUTO,
		.math_fidelity = TT_OPS_FIDELITY_AUTO,
		.scale = 1.0f,
	};
}

int tt_op_softmax(tt_ops_ctx *ctx, const tt_device_tensor *a,
		  const struct tt_softmax_cfg *cfg, tt_device_tensor **out)
{
	const struct tt_softmax_cfg s = cfg ? *cfg : tt_op_softmax_config();
	struct tt_ops_norm_call c = {
		.fn = "tt_op_softmax", .op = 0, .a = a, .mask = s.mask,
		.scale = s.scale, .causal = s.causal,
		.cfg = {
			.grid = s.grid,
			.rows_per_core = s.rows_per_core,
			.block_tiles = s.block_tiles,
			.buffering = s.buffering,
			.out_mem = s.out_mem,
			.out_format = s.out_format,
			.inter_format = s.inter_format,
			.math_fidelity = s.math_fidelity,
			.fp32_acc = s.fp32_acc,
		},
	};

	return tt_ops_norm_run(ctx, &c, out);
}
