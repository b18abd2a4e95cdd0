// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftests of DMA buffers: ALLOCATE_DMA_BUF, FREE_DMA_BUF, mmap of
 * buffers, and the outbound ATU regions that give them NOC addresses
 * (tt-kmd's memory.c; docs/abi.md). The regions are read back from the
 * PCIe node's registers in the device image (BAR2), so the test sees what
 * the device will use, not what the driver says.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <hw/arch.h>
#include <hw/pcie.h>
#include <hw/tile.h>

#include <kselftest_harness.h>

#define MAX_SIZE (1u << 28) /* 2^max_dma_buf_size_log2 */
#define NOC TENSTORRENT_ALLOCATE_DMA_BUF_NOC_DMA

static int alloc_buf(int fd, uint32_t size, uint8_t index, uint8_t flags,
		     struct tenstorrent_allocate_dma_buf_out *out)
{
	struct tenstorrent_allocate_dma_buf a = {
		.in.requested_size = size,
		.in.buf_index = index,
		.in.flags = flags,
	};

	memset(&a.out, 0xa5, sizeof(a.out));
	if (ioctl(fd, TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF, &a))
		return errno;
	if (out)
		*out = a.out;
	return 0;
}

FIXTURE(dma)
{
	int fd;
	/* The PCIe node's ATU register page, or NULL if the image has none. */
	volatile uint32_t *atu;
};

/* The first PCIe node whose registers lie in the image: map its ATU page. */
FIXTURE_SETUP(dma)
{
	struct tt_node_desc *table;
	struct tt_identity id;
	uint64_t regs = 0;
	uint32_t i;
	int err;

	ASSERT_OPEN_DEVICE(self->fd, 0);
	ASSERT_EQ(0, read_node_table(self->fd, &id, &table))
	TH_LOG("cannot read the node table through BAR2");
	for (i = 0; i < id.grid_x * id.grid_y && !regs; i++)
		if (table[i].type == TT_NODE_PCIE &&
		    table[i].regs_off + TT_REG_BLOCK_SIZE <= id.image_size)
			regs = table[i].regs_off;
	free(table);
	if (!regs)
		return;
	self->atu = map(self->fd,
			TENSTORRENT_MMAP_BAR2_UC + regs +
				TT_REG_PCIE_ATU * TT_REG_PAGE_SIZE,
			TT_REG_PAGE_SIZE, MAP_SHARED, &err);
	ASSERT_NE(NULL, self->atu)
	TH_LOG("mmap of the ATU page: %s", strerror(err));
}

FIXTURE_TEARDOWN(dma)
{
	if (self->atu)
		munmap((void *)self->atu, TT_REG_PAGE_SIZE);
	close(self->fd);
}

static uint32_t atu_reg(FIXTURE_DATA(dma) * self, unsigned int r,
			unsigned int reg)
{
	return self->atu[TT_PCIE_ATU(r, reg) / 4];
}

static uint64_t atu_reg64(FIXTURE_DATA(dma) * self, unsigned int r,
			  unsigned int reg)
{
	return (uint64_t)atu_reg(self, r, reg + 4) << 32 |
	       atu_reg(self, r, reg);
}

/* The enabled region that maps the window from local address @noc, or -1. */
static int atu_region_at(FIXTURE_DATA(dma) * self, uint64_t noc)
{
	unsigned int r;

	for (r = 0; r < TT_PCIE_ATU_REGIONS; r++)
		if ((atu_reg(self, r, TT_PCIE_ATU_CTRL) &
		     TT_PCIE_ATU_CTRL_ENABLE) &&
		    atu_reg64(self, r, TT_PCIE_ATU_BASE_LO) == noc)
			return r;
	return -1;
}

TEST_F(dma, allocate_checks_size_and_index)
{
	static const uint32_t bad[] = {0,
				       1,
				       4095,
				       4097,
				       MAX_SIZE + 4096,
				       1u << 31,
				       UINT32_MAX & ~4095u};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_EQ(EINVAL, alloc_buf(self->fd, bad[i], 0, 0, NULL))
	TH_LOG("size %u", bad[i]);
	ASSERT_EQ(0, alloc_buf(self->fd, PAGE, 0, 0, NULL));
	EXPECT_EQ(EINVAL, alloc_buf(self->fd, PAGE, 0, 0, NULL))
	TH_LOG("index 0 is taken");
	EXPECT_EQ(0, alloc_buf(self->fd, 2 * PAGE, 255, 0, NULL));
	/* Flags other than NOC_DMA are ignored, as tt-kmd does. */
	EXPECT_EQ(0, alloc_buf(self->fd, PAGE, 7, 0x01, NULL));
}

/*
 * The largest sizes the ABI allows are beyond the page allocator's largest
 * order: they succeed or fail with ENOMEM, and the guest's kernel log
 * (checked by tests/vm) gets no allocation warning either way.
 */
TEST_F(dma, large_sizes_succeed_or_say_enomem)
{
	static const uint32_t sizes[] = {16u << 20, 0xff8000, MAX_SIZE};
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int err = alloc_buf(self->fd, sizes[i], (uint8_t)(20 + i), 0,
				    NULL);

		EXPECT_TRUE(err == 0 || err == ENOMEM)
		TH_LOG("size %#x: %s", sizes[i], strerror(err));
	}
}

TEST_F(dma, allocate_reports_the_buffer)
{
	struct tenstorrent_allocate_dma_buf_out out;

	ASSERT_EQ(0, alloc_buf(self->fd, 4 * PAGE, 9, 0, &out));
	EXPECT_EQ(4 * (uint32_t)PAGE, out.size);
	EXPECT_EQ(TENSTORRENT_MMAP_DMA_BUF(PAGE, 9), out.mapping_offset);
	EXPECT_EQ(0xF00ull << 32 | 9ull << 32, out.mapping_offset)
	TH_LOG("tt-kmd's offset with 4 KiB pages");
	EXPECT_NE(0u, out.physical_address);
	EXPECT_EQ(0u, out.physical_address % PAGE);
	EXPECT_EQ(0u, out.noc_address) TH_LOG("no NOC address without NOC_DMA");
	EXPECT_EQ(0u, out.reserved0);
	EXPECT_EQ(0u, out.reserved1);
}

TEST_F(dma, free_dma_buf_always_fails)
{
	ASSERT_EQ(0, alloc_buf(self->fd, PAGE, 0, 0, NULL));
	EXPECT_EQ(-1, ioctl(self->fd, TENSTORRENT_IOCTL_FREE_DMA_BUF, NULL));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(dma, mmap_shows_the_buffer_of_this_file_only)
{
	int err;
	struct tenstorrent_allocate_dma_buf_out out, theirs;
	int other = open_dev(tt_device(), 0);
	uint8_t *p, *q;
	size_t i;

	ASSERT_LE(0, other);
	ASSERT_EQ(0, alloc_buf(self->fd, 4 * PAGE, 3, 0, &out));
	ASSERT_EQ(0, alloc_buf(other, PAGE, 4, 0, &theirs));
	p = map(self->fd, out.mapping_offset, 4 * PAGE, MAP_SHARED, &err);
	ASSERT_NE(NULL, p) TH_LOG("mmap: %s", strerror(err));
	for (i = 0; i < 4 * PAGE; i++)
		p[i] = (uint8_t)(i * 7);
	/* A second mapping of the last pages shows the same memory. */
	q = map(self->fd, out.mapping_offset + 2 * PAGE, 2 * PAGE, MAP_SHARED,
		&err);
	ASSERT_NE(NULL, q);
	EXPECT_EQ(0, memcmp(p + 2 * PAGE, q, 2 * PAGE));
	munmap(q, 2 * PAGE);

	errno = 0;
	EXPECT_EQ(NULL, map(self->fd, out.mapping_offset, 5 * PAGE, MAP_SHARED,
			    &err));
	EXPECT_EQ(EINVAL, err) TH_LOG("larger than the buffer");
	EXPECT_EQ(NULL, map(self->fd, out.mapping_offset + 4 * PAGE, PAGE,
			    MAP_SHARED, &err));
	EXPECT_EQ(EINVAL, err) TH_LOG("past the buffer");
	EXPECT_EQ(NULL,
		  map(self->fd, out.mapping_offset, PAGE, MAP_PRIVATE, &err));
	EXPECT_EQ(EINVAL, err) TH_LOG("a private mapping");
	EXPECT_EQ(NULL,
		  map(self->fd, theirs.mapping_offset, PAGE, MAP_SHARED, &err));
	EXPECT_EQ(EINVAL, err) TH_LOG("index 4 is another file's");
	EXPECT_EQ(NULL, map(self->fd, TENSTORRENT_MMAP_DMA_BUF(PAGE, 255), PAGE,
			    MAP_SHARED, &err));
	EXPECT_EQ(EINVAL, err) TH_LOG("index 255 was never allocated");
	munmap(p, 4 * PAGE);
	close(other);
}

TEST_F(dma, noc_dma_gives_an_atu_region_from_the_top)
{
	struct tenstorrent_allocate_dma_buf_out a, b;
	const uint64_t top =
		TT_PCIE_HOST_WINDOW_BASE + TT_PCIE_HOST_WINDOW_SIZE;
	int r;

	ASSERT_NE(NULL, self->atu) TH_LOG("the image has no PCIe node");
	ASSERT_EQ(0, alloc_buf(self->fd, 2 * PAGE, 0, NOC, &a));
	ASSERT_EQ(0, alloc_buf(self->fd, PAGE, 1, NOC, &b));
	EXPECT_EQ(top - 2 * PAGE, a.noc_address);
	EXPECT_EQ(a.noc_address - PAGE, b.noc_address);

	r = atu_region_at(self, a.noc_address);
	ASSERT_LE(1, r)
	TH_LOG("no region at %#llx, or region 0 (the model's)",
	       (unsigned long long)a.noc_address);
	EXPECT_EQ(a.noc_address + 2 * PAGE - 1,
		  atu_reg64(self, r, TT_PCIE_ATU_LIMIT_LO));
	EXPECT_EQ(a.physical_address,
		  atu_reg64(self, r, TT_PCIE_ATU_TARGET_LO));
	r = atu_region_at(self, b.noc_address);
	ASSERT_LE(1, r);
	EXPECT_EQ(b.physical_address,
		  atu_reg64(self, r, TT_PCIE_ATU_TARGET_LO));
}

TEST_F(dma, atu_regions_run_out_and_come_back_at_close)
{
	struct tenstorrent_allocate_dma_buf_out out;
	int other = open_dev(tt_device(), 0), n;

	ASSERT_NE(NULL, self->atu) TH_LOG("the image has no PCIe node");
	ASSERT_LE(0, other);
	/* Region 0 is the model's: 15 are left. */
	for (n = 0; n < TT_PCIE_ATU_REGIONS - 1; n++)
		ASSERT_EQ(0, alloc_buf(other, PAGE, n, NOC, &out))
	TH_LOG("%d", n);
	EXPECT_EQ(ENOMEM, alloc_buf(other, PAGE, n, NOC, NULL));
	EXPECT_EQ(ENOMEM, alloc_buf(self->fd, PAGE, 0, NOC, NULL));
	/* Without NOC_DMA no region is needed. */
	EXPECT_EQ(0, alloc_buf(self->fd, PAGE, 0, 0, NULL));
	close(other);
	/* The last buffer's region is closed, and free again. */
	EXPECT_EQ(-1, atu_region_at(self, out.noc_address));
	EXPECT_EQ(0, alloc_buf(self->fd, PAGE, 1, NOC, NULL));
}

TEST_HARNESS_MAIN
