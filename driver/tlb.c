// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inbound TLB windows (tt-kmd's memory.c, wormhole.c, blackhole.c):
 * apertures of BAR0 (and on Blackhole BAR4) that a file allocates, points at
 * a NOC node and local address with CONFIGURE_TLB, and maps. Ids, sizes and
 * mmap offsets follow the real chips' layouts, so that tt-kmd's users find
 * the windows where they expect them.
 *
 * The backend turns a window page into a page frame (tt_backend.tlb_pfn):
 * on a card that is the window's own BAR page; on the chip model it is the
 * page of the device image that holds the target memory, so a window is
 * re-pointed by zapping its mappings when it is configured and faulting the
 * pages in again. Faults and configuration serialise on tdev->lock, so a
 * fault never inserts a page of the old target after the zap.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/tenstorrent.h>
#include <linux/uaccess.h>

#include <hw/arch.h>
#include <hw/noc.h>

#include "tenstorrent.h"

/* Wormhole: BAR0 holds 156 1 MiB, 10 2 MiB and 20 16 MiB windows. */
static const struct tt_tlb_kind tt_tlb_wormhole_kinds[] = {
	{ .size = SZ_1M, .count = 156, .base = 0 },
	{ .size = SZ_2M, .count = 10, .base = 0x09C00000 },
	{ .size = SZ_16M, .count = 20, .base = 0x0B000000 },
};

/*
 * Blackhole: 202 2 MiB windows in BAR0, 8 4 GiB windows in BAR4, whose
 * mmap offsets start 512 MiB (BAR0's size) into the region.
 */
static const struct tt_tlb_kind tt_tlb_blackhole_kinds[] = {
	{ .size = SZ_2M, .count = 202, .base = 0 },
	{ .size = SZ_4G, .count = 8, .base = SZ_512M },
};

/* The last window of the first size the kernel keeps for itself. */
static const struct tt_tlb_layout tt_tlb_layouts[] = {
	{
		.arch = TT_HW_ARCH_WORMHOLE_B0,
		.kinds = tt_tlb_wormhole_kinds,
		.nkinds = ARRAY_SIZE(tt_tlb_wormhole_kinds),
		.count = 186,
		.kernel_id = 185,
		.addr_bits = 36,
	},
	{
		.arch = TT_HW_ARCH_BLACKHOLE,
		.kinds = tt_tlb_blackhole_kinds,
		.nkinds = ARRAY_SIZE(tt_tlb_blackhole_kinds),
		.count = 210,
		.kernel_id = 201,
		.addr_bits = 64,
	},
};

const struct tt_tlb_layout *tt_tlb_layout_of(u32 arch)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tt_tlb_layouts); i++)
		if (tt_tlb_layouts[i].arch == arch)
			return &tt_tlb_layouts[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(tt_tlb_layout_of);

/* Size and offset (within the TLB mmap region) of window @id. */
bool tt_tlb_window(const struct tt_tlb_layout *l, u32 id, u64 *size,
		   u64 *offset)
{
	const struct tt_tlb_kind *k;

	for (k = l->kinds; k < l->kinds + l->nkinds; k++) {
		if (id < k->count) {
			*size = k->size;
			*offset = k->base + id * k->size;
			return true;
		}
		id -= k->count;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(tt_tlb_window);

/* The window that holds all of [@offset, @offset + @len), if one does. */
bool tt_tlb_window_at(const struct tt_tlb_layout *l, u64 offset, u64 len,
		      u32 *id)
{
	const struct tt_tlb_kind *k;
	u32 first = 0;
	u64 index;

	for (k = l->kinds; k < l->kinds + l->nkinds; first += k->count, k++) {
		if (offset < k->base)
			continue;
		index = div64_u64(offset - k->base, k->size);
		if (index >= k->count)
			continue;
		if (!len || len > k->size - (offset - k->base - index * k->size))
			return false;
		*id = first + index;
		return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(tt_tlb_window_at);

/*
 * The checks every device makes: the address is aligned to the window and
 * fits the chip's NOC addresses, and each field fits its register.
 */
int tt_tlb_config_check(const struct tt_tlb_layout *l, u64 size,
			const struct tenstorrent_noc_tlb_config *c)
{
	if (c->addr & (size - 1))
		return -EINVAL;
	if (l->addr_bits < 64 && c->addr >> l->addr_bits)
		return -EINVAL;
	if (c->x_end > TT_NOC_MAX_COORD || c->y_end > TT_NOC_MAX_COORD ||
	    c->x_start > TT_NOC_MAX_COORD || c->y_start > TT_NOC_MAX_COORD)
		return -EINVAL;
	if (c->noc > 1 || c->mcast > 1 || c->ordering > 3 || c->linked > 1)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(tt_tlb_config_check);

/*
 * EXPORT_TLB_DMABUF's checks that need no device (tlb_export.c). Size 0
 * means "to the end of the window", which only the window can tell, after
 * its owner is known.
 */
int tt_tlb_export_check(const struct tenstorrent_export_tlb_dmabuf *a)
{
	if (a->argsz != sizeof(*a) || a->flags ||
	    !PAGE_ALIGNED(a->offset) || !PAGE_ALIGNED(a->size))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(tt_tlb_export_check);

int tt_tlb_init(struct tt_device *tdev)
{
	const struct tt_tlb_layout *l = tt_tlb_layout_of(tdev->arch);

	if (!tdev->backend->tlb_pfn || !l)
		return 0;
	tdev->tlbs = kcalloc(l->count, sizeof(*tdev->tlbs), GFP_KERNEL);
	if (!tdev->tlbs)
		return -ENOMEM;
	tdev->tlb_layout = l;
	return 0;
}

/* Window @id, if it exists and @tf owns it; else an error for user space. */
struct tt_tlb *tt_tlb_owned(struct tt_file *tf, u32 id, int *err)
{
	struct tt_device *tdev = tf->tdev;

	lockdep_assert_held(&tdev->lock);
	if (!tt_file_usable(tf)) {
		*err = -ENODEV;
		return NULL;
	}
	if (id >= TENSTORRENT_MAX_INBOUND_TLBS) {
		*err = -EINVAL;
		return NULL;
	}
	if (!tdev->tlb_layout || id >= tdev->tlb_layout->count ||
	    tdev->tlbs[id].owner != tf) {
		*err = -EPERM;
		return NULL;
	}
	return &tdev->tlbs[id];
}

/* The lowest free window of @size for @tf, or -EINVAL / -ENOMEM. */
static int tt_tlb_claim(struct tt_file *tf, u64 size)
{
	struct tt_device *tdev = tf->tdev;
	const struct tt_tlb_layout *l = tdev->tlb_layout;
	bool known = false;
	u64 wsize, woff;
	u32 id;

	lockdep_assert_held(&tdev->lock);
	for (id = 0; id < l->count; id++) {
		if (!tt_tlb_window(l, id, &wsize, &woff) || wsize != size)
			continue;
		known = true;
		if (id == l->kernel_id || tdev->tlbs[id].owner ||
		    tdev->tlbs[id].exports)
			continue;
		tdev->tlbs[id].owner = tf;
		return id;
	}
	return known ? -ENOMEM : -EINVAL;
}

long tt_ioctl_allocate_tlb(struct tt_file *tf,
			   struct tenstorrent_allocate_tlb __user *arg)
{
	struct tenstorrent_allocate_tlb_out out = {};
	struct tenstorrent_allocate_tlb_in in;
	struct tt_device *tdev = tf->tdev;
	u64 size, offset;
	int id;

	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;
	if (!tdev->tlb_layout)
		return -EOPNOTSUPP;

	mutex_lock(&tdev->lock);
	id = !tt_file_usable(tf) ? -ENODEV : tt_tlb_claim(tf, in.size);
	mutex_unlock(&tdev->lock);
	if (id < 0)
		return id;

	tt_tlb_window(tdev->tlb_layout, id, &size, &offset);
	out.id = id;
	out.mmap_offset_uc = TENSTORRENT_MMAP_TLB_UC + offset;
	out.mmap_offset_wc = TENSTORRENT_MMAP_TLB_WC + offset;
	if (copy_to_user(&arg->out, &out, sizeof(out))) {
		tt_tlb_free_id(tf, id);
		return -EFAULT;
	}
	return 0;
}

/*
 * The owner gives the window up. It goes back to the pool, unless a dma-buf
 * export still holds it (tlb_export.c): then once the last one is gone.
 */
static void tt_tlb_give_up(struct tt_tlb *tlb)
{
	if (tlb->exports)
		tlb->owner = NULL;
	else
		memset(tlb, 0, sizeof(*tlb));
}

/* An export of window @id is gone. */
void tt_tlb_unhold(struct tt_device *tdev, u32 id)
{
	struct tt_tlb *tlb = &tdev->tlbs[id];

	lockdep_assert_held(&tdev->lock);
	if (!--tlb->exports && !tlb->owner)
		memset(tlb, 0, sizeof(*tlb));
}

/* Give window @id back, unless it is mapped: 0, -EPERM or -EBUSY. */
int tt_tlb_free_id(struct tt_file *tf, u32 id)
{
	struct tt_device *tdev = tf->tdev;
	struct tt_tlb *tlb;
	int ret = 0;

	mutex_lock(&tdev->lock);
	tlb = tt_tlb_owned(tf, id, &ret);
	if (tlb && tlb->maps)
		ret = -EBUSY;
	else if (tlb)
		tt_tlb_give_up(tlb);
	mutex_unlock(&tdev->lock);
	return ret;
}

long tt_ioctl_free_tlb(struct tt_file *tf,
		       struct tenstorrent_free_tlb __user *arg)
{
	struct tenstorrent_free_tlb_in in;

	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;
	return tt_tlb_free_id(tf, in.id);
}

/* Take the window's pages out of every mapping: the next access faults. */
static void tt_tlb_zap(struct tt_file *tf, u32 id)
{
	u64 size, offset;

	tt_tlb_window(tf->tdev->tlb_layout, id, &size, &offset);
	unmap_mapping_range(tf->file->f_mapping,
			    TENSTORRENT_MMAP_TLB_UC + offset, size, 1);
	unmap_mapping_range(tf->file->f_mapping,
			    TENSTORRENT_MMAP_TLB_WC + offset, size, 1);
}

long tt_ioctl_configure_tlb(struct tt_file *tf,
			    struct tenstorrent_configure_tlb __user *arg)
{
	struct tenstorrent_configure_tlb_out out = {};
	struct tenstorrent_configure_tlb_in in;
	struct tt_device *tdev = tf->tdev;
	struct tt_tlb *tlb;
	u64 size, offset;
	int ret = 0;

	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;

	mutex_lock(&tdev->lock);
	tlb = tt_tlb_owned(tf, in.id, &ret);
	if (tlb) {
		tt_tlb_window(tdev->tlb_layout, in.id, &size, &offset);
		ret = tt_tlb_config_check(tdev->tlb_layout, size, &in.config);
	}
	if (tlb && !ret)
		ret = tdev->backend->tlb_configure(tdev, in.id, &in.config);
	if (tlb && !ret) {
		tlb->config = in.config;
		tlb->configured = true;
		tt_tlb_zap(tf, in.id);
		tt_tlb_export_zap(tdev, in.id);
	}
	mutex_unlock(&tdev->lock);
	if (ret)
		return ret;
	return copy_to_user(&arg->out, &out, sizeof(out)) ? -EFAULT : 0;
}

/* At close: the file's mappings are gone, so are its windows. */
void tt_tlb_release_file(struct tt_file *tf)
{
	struct tt_device *tdev = tf->tdev;
	u32 id;

	if (!tdev->tlb_layout)
		return;
	mutex_lock(&tdev->lock);
	for (id = 0; id < tdev->tlb_layout->count; id++) {
		if (tdev->tlbs[id].owner != tf)
			continue;
		WARN_ON_ONCE(tdev->tlbs[id].maps);
		tt_tlb_give_up(&tdev->tlbs[id]);
	}
	mutex_unlock(&tdev->lock);
}

/*
 * At a reset: windows of files opened before it go back to the pool
 * (tt-kmd#261), except those still mapped, whose mappings would count
 * against the next owner; they go when their file is closed.
 */
void tt_tlb_reclaim_stale(struct tt_device *tdev)
{
	struct tt_tlb *tlb;
	u32 id;

	lockdep_assert_held(&tdev->lock);
	if (!tdev->tlb_layout)
		return;
	for (id = 0; id < tdev->tlb_layout->count; id++) {
		tlb = &tdev->tlbs[id];
		if (tlb->owner && tlb->owner->reset_gen != tdev->reset_gen &&
		    !tlb->maps)
			tt_tlb_give_up(tlb);
	}
}

/* --- mappings --- */

static u32 tt_tlb_vma_id(struct vm_area_struct *vma)
{
	return (u32)(uintptr_t)vma->vm_private_data;
}

/* Offset of the VMA's first page within its window. */
static u64 tt_tlb_vma_start(struct tt_device *tdev, struct vm_area_struct *vma)
{
	u64 in_region = ((u64)vma->vm_pgoff << PAGE_SHIFT) &
			(TENSTORRENT_MMAP_REGION(1) - 1);
	u64 size, offset;

	tt_tlb_window(tdev->tlb_layout, tt_tlb_vma_id(vma), &size, &offset);
	return in_region - offset;
}

static vm_fault_t tt_tlb_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct tt_file *tf = vma->vm_file->private_data;
	struct tt_device *tdev = tf->tdev;
	struct tt_tlb *tlb = &tdev->tlbs[tt_tlb_vma_id(vma)];
	u64 off = tt_tlb_vma_start(tdev, vma) + (vmf->address - vma->vm_start);
	vm_fault_t ret = VM_FAULT_SIGBUS;
	unsigned long pfn;

	mutex_lock(&tdev->lock);
	if (tt_file_usable(tf) && tlb->configured &&
	    !tdev->backend->tlb_pfn(tdev, &tlb->config, off, &pfn))
		ret = vmf_insert_pfn_prot(vma, vmf->address, pfn,
					  vma->vm_page_prot);
	mutex_unlock(&tdev->lock);
	return ret;
}

/* A copy of a mapping (fork, mremap) counts as one more. */
static void tt_tlb_vma_open(struct vm_area_struct *vma)
{
	struct tt_file *tf = vma->vm_file->private_data;

	mutex_lock(&tf->tdev->lock);
	tf->tdev->tlbs[tt_tlb_vma_id(vma)].maps++;
	mutex_unlock(&tf->tdev->lock);
}

static void tt_tlb_vma_close(struct vm_area_struct *vma)
{
	struct tt_file *tf = vma->vm_file->private_data;

	mutex_lock(&tf->tdev->lock);
	tf->tdev->tlbs[tt_tlb_vma_id(vma)].maps--;
	mutex_unlock(&tf->tdev->lock);
}

/* A window is mapped whole or not at all: no partial munmap. */
static int tt_tlb_vma_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

static const struct vm_operations_struct tt_tlb_vm_ops = {
	.open = tt_tlb_vma_open,
	.close = tt_tlb_vma_close,
	.may_split = tt_tlb_vma_may_split,
	.fault = tt_tlb_fault,
};

/*
 * mmap at @offset within the TLB region (@wc: the write-combined one): the
 * range must lie inside one window, which this file owns.
 */
int tt_tlb_mmap(struct tt_file *tf, struct vm_area_struct *vma, u64 offset,
		bool wc)
{
	struct tt_device *tdev = tf->tdev;
	struct tt_tlb *tlb = NULL;
	int ret = -EINVAL;
	u32 id;

	mutex_lock(&tdev->lock);
	if (!tt_file_usable(tf))
		ret = -ENODEV;
	else if (tdev->tlb_layout &&
		 tt_tlb_window_at(tdev->tlb_layout, offset,
				  vma->vm_end - vma->vm_start, &id))
		tlb = tt_tlb_owned(tf, id, &ret);
	if (tlb) {
		tlb->maps++;
		ret = 0;
	}
	mutex_unlock(&tdev->lock);
	if (ret)
		return ret;

	vma->vm_private_data = (void *)(uintptr_t)id;
	vma->vm_page_prot = wc ? pgprot_writecombine(vma->vm_page_prot) :
				 pgprot_device(vma->vm_page_prot);
	tt_mmap_set_flags(vma);
	vma->vm_ops = &tt_tlb_vm_ops;
	return 0;
}
