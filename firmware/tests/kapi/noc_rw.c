// SPDX-License-Identifier: Apache-2.0
/*
 * Interleaved pages through the address generators, and a direct copy to
 * another core. Args:
 *   0 buffer address   1 page size   2 pages   3 is_dram
 *   4 source in L1 (pages back to back)   5 destination in L1
 *   6 generator: 0 InterleavedAddrGen, 1 ...Fast, 2 ...Pow2 (log2 of the
 *     page size in arg 1 then)
 *   7 NOC to name explicitly (2: the default, not named)
 *   8 L1 address for the pages' NOC addresses (two words each)
 *   9, 10, 11 peer x, y, address (address 0: no peer copy)
 * The pages go out (write), come back to the destination (read); the peer
 * gets the first 64 source bytes and they come back after the pages. Then
 * two inline writes to the peer: 0xA5A5F00D after those 64 bytes, and
 * bytes 1 and 2 of 0x44332211 into the word after that.
 */
#include "dataflow_api.h"

static void out_addr(uint32_t at, uint32_t i, uint64_t a)
{
	volatile uint32_t *o = (volatile uint32_t *)at;

	o[2 * i] = (uint32_t)a;
	o[2 * i + 1] = (uint32_t)(a >> 32);
}

#define RUN(gen, ps)                                                        \
	do {                                                                \
		for (uint32_t i = 0; i < n; i++) {                          \
			out_addr(addrs, i, get_noc_addr(i, gen));           \
			if (noc == 2)                                       \
				noc_async_write_page(i, gen, src + i * ps); \
			else                                                \
				noc_async_write_page(i, &gen, src + i * ps, \
						     ps, 0, noc);           \
		}                                                           \
		if (noc == 2)                                               \
			noc_async_write_barrier();                          \
		else                                                        \
			noc_async_write_barrier(noc);                       \
		for (uint32_t i = 0; i < n; i++) {                          \
			if (noc == 2)                                       \
				noc_async_read_tile(i, &gen, dst + i * ps); \
			else                                                \
				noc_async_read_page(i, gen, dst + i * ps,   \
						    0, noc);                \
		}                                                           \
		noc_async_read_barrier(noc == 2 ? noc_index : noc);         \
	} while (0)

void kernel_main(void)
{
	uint32_t base = get_arg_val(0), ps = get_arg_val(1), n = get_arg_val(2);
	bool dram = get_arg_val(3);
	uint32_t src = get_arg_val(4), dst = get_arg_val(5);
	uint32_t kind = get_arg_val(6), noc = get_arg_val(7);
	uint32_t addrs = get_arg_val(8), paddr = get_arg_val(11);

	if (kind == 0) {
		InterleavedAddrGen g = { .bank_base_address = base,
					 .page_size = ps,
					 .is_dram = dram };
		RUN(g, ps);
	} else if (kind == 1) {
		const InterleavedAddrGenFast g = {
			.bank_base_address = base,
			.page_size = ps,
			.data_format = DataFormat_Float16_b,
			.is_dram = dram
		};
		RUN(g, ps);
	} else {
		InterleavedPow2AddrGen g = { .bank_base_address = base,
					     .log_base_2_of_page_size = ps,
					     .is_dram = dram };
		uint32_t bytes = 1u << ps;

		ps = bytes;
		RUN(g, ps);
	}
	if (paddr) {
		uint64_t peer = get_noc_addr(get_arg_val(9), get_arg_val(10),
					     paddr);

		noc_async_write(src, peer, 64);
		noc_async_write_barrier();
		noc_async_read(peer, dst + n * ps, 64);
		noc_async_read_barrier();
		noc_inline_dw_write(peer + 64, 0xA5A5F00D);
		noc_inline_dw_write(peer + 68, 0x44332211, 0x6, 1);
		noc_async_write_barrier(0);
		noc_async_write_barrier(1);
	}
}
