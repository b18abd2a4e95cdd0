// SPDX-License-Identifier: Apache-2.0
/*
 * Element-wise ops, reader: for each output tile this core makes, the
 * tile of a (and of b) it needs goes to CB 0 (CB 1), one page each.
 * Broadcasting: an input's tile index is the output tile's coordinates
 * [w, z, row of tiles, column of tiles] times the input's strides in
 * tiles, a stride being 0 where the input is broadcast.
 *
 * Tiles move in blocks of BLOCK (the compute kernel's block): one
 * barrier per block. Within a block, tiles whose NOC addresses follow one
 * another move in one transfer (eltwise_order.h says in which order a
 * core takes its tiles so that they do).
 *
 * With MASK, it first makes the two mask tiles of CB 3 (Float16_b) the
 * compute kernel zeroes an output's padding with: page 0 is 1 in columns
 * below OUT_VC, page 1 is 1 in rows below OUT_VR, 0 elsewhere.
 *
 * Runtime args: a address, a's first tile, b address, b's first tile,
 * first output tile, output tiles, c (where's condition) address, c's
 * first tile.
 * Common runtime args (the geometry, so that one binary serves every
 * shape), in this order: OUT_WT, OUT_HT, OUT_Z (the output's tiles per
 * row, rows of tiles, matrices per w), A_SW, A_SZ, A_SH, A_SC, B_SW,
 * B_SZ, B_SH, B_SC (the strides), OUT_VC, OUT_VR, OUT_TILES, ORDER_BANKS
 * (eltwise_order.h), C_SW, C_SZ, C_SH, C_SC, then the inputs' accessor
 * words (below).
 * Named compile-time args: BLOCK, MASK, HAS_B, HAS_C, A_DRAM, B_DRAM,
 * C_DRAM (1: DRAM, 0: L1), A_TA, B_TA, C_TA: 0 for an interleaved input, else 1 + the index of
 * the common runtime args where its tensor accessor words start (a
 * sharded input: its pages are found through the accessor).
 */
#include "dataflow_api.h"

#include "../common/fill.h"
#include "eltwise_order.h"

#define CB_A 0
#define CB_B 1
#define CB_C 4
#define CB_MASK 3

/* Page 0: columns below vc; page 1: rows below vr (tile layout: four
 * 16 x 16 faces, each row-major). */
static void make_masks(uint32_t vc, uint32_t vr)
{
	uint32_t p;

	cb_reserve_back(CB_MASK, 2);
	p = get_write_ptr(CB_MASK);
	fill_mask_tile(p, 2, 0x3F80u, 0, 0, (int32_t)vc, 0, 32);
	fill_mask_tile(p + 2048, 2, 0x3F80u, 0, 0, 32, 0, vr);
	cb_push_back(CB_MASK, 2);
}

/* Input tile of output tile id: its [w, z, h, c] times the strides
 * (common args from `s`). */
static uint32_t input_tile(uint32_t id, uint32_t wt, uint32_t ht, uint32_t zn,
			   unsigned s)
{
	uint32_t c = id % wt, h = (id / wt) % ht;
	uint32_t z = (id / wt / ht) % zn, w = id / wt / ht / zn;

	return w * get_common_arg_val(s) + z * get_common_arg_val(s + 1) +
	       h * get_common_arg_val(s + 2) + c * get_common_arg_val(s + 3);
}

void kernel_main(void)
{
	const uint32_t a_addr = get_arg_val(0), a_first = get_arg_val(1);
	const uint32_t b_addr = get_arg_val(2), b_first = get_arg_val(3);
	const uint32_t start = get_arg_val(4), n = get_arg_val(5);
	const uint32_t wt = get_common_arg_val(0);
	const uint32_t ht = get_common_arg_val(1);
	const uint32_t zn = get_common_arg_val(2);
	const uint32_t tiles = get_common_arg_val(13);
	const uint32_t banks = get_common_arg_val(14);
	const InterleavedAddrGenFast ga = {
		.bank_base_address = a_addr,
		.page_size = get_tile_size(CB_A),
		.data_format = get_dataformat(CB_A),
		.is_dram = get_named_compile_time_arg_val("A_DRAM"),
	};
	const bool has_b = get_named_compile_time_arg_val("HAS_B");
	const uint32_t block = get_named_compile_time_arg_val("BLOCK");
	const uint32_t sa = get_tile_size(CB_A);
	const uint32_t sb = has_b ? get_tile_size(CB_B) : 0;
	const InterleavedAddrGenFast gb = {
		.bank_base_address = b_addr,
		.page_size = sb,
		.data_format = has_b ? get_dataformat(CB_B) : get_dataformat(CB_A),
		.is_dram = get_named_compile_time_arg_val("B_DRAM"),
	};
	const uint32_t a_ta = get_named_compile_time_arg_val("A_TA");
	const uint32_t b_ta = get_named_compile_time_arg_val("B_TA");
	const bool has_c = get_named_compile_time_arg_val("HAS_C");
	const uint32_t c_addr = get_arg_val(6), c_first = get_arg_val(7);
	const uint32_t sc = has_c ? get_tile_size(CB_C) : 0;
	const InterleavedAddrGenFast gc = {
		.bank_base_address = c_addr,
		.page_size = sc,
		.data_format = has_c ? get_dataformat(CB_C) : get_dataformat(CB_A),
		.is_dram = get_named_compile_time_arg_val("C_DRAM"),
	};
	const uint32_t c_ta = get_named_compile_time_arg_val("C_TA");
	TensorAccessor sa_acc, sb_acc, sc_acc;

	if (a_ta)
		sa_acc = TensorAccessor(TensorAccessorArgs_crt(a_ta - 1),
					a_addr, sa);
	if (b_ta)
		sb_acc = TensorAccessor(TensorAccessorArgs_crt(b_ta - 1),
					b_addr, sb);
	if (c_ta)
		sc_acc = TensorAccessor(TensorAccessorArgs_crt(c_ta - 1),
					c_addr, sc);
	if (get_named_compile_time_arg_val("MASK"))
		make_masks(get_common_arg_val(11), get_common_arg_val(12));

	for (uint32_t i = 0; i < n; i += block) {
		const uint32_t k = n - i < block ? n - i : block;
		struct eltwise_run ra = { 0 }, rb = { 0 }, rc = { 0 };
		uint32_t pa, pb = 0, pc = 0;

		cb_reserve_back(CB_A, k);
		pa = get_write_ptr(CB_A);
		if (has_b) {
			cb_reserve_back(CB_B, k);
			pb = get_write_ptr(CB_B);
		}
		if (has_c) {
			cb_reserve_back(CB_C, k);
			pc = get_write_ptr(CB_C);
		}
		for (uint32_t j = 0; j < k; j++) {
			const uint32_t id = eltwise_tile_at(start + i + j, tiles,
							    banks);
			uint32_t ta = a_first + id, tb;

			if (has_b) {
				ta = a_first + input_tile(id, wt, ht, zn, 3);
				tb = b_first + input_tile(id, wt, ht, zn, 7);
				eltwise_run_read(&rb, b_ta ? get_noc_addr(tb, sb_acc) :
							     get_noc_addr(tb, gb),
						 pb + j * sb, sb);
			}
			if (has_c) {
				const uint32_t tc = c_first + input_tile(id, wt, ht,
									 zn, 15);

				eltwise_run_read(&rc, c_ta ? get_noc_addr(tc, sc_acc) :
							     get_noc_addr(tc, gc),
						 pc + j * sc, sc);
			}
			eltwise_run_read(&ra, a_ta ? get_noc_addr(ta, sa_acc) :
						     get_noc_addr(ta, ga),
					 pa + j * sa, sa);
		}
		eltwise_run_read(&ra, 0, 0, 0);
		eltwise_run_read(&rb, 0, 0, 0);
		eltwise_run_read(&rc, 0, 0, 0);
		noc_async_read_barrier();
		cb_push_back(CB_A, k);
		if (has_b)
			cb_push_back(CB_B, k);
		if (has_c)
			cb_push_back(CB_C, k);
	}
}
