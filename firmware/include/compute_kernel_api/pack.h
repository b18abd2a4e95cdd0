/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Packing DST tiles into a CB's back, converting to the CB's format
 * (TT-Metal's tt_metal/hw/inc/api/compute/pack.h):
 *
 *   pack_tile(idst, cb)             the k-th pack_tile into cb since its
 *                                   last cb_push_back goes to page k of
 *                                   the reserved space
 *   pack_tile(idst, cb, index), pack_tile_at(idst, cb, index)
 *                                   to page `index` (not counted)
 *   pack_tile_block(idst, cb, n)    DST[idst .. idst + n) in sequence
 *
 * With CB checks a page beyond the reserved ones is reported.
 */
#ifndef TT_COMPUTE_KERNEL_API_PACK_H
#define TT_COMPUTE_KERNEL_API_PACK_H

#include "compute_kernel_api/common.h"

static inline void ttk_pack(uint32_t idst, uint32_t cb, uint32_t page,
			    uint32_t flags, const char *op)
{
	const struct ttk_cb *c = ttk_cb_of(cb);

	ttk_dst_check(op, idst, 1);
	if (ttk_cb_checks())
		ttk_cb_check_pack(cb, page, op);
	*ttk_tx_reg(TT_TX_OUT_ADDR) = c->wr_ptr + page * c->tile_size;
	ttk_tx_set(TT_TX_OUT_FMT, c->format);
	ttk_tx_set(TT_TX_DST, idst);
	ttk_tx_run(TT_TX_PACK, 0, flags);
}

static inline void pack_tile_at(uint32_t idst, uint32_t cb, uint32_t index)
{
	ttk_pack(idst, cb, index, 0, "pack_tile");
}

static inline void ttk_pack_next(uint32_t idst, uint32_t cb)
{
	ttk_pack(idst, cb, ttk_cb_of(cb)->pack_next++, 0, "pack_tile");
}

#define pack_tile(...) TTK_OVERLOAD(ttk_pack_tile_, __VA_ARGS__)
#define ttk_pack_tile_2(idst, cb) ttk_pack_next((idst), (cb))
#define ttk_pack_tile_3(idst, cb, index) pack_tile_at((idst), (cb), (index))

static inline void pack_tile_block(uint32_t idst, uint32_t cb, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		ttk_pack_next(idst + i, cb);
}

#endif /* TT_COMPUTE_KERNEL_API_PACK_H */
