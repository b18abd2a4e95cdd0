// SPDX-License-Identifier: Apache-2.0
/*
 * Host data of the builder's values (a map value -> bytes), seeded
 * random inputs, .npy inputs, and the golden hook.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tt/dataformat.h"
#include "tt/tensor.h"

#include "tools/ttc/ir/internal.h"

#include "internal.h"

static struct ttc_bdata *find(const ttc_builder *b, const ttc_value *v)
{
	for (size_t i = 0; i < b->ndata; i++)
		if (b->data[i].v == v)
			return &b->data[i];
	return NULL;
}

void ttc_builder_free_data(ttc_builder *b)
{
	for (size_t i = 0; i < b->ndata; i++) {
		free(b->data[i].data);
		free(b->data[i].name);
	}
	free(b->data);
	b->data = NULL;
	b->ndata = b->datacap = b->nnamed = 0;
}

static size_t value_bytes(const ttc_value *v)
{
	const ttc_type *t = ttc_value_type(v);

	if (!ttc_type_is_tensor(t))
		return 0;
	return (size_t)ttc_type_numel(t) * ttc_type_elem_bytes(ttc_type_elem(t));
}

int ttc_builder_set_data(ttc_builder *b, const ttc_value *v,
			 const void *data, size_t nbytes)
{
	if (!b || !v || (!data && nbytes))
		return -EINVAL;
	if (nbytes != value_bytes(v)) {
		ttc_diag_addf(b->ctx, "builder: data of %zu bytes for a value "
				      "of %zu",
			      nbytes, value_bytes(v));
		return -EINVAL;
	}
	struct ttc_bdata *d = find(b, v);

	if (!d) {
		if (b->ndata == b->datacap) {
			b->datacap = b->datacap ? 2 * b->datacap : 16;
			b->data = ttc_xrealloc(b->data,
					       b->datacap * sizeof(*b->data));
		}
		d = &b->data[b->ndata];
		*d = (struct ttc_bdata){ .v = v };
		if (ttc_value_def(v))
			ttc_builder_name_entry(b, d);
		b->ndata++;
	}
	free(d->data);
	d->data = ttc_xmalloc(nbytes ? nbytes : 1);
	memcpy(d->data, data, nbytes);
	d->nbytes = nbytes;
	return 0;
}

const void *ttc_builder_data(const ttc_builder *b, const ttc_value *v,
			     size_t *nbytes)
{
	const struct ttc_bdata *d = b && v ? find(b, v) : NULL;

	if (nbytes)
		*nbytes = d ? d->nbytes : 0;
	return d ? d->data : NULL;
}

/* splitmix64: small, and the same sequence on every machine. */
static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Stores x as element i of an elem-typed buffer (little-endian host). */
static void store(const ttc_type *elem, void *buf, size_t i, double x)
{
	unsigned w = ttc_type_width(elem);

	if (ttc_type_kind(elem) == TTC_TYPE_FLOAT) {
		switch (ttc_type_float_kind(elem)) {
		case TTC_BF16:
			((uint16_t *)buf)[i] = tt_float_to_bf16((float)x);
			return;
		case TTC_F16:
			((uint16_t *)buf)[i] = tt_float_to_f16((float)x);
			return;
		case TTC_F32:
			((float *)buf)[i] = (float)x;
			return;
		default:
			((double *)buf)[i] = x;
			return;
		}
	}
	int64_t v = (int64_t)x;
	size_t n = w == 1 ? 1 : w / 8;

	memcpy((char *)buf + i * n, &v, n);
}

int ttc_builder_set_random(ttc_builder *b, const ttc_value *v, uint64_t seed)
{
	size_t nbytes = v ? value_bytes(v) : 0;

	if (!b || !v || !ttc_type_is_tensor(ttc_value_type(v)))
		return -EINVAL;
	const ttc_type *t = ttc_value_type(v), *elem = ttc_type_elem(t);
	size_t n = (size_t)ttc_type_numel(t);
	void *buf = ttc_xmalloc(nbytes ? nbytes : 1);
	bool is_float = ttc_type_kind(elem) == TTC_TYPE_FLOAT;
	bool uns = !is_float && ttc_type_signedness(elem) == TTC_UNSIGNED;

	for (size_t i = 0; i < n; i++) {
		uint64_t r = next(&seed);
		double x;

		if (is_float)
			x = (double)(r >> 11) / (double)(1ull << 52) - 1.0;
		else if (ttc_type_width(elem) == 1)
			x = (double)(r & 1);
		else
			x = (double)(int64_t)(r % 16) - (uns ? 0 : 8);
		if (uns && !is_float)
			x = (double)(r % 8);
		store(elem, buf, i, x);
	}
	int rc = ttc_builder_set_data(b, v, buf, nbytes);

	free(buf);
	return rc;
}

/* f32 file values into an f32, bf16 or f16 value; other formats copied
 * when their element size matches. */
static int from_tt(ttc_builder *b, const ttc_value *v, const tt_tensor *tt,
		   const char *path)
{
	const ttc_type *t = ttc_value_type(v), *elem = ttc_type_elem(t);
	size_t n = (size_t)ttc_type_numel(t), nbytes = value_bytes(v);
	bool f32 = tt_tensor_format(tt) == TT_FLOAT32;

	if (tt_tensor_volume(tt) != n) {
		ttc_diag_addf(b->ctx, "%s: %zu values for a value of %zu", path,
			      tt_tensor_volume(tt), n);
		return -EINVAL;
	}
	if (f32 && ttc_type_kind(elem) == TTC_TYPE_FLOAT &&
	    ttc_type_width(elem) <= 32) {
		void *buf = ttc_xmalloc(nbytes ? nbytes : 1);
		const float *src = tt_tensor_data(tt);

		for (size_t i = 0; i < n; i++)
			store(elem, buf, i, src[i]);
		int rc = ttc_builder_set_data(b, v, buf, nbytes);

		free(buf);
		return rc;
	}
	if (tt_tensor_size(tt) != nbytes) {
		ttc_diag_addf(b->ctx, "%s: its dtype does not fit the value's "
				      "element type", path);
		return -EINVAL;
	}
	return ttc_builder_set_data(b, v, tt_tensor_data(tt), nbytes);
}

int ttc_builder_set_npy(ttc_builder *b, const ttc_value *v, const char *path)
{
	tt_tensor *tt = NULL;

	if (!b || !v || !path || !ttc_type_is_tensor(ttc_value_type(v)))
		return -EINVAL;
	int rc = tt_tensor_load_npy(path, &tt);

	if (rc) {
		ttc_diag_addf(b->ctx, "%s: cannot be read as .npy (%d)", path,
			      rc);
		return rc;
	}
	rc = from_tt(b, v, tt, path);
	tt_tensor_free(tt);
	return rc;
}

void ttc_builder_set_golden(ttc_builder *b, ttc_builder_golden_fn fn,
			    void *user)
{
	if (!b)
		return;
	b->golden = fn;
	b->golden_user = user;
}

int ttc_builder_run_golden(ttc_builder *b, const ttc_op *op)
{
	if (!b->golden)
		return 0;
	for (size_t i = 0; i < ttc_op_num_operands(op); i++)
		if (!find(b, ttc_op_operand(op, i)))
			return 0;
	int rc = b->golden(b->golden_user, b, op);

	return rc < 0 ? rc : 0;
}
