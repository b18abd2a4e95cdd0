// SPDX-License-Identifier: Apache-2.0
/*
 * Writer of a pipeline: args c (interleaved DRAM buffer of tiles), tiles.
 * CB 16's pages go to tile i of c.
 */
#include "dataflow_api.h"

void kernel_main(void)
{
	uint32_t c = get_arg_val(0), n = get_arg_val(1);
	const InterleavedAddrGenFast gc = {
		.bank_base_address = c,
		.page_size = get_tile_size(16),
		.data_format = get_dataformat(16),
		.is_dram = true,
	};

	for (uint32_t i = 0; i < n; i++) {
		cb_wait_front(16, 1);
		noc_async_write_tile(i, gc, get_read_ptr(16));
		noc_async_writes_flushed();
		cb_pop_front(16, 1);
	}
	noc_async_write_barrier();
}
