// SPDX-License-Identifier: GPL-2.0-only
/*
 * /sys/kernel/debug/tenstorrent/N/mappings: what each open file holds, one
 * row per thing, for someone debugging a stuck device. The layout is
 * tt-kmd's (its enumerate.c), whose test and users' scripts read it: a
 * warning that the format is not stable, a header of the columns PID,
 * Comm, Type and Mapping Details, then per open file
 *
 *   OPEN_FD         (gen=<reset generation>[, stale][, excl][, power-aware])
 *   PIN_PAGES       VA: <va> -> PA|IOVA: <bus> (size=<bytes>, busy=<n>)
 *   PIN_PAGES+IATU  VA: <va> -> PA|IOVA: <bus> -> NOC: <addr> (size=..)
 *   DMA_BUF         ID: <index> -> PA|IOVA: <bus> (size=<bytes>)
 *   DMA_BUF+IATU    ID: <index> -> PA|IOVA: <bus> -> NOC: <addr> (size=..)
 *   PEER_BAR        DMA: <addr> (size=<bytes>)
 *   TLB-alloc       ID: <id> [-> NOC<n> (x=<x>, y=<y>, addr=<addr>)]
 *   BAR             BAR<n> UC|WC (offset=<bytes>, size=<bytes>)
 *   TLB             ID: <id> UC|WC -> BAR<n> + <offset> (size=<bytes>)
 *   LOCKS           <lock indices, as a list: 0-2,5>
 *
 * (PEER_BAR, LOCKS and the details in parentheses after OPEN_FD and
 * TLB-alloc are this driver's), then the device's dma-buf exports of TLB
 * windows, which outlive the file that made them, without PID and Comm:
 *
 *   EXPORT          TLB ID: <id> (offset=<bytes>, size=<bytes>, maps=<n>)
 *
 * BAR rows are the file's mappings of BARs and of the TLB apertures (one
 * row per VMA; offset and size as mapped), TLB rows its mappings of
 * windows. Addresses are shown only to readers with CAP_SYS_ADMIN (others
 * see 0), as tt-kmd does; so are virtual addresses, which tt-kmd shows to
 * all. Files are visited holding a reference on each, taken under
 * tdev->lock, so that each file's own lock can be taken afterwards in the
 * usual order (file lock, then device lock).
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

/* One row: tt-kmd's PID, Comm and Type columns, then the details. */
void tt_debugfs_row(struct seq_file *s, const struct tt_file *tf,
		    const char *type, const char *fmt, ...)
{
	va_list args;

	if (tf)
		seq_printf(s, "%-8d %-16s %-14s ",
			   pid_nr_ns(tf->pid, task_active_pid_ns(current)),
			   tf->comm, type);
	else
		seq_printf(s, "%-8s %-16s %-14s ", "", "", type);
	va_start(args, fmt);
	seq_vprintf(s, fmt, args);
	va_end(args);
	seq_putc(s, '\n');
}

static void tt_debugfs_tlbs(struct seq_file *s, struct tt_file *tf,
			    bool addrs)
{
	struct tt_device *tdev = tf->tdev;
	const struct tt_mapping *m;
	const struct tt_tlb *tlb;
	unsigned int i;
	u32 id;

	mutex_lock(&tdev->lock);
	for (id = 0; tdev->tlb_layout && id < tdev->tlb_layout->count; id++) {
		tlb = &tdev->tlbs[id];
		if (tlb->owner != tf)
			continue;
		if (tlb->configured)
			tt_debugfs_row(s, tf, "TLB-alloc",
				       "ID: %-3u -> NOC%u (x=%u, y=%u, addr=0x%llx)",
				       id, tlb->config.noc, tlb->config.x_end,
				       tlb->config.y_end,
				       addrs ? tlb->config.addr : 0);
		else
			tt_debugfs_row(s, tf, "TLB-alloc", "ID: %-3u", id);
	}
	list_for_each_entry(m, &tf->mappings, node)
		for (i = 0; i < m->vmas; i++)
			if (m->tlb)
				tt_debugfs_row(s, tf, "TLB",
					       "ID: %-3u %-2s -> BAR%u + 0x%llx (size=0x%llx)",
					       m->id, m->wc ? "WC" : "UC",
					       m->bar, m->offset, m->size);
			else
				tt_debugfs_row(s, tf, "BAR",
					       "BAR%u %-2s (offset=0x%llx, size=0x%llx)",
					       m->bar, m->wc ? "WC" : "UC",
					       m->offset, m->size);
	if (!bitmap_empty(tf->locks, TENSTORRENT_RESOURCE_LOCK_COUNT))
		tt_debugfs_row(s, tf, "LOCKS", "%*pbl",
			       TENSTORRENT_RESOURCE_LOCK_COUNT, tf->locks);
	mutex_unlock(&tdev->lock);
}

static void tt_debugfs_file(struct seq_file *s, struct tt_file *tf,
			    bool addrs)
{
	struct tt_device *tdev = tf->tdev;

	mutex_lock(&tdev->lock);
	tt_debugfs_row(s, tf, "OPEN_FD", "(gen=%u%s%s%s)", tf->reset_gen,
		       tf->reset_gen != tdev->reset_gen ? ", stale" : "",
		       tf->excl ? ", excl" : "",
		       tf->power_aware ? ", power-aware" : "");
	mutex_unlock(&tdev->lock);
	mutex_lock(&tf->lock);
	tt_pin_show(s, tf, addrs);
	tt_dma_show(s, tf, addrs);
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
	seq_puts(s, "WARNING: This file is for diagnostic purposes only.\n"
		    "Its format is not stable: any version of the driver may change it.\n"
		    "It is meant for people; programs should not parse it.\n\n");
	seq_printf(s, "%-8s %-16s %-14s %s\n", "PID", "Comm", "Type",
		   "Mapping Details");
	seq_printf(s, "%-8s %-16s %-14s %s\n", "----", "----", "----",
		   "---------------");
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
