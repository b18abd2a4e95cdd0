// SPDX-License-Identifier: GPL-2.0-only
/*
 * RESET_DEVICE (tt-kmd's ioctl_reset_device() in chardev.c, and pcie.c):
 * warm reset of the chip and the driver's side of it.
 *
 * The destructive flows (USER_RESET, ASIC_RESET, ASIC_DMC_RESET) start a
 * new reset generation: every file opened before it, except the one that
 * asked, is stale from then on and gets -ENODEV; every mapping is zapped;
 * stale files lose their TLB windows and ATU regions, so the pool is whole
 * for the new generation and the device cannot reach their memory. Until
 * POST_RESET only the identity commands work. POST_RESET reports whether
 * the chip really went through a reset since (the backend's marker moved
 * and its firmware is back), puts back what the driver programs into the
 * chip (ATU regions still in use, the power request) and opens the device
 * again. It may be repeated until the chip is back.
 *
 * All of it runs with the entry gate held for writing (ioctl.c): no other
 * command runs meanwhile.
 *
 * On the chip model, ASIC_RESET asks the management firmware (message
 * TRIGGER_RESET on the kernel's queue); RESET_PCIE_LINK and CONFIG_WRITE
 * act on a PCIe link and a config register the model does not have, so
 * they are -EOPNOTSUPP.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/sched/signal.h>
#include <linux/tenstorrent.h>
#include <linux/uaccess.h>

#include <hw/msgq.h>

#include "tenstorrent.h"

#define TT_RESET_MSG_TIMEOUT_MS 1000
/* POST_RESET waits this long for the chip to come back before it says no. */
#define TT_POST_RESET_WAIT_MS 2000

/* The argument checks (pure, for KUnit): one value, not a bit mask. */
int tt_reset_check(u32 flags)
{
	return flags <= TENSTORRENT_RESET_DEVICE_POST_RESET ? 0 : -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(tt_reset_check);

/* A new generation: @tf survives, every other file is stale. */
static void tt_reset_begin(struct tt_file *tf)
{
	struct tt_device *tdev = tf->tdev;

	mutex_lock(&tdev->lock);
	tdev->reset_gen++;
	tf->reset_gen = tdev->reset_gen;
	tdev->needs_hw_init = true;
	tt_zap_mappings(tdev);
	tt_tlb_reclaim_stale(tdev);
	tt_atu_reclaim_stale(tdev);
	tt_dmaq_reset(tdev);
	tt_power_forget(tdev);
	if (tdev->backend->reset_marker)
		tdev->reset_marker = tdev->backend->reset_marker(tdev);
	mutex_unlock(&tdev->lock);
	/* Blocking lock waiters of stale files give up. */
	wake_up_all(&tdev->lock_wait);
}

/*
 * Ask the firmware to reset the chip: 0 once the reset has begun (the
 * marker moved). The message is only posted: the firmware answers and then
 * resets the chip, whose reload of the firmware may wipe the answer.
 */
static int tt_reset_trigger(struct tt_device *tdev, bool dmc)
{
	u32 req[TT_MSGQ_ENTRY_WORDS] = { TT_MSG_TRIGGER_RESET, dmc ? 3 : 0 };
	unsigned long deadline = jiffies +
				 msecs_to_jiffies(TT_RESET_MSG_TIMEOUT_MS);
	int ret;

	ret = tdev->backend->fw_message(tdev, req, NULL,
					TT_RESET_MSG_TIMEOUT_MS);
	while (!ret && tdev->backend->reset_marker(tdev) == tdev->reset_marker) {
		if (time_after(jiffies, deadline))
			ret = -ETIMEDOUT;
		else if (fatal_signal_pending(current))
			ret = -EINTR;
		else
			usleep_range(500, 2000);
	}
	if (ret)
		dev_warn(&tdev->pdev->dev,
			 "reset: the management firmware did not reset the chip: %d\n",
			 ret);
	return ret;
}

/*
 * Has the chip been reset since the marker, and is it back? After a reset
 * the driver asked for, wait a little for it; otherwise look once.
 */
static bool tt_reset_back(struct tt_device *tdev)
{
	unsigned long deadline = jiffies;
	int ret;

	if (tdev->reset_by_fw && tdev->needs_hw_init)
		deadline += msecs_to_jiffies(TT_POST_RESET_WAIT_MS);
	if (!tdev->backend->reset_done)
		return false;
	for (;;) {
		mutex_lock(&tdev->lock);
		ret = tdev->backend->reset_done(tdev, tdev->reset_marker);
		mutex_unlock(&tdev->lock);
		if (ret != -EAGAIN)
			return !ret;
		if (time_after(jiffies, deadline) ||
		    fatal_signal_pending(current))
			return false;
		msleep(20);
	}
}

/* Put back what the driver keeps in the chip, and open up again. */
static void tt_reset_reinit(struct tt_device *tdev)
{
	mutex_lock(&tdev->lock);
	tt_atu_restore(tdev);
	tdev->needs_hw_init = false;
	mutex_unlock(&tdev->lock);
	tt_power_update(tdev);
}

/*
 * A dma-buf export of a TLB window may be in another driver's hands, which
 * a reset cannot invalidate: the destructive flows wait for none.
 */
static bool tt_reset_exports_live(struct tt_device *tdev)
{
	bool live;

	mutex_lock(&tdev->lock);
	live = !list_empty(&tdev->tlb_exports);
	mutex_unlock(&tdev->lock);
	return live;
}

/* Returns out.result (0 success, 1 failure) or a negative error. */
static int tt_reset(struct tt_file *tf, u32 flags)
{
	struct tt_device *tdev = tf->tdev;
	bool back;

	if ((flags == TENSTORRENT_RESET_DEVICE_USER_RESET ||
	     flags == TENSTORRENT_RESET_DEVICE_ASIC_RESET ||
	     flags == TENSTORRENT_RESET_DEVICE_ASIC_DMC_RESET) &&
	    tt_reset_exports_live(tdev))
		return -EBUSY;

	switch (flags) {
	case TENSTORRENT_RESET_DEVICE_RESTORE_STATE:
		tt_reset_reinit(tdev);
		return 0;
	case TENSTORRENT_RESET_DEVICE_USER_RESET:
		tt_reset_begin(tf);
		tdev->reset_by_fw = false;
		return 0;
	case TENSTORRENT_RESET_DEVICE_ASIC_RESET:
	case TENSTORRENT_RESET_DEVICE_ASIC_DMC_RESET:
		if (!tdev->backend->fw_message)
			return -EOPNOTSUPP;
		tt_reset_begin(tf);
		tdev->reset_by_fw = !tt_reset_trigger(tdev, flags ==
				TENSTORRENT_RESET_DEVICE_ASIC_DMC_RESET);
		return tdev->reset_by_fw ? 0 : 1;
	case TENSTORRENT_RESET_DEVICE_POST_RESET:
		back = tt_reset_back(tdev);
		tt_reset_reinit(tdev);
		return back ? 0 : 1;
	default: /* RESET_PCIE_LINK, CONFIG_WRITE */
		return -EOPNOTSUPP;
	}
}

long tt_ioctl_reset_device(struct tt_file *tf,
			   struct tenstorrent_reset_device __user *arg)
{
	struct tenstorrent_reset_device_out out = {};
	struct tenstorrent_reset_device_in in;
	int ret;

	lockdep_assert_held_write(&tf->tdev->reset_rwsem);
	if (copy_from_user(&in, &arg->in, sizeof(in)))
		return -EFAULT;
	ret = tt_reset_check(in.flags);
	if (ret)
		return ret;
	ret = tt_reset(tf, in.flags);
	if (ret < 0)
		return ret;
	out.output_size_bytes = sizeof(out);
	out.result = ret;
	return tt_copy_out(&arg->out, in.output_size_bytes, &out, sizeof(out));
}
