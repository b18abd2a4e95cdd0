// SPDX-License-Identifier: Apache-2.0
/*
 * Multicast to a rectangle (NOC 0 coordinates). Args: x_start, y_start,
 * x_end, y_end, source L1, destination address, bytes, loopback (include
 * the sender), NOC (2: the default), number of destinations. Then the
 * word 0x5E0000 + number of destinations goes to semaphore 1 of the same
 * cores the same way.
 */
#include "dataflow_api.h"

static uint32_t sem_value;

void kernel_main(void)
{
	uint32_t xs = get_arg_val(0), ys = get_arg_val(1);
	uint32_t xe = get_arg_val(2), ye = get_arg_val(3);
	uint32_t src = get_arg_val(4), dst = get_arg_val(5);
	uint32_t len = get_arg_val(6), loopback = get_arg_val(7);
	uint32_t noc = get_arg_val(8), ndest = get_arg_val(9);
	uint64_t data = get_noc_multicast_addr(xs, ys, xe, ye, dst);
	uint64_t sem = get_noc_multicast_addr(xs, ys, xe, ye, get_semaphore(1),
					      noc_index);
	uint32_t word = (uint32_t)(uintptr_t)&sem_value;

	sem_value = 0x5E0000 + ndest;
	if (noc == 2) {
		if (loopback) {
			noc_async_write_multicast_loopback_src(src, data, len,
							       ndest);
			noc_semaphore_set_multicast_loopback_src(word, sem,
								 ndest);
		} else {
			noc_async_write_multicast(src, data, len, ndest);
			noc_semaphore_set_multicast(word, sem, ndest);
		}
		noc_async_write_barrier();
		return;
	}
	if (loopback) {
		noc_async_write_multicast_loopback_src(src, data, len, ndest,
						       false, noc);
		noc_semaphore_set_multicast_loopback_src(word, sem, ndest,
							 false, noc);
	} else {
		noc_async_write_multicast(src, data, len, ndest, false, noc);
		noc_semaphore_set_multicast(word, sem, ndest, false, noc);
	}
	noc_async_write_barrier(noc);
}
