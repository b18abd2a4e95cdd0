// SPDX-License-Identifier: Apache-2.0
/*
 * Format and layout conversion of host tensors (tt/tensor.h). Every
 * element goes through the one conversion module (common/dataformat.h):
 * df_convert between row-major forms, df_tilize_convert and
 * df_untilize_convert per [r, c] matrix between layouts, and
 * df_convert_tiles between tiled forms.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/dataformat.h"
#include "tensor_internal.h"

static enum df_format df(enum tt_data_format f)
{
	return (enum df_format)f;
}

/* Bytes of one [r, c] matrix of g in fmt and layout. */
static size_t matrix_bytes(const struct tt_tgeom *g, enum tt_data_format fmt,
			   enum tt_tensor_layout layout)
{
	if (layout == TT_TENSOR_TILED)
		return g->tiles / g->mats * df_tile_bytes(df(fmt));
	return g->volume / g->mats * df_elem_bytes(df(fmt));
}

/* Tilize (or untilize) each matrix in turn. */
static int by_matrix(const struct tt_tgeom *g, enum tt_data_format to,
		     enum tt_tensor_layout lto, uint8_t *dst,
		     enum tt_data_format from, const uint8_t *src)
{
	size_t db = matrix_bytes(g, to, lto);
	size_t sb = matrix_bytes(g, from,
				 lto == TT_TENSOR_TILED ? TT_TENSOR_ROW_MAJOR
							: TT_TENSOR_TILED);
	int ret = 0;

	for (size_t i = 0; i < g->mats && !ret; i++) {
		uint8_t *d = dst + i * db;
		const uint8_t *s = src + i * sb;

		if (lto == TT_TENSOR_TILED)
			ret = df_tilize_convert(df(to), d, db, df(from), s, sb,
						g->r, g->c);
		else
			ret = df_untilize_convert(df(to), d, db, df(from), s,
						  sb, g->r, g->c);
	}
	return ret;
}

int tt_tensor_convert_raw(const struct tt_tgeom *g, enum tt_data_format to,
			  enum tt_tensor_layout lto, void *dst, size_t dst_len,
			  enum tt_data_format from, enum tt_tensor_layout lfrom,
			  const void *src, size_t src_len)
{
	if (lto == TT_TENSOR_ROW_MAJOR && lfrom == TT_TENSOR_ROW_MAJOR)
		return df_convert(df(to), dst, dst_len, df(from), src, src_len,
				  g->volume);
	if (lto == TT_TENSOR_TILED && lfrom == TT_TENSOR_TILED)
		return df_convert_tiles(df(to), dst, dst_len, df(from), src,
					src_len, g->tiles);
	return by_matrix(g, to, lto, dst, from, src);
}

static bool overlap(const void *a, size_t alen, const void *b, size_t blen)
{
	uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;

	return pa < pb + blen && pb < pa + alen;
}

/* "Float16_b tiled" into buf. */
static const char *form(enum tt_data_format fmt, enum tt_tensor_layout layout,
			char *buf, size_t len)
{
	snprintf(buf, len, "%s %s", df_name(df(fmt)),
		 tt_tensor_layout_name(layout));
	return buf;
}

int tt_tensor_copy(tt_tensor *dst, const tt_tensor *src)
{
	char a[TT_DESC_LEN], b[TT_DESC_LEN];
	int ret;

	if (!dst || !src)
		return tt_error(-EINVAL, "tt_tensor_copy: %s is NULL",
				dst ? "src" : "dst");
	tt_tensor_describe(src, a, sizeof(a));
	tt_tensor_describe(dst, b, sizeof(b));
	if (!tt_tgeom_same(&dst->g, &src->g))
		return tt_error(-EINVAL,
				"tt_tensor_copy: %s into %s: the shapes differ",
				a, b);
	if (overlap(dst->data, dst->size, src->data, src->size))
		return tt_error(
			-EINVAL,
			"tt_tensor_copy: %s into %s: they share storage", a, b);
	ret = tt_tensor_convert_raw(&src->g, dst->fmt, dst->layout, dst->data,
				    dst->size, src->fmt, src->layout, src->data,
				    src->size);
	if (ret)
		return tt_error(ret, "tt_tensor_copy: %s into %s: %s", a, b,
				tt_convert_why(ret));
	return 0;
}

int tt_tensor_to(const tt_tensor *t, enum tt_data_format fmt,
		 enum tt_tensor_layout layout, tt_tensor **out)
{
	tt_tensor *n;
	int ret;

	if (!t || !out)
		return tt_error(-EINVAL, "tt_tensor_to: %s is NULL",
				t ? "out" : "tensor");
	ret = tt_tensor_create(&t->shape, fmt, layout, &n);
	if (ret)
		return ret;
	ret = tt_tensor_copy(n, t);
	if (ret) {
		tt_tensor_free(n);
		return ret;
	}
	*out = n;
	return 0;
}

/* Check fmt, layout and the caller's buffer for t's shape. */
static int check_io(const tt_tensor *t, enum tt_data_format fmt,
		    enum tt_tensor_layout layout, const void *mem, size_t len,
		    const char *fn)
{
	char what[2 * TT_DESC_LEN], d[TT_DESC_LEN], f[TT_DESC_LEN];
	size_t bytes;
	int ret;

	if (!t || !mem)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				t ? "the caller's memory" : "tensor");
	snprintf(what, sizeof(what), "%s: %s as", fn,
		 tt_tensor_describe(t, d, sizeof(d)));
	ret = tt_tensor_check_format(fmt, layout, what);
	if (!ret)
		ret = tt_tgeom_bytes(&t->g, fmt, layout, &bytes, what);
	if (ret)
		return ret;
	if (len != bytes)
		return tt_error(-EINVAL, "%s %s takes %zu bytes, not %zu", what,
				form(fmt, layout, f, sizeof(f)), bytes, len);
	if (overlap(mem, len, t->data, t->size))
		return tt_error(
			-EINVAL,
			"%s %s: the caller's memory overlaps the tensor", what,
			form(fmt, layout, f, sizeof(f)));
	return 0;
}

int tt_tensor_export(const tt_tensor *t, enum tt_data_format fmt,
		     enum tt_tensor_layout layout, void *dst, size_t len)
{
	char d[TT_DESC_LEN], f[TT_DESC_LEN];
	int ret = check_io(t, fmt, layout, dst, len, "tt_tensor_export");

	if (ret)
		return ret;
	ret = tt_tensor_convert_raw(&t->g, fmt, layout, dst, len, t->fmt,
				    t->layout, t->data, t->size);
	if (ret)
		return tt_error(ret, "tt_tensor_export: %s as %s: %s",
				tt_tensor_describe(t, d, sizeof(d)),
				form(fmt, layout, f, sizeof(f)),
				tt_convert_why(ret));
	return 0;
}

int tt_tensor_import(tt_tensor *t, enum tt_data_format fmt,
		     enum tt_tensor_layout layout, const void *src, size_t len)
{
	char d[TT_DESC_LEN], f[TT_DESC_LEN];
	int ret = check_io(t, fmt, layout, src, len, "tt_tensor_import");

	if (ret)
		return ret;
	ret = tt_tensor_convert_raw(&t->g, t->fmt, t->layout, t->data, t->size,
				    fmt, layout, src, len);
	if (ret)
		return tt_error(ret, "tt_tensor_import: %s from %s: %s",
				tt_tensor_describe(t, d, sizeof(d)),
				form(fmt, layout, f, sizeof(f)),
				tt_convert_why(ret));
	return 0;
}
