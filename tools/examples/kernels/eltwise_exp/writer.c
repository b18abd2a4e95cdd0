// SPDX-License-Identifier: Apache-2.0
/*
 * Writer of y = exp(x): the pages of CB 16 go to the tiles of the DRAM
 * buffer y, in order.
 *
 * Runtime args: y (DRAM buffer address), tiles.
 */
#include "dataflow_api.h"

#define CB_Y 16

void kernel_main(void)
{
	uint32_t y = get_arg_val(0), n = get_arg_val(1);
	const InterleavedAddrGenFast gy = {
		.bank_base_address = y,
		.page_size = get_tile_size(CB_Y),
		.data_format = get_dataformat(CB_Y),
		.is_dram = true,
	};

	for (uint32_t t = 0; t < n; t++) {
		cb_wait_front(CB_Y, 1);
		noc_async_write_tile(t, gy, get_read_ptr(CB_Y));
		noc_async_writes_flushed();
		cb_pop_front(CB_Y, 1);
	}
	noc_async_write_barrier();
}
