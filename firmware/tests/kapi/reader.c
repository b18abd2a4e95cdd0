// SPDX-License-Identifier: Apache-2.0
/*
 * Reader of a two-input pipeline: args a, b (interleaved DRAM buffers of
 * tiles), tiles. Tile i of each goes to CB 0 and CB 1, one page each,
 * with the CBs' own tile size and format.
 */
#include "dataflow_api.h"

void kernel_main(void)
{
	uint32_t a = get_arg_val(0), b = get_arg_val(1), n = get_arg_val(2);
	const InterleavedAddrGenFast ga = {
		.bank_base_address = a,
		.page_size = get_tile_size(0),
		.data_format = get_dataformat(0),
		.is_dram = true,
	};
	const InterleavedAddrGenFast gb = {
		.bank_base_address = b,
		.page_size = get_tile_size(1),
		.data_format = get_dataformat(1),
		.is_dram = true,
	};

	for (uint32_t i = 0; i < n; i++) {
		cb_reserve_back(0, 1);
		cb_reserve_back(1, 1);
		noc_async_read_tile(i, ga, get_write_ptr(0));
		noc_async_read_tile(i, gb, get_write_ptr(1));
		noc_async_read_barrier();
		cb_push_back(0, 1);
		cb_push_back(1, 1);
	}
}
