// SPDX-License-Identifier: Apache-2.0
/*
 * Multicast sender: reads a block from DRAM into its L1, waits until
 * every receiver has said it is ready (each increments the sender's
 * "ready" semaphore), then writes the block to the same L1 address of
 * every core of a rectangle in one multicast, and finally multicasts its
 * "valid" semaphore, set to 1, to the receivers' "valid" semaphores.
 *
 * Runtime args: src (DRAM buffer address, one page of `bytes`), block
 * (L1 address, the same on every core), bytes, rectangle NOC x0, y0, x1,
 * y1, receivers, ready semaphore id, valid semaphore id.
 */
#include "dataflow_api.h"

void kernel_main(void)
{
	uint32_t src = get_arg_val(0), block = get_arg_val(1);
	uint32_t bytes = get_arg_val(2);
	uint32_t x0 = get_arg_val(3), y0 = get_arg_val(4);
	uint32_t x1 = get_arg_val(5), y1 = get_arg_val(6);
	uint32_t receivers = get_arg_val(7);
	volatile uint32_t *ready =
		(volatile uint32_t *)get_semaphore(get_arg_val(8));
	uint32_t valid = get_semaphore(get_arg_val(9));
	const InterleavedAddrGen dram = {
		.bank_base_address = src,
		.page_size = bytes,
		.is_dram = true,
	};

	/* The same local address on every core of the rectangle. */
	uint64_t block_dests = get_noc_multicast_addr(x0, y0, x1, y1, block);
	uint64_t valid_dests = get_noc_multicast_addr(x0, y0, x1, y1, valid);

	noc_async_read_page(0, dram, block);
	noc_async_read_barrier();

	/* Overwrite nobody's block before it is ready for it. */
	noc_semaphore_wait(ready, receivers);
	noc_async_write_multicast(block, block_dests, bytes, receivers);
	/* The block must have arrived before the receivers are told. */
	noc_async_write_barrier();

	noc_semaphore_set((volatile uint32_t *)valid, 1);
	noc_semaphore_set_multicast(valid, valid_dests, receivers);
	noc_async_write_barrier();
}
