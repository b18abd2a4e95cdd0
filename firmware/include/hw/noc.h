/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * NOC addressing.
 *
 * A NOC address names a byte in some node's local address space:
 *
 *   47        42 41        36 35                                  0
 *  +------------+------------+-------------------------------------+
 *  |     y      |     x      |            local address            |
 *  +------------+------------+-------------------------------------+
 *
 * Coordinates are those of the NOC the transaction travels on. The chip has
 * two NOCs; NOC 0 has its origin at the top-left node and NOC 1 at the
 * bottom-right, so the same node has mirrored coordinates on NOC 1:
 *
 *   x1 = grid_x - 1 - x0        y1 = grid_y - 1 - y0
 *
 * Every table in the contract (node table, descriptors) uses NOC 0
 * coordinates.
 */
#ifndef TT_HW_NOC_H
#define TT_HW_NOC_H

#include "bits.h"

#define TT_NOC_COUNT 2

#define TT_NOC_LOCAL_BITS 36
#define TT_NOC_COORD_BITS 6
#define TT_NOC_MAX_COORD ((1u << TT_NOC_COORD_BITS) - 1)

#define TT_NOC_ADDR_LOCAL_MASK TT_GENMASK_ULL(35, 0)
#define TT_NOC_ADDR_X_MASK TT_GENMASK_ULL(41, 36)
#define TT_NOC_ADDR_Y_MASK TT_GENMASK_ULL(47, 42)

static inline uint64_t tt_noc_addr(uint32_t x, uint32_t y, uint64_t local)
{
	return TT_FIELD_PREP(TT_NOC_ADDR_X_MASK, (uint64_t)x) |
	       TT_FIELD_PREP(TT_NOC_ADDR_Y_MASK, (uint64_t)y) |
	       (local & TT_NOC_ADDR_LOCAL_MASK);
}

static inline uint32_t tt_noc_addr_x(uint64_t a)
{
	return (uint32_t)TT_FIELD_GET(TT_NOC_ADDR_X_MASK, a);
}

static inline uint32_t tt_noc_addr_y(uint64_t a)
{
	return (uint32_t)TT_FIELD_GET(TT_NOC_ADDR_Y_MASK, a);
}

static inline uint64_t tt_noc_addr_local(uint64_t a)
{
	return a & TT_NOC_ADDR_LOCAL_MASK;
}

/* Translate a coordinate between NOC 0 and NOC 1 (the mapping is its own
 * inverse). */
static inline uint32_t tt_noc_mirror(uint32_t coord, uint32_t grid_size)
{
	return grid_size - 1 - coord;
}

#endif /* TT_HW_NOC_H */
