// SPDX-License-Identifier: Apache-2.0
/*
 * The image writer (ttc/tti.h): sections copied in, laid out in the order
 * added (each at the next multiple of its alignment after the header or
 * the section before), the table after the last, the header and table
 * encoded with tt/image.h's offsets and checked with its CRC, so that what
 * this writes is what libtt's reader checks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ttc/ir/internal.h"
#include "tt/image.h"

#include "internal.h"

struct tti_sec {
	char name[TT_IMAGE_NAME_SIZE];
	void *data;
	size_t size;
	uint32_t align;
	uint64_t offset; /* set by layout() */
};

struct ttc_tti_writer {
	ttc_ctx *ctx;
	struct tti_sec *v;
	size_t n, cap;
};

/* Padding is written from here: no gap is longer than an alignment. */
static const uint8_t zeros[TT_IMAGE_MAX_ALIGN];

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

ttc_tti_writer *ttc_tti_writer_new(ttc_ctx *ctx)
{
	ttc_tti_writer *w;

	if (!ctx)
		return NULL;
	w = ttc_xmalloc(sizeof(*w));
	memset(w, 0, sizeof(*w));
	w->ctx = ctx;
	return w;
}

void ttc_tti_writer_free(ttc_tti_writer *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i].data);
	free(w->v);
	free(w);
}

static int add_error(ttc_tti_writer *w, int err, const char *name,
		     const char *why)
{
	ttc_diag_addf(w->ctx, "image section \"%.64s\": %s", name, why);
	return err;
}

static int check_add(ttc_tti_writer *w, const char *name, const void *data,
		     size_t size, uint32_t align)
{
	if (!tt_image_name_valid(name))
		return add_error(w, -EINVAL, name,
				 "not a section name (1 to 39 of "
				 "[A-Za-z0-9._/-], no leading '/', no \"..\" "
				 "or \"//\")");
	if (!data && size)
		return add_error(w, -EINVAL, name, "data is NULL");
	if (!align || align > TT_IMAGE_MAX_ALIGN || (align & (align - 1)))
		return add_error(w, -EINVAL, name,
				 "align is not a power of two from 1 to "
				 "65536");
	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->v[i].name, name))
			return add_error(w, -EEXIST, name,
					 "a section of this name was already "
					 "added");
	if (w->n == TT_IMAGE_MAX_SECTIONS)
		return add_error(w, -E2BIG, name,
				 "an image holds at most 65536 sections");
	return 0;
}

int ttc_tti_add(ttc_tti_writer *w, const char *name, const void *data,
		size_t size, uint32_t align)
{
	struct tti_sec *s;
	int ret;

	if (!w)
		return -EINVAL;
	if (!name)
		return add_error(w, -EINVAL, "(null)", "name is NULL");
	ret = check_add(w, name, data, size, align);
	if (ret)
		return ret;
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 16;
		w->v = ttc_xrealloc(w->v, w->cap * sizeof(*w->v));
	}
	s = &w->v[w->n];
	memset(s, 0, sizeof(*s));
	s->data = malloc(size ? size : 1);
	if (!s->data)
		return add_error(w, -ENOMEM, name, "no memory for a copy");
	memcpy(s->data, data ? data : zeros, size);
	strcpy(s->name, name);
	s->size = size;
	s->align = align;
	w->n++;
	return 0;
}

/* Offsets of every section and of the table; the file's size. */
static int layout(ttc_tti_writer *w, uint64_t *table, uint64_t *file_size)
{
	uint64_t at = TT_IMAGE_HEADER_SIZE;

	for (size_t i = 0; i < w->n; i++) {
		struct tti_sec *s = &w->v[i];

		at = (at + s->align - 1) / s->align * s->align;
		s->offset = at;
		if (__builtin_add_overflow(at, (uint64_t)s->size, &at))
			return -EFBIG;
	}
	at = (at + TT_IMAGE_TABLE_ALIGN - 1) / TT_IMAGE_TABLE_ALIGN *
	     TT_IMAGE_TABLE_ALIGN;
	*table = at;
	if (__builtin_add_overflow(at, (uint64_t)w->n * TT_IMAGE_ENTRY_SIZE,
				   file_size))
		return -EFBIG;
	return 0;
}

static void encode_table(const ttc_tti_writer *w, uint8_t *t)
{
	for (size_t i = 0; i < w->n; i++) {
		const struct tti_sec *s = &w->v[i];
		uint8_t *e = t + i * TT_IMAGE_ENTRY_SIZE;

		memcpy(e + TT_IMAGE_E_NAME, s->name, TT_IMAGE_NAME_SIZE);
		put64(e + TT_IMAGE_E_OFFSET, s->offset);
		put64(e + TT_IMAGE_E_SIZE, s->size);
		put32(e + TT_IMAGE_E_ALIGN, s->align);
		put32(e + TT_IMAGE_E_CRC, tt_crc32(0, s->data, s->size));
	}
}

static void encode_header(const ttc_tti_writer *w, uint8_t *h, uint64_t table,
			  uint64_t file_size, uint32_t tcrc)
{
	memcpy(h + TT_IMAGE_H_MAGIC, TT_IMAGE_MAGIC, TT_IMAGE_MAGIC_SIZE);
	put32(h + TT_IMAGE_H_VERSION, TT_IMAGE_VERSION);
	put32(h + TT_IMAGE_H_HEADER_SIZE, TT_IMAGE_HEADER_SIZE);
	put64(h + TT_IMAGE_H_FILE_SIZE, file_size);
	put64(h + TT_IMAGE_H_TABLE_OFFSET, table);
	put32(h + TT_IMAGE_H_SECTION_COUNT, (uint32_t)w->n);
	put32(h + TT_IMAGE_H_ENTRY_SIZE, TT_IMAGE_ENTRY_SIZE);
	put32(h + TT_IMAGE_H_TABLE_CRC, tcrc);
	put32(h + TT_IMAGE_H_HEADER_CRC, tt_crc32(0, h, TT_IMAGE_HEADER_SIZE));
}

/* The file as pieces: header, (padding, data) per section, padding,
 * table. */
static size_t pieces(const ttc_tti_writer *w, const uint8_t *h,
		     const uint8_t *t, uint64_t table, struct tti_piece *p)
{
	uint64_t at = TT_IMAGE_HEADER_SIZE;
	size_t k = 0;

	p[k++] = (struct tti_piece){h, TT_IMAGE_HEADER_SIZE};
	for (size_t i = 0; i < w->n; i++) {
		p[k++] = (struct tti_piece){zeros, w->v[i].offset - at};
		p[k++] = (struct tti_piece){w->v[i].data, w->v[i].size};
		at = w->v[i].offset + w->v[i].size;
	}
	p[k++] = (struct tti_piece){zeros, table - at};
	p[k++] = (struct tti_piece){t, w->n * TT_IMAGE_ENTRY_SIZE};
	return k;
}

int ttc_tti_write(ttc_tti_writer *w, const char *path)
{
	uint8_t h[TT_IMAGE_HEADER_SIZE] = {0};
	uint64_t table, file_size;
	struct tti_piece *p;
	uint8_t *t;
	int ret;

	if (!w)
		return -EINVAL;
	if (!path) {
		ttc_diag_addf(w->ctx, "ttc_tti_write: path is NULL");
		return -EINVAL;
	}
	if (layout(w, &table, &file_size)) {
		ttc_diag_addf(w->ctx,
			      "cannot write the image %s: its size "
			      "overflows 64 bits",
			      path);
		return -EFBIG;
	}
	t = ttc_xmalloc(w->n * TT_IMAGE_ENTRY_SIZE + 1);
	memset(t, 0, w->n * TT_IMAGE_ENTRY_SIZE + 1);
	encode_table(w, t);
	encode_header(w, h, table, file_size,
		      tt_crc32(0, t, w->n * TT_IMAGE_ENTRY_SIZE));
	p = ttc_xmalloc((2 * w->n + 3) * sizeof(*p));
	ret = tti_write_file(w->ctx, path, p, pieces(w, h, t, table, p));
	free(p);
	free(t);
	return ret;
}
