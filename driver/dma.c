// SPDX-License-Identifier: GPL-2.0-only
/*
 * DMA buffers (ALLOCATE_DMA_BUF, reference/kmd.md §1.7): coherent host
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

/* Give the device a window onto @buf: an ATU region from the top. */
static int tt_dma_buf_map_noc(struct tt_device *tdev, struct tt_dma_buf *buf)
{
	u64 base;
	int region;

	mutex_lock(&tdev->lock);
	if (tdev->detached) {
		region = -ENODEV;
	} else if (!tdev->atu.count) {
		region = -EOPNOTSUPP;
	} else {
		region = tt_atu_alloc(&tdev->atu, buf->size, true, &base);
		if (region == -ENOSPC)
			region = -ENOMEM;
	}
	if (region >= 0) {
		tdev->backend->atu_set(tdev, region, base, buf->size, buf->dma);
		buf->atu_region = region;
		buf->noc_address = tdev->atu.noc_base + base;
	}
	mutex_unlock(&tdev->lock);
	return region < 0 ? region : 0;
}

static void tt_dma_buf_destroy(struct tt_device *tdev, struct tt_dma_buf *buf)
{
	if (buf->atu_region >= 0) {
		mutex_lock(&tdev->lock);
		if (!tdev->detached)
			tdev->backend->atu_set(tdev, buf->atu_region, 0, 0, 0);
		tt_atu_free(&tdev->atu, buf->atu_region);
		mutex_unlock(&tdev->lock);
	}
	/* Size 0: a leaked buffer (tt_dma_release_file), the memory stays. */
	if (buf->size)
		dma_free_coherent(&tdev->pdev->dev, buf->size, buf->cpu,
				  buf->dma);
	kfree(buf);
}

static struct tt_dma_buf *tt_dma_buf_create(struct tt_device *tdev, u32 size,
					    bool noc, int *err)
{
	struct tt_dma_buf *buf = kzalloc(sizeof(*buf), GFP_KERNEL);

	*err = -ENOMEM;
	if (!buf)
		return NULL;
	buf->size = size;
	buf->atu_region = -1;
	buf->cpu = dma_alloc_coherent(&tdev->pdev->dev, size, &buf->dma,
				      GFP_KERNEL);
	if (!buf->cpu) {
		kfree(buf);
		return NULL;
	}
	*err = noc ? tt_dma_buf_map_noc(tdev, buf) : 0;
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
		buf = tt_dma_buf_create(tdev, in.requested_size,
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
	if (tt_device_detached(tf->tdev))
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
