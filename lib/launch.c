// SPDX-License-Identifier: Apache-2.0
/*
 * Slow dispatch: the host writes each core's program state (hw/l1.h) and
 * launch messages itself. Every hart counts its completion at one word
 * (launch.notify_addr on the runtime's counter core), so waiting for a
 * program on the whole grid reads one word, not every mailbox.
 */
#include "launch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "fw.h"
#include "kprint.h"
#include "launch_report.h"
#include "runtime.h"
#include "tt/noc.h"

static int write_banks(struct tt_device *dev, struct tt_core_state *cs,
		       struct tt_xy core)
{
	struct tt_bank_table t;
	int ret;

	if (cs->banks)
		return 0;
	ret = tt_banks_table(dev, &t);
	if (!ret)
		ret = tt_noc_write(dev, 0, core.x, core.y, TT_L1_BANKS, &t,
				   sizeof(t));
	cs->banks = !ret;
	return ret;
}

/* Read the mailboxes once, so launch sequence numbers follow on. */
static int learn_seqs(struct tt_device *dev, struct tt_core_state *cs,
		      struct tt_xy core)
{
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		struct tt_mailbox mb;
		int ret = tt_noc_read(dev, 0, core.x, core.y,
				      TT_L1_MAILBOX_ADDR(h), &mb, sizeof(mb));

		if (ret)
			return ret;
		if (mb.fw_state != TT_FW_READY || mb.done.seq != mb.launch.seq)
			return tt_error(-EBUSY,
					"%s: core (%u,%u) hart %u is not ready for a program (firmware state 0x%08x, launch %u, done %u)",
					dev->name, core.x, core.y, h,
					mb.fw_state, mb.launch.seq,
					mb.done.seq);
		cs->next_seq[h] = mb.launch.seq + 1;
	}
	cs->seq_known = true;
	return 0;
}

static int upload_kernels(struct tt_device *dev, struct tt_core_state *cs,
			  const struct tt_launch_core *c)
{
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		const struct tt_kbinary *b = c->hart[h].bin;
		int ret;

		if (!b || !memcmp(cs->slot_hash[h], b->hash, 32))
			continue;
		memset(cs->slot_hash[h], 0, 32);
		ret = tt_noc_write(dev, 0, c->noc.x, c->noc.y, b->load_addr,
				   b->image, b->image_len);
		if (ret)
			return ret;
		memcpy(cs->slot_hash[h], b->hash, 32);
	}
	return 0;
}

static unsigned highest_cb(uint32_t mask)
{
	return mask ? 32u - (unsigned)__builtin_clz(mask) : 0;
}

/* Contexts, semaphores and CB table: one write from TT_L1_PROG. */
static int write_config(struct tt_device *dev, const struct tt_launch *l,
			const struct tt_launch_core *c)
{
	uint8_t area[0x200 + TT_CB_COUNT * sizeof(struct tt_cb_config)];
	unsigned ncb = highest_cb(c->cb_mask);
	size_t len = 0x200 + ncb * sizeof(struct tt_cb_config);

	memset(area, 0, 0x200);
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		const struct tt_launch_hart *k = &c->hart[h];
		struct tt_kernel_ctx ctx = {
			.rta = TT_L1_RTA(h),
			.rta_count = k->rta_count,
			.crta = TT_L1_RTA(h) + 4 * k->rta_count,
			.crta_count = k->crta_count,
			.cb_mask = c->cb_mask,
			.noc = k->noc,
			.logical_x = c->logical.x,
			.logical_y = c->logical.y,
			.flags = (l->cb_checks ? TT_KCTX_F_CB_CHECKS : 0) |
				 (l->print ? TT_KCTX_F_PRINT : 0),
			.kernel_id = k->kernel_id,
		};

		memcpy(area + TT_L1_KCTX(h) - TT_L1_PROG, &ctx, sizeof(ctx));
	}
	for (unsigned i = 0; i < TT_SEM_COUNT; i++)
		if (c->sem_mask & (1u << i))
			memcpy(area + TT_L1_SEM_ADDR(i) - TT_L1_PROG,
			       &c->sem[i], 4);
	if (ncb)
		memcpy(area + 0x200, c->cbs, ncb * sizeof(struct tt_cb_config));
	return tt_noc_write(dev, 0, c->noc.x, c->noc.y, TT_L1_PROG, area, len);
}

static int write_args(struct tt_device *dev, const struct tt_launch_core *c)
{
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		const struct tt_launch_hart *k = &c->hart[h];
		int ret = 0;

		if (!k->bin)
			continue;
		if (k->rta_count)
			ret = tt_noc_write(dev, 0, c->noc.x, c->noc.y,
					   TT_L1_RTA(h), k->rta,
					   4 * k->rta_count);
		if (!ret && k->crta_count)
			ret = tt_noc_write(dev, 0, c->noc.x, c->noc.y,
					   TT_L1_RTA(h) + 4 * k->rta_count,
					   k->crta, 4 * k->crta_count);
		if (ret)
			return ret;
	}
	return 0;
}

/* CB counters start at zero for every program (hw/tensix.h). */
static int zero_cb_counters(struct tt_device *dev,
			    const struct tt_launch_core *c)
{
	uint32_t zeros[TT_CB_COUNT * TT_CB_STRIDE / 4] = { 0 };
	unsigned ncb = highest_cb(c->cb_mask);

	if (!ncb)
		return 0;
	return tt_noc_write(dev, 0, c->noc.x, c->noc.y, TT_REG_CB_ADDR, zeros,
			    ncb * TT_CB_STRIDE);
}

static int launch_harts(struct tt_device *dev, struct tt_runtime *rt,
			struct tt_core_state *cs, struct tt_launch *l,
			const struct tt_launch_core *c)
{
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		uint32_t base = TT_L1_MAILBOX_ADDR(h) +
				offsetof(struct tt_mailbox, launch);
		struct tt_launch_msg m = {
			.entry = TT_L1_KERNEL_SLOT(h),
			.args = TT_L1_KCTX(h),
			.nargs = sizeof(struct tt_kernel_ctx) / 4,
			.notify_xy = rt->counter_core.x |
				     rt->counter_core.y << 8,
			.notify_addr = TT_L1_COUNTERS,
		};
		int ret;

		if (!c->hart[h].bin)
			continue;
		/* Body first, seq last: seq starts the run. */
		ret = tt_noc_write(dev, 0, c->noc.x, c->noc.y, base + 4,
				   (uint8_t *)&m + 4, sizeof(m) - 4);
		if (!ret)
			ret = tt_noc_write32(dev, 0, c->noc.x, c->noc.y, base,
					     cs->next_seq[h]);
		if (ret)
			return ret;
		cs->next_seq[h]++;
		l->harts++;
	}
	return 0;
}

static int start_core(struct tt_device *dev, struct tt_runtime *rt,
		      struct tt_launch *l, const struct tt_launch_core *c)
{
	struct tt_core_state *cs = tt_runtime_core(rt, c->noc);
	int ret;

	if (!cs)
		return tt_error(-EINVAL, "%s: core (%u,%u) is outside the grid",
				dev->name, c->noc.x, c->noc.y);
	ret = cs->seq_known ? 0 : learn_seqs(dev, cs, c->noc);
	if (!ret)
		ret = write_banks(dev, cs, c->noc);
	if (!ret)
		ret = upload_kernels(dev, cs, c);
	if (!ret)
		ret = write_config(dev, l, c);
	if (!ret)
		ret = write_args(dev, c);
	if (!ret)
		ret = zero_cb_counters(dev, c);
	if (!ret)
		ret = launch_harts(dev, rt, cs, l, c);
	return ret;
}

static int read_counter(struct tt_device *dev, struct tt_runtime *rt,
			uint32_t *val)
{
	return tt_noc_read32(dev, 0, rt->counter_core.x, rt->counter_core.y,
			     TT_L1_COUNTERS, val);
}

int tt_launch_start(struct tt_device *dev, struct tt_launch *l)
{
	struct tt_runtime *rt = tt_runtime_get(dev);
	int ret;

	if (!rt)
		return -ENOMEM;
	ret = tt_device_check_live(dev);
	if (ret)
		return ret;
	pthread_mutex_lock(&rt->lock);
	if (rt->reset_gen != dev->reset_gen) {
		tt_runtime_forget(rt);
		rt->reset_gen = dev->reset_gen;
	}
	l->harts = 0;
	l->print = tt_kprint_enabled();
	l->cb_checks = tt_kprint_cb_checks();
	ret = read_counter(dev, rt, &l->counter_base);
	for (unsigned i = 0; !ret && i < l->ncores; i++)
		ret = start_core(dev, rt, l, &l->cores[i]);
	if (ret)
		/* A core may hold part of an upload: trust nothing. */
		tt_runtime_forget(rt);
	pthread_mutex_unlock(&rt->lock);
	return ret;
}

int tt_launch_poll(struct tt_device *dev, struct tt_launch *l)
{
	uint32_t now;
	int ret = read_counter(dev, dev->runtime, &now);

	if (ret)
		return ret;
	if (l->print)
		tt_kprint_drain(dev, l);
	return now - l->counter_base >= l->harts;
}

struct wait_ctx {
	struct tt_launch *l;
	int64_t next_scan;
};

/* Faults are looked for every few ms: a halted hart never counts in. */
#define FAULT_SCAN_MS 5

static int launch_done(struct tt_device *dev, void *arg)
{
	struct wait_ctx *w = arg;
	int ret = tt_launch_poll(dev, w->l);

	if (ret)
		return ret;
	if (tt_fw_now_ms() < w->next_scan)
		return 0;
	w->next_scan = tt_fw_now_ms() + FAULT_SCAN_MS;
	return tt_launch_report_faults(dev, w->l);
}

int tt_launch_wait(struct tt_device *dev, struct tt_launch *l,
		   unsigned timeout_ms)
{
	struct wait_ctx w = { .l = l, .next_scan = tt_fw_now_ms() + 1 };
	int64_t deadline = timeout_ms ? tt_fw_deadline((int)timeout_ms) :
					INT64_MAX;
	int ret = tt_fw_wait(dev, deadline, launch_done, &w);

	if (ret == 1)
		ret = 0;
	if (ret == -ETIMEDOUT)
		ret = tt_launch_report_hang(dev, l, timeout_ms);
	if (l->print)
		tt_kprint_drain(dev, l);
	if (!ret)
		ret = tt_device_check_live(dev);
	return ret;
}
