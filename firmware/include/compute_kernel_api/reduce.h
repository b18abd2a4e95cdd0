/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reductions (TT-Metal's tt_metal/hw/inc/api/compute/reduce.h): DST[idst]
 * gets tile itile of icb reduced, times the scaler at element (0,0) of tile
 * itile_scaler of icb_scaler (1.0 for a plain sum, 1/N for an average).
 *
 *   PoolType_SUM, PoolType_AVG   add into DST[idst] (accumulate from the
 *                                zeroed DST across tiles)
 *   PoolType_MAX                 keep the larger value
 *   REDUCE_ROW                   each row to column 0
 *   REDUCE_COL                   each column to row 0
 *   REDUCE_SCALAR                everything to element (0,0)
 *
 * TT-Metal chooses the kind with template parameters that default to the
 * REDUCE_OP and REDUCE_DIM defines; here:
 *   reduce_tile(icb, icb_scaler, itile, itile_scaler, idst)
 *       uses REDUCE_OP and REDUCE_DIM (e.g. -DREDUCE_OP=PoolType_SUM
 *       -DREDUCE_DIM=REDUCE_ROW; TT-Metal's PoolType::SUM is not C)
 *   reduce_tile_op(pool, dim, icb, icb_scaler, itile, itile_scaler, idst)
 *       names them explicitly
 *   reduce_init(icb, icb_scaler, ocb), reduce_init_op(pool, dim, icb,
 *   icb_scaler, ocb), reduce_init_short(...), reduce_uninit()
 *       program CFG only.
 */
#ifndef TT_COMPUTE_KERNEL_API_REDUCE_H
#define TT_COMPUTE_KERNEL_API_REDUCE_H

#include "compute_kernel_api/common.h"

enum {
	PoolType_SUM = TT_TX_REDUCE_SUM,
	PoolType_AVG = TT_TX_REDUCE_AVG,
	PoolType_MAX = TT_TX_REDUCE_MAX,
};
enum {
	REDUCE_ROW = TT_TX_F_REDUCE_ROW,
	REDUCE_COL = TT_TX_F_REDUCE_COL,
	REDUCE_SCALAR = TT_TX_F_REDUCE_SCALAR,
};
#define ReduceDim_REDUCE_ROW REDUCE_ROW
#define ReduceDim_REDUCE_COL REDUCE_COL
#define ReduceDim_REDUCE_SCALAR REDUCE_SCALAR

static inline void reduce_tile_op(uint32_t pool, uint32_t dim, uint32_t icb,
				  uint32_t icb_scaler, uint32_t itile,
				  uint32_t itile_scaler, uint32_t idst)
{
	ttk_dst_check("reduce_tile", idst, 1);
	ttk_operand(0, icb, itile, "reduce_tile");
	ttk_operand(1, icb_scaler, itile_scaler, "reduce_tile");
	ttk_tx_set(TT_TX_DST, idst);
	ttk_tx_run(TT_TX_REDUCE, pool, dim);
}

uint32_t ttk_reduce_kind_undefined(void) __attribute__((error(
	"reduce_tile() needs -DREDUCE_OP=PoolType_... and -DREDUCE_DIM=REDUCE_...; or use reduce_tile_op()")));
#if defined(REDUCE_OP) && defined(REDUCE_DIM)
#define TTK_REDUCE_OP (REDUCE_OP)
#define TTK_REDUCE_DIM (REDUCE_DIM)
#else
#define TTK_REDUCE_OP ttk_reduce_kind_undefined()
#define TTK_REDUCE_DIM 0
#endif

#define reduce_tile(icb, icb_scaler, itile, itile_scaler, idst)          \
	reduce_tile_op(TTK_REDUCE_OP, TTK_REDUCE_DIM, (icb), (icb_scaler), \
		       (itile), (itile_scaler), (idst))

#define reduce_init(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())
#define reduce_init_short(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())
#define reduce_init_op(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())
#define reduce_uninit(...) ttk_compute_init()

#endif /* TT_COMPUTE_KERNEL_API_REDUCE_H */
