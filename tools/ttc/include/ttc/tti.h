/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing image files (.tti): named sections of bytes, each aligned, in
 * the container of docs/image.md ("Container"). libtt reads them
 * (tt/image.h, which holds the format's constants and the CRC both sides
 * use).
 */
#ifndef TTC_TTI_H
#define TTC_TTI_H

#include "ttc/common.h"

typedef struct ttc_tti_writer ttc_tti_writer;

/* A writer with no sections; diagnostics go to ctx. NULL if ctx is NULL. */
TTC_API ttc_tti_writer *ttc_tti_writer_new(ttc_ctx *ctx);
/* Frees the writer and its copies of the data; NULL does nothing. */
TTC_API void ttc_tti_writer_free(ttc_tti_writer *w);

/*
 * Adds a section: a copy of size bytes at data (NULL when size is 0),
 * placed at an offset that is a multiple of align (a power of two, 1 to
 * TT_IMAGE_MAX_ALIGN). name follows tt_image_name_valid (1 to 39 of
 * [A-Za-z0-9._/-], no leading '/', no ".." or "//"). Errors: -EINVAL (bad
 * name, align or arguments), -EEXIST (the name is taken), -E2BIG (more
 * than TT_IMAGE_MAX_SECTIONS sections), -ENOMEM; each with a diagnostic
 * naming the section.
 */
TTC_API int ttc_tti_add(ttc_tti_writer *w, const char *name, const void *data,
			size_t size, uint32_t align);

/*
 * Writes the image to path: the sections in the order added, each
 * aligned, the table at the end. The bytes go to a temporary file in
 * path's directory, which is fsync'd and renamed over path (mode 0644
 * less the umask), so path is either the old file or the whole new one;
 * a failure removes the temporary file and leaves a diagnostic naming
 * path. Returns 0 or a negative errno. The writer can write again.
 */
TTC_API int ttc_tti_write(ttc_tti_writer *w, const char *path);

#endif /* TTC_TTI_H */
