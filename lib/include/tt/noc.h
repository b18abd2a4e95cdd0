/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host access to device memory over the NOC, through the device's host
 * windows (TLB windows on a card; emulated ones on the chip model).
 *
 * Transfers may have any size and alignment. `noc` is 0 or 1; coordinates
 * are those of the chosen NOC. An access the device refuses (no node,
 * harvested node, unmapped address, past the end of a memory) fails with
 * -EFAULT and the device's own description in tt_last_error(); it is also
 * in the device error log (tt_device_errors()). Nothing is written then.
 *
 * Thread-safety: calls on one device may come from several threads.
 */
#ifndef TT_NOC_H
#define TT_NOC_H

#include "device.h"

/* Copy len bytes from src to local address addr of node (x, y). */
TT_API int tt_noc_write(tt_device *dev, unsigned noc, unsigned x, unsigned y,
			uint64_t addr, const void *src, size_t len);

/* Copy len bytes from local address addr of node (x, y) to dst. */
TT_API int tt_noc_read(tt_device *dev, unsigned noc, unsigned x, unsigned y,
		       uint64_t addr, void *dst, size_t len);

/*
 * Write src to addr of every enabled Tensix core in the rectangle with
 * corners `start` and `end` (inclusive; coordinates of `noc`). Other kinds
 * of node inside the rectangle are skipped.
 */
TT_API int tt_noc_multicast(tt_device *dev, unsigned noc, struct tt_xy start,
			    struct tt_xy end, uint64_t addr, const void *src,
			    size_t len);

/* One 32-bit register or word. addr must be 4-byte aligned for registers. */
TT_API int tt_noc_write32(tt_device *dev, unsigned noc, unsigned x, unsigned y,
			  uint64_t addr, uint32_t val);
TT_API int tt_noc_read32(tt_device *dev, unsigned noc, unsigned x, unsigned y,
			 uint64_t addr, uint32_t *val);

#endif /* TT_NOC_H */
