// SPDX-License-Identifier: GPL-2.0-only
/*
 * tenstorrent.ko: module parameters, load and unload.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kdev_t.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>

#include "tenstorrent.h"
#include "version.h"

static unsigned int max_devices = 32;
module_param(max_devices, uint, 0444);
MODULE_PARM_DESC(max_devices, "Most devices the driver serves (default 32)");

static int __init tt_init(void)
{
	int ret;

	if (!max_devices || max_devices > MINORMASK + 1) {
		pr_err("max_devices=%u out of range (1..%u)\n", max_devices,
		       MINORMASK + 1);
		return -EINVAL;
	}
	ret = tt_chardev_init(max_devices);
	if (ret)
		return ret;
	ret = pci_register_driver(&tt_pci_driver);
	if (ret) {
		pr_err("cannot register the PCI driver: %d\n", ret);
		goto err_chardev_exit;
	}
	return 0;

err_chardev_exit:
	tt_chardev_exit();
	return ret;
}

static void __exit tt_exit(void)
{
	pci_unregister_driver(&tt_pci_driver);
	tt_chardev_exit();
}

module_init(tt_init);
module_exit(tt_exit);

MODULE_DESCRIPTION("Tenstorrent AI accelerator driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(TT_DRIVER_VERSION_STRING);
