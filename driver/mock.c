// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "mock" backend: the chip model (ttsim) seen through a QEMU ivshmem
 * function, whose BAR2 is the model's device image (hw/host.h).
 *
 * ivshmem is a generic device that other software uses too, so a function
 * is ours only if the image begins with the model's identity page: without
 * the signature the function is left alone with one debug line. A signed
 * image that this driver cannot use (another contract, or fields that do
 * not fit the BAR) gets one error line naming the field: the device is
 * untrusted input, and every value read from it is checked before use.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/pci.h>

#include <hw/arc.h>
#include <hw/arch.h>
#include <hw/decode.h>
#include <hw/dmaeng.h>
#include <hw/host.h>
#include <hw/noc.h>
#include <hw/pcie.h>
#include <hw/telemetry.h>
#include <hw/tile.h>
#include <hw/version.h>

#include "msgq.h"
#include "telemetry.h"
#include "tenstorrent.h"

#define TT_MOCK_IMAGE_BAR 2

/*
 * ivshmem's BAR0 (QEMU's docs/specs/ivshmem-spec.rst): writing
 * (peer << 16) | vector to the doorbell register signals that peer. ttsim
 * is peer 1 with one doorbell, "look at the image" (docs/ttsim.md).
 */
#define TT_MOCK_REGS_BAR 0
#define TT_MOCK_IVSHMEM_DOORBELL 12
#define TT_MOCK_RING_MODEL ((1u << 16) | 0)

/*
 * What the driver maps of BAR2 first: the identity page and the host
 * registers; then the node table and the ARC node's pages. The image is as
 * large as the chip's memory (16 GiB for ttsim's n150), too much to map
 * whole: a KASAN kernel needs shadow memory for every mapped byte. User
 * mappings (mmap.c, tlb.c) reach the rest through the BAR's pages.
 */
#define TT_MOCK_MAP_SIZE TT_IMAGE_NODE_TABLE_OFF

/**
 * struct tt_mock - state of one mock device
 * @image: the first TT_MOCK_MAP_SIZE bytes of BAR2 (the whole BAR is
 *	claimed; both are released with the PCI binding)
 * @image_size: bytes of the image, checked against the BAR
 * @arc_regs: the ARC node's reset-unit page (scratch RAM), or NULL
 * @csm: the ARC node's memory from local address TT_ARC_CSM_BASE, or NULL
 * @csm_size: bytes of @csm
 * @bar_start: physical address of BAR2, for the page frames of TLB windows
 * @nodes: the node table, @grid_x * @grid_y entries
 * @grid_x: NOC grid, as checked at probe
 * @grid_y: likewise
 * @atu: the PCIe node's ATU register page, or NULL
 * @ivshmem: ivshmem's registers (BAR0), to wake the model, or NULL
 * @arc_index: the ARC node's index in the node table
 * @fw: the path to the management firmware (msgq.c)
 * @fw_lock: serialises messages on the kernel's queue
 * @dma: the PCIe node's DMA engine pages (register page, then the ring),
 *	or NULL
 * @irq: the Linux interrupt of MSI-X vector 0, or -1
 */
struct tt_mock {
	void __iomem *image;
	u64 image_size;
	resource_size_t bar_start;
	void __iomem *nodes;
	u32 grid_x;
	u32 grid_y;
	void __iomem *atu;
	void __iomem *dma;
	int irq;
	void __iomem *arc_regs;
	void __iomem *csm;
	u32 csm_size;
	void __iomem *ivshmem;
	u32 arc_index;
	struct tt_fw_io fw;
	struct mutex fw_lock; /* the kernel's message queue */
};

#define TT_ID_OFF(field) offsetof(struct tt_identity, field)

static u16 tt_id_read16(void __iomem *image, size_t off)
{
	return ioread16(image + TT_IMAGE_IDENTITY_OFF + off);
}

static u32 tt_id_read32(void __iomem *image, size_t off)
{
	return ioread32(image + TT_IMAGE_IDENTITY_OFF + off);
}

static u64 tt_id_read64(void __iomem *image, size_t off)
{
	u64 lo = tt_id_read32(image, off);
	u64 hi = tt_id_read32(image, off + 4);

	return hi << 32 | lo;
}

static bool tt_mock_signed(struct device *dev, void __iomem *image)
{
	u32 lo = tt_id_read32(image, TT_ID_OFF(magic_lo));
	u32 hi = tt_id_read32(image, TT_ID_OFF(magic_hi));

	if (lo == TT_IDENTITY_MAGIC_LO && hi == TT_IDENTITY_MAGIC_HI)
		return true;
	dev_dbg(dev, "no chip model signature in BAR2 (%08x %08x): not ours\n",
		lo, hi);
	return false;
}

/*
 * The fields of a signed image that later code relies on. The image size
 * and grid are kept in @mock as checked: the device may change them at any
 * time, so they are never read again.
 */
static int tt_mock_check_identity(struct device *dev, void __iomem *image,
				  u64 bar_len, struct tt_mock *mock)
{
	u16 major = tt_id_read16(image, TT_ID_OFF(contract_major));
	u16 minor = tt_id_read16(image, TT_ID_OFF(contract_minor));
	u64 size = tt_id_read64(image, TT_ID_OFF(image_size));
	u64 table_off = tt_id_read64(image, TT_ID_OFF(node_table_off));
	u32 node_size = tt_id_read32(image, TT_ID_OFF(node_size));
	u32 grid_x = tt_id_read32(image, TT_ID_OFF(grid_x));
	u32 grid_y = tt_id_read32(image, TT_ID_OFF(grid_y));

	if (major != TT_HW_CONTRACT_MAJOR) {
		dev_err(dev,
			"device image uses chip contract %u.%u, this driver knows %u.x: ignored\n",
			major, minor, TT_HW_CONTRACT_MAJOR);
		return -ENODEV;
	}
	if (size < TT_IMAGE_NODE_TABLE_OFF || size > bar_len) {
		dev_err(dev,
			"device image size %llu does not fit BAR2 (%llu bytes): ignored\n",
			size, bar_len);
		return -ENODEV;
	}
	if (table_off != TT_IMAGE_NODE_TABLE_OFF ||
	    node_size != sizeof(struct tt_node_desc)) {
		dev_err(dev,
			"device image node table at %#llx with %u-byte entries, expected %#x and %zu: ignored\n",
			table_off, node_size, TT_IMAGE_NODE_TABLE_OFF,
			sizeof(struct tt_node_desc));
		return -ENODEV;
	}
	if (!grid_x || !grid_y || grid_x > TT_NOC_MAX_COORD + 1 ||
	    grid_y > TT_NOC_MAX_COORD + 1 ||
	    (u64)grid_x * grid_y * node_size > size - table_off) {
		dev_err(dev,
			"device image grid %u by %u does not fit the image: ignored\n",
			grid_x, grid_y);
		return -ENODEV;
	}
	mock->image_size = size;
	mock->grid_x = grid_x;
	mock->grid_y = grid_y;
	return 0;
}

#define TT_NODE_OFF(field) offsetof(struct tt_node_desc, field)

static u64 tt_node_read64(void __iomem *node, size_t off)
{
	return (u64)ioread32(node + off + 4) << 32 | ioread32(node + off);
}

static void __iomem *tt_mock_node(struct tt_mock *mock, u32 index)
{
	return mock->nodes + index * sizeof(struct tt_node_desc);
}

/* The first node of @type: its index, or -1. */
static int tt_mock_find_node(struct tt_mock *mock, u8 type)
{
	u32 count = mock->grid_x * mock->grid_y, i;

	for (i = 0; i < count; i++)
		if (ioread8(tt_mock_node(mock, i) + TT_NODE_OFF(type)) == type)
			return i;
	return -1;
}

/* Does node @n's register block lie inside the image? */
static bool tt_mock_regs_ok(struct tt_mock *mock, void __iomem *n)
{
	u64 regs = tt_node_read64(n, TT_NODE_OFF(regs_off));

	return regs <= mock->image_size &&
	       mock->image_size - regs >= TT_REG_BLOCK_SIZE;
}

/*
 * Map the ARC node's scratch RAM and memory, where the management firmware
 * publishes its telemetry (hw/telemetry.h). Without them the device has no
 * telemetry; that is not an error of the probe.
 */
static void tt_mock_map_arc(struct device *dev, struct tt_mock *mock)
{
	int i = tt_mock_find_node(mock, TT_NODE_ARC);
	void __iomem *arc;
	u64 regs, mem, size;

	if (i < 0)
		return;
	arc = tt_mock_node(mock, i);
	regs = tt_node_read64(arc, TT_NODE_OFF(regs_off));
	mem = tt_node_read64(arc, TT_NODE_OFF(mem_off));
	size = tt_node_read64(arc, TT_NODE_OFF(mem_size));
	if (tt_node_read64(arc, TT_NODE_OFF(mem_base)) != TT_ARC_CSM_BASE ||
	    size > TT_ARC_CSM_SIZE || size < 8 || mem > mock->image_size ||
	    size > mock->image_size - mem || !tt_mock_regs_ok(mock, arc)) {
		dev_err(dev, "device image: ARC node %d has memory or registers outside the image: no telemetry\n",
			i);
		return;
	}
	mock->arc_regs = devm_ioremap(dev, mock->bar_start + regs +
				      TT_REG_ARC_RESET * TT_REG_PAGE_SIZE,
				      TT_REG_PAGE_SIZE);
	mock->csm = devm_ioremap(dev, mock->bar_start + mem, size);
	mock->csm_size = size;
	mock->arc_index = i;
	if (!mock->arc_regs)
		mock->csm = NULL;
}

/*
 * Map the PCIe node's ATU registers, through which DMA buffers get NOC
 * addresses. Region 0 is the model's own (it maps the window for the
 * model's local clients, docs/hw.md); the driver uses the others.
 */
static void tt_mock_map_atu(struct tt_device *tdev, struct tt_mock *mock)
{
	struct device *dev = &tdev->pdev->dev;
	int i = tt_mock_find_node(mock, TT_NODE_PCIE);
	void __iomem *pcie;

	if (i < 0)
		return;
	pcie = tt_mock_node(mock, i);
	if (!tt_mock_regs_ok(mock, pcie)) {
		dev_err(dev, "device image: PCIe node %d has registers outside the image: no NOC DMA\n",
			i);
		return;
	}
	mock->atu = devm_ioremap(dev, mock->bar_start +
				 tt_node_read64(pcie, TT_NODE_OFF(regs_off)) +
				 TT_REG_PCIE_ATU * TT_REG_PAGE_SIZE,
				 TT_REG_PAGE_SIZE);
	if (mock->atu)
		tt_atu_init(&tdev->atu, TT_PCIE_HOST_WINDOW_SIZE,
			    TT_PCIE_HOST_WINDOW_BASE, 1, TT_PCIE_ATU_REGIONS);
	/* tt_mock_regs_ok() checked the whole block, which holds them. */
	mock->dma = devm_ioremap(dev, mock->bar_start +
				 tt_node_read64(pcie, TT_NODE_OFF(regs_off)) +
				 TT_DMA_REG_PAGE * TT_REG_PAGE_SIZE,
				 (1 + TT_DMA_RING_PAGES) * TT_REG_PAGE_SIZE);
}

/*
 * The DMA engine's interrupt and doorbell: MSI-X vector 0 of the
 * ivshmem-doorbell function (every interrupt of the model arrives there)
 * and its doorbell register. A function without them (ivshmem-plain) has
 * no DMA queues; that is not an error.
 */
static void tt_mock_setup_irq(struct pci_dev *pdev, struct tt_mock *mock)
{
	struct device *dev = &pdev->dev;

	mock->irq = -1;
	/* tt_mock_init_fw() mapped the doorbell. */
	if (!mock->dma || !mock->ivshmem || pci_msix_vec_count(pdev) < 1)
		return;
	if (pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSIX) != 1) {
		dev_err(dev, "no MSI-X vector: no DMA queues\n");
		return;
	}
	mock->irq = pci_irq_vector(pdev, 0);
	if (mock->irq < 0) {
		pci_free_irq_vectors(pdev);
		return;
	}
	/* An MSI is a write by the device: QEMU drops it without this. */
	pci_set_master(pdev);
}

/*
 * Tell the model that node @index changed (hw/host.h "node events"): mark
 * it, advance the doorbell sequence, and ring ttsim through ivshmem. The
 * marks are shared with the model and other agents, so they change only
 * by atomic operations; BAR2 is plain shared memory, where the CPU's
 * locked instructions work as on RAM.
 */
static void tt_mock_node_event(struct tt_mock *mock, u32 index)
{
	void __iomem *regs = mock->image + TT_IMAGE_HOST_REGS_OFF;
	void __iomem *word = regs + offsetof(struct tt_host_regs,
					     event_pending[index / 32]);

	if (index >= TT_EVENT_WORDS * 32)
		return;
	atomic_or(BIT(index % 32), (__force atomic_t *)word);
	atomic_inc((__force atomic_t *)(regs + offsetof(struct tt_host_regs,
							doorbell_seq)));
	if (mock->ivshmem)
		iowrite32(TT_MOCK_RING_MODEL,
			  mock->ivshmem + TT_MOCK_IVSHMEM_DOORBELL);
}

static struct tt_mock *tt_mock_of_io(const struct tt_fw_io *io)
{
	return io->ctx;
}

/* msgq.c checks every offset against csm_size before it comes here. */
static u32 tt_mock_fw_csm_read32(const struct tt_fw_io *io, u32 off)
{
	return ioread32(tt_mock_of_io(io)->csm + off);
}

static void tt_mock_fw_csm_write32(const struct tt_fw_io *io, u32 off, u32 v)
{
	iowrite32(v, tt_mock_of_io(io)->csm + off);
}

static u32 tt_mock_fw_reg_read32(const struct tt_fw_io *io, u32 off)
{
	return ioread32(tt_mock_of_io(io)->arc_regs + off);
}

static void tt_mock_fw_ring(const struct tt_fw_io *io)
{
	struct tt_mock *mock = tt_mock_of_io(io);

	iowrite32(TT_ARC_MISC_CNTL_IRQ0, mock->arc_regs + TT_ARC_MISC_CNTL);
	tt_mock_node_event(mock, mock->arc_index);
}

/* The firmware is reachable if the ARC node's pages were mapped. */
static void tt_mock_init_fw(struct pci_dev *pdev, struct tt_mock *mock)
{
	struct device *dev = &pdev->dev;

	mutex_init(&mock->fw_lock);
	if (pci_resource_len(pdev, TT_MOCK_REGS_BAR) >=
	    TT_MOCK_IVSHMEM_DOORBELL + 4)
		mock->ivshmem = devm_ioremap(dev,
					     pci_resource_start(pdev,
								TT_MOCK_REGS_BAR),
					     TT_MOCK_IVSHMEM_DOORBELL + 4);
	if (!mock->csm)
		return;
	mock->fw = (struct tt_fw_io){
		.csm_read32 = tt_mock_fw_csm_read32,
		.csm_write32 = tt_mock_fw_csm_write32,
		.reg_read32 = tt_mock_fw_reg_read32,
		.ring = tt_mock_fw_ring,
		.csm_size = mock->csm_size,
		.ctx = mock,
	};
}

static int tt_mock_probe(struct tt_device *tdev)
{
	struct pci_dev *pdev = tdev->pdev;
	struct device *dev = &pdev->dev;
	u64 bar_len = pci_resource_len(pdev, TT_MOCK_IMAGE_BAR);
	resource_size_t start = pci_resource_start(pdev, TT_MOCK_IMAGE_BAR);
	struct tt_mock *mock;
	void __iomem *image;
	int ret;

	if (!(pci_resource_flags(pdev, TT_MOCK_IMAGE_BAR) & IORESOURCE_MEM) ||
	    bar_len < TT_IMAGE_NODE_TABLE_OFF) {
		dev_dbg(dev, "BAR2 (%llu bytes) cannot hold a device image: not ours\n",
			bar_len);
		return -ENODEV;
	}
	if (!devm_request_mem_region(dev, start, bar_len, TT_NAME)) {
		dev_err(dev, "cannot claim BAR2 (%llu bytes at %pa): in use\n",
			bar_len, &start);
		return -EBUSY;
	}
	image = devm_ioremap(dev, start, TT_MOCK_MAP_SIZE);
	if (!image) {
		dev_err(dev, "cannot map the first %u bytes of BAR2\n",
			TT_MOCK_MAP_SIZE);
		return -ENOMEM;
	}

	if (!tt_mock_signed(dev, image))
		return -ENODEV;
	mock = devm_kzalloc(dev, sizeof(*mock), GFP_KERNEL);
	if (!mock)
		return -ENOMEM;
	mock->irq = -1;
	ret = tt_mock_check_identity(dev, image, bar_len, mock);
	if (ret)
		return ret;

	mock->image = image;
	mock->bar_start = start;
	/* tt_mock_check_identity() found the table inside the image. */
	mock->nodes = devm_ioremap(dev, start + TT_IMAGE_NODE_TABLE_OFF,
				   (size_t)mock->grid_x * mock->grid_y *
					   sizeof(struct tt_node_desc));
	if (!mock->nodes) {
		dev_err(dev, "cannot map the node table\n");
		return -ENOMEM;
	}
	tdev->backend_priv = mock;
	tdev->arch = tt_id_read32(image, TT_ID_OFF(arch));
	tdev->board = tt_id_read32(image, TT_ID_OFF(board));
	tdev->chip_index = tt_id_read32(image, TT_ID_OFF(chip_index));
	tt_mock_map_arc(dev, mock);
	tt_mock_init_fw(pdev, mock);
	/* The model reaches all of the guest's memory (ttsim --guest-ram). */
	tdev->dma_capable = !dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (tdev->dma_capable) {
		tt_mock_map_atu(tdev, mock);
		tt_mock_setup_irq(pdev, mock);
	}
	return 0;
}

static u32 tt_mock_csm_read32(const struct tt_telem_csm *csm, u32 off)
{
	const struct tt_mock *mock = csm->ctx;

	return ioread32(mock->csm + off);
}

static int tt_mock_telemetry(struct tt_device *tdev, struct tt_telemetry *t)
{
	struct tt_mock *mock = tdev->backend_priv;
	struct tt_telem_csm csm = { .read32 = tt_mock_csm_read32 };

	if (!mock || !mock->csm)
		return -ENODATA;
	csm.ctx = mock;
	csm.size = mock->csm_size;
	return tt_telem_parse(&csm,
			      ioread32(mock->arc_regs +
				       TT_ARC_SCRATCH_RAM(TT_ARC_SR_TELEM_TABLE)),
			      ioread32(mock->arc_regs +
				       TT_ARC_SCRATCH_RAM(TT_ARC_SR_TELEM_DATA)),
			      t);
}

/*
 * A window reaches node memory and, for reading, the node's register
 * pages: the model keeps register values in the image and reads have no
 * side effects, but it reacts to register writes and host-window accesses
 * through its own paths, which a page of the image would bypass.
 * Multicast would need one page in many places.
 */
static int tt_mock_tlb_configure(struct tt_device *tdev, u32 id,
				 const struct tenstorrent_noc_tlb_config *c)
{
	return c->mcast ? -EOPNOTSUPP : 0;
}

/*
 * The image page of register page @addr of @node (hw/tile.h: the node's
 * register block at regs_off holds its pages in enum tt_reg_page order),
 * if the node has that page and the block lies inside the image.
 */
static int tt_mock_reg_pfn(struct tt_mock *mock, void __iomem *node, u64 addr,
			   unsigned long *pfn)
{
	const unsigned long reg_page = TT_REG_PAGE_SIZE;
	int page = tt_reg_page_of(addr);
	u64 regs;

	/* A bigger kernel page would show a register page's neighbours. */
	if (reg_page != PAGE_SIZE || page < 0 ||
	    !tt_reg_page_present(ioread8(node + TT_NODE_OFF(type)),
				 (enum tt_reg_page)page))
		return -EFAULT;
	regs = tt_node_read64(node, TT_NODE_OFF(regs_off));
	if (!PAGE_ALIGNED(regs) || regs > mock->image_size ||
	    mock->image_size - regs < TT_REG_BLOCK_SIZE)
		return -EFAULT;
	*pfn = (mock->bar_start + regs + page * TT_REG_PAGE_SIZE) >> PAGE_SHIFT;
	return 0;
}

/*
 * The image page that holds local address @c->addr + @off of the window's
 * node: inside the node's memory and the image, or one of the node's
 * register pages (*@read_only), else -EFAULT. The node table is read
 * afresh; the device may have changed it.
 */
static int tt_mock_tlb_pfn(struct tt_device *tdev,
			   const struct tenstorrent_noc_tlb_config *c, u64 off,
			   unsigned long *pfn, bool *read_only)
{
	struct tt_mock *mock = tdev->backend_priv;
	u32 x = c->x_end, y = c->y_end;
	u64 addr = c->addr + off, base, size, img;
	void __iomem *node;

	if (x >= mock->grid_x || y >= mock->grid_y)
		return -EFAULT;
	if (c->noc) {
		x = mock->grid_x - 1 - x;
		y = mock->grid_y - 1 - y;
	}
	node = tt_mock_node(mock, y * mock->grid_x + x);
	if (ioread8(node + TT_NODE_OFF(type)) == TT_NODE_NONE ||
	    ioread8(node + TT_NODE_OFF(flags)) & TT_NODE_F_HARVESTED)
		return -EFAULT;
	base = tt_node_read64(node, TT_NODE_OFF(mem_base));
	size = tt_node_read64(node, TT_NODE_OFF(mem_size));
	*read_only = false;
	if (addr >= TT_REG_SPACE_BASE &&
	    addr - TT_REG_SPACE_BASE < TT_REG_SPACE_SIZE &&
	    (addr < base || addr - base >= size)) {
		*read_only = true;
		return tt_mock_reg_pfn(mock, node, addr, pfn);
	}
	if (addr < base || size < PAGE_SIZE || addr - base > size - PAGE_SIZE)
		return -EFAULT;
	img = tt_node_read64(node, TT_NODE_OFF(mem_off));
	if (check_add_overflow(img, addr - base, &img) ||
	    !PAGE_ALIGNED(img) || mock->image_size < PAGE_SIZE ||
	    img > mock->image_size - PAGE_SIZE)
		return -EFAULT;
	*pfn = (mock->bar_start + img) >> PAGE_SHIFT;
	return 0;
}

static void tt_mock_atu_write64(void __iomem *atu, u32 region, u32 reg,
				u64 v)
{
	iowrite32(lower_32_bits(v), atu + TT_PCIE_ATU(region, reg));
	iowrite32(upper_32_bits(v), atu + TT_PCIE_ATU(region, reg) + 4);
}

/*
 * The model reads a region's registers at every access, so a region is
 * disabled while it changes and enabled last.
 */
static void tt_mock_atu_set(struct tt_device *tdev, u32 region, u64 base,
			    u64 size, u64 bus)
{
	struct tt_mock *mock = tdev->backend_priv;
	u64 local = tdev->atu.noc_base + base;

	iowrite32(0, mock->atu + TT_PCIE_ATU(region, TT_PCIE_ATU_CTRL));
	if (!size)
		return;
	tt_mock_atu_write64(mock->atu, region, TT_PCIE_ATU_BASE_LO, local);
	tt_mock_atu_write64(mock->atu, region, TT_PCIE_ATU_LIMIT_LO,
			    local + size - 1);
	tt_mock_atu_write64(mock->atu, region, TT_PCIE_ATU_TARGET_LO, bus);
	wmb(); /* the region's range before its enable bit */
	iowrite32(TT_PCIE_ATU_CTRL_ENABLE,
		  mock->atu + TT_PCIE_ATU(region, TT_PCIE_ATU_CTRL));
}

static int tt_mock_fw_message(struct tt_device *tdev, const u32 *req,
			      u32 *rsp, unsigned int timeout_ms)
{
	struct tt_mock *mock = tdev->backend_priv;
	int ret;

	if (!mock->fw.ctx)
		return -ENODEV;
	mutex_lock(&mock->fw_lock);
	ret = tt_msgq_call(&mock->fw, req, rsp, timeout_ms);
	mutex_unlock(&mock->fw_lock);
	return ret;
}

/* The reset unit counts chip resets and sets the count last (hw/arc.h). */
static u32 tt_mock_reset_marker(struct tt_device *tdev)
{
	struct tt_mock *mock = tdev->backend_priv;

	return mock->arc_regs ? ioread32(mock->arc_regs + TT_ARC_RESET_COUNT) :
				0;
}

static int tt_mock_reset_done(struct tt_device *tdev, u32 marker)
{
	struct tt_mock *mock = tdev->backend_priv;
	u32 count, boot;

	if (!mock->arc_regs)
		return -EAGAIN;
	count = ioread32(mock->arc_regs + TT_ARC_RESET_COUNT);
	boot = ioread32(mock->arc_regs +
			TT_ARC_SCRATCH_RAM(TT_ARC_SR_BOOT_STATUS));
	return count != marker && count &&
			       (boot & TT_ARC_BOOT_STATUS_MSGQ_READY) ?
		       0 :
		       -EAGAIN;
}

/*
 * A NOC write on the mock can only store into a node's memory, as a TLB
 * window does (tt_mock_tlb_pfn()): a register's side effects are the
 * model's, so register pages are refused. The node hears of it as of any
 * host write.
 */
static int tt_mock_noc_write32(struct tt_device *tdev, u8 noc, u8 x, u8 y,
			       u64 addr, u32 val, bool check)
{
	struct tt_mock *mock = tdev->backend_priv;
	struct tenstorrent_noc_tlb_config c = {
		.addr = addr & PAGE_MASK, .x_end = x, .y_end = y, .noc = noc,
	};
	void __iomem *page;
	unsigned long pfn;
	bool read_only;
	u32 index;

	if (tt_mock_tlb_pfn(tdev, &c, 0, &pfn, &read_only) || read_only)
		return -EOPNOTSUPP;
	if (check)
		return 0;
	page = ioremap((phys_addr_t)pfn << PAGE_SHIFT, PAGE_SIZE);
	if (!page)
		return -ENOMEM;
	iowrite32(val, page + offset_in_page(addr));
	iounmap(page);
	index = noc ? (mock->grid_y - 1 - y) * mock->grid_x +
			      (mock->grid_x - 1 - x) :
		      y * mock->grid_x + x;
	tt_mock_node_event(mock, index);
	return 0;
}

/* The DMA engine looks at PROD whenever the doorbell rings. */
static void tt_mock_ring_doorbell(struct tt_device *tdev)
{
	struct tt_mock *mock = tdev->backend_priv;

	iowrite32(TT_MOCK_RING_MODEL,
		  mock->ivshmem + TT_MOCK_IVSHMEM_DOORBELL);
}

/*
 * The engine exists if the model published it (TT_DMA_ID) with the ring
 * size this driver maps, and its interrupt and doorbell are there.
 */
static int tt_mock_dma_engine(struct tt_device *tdev, struct tt_dma_hw *hw)
{
	struct tt_mock *mock = tdev->backend_priv;

	if (!mock->dma || mock->irq < 0 ||
	    ioread32(mock->dma + TT_DMA_ID) != TT_DMA_ID_MAGIC ||
	    ioread32(mock->dma + TT_DMA_ENTRIES) != TT_DMA_RING_ENTRIES)
		return -ENODEV;
	hw->regs = mock->dma;
	hw->ring = mock->dma + TT_REG_PAGE_SIZE;
	hw->irq = mock->irq;
	hw->grid_x = mock->grid_x;
	hw->grid_y = mock->grid_y;
	hw->ring_doorbell = tt_mock_ring_doorbell;
	return 0;
}

/*
 * The image goes with the PCI binding; only forget it. The DMA queues let
 * go of the interrupt before (tt_dmaq_detach()).
 */
static void tt_mock_remove(struct tt_device *tdev)
{
	struct tt_mock *mock = tdev->backend_priv;

	if (mock && mock->irq >= 0) {
		pci_free_irq_vectors(tdev->pdev);
		mock->irq = -1;
	}
	tdev->backend_priv = NULL;
}

const struct tt_backend tt_mock_backend = {
	.name = "mock",
	.probe = tt_mock_probe,
	.remove = tt_mock_remove,
	/*
	 * BAR0 holds ivshmem's own registers, not the chip's: BAR2 only. The
	 * chip's BAR0 (and a Blackhole's BAR4) are its TLB windows, which the
	 * driver serves as apertures (tlb.c).
	 */
	.resources = BIT(1),
	.apertures = BIT(0) | BIT(2),
	.telemetry = tt_mock_telemetry,
	.tlb_configure = tt_mock_tlb_configure,
	.tlb_pfn = tt_mock_tlb_pfn,
	.atu_set = tt_mock_atu_set,
	.fw_message = tt_mock_fw_message,
	.reset_marker = tt_mock_reset_marker,
	.reset_done = tt_mock_reset_done,
	.noc_write32 = tt_mock_noc_write32,
	.dma_engine = tt_mock_dma_engine,
};
