// SPDX-License-Identifier: Apache-2.0
/*
 * conv2d and conv_transpose2d, compute: for each output block (RT x NB
 * tiles) the reader's K steps are one matmul_block_k each (A [RT x KB] x
 * B [KB x NB], the whole block in one coprocessor command), summed in
 * DST; with HAS_BIAS the bias is added as ones x bias (one more
 * matmul_block_k over RT ones tiles, one per row); then
 * the fused activation ACT (enum tt_unary_op: relu, relu6, clip,
 * leaky_relu, sigmoid, tanh, gelu, silu; parameters AP0, AP1 as fp32
 * bits), and the block is packed to CB 16, row-major.
 *
 * Runtime args: first block, blocks. Common runtime args: KT, NT, NBLK.
 * Named compile-time args: RT, NB, KB, HAS_BIAS, ACT, AP0, AP1.
 */
#include "compute_kernel_api.h"

#define CB_A 0
#define CB_B 1
#define CB_ONES 2
#define CB_BIAS 3
#define CB_OUT 16

enum { U_NONE = 0, U_SIGMOID = 6, U_TANH = 7, U_GELU = 8, U_RELU = 10,
       U_SILU = 11, U_LEAKY_RELU = 22, U_RELU6 = 23, U_CLIP = 24 };

static float f32(uint32_t bits)
{
	union {
		uint32_t u;
		float f;
	} v = { .u = bits };

	return v.f;
}

static void clamp(uint32_t d, float lo, float hi)
{
	sfpi_init();
	sfpi_loadi(SFPI_V1, lo);
	sfpi_loadi(SFPI_V2, hi);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(SFPI_V0, sfpi_dst(d, v));
		sfpi_max(SFPI_V0, SFPI_V0, SFPI_V1);
		sfpi_min(SFPI_V0, SFPI_V0, SFPI_V2);
		sfpi_store(sfpi_dst(d, v), SFPI_V0);
	}
}

static void act(uint32_t d)
{
	const uint32_t op = get_named_compile_time_arg_val("ACT");
	const uint32_t p0 = get_named_compile_time_arg_val("AP0");
	const uint32_t p1 = get_named_compile_time_arg_val("AP1");

	switch (op) {
	case U_SIGMOID: sigmoid_tile(d); break;
	case U_TANH: tanh_tile(d); break;
	case U_GELU: gelu_tile(d); break;
	case U_RELU: relu_tile(d); break;
	case U_SILU: silu_tile(d); break;
	case U_LEAKY_RELU: leaky_relu_tile(d, p0); break;
	case U_RELU6: clamp(d, 0.0f, 6.0f); break;
	case U_CLIP: clamp(d, f32(p0), f32(p1)); break;
	default: break;
	}
}

void kernel_main(void)
{
	const uint32_t u0 = get_arg_val(0), nu = get_arg_val(1);
	const uint32_t kt = get_common_arg_val(0), nt = get_common_arg_val(1);
	const uint32_t nblk = get_common_arg_val(2);
	const uint32_t rt = get_named_compile_time_arg_val("RT");
	const uint32_t nb = get_named_compile_time_arg_val("NB");
	const uint32_t kb = get_named_compile_time_arg_val("KB");
	const bool has_bias = get_named_compile_time_arg_val("HAS_BIAS");

	mm_block_init(CB_A, CB_B, CB_OUT);
	if (has_bias) {
		cb_wait_front(CB_ONES, rt);
		cb_wait_front(CB_BIAS, nt);
	}
	for (uint32_t u = u0; u < u0 + nu; u++) {
		const uint32_t nbk = u % nblk;
		const uint32_t nbc = nt - nbk * nb < nb ? nt - nbk * nb : nb;

		tile_regs_acquire();
		for (uint32_t k0 = 0; k0 < kt; k0 += kb) {
			const uint32_t kbc = kt - k0 < kb ? kt - k0 : kb;

			cb_wait_front(CB_A, rt * kb);
			cb_wait_front(CB_B, kb * nb);
			matmul_block_k(CB_A, CB_B, 0, 0, 0, false, rt, nbc, kbc, kb, nb);
			cb_pop_front(CB_A, rt * kb);
			cb_pop_front(CB_B, kb * nb);
		}
		if (has_bias)
			matmul_block_k(CB_ONES, CB_BIAS, 0, nbk * nb, 0, false, rt,
				       nbc, 1, 1, 0);
		if (get_named_compile_time_arg_val("ACT") != U_NONE)
			for (uint32_t d = 0; d < rt * nbc; d++)
				act(d);
		tile_regs_commit();
		cb_reserve_back(CB_OUT, rt * nb);
		tile_regs_wait();
		pack_tile_block(0, CB_OUT, rt * nbc);
		tile_regs_release();
		cb_push_back(CB_OUT, rt * nb);
	}
}
