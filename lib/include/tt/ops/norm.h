/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The device op library (tt/ops.h): softmax, layernorm, rmsnorm, all
 * along the last dimension. docs/ops.md ("Softmax and normalisation").
 *
 * Work is split in rows of tiles (32 rows x the whole last dimension,
 * W/32 tiles) over the first cores of the grid; a core holds a whole
 * row of tiles in L1 at a time (its input, and the row's intermediate
 * values): a row that does not fit is refused, naming the bytes it
 * needs against the bytes a core has.
 */
#ifndef TT_OPS_NORM_H
#define TT_OPS_NORM_H

#include "../ops.h"

/* Config of layernorm and rmsnorm; the first fields of tt_softmax_cfg
 * are the same. Start from tt_op_norm_config(). */
struct tt_norm_cfg {
	/* Cores: a grid.x x grid.y grid from logical (0,0); {0, 0}: the
	 * device's whole logical grid. */
	struct tt_xy grid;
	/* At most this many rows of tiles per core (0: auto: at least 8 per
	 * core, since every core of a launch costs the chip model host
	 * time, as many cores as that gives up to the grid; every core of
	 * a grid given in cfg.grid); ceil(rows / rows_per_core) cores must
	 * fit the grid. */
	uint32_t rows_per_core;
	/* Output tiles per DST block (0: auto, as many as DST holds). */
	uint32_t block_tiles;
	/* Rows of tiles the input buffer holds (0: auto, 2 when they fit,
	 * else 1; 1 or 2). */
	uint32_t buffering;
	enum tt_ops_mem out_mem;
	/* Output format (auto: a's), intermediate format (auto: Float32 for
	 * a Float32 input, else Float16_b): Float32, Float16, Float16_b,
	 * Bfp8_b, Bfp4_b. Masked intermediates (values of -1e30 next to real
	 * ones) stay in Float16_b when the intermediate is a block float. */
	enum tt_data_format out_format;
	enum tt_data_format inter_format;
	/* TT_OPS_FIDELITY_AUTO: HiFi4. */
	enum tt_math_fidelity math_fidelity;
	/* 32-bit DST (auto: on). */
	enum tt_ops_switch fp32_acc;
};

/* Every field auto. */
TT_API struct tt_norm_cfg tt_op_norm_config(void);

/* Config of softmax: tt_norm_cfg's fields, then the softmax's own. */
struct tt_softmax_cfg {
	struct tt_xy grid;
	uint32_t rows_per_core;
	uint32_t block_tiles;
	uint32_t buffering;
	enum tt_ops_mem out_mem;
	enum tt_data_format out_format;
	enum tt_data_format inter_format;
	enum tt_math_fidelity math_fidelity;
	enum tt_ops_switch fp32_acc;
	/* x * scale before everything (tt_op_softmax_config: 1). */
	float scale;
	/* Mask element (r, c) of every matrix with c > r (the upper
	 * triangle, above the diagonal): those get probability 0. */
	bool causal;
	/* Added to x * scale (NULL: none): shape [w|1, z|1, r, c] against
	 * a's [w, z, r, c] (broadcast over batch and heads), any format the
	 * ops take; -inf or a large negative value masks. */
	const tt_device_tensor *mask;
};

/* Every field auto, scale 1, no mask. */
TT_API struct tt_softmax_cfg tt_op_softmax_config(void);

/*
 * out = softmax(a * scale + mask) along the last dimension, numerically
 * stable: exp(x - max) / sum exp(x - max) per row. Causal masking and
 * padding set elements to -1e30 (probability 0); a row whose every
 * element the mask tensor sets to -inf gives NaN, as PyTorch.
 */
TT_API int tt_op_softmax(tt_ops_ctx *ctx, const tt_device_tensor *a,
			 const struct tt_softmax_cfg *cfg,
			 tt_device_tensor **out);

/*
 * out = (a - mean) / sqrt(var + eps) * gamma + beta along the last
 * dimension (var the biased variance, as PyTorch). gamma and beta (NULL:
 * none) have shape [W] (or [1, .., 1, W]).
 */
TT_API int tt_op_layernorm(tt_ops_ctx *ctx, const tt_device_tensor *a,
			   const tt_device_tensor *gamma,
			   const tt_device_tensor *beta, float eps,
			   const struct tt_norm_cfg *cfg,
			   tt_device_tensor **out);

/* out = a / sqrt(mean(a^2) + eps) * gamma along the last dimension;
 * gamma as layernorm's (NULL: none). */
TT_API int tt_op_rmsnorm(tt_ops_ctx *ctx, const tt_device_tensor *a,
			 const tt_device_tensor *gamma, float eps,
			 const struct tt_norm_cfg *cfg, tt_device_tensor **out);

#endif /* TT_OPS_NORM_H */
