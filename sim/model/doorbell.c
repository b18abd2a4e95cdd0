// SPDX-License-Identifier: Apache-2.0
#include "doorbell.h"

#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Shared (not FUTEX_PRIVATE) operations: waiters may be other processes. */
static int futex_wait(uint32_t *word, uint32_t val, int timeout_ms)
{
	struct timespec ts, *tsp = NULL;

	if (timeout_ms >= 0) {
		ts.tv_sec = timeout_ms / 1000;
		ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
		tsp = &ts;
	}
	if (syscall(SYS_futex, word, FUTEX_WAIT, val, tsp, NULL, 0) < 0)
		return -errno;
	return 0;
}

static void futex_wake_all(uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE, __INT32_MAX__, NULL, NULL, 0);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* How long a waiter spins before it sleeps. Work tends to come in bursts
 * (a host issuing commands back to back); a futex wake-up costs tens of
 * microseconds, which would dominate short transfers. Idle waiters still
 * sleep after this, so an idle device costs no CPU. */
#define SPIN_NS 1000000u

/*
 * Wait for *word != seen. A sleeper counts itself in *sleepers before its
 * last look at *word, and a ringer changes *word before it looks at
 * *sleepers (both sequentially consistent): either the ringer sees the
 * sleeper and wakes it, or the sleeper sees the new value.
 */
static int wait_change(uint32_t *word, uint32_t *sleepers, uint32_t seen,
		       int timeout_ms)
{
	uint64_t start = now_ns();
	unsigned spin;
	int ret;

	for (spin = 0;; spin++) {
		if (__atomic_load_n(word, __ATOMIC_ACQUIRE) != seen)
			return 0;
		if (spin % 64 == 63) {
			if (now_ns() - start > SPIN_NS)
				break;
			/* Let the agent we wait for run if CPUs are short. */
			sched_yield();
		}
		sim_cpu_relax();
	}
	__atomic_fetch_add(sleepers, 1, __ATOMIC_SEQ_CST);
	for (;;) {
		if (__atomic_load_n(word, __ATOMIC_SEQ_CST) != seen) {
			ret = 0;
			break;
		}
		ret = futex_wait(word, seen, timeout_ms);
		if (ret == -ETIMEDOUT) {
			ret = __atomic_load_n(word, __ATOMIC_SEQ_CST) != seen ?
				      0 :
				      -ETIMEDOUT;
			break;
		}
	}
	__atomic_fetch_sub(sleepers, 1, __ATOMIC_SEQ_CST);
	return ret;
}

/* Advance a sequence word and wake its sleepers, if any. */
static void bump(uint32_t *word, uint32_t *sleepers)
{
	__atomic_fetch_add(word, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(sleepers, __ATOMIC_SEQ_CST))
		futex_wake_all(word);
}

void sim_doorbell_ring(struct tt_host_regs *r, unsigned index)
{
	if (index >= TT_DOORBELL_WORDS * 32)
		return;
	__atomic_fetch_or(&r->doorbell_pending[index / 32], 1u << (index % 32),
			  __ATOMIC_RELEASE);
	sim_doorbell_kick(r);
}

void sim_event_ring(struct tt_host_regs *r, unsigned index)
{
	if (index >= TT_EVENT_WORDS * 32)
		return;
	__atomic_fetch_or(&r->event_pending[index / 32], 1u << (index % 32),
			  __ATOMIC_RELEASE);
	sim_doorbell_kick(r);
}

uint32_t sim_event_take(struct tt_host_regs *r, unsigned w)
{
	return __atomic_exchange_n(&r->event_pending[w], 0, __ATOMIC_ACQUIRE);
}

void sim_control_ring(struct tt_host_regs *r, unsigned index)
{
	if (index >= TT_EVENT_WORDS * 32)
		return;
	__atomic_fetch_or(&r->control_pending[index / 32], 1u << (index % 32),
			  __ATOMIC_RELEASE);
	sim_doorbell_kick(r);
}

uint32_t sim_control_take(struct tt_host_regs *r, unsigned w)
{
	return __atomic_exchange_n(&r->control_pending[w], 0, __ATOMIC_ACQUIRE);
}

void sim_doorbell_kick(struct tt_host_regs *r)
{
	bump(&r->doorbell_seq, &r->doorbell_sleepers);
}

uint32_t sim_doorbell_take(struct tt_host_regs *r, unsigned w)
{
	return __atomic_exchange_n(&r->doorbell_pending[w], 0, __ATOMIC_ACQUIRE);
}

uint32_t sim_doorbell_seq(struct tt_host_regs *r)
{
	return __atomic_load_n(&r->doorbell_seq, __ATOMIC_ACQUIRE);
}

int sim_doorbell_wait(struct tt_host_regs *r, uint32_t seen, int timeout_ms)
{
	return wait_change(&r->doorbell_seq, &r->doorbell_sleepers, seen,
			   timeout_ms);
}

void sim_irq_raise(struct tt_host_regs *r, uint32_t causes)
{
	__atomic_fetch_or(&r->irq_status, causes, __ATOMIC_RELEASE);
	bump(&r->irq_seq, &r->irq_sleepers);
}

uint32_t sim_irq_seq(struct tt_host_regs *r)
{
	return __atomic_load_n(&r->irq_seq, __ATOMIC_ACQUIRE);
}

int sim_irq_wait(struct tt_host_regs *r, uint32_t seen, int timeout_ms)
{
	return wait_change(&r->irq_seq, &r->irq_sleepers, seen, timeout_ms);
}
