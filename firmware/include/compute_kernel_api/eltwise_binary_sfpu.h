/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Element-wise operations of two DST tiles on the vector unit, in fp32:
 * DST[idst0] = DST[idst0] <op> DST[idst1] (TT-Metal's
 * tt_metal/hw/inc/api/compute/eltwise_binary_sfpu.h).
 *
 *   add_binary_tile sub_binary_tile (d0 - d1) rsub_binary_tile (d1 - d0)
 *   mul_binary_tile div_binary_tile power_binary_tile (d0^d1)
 *   binary_max_tile binary_min_tile     (idst0, idst1)
 *
 * TT-Metal's newer three-argument form (idst0, idst1, odst) is accepted
 * when odst == idst0 (reported otherwise). Each has <name>_init().
 */
#ifndef TT_COMPUTE_KERNEL_API_ELTWISE_BINARY_SFPU_H
#define TT_COMPUTE_KERNEL_API_ELTWISE_BINARY_SFPU_H

#include "compute_kernel_api/common.h"

__attribute__((noreturn)) void ttk_sfpu_odst_fail(const char *op,
						  uint32_t idst0,
						  uint32_t odst);

static inline void ttk_sfpu_binary(uint32_t sub, uint32_t d0, uint32_t d1,
				   uint32_t odst, const char *op)
{
	ttk_dst_check(op, d0, 1);
	ttk_dst_check(op, d1, 1);
	if (TTK_UNLIKELY(odst != d0))
		ttk_sfpu_odst_fail(op, d0, odst);
	ttk_tx_set(TT_TX_DST, d0);
	ttk_tx_set(TT_TX_ARG0, d1);
	ttk_tx_run(TT_TX_SFPU_BINARY, sub, 0);
}

#define TTK_SFPU_BINARY(name, sub)                                           \
	static inline void ttk_##name(uint32_t d0, uint32_t d1, uint32_t o)  \
	{                                                                    \
		ttk_sfpu_binary(sub, d0, d1, o, #name);                      \
	}                                                                    \
	static inline void name##_init(void)                                 \
	{                                                                    \
		ttk_compute_init();                                          \
	}

TTK_SFPU_BINARY(add_binary_tile, TT_TX_ADD)
TTK_SFPU_BINARY(sub_binary_tile, TT_TX_SUB)
TTK_SFPU_BINARY(rsub_binary_tile, TT_TX_RSUB)
TTK_SFPU_BINARY(mul_binary_tile, TT_TX_MUL)
TTK_SFPU_BINARY(div_binary_tile, TT_TX_DIV)
TTK_SFPU_BINARY(power_binary_tile, TT_TX_POW)
TTK_SFPU_BINARY(binary_max_tile, TT_TX_MAX)
TTK_SFPU_BINARY(binary_min_tile, TT_TX_MIN)

#define TTK_SFPU_BINARY_2(fn, d0, d1) fn((d0), (d1), (d0))
#define TTK_SFPU_BINARY_3(fn, d0, d1, o) fn((d0), (d1), (o))
#define TTK_SFPU_BINARY_CALL(fn, ...) \
	TTK_CAT(TTK_SFPU_BINARY_, TTK_NARG(__VA_ARGS__))(fn, __VA_ARGS__)
#define add_binary_tile(...) TTK_SFPU_BINARY_CALL(ttk_add_binary_tile, __VA_ARGS__)
#define sub_binary_tile(...) TTK_SFPU_BINARY_CALL(ttk_sub_binary_tile, __VA_ARGS__)
#define rsub_binary_tile(...) \
	TTK_SFPU_BINARY_CALL(ttk_rsub_binary_tile, __VA_ARGS__)
#define mul_binary_tile(...) TTK_SFPU_BINARY_CALL(ttk_mul_binary_tile, __VA_ARGS__)
#define div_binary_tile(...) TTK_SFPU_BINARY_CALL(ttk_div_binary_tile, __VA_ARGS__)
#define power_binary_tile(...) \
	TTK_SFPU_BINARY_CALL(ttk_power_binary_tile, __VA_ARGS__)
#define binary_max_tile(...) TTK_SFPU_BINARY_CALL(ttk_binary_max_tile, __VA_ARGS__)
#define binary_min_tile(...) TTK_SFPU_BINARY_CALL(ttk_binary_min_tile, __VA_ARGS__)

#endif /* TT_COMPUTE_KERNEL_API_ELTWISE_BINARY_SFPU_H */
