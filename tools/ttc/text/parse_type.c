// SPDX-License-Identifier: Apache-2.0
/* Types: tensor<...>, scalars, aliases (!name) and opaque dialect types. */
#include <errno.h>
#include <string.h>

#include "parse.h"

static const char *const opaque_builtins[] = { "memref", "vector", "tuple",
					       "complex" };

bool at_type(const struct parser *p)
{
	if (p->tok.kind == T_BANG)
		return true;
	if (p->tok.kind != T_IDENT)
		return false;
	if (tok_is(p, "tensor") || tok_is(p, "none"))
		return true;
	for (size_t i = 0; i < 4; i++)
		if (tok_is(p, opaque_builtins[i]))
			return true;
	return ttc_parse_scalar_type(p->ctx, p->tok.s, p->tok.n) != NULL;
}

/* The text from the current token through its balanced <...>, as an
 * opaque type; the token must be followed directly by '<' or nothing. */
static const ttc_type *opaque_type(struct parser *p)
{
	const char *s = p->tok.s, *e = p->tok.s + p->tok.n;

	if (e < p->end && *e == '<')
		e = skip_balanced(p, e);
	char *text = opaque_text(p, s, e);

	p->cur = e;
	lex_next(p);
	return ttc_opaque_type(p->ctx, text);
}

static int64_t scan_dim(struct parser *p, const char **sp)
{
	const char *s = *sp;
	int64_t v = 0;

	while (s < p->end && *s >= '0' && *s <= '9') {
		if (v > (INT64_MAX - 9) / 10) {
			lex_reset(p, *sp);
			parse_error(p, "tensor dimension is too large");
		}
		v = v * 10 + (*s++ - '0');
	}
	*sp = s;
	return v;
}

static const ttc_type *tensor_type(struct parser *p)
{
	struct token start = p->tok;
	const char *s = p->tok.s + p->tok.n;
	int64_t dims[TTC_MAX_RANK + 1];
	unsigned rank = 0;

	if (s >= p->end || *s != '<')
		parse_error(p, "expected '<' after 'tensor'");
	for (s++;;) {
		while (s < p->end && (*s == ' ' || *s == '\t'))
			s++;
		if (s < p->end && (*s == '?' || *s == '*')) {
			lex_reset(p, s);
			parse_error(p, "%s tensors are not supported (static "
				       "shapes only)",
				    *s == '?' ? "dynamically shaped" : "unranked");
		}
		if (s >= p->end || *s < '0' || *s > '9')
			break;
		const char *d = s;
		int64_t v = scan_dim(p, &s);

		while (s < p->end && (*s == ' ' || *s == '\t'))
			s++;
		if (s >= p->end || *s != 'x') {
			lex_reset(p, d);
			parse_error(p, "expected 'x' after a tensor dimension");
		}
		if (rank == TTC_MAX_RANK) {
			lex_reset(p, d);
			parse_error(p, "tensor rank is above the limit of %d",
				    TTC_MAX_RANK);
		}
		dims[rank++] = v;
		s++;
	}
	lex_reset(p, s);
	const ttc_type *elem = parse_type(p);
	const ttc_attr *enc = NULL;

	if (accept(p, ","))
		enc = parse_attr(p);
	expect(p, ">");
	const ttc_type *t = ttc_tensor_type(p->ctx, dims, rank, elem, enc);

	if (!t)
		parse_error_from_ctx(p, &start);
	return t;
}

const ttc_type *parse_type(struct parser *p)
{
	if (p->tok.kind == T_BANG) {
		const ttc_type *t = names_get(&p->type_alias, p->tok.s + 1,
					      p->tok.n - 1, NULL);

		if (t) {
			lex_next(p);
			return t;
		}
		if (!memchr(p->tok.s, '.', p->tok.n))
			parse_error(p, "undefined type alias '%.*s'",
				    (int)p->tok.n, p->tok.s);
		return opaque_type(p);
	}
	if (p->tok.kind != T_IDENT)
		parse_error(p, "expected a type");
	if (tok_is(p, "tensor"))
		return tensor_type(p);
	for (size_t i = 0; i < 4; i++)
		if (tok_is(p, opaque_builtins[i]))
			return opaque_type(p);
	if (tok_is(p, "none")) {
		lex_next(p);
		return ttc_none_type(p->ctx);
	}
	const ttc_type *t = ttc_parse_scalar_type(p->ctx, p->tok.s, p->tok.n);

	if (!t)
		parse_error(p, "unknown type '%.*s'", (int)p->tok.n, p->tok.s);
	lex_next(p);
	return t;
}
