// SPDX-License-Identifier: Apache-2.0
/* Modules and functions. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

ttc_module *ttc_module_new(ttc_ctx *ctx, const char *sym_name)
{
	if (!ctx)
		return NULL;
	ttc_module *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->ctx = ctx;
	m->arena = &m->own;
	m->op_name = ttc_intern(ctx, "builtin.module", 14);
	if (sym_name)
		m->name = ttc_intern(ctx, sym_name, strlen(sym_name));
	return m;
}

void ttc_module_free(ttc_module *m)
{
	if (!m || m->parent)
		return;
	free(m->src);
	ttc_arena_release(&m->own);
	free(m);
}

ttc_module *ttc_module_root(const ttc_module *m)
{
	while (m->parent)
		m = m->parent;
	return (ttc_module *)m;
}

static void add_item(ttc_module *m, ttc_func *f, ttc_module *sub)
{
	struct ttc_item *it = ttc_arena_alloc(m->arena, sizeof(*it));

	it->func = f;
	it->mod = sub;
	if (m->last)
		m->last->next = it;
	else
		m->first = it;
	m->last = it;
	m->nitems++;
}

ttc_module *ttc_module_new_nested(ttc_module *parent, const char *sym_name,
				  const char *op_name)
{
	if (!parent)
		return NULL;
	ttc_module *m = ttc_arena_alloc(parent->arena, sizeof(*m));
	ttc_ctx *ctx = parent->ctx;

	m->ctx = ctx;
	m->arena = parent->arena;
	m->parent = parent;
	op_name = op_name ? op_name : "builtin.module";
	m->op_name = ttc_intern(ctx, op_name, strlen(op_name));
	if (sym_name)
		m->name = ttc_intern(ctx, sym_name, strlen(sym_name));
	add_item(parent, NULL, m);
	return m;
}

ttc_ctx *ttc_module_ctx(const ttc_module *m)
{
	return m ? m->ctx : NULL;
}

const char *ttc_module_name(const ttc_module *m)
{
	return m ? m->name : NULL;
}

const char *ttc_module_op_name(const ttc_module *m)
{
	return m ? m->op_name : NULL;
}

ttc_module *ttc_module_parent(const ttc_module *m)
{
	return m ? m->parent : NULL;
}

const ttc_attr *ttc_module_attrs(const ttc_module *m)
{
	return m ? m->attrs : NULL;
}

void ttc_module_set_attrs(ttc_module *m, const ttc_attr *dict)
{
	if (m && (!dict || dict->kind == TTC_ATTR_DICT))
		m->attrs = dict && dict->len ? dict : NULL;
}

const ttc_loc *ttc_module_loc(const ttc_module *m)
{
	return m ? m->loc : NULL;
}

void ttc_module_set_loc(ttc_module *m, const ttc_loc *loc)
{
	if (m)
		m->loc = loc;
}

size_t ttc_module_num_items(const ttc_module *m)
{
	return m ? m->nitems : 0;
}

static struct ttc_item *item_at(const ttc_module *m, size_t i)
{
	struct ttc_item *it = m ? m->first : NULL;

	while (it && i--)
		it = it->next;
	return it;
}

ttc_func *ttc_module_item_func(const ttc_module *m, size_t i)
{
	struct ttc_item *it = item_at(m, i);

	return it ? it->func : NULL;
}

ttc_module *ttc_module_item_module(const ttc_module *m, size_t i)
{
	struct ttc_item *it = item_at(m, i);

	return it ? it->mod : NULL;
}

ttc_func *ttc_module_lookup(const ttc_module *m, const char *name)
{
	if (!m || !name)
		return NULL;
	for (struct ttc_item *it = m->first; it; it = it->next)
		if (it->func && !strcmp(it->func->name, name))
			return it->func;
	return NULL;
}

/* ---- functions ---- */

ttc_func *ttc_func_new(ttc_module *m, const char *name,
		       const ttc_type *const *args, size_t nargs,
		       const ttc_type *const *results, size_t nres)
{
	if (!m || !name || (nargs && !args) || (nres && !results))
		return NULL;
	struct ttc_arena *a = m->arena;
	ttc_func *f = ttc_arena_alloc(a, sizeof(*f));

	f->m = m;
	f->name = ttc_intern(m->ctx, name, strlen(name));
	f->nargs = nargs;
	f->args = ttc_arena_alloc(a, nargs * sizeof(*f->args));
	f->arg_attrs = ttc_arena_alloc(a, nargs * sizeof(*f->arg_attrs));
	f->arg_locs = ttc_arena_alloc(a, nargs * sizeof(*f->arg_locs));
	for (size_t i = 0; i < nargs; i++) {
		f->args[i].type = args[i];
		f->args[i].arg_of = f;
		f->args[i].index = i;
	}
	f->nres = nres;
	f->res = ttc_arena_alloc(a, nres * sizeof(*f->res));
	f->res_attrs = ttc_arena_alloc(a, nres * sizeof(*f->res_attrs));
	for (size_t i = 0; i < nres; i++)
		f->res[i] = results[i];
	add_item(m, f, NULL);
	return f;
}

void ttc_func_set_result_types(ttc_func *f, const ttc_type *const *results,
			       size_t nres)
{
	if (!f || (nres && !results))
		return;
	struct ttc_arena *a = f->m->arena;

	f->nres = nres;
	f->res = ttc_arena_alloc(a, nres * sizeof(*f->res));
	f->res_attrs = ttc_arena_alloc(a, nres * sizeof(*f->res_attrs));
	for (size_t i = 0; i < nres; i++)
		f->res[i] = results[i];
}

ttc_module *ttc_func_module(const ttc_func *f)
{
	return f ? f->m : NULL;
}

const char *ttc_func_name(const ttc_func *f)
{
	return f ? f->name : NULL;
}

enum ttc_visibility ttc_func_visibility(const ttc_func *f)
{
	return f ? f->vis : TTC_VIS_DEFAULT;
}

void ttc_func_set_visibility(ttc_func *f, enum ttc_visibility v)
{
	if (f)
		f->vis = v;
}

bool ttc_func_is_declaration(const ttc_func *f)
{
	return f && f->decl;
}

void ttc_func_set_declaration(ttc_func *f, bool decl)
{
	if (f)
		f->decl = decl;
}

size_t ttc_func_num_args(const ttc_func *f)
{
	return f ? f->nargs : 0;
}

ttc_value *ttc_func_arg(const ttc_func *f, size_t i)
{
	return f && i < f->nargs ? &f->args[i] : NULL;
}

size_t ttc_func_num_results(const ttc_func *f)
{
	return f ? f->nres : 0;
}

const ttc_type *ttc_func_result_type(const ttc_func *f, size_t i)
{
	return f && i < f->nres ? f->res[i] : NULL;
}

const ttc_attr *ttc_func_arg_attrs(const ttc_func *f, size_t i)
{
	return f && i < f->nargs ? f->arg_attrs[i] : NULL;
}

/* Empty dictionaries are kept as NULL so the printer omits them. */
static const ttc_attr *nonempty(const ttc_attr *d)
{
	return d && d->kind == TTC_ATTR_DICT && d->len ? d : NULL;
}

void ttc_func_set_arg_attrs(ttc_func *f, size_t i, const ttc_attr *d)
{
	if (f && i < f->nargs)
		f->arg_attrs[i] = nonempty(d);
}

const ttc_loc *ttc_func_arg_loc(const ttc_func *f, size_t i)
{
	return f && i < f->nargs ? f->arg_locs[i] : NULL;
}

void ttc_func_set_arg_loc(ttc_func *f, size_t i, const ttc_loc *l)
{
	if (f && i < f->nargs)
		f->arg_locs[i] = l;
}

const ttc_attr *ttc_func_result_attrs(const ttc_func *f, size_t i)
{
	return f && i < f->nres ? f->res_attrs[i] : NULL;
}

void ttc_func_set_result_attrs(ttc_func *f, size_t i, const ttc_attr *d)
{
	if (f && i < f->nres)
		f->res_attrs[i] = nonempty(d);
}

const ttc_attr *ttc_func_attrs(const ttc_func *f)
{
	return f ? f->attrs : NULL;
}

void ttc_func_set_attrs(ttc_func *f, const ttc_attr *dict)
{
	if (f)
		f->attrs = nonempty(dict);
}

const ttc_loc *ttc_func_loc(const ttc_func *f)
{
	return f ? f->loc : NULL;
}

void ttc_func_set_loc(ttc_func *f, const ttc_loc *loc)
{
	if (f)
		f->loc = loc;
}

ttc_op *ttc_func_first_op(const ttc_func *f)
{
	return f ? f->first : NULL;
}

ttc_op *ttc_func_last_op(const ttc_func *f)
{
	return f ? f->last : NULL;
}

size_t ttc_func_num_ops(const ttc_func *f)
{
	return f ? f->nops : 0;
}

/* ---- errors about IR objects ---- */

static void report(ttc_module *m, unsigned line, unsigned col,
		   const ttc_loc *loc, const char *fmt, va_list ap)
{
	char msg[768];
	ttc_module *root = ttc_module_root(m);

	vsnprintf(msg, sizeof(msg), fmt, ap);
	ttc_diag_add(m->ctx, root->file, root->src, root->srclen, line, col,
		     loc, msg);
}

void ttc_op_error(const ttc_op *op, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(op->m, op->line, op->col, op->loc, fmt, ap);
	va_end(ap);
}

void ttc_func_error(const ttc_func *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(f->m, f->line, f->col, f->loc, fmt, ap);
	va_end(ap);
}
