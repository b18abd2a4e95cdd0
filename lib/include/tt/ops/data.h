/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The device op library (tt/ops.h): data movement (transpose, permute,
 * reshape, concat, slice, pad, repeat, tilize, untilize) and embedding.
 * docs/ops.md ("Data movement") has each op, its config and its limits.
 *
 * Every op here copies elements without arithmetic, so results are
 * exact. Formats: every non-block format a tile holds (Float32, Float16,
 * Float16_b, Int32, UInt32, UInt16, Int8, UInt8). The block formats
 * (Bfp8_b, Bfp4_b, Bfp2_b) share one exponent among 16 elements, so they
 * move only as whole tiles: in calls that keep the last two dims
 * (permutes and transposes of the outer two dims, concat, slice and
 * repeat along them, reshapes keeping the last two dims); any other call
 * with them is -ENOTSUP (tt_op_typecast to Float16_b first), and
 * embedding, tilize and untilize never take them. The output has the
 * input's format (cfg.out_format may only name it: no op here converts).
 *
 * Dimensions are numbered in the tensor's own rank (0 the outermost
 * dimension the caller gave, rank - 1 the last); a negative dim counts
 * from the end (-1 the last) where an op takes a single dim.
 *
 * Padding: the tile padding of every output (elements past its logical
 * rows and columns) holds 0 (zero bytes; in block formats zero sign and
 * magnitude bits); an input's padding never reaches an output.
 *
 * Row-major device data (tilize, untilize): a tt_buffer of row pages, an
 * interleaved DRAM or L1 buffer whose page i is row i of the tensor in
 * C order (w * z * r pages of c * element-size bytes each: page
 * (w * Z + z) * R + r is row r of matrix [w, z]).
 */
#ifndef TT_OPS_DATA_H
#define TT_OPS_DATA_H

#include "../ops.h"

/*
 * Config of the data movement ops. The work (output tiles; output rows
 * for untilize) is split over the first cores of grid, row by row.
 */
struct tt_data_cfg {
	/* Cores: grid.x x grid.y from logical (0,0); {0, 0}: the whole
	 * logical grid. */
	struct tt_xy grid;
	/* At most this many output tiles (rows for untilize) per core (0:
	 * auto); the cores used, ceil(units / tiles_per_core), must fit
	 * the grid. */
	uint32_t tiles_per_core;
	/* Input pages (tiles, or rows for tilize) each core keeps in L1
	 * (1..64; 0: auto, as many of 32 as fit — for untilize one row of
	 * tiles). */
	uint32_t cache_pages;
	enum tt_ops_mem out_mem;
	/* TT_OPS_FORMAT_AUTO or the input's format. */
	enum tt_data_format out_format;
};

/* Every field auto. */
TT_API struct tt_data_cfg tt_op_data_config(void);

/* Swap dims dim0 and dim1 (WH: -2, -1; HC: -3, -2; CN: 0, 1 of a rank-4
 * tensor). */
TT_API int tt_op_transpose(tt_ops_ctx *ctx, const tt_device_tensor *a,
			   int dim0, int dim1, const struct tt_data_cfg *cfg,
			   tt_device_tensor **out);

/* out dim k is a's dim perm[k] (perm: a's rank entries, a permutation
 * of 0 .. rank - 1). */
TT_API int tt_op_permute(tt_ops_ctx *ctx, const tt_device_tensor *a,
			 const unsigned *perm, const struct tt_data_cfg *cfg,
			 tt_device_tensor **out);

/* The same elements in C order with another shape (same volume, rank
 * 1..4); re-tiled on the device. */
TT_API int tt_op_reshape(tt_ops_ctx *ctx, const tt_device_tensor *a,
			 const struct tt_shape *shape,
			 const struct tt_data_cfg *cfg, tt_device_tensor **out);

/* The n tensors (1..64; same rank, format and dims but dim) one after
 * the other along dim. */
TT_API int tt_op_concat(tt_ops_ctx *ctx, const tt_device_tensor *const *in,
			unsigned n, int dim, const struct tt_data_cfg *cfg,
			tt_device_tensor **out);

/* Elements start[d], start[d] + step[d], ... below end[d] of each dim d
 * (a's rank entries each; 0 <= start < end <= dim, step >= 1; step NULL:
 * all 1). */
TT_API int tt_op_slice(tt_ops_ctx *ctx, const tt_device_tensor *a,
		       const int64_t *start, const int64_t *end,
		       const int64_t *step, const struct tt_data_cfg *cfg,
		       tt_device_tensor **out);

/* before[d] elements of value before and after[d] after each dim d (a's
 * rank entries each; NULL: none). value is converted to a's format
 * (integers: rounded, saturated). */
TT_API int tt_op_pad(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     const uint64_t *before, const uint64_t *after, float value,
		     const struct tt_data_cfg *cfg, tt_device_tensor **out);

/* a tiled reps[d] times along each dim d (a's rank entries, each >= 1):
 * out[..., i, ...] = a[..., i % dim, ...]. */
TT_API int tt_op_repeat(tt_ops_ctx *ctx, const tt_device_tensor *a,
			const uint64_t *reps, const struct tt_data_cfg *cfg,
			tt_device_tensor **out);

/*
 * out[b, s, :] = table[indices[b, s], :]: indices UInt32 or Int32 of
 * shape [S] or [B, S], table [V, D] (rank 2, or higher with every outer
 * dim 1) in any format above; out [S, D] or [B, S, D] in the table's
 * format. An index outside 0 .. V - 1 (a negative Int32 too) gives a row
 * of zeros: the kernel never reads outside the table.
 */
TT_API int tt_op_embedding(tt_ops_ctx *ctx, const tt_device_tensor *indices,
			   const tt_device_tensor *table,
			   const struct tt_data_cfg *cfg, tt_device_tensor **out);

/* Tile layout from row pages: rows (see above) holds a tensor of shape
 * and fmt row-major; out gets it tiled. cfg->out_format may only be
 * fmt. */
TT_API int tt_op_tilize(tt_ops_ctx *ctx, tt_buffer *rows,
			const struct tt_shape *shape, enum tt_data_format fmt,
			const struct tt_data_cfg *cfg, tt_device_tensor **out);

/* Row pages from tile layout: *out NULL gets a new buffer of row pages
 * (cfg->out_mem, auto: where a lives; the caller frees it); else *out
 * must be one of a's rows (page size c * element size, w * z * r
 * pages). */
TT_API int tt_op_untilize(tt_ops_ctx *ctx, const tt_device_tensor *a,
			  const struct tt_data_cfg *cfg, tt_buffer **out);

#endif /* TT_OPS_DATA_H */
