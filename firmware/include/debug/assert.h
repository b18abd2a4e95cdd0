/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ASSERT(cond): if cond is false, report "assert failed: <cond> at
 * <file>:<line>" and halt (the error report of kernel_api/base.h). Always
 * compiled in; define TT_KERNEL_NO_ASSERT to drop the checks.
 */
#ifndef TT_DEBUG_ASSERT_H
#define TT_DEBUG_ASSERT_H

#include "kernel_api/base.h"

__attribute__((noreturn)) void ttk_assert_fail(const char *cond,
					       const char *file,
					       unsigned line);

#ifdef TT_KERNEL_NO_ASSERT
#define ASSERT(cond) ((void)0)
#else
#define ASSERT(cond)                                                  \
	do {                                                          \
		if (TTK_UNLIKELY(!(cond)))                            \
			ttk_assert_fail(#cond, __FILE__, __LINE__);   \
	} while (0)
#endif

#endif /* TT_DEBUG_ASSERT_H */
