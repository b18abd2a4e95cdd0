// SPDX-License-Identifier: Apache-2.0
/*
 * Reader of the single-core matmul: args a, b (DRAM addresses of the
 * tiled inputs), Mt, Kt, Nt. For every output tile (m, n) and every k it
 * sends A's tile (m, k) to CB 0 and B's tile (k, n) to CB 1: the simplest
 * order, which reads each input tile Nt (or Mt) times.
 */
#include "dataflow_api.h"

void kernel_main(void)
{
	uint32_t a = get_arg_val(0), b = get_arg_val(1);
	uint32_t mt = get_arg_val(2), kt = get_arg_val(3), nt = get_arg_val(4);
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

	for (uint32_t m = 0; m < mt; m++) {
		for (uint32_t n = 0; n < nt; n++) {
			for (uint32_t k = 0; k < kt; k++) {
				cb_reserve_back(0, 1);
				cb_reserve_back(1, 1);
				noc_async_read_tile(m * kt + k, ga,
						    get_write_ptr(0));
				noc_async_read_tile(k * nt + n, gb,
						    get_write_ptr(1));
				noc_async_read_barrier();
				cb_push_back(0, 1);
				cb_push_back(1, 1);
			}
		}
	}
}
