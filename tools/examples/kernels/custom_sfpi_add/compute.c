// SPDX-License-Identifier: Apache-2.0
/*
 * c = a + b written on the vector unit (TT-Metal's custom_sfpi_add): tile
 * 0 of CB 0 goes to DST tile 0, tile 0 of CB 1 to DST tile 1, and the
 * kernel's own function adds them vector by vector into DST tile 0,
 * which is packed to CB 16.
 *
 * Runtime args: none. Common runtime args: tiles.
 */
#include "compute_kernel_api.h" /* with compute_kernel_api/sfpi.h */

#define CB_A 0
#define CB_B 1
#define CB_C 16

/* DST[out] = DST[in0] + DST[in1]: 4 faces of 8 vectors of 32 lanes. */
static void my_add_tiles(uint32_t in0, uint32_t in1, uint32_t out)
{
	for (uint32_t face = 0; face < 4; face++) {
		for (uint32_t i = 0; i < SFPI_FACE_VECS; i++) {
			uint32_t v = face * SFPI_FACE_VECS + i;

			sfpi_load(SFPI_V0, sfpi_dst(in0, v));
			sfpi_load(SFPI_V1, sfpi_dst(in1, v));
			sfpi_add(SFPI_V2, SFPI_V0, SFPI_V1);
			sfpi_store(sfpi_dst(out, v), SFPI_V2);
		}
	}
}

void kernel_main(void)
{
	uint32_t n = get_common_arg_val(0);

	init_sfpu(CB_A, CB_C);
	copy_tile_init(CB_A);
	sfpi_init();
	for (uint32_t t = 0; t < n; t++) {
		cb_wait_front(CB_A, 1);
		cb_wait_front(CB_B, 1);
		tile_regs_acquire();
		copy_tile(CB_A, 0, 0);
		copy_tile(CB_B, 0, 1);
		my_add_tiles(0, 1, 0);
		tile_regs_commit();

		cb_reserve_back(CB_C, 1);
		tile_regs_wait();
		pack_tile(0, CB_C);
		tile_regs_release();
		cb_push_back(CB_C, 1);
		cb_pop_front(CB_A, 1);
		cb_pop_front(CB_B, 1);
	}
}
