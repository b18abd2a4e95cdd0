// SPDX-License-Identifier: Apache-2.0
/*
 * c = a + b, tile by tile: tile 0 of CB 0 plus tile 0 of CB 1 into DST
 * tile 0, packed to CB 16.
 *
 * Runtime args: none. Common runtime args: tiles (the same on every core).
 */
#include "compute_kernel_api.h"

#define CB_A 0
#define CB_B 1
#define CB_C 16

void kernel_main(void)
{
	uint32_t n = get_common_arg_val(0);

	binary_op_init_common(CB_A, CB_B, CB_C);
	add_tiles_init(CB_A, CB_B);
	for (uint32_t t = 0; t < n; t++) {
		cb_wait_front(CB_A, 1);
		cb_wait_front(CB_B, 1);
		tile_regs_acquire();
		add_tiles(CB_A, CB_B, 0, 0, 0);
		tile_regs_commit();

		cb_reserve_back(CB_C, 1);
		tile_regs_wait();
		pack_tile(0, CB_C);
		tile_regs_release();
		cb_push_back(CB_C, 1);

		/* The inputs' pages are free for the reader again. */
		cb_pop_front(CB_A, 1);
		cb_pop_front(CB_B, 1);
	}
}
