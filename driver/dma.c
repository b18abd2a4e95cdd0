// SPDX-License-Identifier: GPL-2.0-only
/*
 * DMA buffers (ALLOCATE_DMA_BUF, as in tt-kmd's memory.c): coherent host
 * memory that a file asks for under an index of its choosing, maps at
 * TENSTORRENT_MMAP_DMA_BUF(PAGE_SIZE, index), and, with the NOC_DMA flag,
 * gives the device through an outbound ATU region (atu.c).
 *
 * Each file has its own table, so no file can name, map or free another's
 * buffer. A buffer lives until its file is released, and every mapping
 * holds the file: no buffer is freed while user space can reach it. The
 * device loses its ATU region before the memory goes, and at unbind.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tenstorrent.h>
#include <linux/uaccess.h>

#include "tenstorrent.h"

/**
 * struct tt_dma_buf - one DMA buffer
 * @cpu: the kernel's address of the memory
 * @dma: its bus address
 * @size: bytes, a page multiple
 * @atu_region: the ATU region that gives it a NOC address, or -1
 * @noc_address: that NOC address (local address in the PCIe node), or 0
 */
struct tt_dma_buf {
	void *cpu;
	dma_addr_t dma;
	u32 size;
	int atu_region;
	u64 noc_address;
};

/*
 * Give the device a window onto @size bytes at bus address @bus, for
 * @user (a DMA buffer or pinned range of @tf): an ATU region and a range of
 * the host window, from the top or the bottom. Returns the region and sets
 * *@noc_address, or a negative error.
 */
int tt_noc_map_host(struct tt_file *tf, const void *user, u64 size,
		    bool top_down, dma_addr_t bus, u64 *noc_address)
{
	struct tt_device *tdev = tf->tdev;
	struct tt_atu *atu = &tdev->atu;
	u64 base;
	int region;

	mutex_lock(&tdev->lock);
	if (!tt_file_usable(tf)) {
		region = -ENODEV;
	} else if (!atu->count) {
		region = -EOPNOTSUPP;
	} else {
		region = tt_atu_alloc(atu, size, top_down, &base);
		if (region == -ENOSPC)
			region = -ENOMEM;
	}
	if (region >= 0) {
		atu->bus[region] = bus;
		atu->user[region] = user;
		atu->user_file[region] = tf;
		tdev->backend->atu_set(tdev, region, base, size, bus);
		*noc_address = atu->noc_base + base;
	}
	mutex_unlock(&tdev->lock);
	return region;
}

/*
 * Close @user's region, unless a reset already took it away (and perhaps
 * gave it to someone else).
 */
void tt_noc_unmap_host(struct tt_device *tdev, const void *user, int region)
{
	struct tt_atu *atu = &tdev->atu;

	if (region < 0)
		return;
	mutex_lock(&tdev->lock);
	if ((atu->used & BIT(region)) && atu->user[region] == user) {
		if (!tdev->detached)
			tdev->backend->atu_set(tdev, region, 0, 0, 0);
		tt_atu_free(atu, region);
		atu->user[region] = NULL;
		atu->user_file[region] = NULL;
	}
	mutex_unlock(&tdev->lock);
}

/*
 * At a reset: the files opened before it lose their regions, so that the
 * device cannot reach their memory and the regions are free for others
 * (tt-kmd#261: without this, stale files exhausted them).
 */
void tt_atu_reclaim_stale(struct tt_device *tdev)
{
	struct tt_atu *atu = &tdev->atu;
	u32 r;

	lockdep_assert_held(&tdev->lock);
	for (r = atu->first; r < atu->count; r++) {
		if (!(atu->used & BIT(r)) ||
		    atu->user_file[r]->reset_gen == tdev->reset_gen)
			continue;
		tdev->backend->atu_set(tdev, r, 0, 0, 0);
		tt_atu_free(atu, r);
		atu->user[r] = NULL;
		atu->user_file[r] = NULL;
	}
}

/* After a reset: the chip may have forgotten the regions still in use. */
void tt_atu_restore(struct tt_device *tdev)
{
	struct tt_atu *atu = &tdev->atu;
	u32 r;

	lockdep_assert_held(&tdev->lock);
	for (r = atu->first; r < atu->count; r++)
		if (atu->used & BIT(r))
			tdev->backend->atu_set(tdev, r, atu->base[r],
					       atu->size[r], atu->bus[r]);
}

static void tt_dma_buf_destroy(struct tt_device *tdev, struct tt_dma_buf *buf)
{
	tt_noc_unmap_host(tdev, buf, buf->atu_region);
	/* Size 0: a leaked buffer (tt_dma_release_file), the memory stays. */
	if (buf->size)
		dma_free_coherent(&tdev->pdev->dev, buf->size, buf->cpu,
				  buf->dma);
	kfree(buf);
}

static struct tt_dma_buf *tt_dma_buf_create(struct tt_file *tf, u32 size,
					    bool noc, int *err)
{
	struct tt_dma_buf *buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	struct tt_device *tdev = tf->tdev;

	*err = -ENOMEM;
	if (!buf)
		return NULL;
	buf->size = size;
	buf->atu_region = -1;
	/*
	 * Any size up to 2^TT_MAX_DMA_BUF_SIZE_LOG2 may be asked for, more
	 * than the page allocator's largest order without CMA: the caller
	 * gets -ENOMEM, and the kernel log no allocation-failure warning.
	 */
	buf->cpu = dma_alloc_coherent(&tdev->pdev->dev, size, &buf->dma,
				      GFP_KERNEL | __GFP_NOWARN);
	if (!buf->cpu) {
		kfree(buf);
		return NULL;
	}
	*err = 0;
	if (noc) {
		buf->atu_region = tt_noc_map_host(tf, buf, size, true, buf->dma,
						  &buf->noc_address);
		*err = min(buf->atu_region, 0);
	}
	if (*err) {
		tt_dma_buf_destroy(tdev, buf);
		return NULL;
	}
	return buf;
}

long tt_ioctl_allocate_dma_buf(struct tt_file *tf,
			       struct tenstorrent_allocate_dma_buf __user *arg)
{
	struct tenstorrent_allocate_dma_buf_out out = {};
	struct tenstorrent_allocate_dma_buf_in in;
	struct tt_device *tdev = tf->tdev;
	struct tt_dma_buf *buf = NULL;
	int ret = -EINVAL;

	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;
	if (!tdev->dma_capable || !in.requested_size ||
	    !PAGE_ALIGNED(in.requested_size) ||
	    in.requested_size > BIT(TT_MAX_DMA_BUF_SIZE_LOG2))
		return -EINVAL;

	mutex_lock(&tf->lock);
	if (!tf->dma_bufs[in.buf_index]) {
		buf = tt_dma_buf_create(tf, in.requested_size,
					in.flags & TENSTORRENT_ALLOCATE_DMA_BUF_NOC_DMA,
					&ret);
		tf->dma_bufs[in.buf_index] = buf;
	}
	mutex_unlock(&tf->lock);
	if (!buf)
		return ret;

	out.physical_address = buf->dma;
	out.mapping_offset = TENSTORRENT_MMAP_DMA_BUF(PAGE_SIZE, in.buf_index);
	out.size = buf->size;
	out.noc_address = buf->noc_address;
	if (copy_to_user(&arg->out, &out, sizeof(out))) {
		/* Nobody learnt of it: as if it never was. */
		mutex_lock(&tf->lock);
		tf->dma_bufs[in.buf_index] = NULL;
		mutex_unlock(&tf->lock);
		tt_dma_buf_destroy(tdev, buf);
		return -EFAULT;
	}
	return 0;
}

/*
 * mmap of buffer @index from byte @offset: the range must lie inside a
 * buffer of this file. dma_mmap_coherent() takes the offset within the
 * buffer from vm_pgoff.
 */
int tt_dma_mmap(struct tt_file *tf, struct vm_area_struct *vma,
		unsigned int index, u64 offset)
{
	unsigned long pgoff = vma->vm_pgoff;
	u64 len = vma->vm_end - vma->vm_start;
	struct tt_dma_buf *buf;
	int ret = -EINVAL;

	if (index >= TENSTORRENT_MAX_DMA_BUFS)
		return -EINVAL;
	if (!tt_file_usable_now(tf))
		return -ENODEV;
	mutex_lock(&tf->lock);
	buf = tf->dma_bufs[index];
	if (buf && offset < buf->size && len <= buf->size - offset) {
		vma->vm_pgoff = offset >> PAGE_SHIFT;
		ret = dma_mmap_coherent(&tf->tdev->pdev->dev, vma, buf->cpu,
					buf->dma, buf->size);
		vma->vm_pgoff = pgoff;
	}
	mutex_unlock(&tf->lock);
	return ret;
}

/* debugfs "mappings": the file's buffers; tf->lock held. */
void tt_dma_show(struct seq_file *s, struct tt_file *tf, bool addrs)
{
	const struct tt_dma_buf *buf;
	unsigned int i;

	const char *label = tt_iommu_translates(&tf->tdev->pdev->dev) ? "IOVA" :
									"PA";

	lockdep_assert_held(&tf->lock);
	for (i = 0; i < TENSTORRENT_MAX_DMA_BUFS; i++) {
		buf = tf->dma_bufs[i];
		if (!buf)
			continue;
		if (buf->atu_region >= 0)
			tt_debugfs_row(s, tf, "DMA_BUF+IATU",
				       "ID: %-3u -> %s: 0x%016llx -> NOC: 0x%llx (size=0x%x)",
				       i, label, addrs ? (u64)buf->dma : 0,
				       addrs ? buf->noc_address : 0, buf->size);
		else
			tt_debugfs_row(s, tf, "DMA_BUF",
				       "ID: %-3u -> %s: 0x%016llx (size=0x%x)",
				       i, label, addrs ? (u64)buf->dma : 0,
				       buf->size);
	}
}

/*
 * The bus address of [@offset, + @len) of buffer @index of @tf, which must
 * lie inside it: 0, or -EINVAL. Called with tf->lock held; the buffer
 * stays until the file is released, after its DMA queue (dmaq.c).
 */
int tt_dma_buf_bus(struct tt_file *tf, unsigned int index, u64 offset,
		   u64 len, u64 *bus)
{
	struct tt_dma_buf *buf;

	lockdep_assert_held(&tf->lock);
	if (index >= TENSTORRENT_MAX_DMA_BUFS)
		return -EINVAL;
	buf = tf->dma_bufs[index];
	if (!buf || offset >= buf->size || len > buf->size - offset)
		return -EINVAL;
	*bus = buf->dma + offset;
	return 0;
}

/*
 * At close: no mapping is left, and the DMA queue is stopped, so the
 * buffers can go; unless the DMA engine may still write them
 * (tf->dma_leak): then only their ATU regions and bookkeeping go, and the
 * memory is leaked rather than handed back under a running copy.
 */
void tt_dma_release_file(struct tt_file *tf)
{
	unsigned int i;

	for (i = 0; i < TENSTORRENT_MAX_DMA_BUFS; i++) {
		struct tt_dma_buf *buf = tf->dma_bufs[i];

		if (!buf)
			continue;
		tf->dma_bufs[i] = NULL;
		if (tf->dma_leak)
			buf->size = 0; /* tt_dma_buf_destroy() keeps the memory */
		tt_dma_buf_destroy(tf->tdev, buf);
	}
}

/*
 * At unbind, before the backend lets go of the hardware: close every ATU
 * region, so that the device cannot reach memory the files free later.
 */
void tt_dma_detach(struct tt_device *tdev)
{
	u32 r;

	lockdep_assert_held(&tdev->lock);
	for (r = tdev->atu.first; r < tdev->atu.count; r++)
		if (tdev->atu.used & BIT(r))
			tdev->backend->atu_set(tdev, r, 0, 0, 0);
}
