/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Filling L1 from a data-movement kernel: constant tiles, and the padding
 * of a tile zeroed before it is used. On the chip model the harts are
 * interpreted and their instructions are what a kernel costs, so these
 * store words, eight a turn, rather than element by element.
 * Inlined into each kernel's text by scripts/embed-text.py.
 */
#ifndef TT_OPS_KERNELS_FILL_H
#define TT_OPS_KERNELS_FILL_H

#include <stdint.h>

/* p[0..n) = v. */
static inline void fill_words(volatile uint32_t *p, uint32_t n, uint32_t v)
{
	for (; n >= 8; n -= 8, p += 8) {
		p[0] = v;
		p[1] = v;
		p[2] = v;
		p[3] = v;
		p[4] = v;
		p[5] = v;
		p[6] = v;
		p[7] = v;
	}
	while (n--)
		*p++ = v;
}

/* Zero L1 bytes [from, to): bytes up to a word boundary, words, bytes. */
static inline void zero_bytes(uint32_t from, uint32_t to)
{
	for (; from < to && (from & 3); from++)
		*(volatile uint8_t *)(uintptr_t)from = 0;
	if (from + 4 <= to) {
		uint32_t words = (to - from) / 4;

		fill_words((volatile uint32_t *)(uintptr_t)from, words, 0);
		from += words * 4;
	}
	for (; from < to; from++)
		*(volatile uint8_t *)(uintptr_t)from = 0;
}

/* n elements of esz bytes (2 or 4, 2-aligned) from L1 address p, all v
 * (v's low esz bytes). */
static inline void fill_elems(uint32_t p, uint32_t esz, uint32_t n, uint32_t v)
{
	if (esz == 4) {
		fill_words((volatile uint32_t *)(uintptr_t)p, n, v);
		return;
	}
	v &= 0xFFFFu;
	if (n && (p & 2)) {
		*(volatile uint16_t *)(uintptr_t)p = (uint16_t)v;
		p += 2;
		n--;
	}
	fill_words((volatile uint32_t *)(uintptr_t)p, n / 2, v | v << 16);
	if (n & 1)
		*(volatile uint16_t *)(uintptr_t)(p + n / 2 * 4) = (uint16_t)v;
}

static inline uint32_t fill_clamp(int32_t v, uint32_t hi)
{
	return v < 0 ? 0 : (uint32_t)v > hi ? hi : (uint32_t)v;
}

/*
 * A 0/1 tile of esz-byte elements at L1 address p (tile layout: four
 * 16 x 16 faces, each row-major): row r < rows holds `one` in columns
 * lo0 + r * dlo to hi0 + r * dhi (excluded), clipped to the row, and 0
 * elsewhere; rows from `rows` on are 0. Column masks (c < vc: 0, 0, vc,
 * 0), row masks (r < vr: 0, 0, 32, 0, vr) and triangles (c <= r: 0, 0, 1,
 * 1; c >= r: 0, 1, 32, 0) are all of this form.
 */
static inline void fill_mask_tile(uint32_t p, uint32_t esz, uint32_t one,
				  int32_t lo0, int32_t dlo, int32_t hi0,
				  int32_t dhi, uint32_t rows)
{
	for (uint32_t r = 0; r < 32; r++) {
		uint32_t lo = fill_clamp(lo0 + (int32_t)r * dlo, 32);
		uint32_t hi = fill_clamp(hi0 + (int32_t)r * dhi, 32);

		if (r >= rows || hi < lo)
			hi = lo;
		for (uint32_t fc = 0; fc < 32; fc += 16) {
			uint32_t a = lo <= fc ? 0 : lo - fc > 16 ? 16 : lo - fc;
			uint32_t b = hi <= fc ? 0 : hi - fc > 16 ? 16 : hi - fc;
			uint32_t row = p + (((r / 16) * 2 + fc / 16) * 256 +
					    (r % 16) * 16) * esz;

			fill_elems(row, esz, a, 0);
			fill_elems(row + a * esz, esz, b - a, one);
			fill_elems(row + b * esz, esz, 16 - b, 0);
		}
	}
}

#endif /* TT_OPS_KERNELS_FILL_H */
