// SPDX-License-Identifier: GPL-2.0-only
/*
 * LOCK_CTL (as in tt-kmd's chardev.c): 64 advisory locks per device, which
 * cooperating processes use to share parts of the chip (by convention one
 * per Ethernet core). A lock belongs to the file that took it and is
 * released when that file is closed, so a killed holder never leaves one
 * behind. Locks survive a reset: a stale file can still only close.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/bitops.h>
#include <linux/sched/signal.h>
#include <linux/tenstorrent.h>
#include <linux/uaccess.h>

#include "tenstorrent.h"

/* The argument checks (pure, for KUnit). */
int tt_lock_check(const struct tenstorrent_lock_ctl_in *in)
{
	if (in->flags > TENSTORRENT_LOCK_CTL_ACQUIRE_BLOCKING ||
	    in->index >= TENSTORRENT_RESOURCE_LOCK_COUNT)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(tt_lock_check);

/* One operation other than a blocking acquire; returns out.value. */
static u8 tt_lock_op(struct tt_file *tf, u32 op, unsigned int i)
{
	struct tt_device *tdev = tf->tdev;
	u8 value = 0;

	mutex_lock(&tdev->lock);
	switch (op) {
	case TENSTORRENT_LOCK_CTL_ACQUIRE:
		if (!test_bit(i, tdev->locks)) {
			set_bit(i, tdev->locks);
			set_bit(i, tf->locks);
			value = 1;
		}
		break;
	case TENSTORRENT_LOCK_CTL_RELEASE:
		if (test_bit(i, tf->locks)) {
			clear_bit(i, tf->locks);
			clear_bit(i, tdev->locks);
			value = 1;
		}
		break;
	case TENSTORRENT_LOCK_CTL_TEST:
		value = (test_bit(i, tf->locks) ? 1 : 0) |
			(test_bit(i, tdev->locks) ? 2 : 0);
		break;
	}
	mutex_unlock(&tdev->lock);
	if (op == TENSTORRENT_LOCK_CTL_RELEASE && value)
		wake_up_all(&tdev->lock_wait);
	return value;
}

/* Wake-up condition of a blocking acquire; tt_lock_op() decides. */
static bool tt_lock_may_try(struct tt_file *tf, unsigned int i)
{
	struct tt_device *tdev = tf->tdev;

	return !test_bit(i, tdev->locks) || READ_ONCE(tdev->detached) ||
	       READ_ONCE(tdev->reset_gen) != tf->reset_gen;
}

/*
 * Sleep until lock @i is ours. The entry gate is dropped while asleep, or
 * a reset (and unbind) would wait for the lock's holder; it ends the wait
 * with -ENODEV (tt-kmd#235).
 */
static int tt_lock_acquire_blocking(struct tt_file *tf, unsigned int i)
{
	struct tt_device *tdev = tf->tdev;
	int ret = 0;

	while (!tt_lock_op(tf, TENSTORRENT_LOCK_CTL_ACQUIRE, i)) {
		up_read(&tdev->reset_rwsem);
		ret = wait_event_interruptible(tdev->lock_wait,
					       tt_lock_may_try(tf, i));
		down_read(&tdev->reset_rwsem);
		if (ret)
			return ret;
		if (tdev->detached || tf->reset_gen != tdev->reset_gen)
			return -ENODEV;
	}
	return 0;
}

long tt_ioctl_lock_ctl(struct tt_file *tf,
		       struct tenstorrent_lock_ctl __user *arg)
{
	struct tenstorrent_lock_ctl_out out = {};
	struct tenstorrent_lock_ctl_in in;
	int ret;

	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;
	ret = tt_lock_check(&in);
	if (ret)
		return ret;
	if (in.flags == TENSTORRENT_LOCK_CTL_ACQUIRE_BLOCKING) {
		ret = tt_lock_acquire_blocking(tf, in.index);
		if (ret)
			return ret;
		out.value = 1;
	} else {
		out.value = tt_lock_op(tf, in.flags, in.index);
	}
	return tt_copy_out(&arg->out, in.output_size_bytes, &out, sizeof(out));
}

/* At close: the file's locks go back, and their waiters wake. */
void tt_lock_release_file(struct tt_file *tf)
{
	struct tt_device *tdev = tf->tdev;

	if (bitmap_empty(tf->locks, TENSTORRENT_RESOURCE_LOCK_COUNT))
		return;
	mutex_lock(&tdev->lock);
	bitmap_andnot(tdev->locks, tdev->locks, tf->locks,
		      TENSTORRENT_RESOURCE_LOCK_COUNT);
	bitmap_zero(tf->locks, TENSTORRENT_RESOURCE_LOCK_COUNT);
	mutex_unlock(&tdev->lock);
	wake_up_all(&tdev->lock_wait);
}
