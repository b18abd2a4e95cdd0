// SPDX-License-Identifier: Apache-2.0
/*
 * Writer of c = a + b: the pages of CB 16 go to tiles first ..
 * first + n - 1 of the DRAM buffer c as the compute kernel produces them.
 *
 * Runtime args: c (DRAM buffer address), first tile, tiles.
 */
#include "dataflow_api.h"

#define CB_C 16

void kernel_main(void)
{
	uint32_t c = get_arg_val(0);
	uint32_t first = get_arg_val(1), n = get_arg_val(2);
	const InterleavedAddrGenFast gc = {
		.bank_base_address = c,
		.page_size = get_tile_size(CB_C),
		.data_format = get_dataformat(CB_C),
		.is_dram = true,
	};

	for (uint32_t t = first; t < first + n; t++) {
		cb_wait_front(CB_C, 1);
		noc_async_write_tile(t, gc, get_read_ptr(CB_C));
		/* The page may be reused once the write has left L1; the
		 * barrier below waits for it to arrive. */
		noc_async_writes_flushed();
		cb_pop_front(CB_C, 1);
	}
	noc_async_write_barrier();
}
