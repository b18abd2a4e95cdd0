// SPDX-License-Identifier: Apache-2.0
/* The MLIR text of types, attributes and locations (the printer's and the
 * diagnostics'). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void format_scalar(struct ttc_buf *b, const ttc_type *t)
{
	static const char *const fl[] = { "f16", "bf16", "f32", "f64" };

	switch (t->kind) {
	case TTC_TYPE_INT:
		ttc_buf_printf(b, "%si%u",
			       t->sign == TTC_SIGNED	 ? "s" :
			       t->sign == TTC_UNSIGNED ? "u" : "",
			       t->width);
		return;
	case TTC_TYPE_FLOAT:
		ttc_buf_puts(b, fl[t->fk]);
		return;
	case TTC_TYPE_INDEX:
		ttc_buf_puts(b, "index");
		return;
	case TTC_TYPE_NONE:
		ttc_buf_puts(b, "none");
		return;
	default:
		ttc_buf_puts(b, t->text);
	}
}

static void format_tensor(struct ttc_buf *b, const ttc_type *t);

void ttc_format_type(struct ttc_buf *b, const ttc_type *t)
{
	if (!t) {
		ttc_buf_puts(b, "<<null type>>");
		return;
	}
	if (t->kind != TTC_TYPE_TENSOR) {
		format_scalar(b, t);
		return;
	}
	if (!t->cached) {
		struct ttc_buf tb = { 0 };
		ttc_type *mt = (ttc_type *)t;

		format_tensor(&tb, t);
		mt->cached = ttc_arena_strndup(&t->ctx->arena, tb.p, tb.len);
		mt->cached_len = tb.len;
		ttc_buf_free(&tb);
	}
	ttc_buf_put(b, t->cached, t->cached_len);
}

static void format_tensor(struct ttc_buf *b, const ttc_type *t)
{
	ttc_buf_puts(b, "tensor<");
	for (unsigned i = 0; i < t->rank; i++)
		ttc_buf_printf(b, "%" PRId64 "x", t->dims[i]);
	format_scalar(b, t->elem);
	if (t->enc) {
		ttc_buf_puts(b, ", ");
		ttc_format_attr(b, t->enc);
	}
	ttc_buf_putc(b, '>');
}

/* Bits of v in the storage of float type t, for inf and NaN. */
static uint64_t float_bits(double v, const ttc_type *t)
{
	unsigned char raw[8] = { 0 };
	uint64_t u = 0;

	ttc_elem_store(t, raw, v);
	memcpy(&u, raw, ttc_type_elem_bytes(t));
	return u;
}

void ttc_format_float(struct ttc_buf *b, double v, const ttc_type *t)
{
	char s[40];
	bool f64 = !t || t->kind != TTC_TYPE_FLOAT || t->fk == TTC_F64;

	if (!isfinite(v)) {
		unsigned digits = t ? ttc_type_elem_bytes(t) * 2 : 16;

		ttc_buf_printf(b, "0x%0*" PRIX64, (int)digits,
			       float_bits(v, t));
		return;
	}
	/* The shortest %g that reads back to the same value of the type. */
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(s, sizeof(s), "%.*g", prec, v);
		double r = strtod(s, NULL);

		if (f64 ? r == v : (float)r == (float)v)
			break;
	}
	char *e = strchr(s, 'e');

	if (!strchr(s, '.')) {
		/* MLIR's float literal needs a '.' before any exponent. */
		char tail[40];

		snprintf(tail, sizeof(tail), "%s", e ? e : "");
		if (e)
			*e = 0;
		ttc_buf_puts(b, s);
		ttc_buf_puts(b, ".0");
		ttc_buf_puts(b, tail);
		return;
	}
	ttc_buf_puts(b, s);
}

static void format_string(struct ttc_buf *b, const char *s, size_t n)
{
	ttc_buf_putc(b, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			ttc_buf_printf(b, "\\%c", c);
		else if (c == '\n')
			ttc_buf_puts(b, "\\n");
		else if (c == '\t')
			ttc_buf_puts(b, "\\t");
		else if (c < 0x20 || c >= 0x7f)
			ttc_buf_printf(b, "\\%02X", c);
		else
			ttc_buf_putc(b, (char)c);
	}
	ttc_buf_putc(b, '"');
}

static void format_int_value(struct ttc_buf *b, int64_t v, const ttc_type *t)
{
	if (t && t->kind == TTC_TYPE_INT && t->sign == TTC_UNSIGNED)
		ttc_buf_printf(b, "%" PRIu64, (uint64_t)v);
	else
		ttc_buf_printf(b, "%" PRId64, v);
}

/* One dense element, as its value (i1 as true/false). */
static void format_elem(struct ttc_buf *b, const ttc_attr *a, size_t i)
{
	const ttc_type *e = a->type->elem;
	size_t eb = ttc_type_elem_bytes(e);
	const char *p = (const char *)a->raw + i * eb;

	if (e->kind == TTC_TYPE_FLOAT) {
		ttc_format_float(b, ttc_elem_load(e, p), e);
		return;
	}
	if (e->width == 1) {
		ttc_buf_puts(b, *p ? "true" : "false");
		return;
	}
	uint64_t u = 0;

	memcpy(&u, p, eb);
	if (e->sign == TTC_UNSIGNED || eb == 8) {
		format_int_value(b, (int64_t)u, e);
		return;
	}
	unsigned shift = 64 - 8 * (unsigned)eb;

	ttc_buf_printf(b, "%" PRId64, (int64_t)(u << shift) >> shift);
}

/* Nested [...] by the tensor's shape, from dimension d at element *i. */
static void format_dense_dims(struct ttc_buf *b, const ttc_attr *a,
			      unsigned d, size_t *i)
{
	const ttc_type *t = a->type;

	if (d == t->rank) {
		format_elem(b, a, (*i)++);
		return;
	}
	ttc_buf_putc(b, '[');
	for (int64_t k = 0; k < t->dims[d]; k++) {
		if (k)
			ttc_buf_puts(b, ", ");
		format_dense_dims(b, a, d + 1, i);
	}
	ttc_buf_putc(b, ']');
}

static void format_dense(struct ttc_buf *b, const ttc_attr *a)
{
	ttc_buf_puts(b, "dense<");
	if (a->hex) {
		ttc_buf_puts(b, "\"0x");
		for (size_t i = 0; i < a->nbytes; i++)
			ttc_buf_printf(b, "%02X",
				       ((const unsigned char *)a->raw)[i]);
		ttc_buf_putc(b, '"');
	} else if (a->splat) {
		format_elem(b, a, 0);
	} else {
		size_t i = 0;

		format_dense_dims(b, a, 0, &i);
	}
	ttc_buf_puts(b, "> : ");
	ttc_format_type(b, a->type);
}

static void format_dense_array(struct ttc_buf *b, const ttc_attr *a)
{
	ttc_buf_puts(b, "array<");
	format_scalar(b, a->type);
	for (size_t i = 0; i < a->len; i++) {
		ttc_buf_puts(b, i ? ", " : ": ");
		if (a->ints)
			format_int_value(b, a->ints[i], a->type);
		else
			ttc_format_float(b, a->floats[i], a->type);
	}
	ttc_buf_putc(b, '>');
}

/* A dictionary key or symbol name: bare when it is an identifier, else
 * quoted. */
static void format_key(struct ttc_buf *b, const char *k)
{
	bool bare = (*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
		    *k == '_';

	for (const char *p = k; *p && bare; p++)
		bare = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		       (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' ||
		       *p == '$';
	if (bare)
		ttc_buf_puts(b, k);
	else
		format_string(b, k, strlen(k));
}

void ttc_format_symbol(struct ttc_buf *b, const char *name)
{
	ttc_buf_putc(b, '@');
	format_key(b, name);
}

static void format_dict(struct ttc_buf *b, const ttc_attr *a)
{
	ttc_buf_putc(b, '{');
	for (size_t i = 0; i < a->len; i++) {
		if (i)
			ttc_buf_puts(b, ", ");
		format_key(b, a->entries[i].name);
		if (a->entries[i].value->kind != TTC_ATTR_UNIT) {
			ttc_buf_puts(b, " = ");
			ttc_format_attr(b, a->entries[i].value);
		}
	}
	ttc_buf_putc(b, '}');
}

static void format_array(struct ttc_buf *b, const ttc_attr *a)
{
	ttc_buf_putc(b, '[');
	for (size_t i = 0; i < a->len; i++) {
		if (i)
			ttc_buf_puts(b, ", ");
		ttc_format_attr(b, a->elems[i]);
	}
	ttc_buf_putc(b, ']');
}

void ttc_format_attr(struct ttc_buf *b, const ttc_attr *a)
{
	if (!a) {
		ttc_buf_puts(b, "<<null attribute>>");
		return;
	}
	switch (a->kind) {
	case TTC_ATTR_UNIT:
		ttc_buf_puts(b, "unit");
		break;
	case TTC_ATTR_BOOL:
		ttc_buf_puts(b, a->b ? "true" : "false");
		break;
	case TTC_ATTR_INT:
		format_int_value(b, a->i, a->type);
		ttc_buf_puts(b, " : ");
		ttc_format_type(b, a->type);
		break;
	case TTC_ATTR_FLOAT:
		ttc_format_float(b, a->f, a->type);
		ttc_buf_puts(b, " : ");
		ttc_format_type(b, a->type);
		break;
	case TTC_ATTR_STRING:
		format_string(b, a->s, a->len);
		break;
	case TTC_ATTR_TYPE:
		ttc_format_type(b, a->type);
		break;
	case TTC_ATTR_ARRAY:
		format_array(b, a);
		break;
	case TTC_ATTR_DENSE_ARRAY:
		format_dense_array(b, a);
		break;
	case TTC_ATTR_DENSE:
		format_dense(b, a);
		break;
	case TTC_ATTR_DICT:
		format_dict(b, a);
		break;
	case TTC_ATTR_SYMREF:
		ttc_format_symbol(b, a->s);
		break;
	case TTC_ATTR_OPAQUE:
		ttc_buf_puts(b, a->s);
		break;
	case TTC_ATTR_LOC:
		ttc_format_loc(b, a);
		break;
	}
}

/* A location without the loc(...) around it. */
static void format_loc_inner(struct ttc_buf *b, const ttc_loc *l)
{
	switch (l->lk) {
	case TTC_LOC_UNKNOWN:
		ttc_buf_puts(b, "unknown");
		break;
	case TTC_LOC_FILE:
		format_string(b, l->s, l->len);
		ttc_buf_printf(b, ":%u:%u", l->line, l->col);
		break;
	case TTC_LOC_NAME:
		format_string(b, l->s, l->len);
		if (l->meta) {
			ttc_buf_putc(b, '(');
			format_loc_inner(b, l->meta);
			ttc_buf_putc(b, ')');
		}
		break;
	case TTC_LOC_CALLSITE:
		ttc_buf_puts(b, "callsite(");
		format_loc_inner(b, l->elems[0]);
		ttc_buf_puts(b, " at ");
		format_loc_inner(b, l->elems[1]);
		ttc_buf_putc(b, ')');
		break;
	case TTC_LOC_FUSED:
		ttc_buf_puts(b, "fused");
		if (l->meta) {
			ttc_buf_putc(b, '<');
			ttc_format_attr(b, l->meta);
			ttc_buf_putc(b, '>');
		}
		ttc_buf_putc(b, '[');
		for (size_t i = 0; i < l->len; i++) {
			if (i)
				ttc_buf_puts(b, ", ");
			format_loc_inner(b, l->elems[i]);
		}
		ttc_buf_putc(b, ']');
		break;
	}
}

void ttc_format_loc(struct ttc_buf *b, const ttc_loc *l)
{
	ttc_buf_puts(b, "loc(");
	if (l)
		format_loc_inner(b, l);
	else
		ttc_buf_puts(b, "unknown");
	ttc_buf_putc(b, ')');
}

static size_t to_user(struct ttc_buf *t, char *buf, size_t n)
{
	size_t len = t->len;

	if (n) {
		size_t k = len < n - 1 ? len : n - 1;

		if (k)
			memcpy(buf, t->p, k);
		buf[k] = 0;
	}
	ttc_buf_free(t);
	return len;
}

size_t ttc_type_format(const ttc_type *t, char *buf, size_t n)
{
	struct ttc_buf b = { 0 };

	ttc_format_type(&b, t);
	return to_user(&b, buf, n);
}

size_t ttc_attr_format(const ttc_attr *a, char *buf, size_t n)
{
	struct ttc_buf b = { 0 };

	ttc_format_attr(&b, a);
	return to_user(&b, buf, n);
}
