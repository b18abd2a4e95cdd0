// SPDX-License-Identifier: Apache-2.0
/*
 * One-tile-at-a-time compute: args mode, tiles. Inputs in CB 0 and CB 1
 * (CB 2: a scaler tile for reduce), output to CB 16, one page per tile.
 *   0 copy   1 add   2 sub   3 mul   4 exp(copy)   5 add_bcast_rows
 *   6 mul_bcast_scalar   7 transpose   8 reduce row sum (scaler)
 *   9 add_binary_tile (SFPU)   10 relu   11 sqrt   12 recip
 *   13 DST index past the usable tiles (an error)
 *   14 pack_tile past the reserved page (an error with CB checks)
 *   15 copy_tile after copy_tile_to_dst_init_short(0, 1): transposed
 *   16 reduce_tile() of the REDUCE_OP and REDUCE_DIM defines (if any)
 *   17 power_tile(2)   18 fill_tile(3.5)   19 leaky_relu_tile(0.25)
 *   20 sigmoid   21 tanh
 */
#include "compute_kernel_api.h"

static void unary(uint32_t mode, uint32_t idst)
{
	copy_tile(0, 0, idst);
	switch (mode) {
	case 4:
		exp_tile(idst);
		break;
	case 10:
		relu_tile(idst);
		break;
	case 11:
		sqrt_tile(idst);
		break;
	case 12:
		recip_tile(idst);
		break;
	case 17:
		power_tile_init();
		power_tile(idst, 2);
		break;
	case 18:
		fill_tile(idst, 3.5f);
		break;
	case 19:
		leaky_relu_tile(idst, 0x3E800000); /* 0.25f */
		break;
	case 20:
		sigmoid_tile(idst);
		break;
	case 21:
		tanh_tile(idst);
		break;
	}
}

static void one_tile(uint32_t mode)
{
	switch (mode) {
	case 0:
	case 4:
	case 10:
	case 11:
	case 12:
	case 17:
	case 18:
	case 19:
	case 20:
	case 21:
		unary(mode, 0);
		break;
	case 1:
		add_tiles(0, 1, 0, 0, 0);
		break;
	case 2:
		sub_tiles(0, 1, 0, 0, 0);
		break;
	case 3:
		mul_tiles(0, 1, 0, 0, 0);
		break;
	case 5:
		add_tiles_bcast_rows(0, 1, 0, 0, 0);
		break;
	case 6:
		mul_tiles_bcast_scalar(0, 1, 0, 0, 0);
		break;
	case 7:
		transpose_wh_tile(0, 0, 0);
		break;
	case 8:
		reduce_tile_op(PoolType_SUM, REDUCE_ROW, 0, 2, 0, 0, 0);
		break;
	case 9:
		copy_tile(0, 0, 1);
		copy_tile(1, 0, 2);
		add_binary_tile(1, 2);
		copy_tile(0, 0, 0);
		add_binary_tile(0, 1, 0);
		break;
	case 13:
		copy_tile(0, 0, TTK_DST_TILES);
		break;
	case 15:
		copy_tile(0, 0, 0);
		break;
#ifdef REDUCE_OP
	case 16:
		reduce_tile(0, 2, 0, 0, 0);
		break;
#endif
	}
}

void kernel_main(void)
{
	uint32_t mode = get_arg_val(0), n = get_arg_val(1);
	bool binary = mode == 1 || mode == 2 || mode == 3 || mode == 5 ||
		      mode == 6 || mode == 9;

	if (binary)
		binary_op_init_common(0, 1, 16);
	else
		unary_op_init_common(0, 16);
	if (mode == 15)
		copy_tile_to_dst_init_short(0, 1);
	if (mode == 8 || mode == 16) {
		reduce_init(0, 2, 16);
		cb_wait_front(2, 1);
	}
	for (uint32_t t = 0; t < n; t++) {
		cb_wait_front(0, 1);
		if (binary)
			cb_wait_front(1, 1);
		tile_regs_acquire();
		one_tile(mode);
		tile_regs_commit();
		cb_reserve_back(16, 1);
		tile_regs_wait();
		if (mode == 14)
			pack_tile(0, 16, 1);
		pack_tile(0, 16);
		tile_regs_release();
		cb_push_back(16, 1);
		cb_pop_front(0, 1);
		if (binary)
			cb_pop_front(1, 1);
	}
}
