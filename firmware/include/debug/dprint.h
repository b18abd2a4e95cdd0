/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DPRINT(fmt, ...): printf into this hart's print ring (hw/l1.h), which
 * the host copies to its log line by line with the core and hart (libtt,
 * TT_DPRINT=1). Conversions: %d %i %u %x %X %o %c %s %p %% and %f %F %e
 * %E %g %G, with the flags '-' '0' '+' ' ' '#', a width and a precision
 * (also as '*'), and the length modifiers hh h l ll z j t (long is 32-bit,
 * long long 64-bit). No newline is added. A full ring makes the kernel
 * wait until the host has read it.
 *
 * When the host does not read the rings (printing off), DPRINT does
 * nothing and does not evaluate its arguments.
 *
 * TT-Metal's per-thread forms DPRINT_UNPACK/MATH/PACK(x) keep the
 * statement x on the compute hart, DPRINT_DATA0(x) on BRISC and
 * DPRINT_DATA1(x) on NCRISC, and drop it elsewhere.
 */
#ifndef TT_DEBUG_DPRINT_H
#define TT_DEBUG_DPRINT_H

#include "kernel_api/base.h"

__attribute__((format(printf, 1, 2))) void ttk_dprintf(const char *fmt, ...);

#define DPRINT(...)                                            \
	do {                                                   \
		if (ttk_flags() & TT_KCTX_F_PRINT)             \
			ttk_dprintf(__VA_ARGS__);              \
	} while (0)

#if TT_KERNEL_PROC == 2
#define DPRINT_UNPACK(x) x
#define DPRINT_MATH(x) x
#define DPRINT_PACK(x) x
#else
#define DPRINT_UNPACK(x)
#define DPRINT_MATH(x)
#define DPRINT_PACK(x)
#endif
#if TT_KERNEL_PROC == 0
#define DPRINT_DATA0(x) x
#else
#define DPRINT_DATA0(x)
#endif
#if TT_KERNEL_PROC == 1
#define DPRINT_DATA1(x) x
#else
#define DPRINT_DATA1(x)
#endif

#endif /* TT_DEBUG_DPRINT_H */
