// SPDX-License-Identifier: Apache-2.0
/*
 * One of two players bouncing a counter (the "ball") between two cores.
 * A throw writes the ball into the peer's ball word, then increments the
 * peer's semaphore; the peer waits for its semaphore to count the throw,
 * reads the ball, adds one and throws it back. The first player throws
 * 1, so after `rounds` rounds the first player holds 2 * rounds and the
 * second 2 * rounds - 1, and each semaphore counts `rounds`.
 *
 * Runtime args: peer NOC x, peer NOC y, rounds, first (1 for the player
 * who starts), semaphore id, result (L1 address, the same on both cores:
 * word 0 the ball, written by the peer; the kernel stores its semaphore's
 * final value in word 1 and the rounds played in word 2).
 */
#include "dataflow_api.h"

static void throw_ball(uint64_t peer_ball, uint64_t peer_sem, uint32_t ball)
{
	noc_inline_dw_write(peer_ball, ball);
	/* The ball must have landed before the peer is told it has. */
	noc_async_write_barrier();
	noc_semaphore_inc(peer_sem, 1);
	noc_async_atomic_barrier();
}

void kernel_main(void)
{
	uint32_t px = get_arg_val(0), py = get_arg_val(1);
	uint32_t rounds = get_arg_val(2), first = get_arg_val(3);
	uint32_t sem_addr = get_semaphore(get_arg_val(4));
	uint32_t result = get_arg_val(5);
	volatile uint32_t *sem = (volatile uint32_t *)sem_addr;
	volatile uint32_t *res = (volatile uint32_t *)result;
	uint64_t peer_ball = get_noc_addr(px, py, result);
	uint64_t peer_sem = get_noc_addr(px, py, sem_addr);
	uint32_t ball = 0, r;

	for (r = 1; r <= rounds; r++) {
		if (first)
			throw_ball(peer_ball, peer_sem, ball + 1);
		/* The peer's r-th throw. */
		noc_semaphore_wait(sem, r);
		ball = res[0];
		if (!first)
			throw_ball(peer_ball, peer_sem, ball + 1);
	}
	res[1] = *sem;
	res[2] = r - 1;
}
