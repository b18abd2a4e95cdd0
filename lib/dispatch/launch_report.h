/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reports on a program that went wrong (internal): harts that halted on a
 * fault, and kernels that did not finish in time, named by core, kernel,
 * waypoint and the kernel's own last words (its print ring).
 */
#ifndef TT_LIB_LAUNCH_REPORT_H
#define TT_LIB_LAUNCH_REPORT_H

#include "launch.h"

/* 0 if no hart of l halted, else -EFAULT with a report. */
TT_HIDDEN int tt_launch_report_faults(struct tt_device *dev,
				      const struct tt_launch *l);

/* -ETIMEDOUT with a report of every kernel of l that has not finished. */
TT_HIDDEN int tt_launch_report_hang(struct tt_device *dev,
				    const struct tt_launch *l,
				    unsigned timeout_ms);

#endif /* TT_LIB_LAUNCH_REPORT_H */
