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
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/types.h>

#define TT_NAME "tenstorrent"

struct tt_device;

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
 *
 * One backend exists today, "mock" (the chip model behind QEMU's ivshmem);
 * Wormhole and Blackhole cards will add theirs.
 */
struct tt_backend {
	const char *name;
	int (*probe)(struct tt_device *tdev);
	void (*remove)(struct tt_device *tdev);
};

/**
 * struct tt_device - one device
 * @dev: the class device "tenstorrent!N"; its release frees the structure
 * @cdev: the character device /dev/tenstorrent/N
 * @pdev: the PCI function (referenced until release)
 * @backend: the kind of device
 * @backend_priv: the backend's state; valid from its probe to its remove
 * @ordinal: N, or -1 while no number is allocated
 * @lock: protects @detached
 * @detached: the device was unbound; open files only get -ENODEV
 * @arch: enum tt_hw_arch, as the backend found it
 * @board: enum tt_hw_board
 * @chip_index: position of the chip on its board
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

	struct mutex lock; /* protects detached */
	bool detached;

	u32 arch;
	u32 board;
	u32 chip_index;
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

/* pci.c: binding to PCI functions. */
extern struct pci_driver tt_pci_driver;

/* mock.c */
extern const struct tt_backend tt_mock_backend;

#endif /* TT_DRIVER_TENSTORRENT_H */
