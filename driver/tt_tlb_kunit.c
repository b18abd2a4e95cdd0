// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite of tlb.c's window arithmetic (tt-kmd's wormhole.c,
 * blackhole.c): each architecture's window ids, sizes and mmap offsets, the
 * window an mmap range falls in, and the checks of CONFIGURE_TLB. A module
 * of its own (tt_tlb_kunit.ko) that uses tenstorrent.ko's symbols exported
 * for KUnit.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/tenstorrent.h>

#include <hw/arch.h>

#include "tenstorrent.h"

/* Window id, its size and mmap offset (the BAR offset of the real chip). */
static const struct {
	u32 arch, id;
	u64 size, offset;
} tt_tlb_kunit_windows[] = {
	{ TT_HW_ARCH_WORMHOLE_B0, 0, SZ_1M, 0 },
	{ TT_HW_ARCH_WORMHOLE_B0, 155, SZ_1M, 155ull * SZ_1M },
	{ TT_HW_ARCH_WORMHOLE_B0, 156, SZ_2M, 0x09C00000 },
	{ TT_HW_ARCH_WORMHOLE_B0, 165, SZ_2M, 0x09C00000 + 9ull * SZ_2M },
	{ TT_HW_ARCH_WORMHOLE_B0, 166, SZ_16M, 0x0B000000 },
	{ TT_HW_ARCH_WORMHOLE_B0, 185, SZ_16M, 0x1E000000 },
	{ TT_HW_ARCH_BLACKHOLE, 0, SZ_2M, 0 },
	{ TT_HW_ARCH_BLACKHOLE, 201, SZ_2M, 0x19200000 },
	{ TT_HW_ARCH_BLACKHOLE, 202, SZ_4G, SZ_512M },
	{ TT_HW_ARCH_BLACKHOLE, 209, SZ_4G, SZ_512M + 7 * SZ_4G },
};

static const struct tt_tlb_layout *layout(struct kunit *test, u32 arch)
{
	const struct tt_tlb_layout *l = tt_tlb_layout_of(arch);

	KUNIT_ASSERT_NOT_NULL(test, l);
	return l;
}

static void tt_tlb_kunit_layouts(struct kunit *test)
{
	const struct tt_tlb_layout *wh = layout(test, TT_HW_ARCH_WORMHOLE_B0);
	const struct tt_tlb_layout *bh = layout(test, TT_HW_ARCH_BLACKHOLE);
	u64 size, offset;

	KUNIT_EXPECT_EQ(test, wh->count, 186u);
	KUNIT_EXPECT_EQ(test, wh->kernel_id, 185u);
	KUNIT_EXPECT_EQ(test, bh->count, 210u);
	KUNIT_EXPECT_EQ(test, bh->kernel_id, 201u);
	KUNIT_EXPECT_LE(test, wh->count, TENSTORRENT_MAX_INBOUND_TLBS);
	KUNIT_EXPECT_LE(test, bh->count, TENSTORRENT_MAX_INBOUND_TLBS);
	/* Grayskull's code left tt-kmd; an unknown chip has no windows. */
	KUNIT_EXPECT_NULL(test, tt_tlb_layout_of(TT_HW_ARCH_GRAYSKULL));
	KUNIT_EXPECT_NULL(test, tt_tlb_layout_of(0xdead));
	/* Past the last window. */
	KUNIT_EXPECT_FALSE(test, tt_tlb_window(wh, 186, &size, &offset));
	KUNIT_EXPECT_FALSE(test, tt_tlb_window(bh, 210, &size, &offset));
	KUNIT_EXPECT_FALSE(test, tt_tlb_window(bh, U32_MAX, &size, &offset));
}

static void tt_tlb_kunit_ids(struct kunit *test)
{
	const struct tt_tlb_layout *l;
	u64 size, offset;
	unsigned int i;
	u32 id;

	for (i = 0; i < ARRAY_SIZE(tt_tlb_kunit_windows); i++) {
		l = layout(test, tt_tlb_kunit_windows[i].arch);
		KUNIT_ASSERT_TRUE(test, tt_tlb_window(l,
						      tt_tlb_kunit_windows[i].id,
						      &size, &offset));
		KUNIT_EXPECT_EQ(test, size, tt_tlb_kunit_windows[i].size);
		KUNIT_EXPECT_EQ(test, offset, tt_tlb_kunit_windows[i].offset);
		/* And back: the whole window, its first and last page. */
		KUNIT_EXPECT_TRUE(test, tt_tlb_window_at(l, offset, size, &id));
		KUNIT_EXPECT_EQ(test, id, tt_tlb_kunit_windows[i].id);
		id = U32_MAX;
		KUNIT_EXPECT_TRUE(test, tt_tlb_window_at(l, offset, SZ_4K, &id));
		KUNIT_EXPECT_EQ(test, id, tt_tlb_kunit_windows[i].id);
		id = U32_MAX;
		KUNIT_EXPECT_TRUE(test, tt_tlb_window_at(l, offset + size - SZ_4K,
							 SZ_4K, &id));
		KUNIT_EXPECT_EQ(test, id, tt_tlb_kunit_windows[i].id);
	}
}

/* mmap ranges no window holds whole. */
static const struct {
	u32 arch;
	u64 offset, len;
	const char *why;
} tt_tlb_kunit_outside[] = {
	{ TT_HW_ARCH_WORMHOLE_B0, 0, 0, "no bytes" },
	{ TT_HW_ARCH_WORMHOLE_B0, 0, SZ_1M + SZ_4K, "into the next window" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_1M - SZ_4K, SZ_8K, "across two windows" },
	{ TT_HW_ARCH_WORMHOLE_B0, 0, SZ_2M, "a 1 MiB window mapped as 2 MiB" },
	{ TT_HW_ARCH_WORMHOLE_B0, 155ull * SZ_1M, SZ_2M,
	  "from the last 1 MiB window into the first 2 MiB one" },
	{ TT_HW_ARCH_WORMHOLE_B0, 0x1F000000, SZ_4K,
	  "after the last window (system registers)" },
	{ TT_HW_ARCH_WORMHOLE_B0, 0x1E000000 + SZ_16M - SZ_4K, U64_MAX,
	  "a length that wraps around" },
	{ TT_HW_ARCH_BLACKHOLE, 202ull * SZ_2M, SZ_4K,
	  "after the 2 MiB windows, before BAR4's" },
	{ TT_HW_ARCH_BLACKHOLE, SZ_512M + 8 * SZ_4G, SZ_4K,
	  "after the last 4 GiB window" },
	{ TT_HW_ARCH_BLACKHOLE, U64_MAX - SZ_4K + 1, SZ_4K,
	  "the top of the address space" },
};

static void tt_tlb_kunit_outside_windows(struct kunit *test)
{
	unsigned int i;
	u32 id;

	for (i = 0; i < ARRAY_SIZE(tt_tlb_kunit_outside); i++)
		KUNIT_EXPECT_FALSE_MSG(test,
				       tt_tlb_window_at(layout(test,
							       tt_tlb_kunit_outside[i].arch),
							tt_tlb_kunit_outside[i].offset,
							tt_tlb_kunit_outside[i].len,
							&id),
				       "%s", tt_tlb_kunit_outside[i].why);
	/* A range inside a window need not start at its first page. */
	KUNIT_EXPECT_TRUE(test,
			  tt_tlb_window_at(layout(test, TT_HW_ARCH_WORMHOLE_B0),
					   0x0B000000 + SZ_8M, SZ_8M, &id));
	KUNIT_EXPECT_EQ(test, id, 166u);
}

/* CONFIGURE_TLB's checks; @ok says whether the config is accepted. */
static const struct {
	u32 arch;
	u64 size;
	struct tenstorrent_noc_tlb_config c;
	bool ok;
	const char *why;
} tt_tlb_kunit_configs[] = {
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_1M, { .addr = 0, .x_end = 1, .y_end = 1 },
	  true, "L1 of node (1, 1)" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_1M, { .addr = 3 * SZ_1M }, true,
	  "aligned to the window" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_1M, { .addr = SZ_512K }, false,
	  "half a window" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_16M, { .addr = SZ_8M }, false,
	  "1 MiB aligned, not 16 MiB" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_16M, { .addr = (1ull << 36) - SZ_16M },
	  true, "the last window of the 36-bit NOC address space" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_16M, { .addr = 1ull << 36 }, false,
	  "past Wormhole's 36-bit local addresses" },
	{ TT_HW_ARCH_BLACKHOLE, SZ_4G, { .addr = 1ull << 40 }, true,
	  "Blackhole addresses are wider" },
	{ TT_HW_ARCH_BLACKHOLE, SZ_4G, { .addr = SZ_2G }, false,
	  "2 GiB into a 4 GiB window" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_1M, { .x_end = 63, .y_end = 63 }, true,
	  "the largest coordinates" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_1M, { .x_end = 64 }, false,
	  "x does not fit 6 bits" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_1M, { .y_start = 64 }, false,
	  "y_start does not fit 6 bits" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_1M, { .noc = 1 }, true, "NOC 1" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_1M, { .noc = 2 }, false, "no NOC 2" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_1M, { .mcast = 2 }, false,
	  "mcast is a bit" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_1M, { .ordering = 3 }, true,
	  "posted-strict ordering" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_1M, { .ordering = 4 }, false,
	  "ordering is two bits" },
	{ TT_HW_ARCH_WORMHOLE_B0, SZ_1M, { .linked = 2 }, false,
	  "linked is a bit" },
};

static void tt_tlb_kunit_config_checks(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tt_tlb_kunit_configs); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    tt_tlb_config_check(layout(test,
							       tt_tlb_kunit_configs[i].arch),
							tt_tlb_kunit_configs[i].size,
							&tt_tlb_kunit_configs[i].c),
				    tt_tlb_kunit_configs[i].ok ? 0 : -EINVAL,
				    "%s", tt_tlb_kunit_configs[i].why);
}

static struct kunit_case tt_tlb_kunit_cases[] = {
	KUNIT_CASE(tt_tlb_kunit_layouts),
	KUNIT_CASE(tt_tlb_kunit_ids),
	KUNIT_CASE(tt_tlb_kunit_outside_windows),
	KUNIT_CASE(tt_tlb_kunit_config_checks),
	{}
};

static struct kunit_suite tt_tlb_kunit_suite = {
	.name = "tenstorrent_tlb",
	.test_cases = tt_tlb_kunit_cases,
};

kunit_test_suite(tt_tlb_kunit_suite);

MODULE_DESCRIPTION("KUnit suite of tenstorrent.ko's TLB window arithmetic");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
