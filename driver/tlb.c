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
	{ .size = SZ_1M, .count = 156, .base = 0, .bar = 0, .bar_off = 0 },
	{ .size = SZ_2M, .count = 10, .base = 0x09C00000, .bar = 0,
	  .bar_off = 0x09C00000 },
	{ .size = SZ_16M, .count = 20, .base = 0x0B000000, .bar = 0,
	  .bar_off = 0x0B000000 },
};

/*
 * Blackhole: 202 2 MiB windows in BAR0, 8 4 GiB windows in BAR4, whose
 * mmap offsets start 512 MiB (BAR0's size) into the region.
 */
static const struct tt_tlb_kind tt_tlb_blackhole_kinds[] = {
	{ .size = SZ_2M, .count = 202, .base = 0, .bar = 0, .bar_off = 0 },
	{ .size = SZ_4G, .count = 8, .base = SZ_512M, .bar = 4, .bar_off = 0 },
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

/* The kind of window @id, and its index among the windows of that kind. */
static const struct tt_tlb_kind *tt_tlb_kind_of(const struct tt_tlb_layout *l,
						u32 id, u32 *index)
{
	const struct tt_tlb_kind *k;

	for (k = l->kinds; k < l->kinds + l->nkinds; k++) {
		if (id < k->count) {
			*index = id;
			return k;
		}
		id -= k->count;
	}
	return NULL;
}

/*
 * Take window @id's pages out of every mapping of the apertures
 * (tt_tlb_aperture_mmap()): it was re-pointed or freed. Every file's
 * mapping, since any file may map an aperture.
 */
static void tt_tlb_aperture_zap(struct tt_device *tdev, u32 id)
{
	const struct tt_tlb_kind *k;
	struct address_space *last = NULL;
	struct tt_file *tf;
	u64 at;
	u32 i;

	lockdep_assert_held(&tdev->lock);
	k = tt_tlb_kind_of(tdev->tlb_layout, id, &i);
	if (!k || !(tdev->backend->apertures & BIT(k->bar / 2)))
		return;
	at = k->bar_off + i * k->size;
	list_for_each_entry(tf, &tdev->files, node) {
		if (tf->file->f_mapping == last)
			continue;
		last = tf->file->f_mapping;
		unmap_mapping_range(last, TENSTORRENT_MMAP_REGION(k->bar) + at,
				    k->size, 1);
		unmap_mapping_range(last,
				    TENSTORRENT_MMAP_REGION(k->bar + 1) + at,
				    k->size, 1);
	}
}

/* Window @id is free again: unconfigured, seen by no aperture. */
static void tt_tlb_clear(struct tt_device *tdev, u32 id)
{
	memset(&tdev->tlbs[id], 0, sizeof(tdev->tlbs[id]));
	tt_tlb_aperture_zap(tdev, id);
}

/*
 * The owner gives the window up. It goes back to the pool, unless a dma-buf
 * export still holds it (tlb_export.c): then once the last one is gone.
 */
static void tt_tlb_give_up(struct tt_device *tdev, u32 id)
{
	if (tdev->tlbs[id].exports)
		tdev->tlbs[id].owner = NULL;
	else
		tt_tlb_clear(tdev, id);
}

/* An export of window @id is gone. */
void tt_tlb_unhold(struct tt_device *tdev, u32 id)
{
	struct tt_tlb *tlb = &tdev->tlbs[id];

	lockdep_assert_held(&tdev->lock);
	if (!--tlb->exports && !tlb->owner)
		tt_tlb_clear(tdev, id);
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
		tt_tlb_give_up(tdev, id);
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
		tt_tlb_aperture_zap(tdev, in.id);
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
		tt_tlb_give_up(tdev, id);
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
			tt_tlb_give_up(tdev, id);
	}
}

/* --- mappings --- */

/* May a mapping of @tf (of an export: NULL) reach the device? Locked. */
static bool tt_tlb_usable(struct tt_device *tdev, const struct tt_file *tf)
{
	lockdep_assert_held(&tdev->lock);
	return tf ? tt_file_usable(tf) : tt_device_usable(tdev);
}

/*
 * A fault at byte @off of window @id (a window's own mapping, an export's
 * or an aperture's): the backend's page, inserted with the VMA's
 * protection. Every such VMA has a pfn_mkwrite, so the kernel keeps its
 * pages read-only until the first write, which tt_tlb_mkwrite_at() lets
 * through only to pages that may be written; a write fault on a
 * read-only page (registers) is refused here already.
 */
vm_fault_t tt_tlb_fault_at(struct vm_fault *vmf, struct tt_device *tdev,
			   const struct tt_file *tf, u32 id, u64 off)
{
	const struct tt_tlb *tlb;
	vm_fault_t ret = VM_FAULT_SIGBUS;
	unsigned long pfn;
	bool read_only = false;

	mutex_lock(&tdev->lock);
	tlb = &tdev->tlbs[id];
	if (tt_tlb_usable(tdev, tf) && tlb->configured &&
	    !tdev->backend->tlb_pfn(tdev, &tlb->config, off, &pfn,
				    &read_only) &&
	    !(read_only && (vmf->flags & FAULT_FLAG_WRITE)))
		ret = vmf_insert_pfn_prot(vmf->vma, vmf->address, pfn,
					  vmf->vma->vm_page_prot);
	mutex_unlock(&tdev->lock);
	return ret;
}

/* The first write to a page faulted in for reading: 0 if it may be written. */
vm_fault_t tt_tlb_mkwrite_at(struct tt_device *tdev, const struct tt_file *tf,
			     u32 id, u64 off)
{
	const struct tt_tlb *tlb;
	vm_fault_t ret = VM_FAULT_SIGBUS;
	unsigned long pfn;
	bool read_only = false;

	mutex_lock(&tdev->lock);
	tlb = &tdev->tlbs[id];
	if (tt_tlb_usable(tdev, tf) && tlb->configured &&
	    !tdev->backend->tlb_pfn(tdev, &tlb->config, off, &pfn,
				    &read_only) &&
	    !read_only)
		ret = 0;
	mutex_unlock(&tdev->lock);
	return ret;
}

static struct tt_mapping *tt_tlb_vma_map(struct vm_area_struct *vma)
{
	return vma->vm_private_data;
}

/* Offset of the VMA's first page within its window. */
static u64 tt_tlb_vma_start(struct tt_device *tdev, struct vm_area_struct *vma)
{
	u64 in_region = ((u64)vma->vm_pgoff << PAGE_SHIFT) &
			(TENSTORRENT_MMAP_REGION(1) - 1);
	u64 size, offset;

	tt_tlb_window(tdev->tlb_layout, tt_tlb_vma_map(vma)->id, &size,
		      &offset);
	return in_region - offset;
}

static vm_fault_t tt_tlb_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct tt_file *tf = vma->vm_file->private_data;
	struct tt_device *tdev = tf->tdev;

	return tt_tlb_fault_at(vmf, tdev, tf, tt_tlb_vma_map(vma)->id,
			       tt_tlb_vma_start(tdev, vma) +
				       (vmf->address - vma->vm_start));
}

static vm_fault_t tt_tlb_mkwrite(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct tt_file *tf = vma->vm_file->private_data;
	struct tt_device *tdev = tf->tdev;

	return tt_tlb_mkwrite_at(tdev, tf, tt_tlb_vma_map(vma)->id,
				 tt_tlb_vma_start(tdev, vma) +
					 (vmf->address - vma->vm_start));
}

/* A copy of a mapping (fork, mremap) counts as one more. */
static void tt_tlb_vma_open(struct vm_area_struct *vma)
{
	struct tt_file *tf = vma->vm_file->private_data;
	struct tt_mapping *m = tt_tlb_vma_map(vma);

	mutex_lock(&tf->tdev->lock);
	tf->tdev->tlbs[m->id].maps++;
	mutex_unlock(&tf->tdev->lock);
	tt_mapping_get(m);
}

static void tt_tlb_vma_close(struct vm_area_struct *vma)
{
	struct tt_file *tf = vma->vm_file->private_data;
	struct tt_mapping *m = tt_tlb_vma_map(vma);

	mutex_lock(&tf->tdev->lock);
	tf->tdev->tlbs[m->id].maps--;
	mutex_unlock(&tf->tdev->lock);
	tt_mapping_put(m);
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
	.pfn_mkwrite = tt_tlb_mkwrite,
};

/*
 * mmap at @offset within the TLB region (@wc: the write-combined one): the
 * range must lie inside one window, which this file owns.
 */
int tt_tlb_mmap(struct tt_file *tf, struct vm_area_struct *vma, u64 offset,
		bool wc)
{
	struct tt_device *tdev = tf->tdev;
	const struct tt_tlb_kind *k;
	struct tt_tlb *tlb = NULL;
	struct tt_mapping *m;
	u64 size = vma->vm_end - vma->vm_start, wsize, woff;
	int ret = -EINVAL;
	u32 id, i;

	mutex_lock(&tdev->lock);
	if (!tt_file_usable(tf))
		ret = -ENODEV;
	else if (tdev->tlb_layout &&
		 tt_tlb_window_at(tdev->tlb_layout, offset, size, &id))
		tlb = tt_tlb_owned(tf, id, &ret);
	mutex_unlock(&tdev->lock);
	if (!tlb)
		return ret;

	tt_tlb_window(tdev->tlb_layout, id, &wsize, &woff);
	k = tt_tlb_kind_of(tdev->tlb_layout, id, &i);
	m = tt_mapping_new(tf, true, wc, id, k->bar,
			   k->bar_off + i * k->size + (offset - woff), size);
	if (!m)
		return -ENOMEM;
	/* The owner may have let go meanwhile. */
	mutex_lock(&tdev->lock);
	tlb = tt_tlb_owned(tf, id, &ret);
	if (tlb)
		tlb->maps++;
	mutex_unlock(&tdev->lock);
	if (!tlb) {
		tt_mapping_put(m);
		return ret;
	}

	vma->vm_private_data = m;
	vma->vm_page_prot = wc ? pgprot_writecombine(vma->vm_page_prot) :
				 pgprot_device(vma->vm_page_prot);
	tt_mmap_set_flags(vma);
	vma->vm_ops = &tt_tlb_vm_ops;
	return 0;
}

/* --- apertures --- */

/*
 * Bytes of resource @res as the aperture of the windows the chip places
 * in its BAR (struct tt_backend.apertures), or 0: from offset 0 to the
 * end of the last window there.
 */
u64 tt_tlb_aperture_len(struct tt_device *tdev, unsigned int res)
{
	const struct tt_tlb_layout *l = tdev->tlb_layout;
	const struct tt_tlb_kind *k;
	u64 len = 0;

	if (!l || res >= TT_NUM_RESOURCES ||
	    !(tdev->backend->apertures & BIT(res)))
		return 0;
	for (k = l->kinds; k < l->kinds + l->nkinds; k++)
		if (k->bar == TT_RESOURCE_BAR(res))
			len = max(len, k->bar_off + k->count * k->size);
	return len;
}

/* The window at byte @at of BAR @bar, and the offset in it; false if none. */
static bool tt_tlb_at_bar(const struct tt_tlb_layout *l, u32 bar, u64 at,
			  u32 *id, u64 *off)
{
	const struct tt_tlb_kind *k;
	u32 first = 0;
	u64 index;

	for (k = l->kinds; k < l->kinds + l->nkinds; first += k->count, k++) {
		if (k->bar != bar || at < k->bar_off)
			continue;
		index = div64_u64(at - k->bar_off, k->size);
		if (index >= k->count)
			continue;
		*id = first + index;
		*off = at - k->bar_off - index * k->size;
		return true;
	}
	return false;
}

/* The window and offset of an aperture fault, or false. */
static bool tt_tlb_aperture_at(struct vm_fault *vmf, u32 *id, u64 *off)
{
	struct tt_mapping *m = vmf->vma->vm_private_data;
	struct tt_device *tdev = m->tf->tdev;
	u64 at = ((u64)vmf->pgoff << PAGE_SHIFT) &
		 (TENSTORRENT_MMAP_REGION(1) - 1);

	return tt_tlb_at_bar(tdev->tlb_layout, m->bar, at, id, off);
}

static vm_fault_t tt_tlb_aperture_fault(struct vm_fault *vmf)
{
	struct tt_mapping *m = vmf->vma->vm_private_data;
	u64 off;
	u32 id;

	if (!tt_tlb_aperture_at(vmf, &id, &off))
		return VM_FAULT_SIGBUS;
	return tt_tlb_fault_at(vmf, m->tf->tdev, m->tf, id, off);
}

static vm_fault_t tt_tlb_aperture_mkwrite(struct vm_fault *vmf)
{
	struct tt_mapping *m = vmf->vma->vm_private_data;
	u64 off;
	u32 id;

	if (!tt_tlb_aperture_at(vmf, &id, &off))
		return VM_FAULT_SIGBUS;
	return tt_tlb_mkwrite_at(m->tf->tdev, m->tf, id, off);
}

static void tt_tlb_aperture_open(struct vm_area_struct *vma)
{
	tt_mapping_get(vma->vm_private_data);
}

static void tt_tlb_aperture_close(struct vm_area_struct *vma)
{
	tt_mapping_put(vma->vm_private_data);
}

static const struct vm_operations_struct tt_tlb_aperture_ops = {
	.open = tt_tlb_aperture_open,
	.close = tt_tlb_aperture_close,
	.fault = tt_tlb_aperture_fault,
	.pfn_mkwrite = tt_tlb_aperture_mkwrite,
};

/*
 * mmap of resource @res, an aperture, from byte @offset (@wc: its
 * write-combined region). Like the chip's BAR, it shows every window as
 * configured now, whoever owns it: a page of a window that is not
 * configured faults with SIGBUS.
 */
int tt_tlb_aperture_mmap(struct tt_file *tf, struct vm_area_struct *vma,
			 unsigned int res, u64 offset, bool wc)
{
	u64 len = tt_tlb_aperture_len(tf->tdev, res);
	u64 size = vma->vm_end - vma->vm_start;
	struct tt_mapping *m;

	if (offset >= len || size > len - offset)
		return -EINVAL;
	m = tt_mapping_new(tf, false, wc, 0, TT_RESOURCE_BAR(res), offset,
			   size);
	if (!m)
		return -ENOMEM;
	vma->vm_private_data = m;
	vma->vm_page_prot = wc ? pgprot_writecombine(vma->vm_page_prot) :
				 pgprot_device(vma->vm_page_prot);
	tt_mmap_set_flags(vma);
	vma->vm_ops = &tt_tlb_aperture_ops;
	return 0;
}
