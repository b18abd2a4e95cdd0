/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Replaying an unchanged launch (internal). A program run again with the
 * same kernels, arguments, CBs and semaphores on cores that hold what its
 * last run left makes the same writes as that run, but for the launch
 * sequence number. The plan keeps a description of the last launch's
 * input and, once two launches in a row had the same input, the writes
 * of the second; a third one with that input emits them again with its
 * own sequence number instead of comparing every core's state anew (as
 * TT-Metal keeps a program's dispatch commands).
 *
 * The description is by value (argument words, CB configurations, binary
 * hashes): runtime arguments may change in place between runs.
 */
#ifndef TT_LIB_LAUNCH_PLAN_H
#define TT_LIB_LAUNCH_PLAN_H

#include "lib/device/internal.h"
#include "launch.h"
#include "wbatch.h"

struct tt_launch_plan_write;

struct tt_launch_plan_bytes {
	uint8_t *p;
	size_t len, cap;
};

struct tt_launch_plan {
	bool valid; /* last describes the latest launch that succeeded */
	bool recorded; /* writes are those of a launch with input last */
	struct tt_launch_plan_bytes last, next; /* descriptions */
	struct tt_launch_plan_write *w; /* writes, or while recording new ones */
	unsigned nw, cap;
	struct tt_launch_plan_bytes data; /* their bytes */
	unsigned counts; /* tt_launch.counts of the recorded launch */
	/* While recording. */
	tt_wemit_fn inner;
	void *inner_ctx;
	uint32_t seq;
	bool rec_ok; /* every write so far recorded */
};

/* Describe the input of l (its flags set) and its notify target. */
/* 0, or -1 if out of memory. */
TT_HIDDEN int tt_launch_plan_describe(struct tt_launch_plan *p,
			       const struct tt_launch *l,
			       struct tt_xy notify_core, uint32_t notify_addr);

/* May l, just described, be replayed? */
TT_HIDDEN bool tt_launch_plan_replayable(const struct tt_launch_plan *p);

/* Emit the recorded writes with seq as every launch word. */
TT_HIDDEN int tt_launch_plan_replay(const struct tt_launch_plan *p, uint32_t seq,
			     tt_wemit_fn emit, void *ctx);

/* Record the writes of a launch started with seq; then, after it
 * succeeded, keep them if its input was the one before it too. */
TT_HIDDEN void tt_launch_plan_record_start(struct tt_launch_plan *p, uint32_t seq,
				    tt_wemit_fn emit, void *ctx);
TT_HIDDEN int tt_launch_plan_record_emit(void *plan, struct tt_xy a, struct tt_xy b,
				  uint32_t addr, const void *data,
				  uint32_t len);
TT_HIDDEN void tt_launch_plan_launched(struct tt_launch_plan *p, unsigned counts);

/* Forget everything (the cores' state is no longer known). */
TT_HIDDEN void tt_launch_plan_forget(struct tt_launch_plan *p);
TT_HIDDEN void tt_launch_plan_free(struct tt_launch_plan *p);

#endif /* TT_LIB_LAUNCH_PLAN_H */
