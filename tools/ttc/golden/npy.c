// SPDX-License-Identifier: Apache-2.0
/*
 * .npy files of any rank 0..8 and the element types of the IR. libtt's
 * reader keeps to its tensors (rank 1..4, no empty arrays, no 64-bit or
 * boolean dtypes), which goldens need, hence this small one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The dtype's letter and size for an element type ('f', 4). */
static int dtype_of(const ttc_type *e, char *kind, unsigned *size)
{
	if (e->kind == TTC_TYPE_FLOAT) {
		*kind = 'f';
		*size = e->fk == TTC_F16 ? 2 : e->fk == TTC_F64 ? 8 : 4;
		return 0;
	}
	*kind = e->width == 1 ? 'b' : e->sign == TTC_UNSIGNED ? 'u' : 'i';
	*size = e->width == 1 ? 1 : e->width / 8;
	return 0;
}

static int npy_fail(ttc_ctx *ctx, const char *path, const char *what, int rc)
{
	ttc_diag_addf(ctx, "%s: %s", path, what);
	return rc;
}

int ttc_tensor_save_npy(ttc_ctx *ctx, const ttc_tensor *t, const char *path)
{
	char kind, hdr[512], shape[256] = "";
	unsigned size, rank = t->type->rank;
	const int64_t *d = t->type->dims;
	size_t off = 0;

	dtype_of(t->type->elem, &kind, &size);
	for (unsigned i = 0; i < rank; i++)
		off += (size_t)snprintf(shape + off, sizeof(shape) - off,
					"%lld,%s", (long long)d[i],
					rank > 1 && i + 1 < rank ? " " : "");
	if (rank > 1)
		shape[off - 1] = 0; /* (2, 3) rather than (2, 3,) */
	int n = snprintf(hdr + 10, sizeof(hdr) - 10,
			 "{'descr': '%c%c%u', 'fortran_order': False, "
			 "'shape': (%s), }",
			 size == 1 ? '|' : '<', kind, size, shape);
	size_t total = 10 + (size_t)n + 1;
	size_t pad = (64 - total % 64) % 64;

	memset(hdr + 10 + n, ' ', pad);
	hdr[10 + n + pad] = '\n';
	memcpy(hdr, "\x93NUMPY\x01\x00", 8);
	hdr[8] = (char)((n + pad + 1) & 0xff);
	hdr[9] = (char)((n + pad + 1) >> 8);

	FILE *f = fopen(path, "wb");

	if (!f)
		return npy_fail(ctx, path, strerror(errno), -errno);
	bool ok = fwrite(hdr, 1, total + pad, f) == total + pad;
	/* bf16 has no dtype: written as f32, exactly. */
	for (size_t i = 0; ok && i < t->numel && kind == 'f' && size == 4 &&
			   t->type->elem->fk == TTC_BF16; i++) {
		float v = (float)ttc_tensor_get(t, i);

		ok = fwrite(&v, 4, 1, f) == 1;
	}
	if (ok && !(t->type->elem->kind == TTC_TYPE_FLOAT &&
		    t->type->elem->fk == TTC_BF16))
		ok = fwrite(t->data, size, t->numel, f) == t->numel;
	if (fclose(f) || !ok)
		return npy_fail(ctx, path, "cannot write", -EIO);
	return 0;
}

/* The value of 'key' in the header dictionary, or NULL. */
static const char *field(const char *h, const char *key)
{
	const char *p = strstr(h, key);

	if (!p)
		return NULL;
	p = strchr(p + strlen(key), ':');
	if (!p)
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	return p;
}

/* The element type of a dtype string ("<f4"), or NULL. */
static const ttc_type *elem_of(ttc_ctx *ctx, const char *d, bool *swap)
{
	unsigned size = (unsigned)atoi(d + 2);
	char k = d[1];

	*swap = d[0] == '>' && size > 1;
	if (d[0] != '<' && d[0] != '>' && d[0] != '|' && d[0] != '=')
		return NULL;
	if (k == 'f' && (size == 2 || size == 4 || size == 8))
		return ttc_float_type(ctx, size == 2 ? TTC_F16 : size == 4 ?
						TTC_F32 : TTC_F64);
	if (k == 'b' && size == 1)
		return ttc_int_type(ctx, 1, TTC_SIGNLESS);
	if ((k == 'i' || k == 'u') &&
	    (size == 1 || size == 2 || size == 4 || size == 8))
		return ttc_int_type(ctx, size * 8, k == 'u' ? TTC_UNSIGNED :
							       TTC_SIGNLESS);
	return NULL;
}

static int parse_shape(const char *p, int64_t *dims, unsigned *rank)
{
	*rank = 0;
	if (!p || *p != '(')
		return -1;
	p++;
	while (*p && *p != ')') {
		char *end;
		long long v = strtoll(p, &end, 10);

		if (end == p || v < 0 || *rank == TTC_MAX_RANK)
			return -1;
		dims[(*rank)++] = v;
		p = end;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return *p == ')' ? 0 : -1;
}

static void swap_bytes(void *data, size_t n, unsigned size)
{
	unsigned char *b = data;

	for (size_t i = 0; i < n; i++, b += size)
		for (unsigned j = 0; j < size / 2; j++) {
			unsigned char x = b[j];

			b[j] = b[size - 1 - j];
			b[size - 1 - j] = x;
		}
}

/* The header's text after the magic (malloc'd), or NULL. */
static char *read_header(FILE *f)
{
	unsigned char pre[12];
	size_t hlen;

	if (fread(pre, 1, 8, f) != 8 || memcmp(pre, "\x93NUMPY", 6))
		return NULL;
	if (pre[6] == 1) {
		if (fread(pre + 8, 1, 2, f) != 2)
			return NULL;
		hlen = pre[8] | (size_t)pre[9] << 8;
	} else if (pre[6] == 2 || pre[6] == 3) {
		if (fread(pre + 8, 1, 4, f) != 4)
			return NULL;
		hlen = pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 |
		       (size_t)pre[11] << 24;
		if (hlen > (1u << 20))
			return NULL;
	} else {
		return NULL;
	}
	char *h = malloc(hlen + 1);

	if (h && fread(h, 1, hlen, f) != hlen) {
		free(h);
		return NULL;
	}
	if (h)
		h[hlen] = 0;
	return h;
}

static ttc_tensor *load(ttc_ctx *ctx, const char *path, FILE *f)
{
	char *h = read_header(f);
	const char *descr, *fo;
	int64_t dims[TTC_MAX_RANK];
	unsigned rank;
	bool swap;

	if (!h) {
		npy_fail(ctx, path, "not a .npy file (bad magic or header)",
			 -EBADMSG);
		return NULL;
	}
	descr = field(h, "'descr'");
	fo = field(h, "'fortran_order'");
	const ttc_type *e = descr && *descr == '\'' ?
				    elem_of(ctx, descr + 1, &swap) : NULL;

	if (!e || !fo || strncmp(fo, "False", 5) ||
	    parse_shape(field(h, "'shape'"), dims, &rank)) {
		char msg[160];

		snprintf(msg, sizeof(msg), "unsupported .npy header %.100s "
			 "(dtypes f2 f4 f8 b1 iN uN, C order, rank <= 8)", h);
		npy_fail(ctx, path, msg, -ENOTSUP);
		free(h);
		return NULL;
	}
	free(h);
	ttc_tensor *t = ttc_tensor_new(ctx, ttc_tensor_type(ctx, dims, rank,
							     e, NULL));
	size_t size = ttc_type_elem_bytes(e);

	if (t && fread(t->data, size, t->numel, f) != t->numel) {
		npy_fail(ctx, path, "truncated data", -EBADMSG);
		ttc_tensor_free(t);
		return NULL;
	}
	if (t && swap)
		swap_bytes(t->data, t->numel, (unsigned)size);
	return t;
}

ttc_tensor *ttc_tensor_load_npy(ttc_ctx *ctx, const char *path)
{
	FILE *f = fopen(path, "rb");

	if (!f) {
		npy_fail(ctx, path, strerror(errno), -errno);
		return NULL;
	}
	ttc_tensor *t = load(ctx, path, f);

	fclose(f);
	return t;
}
