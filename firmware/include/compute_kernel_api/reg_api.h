/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DST ownership (TT-Metal's tt_metal/hw/inc/api/compute/reg_api.h).
 * TT-Metal's math and pack threads hand DST sections to each other; here one
 * hart does both in order, so only acquire does work: it zeroes the usable
 * DST tiles (TTK_DST_TILES), which matmul and reduce accumulate into.
 * commit, wait and release are bookkeeping (still call them: the code then
 * also reads right as TT-Metal code).
 */
#ifndef TT_COMPUTE_KERNEL_API_REG_API_H
#define TT_COMPUTE_KERNEL_API_REG_API_H

#include "compute_kernel_api/common.h"

static inline void tile_regs_acquire(void)
{
	ttk_tx_set(TT_TX_DST, 0);
	ttk_tx_set(TT_TX_ARG0, TTK_DST_TILES);
	ttk_tx_run(TT_TX_ZERO, 0, 0);
}

static inline void tile_regs_commit(void)
{
}

static inline void tile_regs_wait(void)
{
}

static inline void tile_regs_release(void)
{
}

/* The older combined forms. */
static inline void acquire_dst(void)
{
	tile_regs_acquire();
}

static inline void release_dst(void)
{
}

#endif /* TT_COMPUTE_KERNEL_API_REG_API_H */
