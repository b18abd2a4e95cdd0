// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest against the live chip model only (programs named model_* run
 * where ttsim serves the node, tests/kselftest/README.md): the device
 * itself reads and writes DMA buffers at the NOC addresses ALLOCATE_DMA_BUF
 * gave, through the ATU regions the driver programmed and the guest RAM
 * that ttsim shares (--guest-ram). The NOC commands are issued the way the
 * host issues them to the model (hw/niu.h): a Tensix node's command buffer
 * in BAR2, its doorbell bit in the host registers, and ivshmem's doorbell
 * register in BAR0.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <hw/arch.h>
#include <hw/bits.h>
#include <hw/niu.h>
#include <hw/tile.h>

#include <kselftest_harness.h>

#define NOC TENSTORRENT_ALLOCATE_DMA_BUF_NOC_DMA
#define LEN (2 * PAGE)
#define WAIT_MS 5000

FIXTURE(model)
{
	int fd;
	volatile uint32_t *bar0;
	struct tt_host_regs *regs; /* BAR2 page 1 */
	struct tt_node_desc pcie, tensix;
	uint32_t tensix_index;
	uint8_t *niu;	  /* the Tensix node's NOC 0 command buffers */
	uint8_t *l1;	  /* LEN bytes at the end of its L1 */
	uint64_t l1_addr; /* their local address */
};

static void *map_bar2(struct __test_metadata *_metadata, int fd, uint64_t off,
		      size_t len)
{
	int err;
	void *p =
		map(fd, TENSTORRENT_MMAP_BAR2_UC + off, len, MAP_SHARED, &err);

	ASSERT_NE(NULL, p)
	TH_LOG("mmap of BAR2 at %#llx: %s", (unsigned long long)off,
	       strerror(err));
	return p;
}

/* The PCIe node and the first usable Tensix node of the node table. */
static void find_nodes(struct __test_metadata *_metadata,
		       FIXTURE_DATA(model) * self, const struct tt_identity *id,
		       const struct tt_node_desc *table)
{
	bool pcie = false, tensix = false;
	uint32_t i;

	for (i = 0; i < id->grid_x * id->grid_y; i++) {
		if (!pcie && table[i].type == TT_NODE_PCIE) {
			self->pcie = table[i];
			pcie = true;
		}
		if (!tensix && table[i].type == TT_NODE_TENSIX &&
		    !(table[i].flags & TT_NODE_F_HARVESTED) &&
		    table[i].mem_size >= 4 * LEN) {
			self->tensix = table[i];
			self->tensix_index = i;
			tensix = true;
		}
	}
	ASSERT_TRUE(pcie && tensix) TH_LOG("no PCIe or no Tensix node");
}

FIXTURE_SETUP(model)
{
	struct tenstorrent_get_device_info_out info = {0};
	struct tt_node_desc *table;
	struct tt_identity id;
	char bdf[32];
	int err;

	ASSERT_OPEN_DEVICE(self->fd, 0);
	ASSERT_EQ(0, read_node_table(self->fd, &id, &table))
	TH_LOG("cannot read the node table through BAR2");
	find_nodes(_metadata, self, &id, table);
	free(table);
	self->regs = map_bar2(_metadata, self->fd, TT_IMAGE_HOST_REGS_OFF,
			      TT_REG_PAGE_SIZE);

	self->niu =
		map_bar2(_metadata, self->fd,
			 self->tensix.regs_off + TT_REG_NIU0 * TT_REG_PAGE_SIZE,
			 TT_REG_PAGE_SIZE);
	/* The end of L1, away from firmware and kernels. */
	self->l1_addr = self->tensix.mem_base + self->tensix.mem_size - LEN;
	self->l1 = map_bar2(_metadata, self->fd,
			    self->tensix.mem_off + self->tensix.mem_size - LEN,
			    LEN);

	ASSERT_EQ(0, get_device_info(self->fd, &info));
	snprintf(bdf, sizeof(bdf), "%04x:%02x:%02x.%x", info.pci_domain,
		 info.bus_dev_fn >> 8, (info.bus_dev_fn >> 3) & 0x1f,
		 info.bus_dev_fn & 7);
	self->bar0 = map_bar0(bdf, &err);
	ASSERT_NE(NULL, self->bar0)
	TH_LOG("BAR0 of %s: %s", bdf, strerror(err));
}

FIXTURE_TEARDOWN(model)
{
	close(self->fd);
}

static volatile uint32_t *niu_reg(FIXTURE_DATA(model) * self, unsigned int reg)
{
	return (volatile uint32_t *)(self->niu + TT_NIU_CMD(0, reg));
}

/*
 * The Tensix node moves LEN bytes between its L1 and host-window address
 * @noc of the PCIe node (TT_NIU_OP_READ: into L1; WRITE: out of it).
 * Returns the command's status, or -1 if it did not finish in time.
 */
static int64_t noc_dma(FIXTURE_DATA(model) * self, unsigned int op,
		       uint64_t noc)
{
	unsigned int bell = TT_DOORBELL_NIU(self->tensix_index, 0);
	int ms;

	*niu_reg(self, TT_NIU_CMD_TARG_LO) = (uint32_t)noc;
	*niu_reg(self, TT_NIU_CMD_TARG_HI) = (uint32_t)(noc >> 32);
	*niu_reg(self, TT_NIU_CMD_TARG_COORD) =
		TT_FIELD_PREP(TT_NIU_COORD_X_MASK, self->pcie.x) |
		TT_FIELD_PREP(TT_NIU_COORD_Y_MASK, self->pcie.y);
	*niu_reg(self, TT_NIU_CMD_RET_LO) = (uint32_t)self->l1_addr;
	*niu_reg(self, TT_NIU_CMD_RET_HI) = (uint32_t)(self->l1_addr >> 32);
	*niu_reg(self, TT_NIU_CMD_LEN) = LEN;
	*niu_reg(self, TT_NIU_CMD_CTRL) =
		TT_FIELD_PREP(TT_NIU_CTRL_OP_MASK, op);
	__atomic_store_n(niu_reg(self, TT_NIU_CMD_ISSUE), 1, __ATOMIC_RELEASE);
	__atomic_or_fetch(&self->regs->doorbell_pending[bell / 32],
			  1u << (bell % 32), __ATOMIC_SEQ_CST);
	self->bar0[IVSHMEM_DOORBELL / 4] = IVSHMEM_RING_DEVICE;
	for (ms = 0; ms < WAIT_MS; ms++) {
		if (!__atomic_load_n(niu_reg(self, TT_NIU_CMD_ISSUE),
				     __ATOMIC_ACQUIRE))
			return *niu_reg(self, TT_NIU_CMD_STATUS);
		sleep_ms(1);
	}
	return -1;
}

static int alloc_noc_buf(int fd, uint8_t index,
			 struct tenstorrent_allocate_dma_buf_out *out)
{
	struct tenstorrent_allocate_dma_buf a = {
		.in.requested_size = LEN,
		.in.buf_index = index,
		.in.flags = NOC,
	};

	if (ioctl(fd, TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF, &a))
		return errno;
	*out = a.out;
	return 0;
}

static void fill(volatile uint8_t *p, uint8_t seed)
{
	size_t i;

	for (i = 0; i < LEN; i++)
		p[i] = (uint8_t)(seed + i * 13);
}

/* Index of the first byte of @p that fill(@seed) did not write, or LEN. */
static size_t first_diff(const volatile uint8_t *p, uint8_t seed)
{
	size_t i;

	for (i = 0; i < LEN; i++)
		if (p[i] != (uint8_t)(seed + i * 13))
			break;
	return i;
}

TEST_F(model, the_device_reads_a_dma_buffer)
{
	struct tenstorrent_allocate_dma_buf_out out;
	uint8_t *buf;
	int err;

	ASSERT_EQ(0, alloc_noc_buf(self->fd, 0, &out));
	buf = map(self->fd, out.mapping_offset, LEN, MAP_SHARED, &err);
	ASSERT_NE(NULL, buf);
	fill(buf, 0x31);
	memset(self->l1, 0, LEN);
	ASSERT_EQ(0, noc_dma(self, TT_NIU_OP_READ, out.noc_address))
	TH_LOG("NOC read of %#llx", (unsigned long long)out.noc_address);
	EXPECT_EQ(LEN, first_diff(self->l1, 0x31));
}

TEST_F(model, the_device_writes_a_dma_buffer)
{
	struct tenstorrent_allocate_dma_buf_out out;
	uint8_t *buf;
	int err;

	ASSERT_EQ(0, alloc_noc_buf(self->fd, 5, &out));
	buf = map(self->fd, out.mapping_offset, LEN, MAP_SHARED, &err);
	ASSERT_NE(NULL, buf);
	memset(buf, 0, LEN);
	fill(self->l1, 0x77);
	ASSERT_EQ(0, noc_dma(self, TT_NIU_OP_WRITE, out.noc_address));
	EXPECT_EQ(LEN, first_diff(buf, 0x77));
}

/* Once its file is closed, the buffer's NOC address reaches nothing. */
TEST_F(model, a_closed_files_buffer_is_out_of_the_devices_reach)
{
	struct tenstorrent_allocate_dma_buf_out out;
	int other = open_dev(tt_device(), 0);
	int64_t status;

	ASSERT_LE(0, other);
	ASSERT_EQ(0, alloc_noc_buf(other, 0, &out));
	ASSERT_EQ(0, noc_dma(self, TT_NIU_OP_WRITE, out.noc_address));
	close(other);
	status = noc_dma(self, TT_NIU_OP_WRITE, out.noc_address);
	EXPECT_TRUE(status == TT_DEV_ERR_ATU_MISS ||
		    status == TT_DEV_ERR_HOST_MEM)
	TH_LOG("status %lld", (long long)status);
}

TEST_HARNESS_MAIN
