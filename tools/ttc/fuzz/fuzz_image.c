// SPDX-License-Identifier: Apache-2.0
/*
 * libFuzzer target of libtt's image reader (tt/image.h): any bytes must
 * give a clean refusal (-EINVAL or -ENOTSUP with a message, no image) or
 * an image whose every section lies inside the bytes given, clear of the
 * header, the table and every other section, aligned in memory as its
 * table says, holding exactly those bytes, and found again by its name.
 * Every byte of every section is read.
 *
 * Random bytes almost never carry the right checksums, and a checksum
 * mismatch would stop the reader before its later checks. So each input
 * is read twice: as given, and with its checksums made right (the
 * table's, each section's that lies in the input, the header's), which
 * takes the fuzzer past them to the layout checks.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tt/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t get(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static bool overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
	return an && bn && a < b + bn && b < a + an;
}

/* Section i covers none of the header, the table or an earlier section
 * (the inputs are small: a few dozen sections at most). */
static void check_disjoint(const tt_image *img, const uint8_t *data, size_t i,
			   const struct tt_image_section *s)
{
	uint64_t toff = get(data + TT_IMAGE_H_TABLE_OFFSET, 8);
	uint64_t tlen = tt_image_section_count(img) * TT_IMAGE_ENTRY_SIZE;
	struct tt_image_section o;

	if (s->offset < TT_IMAGE_HEADER_SIZE ||
	    overlap(s->offset, s->size, toff, tlen))
		abort();
	for (size_t j = 0; j < i; j++)
		if (tt_image_section_at(img, j, &o) ||
		    overlap(s->offset, s->size, o.offset, o.size))
			abort();
}

static void check_section(const tt_image *img, const uint8_t *data, size_t size,
			  const struct tt_image_section *s)
{
	struct tt_image_section again;
	volatile uint8_t sink = 0;

	if (s->offset > size || s->size > size - s->offset)
		abort(); /* outside the buffer */
	if (!s->align || (uintptr_t)s->data % s->align || s->offset % s->align)
		abort(); /* not aligned as the table says */
	if (!tt_image_name_valid(s->name))
		abort();
	for (uint64_t i = 0; i < s->size; i++)
		sink ^= ((const uint8_t *)s->data)[i];
	(void)sink;
	if (s->size && memcmp(s->data, data + s->offset, s->size))
		abort(); /* not the bytes given */
	if (tt_crc32(0, s->data, s->size) != s->crc32)
		abort();
	if (tt_image_find(img, s->name, &again) || again.data != s->data)
		abort();
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The checksums the format asks for, wherever they can be computed. */
static void repair(uint8_t *b, size_t size)
{
	uint64_t toff = get(b + TT_IMAGE_H_TABLE_OFFSET, 8);
	uint64_t n = get(b + TT_IMAGE_H_SECTION_COUNT, 4);

	if (n <= TT_IMAGE_MAX_SECTIONS && toff <= size &&
	    n * TT_IMAGE_ENTRY_SIZE <= size - toff) {
		for (uint64_t i = 0; i < n; i++) {
			uint8_t *e = b + toff + i * TT_IMAGE_ENTRY_SIZE;
			uint64_t off = get(e + TT_IMAGE_E_OFFSET, 8);
			uint64_t len = get(e + TT_IMAGE_E_SIZE, 8);

			if (off <= size && len <= size - off)
				put32(e + TT_IMAGE_E_CRC,
				      tt_crc32(0, b + off, len));
		}
		put32(b + TT_IMAGE_H_TABLE_CRC,
		      tt_crc32(0, b + toff, n * TT_IMAGE_ENTRY_SIZE));
	}
	put32(b + TT_IMAGE_H_HEADER_CRC, 0);
	put32(b + TT_IMAGE_H_HEADER_CRC, tt_crc32(0, b, TT_IMAGE_HEADER_SIZE));
}

static void one(const uint8_t *data, size_t size)
{
	tt_image *img = NULL;
	struct tt_image_section s;
	int ret = tt_image_open_memory(data, size, &img);

	if (ret) {
		if ((ret != -EINVAL && ret != -ENOTSUP) || img ||
		    !*tt_last_error())
			abort();
		return;
	}
	if (tt_image_version(img) != TT_IMAGE_VERSION ||
	    tt_image_file_size(img) != size)
		abort();
	for (size_t i = 0; i < tt_image_section_count(img); i++) {
		if (tt_image_section_at(img, i, &s))
			abort();
		check_section(img, data, size, &s);
		check_disjoint(img, data, i, &s);
	}
	if (tt_image_find(img, "no such section", &s) != -ENOENT)
		abort();
	tt_image_close(img);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;

	one(data, size);
	if (size < TT_IMAGE_HEADER_SIZE)
		return 0;
	copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	repair(copy, size);
	one(copy, size);
	free(copy);
	return 0;
}
