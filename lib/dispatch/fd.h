/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fast dispatch, host side (internal; hw/dispatch.h, docs/dispatch.md):
 * the issue and completion rings in a DMA buffer, the dispatcher on the
 * device's dispatch core, and commands appended for it.
 *
 * Everything here runs under the runtime's lock (runtime.h).
 */
#ifndef TT_LIB_FD_H
#define TT_LIB_FD_H

#include "lib/device/internal.h"

struct tt_runtime;

/* Is fast dispatch the mode of this process (TT_DISPATCH: fast, the
 * default, or slow)? 0 and *fast, or -EINVAL naming a bad value. */
TT_HIDDEN int tt_fd_wanted(bool *fast);

/* Make sure the dispatcher runs (starting it on first use, or again after
 * it stopped); 0 or an error naming the dispatch core. */
TT_HIDDEN int tt_fd_ready(struct tt_device *dev, struct tt_runtime *rt);

/* Build the fast dispatcher's firmware kernel (found in the kernel cache
 * or a served kernel set when it can be): what an image must carry for a
 * host without the compiler to dispatch at all. */
TT_HIDDEN int tt_fd_build_dispatcher(void);

/* Append a WRITE of data to the rectangle a..b (a tt_wemit_fn; ctx is
 * the device). */
TT_HIDDEN int tt_fd_write(void *dev, struct tt_xy a, struct tt_xy b,
			  uint32_t addr, const void *data, uint32_t len);

/* Append WAIT for `counts` more completions (hw/l1.h notify_addr) and a
 * DONE; publish the commands. *done_pos gets the position tt_fd_poll
 * compares with. */
TT_HIDDEN int tt_fd_finish_launch(struct tt_device *dev, unsigned counts,
				  uint32_t *done_pos);

/* 1 once the dispatcher completed everything up to done_pos, 0 if not
 * yet. Reads host memory only: cheap enough for every poll. */
TT_HIDDEN int tt_fd_poll(struct tt_device *dev, uint32_t done_pos);

/* 0, or -EFAULT (message set) if the dispatcher halted: it will complete
 * nothing more. Reads the device: for periodic checks. */
TT_HIDDEN int tt_fd_check(struct tt_device *dev);

/* The dispatcher will not complete what it has (a worker hung or
 * faulted): start over with a fresh one at the next launch. */
TT_HIDDEN void tt_fd_abandon(struct tt_device *dev);

/* Stop the dispatcher and free the rings (device close). */
TT_HIDDEN void tt_fd_destroy(struct tt_device *dev);

/* The counter the workers of a fast launch count into. */
TT_HIDDEN void tt_fd_notify_target(struct tt_device *dev, struct tt_xy *core,
				   uint32_t *addr);

#endif /* TT_LIB_FD_H */
