/* SPDX-License-Identifier: Apache-2.0 */
/*
 * copy_tile(cb, itile, idst): DST[idst] = tile itile of cb's front, in DST's
 * precision (TT-Metal's tt_metal/hw/inc/api/compute/tile_move_copy.h). With
 * DST_ACCUM_MODE an fp32 tile keeps full precision.
 *
 *   copy_tile_init(cb), copy_init(cb)    program CFG
 *   copy_tile_to_dst_init_short(cb[, transpose])
 *                                    the same; with transpose, copy_tile
 *                                    transposes its tiles until the next
 *                                    copy init
 *   copy_block_matmul_partials(cb, itile, idst, n)   n tiles at once
 */
#ifndef TT_COMPUTE_KERNEL_API_TILE_MOVE_COPY_H
#define TT_COMPUTE_KERNEL_API_TILE_MOVE_COPY_H

#include "compute_kernel_api/common.h"

static inline void ttk_copy(uint32_t cb, uint32_t itile, uint32_t idst,
			    uint32_t flags, const char *op)
{
	ttk_dst_check(op, idst, 1);
	ttk_operand(0, cb, itile, op);
	ttk_tx_set(TT_TX_DST, idst);
	ttk_tx_run(TT_TX_COPY, 0, flags);
}

/* TT_TX_F_TRANSPOSE after copy_tile_to_dst_init_short(cb, 1)
 * (kernel/kruntime.c). */
extern uint32_t ttk_copy_flags;

static inline void copy_tile(uint32_t cb, uint32_t itile, uint32_t idst)
{
	ttk_copy(cb, itile, idst, ttk_copy_flags, "copy_tile");
}

static inline void copy_block_matmul_partials(uint32_t cb, uint32_t itile,
					      uint32_t idst, uint32_t n)
{
	ttk_dst_check("copy_block_matmul_partials", idst, n);
	for (uint32_t i = 0; i < n; i++)
		ttk_copy(cb, itile + i, idst + i, 0,
			 "copy_block_matmul_partials");
}

static inline void ttk_copy_init(uint32_t transpose)
{
	ttk_copy_flags = transpose ? TT_TX_F_TRANSPOSE : 0;
	ttk_compute_init();
}

static inline void copy_tile_init(uint32_t cb)
{
	(void)cb;
	ttk_copy_init(0);
}

#define copy_init(cb) copy_tile_init(cb)
#define copy_tile_to_dst_init_short(...) \
	TTK_OVERLOAD(ttk_copy_tile_to_dst_init_short_, __VA_ARGS__)
#define ttk_copy_tile_to_dst_init_short_1(cb) ((void)(cb), ttk_copy_init(0))
#define ttk_copy_tile_to_dst_init_short_2(cb, t) ((void)(cb), ttk_copy_init(t))
/* (old_cb, new_cb[, transpose]) */
#define copy_tile_to_dst_init_short_with_dt(...) \
	TTK_OVERLOAD(ttk_copy_tile_to_dst_init_short_with_dt_, __VA_ARGS__)
#define ttk_copy_tile_to_dst_init_short_with_dt_2(o, n) \
	((void)(o), (void)(n), ttk_copy_init(0))
#define ttk_copy_tile_to_dst_init_short_with_dt_3(o, n, t) \
	((void)(o), (void)(n), ttk_copy_init(t))

#endif /* TT_COMPUTE_KERNEL_API_TILE_MOVE_COPY_H */
