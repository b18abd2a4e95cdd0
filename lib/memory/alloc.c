// SPDX-License-Identifier: Apache-2.0
/*
 * Lock-step regions and the per-device allocator (alloc.h).
 *
 * A region keeps its used ranges in an array sorted by address. Free
 * space is the gaps between them, so a freed range merges with its free
 * neighbours without any bookkeeping, and "largest free block" is the
 * largest gap. Allocation is first fit: the lowest gap that fits
 * (bottom-up regions, DRAM) or the highest (top-down regions, L1, so L1
 * buffers stay away from the circular buffers growing up from the
 * bottom). A device holds at most a few thousand buffers, so linear scans
 * are cheap next to the transfers that fill them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

void tt_region_init(struct tt_region *r, const char *name, uint64_t lo,
		    uint64_t hi, uint64_t align, bool top_down)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->lo = lo;
	r->hi = hi;
	r->align = align;
	r->top_down = top_down;
}

void tt_region_fini(struct tt_region *r)
{
	free(r->spans);
	r->spans = NULL;
	r->n = r->cap = 0;
}

static uint64_t align_down(uint64_t v, uint64_t a)
{
	return v & ~(a - 1);
}

/* Round size up to the alignment; 0 if that overflows. */
static uint64_t round_size(const struct tt_region *r, uint64_t size)
{
	if (size > UINT64_MAX - (r->align - 1))
		return 0;
	return align_down(size + r->align - 1, r->align);
}

/* Gap i: before span i (i = n: after the last span). */
static void gap(const struct tt_region *r, size_t i, uint64_t *start,
		uint64_t *end)
{
	*start = i ? r->spans[i - 1].addr + r->spans[i - 1].size : r->lo;
	*end = i < r->n ? r->spans[i].addr : r->hi;
}

void tt_region_free_space(const struct tt_region *r, uint64_t *largest,
			  uint64_t *total)
{
	uint64_t big = 0, sum = 0;

	for (size_t i = 0; i <= r->n; i++) {
		uint64_t s, e;

		gap(r, i, &s, &e);
		sum += e - s;
		if (e - s > big)
			big = e - s;
	}
	if (largest)
		*largest = big;
	if (total)
		*total = sum;
}

uint64_t tt_region_lowest(const struct tt_region *r)
{
	return r->n ? r->spans[0].addr : r->hi;
}

/* Insert a span at position i (keeps the order). */
static int insert(struct tt_region *r, size_t i, uint64_t addr, uint64_t size,
		  uint64_t owner)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 16;
		struct tt_span *s = realloc(r->spans, cap * sizeof(*s));

		if (!s)
			return tt_error(-ENOMEM, "out of host memory for the %s allocator",
					r->name);
		r->spans = s;
		r->cap = cap;
	}
	memmove(&r->spans[i + 1], &r->spans[i], (r->n - i) * sizeof(*r->spans));
	r->spans[i] = (struct tt_span){ .addr = addr, .size = size,
					.owner = owner };
	r->n++;
	return 0;
}

static int no_space(const struct tt_region *r, uint64_t size, const char *what)
{
	uint64_t largest, total;

	tt_region_free_space(r, &largest, &total);
	return tt_error(-ENOMEM,
			"%s: cannot allocate %llu bytes per bank in %s: largest free block is %llu bytes (total free %llu)",
			what, (unsigned long long)size, r->name,
			(unsigned long long)largest, (unsigned long long)total);
}

/* Where size bytes fit in gap i, or false. */
static bool fits(const struct tt_region *r, size_t i, uint64_t size,
		 uint64_t *addr)
{
	uint64_t s, e;

	gap(r, i, &s, &e);
	if (e - s < size)
		return false;
	*addr = r->top_down ? align_down(e - size, r->align) : s;
	return *addr >= s;
}

int tt_region_alloc(struct tt_region *r, uint64_t size, uint64_t owner,
		    const char *what, uint64_t *addr)
{
	uint64_t want = round_size(r, size), at;

	if (!size || !want || want > r->hi - r->lo)
		return no_space(r, size, what);
	for (size_t k = 0; k <= r->n; k++) {
		size_t i = r->top_down ? r->n - k : k;

		if (fits(r, i, want, &at)) {
			int ret = insert(r, i, at, want, owner);

			if (!ret)
				*addr = at;
			return ret;
		}
	}
	return no_space(r, size, what);
}

/* Index of the first span ending after addr. */
static size_t first_after(const struct tt_region *r, uint64_t addr)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->spans[mid].addr + r->spans[mid].size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int tt_region_alloc_at(struct tt_region *r, uint64_t addr, uint64_t size,
		       uint64_t owner, const char *what)
{
	uint64_t want = round_size(r, size);
	size_t i;

	if (addr & (r->align - 1))
		return tt_error(-EINVAL,
				"%s: address 0x%llx is not aligned to %llu bytes (%s)",
				what, (unsigned long long)addr,
				(unsigned long long)r->align, r->name);
	if (!size || !want || addr < r->lo || addr > r->hi ||
	    want > r->hi - addr)
		return tt_error(-ERANGE,
				"%s: [0x%llx, 0x%llx) is outside the %s range for buffers [0x%llx, 0x%llx)",
				what, (unsigned long long)addr,
				(unsigned long long)(addr + (want ? want : size)),
				r->name, (unsigned long long)r->lo,
				(unsigned long long)r->hi);
	i = first_after(r, addr);
	if (i < r->n && r->spans[i].addr < addr + want)
		return tt_error(-EEXIST,
				"%s: [0x%llx, 0x%llx) overlaps buffer #%llu at [0x%llx, 0x%llx) in %s",
				what, (unsigned long long)addr,
				(unsigned long long)(addr + want),
				(unsigned long long)r->spans[i].owner,
				(unsigned long long)r->spans[i].addr,
				(unsigned long long)(r->spans[i].addr +
						     r->spans[i].size),
				r->name);
	return insert(r, i, addr, want, owner);
}

int tt_region_free(struct tt_region *r, uint64_t addr)
{
	size_t i = first_after(r, addr);

	if (i >= r->n || r->spans[i].addr != addr)
		return tt_error(-ENOENT, "no %s allocation starts at 0x%llx",
				r->name, (unsigned long long)addr);
	memmove(&r->spans[i], &r->spans[i + 1],
		(r->n - i - 1) * sizeof(*r->spans));
	r->n--;
	return 0;
}

/* ---- the device's allocator ---- */

static int allocator_new(struct tt_device *dev, struct tt_allocator **out)
{
	struct tt_allocator *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return tt_error(-ENOMEM, "%s: out of host memory for the allocator",
				dev->name);
	ret = tt_banks_layout(dev, &a->banks);
	if (ret) {
		free(a);
		return ret;
	}
	pthread_mutex_init(&a->lock, NULL);
	tt_region_init(&a->dram, "DRAM", a->banks.dram_lo, a->banks.dram_hi,
		       a->banks.dram_align, false);
	tt_region_init(&a->l1, "L1", a->banks.l1_lo, a->banks.l1_hi,
		       a->banks.l1_align, true);
	a->next_id = 1;
	*out = a;
	return 0;
}

static void allocator_free(struct tt_allocator *a)
{
	tt_region_fini(&a->dram);
	tt_region_fini(&a->l1);
	pthread_mutex_destroy(&a->lock);
	free(a);
}

int tt_allocator_get(struct tt_device *dev, struct tt_allocator **out)
{
	struct tt_allocator *a = __atomic_load_n(&dev->allocator,
						 __ATOMIC_ACQUIRE);
	struct tt_allocator *expect = NULL;
	int ret;

	if (a) {
		*out = a;
		return 0;
	}
	/* One process's allocator per chip: another's would hand out the
	 * same addresses (docs/api.md, "Sharing a device"). */
	ret = tt_device_own(dev);
	if (!ret)
		ret = allocator_new(dev, &a);
	if (ret)
		return ret;
	/* Two threads may race to create it: the loser frees its copy. */
	if (!__atomic_compare_exchange_n(&dev->allocator, &expect, a, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		allocator_free(a);
		a = expect;
	}
	ret = tt_device_on_close(dev, TT_MEMORY_CLOSE_LEVEL,
				 tt_allocator_destroy);
	if (ret)
		return ret;
	*out = a;
	return 0;
}

void tt_allocator_destroy(struct tt_device *dev)
{
	struct tt_allocator *a = dev->allocator;

	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	while (a->buffers)
		tt_buffer_detach(a->buffers); /* unlinks it */
	pthread_mutex_unlock(&a->lock);
	allocator_free(a);
	dev->allocator = NULL;
}

uint64_t tt_alloc_l1_lowest(struct tt_device *dev, struct tt_xy core)
{
	struct tt_allocator *a;
	uint64_t lowest;

	(void)core; /* lock-step: every core has the same L1 buffers */
	if (tt_allocator_get(dev, &a)) {
		uint64_t lo, hi;

		return tt_alloc_l1_range(dev, &lo, &hi) ? TT_L1_PROG_UNRESERVED :
							  hi;
	}
	pthread_mutex_lock(&a->lock);
	lowest = tt_region_lowest(&a->l1);
	pthread_mutex_unlock(&a->lock);
	return lowest;
}

int tt_alloc_l1_range(struct tt_device *dev, uint64_t *lo, uint64_t *hi)
{
	struct tt_bank_layout b;
	int ret = tt_banks_layout(dev, &b);

	if (ret)
		return ret;
	*lo = b.l1_lo;
	*hi = b.l1_hi;
	return 0;
}
