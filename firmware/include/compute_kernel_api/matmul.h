/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Matrix products on the matrix unit, accumulated into DST (TT-Metal's
 * tt_metal/hw/inc/api/compute/matmul.h); DST starts at zero after
 * tile_regs_acquire(). The math fidelity applies.
 *
 *   matmul_tiles(cb0, cb1, i0, i1, idst[, transpose])
 *       DST[idst] += A x B, A = tile i0 of cb0, B = tile i1 of cb1
 *       (B transposed if transpose)
 *   matmul_block(cb0, cb1, i0, i1, idst, transpose, ct, rt, kt)
 *       TT-Metal's one k-step of a block: for r < rt, c < ct
 *       DST[idst + r*ct + c] += A(i0 + r*kt) x B(i1 + c)
 *       (A a block of rt x kt tiles row-major, B a row of ct tiles)
 *   matmul_block_k(cb0, cb1, i0, i1, idst, transpose, rt, ct, kt,
 *                  a_row_stride_tiles, b_row_stride_tiles)
 *       OUR EXTENSION: a whole rt x ct x kt block in one coprocessor
 *       command: for r < rt, c < ct
 *       DST[idst + r*ct + c] += sum over k < kt of
 *           A(i0 + r*a_stride + k) x B(i1 + k*b_stride + c)
 *       rt, ct, kt in 1..255, rt*ct DST tiles. One command instead of
 *       rt*ct*kt is what makes a fast matmul possible on the model.
 *   matmul_tile(...): matmul_tiles by the singular name
 *   mm_init(cb0, cb1, ocb[, transpose]), mm_init_short(cb0, cb1
 *   [, transpose]), mm_block_init(...), mm_block_init_short(...)
 *       program CFG only.
 */
#ifndef TT_COMPUTE_KERNEL_API_MATMUL_H
#define TT_COMPUTE_KERNEL_API_MATMUL_H

#include "compute_kernel_api/common.h"

__attribute__((noreturn)) void ttk_matmul_fail(const char *op, uint32_t rt,
					       uint32_t ct, uint32_t kt);

static inline void ttk_matmul(const char *op, uint32_t cb0, uint32_t cb1,
			      uint32_t i0, uint32_t i1, uint32_t idst,
			      uint32_t transpose, uint32_t rt, uint32_t ct,
			      uint32_t kt, uint32_t a_stride,
			      uint32_t b_stride)
{
	if (TTK_UNLIKELY(rt - 1 > 254 || ct - 1 > 254 || kt - 1 > 254))
		ttk_matmul_fail(op, rt, ct, kt);
	ttk_dst_check(op, idst, rt * ct);
	if (ttk_cb_checks()) {
		/* The last tile of each operand block. */
		ttk_cb_check_tile(cb0, i0 + (rt - 1) * a_stride + kt - 1, op);
		ttk_cb_check_tile(cb1, i1 + (kt - 1) * b_stride + ct - 1, op);
	}
	ttk_operand(0, cb0, i0, op);
	ttk_operand(1, cb1, i1, op);
	ttk_tx_set(TT_TX_DST, idst);
	ttk_tx_set(TT_TX_ARG0, rt | ct << 8 | kt << 16);
	ttk_tx_set(TT_TX_ARG1, a_stride);
	ttk_tx_set(TT_TX_ARG2, b_stride);
	ttk_tx_run(TT_TX_MATMUL, 0, transpose ? TT_TX_F_TRANSPOSE : 0);
}

#define matmul_tiles(...) TTK_OVERLOAD(ttk_matmul_tiles_, __VA_ARGS__)
/* matmul_tile: the same by the singular name. */
#define matmul_tile(...) matmul_tiles(__VA_ARGS__)
#define ttk_matmul_tiles_5(cb0, cb1, i0, i1, idst) \
	ttk_matmul_tiles_6(cb0, cb1, i0, i1, idst, 0)
#define ttk_matmul_tiles_6(cb0, cb1, i0, i1, idst, t) \
	ttk_matmul("matmul_tiles", (cb0), (cb1), (i0), (i1), (idst), (t), 1, \
		   1, 1, 1, 1)

static inline void matmul_block(uint32_t cb0, uint32_t cb1, uint32_t i0,
				uint32_t i1, uint32_t idst, uint32_t transpose,
				uint32_t ct, uint32_t rt, uint32_t kt)
{
	ttk_matmul("matmul_block", cb0, cb1, i0, i1, idst, transpose, rt, ct,
		   1, kt, ct);
}

static inline void matmul_block_k(uint32_t cb0, uint32_t cb1, uint32_t i0,
				  uint32_t i1, uint32_t idst,
				  uint32_t transpose, uint32_t rt, uint32_t ct,
				  uint32_t kt, uint32_t a_row_stride_tiles,
				  uint32_t b_row_stride_tiles)
{
	ttk_matmul("matmul_block_k", cb0, cb1, i0, i1, idst, transpose, rt,
		   ct, kt, a_row_stride_tiles, b_row_stride_tiles);
}

#define mm_init(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())
#define mm_init_short(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())
#define mm_block_init(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())
#define mm_block_init_short(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())
#define matmul_init(...) (ttk_unused(__VA_ARGS__), ttk_compute_init())

#endif /* TT_COMPUTE_KERNEL_API_MATMUL_H */
