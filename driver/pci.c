// SPDX-License-Identifier: GPL-2.0-only
/*
 * Binding to PCI functions: the id table, probe and remove. What a function
 * is and how to talk to it is the backend's business (tenstorrent.h); here
 * is only the order of things and their undoing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hwmon.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include <hw/arch.h>

#include "telemetry.h"
#include "tenstorrent.h"

/* QEMU's ivshmem (plain and doorbell); the mock backend checks BAR2. */
#define TT_PCI_DEVICE_ID_IVSHMEM 0x1110

static const struct pci_device_id tt_pci_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_REDHAT_QUMRANET, TT_PCI_DEVICE_ID_IVSHMEM),
	  .driver_data = (kernel_ulong_t)&tt_mock_backend },
	{}
};
MODULE_DEVICE_TABLE(pci, tt_pci_ids);

static void tt_device_release(struct device *dev)
{
	struct tt_device *tdev = container_of(dev, struct tt_device, dev);

	tt_dmaq_free(tdev);
	pci_dev_put(tdev->pdev);
	mutex_destroy(&tdev->lock);
	kfree(tdev->tlbs);
	kfree(tdev);
}

static struct tt_device *tt_device_create(struct pci_dev *pdev,
					  const struct tt_backend *backend)
{
	struct tt_device *tdev = kzalloc(sizeof(*tdev), GFP_KERNEL);

	if (!tdev)
		return NULL;
	device_initialize(&tdev->dev);
	tdev->dev.release = tt_device_release;
	tdev->pdev = pci_dev_get(pdev);
	tdev->backend = backend;
	tdev->ordinal = -1;
	mutex_init(&tdev->lock);
	INIT_LIST_HEAD(&tdev->files);
	INIT_LIST_HEAD(&tdev->tlb_exports);
	init_waitqueue_head(&tdev->open_wait);
	init_rwsem(&tdev->reset_rwsem);
	init_waitqueue_head(&tdev->lock_wait);
	tt_power_forget(tdev);
	return tdev;
}

static int tt_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	const struct tt_backend *backend = (const void *)id->driver_data;
	struct tt_device *tdev;
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret) {
		dev_err(&pdev->dev, "cannot enable PCI function: %d\n", ret);
		return ret;
	}
	tdev = tt_device_create(pdev, backend);
	if (!tdev)
		return -ENOMEM;

	ret = tt_backend_probe(tdev);
	if (ret)
		goto err_put;
	ret = tt_tlb_init(tdev);
	if (ret)
		goto err_backend_remove;
	ret = tt_dmaq_probe(tdev);
	if (ret)
		goto err_backend_remove;
	tt_telemetry_probe(tdev);
	ret = tt_chardev_add(tdev);
	if (ret)
		goto err_backend_remove;
	pci_set_drvdata(pdev, tdev);
	tt_telemetry_hwmon_add(tdev);

	dev_info(&pdev->dev, TT_NAME "/%d: %s %s chip %u (%s backend)\n",
		 tdev->ordinal, tt_hw_arch_name(tdev->arch),
		 tt_hw_board_name(tdev->board), tdev->chip_index, backend->name);
	return 0;

err_backend_remove:
	tt_dmaq_detach(tdev);
	tt_backend_remove(tdev);
err_put:
	put_device(&tdev->dev);
	return ret;
}

static void tt_pci_remove(struct pci_dev *pdev)
{
	struct tt_device *tdev = pci_get_drvdata(pdev);

	if (tdev->hwmon)
		hwmon_device_unregister(tdev->hwmon);
	/* No new opens, then no more hardware access by open files. */
	tt_chardev_del(tdev);
	tt_dmaq_detach(tdev);
	tt_device_detach(tdev);
	tt_backend_remove(tdev);
	put_device(&tdev->dev);
}

struct pci_driver tt_pci_driver = {
	.name = TT_NAME,
	.id_table = tt_pci_ids,
	.probe = tt_pci_probe,
	.remove = tt_pci_remove,
};
