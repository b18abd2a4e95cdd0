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

#include <linux/io.h>
#include <linux/pci.h>

#include <hw/arc.h>
#include <hw/arch.h>
#include <hw/host.h>
#include <hw/noc.h>
#include <hw/telemetry.h>
#include <hw/tile.h>
#include <hw/version.h>

#include "telemetry.h"
#include "tenstorrent.h"

#define TT_MOCK_IMAGE_BAR 2

/*
 * What the driver maps of BAR2: the identity page and the host registers.
 * The image is as large as the chip's memory (16 GiB for ttsim's n150),
 * too much to map whole: a KASAN kernel needs shadow memory for every
 * mapped byte, and the driver reads nothing past the host registers. User
 * mappings (mmap.c) reach the rest through the BAR's pages.
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
 */
struct tt_mock {
	void __iomem *image;
	u64 image_size;
	void __iomem *arc_regs;
	void __iomem *csm;
	u32 csm_size;
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
 * The fields of a signed image that later code relies on. The image size is
 * returned as checked: the device may change it at any time.
 */
static int tt_mock_check_identity(struct device *dev, void __iomem *image,
				  u64 bar_len, u64 *image_size)
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
	*image_size = size;
	return 0;
}

#define TT_NODE_OFF(field) offsetof(struct tt_node_desc, field)

static u64 tt_node_read64(void __iomem *node, size_t off)
{
	return (u64)ioread32(node + off + 4) << 32 | ioread32(node + off);
}

/*
 * Map the ARC node's scratch RAM and memory, where the management firmware
 * publishes its telemetry (hw/telemetry.h). Without them the device has no
 * telemetry; that is not an error of the probe.
 */
static void tt_mock_map_arc(struct device *dev, struct tt_mock *mock,
			    resource_size_t start)
{
	u32 grid_x = tt_id_read32(mock->image, TT_ID_OFF(grid_x));
	u32 grid_y = tt_id_read32(mock->image, TT_ID_OFF(grid_y));
	u32 count = grid_x * grid_y, i;
	void __iomem *nodes, *arc;
	u64 regs, mem, size;

	/* tt_mock_check_identity() found the table inside the image. */
	nodes = ioremap(start + TT_IMAGE_NODE_TABLE_OFF,
			(size_t)count * sizeof(struct tt_node_desc));
	if (!nodes)
		return;
	for (i = 0; i < count; i++) {
		arc = nodes + i * sizeof(struct tt_node_desc);
		if (ioread8(arc + TT_NODE_OFF(type)) == TT_NODE_ARC)
			break;
	}
	if (i == count)
		goto out;
	regs = tt_node_read64(arc, TT_NODE_OFF(regs_off));
	mem = tt_node_read64(arc, TT_NODE_OFF(mem_off));
	size = tt_node_read64(arc, TT_NODE_OFF(mem_size));
	if (tt_node_read64(arc, TT_NODE_OFF(mem_base)) != TT_ARC_CSM_BASE ||
	    size > TT_ARC_CSM_SIZE || size < 8 || mem > mock->image_size ||
	    size > mock->image_size - mem || regs > mock->image_size ||
	    mock->image_size - regs < TT_REG_BLOCK_SIZE) {
		dev_err(dev, "device image: ARC node %u has memory or registers outside the image: no telemetry\n",
			i);
		goto out;
	}
	mock->arc_regs = devm_ioremap(dev, start + regs +
				      TT_REG_ARC_RESET * TT_REG_PAGE_SIZE,
				      TT_REG_PAGE_SIZE);
	mock->csm = devm_ioremap(dev, start + mem, size);
	mock->csm_size = size;
	if (!mock->arc_regs)
		mock->csm = NULL;
out:
	iounmap(nodes);
}

static int tt_mock_probe(struct tt_device *tdev)
{
	struct pci_dev *pdev = tdev->pdev;
	struct device *dev = &pdev->dev;
	u64 bar_len = pci_resource_len(pdev, TT_MOCK_IMAGE_BAR);
	resource_size_t start = pci_resource_start(pdev, TT_MOCK_IMAGE_BAR);
	struct tt_mock *mock;
	void __iomem *image;
	u64 image_size;
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
	ret = tt_mock_check_identity(dev, image, bar_len, &image_size);
	if (ret)
		return ret;

	mock = devm_kzalloc(dev, sizeof(*mock), GFP_KERNEL);
	if (!mock)
		return -ENOMEM;
	mock->image = image;
	mock->image_size = image_size;
	tdev->backend_priv = mock;
	tdev->arch = tt_id_read32(image, TT_ID_OFF(arch));
	tdev->board = tt_id_read32(image, TT_ID_OFF(board));
	tdev->chip_index = tt_id_read32(image, TT_ID_OFF(chip_index));
	tt_mock_map_arc(dev, mock, start);
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

/* The image goes with the PCI binding; only forget it. */
static void tt_mock_remove(struct tt_device *tdev)
{
	tdev->backend_priv = NULL;
}

const struct tt_backend tt_mock_backend = {
	.name = "mock",
	.probe = tt_mock_probe,
	.remove = tt_mock_remove,
	/* BAR0 holds ivshmem's own registers, not the chip's: BAR2 only. */
	.resources = BIT(1),
	.telemetry = tt_mock_telemetry,
};
