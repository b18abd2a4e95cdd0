/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Running a program on cores (internal): the writes that start a program
 * (binaries, configuration and launch messages, hw/l1.h), carried out by
 * the host itself (slow dispatch) or by the dispatcher (fast dispatch,
 * fd.h), and the wait for the kernels to finish.
 *
 * The caller describes what each core runs (struct tt_launch_core);
 * tt_launch_start() uploads what the core does not hold yet and starts
 * the kernels, tt_launch_wait() waits for all of them while draining
 * their print rings, and reports a hart that faulted or a program that
 * did not finish in time with the cores, kernels and waypoints involved.
 */
#ifndef TT_LIB_LAUNCH_H
#define TT_LIB_LAUNCH_H

#include "hw/hart.h"
#include "hw/l1.h"
#include "hw/tensix.h"
#include "lib/device/internal.h"
#include "kprint_cores.h"
#include "lib/kbuild/kbuild.h"

struct tt_launch_hart {
	struct tt_kbinary *bin; /* NULL: nothing runs on this hart */
	const char *name; /* the kernel, for reports */
	unsigned kernel_id;
	unsigned noc; /* its default NOC */
	const uint32_t *rta, *crta; /* runtime arguments */
	unsigned rta_count, crta_count;
};

struct tt_launch_core {
	struct tt_xy logical; /* the host's name of the core */
	struct tt_xy noc; /* NOC 0 coordinates */
	struct tt_launch_hart hart[TT_TENSIX_HARTS];
	const struct tt_cb_config *cbs; /* TT_CB_COUNT entries; NULL if none */
	uint32_t cb_mask;
	uint32_t sem[TT_SEM_COUNT];
	uint32_t sem_mask;
};

/* One program run. */
struct tt_launch {
	const struct tt_launch_core *cores;
	unsigned ncores;
	unsigned program_id; /* tt_program_id(), for reports */
	/* Filled by tt_launch_start. */
	uint32_t seq; /* the launch word of every hart it starts */
	unsigned counts; /* completions to wait for: cores started */
	uint32_t counter_base; /* slow: completion counter before the start */
	uint32_t done_pos; /* fast: the dispatcher's completion to wait for */
	bool fast; /* run by the dispatcher (fd.h) */
	bool print; /* print rings are drained */
	bool cb_checks;
	struct tt_kprint_sel print_sel; /* the cores that print */
};

/* Upload and start, by fast dispatch unless TT_DISPATCH=slow; returns at
 * once. */
TT_HIDDEN int tt_launch_start(struct tt_device *dev, struct tt_launch *l);

struct tt_runtime;

/* The same with the runtime's lock held, in the mode asked for. */
TT_HIDDEN int tt_launch_start_locked(struct tt_device *dev,
				     struct tt_runtime *rt,
				     struct tt_launch *l, bool fast);

/* 1 if every kernel of l finished, 0 if not yet, < 0 on error. */
TT_HIDDEN int tt_launch_poll(struct tt_device *dev, struct tt_launch *l);

/*
 * Wait until every kernel of l finished (timeout_ms 0: no limit). A
 * faulted hart gives -EFAULT, a timeout -ETIMEDOUT, each with a report
 * naming the cores, kernels and waypoints; the message is also printed
 * to stderr in full when it does not fit tt_last_error().
 */
TT_HIDDEN int tt_launch_wait(struct tt_device *dev, struct tt_launch *l,
			     unsigned timeout_ms);

/* Forget what the device holds (after a reset, or at close). */
TT_HIDDEN void tt_runtime_destroy(struct tt_device *dev);
/* The runtime's close hook runs before memory/'s: a program still running
 * is waited for before its buffers go (tt_device_on_close). */
#define TT_DISPATCH_CLOSE_LEVEL 4

#endif /* TT_LIB_LAUNCH_H */
