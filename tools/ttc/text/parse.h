/* SPDX-License-Identifier: Apache-2.0 */
/* The parser's state, shared by the files of text/ that parse. */
#ifndef TTC_TEXT_PARSE_H
#define TTC_TEXT_PARSE_H

#include <setjmp.h>

#include "tools/ttc/ir/internal.h"
#include "ttc/text.h"

enum tok_kind {
	T_EOF,
	T_IDENT,  /* bare identifier, dots allowed: func.func, tensor */
	T_VALUE,  /* %name */
	T_SYMBOL, /* @name, @"name" */
	T_HASH,	  /* #name (attribute alias or dialect attribute) */
	T_BANG,	  /* !name (type alias or dialect type) */
	T_CARET,  /* ^bb0 */
	T_STRING, /* "..." (the token keeps the quotes) */
	T_INT,	  /* 12, 0x1F */
	T_FLOAT,  /* 1.5, 1.0e-05 */
	T_PUNCT,  /* one character of ()[]{}<>,:=?*+-; or "->" or "::" */
};

struct token {
	enum tok_kind kind;
	const char *s;
	size_t n;
	unsigned line, col;
};

/* Name -> object, for SSA values and aliases (open addressing). */
struct name_entry {
	const char *s;
	size_t n;
	void *obj;
	size_t count; /* values: results bound to the name */
};
struct name_table {
	struct name_entry *e;
	size_t cap, len;
};

struct parser {
	ttc_ctx *ctx;
	const char *file;
	const char *src, *end, *cur; /* cur: after tok */
	unsigned line;		     /* of cur */
	const char *line_start;
	struct token tok;
	unsigned flags;
	ttc_module *root;
	struct ttc_arena scratch; /* freed when the parse ends */
	struct name_table values, attr_alias, type_alias;
	jmp_buf fail;
	bool prescan;
};

/* lexer.c */
void lex_init(struct parser *p, const char *src, size_t len);
void lex_next(struct parser *p);
/* Re-lexes from s (a position inside the source). */
void lex_reset(struct parser *p, const char *s);
bool tok_is(const struct parser *p, const char *punct_or_ident);
void expect(struct parser *p, const char *what);
bool accept(struct parser *p, const char *what);
/* Reports at the current token and leaves the parse. */
_Noreturn void parse_error(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
_Noreturn void parse_error_at(struct parser *p, const struct token *t,
			      const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Moves the context's last diagnostic (from an IR constructor) to t. */
_Noreturn void parse_error_from_ctx(struct parser *p, const struct token *t);
/* The decoded contents of a string token, NUL-terminated, in scratch. */
char *tok_string(struct parser *p, const struct token *t, size_t *len);
/* The text of the balanced <...>, (...), [...] or {...} starting at s;
 * returns its end. */
const char *skip_balanced(struct parser *p, const char *s);

/* The text s..e of an opaque type or attribute, in scratch, with its
 * blanks normalised so that spellings differing only in spacing are
 * the same: a blank survives, as one space, only between two word
 * characters, and after a comma. */
char *opaque_text(struct parser *p, const char *s, const char *e);

/* names.c */
void *names_get(const struct name_table *t, const char *s, size_t n,
		size_t *count);
void names_put(struct name_table *t, const char *s, size_t n, void *obj,
	       size_t count);
void names_clear(struct name_table *t);
void names_free(struct name_table *t);

/* parse_type.c */
const ttc_type *parse_type(struct parser *p);
bool at_type(const struct parser *p);

/* parse_attr.c */
const ttc_attr *parse_attr(struct parser *p);
/* {a = 1, b} starting at '{'. */
const ttc_attr *parse_dict(struct parser *p);
/* loc(...) starting at 'loc'; NULL if the next token is not loc. */
const ttc_loc *parse_opt_loc(struct parser *p);
/* #name = ... or !name = ... at top level. */
void parse_alias_def(struct parser *p);

/* parse_op.c */
void parse_func_body(struct parser *p, ttc_func *f);

/* parse_module.c */
void parse_module_body(struct parser *p, ttc_module *m, bool top);

/* Growing arrays in the scratch arena. */
void *vec_push(struct parser *p, void *vec, size_t *n, size_t *cap,
	       size_t elem);

#endif /* TTC_TEXT_PARSE_H */
