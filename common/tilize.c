// SPDX-License-Identifier: Apache-2.0
/*
 * Tilize and untilize, plain and fused with format conversion, and
 * conversion of whole tiles between formats (see dataformat.h).
 *
 * Both directions walk the matrix one strip of 32 rows at a time and, in
 * each tile, face by face and face row by face row: a tile's destination
 * (or source) is touched sequentially while the strip's 32 source rows
 * stay in cache. The unit of work is a run of 16 contiguous elements (one
 * face row), so the inner loops have a fixed trip count the compiler can
 * vectorise; the walkers are inlined into each caller with its run
 * function known.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "dataformat.h"
#include "dataformat_impl.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

struct geom {
	size_t rows, cols;
	size_t trows, tcols; /* tiles down and across */
	size_t ntiles;
};

static int geom_init(struct geom *g, size_t rows, size_t cols)
{
	if (!rows || !cols)
		return -EINVAL;
	g->rows = rows;
	g->cols = cols;
	g->trows = rows / DF_TILE_DIM + (rows % DF_TILE_DIM != 0);
	g->tcols = cols / DF_TILE_DIM + (cols % DF_TILE_DIM != 0);
	if (__builtin_mul_overflow(g->trows, g->tcols, &g->ntiles))
		return -EOVERFLOW;
	return 0;
}

/* Bytes of the row-major matrix and of its tiles (tile_bytes each). */
static int geom_sizes(const struct geom *g, size_t elem, size_t tile_bytes,
		      size_t *flat, size_t *tiled)
{
	size_t n;

	if (__builtin_mul_overflow(g->rows, g->cols, &n) ||
	    __builtin_mul_overflow(n, elem, flat) ||
	    __builtin_mul_overflow(g->ntiles, tile_bytes, tiled))
		return -EOVERFLOW;
	return 0;
}

int df_tiled_bytes(enum df_format fmt, size_t rows, size_t cols, size_t *bytes)
{
	struct geom g;
	size_t flat;
	int ret;

	if (!df_tile_bytes(fmt))
		return -EINVAL;
	ret = geom_init(&g, rows, cols);
	if (!ret)
		ret = geom_sizes(&g, 1, df_tile_bytes(fmt), &flat, bytes);
	return ret;
}

/* Elements of the face row starting at (row, col) that are inside the
 * matrix (0..16). */
static ALWAYS_INLINE size_t run_valid(const struct geom *g, size_t row,
				      size_t col)
{
	if (row >= g->rows || col >= g->cols)
		return 0;
	return g->cols - col < DF_FACE_DIM ? g->cols - col : DF_FACE_DIM;
}

/*
 * What a walker does with each face row: convert `valid` elements between
 * the matrix (flat) and the tile (tiled), and, tilizing, fill the rest of
 * the tile's run with padding.
 */
struct walk {
	const struct df_conv *conv;  /* NULL: plain copy of elem bytes */
	size_t flat_elem, tile_elem; /* element bytes on either side */
	const void *pad; /* tilizing: tile_elem bytes, or NULL for zero */
};

typedef void (*walk_fn)(const struct walk *w, uint8_t *tile,
			const uint8_t *flat, size_t valid);
typedef void (*unwalk_fn)(const struct walk *w, uint8_t *flat,
			  const uint8_t *tile, size_t valid);

static ALWAYS_INLINE void fill_pad(const struct walk *w, uint8_t *tile,
				   size_t from)
{
	size_t e = w->tile_elem;

	if (!w->pad) {
		memset(tile + from * e, 0, (DF_FACE_DIM - from) * e);
		return;
	}
	for (size_t i = from; i < DF_FACE_DIM; i++)
		memcpy(tile + i * e, w->pad, e);
}

/* Tilize tile (tr, tc) of the matrix at flat into tile. */
static ALWAYS_INLINE void gather_tile(const struct geom *g,
				      const struct walk *w, walk_fn fn,
				      uint8_t *tile, const uint8_t *flat,
				      size_t tr, size_t tc)
{
	for (unsigned f = 0; f < 4; f++) {
		size_t row0 = tr * DF_TILE_DIM + (f >> 1) * DF_FACE_DIM;
		size_t col = tc * DF_TILE_DIM + (f & 1) * DF_FACE_DIM;

		for (unsigned r = 0; r < DF_FACE_DIM; r++) {
			size_t row = row0 + r;
			size_t v = run_valid(g, row, col);
			uint8_t *t =
				tile + (f * DF_FACE_ELEMS + r * DF_FACE_DIM) *
					       w->tile_elem;

			if (v)
				fn(w, t,
				   flat + (row * g->cols + col) * w->flat_elem,
				   v);
			if (v < DF_FACE_DIM)
				fill_pad(w, t, v);
		}
	}
}

/* Untilize tile (tr, tc) from tile into the matrix at flat. */
static ALWAYS_INLINE void scatter_tile(const struct geom *g,
				       const struct walk *w, unwalk_fn fn,
				       uint8_t *flat, const uint8_t *tile,
				       size_t tr, size_t tc)
{
	for (unsigned f = 0; f < 4; f++) {
		size_t row0 = tr * DF_TILE_DIM + (f >> 1) * DF_FACE_DIM;
		size_t col = tc * DF_TILE_DIM + (f & 1) * DF_FACE_DIM;

		for (unsigned r = 0; r < DF_FACE_DIM; r++) {
			size_t row = row0 + r;
			size_t v = run_valid(g, row, col);

			if (v)
				fn(w,
				   flat + (row * g->cols + col) * w->flat_elem,
				   tile + (f * DF_FACE_ELEMS +
					   r * DF_FACE_DIM) *
						   w->tile_elem,
				   v);
		}
	}
}

static ALWAYS_INLINE void gather_all(const struct geom *g, const struct walk *w,
				     walk_fn fn, uint8_t *dst,
				     const uint8_t *src)
{
	size_t tb = DF_TILE_ELEMS * w->tile_elem;

	for (size_t tr = 0; tr < g->trows; tr++)
		for (size_t tc = 0; tc < g->tcols; tc++)
			gather_tile(g, w, fn, dst + (tr * g->tcols + tc) * tb,
				    src, tr, tc);
}

static ALWAYS_INLINE void scatter_all(const struct geom *g,
				      const struct walk *w, unwalk_fn fn,
				      uint8_t *dst, const uint8_t *src)
{
	size_t tb = DF_TILE_ELEMS * w->tile_elem;

	for (size_t tr = 0; tr < g->trows; tr++)
		for (size_t tc = 0; tc < g->tcols; tc++)
			scatter_tile(g, w, fn, dst,
				     src + (tr * g->tcols + tc) * tb, tr, tc);
}

/* ---- run functions ---- */

static void copy_in(const struct walk *w, uint8_t *tile, const uint8_t *flat,
		    size_t v)
{
	memcpy(tile, flat, v * w->flat_elem);
}

static void copy_out(const struct walk *w, uint8_t *flat, const uint8_t *tile,
		     size_t v)
{
	memcpy(flat, tile, v * w->flat_elem);
}

static void conv_in(const struct walk *w, uint8_t *tile, const uint8_t *flat,
		    size_t v)
{
	w->conv->run(w->conv, tile, flat, v);
}

static void conv_out(const struct walk *w, uint8_t *flat, const uint8_t *tile,
		     size_t v)
{
	w->conv->run(w->conv, flat, tile, v);
}

/* The hot path: fp32 rows into bfloat16 tiles. */
static ALWAYS_INLINE void f32_bf16_in(const struct walk *w, uint8_t *tile,
				      const uint8_t *flat, size_t v)
{
	uint16_t out[DF_FACE_DIM];
	uint32_t in[DF_FACE_DIM];

	(void)w;
	if (v == DF_FACE_DIM) {
		memcpy(in, flat, sizeof(in));
		for (unsigned i = 0; i < DF_FACE_DIM; i++)
			out[i] = df_bf16_rne_bits(in[i]);
		memcpy(tile, out, sizeof(out));
		return;
	}
	for (size_t i = 0; i < v; i++) {
		memcpy(&in[0], flat + 4 * i, 4);
		out[0] = df_bf16_rne_bits(in[0]);
		memcpy(tile + 2 * i, &out[0], 2);
	}
}

static ALWAYS_INLINE void bf16_f32_out(const struct walk *w, uint8_t *flat,
				       const uint8_t *tile, size_t v)
{
	uint32_t out[DF_FACE_DIM];
	uint16_t in[DF_FACE_DIM];

	(void)w;
	if (v == DF_FACE_DIM) {
		memcpy(in, tile, sizeof(in));
		for (unsigned i = 0; i < DF_FACE_DIM; i++)
			out[i] = (uint32_t)in[i] << 16;
		memcpy(flat, out, sizeof(out));
		return;
	}
	for (size_t i = 0; i < v; i++) {
		memcpy(&in[0], tile + 2 * i, 2);
		out[0] = (uint32_t)in[0] << 16;
		memcpy(flat + 4 * i, &out[0], 4);
	}
}

/* Convert 16 fp32 at s into bfloat16 at d, a loop gcc vectorises. */
static ALWAYS_INLINE void bf16_run16(uint16_t *restrict d,
				     const uint32_t *restrict s)
{
	for (unsigned i = 0; i < DF_FACE_DIM; i++)
		d[i] = df_bf16_rne_bits(s[i]);
}

/*
 * fp32 -> bfloat16 tiles, the hot path. A strip of 32 rows is read
 * sequentially, row by row, each row feeding one face row of two faces in
 * every tile across (the strip's tiles stay in cache while they fill).
 * Only whole tiles go this way; the edges take the walker.
 */
static void tilize_f32_bf16(const struct geom *g, const struct walk *w,
			    uint16_t *dst, const uint32_t *src)
{
	size_t full_tr = g->rows / DF_TILE_DIM, full_tc = g->cols / DF_TILE_DIM;

	for (size_t tr = 0; tr < g->trows; tr++) {
		uint16_t *strip = dst + tr * g->tcols * DF_TILE_ELEMS;

		for (unsigned r = 0; tr < full_tr && r < DF_TILE_DIM; r++) {
			const uint32_t *s =
				src + (tr * DF_TILE_DIM + r) * g->cols;
			uint16_t *d = strip + (r >> 4) * 2 * DF_FACE_ELEMS +
				      (r & 15) * DF_FACE_DIM;

			for (size_t tc = 0; tc < full_tc; tc++) {
				bf16_run16(d, s);
				bf16_run16(d + DF_FACE_ELEMS, s + DF_FACE_DIM);
				s += DF_TILE_DIM;
				d += DF_TILE_ELEMS;
			}
		}
		for (size_t tc = 0; tc < g->tcols; tc++)
			if (tr >= full_tr || tc >= full_tc)
				gather_tile(
					g, w, f32_bf16_in,
					(uint8_t *)(strip + tc * DF_TILE_ELEMS),
					(const uint8_t *)src, tr, tc);
	}
}

/* ---- plain tilize ---- */

static int plain_check(struct geom *g, size_t dst_len, size_t src_len,
		       size_t rows, size_t cols, size_t elem, bool tilize)
{
	size_t flat, tiled;
	int ret;

	if (!elem || elem > 16)
		return -EINVAL;
	ret = geom_init(g, rows, cols);
	if (!ret)
		ret = geom_sizes(g, elem, DF_TILE_ELEMS * elem, &flat, &tiled);
	if (ret)
		return ret;
	if (tilize ? dst_len < tiled || src_len < flat
		   : dst_len < flat || src_len < tiled)
		return -ENOBUFS;
	return 0;
}

int df_tilize(void *dst, size_t dst_len, const void *src, size_t src_len,
	      size_t rows, size_t cols, size_t elem_size, const void *pad)
{
	struct walk w = {NULL, elem_size, elem_size, pad};
	struct geom g;
	int ret =
		plain_check(&g, dst_len, src_len, rows, cols, elem_size, true);

	if (ret)
		return ret;
	if (!dst || !src)
		return -EINVAL;
	gather_all(&g, &w, copy_in, dst, src);
	return 0;
}

int df_untilize(void *dst, size_t dst_len, const void *src, size_t src_len,
		size_t rows, size_t cols, size_t elem_size)
{
	struct walk w = {NULL, elem_size, elem_size, NULL};
	struct geom g;
	int ret =
		plain_check(&g, dst_len, src_len, rows, cols, elem_size, false);

	if (ret)
		return ret;
	if (!dst || !src)
		return -EINVAL;
	scatter_all(&g, &w, copy_out, dst, src);
	return 0;
}

/* ---- fused tilize and convert ---- */

static int fmt_check(enum df_format fmt, bool block_ok)
{
	if (!df_tile_bytes(fmt))
		return -EINVAL;
	if (!df_is_supported(fmt))
		return -ENOTSUP;
	return !block_ok && df_is_block(fmt) ? -EINVAL : 0;
}

/* Check formats and lengths of a fused call; flat_fmt is row-major. */
static int fused_check(struct geom *g, enum df_format flat_fmt, size_t flat_len,
		       enum df_format tile_fmt, size_t tile_len, size_t rows,
		       size_t cols)
{
	size_t flat, tiled;
	int ret = fmt_check(flat_fmt, false);

	if (!ret)
		ret = fmt_check(tile_fmt, true);
	if (!ret)
		ret = geom_init(g, rows, cols);
	if (!ret)
		ret = geom_sizes(g, df_elem_bytes(flat_fmt),
				 df_tile_bytes(tile_fmt), &flat, &tiled);
	if (ret)
		return ret;
	return flat_len < flat || tile_len < tiled ? -ENOBUFS : 0;
}

static void tilize_block(const struct geom *g, enum df_format to, uint8_t *dst,
			 enum df_format from, const uint8_t *src)
{
	struct df_conv c;
	struct walk w = {&c, df_elem_bytes(from), 4, NULL};
	float tile[DF_TILE_ELEMS];
	size_t tb = df_tile_bytes(to);

	df_conv_init(&c, DF_FLOAT32, from);
	for (size_t tr = 0; tr < g->trows; tr++)
		for (size_t tc = 0; tc < g->tcols; tc++) {
			gather_tile(g, &w, conv_in, (uint8_t *)tile, src, tr,
				    tc);
			df_bfp_encode_tile(to, dst + (tr * g->tcols + tc) * tb,
					   tile);
		}
}

static void untilize_block(const struct geom *g, enum df_format to,
			   uint8_t *dst, enum df_format from,
			   const uint8_t *src)
{
	struct df_conv c;
	struct walk w = {&c, df_elem_bytes(to), 4, NULL};
	float tile[DF_TILE_ELEMS];
	size_t tb = df_tile_bytes(from);

	df_conv_init(&c, to, DF_FLOAT32);
	for (size_t tr = 0; tr < g->trows; tr++)
		for (size_t tc = 0; tc < g->tcols; tc++) {
			df_bfp_decode_tile(from, tile,
					   src + (tr * g->tcols + tc) * tb);
			scatter_tile(g, &w, conv_out, dst,
				     (const uint8_t *)tile, tr, tc);
		}
}

int df_tilize_convert(enum df_format to, void *dst, size_t dst_len,
		      enum df_format from, const void *src, size_t src_len,
		      size_t rows, size_t cols)
{
	struct df_conv c;
	struct walk w;
	struct geom g;
	int ret = fused_check(&g, from, src_len, to, dst_len, rows, cols);

	if (ret)
		return ret;
	if (!dst || !src)
		return -EINVAL;
	if (df_is_block(to)) {
		tilize_block(&g, to, dst, from, src);
		return 0;
	}
	df_conv_init(&c, to, from);
	w = (struct walk){&c, c.from_size, c.to_size, NULL};
	if (to == DF_FLOAT16_B && from == DF_FLOAT32)
		tilize_f32_bf16(&g, &w, dst, src);
	else if (to == from)
		gather_all(&g, &w, copy_in, dst, src);
	else
		gather_all(&g, &w, conv_in, dst, src);
	return 0;
}

int df_untilize_convert(enum df_format to, void *dst, size_t dst_len,
			enum df_format from, const void *src, size_t src_len,
			size_t rows, size_t cols)
{
	struct df_conv c;
	struct walk w;
	struct geom g;
	int ret = fused_check(&g, to, dst_len, from, src_len, rows, cols);

	if (ret)
		return ret;
	if (!dst || !src)
		return -EINVAL;
	if (df_is_block(from)) {
		untilize_block(&g, to, dst, from, src);
		return 0;
	}
	df_conv_init(&c, to, from);
	w = (struct walk){&c, c.to_size, c.from_size, NULL};
	if (to == DF_FLOAT32 && from == DF_FLOAT16_B)
		scatter_all(&g, &w, bf16_f32_out, dst, src);
	else if (to == from)
		scatter_all(&g, &w, copy_out, dst, src);
	else
		scatter_all(&g, &w, conv_out, dst, src);
	return 0;
}

/* ---- tiles to tiles ---- */

/* One tile of fmt at src as 1024 floats in tile order. */
static void tile_to_f32(enum df_format fmt, float *dst, const uint8_t *src)
{
	struct df_conv c;

	if (df_is_block(fmt)) {
		df_bfp_decode_tile(fmt, dst, src);
		return;
	}
	df_conv_init(&c, DF_FLOAT32, fmt);
	c.run(&c, dst, src, DF_TILE_ELEMS);
}

/* 1024 floats in tile order into one tile of fmt at dst. */
static void f32_to_tile(enum df_format fmt, uint8_t *dst, const float *src)
{
	struct df_conv c;

	if (df_is_block(fmt)) {
		df_bfp_encode_tile(fmt, dst, src);
		return;
	}
	df_conv_init(&c, fmt, DF_FLOAT32);
	c.run(&c, dst, src, DF_TILE_ELEMS);
}

int df_convert_tiles(enum df_format to, void *dst, size_t dst_len,
		     enum df_format from, const void *src, size_t src_len,
		     size_t ntiles)
{
	size_t need_d, need_s;
	float tile[DF_TILE_ELEMS];
	struct df_conv c;
	int ret = fmt_check(to, true);

	if (!ret)
		ret = fmt_check(from, true);
	if (ret)
		return ret;
	if (__builtin_mul_overflow(ntiles, df_tile_bytes(to), &need_d) ||
	    __builtin_mul_overflow(ntiles, df_tile_bytes(from), &need_s))
		return -EOVERFLOW;
	if (dst_len < need_d || src_len < need_s)
		return -ENOBUFS;
	if (!ntiles)
		return 0;
	if (!dst || !src)
		return -EINVAL;
	if (!df_is_block(to) && !df_is_block(from)) {
		/* Tile order is element order: one bulk conversion. */
		df_conv_init(&c, to, from);
		c.run(&c, dst, src, ntiles * DF_TILE_ELEMS);
		return 0;
	}
	for (size_t i = 0; i < ntiles; i++) {
		tile_to_f32(from, tile,
			    (const uint8_t *)src + i * df_tile_bytes(from));
		f32_to_tile(to, (uint8_t *)dst + i * df_tile_bytes(to), tile);
	}
	return 0;
}
