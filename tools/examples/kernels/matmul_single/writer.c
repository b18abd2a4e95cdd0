// SPDX-License-Identifier: Apache-2.0
/*
 * Writer of the single-core matmul: args c (DRAM address of the tiled
 * output), tiles. CB 16's pages arrive in row-major tile order and go to
 * tiles 0, 1, ... of C.
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
		/* The page may be reused once the write has left it. */
		noc_async_writes_flushed();
		cb_pop_front(16, 1);
	}
	noc_async_write_barrier();
}
