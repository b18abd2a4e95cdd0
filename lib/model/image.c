// SPDX-License-Identifier: Apache-2.0
/*
 * Image files (tt/image.h): mapping a file or a copy of a buffer at an
 * address aligned to TT_IMAGE_MAX_ALIGN, so that a section aligned in the
 * file is aligned in memory; the accessors. The checks are image_check.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image_internal.h"

#define MEMORY_NAME "(memory)"

bool tt_image_name_valid(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n == 0 || n >= TT_IMAGE_NAME_SIZE || name[0] == '/' ||
	    strstr(name, "..") || strstr(name, "//"))
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '/' || c == '-'))
			return false;
	}
	return true;
}

/*
 * Maps len bytes (of fd, or a copy of src when fd is -1) read-only at an
 * address that is a multiple of TT_IMAGE_MAX_ALIGN: reserve len plus the
 * alignment, place the mapping inside at an aligned address, give back
 * the rest. mmap alone aligns to a page only.
 */
static int map_aligned(const char *who, int fd, const void *src, size_t len,
		       const uint8_t **out, size_t *out_len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), a = TT_IMAGE_MAX_ALIGN;
	size_t mlen, rlen;
	uint8_t *r, *p, *want;

	if (len > SIZE_MAX - 2 * a - page)
		return tt_error(-ENOMEM, "%s: %zu bytes cannot be mapped", who,
				len);
	mlen = (len + page - 1) / page * page;
	rlen = mlen + a;
	r = mmap(NULL, rlen, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED)
		return tt_error(-errno, "%s: cannot reserve %zu bytes: %s", who,
				rlen, strerror(errno));
	want = r + ((a - (uintptr_t)r % a) % a);
	if (fd >= 0)
		p = mmap(want, len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
	else
		p = mmap(want, mlen, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		int err = errno;

		munmap(r, rlen);
		return tt_error(-err, "%s: cannot map %zu bytes: %s", who, len,
				strerror(err));
	}
	if (fd < 0) {
		memcpy(p, src, len);
		mprotect(p, mlen, PROT_READ);
	}
	if (want > r)
		munmap(r, (size_t)(want - r));
	if (r + rlen > want + mlen)
		munmap(want + mlen, (size_t)(r + rlen - (want + mlen)));
	*out = p;
	*out_len = mlen;
	return 0;
}

static struct tt_image *image_new(const char *who)
{
	struct tt_image *img = calloc(1, sizeof(*img));

	if (img)
		img->path = strdup(who);
	if (!img || !img->path) {
		free(img);
		tt_error(-ENOMEM, "%s: no memory for the image", who);
		return NULL;
	}
	return img;
}

/* Checks a mapped image; hands it out, or closes it. */
static int finish(struct tt_image *img, tt_image **out)
{
	int ret = tt_image_check(img);

	if (ret) {
		tt_image_close(img);
		return ret;
	}
	*out = img;
	return 0;
}

/* A file too short for a header, refused from what read() gives. */
static int refuse_short_file(const char *path, int fd, size_t len)
{
	uint8_t b[TT_IMAGE_HEADER_SIZE];
	ssize_t n = pread(fd, b, len, 0);

	return tt_image_refuse_short(path, b, n > 0 ? (size_t)n : 0);
}

static int open_fd(const char *path, int fd, tt_image **out)
{
	struct stat st;
	struct tt_image *img;
	int ret;

	if (fstat(fd, &st))
		return tt_error(-errno, "%s: cannot stat: %s", path,
				strerror(errno));
	if (!S_ISREG(st.st_mode))
		return tt_error(-EINVAL, "%s: not a regular file", path);
	if (st.st_size < TT_IMAGE_HEADER_SIZE)
		return refuse_short_file(path, fd, (size_t)st.st_size);
	if ((uint64_t)st.st_size > SIZE_MAX)
		return tt_error(-EINVAL, "%s: %lld bytes cannot be mapped",
				path, (long long)st.st_size);
	img = image_new(path);
	if (!img)
		return -ENOMEM;
	img->size = (uint64_t)st.st_size;
	ret = map_aligned(path, fd, NULL, (size_t)img->size, &img->base,
			  &img->map_len);
	if (ret) {
		tt_image_close(img);
		return ret;
	}
	return finish(img, out);
}

int tt_image_open(const char *path, tt_image **out)
{
	int fd, ret;

	TT_CHECK_ARG(path);
	TT_CHECK_ARG(out);
	*out = NULL;
	/* O_NONBLOCK: a FIFO is refused by fstat below, not waited on. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return tt_error(-errno, "%s: cannot open: %s", path,
				strerror(errno));
	ret = open_fd(path, fd, out);
	close(fd);
	return ret;
}

int tt_image_open_memory(const void *buf, size_t len, tt_image **out)
{
	struct tt_image *img;
	int ret;

	if (TT_ARG_NULL_LEN(buf, len))
		return -EINVAL;
	TT_CHECK_ARG(out);
	*out = NULL;
	if (len < TT_IMAGE_HEADER_SIZE)
		return tt_image_refuse_short(MEMORY_NAME, buf, len);
	img = image_new(MEMORY_NAME);
	if (!img)
		return -ENOMEM;
	img->size = len;
	ret = map_aligned(MEMORY_NAME, -1, buf, len, &img->base, &img->map_len);
	if (ret) {
		tt_image_close(img);
		return ret;
	}
	return finish(img, out);
}

void tt_image_close(tt_image *img)
{
	if (!img)
		return;
	if (img->base)
		munmap((void *)img->base, img->map_len);
	free(img->secs);
	free(img->by_name);
	free(img->path);
	free(img);
}

uint32_t tt_image_version(const tt_image *img)
{
	if (TT_ARG_NULL(img))
		return 0;
	return img->version;
}

uint64_t tt_image_file_size(const tt_image *img)
{
	if (TT_ARG_NULL(img))
		return 0;
	return img->size;
}

size_t tt_image_section_count(const tt_image *img)
{
	if (TT_ARG_NULL(img))
		return 0;
	return img->count;
}

const char *tt_image_path(const tt_image *img)
{
	if (TT_ARG_NULL(img))
		return NULL;
	return img->path;
}

static void fill(const tt_image *img, const struct image_sec *s,
		 struct tt_image_section *out)
{
	out->name = s->name;
	out->data = img->base + s->offset;
	out->offset = s->offset;
	out->size = s->size;
	out->align = s->align;
	out->crc32 = s->crc;
}

int tt_image_section_at(const tt_image *img, size_t i,
			struct tt_image_section *out)
{
	TT_CHECK_ARG(img);
	TT_CHECK_ARG(out);
	if (i >= img->count)
		return tt_error(-ERANGE,
				"%s: section index %zu: the image has %zu "
				"sections",
				img->path, i, img->count);
	fill(img, &img->secs[i], out);
	return 0;
}

static int cmp_key(const void *key, const void *elem)
{
	const struct image_sec *s = *(const struct image_sec *const *)elem;

	return strcmp(key, s->name);
}

int tt_image_find(const tt_image *img, const char *name,
		  struct tt_image_section *out)
{
	const struct image_sec *const *hit;

	TT_CHECK_ARG(img);
	TT_CHECK_ARG(name);
	TT_CHECK_ARG(out);
	hit = bsearch(name, img->by_name, img->count, sizeof(*img->by_name),
		      cmp_key);
	if (!hit)
		return tt_error(-ENOENT, "%s: no section named \"%s\"",
				img->path, name);
	fill(img, *hit, out);
	return 0;
}
