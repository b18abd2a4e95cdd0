/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every kernel API header builds on: which hart the kernel is built
 * for, the runtime's state (kernel/kruntime.c fills it from the hart's
 * struct tt_kernel_ctx before kernel_main() runs), error reports, and the
 * helper that lets one C name take TT-Metal's optional trailing
 * arguments.
 *
 * Kernels are C and provide `void kernel_main(void)`. libtt builds them
 * with TT_KERNEL_PROC = 0 (BRISC), 1 (NCRISC) or 2 (COMPUTE), see
 * docs/kernels.md.
 */
#ifndef TT_KERNEL_API_BASE_H
#define TT_KERNEL_API_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/hart.h"
#include "hw/l1.h"
#include "hw/tensix.h"

#ifndef TT_KERNEL_PROC
#if defined(COMPILE_FOR_BRISC)
#define TT_KERNEL_PROC 0
#elif defined(COMPILE_FOR_NCRISC)
#define TT_KERNEL_PROC 1
#elif defined(COMPILE_FOR_TRISC)
#define TT_KERNEL_PROC 2
#elif defined(TTK_LIBRARY)
/* The runtime library (kernel/): built once for every hart. */
#define TT_KERNEL_PROC (-1)
#else
#error "kernels are built with TT_KERNEL_PROC=0|1|2 (BRISC, NCRISC, COMPUTE)"
#endif
#endif

#ifndef NOC_INDEX
#define NOC_INDEX 0
#endif

/* The kernel's entry point. */
void kernel_main(void);

/*
 * Optional trailing arguments: NAME(...) calls NAME_<number of
 * arguments>(...), so get_noc_addr(x, y, addr) and get_noc_addr(x, y,
 * addr, noc) can both exist. Zero arguments count as 0 (__VA_OPT__: GCC
 * has it in every C mode).
 */
#define TTK_NARG(...) \
	TTK_NARG_(_0 __VA_OPT__(, ) __VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define TTK_NARG_(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, n, ...) n
#define TTK_CAT(a, b) TTK_CAT_(a, b)
#define TTK_CAT_(a, b) a##b
#define TTK_OVERLOAD(name, ...) TTK_CAT(name, TTK_NARG(__VA_ARGS__))(__VA_ARGS__)

/* Evaluates and drops TT-Metal arguments that mean nothing here. */
static inline void ttk_unused(uint32_t first, ...)
{
	(void)first;
}

/*
 * TT-Metal's names for kernel code:
 *   tt_l1_ptr      marks a pointer into L1 (TT-Metal's compiler uses it
 *                  for its own address spaces); nothing here: every
 *                  pointer of a kernel is into L1
 *   FORCE_INLINE   inline and always inlined, as TT-Metal defines them;
 *   ALWI           "static FORCE_INLINE" works too (C makes no external
 *                  copy of a plain inline definition: no addresses)
 *   memcpy, memset, memmove, memcmp, strlen: libttk.a's (declared here,
 *                  no <string.h> needed; kernels have no C library)
 */
#define tt_l1_ptr
#define FORCE_INLINE inline __attribute__((always_inline))
#define ALWI inline __attribute__((always_inline))

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

#define TTK_LIKELY(x) __builtin_expect(!!(x), 1)
#define TTK_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Order memory accesses before and after, for the compiler and the hart:
 * data in L1 against the counters and commands that publish it. */
static inline void ttk_fence(void)
{
	__asm__ volatile("fence rw, rw" ::: "memory");
}

/* One circular buffer as this hart sees it (kernel_api/cb.h). Byte
 * addresses; the counters themselves are registers (hw/tensix.h). */
struct ttk_cb {
	uint32_t rd_ptr; /* front: oldest page not yet popped */
	uint32_t wr_ptr; /* back: first page not yet pushed */
	uint32_t fifo_start;
	uint32_t fifo_limit; /* fifo_start + size */
	uint32_t page_size;
	uint32_t num_pages;
	uint32_t tile_size; /* of its data format, for the compute API */
	uint32_t format;
	uint32_t pack_next; /* page of the next pack_tile() since a push */
	uint32_t reserved; /* pages granted and not pushed (CB checks) */
};

/* Runtime state (kernel/kruntime.c). The launch's context is read where
 * it is used, not copied at start: every hart of a program pays for the
 * start, few kernels read more than a field or two. */
extern const struct tt_kernel_ctx *ttk_ctx;
extern bool ttk_logical_known; /* ttk_logical_x/y looked up */
extern uint32_t ttk_logical_x, ttk_logical_y;
void ttk_find_logical(void);
extern struct ttk_cb ttk_cb[TT_CB_COUNT];

static inline uint32_t ttk_flags(void) /* TT_KCTX_F_* */
{
	return ttk_ctx->flags;
}

static inline uint32_t ttk_cb_mask(void)
{
	return ttk_ctx->cb_mask;
}

/* The unique (common = false) or common runtime arguments. */
static inline const uint32_t *ttk_args(bool common)
{
	return (const uint32_t *)(uintptr_t)(common ? ttk_ctx->crta :
						      ttk_ctx->rta);
}

static inline uint32_t ttk_arg_count(bool common)
{
	return common ? ttk_ctx->crta_count : ttk_ctx->rta_count;
}

/* The bank table (hw/l1.h), trusted no further than its bounds. */
static inline const volatile struct tt_bank_table *ttk_bank_table(void)
{
	return (const volatile struct tt_bank_table *)(uintptr_t)TT_L1_BANKS;
}

/* Interleaved banks of DRAM or L1; 0 if the table claims too many. */
static inline uint32_t ttk_bank_count(bool is_dram)
{
	const volatile struct tt_bank_table *t = ttk_bank_table();
	uint32_t n = is_dram ? t->dram_banks : t->l1_banks;

	return n <= (is_dram ? TT_BANKS_MAX_DRAM : TT_BANKS_MAX_L1) ? n : 0;
}

/* TT-Metal's names: the kernel's default NOC, and this core's NOC
 * coordinates indexed by NOC. Both entries hold NOC 0 coordinates: kernels
 * speak NOC 0 coordinates on either NOC (kernel_api/noc.h). */
extern uint8_t noc_index;
extern uint8_t my_x[2], my_y[2];

/*
 * Report an error and halt: the message goes to this hart's print ring
 * (even when printing is off), the waypoint becomes "ERR!", then the hart
 * stops on ebreak for the host to read both (docs/kernels.md).
 */
__attribute__((noreturn, format(printf, 1, 2))) void
ttk_fatal(const char *fmt, ...);

#endif /* TT_KERNEL_API_BASE_H */
