/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inside the kernel runtime library (libttk.a): state and helpers its
 * files share. The library is built once for all harts, so it learns its
 * hart at run time (ttk_hart) where kernels use TT_KERNEL_PROC.
 */
#ifndef TT_KERNEL_KINTERNAL_H
#define TT_KERNEL_KINTERNAL_H

#include <stdarg.h>

#include "kernel_api/base.h"
#include "debug/waypoint.h"
#include "fw/mmio.h"
#include "fw/wait.h"

extern uint32_t ttk_hart; /* enum tt_tensix_hart of this hart */

/* The waypoint word of this hart's mailbox. */
static inline void ttk_set_waypoint(uint32_t word)
{
	volatile struct tt_mailbox *mb =
		(volatile struct tt_mailbox *)TT_L1_MAILBOX_ADDR(ttk_hart);

	mb->waypoint = word;
}

#define TTK_SET_WAYPOINT(s) ttk_set_waypoint(TTK_WAYPOINT_WORD("" s ""))

/* knoc.c: everything issued done and checked, after the kernel ran (only
 * needed when a NOC is ready: one the kernel never used has nothing in
 * flight). */
void ttk_noc_teardown(void);

/* kreport.c: the print ring. ttk_ring_write() appends bytes, waiting
 * while the ring is full. */
void ttk_ring_write(const char *s, uint32_t n);

/* *v /= 10, returning the remainder, in 32-bit arithmetic. */
uint32_t ttk_divmod10(uint64_t *v);

#endif /* TT_KERNEL_KINTERNAL_H */
