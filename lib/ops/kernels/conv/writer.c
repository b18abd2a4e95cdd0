// SPDX-License-Identifier: Apache-2.0
/*
 * conv2d, conv_transpose2d, writer: each block of RT x NB pages of CB 16
 * (its first RT x nbc packed row-major, nbc the block's channel tiles)
 * goes to the output's tiles (row mb*RT + r, column nbk*NB + c), rows
 * past MT (the output's tile rows) dropped.
 *
 * Runtime args: out addr, out first tile, first block, blocks. Common
 * runtime args: MT, NT, NBLK. Named compile-time args: RT, NB, OUT_DRAM.
 */
#include "dataflow_api.h"

#define CB_OUT 16

void kernel_main(void)
{
	const uint32_t addr = get_arg_val(0), first = get_arg_val(1);
	const uint32_t u0 = get_arg_val(2), nu = get_arg_val(3);
	const uint32_t mt = get_common_arg_val(0), nt = get_common_arg_val(1);
	const uint32_t nblk = get_common_arg_val(2);
	const uint32_t rt = get_named_compile_time_arg_val("RT");
	const uint32_t nb = get_named_compile_time_arg_val("NB");
	const uint32_t size = get_tile_size(CB_OUT);
	const InterleavedAddrGenFast g = {
		.bank_base_address = addr,
		.page_size = size,
		.data_format = get_dataformat(CB_OUT),
		.is_dram = get_named_compile_time_arg_val("OUT_DRAM"),
	};

	for (uint32_t u = u0; u < u0 + nu; u++) {
		const uint32_t mb = u / nblk, nbk = u % nblk;
		const uint32_t nbc = nt - nbk * nb < nb ? nt - nbk * nb : nb;
		uint32_t p;

		cb_wait_front(CB_OUT, rt * nb);
		p = get_read_ptr(CB_OUT);
		for (uint32_t r = 0; r < rt && mb * rt + r < mt; r++)
			for (uint32_t c = 0; c < nbc; c++)
				noc_async_write_tile(first + (mb * rt + r) * nt + nbk * nb + c,
						     g, p + (r * nbc + c) * size);
		noc_async_writes_flushed();
		cb_pop_front(CB_OUT, rt * nb);
	}
	noc_async_write_barrier();
}
