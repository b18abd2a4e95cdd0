/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Recovery of cores a program left hung or halted (internal,
 * docs/dispatch.md "Recovery"): a failed wait marks the cores it leaves
 * busy with what failed; the next launch on such a core restarts the
 * firmware of its harts and clears what the launch protocol relies on,
 * without a chip reset. A core found busy by a runtime whose process just
 * took the chip over from a dead owner is recovered the same way.
 */
#ifndef TT_LIB_RECOVER_H
#define TT_LIB_RECOVER_H

#include "launch.h"

struct tt_runtime;

/* What made a core need recovery; why[0] == 0: nothing. */
struct tt_core_failure {
	char why[192];
};

/* After tt_launch_wait failed with err (-ETIMEDOUT or -EFAULT): mark the
 * cores of l whose harts did not finish. Keeps tt_last_error(). */
TT_HIDDEN void tt_recover_mark(struct tt_device *dev, const struct tt_launch *l,
			       int err);

/* Before a launch (rt->lock held): recover the marked cores of l. -EBUSY names the core and
 * the earlier failure if a recovery fails. */
TT_HIDDEN int tt_recover_launch_cores(struct tt_device *dev,
				      struct tt_runtime *rt,
				      const struct tt_launch *l);

/* Restart every hart of core, clear its launch state and forget what the
 * runtime knew of it (and the launch plan); why says what it needs
 * recovery after (for the -EBUSY message). */
TT_HIDDEN int tt_recover_core(struct tt_device *dev, struct tt_runtime *rt,
			      struct tt_xy core, const char *why);

#endif /* TT_LIB_RECOVER_H */
