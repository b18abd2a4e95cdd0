// SPDX-License-Identifier: Apache-2.0
/*
 * Reader of c = a + b: tiles first .. first + n - 1 of the DRAM buffers a
 * and b go to CB 0 and CB 1, one tile per page, as the compute kernel
 * makes room for them.
 *
 * Runtime args: a, b (DRAM buffer addresses), first tile, tiles.
 */
#include "dataflow_api.h"

#define CB_A 0
#define CB_B 1

void kernel_main(void)
{
	uint32_t a = get_arg_val(0), b = get_arg_val(1);
	uint32_t first = get_arg_val(2), n = get_arg_val(3);
	/* The CBs know their tile size and format: take them from there. */
	const InterleavedAddrGenFast ga = {
		.bank_base_address = a,
		.page_size = get_tile_size(CB_A),
		.data_format = get_dataformat(CB_A),
		.is_dram = true,
	};
	const InterleavedAddrGenFast gb = {
		.bank_base_address = b,
		.page_size = get_tile_size(CB_B),
		.data_format = get_dataformat(CB_B),
		.is_dram = true,
	};

	for (uint32_t t = first; t < first + n; t++) {
		cb_reserve_back(CB_A, 1);
		cb_reserve_back(CB_B, 1);
		noc_async_read_tile(t, ga, get_write_ptr(CB_A));
		noc_async_read_tile(t, gb, get_write_ptr(CB_B));
		/* One barrier for both reads: they run side by side. */
		noc_async_read_barrier();
		cb_push_back(CB_A, 1);
		cb_push_back(CB_B, 1);
	}
}
