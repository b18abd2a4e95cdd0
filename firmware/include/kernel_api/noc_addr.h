/* SPDX-License-Identifier: Apache-2.0 */
/*
 * 64-bit NOC addresses as kernels build them (hw/noc.h): a local address
 * in bits 0..35, x in 36..41, y in 42..47; multicast addresses carry the
 * rectangle's end corner there and its start corner in 48..53 (x) and
 * 54..59 (y), TT-Metal's Wormhole encoding.
 *
 * Coordinates are always NOC 0 coordinates, whichever NOC a command then
 * travels on: the library mirrors them for NOC 1 (kernel_api/noc.h). So
 * an address does not depend on the NOC, and TT-Metal's noc arguments of
 * get_noc_addr() and friends are accepted and ignored.
 */
#ifndef TT_KERNEL_API_NOC_ADDR_H
#define TT_KERNEL_API_NOC_ADDR_H

#include "kernel_api/base.h"

#define TTK_NOC_LOCAL_MASK ((1ull << 36) - 1)

static inline uint64_t ttk_noc_xy(uint32_t x, uint32_t y, uint32_t addr)
{
	return (uint64_t)(y & 0x3F) << 42 | (uint64_t)(x & 0x3F) << 36 | addr;
}

static inline uint64_t ttk_noc_mcast_xy(uint32_t x_start, uint32_t y_start,
					uint32_t x_end, uint32_t y_end,
					uint32_t addr)
{
	return (uint64_t)(y_start & 0x3F) << 54 |
	       (uint64_t)(x_start & 0x3F) << 48 | ttk_noc_xy(x_end, y_end, addr);
}

static inline uint32_t ttk_noc_x(uint64_t a)
{
	return (uint32_t)(a >> 36) & 0x3F;
}

static inline uint32_t ttk_noc_y(uint64_t a)
{
	return (uint32_t)(a >> 42) & 0x3F;
}

/* get_noc_multicast_addr(x_start, y_start, x_end, y_end, addr[, noc]) */
#define get_noc_multicast_addr(...) \
	TTK_OVERLOAD(ttk_get_noc_multicast_addr_, __VA_ARGS__)
#define ttk_get_noc_multicast_addr_5(xs, ys, xe, ye, a) \
	ttk_noc_mcast_xy((xs), (ys), (xe), (ye), (a))
#define ttk_get_noc_multicast_addr_6(xs, ys, xe, ye, a, noc) \
	((void)(noc), ttk_noc_mcast_xy((xs), (ys), (xe), (ye), (a)))

#endif /* TT_KERNEL_API_NOC_ADDR_H */
