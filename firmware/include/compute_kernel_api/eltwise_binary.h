/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Element-wise binary operations on the matrix unit (TT-Metal's
 * tt_metal/hw/inc/api/compute/eltwise_binary.h):
 * DST[idst] = tile i0 of cb0 <op> tile i1 of cb1.
 *
 *   add_tiles(cb0, cb1, i0, i1, idst), sub_tiles (cb0 - cb1), mul_tiles
 *   add_tiles_init(cb0, cb1[, acc_to_dest]), sub_tiles_init, mul_tiles_init
 *   add_init([cb0, cb1[, acc_to_dest]])   the same as add_tiles_init
 *
 * With acc_to_dest the result is added to DST[idst] instead (until the
 * next *_tiles_init). Add and sub ignore the math fidelity; mul uses it.
 */
#ifndef TT_COMPUTE_KERNEL_API_ELTWISE_BINARY_H
#define TT_COMPUTE_KERNEL_API_ELTWISE_BINARY_H

#include "compute_kernel_api/common.h"

/* TT_TX_F_ACC while an init asked for accumulation (kernel/kruntime.c). */
extern uint32_t ttk_eltwise_flags;

static inline void ttk_eltwise(uint32_t sub, uint32_t flags, uint32_t cb0,
			       uint32_t cb1, uint32_t i0, uint32_t i1,
			       uint32_t idst, const char *op)
{
	ttk_dst_check(op, idst, 1);
	ttk_operand(0, cb0, i0, op);
	ttk_operand(1, cb1, i1, op);
	ttk_tx_set(TT_TX_DST, idst);
	ttk_tx_run(TT_TX_ELTWISE, sub, flags | ttk_eltwise_flags);
}

static inline void add_tiles(uint32_t cb0, uint32_t cb1, uint32_t i0,
			     uint32_t i1, uint32_t idst)
{
	ttk_eltwise(TT_TX_ADD, 0, cb0, cb1, i0, i1, idst, "add_tiles");
}

static inline void sub_tiles(uint32_t cb0, uint32_t cb1, uint32_t i0,
			     uint32_t i1, uint32_t idst)
{
	ttk_eltwise(TT_TX_SUB, 0, cb0, cb1, i0, i1, idst, "sub_tiles");
}

static inline void mul_tiles(uint32_t cb0, uint32_t cb1, uint32_t i0,
			     uint32_t i1, uint32_t idst)
{
	ttk_eltwise(TT_TX_MUL, 0, cb0, cb1, i0, i1, idst, "mul_tiles");
}

static inline void ttk_binary_init(uint32_t acc)
{
	ttk_eltwise_flags = acc ? TT_TX_F_ACC : 0;
	ttk_compute_init();
}

#define TTK_BINARY_INIT_2(cb0, cb1) ((void)(cb0), (void)(cb1), ttk_binary_init(0))
#define TTK_BINARY_INIT_3(cb0, cb1, acc) \
	((void)(cb0), (void)(cb1), ttk_binary_init(acc))
#define add_tiles_init(...) TTK_OVERLOAD(TTK_BINARY_INIT_, __VA_ARGS__)
#define sub_tiles_init(...) TTK_OVERLOAD(TTK_BINARY_INIT_, __VA_ARGS__)
#define mul_tiles_init(...) TTK_OVERLOAD(TTK_BINARY_INIT_, __VA_ARGS__)
/* add_init([cb0, cb1[, acc_to_dest]]): add_tiles_init by a shorter name. */
#define add_init(...) TTK_OVERLOAD(TTK_ADD_INIT_, __VA_ARGS__)
#define TTK_ADD_INIT_0() ttk_binary_init(0)
#define TTK_ADD_INIT_2(cb0, cb1) TTK_BINARY_INIT_2(cb0, cb1)
#define TTK_ADD_INIT_3(cb0, cb1, acc) TTK_BINARY_INIT_3(cb0, cb1, acc)
#define add_tiles_init_nof() ttk_binary_init(0)
#define sub_tiles_init_nof() ttk_binary_init(0)
#define mul_tiles_init_f() ttk_binary_init(0)

#endif /* TT_COMPUTE_KERNEL_API_ELTWISE_BINARY_H */
