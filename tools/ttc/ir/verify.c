// SPDX-License-Identifier: Apache-2.0
/* The verifier: SSA rules of functions, calls and returns, and each
 * registered op's definition. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char *kind_words(enum ttc_attr_spec_kind k)
{
	switch (k) {
	case TTC_AK_BOOL:
		return "a bool (true or false)";
	case TTC_AK_INT:
		return "an integer";
	case TTC_AK_FLOAT:
		return "a float";
	case TTC_AK_NUMBER:
		return "an integer or a float";
	case TTC_AK_STRING:
		return "a string";
	case TTC_AK_INTS:
		return "a list of integers ([1 : i32, ...] or array<i64: ...>)";
	case TTC_AK_INT_OR_INTS:
		return "an integer or a list of integers";
	case TTC_AK_DENSE:
		return "dense elements (dense<...> : tensor<...>)";
	case TTC_AK_TYPE:
		return "a type";
	default:
		return "an attribute";
	}
}

static bool kind_ok(enum ttc_attr_spec_kind k, const ttc_attr *a)
{
	int64_t tmp[1];

	switch (k) {
	case TTC_AK_BOOL:
		return a->kind == TTC_ATTR_BOOL;
	case TTC_AK_INT:
		return a->kind == TTC_ATTR_INT;
	case TTC_AK_FLOAT:
		return a->kind == TTC_ATTR_FLOAT;
	case TTC_AK_NUMBER:
		return a->kind == TTC_ATTR_INT || a->kind == TTC_ATTR_FLOAT;
	case TTC_AK_STRING:
		return a->kind == TTC_ATTR_STRING;
	case TTC_AK_INTS:
		return ttc_attr_ints(a, tmp, 0) != -EINVAL;
	case TTC_AK_INT_OR_INTS:
		return a->kind == TTC_ATTR_INT ||
		       ttc_attr_ints(a, tmp, 0) != -EINVAL;
	case TTC_AK_DENSE:
		return a->kind == TTC_ATTR_DENSE;
	case TTC_AK_TYPE:
		return a->kind == TTC_ATTR_TYPE;
	default:
		return true;
	}
}

static int check_counts(ttc_op *op)
{
	const struct ttc_op_def *d = op->def;
	unsigned n = d->noperands;
	bool ok;

	if (d->flags & TTC_OPF_VARIADIC)
		ok = op->nops + 1 >= n;
	else if (d->flags & TTC_OPF_OPTIONAL_LAST)
		ok = op->nops + 1 >= n && op->nops <= n;
	else if (d->flags & TTC_OPF_SEGMENTS)
		ok = op->nops >= 1 && op->nops <= n;
	else
		ok = op->nops == n;
	if (!ok) {
		char names[160] = "";

		for (unsigned i = 0; i < n; i++)
			snprintf(names + strlen(names),
				 sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", d->operands[i]);
		ttc_op_error(op, "'%s' op expects %s%u operand%s (%s), got %zu",
			     op->name,
			     d->flags & TTC_OPF_VARIADIC	? "at least " :
			     d->flags & (TTC_OPF_OPTIONAL_LAST |
					 TTC_OPF_SEGMENTS) ? "at most " :
								  "",
			     d->flags & TTC_OPF_VARIADIC ? n - 1 : n,
			     n == 1 && !(d->flags & TTC_OPF_VARIADIC) ? "" : "s",
			     names, op->nops);
		return 1;
	}
	if (!(d->flags & TTC_OPF_VARIADIC_RESULTS) && op->nres != d->nresults) {
		ttc_op_error(op, "'%s' op expects %u result%s, got %zu",
			     op->name, d->nresults,
			     d->nresults == 1 ? "" : "s", op->nres);
		return 1;
	}
	return 0;
}

static int check_attrs(ttc_op *op)
{
	const struct ttc_op_def *d = op->def;
	int errors = 0;

	for (unsigned i = 0; i < d->nattrs; i++) {
		const struct ttc_attr_spec *s = &d->attrs[i];
		const ttc_attr *a = ttc_attr_dict_get(op->props, s->name);

		if (!a)
			a = ttc_attr_dict_get(op->attrs, s->name);
		if (!a && s->presence == TTC_ATTR_REQUIRED) {
			ttc_op_error(op, "'%s' op requires attribute '%s' (%s)",
				     op->name, s->name, kind_words(s->kind));
			errors++;
		} else if (a && !kind_ok(s->kind, a)) {
			struct ttc_buf b = { 0 };

			ttc_format_attr(&b, a);
			ttc_op_error(op, "'%s' op attribute '%s' must be %s, "
					 "got %s",
				     op->name, s->name, kind_words(s->kind),
				     b.p);
			ttc_buf_free(&b);
			errors++;
		}
	}
	return errors;
}

/* Whether a declared result type is what inference gave: same shape and
 * (unless the op leaves it free) element type. Encodings (layouts) are
 * not inferred and not compared. */
static bool types_match(const ttc_type *got, const ttc_type *want,
			bool elem_free)
{
	if (got == want)
		return true;
	if (got->kind != TTC_TYPE_TENSOR || want->kind != TTC_TYPE_TENSOR)
		return false;
	if (got->rank != want->rank ||
	    memcmp(got->dims, want->dims, got->rank * sizeof(*got->dims)))
		return false;
	return elem_free || got->elem == want->elem;
}

static int check_inferred(ttc_op *op)
{
	const struct ttc_op_def *d = op->def;
	const ttc_type *in[64], *out[8];
	size_t nin = op->nops < 64 ? op->nops : 64;

	for (size_t i = 0; i < nin; i++)
		in[i] = op->ops[i].value->type;
	struct ttc_infer req = { .ctx = op->m->ctx, .def = d, .in = in,
				 .nin = nin, .props = op->props,
				 .attrs = op->attrs };

	int rc = d->infer(&req, out);

	if (rc < 0) {
		ttc_op_error(op, "'%s' op %s", op->name, req.err);
		return 1;
	}
	if (rc > 0)
		return 0;
	for (size_t i = 0; i < op->nres && i < 8; i++) {
		const ttc_type *got = op->res[i].type;
		bool ok = types_match(got, out[i],
				      d->flags & TTC_OPF_ELEM_FREE);

		if (ok)
			continue;
		struct ttc_buf g = { 0 }, w = { 0 };

		ttc_format_type(&g, got);
		ttc_format_type(&w, out[i]);
		ttc_op_error(op, "'%s' op result #%zu has type %s, but the "
				 "operands and attributes give %s%s",
			     op->name, i, g.p, w.p,
			     d->flags & TTC_OPF_ELEM_FREE ? " (any element "
							    "type)" : "");
		ttc_buf_free(&g);
		ttc_buf_free(&w);
		return 1;
	}
	return 0;
}

int ttc_op_verify(ttc_op *op)
{
	if (!op)
		return 1;
	if (!op->def)
		return 0;
	int errors = check_counts(op);

	if (errors)
		return errors;
	errors = check_attrs(op);
	if (errors)
		return errors;
	if (op->def->infer && (errors = check_inferred(op)))
		return errors;
	if (op->def->verify) {
		char err[256] = "";

		if (op->def->verify(op, err, sizeof(err))) {
			ttc_op_error(op, "'%s' op %s", op->name, err);
			return 1;
		}
	}
	return 0;
}

/* ---- functions ---- */

static int check_return(const ttc_func *f, ttc_op *op)
{
	if (op->nops != f->nres) {
		ttc_op_error(op, "'func.return' op has %zu operand%s, but the "
				 "function @%s returns %zu",
			     op->nops, op->nops == 1 ? "" : "s", f->name,
			     f->nres);
		return 1;
	}
	for (size_t i = 0; i < op->nops; i++) {
		if (op->ops[i].value->type == f->res[i])
			continue;
		struct ttc_buf g = { 0 }, w = { 0 };

		ttc_format_type(&g, op->ops[i].value->type);
		ttc_format_type(&w, f->res[i]);
		ttc_op_error(op, "'func.return' op operand #%zu has type %s, "
				 "but the function @%s returns %s",
			     i, g.p, f->name, w.p);
		ttc_buf_free(&g);
		ttc_buf_free(&w);
		return 1;
	}
	return 0;
}

static const ttc_func *lookup_up(const ttc_module *m, const char *name)
{
	for (; m; m = m->parent) {
		const ttc_func *f = ttc_module_lookup(m, name);

		if (f)
			return f;
	}
	return NULL;
}

static int type_mismatch(ttc_op *op, const char *what, size_t i,
			 const ttc_type *got, const ttc_type *want,
			 const char *callee)
{
	struct ttc_buf g = { 0 }, w = { 0 };

	ttc_format_type(&g, got);
	ttc_format_type(&w, want);
	ttc_op_error(op, "'func.call' op %s #%zu has type %s, but @%s "
			 "declares %s",
		     what, i, g.p, callee, w.p);
	ttc_buf_free(&g);
	ttc_buf_free(&w);
	return 1;
}

static int check_call(const ttc_func *f, ttc_op *op)
{
	const ttc_attr *c = ttc_attr_dict_get(op->props, "callee");

	if (!c)
		c = ttc_attr_dict_get(op->attrs, "callee");
	if (!c || c->kind != TTC_ATTR_SYMREF) {
		ttc_op_error(op, "'func.call' op requires a 'callee' symbol "
				 "reference (@name)");
		return 1;
	}
	const ttc_func *g = lookup_up(f->m, c->s);

	if (!g) {
		ttc_op_error(op, "'func.call' op calls @%s, which is not a "
				 "function of the module",
			     c->s);
		return 1;
	}
	if (op->nops != g->nargs || op->nres != g->nres) {
		ttc_op_error(op, "'func.call' op passes %zu operands and "
				 "takes %zu results; @%s has %zu arguments "
				 "and %zu results",
			     op->nops, op->nres, g->name, g->nargs, g->nres);
		return 1;
	}
	for (size_t i = 0; i < op->nops; i++)
		if (op->ops[i].value->type != g->args[i].type)
			return type_mismatch(op, "operand", i,
					     op->ops[i].value->type,
					     g->args[i].type, g->name);
	for (size_t i = 0; i < op->nres; i++)
		if (op->res[i].type != g->res[i])
			return type_mismatch(op, "result", i, op->res[i].type,
					     g->res[i], g->name);
	return 0;
}

static int check_dominance(ttc_op *op, unsigned gen)
{
	for (size_t i = 0; i < op->nops; i++) {
		if (op->ops[i].value->mark == gen)
			continue;
		ttc_op_error(op, "'%s' op operand #%zu does not dominate this "
				 "use (it is defined later, or in another "
				 "function)",
			     op->name, i);
		return 1;
	}
	return 0;
}

static int verify_body(ttc_func *f, unsigned gen)
{
	int errors = 0;

	for (ttc_op *op = f->first; op; op = op->next) {
		errors += check_dominance(op, gen);
		errors += ttc_op_verify(op);
		if (!strcmp(op->name, "func.call"))
			errors += check_call(f, op);
		bool term = op->def && (op->def->flags & TTC_OPF_TERMINATOR);

		if (term && op->next) {
			ttc_op_error(op, "'%s' op must be the last op of the "
					 "function @%s",
				     op->name, f->name);
			errors++;
		} else if (term) {
			errors += check_return(f, op);
		}
		for (size_t i = 0; i < op->nres; i++)
			op->res[i].mark = gen;
	}
	return errors;
}

static int verify_func(ttc_func *f, unsigned gen)
{
	if (f->decl) {
		if (f->first) {
			ttc_func_error(f, "function @%s is a declaration but "
					  "has a body",
				       f->name);
			return 1;
		}
		return 0;
	}
	for (size_t i = 0; i < f->nargs; i++)
		f->args[i].mark = gen;
	int errors = verify_body(f, gen);
	const ttc_op *last = f->last;

	if (!last || !last->def || !(last->def->flags & TTC_OPF_TERMINATOR)) {
		ttc_func_error(f, "function @%s must end with func.return",
			       f->name);
		errors++;
	}
	return errors;
}

static int verify_module(ttc_module *m, ttc_module *root)
{
	int errors = 0;

	for (struct ttc_item *it = m->first; it; it = it->next) {
		if (it->mod) {
			errors += verify_module(it->mod, root);
			continue;
		}
		for (struct ttc_item *p = m->first; p != it; p = p->next) {
			if (p->func && p->func->name == it->func->name) {
				ttc_func_error(it->func, "redefinition of "
							 "function @%s",
					       it->func->name);
				errors++;
				break;
			}
		}
		errors += verify_func(it->func, ++root->mark_gen);
	}
	return errors;
}

int ttc_module_verify(ttc_module *m)
{
	if (!m)
		return 1;
	return verify_module(m, ttc_module_root(m));
}
