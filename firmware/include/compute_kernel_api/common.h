/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The compute API's base: the tile coprocessor (hw/tensix.h) as the
 * compute hart drives it, the kernel's math configuration, DST, and the
 * init calls.
 *
 * One compute hart stands for TT-Metal's three TRISCs: every call does
 * its unpack, math and pack parts in order, by writing the coprocessor's
 * operand registers and then its command register. Operands are tiles in
 * CBs: tile i of a CB is at its read pointer + i * get_tile_size(cb), a
 * result goes to its write pointer (kernel_api/cb.h).
 *
 * The build defines MATH_FIDELITY (0 LoFi, 2 HiFi2, 3 HiFi3, 4 HiFi4),
 * DST_ACCUM_MODE (1: fp32 DST), APPROX (1: approximate vector functions)
 * and DST_SYNC_FULL (1: the whole DST at once); the runtime programs the
 * coprocessor's CFG from them before kernel_main(), and every init call
 * does again. Usable DST tiles (TTK_DST_TILES): 8 in 16-bit mode and 4
 * with fp32, twice that with DST_SYNC_FULL. A DST index beyond them is
 * reported (always) and halts the kernel.
 *
 * Init calls take TT-Metal's arguments; apart from CFG they have nothing
 * to set up, since every operation names its operands in full.
 */
#ifndef TT_COMPUTE_KERNEL_API_COMMON_H
#define TT_COMPUTE_KERNEL_API_COMMON_H

#include "kernel_api/args.h"
#include "kernel_api/cb.h"
#include "debug/assert.h"
#include "debug/dprint.h"
#include "debug/waypoint.h"

#ifndef MATH_FIDELITY
#define MATH_FIDELITY 4
#endif
#ifndef DST_ACCUM_MODE
#define DST_ACCUM_MODE 0
#endif
#ifndef APPROX
#define APPROX 0
#endif
#ifndef DST_SYNC_FULL
#define DST_SYNC_FULL 0
#endif

/* TT-Metal's MathFidelity values. */
enum { LoFi = 0, HiFi2 = 2, HiFi3 = 3, HiFi4 = 4 };

#define TTK_DST_TILES                                                     \
	((DST_ACCUM_MODE ? TT_DST_TILES_32 : TT_DST_TILES_16) /           \
	 (DST_SYNC_FULL ? 1u : 2u))
#define TTK_TX_CFG                                                        \
	((DST_ACCUM_MODE ? TT_TX_CFG_FP32_DST : 0u) |                     \
	 TT_FIELD_PREP(TT_TX_CFG_FIDELITY_MASK, (uint32_t)(MATH_FIDELITY)) | \
	 (APPROX ? TT_TX_CFG_APPROX : 0u))

/* What kruntime.c programs before kernel_main() (it links this weakly:
 * data-movement kernels have none). */
struct ttk_compute_config {
	uint32_t cfg;
	uint32_t dst_tiles;
};
#if TT_KERNEL_PROC == 2
__attribute__((used)) const struct ttk_compute_config ttk_compute_config = {
	TTK_TX_CFG, TTK_DST_TILES
};
#endif

/* ---- coprocessor registers ---- */

/* Last value written to each register up to TT_TX_ARG3 (~0: unknown), so
 * unchanged operands are not written again (kernel/kruntime.c). */
extern uint32_t ttk_tx_shadow[TT_TX_ARG3 / 4 + 1];

static inline volatile uint32_t *ttk_tx_reg(uint32_t off)
{
	return (volatile uint32_t *)(uintptr_t)(TT_REG_TENSIX_ADDR + off);
}

static inline void ttk_tx_set(uint32_t off, uint32_t val)
{
	if (ttk_tx_shadow[off / 4] != val) {
		ttk_tx_shadow[off / 4] = val;
		*ttk_tx_reg(off) = val;
	}
}

/* Run a command; it is done when the store returns. */
static inline void ttk_tx_run(uint32_t op, uint32_t sub, uint32_t flags)
{
	*ttk_tx_reg(TT_TX_CMD) = TT_TX_COMMAND(op, sub, flags);
}

/* ---- DST ---- */

__attribute__((noreturn)) void ttk_dst_fail(const char *op, uint32_t idst,
					    uint32_t n, uint32_t usable);

/* DST tiles [idst, idst + n) must be usable. */
static inline void ttk_dst_check(const char *op, uint32_t idst, uint32_t n)
{
	if (TTK_UNLIKELY(idst >= TTK_DST_TILES || n > TTK_DST_TILES - idst))
		ttk_dst_fail(op, idst, n, TTK_DST_TILES);
}

/* ---- operands ---- */

/* With CB checks: cb configured, tile itile of its front available and
 * inside the FIFO (kernel/kcompute.c). */
void ttk_cb_check_tile(uint32_t cb, uint32_t itile, const char *op);
/* With CB checks: page `page` of the back reserved (kernel/kcompute.c). */
void ttk_cb_check_pack(uint32_t cb, uint32_t page, const char *op);

/* Tile itile of cb's front as operand A (a_or_b 0) or B (1). */
static inline void ttk_operand(uint32_t a_or_b, uint32_t cb, uint32_t itile,
			       const char *op)
{
	const struct ttk_cb *c = ttk_cb_of(cb);

	if (ttk_cb_checks())
		ttk_cb_check_tile(cb, itile, op);
	*ttk_tx_reg(a_or_b ? TT_TX_B_ADDR : TT_TX_A_ADDR) =
		c->rd_ptr + itile * c->tile_size;
	ttk_tx_set(a_or_b ? TT_TX_B_FMT : TT_TX_A_FMT, c->format);
}

/* ---- init calls ---- */

static inline void ttk_compute_init(void)
{
	ttk_tx_set(TT_TX_CFG, TTK_TX_CFG);
}

#define compute_kernel_hw_startup(...) \
	TTK_OVERLOAD(ttk_compute_kernel_hw_startup_, __VA_ARGS__)
#define ttk_compute_kernel_hw_startup_2(icb, ocb) \
	((void)(icb), (void)(ocb), ttk_compute_init())
#define ttk_compute_kernel_hw_startup_3(icb0, icb1, ocb) \
	((void)(icb0), (void)(icb1), (void)(ocb), ttk_compute_init())

static inline void binary_op_init_common(uint32_t icb0, uint32_t icb1,
					 uint32_t ocb)
{
	(void)icb0;
	(void)icb1;
	(void)ocb;
	ttk_compute_init();
}

static inline void unary_op_init_common(uint32_t icb, uint32_t ocb)
{
	(void)icb;
	(void)ocb;
	ttk_compute_init();
}

static inline void init_sfpu(uint32_t icb, uint32_t ocb)
{
	unary_op_init_common(icb, ocb);
}

/* Formats travel with every operand: the reconfig calls only reprogram
 * CFG. */
static inline void pack_reconfig_data_format(uint32_t ocb)
{
	(void)ocb;
	ttk_compute_init();
}

#define reconfig_data_format(...) \
	TTK_OVERLOAD(ttk_reconfig_data_format_, __VA_ARGS__)
#define ttk_reconfig_data_format_2(a, b) \
	((void)(a), (void)(b), ttk_compute_init())
#define ttk_reconfig_data_format_4(a0, a, b0, b) \
	((void)(a0), (void)(a), (void)(b0), (void)(b), ttk_compute_init())

#define reconfig_data_format_srca(...) \
	(ttk_unused(__VA_ARGS__), ttk_compute_init())
#define reconfig_data_format_srcb(...) \
	(ttk_unused(__VA_ARGS__), ttk_compute_init())

#endif /* TT_COMPUTE_KERNEL_API_COMMON_H */
