// SPDX-License-Identifier: Apache-2.0
/* Host tensors: storage, element access, seeded random values. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

ttc_tensor *ttc_tensor_new(ttc_ctx *ctx, const ttc_type *t)
{
	if (!t || !ttc_type_is_tensor(t) ||
	    (t->elem->kind != TTC_TYPE_INT && t->elem->kind != TTC_TYPE_FLOAT)) {
		if (ctx)
			ttc_diag_addf(ctx, "a host tensor needs a tensor "
					   "type of integer or float elements");
		return NULL;
	}
	ttc_tensor *x = calloc(1, sizeof(*x));
	size_t n = (size_t)ttc_type_numel(t);

	if (!x)
		return NULL;
	x->type = t;
	x->numel = n;
	/* One byte more so an empty tensor still has storage. */
	x->data = calloc(n ? n : 1, ttc_type_elem_bytes(t->elem));
	if (!x->data) {
		free(x);
		return NULL;
	}
	return x;
}

void ttc_tensor_free(ttc_tensor *t)
{
	if (!t)
		return;
	free(t->data);
	free(t);
}

ttc_tensor *ttc_tensor_clone(const ttc_tensor *t)
{
	ttc_tensor *c = ttc_tensor_new(NULL, t->type);

	if (c)
		memcpy(c->data, t->data,
		       t->numel * ttc_type_elem_bytes(t->type->elem));
	return c;
}

double ttc_tensor_get(const ttc_tensor *t, size_t i)
{
	const ttc_type *e = t->type->elem;

	if (e->kind == TTC_TYPE_FLOAT && e->fk == TTC_F32)
		return ((const float *)t->data)[i];
	return ttc_elem_load(e, (const char *)t->data +
					i * ttc_type_elem_bytes(e));
}

void ttc_tensor_set(ttc_tensor *t, size_t i, double v)
{
	const ttc_type *e = t->type->elem;

	if (e->kind == TTC_TYPE_FLOAT && e->fk == TTC_F32) {
		((float *)t->data)[i] = (float)v;
		return;
	}
	if (e->kind == TTC_TYPE_INT && e->width > 1) {
		/* A C cast of NaN or of a value past int64 is undefined. */
		v = isnan(v) ? 0 : trunc(v);
		if (v >= 9223372036854775807.0)
			v = 9223372036854775807.0;
		else if (v < -9223372036854775808.0)
			v = -9223372036854775808.0;
	}
	ttc_elem_store(e, (char *)t->data + i * ttc_type_elem_bytes(e), v);
}

/* splitmix64: the same sequence on every machine. */
static uint64_t next_u64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

ttc_tensor *ttc_tensor_random(ttc_ctx *ctx, const ttc_type *t, uint64_t seed)
{
	ttc_tensor *x = ttc_tensor_new(ctx, t);
	const ttc_type *e;
	uint64_t s = seed;

	if (!x)
		return NULL;
	e = t->elem;
	for (size_t i = 0; i < x->numel; i++) {
		uint64_t r = next_u64(&s);
		double v;

		if (e->kind == TTC_TYPE_FLOAT)
			v = (double)(r >> 11) * 0x1p-52 - 1.0;
		else if (e->width == 1)
			v = (double)(r & 1);
		else if (e->sign == TTC_UNSIGNED)
			v = (double)(r % 8);
		else
			v = (double)(r % 16) - 8;
		ttc_tensor_set(x, i, v);
	}
	return x;
}
