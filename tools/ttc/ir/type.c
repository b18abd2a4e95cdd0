// SPDX-License-Identifier: Apache-2.0
/* Interned types and the element storage of dense attributes. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "tt/dataformat.h"

#include "internal.h"

/* Looks the key up; else stores a copy of proto under it. */
static const ttc_type *intern_type(ttc_ctx *ctx, const ttc_type *proto)
{
	struct ttc_buf *k = &ctx->key;
	uint64_t h;

	k->len = 0;
	ttc_buf_putc(k, 'T');
	ttc_buf_put(k, &proto->kind, sizeof(proto->kind));
	ttc_buf_put(k, &proto->width, sizeof(proto->width));
	ttc_buf_put(k, &proto->sign, sizeof(proto->sign));
	ttc_buf_put(k, &proto->fk, sizeof(proto->fk));
	ttc_buf_put(k, &proto->elem, sizeof(proto->elem));
	ttc_buf_put(k, &proto->enc, sizeof(proto->enc));
	ttc_buf_put(k, &proto->text, sizeof(proto->text));
	ttc_buf_put(k, &proto->rank, sizeof(proto->rank));
	ttc_buf_put(k, proto->dims, proto->rank * sizeof(int64_t));
	const ttc_type *t = ttc_intern_find(ctx, k->p, k->len, &h);

	if (t)
		return t;
	ttc_type *n = ttc_arena_alloc(&ctx->arena, sizeof(*n));

	*n = *proto;
	n->ctx = ctx;
	if (proto->rank) {
		int64_t *d = ttc_arena_alloc(&ctx->arena,
					     proto->rank * sizeof(int64_t));

		memcpy(d, proto->dims, proto->rank * sizeof(int64_t));
		n->dims = d;
	}
	ttc_intern_add(ctx, k->p, k->len, h, n);
	return n;
}

const ttc_type *ttc_int_type(ttc_ctx *ctx, unsigned width,
			     enum ttc_signedness sign)
{
	if (!ctx || width == 0 || width > 64 || (unsigned)sign > 2)
		return NULL;
	const ttc_type **c = &ctx->int_types[width][sign];
	ttc_type p = { .kind = TTC_TYPE_INT, .width = width, .sign = sign };

	if (!*c)
		*c = intern_type(ctx, &p);
	return *c;
}

const ttc_type *ttc_float_type(ttc_ctx *ctx, enum ttc_float_kind k)
{
	static const unsigned widths[] = { 16, 16, 32, 64 };

	if (!ctx || (unsigned)k > TTC_F64)
		return NULL;
	ttc_type p = { .kind = TTC_TYPE_FLOAT, .fk = k, .width = widths[k] };

	if (!ctx->float_types[k])
		ctx->float_types[k] = intern_type(ctx, &p);
	return ctx->float_types[k];
}

const ttc_type *ttc_index_type(ttc_ctx *ctx)
{
	ttc_type p = { .kind = TTC_TYPE_INDEX, .width = 64 };

	return ctx ? intern_type(ctx, &p) : NULL;
}

const ttc_type *ttc_none_type(ttc_ctx *ctx)
{
	ttc_type p = { .kind = TTC_TYPE_NONE };

	return ctx ? intern_type(ctx, &p) : NULL;
}

static bool valid_elem(const ttc_type *e)
{
	if (!e)
		return false;
	if (e->kind == TTC_TYPE_FLOAT || e->kind == TTC_TYPE_OPAQUE)
		return true;
	if (e->kind != TTC_TYPE_INT)
		return false;
	return e->width == 1 || e->width == 8 || e->width == 16 ||
	       e->width == 32 || e->width == 64;
}

const ttc_type *ttc_tensor_type(ttc_ctx *ctx, const int64_t *dims,
				unsigned rank, const ttc_type *elem,
				const ttc_attr *encoding)
{
	if (!ctx)
		return NULL;
	if (rank > TTC_MAX_RANK) {
		ttc_diag_addf(ctx, "tensor rank %u is above the limit of %d",
			      rank, TTC_MAX_RANK);
		return NULL;
	}
	if (!valid_elem(elem)) {
		ttc_diag_addf(ctx, "tensor element type must be i1, i8, i16, "
				   "i32, i64 (signless, signed or unsigned), "
				   "f16, bf16, f32 or f64");
		return NULL;
	}
	for (unsigned i = 0; i < rank; i++) {
		if (dims[i] < 0) {
			ttc_diag_addf(ctx, "tensor dimension %u is %lld; "
					   "dimensions must be static and >= 0",
				      i, (long long)dims[i]);
			return NULL;
		}
	}
	/* The cache is checked field by field; interning decides on a miss. */
	uint64_t mix = (uint64_t)(uintptr_t)elem >> 4 ^ rank * 0x9e37u;

	for (unsigned i = 0; i < rank; i++)
		mix = mix * 31 + (uint64_t)dims[i];
	const ttc_type **c = &ctx->tensor_cache[mix % TTC_TENSOR_CACHE];

	if (*c && (*c)->rank == rank && (*c)->elem == elem &&
	    (*c)->enc == encoding &&
	    (!rank || !memcmp((*c)->dims, dims, rank * sizeof(*dims))))
		return *c;
	ttc_type p = { .kind = TTC_TYPE_TENSOR, .rank = rank, .dims = dims,
		       .elem = elem, .enc = encoding };

	*c = intern_type(ctx, &p);
	return *c;
}

const ttc_type *ttc_tensor_type_with_elem(ttc_ctx *ctx, const ttc_type *t,
					  const ttc_type *elem)
{
	if (!ctx || !t || t->kind != TTC_TYPE_TENSOR)
		return NULL;
	return ttc_tensor_type(ctx, t->dims, t->rank, elem, t->enc);
}

const ttc_type *ttc_opaque_type(ttc_ctx *ctx, const char *text)
{
	if (!ctx || !text)
		return NULL;
	ttc_type p = { .kind = TTC_TYPE_OPAQUE,
		       .text = ttc_intern(ctx, text, strlen(text)) };

	return intern_type(ctx, &p);
}

enum ttc_type_kind ttc_type_kind(const ttc_type *t)
{
	return t ? t->kind : TTC_TYPE_NONE;
}

unsigned ttc_type_width(const ttc_type *t)
{
	return t ? t->width : 0;
}

enum ttc_signedness ttc_type_signedness(const ttc_type *t)
{
	return t ? t->sign : TTC_SIGNLESS;
}

enum ttc_float_kind ttc_type_float_kind(const ttc_type *t)
{
	return t ? t->fk : TTC_F16;
}

unsigned ttc_type_rank(const ttc_type *t)
{
	return t ? t->rank : 0;
}

const int64_t *ttc_type_dims(const ttc_type *t)
{
	return t ? t->dims : NULL;
}

int64_t ttc_type_numel(const ttc_type *t)
{
	int64_t n = 1;

	if (!t || t->kind != TTC_TYPE_TENSOR)
		return 0;
	for (unsigned i = 0; i < t->rank; i++)
		n *= t->dims[i];
	return n;
}

const ttc_type *ttc_type_elem(const ttc_type *t)
{
	return t ? t->elem : NULL;
}

const ttc_attr *ttc_type_encoding(const ttc_type *t)
{
	return t ? t->enc : NULL;
}

const char *ttc_type_text(const ttc_type *t)
{
	return t ? t->text : NULL;
}

bool ttc_type_is_tensor(const ttc_type *t)
{
	return t && t->kind == TTC_TYPE_TENSOR;
}

size_t ttc_type_elem_bytes(const ttc_type *e)
{
	if (!e || (e->kind != TTC_TYPE_INT && e->kind != TTC_TYPE_FLOAT &&
		   e->kind != TTC_TYPE_INDEX))
		return 0;
	return e->width <= 8 ? 1 : e->width / 8;
}

const ttc_type *ttc_parse_scalar_type(ttc_ctx *ctx, const char *s, size_t n)
{
	static const char *const fl[] = { "f16", "bf16", "f32", "f64" };
	enum ttc_signedness sign = TTC_SIGNLESS;
	size_t i = 0;

	for (unsigned k = 0; k < 4; k++)
		if (strlen(fl[k]) == n && !memcmp(s, fl[k], n))
			return ttc_float_type(ctx, k);
	if (n == 5 && !memcmp(s, "index", 5))
		return ttc_index_type(ctx);
	if (n >= 3 && s[0] == 's' && s[1] == 'i')
		sign = TTC_SIGNED, i = 2;
	else if (n >= 3 && s[0] == 'u' && s[1] == 'i')
		sign = TTC_UNSIGNED, i = 2;
	else if (n >= 2 && s[0] == 'i')
		i = 1;
	else
		return NULL;
	if (i >= n || s[i] == '0')
		return NULL;
	unsigned w = 0;

	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || w > 64)
			return NULL;
		w = w * 10 + (unsigned)(s[i] - '0');
	}
	return ttc_int_type(ctx, w, sign);
}

/* ---- dense storage: little-endian hosts only, as the project ---- */

double ttc_elem_load(const ttc_type *e, const void *p)
{
	if (e->kind == TTC_TYPE_FLOAT) {
		uint16_t h;
		float f;
		double d;

		switch (e->fk) {
		case TTC_BF16:
			memcpy(&h, p, 2);
			return tt_bf16_to_float(h);
		case TTC_F16:
			memcpy(&h, p, 2);
			return tt_f16_to_float(h);
		case TTC_F32:
			memcpy(&f, p, 4);
			return f;
		default:
			memcpy(&d, p, 8);
			return d;
		}
	}
	int64_t v = 0;
	uint64_t u = 0;
	size_t n = ttc_type_elem_bytes(e);

	memcpy(&u, p, n);
	if (e->width == 1)
		return u & 1;
	if (e->sign == TTC_UNSIGNED || n == 8) {
		if (n == 8 && e->sign != TTC_UNSIGNED) {
			memcpy(&v, &u, 8);
			return (double)v;
		}
		return (double)u;
	}
	/* Sign-extend a signless or signed value of n bytes. */
	unsigned shift = 64 - 8 * (unsigned)n;

	v = (int64_t)(u << shift) >> shift;
	return (double)v;
}

double ttc_round_to(const ttc_type *t, double v)
{
	if (!t || t->kind != TTC_TYPE_FLOAT)
		return v;
	switch (t->fk) {
	case TTC_BF16:
		return tt_bf16_to_float(tt_float_to_bf16((float)v));
	case TTC_F16:
		return tt_f16_to_float(tt_float_to_f16((float)v));
	case TTC_F32:
		return (float)v;
	default:
		return v;
	}
}

void ttc_elem_store(const ttc_type *e, void *p, double v)
{
	if (e->kind == TTC_TYPE_FLOAT) {
		uint16_t h;
		float f = (float)v;

		switch (e->fk) {
		case TTC_BF16:
			h = tt_float_to_bf16(f);
			memcpy(p, &h, 2);
			return;
		case TTC_F16:
			h = tt_float_to_f16(f);
			memcpy(p, &h, 2);
			return;
		case TTC_F32:
			memcpy(p, &f, 4);
			return;
		default:
			memcpy(p, &v, 8);
			return;
		}
	}
	size_t n = ttc_type_elem_bytes(e);
	uint64_t u;

	/* saturate to int64 (uint64 for unsigned), NaN as 0: a C cast of a
	 * double out of range is undefined */
	if (v != v)
		v = 0;
	if (e->width == 1)
		u = v != 0;
	else if (v < -9223372036854775808.0)
		u = (uint64_t)INT64_MIN;
	else if (e->sign == TTC_UNSIGNED && v >= 18446744073709551616.0)
		u = UINT64_MAX;
	else if (e->sign == TTC_UNSIGNED && v >= 9223372036854775808.0)
		u = (uint64_t)v;
	else if (v >= 9223372036854775808.0)
		u = (uint64_t)INT64_MAX;
	else
		u = (uint64_t)(int64_t)v;
	memcpy(p, &u, n);
}
