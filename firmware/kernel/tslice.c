// SPDX-License-Identifier: Apache-2.0
/*
 * DPRINT_TSLICE (debug/dprint.h): a slice of a tile in a CB, decoded from
 * the CB's data format as the host's common/dataformat.c decodes it: a
 * tile is four 16x16 faces, each row-major; block formats (Bfp*_b) start
 * with 64 shared exponents, one per face row, then the elements, each a
 * sign bit above its magnitude bits, packed from the low bits of a byte.
 */
#include "debug/dprint.h"
#include "kernel_api/cb.h"
#include "kinternal.h"

#define TILE_DIM 32u
#define FACE_DIM 16u
#define BFP_EXPONENTS 64u

/* Index of element (r, c) in tile order. */
static uint32_t tile_index(uint32_t r, uint32_t c)
{
	uint32_t face = (r / FACE_DIM) * 2 + c / FACE_DIM;

	return face * FACE_DIM * FACE_DIM + (r % FACE_DIM) * FACE_DIM +
	       c % FACE_DIM;
}

static const char *format_name(uint32_t f)
{
	switch (f) {
	case DataFormat_Float32: return "Float32";
	case DataFormat_Float16: return "Float16";
	case DataFormat_Float16_b: return "Float16_b";
	case DataFormat_Bfp8_b: return "Bfp8_b";
	case DataFormat_Bfp4_b: return "Bfp4_b";
	case DataFormat_Bfp2_b: return "Bfp2_b";
	case DataFormat_Int32: return "Int32";
	case DataFormat_UInt32: return "UInt32";
	case DataFormat_UInt16: return "UInt16";
	case DataFormat_Int8: return "Int8";
	case DataFormat_UInt8: return "UInt8";
	default: return NULL;
	}
}

/* Magnitude bits of a block format's elements; 0 for other formats. */
static uint32_t bfp_bits(uint32_t f)
{
	return f == DataFormat_Bfp8_b ? 7 : f == DataFormat_Bfp4_b ? 3 :
	       f == DataFormat_Bfp2_b ? 1 : 0;
}

/* Exact: the value is m * 2^e with m below 2^7. */
static float scale(uint32_t m, int32_t e)
{
	double v = m;

	for (; e > 0; e--)
		v *= 2;
	for (; e < 0; e++)
		v /= 2;
	return (float)v;
}

static float half_value(uint16_t h)
{
	uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
	float v = e == 0 ? scale(m, -24) :
		  e == 31 ? (m ? __builtin_nanf("") : __builtin_inff()) :
			    scale(m | 0x400, (int32_t)e - 25);

	return h & 0x8000 ? -v : v;
}

static float bfp_value(const uint8_t *t, uint32_t w, uint32_t i)
{
	uint32_t per_byte = 8 / (w + 1), shift = (i % per_byte) * (w + 1);
	uint32_t bits = t[BFP_EXPONENTS + i / per_byte] >> shift;
	uint32_t m = bits & ((1u << w) - 1);
	float v = scale(m, (int32_t)t[i / FACE_DIM] - 127 - (int32_t)(w - 1));

	return bits & (1u << w) ? -v : v;
}

static void print_element(const uint8_t *t, uint32_t f, uint32_t i,
			  const char *sep)
{
	uint32_t w = bfp_bits(f);

	if (w)
		ttk_dprintf("%s%g", sep, (double)bfp_value(t, w, i));
	else if (f == DataFormat_Float32)
		ttk_dprintf("%s%g", sep, F32(((const uint32_t *)t)[i]));
	else if (f == DataFormat_Float16_b)
		ttk_dprintf("%s%g", sep, BF16(((const uint16_t *)t)[i]));
	else if (f == DataFormat_Float16)
		ttk_dprintf("%s%g", sep,
			    (double)half_value(((const uint16_t *)t)[i]));
	else if (f == DataFormat_Int32)
		ttk_dprintf("%s%ld", sep, (long)((const int32_t *)t)[i]);
	else if (f == DataFormat_UInt32)
		ttk_dprintf("%s%lu", sep, (unsigned long)((const uint32_t *)t)[i]);
	else if (f == DataFormat_UInt16)
		ttk_dprintf("%s%u", sep, (unsigned)((const uint16_t *)t)[i]);
	else if (f == DataFormat_Int8)
		ttk_dprintf("%s%d", sep, (int)(int8_t)t[i]);
	else
		ttk_dprintf("%s%u", sep, (unsigned)t[i]);
}

static bool slice_ok(struct ttk_slice_range r)
{
	return r.hs && r.ws && r.h0 < r.h1 && r.w0 < r.w1 &&
	       r.h1 <= TILE_DIM && r.w1 <= TILE_DIM;
}

/* The tile's first byte, or 0 after saying why there is none. */
static uint32_t tile_addr(uint32_t cb, uint32_t tile, int ptr)
{
	const struct ttk_cb *c = ttk_cb_of(cb);
	uint32_t at = ptr == TSLICE_WR_PTR ? c->wr_ptr : c->rd_ptr;

	if (cb >= TT_CB_COUNT || !(ttk_cb_mask() & (1u << cb))) {
		ttk_dprintf("DPRINT_TSLICE: CB %lu is not configured\n",
			    (unsigned long)cb);
		return 0;
	}
	if (!format_name(c->format)) {
		ttk_dprintf("DPRINT_TSLICE: CB %lu holds data format %lu, which it cannot print\n",
			    (unsigned long)cb, (unsigned long)c->format);
		return 0;
	}
	if (!c->tile_size || tile >= c->num_pages ||
	    c->fifo_limit - at < (tile + 1) * c->tile_size) {
		ttk_dprintf("DPRINT_TSLICE: tile %lu is past the end of CB %lu\n",
			    (unsigned long)tile, (unsigned long)cb);
		return 0;
	}
	return at + tile * c->tile_size;
}

void ttk_dprint_tslice(uint32_t cb, uint32_t tile, struct ttk_slice_range r,
		       int ptr)
{
	uint32_t at;
	const uint8_t *t;

	if (!(ttk_flags() & TT_KCTX_F_PRINT))
		return;
	if (!slice_ok(r)) {
		ttk_dprintf("DPRINT_TSLICE: bad slice rows %u:%u:%u cols %u:%u:%u\n",
			    (unsigned)r.h0, (unsigned)r.h1, (unsigned)r.hs,
			    (unsigned)r.w0, (unsigned)r.w1, (unsigned)r.ws);
		return;
	}
	at = tile_addr(cb, tile, ptr);
	if (!at)
		return;
	t = (const uint8_t *)(uintptr_t)at;
	ttk_dprintf("CB %lu tile %lu (%s) rows %u:%u:%u cols %u:%u:%u\n",
		    (unsigned long)cb, (unsigned long)tile,
		    format_name(ttk_cb_of(cb)->format), (unsigned)r.h0,
		    (unsigned)r.h1, (unsigned)r.hs, (unsigned)r.w0,
		    (unsigned)r.w1, (unsigned)r.ws);
	for (uint32_t row = r.h0; row < r.h1; row += r.hs) {
		for (uint32_t col = r.w0; col < r.w1; col += r.ws)
			print_element(t, ttk_cb_of(cb)->format,
				      tile_index(row, col),
				      col == r.w0 ? "" : " ");
		ttk_dprintf("\n");
	}
}
