// SPDX-License-Identifier: Apache-2.0
/*
 * Host tensor objects (tt/tensor.h): shapes and their checks, creation,
 * references and ownership, queries, views. Conversions are in
 * tensor_convert.c, .npy files in tensor_npy*.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dataformat.h"
#include "tensor_internal.h"

/* ---- shapes ---- */

const char *tt_shape_str(const struct tt_shape *s, char *buf, size_t len)
{
	unsigned rank =
		s->rank > TT_TENSOR_MAX_RANK ? TT_TENSOR_MAX_RANK : s->rank;
	size_t at = 0;

	at += (size_t)snprintf(buf, len, "[");
	for (unsigned i = 0; i < rank && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%llu",
				       i ? "," : "",
				       (unsigned long long)s->dims[i]);
	if (at < len)
		snprintf(buf + at, len - at, "]");
	return buf;
}

const char *tt_tensor_layout_name(enum tt_tensor_layout layout)
{
	switch (layout) {
	case TT_TENSOR_ROW_MAJOR:
		return "row-major";
	case TT_TENSOR_TILED:
		return "tiled";
	}
	return "invalid";
}

static uint64_t tiles_across(uint64_t n)
{
	return n / TT_TILE_DIM + (n % TT_TILE_DIM != 0);
}

static int geom_sizes(struct tt_tgeom *g)
{
	size_t mats, vol, per_mat, tiles;

	if (__builtin_mul_overflow(g->w, g->z, &mats) ||
	    __builtin_mul_overflow(mats, g->r, &vol) ||
	    __builtin_mul_overflow(vol, g->c, &vol) ||
	    __builtin_mul_overflow(tiles_across(g->r), tiles_across(g->c),
				   &per_mat) ||
	    __builtin_mul_overflow(mats, per_mat, &tiles))
		return -EOVERFLOW;
	g->mats = mats;
	g->volume = vol;
	g->tiles = tiles;
	return 0;
}

int tt_tgeom_init(struct tt_tgeom *g, const struct tt_shape *shape,
		  const char *what)
{
	uint64_t d[TT_TENSOR_MAX_RANK] = {1, 1, 1, 1};
	char s[TT_DESC_LEN];
	unsigned pad;

	if (!shape)
		return tt_error(-EINVAL, "%s shape is NULL", what);
	if (shape->rank < 1 || shape->rank > TT_TENSOR_MAX_RANK)
		return tt_error(-EINVAL,
				"%s shape of rank %u: the rank must be 1 to %u",
				what, shape->rank, TT_TENSOR_MAX_RANK);
	pad = TT_TENSOR_MAX_RANK - shape->rank;
	for (unsigned i = 0; i < shape->rank; i++) {
		if (!shape->dims[i])
			return tt_error(-EINVAL,
					"%s shape %s: dimension %u is 0", what,
					tt_shape_str(shape, s, sizeof(s)), i);
		d[pad + i] = shape->dims[i];
	}
	*g = (struct tt_tgeom){.w = d[0], .z = d[1], .r = d[2], .c = d[3]};
	if (geom_sizes(g))
		return tt_error(-EOVERFLOW,
				"%s shape %s: the number of elements does not "
				"fit size_t",
				what, tt_shape_str(shape, s, sizeof(s)));
	return 0;
}

bool tt_tgeom_same(const struct tt_tgeom *a, const struct tt_tgeom *b)
{
	return a->w == b->w && a->z == b->z && a->r == b->r && a->c == b->c;
}

int tt_tensor_check_format(enum tt_data_format fmt,
			   enum tt_tensor_layout layout, const char *what)
{
	enum df_format f = (enum df_format)fmt;

	if (!df_tile_bytes(f))
		return tt_error(-EINVAL, "%s: %d is not a data format", what,
				(int)fmt);
	if (!df_is_supported(f))
		return tt_error(
			-ENOTSUP,
			"%s: format %s is not supported (its \"_b\" form is)",
			what, df_name(f));
	if (layout != TT_TENSOR_ROW_MAJOR && layout != TT_TENSOR_TILED)
		return tt_error(-EINVAL,
				"%s: layout %d is neither row-major (%d) nor "
				"tiled (%d)",
				what, (int)layout, TT_TENSOR_ROW_MAJOR,
				TT_TENSOR_TILED);
	if (df_is_block(f) && layout == TT_TENSOR_ROW_MAJOR)
		return tt_error(-EINVAL,
				"%s: %s exists only tiled, not row-major", what,
				df_name(f));
	return 0;
}

int tt_tgeom_bytes(const struct tt_tgeom *g, enum tt_data_format fmt,
		   enum tt_tensor_layout layout, size_t *bytes,
		   const char *what)
{
	enum df_format f = (enum df_format)fmt;
	bool over = layout == TT_TENSOR_TILED
			    ? __builtin_mul_overflow(g->tiles, df_tile_bytes(f),
						     bytes)
			    : __builtin_mul_overflow(g->volume,
						     df_elem_bytes(f), bytes);

	if (over)
		return tt_error(
			-EOVERFLOW,
			"%s: %zu elements of %s %s do not fit size_t bytes",
			what, g->volume, df_name(f),
			tt_tensor_layout_name(layout));
	return 0;
}

/* The geometry of shape for query fn, whose result pointer out (named
 * what) must not be NULL. */
static int query_geom(const struct tt_shape *shape, const void *out,
		      const char *fn, const char *what, struct tt_tgeom *g)
{
	int ret;

	if (!shape)
		return tt_error(-EINVAL, "%s: tensor shape is NULL", fn);
	ret = tt_tgeom_init(g, shape, "tensor");
	if (!ret && !out)
		ret = tt_error(-EINVAL, "%s: %s is NULL", fn, what);
	return ret;
}

int tt_shape_wzrc(const struct tt_shape *shape, uint64_t wzrc[4])
{
	struct tt_tgeom g;
	int ret = query_geom(shape, wzrc, "tt_shape_wzrc", "wzrc", &g);

	if (!ret) {
		wzrc[0] = g.w;
		wzrc[1] = g.z;
		wzrc[2] = g.r;
		wzrc[3] = g.c;
	}
	return ret;
}

int tt_shape_volume(const struct tt_shape *shape, size_t *volume)
{
	struct tt_tgeom g;
	int ret = query_geom(shape, volume, "tt_shape_volume", "volume", &g);

	if (!ret)
		*volume = g.volume;
	return ret;
}

int tt_shape_tiles(const struct tt_shape *shape, uint64_t *tiles)
{
	struct tt_tgeom g;
	int ret = query_geom(shape, tiles, "tt_shape_tiles", "tiles", &g);

	if (!ret)
		*tiles = g.tiles;
	return ret;
}

/* Check everything about a tensor to be, for fn; *g and *bytes describe
 * it. */
static int check_new(const char *fn, const struct tt_shape *shape,
		     enum tt_data_format fmt, enum tt_tensor_layout layout,
		     struct tt_tgeom *g, size_t *bytes)
{
	char what[TT_DESC_LEN + 16], s[TT_DESC_LEN];
	int ret;

	if (!shape)
		return tt_error(-EINVAL, "%s: tensor shape is NULL", fn);
	ret = tt_tgeom_init(g, shape, "tensor");
	if (ret)
		return ret;
	snprintf(what, sizeof(what), "tensor %s",
		 tt_shape_str(shape, s, sizeof(s)));
	ret = tt_tensor_check_format(fmt, layout, what);
	if (!ret)
		ret = tt_tgeom_bytes(g, fmt, layout, bytes, what);
	return ret;
}

int tt_tensor_storage_size(const struct tt_shape *shape,
			   enum tt_data_format fmt,
			   enum tt_tensor_layout layout, size_t *bytes)
{
	struct tt_tgeom g;
	size_t n;
	int ret = check_new(__func__, shape, fmt, layout, &g, &n);

	if (ret)
		return ret;
	if (!bytes)
		return tt_error(-EINVAL,
				"tt_tensor_storage_size: bytes is NULL");
	*bytes = n;
	return 0;
}

const char *tt_tensor_describe(const struct tt_tensor *t, char *buf, size_t len)
{
	char s[TT_DESC_LEN];

	snprintf(buf, len, "tensor %s %s %s",
		 tt_shape_str(&t->shape, s, sizeof(s)),
		 df_name((enum df_format)t->fmt),
		 tt_tensor_layout_name(t->layout));
	return buf;
}

/* ---- objects ---- */

static struct tt_tensor *tensor_alloc(const struct tt_shape *shape,
				      const struct tt_tgeom *g,
				      enum tt_data_format fmt,
				      enum tt_tensor_layout layout, size_t size)
{
	struct tt_tensor *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->refs = 1;
	t->shape = *shape;
	for (unsigned i = shape->rank; i < TT_TENSOR_MAX_RANK; i++)
		t->shape.dims[i] = 0; /* never compare garbage */
	t->g = *g;
	t->fmt = fmt;
	t->layout = layout;
	t->size = size;
	return t;
}

static int out_of_memory(const struct tt_shape *shape, size_t bytes)
{
	char s[TT_DESC_LEN];

	return tt_error(-ENOMEM, "tensor %s: out of memory for %zu bytes",
			tt_shape_str(shape, s, sizeof(s)), bytes);
}

int tt_tensor_create(const struct tt_shape *shape, enum tt_data_format fmt,
		     enum tt_tensor_layout layout, tt_tensor **out)
{
	struct tt_tensor *t;
	struct tt_tgeom g;
	size_t bytes;
	int ret = check_new(__func__, shape, fmt, layout, &g, &bytes);

	if (ret)
		return ret;
	if (!out)
		return tt_error(-EINVAL, "tt_tensor_create: out is NULL");
	t = tensor_alloc(shape, &g, fmt, layout, bytes);
	if (t)
		t->data = calloc(1, bytes);
	if (!t || !t->data) {
		free(t);
		return out_of_memory(shape, bytes);
	}
	*out = t;
	return 0;
}

/* len must be the storage size exactly: a mismatch is a wrong shape or
 * format more often than a generous buffer. */
static int check_len(const struct tt_shape *shape, enum tt_data_format fmt,
		     enum tt_tensor_layout layout, size_t len, size_t bytes,
		     const char *fn)
{
	char s[TT_DESC_LEN];

	if (len == bytes)
		return 0;
	return tt_error(-EINVAL, "%s: tensor %s %s %s takes %zu bytes, not %zu",
			fn, tt_shape_str(shape, s, sizeof(s)),
			df_name((enum df_format)fmt),
			tt_tensor_layout_name(layout), bytes, len);
}

int tt_tensor_from_data(const struct tt_shape *shape, enum tt_data_format fmt,
			enum tt_tensor_layout layout, const void *src,
			size_t len, tt_tensor **out)
{
	struct tt_tensor *t;
	struct tt_tgeom g;
	size_t bytes;
	int ret = check_new(__func__, shape, fmt, layout, &g, &bytes);

	if (ret)
		return ret;
	if (!src || !out)
		return tt_error(-EINVAL, "tt_tensor_from_data: %s is NULL",
				src ? "out" : "src");
	ret = check_len(shape, fmt, layout, len, bytes, "tt_tensor_from_data");
	if (ret)
		return ret;
	t = tensor_alloc(shape, &g, fmt, layout, bytes);
	if (t)
		t->data = malloc(bytes);
	if (!t || !t->data) {
		free(t);
		return out_of_memory(shape, bytes);
	}
	memcpy(t->data, src, bytes);
	*out = t;
	return 0;
}

int tt_tensor_wrap(const struct tt_shape *shape, enum tt_data_format fmt,
		   enum tt_tensor_layout layout, void *data, size_t len,
		   void (*release)(void *ctx), void *ctx, tt_tensor **out)
{
	struct tt_tensor *t;
	struct tt_tgeom g;
	size_t bytes;
	int ret = check_new(__func__, shape, fmt, layout, &g, &bytes);

	if (ret)
		return ret;
	if (!data || !out)
		return tt_error(-EINVAL, "tt_tensor_wrap: %s is NULL",
				data ? "out" : "data");
	ret = check_len(shape, fmt, layout, len, bytes, "tt_tensor_wrap");
	if (ret)
		return ret;
	t = tensor_alloc(shape, &g, fmt, layout, bytes);
	if (!t)
		return out_of_memory(shape, sizeof(*t));
	t->data = data;
	t->wrapped = true;
	t->release = release;
	t->ctx = ctx;
	*out = t;
	return 0;
}

tt_tensor *tt_tensor_ref(tt_tensor *t)
{
	if (TT_ARG_NULL(t))
		return NULL;
	__atomic_add_fetch(&t->refs, 1, __ATOMIC_RELAXED);
	return t;
}

void tt_tensor_free(tt_tensor *t)
{
	if (!t || __atomic_sub_fetch(&t->refs, 1, __ATOMIC_ACQ_REL))
		return;
	if (t->parent)
		tt_tensor_free(t->parent);
	else if (t->wrapped && t->release)
		t->release(t->ctx);
	else if (!t->wrapped)
		free(t->data);
	free(t);
}

/* ---- queries ---- */

const struct tt_shape *tt_tensor_shape(const tt_tensor *t)
{
	if (TT_ARG_NULL(t))
		return NULL;
	return &t->shape;
}

enum tt_data_format tt_tensor_format(const tt_tensor *t)
{
	if (TT_ARG_NULL(t))
		return TT_FLOAT32;
	return t->fmt;
}

enum tt_tensor_layout tt_tensor_layout(const tt_tensor *t)
{
	if (TT_ARG_NULL(t))
		return TT_TENSOR_ROW_MAJOR;
	return t->layout;
}

void *tt_tensor_data(const tt_tensor *t)
{
	if (TT_ARG_NULL(t))
		return NULL;
	return t->data;
}

size_t tt_tensor_size(const tt_tensor *t)
{
	if (TT_ARG_NULL(t))
		return 0;
	return t->size;
}

size_t tt_tensor_volume(const tt_tensor *t)
{
	if (TT_ARG_NULL(t))
		return 0;
	return t->g.volume;
}

/* ---- views ---- */

/* A view of t's storage [off, off + size) with shape (checked). */
static int make_view(struct tt_tensor *t, const struct tt_shape *shape,
		     const struct tt_tgeom *g, size_t off, size_t size,
		     tt_tensor **out)
{
	struct tt_tensor *root = t->parent ? t->parent : t;
	struct tt_tensor *v = tensor_alloc(shape, g, t->fmt, t->layout, size);

	if (!v)
		return out_of_memory(shape, sizeof(*v));
	v->data = t->data + off;
	v->parent = tt_tensor_ref(root);
	*out = v;
	return 0;
}

/* Byte offset of element `start` of dims[0] in t's storage, or -EINVAL
 * where the slice is not contiguous. */
static int slice_offset(const struct tt_tensor *t, uint64_t start,
			uint64_t count, size_t *off, const char *desc)
{
	enum df_format f = (enum df_format)t->fmt;
	uint64_t d0 = t->shape.dims[0];

	if (t->layout == TT_TENSOR_ROW_MAJOR) {
		*off = t->g.volume / d0 * start * df_elem_bytes(f);
		return 0;
	}
	if (t->shape.rank >= 3) {
		*off = t->size / d0 * start;
		return 0;
	}
	if (t->shape.rank == 2 && start % TT_TILE_DIM == 0 &&
	    (count % TT_TILE_DIM == 0 || start + count == d0)) {
		*off = t->size / tiles_across(d0) * (start / TT_TILE_DIM);
		return 0;
	}
	return tt_error(-EINVAL,
			"tt_tensor_slice: %s: rows [%llu, +%llu) are not whole "
			"tile rows (a tiled tensor slices on rank 3 and 4, or "
			"rank 2 at multiples of 32)",
			desc, (unsigned long long)start,
			(unsigned long long)count);
}

int tt_tensor_slice(tt_tensor *t, uint64_t start, uint64_t count,
		    tt_tensor **out)
{
	char desc[TT_DESC_LEN];
	struct tt_shape shape;
	struct tt_tgeom g;
	size_t off = 0, size;
	int ret;

	if (!t || !out)
		return tt_error(-EINVAL, "tt_tensor_slice: %s is NULL",
				t ? "out" : "tensor");
	tt_tensor_describe(t, desc, sizeof(desc));
	if (!count || start >= t->shape.dims[0] ||
	    count > t->shape.dims[0] - start)
		return tt_error(-EINVAL,
				"tt_tensor_slice: %s: [%llu, +%llu) is not "
				"inside dimension 0 (%llu)",
				desc, (unsigned long long)start,
				(unsigned long long)count,
				(unsigned long long)t->shape.dims[0]);
	ret = slice_offset(t, start, count, &off, desc);
	if (ret)
		return ret;
	shape = t->shape;
	shape.dims[0] = count;
	ret = tt_tgeom_init(&g, &shape, "tensor");
	if (!ret)
		ret = tt_tgeom_bytes(&g, t->fmt, t->layout, &size, desc);
	return ret ? ret : make_view(t, &shape, &g, off, size, out);
}

int tt_tensor_reshape(tt_tensor *t, const struct tt_shape *shape,
		      tt_tensor **out)
{
	char desc[TT_DESC_LEN], s[TT_DESC_LEN];
	struct tt_tgeom g;
	bool fits;
	int ret;

	if (!t || !out)
		return tt_error(-EINVAL, "tt_tensor_reshape: %s is NULL",
				t ? "out" : "tensor");
	ret = tt_tgeom_init(&g, shape, "tensor");
	if (ret)
		return ret;
	if (t->layout == TT_TENSOR_ROW_MAJOR)
		fits = g.volume == t->g.volume;
	else
		fits = g.r == t->g.r && g.c == t->g.c && g.mats == t->g.mats;
	if (!fits)
		return tt_error(
			-EINVAL,
			"tt_tensor_reshape: %s cannot be seen as %s (%s)",
			tt_tensor_describe(t, desc, sizeof(desc)),
			tt_shape_str(shape, s, sizeof(s)),
			t->layout == TT_TENSOR_ROW_MAJOR
				? "another number of elements"
				: "a tiled tensor keeps r, c and w * z");
	return make_view(t, shape, &g, 0, t->size, out);
}
