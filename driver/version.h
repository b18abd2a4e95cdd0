/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The driver's semantic version, shown in /sys/module/tenstorrent/version.
 *
 * Userspace written for tt-kmd (tt-umd, tt-smi) reads that file and gates
 * features on it, so the number follows tt-kmd's: MAJOR 2 is ioctl API
 * version 2, and MINOR/PATCH name the tt-kmd release whose features this
 * driver provides: 2.10.0 has every command of the ABI, EXPORT_TLB_DMABUF
 * the last (tt-umd uses it from 2.10.0-rc1 on). A suffix ("-pre") marks a
 * driver that does not provide all of the release it names.
 */
#ifndef TT_DRIVER_VERSION_H
#define TT_DRIVER_VERSION_H

#include <linux/stringify.h>

#define TT_DRIVER_VERSION_MAJOR 2
#define TT_DRIVER_VERSION_MINOR 10
#define TT_DRIVER_VERSION_PATCH 0
#define TT_DRIVER_VERSION_SUFFIX ""

#define TT_DRIVER_VERSION_STRING                          \
	__stringify(TT_DRIVER_VERSION_MAJOR) "."          \
	__stringify(TT_DRIVER_VERSION_MINOR) "."          \
	__stringify(TT_DRIVER_VERSION_PATCH) TT_DRIVER_VERSION_SUFFIX

#endif /* TT_DRIVER_VERSION_H */
