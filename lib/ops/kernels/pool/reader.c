// SPDX-License-Identifier: Apache-2.0
/*
 * Pools and upsample, reader: for each output tile of this core (tile
 * row t of output pixels, channel tile tc: unit t * CT + tc) and each
 * window tap (kh, kw), the tile of the input rows that tap reads goes to
 * CB 0, gathered as conv's reader does (two face rows per pixel; runs of
 * consecutive rows in one NOC read). A tap in the padding reads FILL
 * (-inf for max, 0 for avg); rows past the last pixel read 0.
 *
 *   MODE 0 max, 1 avg: ih = oh*SH - PT + kh*DH
 *   MODE 2 upsample (one tap): ih = oh / SH, iw = ow / SW
 *
 * For avg it first pushes, per unit, a Float32 tile (CB 1) whose row i
 * is 1 / (the divisor of pixel i): the window inside the padded input
 * (CIP, count_include_pad) or inside the input.
 *
 * Runtime args: x addr, x first tile, first unit, units. Common runtime
 * args: IH, IW, CT, OH, OW, P, KH, KW, SH, SW, PT, PL, DH, DW, MODE, ESZ,
 * FILL (a 32-bit pattern), PB, PR, CIP.
 * Named compile-time args: X_DRAM.
 */
#include "dataflow_api.h"

#define CB_IN 0
#define CB_SCALE 1

static int32_t row_oh[32], row_ow[32], row_base[32];

static void fill_bytes(uint32_t addr, uint32_t n, uint32_t v)
{
	volatile uint32_t *p = (volatile uint32_t *)addr;

	for (uint32_t i = 0; i < n / 4; i++)
		p[i] = v;
}

void kernel_main(void)
{
	const uint32_t x_addr = get_arg_val(0), x_first = get_arg_val(1);
	const uint32_t u0 = get_arg_val(2), nu = get_arg_val(3);
	const int32_t ih_n = (int32_t)get_common_arg_val(0);
	const int32_t iw_n = (int32_t)get_common_arg_val(1);
	const uint32_t ct = get_common_arg_val(2);
	const uint32_t oh_n = get_common_arg_val(3), ow_n = get_common_arg_val(4);
	const uint32_t npix = get_common_arg_val(5);
	const uint32_t kh_n = get_common_arg_val(6), kw_n = get_common_arg_val(7);
	const int32_t sh = (int32_t)get_common_arg_val(8);
	const int32_t sw = (int32_t)get_common_arg_val(9);
	const int32_t pt = (int32_t)get_common_arg_val(10);
	const int32_t pl = (int32_t)get_common_arg_val(11);
	const int32_t dh = (int32_t)get_common_arg_val(12);
	const int32_t dw = (int32_t)get_common_arg_val(13);
	const uint32_t mode = get_common_arg_val(14);
	const uint32_t esz = get_common_arg_val(15);
	const uint32_t fill = get_common_arg_val(16);
	const int32_t pb = (int32_t)get_common_arg_val(17);
	const int32_t pr = (int32_t)get_common_arg_val(18);
	const uint32_t cip = get_common_arg_val(19);
	const uint32_t sa = get_tile_size(CB_IN);
	const uint32_t frow = 16 * esz;
	const InterleavedAddrGenFast gx = {
		.bank_base_address = x_addr,
		.page_size = sa,
		.data_format = get_dataformat(CB_IN),
		.is_dram = get_named_compile_time_arg_val("X_DRAM"),
	};
	uint32_t cur_t = 0xffffffffu;

	for (uint32_t u = u0; u < u0 + nu; u++) {
		const uint32_t t = u / ct, tc = u % ct;

		if (t != cur_t) {
			cur_t = t;
			for (uint32_t i = 0; i < 32; i++) {
				uint32_t p = t * 32 + i;

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
		if (mode == 1) {
			volatile float *s;

			cb_reserve_back(CB_SCALE, 1);
			s = (volatile float *)get_write_ptr(CB_SCALE);
			for (uint32_t i = 0; i < 32; i++) {
				float v = 0.0f;

				if (row_base[i] >= 0) {
					int32_t hs = row_oh[i] * sh - pt, ws = row_ow[i] * sw - pl;
					int32_t he = hs + (int32_t)kh_n, we = ws + (int32_t)kw_n;

					if (he > ih_n + pb)
						he = ih_n + pb;
					if (we > iw_n + pr)
						we = iw_n + pr;
					int32_t cnt = (he - hs) * (we - ws);

					if (!cip) {
						if (hs < 0)
							hs = 0;
						if (ws < 0)
							ws = 0;
						if (he > ih_n)
							he = ih_n;
						if (we > iw_n)
							we = iw_n;
						cnt = (he - hs) * (we - ws);
					}
					v = cnt > 0 ? 1.0f / (float)cnt : 0.0f;
				}
				for (uint32_t c = 0; c < 32; c++)
					s[(i / 16) * 512 + (c / 16) * 256 + (i % 16) * 16 + c % 16] = v;
			}
			cb_push_back(CB_SCALE, 1);
		}
		for (uint32_t tap = 0; tap < kh_n * kw_n; tap++) {
			const int32_t kh = (int32_t)(tap / kw_n), kw = (int32_t)(tap % kw_n);
			uint32_t dst, i = 0;

			cb_reserve_back(CB_IN, 1);
			dst = get_write_ptr(CB_IN);
			while (i < 32) {
				int32_t src = -1, ih, iw;
				uint32_t len = 1, val = 0;

				if (row_base[i] >= 0) {
					if (mode == 2) {
						ih = row_oh[i] / sh;
						iw = row_ow[i] / sw;
					} else {
						ih = row_oh[i] * sh - pt + kh * dh;
						iw = row_ow[i] * sw - pl + kw * dw;
					}
					if (ih >= 0 && ih < ih_n && iw >= 0 && iw < iw_n)
						src = row_base[i] + ih * iw_n + iw;
					else
						val = fill;
				}
				if (mode != 2 && sw == 1 && src >= 0) {
					uint32_t room = 16 - i % 16, sroom = 16 - (uint32_t)src % 16;
					uint32_t lim = room < sroom ? room : sroom;

					while (len < lim && i + len < 32 &&
					       row_base[i + len] == row_base[i] &&
					       row_oh[i + len] == row_oh[i] &&
					       row_ow[i + len] == row_ow[i] + (int32_t)len &&
					       row_ow[i + len] - pl + kw * dw < iw_n)
						len++;
				}
				const uint32_t doff = ((i / 16) * 512 + (i % 16) * 16) * esz;

				if (src < 0) {
					fill_bytes(dst + doff, frow, val);
					fill_bytes(dst + doff + 256 * esz, frow, val);
				} else {
					const uint32_t sr = (uint32_t)src % 32;
					const uint32_t st = x_first + ((uint32_t)src / 32) * ct + tc;
					const uint32_t soff = ((sr / 16) * 512 + (sr % 16) * 16) * esz;

					noc_async_read(get_noc_addr(st, gx, soff), dst + doff, len * frow);
					noc_async_read(get_noc_addr(st, gx, soff + 256 * esz),
						       dst + doff + 256 * esz, len * frow);
				}
				i += len;
			}
			noc_async_read_barrier();
			cb_push_back(CB_IN, 1);
		}
	}
}
