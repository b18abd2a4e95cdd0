// SPDX-License-Identifier: Apache-2.0
/*
 * Reductions, argmax and cumsum, compute: one line of input tiles at a
 * time (the reader's), arriving in chunks of CHUNK tiles. DST is zeroed
 * (tile_regs_acquire) at the start of every line; its tiles: 0, 1 work,
 * 2 the elementwise accumulator, 3 and 4 reduction targets, 5 a row
 * maximum broadcast (argmax), 6 the column mask, 7 the row mask (the
 * column indices for argmax).
 *
 * OP 0..3 (sum, mean, max, min): every tile of the line is loaded
 * (copy_tile), negated for min, its padding (last column of tiles: PADC,
 * last row: PADR) set to 0 (sum, mean) or -1e30 (max, min), and folded
 * into the accumulator elementwise (add_binary_tile, binary_max_tile);
 * then the accumulator's 32 x 32 are folded as FINAL says (reduce_tile
 * SUM or MAX with REDUCE_ROW, REDUCE_COL, REDUCE_SCALAR into a zeroed
 * tile: the rest of it stays 0), or not at all (FINAL 0: only batch
 * dimensions reduced); mean multiplies by INVN (1 / the logical count),
 * min negates back.
 * OP 4 (argmax along the last dimension, the line twice): pass 1 the
 * row maximum m as max; pass 2, per tile t, each element equal to m
 * offers its column index 32 t + c, others 1e30; the accumulator keeps
 * the least; the row's least index is -max(-acc) (reduce MAX, REDUCE_ROW):
 * the first maximum, as PyTorch.
 * OP 5, 6 (cumsum along the last dimension, along rows): tile t's
 * prefix sums within the tile are one matrix product with a triangular
 * ones tile (X U for rows, L X for columns: each element the sum of the
 * elements before it and itself, in index order), plus the running
 * total of the tiles before it, kept in DST 1 and grown by a product
 * with the ones tile (X 1, 1 X: each row's (column's) sum, broadcast).
 *
 * Runtime args: lines, LEN, CHUNK, LC, LH, WT, HT.
 * Named compile-time args: OP, FINAL (0 or a REDUCE_* flag), PADC, PADR,
 * INVN (fp32 bits).
 */
#include "compute_kernel_api.h"

#define CB_IN 0
#define CB_CONST 4
#define CB_OUT 16
#define CB_STAT 27
#define CB_TMP 28

#define P_ONES 0
#define P_ZERO 1
#define P_COLMASK 2
#define P_ROWMASK 3
#define P_COLIDX 4
#define P_U 5
#define P_L 6

#define BIG 1e30f

enum { R_SUM, R_MEAN, R_MAX, R_MIN, R_ARGMAX, R_CUMSUM_W, R_CUMSUM_H };

static float f32(uint32_t bits)
{
	union {
		uint32_t u;
		float f;
	} v = { .u = bits };

	return v.f;
}

/* DST[d] = value where DST[m] is 0. */
static void fill_where_zero(uint32_t d, uint32_t m, float value)
{
	sfpi_init();
	sfpi_loadi(SFPI_V2, value);
	sfpi_loadi(SFPI_V3, 0.0f);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(SFPI_V1, sfpi_dst(m, v));
		SFPI_IF(sfpi_eq(SFPI_V1, SFPI_V3)) {
			sfpi_store(sfpi_dst(d, v), SFPI_V2);
		} SFPI_ENDIF;
	}
}

/* DST[d] *= c. */
static void mul_const(uint32_t d, float c)
{
	sfpi_init();
	sfpi_loadi(SFPI_V1, c);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(SFPI_V0, sfpi_dst(d, v));
		sfpi_mul(SFPI_V0, SFPI_V0, SFPI_V1);
		sfpi_store(sfpi_dst(d, v), SFPI_V0);
	}
}

/* acc = min(acc, x == m ? idx + base : BIG), elementwise: DST[2] acc,
 * DST[0] x, DST[5] m, DST[7] idx. */
static void argmax_step(float base)
{
	sfpi_init();
	sfpi_loadi(SFPI_V4, base);
	sfpi_loadi(SFPI_V6, BIG);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(SFPI_V0, sfpi_dst(0, v));
		sfpi_load(SFPI_V1, sfpi_dst(5, v));
		sfpi_load(SFPI_V2, sfpi_dst(7, v));
		sfpi_add(SFPI_V2, SFPI_V2, SFPI_V4);
		SFPI_IF(sfpi_ne(SFPI_V0, SFPI_V1)) {
			sfpi_mov(SFPI_V2, SFPI_V6);
		} SFPI_ENDIF;
		sfpi_load(SFPI_V3, sfpi_dst(2, v));
		sfpi_min(SFPI_V3, SFPI_V3, SFPI_V2);
		sfpi_store(sfpi_dst(2, v), SFPI_V3);
	}
}

static void pack_one(uint32_t d, uint32_t cb)
{
	cb_reserve_back(cb, 1);
	pack_tile(d, cb);
	cb_push_back(cb, 1);
	cb_wait_front(cb, 1);
}

/*
 * DST[4] = the accumulator DST[2] folded (pool, dim) to fp32 precision.
 * The matrix unit takes its sources at TF32 precision, and for a sum its
 * multiplier (times the scaler 1) keeps fewer bits of the values (8 at
 * HiFi4, 4 at LoFi). A sum is therefore folded in levels: fold, subtract
 * what the fold saw (the accumulator times 1 through the same
 * multiplier, elementwise), fold the rest, until nothing is left (24
 * bits / the bits kept). A maximum (no multiplier) is folded once, giving
 * hi, the TF32 rounding of the largest; then acc - hi (hi broadcast back)
 * is folded, whose largest is the true maximum's distance from hi.
 * DST 1, 3 scratch; 3 and 4 zeroed since the line began.
 */
#if MATH_FIDELITY == 0
#define FOLD_LEVELS 6
#else
#define FOLD_LEVELS 3
#endif

static void exact_fold(uint32_t pool, uint32_t dim)
{
	if (pool == PoolType_SUM) {
		for (uint32_t level = 0; level < FOLD_LEVELS; level++) {
			pack_one(2, CB_TMP);
			reduce_tile_op(pool, dim, CB_TMP, CB_CONST, 0, P_ONES, 4);
			if (level + 1 < FOLD_LEVELS) {
				mul_tiles(CB_TMP, CB_CONST, 0, P_ONES, 1);
				sub_binary_tile(2, 1);
			}
			cb_pop_front(CB_TMP, 1);
		}
		return;
	}
	pack_one(2, CB_TMP);
	reduce_tile_op(pool, dim, CB_TMP, CB_CONST, 0, P_ONES, 4);
	cb_pop_front(CB_TMP, 1);
	pack_one(4, CB_STAT);
	any_tiles_bcast(ELWADD, dim == REDUCE_ROW ? BroadcastType_COL :
			dim == REDUCE_COL ? BroadcastType_ROW :
			BroadcastType_SCALAR, CB_CONST, CB_STAT, P_ZERO, 0, 1);
	cb_pop_front(CB_STAT, 1);
	sub_binary_tile(2, 1);
	pack_one(2, CB_TMP);
	reduce_tile_op(pool, dim, CB_TMP, CB_CONST, 0, P_ONES, 3);
	cb_pop_front(CB_TMP, 1);
	add_binary_tile(4, 3);
}

void kernel_main(void)
{
	const uint32_t n = get_arg_val(0), len = get_arg_val(1);
	const uint32_t chunk = get_arg_val(2), lc = get_arg_val(3);
	const uint32_t lh = get_arg_val(4), wt = get_arg_val(5);
	const uint32_t ht = get_arg_val(6);
	const uint32_t op = get_named_compile_time_arg_val("OP");
	const uint32_t final = get_named_compile_time_arg_val("FINAL");
	const bool padc = get_named_compile_time_arg_val("PADC");
	const bool padr = get_named_compile_time_arg_val("PADR");
	const float invn = f32(get_named_compile_time_arg_val("INVN"));
	const bool maxlike = op == R_MAX || op == R_MIN || op == R_ARGMAX;
	const float fill = maxlike ? -BIG : 0.0f;
	const uint32_t passes = op == R_ARGMAX ? 2 : 1;

	unary_op_init_common(CB_IN, CB_OUT);
	init_sfpu(CB_IN, CB_OUT);
	cb_wait_front(CB_CONST, 7);

	for (uint32_t j = 0; j < n; j++) {
		tile_regs_acquire();
		copy_tile_init(CB_CONST);
		if (padc)
			copy_tile(CB_CONST, P_COLMASK, 6);
		if (padr)
			copy_tile(CB_CONST, P_ROWMASK, 7);
		if (op == R_ARGMAX)
			copy_tile(CB_CONST, P_COLIDX, 7);
		for (uint32_t pass = 0; pass < passes; pass++) {
			fill_tile(2, pass ? BIG : maxlike ? -__builtin_inff() : 0.0f);
			for (uint32_t l = 0; l < len; l += chunk) {
				cb_wait_front(CB_IN, chunk);
				for (uint32_t k = 0; k < chunk; k++) {
					const uint32_t m = l + k;
					const bool lastc = padc && m % lc == wt - 1;
					const bool lastr = padr && (m / lc) % lh == ht - 1;
					uint32_t src = CB_IN, si = k;

					if (op == R_CUMSUM_W || op == R_CUMSUM_H) {
						if (lastc || lastr) {
							/* padding 0: garbage there
							 * would reach the products */
							copy_tile(CB_IN, k, 0);
							fill_where_zero(0, lastc ? 6 : 7, 0.0f);
							pack_one(0, CB_TMP);
							src = CB_TMP;
							si = 0;
						}
						fill_tile(0, 0.0f);
						if (op == R_CUMSUM_W) {
							matmul_tiles(src, CB_CONST, si, P_U, 0);
							matmul_tiles(src, CB_CONST, si, P_ONES, 3);
						} else {
							matmul_tiles(CB_CONST, src, P_L, si, 0);
							matmul_tiles(CB_CONST, src, P_ONES, si, 3);
						}
						add_binary_tile(0, 1);
						cb_reserve_back(CB_OUT, 1);
						pack_tile(0, CB_OUT);
						cb_push_back(CB_OUT, 1);
						/* the running total, after its use */
						add_binary_tile(1, 3);
						fill_tile(3, 0.0f);
						if (src == CB_TMP)
							cb_pop_front(CB_TMP, 1);
						continue;
					}
					copy_tile(CB_IN, k, 0);
					if (op == R_MIN)
						negative_tile(0);
					if (lastc)
						fill_where_zero(0, 6, fill);
					if (lastr)
						fill_where_zero(0, 7, fill);
					if (op == R_ARGMAX && pass)
						argmax_step((float)(32 * m));
					else if (maxlike)
						binary_max_tile(2, 0);
					else
						add_binary_tile(2, 0);
				}
				cb_pop_front(CB_IN, chunk);
			}
			if (op == R_ARGMAX && !pass) {
				/* m, broadcast to every column */
				pack_one(2, CB_TMP);
				reduce_tile_op(PoolType_MAX, REDUCE_ROW, CB_TMP,
					       CB_CONST, 0, P_ONES, 4);
				cb_pop_front(CB_TMP, 1);
				pack_one(4, CB_STAT);
				add_tiles_bcast_cols(CB_CONST, CB_STAT, P_ZERO, 0, 5);
				cb_pop_front(CB_STAT, 1);
			}
		}
		if (op == R_CUMSUM_W || op == R_CUMSUM_H)
			continue;
		if (op == R_ARGMAX) {
			negative_tile(2);
			pack_one(2, CB_TMP);
			reduce_tile_op(PoolType_MAX, REDUCE_ROW, CB_TMP, CB_CONST, 0,
				       P_ONES, 3);
			cb_pop_front(CB_TMP, 1);
			negative_tile(3);
			cb_reserve_back(CB_OUT, 1);
			pack_tile(3, CB_OUT);
			cb_push_back(CB_OUT, 1);
			continue;
		}
		if (final) {
			exact_fold(maxlike ? PoolType_MAX : PoolType_SUM, final);
		} else {
			/* Only batch dimensions: the accumulator is the result;
			 * copy it through CB_TMP to DST 4. */
			pack_one(2, CB_TMP);
			copy_tile(CB_TMP, 0, 4);
			cb_pop_front(CB_TMP, 1);
		}
		if (op == R_MEAN)
			mul_const(4, invn);
		if (op == R_MIN)
			negative_tile(4);
		cb_reserve_back(CB_OUT, 1);
		pack_tile(4, CB_OUT);
		cb_push_back(CB_OUT, 1);
	}
}
