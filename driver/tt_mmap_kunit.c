// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite of mmap.c's offset decoding (tt-kmd's memory.c): a region
 * of 2^36 bytes per resource and caching mode, and a mapping that must lie
 * inside one BAR user space may map. A module of its own
 * (tt_mmap_kunit.ko) that uses tenstorrent.ko's symbols exported for
 * KUnit.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/tenstorrent.h>

#include "tenstorrent.h"

#define REGION_PAGES (1ul << (TENSTORRENT_MMAP_REGION_SHIFT - PAGE_SHIFT))

/* RESOURCE1 only, of 16 pages: what the mock offers with a small BAR2. */
static const unsigned long bar_pages[TT_NUM_RESOURCES] = { 0, 16, 0 };

static bool decode(unsigned long region, unsigned long first,
		   unsigned long pages, struct tt_mmap_window *w)
{
	return tt_mmap_decode(region * REGION_PAGES + first, pages, bar_pages,
			      w);
}

static void tt_mmap_kunit_regions(struct kunit *test)
{
	struct tt_mmap_window w;

	KUNIT_ASSERT_TRUE(test, decode(2, 0, 16, &w));
	KUNIT_EXPECT_EQ(test, w.res, 1u);
	KUNIT_EXPECT_EQ(test, w.first, 0ul);
	KUNIT_EXPECT_FALSE(test, w.wc);
	KUNIT_ASSERT_TRUE(test, decode(3, 5, 1, &w));
	KUNIT_EXPECT_EQ(test, w.res, 1u);
	KUNIT_EXPECT_EQ(test, w.first, 5ul);
	KUNIT_EXPECT_TRUE(test, w.wc);
}

/* Mappings that must be refused, and why. */
static const struct {
	unsigned long region, first, pages;
	const char *why;
} tt_mmap_kunit_refused[] = {
	{ 0, 0, 1, "RESOURCE0 is not offered (UC)" },
	{ 1, 0, 1, "RESOURCE0 is not offered (WC)" },
	{ 4, 0, 1, "RESOURCE2 is not offered (UC)" },
	{ 5, 0, 1, "RESOURCE2 is not offered (WC)" },
	{ 6, 0, 1, "region past the last resource" },
	{ 2, 0, 0, "no pages" },
	{ 2, 15, 2, "one page past the BAR" },
	{ 2, 16, 1, "starts at the BAR's end" },
	{ 2, 0, 17, "larger than the BAR" },
	{ 2, REGION_PAGES - 1, 1, "inside the region, far past the BAR" },
	{ 2, 1, ULONG_MAX, "a size that wraps around" },
	{ 3, 0, ULONG_MAX, "a size that wraps around (WC)" },
};

static void tt_mmap_kunit_refusals(struct kunit *test)
{
	struct tt_mmap_window w;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tt_mmap_kunit_refused); i++)
		KUNIT_EXPECT_FALSE_MSG(test,
				       decode(tt_mmap_kunit_refused[i].region,
					      tt_mmap_kunit_refused[i].first,
					      tt_mmap_kunit_refused[i].pages,
					      &w),
				       "%s", tt_mmap_kunit_refused[i].why);
	KUNIT_EXPECT_FALSE(test, tt_mmap_decode(ULONG_MAX, 1, bar_pages, &w));
	/* The last page of the BAR is fine. */
	KUNIT_EXPECT_TRUE(test, decode(2, 15, 1, &w));
}

static struct kunit_case tt_mmap_kunit_cases[] = {
	KUNIT_CASE(tt_mmap_kunit_regions),
	KUNIT_CASE(tt_mmap_kunit_refusals),
	{}
};

static struct kunit_suite tt_mmap_kunit_suite = {
	.name = "tenstorrent_mmap",
	.test_cases = tt_mmap_kunit_cases,
};

kunit_test_suite(tt_mmap_kunit_suite);

MODULE_DESCRIPTION("KUnit suite of tenstorrent.ko's mmap offsets");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
