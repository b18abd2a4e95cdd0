// SPDX-License-Identifier: Apache-2.0
/*
 * Matrix product C = A x B in tiles: args Mt, Kt, Nt, mode. A (Mt x Kt
 * tiles, row-major) waits in CB 0, B (Kt x Nt) in CB 1; C goes to CB 16
 * tile by tile, row-major.
 *   0 matmul_tiles, accumulating over k into one DST tile per output
 *   1 matmul_block_k: the whole block in one command (Mt * Nt <= DST)
 *   2 matmul_block: one k-step per call
 *   3 matmul_tiles with B's tiles transposed
 */
#include "compute_kernel_api.h"

void kernel_main(void)
{
	uint32_t mt = get_arg_val(0), kt = get_arg_val(1), nt = get_arg_val(2);
	uint32_t mode = get_arg_val(3);

	mm_init(0, 1, 16);
	cb_wait_front(0, mt * kt);
	cb_wait_front(1, kt * nt);
	if (mode == 0 || mode == 3) {
		for (uint32_t m = 0; m < mt; m++) {
			for (uint32_t n = 0; n < nt; n++) {
				tile_regs_acquire();
				for (uint32_t k = 0; k < kt; k++)
					matmul_tiles(0, 1, m * kt + k,
						     k * nt + n, 0, mode == 3);
				tile_regs_commit();
				cb_reserve_back(16, 1);
				tile_regs_wait();
				pack_tile(0, 16);
				tile_regs_release();
				cb_push_back(16, 1);
			}
		}
	} else {
		tile_regs_acquire();
		if (mode == 1)
			matmul_block_k(0, 1, 0, 0, 0, false, mt, nt, kt, kt,
				       nt);
		else
			for (uint32_t k = 0; k < kt; k++)
				matmul_block(0, 1, k, k * nt, 0, false, nt, mt,
					     kt);
		tile_regs_commit();
		cb_reserve_back(16, mt * nt);
		tile_regs_wait();
		pack_tile_block(0, 16, mt * nt);
		tile_regs_release();
		cb_push_back(16, mt * nt);
	}
	cb_pop_front(0, mt * kt);
	cb_pop_front(1, kt * nt);
}
