// SPDX-License-Identifier: Apache-2.0
/*
 * Reader of y = exp(x): the tiles of the DRAM buffer x go to CB 0, one
 * tile per page.
 *
 * Runtime args: x (DRAM buffer address), tiles.
 */
#include "dataflow_api.h"

#define CB_X 0

void kernel_main(void)
{
	uint32_t x = get_arg_val(0), n = get_arg_val(1);
	const InterleavedAddrGenFast gx = {
		.bank_base_address = x,
		.page_size = get_tile_size(CB_X),
		.data_format = get_dataformat(CB_X),
		.is_dram = true,
	};

	for (uint32_t t = 0; t < n; t++) {
		cb_reserve_back(CB_X, 1);
		noc_async_read_tile(t, gx, get_write_ptr(CB_X));
		noc_async_read_barrier();
		cb_push_back(CB_X, 1);
	}
}
