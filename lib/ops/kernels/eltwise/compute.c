// SPDX-License-Identifier: Apache-2.0
/*
 * Element-wise ops, compute: out = act(fn(a op b)) (binary) or
 * act(fn(a)) (unary), a block of tiles at a time. Every choice is a named
 * compile-time argument, so each op is its own small binary: the switches
 * below fold to the one path the op takes.
 *
 * Each output tile of a block uses SLOTS consecutive DST tiles: the
 * result in the first, operand b and scratch values in the others.
 *
 *   binary, matrix unit (FPU 1): DST = a op b with b broadcast in the tile
 *     (BCAST_B: 0, or a BroadcastType_* flag);
 *   binary, vector unit (FPU 0): DST[d] = a, DST[d + 1] = b, each
 *     broadcast by adding it to a zero tile (CB 2) with the matrix unit's
 *     broadcast, then DST[d] = DST[d] op DST[d + 1];
 *   then the unary function UOP (params UP0, UP1: fp32 bits) and the
 *   activation ACT (AP0, AP1), both enum tt_unary_op (tt/ops.h).
 *
 * With MASK (block-float outputs, whose blocks of 16 values share an
 * exponent: an infinity in the padding would wipe out its neighbours),
 * the padding of the last column and row of tiles is set to 0 through
 * the reader's mask tiles (CB 3), in the last of the tile's DST slots.
 *
 * Runtime args: tiles, first output tile. Named compile-time args:
 * BLOCK, SLOTS, BINOP (enum tt_binary_op, or 255 for unary), FPU,
 * BCAST_A, BCAST_B, UOP, UP0, UP1, ACT, AP0, AP1, MASK, OUT_WT, OUT_HT,
 * OUT_VC, OUT_VR.
 */
#include "compute_kernel_api.h"

#define CB_A 0
#define CB_B 1
#define CB_ZERO 2
#define CB_MASK 3
#define CB_OUT 16

#include "../common/unary.h"

/* enum tt_binary_op of tt/ops.h, by value. */
enum {
	B_ADD, B_SUB, B_MUL, B_DIV, B_MAX, B_MIN, B_POW, B_RSUB, B_EQ, B_NE,
	B_LT, B_LE, B_GT, B_GE, B_AND, B_OR, B_XOR, B_WHERE = 254,
	B_UNARY = 255,
};
#define CB_C 4

/* DST[d] = 1 where DST[d] op DST[d + 1] holds, else 0. */
static void compare(uint32_t d, uint32_t op)
{
	sfpi_init();
	sfpi_loadi(V2, 1.0f);
	sfpi_loadi(V3, 0.0f);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(V0, sfpi_dst(d, v));
		sfpi_load(V1, sfpi_dst(d + 1, v));
		sfpi_mov(V4, V3);
		switch (op) {
		case B_EQ: SFPI_IF(sfpi_eq(V0, V1)) { sfpi_mov(V4, V2); } SFPI_ENDIF; break;
		case B_NE: SFPI_IF(sfpi_ne(V0, V1)) { sfpi_mov(V4, V2); } SFPI_ENDIF; break;
		case B_LT: SFPI_IF(sfpi_lt(V0, V1)) { sfpi_mov(V4, V2); } SFPI_ENDIF; break;
		case B_LE: SFPI_IF(sfpi_le(V0, V1)) { sfpi_mov(V4, V2); } SFPI_ENDIF; break;
		case B_GT: SFPI_IF(sfpi_gt(V0, V1)) { sfpi_mov(V4, V2); } SFPI_ENDIF; break;
		case B_GE: SFPI_IF(sfpi_ge(V0, V1)) { sfpi_mov(V4, V2); } SFPI_ENDIF; break;
		case B_AND:
			SFPI_IF(sfpi_ne(V0, V3), sfpi_ne(V1, V3)) {
				sfpi_mov(V4, V2);
			} SFPI_ENDIF;
			break;
		case B_OR:
			SFPI_IF(sfpi_ne(V0, V3)) { sfpi_mov(V4, V2); } SFPI_ENDIF;
			SFPI_IF(sfpi_ne(V1, V3)) { sfpi_mov(V4, V2); } SFPI_ENDIF;
			break;
		default: /* B_XOR: exactly one nonzero */
			SFPI_IF(sfpi_ne(V0, V3), sfpi_eq(V1, V3)) {
				sfpi_mov(V4, V2);
			} SFPI_ENDIF;
			SFPI_IF(sfpi_eq(V0, V3), sfpi_ne(V1, V3)) {
				sfpi_mov(V4, V2);
			} SFPI_ENDIF;
			break;
		}
		sfpi_store(sfpi_dst(d, v), V4);
	}
}

/* DST[d] = DST[d + 2] != 0 ? DST[d] : DST[d + 1] (a NaN condition is
 * not 0, as in C). */
static void select(uint32_t d)
{
	sfpi_init();
	sfpi_loadi(V3, 0.0f);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(V0, sfpi_dst(d, v));
		sfpi_load(V1, sfpi_dst(d + 1, v));
		sfpi_load(V2, sfpi_dst(d + 2, v));
		SFPI_IF(sfpi_eq(V2, V3)) {
			sfpi_mov(V0, V1);
		} SFPI_ENDIF;
		sfpi_store(sfpi_dst(d, v), V0);
	}
}

/* DST[d] = 0 where mask page `page` is 0; s is scratch. */
static void apply_mask(uint32_t d, uint32_t s, uint32_t page)
{
	copy_tile_init(CB_MASK);
	copy_tile(CB_MASK, page, s);
	sfpi_init();
	sfpi_loadi(V2, 0.0f);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(V0, sfpi_dst(d, v));
		sfpi_load(V1, sfpi_dst(s, v));
		SFPI_IF(sfpi_eq(V1, V2)) {
			sfpi_mov(V0, V2);
		} SFPI_ENDIF;
		sfpi_store(sfpi_dst(d, v), V0);
	}
}

/* DST[d] = tile i of cb, broadcast as bcast says (through a zero tile). */
static void load_operand(uint32_t cb, uint32_t i, uint32_t bcast, uint32_t d)
{
	if (bcast) {
		add_tiles_init(CB_ZERO, cb);
		any_tiles_bcast(ELWADD, bcast, CB_ZERO, cb, 0, i, d);
	} else {
		copy_tile_init(cb);
		copy_tile(cb, i, d);
	}
}

void kernel_main(void)
{
	const uint32_t n = get_arg_val(0);
	const uint32_t block = get_named_compile_time_arg_val("BLOCK");
	const uint32_t slots = get_named_compile_time_arg_val("SLOTS");
	const uint32_t binop = get_named_compile_time_arg_val("BINOP");
	const bool fpu = get_named_compile_time_arg_val("FPU");
	const uint32_t bc_a = get_named_compile_time_arg_val("BCAST_A");
	const uint32_t bc_b = get_named_compile_time_arg_val("BCAST_B");
	const uint32_t bc_c = get_named_compile_time_arg_val("BCAST_C");
	const bool has_c = binop == B_WHERE;
	const uint32_t uop = get_named_compile_time_arg_val("UOP");
	const uint32_t act = get_named_compile_time_arg_val("ACT");
	const bool has_b = binop != B_UNARY;
	const uint32_t first = get_arg_val(1);
	const bool mask = get_named_compile_time_arg_val("MASK");
	const uint32_t wt = get_named_compile_time_arg_val("OUT_WT");
	const uint32_t ht = get_named_compile_time_arg_val("OUT_HT");
	const bool mask_c = get_named_compile_time_arg_val("OUT_VC") < 32;
	const bool mask_r = get_named_compile_time_arg_val("OUT_VR") < 32;

	if (has_b)
		binary_op_init_common(CB_A, CB_B, CB_OUT);
	else
		unary_op_init_common(CB_A, CB_OUT);
	init_sfpu(CB_A, CB_OUT);
	if (has_b && !fpu && (bc_a || bc_b || bc_c)) {
		/* The zero tile the vector path broadcasts through. */
		tile_regs_acquire();
		cb_reserve_back(CB_ZERO, 1);
		pack_tile(0, CB_ZERO);
		cb_push_back(CB_ZERO, 1);
		tile_regs_release();
		cb_wait_front(CB_ZERO, 1);
	}
	if (mask)
		cb_wait_front(CB_MASK, 2);
	for (uint32_t t = 0; t < n; t += block) {
		const uint32_t k = n - t < block ? n - t : block;

		cb_wait_front(CB_A, k);
		if (has_b)
			cb_wait_front(CB_B, k);
		if (has_c)
			cb_wait_front(CB_C, k);
		tile_regs_acquire();
		for (uint32_t i = 0; i < k; i++) {
			const uint32_t d = i * slots;

			if (has_b && fpu) {
				add_tiles_init(CB_A, CB_B);
				any_tiles_bcast(binop == B_ADD ? ELWADD :
						binop == B_SUB ? ELWSUB : ELWMUL,
						bc_b, CB_A, CB_B, i, i, d);
			} else {
				load_operand(CB_A, i, bc_a, d);
			}
			if (has_b && !fpu) {
				load_operand(CB_B, i, bc_b, d + 1);
				switch (binop) {
				case B_ADD: add_binary_tile(d, d + 1); break;
				case B_SUB: sub_binary_tile(d, d + 1); break;
				case B_MUL: mul_binary_tile(d, d + 1); break;
				case B_DIV: div_binary_tile(d, d + 1); break;
				case B_MAX: binary_max_tile(d, d + 1); break;
				case B_MIN: binary_min_tile(d, d + 1); break;
				case B_POW: power_binary_tile(d, d + 1); break;
				case B_RSUB: rsub_binary_tile(d, d + 1); break;
				case B_WHERE:
					load_operand(CB_C, i, bc_c, d + 2);
					select(d);
					break;
				default: compare(d, binop); break;
				}
			}
			unary(uop, get_named_compile_time_arg_val("UP0"),
			      get_named_compile_time_arg_val("UP1"), d, d + 1);
			unary(act, get_named_compile_time_arg_val("AP0"),
			      get_named_compile_time_arg_val("AP1"), d, d + 1);
			if (mask) {
				const uint32_t o = first + t + i;

				if (mask_c && o % wt == wt - 1)
					apply_mask(d, d + slots - 1, 0);
				if (mask_r && (o / wt) % ht == ht - 1)
					apply_mask(d, d + slots - 1, 1);
			}
		}
		tile_regs_commit();
		cb_reserve_back(CB_OUT, k);
		tile_regs_wait();
		for (uint32_t i = 0; i < k; i++)
			pack_tile(i * slots, CB_OUT);
		tile_regs_release();
		cb_push_back(CB_OUT, k);
		cb_pop_front(CB_A, k);
		if (has_b)
			cb_pop_front(CB_B, k);
		if (has_c)
			cb_pop_front(CB_C, k);
	}
}
