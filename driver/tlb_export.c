// SPDX-License-Identifier: GPL-2.0-only
/*
 * EXPORT_TLB_DMABUF (as in tt-kmd's memory.c): a dma-buf for a page range of
 * a TLB window the file owns, so that the window can be handed to another
 * process (as an fd) or another driver.
 *
 * An export holds its window: FREE_TLB and close give the window up, but
 * it is not handed out again until the last export is gone, and it keeps
 * pointing where it was configured. A destructive reset waits for no
 * export: it is refused with -EBUSY while one lives (reset.c).
 *
 * The dma-buf can be mapped (write-combined) by whoever holds its fd; its
 * pages are the window's, faulted in through the backend as for mappings
 * of the window itself (tlb.c), and zapped with them when the window is
 * re-pointed and when the device goes. Other drivers (importers) need the
 * window's bus address range: on the chip model a window is no aperture of
 * a BAR, so attaching fails with -EOPNOTSUPP there; a card's backend would
 * give the range.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-buf.h>
#include <linux/file.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tenstorrent.h>
#include <linux/uaccess.h>

#include "tenstorrent.h"

MODULE_IMPORT_NS(DMA_BUF);

/**
 * struct tt_tlb_export - one dma-buf of a window
 * @tdev: the device (one reference held on tdev->dev)
 * @node: in tdev->tlb_exports, under tdev->lock
 * @id: the window
 * @offset: first byte within the window
 * @size: bytes
 * @vmas: mappings of the dma-buf, under tdev->lock; while there are any,
 *	@mapping (their file's) is alive
 * @mapping: what to zap
 */
struct tt_tlb_export {
	struct tt_device *tdev;
	struct list_head node;
	u32 id;
	u64 offset;
	u64 size;
	unsigned int vmas;
	struct address_space *mapping;
};

/* Take the pages of @id's exports (every window's if @id is -1) away. */
void tt_tlb_export_zap(struct tt_device *tdev, s64 id)
{
	struct tt_tlb_export *e;

	lockdep_assert_held(&tdev->lock);
	list_for_each_entry(e, &tdev->tlb_exports, node)
		if (e->vmas && (id < 0 || e->id == id))
			unmap_mapping_range(e->mapping, 0, 0, 1);
}

/*
 * debugfs "mappings": one row per live export. An export outlives the file
 * that made it (it may have been passed on), so the rows are the device's,
 * after every file's.
 */
void tt_tlb_export_show(struct seq_file *s, struct tt_device *tdev)
{
	const struct tt_tlb_export *e;

	mutex_lock(&tdev->lock);
	list_for_each_entry(e, &tdev->tlb_exports, node)
		tt_debugfs_row(s, NULL, "EXPORT",
			       "TLB ID: %-3u (offset=0x%llx, size=0x%llx, maps=%u)",
			       e->id, e->offset, e->size, e->vmas);
	mutex_unlock(&tdev->lock);
}

static vm_fault_t tt_tlb_export_fault(struct vm_fault *vmf)
{
	struct tt_tlb_export *e = vmf->vma->vm_private_data;

	return tt_tlb_fault_at(vmf, e->tdev, NULL, e->id,
			       e->offset + ((u64)vmf->pgoff << PAGE_SHIFT));
}

static vm_fault_t tt_tlb_export_mkwrite(struct vm_fault *vmf)
{
	struct tt_tlb_export *e = vmf->vma->vm_private_data;

	return tt_tlb_mkwrite_at(e->tdev, NULL, e->id,
				 e->offset + ((u64)vmf->pgoff << PAGE_SHIFT));
}

static void tt_tlb_export_vma_open(struct vm_area_struct *vma)
{
	struct tt_tlb_export *e = vma->vm_private_data;

	mutex_lock(&e->tdev->lock);
	e->vmas++;
	mutex_unlock(&e->tdev->lock);
}

static void tt_tlb_export_vma_close(struct vm_area_struct *vma)
{
	struct tt_tlb_export *e = vma->vm_private_data;

	mutex_lock(&e->tdev->lock);
	e->vmas--;
	mutex_unlock(&e->tdev->lock);
}

static const struct vm_operations_struct tt_tlb_export_vm_ops = {
	.open = tt_tlb_export_vma_open,
	.close = tt_tlb_export_vma_close,
	.fault = tt_tlb_export_fault,
	.pfn_mkwrite = tt_tlb_export_mkwrite,
};

/* The dma-buf core has checked that the range lies inside the buffer. */
static int tt_tlb_export_mmap(struct dma_buf *dmabuf,
			      struct vm_area_struct *vma)
{
	struct tt_tlb_export *e = dmabuf->priv;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	vma->vm_private_data = e;
	vma->vm_page_prot = pgprot_writecombine(vma->vm_page_prot);
	tt_mmap_set_flags(vma);
	vma->vm_ops = &tt_tlb_export_vm_ops;
	mutex_lock(&e->tdev->lock);
	e->vmas++;
	e->mapping = vma->vm_file->f_mapping;
	mutex_unlock(&e->tdev->lock);
	return 0;
}

static int tt_tlb_export_attach(struct dma_buf *dmabuf,
				struct dma_buf_attachment *attach)
{
	return -EOPNOTSUPP;
}

static struct sg_table *tt_tlb_export_map(struct dma_buf_attachment *attach,
					  enum dma_data_direction dir)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static void tt_tlb_export_unmap(struct dma_buf_attachment *attach,
				struct sg_table *sgt,
				enum dma_data_direction dir)
{
}

/* The window goes back if its owner gave it up and this was the last. */
static void tt_tlb_export_drop(struct tt_tlb_export *e)
{
	struct tt_device *tdev = e->tdev;

	mutex_lock(&tdev->lock);
	list_del(&e->node);
	tt_tlb_unhold(tdev, e->id);
	mutex_unlock(&tdev->lock);
	put_device(&tdev->dev);
	kfree(e);
}

static void tt_tlb_export_release(struct dma_buf *dmabuf)
{
	tt_tlb_export_drop(dmabuf->priv);
}

static const struct dma_buf_ops tt_tlb_export_ops = {
	.attach = tt_tlb_export_attach,
	.map_dma_buf = tt_tlb_export_map,
	.unmap_dma_buf = tt_tlb_export_unmap,
	.release = tt_tlb_export_release,
	.mmap = tt_tlb_export_mmap,
};

/* A held export of @a's range of a window @tf owns, or an error. */
static struct tt_tlb_export *
tt_tlb_export_new(struct tt_file *tf,
		  const struct tenstorrent_export_tlb_dmabuf *a)
{
	struct tt_device *tdev = tf->tdev;
	struct tt_tlb_export *e;
	u64 size, offset;
	int ret = 0;

	e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&tdev->lock);
	if (!tt_tlb_owned(tf, a->tlb_id, &ret))
		goto out;
	/* Ownership first, then the range, as tt-kmd checks them. */
	tt_tlb_window(tdev->tlb_layout, a->tlb_id, &size, &offset);
	if (a->offset >= size || a->size > size - a->offset) {
		ret = -EINVAL;
		goto out;
	}
	e->tdev = tdev;
	e->id = a->tlb_id;
	e->offset = a->offset;
	e->size = a->size ? a->size : size - a->offset;
	tdev->tlbs[e->id].exports++;
	list_add_tail(&e->node, &tdev->tlb_exports);
	get_device(&tdev->dev);
out:
	mutex_unlock(&tdev->lock);
	if (ret) {
		kfree(e);
		return ERR_PTR(ret);
	}
	return e;
}

long tt_ioctl_export_tlb_dmabuf(struct tt_file *tf,
				struct tenstorrent_export_tlb_dmabuf __user *arg)
{
	DEFINE_DMA_BUF_EXPORT_INFO(info);
	struct tenstorrent_export_tlb_dmabuf a;
	struct tt_tlb_export *e;
	struct dma_buf *dmabuf;
	int ret, fd;

	if (copy_from_user(&a, arg, sizeof(a)))
		return -EFAULT;
	ret = tt_tlb_export_check(&a);
	if (ret)
		return ret;
	if (!tf->tdev->tlb_layout)
		return -EOPNOTSUPP;
	e = tt_tlb_export_new(tf, &a);
	if (IS_ERR(e))
		return PTR_ERR(e);

	info.ops = &tt_tlb_export_ops;
	info.size = e->size;
	info.flags = O_RDWR | O_CLOEXEC;
	info.priv = e;
	dmabuf = dma_buf_export(&info);
	if (IS_ERR(dmabuf)) {
		tt_tlb_export_drop(e);
		return PTR_ERR(dmabuf);
	}
	fd = get_unused_fd_flags(O_CLOEXEC);
	ret = fd < 0 ? fd : put_user(fd, &arg->fd);
	if (ret) {
		if (fd >= 0)
			put_unused_fd(fd);
		dma_buf_put(dmabuf); /* releases e */
		return ret;
	}
	fd_install(fd, dmabuf->file);
	return 0;
}
