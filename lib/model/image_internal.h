/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The image object of tt/image.h, shared by image.c (mapping, the API) and
 * image_check.c (the checks a file must pass before anything is handed
 * out).
 */
#ifndef TT_LIB_MODEL_IMAGE_INTERNAL_H
#define TT_LIB_MODEL_IMAGE_INTERNAL_H

#include "lib/device/internal.h"
#include "tt/image.h"

struct image_sec {
	char name[TT_IMAGE_NAME_SIZE]; /* NUL-terminated, checked */
	uint64_t offset, size;
	uint32_t align, crc;
};

struct tt_image {
	const uint8_t *base; /* byte 0, at a multiple of TT_IMAGE_MAX_ALIGN */
	size_t map_len;	     /* bytes mapped at base */
	uint64_t size;
	uint32_t version;
	size_t count;
	struct image_sec *secs;	      /* in the table's order */
	const struct image_sec **by_name; /* sorted by name, for lookups */
	char *path;
};

/*
 * Checks the len bytes at img->base (img->path names them in messages)
 * and fills the rest of img. 0, or -EINVAL / -ENOTSUP with tt_last_error()
 * set; on failure img's arrays may be allocated (tt_image_close frees
 * them).
 */
TT_HIDDEN int tt_image_check(struct tt_image *img);

/*
 * The refusal of a buffer shorter than a header: "not a tt image" when its
 * first bytes are not the magic's, else "short file". Always an error.
 */
TT_HIDDEN int tt_image_refuse_short(const char *who, const uint8_t *b,
				    size_t len);

#endif /* TT_LIB_MODEL_IMAGE_INTERNAL_H */
