// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a file asks of the device for as long as it is open, and for its
 * end, as tt-kmd's chardev.c has it:
 *
 * SET_POWER_STATE: each file states the power it needs; the firmware gets
 * the aggregate over all files (flags ORed, settings at their maximum) and
 * a new one whenever a file's request changes or a file goes. A file
 * opened without O_APPEND asks for everything but the maximum clock at
 * open; one opened with O_APPEND (a "power-aware" client, or a reset tool
 * that must not talk to a hung chip) starts asking for nothing and sends
 * nothing at open. Our firmware knows two clock states, busy and long
 * idle (hw/msgq.h): the aggregate's MAX_AI_CLK flag picks one. While no
 * firmware runs the request is only kept; it is sent after POST_RESET.
 *
 * SET_NOC_CLEANUP: one 32-bit NOC write the driver does when the file is
 * released, for a process that dies with the chip in a state others must
 * not inherit (tt-kmd's use: stop a kernel loop by writing a flag).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/minmax.h>
#include <linux/tenstorrent.h>
#include <linux/uaccess.h>

#include <hw/msgq.h>

#include "tenstorrent.h"

/* Bit 15 is the firmware's. */
#define TT_POWER_FLAGS_ALL 0x7FFFu
/* power_sent before anything was sent: no aggregate has this value. */
#define TT_POWER_UNKNOWN 0xFFFFu
#define TT_POWER_TIMEOUT_MS 1000

/* The argument checks (pure, for KUnit). */
int tt_power_check(const struct tenstorrent_power_state *ps)
{
	if (ps->argsz != sizeof(*ps) || ps->flags || ps->reserved0)
		return -EINVAL;
	if ((ps->validity >> 4) > ARRAY_SIZE(ps->power_settings))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(tt_power_check);

/* A file's request from its arguments: undeclared flags are on. */
static void tt_power_request(const struct tenstorrent_power_state *ps,
			     struct tt_power_request *r)
{
	u32 nflags = ps->validity & 0xF, nsettings = ps->validity >> 4;
	u16 declared = (1u << nflags) - 1;
	u32 i;

	r->flags = ((ps->power_flags & declared) | ~declared) &
		   TT_POWER_FLAGS_ALL;
	for (i = 0; i < ARRAY_SIZE(r->settings); i++)
		r->settings[i] = i < nsettings ? ps->power_settings[i] : 0;
}

/* The aggregate over the open files; tdev->lock held. */
static void tt_power_aggregate(struct tt_device *tdev,
			       struct tt_power_request *agg)
{
	struct tt_file *tf;
	u32 i;

	lockdep_assert_held(&tdev->lock);
	memset(agg, 0, sizeof(*agg));
	list_for_each_entry(tf, &tdev->files, node) {
		agg->flags |= tf->power.flags;
		for (i = 0; i < ARRAY_SIZE(agg->settings); i++)
			agg->settings[i] = max(agg->settings[i],
					       tf->power.settings[i]);
	}
}

/*
 * Send the aggregate if it changed (after tt_power_forget(), always). 0
 * also when no firmware runs (the request waits for POST_RESET); -EIO
 * when the firmware did not take it.
 */
int tt_power_update(struct tt_device *tdev)
{
	u32 req[TT_MSGQ_ENTRY_WORDS] = {}, rsp[TT_MSGQ_ENTRY_WORDS];
	struct tt_power_request agg;
	int ret;

	if (!tdev->backend->fw_message)
		return 0;
	mutex_lock(&tdev->lock);
	tt_power_aggregate(tdev, &agg);
	ret = !memcmp(&agg, &tdev->power_sent, sizeof(agg)) ||
	      !tt_device_usable(tdev);
	mutex_unlock(&tdev->lock);
	if (ret)
		return 0;

	req[0] = agg.flags & TT_POWER_FLAG_MAX_AI_CLK ?
			 TT_MSG_AICLK_GO_BUSY :
			 TT_MSG_AICLK_GO_LONG_IDLE;
	ret = tdev->backend->fw_message(tdev, req, rsp, TT_POWER_TIMEOUT_MS);
	if (ret == -ENODEV)
		return 0;
	if (!ret && (rsp[0] & TT_MSG_STATUS_MASK) >= TT_MSG_STATUS_ERROR_MIN)
		ret = -EIO;
	if (ret) {
		dev_dbg(&tdev->pdev->dev, "power request 0x%04x not taken: %d\n",
			agg.flags, ret);
		return -EIO;
	}
	mutex_lock(&tdev->lock);
	tdev->power_sent = agg;
	mutex_unlock(&tdev->lock);
	return 0;
}

/* At probe, and after a reset: the firmware knows nothing of the requests. */
void tt_power_forget(struct tt_device *tdev)
{
	tdev->power_sent.flags = TT_POWER_UNKNOWN;
}

long tt_ioctl_set_power_state(struct tt_file *tf,
			      struct tenstorrent_power_state __user *arg)
{
	struct tenstorrent_power_state ps;
	struct tt_power_request r;
	int ret;

	if (copy_from_user(&ps, arg, sizeof(ps)))
		return -EFAULT;
	ret = tt_power_check(&ps);
	if (ret)
		return ret;
	tt_power_request(&ps, &r);
	mutex_lock(&tf->tdev->lock);
	tf->power = r;
	mutex_unlock(&tf->tdev->lock);
	return tt_power_update(tf->tdev);
}

/* At open, after the file was counted. */
void tt_power_open(struct tt_file *tf)
{
	if (tf->power_aware)
		return;
	mutex_lock(&tf->tdev->lock);
	tf->power.flags = TT_POWER_FLAGS_ALL & ~TT_POWER_FLAG_MAX_AI_CLK;
	mutex_unlock(&tf->tdev->lock);
	down_read(&tf->tdev->reset_rwsem);
	tt_power_update(tf->tdev);
	up_read(&tf->tdev->reset_rwsem);
}

/* At release, while the file is still counted: its request goes. */
void tt_power_release_file(struct tt_file *tf)
{
	struct tt_device *tdev = tf->tdev;
	static const struct tt_power_request none;

	mutex_lock(&tdev->lock);
	if (!memcmp(&tf->power, &none, sizeof(none))) {
		mutex_unlock(&tdev->lock);
		return;
	}
	tf->power = none;
	mutex_unlock(&tdev->lock);
	down_read(&tdev->reset_rwsem);
	tt_power_update(tdev);
	up_read(&tdev->reset_rwsem);
}

/* The argument checks (pure, for KUnit), as tt-kmd makes them. */
int tt_noc_cleanup_check(const struct tenstorrent_set_noc_cleanup *c)
{
	if (c->argsz != sizeof(*c) || c->flags || c->enabled > 1)
		return -EINVAL;
	if (c->enabled && (c->addr % 4 || c->noc > 1 || c->x > 64 || c->y > 64))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(tt_noc_cleanup_check);

long tt_ioctl_set_noc_cleanup(struct tt_file *tf,
			      struct tenstorrent_set_noc_cleanup __user *arg)
{
	struct tenstorrent_set_noc_cleanup c;
	struct tt_device *tdev = tf->tdev;
	int ret;

	if (copy_from_user(&c, arg, sizeof(c)))
		return -EFAULT;
	ret = tt_noc_cleanup_check(&c);
	if (ret)
		return ret;
	if (!tdev->backend->noc_write32)
		return -EOPNOTSUPP;
	mutex_lock(&tdev->lock);
	if (c.enabled)
		ret = tdev->backend->noc_write32(tdev, c.noc, c.x, c.y, c.addr,
						 0, true);
	if (!ret)
		tf->noc_cleanup = c;
	mutex_unlock(&tdev->lock);
	return ret;
}

/* At release, first: the file's last word to the device. */
void tt_noc_cleanup_run(struct tt_file *tf)
{
	const struct tenstorrent_set_noc_cleanup *c = &tf->noc_cleanup;
	struct tt_device *tdev = tf->tdev;

	if (!c->enabled)
		return;
	mutex_lock(&tdev->lock);
	if (tt_file_usable(tf))
		tdev->backend->noc_write32(tdev, c->noc, c->x, c->y, c->addr,
					   lower_32_bits(c->data), false);
	mutex_unlock(&tdev->lock);
}
