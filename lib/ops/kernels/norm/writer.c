// SPDX-License-Identifier: Apache-2.0
/*
 * Softmax and normalisation (and the row reductions), writer: the pages
 * of CB 16 go to output tiles start * WT .. (start + n) * WT - 1 (counted
 * from the output's first tile), in blocks of at most BLOCK tiles that
 * never straddle a row (the compute kernel's order).
 *
 * Runtime args: output address, the output's first tile, first row of
 * this core, rows, tiles per row (WT).
 * Named compile-time args: BLOCK, OUT_DRAM (1: DRAM, 0: L1).
 */
#include "dataflow_api.h"

#define CB_OUT 16

void kernel_main(void)
{
	const uint32_t addr = get_arg_val(0), first = get_arg_val(1);
	const uint32_t start = get_arg_val(2), n = get_arg_val(3);
	const uint32_t wt = get_arg_val(4);
	const uint32_t size = get_tile_size(CB_OUT);
	const uint32_t block = get_named_compile_time_arg_val("BLOCK");
	const InterleavedAddrGenFast g = {
		.bank_base_address = addr,
		.page_size = size,
		.data_format = get_dataformat(CB_OUT),
		.is_dram = get_named_compile_time_arg_val("OUT_DRAM"),
	};

	for (uint32_t r = 0; r < n; r++) {
		const uint32_t base = first + (start + r) * wt;

		for (uint32_t t = 0; t < wt; t += block) {
			const uint32_t k = wt - t < block ? wt - t : block;
			uint32_t p;

			cb_wait_front(CB_OUT, k);
			p = get_read_ptr(CB_OUT);
			for (uint32_t j = 0; j < k; j++)
				noc_async_write_tile(base + t + j, g,
						     p + j * size);
			noc_async_writes_flushed();
			cb_pop_front(CB_OUT, k);
		}
	}
	noc_async_write_barrier();
}
