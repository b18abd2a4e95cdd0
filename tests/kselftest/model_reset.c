// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest against the live chip model only (tests/kselftest/README.md):
 * a warm reset through the management firmware. ASIC_RESET and
 * ASIC_DMC_RESET send TRIGGER_RESET on the kernel's message queue; the
 * chip resets (the identity page's reset_gen and the reset unit's count
 * move), POST_RESET sees it back and says so, the resetting fd works again
 * with its ATU regions reprogrammed, a stale fd's regions are closed, and
 * the firmware takes power requests again.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <hw/arch.h>
#include <hw/pcie.h>
#include <hw/tile.h>

#include <kselftest_harness.h>

#define NOC TENSTORRENT_ALLOCATE_DMA_BUF_NOC_DMA

static int alloc_noc_buf(int fd, uint8_t index, uint64_t *bus)
{
	struct tenstorrent_allocate_dma_buf a = {
		.in.requested_size = PAGE,
		.in.buf_index = index,
		.in.flags = NOC,
	};

	if (ioctl(fd, TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF, &a))
		return -errno;
	*bus = a.out.physical_address;
	return 0;
}

FIXTURE(model_reset) {
	int r, other;
	uint64_t pcie_regs;
};

FIXTURE_SETUP(model_reset)
{
	struct tt_node_desc *table;
	struct tt_identity id;

	ASSERT_OPEN_DEVICE(self->r, O_APPEND);
	ASSERT_OPEN_DEVICE(self->other, 0);
	ASSERT_EQ(0, read_node_table(self->r, &id, &table));
	/* The first PCIe node, the one the driver programs (a Blackhole
	 * has two). */
	for (uint32_t i = 0; i < id.grid_x * id.grid_y && !self->pcie_regs;
	     i++)
		if (table[i].type == TT_NODE_PCIE &&
		    table[i].regs_off + TT_REG_BLOCK_SIZE <= id.image_size)
			self->pcie_regs = table[i].regs_off;
	free(table);
	ASSERT_NE(0, self->pcie_regs) TH_LOG("no PCIe node");
}

FIXTURE_TEARDOWN(model_reset)
{
	reset_device(self->r, TENSTORRENT_RESET_DEVICE_POST_RESET);
	close(self->r);
	if (self->other >= 0)
		close(self->other);
}

static uint32_t reset_gen(int fd)
{
	struct tt_node_desc *table;
	struct tt_identity id;

	if (read_node_table(fd, &id, &table))
		return UINT32_MAX;
	free(table);
	return id.reset_gen;
}

/* Is an enabled ATU region of the PCIe node aimed at bus address @bus? */
static bool atu_targets(FIXTURE_DATA(model_reset) * self, uint64_t bus)
{
	volatile uint32_t *atu;
	bool found = false;
	int err;

	atu = map(self->r,
		  TENSTORRENT_MMAP_BAR2_UC + self->pcie_regs +
			  TT_REG_PCIE_ATU * TT_REG_PAGE_SIZE,
		  TT_REG_PAGE_SIZE, MAP_SHARED, &err);
	if (!atu)
		return false;
	for (unsigned int r = 1; r < TT_PCIE_ATU_REGIONS; r++) {
		const volatile uint32_t *reg = atu + TT_PCIE_ATU(r, 0) / 4;
		uint64_t target = reg[TT_PCIE_ATU_TARGET_LO / 4] |
				  (uint64_t)reg[TT_PCIE_ATU_TARGET_HI / 4] << 32;

		if ((reg[TT_PCIE_ATU_CTRL / 4] & TT_PCIE_ATU_CTRL_ENABLE) &&
		    target == bus)
			found = true;
	}
	munmap((void *)atu, TT_REG_PAGE_SIZE);
	return found;
}

static void reset_and_back(struct __test_metadata *_metadata,
			   FIXTURE_DATA(model_reset) * self, uint32_t flags)
{
	struct tenstorrent_get_device_info_out o;
	uint64_t mine, theirs;
	uint32_t gen = reset_gen(self->r);

	ASSERT_EQ(0, alloc_noc_buf(self->r, 0, &mine));
	ASSERT_EQ(0, alloc_noc_buf(self->other, 0, &theirs));
	ASSERT_TRUE(atu_targets(self, mine));
	ASSERT_TRUE(atu_targets(self, theirs));

	ASSERT_EQ(0, reset_device(self->r, flags)) TH_LOG("the firmware refused");
	EXPECT_EQ(-ENODEV, get_device_info(self->other, &o));
	EXPECT_EQ(0, reset_device(self->r, TENSTORRENT_RESET_DEVICE_POST_RESET))
	TH_LOG("the chip did not come back");
	EXPECT_LT(gen, reset_gen(self->r)) TH_LOG("reset_gen did not move");
	EXPECT_TRUE(atu_targets(self, mine)) TH_LOG("not reprogrammed");
	EXPECT_FALSE(atu_targets(self, theirs)) TH_LOG("a stale fd's region");
}

TEST_F(model_reset, asic_reset)
{
	reset_and_back(_metadata, self, TENSTORRENT_RESET_DEVICE_ASIC_RESET);
}

TEST_F(model_reset, asic_dmc_reset)
{
	reset_and_back(_metadata, self,
		       TENSTORRENT_RESET_DEVICE_ASIC_DMC_RESET);
}

TEST_F(model_reset, firmware_takes_power_requests_after_a_reset)
{
	struct tenstorrent_power_state ps = {
		.argsz = sizeof(ps),
		.validity = TT_POWER_VALIDITY(1, 0),
		.power_flags = TT_POWER_FLAG_MAX_AI_CLK,
	};

	ASSERT_EQ(0, reset_device(self->r, TENSTORRENT_RESET_DEVICE_ASIC_RESET));
	ASSERT_EQ(0, reset_device(self->r, TENSTORRENT_RESET_DEVICE_POST_RESET));
	EXPECT_EQ(0, ioctl(self->r, TENSTORRENT_IOCTL_SET_POWER_STATE, &ps))
	TH_LOG("%s", strerror(errno));
	ps.power_flags = 0;
	EXPECT_EQ(0, ioctl(self->r, TENSTORRENT_IOCTL_SET_POWER_STATE, &ps));
}

TEST_HARNESS_MAIN
