// SPDX-License-Identifier: Apache-2.0
/* Files: aliases, modules and functions; the entry points of the parser. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/* The name of the @name or @"name" token at hand (unquoted). */
static const char *symbol_name(struct parser *p)
{
	if (p->tok.s[1] == '"')
		return tok_string(p, &p->tok, NULL);
	return ttc_arena_strndup(&p->scratch, p->tok.s + 1, p->tok.n - 1);
}

struct sig {
	const ttc_type **args, **res;
	const ttc_attr **arg_attrs, **res_attrs;
	const ttc_loc **arg_locs;
	struct token *names;
	size_t nargs, nres, cargs, cres;
	bool named;
};

/* Grows the parallel arrays of a signature by one. */
#define PUSH(p, arr, n, cap) \
	do { \
		size_t k_ = (n), c_ = (cap); \
		(arr) = vec_push(p, arr, &k_, &c_, sizeof(*(arr))); \
	} while (0)

/* Counts the element the PUSHes added, growing cap as vec_push does. */
static void count_one(size_t *n, size_t *cap)
{
	if (*n == *cap)
		*cap = *cap ? *cap * 2 : 8;
	(*n)++;
}

static void parse_arg(struct parser *p, struct sig *s)
{
	size_t n = s->nargs;

	PUSH(p, s->args, n, s->cargs);
	PUSH(p, s->arg_attrs, n, s->cargs);
	PUSH(p, s->arg_locs, n, s->cargs);
	PUSH(p, s->names, n, s->cargs);
	count_one(&s->nargs, &s->cargs);
	if (p->tok.kind == T_VALUE) {
		s->named = true;
		s->names[n] = p->tok;
		lex_next(p);
		expect(p, ":");
	} else if (s->named) {
		parse_error(p, "expected an argument name (%%name)");
	}
	s->args[n] = parse_type(p);
	s->arg_attrs[n] = tok_is(p, "{") ? parse_dict(p) : NULL;
	s->arg_locs[n] = parse_opt_loc(p);
}

static void parse_results(struct parser *p, struct sig *s)
{
	bool paren = accept(p, "(");

	if (paren && accept(p, ")"))
		return;
	do {
		size_t n = s->nres;

		PUSH(p, s->res, n, s->cres);
		PUSH(p, s->res_attrs, n, s->cres);
		count_one(&s->nres, &s->cres);
		s->res[n] = parse_type(p);
		s->res_attrs[n] = paren && tok_is(p, "{") ? parse_dict(p) : NULL;
	} while (paren && accept(p, ","));
	if (paren)
		expect(p, ")");
}

static enum ttc_visibility parse_visibility(struct parser *p)
{
	if (accept(p, "public"))
		return TTC_VIS_PUBLIC;
	if (accept(p, "private"))
		return TTC_VIS_PRIVATE;
	if (accept(p, "nested"))
		return TTC_VIS_NESTED;
	return TTC_VIS_DEFAULT;
}

static void parse_func(struct parser *p, ttc_module *m)
{
	struct token start = p->tok;
	struct sig s = { 0 };

	lex_next(p);
	enum ttc_visibility vis = parse_visibility(p);

	if (p->tok.kind != T_SYMBOL)
		parse_error(p, "expected the function's name (@name)");
	struct token name = p->tok;
	const char *fname = symbol_name(p);

	lex_next(p);
	expect(p, "(");
	if (!tok_is(p, ")"))
		do
			parse_arg(p, &s);
		while (accept(p, ","));
	expect(p, ")");
	if (accept(p, "->"))
		parse_results(p, &s);
	ttc_func *f = ttc_func_new(m, fname, s.args, s.nargs, s.res, s.nres);

	f->vis = vis;
	f->line = start.line;
	f->col = start.col;
	for (size_t i = 0; i < s.nargs; i++) {
		ttc_func_set_arg_attrs(f, i, s.arg_attrs[i]);
		f->arg_locs[i] = s.arg_locs[i];
	}
	for (size_t i = 0; i < s.nres; i++)
		ttc_func_set_result_attrs(f, i, s.res_attrs[i]);
	if (accept(p, "attributes"))
		ttc_func_set_attrs(f, parse_dict(p));
	if (!tok_is(p, "{")) {
		f->decl = true;
		f->loc = parse_opt_loc(p);
		return;
	}
	if (!s.named && s.nargs)
		parse_error_at(p, &name, "function @%s has a body, so its "
					 "arguments need names",
			       fname);
	names_clear(&p->values);
	for (size_t i = 0; i < s.nargs; i++) {
		if (names_get(&p->values, s.names[i].s, s.names[i].n, NULL))
			parse_error_at(p, &s.names[i], "redefinition of "
						       "argument '%.*s'",
				       (int)s.names[i].n, s.names[i].s);
		names_put(&p->values, s.names[i].s, s.names[i].n, &f->args[i],
			  1);
	}
	parse_func_body(p, f);
	f->loc = parse_opt_loc(p);
}

static void parse_module(struct parser *p, ttc_module *parent)
{
	struct token start = p->tok;
	bool wrapper = tok_is(p, "ttcore.device_module");
	const char *op_name = wrapper ? "ttcore.device_module" :
					"builtin.module";
	const char *name = NULL;

	lex_next(p);
	if (!wrapper && p->tok.kind == T_SYMBOL) {
		name = symbol_name(p);
		lex_next(p);
	}
	ttc_module *m = ttc_module_new_nested(parent, name, op_name);

	m->line = start.line;
	m->col = start.col;
	if (!wrapper && accept(p, "attributes"))
		ttc_module_set_attrs(m, parse_dict(p));
	expect(p, "{");
	parse_module_body(p, m, false);
	expect(p, "}");
	m->loc = parse_opt_loc(p);
}

void parse_module_body(struct parser *p, ttc_module *m, bool top)
{
	for (;;) {
		if (p->tok.kind == T_EOF) {
			if (!top)
				parse_error(p, "missing '}' at the end of a "
					       "module");
			return;
		}
		if (!top && tok_is(p, "}"))
			return;
		if (top && (p->tok.kind == T_HASH || p->tok.kind == T_BANG))
			parse_alias_def(p);
		else if (tok_is(p, "module") || tok_is(p, "builtin.module") ||
			 tok_is(p, "ttcore.device_module"))
			parse_module(p, m);
		else if (tok_is(p, "func.func"))
			parse_func(p, m);
		else if (tok_is(p, "}"))
			parse_error(p, "unbalanced '}'");
		else
			parse_error(p, "expected 'module' or 'func.func'%s",
				    top ? " or an alias definition" : "");
	}
}

/* Defines the alias at q (line line, starting at ls) if it parses; its
 * errors are dropped: the main parse reports them in order. */
static void try_alias(struct parser *p, unsigned line, const char *ls,
		      const char *q)
{
	jmp_buf outer;
	size_t nd = ttc_ctx_diag_count(p->ctx);

	memcpy(outer, p->fail, sizeof(outer));
	if (!setjmp(p->fail)) {
		p->line = line;
		p->line_start = ls;
		lex_reset(p, q);
		parse_alias_def(p);
	}
	while (ttc_ctx_diag_count(p->ctx) > nd) {
		struct ttc_diag *d = &p->ctx->diags[--p->ctx->ndiags];

		free((char *)d->message);
		free((char *)d->text);
		free((char *)d->file);
	}
	memcpy(p->fail, outer, sizeof(outer));
}

/* Alias definitions (#name = ..., !name = ...) may come after their uses
 * (tt-mlir writes #loc aliases at the end): define them all first. */
static void prescan_aliases(struct parser *p)
{
	const char *s = p->src;
	unsigned line = 1;

	for (; s < p->end; line++) {
		const char *e = memchr(s, '\n', (size_t)(p->end - s));
		const char *q = s;

		e = e ? e : p->end;
		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		if (q + 1 < e && (*q == '#' || *q == '!') &&
		    memchr(q, '=', (size_t)(e - q)))
			try_alias(p, line, s, q);
		s = e + 1;
	}
	p->line = 1;
	p->line_start = p->src;
	lex_reset(p, p->src);
}

/* A file of exactly one module is that module; otherwise the file's
 * items sit in an unnamed module, as MLIR does. */
static void promote_single(ttc_module *root)
{
	ttc_module *only = root->first ? root->first->mod : NULL;

	if (root->nitems != 1 || !only ||
	    strcmp(only->op_name, "builtin.module"))
		return;
	root->name = only->name;
	root->attrs = only->attrs;
	root->loc = only->loc;
	root->line = only->line;
	root->col = only->col;
	root->first = only->first;
	root->last = only->last;
	root->nitems = only->nitems;
	for (struct ttc_item *it = root->first; it; it = it->next) {
		if (it->mod) {
			it->mod->parent = root;
			continue;
		}
		it->func->m = root;
		for (ttc_op *op = it->func->first; op; op = op->next)
			op->m = root;
	}
}

ttc_module *ttc_parse(ttc_ctx *ctx, const char *file, const char *text,
		      size_t len, unsigned flags)
{
	if (!ctx || (!text && len))
		return NULL;
	/* On the heap: it changes between setjmp and longjmp. */
	struct parser *p = calloc(1, sizeof(*p));
	ttc_module *root = ttc_module_new(ctx, NULL);

	if (!p || !root) {
		free(p);
		ttc_module_free(root);
		return NULL;
	}
	p->ctx = ctx;
	p->flags = flags;
	p->file = ttc_intern(ctx, file ? file : "<input>",
			     strlen(file ? file : "<input>"));
	root->file = p->file;
	root->src = ttc_xmalloc(len + 1);
	if (len)
		memcpy(root->src, text, len);
	root->src[len] = 0;
	root->srclen = len;
	p->root = root;
	if (!setjmp(p->fail)) {
		lex_init(p, root->src, len);
		prescan_aliases(p);
		parse_module_body(p, root, true);
		promote_single(root);
	} else {
		ttc_module_free(p->root);
		p->root = NULL;
	}
	root = p->root;
	names_free(&p->values);
	names_free(&p->attr_alias);
	names_free(&p->type_alias);
	ttc_arena_release(&p->scratch);
	free(p);
	return root;
}

static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	char *buf = ttc_xmalloc(cap);

	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = ttc_xrealloc(buf, cap *= 2);
	}
	*len = n;
	return buf;
}

ttc_module *ttc_parse_file(ttc_ctx *ctx, const char *path, unsigned flags)
{
	if (!ctx || !path)
		return NULL;
	bool std = !strcmp(path, "-");
	FILE *f = std ? stdin : fopen(path, "rb");

	if (!f) {
		ttc_diag_addf(ctx, "%s: %s", path, strerror(errno));
		return NULL;
	}
	size_t len;
	char *text = read_all(f, &len);
	int err = ferror(f);

	if (!std)
		fclose(f);
	if (err) {
		free(text);
		ttc_diag_addf(ctx, "%s: read error", path);
		return NULL;
	}
	ttc_module *m = ttc_parse(ctx, std ? "<stdin>" : path, text, len,
				  flags);

	free(text);
	return m;
}
