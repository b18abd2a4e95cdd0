// SPDX-License-Identifier: Apache-2.0
/*
 * Reductions, argmax and cumsum, writer. SAME 0 (reductions, argmax):
 * line j's one tile goes to output tile j. SAME 1 (cumsum): line j's LEN
 * tiles go where the reader took them from (the reader's mapping, the
 * output having the input's shape).
 *
 * Runtime args: output address, its first tile, first line, lines.
 * Common runtime args: the reader's (Z, HT, WT, OZ, OH, OC, LZ, LH, LC,
 * LEN).
 * Named compile-time args: OUT_DRAM, SAME.
 */
#include "dataflow_api.h"

#define CB_OUT 16

void kernel_main(void)
{
	const uint32_t addr = get_arg_val(0), first = get_arg_val(1);
	const uint32_t start = get_arg_val(2), n = get_arg_val(3);
	const uint32_t zn = get_common_arg_val(0), ht = get_common_arg_val(1);
	const uint32_t wt = get_common_arg_val(2);
	const uint32_t oz = get_common_arg_val(3), oh = get_common_arg_val(4);
	const uint32_t oc = get_common_arg_val(5);
	const uint32_t lz = get_common_arg_val(6), lh = get_common_arg_val(7);
	const uint32_t lc = get_common_arg_val(8);
	const bool same = get_named_compile_time_arg_val("SAME");
	const uint32_t len = same ? get_common_arg_val(9) : 1;
	const uint32_t size = get_tile_size(CB_OUT);
	const InterleavedAddrGenFast g = {
		.bank_base_address = addr,
		.page_size = size,
		.data_format = get_dataformat(CB_OUT),
		.is_dram = get_named_compile_time_arg_val("OUT_DRAM"),
	};

	for (uint32_t i = 0; i < n; i++) {
		const uint32_t j = start + i;
		const uint32_t c = j % oc, h = (j / oc) % oh;
		const uint32_t z = (j / (oc * oh)) % oz, w = j / (oc * oh * oz);

		for (uint32_t m = 0; m < len; m++) {
			uint32_t t = j;

			if (same) {
				const uint32_t mc = m % lc, mh = (m / lc) % lh;
				const uint32_t mz = (m / (lc * lh)) % lz;
				const uint32_t mw = m / (lc * lh * lz);

				t = ((w + mw) * zn + (z + mz)) * ht * wt +
				    (h + mh) * wt + (c + mc);
			}
			cb_wait_front(CB_OUT, 1);
			noc_async_write_tile(first + t, g, get_read_ptr(CB_OUT));
			noc_async_writes_flushed();
			cb_pop_front(CB_OUT, 1);
		}
	}
	noc_async_write_barrier();
}
