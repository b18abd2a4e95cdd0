// SPDX-License-Identifier: Apache-2.0
/*
 * Softmax, layernorm and rmsnorm, compute: one row of tiles (32 rows x
 * WT tiles) at a time, the whole row in L1 (CB 0). OP picks the op:
 *
 * softmax (OP 0):
 *   x = a (* scale: SCALE, + mask row: MASK, causal fill: CAUSAL, the
 *   padding columns filled: PAD), kept in CB 24 when anything changes
 *   it (only the last tile, in CB 25, when just the padding does);
 *   m = max over the row (reduce_tile MAX, REDUCE_ROW; padding and
 *   masked elements are -1e30, so they never win);
 *   e = exp(x - m) (sub_tiles_bcast_cols, exp_tile) into CB 26;
 *   s = 1 / sum(e) (reduce_tile SUM, recip_tile);
 *   out = e * s (mul_tiles_bcast_cols).
 * layernorm (OP 1):
 *   mean = sum(x) / W (reduce_tile SUM with the 1/W scaler, the padding
 *   filled with 0); xc = x - mean into CB 24 (padding 0 again);
 *   var = sum over the row of the elementwise sum of xc^2 (mul_tiles
 *   accumulating into one DST tile, then one reduce_tile) / W;
 *   r = rsqrt(var + eps); out = xc * r (* gamma + beta: rows of gamma
 *   and beta broadcast once per core into full tiles, CB 29 and 30,
 *   applied with the vector unit's mul/add_binary_tile).
 * rmsnorm (OP 2): r = rsqrt(sum(x^2) / W + eps), out = x * r (* gamma).
 *
 * CB 27 (Float32) holds a row's statistics (page 0, 1), CB 28 (Float32)
 * the elementwise sum of squares. Constants: CB 4 (the reader's).
 *
 * Runtime args: first row of tiles, rows, WT, HT.
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
#define CB_LAST 25
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
#define P_SCALE 5

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

/* Pack DST[0] as one page of cb (reserve, pack, push). */
static void pack_one(uint32_t cb)
{
	cb_reserve_back(cb, 1);
	pack_tile(0, cb);
	cb_push_back(cb, 1);
}

/* The row's padded last tile with its padding set to fill, in CB_LAST. */
static void make_last(uint32_t wt, float fill)
{
	tile_regs_acquire();
	copy_tile_init(CB_IN);
	copy_tile(CB_IN, wt - 1, 0);
	copy_tile(CB_CONST, P_COLMASK, 1);
	fill_where_zero(0, 1, fill);
	pack_one(CB_LAST);
	tile_regs_release();
	cb_wait_front(CB_LAST, 1);
}

/* rsqrt(DST[0] reduced / W + eps) of the elementwise sum in CB_TMP into
 * the next page of CB_STAT. */
static void finish_rstd(float eps)
{
	cb_wait_front(CB_TMP, 1);
	tile_regs_acquire();
	reduce_tile_op(PoolType_SUM, REDUCE_ROW, CB_TMP, CB_CONST, 0, P_INVW, 0);
	add_const(0, eps);
	rsqrt_tile(0);
	pack_one(CB_STAT);
	tile_regs_release();
	cb_pop_front(CB_TMP, 1);
}

/* Gamma (beta) rows broadcast to full tiles, once per core. */
static void broadcast_rows(uint32_t in, uint32_t out, uint32_t wt)
{
	cb_wait_front(in, wt);
	cb_reserve_back(out, wt);
	for (uint32_t t = 0; t < wt; t++) {
		tile_regs_acquire();
		add_tiles_bcast_rows(CB_CONST, in, P_ZERO, t, 0);
		pack_tile(0, out);
		tile_regs_release();
	}
	cb_push_back(out, wt);
	cb_wait_front(out, wt);
	cb_pop_front(in, wt);
}

void kernel_main(void)
{
	const uint32_t start = get_arg_val(0), n = get_arg_val(1);
	const uint32_t wt = get_arg_val(2), ht = get_arg_val(3);
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
	const uint32_t slots = gamma || beta ? 2 : 1;

	unary_op_init_common(CB_IN, CB_OUT);
	init_sfpu(CB_IN, CB_OUT);
	cb_wait_front(CB_CONST, 6);
	if (gamma)
		broadcast_rows(CB_GAMMA, CB_GF, wt);
	if (beta)
		broadcast_rows(CB_BETA, CB_BF, wt);

	for (uint32_t r = 0; r < n; r++) {
		const uint32_t h = (start + r) % ht;
		/* Where tile t of x is: cb_x, or CB_LAST for the last tile. */
		uint32_t cb_x = CB_IN;
		bool last = false;

		cb_wait_front(CB_IN, wt);
		if (mask)
			cb_wait_front(CB_MASK, wt);

		if (softmax_x) {
			cb_reserve_back(CB_X, wt);
			for (uint32_t t = 0; t < wt; t++) {
				tile_regs_acquire();
				if (scale) {
					mul_tiles_bcast_scalar(CB_IN, CB_CONST, t,
							       P_SCALE, 0);
				} else {
					copy_tile_init(CB_IN);
					copy_tile(CB_IN, t, 0);
				}
				if (mask) {
					copy_tile(CB_MASK, t, 1);
					add_binary_tile(0, 1);
				}
				if (causal && t > h) {
					fill_tile(0, NEG_BIG);
				} else if (causal && t == h) {
					copy_tile(CB_CONST, P_TRI, 1);
					fill_where_zero(0, 1, NEG_BIG);
				}
				if (pad && t == wt - 1) {
					copy_tile(CB_CONST, P_COLMASK, 1);
					fill_where_zero(0, 1, NEG_BIG);
				}
				pack_tile(0, CB_X);
				tile_regs_release();
			}
			cb_push_back(CB_X, wt);
			cb_wait_front(CB_X, wt);
			cb_x = CB_X;
		} else if (pad) {
			make_last(wt, op == OP_SOFTMAX ? NEG_BIG : 0.0f);
			last = true;
		}
#define XCB(t) (last && (t) == wt - 1 ? CB_LAST : cb_x)
#define XI(t) (last && (t) == wt - 1 ? 0 : (t))

		if (op == OP_SOFTMAX) {
			/* m */
			tile_regs_acquire();
			for (uint32_t t = 0; t < wt; t++)
				reduce_tile_op(PoolType_MAX, REDUCE_ROW, XCB(t),
					       CB_CONST, XI(t), P_ONES, 0);
			pack_one(CB_STAT);
			tile_regs_release();
			cb_wait_front(CB_STAT, 1);
			/* e */
			cb_reserve_back(CB_EXP, wt);
			for (uint32_t t = 0; t < wt; t++) {
				tile_regs_acquire();
				sub_tiles_bcast_cols(XCB(t), CB_STAT, XI(t), 0, 0);
				exp_tile(0);
				pack_tile(0, CB_EXP);
				tile_regs_release();
			}
			cb_push_back(CB_EXP, wt);
			cb_wait_front(CB_EXP, wt);
			/* s */
			tile_regs_acquire();
			for (uint32_t t = 0; t < wt; t++)
				reduce_tile_op(PoolType_SUM, REDUCE_ROW, CB_EXP,
					       CB_CONST, t, P_ONES, 0);
			recip_tile(0);
			pack_one(CB_STAT);
			tile_regs_release();
			cb_wait_front(CB_STAT, 2);
			/* out */
			for (uint32_t t = 0; t < wt; t += block) {
				const uint32_t k = wt - t < block ? wt - t : block;

				cb_reserve_back(CB_OUT, k);
				tile_regs_acquire();
				for (uint32_t i = 0; i < k; i++) {
					mul_tiles_bcast_cols(CB_EXP, CB_STAT, t + i,
							     1, i);
					pack_tile(i, CB_OUT);
				}
				tile_regs_release();
				cb_push_back(CB_OUT, k);
			}
			cb_pop_front(CB_EXP, wt);
			cb_pop_front(CB_STAT, 2);
		} else {
			uint32_t nstat = 1;

			if (op == OP_LAYERNORM) {
				/* mean */
				tile_regs_acquire();
				for (uint32_t t = 0; t < wt; t++)
					reduce_tile_op(PoolType_SUM, REDUCE_ROW,
						       XCB(t), CB_CONST, XI(t),
						       P_INVW, 0);
				pack_one(CB_STAT);
				tile_regs_release();
				cb_wait_front(CB_STAT, 1);
				/* xc */
				cb_reserve_back(CB_X, wt);
				for (uint32_t t = 0; t < wt; t++) {
					tile_regs_acquire();
					sub_tiles_bcast_cols(XCB(t), CB_STAT, XI(t),
							     0, 0);
					if (pad && t == wt - 1) {
						copy_tile_init(CB_CONST);
						copy_tile(CB_CONST, P_COLMASK, 1);
						fill_where_zero(0, 1, 0.0f);
					}
					pack_tile(0, CB_X);
					tile_regs_release();
				}
				cb_push_back(CB_X, wt);
				cb_wait_front(CB_X, wt);
				if (last) {
					cb_pop_front(CB_LAST, 1);
					last = false;
				}
				cb_x = CB_X;
				nstat = 2;
			}
			/* sum of squares, elementwise into one tile */
			tile_regs_acquire();
			mul_tiles_init(CB_IN, CB_IN, 1);
			for (uint32_t t = 0; t < wt; t++)
				mul_tiles(XCB(t), XCB(t), XI(t), XI(t), 0);
			mul_tiles_init(CB_IN, CB_IN);
			pack_one(CB_TMP);
			tile_regs_release();
			finish_rstd(eps);
			cb_wait_front(CB_STAT, nstat);
			/* out */
			for (uint32_t t = 0; t < wt; t += block) {
				const uint32_t k = wt - t < block ? wt - t : block;

				cb_reserve_back(CB_OUT, k);
				tile_regs_acquire();
				for (uint32_t i = 0; i < k; i++) {
					const uint32_t d = i * slots;

					mul_tiles_bcast_cols(XCB(t + i), CB_STAT,
							     XI(t + i), nstat - 1,
							     d);
					if (gamma) {
						copy_tile_init(CB_GF);
						copy_tile(CB_GF, t + i, d + 1);
						mul_binary_tile(d, d + 1);
					}
					if (beta) {
						copy_tile_init(CB_BF);
						copy_tile(CB_BF, t + i, d + 1);
						add_binary_tile(d, d + 1);
					}
					pack_tile(d, CB_OUT);
				}
				tile_regs_release();
				cb_push_back(CB_OUT, k);
			}
			cb_pop_front(CB_STAT, nstat);
		}
		if (last)
			cb_pop_front(CB_LAST, 1);
		if (cb_x == CB_X)
			cb_pop_front(CB_X, wt);
		if (mask)
			cb_pop_front(CB_MASK, wt);
		cb_pop_front(CB_IN, wt);
	}
}
