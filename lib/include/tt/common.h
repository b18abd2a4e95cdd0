/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libtt conventions shared by every header: the error contract of the
 * whole public API. docs/api.md points here; this is its only statement.
 *
 * Functions return 0 (or a count) on success and a negative errno-style
 * code on failure; tt_last_error() then describes the failure, naming the
 * object involved. A call that fails leaves its objects as they were.
 * Handles are opaque.
 *
 * NULL arguments are caller input, never an assertion, so bindings can
 * pass user input straight through. A NULL handle or a NULL required
 * pointer argument (a data pointer with a nonzero length, an out pointer)
 * fails, and tt_last_error() names the function and the argument,
 * "<function>: <argument> is NULL":
 *   - a function returning int returns -EINVAL;
 *   - a function returning a pointer returns NULL;
 *   - a function returning a plain value returns its neutral value:
 *     false, 0, an all-zero struct or the enum's value 0 (where that
 *     can also be a real answer, a caller who must know checks its
 *     handle first);
 *   - a function returning nothing does nothing.
 * Destructors (close, free) accept NULL and do nothing, leaving
 * tt_last_error() alone. Pointers documented as optional (NULL allowed)
 * are not required; a data pointer with a length of 0 is not required.
 *
 * Every object has one constructor and one destructor with paired names
 * (tt_device_open/tt_device_close, tt_X_create/tt_X_free,
 * tt_dma_buf_alloc/tt_dma_buf_free); TT-Metal's verb-first names such as
 * tt_create_buffer are exported aliases of the canonical constructor.
 * docs/api.md ("Object lifetimes") lists every pair and alias.
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
