// SPDX-License-Identifier: Apache-2.0
/*
 * DRAM -> L1 -> DRAM, one page at a time: read page i of the source
 * buffer into an L1 scratch page, then write it to page i of the
 * destination buffer. Both buffers are interleaved over the DRAM banks,
 * so the address generators find each page's bank.
 *
 * Runtime args: scratch (L1 address), src, dst (DRAM buffer addresses),
 * pages, page size in bytes.
 */
#include "dataflow_api.h"

void kernel_main(void)
{
	uint32_t scratch = get_arg_val(0);
	uint32_t src = get_arg_val(1), dst = get_arg_val(2);
	uint32_t pages = get_arg_val(3), page_size = get_arg_val(4);
	const InterleavedAddrGen in = {
		.bank_base_address = src,
		.page_size = page_size,
		.is_dram = true,
	};
	const InterleavedAddrGen out = {
		.bank_base_address = dst,
		.page_size = page_size,
		.is_dram = true,
	};

	for (uint32_t i = 0; i < pages; i++) {
		noc_async_read_page(i, in, scratch);
		/* The page must be in L1 before it is sent on. */
		noc_async_read_barrier();
		noc_async_write_page(i, out, scratch);
		/* And sent before the next read overwrites it. */
		noc_async_write_barrier();
	}
}
