// SPDX-License-Identifier: Apache-2.0
/*
 * y = exp(x) on the vector unit, a block of tiles at a time: the block's
 * tiles of CB 0 are copied into DST tiles 0 .. BLOCK - 1, exp_tile works
 * on each in place, and the block is packed to CB 16.
 *
 * Compile-time args: tiles, BLOCK (tiles per block, at most the usable
 * DST tiles; it must divide tiles).
 */
#include "compute_kernel_api.h"

#define CB_X 0
#define CB_Y 16

void kernel_main(void)
{
	const uint32_t n = get_compile_time_arg_val(0);
	const uint32_t block = get_compile_time_arg_val(1);

	unary_op_init_common(CB_X, CB_Y);
	copy_tile_init(CB_X);
	exp_tile_init();
	for (uint32_t t = 0; t < n; t += block) {
		cb_wait_front(CB_X, block);
		tile_regs_acquire();
		for (uint32_t i = 0; i < block; i++) {
			copy_tile(CB_X, i, i);
			exp_tile(i);
		}
		tile_regs_commit();

		cb_reserve_back(CB_Y, block);
		tile_regs_wait();
		/* The i-th pack_tile since the last push goes to page i. */
		for (uint32_t i = 0; i < block; i++)
			pack_tile(i, CB_Y);
		tile_regs_release();
		cb_push_back(CB_Y, block);
		cb_pop_front(CB_X, block);
	}
}
