// SPDX-License-Identifier: Apache-2.0
/*
 * Element-wise ops, writer: the pages of CB 16 go to output tiles
 * start .. start + n - 1 (counted from the output's first tile), in
 * blocks of BLOCK tiles.
 *
 * Tiles are taken in eltwise_order.h's order; tiles whose NOC addresses
 * follow one another move in one transfer.
 *
 * Runtime args: output address, the output's first tile, first output
 * tile of this core, tiles.
 * Common runtime args: OUT_TILES, ORDER_BANKS (eltwise_order.h), then
 * the output's accessor words if it is sharded.
 * Named compile-time args: BLOCK, OUT_DRAM (1: DRAM, 0: L1), OUT_TA: 0
 * for an interleaved output, else 1 + the index of the common runtime
 * args where its tensor accessor words start (a sharded output).
 */
#include "dataflow_api.h"

#include "eltwise_order.h"

#define CB_OUT 16

void kernel_main(void)
{
	const uint32_t addr = get_arg_val(0), first = get_arg_val(1);
	const uint32_t start = get_arg_val(2), n = get_arg_val(3);
	const uint32_t tiles = get_common_arg_val(0);
	const uint32_t banks = get_common_arg_val(1);
	const InterleavedAddrGenFast g = {
		.bank_base_address = addr,
		.page_size = get_tile_size(CB_OUT),
		.data_format = get_dataformat(CB_OUT),
		.is_dram = get_named_compile_time_arg_val("OUT_DRAM"),
	};
	const uint32_t block = get_named_compile_time_arg_val("BLOCK");
	const uint32_t size = get_tile_size(CB_OUT);
	const uint32_t ta = get_named_compile_time_arg_val("OUT_TA");
	TensorAccessor acc;

	if (ta)
		acc = TensorAccessor(TensorAccessorArgs_crt(ta - 1), addr, size);
	for (uint32_t i = 0; i < n; i += block) {
		const uint32_t k = n - i < block ? n - i : block;
		struct eltwise_run r = { 0 };
		uint32_t p;

		cb_wait_front(CB_OUT, k);
		p = get_read_ptr(CB_OUT);
		for (uint32_t j = 0; j < k; j++) {
			const uint32_t t = first + eltwise_tile_at(start + i + j,
								   tiles, banks);

			eltwise_run_write(&r, ta ? get_noc_addr(t, acc) :
						   get_noc_addr(t, g),
					  p + j * size, size);
		}
		eltwise_run_write(&r, 0, 0, 0);
		noc_async_writes_flushed();
		cb_pop_front(CB_OUT, k);
	}
	noc_async_write_barrier();
}
