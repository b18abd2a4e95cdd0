// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ioctl commands of <linux/tenstorrent.h>, with tt-kmd's semantics
 * (tt-kmd's chardev.c and memory.c; docs/abi.md).
 *
 * Every argument is untrusted: only the `in` half is read, and the `out`
 * half is written following the output_size_bytes rule. No command holds
 * tdev->lock while it touches user memory: a user pointer may point into
 * one of this device's own mappings, whose fault handler takes that lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/tenstorrent.h>
#include <linux/uaccess.h>

#include "tenstorrent.h"
#include "version.h"

/*
 * The output_size_bytes rule: the caller owns @user_size bytes at @uout.
 * Zero all of them, then fill as many as both sides know. With 0 nothing
 * is written, not even a byte past `in`.
 */
int tt_copy_out(void __user *uout, u32 user_size, const void *out,
		size_t out_size)
{
	if (clear_user(uout, user_size))
		return -EFAULT;
	if (copy_to_user(uout, out, min_t(size_t, user_size, out_size)))
		return -EFAULT;
	return 0;
}

static long tt_ioctl_get_device_info(struct tt_device *tdev,
				     struct tenstorrent_get_device_info __user *arg)
{
	struct tenstorrent_get_device_info_out out = {};
	struct tenstorrent_get_device_info_in in;
	struct pci_dev *pdev = tdev->pdev;

	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;

	/* The function as it reports itself: ivshmem's ids for the mock. */
	out.output_size_bytes = sizeof(out);
	out.vendor_id = pdev->vendor;
	out.device_id = pdev->device;
	out.subsystem_vendor_id = pdev->subsystem_vendor;
	out.subsystem_id = pdev->subsystem_device;
	out.bus_dev_fn = PCI_DEVID(pdev->bus->number, pdev->devfn);
	out.max_dma_buf_size_log2 = TT_MAX_DMA_BUF_SIZE_LOG2;
	out.pci_domain = pci_domain_nr(pdev->bus);
	return tt_copy_out(&arg->out, in.output_size_bytes, &out, sizeof(out));
}

static long tt_ioctl_get_driver_info(struct tenstorrent_get_driver_info __user *arg)
{
	struct tenstorrent_get_driver_info_out out = {};
	struct tenstorrent_get_driver_info_in in;

	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;

	out.output_size_bytes = sizeof(out);
	out.driver_version = TENSTORRENT_DRIVER_VERSION;
	out.driver_version_major = TT_DRIVER_VERSION_MAJOR;
	out.driver_version_minor = TT_DRIVER_VERSION_MINOR;
	out.driver_version_patch = TT_DRIVER_VERSION_PATCH;
	return tt_copy_out(&arg->out, in.output_size_bytes, &out, sizeof(out));
}

/*
 * A resource user space may map: the backend offers it and its BAR is
 * memory of a whole number of pages (mmap works in pages).
 */
bool tt_resource_mappable(struct tt_device *tdev, unsigned int res)
{
	int bar = TT_RESOURCE_BAR(res);
	resource_size_t len;

	if (res >= TT_NUM_RESOURCES || !(tdev->backend->resources & BIT(res)))
		return false;
	len = pci_resource_len(tdev->pdev, bar);
	return (pci_resource_flags(tdev->pdev, bar) & IORESOURCE_MEM) && len &&
	       PAGE_ALIGNED(len);
}

/*
 * UC then WC for each mappable resource, in resource order: a BAR of the
 * function, or an aperture of TLB windows (tlb.c).
 */
static unsigned int tt_list_mappings(struct tt_device *tdev,
				     struct tenstorrent_mapping *maps)
{
	unsigned int res, wc, n = 0;

	u64 len;

	for (res = 0; res < TT_NUM_RESOURCES; res++) {
		len = tt_resource_mappable(tdev, res) ?
			      pci_resource_len(tdev->pdev,
					       TT_RESOURCE_BAR(res)) :
			      tt_tlb_aperture_len(tdev, res);
		if (!len)
			continue;
		for (wc = 0; wc < 2; wc++) {
			maps[n].mapping_id = TENSTORRENT_MAPPING_RESOURCE0_UC +
					     2 * res + wc;
			maps[n].mapping_base =
				TENSTORRENT_MMAP_REGION(2 * res + wc);
			maps[n].mapping_size = len;
			n++;
		}
	}
	return n;
}

/*
 * The caller provides output_mapping_count entries after `in`: write the
 * mappings that fit, zero the rest of the entries it asked for.
 */
static long tt_ioctl_query_mappings(struct tt_device *tdev,
				    struct tenstorrent_query_mappings __user *arg)
{
	struct tenstorrent_mapping maps[2 * TT_NUM_RESOURCES] = {};
	struct tenstorrent_mapping __user *umaps = arg->out.mappings;
	struct tenstorrent_query_mappings_in in;
	unsigned int n, fill;
	size_t rest;

	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;

	n = tt_list_mappings(tdev, maps);
	fill = min(n, in.output_mapping_count);
	if (copy_to_user(umaps, maps, fill * sizeof(maps[0])))
		return -EFAULT;
	if (check_mul_overflow((size_t)(in.output_mapping_count - fill),
			       sizeof(maps[0]), &rest))
		return -EINVAL;
	if (clear_user(umaps + fill, rest))
		return -EFAULT;
	return 0;
}

/* The commands a file may use between a reset and POST_RESET: they read
 * nothing of the hardware.
 */
static bool tt_ioctl_without_hw(unsigned int cmd)
{
	return cmd == TENSTORRENT_IOCTL_GET_DEVICE_INFO ||
	       cmd == TENSTORRENT_IOCTL_GET_DRIVER_INFO ||
	       cmd == TENSTORRENT_IOCTL_RESET_DEVICE;
}

static long tt_ioctl_dispatch(struct tt_file *tf, unsigned int cmd,
			      void __user *arg)
{
	struct tt_device *tdev = tf->tdev;

	switch (cmd) {
	case TENSTORRENT_IOCTL_GET_DEVICE_INFO:
		return tt_ioctl_get_device_info(tdev, arg);
	case TENSTORRENT_IOCTL_GET_DRIVER_INFO:
		return tt_ioctl_get_driver_info(arg);
	case TENSTORRENT_IOCTL_QUERY_MAPPINGS:
		return tt_ioctl_query_mappings(tdev, arg);
	case TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF:
		return tt_ioctl_allocate_dma_buf(tf, arg);
	case TENSTORRENT_IOCTL_RESET_DEVICE:
		return tt_ioctl_reset_device(tf, arg);
	case TENSTORRENT_IOCTL_PIN_PAGES:
		return tt_ioctl_pin_pages(tf, arg);
	case TENSTORRENT_IOCTL_LOCK_CTL:
		return tt_ioctl_lock_ctl(tf, arg);
	case TENSTORRENT_IOCTL_UNPIN_PAGES:
		return tt_ioctl_unpin_pages(tf, arg);
	case TENSTORRENT_IOCTL_ALLOCATE_TLB:
		return tt_ioctl_allocate_tlb(tf, arg);
	case TENSTORRENT_IOCTL_FREE_TLB:
		return tt_ioctl_free_tlb(tf, arg);
	case TENSTORRENT_IOCTL_CONFIGURE_TLB:
		return tt_ioctl_configure_tlb(tf, arg);
	case TENSTORRENT_IOCTL_SET_NOC_CLEANUP:
		return tt_ioctl_set_noc_cleanup(tf, arg);
	case TENSTORRENT_IOCTL_SET_POWER_STATE:
		return tt_ioctl_set_power_state(tf, arg);
	case TENSTORRENT_IOCTL_MAP_PEER_BAR:
		return tt_ioctl_map_peer_bar(tf, arg);
	case TENSTORRENT_IOCTL_EXPORT_TLB_DMABUF:
		return tt_ioctl_export_tlb_dmabuf(tf, arg);
	case TENSTORRENT_IOCTL_DMA_QUEUE_SUBMIT:
		return tt_ioctl_dma_queue_submit(tf, arg);
	case TENSTORRENT_IOCTL_DMA_QUEUE_WAIT:
		return tt_ioctl_dma_queue_wait(tf, arg);
	case TENSTORRENT_IOCTL_DMA_QUEUE_QUERY:
		return tt_ioctl_dma_queue_query(tf, arg);
	case TENSTORRENT_IOCTL_GET_HARVESTING: /* never implemented by tt-kmd */
	case TENSTORRENT_IOCTL_FREE_DMA_BUF: /* buffers go at close */
	default:
		return -EINVAL;
	}
}

/*
 * tt-kmd dispatches on the whole command, so a known number with a size or
 * direction encoded is unknown too; unknown commands fail with -EINVAL, not
 * -ENOTTY (tt-kmd's tt_cdev_ioctl(), chardev.c). Commands of the ABI that
 * this driver does not do yet fail with -EOPNOTSUPP (driver/README.md lists
 * them).
 *
 * The entry gate: every command runs with tdev->reset_rwsem held for
 * reading, RESET_DEVICE for writing, so a reset never overlaps a command
 * and a command that passed the checks below finds the device as it was.
 * Unbind takes the gate for writing too.
 */
long tt_ioctl(struct tt_file *tf, unsigned int cmd, void __user *arg)
{
	struct tt_device *tdev = tf->tdev;
	bool excl = cmd == TENSTORRENT_IOCTL_RESET_DEVICE;
	long ret;

	/*
	 * DMA_QUEUE_WAIT sleeps, possibly for ever: outside the gate, so that
	 * a reset or an unbind never waits for it (they wake it instead).
	 */
	if (cmd == TENSTORRENT_IOCTL_DMA_QUEUE_WAIT)
		return tt_ioctl_dma_queue_wait(tf, arg);

	ret = excl ? down_write_killable(&tdev->reset_rwsem) :
		     down_read_killable(&tdev->reset_rwsem);
	if (ret)
		return ret;
	if (tdev->detached || tf->reset_gen != tdev->reset_gen ||
	    (tdev->needs_hw_init && !tt_ioctl_without_hw(cmd)))
		ret = -ENODEV;
	else
		ret = tt_ioctl_dispatch(tf, cmd, arg);
	if (excl)
		up_write(&tdev->reset_rwsem);
	else
		up_read(&tdev->reset_rwsem);
	return ret;
}
