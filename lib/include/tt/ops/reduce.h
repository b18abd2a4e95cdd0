/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The device op library (tt/ops.h): reductions (sum, mean, max, min over
 * any set of dimensions), argmax and cumsum. docs/ops.md
 * ("Reductions").
 *
 * Work is split in output tiles (cumsum: rows or columns of tiles) over
 * the first cores of the grid; each reads the input tiles its output
 * tile folds (a row, a column, a matrix, or the same tile across batch
 * dimensions) in chunks, so there is no limit on the length of a
 * reduction.
 */
#ifndef TT_OPS_REDUCE_H
#define TT_OPS_REDUCE_H

#include "../ops.h"

enum tt_reduce_op {
	TT_REDUCE_SUM = 0,
	TT_REDUCE_MEAN, /* the sum / the logical count of the reduced elements */
	TT_REDUCE_MAX,
	TT_REDUCE_MIN,
	TT_REDUCE_OP_COUNT
};

/* dims of tt_op_reduce: bit i for dimension i of a (0 the outermost);
 * 0 for every dimension. */
#define TT_REDUCE_DIM(i) (1u << (i))

struct tt_reduce_cfg {
	/* Cores: a grid.x x grid.y grid from logical (0,0); {0, 0}: the
	 * device's whole logical grid. */
	struct tt_xy grid;
	/* At most this many output tiles (cumsum: rows or columns of
	 * tiles) per core (0: auto, as even a split as the grid allows). */
	uint32_t tiles_per_core;
	/* Input tiles per chunk the reader hands over (0: auto, 8; made a
	 * divisor of the tiles an output tile folds). At most 64. */
	uint32_t block_tiles;
	enum tt_ops_mem out_mem;
	/* Output format (auto: a's; argmax: Float32, which holds every
	 * index exactly): Float32, Float16, Float16_b, Bfp8_b, Bfp4_b. */
	enum tt_data_format out_format;
	/* TT_OPS_FIDELITY_AUTO: HiFi4 (it matters to cumsum's products and
	 * the reduction's final fold). */
	enum tt_math_fidelity math_fidelity;
	/* 32-bit DST (auto: on). */
	enum tt_ops_switch fp32_acc;
};

/* Every field auto. */
TT_API struct tt_reduce_cfg tt_op_reduce_config(void);

/* "sum", "mean", "max", "min"; NULL for a value out of range. */
TT_API const char *tt_reduce_op_name(enum tt_reduce_op op);

/*
 * out = op of a over the dimensions dims. keepdim: out has a's rank
 * with the reduced dimensions 1; else they are removed (every dimension
 * removed: shape [1]), which the op does only where the elements stay
 * in place (the reduced dimensions are outermost, or only 1s lie
 * outside them): otherwise -ENOTSUP, asking for keepdim. Padding is
 * ignored; a tensor of rank above 4 reduces only its last three
 * dimensions.
 */
TT_API int tt_op_reduce(tt_ops_ctx *ctx, const tt_device_tensor *a,
			enum tt_reduce_op op, uint32_t dims, bool keepdim,
			const struct tt_reduce_cfg *cfg,
			tt_device_tensor **out);

TT_API int tt_op_sum(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     uint32_t dims, bool keepdim,
		     const struct tt_reduce_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_mean(tt_ops_ctx *ctx, const tt_device_tensor *a,
		      uint32_t dims, bool keepdim,
		      const struct tt_reduce_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_amax(tt_ops_ctx *ctx, const tt_device_tensor *a,
		      uint32_t dims, bool keepdim,
		      const struct tt_reduce_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_amin(tt_ops_ctx *ctx, const tt_device_tensor *a,
		      uint32_t dims, bool keepdim,
		      const struct tt_reduce_cfg *cfg, tt_device_tensor **out);

/*
 * out = the index of the largest element along the last dimension (the
 * first one of equal largest elements, as PyTorch), as a value of
 * cfg's out_format (auto: Float32). keepdim as tt_op_reduce's. The
 * last dimension is at most 2048 (indices pass the matrix unit, whose
 * sources hold integers exactly up to 2048).
 */
TT_API int tt_op_argmax(tt_ops_ctx *ctx, const tt_device_tensor *a,
			bool keepdim, const struct tt_reduce_cfg *cfg,
			tt_device_tensor **out);

/*
 * out = the running sum of a along dimension dim (negative: from the
 * end; the last two dimensions only), out[.., i] = a[.., 0] + .. +
 * a[.., i]. Within a tile, each prefix is one matrix-unit product with
 * a triangular ones tile (its terms summed in index order); then the
 * running total of the tiles before is added. Exact for integer values
 * whose sums stay below 2^24 (inputs below 256 in magnitude: the
 * multiplier keeps 8 bits of them at HiFi4), with fp32 accumulation.
 */
TT_API int tt_op_cumsum(tt_ops_ctx *ctx, const tt_device_tensor *a, int dim,
			const struct tt_reduce_cfg *cfg,
			tt_device_tensor **out);

#endif /* TT_OPS_REDUCE_H */
