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
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/version.h>

#include "telemetry.h"
#include "tenstorrent.h"

static dev_t tt_devt;
static unsigned int tt_max_devices;
static struct class *tt_class;
/* N is the lowest free number, so a chip probed again gets its number back. */
static DEFINE_IDA(tt_ordinals);

/*
 * May an open with these flags go ahead now? Read without the lock as the
 * wake-up condition; tt_open_admit() decides under it.
 */
static bool tt_open_ready(struct tt_device *tdev, bool excl)
{
	if (READ_ONCE(tdev->detached))
		return true;
	if (READ_ONCE(tdev->excl_open))
		return false;
	return !excl || !READ_ONCE(tdev->open_count);
}

/*
 * O_EXCL (as in tt-kmd's chardev.c): an exclusive open waits until no file
 * is open, and every open waits while an exclusive file is; O_NONBLOCK turns
 * the wait into -EAGAIN. The wait ends with -ENODEV if the device goes. On
 * success the file is counted, under tdev->lock.
 */
static int tt_open_admit(struct tt_device *tdev, struct tt_file *tf,
			 bool nonblock)
{
	int ret;

	mutex_lock(&tdev->lock);
	for (;;) {
		if (tdev->detached) {
			ret = -ENODEV;
			break;
		}
		if (!tdev->excl_open && (!tf->excl || !tdev->open_count)) {
			list_add_tail(&tf->node, &tdev->files);
			tf->reset_gen = tdev->reset_gen;
			WRITE_ONCE(tdev->open_count, tdev->open_count + 1);
			if (tf->excl)
				WRITE_ONCE(tdev->excl_open, true);
			ret = 0;
			break;
		}
		if (nonblock) {
			ret = -EAGAIN;
			break;
		}
		mutex_unlock(&tdev->lock);
		ret = wait_event_interruptible(tdev->open_wait,
					       tt_open_ready(tdev, tf->excl));
		mutex_lock(&tdev->lock);
		if (ret)
			break;
	}
	mutex_unlock(&tdev->lock);
	return ret;
}

static int tt_cdev_open(struct inode *inode, struct file *file)
{
	struct tt_device *tdev =
		container_of(inode->i_cdev, struct tt_device, cdev);
	struct tt_file *tf;
	int ret;

	/* The open in progress holds the cdev, which holds tdev. */
	tf = kzalloc(sizeof(*tf), GFP_KERNEL);
	if (!tf)
		return -ENOMEM;
	tf->tdev = tdev;
	tf->file = file;
	/* The VFS clears O_EXCL from f_flags only after ->open. */
	tf->excl = file->f_flags & O_EXCL;
	tf->power_aware = file->f_flags & O_APPEND;
	tf->pid = get_pid(task_tgid(current));
	get_task_comm(tf->comm, current);
	mutex_init(&tf->lock);
	INIT_LIST_HEAD(&tf->pins);
	INIT_LIST_HEAD(&tf->peer_maps);
	INIT_LIST_HEAD(&tf->mappings);

	ret = tt_dmaq_open(tf);
	if (!ret)
		ret = tt_open_admit(tdev, tf, file->f_flags & O_NONBLOCK);
	if (ret) {
		tt_dmaq_release(tf); /* an empty queue: frees it */
		put_pid(tf->pid);
		mutex_destroy(&tf->lock);
		kfree(tf);
		return ret;
	}
	get_device(&tdev->dev);
	file->private_data = tf;
	tt_power_open(tf);
	return 0;
}

/* The last reference to the file is gone, its mappings with it. */
static int tt_cdev_release(struct inode *inode, struct file *file)
{
	struct tt_file *tf = file->private_data;
	struct tt_device *tdev = tf->tdev;

	tt_noc_cleanup_run(tf);
	tt_tlb_release_file(tf);
	/*
	 * The engine must be done with the file's memory before it goes; if
	 * it may still write there, the memory is leaked rather than freed.
	 */
	if (!tt_dmaq_release(tf))
		tf->dma_leak = true;
	if (!tf->dma_leak)
		tt_pin_release_file(tf);
	tt_dma_release_file(tf);
	tt_peer_release_file(tf);
	tt_lock_release_file(tf);
	tt_power_release_file(tf);
	mutex_lock(&tdev->lock);
	list_del(&tf->node);
	WRITE_ONCE(tdev->open_count, tdev->open_count - 1);
	if (tf->excl)
		WRITE_ONCE(tdev->excl_open, false);
	mutex_unlock(&tdev->lock);
	wake_up_all(&tdev->open_wait);

	put_pid(tf->pid);
	mutex_destroy(&tf->lock);
	kfree(tf);
	put_device(&tdev->dev);
	return 0;
}

static long tt_cdev_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	return tt_ioctl(file->private_data, cmd, (void __user *)arg);
}

static int tt_cdev_mmap(struct file *file, struct vm_area_struct *vma)
{
	return tt_mmap(file->private_data, vma);
}

static __poll_t tt_cdev_poll(struct file *file, struct poll_table_struct *wait)
{
	return tt_dmaq_poll(file->private_data, file, wait);
}

static const struct file_operations tt_cdev_fops = {
	.owner = THIS_MODULE,
	.open = tt_cdev_open,
	.release = tt_cdev_release,
	.unlocked_ioctl = tt_cdev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = tt_cdev_mmap,
	.poll = tt_cdev_poll,
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
	tdev->dev.groups = tt_telemetry_groups;
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
	tt_procfs_add(tdev);
	tt_debugfs_add(tdev);
	return 0;

err_free_ordinal:
	ida_free(&tt_ordinals, tdev->ordinal);
	tdev->ordinal = -1;
	return ret;
}

/* Remove the node; files already open keep tdev until they are closed. */
void tt_chardev_del(struct tt_device *tdev)
{
	tt_debugfs_del(tdev);
	tt_procfs_del(tdev);
	cdev_device_del(&tdev->cdev, &tdev->dev);
	ida_free(&tt_ordinals, tdev->ordinal);
	tdev->ordinal = -1;
}

/*
 * After the node is gone: no more hardware access by open files. Opens
 * still waiting fail, ioctls and mmaps fail with -ENODEV, and existing
 * mappings are zapped so that the next access faults (SIGBUS): the BAR may
 * be given to something else once the PCI function is released. The
 * device loses its windows onto host memory, which the files free later.
 */
void tt_device_detach(struct tt_device *tdev)
{
	/* Wait for the commands in progress; later ones see detached. */
	down_write(&tdev->reset_rwsem);
	mutex_lock(&tdev->lock);
	tdev->detached = true;
	tt_zap_mappings(tdev);
	tt_dma_detach(tdev);
	mutex_unlock(&tdev->lock);
	up_write(&tdev->reset_rwsem);
	wake_up_all(&tdev->open_wait);
	wake_up_all(&tdev->lock_wait);
}

/* The tt_file of @file if it is an open node of ours, else NULL. */
struct tt_file *tt_file_of(struct file *file)
{
	return file->f_op == &tt_cdev_fops ? file->private_data : NULL;
}

/* tt_file_usable(), for callers that hold no lock. */
bool tt_file_usable_now(struct tt_file *tf)
{
	bool usable;

	mutex_lock(&tf->tdev->lock);
	usable = tt_file_usable(tf);
	mutex_unlock(&tf->tdev->lock);
	return usable;
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

	ret = tt_procfs_init();
	if (ret)
		goto err_unregister_region;
	tt_debugfs_init();

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
	tt_class = class_create(TT_NAME);
#else
	tt_class = class_create(THIS_MODULE, TT_NAME);
#endif
	if (IS_ERR(tt_class)) {
		ret = PTR_ERR(tt_class);
		pr_err("cannot create class %s: %d\n", TT_NAME, ret);
		goto err_procfs_exit;
	}
	return 0;

err_procfs_exit:
	tt_debugfs_exit();
	tt_procfs_exit();
err_unregister_region:
	unregister_chrdev_region(tt_devt, max_devices);
	return ret;
}

void tt_chardev_exit(void)
{
	class_destroy(tt_class);
	tt_debugfs_exit();
	tt_procfs_exit();
	unregister_chrdev_region(tt_devt, tt_max_devices);
	ida_destroy(&tt_ordinals);
}
