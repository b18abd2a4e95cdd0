/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Harts and the scheduler that runs them (hw/hart.h).
 *
 * A pool of worker threads takes runnable harts from one queue and runs
 * each for a quantum. A hart that waits (wfi, tt.waitne) leaves the queue
 * and costs nothing until an event on its node, its timer (WAKE_AT) or a
 * reset line brings it back. A timer thread serves WAKE_AT and the
 * management watchdog. With one worker the order in which harts run
 * depends only on the order of events: the deterministic mode.
 *
 * Lock order: sched->lock, then nothing else (callbacks that need the
 * image take no locks).
 */
#ifndef TT_SIM_SCHEDULER_H
#define TT_SIM_SCHEDULER_H

#include <pthread.h>
#include <stdbool.h>

#include "rv32.h"

struct sim_device;

enum sim_hart_st {
	SIM_HART_RESET,
	SIM_HART_RUNNABLE, /* in the run queue */
	SIM_HART_RUNNING, /* a worker is inside rv32_run for it */
	SIM_HART_WAITING,
	SIM_HART_HALTED,
};

struct sim_hart {
	struct rv32_hart cpu;
	struct sim_device *dev;
	struct tt_node_desc *node;
	uint8_t *page; /* the node's hart page, in the image */
	uint8_t *niu[2]; /* the node's NIU pages, or NULL (hart.c) */
	unsigned index; /* on its node */
	unsigned node_index;
	/* Under sched->lock. */
	enum sim_hart_st st;
	bool woken; /* an event came while RUNNING */
	bool reset_req; /* reset line asserted while RUNNING */
	uint64_t wake_at; /* device us; 0 = none */
	uint64_t busy_ns; /* time spent runnable or running, ended spells */
	uint64_t busy_since; /* start of the current spell (ns) */
	struct sim_hart *next; /* run queue */
	unsigned home; /* the run queue it joins (scheduler.c) */
	/* Address a cond-waiter watches (relaxed atomics: read by siblings'
	 * store callbacks without the lock). UINT32_MAX = none. */
	uint32_t wait_word;
	int stop; /* non-zero: rv32_run returns soon */
};

#define SIM_SCHED_MAX_WORKERS 64

struct sim_runq {
	struct sim_hart *head, *tail;
};

struct sim_worker {
	struct sim_sched *s;
	unsigned queue; /* its own run queue */
};

struct sim_sched {
	struct sim_device *dev;
	pthread_mutex_t lock;
	pthread_cond_t work; /* a hart became runnable, or stop */
	pthread_cond_t idle; /* no hart is running */
	pthread_cond_t timer_cv; /* a new deadline, or stop */
	/* One run queue per worker, and one for assisting threads: a hart
	 * joins its node's queue, whose thread keeps the node's memory in
	 * its caches; a thread whose queue is empty takes from the others. */
	struct sim_runq q[SIM_SCHED_MAX_WORKERS + 1];
	unsigned nq;
	unsigned queued; /* harts in all queues (read without the lock) */
	unsigned running;
	bool stop;
	bool paused; /* chip reset in progress: workers take nothing */
	uint64_t quantum;

	struct sim_hart *harts;
	unsigned nharts;
	/* Per node index: first hart and count (0 = no harts). */
	unsigned *node_first, *node_count;
	/* Per node index: {lo, hi}, the words its harts' tt.waitne watch in
	 * node memory (the harts' store_watch; written under the lock). */
	uint32_t (*watch)[2];

	uint64_t wdt_deadline; /* device us; 0 = watchdog off */
	bool wdt_fired;

	unsigned nworkers;
	bool assist; /* waiting threads may run harts (sim_sched_assist) */
	uint64_t assisted; /* turns they ran (under the lock) */
	pthread_t workers[SIM_SCHED_MAX_WORKERS];
	struct sim_worker worker_args[SIM_SCHED_MAX_WORKERS];
	pthread_t timer;
	bool timer_started;
};

/*
 * Create the harts of every enabled Tensix node and of the ARC node, all
 * in reset, and start `threads` workers (0: one per online CPU). With
 * `assist`, sim_sched_assist lends waiting threads to the harts.
 */
int sim_sched_start(struct sim_sched *s, struct sim_device *dev,
		    unsigned threads, bool assist, char *err);
void sim_sched_stop(struct sim_sched *s);

/* An event on a node: follow its reset lines, wake its waiting harts. */
void sim_sched_node_event(struct sim_sched *s, unsigned node_index);

/* An event on a node from a write that cannot change its reset lines
 * (memory, NIU, CB counters): wake its waiting harts only. */
void sim_sched_node_wake(struct sim_sched *s, unsigned node_index);

/* Follow a node's reset lines only (its own hart changed them). */
void sim_sched_follow_resets(struct sim_sched *s, unsigned node_index);

/*
 * Lend the calling thread to the harts while it waits for *word to differ
 * from seen: it runs runnable harts, a short turn at a time, and looks at
 * the word between turns. Returns 1 once the word changed, 0 when no hart
 * was runnable for idle_ns, at deadline_ns (CLOCK_MONOTONIC) or at once if
 * the scheduler was started without `assist`: the caller then sleeps as
 * it would have.
 */
int sim_sched_assist(struct sim_sched *s, const uint32_t *word, uint32_t seen,
		     uint64_t idle_ns, uint64_t deadline_ns);

/* Turns run by waiting threads so far. */
uint64_t sim_sched_assisted_turns(struct sim_sched *s);

/* Stop taking harts and wait until none runs; every hart is put in reset.
 * sim_sched_resume lets the workers go on. */
void sim_sched_pause_all(struct sim_sched *s);
void sim_sched_resume(struct sim_sched *s);

/* Arm (ms > 0) or disarm the watchdog, counting from now. */
void sim_sched_watchdog(struct sim_sched *s, uint32_t ms);
/* True once if the watchdog expired since the last call. */
bool sim_sched_watchdog_fired(struct sim_sched *s);

/* Sum of busy time of every hart so far, in ns. */
uint64_t sim_sched_busy_ns(struct sim_sched *s);

/* A hart store to its fast region hit a watched word: wake siblings. */
void sim_sched_watched_store(struct sim_hart *h, uint32_t addr);

/* After a full barrier that ends h's stores of a turn or chunk: wake the
 * siblings whose L1 wait they ended and whose publication their own look
 * at the watched range missed (rv32.h, stores_settled). */
void sim_sched_stores_settled(struct sim_hart *h);

/* Hart callbacks (hart.c). */
extern const struct rv32_ops sim_hart_ops;

#endif /* TT_SIM_SCHEDULER_H */
