// SPDX-License-Identifier: Apache-2.0
/* Tokens of MLIR text, pulled one at a time by the parser. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

void lex_init(struct parser *p, const char *src, size_t len)
{
	p->src = src;
	p->end = src + len;
	p->cur = src;
	p->line = 1;
	p->line_start = src;
	lex_next(p);
}

static bool is_id_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_id_char(char c)
{
	return is_id_start(c) || is_digit(c) || c == '$' || c == '.';
}

/* Skips blanks and // comments, counting lines. */
static void skip_space(struct parser *p)
{
	const char *s = p->cur;

	while (s < p->end) {
		if (*s == '\n') {
			p->line++;
			p->line_start = ++s;
		} else if (*s == ' ' || *s == '\t' || *s == '\r') {
			s++;
		} else if (*s == '/' && s + 1 < p->end && s[1] == '/') {
			while (s < p->end && *s != '\n')
				s++;
		} else {
			break;
		}
	}
	p->cur = s;
}

static const char *lex_string(struct parser *p, const char *s)
{
	for (s++; s < p->end && *s != '"'; s++) {
		if (*s == '\n' || !*s)
			break;
		if (*s == '\\' && s + 1 < p->end)
			s++;
	}
	if (s >= p->end || *s != '"') {
		p->tok.n = (size_t)(s - p->tok.s);
		parse_error(p, "unterminated string");
	}
	return s + 1;
}

static const char *lex_number(struct parser *p, const char *s)
{
	if (s[0] == '0' && s + 1 < p->end && s[1] == 'x') {
		s += 2;
		while (s < p->end && ((*s >= '0' && *s <= '9') ||
				      (*s >= 'a' && *s <= 'f') ||
				      (*s >= 'A' && *s <= 'F')))
			s++;
		return s;
	}
	while (s < p->end && is_digit(*s))
		s++;
	if (s < p->end && *s == '.') {
		p->tok.kind = T_FLOAT;
		for (s++; s < p->end && is_digit(*s);)
			s++;
		if (s < p->end && (*s == 'e' || *s == 'E')) {
			const char *e = s + 1;

			if (e < p->end && (*e == '+' || *e == '-'))
				e++;
			if (e < p->end && is_digit(*e)) {
				s = e;
				while (s < p->end && is_digit(*s))
					s++;
			}
		}
	}
	return s;
}

/* The name after a sigil: an identifier, digits, or a quoted string. */
static const char *lex_suffix(struct parser *p, const char *s, bool value)
{
	if (s < p->end && *s == '"')
		return lex_string(p, s);
	const char *b = s;

	while (s < p->end && (is_id_char(*s) || (value && *s == '-')))
		s++;
	if (s == b)
		parse_error(p, "expected a name after '%c'", b[-1]);
	return s;
}

static const char *lex_sigil(struct parser *p, const char *s)
{
	switch (*s) {
	case '%':
		p->tok.kind = T_VALUE;
		return lex_suffix(p, s + 1, true);
	case '@':
		p->tok.kind = T_SYMBOL;
		return lex_suffix(p, s + 1, false);
	case '#':
		p->tok.kind = T_HASH;
		return lex_suffix(p, s + 1, false);
	case '!':
		p->tok.kind = T_BANG;
		return lex_suffix(p, s + 1, false);
	case '^':
		p->tok.kind = T_CARET;
		return lex_suffix(p, s + 1, false);
	}
	return NULL;
}

void lex_next(struct parser *p)
{
	skip_space(p);
	const char *s = p->cur;

	p->tok.s = s;
	p->tok.line = p->line;
	p->tok.col = (unsigned)(s - p->line_start) + 1;
	if (s >= p->end) {
		p->tok.kind = T_EOF;
		p->tok.n = 0;
		return;
	}
	const char *e = lex_sigil(p, s);

	if (e) {
	} else if (is_id_start(*s)) {
		p->tok.kind = T_IDENT;
		for (e = s + 1; e < p->end && is_id_char(*e);)
			e++;
	} else if (is_digit(*s)) {
		p->tok.kind = T_INT;
		e = lex_number(p, s);
	} else if (*s == '"') {
		p->tok.kind = T_STRING;
		e = lex_string(p, s);
	} else if ((*s == '-' && s + 1 < p->end && s[1] == '>') ||
		   (*s == ':' && s + 1 < p->end && s[1] == ':')) {
		p->tok.kind = T_PUNCT;
		e = s + 2;
	} else if (strchr("()[]{}<>,:=?*+-;", *s)) {
		p->tok.kind = T_PUNCT;
		e = s + 1;
	} else {
		p->tok.n = 1;
		parse_error(p, "unexpected character '%c'", *s);
	}
	p->tok.n = (size_t)(e - s);
	p->cur = e;
}

void lex_reset(struct parser *p, const char *s)
{
	/* Positions only move forward within a line here. */
	p->cur = s;
	lex_next(p);
}

bool tok_is(const struct parser *p, const char *w)
{
	size_t n = strlen(w);

	return (p->tok.kind == T_PUNCT || p->tok.kind == T_IDENT) &&
	       p->tok.n == n && !memcmp(p->tok.s, w, n);
}

bool accept(struct parser *p, const char *w)
{
	if (!tok_is(p, w))
		return false;
	lex_next(p);
	return true;
}

void expect(struct parser *p, const char *w)
{
	if (!accept(p, w))
		parse_error(p, "expected '%s'", w);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *tok_string(struct parser *p, const struct token *t, size_t *len)
{
	const char *s = t->s, *e = t->s + t->n;

	while (s < e && *s != '"')
		s++;
	s++;
	e--; /* the closing quote */
	char *out = ttc_arena_alloc(&p->scratch, (size_t)(e - s) + 1);
	size_t n = 0;

	for (; s < e; s++) {
		if (*s != '\\') {
			out[n++] = *s;
			continue;
		}
		s++;
		if (*s == 'n')
			out[n++] = '\n';
		else if (*s == 't')
			out[n++] = '\t';
		else if (*s == '"' || *s == '\\')
			out[n++] = *s;
		else if (s + 1 < e && hexval(s[0]) >= 0 && hexval(s[1]) >= 0) {
			out[n] = (char)(hexval(s[0]) * 16 + hexval(s[1]));
			/* Names are C strings in the IR: no NUL inside. */
			if (!out[n++])
				parse_error_at(p, t, "strings may not contain "
						     "NUL bytes");
			s++;
		} else {
			parse_error_at(p, t, "unknown escape '\\%c' in string",
				       *s);
		}
	}
	out[n] = 0;
	if (len)
		*len = n;
	return out;
}

const char *skip_balanced(struct parser *p, const char *s)
{
	char stack[64];
	int depth = 0;

	for (; s < p->end; s++) {
		char c = *s;

		if (!c) {
			lex_reset(p, s);
			parse_error(p, "unexpected NUL byte");
		}
		if (c == '"') {
			/* Opaque text is kept as a C string: no NUL in its
			 * strings either. */
			for (s++; s < p->end && *s != '"'; s++) {
				if (*s == '\\' && s + 1 < p->end)
					s++;
				if (!*s) {
					lex_reset(p, s);
					parse_error(p, "unexpected NUL byte");
				}
			}
			continue;
		}
		if (c == '\n') {
			p->line++;
			p->line_start = s + 1;
		}
		if (c == '<' || c == '(' || c == '[' || c == '{') {
			if (depth == 64)
				parse_error(p, "brackets nested too deep");
			stack[depth++] = c == '<' ? '>' :
					 c == '(' ? ')' :
					 c == '[' ? ']' : '}';
		} else if (depth && c == stack[depth - 1]) {
			if (--depth == 0)
				return s + 1;
		} else if (c == '-' && s + 1 < p->end && s[1] == '>') {
			s++; /* an arrow, not a closing bracket */
		} else if (c == '>' || c == ')' || c == ']' || c == '}') {
			parse_error(p, "unbalanced '%c'", c);
		}
	}
	parse_error(p, "unterminated bracket");
}

void *vec_push(struct parser *p, void *vec, size_t *n, size_t *cap,
	       size_t elem)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 8;
		void *nv = ttc_arena_alloc(&p->scratch, nc * elem);

		if (*n)
			memcpy(nv, vec, *n * elem);
		vec = nv;
		*cap = nc;
	}
	(*n)++;
	return vec;
}

static _Noreturn void fail_at(struct parser *p, unsigned line, unsigned col,
			      const char *fmt, va_list ap)
{
	char msg[768];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	ttc_diag_add(p->ctx, p->file, p->src, (size_t)(p->end - p->src), line,
		     col, NULL, msg);
	longjmp(p->fail, 1);
}

void parse_error(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail_at(p, p->tok.line, p->tok.col, fmt, ap);
}

void parse_error_at(struct parser *p, const struct token *t, const char *fmt,
		    ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail_at(p, t->line, t->col, fmt, ap);
}

void parse_error_from_ctx(struct parser *p, const struct token *t)
{
	char msg[512] = "invalid construct";
	size_t n = ttc_ctx_diag_count(p->ctx);

	if (n) {
		struct ttc_diag *d = &p->ctx->diags[n - 1];

		snprintf(msg, sizeof(msg), "%s", d->message);
		free((char *)d->message);
		free((char *)d->text);
		free((char *)d->file);
		p->ctx->ndiags--;
	}
	parse_error_at(p, t, "%s", msg);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

char *opaque_text(struct parser *p, const char *s, const char *e)
{
	char *out = ttc_arena_alloc(&p->scratch, 2 * (size_t)(e - s) + 1);
	size_t n = 0;
	bool in_str = false;

	for (; s < e; s++) {
		char c = *s;

		if (in_str || !is_blank(c)) {
			if (c == '"' && (n == 0 || out[n - 1] != '\\'))
				in_str = !in_str;
			out[n++] = c;
			if (!in_str && c == ',')
				out[n++] = ' ';
			continue;
		}
		while (s + 1 < e && is_blank(s[1]))
			s++;
		/* One space, except after an opening bracket or a comma and
		 * before a closing bracket or a comma. */
		if (n && !strchr("<([{ ", out[n - 1]) && s + 1 < e &&
		    !strchr(">)]},", s[1]))
			out[n++] = ' ';
	}
	out[n] = 0;
	return out;
}
