// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite of atu.c, the outbound ATU region allocator: ranges of the
 * host window for DMA buffers (from the top) and pinned pages (from the
 * bottom), never overlapping, one region each. A module of its own
 * (tt_atu_kunit.ko) that uses tenstorrent.ko's symbols exported for KUnit.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sizes.h>

#include "tenstorrent.h"

#define WINDOW (64 * PAGE_SIZE)
#define NOC_BASE 0x800000000ull

static void tt_atu_kunit_ends(struct kunit *test)
{
	struct tt_atu atu;
	u64 base;

	tt_atu_init(&atu, WINDOW, NOC_BASE, 1, 16);
	/* Region 0 is not the driver's: the first one given is 1. */
	KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, 4 * PAGE_SIZE, true, &base), 1);
	KUNIT_EXPECT_EQ(test, base, WINDOW - 4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, 2 * PAGE_SIZE, false, &base), 2);
	KUNIT_EXPECT_EQ(test, base, 0ull);
	KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, PAGE_SIZE, true, &base), 3);
	KUNIT_EXPECT_EQ(test, base, WINDOW - 5 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, PAGE_SIZE, false, &base), 4);
	KUNIT_EXPECT_EQ(test, base, 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, atu.used, BIT(1) | BIT(2) | BIT(3) | BIT(4));
}

static void tt_atu_kunit_reuse(struct kunit *test)
{
	struct tt_atu atu;
	u64 base;

	tt_atu_init(&atu, WINDOW, NOC_BASE, 1, 16);
	KUNIT_ASSERT_EQ(test, tt_atu_alloc(&atu, 8 * PAGE_SIZE, false, &base), 1);
	KUNIT_ASSERT_EQ(test, tt_atu_alloc(&atu, 8 * PAGE_SIZE, false, &base), 2);
	KUNIT_ASSERT_EQ(test, tt_atu_alloc(&atu, 8 * PAGE_SIZE, false, &base), 3);
	KUNIT_EXPECT_EQ(test, base, 16 * PAGE_SIZE);
	/* A hole in the middle: the lowest region and the hole come back. */
	tt_atu_free(&atu, 2);
	KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, 4 * PAGE_SIZE, false, &base), 2);
	KUNIT_EXPECT_EQ(test, base, 8 * PAGE_SIZE);
	/* Too big for the rest of the hole: it goes after region 3. */
	KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, 5 * PAGE_SIZE, false, &base), 4);
	KUNIT_EXPECT_EQ(test, base, 24 * PAGE_SIZE);
	/* Freeing a free or unknown region changes nothing. */
	tt_atu_free(&atu, 9);
	tt_atu_free(&atu, 200);
	KUNIT_EXPECT_EQ(test, atu.used, BIT(1) | BIT(2) | BIT(3) | BIT(4));
}

static void tt_atu_kunit_full(struct kunit *test)
{
	struct tt_atu atu;
	unsigned int i;
	u64 base;

	tt_atu_init(&atu, WINDOW, NOC_BASE, 1, 16);
	/* The whole window in one region, then nothing fits. */
	KUNIT_ASSERT_EQ(test, tt_atu_alloc(&atu, WINDOW, true, &base), 1);
	KUNIT_EXPECT_EQ(test, base, 0ull);
	KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, PAGE_SIZE, true, &base),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, PAGE_SIZE, false, &base),
			-ENOSPC);
	tt_atu_free(&atu, 1);
	/* Regions run out before space does: 15 of them. */
	for (i = 1; i < 16; i++)
		KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, PAGE_SIZE, i & 1, &base),
				(int)i);
	KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, PAGE_SIZE, true, &base),
			-ENOSPC);
	/* No ATU at all. */
	tt_atu_init(&atu, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, PAGE_SIZE, true, &base),
			-ENOSPC);
}

static void tt_atu_kunit_bad_sizes(struct kunit *test)
{
	struct tt_atu atu;
	u64 base;

	tt_atu_init(&atu, WINDOW, NOC_BASE, 1, 16);
	KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, 0, true, &base), -EINVAL);
	KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, PAGE_SIZE + 1, true, &base),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, WINDOW + PAGE_SIZE, true, &base),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, tt_atu_alloc(&atu, U64_MAX & PAGE_MASK, false,
					   &base),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, atu.used, 0ul);
	/* More regions than the driver keeps track of are not used. */
	tt_atu_init(&atu, WINDOW, NOC_BASE, 1, 64);
	KUNIT_EXPECT_EQ(test, atu.count, (u32)TT_ATU_MAX_REGIONS);
}

static struct kunit_case tt_atu_kunit_cases[] = {
	KUNIT_CASE(tt_atu_kunit_ends),
	KUNIT_CASE(tt_atu_kunit_reuse),
	KUNIT_CASE(tt_atu_kunit_full),
	KUNIT_CASE(tt_atu_kunit_bad_sizes),
	{}
};

static struct kunit_suite tt_atu_kunit_suite = {
	.name = "tenstorrent_atu",
	.test_cases = tt_atu_kunit_cases,
};

kunit_test_suite(tt_atu_kunit_suite);

MODULE_DESCRIPTION("KUnit suite of tenstorrent.ko's ATU region allocator");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
