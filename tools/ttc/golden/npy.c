// SPDX-License-Identifier: Apache-2.0
/*
 * .npy files of any rank 0..8 and the element types of the IR: libtt's
 * header code (tt/npy.h) reads and writes the header; the elements are
 * ours, as libtt's tensors hold neither rank 0 or more than 4 nor 64-bit
 * and boolean dtypes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tt/npy.h"

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
	char kind, descr[8], hdr[TT_NPY_WRITE_MAX];
	unsigned size, rank = t->type->rank;
	uint64_t dims[TTC_MAX_RANK];

	dtype_of(t->type->elem, &kind, &size);
	snprintf(descr, sizeof(descr), "%c%c%u", size == 1 ? '|' : '<', kind,
		 size);
	for (unsigned i = 0; i < rank; i++)
		dims[i] = (uint64_t)t->type->dims[i];
	size_t total = tt_npy_format_header(hdr, descr, dims, rank);
	FILE *f = fopen(path, "wb");

	if (!f)
		return npy_fail(ctx, path, strerror(errno), -errno);
	bool ok = total && fwrite(hdr, 1, total, f) == total;
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

/* The header through libtt's reader: 0, or a diagnostic naming the
 * file. */
static int read_header(ttc_ctx *ctx, const char *path, FILE *f,
		       struct tt_npy_header *h)
{
	uint8_t pre[TT_NPY_PREAMBLE_MAX];
	char err[256], *dict;
	struct stat st;
	size_t n = fread(pre, 1, sizeof(pre), f), hlen;
	int rc;

	if (fstat(fileno(f), &st))
		return npy_fail(ctx, path, strerror(errno), -errno);
	rc = tt_npy_preamble(pre, n, (uint64_t)st.st_size, h, err, sizeof(err));
	if (rc)
		return npy_fail(ctx, path, err, rc);
	hlen = h->data_offset - (h->major == 1 ? 10 : 12);
	dict = malloc(hlen + 1);
	if (!dict)
		return npy_fail(ctx, path, "out of memory", -ENOMEM);
	rc = fseek(f, (long)(h->data_offset - hlen), SEEK_SET) ||
			     fread(dict, 1, hlen, f) != hlen ?
		     -EBADMSG :
		     0;
	if (!rc && (rc = tt_npy_parse_dict(dict, hlen, h, err, sizeof(err))))
		npy_fail(ctx, path, err, rc);
	else if (rc)
		npy_fail(ctx, path, "truncated header", rc);
	free(dict);
	return rc;
}

static ttc_tensor *load(ttc_ctx *ctx, const char *path, FILE *f)
{
	struct tt_npy_header h;
	int64_t dims[TTC_MAX_RANK];
	bool swap;

	if (read_header(ctx, path, f, &h))
		return NULL;
	const ttc_type *e = elem_of(ctx, h.descr, &swap);

	if (!e || h.fortran_order || h.rank > TTC_MAX_RANK) {
		char msg[160];

		snprintf(msg, sizeof(msg), "unsupported: dtype '%s', %s order, "
			 "rank %u (dtypes f2 f4 f8 b1 iN uN, C order, rank <= "
			 "%d)", h.descr, h.fortran_order ? "Fortran" : "C",
			 h.rank, TTC_MAX_RANK);
		npy_fail(ctx, path, msg, -ENOTSUP);
		return NULL;
	}
	for (unsigned i = 0; i < h.rank; i++)
		dims[i] = (int64_t)h.dims[i];
	ttc_tensor *t = ttc_tensor_new(ctx, ttc_tensor_type(ctx, dims, h.rank,
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
