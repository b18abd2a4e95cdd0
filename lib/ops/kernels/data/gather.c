// SPDX-License-Identifier: Apache-2.0
/*
 * Data movement ops (lib/ops/data.c): one data-movement kernel per core
 * builds whole output units (tiles, or rows for untilize) element by
 * element from the input, with no arithmetic: every element is copied as
 * ES bytes, so every non-block format moves exactly.
 *
 * For each output element at logical [w, z, r, c] it finds the input
 * element that goes there:
 *   MODE 0 (affine: transpose, permute, slice, pad, repeat, concat,
 *     tilize, untilize): input dim d is output dim SRC[d] times STEP[d]
 *     plus START[d] (signed), taken modulo the input's dim when WRAP[d];
 *     a coordinate outside the input gives the pad value (or, with
 *     MERGE, leaves the element the output already holds);
 *   MODE 1 (reshape): the output element's linear index in C order,
 *     unflattened over the input's dims;
 *   MODE 2 (embedding): output [.., b, s, d] is table[index[b, s], d];
 *     an index at or past the table's rows (a negative Int32 counts as
 *     past) gives a row of zeros: the table is never read outside.
 * Elements in an output tile's padding (past the logical rows or
 * columns) are written as zero bytes, so an input's padding never
 * reaches an output.
 *
 * TILE_COPY (the op keeps every tile's rows and columns: it only moves
 * whole matrices [w, z], as a CN transpose, a concat, slice or repeat
 * along w or z, or a reshape keeping the last two dims do): each output
 * tile is its input tile, read straight into the output page, with the
 * padding of edge tiles zeroed. This is the only path block formats
 * (BITS bits per element: Bfp8_b 8, Bfp4_b 4, Bfp2_b 2; ES 0) take, as
 * their elements share exponents and cannot move alone.
 *
 * Input pages are cached in L1 (CB 0 as scratch, SLOTS pages,
 * direct-mapped by page number); IN_ROWS: the input is a buffer of row
 * pages (page (w * I1 + z) * I2 + r holds row r of matrix [w, z]);
 * OUT_ROWS: the output is (untilize).
 *
 * Runtime args: input address, input first page, output address, output
 * first page, first unit, units, index address, index first tile.
 * Common runtime args: see the A_* indices below.
 * Named compile-time args: MODE, ES, BITS, SLOTS, MERGE, TILE_COPY,
 * IN_ROWS, OUT_ROWS, IN_DRAM, OUT_DRAM, IDX_DRAM.
 */
#include "dataflow_api.h"

#define CB_CACHE 0
#define CB_IDX 1
#define CB_OUT 16

#define A_O 0     /* output dims [w, z, r, c] */
#define A_I 4     /* input dims */
#define A_OWT 8   /* output tiles per row, rows of tiles */
#define A_OHT 9
#define A_IWT 10  /* input tiles per row, rows of tiles */
#define A_IHT 11
#define A_SRC 12  /* per input dim: the output dim feeding it */
#define A_STEP 16
#define A_START 20
#define A_WRAP 24
#define A_PAD 28  /* the pad value's bits */
#define A_BOX0 29 /* first unit's [w, z, tile row, tile column] */
#define A_BOXN 33 /* units of the box per dim */
#define A_XR 37   /* index tensor rows, columns, tiles per row */
#define A_XC 38
#define A_XWT 39
#define A_INPAGE 40
#define A_OUTPAGE 41
#define A_COUNT 42

#define MODE get_named_compile_time_arg_val("MODE")
#define ES get_named_compile_time_arg_val("ES")
#define BITS get_named_compile_time_arg_val("BITS")
#define TILE_COPY get_named_compile_time_arg_val("TILE_COPY")
#define SLOTS get_named_compile_time_arg_val("SLOTS")
#define MERGE get_named_compile_time_arg_val("MERGE")
#define IN_ROWS get_named_compile_time_arg_val("IN_ROWS")
#define OUT_ROWS get_named_compile_time_arg_val("OUT_ROWS")

static uint32_t ga[A_COUNT];
static uint32_t tags[SLOTS];
static uint32_t cache_base, cache_stride, in_first, idx_tag, idx_base;
static InterleavedAddrGen gin, gidx;

/* Offset of element (r, c) in a tile (four 16 x 16 faces, row-major). */
static inline uint32_t tile_off(uint32_t r, uint32_t c)
{
	return ((r & 16) << 5) | ((c & 16) << 4) | ((r & 15) << 4) | (c & 15);
}

static inline void put(uint32_t dst, uint32_t src)
{
	if (ES == 1)
		*(volatile uint8_t *)dst = *(volatile uint8_t *)src;
	else if (ES == 2)
		*(volatile uint16_t *)dst = *(volatile uint16_t *)src;
	else
		*(volatile uint32_t *)dst = *(volatile uint32_t *)src;
}

static inline void put_val(uint32_t dst, uint32_t v)
{
	if (ES == 1)
		*(volatile uint8_t *)dst = (uint8_t)v;
	else if (ES == 2)
		*(volatile uint16_t *)dst = (uint16_t)v;
	else
		*(volatile uint32_t *)dst = v;
}

/* L1 address of input page `page` (read in on a miss). */
static uint32_t in_page(uint32_t page)
{
	uint32_t slot = page % SLOTS, a = cache_base + slot * cache_stride;

	if (tags[slot] != page + 1) {
		noc_async_read_page(page, gin, a);
		noc_async_read_barrier();
		tags[slot] = page + 1;
	}
	return a;
}

/* L1 address of input element [w, z, r, c]. */
static uint32_t in_elem(const uint32_t *i)
{
	if (IN_ROWS)
		return in_page((i[0] * ga[A_I + 1] + i[1]) * ga[A_I + 2] + i[2]) +
		       i[3] * ES;
	return in_page(in_first +
		       ((i[0] * ga[A_I + 1] + i[1]) * ga[A_IHT] + i[2] / 32) *
			       ga[A_IWT] + i[3] / 32) +
	       tile_off(i[2] & 31, i[3] & 31) * ES;
}

/* The index at [b, s] of the index tensor (tiles, 4-byte elements). */
static uint32_t index_at(uint32_t b, uint32_t s)
{
	uint32_t t = ((b / 32) * ga[A_XWT] + s / 32) + get_arg_val(7);

	if (idx_tag != t + 1) {
		noc_async_read_page(t, gidx, idx_base);
		noc_async_read_barrier();
		idx_tag = t + 1;
	}
	return *(volatile uint32_t *)(idx_base + tile_off(b & 31, s & 31) * 4);
}

/* Where output element o comes from: 1 and i set, or 0 (outside). */
static int source(const uint32_t *o, uint32_t *i)
{
	if (MODE == 1) {
		uint32_t l = ((o[0] * ga[A_O + 1] + o[1]) * ga[A_O + 2] + o[2]) *
				     ga[A_O + 3] + o[3];

		for (int d = 3; d >= 0; d--) {
			i[d] = l % ga[A_I + d];
			l /= ga[A_I + d];
		}
		return 1;
	}
	if (MODE == 2) {
		uint32_t v = index_at(o[1], o[2]);

		if (v >= ga[A_I + 2])
			return 0;
		i[0] = 0;
		i[1] = 0;
		i[2] = v;
		i[3] = o[3];
		return 1;
	}
	for (int d = 0; d < 4; d++) {
		int32_t v = (int32_t)(o[ga[A_SRC + d]] * ga[A_STEP + d]) +
			    (int32_t)ga[A_START + d];

		if (ga[A_WRAP + d])
			v = (int32_t)((uint32_t)v % ga[A_I + d]);
		if (v < 0 || (uint32_t)v >= ga[A_I + d])
			return 0;
		i[d] = (uint32_t)v;
	}
	return 1;
}

/* Zero element e (tile order) of the tile at buf: its bytes, or for a
 * block format its sign and magnitude bits (after the 64 exponent
 * bytes), which is the value 0 whatever the row's exponent. */
static void zero_elem(uint32_t buf, uint32_t e)
{
	if (BITS) {
		volatile uint8_t *b = (volatile uint8_t *)(buf + 64 + e * BITS / 8);
		uint32_t sh = (e % (8 / BITS)) * BITS;

		*b = (uint8_t)(*b & ~(((1u << BITS) - 1) << sh));
	} else {
		put_val(buf + e * ES, 0);
	}
}

/* Output tile [w, z, th, tc] as a copy of its input tile. */
static void copy_tile(uint32_t w, uint32_t z, uint32_t th, uint32_t tc,
		      uint32_t buf)
{
	uint32_t i[2], o[2] = { w, z };
	uint32_t vr = ga[A_O + 2] - th * 32, vc = ga[A_O + 3] - tc * 32;

	if (MODE == 1) {
		uint32_t m = w * ga[A_O + 1] + z;

		i[0] = m / ga[A_I + 1];
		i[1] = m % ga[A_I + 1];
	} else {
		for (int d = 0; d < 2; d++) {
			uint32_t v = o[ga[A_SRC + d]] * ga[A_STEP + d] +
				     ga[A_START + d];

			if (ga[A_WRAP + d])
				v %= ga[A_I + d];
			i[d] = v;
		}
	}
	noc_async_read_page(in_first + ((i[0] * ga[A_I + 1] + i[1]) * ga[A_IHT] +
					th) * ga[A_IWT] + tc,
			    gin, buf);
	noc_async_read_barrier();
	if (vr >= 32 && vc >= 32)
		return;
	for (uint32_t r = 0; r < 32; r++)
		for (uint32_t c = 0; c < 32; c++)
			if (r >= vr || c >= vc)
				zero_elem(buf, tile_off(r, c));
}

/* The input dim the output's last dim feeds (MODE 0), set at start. */
static uint32_t d3;

/*
 * MODE 0, one row of an output tile (flat: n elements of an output row
 * page from o[3] on): along the row only input dim d3 changes, so the other three are found (and checked) once, and the
 * input page only when d3 crosses a page.
 */
static void affine_row(uint32_t *o, uint32_t r, uint32_t buf, uint32_t n,
		       bool flat)
{
	uint32_t i[4], cur = 0xFFFFFFFFu, base = 0;
	const uint32_t step = ga[A_STEP + d3], lim = ga[A_I + d3];
	const int32_t start = (int32_t)ga[A_START + d3];
	const bool wrap = ga[A_WRAP + d3];
	bool ok = true;

	for (uint32_t d = 0; d < 4; d++) {
		int32_t v;

		if (d == d3)
			continue;
		v = (int32_t)(o[ga[A_SRC + d]] * ga[A_STEP + d]) +
		    (int32_t)ga[A_START + d];
		if (ga[A_WRAP + d])
			v = (int32_t)((uint32_t)v % ga[A_I + d]);
		if (v < 0 || (uint32_t)v >= ga[A_I + d])
			ok = false;
		i[d] = (uint32_t)v;
	}
	for (uint32_t c = 0; c < n; c++) {
		const uint32_t dst = buf + (flat ? c : tile_off(r, c)) * ES;
		const uint32_t oc = o[3] + c;
		uint32_t page, off;
		int32_t v;

		if (oc >= ga[A_O + 3]) {
			put_val(dst, 0);
			continue;
		}
		v = (int32_t)(oc * step) + start;
		if (wrap)
			v = (int32_t)((uint32_t)v % lim);
		if (!ok || v < 0 || (uint32_t)v >= lim) {
			if (!MERGE)
				put_val(dst, ga[A_PAD]);
			continue;
		}
		i[d3] = (uint32_t)v;
		if (IN_ROWS) {
			page = (i[0] * ga[A_I + 1] + i[1]) * ga[A_I + 2] + i[2];
			off = i[3] * ES;
		} else {
			page = in_first +
			       ((i[0] * ga[A_I + 1] + i[1]) * ga[A_IHT] + i[2] / 32) *
				       ga[A_IWT] + i[3] / 32;
			off = tile_off(i[2] & 31, i[3] & 31) * ES;
		}
		if (page != cur) {
			base = in_page(page);
			cur = page;
		}
		put(dst, base + off);
	}
}

static void out_tile(uint32_t w, uint32_t z, uint32_t th, uint32_t tc,
		     uint32_t buf)
{
	uint32_t o[4] = { w, z, 0, 0 }, i[4];

	for (uint32_t r = 0; r < 32; r++) {
		o[2] = th * 32 + r;
		if (o[2] >= ga[A_O + 2]) {
			for (uint32_t c = 0; c < 32; c++)
				put_val(buf + tile_off(r, c) * ES, 0);
			continue;
		}
		if (MODE == 0) {
			o[3] = tc * 32;
			affine_row(o, r, buf, 32, false);
			continue;
		}
		for (uint32_t c = 0; c < 32; c++) {
			uint32_t dst = buf + tile_off(r, c) * ES;

			o[3] = tc * 32 + c;
			if (o[3] >= ga[A_O + 3])
				put_val(dst, 0);
			else if (source(o, i))
				put(dst, in_elem(i));
			else if (!MERGE)
				put_val(dst, ga[A_PAD]);
		}
	}
}

void kernel_main(void)
{
	const uint32_t out_addr = get_arg_val(2), out_first = get_arg_val(3);
	const uint32_t start = get_arg_val(4), n = get_arg_val(5);
	const uint32_t buf = get_write_ptr(CB_OUT);
	InterleavedAddrGen gout;

	for (uint32_t k = 0; k < A_COUNT; k++)
		ga[k] = get_common_arg_val(k);
	for (uint32_t k = 0; k < SLOTS; k++)
		tags[k] = 0;
	idx_tag = 0;
	in_first = get_arg_val(1);
	gin = (InterleavedAddrGen){ .bank_base_address = get_arg_val(0),
				    .page_size = ga[A_INPAGE],
				    .is_dram = get_named_compile_time_arg_val("IN_DRAM") };
	gout = (InterleavedAddrGen){ .bank_base_address = out_addr,
				     .page_size = ga[A_OUTPAGE],
				     .is_dram = get_named_compile_time_arg_val("OUT_DRAM") };
	for (uint32_t d = 0; d < 4; d++)
		if (ga[A_SRC + d] == 3)
			d3 = d;
	cache_base = get_write_ptr(CB_CACHE);
	cache_stride = get_cb_page_size(CB_CACHE);
	if (MODE == 2) {
		gidx = (InterleavedAddrGen){ .bank_base_address = get_arg_val(6),
					     .page_size = 4096,
					     .is_dram = get_named_compile_time_arg_val("IDX_DRAM") };
		idx_base = get_write_ptr(CB_IDX);
	}

	for (uint32_t u = start; u < start + n; u++) {
		uint32_t page;

		if (OUT_ROWS) {
			/* Row u of the output: [w, z, r] (MODE 0) */
			uint32_t o[4];

			o[2] = u % ga[A_O + 2];
			o[1] = (u / ga[A_O + 2]) % ga[A_O + 1];
			o[0] = u / (ga[A_O + 2] * ga[A_O + 1]);
			o[3] = 0;
			affine_row(o, 0, buf, ga[A_O + 3], true);
			page = u;
		} else {
			uint32_t bwt = ga[A_BOXN + 3], bht = ga[A_BOXN + 2];
			uint32_t bz = ga[A_BOXN + 1];
			uint32_t tc = u % bwt + ga[A_BOX0 + 3];
			uint32_t th = (u / bwt) % bht + ga[A_BOX0 + 2];
			uint32_t z = (u / (bwt * bht)) % bz + ga[A_BOX0 + 1];
			uint32_t w = u / (bwt * bht * bz) + ga[A_BOX0 + 0];

			page = out_first +
			       ((w * ga[A_O + 1] + z) * ga[A_OHT] + th) * ga[A_OWT] + tc;
			if (TILE_COPY) {
				copy_tile(w, z, th, tc, buf);
			} else {
				if (MERGE) {
					noc_async_read_page(page, gout, buf);
					noc_async_read_barrier();
				}
				out_tile(w, z, th, tc, buf);
			}
		}
		noc_async_write_page(page, gout, buf);
		noc_async_write_barrier();
	}
}
