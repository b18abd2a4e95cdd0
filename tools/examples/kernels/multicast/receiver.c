// SPDX-License-Identifier: Apache-2.0
/*
 * Multicast receiver: tells the sender it is ready (an increment of the
 * sender's "ready" semaphore), waits until its own "valid" semaphore is
 * set, then proves it holds the block by storing a checksum of its words
 * (h = rotate_left(h, 5) ^ word, from 0) at `result`.
 *
 * Runtime args: sender NOC x, y, block (L1 address), bytes, ready
 * semaphore id, valid semaphore id, result (L1 address).
 */
#include "dataflow_api.h"

void kernel_main(void)
{
	uint32_t sx = get_arg_val(0), sy = get_arg_val(1);
	const volatile uint32_t *block =
		(const volatile uint32_t *)get_arg_val(2);
	uint32_t words = get_arg_val(3) / 4;
	uint32_t ready = get_semaphore(get_arg_val(4));
	volatile uint32_t *valid =
		(volatile uint32_t *)get_semaphore(get_arg_val(5));
	volatile uint32_t *result = (volatile uint32_t *)get_arg_val(6);
	uint32_t h = 0;

	noc_semaphore_inc(get_noc_addr(sx, sy, ready), 1);
	noc_async_atomic_barrier();
	noc_semaphore_wait(valid, 1);

	for (uint32_t i = 0; i < words; i++)
		h = (h << 5 | h >> 27) ^ block[i];
	*result = h;
}
