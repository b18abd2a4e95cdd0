// SPDX-License-Identifier: GPL-2.0-only
/*
 * /sys/kernel/debug/tenstorrent/N/mappings (tt-kmd has the same file,
 * made in its enumerate.c): what
 * each open file holds, one row per thing, for someone debugging a stuck
 * device. The format is for people, not programs, and not stable.
 *
 *   FD      pid <pid> gen <reset generation> [stale] [excl] [power-aware]
 *   DMA_BUF index <i> size <bytes> bus <addr> noc <addr>
 *   PIN     va <addr> size <bytes> bus <addr> noc <addr> [busy <n>]
 *   PEER    size <bytes> dma <addr>
 *   TLB     id <i> size <bytes> maps <n> [noc <n> x <x> y <y> addr <addr>]
 *   LOCKS   <lock indices, as a list: 0-2,5>
 *
 * then the device's dma-buf exports of TLB windows, which outlive the file
 * that made them:
 *
 *   EXPORT  tlb <id> offset <bytes> size <bytes> maps <n>
 *
 * Addresses are shown only to readers with CAP_SYS_ADMIN (others see 0),
 * as tt-kmd does. Files are visited holding a reference on each, taken
 * under tdev->lock, so that each file's own lock can be taken afterwards in
 * the usual order (file lock, then device lock).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/pid_namespace.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "tenstorrent.h"

static struct dentry *tt_debugfs_root;

/* The files open now, each with a reference; NULL-terminated, kfree it. */
static struct tt_file **tt_debugfs_files(struct tt_device *tdev)
{
	struct tt_file **files, *tf;
	unsigned int n = 0;

	mutex_lock(&tdev->lock);
	files = kcalloc(tdev->open_count + 1, sizeof(*files), GFP_KERNEL);
	if (files)
		list_for_each_entry(tf, &tdev->files, node)
			if (n < tdev->open_count && get_file_rcu(tf->file))
				files[n++] = tf;
	mutex_unlock(&tdev->lock);
	return files;
}

static void tt_debugfs_tlbs(struct seq_file *s, struct tt_file *tf,
			    bool addrs)
{
	struct tt_device *tdev = tf->tdev;
	const struct tt_tlb *tlb;
	u64 size, offset;
	u32 id;

	if (!tdev->tlb_layout)
		return;
	mutex_lock(&tdev->lock);
	for (id = 0; id < tdev->tlb_layout->count; id++) {
		tlb = &tdev->tlbs[id];
		if (tlb->owner != tf)
			continue;
		tt_tlb_window(tdev->tlb_layout, id, &size, &offset);
		seq_printf(s, "  TLB     id %u size %llu maps %u", id, size,
			   tlb->maps);
		if (tlb->configured)
			seq_printf(s, " noc %u x %u y %u addr %#llx",
				   tlb->config.noc, tlb->config.x_end,
				   tlb->config.y_end,
				   addrs ? tlb->config.addr : 0);
		seq_putc(s, '\n');
	}
	if (!bitmap_empty(tf->locks, TENSTORRENT_RESOURCE_LOCK_COUNT))
		seq_printf(s, "  LOCKS   %*pbl\n", TENSTORRENT_RESOURCE_LOCK_COUNT,
			   tf->locks);
	mutex_unlock(&tdev->lock);
}

static void tt_debugfs_file(struct seq_file *s, struct tt_file *tf,
			    bool addrs)
{
	struct tt_device *tdev = tf->tdev;

	mutex_lock(&tdev->lock);
	seq_printf(s, "FD      pid %d gen %u%s%s%s\n",
		   pid_nr_ns(tf->pid, task_active_pid_ns(current)),
		   tf->reset_gen,
		   tf->reset_gen != tdev->reset_gen ? " stale" : "",
		   tf->excl ? " excl" : "",
		   tf->power_aware ? " power-aware" : "");
	mutex_unlock(&tdev->lock);
	mutex_lock(&tf->lock);
	tt_dma_show(s, tf, addrs);
	tt_pin_show(s, tf, addrs);
	tt_peer_show(s, tf, addrs);
	mutex_unlock(&tf->lock);
	tt_debugfs_tlbs(s, tf, addrs);
}

static int tt_debugfs_mappings_show(struct seq_file *s, void *unused)
{
	struct tt_device *tdev = s->private;
	bool addrs = file_ns_capable(s->file, &init_user_ns, CAP_SYS_ADMIN);
	struct tt_file **files = tt_debugfs_files(tdev);
	unsigned int i;

	if (!files)
		return -ENOMEM;
	for (i = 0; files[i]; i++) {
		tt_debugfs_file(s, files[i], addrs);
		fput(files[i]->file);
	}
	kfree(files);
	tt_tlb_export_show(s, tdev);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tt_debugfs_mappings);

void tt_debugfs_add(struct tt_device *tdev)
{
	char name[16];

	snprintf(name, sizeof(name), "%d", tdev->ordinal);
	tdev->debugfs = debugfs_create_dir(name, tt_debugfs_root);
	debugfs_create_file("mappings", 0400, tdev->debugfs, tdev,
			    &tt_debugfs_mappings_fops);
}

void tt_debugfs_del(struct tt_device *tdev)
{
	debugfs_remove_recursive(tdev->debugfs);
	tdev->debugfs = NULL;
}

void tt_debugfs_init(void)
{
	tt_debugfs_root = debugfs_create_dir(TT_NAME, NULL);
}

void tt_debugfs_exit(void)
{
	debugfs_remove_recursive(tt_debugfs_root);
}
