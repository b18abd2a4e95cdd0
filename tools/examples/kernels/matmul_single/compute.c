// SPDX-License-Identifier: Apache-2.0
/*
 * Compute of the single-core matmul: args Mt, Kt, Nt. Each output tile
 * accumulates Kt tile products in DST (matmul_tiles adds to DST, which
 * tile_regs_acquire() zeroed), then goes to CB 16 as one bf16 tile.
 */
#include "compute_kernel_api.h"

void kernel_main(void)
{
	uint32_t mt = get_arg_val(0), kt = get_arg_val(1), nt = get_arg_val(2);

	mm_init(0, 1, 16);
	for (uint32_t i = 0; i < mt * nt; i++) {
		tile_regs_acquire();
		for (uint32_t k = 0; k < kt; k++) {
			cb_wait_front(0, 1);
			cb_wait_front(1, 1);
			matmul_tiles(0, 1, 0, 0, 0);
			cb_pop_front(0, 1);
			cb_pop_front(1, 1);
		}
		tile_regs_commit();
		cb_reserve_back(16, 1);
		tile_regs_wait();
		pack_tile(0, 16);
		tile_regs_release();
		cb_push_back(16, 1);
	}
}
