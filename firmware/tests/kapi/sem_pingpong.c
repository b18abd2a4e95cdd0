// SPDX-License-Identifier: Apache-2.0
/*
 * Semaphore ping-pong between two cores. Args: peer x, y, rounds, role
 * (0 pings first), result address. Each round: role 0 increments the
 * peer's semaphore 0 and waits for its own to reach the round; role 1
 * waits, then answers. At the end role 0 sets the peer's semaphore 2 to
 * 0xABCD from a word of its L1, which role 1 waits for. The result is
 * semaphore 0's final value and the rounds done.
 */
#include "dataflow_api.h"

static uint32_t final_word = 0xABCD;

void kernel_main(void)
{
	uint32_t px = get_arg_val(0), py = get_arg_val(1);
	uint32_t rounds = get_arg_val(2), role = get_arg_val(3);
	volatile uint32_t *out = (volatile uint32_t *)get_arg_val(4);
	volatile uint32_t *sem = (volatile uint32_t *)get_semaphore(0);
	uint64_t peer = get_noc_addr(px, py, get_semaphore(0));
	uint32_t r;

	for (r = 0; r < rounds; r++) {
		if (role == 0) {
			noc_semaphore_inc(peer, 1);
			noc_async_atomic_barrier();
			noc_semaphore_wait(sem, r + 1);
		} else {
			noc_semaphore_wait_min(sem, r + 1);
			noc_semaphore_inc(peer, 1);
			noc_async_atomic_barrier();
		}
	}
	if (role == 0) {
		noc_semaphore_set_remote((uint32_t)(uintptr_t)&final_word,
					 get_noc_addr(px, py, get_semaphore(2)));
		noc_async_write_barrier();
	} else {
		noc_semaphore_wait((volatile uint32_t *)get_semaphore(2),
				   0xABCD);
		noc_semaphore_set((volatile uint32_t *)get_semaphore(2), 7);
	}
	out[0] = *sem;
	out[1] = r;
}
