// SPDX-License-Identifier: Apache-2.0
/*
 * Every check an image must pass before libtt hands out a byte of it
 * (docs/image.md, "Container"): the header, the section table, each entry,
 * overlaps, duplicate names and every checksum. The input is hostile: all
 * arithmetic on the file's numbers is checked, and a section is accepted
 * only when all of it lies inside the file. Each refusal names the file,
 * the field and the bad value.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image_internal.h"

#define ull(x) ((unsigned long long)(x))

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

struct header {
	uint32_t version, count, table_crc;
	uint64_t file_size, table_offset, table_size;
};

int tt_image_refuse_short(const char *who, const uint8_t *b, size_t len)
{
	size_t n = len < TT_IMAGE_MAGIC_SIZE ? len : TT_IMAGE_MAGIC_SIZE;

	if (memcmp(b, TT_IMAGE_MAGIC, n))
		return tt_error(-EINVAL, "%s: not a tt image (field magic)",
				who);
	return tt_error(-EINVAL,
			"%s: short file: %zu bytes, a tt image header is %d",
			who, len, TT_IMAGE_HEADER_SIZE);
}

/* What comes before the header checksum can be trusted: the magic, and
 * a version whose header layout this libtt knows. */
static int check_identity(const char *who, const uint8_t *b)
{
	uint32_t v = get32(b + TT_IMAGE_H_VERSION);

	if (memcmp(b, TT_IMAGE_MAGIC, TT_IMAGE_MAGIC_SIZE))
		return tt_error(-EINVAL,
				"%s: not a tt image (field magic: %02x %02x "
				"%02x %02x..., expected \"TTIMAGE\\0\")",
				who, b[0], b[1], b[2], b[3]);
	if (v > TT_IMAGE_VERSION)
		return tt_error(-ENOTSUP,
				"%s: made by a newer ttc: version %u, this "
				"libtt reads %d",
				who, v, TT_IMAGE_VERSION);
	if (v == 0)
		return tt_error(-EINVAL,
				"%s: field version: 0 is not a version (this "
				"libtt reads %d)",
				who, TT_IMAGE_VERSION);
	return 0;
}

static int check_header_crc(const char *who, const uint8_t *b)
{
	uint8_t h[TT_IMAGE_HEADER_SIZE];
	uint32_t want = get32(b + TT_IMAGE_H_HEADER_CRC), got;

	memcpy(h, b, sizeof(h));
	memset(h + TT_IMAGE_H_HEADER_CRC, 0, 4);
	got = tt_crc32(0, h, sizeof(h));
	if (got != want)
		return tt_error(-EINVAL,
				"%s: header checksum: field header_crc32 is "
				"0x%08x, the header's is 0x%08x",
				who, want, got);
	return 0;
}

static int check_fields(const char *who, const uint8_t *b, uint64_t len,
			struct header *h)
{
	uint32_t hs = get32(b + TT_IMAGE_H_HEADER_SIZE);
	uint32_t es = get32(b + TT_IMAGE_H_ENTRY_SIZE);

	if (hs != TT_IMAGE_HEADER_SIZE)
		return tt_error(-EINVAL,
				"%s: field header_size: %u, expected %d", who,
				hs, TT_IMAGE_HEADER_SIZE);
	if (es != TT_IMAGE_ENTRY_SIZE)
		return tt_error(-EINVAL,
				"%s: field entry_size: %u, expected %d", who,
				es, TT_IMAGE_ENTRY_SIZE);
	for (int i = 0; i < TT_IMAGE_H_RESERVED_SIZE; i++)
		if (b[TT_IMAGE_H_RESERVED + i])
			return tt_error(-EINVAL,
					"%s: field reserved: byte %d is 0x%02x,"
					" expected 0",
					who, i, b[TT_IMAGE_H_RESERVED + i]);
	h->version = get32(b + TT_IMAGE_H_VERSION);
	h->file_size = get64(b + TT_IMAGE_H_FILE_SIZE);
	h->table_offset = get64(b + TT_IMAGE_H_TABLE_OFFSET);
	h->count = get32(b + TT_IMAGE_H_SECTION_COUNT);
	h->table_crc = get32(b + TT_IMAGE_H_TABLE_CRC);
	if (h->file_size != len)
		return tt_error(-EINVAL,
				"%s: field file_size: %llu, but the file has "
				"%llu bytes",
				who, ull(h->file_size), ull(len));
	if (h->count > TT_IMAGE_MAX_SECTIONS)
		return tt_error(-EINVAL,
				"%s: field section_count: %u, at most %d", who,
				h->count, TT_IMAGE_MAX_SECTIONS);
	return 0;
}

static int check_table_place(const char *who, const uint8_t *b,
			     const struct header *h)
{
	uint64_t end;
	uint32_t got;

	if (h->table_offset % TT_IMAGE_TABLE_ALIGN)
		return tt_error(-EINVAL,
				"%s: field table_offset: %llu is not a "
				"multiple of %d",
				who, ull(h->table_offset),
				TT_IMAGE_TABLE_ALIGN);
	if (h->table_offset < TT_IMAGE_HEADER_SIZE)
		return tt_error(-EINVAL,
				"%s: field table_offset: %llu is inside the "
				"%d-byte header",
				who, ull(h->table_offset),
				TT_IMAGE_HEADER_SIZE);
	if (__builtin_add_overflow(h->table_offset, h->table_size, &end) ||
	    end > h->file_size)
		return tt_error(-EINVAL,
				"%s: field table_offset: %llu + %u entries of "
				"%d bytes ends past the file's %llu bytes",
				who, ull(h->table_offset), h->count,
				TT_IMAGE_ENTRY_SIZE, ull(h->file_size));
	got = tt_crc32(0, b + h->table_offset, h->table_size);
	if (got != h->table_crc)
		return tt_error(-EINVAL,
				"%s: table checksum: field table_crc32 is "
				"0x%08x, the table's is 0x%08x",
				who, h->table_crc, got);
	return 0;
}

/* A name as a message may show it: anything unprintable as '?'. */
static void printable(char *dst, const uint8_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? (char)src[i] : '?';
	dst[n] = 0;
}

static int check_name(const char *who, size_t i, const uint8_t *e,
		      struct image_sec *s)
{
	const uint8_t *nul = memchr(e, 0, TT_IMAGE_NAME_SIZE);
	char shown[TT_IMAGE_NAME_SIZE + 1];

	if (!nul) {
		printable(shown, e, TT_IMAGE_NAME_SIZE);
		return tt_error(-EINVAL,
				"%s: section table entry %zu: field name "
				"\"%s\" is not NUL-terminated within %d bytes",
				who, i, shown, TT_IMAGE_NAME_SIZE);
	}
	printable(shown, e, (size_t)(nul - e));
	for (const uint8_t *p = nul; p < e + TT_IMAGE_NAME_SIZE; p++)
		if (*p)
			return tt_error(-EINVAL,
					"%s: section table entry %zu: field "
					"name \"%s\": byte %zu after its NUL "
					"is 0x%02x, expected 0",
					who, i, shown, (size_t)(p - e), *p);
	memcpy(s->name, e, TT_IMAGE_NAME_SIZE);
	if (!tt_image_name_valid(s->name))
		return tt_error(-EINVAL,
				"%s: section table entry %zu: field name "
				"\"%s\" is not a section name (1 to %d of "
				"[A-Za-z0-9._/-], no leading '/', no \"..\" "
				"or \"//\")",
				who, i, shown, TT_IMAGE_NAME_SIZE - 1);
	return 0;
}

static int check_place(const char *who, const struct header *h,
		       const struct image_sec *s)
{
	uint64_t end, tend = h->table_offset + h->table_size;

	if (!s->align || s->align > TT_IMAGE_MAX_ALIGN ||
	    (s->align & (s->align - 1)))
		return tt_error(-EINVAL,
				"%s: section %s: field align: %u is not a "
				"power of two from 1 to %d",
				who, s->name, s->align, TT_IMAGE_MAX_ALIGN);
	if (s->offset % s->align)
		return tt_error(-EINVAL,
				"%s: section %s: field offset: %llu is not a "
				"multiple of its align %u",
				who, s->name, ull(s->offset), s->align);
	if (__builtin_add_overflow(s->offset, s->size, &end))
		return tt_error(-EINVAL,
				"%s: section %s: offset %llu + size %llu "
				"overflows 64 bits",
				who, s->name, ull(s->offset), ull(s->size));
	if (end > h->file_size)
		return tt_error(-EINVAL,
				"%s: section %s: offset %llu + size %llu ends "
				"past the file's %llu bytes",
				who, s->name, ull(s->offset), ull(s->size),
				ull(h->file_size));
	if (s->offset < TT_IMAGE_HEADER_SIZE)
		return tt_error(-EINVAL,
				"%s: section %s: field offset: %llu is inside "
				"the %d-byte header",
				who, s->name, ull(s->offset),
				TT_IMAGE_HEADER_SIZE);
	if (s->size && s->offset < tend && end > h->table_offset)
		return tt_error(-EINVAL,
				"%s: section %s: bytes %llu..%llu overlap the "
				"section table (bytes %llu..%llu)",
				who, s->name, ull(s->offset), ull(end - 1),
				ull(h->table_offset), ull(tend - 1));
	return 0;
}

static int check_entries(const char *who, const uint8_t *b,
			 const struct header *h, struct image_sec *secs)
{
	for (size_t i = 0; i < h->count; i++) {
		const uint8_t *e =
			b + h->table_offset + i * TT_IMAGE_ENTRY_SIZE;
		struct image_sec *s = &secs[i];
		int ret = check_name(who, i, e + TT_IMAGE_E_NAME, s);

		if (ret)
			return ret;
		s->offset = get64(e + TT_IMAGE_E_OFFSET);
		s->size = get64(e + TT_IMAGE_E_SIZE);
		s->align = get32(e + TT_IMAGE_E_ALIGN);
		s->crc = get32(e + TT_IMAGE_E_CRC);
		ret = check_place(who, h, s);
		if (ret)
			return ret;
	}
	return 0;
}

static int by_offset(const void *a, const void *b)
{
	const struct image_sec *x = *(const struct image_sec *const *)a;
	const struct image_sec *y = *(const struct image_sec *const *)b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return (x->size > y->size) - (x->size < y->size);
}

static int by_name(const void *a, const void *b)
{
	const struct image_sec *x = *(const struct image_sec *const *)a;
	const struct image_sec *y = *(const struct image_sec *const *)b;

	return strcmp(x->name, y->name);
}

/* Sorted by offset, a section overlaps another only if it overlaps the
 * next one that is not empty: each ends before the next starts. Empty
 * sections overlap nothing. */
static int check_overlaps(const char *who, const struct image_sec **v, size_t n)
{
	const struct image_sec *prev = NULL;

	qsort(v, n, sizeof(*v), by_offset);
	for (size_t i = 0; i < n; i++) {
		if (!v[i]->size)
			continue;
		if (prev && v[i]->offset < prev->offset + prev->size)
			return tt_error(-EINVAL,
					"%s: sections %s (bytes %llu..%llu) "
					"and %s (bytes %llu..%llu) overlap",
					who, prev->name, ull(prev->offset),
					ull(prev->offset + prev->size - 1),
					v[i]->name, ull(v[i]->offset),
					ull(v[i]->offset + v[i]->size - 1));
		prev = v[i];
	}
	return 0;
}

static int check_unique(const char *who, const struct image_sec **v, size_t n,
			const struct image_sec *secs)
{
	qsort(v, n, sizeof(*v), by_name);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(v[i - 1]->name, v[i]->name)) {
			size_t a = (size_t)(v[i - 1] - secs);
			size_t b = (size_t)(v[i] - secs);

			return tt_error(-EINVAL,
					"%s: section name %s appears twice "
					"(table entries %zu and %zu)",
					who, v[i]->name, a < b ? a : b,
					a < b ? b : a);
		}
	return 0;
}

static int check_crcs(const char *who, const uint8_t *b,
		      const struct image_sec *secs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t got = tt_crc32(0, b + secs[i].offset, secs[i].size);

		if (got != secs[i].crc)
			return tt_error(-EINVAL,
					"%s: section %s: checksum 0x%08x in the"
					" table, 0x%08x of the data",
					who, secs[i].name, secs[i].crc, got);
	}
	return 0;
}

int tt_image_check(struct tt_image *img)
{
	const char *who = img->path;
	const uint8_t *b = img->base;
	struct header h = {0};
	int ret;

	if (img->size < TT_IMAGE_HEADER_SIZE)
		return tt_image_refuse_short(who, b, img->size);
	ret = check_identity(who, b);
	if (!ret)
		ret = check_header_crc(who, b);
	if (!ret)
		ret = check_fields(who, b, img->size, &h);
	if (ret)
		return ret;
	h.table_size = (uint64_t)h.count * TT_IMAGE_ENTRY_SIZE;
	ret = check_table_place(who, b, &h);
	if (ret)
		return ret;
	img->version = h.version;
	img->count = h.count;
	img->secs = calloc(h.count + 1, sizeof(*img->secs));
	img->by_name = calloc(h.count + 1, sizeof(*img->by_name));
	if (!img->secs || !img->by_name)
		return tt_error(-ENOMEM, "%s: no memory for %u sections", who,
				h.count);
	ret = check_entries(who, b, &h, img->secs);
	for (size_t i = 0; i < h.count; i++)
		img->by_name[i] = &img->secs[i];
	if (!ret)
		ret = check_overlaps(who, img->by_name, h.count);
	if (!ret)
		ret = check_unique(who, img->by_name, h.count, img->secs);
	if (!ret)
		ret = check_crcs(who, b, img->secs, h.count);
	return ret;
}
