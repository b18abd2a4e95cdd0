/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transpose_wh_tile(icb, itile, idst): DST[idst] = tile itile of icb
 * transposed (rows become columns). transpose_tile is the newer name.
 * transpose_wh_init(icb, ocb), transpose_wh_init_short(icb): CFG only.
 */
#ifndef TT_COMPUTE_KERNEL_API_TRANSPOSE_WH_H
#define TT_COMPUTE_KERNEL_API_TRANSPOSE_WH_H

#include "compute_kernel_api/tile_move_copy.h"

static inline void transpose_wh_tile(uint32_t icb, uint32_t itile,
				     uint32_t idst)
{
	ttk_copy(icb, itile, idst, TT_TX_F_TRANSPOSE, "transpose_wh_tile");
}

#define transpose_tile(icb, itile, idst) transpose_wh_tile(icb, itile, idst)
#define transpose_wh_init(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())
#define transpose_wh_init_short(...) \
	(ttk_unused(__VA_ARGS__), ttk_compute_init())

#endif /* TT_COMPUTE_KERNEL_API_TRANSPOSE_WH_H */
