// SPDX-License-Identifier: Apache-2.0
/*
 * Reductions, argmax and cumsum, reader. The work is a list of lines:
 * line j (one output tile of a reduction, or one row or column of tiles
 * of a cumsum) reads LEN input tiles, tile l of line j being
 *   ((w + lw) Z + (z + lz)) HT WT + (h + lh) WT + (c + lc)
 * with (w, z, h, c) line j over the output extents [., OZ, OH, OC] and
 * (lw, lz, lh, lc) l over the line's extents [., LZ, LH, LC] (lc
 * fastest). Tiles go to CB 0 in chunks of CHUNK (which divides LEN);
 * PASSES 2 sends every line twice (argmax).
 *
 * First the constant tiles of CB 4 (Float32, tile layout): 0 ones, 1
 * zeros, 2 the column mask (1 in columns below VC), 3 the row mask (1
 * in rows below VR), 4 each element's column index, 5 U (1 where row <=
 * column), 6 L (1 where column <= row).
 *
 * Runtime args: a address, a's first tile, first line, lines.
 * Common runtime args: Z, HT, WT, OZ, OH, OC, LZ, LH, LC, LEN, CHUNK,
 * PASSES, VC, VR.
 * Named compile-time args: A_DRAM.
 */
#include "dataflow_api.h"

#include "../common/fill.h"

#define CB_IN 0
#define CB_CONST 4
#define NCONST 7

static void make_consts(uint32_t vc, uint32_t vr)
{
	const uint32_t one = 0x3F800000u;
	uint32_t p, col[32];

	cb_reserve_back(CB_CONST, NCONST);
	p = get_write_ptr(CB_CONST);
	fill_words((volatile uint32_t *)(uintptr_t)p, 1024, one);
	fill_words((volatile uint32_t *)(uintptr_t)(p + 4096), 1024, 0);
	fill_mask_tile(p + 2 * 4096, 4, one, 0, 0, (int32_t)vc, 0, 32);
	fill_mask_tile(p + 3 * 4096, 4, one, 0, 0, 32, 0, vr);
	fill_mask_tile(p + 5 * 4096, 4, one, 0, 1, 32, 0, 32);
	fill_mask_tile(p + 6 * 4096, 4, one, 0, 0, 1, 1, 32);
	/* Page 4, each element's column as a float: the same face rows. */
	for (uint32_t c = 0; c < 32; c++) {
		union {
			float f;
			uint32_t u;
		} ci = { .f = (float)c };

		col[c] = ci.u;
	}
	for (uint32_t e = 0; e < 1024; e += 16) {
		volatile uint32_t *d = (volatile uint32_t *)(uintptr_t)(p + 4 * 4096) + e;
		const uint32_t *s = col + (e / 256 % 2) * 16;

		for (uint32_t j = 0; j < 16; j++)
			d[j] = s[j];
	}
	cb_push_back(CB_CONST, NCONST);
}

void kernel_main(void)
{
	const uint32_t addr = get_arg_val(0), first = get_arg_val(1);
	const uint32_t start = get_arg_val(2), n = get_arg_val(3);
	const uint32_t zn = get_common_arg_val(0), ht = get_common_arg_val(1);
	const uint32_t wt = get_common_arg_val(2);
	const uint32_t oz = get_common_arg_val(3), oh = get_common_arg_val(4);
	const uint32_t oc = get_common_arg_val(5);
	const uint32_t lz = get_common_arg_val(6), lh = get_common_arg_val(7);
	const uint32_t lc = get_common_arg_val(8), len = get_common_arg_val(9);
	const uint32_t chunk = get_common_arg_val(10);
	const uint32_t passes = get_common_arg_val(11);
	const uint32_t size = get_tile_size(CB_IN);
	const InterleavedAddrGenFast g = {
		.bank_base_address = addr,
		.page_size = size,
		.data_format = get_dataformat(CB_IN),
		.is_dram = get_named_compile_time_arg_val("A_DRAM"),
	};

	make_consts(get_common_arg_val(12), get_common_arg_val(13));
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t j = start + i;
		const uint32_t c = j % oc, h = (j / oc) % oh;
		const uint32_t z = (j / (oc * oh)) % oz, w = j / (oc * oh * oz);

		for (uint32_t pass = 0; pass < passes; pass++) {
			for (uint32_t l = 0; l < len; l += chunk) {
				uint32_t p;

				cb_reserve_back(CB_IN, chunk);
				p = get_write_ptr(CB_IN);
				for (uint32_t k = 0; k < chunk; k++) {
					const uint32_t m = l + k;
					const uint32_t mc = m % lc, mh = (m / lc) % lh;
					const uint32_t mz = (m / (lc * lh)) % lz;
					const uint32_t mw = m / (lc * lh * lz);
					const uint32_t t = ((w + mw) * zn + (z + mz)) * ht * wt +
							   (h + mh) * wt + (c + mc);

					noc_async_read_tile(first + t, g, p + k * size);
				}
				noc_async_read_barrier();
				cb_push_back(CB_IN, chunk);
			}
		}
	}
}
