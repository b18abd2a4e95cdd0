// SPDX-License-Identifier: Apache-2.0
#include "launch_report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kprint.h"
#include "runtime.h"
#include "tt/hart.h"
#include "tt/noc.h"

/* A report grows line by line; tt_last_error() gets as much as fits and
 * the whole of it also goes to stderr when it does not. */
struct report {
	char text[4096];
	size_t len;
	unsigned lines;
	bool truncated;
};

static void __attribute__((format(printf, 2, 3)))
add(struct report *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->len >= sizeof(r->text) - 1) {
		r->truncated = true;
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(r->text + r->len, sizeof(r->text) - r->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(r->text) - r->len) {
		r->len = sizeof(r->text) - 1;
		r->truncated = true;
	} else {
		r->len += (size_t)n;
	}
}

static int finish(struct report *r, int code)
{
	if (r->truncated)
		fprintf(stderr, "%s\n", r->text);
	return tt_error(code, "%s", r->text);
}

static void waypoint_str(uint32_t w, char out[5])
{
	for (int i = 0; i < 4; i++) {
		char ch = (char)(w >> (8 * i));

		out[i] = ch >= 0x20 && ch < 0x7F ? ch : '.';
	}
	out[4] = 0;
	if (!w)
		strcpy(out, "none");
}

/* Waypoints of a kernel asleep in a circular-buffer wait (kcb.c). */
static bool cb_wait(const char *wp)
{
	return !strcmp(wp, "CRBW") || !strcmp(wp, "CWFW");
}

/* One line on a kernel: where, what, and its last words. True if it
 * waits on a circular buffer. */
static bool describe(struct tt_device *dev, struct report *r,
		     const struct tt_launch *l,
		     const struct tt_launch_core *c, unsigned h,
		     const struct tt_hart_status *st)
{
	const struct tt_launch_hart *k = &c->hart[h];
	char wp[5], last[160];
	uint32_t w = 0;

	tt_noc_read32(dev, 0, c->noc.x, c->noc.y,
		      TT_L1_MAILBOX_ADDR(h) + offsetof(struct tt_mailbox,
						       waypoint),
		      &w);
	waypoint_str(w, wp);
	tt_kprint_peek(dev, c->noc, h, last, sizeof(last));
	add(r, "\n  core (%u,%u) [NOC (%u,%u)] %s program %u kernel '%s' (id %u): ",
	    c->logical.x, c->logical.y, c->noc.x, c->noc.y,
	    tt_hart_name(h), l->program_id, k->name ? k->name : "?",
	    k->kernel_id);
	if (st->fault)
		add(r, "%s at pc 0x%x (address 0x%x)", st->fault_name,
		    st->fault_pc, st->fault_addr);
	else
		add(r, "%s at pc 0x%x", st->state_name, st->pc);
	add(r, ", waypoint %s", wp);
	if (last[0])
		add(r, "; it said: \"%s\"", last);
	r->lines++;
	return cb_wait(wp);
}

/* Whether the halted hart h of c halted in launch l: l's start word
 * reached it (its launch word is l's seq) and it had not finished l
 * (done.seq differs). Anything else is an older fault. A hart that halted
 * before l's start word was written is kept out by the launch itself: l
 * starts only harts seen idle (learn_seqs) or left idle by this runtime's
 * last launch, and a failed launch marks its cores for recovery. */
static bool halted_in(struct tt_device *dev, const struct tt_launch *l,
		      const struct tt_launch_core *c, unsigned h,
		      uint32_t *launch, uint32_t *done)
{
	*launch = *done = 0;
	tt_noc_read32(dev, 0, c->noc.x, c->noc.y, TT_L1_LAUNCH_SEQ(h), launch);
	tt_noc_read32(dev, 0, c->noc.x, c->noc.y,
		      TT_L1_MAILBOX_ADDR(h) +
			      offsetof(struct tt_mailbox, done.seq),
		      done);
	return *launch == l->seq && *done != l->seq;
}

int tt_launch_report_faults(struct tt_device *dev, const struct tt_launch *l)
{
	struct report r = { .len = 0 };

	for (unsigned i = 0; i < l->ncores; i++) {
		const struct tt_launch_core *c = &l->cores[i];

		for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
			struct tt_hart_status st;
			uint32_t launch, done;
			bool ours;

			if (!c->hart[h].bin ||
			    tt_hart_status(dev, c->noc, h, &st) ||
			    st.state != TT_HART_STATE_HALTED)
				continue;
			ours = halted_in(dev, l, c, h, &launch, &done);
			if (!r.lines)
				add(&r, "%s: program %u failed: a kernel halted",
				    dev->name, l->program_id);
			describe(dev, &r, l, c, h, &st);
			if (!ours)
				add(&r, " -- left over from an earlier launch (launch word %u, done %u; this launch is %u), not this program's",
				    launch, done, l->seq);
		}
	}
	if (!r.lines)
		return 0;
	add(&r, "\n  (the cores are recovered at their next launch)");
	return finish(&r, -EFAULT);
}

static bool hart_done(struct tt_device *dev, const struct tt_launch_core *c,
		      unsigned h)
{
	struct tt_core_state *cs = tt_runtime_core(dev->runtime, c->noc);
	uint32_t done;

	if (!cs || tt_noc_read32(dev, 0, c->noc.x, c->noc.y,
				 TT_L1_MAILBOX_ADDR(h) +
					 offsetof(struct tt_mailbox, done.seq),
				 &done))
		return false;
	return done == cs->next_seq[h] - 1;
}

int tt_launch_report_hang(struct tt_device *dev, const struct tt_launch *l,
			  unsigned timeout_ms)
{
	struct report r = { .len = 0 };
	unsigned stuck = 0, cb_waits = 0;

	add(&r, "%s: program %u did not finish within %u ms; still running:",
	    dev->name, l->program_id, timeout_ms);
	for (unsigned i = 0; i < l->ncores; i++) {
		const struct tt_launch_core *c = &l->cores[i];

		for (unsigned h = 0; h < TT_TENSIX_HARTS; h++) {
			struct tt_hart_status st;

			if (!c->hart[h].bin || hart_done(dev, c, h))
				continue;
			stuck++;
			if (tt_hart_status(dev, c->noc, h, &st))
				memset(&st, 0, sizeof(st));
			if (!st.state_name)
				st.state_name = "unknown";
			cb_waits += describe(dev, &r, l, c, h, &st);
		}
	}
	add(&r, "\n  %u kernel(s) did not finish", stuck);
	/* A CB wait that never ends is often a CB misused on either side;
	 * the checks would have said which call (docs/kernels.md). */
	if (cb_waits && !tt_kprint_cb_checks())
		add(&r, "\n  %u of them wait on a circular buffer (waypoint CRBW or CWFW): run again with TT_CB_CHECKS=1 to have every CB call checked for misuse",
		    cb_waits);
	return finish(&r, -ETIMEDOUT);
}
