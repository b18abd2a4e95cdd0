// SPDX-License-Identifier: Apache-2.0
/*
 * Softmax and normalisation, reader. First the constant tiles of CB 4
 * (Float32, tile layout), then gamma and beta (once per core), then for
 * each row of tiles of this core its W/32 tiles of a into CB 0 in one
 * reservation (and the matching row of the mask into CB 1).
 *
 * CB 4's pages: 0 ones, 1 the mean's scaler (1/W everywhere), 2 zeros,
 * 3 the column mask (1 in columns below VC, 0 in the padding), 4 the
 * causal triangle (1 where column <= row), 5 the scale everywhere (the
 * host asks for none of 1 and 5 today: the compute kernel scales in
 * fp32 on the vector unit).
 *
 * Runtime args: a address, a's first tile, mask address, its first
 * tile, gamma address, its first tile, beta address, its first tile,
 * first row of tiles, rows.
 * Common runtime args: WT (tiles per row), HT (rows of tiles per
 * matrix), Z (matrices per w), mask strides in tiles of w and z (0:
 * broadcast), VC (valid columns of the last tile), 1/W and scale (fp32
 * bits).
 * Named compile-time args: A_DRAM, MASK, MASK_DRAM, GAMMA, GAMMA_DRAM,
 * BETA, BETA_DRAM (1: DRAM or present); PAD, CAUSAL, SCALE, MEAN (which
 * constant pages are needed: the others are left unwritten).
 */
#include "dataflow_api.h"

#include "../common/fill.h"

#define CB_IN 0
#define CB_MASK 1
#define CB_GAMMA 2
#define CB_BETA 3
#define CB_CONST 4
#define NCONST 6

static void make_consts(uint32_t vc, uint32_t inv_w, uint32_t scale)
{
	volatile uint32_t *p;

	cb_reserve_back(CB_CONST, NCONST);
	p = (volatile uint32_t *)get_write_ptr(CB_CONST);
	/* Pages the compute kernel uses always: ones, zeros; the others
	 * only when it uses them. */
	fill_words(p, 1024, 0x3F800000u);
	fill_words(p + 2048, 1024, 0);
	if (get_named_compile_time_arg_val("MEAN"))
		fill_words(p + 1024, 1024, inv_w);
	if (get_named_compile_time_arg_val("PAD"))
		fill_mask_tile((uint32_t)(uintptr_t)(p + 3072), 4, 0x3F800000u,
			       0, 0, (int32_t)vc, 0, 32);
	if (get_named_compile_time_arg_val("CAUSAL"))
		fill_mask_tile((uint32_t)(uintptr_t)(p + 4096), 4, 0x3F800000u,
			       0, 0, 1, 1, 32);
	if (get_named_compile_time_arg_val("SCALE"))
		fill_words(p + 5120, 1024, scale);
	cb_push_back(CB_CONST, NCONST);
}

/* n tiles from tile first of a buffer into cb, one reservation. */
static void read_row(uint32_t cb, uint32_t addr, uint32_t first, uint32_t n,
		     bool dram)
{
	const uint32_t size = get_tile_size(cb);
	const InterleavedAddrGenFast g = {
		.bank_base_address = addr,
		.page_size = size,
		.data_format = get_dataformat(cb),
		.is_dram = dram,
	};
	uint32_t p;

	cb_reserve_back(cb, n);
	p = get_write_ptr(cb);
	for (uint32_t j = 0; j < n; j++)
		noc_async_read_tile(first + j, g, p + j * size);
	noc_async_read_barrier();
	cb_push_back(cb, n);
}

void kernel_main(void)
{
	const uint32_t a_addr = get_arg_val(0), a_first = get_arg_val(1);
	const uint32_t m_addr = get_arg_val(2), m_first = get_arg_val(3);
	const uint32_t start = get_arg_val(8), n = get_arg_val(9);
	const uint32_t wt = get_common_arg_val(0), ht = get_common_arg_val(1);
	const uint32_t zn = get_common_arg_val(2);
	const uint32_t msw = get_common_arg_val(3), msz = get_common_arg_val(4);

	make_consts(get_common_arg_val(5), get_common_arg_val(6),
		    get_common_arg_val(7));
	if (get_named_compile_time_arg_val("GAMMA"))
		read_row(CB_GAMMA, get_arg_val(4), get_arg_val(5), wt,
			 get_named_compile_time_arg_val("GAMMA_DRAM"));
	if (get_named_compile_time_arg_val("BETA"))
		read_row(CB_BETA, get_arg_val(6), get_arg_val(7), wt,
			 get_named_compile_time_arg_val("BETA_DRAM"));
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t g = start + i;

		read_row(CB_IN, a_addr, a_first + g * wt, wt,
			 get_named_compile_time_arg_val("A_DRAM"));
		if (get_named_compile_time_arg_val("MASK")) {
			const uint32_t h = g % ht, z = (g / ht) % zn;
			const uint32_t w = g / (ht * zn);

			read_row(CB_MASK, m_addr,
				 m_first + w * msw + z * msz + h * wt, wt,
				 get_named_compile_time_arg_val("MASK_DRAM"));
		}
	}
}
