/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tilize_block(icb, ntiles, ocb): icb's front holds a row-major block of
 * 32 rows by 32 * ntiles values (ntiles pages); ntiles tiles go to ocb's
 * reserved space, sequentially as pack_tile() does. The caller waits for
 * icb and reserves ocb, as in TT-Metal. icb's format must not be a block
 * format. Uses DST tile 0 (TT-Metal's tilize claims DST too).
 * tilize_init(icb, ntiles, ocb), tilize_init_short(...), tilize_uninit(...):
 * CFG only.
 */
#ifndef TT_COMPUTE_KERNEL_API_TILIZE_H
#define TT_COMPUTE_KERNEL_API_TILIZE_H

#include "compute_kernel_api/common.h"

void ttk_tilize_block(uint32_t icb, uint32_t ntiles, uint32_t ocb);

static inline void tilize_block(uint32_t icb, uint32_t ntiles, uint32_t ocb)
{
	ttk_tilize_block(icb, ntiles, ocb);
}

#define tilize_init(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())
#define tilize_init_short(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())
#define tilize_uninit(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())

#endif /* TT_COMPUTE_KERNEL_API_TILIZE_H */
