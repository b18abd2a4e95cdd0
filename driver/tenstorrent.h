/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tenstorrent.ko internals: one structure per device, the backend ops that
 * differ between kinds of device, and what the files of the driver offer
 * each other.
 */
#ifndef TT_DRIVER_TENSTORRENT_H
#define TT_DRIVER_TENSTORRENT_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/types.h>
#include <linux/wait.h>

#include <hw/telemetry.h>

#define TT_NAME "tenstorrent"

/*
 * The UAPI's "resources": RESOURCE0, 1 and 2 are PCI BARs 0, 2 and 4. Each
 * has a UC and a WC mmap region; region 2 * resource + wc.
 */
#define TT_NUM_RESOURCES 3
#define TT_RESOURCE_BAR(res) (2 * (res))

struct tt_device;
struct tt_telemetry;
struct proc_dir_entry;

/**
 * struct tt_backend - what differs between kinds of device
 * @name: short name, for messages
 * @probe: check that the PCI function is a device of this kind and claim
 *	its resources; fill the identity fields of @tdev. Returns -ENODEV when
 *	the function is not ours, logging no more than one debug line, so that
 *	other users of a shared PCI id are left alone. Resources are
 *	device-managed (pcim_*, devm_*): a failed probe needs no undo.
 * @remove: stop using the hardware (optional). Called at unbind, before the
 *	managed resources are released; open files may outlive it.
 * @resources: bit mask of the resources (BIT(0) for RESOURCE0 = BAR0, ...)
 *	that user space may see in QUERY_MAPPINGS and mmap. A BAR that is not
 *	the device's (another function's registers) stays out of it.
 * @telemetry: read the firmware's telemetry table into @t (optional).
 *	Called with tdev->lock held and the device attached. Returns
 *	-ENODATA when no valid table is published; every value read from the
 *	device is bounds-checked first.
 *
 * One backend exists today, "mock" (the chip model behind QEMU's ivshmem);
 * Wormhole and Blackhole cards will add theirs.
 */
struct tt_backend {
	const char *name;
	int (*probe)(struct tt_device *tdev);
	void (*remove)(struct tt_device *tdev);
	unsigned int resources;
	int (*telemetry)(struct tt_device *tdev, struct tt_telemetry *t);
};

/**
 * struct tt_device - one device
 * @dev: the class device "tenstorrent!N"; its release frees the structure
 * @cdev: the character device /dev/tenstorrent/N
 * @pdev: the PCI function (referenced until release)
 * @backend: the kind of device
 * @backend_priv: the backend's state; valid from its probe to its remove
 * @ordinal: N, or -1 while no number is allocated
 * @proc_dir: /proc/driver/tenstorrent/N, or NULL
 * @lock: protects @detached, @files, @open_count and @excl_open
 * @detached: the device was unbound; open files only get -ENODEV, their
 *	mappings are zapped and fault with SIGBUS
 * @files: the open files (struct tt_file.node), for procfs and zapping
 * @open_count: number of open files
 * @excl_open: an O_EXCL file is open; other opens wait or fail
 * @open_wait: opens waiting for an O_EXCL file to close, or an O_EXCL open
 *	waiting for all files to close
 * @arch: enum tt_hw_arch, as the backend found it
 * @board: enum tt_hw_board
 * @chip_index: position of the chip on its board
 * @hwmon: the hwmon device under the PCI function, or NULL
 * @telem_tags: the telemetry tags published when the device was added:
 *	which tt_* attributes and hwmon channels exist
 *
 * Lifetime: allocated at probe with one reference, which remove drops. Each
 * open file holds one more, so the structure outlives an unbind for as long
 * as files are open; it never touches the hardware once @detached is set.
 */
struct tt_device {
	struct device dev;
	struct cdev cdev;
	struct pci_dev *pdev;
	const struct tt_backend *backend;
	void *backend_priv;
	int ordinal;
	struct proc_dir_entry *proc_dir;

	struct mutex lock; /* protects detached, files, open_count, excl_open */
	bool detached;
	struct list_head files;
	unsigned int open_count;
	bool excl_open;
	wait_queue_head_t open_wait;

	u32 arch;
	u32 board;
	u32 chip_index;
	struct device *hwmon;
	DECLARE_BITMAP(telem_tags, TT_TAG_COUNT_MAX);
};

/**
 * struct tt_file - state of one open file
 * @tdev: the device (one reference held)
 * @file: the file, whose mapping holds this file's mmaps
 * @node: in tdev->files
 * @pid: the thread group that opened it, for procfs
 * @excl: opened with O_EXCL
 * @power_aware: opened with O_APPEND: a client that manages its power
 *	request itself (SET_POWER_STATE); recorded for the power increment
 */
struct tt_file {
	struct tt_device *tdev;
	struct file *file;
	struct list_head node;
	struct pid *pid;
	bool excl;
	bool power_aware;
};

static inline int tt_backend_probe(struct tt_device *tdev)
{
	return tdev->backend->probe(tdev);
}

static inline void tt_backend_remove(struct tt_device *tdev)
{
	if (tdev->backend->remove)
		tdev->backend->remove(tdev);
}

/* chardev.c: the class, device numbers and the file operations. */
int tt_chardev_init(unsigned int max_devices);
void tt_chardev_exit(void);
int tt_chardev_add(struct tt_device *tdev);
void tt_chardev_del(struct tt_device *tdev);
void tt_device_detach(struct tt_device *tdev);

/* ioctl.c: the commands. */
long tt_ioctl(struct tt_file *tf, unsigned int cmd, void __user *arg);
bool tt_resource_mappable(struct tt_device *tdev, unsigned int res);

/* mmap.c: mappings of BARs. */
int tt_mmap(struct tt_file *tf, struct vm_area_struct *vma);
void tt_zap_mappings(struct tt_device *tdev);

/**
 * struct tt_mmap_window - the pages of a BAR an mmap offset selects
 * @res: the resource (RESOURCE0 is BAR0, RESOURCE1 BAR2, RESOURCE2 BAR4)
 * @first: the first page, within the BAR
 * @wc: write-combined; else uncached
 */
struct tt_mmap_window {
	unsigned int res;
	unsigned long first;
	bool wc;
};

/* Pure, for KUnit (tt_mmap_kunit.c): see mmap.c. */
bool tt_mmap_decode(unsigned long pgoff, unsigned long pages,
		    const unsigned long bar_pages[TT_NUM_RESOURCES],
		    struct tt_mmap_window *w);

/* procfs.c: /proc/driver/tenstorrent/N/pids. */
int tt_procfs_init(void);
void tt_procfs_exit(void);
void tt_procfs_add(struct tt_device *tdev);
void tt_procfs_del(struct tt_device *tdev);

/* pci.c: binding to PCI functions. */
extern struct pci_driver tt_pci_driver;

/* mock.c */
extern const struct tt_backend tt_mock_backend;

#endif /* TT_DRIVER_TENSTORRENT_H */
