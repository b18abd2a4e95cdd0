// SPDX-License-Identifier: Apache-2.0
/*
 * Compute of the multi-core matmul: for each sub-block of this core's
 * output block, every K chunk from the reader is one matmul_block_k (the
 * whole rh x cw x kv product in a single coprocessor command), summed in
 * DST; the finished sub-block is packed to CB 16 as rh x cw bf16 tiles,
 * row-major.
 *
 * Compile-time args: SH, SW, KB (as the reader). Runtime args: Kt, bm,
 * bn, BM, BN (as the reader). The sub-blocks are the plan's (BM x BN on
 * every core, so that multicasts find every core of a row or column at
 * the same chunk); those outside this core's bm x bn are empty: their
 * chunks are taken and dropped. The chunks' layout in the CBs is the
 * reader's: A's rows are KB tiles apart, B's SW.
 */
#include "compute_kernel_api.h"

#define SH get_compile_time_arg_val(0)
#define SW get_compile_time_arg_val(1)
#define KB get_compile_time_arg_val(2)

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* One rh x cw sub-block over all of K, into CB 16. */
static void sub_block(uint32_t rh, uint32_t cw, uint32_t kt)
{
	tile_regs_acquire();
	for (uint32_t k0 = 0; k0 < kt; k0 += KB) {
		cb_wait_front(0, SH * KB);
		cb_wait_front(1, KB * SW);
		matmul_block_k(0, 1, 0, 0, 0, false, rh, cw,
			       min_u32(KB, kt - k0), KB, SW);
		cb_pop_front(0, SH * KB);
		cb_pop_front(1, KB * SW);
	}
	tile_regs_commit();
	/* Always a whole SH x SW page group: pushes must add up to the CB's
	 * size. The writer stores only the rh x cw packed first. */
	cb_reserve_back(16, SH * SW);
	tile_regs_wait();
	pack_tile_block(0, 16, rh * cw);
	tile_regs_release();
	cb_push_back(16, SH * SW);
}

/* A sub-block outside the matrix: its chunks, unused. */
static void skip_block(uint32_t kt)
{
	for (uint32_t k0 = 0; k0 < kt; k0 += KB) {
		cb_wait_front(0, SH * KB);
		cb_wait_front(1, KB * SW);
		cb_pop_front(0, SH * KB);
		cb_pop_front(1, KB * SW);
	}
}

void kernel_main(void)
{
	uint32_t kt = get_arg_val(0), bm = get_arg_val(1), bn = get_arg_val(2);
	uint32_t big_m = get_arg_val(3), big_n = get_arg_val(4);

	mm_block_init(0, 1, 16);
	for (uint32_t sr = 0; sr < big_m; sr += SH) {
		for (uint32_t sc = 0; sc < big_n; sc += SW) {
			if (sr < bm && sc < bn)
				sub_block(min_u32(SH, bm - sr),
					  min_u32(SW, bn - sc), kt);
			else
				skip_block(kt);
		}
	}
}
