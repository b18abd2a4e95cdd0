// SPDX-License-Identifier: Apache-2.0
/*
 * .npy files (tt/tensor.h): dtypes and formats, reading from a file or
 * memory into a row-major tensor (byte swapping and Fortran order
 * handled after the data is in place), writing. The header itself is
 * tensor_npy_header.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/dataformat.h"
#include "tensor_internal.h"
#include "tensor_npy.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "the .npy code assumes a little-endian host");

/* ---- dtypes ---- */

struct dtype {
	char kind; /* 'f', 'i', 'u' */
	unsigned size;
	enum tt_data_format fmt;
	const char *descr; /* as written */
};

static const struct dtype dtypes[] = {
	{'f', 4, TT_FLOAT32, "<f4"}, {'f', 2, TT_FLOAT16, "<f2"},
	{'i', 4, TT_INT32, "<i4"},   {'u', 4, TT_UINT32, "<u4"},
	{'u', 2, TT_UINT16, "<u2"},  {'u', 1, TT_UINT8, "|u1"},
	{'i', 1, TT_INT8, "|i1"},
};

#define N_DTYPES (sizeof(dtypes) / sizeof(dtypes[0]))
#define SUPPORTED "<f4, <f2, <i4, <u4, <u2, |u1, |i1, either byte order"

/* Parse "[<>|=]?[fiu][1-9][0-9]*": the dtype and whether it is
 * big-endian; NULL for anything else. */
static const struct dtype *parse_descr(const char *d, bool *big)
{
	const char *p = d;
	unsigned size = 0;
	char kind;

	*big = *p == '>';
	if (*p == '<' || *p == '>' || *p == '|' || *p == '=')
		p++;
	kind = *p;
	if (!kind || p[1] < '1' || p[1] > '9')
		return NULL;
	for (p++; *p >= '0' && *p <= '9' && size < 100; p++)
		size = size * 10 + (unsigned)(*p - '0');
	if (*p)
		return NULL;
	for (size_t i = 0; i < N_DTYPES; i++)
		if (dtypes[i].kind == kind && dtypes[i].size == size)
			return &dtypes[i];
	return NULL;
}

/* The dtype a tensor of fmt is written as: NumPy has no bfloat16 or
 * block format, so those become float32 (which holds them exactly). */
static const struct dtype *dtype_for(enum tt_data_format fmt)
{
	for (size_t i = 0; i < N_DTYPES; i++)
		if (dtypes[i].fmt == fmt)
			return &dtypes[i];
	return &dtypes[0];
}

/* ---- sources: a file or memory ---- */

struct source {
	char name[300]; /* "npy file \"path\"" or "npy data" */
	uint64_t size;
	int fd; /* or -1 */
	const uint8_t *mem;
};

/* Read exactly len bytes at off; -EBADMSG if the file ends first. */
static int src_read(const struct source *s, uint64_t off, void *dst, size_t len)
{
	uint8_t *d = dst;

	if (s->fd < 0) {
		memcpy(d, s->mem + off, len);
		return 0;
	}
	while (len) {
		ssize_t n = pread(s->fd, d, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return tt_error(-errno,
					"%s: read failed at offset %llu: %s",
					s->name, (unsigned long long)off,
					strerror(errno));
		if (n == 0)
			return tt_error(-EBADMSG,
					"%s: truncated while reading (the file "
					"shrank?)",
					s->name);
		d += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* ---- reading ---- */

/* Preamble and dictionary into *h. */
static int read_header(const struct source *s, struct tt_npy_header *h)
{
	uint8_t pre[TT_NPY_PREAMBLE_MAX];
	size_t plen = s->size < sizeof(pre) ? (size_t)s->size : sizeof(pre);
	char err[TT_NPY_ERR_LEN], *dict;
	size_t hlen;
	int ret = src_read(s, 0, pre, plen);

	if (ret)
		return ret;
	ret = tt_npy_preamble(pre, plen, s->size, h, err, sizeof(err));
	if (ret)
		return tt_error(ret, "%s: %s", s->name, err);
	hlen = h->data_offset - (h->major == 1 ? 10 : 12);
	dict = malloc(hlen + 1);
	if (!dict)
		return tt_error(-ENOMEM, "%s: out of memory", s->name);
	ret = src_read(s, h->data_offset - hlen, dict, hlen);
	if (!ret) {
		ret = tt_npy_parse_dict(dict, hlen, h, err, sizeof(err));
		if (ret)
			tt_error(ret, "%s: header: %s", s->name, err);
	}
	free(dict);
	return ret;
}

/* The shape of the header, checked for what tensors can hold. */
static int header_shape(const struct source *s, const struct tt_npy_header *h,
			struct tt_shape *shape)
{
	char str[TT_DESC_LEN];

	if (h->rank == 0)
		return tt_error(-ENOTSUP,
				"%s: shape () (a scalar, rank 0) is not "
				"supported: rank 1 to 4",
				s->name);
	if (h->rank > TT_TENSOR_MAX_RANK)
		return tt_error(-ENOTSUP,
				"%s: rank %u is not supported: rank 1 to 4",
				s->name, h->rank);
	shape->rank = h->rank;
	for (unsigned i = 0; i < h->rank; i++)
		shape->dims[i] = h->dims[i];
	for (unsigned i = 0; i < h->rank; i++)
		if (!h->dims[i])
			return tt_error(-ENOTSUP,
					"%s: shape %s has dimension %u of 0: "
					"empty arrays are not supported",
					s->name,
					tt_shape_str(shape, str, sizeof(str)),
					i);
	return 0;
}

/* Header, dtype, shape and the data's size against the file's. */
static int check_file(const struct source *s, struct tt_npy_header *h,
		      const struct dtype **dt, bool *big,
		      struct tt_shape *shape)
{
	char str[TT_DESC_LEN];
	size_t vol, bytes;
	uint64_t have;
	int ret = read_header(s, h);

	if (!ret)
		ret = header_shape(s, h, shape);
	if (ret)
		return ret;
	*dt = parse_descr(h->descr, big);
	if (!*dt)
		return tt_error(
			-ENOTSUP,
			"%s: dtype '%s' is not supported (supported: " SUPPORTED
			")",
			s->name, h->descr);
	tt_shape_str(shape, str, sizeof(str));
	if (tt_shape_volume(shape, &vol) ||
	    __builtin_mul_overflow(vol, (size_t)(*dt)->size, &bytes))
		return tt_error(
			-EOVERFLOW,
			"%s: shape %s of '%s' has more bytes than fit size_t",
			s->name, str, h->descr);
	have = s->size - h->data_offset;
	if (have < bytes)
		return tt_error(-EBADMSG,
				"%s: truncated: shape %s of '%s' needs %zu "
				"bytes of data, the file has %llu",
				s->name, str, h->descr, bytes,
				(unsigned long long)have);
	if (have > bytes)
		return tt_error(-EBADMSG,
				"%s: %llu bytes of trailing garbage after the "
				"data (shape %s of '%s')",
				s->name, (unsigned long long)(have - bytes),
				str, h->descr);
	return 0;
}

static void swap_bytes(uint8_t *p, size_t n, unsigned size)
{
	for (size_t i = 0; i < n; i++, p += size)
		for (unsigned a = 0, b = size - 1; a < b; a++, b--) {
			uint8_t t = p[a];

			p[a] = p[b];
			p[b] = t;
		}
}

/*
 * Fortran order to C order: element (i0, .., ik) is at
 * sum(i_j * prod(d_0 .. d_j-1)) in the file. Walk the C order with an
 * odometer, keeping the Fortran offset up to date.
 */
static int from_fortran(const struct tt_shape *sh, uint8_t *data, unsigned size,
			const char *name)
{
	uint64_t idx[TT_TENSOR_MAX_RANK] = {0}, stride[TT_TENSOR_MAX_RANK];
	size_t vol = 1, f = 0;
	uint8_t *src;

	for (unsigned j = 0; j < sh->rank; j++) {
		stride[j] = vol;
		vol *= sh->dims[j]; /* checked by check_file */
	}
	src = malloc(vol * size);
	if (!src)
		return tt_error(-ENOMEM, "%s: out of memory", name);
	memcpy(src, data, vol * size);
	for (size_t n = 0; n < vol; n++) {
		memcpy(data + n * size, src + f * size, size);
		for (unsigned j = sh->rank; j-- > 0;) {
			f += stride[j];
			if (++idx[j] < sh->dims[j])
				break;
			f -= stride[j] * sh->dims[j];
			idx[j] = 0;
		}
	}
	free(src);
	return 0;
}

static int read_npy(const struct source *s, tt_tensor **out)
{
	struct tt_npy_header h = {0};
	const struct dtype *dt;
	struct tt_shape shape;
	tt_tensor *t;
	bool big;
	int ret = check_file(s, &h, &dt, &big, &shape);

	if (ret)
		return ret;
	ret = tt_tensor_create(&shape, dt->fmt, TT_TENSOR_ROW_MAJOR, &t);
	if (ret)
		return ret;
	ret = src_read(s, h.data_offset, t->data, t->size);
	if (!ret && big && dt->size > 1)
		swap_bytes(t->data, t->g.volume, dt->size);
	if (!ret && h.fortran_order && h.rank > 1)
		ret = from_fortran(&shape, t->data, dt->size, s->name);
	if (ret) {
		tt_tensor_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

static const char *file_type(mode_t mode)
{
	return S_ISDIR(mode)  ? "a directory" :
	       S_ISFIFO(mode) ? "a FIFO" :
	       S_ISCHR(mode)  ? "a character device" :
	       S_ISBLK(mode)  ? "a block device" :
	       S_ISSOCK(mode) ? "a socket" :
				"not a file";
}

int tt_tensor_load_npy(const char *path, tt_tensor **out)
{
	struct source s = {.fd = -1};
	struct stat st;
	int ret;

	if (!path || !out)
		return tt_error(-EINVAL, "tt_tensor_load_npy: %s is NULL",
				path ? "out" : "path");
	snprintf(s.name, sizeof(s.name), "npy file \"%s\"", path);
	/* O_NONBLOCK: opening a FIFO must not wait for a writer; the type is
	 * checked before anything is read. */
	s.fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (s.fd < 0)
		return tt_error(-errno, "%s: cannot open: %s", s.name,
				strerror(errno));
	if (fstat(s.fd, &st)) {
		ret = tt_error(-errno, "%s: cannot stat: %s", s.name,
			       strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		ret = tt_error(-EINVAL, "%s: is %s, not a regular file",
			       s.name, file_type(st.st_mode));
	} else {
		s.size = (uint64_t)st.st_size;
		ret = read_npy(&s, out);
	}
	close(s.fd);
	return ret;
}

int tt_tensor_read_npy(const void *buf, size_t len, tt_tensor **out)
{
	struct source s = {.fd = -1, .size = len, .mem = buf};

	snprintf(s.name, sizeof(s.name), "npy data (%zu bytes)", len);
	if (!buf || !out)
		return tt_error(-EINVAL, "tt_tensor_read_npy: %s is NULL",
				buf ? "out" : "buf");
	return read_npy(&s, out);
}

/* ---- writing ---- */

/* t itself if it is row-major in a NumPy dtype, else a converted copy
 * (a new reference either way). */
static int npy_form(const tt_tensor *t, const struct dtype *dt, tt_tensor **out)
{
	if (t->layout == TT_TENSOR_ROW_MAJOR && t->fmt == dt->fmt) {
		*out = tt_tensor_ref((tt_tensor *)t);
		return 0;
	}
	return tt_tensor_to(t, dt->fmt, TT_TENSOR_ROW_MAJOR, out);
}

int tt_tensor_save_npy(const tt_tensor *t, const char *path)
{
	char hdr[TT_NPY_WRITE_MAX];
	const struct dtype *dt;
	tt_tensor *rm;
	size_t hlen;
	int fd, ret;

	if (!t || !path)
		return tt_error(-EINVAL, "tt_tensor_save_npy: %s is NULL",
				t ? "path" : "tensor");
	dt = dtype_for(t->fmt);
	ret = npy_form(t, dt, &rm);
	if (ret)
		return ret;
	hlen = tt_npy_format_header(hdr, dt->descr, t->shape.dims,
				    t->shape.rank);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	ret = fd < 0 ? -errno : tt_write_all(fd, hdr, hlen);
	if (!ret)
		ret = tt_write_all(fd, rm->data, rm->size);
	if (fd >= 0 && close(fd) && !ret)
		ret = -errno;
	tt_tensor_free(rm);
	if (ret && fd >= 0)
		unlink(path); /* no half-written file left behind */
	if (ret)
		return tt_error(ret, "npy file \"%s\": cannot write: %s", path,
				strerror(-ret));
	return 0;
}
