// SPDX-License-Identifier: Apache-2.0
/*
 * DMA buffers: host memory that device-side NOC transfers read and write
 * through the PCIe node's ATU, on the embedded n150 model.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testcases.h"
#include "testutil.h"

/* Device-side copy between L1 of node 2-2 and a DMA buffer. */
static int dma_cmd(tt_device *dev, tt_dma_buf *b, unsigned op, uint64_t off,
		   uint64_t l1, uint32_t len)
{
	struct tt_xy p = tt_dma_buf_noc_xy(b);
	struct niu_cmd c = { .op = op, .x = p.x, .y = p.y,
			     .targ = tt_dma_buf_noc_addr(b) + off, .ret = l1,
			     .len = len };

	return niu_run(dev, 2, 2, 0, 0, &c);
}

static void test_alloc_rounds_and_zeroes(void **state)
{
	tt_dma_buf *b;
	uint8_t *p;

	assert_int_equal(tt_dma_buf_alloc(*state, 100, &b), 0);
	assert_int_equal(tt_dma_buf_size(b), 4096);
	p = tt_dma_buf_data(b);
	for (size_t i = 0; i < 4096; i++)
		assert_int_equal(p[i], 0);
	assert_int_equal(tt_dma_buf_noc_xy(b).x, 0);
	assert_int_equal(tt_dma_buf_noc_xy(b).y, 3); /* n150 PCIe node */
	assert_true(tt_dma_buf_noc_addr(b) >= TT_PCIE_HOST_WINDOW_BASE);
	tt_dma_buf_free(b);
	tt_dma_buf_free(NULL);
}

static void test_alloc_bad_sizes(void **state)
{
	tt_dma_buf *b;

	assert_int_equal(tt_dma_buf_alloc(*state, 0, &b), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "size 0"));
	assert_int_equal(tt_dma_buf_alloc(*state, (1u << 28) + 1, &b), -EINVAL);
}

static void test_device_reads_host_memory(void **state)
{
	tt_device *dev = *state;
	uint8_t got[5000];
	tt_dma_buf *b;
	uint8_t *p;

	assert_int_equal(tt_dma_buf_alloc(dev, 8192, &b), 0);
	p = tt_dma_buf_data(b);
	for (int i = 0; i < 8192; i++)
		p[i] = (uint8_t)(i * 7 + 1);
	assert_int_equal(dma_cmd(dev, b, TT_NIU_OP_READ, 3, 0x9001, 5000),
			 TT_DEV_ERR_NONE);
	assert_int_equal(tt_noc_read(dev, 0, 2, 2, 0x9001, got, 5000), 0);
	assert_memory_equal(got, p + 3, 5000);
	tt_dma_buf_free(b);
}

static void test_device_writes_host_memory(void **state)
{
	tt_device *dev = *state;
	uint8_t src[4000];
	tt_dma_buf *b;
	uint8_t *p;

	for (int i = 0; i < 4000; i++)
		src[i] = (uint8_t)(255 - i);
	assert_int_equal(tt_noc_write(dev, 0, 2, 2, 0xA000, src, 4000), 0);
	assert_int_equal(tt_dma_buf_alloc(dev, 4096, &b), 0);
	assert_int_equal(dma_cmd(dev, b, TT_NIU_OP_WRITE, 96, 0xA000, 4000),
			 TT_DEV_ERR_NONE);
	p = tt_dma_buf_data(b);
	assert_memory_equal(p + 96, src, 4000);
	for (int i = 0; i < 96; i++)
		assert_int_equal(p[i], 0);
	tt_dma_buf_free(b);
}

static void test_buffers_are_distinct(void **state)
{
	tt_device *dev = *state;
	tt_dma_buf *b[32];
	uint32_t v = 0;

	for (int i = 0; i < 32; i++) {
		assert_int_equal(tt_dma_buf_alloc(dev, 4096 * (1 + i % 3), &b[i]), 0);
		*(uint32_t *)tt_dma_buf_data(b[i]) = 0x1000u + (uint32_t)i;
	}
	for (int i = 0; i < 32; i++) {
		assert_int_equal(dma_cmd(dev, b[i], TT_NIU_OP_READ, 0, 0xB000, 4),
				 TT_DEV_ERR_NONE);
		assert_int_equal(tt_noc_read32(dev, 0, 2, 2, 0xB000, &v), 0);
		assert_int_equal(v, 0x1000u + (uint32_t)i);
	}
	for (int i = 0; i < 32; i++)
		tt_dma_buf_free(b[i]);
}

static void test_past_buffer_end_is_refused(void **state)
{
	tt_device *dev = *state;
	tt_dma_buf *b;

	assert_int_equal(tt_dma_buf_alloc(dev, 4096, &b), 0);
	assert_int_equal(dma_cmd(dev, b, TT_NIU_OP_READ, 4000, 0xC000, 200),
			 TT_DEV_ERR_HOST_MEM);
	tt_dma_buf_free(b);
}

static void test_freed_buffer_unreachable(void **state)
{
	tt_device *dev = *state;
	tt_dma_buf *b;
	struct niu_cmd c;
	struct tt_xy p;

	assert_int_equal(tt_dma_buf_alloc(dev, 4096, &b), 0);
	p = tt_dma_buf_noc_xy(b);
	c = (struct niu_cmd){ .op = TT_NIU_OP_READ, .x = p.x, .y = p.y,
			      .targ = tt_dma_buf_noc_addr(b), .ret = 0xC000,
			      .len = 64 };
	tt_dma_buf_free(b);
	assert_int_equal(niu_run(dev, 2, 2, 0, 0, &c), TT_DEV_ERR_HOST_MEM);
}

static void test_atu_miss(void **state)
{
	tt_device *dev = *state;
	uint64_t ctrl = TT_REG_PCIE_ATU_ADDR + TT_PCIE_ATU(0, TT_PCIE_ATU_CTRL);
	uint32_t saved;
	tt_dma_buf *b;

	assert_int_equal(tt_dma_buf_alloc(dev, 4096, &b), 0);
	assert_int_equal(tt_noc_read32(dev, 0, 0, 3, ctrl, &saved), 0);
	assert_int_equal(saved & TT_PCIE_ATU_CTRL_ENABLE, 1);
	assert_int_equal(tt_noc_write32(dev, 0, 0, 3, ctrl, 0), 0);
	assert_int_equal(dma_cmd(dev, b, TT_NIU_OP_READ, 0, 0xC000, 4),
			 TT_DEV_ERR_ATU_MISS);
	assert_int_equal(tt_noc_write32(dev, 0, 0, 3, ctrl, saved), 0);
	assert_int_equal(dma_cmd(dev, b, TT_NIU_OP_READ, 0, 0xC000, 4),
			 TT_DEV_ERR_NONE);
	tt_dma_buf_free(b);
}

/* Program ATU region r of the n150's PCIe node (0, 3); enable it last. */
static void set_region(tt_device *dev, unsigned r, uint64_t base,
		       uint64_t limit, uint64_t target, uint32_t ctrl)
{
	uint64_t at = TT_REG_PCIE_ATU_ADDR + TT_PCIE_ATU(r, 0);
	uint32_t regs[6] = { (uint32_t)base, (uint32_t)(base >> 32),
			     (uint32_t)limit, (uint32_t)(limit >> 32),
			     (uint32_t)target, (uint32_t)(target >> 32) };

	assert_int_equal(tt_noc_write(dev, 0, 0, 3, at + TT_PCIE_ATU_BASE_LO,
				      regs, sizeof(regs)),
			 0);
	assert_int_equal(tt_noc_write32(dev, 0, 0, 3, at + TT_PCIE_ATU_CTRL, ctrl),
			 0);
}

/* The bus address of b, from the model's region 0. */
static uint64_t bus_of(tt_device *dev, tt_dma_buf *b)
{
	uint32_t r0[7];

	assert_int_equal(tt_noc_read(dev, 0, 0, 3,
				     TT_REG_PCIE_ATU_ADDR + TT_PCIE_ATU(0, 0), r0,
				     sizeof(r0)),
			 0);
	return (r0[5] | (uint64_t)r0[6] << 32) +
	       (tt_dma_buf_noc_addr(b) - (r0[1] | (uint64_t)r0[2] << 32));
}

/* A driver's regions (1..15) win over the model's region 0, which covers
 * the whole window; among them the lowest number wins (hw/pcie.h). */
static void test_driver_regions_win_over_region_0(void **state)
{
	tt_device *dev = *state;
	uint64_t a_noc, top = TT_PCIE_HOST_WINDOW_BASE + TT_PCIE_HOST_WINDOW_SIZE;
	tt_dma_buf *a, *b, *c;
	uint32_t v;

	assert_int_equal(tt_dma_buf_alloc(dev, 8192, &a), 0);
	assert_int_equal(tt_dma_buf_alloc(dev, 4096, &b), 0);
	assert_int_equal(tt_dma_buf_alloc(dev, 4096, &c), 0);
	*(uint32_t *)tt_dma_buf_data(a) = 0xAAAA0001;
	*(uint32_t *)tt_dma_buf_data(b) = 0xBBBB0002;
	*(uint32_t *)tt_dma_buf_data(c) = 0xCCCC0003;
	a_noc = tt_dma_buf_noc_addr(a);

	/* Region 5 puts b where region 0 has a. */
	set_region(dev, 5, a_noc, a_noc + 4095, bus_of(dev, b),
		   TT_PCIE_ATU_CTRL_ENABLE);
	assert_int_equal(dma_cmd(dev, a, TT_NIU_OP_READ, 0, 0xC000, 4),
			 TT_DEV_ERR_NONE);
	assert_int_equal(tt_noc_read32(dev, 0, 2, 2, 0xC000, &v), 0);
	assert_int_equal(v, 0xBBBB0002);
	/* Region 3 over the same page wins over region 5. */
	set_region(dev, 3, a_noc, a_noc + 4095, bus_of(dev, c),
		   TT_PCIE_ATU_CTRL_ENABLE);
	assert_int_equal(dma_cmd(dev, a, TT_NIU_OP_READ, 0, 0xC000, 4),
			 TT_DEV_ERR_NONE);
	assert_int_equal(tt_noc_read32(dev, 0, 2, 2, 0xC000, &v), 0);
	assert_int_equal(v, 0xCCCC0003);
	/* An access that runs out of a driver's region falls to region 0:
	 * a's own bytes. */
	((uint32_t *)tt_dma_buf_data(a))[1024] = 0xAAAA1024;
	assert_int_equal(dma_cmd(dev, a, TT_NIU_OP_READ, 4092, 0xC000, 8),
			 TT_DEV_ERR_NONE);
	assert_int_equal(tt_noc_read32(dev, 0, 2, 2, 0xC004, &v), 0);
	assert_int_equal(v, 0xAAAA1024);
	/* Disabled, they are out of the way again. */
	set_region(dev, 3, 0, 0, 0, 0);
	set_region(dev, 5, 0, 0, 0, 0);
	assert_int_equal(dma_cmd(dev, a, TT_NIU_OP_READ, 0, 0xC000, 4),
			 TT_DEV_ERR_NONE);
	assert_int_equal(tt_noc_read32(dev, 0, 2, 2, 0xC000, &v), 0);
	assert_int_equal(v, 0xAAAA0001);
	/* The top of the window, where no buffer is, maps onto b by
	 * region 15. */
	set_region(dev, 15, top - 4096, top - 1, bus_of(dev, b),
		   TT_PCIE_ATU_CTRL_ENABLE);
	{
		struct niu_cmd cmd = { .op = TT_NIU_OP_READ, .x = 0, .y = 3,
				       .targ = top - 4096, .ret = 0xC000,
				       .len = 4 };

		assert_int_equal(niu_run(dev, 2, 2, 0, 0, &cmd), TT_DEV_ERR_NONE);
	}
	assert_int_equal(tt_noc_read32(dev, 0, 2, 2, 0xC000, &v), 0);
	assert_int_equal(v, 0xBBBB0002);
	set_region(dev, 15, 0, 0, 0, 0);
	tt_dma_buf_free(a);
	tt_dma_buf_free(b);
	tt_dma_buf_free(c);
}

static void test_host_cannot_use_host_window(void **state)
{
	tt_device *dev = *state;
	tt_dma_buf *b;
	uint32_t v;

	assert_int_equal(tt_dma_buf_alloc(dev, 4096, &b), 0);
	assert_int_equal(tt_noc_read32(dev, 0, 0, 3, tt_dma_buf_noc_addr(b), &v),
			 -EFAULT);
	assert_non_null(strstr(tt_last_error(), "host memory"));
	tt_dma_buf_free(b);
}

/* The cases that apply to a live chip behind the driver (testcases.h).
 * Not there: more buffers than the driver's 15 ATU regions, freeing before
 * close (tt-kmd cannot), the model's region 0 (an access past a driver
 * region falls to it, and its translation is the daemon's, not the
 * guest's). */
/* A buffer still alive when its device is closed loses its memory, and
 * its handle stays valid for tt_dma_buf_free. */
static void test_close_with_live_buffer(void **state)
{
	tt_dma_buf *b;
	tt_device *dev;

	(void)state;
	assert_int_equal(tt_device_open(0, &dev), 0);
	assert_int_equal(tt_dma_buf_alloc(dev, 4096, &b), 0);
	assert_non_null(tt_dma_buf_data(b));
	tt_device_close(dev);
	assert_null(tt_dma_buf_data(b));
	tt_dma_buf_free(b);
}

static const char *const kmd_cases[] = {
	"test_alloc_rounds_and_zeroes",
	"test_alloc_bad_sizes",
	"test_device_reads_host_memory",
	"test_device_writes_host_memory",
	"test_host_cannot_use_host_window",
	NULL,
};

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_rounds_and_zeroes),
		cmocka_unit_test(test_alloc_bad_sizes),
		cmocka_unit_test(test_close_with_live_buffer),
		cmocka_unit_test(test_device_reads_host_memory),
		cmocka_unit_test(test_device_writes_host_memory),
		cmocka_unit_test(test_buffers_are_distinct),
		cmocka_unit_test(test_past_buffer_end_is_refused),
		cmocka_unit_test(test_freed_buffer_unreachable),
		cmocka_unit_test(test_atu_miss),
		cmocka_unit_test(test_driver_regions_win_over_region_0),
		cmocka_unit_test(test_host_cannot_use_host_window),
	};

	/* A blank flash: no firmware runs, so these NOC and memory tests own
	 * every byte of L1 (the core firmware would live in the low 128 KiB). */
	setenv("TT_FIRMWARE", "/dev/null", 1);

	return RUN_GROUP("dma", tests, device_up, device_down, kmd_cases);
}
