/* SPDX-License-Identifier: Apache-2.0 */
/*
 * untilize_block(icb, ntiles, ocb): ntiles tiles of icb's front become a
 * row-major block of 32 rows by 32 * ntiles values in ocb's reserved space
 * (ntiles pages, rows 32 * ntiles values apart). ocb's format must not be
 * a block format. Uses DST tile 0. pack_untilize_block is the same here.
 * untilize_init(icb[, ocb]), untilize_init_short(icb), untilize_uninit(icb),
 * pack_untilize_init(...), pack_untilize_uninit(...): CFG only.
 */
#ifndef TT_COMPUTE_KERNEL_API_UNTILIZE_H
#define TT_COMPUTE_KERNEL_API_UNTILIZE_H

#include "compute_kernel_api/common.h"

void ttk_untilize_block(uint32_t icb, uint32_t ntiles, uint32_t ocb);

static inline void untilize_block(uint32_t icb, uint32_t ntiles,
				  uint32_t ocb)
{
	ttk_untilize_block(icb, ntiles, ocb);
}

#define pack_untilize_block(icb, ntiles, ocb) untilize_block(icb, ntiles, ocb)
#define untilize_init(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())
#define untilize_init_short(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())
#define untilize_uninit(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())
#define pack_untilize_init(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())
#define pack_untilize_uninit(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())

#endif /* TT_COMPUTE_KERNEL_API_UNTILIZE_H */
