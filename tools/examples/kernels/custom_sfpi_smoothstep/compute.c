// SPDX-License-Identifier: Apache-2.0
/*
 * y = smoothstep(edge0, edge1, x) written on the vector unit (TT-Metal's
 * custom_sfpi_smoothstep):
 *
 *   t = (x - edge0) * (1 / (edge1 - edge0)), clamped to [0, 1]
 *   y = t * t * (3 - 2 * t)
 *
 * The clamp is a per-lane conditional. 1 / (edge1 - edge0) is computed
 * once by the hart (in software floating point, IEEE like the host's) and
 * loaded into a vector register as a constant.
 *
 * Runtime args: tiles, edge0 and edge1 as fp32 bits. Tile t of CB 0 goes
 * through DST tile 0 to CB 16.
 */
#include "compute_kernel_api.h" /* with compute_kernel_api/sfpi.h */

#define CB_X 0
#define CB_Y 16

/* Registers that hold constants for the whole kernel. */
#define EDGE0 SFPI_V1
#define INV SFPI_V2 /* 1 / (edge1 - edge0) */
#define ZERO SFPI_V3
#define ONE SFPI_V4
#define THREE SFPI_V5
#define TWO SFPI_V6

static float from_bits(uint32_t u)
{
	union {
		uint32_t u;
		float f;
	} v = { .u = u };

	return v.f;
}

/* DST[idst] = smoothstep of DST[idst], in place. */
static void smoothstep_tile(uint32_t idst)
{
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(SFPI_V0, sfpi_dst(idst, v));
		sfpi_sub(SFPI_V0, SFPI_V0, EDGE0); /* x - edge0 */
		sfpi_mul(SFPI_V0, SFPI_V0, INV); /* t */
		SFPI_IF(sfpi_lt(SFPI_V0, ZERO)) {
			sfpi_mov(SFPI_V0, ZERO);
		} SFPI_ELSEIF(sfpi_gt(SFPI_V0, ONE)) {
			sfpi_mov(SFPI_V0, ONE);
		} SFPI_ENDIF;
		sfpi_mul(SFPI_V7, TWO, SFPI_V0); /* 2t */
		sfpi_sub(SFPI_V7, THREE, SFPI_V7); /* 3 - 2t */
		sfpi_mul(SFPI_V0, SFPI_V0, SFPI_V0); /* t * t */
		sfpi_mul(SFPI_V0, SFPI_V0, SFPI_V7);
		sfpi_store(sfpi_dst(idst, v), SFPI_V0);
	}
}

void kernel_main(void)
{
	uint32_t n = get_arg_val(0);
	float edge0 = from_bits(get_arg_val(1));
	float edge1 = from_bits(get_arg_val(2));

	init_sfpu(CB_X, CB_Y);
	copy_tile_init(CB_X);
	sfpi_init();
	sfpi_loadi(EDGE0, edge0);
	sfpi_loadi(INV, 1.0f / (edge1 - edge0));
	sfpi_loadi(ZERO, 0.0f);
	sfpi_loadi(ONE, 1.0f);
	sfpi_loadi(THREE, 3.0f);
	sfpi_loadi(TWO, 2.0f);
	for (uint32_t t = 0; t < n; t++) {
		cb_wait_front(CB_X, 1);
		tile_regs_acquire();
		copy_tile(CB_X, 0, 0);
		smoothstep_tile(0);
		tile_regs_commit();

		cb_reserve_back(CB_Y, 1);
		tile_regs_wait();
		pack_tile(0, CB_Y);
		tile_regs_release();
		cb_push_back(CB_Y, 1);
		cb_pop_front(CB_X, 1);
	}
}
