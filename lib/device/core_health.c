// SPDX-License-Identifier: Apache-2.0
/*
 * Which Tensix cores need recovery (tt_device_core_problems, tt/hart.h),
 * as any process can tell from the chip: the marks a runtime leaves in a
 * hart's mailbox when a launch on it hung or faulted, and launches still
 * in progress while no process owns the runtime. tt-smi shows them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fw.h"
#include "hw/hart.h"
#include "hw/l1.h"
#include "internal.h"
#include "tt/hart.h"

/* Mailboxes and launch words of a core's harts: consecutive (hw/l1.h). */
struct core_mailboxes {
	uint8_t bytes[TT_L1_LAUNCH_SEQ(TT_TENSIX_HARTS) - TT_L1_MAILBOX];
};

static void hart_state(const struct core_mailboxes *m, unsigned h,
		       struct tt_fw_launch_state *st)
{
	memcpy(&st->mb, m->bytes + h * TT_L1_MAILBOX_STRIDE, sizeof(st->mb));
	memcpy(&st->seq, m->bytes + TT_L1_LAUNCH_SEQ(h) - TT_L1_MAILBOX,
	       sizeof(st->seq));
}

/* ", halted (illegal instruction)" for a halted hart, else "". */
static void halt_note(struct tt_device *dev, struct tt_xy core, unsigned h,
		      char *buf, size_t len)
{
	struct tt_hart_status st;

	buf[0] = 0;
	if (!tt_hart_status(dev, core, h, &st) &&
	    st.state == TT_HART_STATE_HALTED)
		snprintf(buf, len, ", halted (%s)", st.fault_name);
}

/* Whether hart h of the core needs recovery; if so, p says why. */
static bool hart_problem(struct tt_device *dev, struct tt_xy core,
			 unsigned h, const struct tt_fw_launch_state *st,
			 bool owned, struct tt_core_problem *p)
{
	char halted[64];

	if (st->mb.host_mark == TT_HOST_MARK_FAILED) {
		halt_note(dev, core, h, halted, sizeof(halted));
		p->pid = (int)st->mb.host_mark_pid;
		snprintf(p->why, sizeof(p->why),
			 "a launch on hart %u (%s) hung or faulted in process %d%s; the runtime owner's next program on it recovers it",
			 h, tt_hart_name(h), p->pid, halted);
	} else if (!owned && st->mb.fw_state == TT_FW_READY &&
		   st->mb.done.seq != st->seq) {
		halt_note(dev, core, h, halted, sizeof(halted));
		p->pid = 0;
		snprintf(p->why, sizeof(p->why),
			 "hart %u (%s) is still in launch %u%s, and no process owns the chip's runtime (its owner exited or died); the next owner's program on it recovers it",
			 h, tt_hart_name(h), st->seq, halted);
	} else {
		return false;
	}
	p->core = core;
	p->hart = h;
	return true;
}

static int core_problem(struct tt_device *dev, struct tt_xy core, bool owned,
			struct tt_core_problem *p)
{
	struct core_mailboxes m;
	int ret = tt_noc_read(dev, 0, core.x, core.y, TT_L1_MAILBOX, m.bytes,
			      sizeof(m.bytes));

	if (ret)
		return ret;
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		struct tt_fw_launch_state st;

		hart_state(&m, h, &st);
		if (hart_problem(dev, core, h, &st, owned, p))
			return 1;
	}
	return 0;
}

static int scan(struct tt_device *dev, bool owned,
		struct tt_core_problem *out, unsigned max)
{
	int found = 0;

	for (unsigned i = 0; i < dev->soc.tensix_count; i++) {
		struct tt_xy core = { dev->soc.tensix[i].x, dev->soc.tensix[i].y };
		struct tt_core_problem p;
		int ret = core_problem(dev, core, owned, &p);

		if (ret < 0)
			return ret;
		if (ret && (unsigned)found < max)
			out[found] = p;
		found += ret;
	}
	return found;
}

int tt_device_core_problems(tt_device *dev, struct tt_core_problem *out,
			    unsigned max)
{
	int owner = 0, owned, found;

	TT_CHECK_ARG(dev);
	if (TT_ARG_NULL_LEN(out, max))
		return -EINVAL;
	owned = tt_device_runtime_owned(dev, &owner);
	if (owned < 0)
		return owned;
	found = scan(dev, owned, out, max);
	/* An owner that came in while we read may have started launches
	 * that look like a dead owner's: only its marks count. */
	if (found > 0 && !owned && tt_device_runtime_owned(dev, &owner) > 0)
		found = scan(dev, true, out, max);
	return found;
}
