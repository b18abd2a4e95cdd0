// SPDX-License-Identifier: Apache-2.0
/* Attributes, locations and alias definitions. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/* The current token through its balanced <...> (if directly after it) as
 * an opaque attribute: #dialect.name<...>, affine_map<...>. */
static const ttc_attr *opaque_attr(struct parser *p)
{
	const char *s = p->tok.s, *e = p->tok.s + p->tok.n;

	if (e < p->end && *e == '<')
		e = skip_balanced(p, e);
	char *text = opaque_text(p, s, e);

	p->cur = e;
	lex_next(p);
	return ttc_opaque_attr(p->ctx, text);
}

/* ---- numbers ---- */

struct number {
	bool is_float, is_hex, neg;
	uint64_t u;
	double f;
	struct token tok;
};

static struct number parse_number(struct parser *p)
{
	struct number n = { 0 };

	n.tok = p->tok;
	if (accept(p, "-"))
		n.neg = true;
	if (p->tok.kind == T_FLOAT) {
		n.is_float = true;
		n.f = strtod(p->tok.s, NULL);
	} else if (p->tok.kind == T_INT) {
		char *end;

		errno = 0;
		n.is_hex = p->tok.n > 2 && p->tok.s[1] == 'x';
		n.u = strtoull(p->tok.s, &end, 0);
		if (errno == ERANGE)
			parse_error(p, "integer literal is too large");
		n.f = (double)n.u;
	} else {
		parse_error(p, "expected a number");
	}
	if (n.neg)
		n.f = -n.f;
	lex_next(p);
	return n;
}

/* The bits of a hex literal as a value of float type t. */
static double float_from_bits(const ttc_type *t, uint64_t u)
{
	unsigned char raw[8];

	memcpy(raw, &u, 8);
	return ttc_elem_load(t, raw);
}

static const ttc_attr *number_attr(struct parser *p)
{
	struct number n = parse_number(p);
	const ttc_type *t = NULL;

	if (accept(p, ":"))
		t = parse_type(p);
	if (!t)
		t = n.is_float ? ttc_float_type(p->ctx, TTC_F64) :
				 ttc_int_type(p->ctx, 64, TTC_SIGNLESS);
	if (t->kind == TTC_TYPE_FLOAT) {
		double v = n.is_hex && !n.neg ? float_from_bits(t, n.u) : n.f;

		return ttc_float_attr(p->ctx, v, t);
	}
	if (n.is_float)
		parse_error_at(p, &n.tok, "float literal with integer type");
	if (t->kind != TTC_TYPE_INT && t->kind != TTC_TYPE_INDEX)
		parse_error_at(p, &n.tok, "a number needs an integer or float "
					  "type");
	return ttc_int_attr(p->ctx, n.neg ? -(int64_t)n.u : (int64_t)n.u, t);
}

/* ---- dense elements ---- */

struct dense {
	const ttc_type *type, *elem;
	size_t eb, count, cap;
	unsigned char *raw;
};

static void dense_put(struct parser *p, struct dense *d)
{
	const struct token t = p->tok;
	unsigned char *slot;

	if (d->count == d->cap) {
		size_t nc = d->cap ? d->cap * 2 : 64;
		unsigned char *n = ttc_arena_alloc(&p->scratch, nc * d->eb);

		if (d->count)
			memcpy(n, d->raw, d->count * d->eb);
		d->raw = n;
		d->cap = nc;
	}
	slot = d->raw + d->count++ * d->eb;
	if (tok_is(p, "true") || tok_is(p, "false")) {
		ttc_elem_store(d->elem, slot, tok_is(p, "true"));
		lex_next(p);
		return;
	}
	struct number n = parse_number(p);

	if (d->elem->kind == TTC_TYPE_FLOAT) {
		ttc_elem_store(d->elem, slot,
			       n.is_hex ? float_from_bits(d->elem, n.u) : n.f);
		return;
	}
	if (n.is_float)
		parse_error_at(p, &t, "float literal in dense elements of an "
				      "integer type");
	uint64_t u = n.neg ? (uint64_t)(-(int64_t)n.u) : n.u;

	memcpy(slot, &u, d->eb); /* little-endian: the low bytes */
	if (d->elem->width == 1)
		*slot = u != 0;
}

/* [...] nested to the tensor's rank, or one leaf at depth rank. */
static void dense_list(struct parser *p, struct dense *d, unsigned depth)
{
	const ttc_type *t = d->type;

	if (!tok_is(p, "[")) {
		if (depth != t->rank)
			parse_error(p, "dense literal does not match the shape "
				       "of its type: a value at depth %u of a "
				       "rank %u tensor",
				    depth, t->rank);
		dense_put(p, d);
		return;
	}
	struct token open = p->tok;

	if (depth == t->rank)
		parse_error(p, "dense literal nests deeper than the rank %u "
			       "of its type",
			    t->rank);
	lex_next(p);
	int64_t n = 0;

	if (!tok_is(p, "]")) {
		do {
			dense_list(p, d, depth + 1);
			n++;
		} while (accept(p, ","));
	}
	expect(p, "]");
	if (n != t->dims[depth])
		parse_error_at(p, &open, "dense literal has %lld elements in "
					 "dimension %u, the type has %lld",
			       (long long)n, depth, (long long)t->dims[depth]);
}

static int hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static const ttc_attr *dense_hex(struct parser *p, struct dense *d,
				 const struct token *t)
{
	size_t len;
	char *s = tok_string(p, t, &len);

	if (len < 2 || s[0] != '0' || (s[1] | 0x20) != 'x' || len % 2)
		parse_error_at(p, t, "hex dense data must be \"0x\" and an "
				     "even number of hex digits");
	size_t nbytes = (len - 2) / 2;
	unsigned char *raw = ttc_arena_alloc(&p->scratch, nbytes + 1);

	for (size_t i = 0; i < nbytes; i++) {
		int hi = hexdigit(s[2 + 2 * i]), lo = hexdigit(s[3 + 2 * i]);

		if (hi < 0 || lo < 0)
			parse_error_at(p, t, "bad hex digit in dense data");
		raw[i] = (unsigned char)(hi * 16 + lo);
	}
	size_t full = d->eb * (size_t)ttc_type_numel(d->type);
	bool splat = nbytes == d->eb && full != d->eb;

	if (!splat && nbytes != full)
		parse_error_at(p, t, "hex dense data has %zu bytes; the type "
				     "needs %zu",
			       nbytes, full);
	return ttc_dense_attr(p->ctx, d->type, raw, nbytes, splat, true);
}

static const ttc_attr *dense_attr(struct parser *p)
{
	lex_next(p);
	if (p->tok.kind != T_PUNCT || *p->tok.s != '<')
		parse_error(p, "expected '<' after 'dense'");
	/* The values come before their type: skip them, read the type,
	 * then come back. */
	const char *body = p->tok.s;
	unsigned line = p->line;
	const char *line_start = p->line_start;

	p->cur = skip_balanced(p, body);
	lex_next(p);
	expect(p, ":");
	struct token type_tok = p->tok;
	struct dense d = { .type = parse_type(p) };

	if (d.type->kind != TTC_TYPE_TENSOR)
		parse_error_at(p, &type_tok, "dense elements need a tensor "
					     "type");
	d.elem = d.type->elem;
	d.eb = ttc_type_elem_bytes(d.elem);
	if (!d.eb)
		parse_error_at(p, &type_tok, "dense elements of this element "
					     "type are not supported");
	const char *after = p->tok.s;
	unsigned after_line = p->tok.line;
	const char *after_ls = p->line_start;

	p->line = line;
	p->line_start = line_start;
	lex_reset(p, body + 1);
	const ttc_attr *a;
	size_t numel = (size_t)ttc_type_numel(d.type);

	if (p->tok.kind == T_STRING) {
		struct token t = p->tok;

		lex_next(p);
		a = dense_hex(p, &d, &t);
	} else if (tok_is(p, "[")) {
		dense_list(p, &d, 0);
		a = ttc_dense_attr(p->ctx, d.type, d.raw, d.count * d.eb, false,
				   false);
	} else if (tok_is(p, ">") && numel == 0) {
		a = ttc_dense_attr(p->ctx, d.type, NULL, 0, false, false);
	} else {
		dense_put(p, &d);
		a = ttc_dense_attr(p->ctx, d.type, d.raw, d.eb, numel != 1,
				   false);
	}
	expect(p, ">");
	if (!a)
		parse_error_from_ctx(p, &type_tok);
	p->line = after_line;
	p->line_start = after_ls;
	lex_reset(p, after);
	return a;
}

/* One value of array<...>: a number, true or false. */
static double array_value(struct parser *p, int64_t *iv)
{
	if (tok_is(p, "true") || tok_is(p, "false")) {
		*iv = tok_is(p, "true");
		lex_next(p);
		return (double)*iv;
	}
	struct number num = parse_number(p);

	*iv = num.neg ? -(int64_t)num.u : (int64_t)num.u;
	return num.f;
}

/* array<i32: 1, 2> */
static const ttc_attr *dense_array(struct parser *p)
{
	lex_next(p);
	expect(p, "<");
	struct token tt = p->tok;
	const ttc_type *e = parse_type(p);
	size_t n = 0, cap = 0;
	int64_t *iv = ttc_arena_alloc(&p->scratch, 8);
	double *fv = NULL;

	if (e->kind != TTC_TYPE_INT && e->kind != TTC_TYPE_FLOAT)
		parse_error_at(p, &tt, "array<...> needs an integer or float "
				       "element type");
	if (accept(p, ":")) {
		do {
			size_t n2 = n, cap2 = cap;

			fv = vec_push(p, fv, &n, &cap, sizeof(*fv));
			iv = vec_push(p, iv, &n2, &cap2, sizeof(*iv));
			fv[n - 1] = array_value(p, &iv[n - 1]);
		} while (accept(p, ","));
	}
	expect(p, ">");
	if (e->kind == TTC_TYPE_FLOAT)
		return ttc_dense_float_array_attr(p->ctx, e, fv, n);
	return ttc_dense_int_array_attr(p->ctx, e, iv, n);
}

/* ---- locations ---- */

static const ttc_loc *loc_inner(struct parser *p);

static const ttc_loc *loc_alias(struct parser *p)
{
	const ttc_attr *a = names_get(&p->attr_alias, p->tok.s + 1,
				      p->tok.n - 1, NULL);

	if (!a)
		parse_error(p, "undefined location alias '%.*s'",
			    (int)p->tok.n, p->tok.s);
	if (a->kind != TTC_ATTR_LOC)
		parse_error(p, "'%.*s' is not a location", (int)p->tok.n,
			    p->tok.s);
	lex_next(p);
	return a;
}

static const ttc_loc *loc_fused(struct parser *p)
{
	const ttc_attr *meta = NULL;
	const ttc_loc **v = NULL;
	size_t n = 0, cap = 0;

	lex_next(p);
	if (accept(p, "<")) {
		meta = parse_attr(p);
		expect(p, ">");
	}
	expect(p, "[");
	if (!tok_is(p, "]")) {
		do {
			v = vec_push(p, v, &n, &cap, sizeof(*v));
			v[n - 1] = loc_inner(p);
		} while (accept(p, ","));
	}
	expect(p, "]");
	return ttc_loc_fused(p->ctx, v, n, meta);
}

static const ttc_loc *loc_string(struct parser *p)
{
	struct token t = p->tok;
	char *s = tok_string(p, &t, NULL);

	lex_next(p);
	if (accept(p, ":")) {
		if (p->tok.kind != T_INT)
			parse_error(p, "expected a line number");
		unsigned line = (unsigned)strtoul(p->tok.s, NULL, 10);

		lex_next(p);
		expect(p, ":");
		if (p->tok.kind != T_INT)
			parse_error(p, "expected a column number");
		unsigned col = (unsigned)strtoul(p->tok.s, NULL, 10);

		lex_next(p);
		return ttc_loc_file(p->ctx, s, line, col);
	}
	const ttc_loc *child = NULL;

	if (accept(p, "(")) {
		child = loc_inner(p);
		expect(p, ")");
	}
	return ttc_loc_name(p->ctx, s, child);
}

static const ttc_loc *loc_inner(struct parser *p)
{
	if (p->tok.kind == T_HASH)
		return loc_alias(p);
	if (p->tok.kind == T_STRING)
		return loc_string(p);
	if (accept(p, "unknown"))
		return ttc_loc_unknown(p->ctx);
	if (tok_is(p, "fused"))
		return loc_fused(p);
	if (accept(p, "callsite")) {
		expect(p, "(");
		const ttc_loc *callee = loc_inner(p);

		expect(p, "at");
		const ttc_loc *caller = loc_inner(p);

		expect(p, ")");
		return ttc_loc_callsite(p->ctx, callee, caller);
	}
	parse_error(p, "expected a location: unknown, \"file\":line:col, "
		       "\"name\", callsite(...), fused[...] or #alias");
}

const ttc_loc *parse_opt_loc(struct parser *p)
{
	if (!tok_is(p, "loc"))
		return NULL;
	lex_next(p);
	expect(p, "(");
	const ttc_loc *l = loc_inner(p);

	expect(p, ")");
	return l;
}

/* ---- the rest ---- */

static const ttc_attr *array_attr(struct parser *p)
{
	const ttc_attr **v = NULL;
	size_t n = 0, cap = 0;

	lex_next(p);
	if (!tok_is(p, "]")) {
		do {
			v = vec_push(p, v, &n, &cap, sizeof(*v));
			v[n - 1] = parse_attr(p);
		} while (accept(p, ","));
	}
	expect(p, "]");
	return ttc_array_attr(p->ctx, v, n);
}

const ttc_attr *parse_dict(struct parser *p)
{
	struct ttc_named_attr *v = NULL;
	size_t n = 0, cap = 0;
	struct token open = p->tok;

	expect(p, "{");
	if (!tok_is(p, "}")) {
		do {
			v = vec_push(p, v, &n, &cap, sizeof(*v));
			if (p->tok.kind == T_STRING)
				v[n - 1].name = tok_string(p, &p->tok, NULL);
			else if (p->tok.kind == T_IDENT)
				v[n - 1].name = ttc_arena_strndup(
					&p->scratch, p->tok.s, p->tok.n);
			else
				parse_error(p, "expected an attribute name");
			lex_next(p);
			v[n - 1].value = accept(p, "=") ? parse_attr(p) :
							  ttc_unit_attr(p->ctx);
		} while (accept(p, ","));
	}
	expect(p, "}");
	const ttc_attr *d = ttc_dict_attr(p->ctx, v, n);

	if (!d)
		parse_error_from_ctx(p, &open);
	return d;
}

/* @name, @"name", @a::@b. The pieces go to scratch memory, so an
 * error (which leaves by longjmp) leaks nothing. */
static const ttc_attr *symref_attr(struct parser *p)
{
	const char **parts = NULL;
	size_t n = 0, cap = 0, total = 0;

	for (;;) {
		parts = vec_push(p, parts, &n, &cap, sizeof(*parts));
		parts[n - 1] = p->tok.s[1] == '"' ?
				       tok_string(p, &p->tok, NULL) :
				       ttc_arena_strndup(&p->scratch, p->tok.s + 1,
							 p->tok.n - 1);
		total += strlen(parts[n - 1]) + 3;
		lex_next(p);
		if (!tok_is(p, "::"))
			break;
		lex_next(p);
		if (p->tok.kind != T_SYMBOL)
			parse_error(p, "expected '@name' after '::'");
	}
	char *name = ttc_arena_alloc(&p->scratch, total + 1);

	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(name, "::@");
		strcat(name, parts[i]);
	}
	return ttc_symref_attr(p->ctx, name);
}

static const ttc_attr *hash_attr(struct parser *p)
{
	const ttc_attr *a = names_get(&p->attr_alias, p->tok.s + 1,
				      p->tok.n - 1, NULL);

	if (a) {
		lex_next(p);
		return a;
	}
	if (!memchr(p->tok.s, '.', p->tok.n) &&
	    !(p->tok.s + p->tok.n < p->end && p->tok.s[p->tok.n] == '<'))
		parse_error(p, "undefined attribute alias '%.*s'",
			    (int)p->tok.n, p->tok.s);
	return opaque_attr(p);
}

static const ttc_attr *ident_attr(struct parser *p)
{
	if (accept(p, "true"))
		return ttc_bool_attr(p->ctx, true);
	if (accept(p, "false"))
		return ttc_bool_attr(p->ctx, false);
	if (accept(p, "unit"))
		return ttc_unit_attr(p->ctx);
	if (tok_is(p, "dense"))
		return dense_attr(p);
	if (tok_is(p, "array"))
		return dense_array(p);
	if (tok_is(p, "loc"))
		return parse_opt_loc(p);
	if (tok_is(p, "dense_resource")) {
		const ttc_attr *r = opaque_attr(p);
		struct ttc_buf b = { 0 };
		const ttc_type *t;

		expect(p, ":");
		t = parse_type(p);
		ttc_buf_puts(&b, ttc_attr_str(r, NULL));
		ttc_buf_puts(&b, " : ");
		ttc_format_type(&b, t);
		r = ttc_opaque_attr(p->ctx, b.p);
		ttc_buf_free(&b);
		return r;
	}
	if (tok_is(p, "affine_map") || tok_is(p, "affine_set") ||
	    tok_is(p, "strided") || tok_is(p, "distinct"))
		return opaque_attr(p);
	if (at_type(p))
		return ttc_type_attr(p->ctx, parse_type(p));
	parse_error(p, "expected an attribute, got '%.*s'", (int)p->tok.n,
		    p->tok.s);
}

const ttc_attr *parse_attr(struct parser *p)
{
	switch (p->tok.kind) {
	case T_INT:
	case T_FLOAT:
		return number_attr(p);
	case T_STRING: {
		size_t len;
		char *s = tok_string(p, &p->tok, &len);

		lex_next(p);
		return ttc_string_attr(p->ctx, s, len);
	}
	case T_SYMBOL:
		return symref_attr(p);
	case T_HASH:
		return hash_attr(p);
	case T_BANG:
		return ttc_type_attr(p->ctx, parse_type(p));
	case T_IDENT:
		return ident_attr(p);
	default:
		break;
	}
	if (tok_is(p, "-"))
		return number_attr(p);
	if (tok_is(p, "["))
		return array_attr(p);
	if (tok_is(p, "{"))
		return parse_dict(p);
	parse_error(p, "expected an attribute");
}

void parse_alias_def(struct parser *p)
{
	struct token name = p->tok;

	lex_next(p);
	expect(p, "=");
	if (name.kind == T_BANG) {
		const ttc_type *t = parse_type(p);

		names_put(&p->type_alias, name.s + 1, name.n - 1, (void *)t, 1);
		return;
	}
	const ttc_attr *a = parse_attr(p);

	names_put(&p->attr_alias, name.s + 1, name.n - 1, (void *)a, 1);
}
