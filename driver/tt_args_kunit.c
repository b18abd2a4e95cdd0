// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite of the argument checks of PIN_PAGES, LOCK_CTL, RESET_DEVICE,
 * SET_POWER_STATE, SET_NOC_CLEANUP, MAP_PEER_BAR and EXPORT_TLB_DMABUF
 * (pin.c, lock.c, reset.c, power.c, peer.c, tlb.c):
 * each accepted value at its edge and each refused one just past it. A
 * module of its own (tt_args_kunit.ko) that uses tenstorrent.ko's symbols
 * exported for KUnit.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/tenstorrent.h>

#include "tenstorrent.h"

static const struct {
	u32 flags;
	u64 va, size;
	int ret;
	const char *why;
} tt_args_kunit_pins[] = {
	{ 0, PAGE_SIZE, PAGE_SIZE, 0, "one page" },
	{ 15, PAGE_SIZE, PAGE_SIZE, 0, "every flag" },
	{ 16, PAGE_SIZE, PAGE_SIZE, -EINVAL, "unknown flag" },
	{ BIT(31), PAGE_SIZE, PAGE_SIZE, -EINVAL, "top flag" },
	{ 0, PAGE_SIZE, 0, -EINVAL, "empty" },
	{ 0, PAGE_SIZE + 1, PAGE_SIZE, -EINVAL, "address not aligned" },
	{ 0, PAGE_SIZE, PAGE_SIZE + 1, -EINVAL, "size not aligned" },
	{ 0, -PAGE_SIZE, PAGE_SIZE, 0, "last page" },
	{ 0, -PAGE_SIZE, 2 * PAGE_SIZE, -EINVAL, "wraps" },
	{ 0, 0, 64ULL << 30, 0, "64 GiB" },
	{ 0, 0, (64ULL << 30) + PAGE_SIZE, -EINVAL, "more than 64 GiB" },
	{ 0, 0, (u64)INT_MAX << PAGE_SHIFT, -EINVAL, "INT_MAX pages" },
};

static void tt_args_kunit_pin(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tt_args_kunit_pins); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    tt_pin_check(tt_args_kunit_pins[i].flags,
						 tt_args_kunit_pins[i].va,
						 tt_args_kunit_pins[i].size),
				    tt_args_kunit_pins[i].ret, "%s",
				    tt_args_kunit_pins[i].why);
}

static void tt_args_kunit_lock(struct kunit *test)
{
	struct tenstorrent_lock_ctl_in in = {};

	KUNIT_EXPECT_EQ(test, tt_lock_check(&in), 0);
	in.flags = TENSTORRENT_LOCK_CTL_ACQUIRE_BLOCKING;
	in.index = TENSTORRENT_RESOURCE_LOCK_COUNT - 1;
	KUNIT_EXPECT_EQ(test, tt_lock_check(&in), 0);
	in.flags = TENSTORRENT_LOCK_CTL_ACQUIRE_BLOCKING + 1;
	KUNIT_EXPECT_EQ(test, tt_lock_check(&in), -EINVAL);
	in.flags = 0;
	in.index = TENSTORRENT_RESOURCE_LOCK_COUNT;
	KUNIT_EXPECT_EQ(test, tt_lock_check(&in), -EINVAL);
	in.index = 255;
	KUNIT_EXPECT_EQ(test, tt_lock_check(&in), -EINVAL);
}

static void tt_args_kunit_reset(struct kunit *test)
{
	u32 f;

	for (f = 0; f <= TENSTORRENT_RESET_DEVICE_POST_RESET; f++)
		KUNIT_EXPECT_EQ_MSG(test, tt_reset_check(f), 0, "flags %u", f);
	KUNIT_EXPECT_EQ(test, tt_reset_check(7), -EINVAL);
	KUNIT_EXPECT_EQ(test, tt_reset_check(U32_MAX), -EINVAL);
}

static struct tenstorrent_power_state tt_args_kunit_ps(u8 validity)
{
	return (struct tenstorrent_power_state){
		.argsz = sizeof(struct tenstorrent_power_state),
		.validity = validity,
	};
}

static void tt_args_kunit_power(struct kunit *test)
{
	struct tenstorrent_power_state ps = tt_args_kunit_ps(0);

	KUNIT_EXPECT_EQ(test, tt_power_check(&ps), 0);
	ps = tt_args_kunit_ps(TT_POWER_VALIDITY(15, 14));
	KUNIT_EXPECT_EQ(test, tt_power_check(&ps), 0);
	ps = tt_args_kunit_ps(TT_POWER_VALIDITY(0, 15));
	KUNIT_EXPECT_EQ(test, tt_power_check(&ps), -EINVAL);
	ps = tt_args_kunit_ps(0);
	ps.argsz--;
	KUNIT_EXPECT_EQ(test, tt_power_check(&ps), -EINVAL);
	ps = tt_args_kunit_ps(0);
	ps.flags = 1;
	KUNIT_EXPECT_EQ(test, tt_power_check(&ps), -EINVAL);
	ps = tt_args_kunit_ps(0);
	ps.reserved0 = 1;
	KUNIT_EXPECT_EQ(test, tt_power_check(&ps), -EINVAL);
}

static struct tenstorrent_set_noc_cleanup tt_args_kunit_cleanup(void)
{
	return (struct tenstorrent_set_noc_cleanup){
		.argsz = sizeof(struct tenstorrent_set_noc_cleanup),
		.enabled = 1, .x = 64, .y = 64, .noc = 1, .addr = 0xFFFFFFFC,
	};
}

static void tt_args_kunit_noc_cleanup(struct kunit *test)
{
	struct tenstorrent_set_noc_cleanup c = tt_args_kunit_cleanup();

	KUNIT_EXPECT_EQ(test, tt_noc_cleanup_check(&c), 0);
	c.x = 65;
	KUNIT_EXPECT_EQ(test, tt_noc_cleanup_check(&c), -EINVAL);
	c = tt_args_kunit_cleanup();
	c.y = 65;
	KUNIT_EXPECT_EQ(test, tt_noc_cleanup_check(&c), -EINVAL);
	c = tt_args_kunit_cleanup();
	c.noc = 2;
	KUNIT_EXPECT_EQ(test, tt_noc_cleanup_check(&c), -EINVAL);
	c = tt_args_kunit_cleanup();
	c.addr = 2;
	KUNIT_EXPECT_EQ(test, tt_noc_cleanup_check(&c), -EINVAL);
	c = tt_args_kunit_cleanup();
	c.enabled = 2;
	KUNIT_EXPECT_EQ(test, tt_noc_cleanup_check(&c), -EINVAL);
	c = tt_args_kunit_cleanup();
	c.flags = 1;
	KUNIT_EXPECT_EQ(test, tt_noc_cleanup_check(&c), -EINVAL);
	c = tt_args_kunit_cleanup();
	c.argsz = 0;
	KUNIT_EXPECT_EQ(test, tt_noc_cleanup_check(&c), -EINVAL);
	/* Disabling needs no target. */
	c = tt_args_kunit_cleanup();
	c.enabled = 0;
	c.x = 255;
	c.addr = 1;
	KUNIT_EXPECT_EQ(test, tt_noc_cleanup_check(&c), 0);
}

static void tt_args_kunit_peer(struct kunit *test)
{
	struct tenstorrent_map_peer_bar_in in = {
		.peer_bar_index = PCI_STD_NUM_BARS - 1, .peer_bar_length = 1,
	};

	KUNIT_EXPECT_EQ(test, tt_peer_check(&in), 0);
	in.peer_bar_offset = U32_MAX; /* the BAR's size decides */
	in.peer_bar_length = U32_MAX;
	KUNIT_EXPECT_EQ(test, tt_peer_check(&in), 0);
	in.peer_bar_index = PCI_STD_NUM_BARS;
	KUNIT_EXPECT_EQ(test, tt_peer_check(&in), -EINVAL);
	in.peer_bar_index = 0;
	in.peer_bar_length = 0;
	KUNIT_EXPECT_EQ(test, tt_peer_check(&in), -EINVAL);
	in.peer_bar_length = 1;
	in.flags = 1;
	KUNIT_EXPECT_EQ(test, tt_peer_check(&in), -EINVAL);
	in.flags = 0;
	in.reserved = BIT(31);
	KUNIT_EXPECT_EQ(test, tt_peer_check(&in), -EINVAL);
}

static struct tenstorrent_export_tlb_dmabuf tt_args_kunit_export(void)
{
	return (struct tenstorrent_export_tlb_dmabuf){
		.argsz = sizeof(struct tenstorrent_export_tlb_dmabuf),
		.offset = PAGE_SIZE, .size = PAGE_SIZE,
	};
}

static void tt_args_kunit_tlb_export(struct kunit *test)
{
	struct tenstorrent_export_tlb_dmabuf e = tt_args_kunit_export();

	KUNIT_EXPECT_EQ(test, tt_tlb_export_check(&e), 0);
	e.tlb_id = U32_MAX; /* the device decides */
	e.fd = -1; /* an output */
	KUNIT_EXPECT_EQ(test, tt_tlb_export_check(&e), 0);
	e.argsz++;
	KUNIT_EXPECT_EQ(test, tt_tlb_export_check(&e), -EINVAL);
	e = tt_args_kunit_export();
	e.flags = 1;
	KUNIT_EXPECT_EQ(test, tt_tlb_export_check(&e), -EINVAL);
	e = tt_args_kunit_export();
	e.size = 0; /* to the end of the window, which decides */
	KUNIT_EXPECT_EQ(test, tt_tlb_export_check(&e), 0);
	e = tt_args_kunit_export();
	e.size = PAGE_SIZE + 1;
	KUNIT_EXPECT_EQ(test, tt_tlb_export_check(&e), -EINVAL);
	e = tt_args_kunit_export();
	e.offset = 1;
	KUNIT_EXPECT_EQ(test, tt_tlb_export_check(&e), -EINVAL);
}

static struct kunit_case tt_args_kunit_cases[] = {
	KUNIT_CASE(tt_args_kunit_pin),
	KUNIT_CASE(tt_args_kunit_lock),
	KUNIT_CASE(tt_args_kunit_reset),
	KUNIT_CASE(tt_args_kunit_power),
	KUNIT_CASE(tt_args_kunit_noc_cleanup),
	KUNIT_CASE(tt_args_kunit_peer),
	KUNIT_CASE(tt_args_kunit_tlb_export),
	{}
};

static struct kunit_suite tt_args_kunit_suite = {
	.name = "tenstorrent_args",
	.test_cases = tt_args_kunit_cases,
};

kunit_test_suite(tt_args_kunit_suite);

MODULE_DESCRIPTION("KUnit suite of tenstorrent.ko's ioctl argument checks");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
