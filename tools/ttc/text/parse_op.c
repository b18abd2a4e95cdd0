// SPDX-License-Identifier: Apache-2.0
/* Ops of a function body: generic form, the pretty forms of return, call
 * and empty, result binding, and the older destination-passing form. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

struct use {
	ttc_value *v;
	struct token tok;
};

struct group {
	struct token tok;
	size_t count;
};

struct op_text {
	struct token start, name_tok;
	const char *name;
	struct use *uses;
	size_t nuses, capuses;
	const ttc_type **in, **out;
	size_t nin, nout;
	const ttc_attr *props, *attrs;
	const ttc_loc *loc;
};

static ttc_value *parse_use(struct parser *p, struct token *tok)
{
	size_t count;

	*tok = p->tok;
	if (p->tok.kind != T_VALUE)
		parse_error(p, "expected an SSA value (%%name)");
	ttc_value *v = names_get(&p->values, p->tok.s, p->tok.n, &count);

	if (!v)
		parse_error(p, "use of undefined value '%.*s'", (int)p->tok.n,
			    p->tok.s);
	const char *s = p->cur;
	size_t k = 0;

	if (s < p->end && *s == '#') {
		const char *d = ++s;

		while (s < p->end && *s >= '0' && *s <= '9')
			k = k * 10 + (size_t)(*s++ - '0');
		if (s == d)
			parse_error(p, "expected a result number after '#'");
		if (k >= count)
			parse_error(p, "'%.*s' has %zu result%s; #%zu does not "
				       "exist",
				    (int)p->tok.n, p->tok.s, count,
				    count == 1 ? "" : "s", k);
		p->cur = s;
	}
	lex_next(p);
	return v + k;
}

static void parse_uses(struct parser *p, struct op_text *o, const char *end)
{
	if (end && tok_is(p, end))
		return;
	do {
		o->uses = vec_push(p, o->uses, &o->nuses, &o->capuses,
				   sizeof(*o->uses));
		struct use *u = &o->uses[o->nuses - 1];

		u->v = parse_use(p, &u->tok);
	} while (accept(p, ","));
}

static const ttc_type **parse_types(struct parser *p, size_t *n,
				    const char *end)
{
	const ttc_type **v = NULL;
	size_t cap = 0;

	*n = 0;
	if (end && tok_is(p, end))
		return v;
	do {
		v = vec_push(p, v, n, &cap, sizeof(*v));
		v[*n - 1] = parse_type(p);
	} while (accept(p, ","));
	return v;
}

/* (T, T) -> T  or  (T) -> (T, T) */
static void parse_functype(struct parser *p, struct op_text *o)
{
	expect(p, "(");
	o->in = parse_types(p, &o->nin, ")");
	expect(p, ")");
	expect(p, "->");
	if (accept(p, "(")) {
		o->out = parse_types(p, &o->nout, ")");
		expect(p, ")");
		return;
	}
	o->out = parse_types(p, &o->nout, NULL);
	if (o->nout > 1)
		parse_error(p, "several result types need parentheses");
}

static void parse_generic(struct parser *p, struct op_text *o)
{
	o->name_tok = p->tok;
	o->name = tok_string(p, &p->tok, NULL);
	lex_next(p);
	expect(p, "(");
	parse_uses(p, o, ")");
	expect(p, ")");
	if (tok_is(p, "["))
		parse_error(p, "successors are not supported: a function has "
			       "one block");
	if (accept(p, "<")) {
		o->props = parse_dict(p);
		expect(p, ">");
	}
	if (tok_is(p, "("))
		parse_error(p, "regions are not supported (op '%s')", o->name);
	if (tok_is(p, "{"))
		o->attrs = parse_dict(p);
	expect(p, ":");
	parse_functype(p, o);
}

static void parse_return(struct parser *p, struct op_text *o)
{
	o->name_tok = p->tok;
	o->name = "func.return";
	lex_next(p);
	if (p->tok.kind != T_VALUE)
		return;
	parse_uses(p, o, NULL);
	expect(p, ":");
	o->in = parse_types(p, &o->nin, NULL);
}

static void parse_call(struct parser *p, struct op_text *o)
{
	o->name_tok = p->tok;
	o->name = "func.call";
	lex_next(p);
	if (p->tok.kind != T_SYMBOL)
		parse_error(p, "expected the callee (@name)");
	struct ttc_named_attr callee = { "callee", parse_attr(p) };

	o->props = ttc_dict_attr(p->ctx, &callee, 1);
	expect(p, "(");
	parse_uses(p, o, ")");
	expect(p, ")");
	if (tok_is(p, "{"))
		o->attrs = parse_dict(p);
	expect(p, ":");
	parse_functype(p, o);
}

/* ttir.empty() : tensor<...> (and tensor.empty, its older spelling). */
static void parse_empty(struct parser *p, struct op_text *o)
{
	o->name_tok = p->tok;
	o->name = ttc_intern(p->ctx, p->tok.s, p->tok.n);
	lex_next(p);
	expect(p, "(");
	expect(p, ")");
	if (tok_is(p, "{"))
		o->attrs = parse_dict(p);
	expect(p, ":");
	o->out = parse_types(p, &o->nout, NULL);
}

static void parse_op_body(struct parser *p, struct op_text *o)
{
	if (p->tok.kind == T_STRING) {
		parse_generic(p, o);
	} else if (tok_is(p, "return") || tok_is(p, "func.return")) {
		parse_return(p, o);
	} else if (tok_is(p, "call") || tok_is(p, "func.call")) {
		parse_call(p, o);
	} else if (tok_is(p, "ttir.empty") || tok_is(p, "tensor.empty")) {
		parse_empty(p, o);
	} else if (p->tok.kind == T_CARET) {
		parse_error(p, "block labels are not supported: a function "
			       "has one block");
	} else if (p->tok.kind == T_IDENT) {
		parse_error(p, "custom assembly of '%.*s' is not supported; "
			       "write the op in generic form (\"%.*s\"(...))",
			    (int)p->tok.n, p->tok.s, (int)p->tok.n, p->tok.s);
	} else {
		parse_error(p, "expected an op");
	}
}

static void check_use_types(struct parser *p, const struct op_text *o)
{
	if (o->nuses != o->nin)
		parse_error_at(p, &o->name_tok, "'%s' has %zu operand%s but "
						"its type lists %zu",
			       o->name, o->nuses, o->nuses == 1 ? "" : "s",
			       o->nin);
	for (size_t i = 0; i < o->nuses; i++) {
		if (o->uses[i].v->type == o->in[i])
			continue;
		struct ttc_buf g = { 0 }, w = { 0 };
		char msg[512];

		ttc_format_type(&g, o->in[i]);
		ttc_format_type(&w, o->uses[i].v->type);
		snprintf(msg, sizeof(msg), "'%s' operand #%zu: use of value "
					   "'%.*s' as %s, but it has type %s",
			 o->name, i, (int)o->uses[i].tok.n, o->uses[i].tok.s,
			 g.p, w.p);
		ttc_buf_free(&g);
		ttc_buf_free(&w);
		parse_error_at(p, &o->uses[i].tok, "%s", msg);
	}
}

static void check_known(struct parser *p, const struct op_text *o)
{
	if (ttc_lookup_op(p->ctx, o->name) ||
	    (p->flags & TTC_PARSE_ALLOW_UNREGISTERED))
		return;
	const char *dot = strchr(o->name, '.');
	size_t dl = dot ? (size_t)(dot - o->name) : strlen(o->name);

	for (size_t i = 0; i < ttc_op_def_count(p->ctx); i++) {
		const char *n = ttc_op_def_at(p->ctx, i)->name;

		if (!strncmp(n, o->name, dl) && n[dl] == '.')
			parse_error_at(p, &o->name_tok,
				       "unknown op '%s' (use "
				       "--allow-unregistered to keep it opaque)",
				       o->name);
	}
	parse_error_at(p, &o->name_tok, "unknown dialect '%.*s' of op '%s' "
					"(use --allow-unregistered to keep "
					"it opaque)",
		       (int)dl, o->name, o->name);
}

/* Inherent attributes written in {...} go to the properties, where
 * tt-mlir prints them. */
static void move_inherent(struct parser *p, const struct ttc_op_def *d,
			  struct op_text *o)
{
	for (unsigned i = 0; i < d->nattrs && o->attrs; i++) {
		const ttc_attr *a = ttc_attr_dict_get(o->attrs, d->attrs[i].name);

		if (!a || ttc_attr_dict_get(o->props, d->attrs[i].name))
			continue;
		o->props = ttc_attr_dict_set(p->ctx, o->props, d->attrs[i].name,
					     a);
		o->attrs = ttc_attr_dict_set(p->ctx, o->attrs, d->attrs[i].name,
					     NULL);
	}
}

static bool is_empty_op(const ttc_value *v)
{
	const char *n = v->def ? v->def->name : NULL;

	return n && (!strcmp(n, "ttir.empty") || !strcmp(n, "tensor.empty"));
}

/* The older destination-passing form: a trailing output operand (usually
 * a ttir.empty) of the result's type. It is dropped; an empty that only
 * fed such operands is erased after the function. */
static void drop_dps_output(struct parser *p, const struct ttc_op_def *d,
			    struct op_text *o)
{
	if (!(d->flags & TTC_OPF_DPS) || !o->nuses || o->nout != 1)
		return;
	ttc_value *last = o->uses[o->nuses - 1].v;
	unsigned max = d->noperands, min = d->noperands;

	if (d->flags & (TTC_OPF_VARIADIC | TTC_OPF_OPTIONAL_LAST))
		min--;
	/* Exactly one operand too many: with more, dropping one would leave
	 * an op that loses another the next time it is read. */
	bool extra = !(d->flags & TTC_OPF_VARIADIC) && o->nuses == max + 1;
	bool dest = is_empty_op(last) && o->nuses > min;
	/* Only when what is left is a valid count: else a second parse of
	 * the printed text would drop one more, and printing would not be
	 * a fixed point (the fuzzer's find regress-dps-count). */
	bool fits = (d->flags & TTC_OPF_VARIADIC) || o->nuses - 1 <= max;

	if ((!extra && !dest) || !fits || last->type != o->out[0])
		return;
	/* Only an empty is erased with the operand; a real value stays. */
	if (last->def && is_empty_op(last))
		last->def->flags |= TTC_OP_DPS_DEST;
	o->nuses--;
	o->nin--;
	if (ttc_attr_dict_get(o->attrs, "operandSegmentSizes"))
		o->attrs = ttc_attr_dict_set(p->ctx, o->attrs,
					     "operandSegmentSizes", NULL);
	if (ttc_attr_dict_get(o->props, "operandSegmentSizes"))
		o->props = ttc_attr_dict_set(p->ctx, o->props,
					     "operandSegmentSizes", NULL);
}

static void bind_results(struct parser *p, ttc_op *op,
			 const struct group *g, size_t ng)
{
	size_t total = 0;

	for (size_t i = 0; i < ng; i++)
		total += g[i].count;
	if (ng && total != op->nres)
		parse_error_at(p, &g[0].tok, "'%s' has %zu result%s but %zu "
					     "%s bound here",
			       op->name, op->nres, op->nres == 1 ? "" : "s",
			       total, total == 1 ? "is" : "are");
	for (size_t i = 0, k = 0; i < ng; k += g[i].count, i++) {
		if (names_get(&p->values, g[i].tok.s, g[i].tok.n, NULL))
			parse_error_at(p, &g[i].tok, "redefinition of value "
						     "'%.*s'",
				       (int)g[i].tok.n, g[i].tok.s);
		names_put(&p->values, g[i].tok.s, g[i].tok.n, &op->res[k],
			  g[i].count);
	}
}

static struct group *parse_groups(struct parser *p, size_t *ng)
{
	struct group *g = NULL;
	size_t cap = 0;

	*ng = 0;
	if (p->tok.kind != T_VALUE)
		return NULL;
	do {
		if (p->tok.kind != T_VALUE)
			parse_error(p, "expected a result name (%%name)");
		g = vec_push(p, g, ng, &cap, sizeof(*g));
		g[*ng - 1] = (struct group){ p->tok, 1 };
		lex_next(p);
		if (accept(p, ":")) {
			if (p->tok.kind != T_INT || *p->tok.s == '0')
				parse_error(p, "expected a result count");
			g[*ng - 1].count = strtoul(p->tok.s, NULL, 10);
			lex_next(p);
		}
	} while (accept(p, ","));
	expect(p, "=");
	return g;
}

static void parse_op(struct parser *p, ttc_func *f)
{
	struct op_text o = { .start = p->tok };
	size_t ng;
	struct group *g = parse_groups(p, &ng);

	parse_op_body(p, &o);
	o.loc = parse_opt_loc(p);
	check_known(p, &o);
	check_use_types(p, &o);
	const struct ttc_op_def *d = ttc_lookup_op(p->ctx, o.name);

	if (d) {
		move_inherent(p, d, &o);
		drop_dps_output(p, d, &o);
	}
	ttc_value **ins = ttc_arena_alloc(&p->scratch,
					  (o.nuses + 1) * sizeof(*ins));

	for (size_t i = 0; i < o.nuses; i++)
		ins[i] = o.uses[i].v;
	ttc_op *op = ttc_op_create(f->m, o.name, ins, o.nuses, o.out, o.nout,
				   o.props, o.attrs, o.loc);

	op->line = o.start.line;
	op->col = o.start.col;
	bind_results(p, op, g, ng);
	ttc_func_append(f, op);
}

/* Empties whose only uses were dropped destination operands. */
static void erase_dead_destinations(ttc_func *f)
{
	ttc_op *op = f->first;

	while (op) {
		ttc_op *next = op->next;

		if ((op->flags & TTC_OP_DPS_DEST) && !op->res[0].nuses)
			ttc_op_erase(op);
		op = next;
	}
}

void parse_func_body(struct parser *p, ttc_func *f)
{
	expect(p, "{");
	while (!tok_is(p, "}")) {
		if (p->tok.kind == T_EOF)
			parse_error(p, "missing '}' at the end of function "
				       "@%s",
				    f->name);
		parse_op(p, f);
	}
	lex_next(p);
	erase_dead_destinations(f);
}
