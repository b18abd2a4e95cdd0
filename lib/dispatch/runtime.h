/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What libtt knows about the program state of a device's cores (internal):
 * which kernel binary each slot holds, whether the bank table is there,
 * the next launch sequence number of each hart. Valid for one chip reset
 * generation; a reset (or anything that makes it doubtful) clears it.
 */
#ifndef TT_LIB_RUNTIME_H
#define TT_LIB_RUNTIME_H

#include "hw/hart.h"
#include "lib/device/internal.h"
#include "launch.h"
#include "launch_plan.h"
#include "recover.h"

struct tt_core_state {
	uint8_t slot_hash[TT_TENSIX_HARTS][32]; /* all zero: unknown */
	bool banks; /* bank table written */
	bool seq_known; /* its mailboxes were read */
	uint32_t next_seq[TT_TENSIX_HARTS]; /* last launch word written + 1 */
	/* What the last launch wrote to the program area from TT_L1_PROG
	 * (contexts, semaphores, CB table) and to each launch message after
	 * seq; prog_len 0: unknown. A launch that would write the same
	 * bytes again writes only what kernels may change (semaphores). */
	uint16_t prog_len;
	uint8_t prog[0x200 + TT_CB_COUNT * sizeof(struct tt_cb_config)];
	bool msg_known[TT_TENSIX_HARTS];
	struct tt_launch_msg msg[TT_TENSIX_HARTS];
};

/* The program a device runs now (one at a time), started by a queue and
 * not yet waited for. */
struct tt_inflight {
	bool active;
	struct tt_launch launch;
	struct tt_launch_core *cores; /* owned */
	struct tt_command_queue *cq;
	uint64_t seq; /* its command number on cq */
};

struct tt_runtime {
	pthread_mutex_t lock; /* one launch at a time per device */
	/* Command queues (cq.c): created on first use; cq_lock serialises
	 * every queue operation of the device. */
	pthread_mutex_t cq_lock;
	struct tt_command_queue *cqs[2];
	struct tt_inflight inflight;
	uint32_t reset_gen; /* dev->reset_gen the state is valid for */
	unsigned grid_x, grid_y;
	struct tt_core_state *cores; /* grid_x * grid_y, by NOC 0 (x, y) */
	struct tt_xy counter_core; /* slow dispatch's completion counter */
	/* The seq of the latest launch: every launch gets a new one
	 * on all its harts, so the same start words can be multicast. */
	uint32_t last_seq;
	struct tt_fd *fd; /* fast dispatch (fd.h); NULL until first used */
	struct tt_launch_plan plan; /* valid while cores is */
	/* Cores a failed program left busy, as cores (recover.h); kept
	 * when the rest is forgotten, cleared by a chip reset. */
	struct tt_core_failure *failures;
	/* This handle took the chip over (tt_device_own): a core it finds
	 * busy was left so by an earlier owner and is recovered. */
	bool adopt;
};

/* The device's runtime state, created on first use; NULL (message set)
 * if out of memory. */
TT_HIDDEN struct tt_runtime *tt_runtime_get(struct tt_device *dev);

/* State of the core at NOC 0 (x, y). */
TT_HIDDEN struct tt_core_state *tt_runtime_core(struct tt_runtime *rt,
						struct tt_xy noc);

/* Drop everything known (binaries, sequence numbers). */
TT_HIDDEN void tt_runtime_forget(struct tt_runtime *rt);

#endif /* TT_LIB_RUNTIME_H */
