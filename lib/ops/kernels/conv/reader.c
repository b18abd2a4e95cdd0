// SPDX-License-Identifier: Apache-2.0
/*
 * conv2d and conv_transpose2d, reader: the on-device im2col. For each
 * block of this core's output (RT tile rows of output pixels x NB tiles
 * of output channels) and each step of K (KB tiles), it gathers the
 * im2col tiles A [RT x KB] into CB 0 and reads the weight tiles
 * B [KB x NB] into CB 1 (whole blocks: partial ones are padded, so every
 * push is the CB's half).
 *
 * x is [N*IH*IW, C] in tile layout (CT tiles of channels). K tile k is
 * tap k / CT (kh = tap / KW, kw = tap % KW) and input channel tile
 * k % CT, so row i of im2col tile (r, k) is one row of one input tile:
 * its two 16-value face rows. Rows whose source rows are consecutive
 * inside one face (stride 1) are read in one NOC read per face column;
 * rows in the padding, or past the last pixel, are zeroed in L1.
 *
 *   MODE 0 (conv):      ih = oh*SH - PT + kh*DH
 *   MODE 1 (transposed): ih = (oh + PT - kh*DH) / SH when it divides
 *
 * With HAS_BIAS it first pushes RT ones tiles (CB 2, Float16_b, column 0
 * ones) and the NT bias tiles (CB 3); the compute kernel adds bias as
 * ones x bias through the matrix unit.
 *
 * Runtime args: x addr, x first tile, w addr, w first tile, bias addr,
 * bias first tile, first block, blocks. Common runtime args: IH, IW, CT,
 * OH, OW, P (output pixels), KW, SH, SW, PT, PL, DH, DW, KT, NT, RT, NB,
 * KB, NBLK (channel blocks), MODE, ESZ (bytes per x value).
 * Named compile-time args: X_DRAM, W_DRAM, B_DRAM, HAS_BIAS.
 */
#include "dataflow_api.h"

#include "../common/fill.h"

#define CB_A 0
#define CB_B 1
#define CB_ONES 2
#define CB_BIAS 3
#define MAX_ROWS 512 /* 16 tile rows of pixels */

static int32_t row_oh[MAX_ROWS], row_ow[MAX_ROWS], row_base[MAX_ROWS];

/* The geometry (common runtime args), read once. */
static int32_t g_ih, g_iw, g_sh, g_sw, g_pt, g_pl, g_dh, g_dw;
static uint32_t g_oh, g_ow, g_npix, g_mode, g_first_p;

/*
 * A tile's 32 rows as runs: rows run_row[j] .. + run_len[j] - 1 read input
 * rows run_src[j] .. (consecutive, inside one face of the source and of
 * the destination), or are zero (run_src -1).
 */
static uint32_t nruns, run_row[32], run_len[32];
static int32_t run_src[32];

static void add_run(uint32_t i, uint32_t len, int32_t src)
{
	/* split at face boundaries; extend the last run where it continues */
	while (len) {
		uint32_t l = len;

		if (l > 16 - i % 16)
			l = 16 - i % 16;
		if (src >= 0 && l > 16 - (uint32_t)src % 16)
			l = 16 - (uint32_t)src % 16;
		if (nruns && run_row[nruns - 1] + run_len[nruns - 1] == i && i % 16 &&
		    (src < 0 ? run_src[nruns - 1] < 0 :
		     run_src[nruns - 1] >= 0 && (uint32_t)src % 16 &&
		     run_src[nruns - 1] + (int32_t)run_len[nruns - 1] == src)) {
			run_len[nruns - 1] += l;
		} else {
			run_row[nruns] = i;
			run_len[nruns] = l;
			run_src[nruns] = src;
			nruns++;
		}
		i += l;
		len -= l;
		if (src >= 0)
			src += (int32_t)l;
	}
}

/* Runs of the 32 output pixels from p0 for tap (kh, kw). */
static void make_runs(uint32_t p0, int32_t kh, int32_t kw)
{
	uint32_t i = 0, p = p0;

	nruns = 0;
	if (g_mode == 0 && g_sw == 1) {
		/* Stride 1 along W: a segment of one output row reads
		 * consecutive input pixels. */
		uint32_t n = p / (g_oh * g_ow), rem = p % (g_oh * g_ow);
		int32_t oh = (int32_t)(rem / g_ow), ow = (int32_t)(rem % g_ow);

		while (i < 32) {
			uint32_t left = 32 - i, seg = g_ow - (uint32_t)ow;
			int32_t ih = oh * g_sh - g_pt + kh * g_dh;

			if (seg > left)
				seg = left;
			if (p >= g_npix) {
				add_run(i, left, -1);
				break;
			}
			if (p + seg > g_npix)
				seg = g_npix - p;
			if (ih < 0 || ih >= g_ih) {
				add_run(i, seg, -1);
			} else {
				int32_t iw = ow - g_pl + kw * g_dw;
				int32_t base = (int32_t)(n * (uint32_t)g_ih * (uint32_t)g_iw) + ih * g_iw;
				uint32_t done = 0;

				if (iw < 0) {
					uint32_t z = (uint32_t)-iw < seg ? (uint32_t)-iw : seg;

					add_run(i, z, -1);
					done = z;
					iw = 0;
				}
				if (done < seg && iw < g_iw) {
					uint32_t v = seg - done;

					if ((uint32_t)(g_iw - iw) < v)
						v = (uint32_t)(g_iw - iw);
					add_run(i + done, v, base + iw);
					done += v;
				}
				if (done < seg)
					add_run(i + done, seg - done, -1);
			}
			i += seg;
			p += seg;
			ow += (int32_t)seg;
			if (ow == (int32_t)g_ow) {
				ow = 0;
				if (++oh == (int32_t)g_oh) {
					oh = 0;
					n++;
				}
			}
		}
		return;
	}
	/* Any stride, and transposed: row by row. */
	for (i = 0; i < 32; i++) {
		const uint32_t q = p0 - g_first_p + i;
		int32_t src = -1;

		if (row_base[q] >= 0) {
			int32_t ih, iw;

			if (g_mode == 0) {
				ih = row_oh[q] * g_sh - g_pt + kh * g_dh;
				iw = row_ow[q] * g_sw - g_pl + kw * g_dw;
			} else {
				int32_t th = row_oh[q] + g_pt - kh * g_dh;
				int32_t tw = row_ow[q] + g_pl - kw * g_dw;

				ih = th >= 0 && th % g_sh == 0 ? th / g_sh : -1;
				iw = tw >= 0 && tw % g_sw == 0 ? tw / g_sw : -1;
			}
			if (ih >= 0 && ih < g_ih && iw >= 0 && iw < g_iw)
				src = row_base[q] + ih * g_iw + iw;
		}
		add_run(i, 1, src);
	}
}

void kernel_main(void)
{
	const uint32_t x_addr = get_arg_val(0), x_first = get_arg_val(1);
	const uint32_t w_addr = get_arg_val(2), w_first = get_arg_val(3);
	const uint32_t b_addr = get_arg_val(4), b_first = get_arg_val(5);
	const uint32_t u0 = get_arg_val(6), nu = get_arg_val(7);
	const int32_t ih_n = (int32_t)get_common_arg_val(0);
	const int32_t iw_n = (int32_t)get_common_arg_val(1);
	const uint32_t ct = get_common_arg_val(2);
	const uint32_t oh_n = get_common_arg_val(3), ow_n = get_common_arg_val(4);
	const uint32_t npix = get_common_arg_val(5), kw_n = get_common_arg_val(6);
	const int32_t sh = (int32_t)get_common_arg_val(7);
	const int32_t sw = (int32_t)get_common_arg_val(8);
	const int32_t pt = (int32_t)get_common_arg_val(9);
	const int32_t pl = (int32_t)get_common_arg_val(10);
	const int32_t dh = (int32_t)get_common_arg_val(11);
	const int32_t dw = (int32_t)get_common_arg_val(12);
	const uint32_t kt = get_common_arg_val(13), nt = get_common_arg_val(14);
	const uint32_t rt = get_common_arg_val(15), nb = get_common_arg_val(16);
	const uint32_t kb = get_common_arg_val(17);
	const uint32_t nblk = get_common_arg_val(18);
	const uint32_t mode = get_common_arg_val(19);
	const uint32_t esz = get_common_arg_val(20);
	const uint32_t sa = get_tile_size(CB_A), sbw = get_tile_size(CB_B);
	const uint32_t frow = 16 * esz; /* bytes of a face row */
	const InterleavedAddrGenFast gx = {
		.bank_base_address = x_addr,
		.page_size = sa,
		.data_format = get_dataformat(CB_A),
		.is_dram = get_named_compile_time_arg_val("X_DRAM"),
	};
	const InterleavedAddrGenFast gw = {
		.bank_base_address = w_addr,
		.page_size = sbw,
		.data_format = get_dataformat(CB_B),
		.is_dram = get_named_compile_time_arg_val("W_DRAM"),
	};
	uint32_t cur_mb = 0xffffffffu, last_st = 0xffffffffu;
	uint64_t last_base = 0;

	g_ih = ih_n;
	g_iw = iw_n;
	g_sh = sh;
	g_sw = sw;
	g_pt = pt;
	g_pl = pl;
	g_dh = dh;
	g_dw = dw;
	g_oh = oh_n;
	g_ow = ow_n;
	g_npix = npix;
	g_mode = mode;

	if (get_named_compile_time_arg_val("HAS_BIAS")) {
		const uint32_t sbias = get_tile_size(CB_BIAS);
		const InterleavedAddrGenFast gb = {
			.bank_base_address = b_addr,
			.page_size = sbias,
			.data_format = get_dataformat(CB_BIAS),
			.is_dram = get_named_compile_time_arg_val("B_DRAM"),
		};
		uint32_t o, pb;

		cb_reserve_back(CB_ONES, rt);
		o = get_write_ptr(CB_ONES);
		/* Ones in column 0, zeros elsewhere (bfloat16 tiles). */
		for (uint32_t t = 0; t < rt; t++)
			fill_mask_tile(o + t * 2048, 2, 0x3F80u, 0, 0, 1, 0, 32);
		cb_push_back(CB_ONES, rt);
		cb_reserve_back(CB_BIAS, nt);
		pb = get_write_ptr(CB_BIAS);
		for (uint32_t t = 0; t < nt; t++)
			noc_async_read_tile(b_first + t, gb, pb + t * sbias);
		noc_async_read_barrier();
		cb_push_back(CB_BIAS, nt);
	}

	for (uint32_t u = u0; u < u0 + nu; u++) {
		const uint32_t mb = u / nblk, nbk = u % nblk;
		const uint32_t nbc = nt - nbk * nb < nb ? nt - nbk * nb : nb;

		if (mb != cur_mb && !(mode == 0 && sw == 1)) {
			/* Where each of the block's rows of pixels is. */
			cur_mb = mb;
			g_first_p = mb * rt * 32;
			for (uint32_t i = 0; i < rt * 32; i++) {
				uint32_t p = mb * rt * 32 + i;

				if (p >= npix) {
					row_base[i] = -1;
					continue;
				}
				uint32_t n = p / (oh_n * ow_n), rem = p % (oh_n * ow_n);

				row_base[i] = (int32_t)(n * (uint32_t)ih_n * (uint32_t)iw_n);
				row_oh[i] = (int32_t)(rem / ow_n);
				row_ow[i] = (int32_t)(rem % ow_n);
			}
		}
		for (uint32_t k0 = 0; k0 < kt; k0 += kb) {
			const uint32_t kbc = kt - k0 < kb ? kt - k0 : kb;
			uint32_t pa, pw;

			cb_reserve_back(CB_A, rt * kb);
			pa = get_write_ptr(CB_A);
			for (uint32_t r = 0; r < rt; r++) {
				uint32_t run_tap = 0xffffffffu;

				for (uint32_t k = 0; k < kbc; k++) {
					const uint32_t kg = k0 + k, tap = kg / ct, tc = kg % ct;
					const uint32_t dst = pa + (r * kb + k) * sa;

					if (tap != run_tap) {
						/* The runs of this row of tiles and tap,
						 * the same for every channel tile. */
						run_tap = tap;
						make_runs(mb * rt * 32 + r * 32, (int32_t)(tap / kw_n),
							  (int32_t)(tap % kw_n));
					}
					for (uint32_t j = 0; j < nruns; j++) {
						const uint32_t i = run_row[j], len = run_len[j];
						const uint32_t doff = ((i / 16) * 512 + (i % 16) * 16) * esz;

						if (run_src[j] < 0) {
							zero_bytes(dst + doff, dst + doff + len * frow);
							zero_bytes(dst + doff + 256 * esz,
								   dst + doff + 256 * esz + len * frow);
						} else {
							const uint32_t src = (uint32_t)run_src[j], sr = src % 32;
							const uint32_t st = x_first + (src / 32) * ct + tc;
							const uint32_t soff = ((sr / 16) * 512 + (sr % 16) * 16) * esz;
							uint64_t a;

							if (st != last_st) {
								/* runs often share a source tile */
								last_st = st;
								last_base = get_noc_addr(st, gx, 0);
							}
							a = last_base + soff;

							noc_async_read(a, dst + doff, len * frow);
							noc_async_read(a + 256 * esz, dst + doff + 256 * esz,
								       len * frow);
						}
					}
				}
			}
			cb_reserve_back(CB_B, kb * nb);
			pw = get_write_ptr(CB_B);
			for (uint32_t k = 0; k < kbc; k++)
				for (uint32_t c = 0; c < nbc; c++)
					noc_async_read_tile(w_first + (k0 + k) * nt + nbk * nb + c,
							    gw, pw + (k * nb + c) * sbw);
			noc_async_read_barrier();
			cb_push_back(CB_A, rt * kb);
			cb_push_back(CB_B, kb * nb);
		}
	}
}
