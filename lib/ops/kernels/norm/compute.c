// SPDX-License-Identifier: Apache-2.0
/*
 * Softmax, layernorm and rmsnorm, compute: one row of tiles (32 rows x
 * WT tiles) at a time, the whole row in L1 (CB 0). The work is done in
 * DST with the vector unit's tile functions (fp32 with fp32
 * accumulation), one tile load per tile and pass; the matrix unit only
 * folds a row's 32 columns (reduce_tile REDUCE_ROW, once per row and
 * statistic) and broadcasts the statistic back to a full tile
 * (add_tiles_bcast_cols with a zero tile), each in parts to keep fp32
 * precision (see fold_sum). DST tiles, which persist
 * through the kernel (one tile_regs_acquire at the start):
 *   0, 1 work; 2 the elementwise accumulator; 3 and 5 a row's
 *   statistics broadcast to full tiles; 4 the reduction's target;
 *   6 the column mask (1 in valid columns), 7 the causal triangle.
 *
 * softmax (OP 0):
 *   pass 1: x = a (* scale: SCALE, + mask row: MASK, causal fill:
 *   CAUSAL, the padding columns: PAD; masked elements -1e30), kept in
 *   CB 24 when anything but the padding changes it; M = elementwise max
 *   over the row's tiles; m = max over M's columns (reduce MAX);
 *   pass 2: e = exp(x - m) into CB 26 (0 without exp for tiles wholly
 *   above the diagonal: CAUSAL), S = elementwise sum of e;
 *   r = 1 / (sum over S's columns);
 *   pass 3: out = e * r.
 * layernorm (OP 1):
 *   pass 1: S = elementwise sum of x (padding 0); mean = sum over S's
 *   columns / W (reduce SUM with the 1/W scaler);
 *   pass 2: Q = elementwise sum of (x - mean)^2 (padding 0); rstd =
 *   rsqrt(sum over Q's columns / W + eps);
 *   pass 3: out = (x - mean) * rstd (* gamma + beta: rows of gamma and
 *   beta broadcast once per core to full tiles, CB 29 and 30).
 * rmsnorm (OP 2): passes 2 and 3 without the mean.
 *
 * CB 27 (Float32) takes a row's statistic before it is broadcast, CB 28
 * (Float32) an accumulator before it is reduced. Constants: CB 4 (the
 * reader's).
 *
 * Runtime args: first row of tiles, rows, WT, HT, 1/W, scale (fp32 bits).
 * Named compile-time args: OP, BLOCK, SCALE, MASK, CAUSAL, PAD, GAMMA,
 * BETA, EPS (fp32 bits).
 */
#include "compute_kernel_api.h"

#define CB_IN 0
#define CB_MASK 1
#define CB_GAMMA 2
#define CB_BETA 3
#define CB_CONST 4
#define CB_OUT 16
#define CB_X 24
#define CB_EXP 26
#define CB_STAT 27
#define CB_TMP 28
#define CB_GF 29
#define CB_BF 30

#define P_ONES 0
#define P_INVW 1
#define P_ZERO 2
#define P_COLMASK 3
#define P_TRI 4

#define NEG_BIG (-1e30f)

enum { OP_SOFTMAX, OP_LAYERNORM, OP_RMSNORM };

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

/* DST[d] += c. */
static void add_const(uint32_t d, float c)
{
	sfpi_init();
	sfpi_loadi(SFPI_V1, c);
	for (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {
		sfpi_load(SFPI_V0, sfpi_dst(d, v));
		sfpi_add(SFPI_V0, SFPI_V0, SFPI_V1);
		sfpi_store(sfpi_dst(d, v), SFPI_V0);
	}
}

/* DST[d] to one page of cb, waited for by the caller. */
static void pack_one(uint32_t d, uint32_t cb)
{
	cb_reserve_back(cb, 1);
	pack_tile(d, cb);
	cb_push_back(cb, 1);
	cb_wait_front(cb, 1);
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

/*
 * The matrix unit takes its sources at TF32 precision, and its
 * multiplier (reduce_tile multiplies by the scaler) keeps fewer bits of
 * A (8 at HiFi4, 4 at LoFi). Its folds are therefore done in levels:
 * fold the accumulator, subtract what the fold saw of it (its product
 * with 1 through the same multiplier, elementwise), fold the rest, and so
 * on until nothing is left (24 bits / the bits kept); its broadcasts in
 * two parts, the TF32 rounding and the rest (exact in fp32). A row
 * statistic thus keeps fp32 precision.
 */
#if MATH_FIDELITY == 0
#define FOLD_LEVELS 6
#else
#define FOLD_LEVELS 3
#endif

/* DST[4] column 0 = the row sums of DST[acc] (destroyed). DST 1 scratch. */
static void fold_sum(uint32_t acc)
{
	fill_tile(4, 0.0f);
	for (uint32_t level = 0; level < FOLD_LEVELS; level++) {
		pack_one(acc, CB_TMP);
		reduce_tile_op(PoolType_SUM, REDUCE_ROW, CB_TMP, CB_CONST, 0,
			       P_ONES, 4);
		if (level + 1 < FOLD_LEVELS) {
			mul_tiles(CB_TMP, CB_CONST, 0, P_ONES, 1);
			sub_binary_tile(acc, 1);
		}
		cb_pop_front(CB_TMP, 1);
	}
}

/* DST[to] = DST[4]'s column 0 in every column (DST 4 destroyed, DST 1
 * scratch). */
static void bcast_col(uint32_t to)
{
	pack_one(4, CB_STAT);
	add_tiles_bcast_cols(CB_CONST, CB_STAT, P_ZERO, 0, to);
	add_tiles(CB_STAT, CB_CONST, 0, P_ZERO, 1);
	cb_pop_front(CB_STAT, 1);
	sub_binary_tile(4, 1);
	pack_one(4, CB_STAT);
	add_tiles_bcast_cols(CB_CONST, CB_STAT, P_ZERO, 0, 1);
	cb_pop_front(CB_STAT, 1);
	add_binary_tile(to, 1);
}

/* DST[to] = the row statistic of accumulator DST[acc]: its row sums
 * times mul (SUM) or row maxima (MAX), then + eps and rsqrt, or recip,
 * broadcast to every column. */
enum { FIN_NONE, FIN_RECIP, FIN_RSQRT };

static void row_stat(uint32_t acc, uint32_t pool, float mul, uint32_t fin,
		     float eps, uint32_t to)
{
	if (pool == PoolType_SUM) {
		fold_sum(acc);
		if (mul != 1.0f)
			mul_const(4, mul);
	} else {
		pack_one(acc, CB_TMP);
		fill_tile(4, -__builtin_inff());
		reduce_tile_op(pool, REDUCE_ROW, CB_TMP, CB_CONST, 0, P_ONES, 4);
		cb_pop_front(CB_TMP, 1);
	}
	if (fin == FIN_RSQRT) {
		add_const(4, eps);
		rsqrt_tile(4);
	} else if (fin == FIN_RECIP) {
		recip_tile(4);
	}
	bcast_col(to);
}

/* Gamma (beta) rows broadcast to full tiles, once per core. */
static void broadcast_rows(uint32_t in, uint32_t out, uint32_t wt)
{
	cb_wait_front(in, wt);
	cb_reserve_back(out, wt);
	for (uint32_t t = 0; t < wt; t++) {
		add_tiles_bcast_rows(CB_CONST, in, P_ZERO, t, 0);
		pack_tile(0, out);
	}
	cb_push_back(out, wt);
	cb_wait_front(out, wt);
	cb_pop_front(in, wt);
}

void kernel_main(void)
{
	const uint32_t start = get_arg_val(0), n = get_arg_val(1);
	const uint32_t wt = get_arg_val(2), ht = get_arg_val(3);
	const float invw = f32(get_arg_val(4)), xscale = f32(get_arg_val(5));
	const uint32_t op = get_named_compile_time_arg_val("OP");
	const uint32_t block = get_named_compile_time_arg_val("BLOCK");
	const bool scale = get_named_compile_time_arg_val("SCALE");
	const bool mask = get_named_compile_time_arg_val("MASK");
	const bool causal = get_named_compile_time_arg_val("CAUSAL");
	const bool pad = get_named_compile_time_arg_val("PAD");
	const bool gamma = get_named_compile_time_arg_val("GAMMA");
	const bool beta = get_named_compile_time_arg_val("BETA");
	const float eps = f32(get_named_compile_time_arg_val("EPS"));
	const bool softmax_x = op == OP_SOFTMAX && (scale || mask || causal);
	const float fill = op == OP_SOFTMAX ? NEG_BIG : 0.0f;

	unary_op_init_common(CB_IN, CB_OUT);
	init_sfpu(CB_IN, CB_OUT);
	cb_wait_front(CB_CONST, 6);
	tile_regs_acquire();
	copy_tile_init(CB_CONST);
	if (pad)
		copy_tile(CB_CONST, P_COLMASK, 6);
	if (causal)
		copy_tile(CB_CONST, P_TRI, 7);
	if (gamma)
		broadcast_rows(CB_GAMMA, CB_GF, wt);
	if (beta)
		broadcast_rows(CB_BETA, CB_BF, wt);

	for (uint32_t r = 0; r < n; r++) {
		const uint32_t h = (start + r) % ht;
		uint32_t cb_x = CB_IN;

		cb_wait_front(CB_IN, wt);
		if (mask)
			cb_wait_front(CB_MASK, wt);

		if (op == OP_SOFTMAX) {
			/* pass 1: x, M, m */
			if (softmax_x)
				cb_reserve_back(CB_X, wt);
			if (scale)
				fill_tile(3, xscale);
			fill_tile(2, -__builtin_inff());
			for (uint32_t t = 0; t < wt; t++) {
				copy_tile(CB_IN, t, 0);
				if (scale) /* DST 3 is free until pass 2 */
					mul_binary_tile(0, 3);
				if (mask) {
					copy_tile(CB_MASK, t, 1);
					add_binary_tile(0, 1);
				}
				if (causal && t > h)
					fill_tile(0, NEG_BIG);
				else if (causal && t == h)
					fill_where_zero(0, 7, NEG_BIG);
				if (pad && t == wt - 1)
					fill_where_zero(0, 6, NEG_BIG);
				if (softmax_x)
					pack_tile(0, CB_X);
				binary_max_tile(2, 0);
			}
			if (softmax_x) {
				cb_push_back(CB_X, wt);
				cb_wait_front(CB_X, wt);
				cb_x = CB_X;
			}
			row_stat(2, PoolType_MAX, 1.0f, FIN_NONE, 0, 5);
			/* pass 2: e, S, r */
			cb_reserve_back(CB_EXP, wt);
			fill_tile(2, 0.0f);
			for (uint32_t t = 0; t < wt; t++) {
				if (causal && t > h) {
					/* wholly above the diagonal: 0, no exp */
					fill_tile(0, 0.0f);
					pack_tile(0, CB_EXP);
					continue;
				}
				copy_tile(cb_x, t, 0);
				if (pad && t == wt - 1 && !softmax_x)
					fill_where_zero(0, 6, NEG_BIG);
				sub_binary_tile(0, 5);
				exp_tile(0);
				pack_tile(0, CB_EXP);
				add_binary_tile(2, 0);
			}
			cb_push_back(CB_EXP, wt);
			cb_wait_front(CB_EXP, wt);
			row_stat(2, PoolType_SUM, 1.0f, FIN_RECIP, 0, 3);
			/* pass 3: out */
			for (uint32_t t = 0; t < wt; t += block) {
				const uint32_t k = wt - t < block ? wt - t : block;

				cb_reserve_back(CB_OUT, k);
				for (uint32_t i = 0; i < k; i++) {
					copy_tile(CB_EXP, t + i, 0);
					mul_binary_tile(0, 3);
					pack_tile(0, CB_OUT);
				}
				cb_push_back(CB_OUT, k);
			}
			cb_pop_front(CB_EXP, wt);
		} else {
			if (op == OP_LAYERNORM) {
				/* pass 1: the mean */
				fill_tile(2, 0.0f);
				for (uint32_t t = 0; t < wt; t++) {
					if (pad && t == wt - 1) {
						copy_tile(CB_IN, t, 0);
						fill_where_zero(0, 6, 0.0f);
						add_binary_tile(2, 0);
					} else {
						copy_tile(CB_IN, t, 0);
						add_binary_tile(2, 0);
					}
				}
				row_stat(2, PoolType_SUM, invw, FIN_NONE, 0, 5);
			}
			/* pass 2: the sum of squares, rstd */
			fill_tile(2, 0.0f);
			for (uint32_t t = 0; t < wt; t++) {
				copy_tile(CB_IN, t, 0);
				if (op == OP_LAYERNORM)
					sub_binary_tile(0, 5);
				if (pad && t == wt - 1)
					fill_where_zero(0, 6, 0.0f);
				mul_binary_tile(0, 0);
				add_binary_tile(2, 0);
			}
			row_stat(2, PoolType_SUM, invw, FIN_RSQRT, eps, 3);
			/* pass 3: out */
			for (uint32_t t = 0; t < wt; t += block) {
				const uint32_t k = wt - t < block ? wt - t : block;

				cb_reserve_back(CB_OUT, k);
				for (uint32_t i = 0; i < k; i++) {
					copy_tile(CB_IN, t + i, 0);
					if (op == OP_LAYERNORM)
						sub_binary_tile(0, 5);
					mul_binary_tile(0, 3);
					if (gamma) {
						copy_tile(CB_GF, t + i, 1);
						mul_binary_tile(0, 1);
					}
					if (beta) {
						copy_tile(CB_BF, t + i, 1);
						add_binary_tile(0, 1);
					}
					pack_tile(0, CB_OUT);
				}
				cb_push_back(CB_OUT, k);
			}
		}
		if (cb_x == CB_X)
			cb_pop_front(CB_X, wt);
		if (mask)
			cb_pop_front(CB_MASK, wt);
		cb_pop_front(CB_IN, wt);
	}
}
