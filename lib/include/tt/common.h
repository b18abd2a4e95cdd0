/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libtt conventions shared by every header.
 *
 * Functions return 0 (or a count) on success and a negative errno-style
 * code on failure; tt_last_error() then describes the failure, naming the
 * object involved. Handles are opaque. Passing NULL where a handle is
 * required is a programming error (assert); destroy/close functions accept
 * NULL. A call that fails leaves its objects as they were.
 */
#ifndef TT_COMMON_API_H
#define TT_COMMON_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define TT_EXTERN_C extern "C"
#else
#define TT_EXTERN_C
#endif

#define TT_API TT_EXTERN_C __attribute__((visibility("default")))

/* A node of the NOC grid, in NOC 0 coordinates unless a call says so. */
struct tt_xy {
	unsigned x, y;
};

/*
 * Message describing the last failure of a libtt call in this thread.
 * Valid until the next failing call in the same thread; never NULL.
 * Thread-safety: per thread.
 */
TT_API const char *tt_last_error(void);

#endif /* TT_COMMON_API_H */
