/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The device op library (tt/ops.h): matmul and linear.
 *
 * out = act(op(a) x op(b) [+ bias]) on device tensors of rank 1..4
 * (tt/tensor.h's shapes, [w, z, r, c] from the right), op() a transpose
 * of the last two dimensions where cfg asks for it:
 *
 *   a [..., M, K] (transpose_a: [..., K, M]), b [..., K, N]
 *   (transpose_b: [..., N, K]); the batch dimensions (all but the last
 *   two) broadcast as NumPy's do (equal, or 1 in one of them, or absent):
 *   a [B, M, K] x b [K, N] multiplies every matrix of a by b. The output
 *   is [batch..., M, N] in the larger rank. A rank-1 a [K] is a row
 *   [1, K] and the output drops its M (NumPy's rule; it is stored the
 *   same way); a rank-1 b [K] is a column [K, 1], the output [..., M, 1].
 *
 * bias (tt_op_linear only, may be NULL): [N] or [1, N] (any rank whose
 * other dimensions are 1), added to every row before the activation.
 *
 * M, N and K need not be multiples of 32: the padding of the inputs'
 * last tiles (unspecified, tt/ops.h) is zeroed on the device before it
 * reaches the matrix unit, so it never pollutes the result; the output's
 * padding holds act(0 [+ bias]).
 *
 * The program: every core computes blocks of per_core_m x per_core_n
 * output tiles, in sub-blocks of out_subblock_h x out_subblock_w tiles
 * (what DST holds), each the sum over K of one matmul_block_k command per
 * in0_block_w tiles of K. Variants (TT-Metal's program configs):
 *   REUSE     the blocks of every batch are shared out over the cores;
 *             each core reads its own operands;
 *   MCAST_1D  a row of cores (mcast_in0 on: in0's block is read once and
 *             multicast along it, each core reads its own in1 columns)
 *             or a column of cores (mcast_in0 off: in1 multicast);
 *   MCAST_2D  block (i, j) on core (j, i) of a rows x cols grid: in0
 *             multicast along each row, in1 down each column.
 * docs/ops.md's "Matmul" section has the limits and the errors.
 */
#ifndef TT_OPS_MATMUL_H
#define TT_OPS_MATMUL_H

#include "../ops.h"

enum tt_matmul_variant {
	TT_MATMUL_AUTO = 0,
	TT_MATMUL_REUSE,
	TT_MATMUL_MCAST_1D,
	TT_MATMUL_MCAST_2D,
};

struct tt_matmul_cfg {
	/* Cores: at most grid.x x grid.y from logical (0,0); {0, 0}: the
	 * device's whole logical grid. MCAST_2D uses a rows x cols corner
	 * of it; MCAST_1D one row (or column) of it. */
	struct tt_xy grid;
	enum tt_matmul_variant variant;
	/* MCAST_1D: on (auto): in0 multicast along a row of cores; off:
	 * in1 down a column. */
	enum tt_ops_switch mcast_in0;
	/* Output tiles per core block (0: auto). */
	uint32_t per_core_m, per_core_n;
	/* Tiles of K per matmul_block_k command, the inner block (0: auto;
	 * at most 255). */
	uint32_t in0_block_w;
	/* Sub-block (0: auto): h x w tiles in DST at once; must divide
	 * per_core_m and per_core_n. */
	uint32_t out_subblock_h, out_subblock_w;
	bool transpose_a, transpose_b;
	enum tt_ops_mem out_mem;
	/* Formats: in0/in1 must be AUTO or the tensors' own (the op does
	 * not convert them: tt_op_typecast does); out (auto: a's);
	 * interm, the format transposed in0 tiles are staged in (auto: a's,
	 * Float16_b for block formats). Float32, Float16, Float16_b,
	 * Bfp8_b, Bfp4_b. */
	enum tt_data_format in0_format, in1_format, out_format, interm_format;
	/* TT_OPS_FIDELITY_AUTO: HiFi4. */
	enum tt_math_fidelity math_fidelity;
	/* 32-bit DST (auto: on when an operand or the output is Float32). */
	enum tt_ops_switch fp32_acc;
	/* Applied on the vector unit before packing (TT_UNARY_NONE:
	 * nothing). gelu_tanh runs in approximate mode. */
	struct tt_unary_fn activation;
};

/* Every field auto, no transposes, no activation. */
TT_API struct tt_matmul_cfg tt_op_matmul_config(void);

/* out = act(op(a) x op(b)). */
TT_API int tt_op_matmul(tt_ops_ctx *ctx, const tt_device_tensor *a,
			const tt_device_tensor *b,
			const struct tt_matmul_cfg *cfg, tt_device_tensor **out);

/* out = act(op(a) x op(w) + bias); bias may be NULL. */
TT_API int tt_op_linear(tt_ops_ctx *ctx, const tt_device_tensor *a,
			const tt_device_tensor *w,
			const tt_device_tensor *bias,
			const struct tt_matmul_cfg *cfg, tt_device_tensor **out);

#endif /* TT_OPS_MATMUL_H */
