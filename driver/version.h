/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The driver's semantic version, shown in /sys/module/tenstorrent/version.
 *
 * Userspace written for tt-kmd (tt-umd, tt-smi) reads that file and gates
 * features on it, so the number follows tt-kmd's: MAJOR 2 is ioctl API
 * version 2, and MINOR/PATCH are raised to the tt-kmd release whose features
 * this driver provides as they land. The suffix marks a driver that does
 * not yet provide all of 2.0.0.
 */
#ifndef TT_DRIVER_VERSION_H
#define TT_DRIVER_VERSION_H

#include <linux/stringify.h>

#define TT_DRIVER_VERSION_MAJOR 2
#define TT_DRIVER_VERSION_MINOR 0
#define TT_DRIVER_VERSION_PATCH 0
#define TT_DRIVER_VERSION_SUFFIX "-pre"

#define TT_DRIVER_VERSION_STRING                          \
	__stringify(TT_DRIVER_VERSION_MAJOR) "."          \
	__stringify(TT_DRIVER_VERSION_MINOR) "."          \
	__stringify(TT_DRIVER_VERSION_PATCH) TT_DRIVER_VERSION_SUFFIX

#endif /* TT_DRIVER_VERSION_H */
