// SPDX-License-Identifier: Apache-2.0
/*
 * Writer of the multi-core matmul: each finished sub-block (a group of
 * SH x SW pages in CB 16, the first rh x cw of them used, row-major) goes
 * to its place in C.
 *
 * Compile-time args: SH, SW. Runtime args: c (DRAM address of the tiled
 * output), Nt, row0, col0, bm, bn (as the reader). Compute sends only
 * the sub-blocks inside this core's bm x bn, in the same order.
 */
#include "dataflow_api.h"

#define SH get_compile_time_arg_val(0)
#define SW get_compile_time_arg_val(1)

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

void kernel_main(void)
{
	uint32_t c = get_arg_val(0), nt = get_arg_val(1);
	uint32_t row0 = get_arg_val(2), col0 = get_arg_val(3);
	uint32_t bm = get_arg_val(4), bn = get_arg_val(5);
	const InterleavedAddrGenFast gc = {
		.bank_base_address = c,
		.page_size = get_tile_size(16),
		.data_format = get_dataformat(16),
		.is_dram = true,
	};
	uint32_t tile = gc.page_size;

	for (uint32_t sr = 0; sr < bm; sr += SH) {
		uint32_t rh = min_u32(SH, bm - sr);

		for (uint32_t sc = 0; sc < bn; sc += SW) {
			uint32_t cw = min_u32(SW, bn - sc);
			uint32_t src;

			cb_wait_front(16, SH * SW);
			src = get_read_ptr(16);
			for (uint32_t r = 0; r < rh; r++) {
				uint32_t id = (row0 + sr + r) * nt + col0 + sc;

				for (uint32_t i = 0; i < cw; i++, src += tile)
					noc_async_write_tile(id + i, gc, src);
			}
			/* The pages may be reused once the writes left them. */
			noc_async_writes_flushed();
			cb_pop_front(16, SH * SW);
		}
	}
	noc_async_write_barrier();
}
