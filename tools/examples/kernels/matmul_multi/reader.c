// SPDX-License-Identifier: Apache-2.0
/*
 * Reader of the multi-core matmul: this core's output block, sub-block by
 * sub-block, needs A's row panel and B's column panel; they go to CB 0
 * and CB 1 in chunks of KB tiles of K.
 *
 * Compile-time args: SH, SW (sub-block, tiles), KB (K chunk, tiles).
 * Runtime args: a, b (DRAM addresses of the tiled inputs), Kt, Nt (K and
 * N in tiles), row0, col0 (the block's first output tile), bm, bn (the
 * block's size, tiles; smaller at the matrix's edges).
 *
 * Every chunk has the same shape in its CB, so that pushes always add up
 * to the CB's size: A's chunk is SH rows of KB tiles, B's is KB rows of
 * SW tiles, row-major. Tiles past the matrix (edge sub-blocks, the last
 * K chunk) are left out and the compute kernel never reads them.
 */
#include "dataflow_api.h"

#define SH get_compile_time_arg_val(0)
#define SW get_compile_time_arg_val(1)
#define KB get_compile_time_arg_val(2)

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* rows x cols tiles of a matrix `width` tiles wide, from tile (r0, c0),
 * into L1 at dst with rows `stride` tiles apart. */
static void read_block(const InterleavedAddrGenFast *g, uint32_t width,
		       uint32_t r0, uint32_t c0, uint32_t rows, uint32_t cols,
		       uint32_t dst, uint32_t stride)
{
	uint32_t tile = g->page_size;

	for (uint32_t r = 0; r < rows; r++) {
		uint32_t id = (r0 + r) * width + c0;
		uint32_t at = dst + r * stride * tile;

		for (uint32_t c = 0; c < cols; c++, id++, at += tile)
			noc_async_read_tile(id, g, at);
	}
}

void kernel_main(void)
{
	uint32_t a = get_arg_val(0), b = get_arg_val(1);
	uint32_t kt = get_arg_val(2), nt = get_arg_val(3);
	uint32_t row0 = get_arg_val(4), col0 = get_arg_val(5);
	uint32_t bm = get_arg_val(6), bn = get_arg_val(7);
	const InterleavedAddrGenFast ga = {
		.bank_base_address = a,
		.page_size = get_tile_size(0),
		.data_format = get_dataformat(0),
		.is_dram = true,
	};
	const InterleavedAddrGenFast gb = {
		.bank_base_address = b,
		.page_size = get_tile_size(1),
		.data_format = get_dataformat(1),
		.is_dram = true,
	};

	for (uint32_t sr = 0; sr < bm; sr += SH) {
		uint32_t rh = min_u32(SH, bm - sr);

		for (uint32_t sc = 0; sc < bn; sc += SW) {
			uint32_t cw = min_u32(SW, bn - sc);

			for (uint32_t k0 = 0; k0 < kt; k0 += KB) {
				uint32_t kv = min_u32(KB, kt - k0);

				cb_reserve_back(0, SH * KB);
				cb_reserve_back(1, KB * SW);
				read_block(&ga, kt, row0 + sr, k0, rh, kv,
					   get_write_ptr(0), KB);
				read_block(&gb, nt, k0, col0 + sc, kv, cw,
					   get_write_ptr(1), SW);
				noc_async_read_barrier();
				cb_push_back(0, SH * KB);
				cb_push_back(1, KB * SW);
			}
		}
	}
}
