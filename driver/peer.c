// SPDX-License-Identifier: GPL-2.0-only
/*
 * MAP_PEER_BAR (as in tt-kmd's memory.c): give this device a DMA address for
 * a range of another device's BAR, so that it can write to the other chip
 * directly (peer-to-peer). The peer is named by an open file of its node:
 * the caller must be allowed to open it. The mapping lives until the file
 * that asked for it is closed.
 *
 * As in tt-kmd, the peer must be a different device of the same kind
 * (-EINVAL otherwise): a chip of another family would not understand what
 * it is sent. The peer's BAR is mapped for as long as the caller's file is
 * open even if the peer goes away meanwhile; its device then sees whatever
 * the bus puts at that address, as with tt-kmd.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/dma-mapping.h>
#include <linux/file.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tenstorrent.h>
#include <linux/uaccess.h>

#include "tenstorrent.h"

/* Bounds the kernel memory one file can tie up in peer mappings. */
#define TT_MAX_PEER_MAPS 64

/**
 * struct tt_peer_map - one MAP_PEER_BAR of a file
 * @node: in tt_file.peer_maps
 * @dma: the address this device uses
 * @len: bytes
 */
struct tt_peer_map {
	struct list_head node;
	dma_addr_t dma;
	u64 len;
};

/* The argument checks that need no device (pure, for KUnit). */
int tt_peer_check(const struct tenstorrent_map_peer_bar_in *in)
{
	if (in->flags || in->reserved || !in->peer_bar_length ||
	    in->peer_bar_index >= PCI_STD_NUM_BARS)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(tt_peer_check);

/*
 * The bus address of the peer's range: the peer is another device of our
 * kind, attached, and the range lies inside one of its memory BARs.
 */
static int tt_peer_range(struct tt_device *tdev, struct file *peer_file,
			 const struct tenstorrent_map_peer_bar_in *in,
			 phys_addr_t *phys)
{
	struct tt_file *peer = tt_file_of(peer_file);
	struct pci_dev *pdev;
	u32 bar = in->peer_bar_index;

	if (!peer || peer->tdev == tdev || peer->tdev->arch != tdev->arch)
		return -EINVAL;
	if (READ_ONCE(peer->tdev->detached))
		return -ENODEV;
	pdev = peer->tdev->pdev;
	if (!(pci_resource_flags(pdev, bar) & IORESOURCE_MEM) ||
	    (u64)in->peer_bar_offset + in->peer_bar_length >
		    pci_resource_len(pdev, bar))
		return -EINVAL;
	*phys = pci_resource_start(pdev, bar) + in->peer_bar_offset;
	return 0;
}

static int tt_peer_map(struct tt_file *tf, phys_addr_t phys, u64 len,
		       dma_addr_t *dma)
{
	struct device *dev = &tf->tdev->pdev->dev;
	struct tt_peer_map *m;
	int ret = 0;

	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	mutex_lock(&tf->lock);
	if (tf->peer_map_count >= TT_MAX_PEER_MAPS) {
		ret = -ENOMEM;
		goto out;
	}
	m->dma = dma_map_resource(dev, phys, len, DMA_BIDIRECTIONAL, 0);
	if (dma_mapping_error(dev, m->dma)) {
		ret = -EIO;
		goto out;
	}
	m->len = len;
	*dma = m->dma;
	list_add_tail(&m->node, &tf->peer_maps);
	tf->peer_map_count++;
	m = NULL;
out:
	mutex_unlock(&tf->lock);
	kfree(m);
	return ret;
}

static void tt_peer_unmap(struct tt_file *tf, struct tt_peer_map *m)
{
	lockdep_assert_held(&tf->lock);
	dma_unmap_resource(&tf->tdev->pdev->dev, m->dma, m->len,
			   DMA_BIDIRECTIONAL, 0);
	list_del(&m->node);
	tf->peer_map_count--;
	kfree(m);
}

long tt_ioctl_map_peer_bar(struct tt_file *tf,
			   struct tenstorrent_map_peer_bar __user *arg)
{
	struct tenstorrent_map_peer_bar_out out = {};
	struct tenstorrent_map_peer_bar_in in;
	struct fd peer;
	phys_addr_t phys;
	dma_addr_t dma;
	int ret;

	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;
	ret = tt_peer_check(&in);
	if (ret)
		return ret;
	peer = fdget(in.peer_fd);
	if (!peer.file)
		return -EINVAL;
	ret = tt_peer_range(tf->tdev, peer.file, &in, &phys);
	fdput(peer);
	if (!ret)
		ret = tt_peer_map(tf, phys, in.peer_bar_length, &dma);
	if (ret)
		return ret;

	out.dma_address = dma;
	if (copy_to_user(&arg->out, &out, sizeof(out))) {
		mutex_lock(&tf->lock);
		tt_peer_unmap(tf, list_last_entry(&tf->peer_maps,
						  struct tt_peer_map, node));
		mutex_unlock(&tf->lock);
		return -EFAULT;
	}
	return 0;
}

/* At close. */
void tt_peer_release_file(struct tt_file *tf)
{
	struct tt_peer_map *m, *next;

	mutex_lock(&tf->lock);
	list_for_each_entry_safe(m, next, &tf->peer_maps, node)
		tt_peer_unmap(tf, m);
	mutex_unlock(&tf->lock);
}

void tt_peer_show(struct seq_file *s, struct tt_file *tf, bool addrs)
{
	const struct tt_peer_map *m;

	lockdep_assert_held(&tf->lock);
	list_for_each_entry(m, &tf->peer_maps, node)
		tt_debugfs_row(s, tf, "PEER_BAR", "DMA: 0x%016llx (size=0x%llx)",
			       addrs ? (u64)m->dma : 0, m->len);
}
