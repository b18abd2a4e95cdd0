/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Broadcast forms of the element-wise operations (TT-Metal's
 * tt_metal/hw/inc/api/compute/bcast.h). The second operand (cb1's tile) is
 * the one broadcast:
 *
 *   *_bcast_rows    row 0 of B goes to every row (B is a row vector)
 *   *_bcast_cols    column 0 of B goes to every column (a column vector)
 *   *_bcast_scalar  element (0,0) of B goes everywhere
 *
 *   add_tiles_bcast_rows/cols/scalar(cb0, cb1, i0, i1, idst), and the same
 *   for sub (A - B) and mul; add_tiles_bcast(cb0, cb1, i0, i1, idst) is
 *   the cols form (TT-Metal's default).
 *   any_tiles_bcast(op, bcast, cb0, cb1, i0, i1, idst): TT-Metal's
 *   any_tiles_bcast<op, bcast>, op ELWADD/ELWSUB/ELWMUL, bcast
 *   BroadcastType_ROW/COL/SCALAR.
 *   init_bcast(cb0, cb1, ocb[, op, bcast]), *_bcast_*_init_short(...)
 *   program CFG only.
 */
#ifndef TT_COMPUTE_KERNEL_API_BCAST_H
#define TT_COMPUTE_KERNEL_API_BCAST_H

#include "compute_kernel_api/eltwise_binary.h"

enum { ELWADD = TT_TX_ADD, ELWSUB = TT_TX_SUB, ELWMUL = TT_TX_MUL };
enum {
	BroadcastType_NONE = 0,
	BroadcastType_ROW = TT_TX_F_BCAST_ROW,
	BroadcastType_COL = TT_TX_F_BCAST_COL,
	BroadcastType_SCALAR = TT_TX_F_BCAST_SCALAR,
};

static inline void any_tiles_bcast(uint32_t op, uint32_t bcast, uint32_t cb0,
				   uint32_t cb1, uint32_t i0, uint32_t i1,
				   uint32_t idst)
{
	ttk_eltwise(op, bcast, cb0, cb1, i0, i1, idst, "any_tiles_bcast");
}

#define TTK_BCAST_OP(name, op, flag)                                         \
	static inline void name(uint32_t cb0, uint32_t cb1, uint32_t i0,     \
				uint32_t i1, uint32_t idst)                  \
	{                                                                    \
		ttk_eltwise(op, flag, cb0, cb1, i0, i1, idst, #name);        \
	}

TTK_BCAST_OP(add_tiles_bcast_rows, TT_TX_ADD, TT_TX_F_BCAST_ROW)
TTK_BCAST_OP(add_tiles_bcast_cols, TT_TX_ADD, TT_TX_F_BCAST_COL)
TTK_BCAST_OP(add_tiles_bcast_scalar, TT_TX_ADD, TT_TX_F_BCAST_SCALAR)
TTK_BCAST_OP(sub_tiles_bcast_rows, TT_TX_SUB, TT_TX_F_BCAST_ROW)
TTK_BCAST_OP(sub_tiles_bcast_cols, TT_TX_SUB, TT_TX_F_BCAST_COL)
TTK_BCAST_OP(sub_tiles_bcast_scalar, TT_TX_SUB, TT_TX_F_BCAST_SCALAR)
TTK_BCAST_OP(mul_tiles_bcast_rows, TT_TX_MUL, TT_TX_F_BCAST_ROW)
TTK_BCAST_OP(mul_tiles_bcast_cols, TT_TX_MUL, TT_TX_F_BCAST_COL)
TTK_BCAST_OP(mul_tiles_bcast_scalar, TT_TX_MUL, TT_TX_F_BCAST_SCALAR)
TTK_BCAST_OP(add_tiles_bcast, TT_TX_ADD, TT_TX_F_BCAST_COL)
TTK_BCAST_OP(sub_tiles_bcast, TT_TX_SUB, TT_TX_F_BCAST_COL)
TTK_BCAST_OP(mul_tiles_bcast, TT_TX_MUL, TT_TX_F_BCAST_COL)

#define TTK_BCAST_INIT (ttk_eltwise_flags = 0, ttk_compute_init())
#define init_bcast(...) (ttk_unused(__VA_ARGS__), TTK_BCAST_INIT)
#define add_bcast_rows_init_short(...) (ttk_unused(__VA_ARGS__), TTK_BCAST_INIT)
#define add_bcast_cols_init_short(...) (ttk_unused(__VA_ARGS__), TTK_BCAST_INIT)
#define add_bcast_scalar_init_short(...) \
	(ttk_unused(__VA_ARGS__), TTK_BCAST_INIT)
#define sub_bcast_rows_init_short(...) (ttk_unused(__VA_ARGS__), TTK_BCAST_INIT)
#define sub_bcast_cols_init_short(...) (ttk_unused(__VA_ARGS__), TTK_BCAST_INIT)
#define sub_tiles_bcast_scalar_init_short(...) \
	(ttk_unused(__VA_ARGS__), TTK_BCAST_INIT)
#define mul_bcast_rows_init_short(...) (ttk_unused(__VA_ARGS__), TTK_BCAST_INIT)
#define mul_bcast_cols_init_short(...) (ttk_unused(__VA_ARGS__), TTK_BCAST_INIT)
#define mul_tiles_bcast_scalar_init_short(...) \
	(ttk_unused(__VA_ARGS__), TTK_BCAST_INIT)

#endif /* TT_COMPUTE_KERNEL_API_BCAST_H */
