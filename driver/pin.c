// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pinned user memory (PIN_PAGES, UNPIN_PAGES, as in tt-kmd's memory.c): a
 * file pins a page-aligned range of its process's memory, the driver maps
 * it for the device as one contiguous bus range and, with the NOC_DMA
 * flag, gives it a NOC address through an outbound ATU region taken from
 * the bottom of the host window (the top with NOC_TOP_DOWN).
 *
 * The pages are pinned with no lock held: pinning takes mmap_lock, and the
 * mmap handlers take tf->lock under it (the inversion of tt-kmd#271), and
 * a pin may fault for long (tt-kmd#295). Only the bookkeeping is done
 * under tf->lock.
 *
 * Pinned pages count against the process's RLIMIT_MEMLOCK (in
 * mm->pinned_vm, as RDMA and VFIO count them) unless it has
 * CAP_IPC_LOCK, so an unprivileged user cannot pin all of memory through
 * a world-accessible node.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/capability.h>
#include <linux/dma-mapping.h>
#include <linux/iommu.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/scatterlist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tenstorrent.h>
#include <linux/uaccess.h>

#include "tenstorrent.h"

/*
 * The largest pin: 64 GiB, whose page array (128 MiB) kvmalloc still
 * gives; a larger request would be refused only after a huge allocation.
 */
#define TT_PIN_MAX_SIZE (64ULL << 30)

#define TT_PIN_FLAGS                                                     \
	(TENSTORRENT_PIN_PAGES_CONTIGUOUS | TENSTORRENT_PIN_PAGES_NOC_DMA | \
	 TENSTORRENT_PIN_PAGES_NOC_TOP_DOWN | TENSTORRENT_PIN_PAGES_READ_ONLY)

/**
 * struct tt_pin - one pinned range
 * @node: in tf->pins
 * @va: the virtual address it was pinned at
 * @npages: pages pinned
 * @pages: the pages
 * @mm: the address space charged for them (one mmgrab reference)
 * @sgt: the pages, mapped for the device
 * @dma: the bus address of the first byte (the range is contiguous)
 * @read_only: the device may only read it
 * @atu_region: the ATU region that gives it a NOC address, or -1
 * @noc_address: that NOC address, or 0
 * @busy: queued DMA copies using it; UNPIN_PAGES fails while non-zero
 */
struct tt_pin {
	struct list_head node;
	u64 va;
	unsigned long npages;
	struct page **pages;
	struct mm_struct *mm;
	struct sg_table sgt;
	dma_addr_t dma;
	bool read_only;
	int atu_region;
	u64 noc_address;
	unsigned int busy;
};

/* Does the device see host memory through an IOMMU that translates? */
bool tt_iommu_translates(struct device *dev)
{
	struct iommu_domain *domain = iommu_get_domain_for_dev(dev);

	return domain && domain->type != IOMMU_DOMAIN_IDENTITY;
}

/*
 * The checks that need nothing but the arguments (pure, for KUnit):
 * known flags, a page-aligned non-empty range that does not wrap and is
 * at most TT_PIN_MAX_SIZE.
 */
int tt_pin_check(u32 flags, u64 va, u64 size)
{
	if (flags & ~TT_PIN_FLAGS)
		return -EINVAL;
	if (!size || !PAGE_ALIGNED(va) || !PAGE_ALIGNED(size))
		return -EINVAL;
	if (size - 1 > U64_MAX - va || size > TT_PIN_MAX_SIZE)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(tt_pin_check);

/* Charge @npages to the current process's RLIMIT_MEMLOCK. */
static int tt_pin_charge(struct mm_struct *mm, unsigned long npages)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	u64 pinned = atomic64_add_return(npages, &mm->pinned_vm);

	if (pinned > limit && !capable(CAP_IPC_LOCK)) {
		atomic64_sub(npages, &mm->pinned_vm);
		return -ENOMEM;
	}
	return 0;
}

static void tt_pin_uncharge(struct tt_pin *pin)
{
	atomic64_sub(pin->npages, &pin->mm->pinned_vm);
	mmdrop(pin->mm);
}

static int tt_pin_user_pages(struct tt_pin *pin)
{
	unsigned int gup = FOLL_LONGTERM | (pin->read_only ? 0 : FOLL_WRITE);
	long got;

	pin->pages = kvcalloc(pin->npages, sizeof(*pin->pages), GFP_KERNEL);
	if (!pin->pages)
		return -ENOMEM;
	got = pin_user_pages_fast(pin->va, pin->npages, gup, pin->pages);
	if (got == pin->npages)
		return 0;
	if (got > 0)
		unpin_user_pages(pin->pages, got);
	kvfree(pin->pages);
	pin->pages = NULL;
	/* A range with a hole or of the wrong kind (a device mapping). */
	return got < 0 ? got : -EFAULT;
}

/* The bus range must be one piece: the device sees it through one base. */
static bool tt_sgt_contiguous(struct sg_table *sgt, dma_addr_t *start)
{
	struct scatterlist *sg;
	dma_addr_t next = 0;
	unsigned int i;

	for_each_sgtable_dma_sg(sgt, sg, i) {
		if (i && sg_dma_address(sg) != next)
			return false;
		if (!i)
			*start = sg_dma_address(sg);
		next = sg_dma_address(sg) + sg_dma_len(sg);
	}
	return true;
}

static enum dma_data_direction tt_pin_dir(const struct tt_pin *pin)
{
	return pin->read_only ? DMA_TO_DEVICE : DMA_BIDIRECTIONAL;
}

static int tt_pin_map(struct tt_device *tdev, struct tt_pin *pin)
{
	struct device *dev = &tdev->pdev->dev;
	int ret;

	ret = sg_alloc_table_from_pages(&pin->sgt, pin->pages, pin->npages, 0,
					pin->npages << PAGE_SHIFT, GFP_KERNEL);
	if (ret)
		return ret;
	ret = dma_map_sgtable(dev, &pin->sgt, tt_pin_dir(pin), 0);
	if (ret) {
		sg_free_table(&pin->sgt);
		return ret;
	}
	if (!tt_sgt_contiguous(&pin->sgt, &pin->dma)) {
		dma_unmap_sgtable(dev, &pin->sgt, tt_pin_dir(pin), 0);
		sg_free_table(&pin->sgt);
		return -EINVAL;
	}
	return 0;
}

/* Undo whatever of tt_pin_create() was done, in reverse. */
static void tt_pin_destroy(struct tt_device *tdev, struct tt_pin *pin)
{
	tt_noc_unmap_host(tdev, pin, pin->atu_region);
	if (pin->sgt.sgl) {
		dma_unmap_sgtable(&tdev->pdev->dev, &pin->sgt, tt_pin_dir(pin),
				  0);
		sg_free_table(&pin->sgt);
	}
	if (pin->pages) {
		unpin_user_pages_dirty_lock(pin->pages, pin->npages,
					    !pin->read_only);
		kvfree(pin->pages);
	}
	if (pin->mm)
		tt_pin_uncharge(pin);
	kfree(pin);
}

static struct tt_pin *tt_pin_create(struct tt_file *tf,
				    const struct tenstorrent_pin_pages_in *in,
				    int *err)
{
	struct tt_pin *pin = kzalloc(sizeof(*pin), GFP_KERNEL);
	struct tt_device *tdev = tf->tdev;
	bool top_down = in->flags & TENSTORRENT_PIN_PAGES_NOC_TOP_DOWN;

	*err = -ENOMEM;
	if (!pin)
		return NULL;
	pin->va = in->virtual_address;
	pin->npages = in->size >> PAGE_SHIFT;
	pin->read_only = in->flags & TENSTORRENT_PIN_PAGES_READ_ONLY;
	pin->atu_region = -1;

	*err = tt_pin_charge(current->mm, pin->npages);
	if (*err)
		goto fail;
	pin->mm = current->mm;
	mmgrab(pin->mm);
	*err = tt_pin_user_pages(pin);
	if (!*err)
		*err = tt_pin_map(tdev, pin);
	if (!*err && (top_down || (in->flags & TENSTORRENT_PIN_PAGES_NOC_DMA))) {
		pin->atu_region = tt_noc_map_host(tf, pin, in->size, top_down,
						  pin->dma, &pin->noc_address);
		*err = min(pin->atu_region, 0);
	}
	if (!*err)
		return pin;
fail:
	tt_pin_destroy(tdev, pin);
	return NULL;
}

/* The pin of exactly this range, or NULL. tf->lock held. */
static struct tt_pin *tt_pin_exact(struct tt_file *tf, u64 va,
				   unsigned long npages)
{
	struct tt_pin *pin;

	list_for_each_entry(pin, &tf->pins, node)
		if (pin->va == va && pin->npages == npages)
			return pin;
	return NULL;
}

/**
 * tt_pin_find - the pinned range of @tf that holds [@va, @va + @len)
 * @tf: the file
 * @va: first byte, a virtual address as pinned
 * @len: bytes, at least 1
 * @bus: set to the bus address of @va
 * @read_only: set if the device may only read the range
 *
 * For the DMA queue. Called with tf->lock held; the range stays pinned for
 * as long as the caller holds a tt_pin_get() on it.
 */
struct tt_pin *tt_pin_find(struct tt_file *tf, u64 va, u64 len,
			   dma_addr_t *bus, bool *read_only)
{
	struct tt_pin *pin;
	u64 size;

	lockdep_assert_held(&tf->lock);
	list_for_each_entry(pin, &tf->pins, node) {
		size = (u64)pin->npages << PAGE_SHIFT;
		if (va >= pin->va && va - pin->va < size &&
		    len <= size - (va - pin->va)) {
			*bus = pin->dma + (va - pin->va);
			*read_only = pin->read_only;
			return pin;
		}
	}
	return NULL;
}

/* A queued DMA copy uses @pin: UNPIN_PAGES fails until tt_pin_put(). */
void tt_pin_get(struct tt_pin *pin)
{
	pin->busy++;
}

void tt_pin_put(struct tt_pin *pin)
{
	pin->busy--;
}

long tt_ioctl_pin_pages(struct tt_file *tf,
			struct tenstorrent_pin_pages __user *arg)
{
	struct tenstorrent_pin_pages_out_extended out = {};
	struct tenstorrent_pin_pages_in in;
	struct tt_device *tdev = tf->tdev;
	struct tt_pin *pin;
	int ret;

	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;
	ret = tt_pin_check(in.flags, in.virtual_address, in.size);
	if (ret)
		return ret;
	if (!tdev->dma_capable)
		return -EINVAL;
	/* Without translation the device would still write (tt-kmd's rule). */
	if ((in.flags & TENSTORRENT_PIN_PAGES_READ_ONLY) &&
	    !tt_iommu_translates(&tdev->pdev->dev))
		return -EOPNOTSUPP;

	mutex_lock(&tf->lock);
	pin = tt_pin_exact(tf, in.virtual_address, in.size >> PAGE_SHIFT);
	mutex_unlock(&tf->lock);
	if (pin)
		return -EEXIST;

	pin = tt_pin_create(tf, &in, &ret);
	if (!pin)
		return ret;

	/* Another thread may have pinned the same range meanwhile. */
	mutex_lock(&tf->lock);
	if (tt_pin_exact(tf, pin->va, pin->npages))
		ret = -EEXIST;
	else
		list_add_tail(&pin->node, &tf->pins);
	mutex_unlock(&tf->lock);
	if (ret) {
		tt_pin_destroy(tdev, pin);
		return ret;
	}

	out.physical_address = pin->dma;
	out.noc_address = pin->noc_address;
	ret = tt_copy_out(&arg->out, in.output_size_bytes, &out, sizeof(out));
	if (ret)
		tt_unpin(tf, in.virtual_address, in.size);
	return ret;
}

/* Unpin exactly the range [@va, @va + @size) that was pinned. */
int tt_unpin(struct tt_file *tf, u64 va, u64 size)
{
	struct tt_pin *pin;
	int ret = 0;

	mutex_lock(&tf->lock);
	pin = PAGE_ALIGNED(size) ? tt_pin_exact(tf, va, size >> PAGE_SHIFT) :
				   NULL;
	/* Completed DMA-queue copies let go of their pins first. */
	tt_dmaq_collect(tf);
	if (!pin)
		ret = -EINVAL;
	else if (pin->busy)
		ret = -EBUSY;
	else
		list_del(&pin->node);
	mutex_unlock(&tf->lock);
	if (!ret)
		tt_pin_destroy(tf->tdev, pin);
	return ret;
}

long tt_ioctl_unpin_pages(struct tt_file *tf,
			  struct tenstorrent_unpin_pages __user *arg)
{
	struct tenstorrent_unpin_pages_in in;

	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;
	if (in.reserved)
		return -EINVAL;
	return tt_unpin(tf, in.virtual_address, in.size);
}

/* debugfs "mappings": the file's pinned ranges; tf->lock held. */
void tt_pin_show(struct seq_file *s, struct tt_file *tf, bool addrs)
{
	const struct tt_pin *pin;

	const char *label = tt_iommu_translates(&tf->tdev->pdev->dev) ? "IOVA" :
									"PA";

	lockdep_assert_held(&tf->lock);
	list_for_each_entry(pin, &tf->pins, node) {
		if (pin->atu_region >= 0)
			tt_debugfs_row(s, tf, "PIN_PAGES+IATU",
				       "VA: 0x%016llx -> %s: 0x%016llx -> NOC: 0x%llx (size=0x%lx, busy=%u)",
				       addrs ? pin->va : 0, label,
				       addrs ? (u64)pin->dma : 0,
				       addrs ? pin->noc_address : 0,
				       pin->npages << PAGE_SHIFT, pin->busy);
		else
			tt_debugfs_row(s, tf, "PIN_PAGES",
				       "VA: 0x%016llx -> %s: 0x%016llx (size=0x%lx, busy=%u)",
				       addrs ? pin->va : 0, label,
				       addrs ? (u64)pin->dma : 0,
				       pin->npages << PAGE_SHIFT, pin->busy);
	}
}

/* At close, once no DMA copy can use them. */
void tt_pin_release_file(struct tt_file *tf)
{
	struct tt_pin *pin, *next;

	list_for_each_entry_safe(pin, next, &tf->pins, node) {
		list_del(&pin->node);
		tt_pin_destroy(tf->tdev, pin);
	}
}
