// SPDX-License-Identifier: Apache-2.0
/*
 * Matmul, writer: each finished sub-block (a group of SH x SW pages in CB
 * 16, the first rh x cw used, row-major) goes to its place in the output,
 * tile (batch, m, n) at page first + (batch * Mt + m) * Nt + n. Compute
 * sends only the sub-blocks inside this core's blocks, in the reader's
 * order.
 *
 * Runtime args: 0 out, 1 out first tile, 2 u0, 3 count, 4 ustride, 5 Mt,
 * 6 Nt, 7 BR, 8 BC, 9 PM, 10 PN. Named compile-time args: SH, SW,
 * OUT_DRAM.
 */
#include "dataflow_api.h"

#define CB_OUT 16

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

void kernel_main(void)
{
	const uint32_t SH = get_named_compile_time_arg_val("SH");
	const uint32_t SW = get_named_compile_time_arg_val("SW");
	const uint32_t first = get_arg_val(1), u0 = get_arg_val(2);
	const uint32_t count = get_arg_val(3), ustride = get_arg_val(4);
	const uint32_t mt = get_arg_val(5), nt = get_arg_val(6);
	const uint32_t br = get_arg_val(7), bc = get_arg_val(8);
	const uint32_t pm = get_arg_val(9), pn = get_arg_val(10);
	const InterleavedAddrGenFast g = {
		.bank_base_address = get_arg_val(0),
		.page_size = get_tile_size(CB_OUT),
		.data_format = get_dataformat(CB_OUT),
		.is_dram = get_named_compile_time_arg_val("OUT_DRAM"),
	};
	const uint32_t tile = g.page_size;

	for (uint32_t t = 0; t < count; t++) {
		const uint32_t u = u0 + t * ustride;
		const uint32_t ob = u / (br * bc);
		const uint32_t m0 = (u / bc) % br * pm, n0 = u % bc * pn;
		const uint32_t bm = min_u32(pm, mt - m0), bn = min_u32(pn, nt - n0);

		for (uint32_t sr = 0; sr < bm; sr += SH) {
			const uint32_t rh = min_u32(SH, bm - sr);

			for (uint32_t sc = 0; sc < bn; sc += SW) {
				const uint32_t cw = min_u32(SW, bn - sc);
				uint32_t src;

				cb_wait_front(CB_OUT, SH * SW);
				src = get_read_ptr(CB_OUT);
				for (uint32_t r = 0; r < rh; r++) {
					uint32_t id = first +
						      (ob * mt + m0 + sr + r) * nt +
						      n0 + sc;

					for (uint32_t i = 0; i < cw; i++, src += tile)
						noc_async_write_tile(id + i, g, src);
				}
				noc_async_writes_flushed();
				cb_pop_front(CB_OUT, SH * SW);
			}
		}
	}
	noc_async_write_barrier();
}
