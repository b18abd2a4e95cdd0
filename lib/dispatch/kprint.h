/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel print rings (hw/l1.h struct tt_print_ring), host side: copying
 * kernels' DPRINT output to the host log, one line at a time, each line
 * prefixed with the device, core and processor it came from.
 *
 * Printing is on for every core when TT_DPRINT is set to anything but
 * "0", and only for the cores TT_DPRINT_CORES selects when that is set
 * (TT-Metal's TT_METAL_DPRINT_CORES is read as its synonym; see
 * kprint_cores.c); output goes to stderr, or to the file TT_DPRINT_FILE
 * names (appended). Kernels' error reports go through the same rings and
 * are read whether printing is on or not.
 */
#ifndef TT_LIB_KPRINT_H
#define TT_LIB_KPRINT_H

#include "launch.h"

TT_HIDDEN bool tt_kprint_enabled(void);
/* CB misuse checks in kernels: TT_CB_CHECKS set to anything but "0". */
TT_HIDDEN bool tt_kprint_cb_checks(void);

/* Copy the complete lines waiting in the rings of l's harts to the log. */
TT_HIDDEN void tt_kprint_drain(struct tt_device *dev,
			       const struct tt_launch *l);

/* The unread text of one hart's ring (at most len - 1 bytes, the latest
 * ones, NUL-terminated; "" if none or unreadable). */
TT_HIDDEN void tt_kprint_peek(struct tt_device *dev, struct tt_xy core,
			      unsigned hart, char *buf, size_t len);

#endif /* TT_LIB_KPRINT_H */
