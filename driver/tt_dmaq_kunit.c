// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite of dmaq.c's pure descriptor checks: every field SUBMIT
 * refuses (docs/abi.md, DMA_QUEUE_SUBMIT's EINVAL rows) and the engine's
 * ctrl word a valid descriptor becomes (hw/dmaeng.h). A module of its own
 * (tt_dmaq_kunit.ko) that uses tenstorrent.ko's symbols exported for KUnit.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/tenstorrent.h>

#include <hw/dmaeng.h>

#include "tenstorrent.h"

#define GX 10
#define GY 12

static struct tenstorrent_dma_desc tt_dmaq_kunit_good(void)
{
	return (struct tenstorrent_dma_desc){
		.host_addr = 0x1000,
		.device_addr = 0x20000,
		.cookie = 77,
		.length = 4096,
		.direction = TENSTORRENT_DMA_TO_DEVICE,
		.host_type = TENSTORRENT_DMA_HOST_DMA_BUF,
		.buf_index = 3,
		.x = 1,
		.y = 1,
	};
}

static void tt_dmaq_kunit_accepts(struct kunit *test)
{
	struct tenstorrent_dma_desc d = tt_dmaq_kunit_good();

	KUNIT_EXPECT_EQ(test, tt_dmaq_check_desc(&d, GX, GY), 0);
	/* The limits themselves. */
	d.length = TENSTORRENT_DMA_MAX_LENGTH;
	d.device_addr = BIT_ULL(36) - TENSTORRENT_DMA_MAX_LENGTH;
	d.x = GX - 1;
	d.y = GY - 1;
	d.noc = 1;
	d.direction = TENSTORRENT_DMA_FROM_DEVICE;
	KUNIT_EXPECT_EQ(test, tt_dmaq_check_desc(&d, GX, GY), 0);
	d.length = 4;
	d.device_addr = BIT_ULL(36) - 4;
	KUNIT_EXPECT_EQ(test, tt_dmaq_check_desc(&d, GX, GY), 0);
	/*
	 * PINNED passes the pure checks with buf_index 0 (the range is
	 * looked up later).
	 */
	d = tt_dmaq_kunit_good();
	d.host_type = TENSTORRENT_DMA_HOST_PINNED;
	d.buf_index = 0;
	KUNIT_EXPECT_EQ(test, tt_dmaq_check_desc(&d, GX, GY), 0);
}

#define TT_DESC_OFF(m) offsetof(struct tenstorrent_dma_desc, m)
#define TT_DESC_SIZE(m) sizeof_field(struct tenstorrent_dma_desc, m)

/* One field wrong at a time: which, and the value it gets. */
static const struct {
	const char *what;
	size_t off;
	size_t size;
	u64 v;
} tt_dmaq_kunit_bad[] = {
	{ "flags", TT_DESC_OFF(flags), TT_DESC_SIZE(flags), 1 },
	{ "reserved0[0]", TT_DESC_OFF(reserved0[0]), TT_DESC_SIZE(reserved0[0]), 1 },
	{ "reserved0[1]", TT_DESC_OFF(reserved0[1]), TT_DESC_SIZE(reserved0[1]), 0x80 },
	{ "reserved1", TT_DESC_OFF(reserved1), TT_DESC_SIZE(reserved1), 1ull << 63 },
	{ "direction 0", TT_DESC_OFF(direction), TT_DESC_SIZE(direction), 0 },
	{ "direction 3", TT_DESC_OFF(direction), TT_DESC_SIZE(direction), 3 },
	{ "host_type 0", TT_DESC_OFF(host_type), TT_DESC_SIZE(host_type), 0 },
	{ "host_type 3", TT_DESC_OFF(host_type), TT_DESC_SIZE(host_type), 3 },
	/* PINNED with the good descriptor's buf_index 3 */
	{ "pinned buf_index", TT_DESC_OFF(host_type), TT_DESC_SIZE(host_type),
	  TENSTORRENT_DMA_HOST_PINNED },
	{ "length 0", TT_DESC_OFF(length), TT_DESC_SIZE(length), 0 },
	{ "length 2^28 + 4", TT_DESC_OFF(length), TT_DESC_SIZE(length),
	  TENSTORRENT_DMA_MAX_LENGTH + 4 },
	{ "length 6", TT_DESC_OFF(length), TT_DESC_SIZE(length), 6 },
	{ "length 2^32 - 4", TT_DESC_OFF(length), TT_DESC_SIZE(length), U32_MAX - 3 },
	{ "host_addr", TT_DESC_OFF(host_addr), TT_DESC_SIZE(host_addr), 0x1002 },
	{ "device_addr odd", TT_DESC_OFF(device_addr), TT_DESC_SIZE(device_addr), 0x20001 },
	{ "device_addr 2^36", TT_DESC_OFF(device_addr), TT_DESC_SIZE(device_addr), BIT_ULL(36) },
	{ "device range past 2^36", TT_DESC_OFF(device_addr), TT_DESC_SIZE(device_addr),
	  BIT_ULL(36) - 4092 },
	{ "device_addr wraps", TT_DESC_OFF(device_addr), TT_DESC_SIZE(device_addr), U64_MAX - 3 },
	{ "noc 2", TT_DESC_OFF(noc), TT_DESC_SIZE(noc), 2 },
	{ "x = grid_x", TT_DESC_OFF(x), TT_DESC_SIZE(x), GX },
	{ "y = grid_y", TT_DESC_OFF(y), TT_DESC_SIZE(y), GY },
	{ "x 255", TT_DESC_OFF(x), TT_DESC_SIZE(x), 255 },
};

static void tt_dmaq_kunit_set(struct tenstorrent_dma_desc *d, size_t off,
			      size_t size, u64 v)
{
	u8 *p = (u8 *)d + off;

	switch (size) {
	case 1:
		*p = v;
		break;
	case 4:
		*(u32 *)p = v;
		break;
	default:
		*(u64 *)p = v;
		break;
	}
}

static void tt_dmaq_kunit_refuses(struct kunit *test)
{
	struct tenstorrent_dma_desc d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tt_dmaq_kunit_bad); i++) {
		d = tt_dmaq_kunit_good();
		tt_dmaq_kunit_set(&d, tt_dmaq_kunit_bad[i].off,
				  tt_dmaq_kunit_bad[i].size,
				  tt_dmaq_kunit_bad[i].v);
		KUNIT_EXPECT_EQ_MSG(test, tt_dmaq_check_desc(&d, GX, GY),
				    -EINVAL, "%s", tt_dmaq_kunit_bad[i].what);
	}
	/* A grid of nothing has no node. */
	d = tt_dmaq_kunit_good();
	d.x = 0;
	d.y = 0;
	KUNIT_EXPECT_EQ(test, tt_dmaq_check_desc(&d, 0, 0), -EINVAL);
}

static void tt_dmaq_kunit_ctrl(struct kunit *test)
{
	struct tenstorrent_dma_desc d = tt_dmaq_kunit_good();
	u32 c;

	d.x = 9;
	d.y = 11;
	c = tt_dmaq_hw_ctrl(&d);
	KUNIT_EXPECT_EQ(test, TT_FIELD_GET(TT_DMA_CTRL_DIR_MASK, c),
			(u32)TT_DMA_DIR_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, TT_FIELD_GET(TT_DMA_CTRL_X_MASK, c), 9u);
	KUNIT_EXPECT_EQ(test, TT_FIELD_GET(TT_DMA_CTRL_Y_MASK, c), 11u);
	KUNIT_EXPECT_FALSE(test, c & TT_DMA_CTRL_NOC);
	KUNIT_EXPECT_TRUE(test, c & TT_DMA_CTRL_IRQ);
	KUNIT_EXPECT_TRUE(test, c & TT_DMA_CTRL_HALT);
	KUNIT_EXPECT_FALSE(test, c & TT_DMA_CTRL_SKIP);

	d.direction = TENSTORRENT_DMA_FROM_DEVICE;
	d.noc = 1;
	c = tt_dmaq_hw_ctrl(&d);
	KUNIT_EXPECT_EQ(test, TT_FIELD_GET(TT_DMA_CTRL_DIR_MASK, c),
			(u32)TT_DMA_DIR_FROM_DEVICE);
	KUNIT_EXPECT_TRUE(test, c & TT_DMA_CTRL_NOC);
}

static struct kunit_case tt_dmaq_kunit_cases[] = {
	KUNIT_CASE(tt_dmaq_kunit_accepts),
	KUNIT_CASE(tt_dmaq_kunit_refuses),
	KUNIT_CASE(tt_dmaq_kunit_ctrl),
	{}
};

static struct kunit_suite tt_dmaq_kunit_suite = {
	.name = "tenstorrent_dmaq",
	.test_cases = tt_dmaq_kunit_cases,
};

kunit_test_suite(tt_dmaq_kunit_suite);

MODULE_DESCRIPTION("KUnit tests of tenstorrent.ko's DMA queue checks");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
