/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Devices: enumerate, open, describe.
 *
 * A device is one chip. Where it lives is the transport's business:
 *
 *   kmd       /dev/tenstorrent/N through the kernel driver tenstorrent.ko
 *             (built when libudev is available; lib/README.md)
 *   ttsim     a chip model served by a running `ttsim` daemon
 *   embedded  a chip model started inside this process
 *
 * The environment variable TT_TRANSPORT selects one: "kmd", "ttsim",
 * "embedded", or "sim" (ttsim devices if a daemon runs, else embedded).
 * Unset, libtt uses kmd if the driver has a node in /dev/tenstorrent, else
 * ttsim devices if any daemon publishes some, else the embedded model. The embedded model builds the board named by TT_SIM_BOARD
 * (n150, n300, p150 or e150; default n150).
 *
 * TT_SIM_BOARD set with TT_TRANSPORT unset or "sim" picks the embedded
 * model of that board even if a daemon runs (a daemon's board is the one it
 * was started with). A ttsim device whose daemon died (its socket left
 * behind) is skipped with a warning on stderr, once per process; asked for
 * with TT_TRANSPORT=ttsim, its open fails with -ENODEV naming
 * `ttsim stop NAME`. Every exchange with a daemon gives up after
 * TT_SIM_TIMEOUT_MS (default 5000; -ETIMEDOUT). Once a ttsim device's
 * daemon stops or dies, every call on its handles fails with -ENODEV.
 */
#ifndef TT_DEVICE_H
#define TT_DEVICE_H

#include "common.h"

typedef struct tt_device tt_device;

enum tt_arch {
	TT_ARCH_UNKNOWN = 0,
	TT_ARCH_GRAYSKULL = 1,
	TT_ARCH_WORMHOLE_B0 = 2,
	TT_ARCH_BLACKHOLE = 3,
};

/* What sits at a grid node. */
enum tt_core_type {
	TT_CORE_NONE = 0,
	TT_CORE_TENSIX = 1,
	TT_CORE_ETH = 2,
	TT_CORE_DRAM = 3,
	TT_CORE_PCIE = 4,
	TT_CORE_ARC = 5,
	TT_CORE_ROUTER = 6,
	TT_CORE_SECURITY = 7,
	TT_CORE_L2CPU = 8,
};

struct tt_device_info {
	unsigned index; /* as passed to tt_device_open() */
	const char *transport; /* "embedded", "ttsim" or "kmd" */
	const char *name; /* "embedded0", ttsim device name, or node path */
	enum tt_arch arch;
	const char *arch_name; /* "wormhole_b0", ... */
	const char *board; /* "n150", ... */
	unsigned chip; /* position on the board */
	const char *soc_name; /* SoC descriptor */
	unsigned grid_x, grid_y; /* NOC grid */
	unsigned tensix_count; /* enabled Tensix cores */
	uint64_t l1_size; /* bytes of L1 per Tensix core */
	unsigned dram_channels;
	uint64_t dram_channel_size; /* bytes */
	uint64_t dram_size; /* bytes, all channels */
};

/* Number of devices the selected transport offers. */
TT_API int tt_device_count(unsigned *count);

/*
 * Open device `index` (0-based, < tt_device_count()). Several opens of the
 * same device, in one process or several, see the same chip.
 * Returns 0 and a handle for tt_device_close(), or -ENODEV (no such
 * device, or a ttsim device whose daemon died), -EINVAL (bad
 * TT_TRANSPORT/TT_SIM_BOARD/TT_SIM_TIMEOUT_MS), -ETIMEDOUT (a ttsim
 * daemon did not answer), -EUSERS (a ttsim daemon serves too many
 * clients), or another error.
 */
TT_API int tt_device_open(unsigned index, tt_device **out);

/* Close a device. DMA buffers not yet freed lose their memory (their data
 * pointer reads NULL) and must still be freed. NULL is ignored. */
TT_API void tt_device_close(tt_device *dev);

/* Description of an open device; owned by the handle. */
TT_API const struct tt_device_info *tt_device_get_info(const tt_device *dev);

/* What sits at NOC 0 coordinates (x, y); TT_CORE_NONE outside the grid. */
TT_API enum tt_core_type tt_device_core_type(const tt_device *dev, unsigned x,
					      unsigned y);

/* Is the node at (x, y) harvested (fused off)? */
TT_API bool tt_device_core_harvested(const tt_device *dev, unsigned x,
				     unsigned y);

/*
 * NOC 0 coordinates of enabled Tensix core `logical` (row-major order over
 * enabled cores, 0 .. tensix_count - 1). -EINVAL if out of range.
 */
TT_API int tt_device_tensix_core(const tt_device *dev, unsigned logical,
				 struct tt_xy *out);

/* NOC 0 coordinates of a DRAM channel's endpoint `port`. */
TT_API int tt_device_dram_core(const tt_device *dev, unsigned channel,
			       unsigned port, struct tt_xy *out);

/* NOC 0 coordinates of the PCIe core (host interface). */
TT_API int tt_device_pcie_core(const tt_device *dev, struct tt_xy *out);

/* Name of a core type ("tensix", ...). */
TT_API const char *tt_core_type_name(enum tt_core_type t);

/* A refused device access, as recorded by the device. */
struct tt_device_error {
	unsigned code; /* device error code */
	char message[192]; /* one line, e.g. "NOC 0 write by host to ..." */
};

/*
 * Device errors recorded since this handle last asked (at most `max`, the
 * oldest first; older ones may have been overwritten). Returns the number
 * stored in out, or a negative error.
 */
TT_API int tt_device_errors(tt_device *dev, struct tt_device_error *out,
			    unsigned max);

/*
 * Processes that have the device open, this one included: their pids, at
 * most max of them stored in pids (may be NULL when max is 0), in no
 * particular order. Returns how many there are (may exceed max), or a
 * negative error. The embedded model is only ever open in this process.
 * A process is counted once however many handles it holds; the list is a
 * snapshot, so processes that come or go meanwhile may or may not be in
 * it. -EINVAL if pids is NULL while max is not 0.
 */
TT_API int tt_device_processes(tt_device *dev, int *pids, unsigned max);

#endif /* TT_DEVICE_H */
