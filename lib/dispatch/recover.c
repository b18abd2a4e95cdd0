// SPDX-License-Identifier: Apache-2.0
/*
 * Recovery of hung or halted cores (recover.h, docs/dispatch.md). The
 * firmware restart (tt_hart_restart_firmware) stops whatever a hart runs
 * and clears its fault record; the firmware then sets done.seq to the
 * launch word, so the hart is idle again. Everything else a launch relies
 * on and a dead kernel may have left half-done is cleared here: the CB
 * counters, the semaphores and the print rings; the runtime forgets what
 * it knew of the core's L1 so the next launch writes it all again.
 */
#include "recover.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hw/tensix.h"
#include "kprint.h"
#include "lib/device/fw.h"
#include "runtime.h"
#include "tt/hart.h"
#include "tt/noc.h"
#include "tt/queue.h"

static struct tt_core_failure *failure(struct tt_runtime *rt,
				       struct tt_xy noc)
{
	if (!rt || !rt->failures || noc.x >= rt->grid_x || noc.y >= rt->grid_y)
		return NULL;
	return &rt->failures[noc.y * rt->grid_x + noc.x];
}

/* The first hart of c that did not finish launch l: "hung on hart 0
 * (BRISC)" or "halted (illegal instruction) on hart 1 (NCRISC)"; false if
 * every hart finished. */
static bool stuck_hart(struct tt_device *dev, const struct tt_launch *l,
		       const struct tt_launch_core *c, unsigned *hart,
		       char *what, size_t len)
{
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		struct tt_hart_status st;
		uint32_t done = l->seq;

		if (!c->hart[h].bin)
			continue;
		if (!tt_hart_status(dev, c->noc, h, &st) &&
		    st.state == TT_HART_STATE_HALTED) {
			snprintf(what, len, "halted (%s)", st.fault_name);
			*hart = h;
			return true;
		}
		tt_noc_read32(dev, 0, c->noc.x, c->noc.y,
			      TT_L1_MAILBOX_ADDR(h) +
				      offsetof(struct tt_mailbox, done.seq),
			      &done);
		if (done != l->seq) {
			snprintf(what, len, "hung");
			*hart = h;
			return true;
		}
	}
	return false;
}

void tt_recover_mark(struct tt_device *dev, const struct tt_launch *l,
		     int err)
{
	struct tt_runtime *rt = dev->runtime;
	char *msg = strdup(tt_last_error());
	const uint32_t mark[2] = { TT_HOST_MARK_FAILED, (uint32_t)getpid() };

	if (!rt || (err != -ETIMEDOUT && err != -EFAULT))
		goto out;
	pthread_mutex_lock(&rt->lock);
	for (unsigned i = 0; i < l->ncores; i++) {
		const struct tt_launch_core *c = &l->cores[i];
		struct tt_core_failure *f = failure(rt, c->noc);
		char what[64];
		unsigned h;

		if (!f || !stuck_hart(dev, l, c, &h, what, sizeof(what)))
			continue;
		snprintf(f->why, sizeof(f->why),
			 "program %u kernel '%s' %s on hart %u (%s) in pid %ld",
			 l->program_id,
			 c->hart[h].name ? c->hart[h].name : "?", what, h,
			 tt_hart_name(h), (long)getpid());
		/* Stopped now: a program that only ran slow would go on
		 * reading and writing buffers its caller frees and others
		 * then get. Its next launch still recovers the core whole
		 * (CB counters, semaphores, what the runtime knew). */
		for (unsigned k = 0; k < TT_TENSIX_HARTS; k++)
			tt_hart_restart_firmware(dev, c->noc, k);
		/* Its next launch must look at the core again. */
		tt_runtime_core(rt, c->noc)->seq_known = false;
		/* Other processes (tt-smi) see the mark in the mailbox. */
		tt_noc_write(dev, 0, c->noc.x, c->noc.y,
			     TT_L1_MAILBOX_ADDR(h) +
				     offsetof(struct tt_mailbox, host_mark),
			     mark, sizeof(mark));
	}
	pthread_mutex_unlock(&rt->lock);
out:
	/* The report is what the caller returns, not a status read's
	 * error. */
	if (msg)
		tt_error(err, "%s", msg);
	free(msg);
}

/* CB counters, semaphores and print rings of a core whose harts are
 * stopped: nothing of the dead program may pass for the next one's. */
static int clear_core(struct tt_device *dev, struct tt_xy core)
{
	static const uint32_t zeros[TT_CB_COUNT * TT_CB_STRIDE / 4];
	int ret = tt_noc_write(dev, 0, core.x, core.y, TT_REG_CB_ADDR, zeros,
			       sizeof(zeros));

	if (!ret)
		ret = tt_noc_write(dev, 0, core.x, core.y, TT_L1_SEM, zeros,
				   TT_SEM_COUNT * TT_SEM_STRIDE);
	for (unsigned h = 0; !ret && h < TT_TENSIX_HARTS; h++)
		ret = tt_noc_write(dev, 0, core.x, core.y, TT_L1_PRINT_RING(h),
				   zeros, 8);
	for (unsigned h = 0; !ret && h < TT_TENSIX_HARTS; h++)
		ret = tt_noc_write(dev, 0, core.x, core.y,
				   TT_L1_MAILBOX_ADDR(h) +
					   offsetof(struct tt_mailbox, host_mark),
				   zeros, 8);
	return ret;
}

int tt_recover_core(struct tt_device *dev, struct tt_runtime *rt,
		    struct tt_xy core, const char *why)
{
	char err[256];
	int ret = 0;

	/* All harts first: a live one might write into what is cleared. */
	for (unsigned h = 0; !ret && h < TT_TENSIX_HARTS; h++)
		ret = tt_hart_restart_firmware(dev, core, h);
	if (!ret)
		ret = clear_core(dev, core);
	/* What the runtime knew of its L1 may be gone with the program. */
	memset(tt_runtime_core(rt, core), 0, sizeof(struct tt_core_state));
	tt_launch_plan_forget(&rt->plan);
	if (!ret)
		return 0;
	/* tt_error() writes where tt_last_error() points. */
	snprintf(err, sizeof(err), "%s", tt_last_error());
	return tt_error(-EBUSY, "%s: core (%u,%u) needs recovery after %s: %s",
			dev->name, core.x, core.y, why, err);
}

int tt_recover_launch_cores(struct tt_device *dev, struct tt_runtime *rt,
			    const struct tt_launch *l)
{
	for (unsigned i = 0; i < l->ncores; i++) {
		struct tt_core_failure *f = failure(rt, l->cores[i].noc);
		int ret;

		if (!f || !f->why[0])
			continue;
		ret = tt_recover_core(dev, rt, l->cores[i].noc, f->why);
		if (ret)
			return ret;
		f->why[0] = 0;
	}
	return 0;
}

/* The cores to recover, read before this process takes the runtime: a
 * dead owner's busy cores count only while nobody owns it. */
static int list_problems(struct tt_device *dev, struct tt_core_problem **out)
{
	unsigned max = dev->soc.tensix_count;
	int n;

	*out = calloc(max ? max : 1, sizeof(**out));
	if (!*out)
		return tt_error(-ENOMEM, "%s: out of memory", dev->name);
	n = tt_device_core_problems(dev, *out, max);
	if (n < 0) {
		free(*out);
		*out = NULL;
	}
	return n;
}

int tt_device_recover_cores(tt_device *dev, unsigned *recovered)
{
	struct tt_core_problem *p;
	struct tt_runtime *rt;
	char first[256] = "";
	int n, ret = 0, done = 0;
	bool busy;

	TT_CHECK_ARG(dev);
	n = list_problems(dev, &p);
	if (n < 0)
		return n;
	rt = tt_runtime_get(dev);
	if (!rt) {
		free(p);
		return tt_error(-EBUSY, "%s", tt_last_error());
	}
	pthread_mutex_lock(&rt->lock);
	busy = rt->inflight.active;
	if (busy)
		ret = tt_error(-EBUSY,
			       "%s: a program of this process is still running (program %u); wait for it before recovering cores",
			       dev->name, rt->inflight.launch.program_id);
	/* Every core gets its chance; the first failure is reported. */
	for (int i = 0; !busy && i < n; i++) {
		struct tt_core_failure *f = failure(rt, p[i].core);
		int r = tt_recover_core(dev, rt, p[i].core, p[i].why);

		if (!r && f)
			f->why[0] = 0;
		if (r && !ret)
			snprintf(first, sizeof(first), "%s", tt_last_error());
		ret = ret ? ret : r;
		done += !r;
	}
	pthread_mutex_unlock(&rt->lock);
	free(p);
	if (recovered)
		*recovered = (unsigned)done;
	if (ret && !busy) /* a later success may have overwritten it */
		tt_error(ret, "%s", first);
	return ret;
}
