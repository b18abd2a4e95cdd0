// SPDX-License-Identifier: Apache-2.0
/*
 * The printer: modules, functions and ops in the form the parser reads.
 * Registered and opaque ops print in generic form; func.func, return,
 * call and ttir.empty in their pretty forms, as tt-mlir writes them.
 * Values are renumbered per function (%argN, %N), so the output depends
 * only on the IR.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ttc/ir/internal.h"
#include "ttc/text.h"

struct printer {
	struct ttc_buf b;
	unsigned flags;
	int indent;
};

static void indent(struct printer *pr)
{
	for (int i = 0; i < pr->indent; i++)
		ttc_buf_puts(&pr->b, "  ");
}

static void put_loc(struct printer *pr, const ttc_loc *l)
{
	if (!(pr->flags & TTC_PRINT_LOC) || !l)
		return;
	ttc_buf_putc(&pr->b, ' ');
	ttc_format_loc(&pr->b, l);
}

static void put_value(struct printer *pr, const ttc_value *v)
{
	if (v->arg_of) {
		ttc_buf_printf(&pr->b, "%%arg%zu", v->index);
		return;
	}
	ttc_buf_printf(&pr->b, "%%%zu", v->def->res[0].num);
	if (v->def->nres > 1)
		ttc_buf_printf(&pr->b, "#%zu", v->index);
}

static void put_operands(struct printer *pr, const ttc_op *op)
{
	for (size_t i = 0; i < op->nops; i++) {
		if (i)
			ttc_buf_puts(&pr->b, ", ");
		put_value(pr, op->ops[i].value);
	}
}

static void put_operand_types(struct printer *pr, const ttc_op *op)
{
	for (size_t i = 0; i < op->nops; i++) {
		if (i)
			ttc_buf_puts(&pr->b, ", ");
		ttc_format_type(&pr->b, op->ops[i].value->type);
	}
}

static void put_result_types(struct printer *pr, const ttc_op *op)
{
	if (op->nres == 1) {
		ttc_format_type(&pr->b, op->res[0].type);
		return;
	}
	ttc_buf_putc(&pr->b, '(');
	for (size_t i = 0; i < op->nres; i++) {
		if (i)
			ttc_buf_puts(&pr->b, ", ");
		ttc_format_type(&pr->b, op->res[i].type);
	}
	ttc_buf_putc(&pr->b, ')');
}

static void put_generic(struct printer *pr, const ttc_op *op)
{
	ttc_buf_putc(&pr->b, '"');
	ttc_buf_puts(&pr->b, op->name);
	ttc_buf_puts(&pr->b, "\"(");
	put_operands(pr, op);
	ttc_buf_putc(&pr->b, ')');
	if (op->props) {
		ttc_buf_puts(&pr->b, " <");
		ttc_format_attr(&pr->b, op->props);
		ttc_buf_putc(&pr->b, '>');
	}
	if (op->attrs) {
		ttc_buf_putc(&pr->b, ' ');
		ttc_format_attr(&pr->b, op->attrs);
	}
	ttc_buf_puts(&pr->b, " : (");
	put_operand_types(pr, op);
	ttc_buf_puts(&pr->b, ") -> ");
	put_result_types(pr, op);
}

static bool is(const ttc_op *op, const char *name)
{
	return !strcmp(op->name, name);
}

/* call @f(...) : (...) -> ... when the callee is its only property. */
static bool put_call(struct printer *pr, const ttc_op *op)
{
	const ttc_attr *c = ttc_attr_dict_get(op->props, "callee");

	if (!c || c->kind != TTC_ATTR_SYMREF || op->props->len != 1)
		return false;
	ttc_buf_puts(&pr->b, "call ");
	ttc_format_symbol(&pr->b, c->s);
	ttc_buf_putc(&pr->b, '(');
	put_operands(pr, op);
	ttc_buf_putc(&pr->b, ')');
	if (op->attrs) {
		ttc_buf_putc(&pr->b, ' ');
		ttc_format_attr(&pr->b, op->attrs);
	}
	ttc_buf_puts(&pr->b, " : (");
	put_operand_types(pr, op);
	ttc_buf_puts(&pr->b, ") -> ");
	put_result_types(pr, op);
	return true;
}

static void put_op_body(struct printer *pr, const ttc_op *op)
{
	if (is(op, "func.return") && !op->props && !op->attrs &&
	    !op->nres) {
		ttc_buf_puts(&pr->b, "return");
		if (op->nops) {
			ttc_buf_putc(&pr->b, ' ');
			put_operands(pr, op);
			ttc_buf_puts(&pr->b, " : ");
			put_operand_types(pr, op);
		}
		return;
	}
	if (is(op, "func.call") && put_call(pr, op))
		return;
	if ((is(op, "ttir.empty") || is(op, "tensor.empty")) && !op->nops &&
	    op->nres == 1 && !op->props) {
		ttc_buf_printf(&pr->b, "%s()", op->name);
		if (op->attrs) {
			ttc_buf_putc(&pr->b, ' ');
			ttc_format_attr(&pr->b, op->attrs);
		}
		ttc_buf_puts(&pr->b, " : ");
		ttc_format_type(&pr->b, op->res[0].type);
		return;
	}
	put_generic(pr, op);
}

static void put_op(struct printer *pr, ttc_op *op, size_t *counter)
{
	indent(pr);
	if (op->nres) {
		size_t n = (*counter)++;

		for (size_t i = 0; i < op->nres; i++)
			op->res[i].num = n;
		ttc_buf_printf(&pr->b, "%%%zu", n);
		if (op->nres > 1)
			ttc_buf_printf(&pr->b, ":%zu", op->nres);
		ttc_buf_puts(&pr->b, " = ");
	}
	put_op_body(pr, op);
	put_loc(pr, op->loc);
	ttc_buf_putc(&pr->b, '\n');
}

static void put_signature(struct printer *pr, const ttc_func *f)
{
	static const char *const vis[] = { "", "public ", "private ",
					   "nested " };

	ttc_buf_printf(&pr->b, "func.func %s", vis[f->vis]);
	ttc_format_symbol(&pr->b, f->name);
	ttc_buf_putc(&pr->b, '(');
	for (size_t i = 0; i < f->nargs; i++) {
		if (i)
			ttc_buf_puts(&pr->b, ", ");
		if (!f->decl)
			ttc_buf_printf(&pr->b, "%%arg%zu: ", i);
		ttc_format_type(&pr->b, f->args[i].type);
		if (f->arg_attrs[i]) {
			ttc_buf_putc(&pr->b, ' ');
			ttc_format_attr(&pr->b, f->arg_attrs[i]);
		}
		put_loc(pr, f->arg_locs[i]);
	}
	ttc_buf_putc(&pr->b, ')');
	bool attrs = false;

	for (size_t i = 0; i < f->nres; i++)
		attrs |= f->res_attrs[i] != NULL;
	if (f->nres == 1 && !attrs) {
		ttc_buf_puts(&pr->b, " -> ");
		ttc_format_type(&pr->b, f->res[0]);
	} else if (f->nres) {
		ttc_buf_puts(&pr->b, " -> (");
		for (size_t i = 0; i < f->nres; i++) {
			if (i)
				ttc_buf_puts(&pr->b, ", ");
			ttc_format_type(&pr->b, f->res[i]);
			if (f->res_attrs[i]) {
				ttc_buf_putc(&pr->b, ' ');
				ttc_format_attr(&pr->b, f->res_attrs[i]);
			}
		}
		ttc_buf_putc(&pr->b, ')');
	}
	if (f->attrs) {
		ttc_buf_puts(&pr->b, " attributes ");
		ttc_format_attr(&pr->b, f->attrs);
	}
}

static void put_func(struct printer *pr, const ttc_func *f)
{
	size_t counter = 0;

	indent(pr);
	put_signature(pr, f);
	if (!f->decl) {
		ttc_buf_puts(&pr->b, " {\n");
		pr->indent++;
		for (ttc_op *op = f->first; op; op = op->next)
			put_op(pr, op, &counter);
		pr->indent--;
		indent(pr);
		ttc_buf_putc(&pr->b, '}');
	}
	put_loc(pr, f->loc);
	ttc_buf_putc(&pr->b, '\n');
}

static void put_module(struct printer *pr, const ttc_module *m)
{
	bool builtin = !strcmp(m->op_name, "builtin.module");

	indent(pr);
	ttc_buf_puts(&pr->b, builtin ? "module" : m->op_name);
	if (m->name) {
		ttc_buf_putc(&pr->b, ' ');
		ttc_format_symbol(&pr->b, m->name);
	}
	if (m->attrs) {
		ttc_buf_puts(&pr->b, " attributes ");
		ttc_format_attr(&pr->b, m->attrs);
	}
	ttc_buf_puts(&pr->b, " {\n");
	pr->indent++;
	for (struct ttc_item *it = m->first; it; it = it->next) {
		if (it->func)
			put_func(pr, it->func);
		else
			put_module(pr, it->mod);
	}
	pr->indent--;
	indent(pr);
	ttc_buf_putc(&pr->b, '}');
	put_loc(pr, m->loc);
	ttc_buf_putc(&pr->b, '\n');
}

char *ttc_print(const ttc_module *m, unsigned flags, size_t *len)
{
	if (!m)
		return NULL;
	struct printer pr = { .flags = flags };

	put_module(&pr, m);
	if (len)
		*len = pr.b.len;
	return pr.b.p;
}

int ttc_print_file(const ttc_module *m, unsigned flags, FILE *f)
{
	size_t len;

	if (!m || !f)
		return -EINVAL;
	char *s = ttc_print(m, flags, &len);
	int rc = fwrite(s, 1, len, f) == len ? 0 : -EIO;

	free(s);
	return rc;
}
