// SPDX-License-Identifier: Apache-2.0
/* Interned attributes and locations. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Key of an attribute: every field, pointers included (children are
 * interned, so their pointers are their identity). */
static void attr_key(struct ttc_buf *k, const ttc_attr *p)
{
	k->len = 0;
	ttc_buf_putc(k, 'A');
	ttc_buf_put(k, &p->kind, sizeof(p->kind));
	ttc_buf_put(k, &p->b, 3 * sizeof(bool));
	ttc_buf_put(k, &p->i, sizeof(p->i));
	ttc_buf_put(k, &p->f, sizeof(p->f));
	ttc_buf_put(k, &p->len, sizeof(p->len));
	ttc_buf_put(k, &p->type, sizeof(p->type));
	ttc_buf_put(k, &p->lk, sizeof(p->lk));
	ttc_buf_put(k, &p->line, 2 * sizeof(unsigned));
	ttc_buf_put(k, &p->meta, sizeof(p->meta));
	if (p->s)
		ttc_buf_put(k, p->s, p->len);
	if (p->elems)
		ttc_buf_put(k, p->elems, p->len * sizeof(*p->elems));
	if (p->entries)
		ttc_buf_put(k, p->entries, p->len * sizeof(*p->entries));
	if (p->ints)
		ttc_buf_put(k, p->ints, p->len * sizeof(*p->ints));
	if (p->floats)
		ttc_buf_put(k, p->floats, p->len * sizeof(*p->floats));
	if (p->raw)
		ttc_buf_put(k, p->raw, p->nbytes);
}

static void *dup(ttc_ctx *ctx, const void *p, size_t n)
{
	void *q = ttc_arena_alloc(&ctx->arena, n);

	if (n)
		memcpy(q, p, n);
	return q;
}

static const ttc_attr *intern_attr(ttc_ctx *ctx, const ttc_attr *p)
{
	uint64_t h;

	attr_key(&ctx->key, p);
	const ttc_attr *a = ttc_intern_find(ctx, ctx->key.p, ctx->key.len, &h);

	if (a)
		return a;
	ttc_attr *n = ttc_arena_alloc(&ctx->arena, sizeof(*n));

	*n = *p;
	if (p->s)
		n->s = ttc_arena_strndup(&ctx->arena, p->s, p->len);
	if (p->elems)
		n->elems = dup(ctx, p->elems, p->len * sizeof(*p->elems));
	if (p->entries)
		n->entries = dup(ctx, p->entries, p->len * sizeof(*p->entries));
	if (p->ints)
		n->ints = dup(ctx, p->ints, p->len * sizeof(*p->ints));
	if (p->floats)
		n->floats = dup(ctx, p->floats, p->len * sizeof(*p->floats));
	if (p->raw)
		n->raw = dup(ctx, p->raw, p->nbytes);
	ttc_intern_add(ctx, ctx->key.p, ctx->key.len, h, n);
	return n;
}

const ttc_attr *ttc_unit_attr(ttc_ctx *ctx)
{
	ttc_attr p = { .kind = TTC_ATTR_UNIT };

	return ctx ? intern_attr(ctx, &p) : NULL;
}

const ttc_attr *ttc_bool_attr(ttc_ctx *ctx, bool v)
{
	ttc_attr p = { .kind = TTC_ATTR_BOOL, .b = v };

	return ctx ? intern_attr(ctx, &p) : NULL;
}

/* v truncated to the type's width, as the type reads it back. */
static int64_t wrap_int(int64_t v, const ttc_type *t)
{
	if (t->kind != TTC_TYPE_INT || t->width >= 64)
		return v;
	uint64_t mask = (1ull << t->width) - 1, u = (uint64_t)v & mask;

	if (t->sign == TTC_UNSIGNED || t->width == 1)
		return (int64_t)u;
	unsigned shift = 64 - t->width;

	return (int64_t)(u << shift) >> shift;
}

const ttc_attr *ttc_int_attr(ttc_ctx *ctx, int64_t v, const ttc_type *type)
{
	if (!ctx)
		return NULL;
	if (!type)
		type = ttc_int_type(ctx, 64, TTC_SIGNLESS);
	if (type->kind != TTC_TYPE_INT && type->kind != TTC_TYPE_INDEX)
		return NULL;
	ttc_attr p = { .kind = TTC_ATTR_INT, .i = wrap_int(v, type),
		       .type = type };

	return intern_attr(ctx, &p);
}

const ttc_attr *ttc_float_attr(ttc_ctx *ctx, double v, const ttc_type *type)
{
	if (!ctx)
		return NULL;
	if (!type)
		type = ttc_float_type(ctx, TTC_F64);
	if (type->kind != TTC_TYPE_FLOAT)
		return NULL;
	ttc_attr p = { .kind = TTC_ATTR_FLOAT, .f = ttc_round_to(type, v),
		       .type = type };

	return intern_attr(ctx, &p);
}

const ttc_attr *ttc_string_attr(ttc_ctx *ctx, const char *s, size_t len)
{
	if (!ctx || (!s && len))
		return NULL;
	ttc_attr p = { .kind = TTC_ATTR_STRING, .s = s ? s : "", .len = len };

	return intern_attr(ctx, &p);
}

const ttc_attr *ttc_type_attr(ttc_ctx *ctx, const ttc_type *t)
{
	ttc_attr p = { .kind = TTC_ATTR_TYPE, .type = t };

	return ctx && t ? intern_attr(ctx, &p) : NULL;
}

const ttc_attr *ttc_array_attr(ttc_ctx *ctx, const ttc_attr *const *elems,
			       size_t n)
{
	static const ttc_attr *none[1];
	ttc_attr p = { .kind = TTC_ATTR_ARRAY, .len = n,
		       .elems = n ? (const ttc_attr **)elems : none };

	if (!ctx || (!elems && n))
		return NULL;
	return intern_attr(ctx, &p);
}

const ttc_attr *ttc_dense_int_array_attr(ttc_ctx *ctx, const ttc_type *elem,
					 const int64_t *v, size_t n)
{
	static int64_t none[1];

	if (!ctx || !elem || elem->kind != TTC_TYPE_INT || (!v && n))
		return NULL;
	ttc_attr p = { .kind = TTC_ATTR_DENSE_ARRAY, .type = elem, .len = n,
		       .ints = n ? (int64_t *)v : none };

	return intern_attr(ctx, &p);
}

const ttc_attr *ttc_dense_float_array_attr(ttc_ctx *ctx, const ttc_type *elem,
					   const double *v, size_t n)
{
	static double none[1];

	if (!ctx || !elem || elem->kind != TTC_TYPE_FLOAT || (!v && n))
		return NULL;
	ttc_attr p = { .kind = TTC_ATTR_DENSE_ARRAY, .type = elem, .len = n,
		       .floats = n ? (double *)v : none };

	return intern_attr(ctx, &p);
}

const ttc_attr *ttc_dense_attr(ttc_ctx *ctx, const ttc_type *type,
			       const void *raw, size_t nbytes, bool splat,
			       bool hex)
{
	if (!ctx || !type || type->kind != TTC_TYPE_TENSOR)
		return NULL;
	size_t eb = ttc_type_elem_bytes(type->elem);
	size_t want = eb * (splat ? 1 : (size_t)ttc_type_numel(type));

	if (!eb || nbytes != want || (!raw && nbytes)) {
		ttc_diag_addf(ctx, "dense elements: %zu bytes given, %zu "
				   "expected for the type",
			      nbytes, want);
		return NULL;
	}
	static const char none[1];
	ttc_attr p = { .kind = TTC_ATTR_DENSE, .type = type, .splat = splat,
		       .hex = hex, .raw = nbytes ? raw : none,
		       .nbytes = nbytes,
		       .len = (size_t)ttc_type_numel(type) };

	return intern_attr(ctx, &p);
}

static int entry_cmp(const void *a, const void *b)
{
	const struct ttc_named_attr *x = a, *y = b;

	return strcmp(x->name, y->name);
}

const ttc_attr *ttc_dict_attr(ttc_ctx *ctx,
			      const struct ttc_named_attr *entries, size_t n)
{
	static struct ttc_named_attr none[1];

	if (!ctx || (!entries && n))
		return NULL;
	struct ttc_named_attr *e = n ? ttc_xmalloc(n * sizeof(*e)) : none;

	for (size_t i = 0; i < n; i++) {
		e[i].name = ttc_intern(ctx, entries[i].name,
				       strlen(entries[i].name));
		e[i].value = entries[i].value;
	}
	qsort(e, n, sizeof(*e), entry_cmp);
	for (size_t i = 1; i < n; i++) {
		if (e[i].name == e[i - 1].name) {
			ttc_diag_addf(ctx, "attribute '%s' occurs more than "
					   "once in a dictionary",
				      e[i].name);
			free(e);
			return NULL;
		}
	}
	ttc_attr p = { .kind = TTC_ATTR_DICT, .len = n, .entries = e };
	const ttc_attr *a = intern_attr(ctx, &p);

	if (n)
		free(e);
	return a;
}

const ttc_attr *ttc_symref_attr(ttc_ctx *ctx, const char *name)
{
	if (!ctx || !name)
		return NULL;
	ttc_attr p = { .kind = TTC_ATTR_SYMREF, .s = name,
		       .len = strlen(name) };

	return intern_attr(ctx, &p);
}

const ttc_attr *ttc_opaque_attr(ttc_ctx *ctx, const char *text)
{
	if (!ctx || !text)
		return NULL;
	ttc_attr p = { .kind = TTC_ATTR_OPAQUE, .s = text,
		       .len = strlen(text) };

	return intern_attr(ctx, &p);
}

/* ---- accessors ---- */

enum ttc_attr_kind ttc_attr_kind(const ttc_attr *a)
{
	return a ? a->kind : TTC_ATTR_UNIT;
}

bool ttc_attr_bool(const ttc_attr *a)
{
	return a && a->kind == TTC_ATTR_BOOL && a->b;
}

int64_t ttc_attr_int(const ttc_attr *a)
{
	return a && a->kind == TTC_ATTR_INT ? a->i : 0;
}

double ttc_attr_float(const ttc_attr *a)
{
	if (a && a->kind == TTC_ATTR_INT)
		return (double)a->i;
	return a && a->kind == TTC_ATTR_FLOAT ? a->f : 0;
}

const char *ttc_attr_str(const ttc_attr *a, size_t *len)
{
	if (!a || !a->s)
		return NULL;
	if (len)
		*len = a->len;
	return a->s;
}

const ttc_type *ttc_attr_type(const ttc_attr *a)
{
	return a ? a->type : NULL;
}

size_t ttc_attr_size(const ttc_attr *a)
{
	if (!a)
		return 0;
	switch (a->kind) {
	case TTC_ATTR_ARRAY:
	case TTC_ATTR_DENSE_ARRAY:
	case TTC_ATTR_DICT:
	case TTC_ATTR_DENSE:
		return a->len;
	default:
		return 0;
	}
}

const ttc_attr *ttc_attr_array_at(const ttc_attr *a, size_t i)
{
	return a && a->kind == TTC_ATTR_ARRAY && i < a->len ? a->elems[i]
							    : NULL;
}

int64_t ttc_attr_dense_array_int(const ttc_attr *a, size_t i)
{
	if (!a || a->kind != TTC_ATTR_DENSE_ARRAY || i >= a->len)
		return 0;
	return a->ints ? a->ints[i] : (int64_t)a->floats[i];
}

double ttc_attr_dense_array_float(const ttc_attr *a, size_t i)
{
	if (!a || a->kind != TTC_ATTR_DENSE_ARRAY || i >= a->len)
		return 0;
	return a->floats ? a->floats[i] : (double)a->ints[i];
}

const ttc_attr *ttc_attr_dict_get(const ttc_attr *d, const char *name)
{
	if (!d || d->kind != TTC_ATTR_DICT || !name)
		return NULL;
	/* Dictionaries are small: a linear scan with strcmp is cheapest. */
	for (size_t i = 0; i < d->len; i++)
		if (!strcmp(d->entries[i].name, name))
			return d->entries[i].value;
	return NULL;
}

const struct ttc_named_attr *ttc_attr_dict_at(const ttc_attr *d, size_t i)
{
	return d && d->kind == TTC_ATTR_DICT && i < d->len ? &d->entries[i]
							   : NULL;
}

const ttc_attr *ttc_attr_dict_set(ttc_ctx *ctx, const ttc_attr *d,
				  const char *name, const ttc_attr *value)
{
	size_t n = d ? d->len : 0, k = 0;

	if (!ctx || !name || (d && d->kind != TTC_ATTR_DICT))
		return NULL;
	struct ttc_named_attr *e = ttc_xmalloc((n + 1) * sizeof(*e));

	for (size_t i = 0; i < n; i++)
		if (strcmp(d->entries[i].name, name))
			e[k++] = d->entries[i];
	if (value)
		e[k++] = (struct ttc_named_attr){ name, value };
	const ttc_attr *r = ttc_dict_attr(ctx, e, k);

	free(e);
	return r;
}

bool ttc_attr_dense_is_splat(const ttc_attr *a)
{
	return a && a->kind == TTC_ATTR_DENSE && a->splat;
}

bool ttc_attr_dense_is_hex(const ttc_attr *a)
{
	return a && a->kind == TTC_ATTR_DENSE && a->hex;
}

const void *ttc_attr_dense_raw(const ttc_attr *a, size_t *nbytes)
{
	if (!a || a->kind != TTC_ATTR_DENSE)
		return NULL;
	if (nbytes)
		*nbytes = a->nbytes;
	return a->raw;
}

double ttc_attr_dense_get(const ttc_attr *a, size_t i)
{
	if (!a || a->kind != TTC_ATTR_DENSE || i >= a->len)
		return 0;
	const ttc_type *e = a->type->elem;
	size_t eb = ttc_type_elem_bytes(e);

	return ttc_elem_load(e, (const char *)a->raw + (a->splat ? 0 : i * eb));
}

int ttc_attr_ints(const ttc_attr *a, int64_t *out, size_t max)
{
	if (!a)
		return -EINVAL;
	if (a->kind == TTC_ATTR_DENSE_ARRAY && a->ints) {
		if (a->len > max)
			return -E2BIG;
		memcpy(out, a->ints, a->len * sizeof(*out));
		return (int)a->len;
	}
	if (a->kind != TTC_ATTR_ARRAY)
		return -EINVAL;
	if (a->len > max)
		return -E2BIG;
	for (size_t i = 0; i < a->len; i++) {
		if (a->elems[i]->kind != TTC_ATTR_INT)
			return -EINVAL;
		out[i] = a->elems[i]->i;
	}
	return (int)a->len;
}

/* ---- locations ---- */

const ttc_loc *ttc_loc_unknown(ttc_ctx *ctx)
{
	ttc_attr p = { .kind = TTC_ATTR_LOC, .lk = TTC_LOC_UNKNOWN };

	return ctx ? intern_attr(ctx, &p) : NULL;
}

const ttc_loc *ttc_loc_file(ttc_ctx *ctx, const char *file, unsigned line,
			    unsigned col)
{
	if (!ctx || !file)
		return NULL;
	ttc_attr p = { .kind = TTC_ATTR_LOC, .lk = TTC_LOC_FILE, .s = file,
		       .len = strlen(file), .line = line, .col = col };

	return intern_attr(ctx, &p);
}

const ttc_loc *ttc_loc_name(ttc_ctx *ctx, const char *name,
			    const ttc_loc *child)
{
	if (!ctx || !name)
		return NULL;
	ttc_attr p = { .kind = TTC_ATTR_LOC, .lk = TTC_LOC_NAME, .s = name,
		       .len = strlen(name), .meta = child };

	return intern_attr(ctx, &p);
}

const ttc_loc *ttc_loc_callsite(ttc_ctx *ctx, const ttc_loc *callee,
				const ttc_loc *caller)
{
	const ttc_attr *two[2] = { callee, caller };

	if (!ctx || !callee || !caller)
		return NULL;
	ttc_attr p = { .kind = TTC_ATTR_LOC, .lk = TTC_LOC_CALLSITE,
		       .elems = two, .len = 2 };

	return intern_attr(ctx, &p);
}

const ttc_loc *ttc_loc_fused(ttc_ctx *ctx, const ttc_loc *const *locs,
			     size_t n, const ttc_attr *metadata)
{
	static const ttc_attr *none[1];

	if (!ctx || (!locs && n))
		return NULL;
	ttc_attr p = { .kind = TTC_ATTR_LOC, .lk = TTC_LOC_FUSED,
		       .elems = n ? (const ttc_attr **)locs : none, .len = n,
		       .type = NULL };

	p.i = metadata ? 1 : 0;
	p.meta = metadata;
	return intern_attr(ctx, &p);
}

enum ttc_loc_kind ttc_loc_kind(const ttc_loc *l)
{
	return l && l->kind == TTC_ATTR_LOC ? l->lk : TTC_LOC_UNKNOWN;
}

const char *ttc_loc_str(const ttc_loc *l)
{
	return l && l->kind == TTC_ATTR_LOC ? l->s : NULL;
}

unsigned ttc_loc_line(const ttc_loc *l)
{
	return l ? l->line : 0;
}

unsigned ttc_loc_col(const ttc_loc *l)
{
	return l ? l->col : 0;
}

size_t ttc_loc_num_children(const ttc_loc *l)
{
	if (!l || l->kind != TTC_ATTR_LOC)
		return 0;
	if (l->lk == TTC_LOC_NAME)
		return l->meta ? 1 : 0;
	return l->elems ? l->len : 0;
}

const ttc_loc *ttc_loc_child(const ttc_loc *l, size_t i)
{
	if (i >= ttc_loc_num_children(l))
		return NULL;
	return l->lk == TTC_LOC_NAME ? l->meta : l->elems[i];
}

const ttc_attr *ttc_loc_metadata(const ttc_loc *l)
{
	return l && l->lk == TTC_LOC_FUSED ? l->meta : NULL;
}
