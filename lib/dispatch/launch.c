// SPDX-License-Identifier: Apache-2.0
/*
 * Starting programs. The writes that start a program (hw/l1.h) are
 * collected in a batch, merged into multicasts, and carried out by the
 * host (slow dispatch) or by the dispatcher (fast dispatch, fd.c). Every
 * core counts its completion at one word (launch.notify_addr: slow
 * dispatch's counter core, or the dispatch core), so waiting for a program
 * on the whole grid looks at one word, not every mailbox. One hart counts
 * for its core once the others are done: the last the program uses, as
 * the model runs a core's harts in order.
 */
#include "launch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/memory/alloc.h"
#include "fd.h"
#include "lib/device/fw.h"
#include "kprint.h"
#include "launch_plan.h"
#include "launch_report.h"
#include "recover.h"
#include "runtime.h"
#include "tt/noc.h"
#include "wbatch.h"

/* Phases of a launch's writes (wbatch.h): the start words come last. */
enum { PHASE_STATE, PHASE_START };

struct launch_ctx {
	struct tt_device *dev;
	struct tt_runtime *rt;
	struct tt_launch *l;
	struct tt_wbatch *b;
	struct tt_xy notify_core;
	uint32_t notify_addr;
	uint32_t seq;
};

static int add_banks(struct launch_ctx *x, struct tt_core_state *cs,
		     struct tt_xy core)
{
	struct tt_bank_table t;
	int ret;

	if (cs->banks)
		return 0;
	ret = tt_banks_table(x->dev, &t);
	if (!ret)
		ret = tt_wbatch_copy(x->b, PHASE_STATE, core, TT_L1_BANKS, &t,
				     sizeof(t));
	cs->banks = !ret;
	return ret;
}

/* Harts of a device just opened may still be booting. */
#define BOOT_WAIT_MS 5000

struct mbox_ctx {
	struct tt_xy core;
	unsigned hart;
	struct tt_fw_launch_state st;
};

/* tt_fw_wait condition: the hart's firmware is up (1), booting (0). */
static int fw_up(struct tt_device *dev, void *arg)
{
	struct mbox_ctx *m = arg;
	int ret = tt_fw_read_launch_state(dev, m->core, m->hart, &m->st);

	return ret ? ret : m->st.mb.fw_state == TT_FW_READY;
}

/* A hart of core that is not idle: recovered if this handle took the
 * chip over (an earlier owner left it busy), else refused. */
static int not_ready(struct tt_device *dev, struct tt_runtime *rt,
		     struct tt_xy core, unsigned h, const struct mbox_ctx *m)
{
	char why[192];

	if (m->st.mb.host_mark == TT_HOST_MARK_FAILED) {
		/* Marked by a failed launch of a runtime that is not ours
		 * (ours are in rt->failures): another handle, or a process
		 * that owned the chip before. */
		snprintf(why, sizeof(why),
			 "a launch on hart %u hung or faulted in process %u",
			 h, m->st.mb.host_mark_pid);
		return tt_recover_core(dev, rt, core, why);
	}
	snprintf(why, sizeof(why),
		 "hart %u was left busy by an earlier owner of the chip (firmware state 0x%08x, launch %u, done %u)",
		 h, m->st.mb.fw_state, m->st.seq, m->st.mb.done.seq);
	if (rt->adopt)
		return tt_recover_core(dev, rt, core, why);
	return tt_error(-EBUSY,
			"%s: core (%u,%u) hart %u is not ready for a program (firmware state 0x%08x, launch %u, done %u); it is recovered only by its runtime owner's next launch after a failure, or by tt_device_reset()",
			dev->name, core.x, core.y, h, m->st.mb.fw_state,
			m->st.seq, m->st.mb.done.seq);
}

/* Read the mailboxes (whenever the core's state is unknown: first use,
 * after a failure or a recovery): a new seq must differ from every
 * hart's current launch word, and every hart must be idle. */
static int learn_seqs(struct tt_device *dev, struct tt_runtime *rt,
		      struct tt_core_state *cs, struct tt_xy core)
{
	bool recovered = false;

	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		struct mbox_ctx m = { .core = core, .hart = h };
		int ret = tt_fw_wait(dev, tt_fw_deadline(BOOT_WAIT_MS), fw_up,
				     &m);

		if (ret < 0 && ret != -ETIMEDOUT)
			return ret;
		if (ret < 0 || !tt_fw_hart_idle(&m.st) ||
		    m.st.mb.host_mark == TT_HOST_MARK_FAILED) {
			if (recovered)
				return tt_error(-EBUSY,
						"%s: core (%u,%u) hart %u is not ready for a program after its recovery (firmware state 0x%08x, launch %u, done %u)",
						dev->name, core.x, core.y, h,
						m.st.mb.fw_state, m.st.seq,
						m.st.mb.done.seq);
			ret = not_ready(dev, rt, core, h, &m);
			if (ret)
				return ret;
			/* Every hart restarted: read them all again. */
			recovered = true;
			h = (unsigned)-1;
			continue;
		}
		if ((int32_t)(m.st.seq - rt->last_seq) > 0)
			rt->last_seq = m.st.seq;
		cs->next_seq[h] = m.st.seq + 1;
	}
	cs->seq_known = true;
	return 0;
}

static int add_kernels(struct launch_ctx *x, struct tt_core_state *cs,
		       const struct tt_launch_core *c)
{
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		const struct tt_kbinary *b = c->hart[h].bin;
		int ret;

		if (!b || !memcmp(cs->slot_hash[h], b->hash, 32))
			continue;
		ret = tt_wbatch_ref(x->b, PHASE_STATE, c->noc, b->load_addr,
				    b->image, (uint32_t)b->image_len);
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

static unsigned highest_sem(uint32_t mask)
{
	return mask ? 32u - (unsigned)__builtin_clz(mask) : 0;
}

/* Contexts, semaphores and CB table: one write from TT_L1_PROG, or, if
 * the core holds the same bytes from its last launch, only the semaphores
 * (kernels change them). */
static int add_config(struct launch_ctx *x, struct tt_core_state *cs,
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
			.flags = (x->l->cb_checks ? TT_KCTX_F_CB_CHECKS : 0) |
				 (tt_kprint_core_on(&x->l->print_sel,
						    c->logical) ?
					  TT_KCTX_F_PRINT :
					  0),
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
	if (cs->prog_len != len || memcmp(cs->prog, area, len)) {
		memcpy(cs->prog, area, len);
		cs->prog_len = (uint16_t)len;
		return tt_wbatch_copy(x->b, PHASE_STATE, c->noc, TT_L1_PROG,
				      area, (uint32_t)len);
	}
	if (!c->sem_mask)
		return 0;
	return tt_wbatch_copy(x->b, PHASE_STATE, c->noc, TT_L1_SEM,
			      area + TT_L1_SEM - TT_L1_PROG,
			      highest_sem(c->sem_mask) * TT_SEM_STRIDE);
}

static int add_args(struct launch_ctx *x, const struct tt_launch_core *c)
{
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		const struct tt_launch_hart *k = &c->hart[h];
		int ret = 0;

		if (!k->bin)
			continue;
		if (k->rta_count)
			ret = tt_wbatch_ref(x->b, PHASE_STATE, c->noc,
					    TT_L1_RTA(h), k->rta,
					    4 * k->rta_count);
		if (!ret && k->crta_count)
			ret = tt_wbatch_ref(x->b, PHASE_STATE, c->noc,
					    TT_L1_RTA(h) + 4 * k->rta_count,
					    k->crta, 4 * k->crta_count);
		if (ret)
			return ret;
	}
	return 0;
}

/* CB counters start at zero for every program (hw/tensix.h). */
static int add_cb_reset(struct launch_ctx *x, const struct tt_launch_core *c)
{
	static const uint32_t zeros[TT_CB_COUNT * TT_CB_STRIDE / 4];
	unsigned ncb = highest_cb(c->cb_mask);

	if (!ncb)
		return 0;
	return tt_wbatch_ref(x->b, PHASE_STATE, c->noc, TT_REG_CB_ADDR, zeros,
			     ncb * TT_CB_STRIDE);
}

/* The launch words of harts [first, end): one write, since they are side
 * by side (hw/l1.h), in the last phase: the seq starts the runs. */
static int add_starts(struct launch_ctx *x, const struct tt_launch_core *c,
		      unsigned first, unsigned end)
{
	uint32_t seqs[TT_TENSIX_HARTS];

	for (unsigned h = first; h < end; h++)
		seqs[h - first] = x->seq;
	return tt_wbatch_copy(x->b, PHASE_START, c->noc,
			      TT_L1_LAUNCH_SEQ(first), seqs,
			      4 * (end - first));
}

/* Hart h's launch message, with the rest of the state (not written again
 * while it is the same). */
static int add_message(struct launch_ctx *x, struct tt_core_state *cs,
		       const struct tt_launch_core *c, unsigned h,
		       uint32_t used)
{
	uint32_t base = TT_L1_MAILBOX_ADDR(h) +
			offsetof(struct tt_mailbox, launch);
	bool counts = used >> h == 1; /* the last hart used */
	struct tt_launch_msg m = {
		.entry = TT_L1_KERNEL_SLOT(h),
		.args = TT_L1_KCTX(h),
		.nargs = sizeof(struct tt_kernel_ctx) / 4,
		.notify_xy = counts ? x->notify_core.x | x->notify_core.y << 8 :
				      0,
		.notify_addr = counts ? x->notify_addr : 0,
		/* The dispatcher interrupts once for all harts. */
		.flags = x->l->fast ? TT_LAUNCH_F_NO_IRQ : 0,
		.wait_mask = counts ? used & ~(1u << h) : 0,
	};
	int ret = 0;

	if (!cs->msg_known[h] || memcmp(&cs->msg[h], &m, sizeof(m)))
		ret = tt_wbatch_copy(x->b, PHASE_STATE, c->noc, base + 4,
				     (uint8_t *)&m + 4, sizeof(m) - 4);
	cs->msg[h] = m;
	cs->msg_known[h] = !ret;
	return ret;
}

/* The launch messages, then the launch words of each run of harts the
 * program uses: all three in one write when it uses all three. */
static int add_launches(struct launch_ctx *x, struct tt_core_state *cs,
			const struct tt_launch_core *c)
{
	unsigned first = 0;
	uint32_t used = 0;
	int ret;

	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++)
		used |= c->hart[h].bin ? 1u << h : 0;
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
		if (!(used >> h & 1))
			continue;
		ret = add_message(x, cs, c, h, used);
		if (ret)
			return ret;
		cs->next_seq[h] = x->seq + 1;
	}
	x->l->counts += used != 0;
	for (unsigned h = 0; h <= TT_TENSIX_HARTS; h++) {
		if (used >> h & 1)
			continue;
		if (first < h) {
			ret = add_starts(x, c, first, h);
			if (ret)
				return ret;
		}
		first = h + 1;
	}
	return 0;
}

static int add_core(struct launch_ctx *x, const struct tt_launch_core *c)
{
	struct tt_core_state *cs = tt_runtime_core(x->rt, c->noc);
	int ret;

	ret = add_banks(x, cs, c->noc);
	if (!ret)
		ret = add_kernels(x, cs, c);
	if (!ret)
		ret = add_config(x, cs, c);
	if (!ret)
		ret = add_args(x, c);
	if (!ret)
		ret = add_cb_reset(x, c);
	if (!ret)
		ret = add_launches(x, cs, c);
	return ret;
}

static int host_write(void *ctx, struct tt_xy a, struct tt_xy b, uint32_t addr,
		      const void *data, uint32_t len)
{
	struct tt_device *dev = ctx;

	if (a.x == b.x && a.y == b.y)
		return tt_noc_write(dev, 0, a.x, a.y, addr, data, len);
	return tt_noc_multicast(dev, 0, a, b, addr, data, len);
}

static int read_counter(struct tt_device *dev, struct tt_runtime *rt,
			uint32_t *val)
{
	return tt_noc_read32(dev, 0, rt->counter_core.x, rt->counter_core.y,
			     TT_L1_COUNTERS, val);
}

/* Every core known and ready, and the launch's seq chosen. */
static int prepare(struct launch_ctx *x)
{
	for (unsigned i = 0; i < x->l->ncores; i++) {
		const struct tt_launch_core *c = &x->l->cores[i];
		struct tt_core_state *cs = tt_runtime_core(x->rt, c->noc);
		int ret;

		if (!cs)
			return tt_error(-EINVAL,
					"%s: core (%u,%u) is outside the grid",
					x->dev->name, c->noc.x, c->noc.y);
		ret = cs->seq_known ? 0 :
				      learn_seqs(x->dev, x->rt, cs, c->noc);
		if (ret)
			return ret;
	}
	x->seq = ++x->rt->last_seq;
	x->l->seq = x->seq;
	return 0;
}

/* Every hart of the launch has seq as its latest launch: what a replay
 * changes in the cores' state. */
static void replayed(struct launch_ctx *x)
{
	for (unsigned i = 0; i < x->l->ncores; i++) {
		const struct tt_launch_core *c = &x->l->cores[i];
		struct tt_core_state *cs = tt_runtime_core(x->rt, c->noc);

		for (unsigned h = 0; h < TT_TENSIX_HARTS; h++)
			if (c->hart[h].bin)
				cs->next_seq[h] = x->seq + 1;
	}
	x->l->counts = x->rt->plan.counts;
}

/* The launch's writes, made anew or replayed (launch_plan.h). */
static int emit_all(struct launch_ctx *x, bool planned)
{
	struct tt_launch_plan *p = &x->rt->plan;
	tt_wemit_fn emit = x->l->fast ? tt_fd_write : host_write;
	int ret = 0;

	if (planned && tt_launch_plan_replayable(p)) {
		replayed(x);
		return tt_launch_plan_replay(p, x->seq, emit, x->dev);
	}
	for (unsigned i = 0; !ret && i < x->l->ncores; i++)
		ret = add_core(x, &x->l->cores[i]);
	if (ret)
		return ret;
	if (!planned)
		return tt_wbatch_emit(x->b, emit, x->dev);
	tt_launch_plan_record_start(p, x->seq, emit, x->dev);
	return tt_wbatch_emit(x->b, tt_launch_plan_record_emit, p);
}

static int start_all(struct launch_ctx *x)
{
	struct tt_launch *l = x->l;
	bool planned;
	int ret;

	if (l->fast) {
		tt_fd_notify_target(x->dev, &x->notify_core, &x->notify_addr);
	} else {
		x->notify_core = x->rt->counter_core;
		x->notify_addr = TT_L1_COUNTERS;
	}
	/* Before the plan: a recovery forgets it. */
	ret = tt_recover_launch_cores(x->dev, x->rt, l);
	if (ret)
		return ret;
	planned = !tt_launch_plan_describe(&x->rt->plan, l, x->notify_core,
				    x->notify_addr);
	if (!planned)
		tt_launch_plan_forget(&x->rt->plan);
	ret = prepare(x);
	if (!ret && !l->fast)
		ret = read_counter(x->dev, x->rt, &l->counter_base);
	if (!ret)
		ret = emit_all(x, planned);
	if (!ret && l->fast)
		ret = tt_fd_finish_launch(x->dev, l->counts, &l->done_pos);
	if (!ret && planned)
		tt_launch_plan_launched(&x->rt->plan, l->counts);
	return ret;
}

int tt_launch_start_locked(struct tt_device *dev, struct tt_runtime *rt,
			   struct tt_launch *l, bool fast)
{
	struct tt_wbatch b;
	struct launch_ctx x = { .dev = dev, .rt = rt, .l = l, .b = &b };
	int ret = fast ? tt_fd_ready(dev, rt) : 0;

	if (ret)
		return ret;
	ret = tt_kprint_select(dev, &l->print_sel);
	if (ret)
		return ret;
	l->fast = fast;
	l->counts = 0;
	l->print = l->print_sel.on;
	l->cb_checks = tt_kprint_cb_checks();
	tt_wbatch_init(&b, dev);
	ret = start_all(&x);
	tt_wbatch_free(&b);
	if (ret) {
		/* A core may hold part of an upload: trust nothing. */
		tt_runtime_forget(rt);
		if (fast)
			tt_fd_abandon(dev);
	}
	return ret;
}

int tt_launch_start(struct tt_device *dev, struct tt_launch *l)
{
	struct tt_runtime *rt = tt_runtime_get(dev);
	bool fast;
	int ret;

	if (!rt)
		return -ENOMEM;
	ret = tt_fd_wanted(&fast);
	if (!ret)
		ret = tt_device_check_live(dev);
	if (ret)
		return ret;
	pthread_mutex_lock(&rt->lock);
	if (rt->reset_gen != dev->reset_gen) {
		tt_runtime_forget(rt);
		/* The reset restarted every core's firmware. */
		memset(rt->failures, 0, (size_t)rt->grid_x * rt->grid_y *
						sizeof(*rt->failures));
		tt_fd_abandon(dev);
		rt->reset_gen = dev->reset_gen;
	}
	ret = tt_launch_start_locked(dev, rt, l, fast);
	pthread_mutex_unlock(&rt->lock);
	return ret;
}

int tt_launch_poll(struct tt_device *dev, struct tt_launch *l)
{
	uint32_t now;
	int ret;

	if (l->print)
		tt_kprint_drain(dev, l);
	if (l->fast)
		return tt_fd_poll(dev, l->done_pos);
	ret = read_counter(dev, dev->runtime, &now);
	if (ret)
		return ret;
	return now - l->counter_base >= l->counts;
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
	ret = w->l->fast ? tt_fd_check(dev) : 0;
	return ret ? ret : tt_launch_report_faults(dev, w->l);
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
	if (ret == -ETIMEDOUT || ret == -EFAULT)
		tt_recover_mark(dev, l, ret);
	if (ret && l->fast)
		/* The dispatcher waits for workers that will not finish. */
		tt_fd_abandon(dev);
	if (l->print)
		tt_kprint_drain(dev, l);
	if (!ret)
		ret = tt_device_check_live(dev);
	return ret;
}
