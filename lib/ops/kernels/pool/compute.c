// SPDX-License-Identifier: Apache-2.0
/*
 * Pools and upsample, compute: per output tile, the reader's TAPS tiles
 * (CB 0) are combined in DST[0] on the vector unit: MODE 0 max
 * (binary_max_tile), 1 avg (add_binary_tile, then times the reader's
 * divisor tile, CB 1), 2 upsample (a copy). Packed to CB 16.
 *
 * Runtime args: first unit, units. Named compile-time args: MODE, TAPS.
 */
#include "compute_kernel_api.h"

#define CB_IN 0
#define CB_SCALE 1
#define CB_OUT 16

void kernel_main(void)
{
	const uint32_t nu = get_arg_val(1);
	const uint32_t mode = get_named_compile_time_arg_val("MODE");
	const uint32_t taps = get_named_compile_time_arg_val("TAPS");

	copy_tile_init(CB_IN);
	for (uint32_t u = 0; u < nu; u++) {
		tile_regs_acquire();
		for (uint32_t t = 0; t < taps; t++) {
			cb_wait_front(CB_IN, 1);
			copy_tile(CB_IN, 0, t == 0 ? 0 : 1);
			cb_pop_front(CB_IN, 1);
			if (t == 0)
				continue;
			if (mode == 0)
				binary_max_tile(0, 1);
			else
				add_binary_tile(0, 1);
		}
		if (mode == 1) {
			cb_wait_front(CB_SCALE, 1);
			copy_tile(CB_SCALE, 0, 1);
			cb_pop_front(CB_SCALE, 1);
			mul_binary_tile(0, 1);
		}
		tile_regs_commit();
		cb_reserve_back(CB_OUT, 1);
		tile_regs_wait();
		pack_tile(0, CB_OUT);
		tile_regs_release();
		cb_push_back(CB_OUT, 1);
	}
}
