// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/driver/tenstorrent/N/pids: the process of each open file of device
 * N, one line per file, as tt-kmd shows them (its enumerate.c). Tools
 * read it to tell who holds a device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/pid.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

#include "tenstorrent.h"

#define TT_PROC_DIR "driver/" TT_NAME

static struct proc_dir_entry *tt_proc_root;

/* Pids as the reader's namespace numbers them (0: not visible there). */
static int tt_procfs_pids_show(struct seq_file *m, void *v)
{
	struct tt_device *tdev = m->private;
	struct tt_file *tf;

	mutex_lock(&tdev->lock);
	list_for_each_entry(tf, &tdev->files, node)
		seq_printf(m, "%d\n", pid_vnr(tf->pid));
	mutex_unlock(&tdev->lock);
	return 0;
}

/*
 * A device without its procfs entries still works: failures are logged,
 * not returned. proc_remove() waits for readers, so tdev outlives them.
 */
void tt_procfs_add(struct tt_device *tdev)
{
	char name[16];

	if (!tt_proc_root)
		return;
	snprintf(name, sizeof(name), "%d", tdev->ordinal);
	tdev->proc_dir = proc_mkdir(name, tt_proc_root);
	if (!tdev->proc_dir ||
	    !proc_create_single_data("pids", 0444, tdev->proc_dir,
				     tt_procfs_pids_show, tdev))
		dev_warn(&tdev->pdev->dev, "cannot create /proc/%s/%s/pids\n",
			 TT_PROC_DIR, name);
}

void tt_procfs_del(struct tt_device *tdev)
{
	proc_remove(tdev->proc_dir);
	tdev->proc_dir = NULL;
}

int tt_procfs_init(void)
{
	tt_proc_root = proc_mkdir(TT_PROC_DIR, NULL);
	if (!tt_proc_root) {
		pr_err("cannot create /proc/%s\n", TT_PROC_DIR);
		return -ENOMEM;
	}
	return 0;
}

void tt_procfs_exit(void)
{
	proc_remove(tt_proc_root);
	tt_proc_root = NULL;
}
