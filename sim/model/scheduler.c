// SPDX-License-Identifier: Apache-2.0
/*
 * The hart scheduler. Every state change of a hart happens under
 * sched->lock; a worker drops the lock only while it runs the hart.
 *
 * Waiting without lost wake-ups: a hart that waits counts itself in its
 * node's TT_HART_WAITERS and publishes the watched word, then passes a full
 * barrier and looks at the word once more. Every writer writes first,
 * passes a full barrier and looks second: other agents through
 * sim_event_after_write, sibling harts at the end of each turn (and chunk)
 * in which they stored (sim_sched_stores_settled; rv32.c). Either the
 * writer sees the waiter and wakes it, or the waiter sees the new value.
 * A sibling's store also looks at the watched range at once, without the
 * barrier: that is the prompt wake-up, the look at the turn's end the
 * guarantee. A hart publishes its wait, looks once more
 * and parks in one critical section, so a writer that holds the lock and
 * finds it RUNNING can leave it alone: its own look comes after the write.
 * Only a control event (TT_HART_WAKE, a control page) marks a running hart
 * `woken`, so that it does not park: wfi has no word to look at.
 */
#include "scheduler.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "device.h"
#include "doorbell.h"

#define QUANTUM 200000u /* instructions per turn */
#define NO_WORD UINT32_MAX

static uint32_t *hreg(struct sim_hart *h, unsigned reg)
{
	return sim_reg32(h->page, TT_HART_REG(h->index, reg));
}

static uint32_t *waiters(struct sim_hart *h)
{
	return sim_reg32(h->page, TT_HART_WAITERS);
}

static void publish(struct sim_hart *h, enum tt_hart_state st)
{
	__atomic_store_n(hreg(h, TT_HART_PC), h->cpu.pc, __ATOMIC_RELAXED);
	__atomic_store_n(hreg(h, TT_HART_INSTRET_LO), (uint32_t)h->cpu.instret,
			 __ATOMIC_RELAXED);
	__atomic_store_n(hreg(h, TT_HART_INSTRET_HI),
			 (uint32_t)(h->cpu.instret >> 32), __ATOMIC_RELAXED);
	__atomic_store_n(hreg(h, TT_HART_STATE), st, __ATOMIC_RELEASE);
}

/* ---- busy accounting ---- */

static bool busy_state(enum sim_hart_st st)
{
	return st == SIM_HART_RUNNABLE || st == SIM_HART_RUNNING;
}

/* Written under the lock; read without it by node_event()'s look. A
 * launch has hundreds of spells of a microsecond or two: the coarse
 * clock keeps their sum right at a fraction of the cost. */
static void set_state(struct sim_hart *h, enum sim_hart_st st)
{
	bool was = busy_state(h->st), now = busy_state(st);

	if (was && !now)
		h->busy_ns += sim_coarse_ns() - h->busy_since;
	else if (!was && now)
		h->busy_since = sim_coarse_ns();
	__atomic_store_n(&h->st, st, __ATOMIC_RELEASE);
}

/* ---- run queue ---- */

static void enqueue_locked(struct sim_sched *s, struct sim_hart *h)
{
	struct sim_runq *q = &s->q[h->home];

	set_state(h, SIM_HART_RUNNABLE);
	h->next = NULL;
	if (q->tail)
		q->tail->next = h;
	else
		q->head = h;
	q->tail = h;
	__atomic_store_n(&s->queued, s->queued + 1, __ATOMIC_RELAXED);
	publish(h, TT_HART_RUNNING);
	pthread_cond_signal(&s->work);
}

static void dequeue_locked(struct sim_sched *s, struct sim_hart *h)
{
	struct sim_runq *q = &s->q[h->home];
	struct sim_hart **pp = &q->head, *prev = NULL;

	while (*pp && *pp != h) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	if (!*pp)
		return;
	*pp = h->next;
	if (q->tail == h)
		q->tail = prev;
	h->next = NULL;
	__atomic_store_n(&s->queued, s->queued - 1, __ATOMIC_RELAXED);
}

/* The first hart of q, taken out; NULL if q is empty. */
static struct sim_hart *take_head_locked(struct sim_sched *s,
					 struct sim_runq *q)
{
	struct sim_hart *h = q->head;

	if (!h)
		return NULL;
	q->head = h->next;
	if (!q->head)
		q->tail = NULL;
	h->next = NULL;
	__atomic_store_n(&s->queued, s->queued - 1, __ATOMIC_RELAXED);
	return h;
}

/* The next hart for the thread of queue `self`: its own first. */
static struct sim_hart *pop_locked(struct sim_sched *s, unsigned self)
{
	for (unsigned i = 0; i < s->nq; i++) {
		struct sim_hart *h =
			take_head_locked(s, &s->q[(self + i) % s->nq]);

		if (h)
			return h;
	}
	return NULL;
}

/* ---- state changes ---- */

static bool in_fast_region(const struct sim_hart *h, uint32_t word)
{
	return word != NO_WORD && word - h->cpu.mem_base < h->cpu.mem_size;
}

/* The watched range of a node: every word one of its harts waits on in
 * node memory. Writers of the range keep it a superset of the truth at
 * every moment: grow hi before lo, shrink lo before hi. */
static void rewatch_locked(struct sim_sched *s, unsigned node_index)
{
	uint32_t *w = s->watch[node_index], lo = UINT32_MAX, hi = 0;

	for (unsigned i = 0; i < s->node_count[node_index]; i++) {
		struct sim_hart *o = &s->harts[s->node_first[node_index] + i];
		uint32_t word = __atomic_load_n(&o->wait_word, __ATOMIC_RELAXED);

		if (!in_fast_region(o, word))
			continue;
		lo = word < lo ? word : lo;
		hi = word + 4 > hi ? word + 4 : hi;
	}
	if (lo >= hi)
		lo = hi = 0;
	/* Through the union of old and new: grow (hi, then lo), then shrink
	 * (lo, then hi). */
	if (hi > w[1])
		__atomic_store_n(&w[1], hi, __ATOMIC_RELAXED);
	if (lo < w[0])
		__atomic_store_n(&w[0], lo, __ATOMIC_RELAXED);
	__atomic_store_n(&w[0], lo, __ATOMIC_RELAXED);
	__atomic_store_n(&w[1], hi, __ATOMIC_RELAXED);
}

static void leave_wait_locked(struct sim_hart *h)
{
	__atomic_store_n(&h->wait_word, NO_WORD, __ATOMIC_RELAXED);
	__atomic_fetch_sub(waiters(h), 1, __ATOMIC_SEQ_CST);
	h->wake_at = 0;
	rewatch_locked(&h->dev->sched, h->node_index);
}

static void wake_locked(struct sim_sched *s, struct sim_hart *h, bool control)
{
	if (h->st == SIM_HART_WAITING) {
		leave_wait_locked(h);
		enqueue_locked(s, h);
	} else if (h->st == SIM_HART_RUNNING && control) {
		h->woken = true;
	}
}

static void clear_fault(struct sim_hart *h)
{
	*hreg(h, TT_HART_FAULT_CAUSE) = TT_HART_FAULT_NONE;
	*hreg(h, TT_HART_FAULT_PC) = 0;
	*hreg(h, TT_HART_FAULT_ADDR) = 0;
}

/* Out of reset: architectural state as at power-on, pc = RESET_PC. The
 * decoded-instruction cache stays: it checks every word it uses. */
static void start_locked(struct sim_sched *s, struct sim_hart *h)
{
	memset(h->cpu.x, 0, sizeof(h->cpu.x));
	h->cpu.pc = __atomic_load_n(hreg(h, TT_HART_RESET_PC), __ATOMIC_ACQUIRE);
	h->cpu.instret = 0;
	h->woken = false;
	clear_fault(h);
	enqueue_locked(s, h);
}

static void hold_in_reset_locked(struct sim_sched *s, struct sim_hart *h)
{
	switch (h->st) {
	case SIM_HART_RESET:
		return;
	case SIM_HART_RUNNING:
		h->reset_req = true;
		__atomic_store_n(&h->stop, 1, __ATOMIC_RELEASE);
		return;
	case SIM_HART_RUNNABLE:
		dequeue_locked(s, h);
		break;
	case SIM_HART_WAITING:
		leave_wait_locked(h);
		break;
	case SIM_HART_HALTED:
		break;
	}
	set_state(h, SIM_HART_RESET);
	publish(h, TT_HART_IN_RESET);
}

static uint32_t *ctrl_reg(struct sim_sched *s, unsigned node_index,
			  unsigned off)
{
	struct sim_image *img = s->dev->img;

	return sim_reg32(sim_image_regs(img, &img->nodes[node_index],
					TT_REG_TILE_CTRL),
			 off);
}

/* Lines asserted now or pulsed since the last look put harts in reset;
 * lines released now let them start. */
static void follow_reset_lines_locked(struct sim_sched *s, unsigned node_index)
{
	uint32_t pulsed = __atomic_exchange_n(
		ctrl_reg(s, node_index, TT_TILE_SOFT_RESET_SEEN), 0,
		__ATOMIC_ACQ_REL);
	uint32_t lines = __atomic_load_n(
		ctrl_reg(s, node_index, TT_TILE_SOFT_RESET), __ATOMIC_ACQUIRE);

	for (unsigned i = 0; i < s->node_count[node_index]; i++) {
		struct sim_hart *h = &s->harts[s->node_first[node_index] + i];
		uint32_t bit = tt_hart_reset_bit(h->index);

		if ((lines | pulsed) & bit)
			hold_in_reset_locked(s, h);
		if (!(lines & bit) && h->st == SIM_HART_RESET && !h->reset_req &&
		    !s->paused)
			start_locked(s, h);
	}
}

/* Does word value v end a tt.waitge (ge) or tt.waitne on val? */
static bool ends_wait(uint32_t v, uint32_t val, bool ge)
{
	return ge ? (int32_t)(v - val) >= 0 : v != val;
}

/* Read the word a tt.waitne or tt.waitge watches, as the hart would: is
 * the wait over? */
static bool wait_over(struct sim_hart *h)
{
	uint32_t a = h->cpu.wait_addr, v;

	if (a - h->cpu.mem_base < h->cpu.mem_size - 3 && !(a % 4))
		v = __atomic_load_n((uint32_t *)(void *)(h->cpu.mem + (a -
						h->cpu.mem_base)),
				    __ATOMIC_SEQ_CST);
	else if (sim_hart_ops.load(&h->cpu, a, 4, &v) != RV32_CB_OK)
		return true; /* let the hart fault on its own re-read */
	return ends_wait(v, h->cpu.wait_val, h->cpu.wait_ge);
}

/* A hart whose wait on an L1 word is not over would only look and sleep
 * again: the event is not for it. If the word changes later, its writer
 * sends another event (the hart is still counted in WAITERS). */
static bool waits_on_same_l1_word(struct sim_hart *h)
{
	/* Each field read once: node_event() may look while h runs. */
	uint32_t word = __atomic_load_n(&h->wait_word, __ATOMIC_ACQUIRE);
	uint32_t addr = __atomic_load_n(&h->cpu.wait_addr, __ATOMIC_RELAXED);
	uint32_t val = __atomic_load_n(&h->cpu.wait_val, __ATOMIC_RELAXED);
	bool ge = __atomic_load_n(&h->cpu.wait_ge, __ATOMIC_RELAXED);
	uint32_t v;

	if (!in_fast_region(h, word) || addr != word)
		return false;
	v = __atomic_load_n((uint32_t *)(void *)(h->cpu.mem + (word -
						h->cpu.mem_base)),
			    __ATOMIC_SEQ_CST);
	return !ends_wait(v, val, ge);
}

/* Would a write's event change anything for the node's harts? Looked at
 * without the lock. No for a hart parked on an L1 word whose wait is not
 * over, and for one running that has not published a wait: its own look
 * after publishing sees the write, or this look sees the publication
 * (the header's protocol). A hart that leaves WAITING meanwhile was woken
 * by someone else and rereads its word when it runs. */
static bool wake_is_moot(struct sim_sched *s, unsigned node_index)
{
	for (unsigned i = 0; i < s->node_count[node_index]; i++) {
		struct sim_hart *h = &s->harts[s->node_first[node_index] + i];

		switch (__atomic_load_n(&h->st, __ATOMIC_ACQUIRE)) {
		case SIM_HART_WAITING:
			if (!waits_on_same_l1_word(h))
				return false;
			break;
		case SIM_HART_RUNNING:
			if (__atomic_load_n(&h->wait_word, __ATOMIC_ACQUIRE) !=
			    NO_WORD)
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

/* Wake the node's harts an event may concern. */
static void wake_node_locked(struct sim_sched *s, unsigned node_index,
			     bool control)
{
	for (unsigned i = 0; i < s->node_count[node_index]; i++) {
		struct sim_hart *h = &s->harts[s->node_first[node_index] + i];

		if (h->st != SIM_HART_WAITING || !waits_on_same_l1_word(h))
			wake_locked(s, h, control);
	}
}

static void node_event(struct sim_sched *s, unsigned node_index,
		       bool resets)
{
	unsigned nodes = s->dev->img->grid_x * s->dev->img->grid_y;

	if (node_index >= nodes || !s->node_count[node_index])
		return;
	if (!resets && wake_is_moot(s, node_index))
		return;
	pthread_mutex_lock(&s->lock);
	if (resets)
		follow_reset_lines_locked(s, node_index);
	wake_node_locked(s, node_index, resets);
	pthread_mutex_unlock(&s->lock);
}

void sim_sched_node_event(struct sim_sched *s, unsigned node_index)
{
	node_event(s, node_index, true);
}

void sim_sched_node_wake(struct sim_sched *s, unsigned node_index)
{
	node_event(s, node_index, false);
}

void sim_sched_follow_resets(struct sim_sched *s, unsigned node_index)
{
	unsigned nodes = s->dev->img->grid_x * s->dev->img->grid_y;

	if (node_index >= nodes || !s->node_count[node_index])
		return;
	pthread_mutex_lock(&s->lock);
	follow_reset_lines_locked(s, node_index);
	pthread_mutex_unlock(&s->lock);
}

void sim_sched_watched_store(struct sim_hart *h, uint32_t addr)
{
	struct sim_sched *s = &h->dev->sched;
	unsigned first = s->node_first[h->node_index];

	for (unsigned i = 0; i < s->node_count[h->node_index]; i++) {
		struct sim_hart *o = &s->harts[first + i];

		if (o == h || __atomic_load_n(&o->wait_word, __ATOMIC_RELAXED) !=
				      (addr & ~3u))
			continue;
		pthread_mutex_lock(&s->lock);
		wake_locked(s, o, false);
		pthread_mutex_unlock(&s->lock);
	}
}

/* Would o, parked or about to park on an L1 word, find its wait over?
 * Also yes when its fields are caught changing: the lock sorts it out. */
static bool l1_wait_may_be_over(struct sim_hart *o)
{
	uint32_t word = __atomic_load_n(&o->wait_word, __ATOMIC_ACQUIRE);

	return in_fast_region(o, word) && !waits_on_same_l1_word(o);
}

void sim_sched_stores_settled(struct sim_hart *h)
{
	struct sim_sched *s = &h->dev->sched;
	unsigned first = s->node_first[h->node_index];

	for (unsigned i = 0; i < s->node_count[h->node_index]; i++) {
		struct sim_hart *o = &s->harts[first + i];

		if (o == h || !l1_wait_may_be_over(o))
			continue;
		pthread_mutex_lock(&s->lock);
		if (o->st == SIM_HART_WAITING && !waits_on_same_l1_word(o))
			wake_locked(s, o, false);
		pthread_mutex_unlock(&s->lock);
	}
}

/* ---- after a turn ---- */

static uint64_t reg64(struct sim_hart *h, unsigned lo)
{
	return __atomic_load_n(hreg(h, lo), __ATOMIC_ACQUIRE) |
	       (uint64_t)__atomic_load_n(hreg(h, lo + 4), __ATOMIC_ACQUIRE)
		       << 32;
}

static void halt_locked(struct sim_hart *h)
{
	*hreg(h, TT_HART_FAULT_CAUSE) = h->cpu.fault_cause;
	*hreg(h, TT_HART_FAULT_PC) = h->cpu.pc;
	*hreg(h, TT_HART_FAULT_ADDR) = h->cpu.fault_addr;
	set_state(h, SIM_HART_HALTED);
	publish(h, TT_HART_HALTED);
	sim_irq_raise(h->dev->img->regs, TT_IRQ_HART_FAULT);
}

static bool out_of_budget(struct sim_hart *h)
{
	uint64_t budget = reg64(h, TT_HART_BUDGET_LO);

	return budget && h->cpu.instret >= budget;
}

/* Count in as a waiter and look once more; false: do not park. */
static bool prepare_wait_locked(struct sim_sched *s, struct sim_hart *h,
				bool cond)
{
	__atomic_store_n(&h->wait_word, cond ? h->cpu.wait_addr & ~3u : NO_WORD,
			 __ATOMIC_RELAXED);
	if (cond && in_fast_region(h, h->wait_word))
		rewatch_locked(s, h->node_index);
	__atomic_fetch_add(waiters(h), 1, __ATOMIC_SEQ_CST);
	if (!cond)
		return true;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!wait_over(h))
		return true;
	__atomic_store_n(&h->wait_word, NO_WORD, __ATOMIC_RELAXED);
	__atomic_fetch_sub(waiters(h), 1, __ATOMIC_SEQ_CST);
	return false;
}

static void park_locked(struct sim_sched *s, struct sim_hart *h)
{
	if (h->woken) {
		leave_wait_locked(h);
		enqueue_locked(s, h);
		return;
	}
	h->wake_at = reg64(h, TT_HART_WAKE_AT_LO);
	*hreg(h, TT_HART_WAIT_ADDR) = h->cpu.wait_addr;
	set_state(h, SIM_HART_WAITING);
	publish(h, TT_HART_WAITING);
	if (h->wake_at)
		pthread_cond_signal(&s->timer_cv);
}

static void after_turn_locked(struct sim_sched *s, struct sim_hart *h,
			      enum rv32_exit why, bool waiting)
{
	if (h->reset_req) {
		if (waiting)
			leave_wait_locked(h);
		h->reset_req = false;
		set_state(h, SIM_HART_RESET);
		publish(h, TT_HART_IN_RESET);
		follow_reset_lines_locked(s, h->node_index);
		return;
	}
	if (why == RV32_EXIT_FAULT) {
		halt_locked(h);
	} else if (why == RV32_EXIT_WFI || why == RV32_EXIT_WAIT) {
		if (waiting)
			park_locked(s, h);
		else
			enqueue_locked(s, h);
	} else if (out_of_budget(h)) {
		h->cpu.fault_cause = TT_HART_FAULT_RUNAWAY;
		h->cpu.fault_addr = 0;
		halt_locked(h);
	} else {
		enqueue_locked(s, h);
	}
}

static uint64_t turn_length(struct sim_sched *s, struct sim_hart *h)
{
	uint64_t budget = reg64(h, TT_HART_BUDGET_LO);

	if (budget && budget > h->cpu.instret && budget - h->cpu.instret < s->quantum)
		return budget - h->cpu.instret;
	if (budget && budget <= h->cpu.instret)
		return 1; /* the check after the turn halts it */
	return s->quantum;
}

/* How long an idle worker looks for work before it sleeps. Launches come
 * in bursts (a kernel finishing wakes the next one a few microseconds
 * later); a futex wake-up costs tens of microseconds in a VM, more than
 * the whole hand-over. Idle workers still sleep, so an idle device costs
 * no CPU. */
#define IDLE_SPIN_NS 200000u

/* Wait for a runnable hart or stop (called and returns with the lock). */
static void idle_wait_locked(struct sim_sched *s)
{
	uint64_t start = sim_mono_ns();

	pthread_mutex_unlock(&s->lock);
	for (unsigned spin = 1;; spin++) {
		if (__atomic_load_n(&s->queued, __ATOMIC_RELAXED) ||
		    __atomic_load_n(&s->stop, __ATOMIC_RELAXED)) {
			pthread_mutex_lock(&s->lock);
			return;
		}
		if (spin % 64 == 0) {
			if (sim_mono_ns() - start > IDLE_SPIN_NS)
				break;
			sched_yield();
		}
		sim_cpu_relax();
	}
	pthread_mutex_lock(&s->lock);
	if (!s->queued && !s->stop)
		pthread_cond_wait(&s->work, &s->lock);
}

/* Harts a thread takes from a queue at once: a launch wakes harts by
 * the hundred, and running a few one after the other takes the lock
 * twice for all of them, not for each. */
#define BATCH 4

/* h, just taken from its queue, and the harts right behind it, up to
 * BATCH while every thread has BATCH more to take: taking harts along
 * must not leave another thread idle. How many. */
static unsigned take_batch_locked(struct sim_sched *s, struct sim_hart *h,
				  struct sim_hart **batch)
{
	struct sim_runq *q = &s->q[h->home];
	unsigned n = 1;

	batch[0] = h;
	while (n < BATCH && q->head && s->queued >= s->nq * BATCH)
		batch[n++] = take_head_locked(s, q);
	return n;
}

static uint64_t start_turn_locked(struct sim_sched *s, struct sim_hart *h,
				  uint64_t max)
{
	uint64_t n = turn_length(s, h);

	set_state(h, SIM_HART_RUNNING);
	h->woken = false;
	h->stop = 0;
	s->running++;
	return n < max ? n : max;
}

static void end_turn_locked(struct sim_sched *s, struct sim_hart *h,
			    enum rv32_exit why)
{
	bool waiting = false;

	if (why == RV32_EXIT_WFI || why == RV32_EXIT_WAIT)
		waiting = prepare_wait_locked(s, h, why == RV32_EXIT_WAIT);
	s->running--;
	after_turn_locked(s, h, why, waiting);
}

/* One turn of h, just taken from the run queue, and of the harts queued
 * right behind it, of at most max instructions each; how
 * many turns. Called and returns with the lock held. A hart taken along
 * is RUNNING while it waits for its turn: events find it as they would
 * find it running, and a reset stops it before its first instruction. */
static unsigned run_turns_locked(struct sim_sched *s, struct sim_hart *h,
				 uint64_t max)
{
	struct sim_hart *batch[BATCH];
	enum rv32_exit why[BATCH];
	uint64_t len[BATCH];
	unsigned n = take_batch_locked(s, h, batch);

	for (unsigned i = 0; i < n; i++)
		len[i] = start_turn_locked(s, batch[i], max);
	pthread_mutex_unlock(&s->lock);
	for (unsigned i = 0; i < n; i++)
		why[i] = rv32_run(&batch[i]->cpu, len[i]);
	pthread_mutex_lock(&s->lock);
	for (unsigned i = 0; i < n; i++)
		end_turn_locked(s, batch[i], why[i]);
	if (!s->running)
		pthread_cond_broadcast(&s->idle);
	return n;
}

static void *worker_main(void *arg)
{
	struct sim_worker *w = arg;
	struct sim_sched *s = w->s;

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		struct sim_hart *h = s->paused ? NULL : pop_locked(s, w->queue);

		if (h)
			run_turns_locked(s, h, UINT64_MAX);
		else
			idle_wait_locked(s);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* Turns of a thread that assists are short: it looks at its word between
 * them. About 30 us each. */
#define ASSIST_QUANTUM 20000u

/* Run turns from the queue, one lock hold for all of them, until it is
 * empty, *word changes or ASSIST_BATCH turns are done; how many ran. */
#define ASSIST_BATCH 16u

static unsigned assist_turns(struct sim_sched *s, const uint32_t *word,
			     uint32_t seen)
{
	unsigned turns = 0, n;
	struct sim_hart *h;

	pthread_mutex_lock(&s->lock);
	while (turns < ASSIST_BATCH && !s->paused && !s->stop &&
	       __atomic_load_n(word, __ATOMIC_ACQUIRE) == seen &&
	       (h = pop_locked(s, s->nworkers)) != NULL) {
		n = run_turns_locked(s, h, ASSIST_QUANTUM);
		s->assisted += n;
		turns += n;
	}
	pthread_mutex_unlock(&s->lock);
	return turns;
}

int sim_sched_assist(struct sim_sched *s, const uint32_t *word, uint32_t seen,
		     uint64_t idle_ns, uint64_t deadline_ns)
{
	uint64_t idle_since = 0, now;

	if (!s->assist)
		return 0;
	for (unsigned spin = 1;; spin++) {
		unsigned turns = 0;

		if (__atomic_load_n(word, __ATOMIC_ACQUIRE) != seen)
			return 1;
		if (__atomic_load_n(&s->queued, __ATOMIC_RELAXED))
			turns = assist_turns(s, word, seen);
		if (turns) {
			idle_since = 0;
			if (sim_mono_ns() >= deadline_ns)
				return 0;
			continue;
		}
		if (spin % 64)
			continue;
		now = sim_mono_ns();
		if (!idle_since)
			idle_since = now;
		if (now - idle_since >= idle_ns || now >= deadline_ns ||
		    __atomic_load_n(&s->stop, __ATOMIC_RELAXED))
			return 0;
		sched_yield();
	}
}

/* ---- timers: WAKE_AT and the watchdog ---- */

static uint64_t timers_locked(struct sim_sched *s)
{
	uint64_t now = sim_device_time_us(s->dev), next = UINT64_MAX;

	for (unsigned i = 0; i < s->nharts; i++) {
		struct sim_hart *h = &s->harts[i];

		if (h->st != SIM_HART_WAITING)
			continue;
		if (!h->wake_at)
			continue;
		if (h->wake_at <= now)
			wake_locked(s, h, false);
		else if (h->wake_at < next)
			next = h->wake_at;
	}
	if (s->wdt_deadline && s->wdt_deadline <= now) {
		s->wdt_deadline = 0;
		s->wdt_fired = true;
		sim_doorbell_kick(s->dev->img->regs);
	} else if (s->wdt_deadline && s->wdt_deadline < next) {
		next = s->wdt_deadline;
	}
	return next == UINT64_MAX ? 0 : next - now;
}

static void *timer_main(void *arg)
{
	struct sim_sched *s = arg;

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		uint64_t wait_us = timers_locked(s);
		struct timespec ts;

		if (!wait_us) {
			pthread_cond_wait(&s->timer_cv, &s->lock);
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		wait_us += (uint64_t)ts.tv_nsec / 1000u;
		ts.tv_sec += (time_t)(wait_us / 1000000u);
		ts.tv_nsec = (long)(wait_us % 1000000u) * 1000;
		pthread_cond_timedwait(&s->timer_cv, &s->lock, &ts);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

void sim_sched_watchdog(struct sim_sched *s, uint32_t ms)
{
	pthread_mutex_lock(&s->lock);
	s->wdt_deadline = ms ? sim_device_time_us(s->dev) + ms * 1000ull : 0;
	pthread_cond_signal(&s->timer_cv);
	pthread_mutex_unlock(&s->lock);
}

bool sim_sched_watchdog_fired(struct sim_sched *s)
{
	bool fired;

	pthread_mutex_lock(&s->lock);
	fired = s->wdt_fired;
	s->wdt_fired = false;
	pthread_mutex_unlock(&s->lock);
	return fired;
}

/* ---- chip-wide ---- */

void sim_sched_pause_all(struct sim_sched *s)
{
	pthread_mutex_lock(&s->lock);
	s->paused = true;
	s->wdt_deadline = 0;
	for (unsigned i = 0; i < s->nharts; i++)
		hold_in_reset_locked(s, &s->harts[i]);
	while (s->running)
		pthread_cond_wait(&s->idle, &s->lock);
	for (unsigned i = 0; i < s->nharts; i++) {
		struct sim_hart *h = &s->harts[i];

		h->reset_req = false;
		if (h->st != SIM_HART_RESET) {
			set_state(h, SIM_HART_RESET);
			publish(h, TT_HART_IN_RESET);
		}
	}
	pthread_mutex_unlock(&s->lock);
}

void sim_sched_resume(struct sim_sched *s)
{
	pthread_mutex_lock(&s->lock);
	s->paused = false;
	for (unsigned n = 0; n < s->dev->img->grid_x * s->dev->img->grid_y; n++)
		if (s->node_count[n])
			follow_reset_lines_locked(s, n);
	pthread_cond_broadcast(&s->work);
	pthread_mutex_unlock(&s->lock);
}

uint64_t sim_sched_assisted_turns(struct sim_sched *s)
{
	uint64_t n;

	pthread_mutex_lock(&s->lock);
	n = s->assisted;
	pthread_mutex_unlock(&s->lock);
	return n;
}

uint64_t sim_sched_busy_ns(struct sim_sched *s)
{
	uint64_t now, total = 0;

	pthread_mutex_lock(&s->lock);
	now = sim_coarse_ns(); /* under the lock: no spell starts after it */
	for (unsigned i = 0; i < s->nharts; i++) {
		struct sim_hart *h = &s->harts[i];

		total += h->busy_ns;
		if (busy_state(h->st))
			total += now - h->busy_since;
	}
	pthread_mutex_unlock(&s->lock);
	return total;
}

/* ---- set-up ---- */

static unsigned hart_count(const struct tt_node_desc *n)
{
	if (n->flags & TT_NODE_F_HARVESTED)
		return 0;
	if (n->type == TT_NODE_TENSIX)
		return TT_TENSIX_HARTS;
	return n->type == TT_NODE_ARC ? TT_ARC_HARTS : 0;
}

static void init_hart(struct sim_sched *s, struct sim_hart *h,
		      struct tt_node_desc *n, unsigned index)
{
	struct sim_image *img = s->dev->img;

	rv32_init(&h->cpu, 0);
	h->cpu.mem = img->base + n->mem_off;
	h->cpu.mem_base = (uint32_t)n->mem_base;
	h->cpu.mem_size = (uint32_t)n->mem_size;
	h->cpu.ops = &sim_hart_ops;
	h->cpu.user = h;
	h->cpu.stop = &h->stop;
	h->dev = s->dev;
	h->node = n;
	h->page = sim_image_regs(img, n, TT_REG_HART);
	h->niu[0] = sim_image_regs(img, n, TT_REG_NIU0);
	h->niu[1] = sim_image_regs(img, n, TT_REG_NIU1);
	h->cpu.store_watch = s->watch[sim_image_node_index(img, n)];
	h->index = index;
	h->node_index = sim_image_node_index(img, n);
	h->home = h->node_index % s->nq;
	h->st = SIM_HART_RESET;
	h->wait_word = NO_WORD;
	*sim_reg32(h->page, TT_HART_COUNT) = hart_count(n);
	publish(h, TT_HART_IN_RESET);
}

static int make_harts(struct sim_sched *s, char *err)
{
	struct sim_image *img = s->dev->img;
	unsigned nodes = img->grid_x * img->grid_y, k = 0;

	for (unsigned i = 0; i < nodes; i++)
		s->nharts += hart_count(&img->nodes[i]);
	s->harts = calloc(s->nharts ? s->nharts : 1, sizeof(*s->harts));
	s->node_first = calloc(nodes, sizeof(unsigned));
	s->node_count = calloc(nodes, sizeof(unsigned));
	s->watch = calloc(nodes, sizeof(*s->watch));
	if (!s->harts || !s->node_first || !s->node_count || !s->watch) {
		snprintf(err, SIM_ERR_LEN, "out of memory for %u harts", s->nharts);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < nodes; i++) {
		struct tt_node_desc *n = &img->nodes[i];

		s->node_first[i] = k;
		s->node_count[i] = hart_count(n);
		for (unsigned h = 0; h < s->node_count[i]; h++)
			init_hart(s, &s->harts[k++], n, h);
	}
	return 0;
}

static unsigned default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > SIM_SCHED_MAX_WORKERS ? SIM_SCHED_MAX_WORKERS :
						       (unsigned)n;
}

static int start_threads(struct sim_sched *s, unsigned threads, char *err)
{
	int ret;

	ret = -pthread_create(&s->timer, NULL, timer_main, s);
	if (ret)
		goto fail;
	s->timer_started = true;
	for (s->nworkers = 0; s->nworkers < threads; s->nworkers++) {
		s->worker_args[s->nworkers] = (struct sim_worker){
			.s = s, .queue = s->nworkers };
		ret = -pthread_create(&s->workers[s->nworkers], NULL,
				      worker_main,
				      &s->worker_args[s->nworkers]);
		if (ret)
			goto fail;
	}
	return 0;
fail:
	snprintf(err, SIM_ERR_LEN, "cannot start hart threads: %s",
		 strerror(-ret));
	return ret;
}

int sim_sched_start(struct sim_sched *s, struct sim_device *dev,
		    unsigned threads, bool assist, char *err)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->dev = dev;
	s->quantum = QUANTUM;
	s->assist = assist;
	/* Held for short spells by every worker and every writer that wakes
	 * a hart: spinning a little beats a futex sleep and wake-up. */
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ADAPTIVE_NP);
	pthread_mutex_init(&s->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	pthread_cond_init(&s->work, NULL);
	pthread_cond_init(&s->idle, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->timer_cv, &ca);
	pthread_condattr_destroy(&ca);
	threads = threads ? threads : default_threads();
	s->nq = threads + assist;
	ret = make_harts(s, err);
	if (!ret)
		ret = start_threads(s, threads, err);
	if (ret)
		sim_sched_stop(s);
	return ret;
}

void sim_sched_stop(struct sim_sched *s)
{
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	for (unsigned i = 0; i < s->nharts; i++)
		__atomic_store_n(&s->harts[i].stop, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&s->work);
	pthread_cond_broadcast(&s->timer_cv);
	pthread_mutex_unlock(&s->lock);
	for (unsigned i = 0; i < s->nworkers; i++)
		pthread_join(s->workers[i], NULL);
	if (s->timer_started)
		pthread_join(s->timer, NULL);
	for (unsigned i = 0; i < s->nharts; i++)
		rv32_fini(&s->harts[i].cpu);
	free(s->harts);
	free(s->node_first);
	free(s->node_count);
	free(s->watch);
	pthread_cond_destroy(&s->timer_cv);
	pthread_cond_destroy(&s->idle);
	pthread_cond_destroy(&s->work);
	pthread_mutex_destroy(&s->lock);
}
