// SPDX-License-Identifier: Apache-2.0
/*
 * A file written whole or not at all: a temporary file next to it, then
 * rename(2), which replaces the name in one step. A reader (tt_image_open)
 * that mapped the old file keeps it; a crash leaves the old file or the
 * new one, at worst a stray temporary file, never half an image under the
 * real name.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/ttc/ir/internal.h"

#include "internal.h"

static int fail(ttc_ctx *ctx, const char *path, const char *what, int err)
{
	ttc_diag_addf(ctx, "cannot write the image %s: %s: %s", path, what,
		      strerror(err));
	return -err;
}

/* "<dir>/.<base>.tmp-<pid>-<n>", in path's directory. */
static char *temp_name(const char *path)
{
	static atomic_uint counter;
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	size_t len = strlen(path) + 48;
	char *t = malloc(len);

	if (t)
		snprintf(t, len, "%.*s.%s.tmp-%ld-%u", (int)dlen, path,
			 path + dlen, (long)getpid(),
			 atomic_fetch_add(&counter, 1));
	return t;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Makes the rename itself durable; a file system that cannot sync a
 * directory has still renamed, so a failure here is not the write's. */
static void sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : NULL;
	int fd = open(dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

static int fill(int fd, const struct tti_piece *pieces, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int ret = write_all(fd, pieces[i].p, pieces[i].n);

		if (ret)
			return ret;
	}
	return fsync(fd) ? -errno : 0;
}

int tti_write_file(ttc_ctx *ctx, const char *path,
		   const struct tti_piece *pieces, size_t n)
{
	char *tmp = temp_name(path);
	int fd, ret;

	if (!tmp)
		return fail(ctx, path, "temporary file name", ENOMEM);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = fail(ctx, path, "cannot create a temporary file", errno);
		free(tmp);
		return ret;
	}
	ret = fill(fd, pieces, n);
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		fail(ctx, path, "write", -ret);
	else if (rename(tmp, path))
		ret = fail(ctx, path, "rename", errno);
	if (ret)
		unlink(tmp);
	else
		sync_dir(path);
	free(tmp);
	return ret;
}
