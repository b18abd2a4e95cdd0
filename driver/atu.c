// SPDX-License-Identifier: GPL-2.0-only
/*
 * The outbound ATU regions the driver hands out (as tt-kmd's memory.c does
 * for the NOC_DMA flags):
 * each DMA buffer or pinned range that wants a NOC address gets one region,
 * which maps a range of the PCIe node's host window onto the buffer's bus
 * address. Here is only the bookkeeping, a pure function of struct tt_atu
 * (tested by tt_atu_kunit.c); the backend writes the registers.
 *
 * Ranges are page multiples and never overlap. DMA buffers take them from
 * the top of the window and pinned ranges from the bottom, as tt-kmd does,
 * so that the two kinds do not fragment each other's end.
 */
#include <kunit/visibility.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/mm.h>

#include "tenstorrent.h"

void tt_atu_init(struct tt_atu *atu, u64 window, u64 noc_base, u32 first,
		 u32 count)
{
	memset(atu, 0, sizeof(*atu));
	atu->window = window;
	atu->noc_base = noc_base;
	atu->first = first;
	atu->count = min_t(u32, count, TT_ATU_MAX_REGIONS);
}
EXPORT_SYMBOL_IF_KUNIT(tt_atu_init);

/* The used regions in order of their window range; returns how many. */
static u32 tt_atu_sorted(const struct tt_atu *atu, u32 order[])
{
	u32 n = 0, r, i;

	for (r = atu->first; r < atu->count; r++) {
		if (!(atu->used & BIT(r)))
			continue;
		for (i = n++; i && atu->base[order[i - 1]] > atu->base[r]; i--)
			order[i] = order[i - 1];
		order[i] = r;
	}
	return n;
}

/*
 * A free range of @size bytes in the window, from the top or the bottom.
 * Gap g lies between used range g - 1 and used range g (with the window's
 * ends as ranges -1 and n).
 */
static bool tt_atu_find(const struct tt_atu *atu, u64 size, bool top_down,
			u64 *base)
{
	u32 order[TT_ATU_MAX_REGIONS], n = tt_atu_sorted(atu, order), g, i;
	u64 start, end;

	for (i = 0; i <= n; i++) {
		g = top_down ? n - i : i;
		start = g ? atu->base[order[g - 1]] + atu->size[order[g - 1]] : 0;
		end = g < n ? atu->base[order[g]] : atu->window;
		if (end - start >= size) {
			*base = top_down ? end - size : start;
			return true;
		}
	}
	return false;
}

/*
 * Take a region and a range of @size bytes for it: returns the region and
 * sets *@base (offset in the window), or -EINVAL for a size that is 0 or
 * not a page multiple, -ENOSPC when no region or no range is free.
 */
int tt_atu_alloc(struct tt_atu *atu, u64 size, bool top_down, u64 *base)
{
	u32 r;

	if (!size || !PAGE_ALIGNED(size))
		return -EINVAL;
	for (r = atu->first; r < atu->count; r++)
		if (!(atu->used & BIT(r)))
			break;
	if (r >= atu->count || !tt_atu_find(atu, size, top_down, base))
		return -ENOSPC;
	atu->used |= BIT(r);
	atu->base[r] = *base;
	atu->size[r] = size;
	return r;
}
EXPORT_SYMBOL_IF_KUNIT(tt_atu_alloc);

void tt_atu_free(struct tt_atu *atu, u32 region)
{
	if (region < atu->count)
		atu->used &= ~BIT(region);
}
EXPORT_SYMBOL_IF_KUNIT(tt_atu_free);
