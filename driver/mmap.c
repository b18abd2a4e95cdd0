// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmap of the BARs: the offset selects a region of 2^36 bytes
 * (TENSTORRENT_MMAP_REGION, tt-kmd's memory.c), region 2 * resource
 * for uncached access and 2 * resource + 1 for write-combined. A mapping
 * must lie inside one BAR the backend offers; anything else is -EINVAL.
 * Regions 6 and 7 hold the TLB windows, which tlb.c maps; DMA buffers
 * (dma.c) sit far above, from TENSTORRENT_MMAP_DMA_BUF(PAGE_SIZE, 0).
 *
 * Pages are inserted at fault time rather than at mmap: the device may be
 * unbound at any moment, and then every mapping must lose its pages for
 * good. The fault handler and the unbind (tt_device_detach) serialise on
 * tdev->lock, so no page is inserted after the zap. A mapping made in the
 * window between ->mmap and the kernel linking the VMA is still found by
 * the zap or faults after it: nothing is mapped before the first fault.
 *
 * On x86 with PAT, a WC request may come out as UC- while the kernel holds
 * its own uncached mapping of part of the BAR (the mock's identity page and
 * host registers): the memory type of a physical range is shared. It is a
 * performance, not a correctness, matter.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/tenstorrent.h>
#include <linux/version.h>

#include "tenstorrent.h"

#define TT_REGION_PGSHIFT (TENSTORRENT_MMAP_REGION_SHIFT - PAGE_SHIFT)
#define TT_REGION_PGMASK (BIT(TT_REGION_PGSHIFT) - 1)
/* DMA buffers (dma.c): 2^32 bytes each from TT_DMA_BUF_PGOFF(0). */
#define TT_DMA_BUF_PGSHIFT (TENSTORRENT_MMAP_DMA_BUF_SHIFT - PAGE_SHIFT)
#define TT_DMA_BUF_PGMASK (BIT(TT_DMA_BUF_PGSHIFT) - 1)
#define TT_DMA_BUF_PGOFF(i) (TENSTORRENT_MMAP_DMA_BUF(PAGE_SIZE, i) >> PAGE_SHIFT)
/* The regions of TLB windows (tlb.c). */
#define TT_REGION_TLB_UC 6
#define TT_REGION_TLB_WC 7

/*
 * Split a mapping of @pages pages at page offset @pgoff into region and
 * page within the region, and check that it lies inside one BAR user
 * space may map: @bar_pages[r] is the size of resource r's BAR in pages,
 * 0 if it may not be mapped. False for anything else.
 */
bool tt_mmap_decode(unsigned long pgoff, unsigned long pages,
		    const unsigned long bar_pages[TT_NUM_RESOURCES],
		    struct tt_mmap_window *w)
{
	unsigned long region = pgoff >> TT_REGION_PGSHIFT;
	unsigned long first = pgoff & TT_REGION_PGMASK;
	unsigned long res = region / 2;

	if (region >= 2 * TT_NUM_RESOURCES || !pages ||
	    first >= bar_pages[res] || pages > bar_pages[res] - first)
		return false;
	w->res = res;
	w->first = first;
	w->wc = region & 1;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(tt_mmap_decode);

/* The page frame of a mapping's first page, or 0 (tt_mmap_decode()). */
static unsigned long tt_mmap_pfn(struct tt_device *tdev, unsigned long pgoff,
				 unsigned long pages, bool *wc)
{
	unsigned long bar_pages[TT_NUM_RESOURCES];
	struct tt_mmap_window w;
	unsigned int res;

	for (res = 0; res < TT_NUM_RESOURCES; res++)
		bar_pages[res] = tt_resource_mappable(tdev, res) ?
			pci_resource_len(tdev->pdev, TT_RESOURCE_BAR(res)) >>
				PAGE_SHIFT : 0;
	if (!tt_mmap_decode(pgoff, pages, bar_pages, &w))
		return 0;
	*wc = w.wc;
	return (pci_resource_start(tdev->pdev, TT_RESOURCE_BAR(w.res)) >>
		PAGE_SHIFT) + w.first;
}

static vm_fault_t tt_mmap_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct tt_file *tf = vma->vm_file->private_data;
	struct tt_device *tdev = tf->tdev;
	unsigned long pgoff = (vmf->address - vma->vm_start) >> PAGE_SHIFT;
	unsigned long pfn;
	vm_fault_t ret;
	bool wc;

	mutex_lock(&tdev->lock);
	pfn = !tt_file_usable(tf) ? 0 :
				    tt_mmap_pfn(tdev, vma->vm_pgoff,
						vma_pages(vma), &wc);
	if (pfn)
		ret = vmf_insert_pfn_prot(vma, vmf->address, pfn + pgoff,
					  vma->vm_page_prot);
	else
		ret = VM_FAULT_SIGBUS;
	mutex_unlock(&tdev->lock);
	return ret;
}

/*
 * What a file maps, for debugfs: one struct tt_mapping per mmap call,
 * shared by the copies of its VMA, which only count it (fork and split
 * call ->open, which cannot fail).
 */
struct tt_mapping *tt_mapping_new(struct tt_file *tf, bool tlb, bool wc,
				  u32 id, u32 bar, u64 offset, u64 size)
{
	struct tt_mapping *m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);

	if (!m)
		return NULL;
	*m = (struct tt_mapping){
		.tf = tf, .vmas = 1, .tlb = tlb, .wc = wc, .id = id,
		.bar = bar, .offset = offset, .size = size,
	};
	mutex_lock(&tf->tdev->lock);
	list_add_tail(&m->node, &tf->mappings);
	mutex_unlock(&tf->tdev->lock);
	return m;
}

void tt_mapping_get(struct tt_mapping *m)
{
	mutex_lock(&m->tf->tdev->lock);
	m->vmas++;
	mutex_unlock(&m->tf->tdev->lock);
}

/* A VMA is gone; the last takes the record with it. */
void tt_mapping_put(struct tt_mapping *m)
{
	struct tt_device *tdev = m->tf->tdev;
	bool last;

	mutex_lock(&tdev->lock);
	last = !--m->vmas;
	if (last)
		list_del(&m->node);
	mutex_unlock(&tdev->lock);
	if (last)
		kfree(m);
}

static void tt_mmap_open(struct vm_area_struct *vma)
{
	tt_mapping_get(vma->vm_private_data);
}

static void tt_mmap_close(struct vm_area_struct *vma)
{
	tt_mapping_put(vma->vm_private_data);
}

static const struct vm_operations_struct tt_mmap_ops = {
	.open = tt_mmap_open,
	.close = tt_mmap_close,
	.fault = tt_mmap_fault,
};

void tt_mmap_set_flags(struct vm_area_struct *vma)
{
	const unsigned long flags = VM_IO | VM_PFNMAP | VM_DONTEXPAND |
				    VM_DONTDUMP;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

int tt_mmap(struct tt_file *tf, struct vm_area_struct *vma)
{
	struct tt_device *tdev = tf->tdev;
	unsigned long pages = vma_pages(vma);
	bool usable, wc = false;
	unsigned long pfn, region;
	struct tt_mapping *m;
	unsigned int res;
	u64 offset;

	/* Device memory cannot be copied on write. */
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_pgoff >= TT_DMA_BUF_PGOFF(0))
		return tt_dma_mmap(tf, vma,
				   (vma->vm_pgoff - TT_DMA_BUF_PGOFF(0)) >>
					   TT_DMA_BUF_PGSHIFT,
				   (u64)(vma->vm_pgoff & TT_DMA_BUF_PGMASK)
					   << PAGE_SHIFT);
	region = vma->vm_pgoff >> TT_REGION_PGSHIFT;
	offset = (u64)(vma->vm_pgoff & TT_REGION_PGMASK) << PAGE_SHIFT;
	if (region == TT_REGION_TLB_UC || region == TT_REGION_TLB_WC)
		return tt_tlb_mmap(tf, vma, offset, region == TT_REGION_TLB_WC);

	res = region / 2;
	mutex_lock(&tdev->lock);
	usable = tt_file_usable(tf);
	pfn = usable ? tt_mmap_pfn(tdev, vma->vm_pgoff, pages, &wc) : 0;
	mutex_unlock(&tdev->lock);
	if (!usable)
		return -ENODEV;
	if (!pfn && res < TT_NUM_RESOURCES && tt_tlb_aperture_len(tdev, res))
		return tt_tlb_aperture_mmap(tf, vma, res, offset, region & 1);
	if (!pfn)
		return -EINVAL;
	m = tt_mapping_new(tf, false, wc, 0, TT_RESOURCE_BAR(res), offset,
			   (u64)pages << PAGE_SHIFT);
	if (!m)
		return -ENOMEM;
	vma->vm_private_data = m;

	vma->vm_page_prot = wc ? pgprot_writecombine(vma->vm_page_prot) :
				 pgprot_device(vma->vm_page_prot);
	tt_mmap_set_flags(vma);
	vma->vm_ops = &tt_mmap_ops;
	return 0;
}

/*
 * Take every page out of every mapping of the device's files; called with
 * tdev->lock held and detached set or a reset begun (tt_file_usable() is
 * false for every file until POST_RESET), so no fault puts one back. The files
 * of one node share their inode's mapping: zapping it twice is harmless.
 */
void tt_zap_mappings(struct tt_device *tdev)
{
	struct tt_file *tf;

	lockdep_assert_held(&tdev->lock);
	list_for_each_entry(tf, &tdev->files, node)
		unmap_mapping_range(tf->file->f_mapping, 0, 0, 1);
	tt_tlb_export_zap(tdev, -1);
}
