// SPDX-License-Identifier: GPL-2.0-only
/*
 * The character devices: class "tenstorrent", one device number per chip,
 * nodes /dev/tenstorrent/N and their file operations.
 *
 * The node name needs no devnode callback: a '/' in a device name becomes
 * '!' in sysfs ("tenstorrent!N", as tt-kmd's) and a directory in devtmpfs.
 * The node keeps the kernel's default mode; as with tt-kmd, opening it up
 * to every user is left to a udev rule (udev-50-tenstorrent.rules).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/version.h>

#include "tenstorrent.h"

static dev_t tt_devt;
static unsigned int tt_max_devices;
static struct class *tt_class;
/* N is the lowest free number, so a chip probed again gets its number back. */
static DEFINE_IDA(tt_ordinals);

static int tt_cdev_open(struct inode *inode, struct file *file)
{
	struct tt_device *tdev =
		container_of(inode->i_cdev, struct tt_device, cdev);
	int ret = 0;

	/* The open in progress holds the cdev, which holds tdev. */
	mutex_lock(&tdev->lock);
	if (tdev->detached)
		ret = -ENODEV;
	else
		get_device(&tdev->dev);
	mutex_unlock(&tdev->lock);
	if (!ret)
		file->private_data = tdev;
	return ret;
}

static int tt_cdev_release(struct inode *inode, struct file *file)
{
	struct tt_device *tdev = file->private_data;

	put_device(&tdev->dev);
	return 0;
}

/*
 * No commands yet. An unknown command fails with -EINVAL, not -ENOTTY,
 * because that is what tt-kmd's users see (reference/kmd.md §1.1).
 */
static long tt_cdev_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct tt_device *tdev = file->private_data;
	bool detached;

	mutex_lock(&tdev->lock);
	detached = tdev->detached;
	mutex_unlock(&tdev->lock);
	return detached ? -ENODEV : -EINVAL;
}

static const struct file_operations tt_cdev_fops = {
	.owner = THIS_MODULE,
	.open = tt_cdev_open,
	.release = tt_cdev_release,
	.unlocked_ioctl = tt_cdev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

int tt_chardev_add(struct tt_device *tdev)
{
	int ret;

	ret = ida_alloc_max(&tt_ordinals, tt_max_devices - 1, GFP_KERNEL);
	if (ret < 0) {
		dev_err(&tdev->pdev->dev,
			"no free device number: all %u in use (max_devices)\n",
			tt_max_devices);
		return ret;
	}
	tdev->ordinal = ret;
	tdev->dev.class = tt_class;
	tdev->dev.parent = &tdev->pdev->dev;
	tdev->dev.devt = MKDEV(MAJOR(tt_devt), tdev->ordinal);
	ret = dev_set_name(&tdev->dev, TT_NAME "/%d", tdev->ordinal);
	if (ret)
		goto err_free_ordinal;

	cdev_init(&tdev->cdev, &tt_cdev_fops);
	tdev->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&tdev->cdev, &tdev->dev);
	if (ret) {
		dev_err(&tdev->pdev->dev, "cannot add %s: %d\n",
			dev_name(&tdev->dev), ret);
		goto err_free_ordinal;
	}
	return 0;

err_free_ordinal:
	ida_free(&tt_ordinals, tdev->ordinal);
	tdev->ordinal = -1;
	return ret;
}

/* Remove the node; files already open keep tdev until they are closed. */
void tt_chardev_del(struct tt_device *tdev)
{
	cdev_device_del(&tdev->cdev, &tdev->dev);
	ida_free(&tt_ordinals, tdev->ordinal);
	tdev->ordinal = -1;
}

int tt_chardev_init(unsigned int max_devices)
{
	int ret;

	ret = alloc_chrdev_region(&tt_devt, 0, max_devices, TT_NAME);
	if (ret) {
		pr_err("cannot allocate %u device numbers: %d\n", max_devices,
		       ret);
		return ret;
	}
	tt_max_devices = max_devices;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
	tt_class = class_create(TT_NAME);
#else
	tt_class = class_create(THIS_MODULE, TT_NAME);
#endif
	if (IS_ERR(tt_class)) {
		ret = PTR_ERR(tt_class);
		pr_err("cannot create class %s: %d\n", TT_NAME, ret);
		goto err_unregister_region;
	}
	return 0;

err_unregister_region:
	unregister_chrdev_region(tt_devt, max_devices);
	return ret;
}

void tt_chardev_exit(void)
{
	class_destroy(tt_class);
	unregister_chrdev_region(tt_devt, tt_max_devices);
	ida_destroy(&tt_ordinals);
}
