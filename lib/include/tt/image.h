/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Image files (.tti): the container libttc writes (ttc/tti.h) and libtt
 * reads. docs/image.md, "Container", describes it byte by byte; the
 * constants below are that description, shared by the writer and the
 * reader so that the two cannot drift.
 *
 * A file is a 64-byte header, named sections of data each at an offset
 * that is a multiple of its alignment, and a table of 64-byte entries
 * (name, offset, size, alignment, CRC-32) at table_offset. All integers
 * are little-endian. The reader checks every field, every offset and size
 * (no wrap-around, nothing outside the file, nothing overlapping) and every
 * checksum when it opens a file: a section it hands out is whole.
 */
#ifndef TT_IMAGE_H
#define TT_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tt/common.h"

/* The header. */
#define TT_IMAGE_MAGIC "TTIMAGE" /* 8 bytes with its NUL */
#define TT_IMAGE_MAGIC_SIZE 8
#define TT_IMAGE_VERSION 1 /* the version this libtt reads and ttc writes */
#define TT_IMAGE_HEADER_SIZE 64
/* Byte offsets of the header's fields. */
#define TT_IMAGE_H_MAGIC 0	    /* char[8] */
#define TT_IMAGE_H_VERSION 8	    /* u32 */
#define TT_IMAGE_H_HEADER_SIZE 12   /* u32, TT_IMAGE_HEADER_SIZE */
#define TT_IMAGE_H_FILE_SIZE 16	    /* u64, the file's size */
#define TT_IMAGE_H_TABLE_OFFSET 24  /* u64 */
#define TT_IMAGE_H_SECTION_COUNT 32 /* u32 */
#define TT_IMAGE_H_ENTRY_SIZE 36    /* u32, TT_IMAGE_ENTRY_SIZE */
#define TT_IMAGE_H_TABLE_CRC 40	    /* u32, CRC-32 of the whole table */
#define TT_IMAGE_H_HEADER_CRC 44    /* u32, of the header, this field 0 */
#define TT_IMAGE_H_RESERVED 48	    /* 16 bytes, zero */
#define TT_IMAGE_H_RESERVED_SIZE 16

/* The section table: one entry per section. */
#define TT_IMAGE_ENTRY_SIZE 64
#define TT_IMAGE_TABLE_ALIGN 8
#define TT_IMAGE_MAX_SECTIONS 65536
/* Byte offsets of an entry's fields. */
#define TT_IMAGE_E_NAME 0     /* char[40], NUL-terminated, NUL-padded */
#define TT_IMAGE_E_OFFSET 40  /* u64 */
#define TT_IMAGE_E_SIZE 48    /* u64 */
#define TT_IMAGE_E_ALIGN 56   /* u32, a power of two */
#define TT_IMAGE_E_CRC 60     /* u32, CRC-32 of the section's bytes */
#define TT_IMAGE_NAME_SIZE 40 /* the field; names are 1..39 characters */
#define TT_IMAGE_MAX_ALIGN 65536

/* An open image is never changed: any number of threads may use one. */
typedef struct tt_image tt_image;

/* A section: data points into the image (valid until tt_image_close)
 * and is a multiple of align in memory as in the file. */
struct tt_image_section {
	const char *name;
	const void *data;
	uint64_t offset, size;
	uint32_t align;
	uint32_t crc32; /* as in the table, checked against the data */
};

/*
 * Opens an image file: maps it read-only (MAP_PRIVATE) at an address that
 * is a multiple of TT_IMAGE_MAX_ALIGN, so each section's data is aligned
 * in memory as in the file, and checks everything (the whole file is read
 * once, for the checksums). A file replaced afterwards (renamed over, as
 * ttc writes images) does not affect the mapping; one written in place or
 * truncated while open is not supported.
 *
 * Errors: -ENOTSUP for a newer format version ("made by a newer ttc:
 * version 2, this libtt reads 1"); -EINVAL for anything else that is
 * wrong with the file, the message naming the file, the field and the bad
 * value; the errno of open, fstat or mmap (-ENOENT, -EACCES, -ENOMEM...).
 */
TT_API int tt_image_open(const char *path, tt_image **out);

/*
 * The same checks on len bytes at buf. The bytes are copied (into a
 * read-only mapping aligned like tt_image_open's), so buf may be freed or
 * changed as soon as this returns. tt_image_path is then "(memory)".
 */
TT_API int tt_image_open_memory(const void *buf, size_t len, tt_image **out);

/* Unmaps and frees; NULL does nothing. */
TT_API void tt_image_close(tt_image *img);

/* The file's format version (TT_IMAGE_VERSION), 0 for NULL. */
TT_API uint32_t tt_image_version(const tt_image *img);
/* The file's size in bytes, 0 for NULL. */
TT_API uint64_t tt_image_file_size(const tt_image *img);
TT_API size_t tt_image_section_count(const tt_image *img);
/* Section i, in the table's order; -ERANGE past the end. */
TT_API int tt_image_section_at(const tt_image *img, size_t i,
			       struct tt_image_section *out);
/* The section called name; -ENOENT naming the section and the file. */
TT_API int tt_image_find(const tt_image *img, const char *name,
			 struct tt_image_section *out);
/* The path given to tt_image_open, "(memory)" for tt_image_open_memory;
 * NULL for NULL. */
TT_API const char *tt_image_path(const tt_image *img);

/*
 * Whether name is a valid section name: 1 to TT_IMAGE_NAME_SIZE - 1
 * characters of [A-Za-z0-9._/-], not starting with '/', without ".." or
 * "//". The writer and the reader both use it.
 */
TT_API bool tt_image_name_valid(const char *name);

/*
 * CRC-32 (ISO-HDLC: the CRC of zlib, PNG and Ethernet; reflected,
 * polynomial 0xEDB88320, initial value and final XOR 0xFFFFFFFF) of len
 * bytes, continuing from crc: start with 0, and tt_crc32(tt_crc32(0, a),
 * b) is the CRC of a followed by b. tt_crc32(0, "123456789", 9) is
 * 0xCBF43926. Table-driven, 16 bytes a step.
 */
TT_API uint32_t tt_crc32(uint32_t crc, const void *data, size_t len);

#endif /* TT_IMAGE_H */
