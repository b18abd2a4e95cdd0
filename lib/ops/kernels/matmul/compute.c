// SPDX-License-Identifier: Apache-2.0
/*
 * Matmul, compute: for each sub-block (the reader's order), DST starts as
 * the bias row broadcast over the rows (BIAS: 0 + bias through the
 * matrix unit's row broadcast, CB 2 a zero tile, CB 3 the bias tiles) or
 * zero; each K chunk adds one matmul_block_k (the whole rh x cw x kv
 * product in one coprocessor command); then the activation ACT (AP0,
 * AP1) on the vector unit, and the rh x cw tiles go to CB 16 row-major,
 * in a group of SH x SW pages.
 *
 * TA: in0 arrives stored transposed (CB 0): each chunk is first
 * transposed tile by tile (transpose_wh_tile into the DST tile SCRATCH,
 * beyond the sub-block) into CB 4 in the intermediate format. TB: in1
 * tiles are transposed by matmul_block_k itself.
 *
 * Runtime args: 0 count, 1 u0, 2 ustride, 3 Mt, 4 Nt, 5 Kt, 6 BR, 7 BC,
 * 8 PM, 9 PN (the reader's). Named compile-time args: SH, SW, KB, TA,
 * TB, BIAS, ACT, AP0, AP1, SCRATCH, LOCKSTEP.
 */
#include "compute_kernel_api.h"

#define CB_A 0
#define CB_B 1
#define CB_ZERO 2
#define CB_BIAS 3
#define CB_AT 4
#define CB_OUT 16
#define BC_ROW 0x02u

#include "../common/unary.h"

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

void kernel_main(void)
{
	const uint32_t SH = get_named_compile_time_arg_val("SH");
	const uint32_t SW = get_named_compile_time_arg_val("SW");
	const uint32_t KB = get_named_compile_time_arg_val("KB");
	const bool ta = get_named_compile_time_arg_val("TA");
	const bool tb = get_named_compile_time_arg_val("TB");
	const bool has_bias = get_named_compile_time_arg_val("BIAS");
	const uint32_t act = get_named_compile_time_arg_val("ACT");
	const uint32_t scratch = get_named_compile_time_arg_val("SCRATCH");
	const bool lockstep = get_named_compile_time_arg_val("LOCKSTEP");
	const uint32_t count = get_arg_val(0), u0 = get_arg_val(1);
	const uint32_t ustride = get_arg_val(2);
	const uint32_t mt = get_arg_val(3), nt = get_arg_val(4);
	const uint32_t kt = get_arg_val(5), br = get_arg_val(6);
	const uint32_t bc = get_arg_val(7), pm = get_arg_val(8);
	const uint32_t pn = get_arg_val(9);
	const uint32_t cb_a = ta ? CB_AT : CB_A;

	mm_block_init(CB_A, CB_B, CB_OUT);
	if (act != U_NONE)
		init_sfpu(CB_A, CB_OUT);
	if (has_bias)
		cb_wait_front(CB_ZERO, 1);
	for (uint32_t t = 0; t < count; t++) {
		const uint32_t u = u0 + t * ustride;
		const uint32_t m0 = (u / bc) % br * pm, n0 = u % bc * pn;
		const uint32_t bm = min_u32(pm, mt - m0), bn = min_u32(pn, nt - n0);
		const uint32_t em = lockstep ? pm : bm, en = lockstep ? pn : bn;

		for (uint32_t sr = 0; sr < em; sr += SH) {
			const uint32_t rh = sr < bm ? min_u32(SH, bm - sr) : 0;

			for (uint32_t sc = 0; sc < en; sc += SW) {
				const uint32_t cw = sc < bn ? min_u32(SW, bn - sc) : 0;

				if (!rh || !cw) {
					/* Outside this core's block: the
					 * chunks, unused. */
					for (uint32_t k0 = 0; k0 < kt; k0 += KB) {
						cb_wait_front(CB_A, SH * KB);
						cb_wait_front(CB_B, KB * SW);
						cb_pop_front(CB_A, SH * KB);
						cb_pop_front(CB_B, KB * SW);
					}
					continue;
				}
				tile_regs_acquire();
				if (act != U_NONE && !has_bias && !ta)
					mm_block_init_short(CB_A, CB_B); /* after the vector unit */
				if (has_bias) {
					cb_wait_front(CB_BIAS, SW);
					add_tiles_init(CB_ZERO, CB_BIAS);
					for (uint32_t r = 0; r < rh; r++)
						for (uint32_t c = 0; c < cw; c++)
							any_tiles_bcast(ELWADD, BC_ROW,
									CB_ZERO, CB_BIAS,
									0, c, r * cw + c);
					cb_pop_front(CB_BIAS, SW);
					mm_block_init_short(CB_A, CB_B);
				}
				for (uint32_t k0 = 0; k0 < kt; k0 += KB) {
					const uint32_t kv = min_u32(KB, kt - k0);

					cb_wait_front(CB_A, SH * KB);
					cb_wait_front(CB_B, KB * SW);
					if (ta) {
						cb_reserve_back(CB_AT, SH * KB);
						transpose_wh_init_short(CB_A);
						for (uint32_t r = 0; r < rh; r++) {
							for (uint32_t k = 0; k < kv; k++) {
								transpose_wh_tile(CB_A, r * KB + k,
										  scratch);
								pack_tile_at(scratch, CB_AT,
									     r * KB + k);
							}
						}
						cb_push_back(CB_AT, SH * KB);
						cb_wait_front(CB_AT, SH * KB);
						mm_block_init_short(CB_AT, CB_B);
					}
					matmul_block_k(cb_a, CB_B, 0, 0, 0, tb, rh, cw,
						       kv, KB, SW);
					if (ta)
						cb_pop_front(CB_AT, SH * KB);
					cb_pop_front(CB_A, SH * KB);
					cb_pop_front(CB_B, KB * SW);
				}
				if (act != U_NONE) {
					for (uint32_t i = 0; i < rh * cw; i++)
						unary(act, get_named_compile_time_arg_val("AP0"),
						      get_named_compile_time_arg_val("AP1"),
						      i, scratch);
				}
				tile_regs_commit();
				cb_reserve_back(CB_OUT, SH * SW);
				tile_regs_wait();
				pack_tile_block(0, CB_OUT, rh * cw);
				tile_regs_release();
				cb_push_back(CB_OUT, SH * SW);
			}
		}
	}
}
