// SPDX-License-Identifier: Apache-2.0
/*
 * Matmul, reader: for each output block of this core, for each sub-block
 * of it, in0's row panel and in1's column panel go to CB 0 and CB 1 in
 * chunks of KB tiles of K (and the bias row tiles of the sub-block to
 * CB 3 first, after the zero tile of CB 2 at start).
 *
 * Blocks ("units") are numbered u = batch * BR * BC + block_row * BC +
 * block_col; this core takes units u0 + t * ustride for t < count.
 *
 * Tile (r, c) of an operand (in0: r in M, c in K; in1: r in K, c in N) is
 * page base + r * rs + c * cs of its tensor, the strides saying whether
 * it is stored transposed; the batch adds w * sw + z * sz (0 where the
 * operand is broadcast). Chunks have a fixed shape in their CB: in0's SH
 * rows of KB tiles, in1's KB rows of SW tiles, row-major.
 *
 * Padding: the last tiles' padding (unspecified) is zeroed in L1 before
 * use: in0's columns of K (rows, when stored transposed) from VK, in1's
 * rows of K from VK and columns of N from VN (transposed: the other
 * way), the bias's columns from VN.
 *
 * Multicast (TT-Metal's reuse-mcast matmul), per chunk and operand:
 *   receiver: reserve; zero `valid`; add 1 to the sender's `ready`; wait
 *             for `valid`; push.
 *   sender:   reserve; read; wait until `ready` counts every receiver,
 *             zero it; multicast the chunk to the same CB address, then
 *             `valid` = 1 the same way; push.
 * With LOCKSTEP every core goes through PM x PN sub-blocks (empty ones
 * outside its block), so that a row or column meets at every chunk.
 *
 * Runtime args:
 *   0 a, 1 a first tile, 2 b, 3 b first tile, 4 bias, 5 bias first tile
 *   6 u0, 7 count, 8 ustride
 *   9 Mt, 10 Nt, 11 Kt, 12 BR, 13 BC, 14 PM, 15 PN, 16 Z
 *   17 a_sw, 18 a_sz, 19 a_rs, 20 a_cs, 21 b_sw, 22 b_sz, 23 b_rs, 24 b_cs
 *   25 VK, 26 VN
 *   27..32 in0 sharing: role, x0, y0, x1, y1, n; 33..38 in1 sharing
 *   39..42 semaphore ids: in0 ready, in0 valid, in1 ready, in1 valid
 * Roles: 0 read alone; 1 send to the n cores of NOC rectangle
 * (x0,y0)-(x1,y1); 2 receive from the sender at (x0,y0).
 * Named compile-time args: SH, SW, KB, A_DRAM, B_DRAM, BIAS, BIAS_DRAM,
 * TA, TB (operands stored transposed), LOCKSTEP.
 */
#include "dataflow_api.h"

#include "../common/fill.h"

#define CB_A 0
#define CB_B 1
#define CB_ZERO 2
#define CB_BIAS 3

/* tt/dataformat.h's values */
#define F_FLOAT32 0
#define F_FLOAT16 1
#define F_FLOAT16_B 5
#define F_BFP8_B 6
#define F_BFP4_B 7

enum { READ_ALONE = 0, SEND = 1, RECEIVE = 2 };

struct share {
	uint32_t role, x0, y0, x1, y1, n;
	volatile uint32_t *ready, *valid;
};

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static void get_share(struct share *s, uint32_t arg, uint32_t sem)
{
	s->role = get_arg_val(arg);
	s->x0 = get_arg_val(arg + 1);
	s->y0 = get_arg_val(arg + 2);
	s->x1 = get_arg_val(arg + 3);
	s->y1 = get_arg_val(arg + 4);
	s->n = get_arg_val(arg + 5);
	s->ready = (volatile uint32_t *)(uintptr_t)get_semaphore(
		get_arg_val(sem));
	s->valid = (volatile uint32_t *)(uintptr_t)get_semaphore(
		get_arg_val(sem + 1));
}

static void signal_ready(const struct share *s)
{
	if (s->role != RECEIVE)
		return;
	noc_semaphore_set(s->valid, 0);
	noc_semaphore_inc(get_noc_addr(s->x0, s->y0,
				       (uint32_t)(uintptr_t)s->ready),
			  1);
}

static void send(const struct share *s, uint32_t addr, uint32_t bytes)
{
	uint32_t flag = (uint32_t)(uintptr_t)s->valid;

	if (s->role != SEND)
		return;
	noc_semaphore_wait(s->ready, s->n);
	noc_semaphore_set(s->ready, 0);
	noc_async_write_multicast(addr,
				  get_noc_multicast_addr(s->x0, s->y0, s->x1,
							 s->y1, addr),
				  bytes, s->n);
	noc_semaphore_set(s->valid, 1);
	noc_semaphore_set_multicast(flag,
				    get_noc_multicast_addr(s->x0, s->y0, s->x1,
							   s->y1, flag),
				    s->n);
	noc_async_writes_flushed();
}

static void wait_data(const struct share *s)
{
	if (s->role == RECEIVE)
		noc_semaphore_wait(s->valid, 1);
}

/* Zero elements [e, e + n) of a tile's data at `data`: esz bytes each, or
 * Bfp4_b's nibbles (even elements in the low one). */
static void zero_elems(uint32_t data, uint32_t fmt, uint32_t esz, uint32_t e,
		       uint32_t n)
{
	volatile uint8_t *p = (volatile uint8_t *)(uintptr_t)data;

	if (fmt != F_BFP4_B) {
		zero_bytes(data + e * esz, data + (e + n) * esz);
		return;
	}
	for (uint32_t end = e + n; e < end; e++)
		p[e / 2] &= (uint8_t)(e % 2 ? 0x0F : 0xF0);
}

/* Zero `n` elements from e in each of `rows` face rows (16 elements
 * apart): word stores row by row where the runs are whole words. */
static void zero_cols(uint32_t data, uint32_t fmt, uint32_t esz, uint32_t e,
		      uint32_t rows, uint32_t n)
{
	uint32_t words = n * esz / 4;

	if (fmt == F_BFP4_B || (e * esz) % 4 || (n * esz) % 4) {
		for (uint32_t r = 0; r < rows; r++)
			zero_elems(data, fmt, esz, e + r * 16, n);
		return;
	}
	for (uint32_t r = 0; r < rows; r++)
		fill_words((volatile uint32_t *)(uintptr_t)(data +
							   (e + r * 16) * esz),
			   words, 0);
}

/*
 * Zero the elements of the tile at addr in rows >= r0 or columns >= c0.
 * Tile layout: four 16 x 16 faces, each row-major. A face wholly in the
 * padding is one run; in another, its rows from r0 on are one run and
 * each row above has a run from c0. Block floats keep their 64 exponent
 * bytes first, left alone: a zero mantissa is 0 whatever its exponent.
 */
static void mask_tile(uint32_t addr, uint32_t fmt, uint32_t r0, uint32_t c0)
{
	uint32_t data = addr, esz = 1;

	if (r0 >= 32 && c0 >= 32)
		return;
	if (fmt == F_FLOAT32)
		esz = 4;
	else if (fmt == F_FLOAT16 || fmt == F_FLOAT16_B)
		esz = 2;
	else
		data = addr + 64; /* Bfp8_b: a byte an element; Bfp4_b */
	for (uint32_t f = 0; f < 4; f++) {
		const uint32_t fr = f / 2 * 16, fc = f % 2 * 16, e0 = f * 256;
		/* This face's first padding row and column, 0..16. */
		const uint32_t pr = r0 <= fr ? 0 : min_u32(r0 - fr, 16);
		const uint32_t pc = c0 <= fc ? 0 : min_u32(c0 - fc, 16);

		if (pr == 0 || pc == 0) {
			zero_elems(data, fmt, esz, e0, 256);
			continue;
		}
		if (pr < 16)
			zero_elems(data, fmt, esz, e0 + pr * 16, (16 - pr) * 16);
		if (pc < 16)
			zero_cols(data, fmt, esz, e0 + pc, pr, 16 - pc);
	}
}

/* rows x cols tiles from page base (row stride rs, column stride cs)
 * into L1 at dst, rows `stride` tiles apart. */
static void read_block(const InterleavedAddrGenFast *g, uint32_t base,
		       uint32_t rs, uint32_t cs, uint32_t rows, uint32_t cols,
		       uint32_t dst, uint32_t stride)
{
	uint32_t tile = g->page_size;

	for (uint32_t r = 0; r < rows; r++) {
		uint32_t id = base + r * rs;
		uint32_t at = dst + r * stride * tile;

		for (uint32_t c = 0; c < cols; c++, id += cs, at += tile)
			noc_async_read_tile(id, g, at);
	}
}

void kernel_main(void)
{
	const uint32_t SH = get_named_compile_time_arg_val("SH");
	const uint32_t SW = get_named_compile_time_arg_val("SW");
	const uint32_t KB = get_named_compile_time_arg_val("KB");
	const bool ta = get_named_compile_time_arg_val("TA");
	const bool tb = get_named_compile_time_arg_val("TB");
	const bool has_bias = get_named_compile_time_arg_val("BIAS");
	const bool lockstep = get_named_compile_time_arg_val("LOCKSTEP");
	const uint32_t u0 = get_arg_val(6), count = get_arg_val(7);
	const uint32_t ustride = get_arg_val(8);
	const uint32_t mt = get_arg_val(9), nt = get_arg_val(10);
	const uint32_t kt = get_arg_val(11), br = get_arg_val(12);
	const uint32_t bc = get_arg_val(13), pm = get_arg_val(14);
	const uint32_t pn = get_arg_val(15), zn = get_arg_val(16);
	const uint32_t a_sw = get_arg_val(17), a_sz = get_arg_val(18);
	const uint32_t a_rs = get_arg_val(19), a_cs = get_arg_val(20);
	const uint32_t b_sw = get_arg_val(21), b_sz = get_arg_val(22);
	const uint32_t b_rs = get_arg_val(23), b_cs = get_arg_val(24);
	const uint32_t vk = get_arg_val(25), vn = get_arg_val(26);
	const uint32_t a_first = get_arg_val(1), b_first = get_arg_val(3);
	const InterleavedAddrGenFast ga = {
		.bank_base_address = get_arg_val(0),
		.page_size = get_tile_size(CB_A),
		.data_format = get_dataformat(CB_A),
		.is_dram = get_named_compile_time_arg_val("A_DRAM"),
	};
	const InterleavedAddrGenFast gb = {
		.bank_base_address = get_arg_val(2),
		.page_size = get_tile_size(CB_B),
		.data_format = get_dataformat(CB_B),
		.is_dram = get_named_compile_time_arg_val("B_DRAM"),
	};
	const uint32_t fa = get_dataformat(CB_A), fb = get_dataformat(CB_B);
	const uint32_t sa = get_tile_size(CB_A), sb = get_tile_size(CB_B);
	struct share sha, shb;

	get_share(&sha, 27, 39);
	get_share(&shb, 33, 41);
	if (has_bias) {
		/* The zero tile the bias is broadcast through: all-zero
		 * bytes are 0 in every format. */
		volatile uint32_t *z;
		uint32_t words = get_tile_size(CB_ZERO) / 4;

		cb_reserve_back(CB_ZERO, 1);
		z = (volatile uint32_t *)(uintptr_t)get_write_ptr(CB_ZERO);
		for (uint32_t i = 0; i < words; i++)
			z[i] = 0;
		cb_push_back(CB_ZERO, 1);
	}
	for (uint32_t t = 0; t < count; t++) {
		const uint32_t u = u0 + t * ustride;
		const uint32_t ob = u / (br * bc);
		const uint32_t m0 = (u / bc) % br * pm, n0 = u % bc * pn;
		const uint32_t bm = min_u32(pm, mt - m0), bn = min_u32(pn, nt - n0);
		const uint32_t w = ob / zn, z = ob % zn;
		const uint32_t abase = a_first + w * a_sw + z * a_sz;
		const uint32_t bbase = b_first + w * b_sw + z * b_sz;
		const uint32_t em = lockstep ? pm : bm, en = lockstep ? pn : bn;

		for (uint32_t sr = 0; sr < em; sr += SH) {
			const uint32_t rh = sr < bm ? min_u32(SH, bm - sr) : 0;

			for (uint32_t sc = 0; sc < en; sc += SW) {
				const uint32_t cw = sc < bn ? min_u32(SW, bn - sc) : 0;

				if (has_bias && rh && cw) {
					const InterleavedAddrGenFast gz = {
						.bank_base_address = get_arg_val(4),
						.page_size = get_tile_size(CB_BIAS),
						.data_format = get_dataformat(CB_BIAS),
						.is_dram = get_named_compile_time_arg_val("BIAS_DRAM"),
					};
					uint32_t p;

					cb_reserve_back(CB_BIAS, SW);
					p = get_write_ptr(CB_BIAS);
					read_block(&gz, get_arg_val(5) + n0 + sc, 0, 1,
						   1, cw, p, SW);
					noc_async_read_barrier();
					if (n0 + sc + cw == nt)
						mask_tile(p + (cw - 1) * gz.page_size,
							  get_dataformat(CB_BIAS), 32, vn);
					cb_push_back(CB_BIAS, SW);
				}
				for (uint32_t k0 = 0; k0 < kt; k0 += KB) {
					const uint32_t kv = min_u32(KB, kt - k0);
					const bool last_k = k0 + kv == kt && vk < 32;
					const bool last_n = n0 + sc + cw == nt && vn < 32;
					uint32_t pa, pb;

					cb_reserve_back(CB_A, SH * KB);
					cb_reserve_back(CB_B, KB * SW);
					pa = get_write_ptr(CB_A);
					pb = get_write_ptr(CB_B);
					signal_ready(&sha);
					signal_ready(&shb);
					if (sha.role != RECEIVE) {
						read_block(&ga, abase + (m0 + sr) * a_rs + k0 * a_cs,
							   a_rs, a_cs, rh, kv, pa, KB);
					}
					if (shb.role != RECEIVE) {
						read_block(&gb, bbase + k0 * b_rs + (n0 + sc) * b_cs,
							   b_rs, b_cs, kv, cw, pb, SW);
					}
					noc_async_read_barrier();
					if (sha.role != RECEIVE && last_k) {
						for (uint32_t r = 0; r < rh; r++)
							mask_tile(pa + (r * KB + kv - 1) * sa, fa,
								  ta ? vk : 32, ta ? 32 : vk);
					}
					if (shb.role != RECEIVE && (last_k || last_n)) {
						for (uint32_t r = 0; r < kv; r++) {
							for (uint32_t c = 0; c < cw; c++) {
								uint32_t kr = last_k && r == kv - 1 ? vk : 32;
								uint32_t nc = last_n && c == cw - 1 ? vn : 32;

								if (kr == 32 && nc == 32)
									continue;
								mask_tile(pb + (r * SW + c) * sb, fb,
									  tb ? nc : kr, tb ? kr : nc);
							}
						}
					}
					send(&sha, pa, SH * KB * sa);
					send(&shb, pb, KB * SW * sb);
					wait_data(&sha);
					wait_data(&shb);
					cb_push_back(CB_A, SH * KB);
					cb_push_back(CB_B, KB * SW);
				}
			}
		}
	}
}
