/* SPDX-License-Identifier: Apache-2.0 */
/* The image writer's private parts (README.md). */
#ifndef TTC_IMAGE_INTERNAL_H
#define TTC_IMAGE_INTERNAL_H

#include <stddef.h>

#include "ttc/tti.h"

/* A run of bytes to write. */
struct tti_piece {
	const void *p;
	size_t n;
};

/*
 * Writes the pieces, in order, as the file path: through a temporary file
 * in path's directory (created mode 0644, so less the umask), fsync'd and
 * renamed over path; the directory is synced after. On failure the
 * temporary file is removed, path is untouched, and a diagnostic naming
 * path goes to ctx. Returns 0 or a negative errno.
 */
int tti_write_file(ttc_ctx *ctx, const char *path,
		   const struct tti_piece *pieces, size_t n);

#endif /* TTC_IMAGE_INTERNAL_H */
