// SPDX-License-Identifier: Apache-2.0
/* Ops, values and their use lists; the rewrite API. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void use_link(ttc_use *u, ttc_value *v)
{
	u->value = v;
	u->next = v->uses;
	if (v->uses)
		v->uses->pprev = &u->next;
	u->pprev = &v->uses;
	v->uses = u;
	v->nuses++;
}

static void use_unlink(ttc_use *u)
{
	if (!u->value)
		return;
	*u->pprev = u->next;
	if (u->next)
		u->next->pprev = u->pprev;
	u->value->nuses--;
	u->value = NULL;
	u->next = NULL;
	u->pprev = NULL;
}

ttc_op *ttc_op_create(ttc_module *m, const char *name,
		      ttc_value *const *operands, size_t nops,
		      const ttc_type *const *results, size_t nres,
		      const ttc_attr *props, const ttc_attr *attrs,
		      const ttc_loc *loc)
{
	if (!m || !name || (nops && !operands) || (nres && !results))
		return NULL;
	for (size_t i = 0; i < nops; i++)
		if (!operands[i])
			return NULL;
	ttc_op *op = ttc_arena_alloc(m->arena, sizeof(*op));

	op->m = m;
	op->def = ttc_lookup_op(m->ctx, name);
	/* An alias names the op it stands for: the IR has one spelling. */
	if (op->def)
		name = op->def->name;
	op->name = ttc_intern(m->ctx, name, strlen(name));
	op->opcap = nops;
	op->nops = nops;
	op->ops = ttc_arena_alloc(m->arena, nops * sizeof(*op->ops));
	for (size_t i = 0; i < nops; i++) {
		op->ops[i].op = op;
		op->ops[i].index = i;
		use_link(&op->ops[i], operands[i]);
	}
	op->nres = nres;
	op->res = ttc_arena_alloc(m->arena, nres * sizeof(*op->res));
	for (size_t i = 0; i < nres; i++) {
		op->res[i].type = results[i];
		op->res[i].def = op;
		op->res[i].index = i;
	}
	op->props = props && props->len ? props : NULL;
	op->attrs = attrs && attrs->len ? attrs : NULL;
	op->loc = loc;
	return op;
}

const char *ttc_op_name(const ttc_op *op)
{
	return op ? op->name : NULL;
}

const struct ttc_op_def *ttc_op_get_def(const ttc_op *op)
{
	return op ? op->def : NULL;
}

ttc_func *ttc_op_func(const ttc_op *op)
{
	return op ? op->func : NULL;
}

ttc_op *ttc_op_next(const ttc_op *op)
{
	return op ? op->next : NULL;
}

ttc_op *ttc_op_prev(const ttc_op *op)
{
	return op ? op->prev : NULL;
}

size_t ttc_op_num_operands(const ttc_op *op)
{
	return op ? op->nops : 0;
}

ttc_value *ttc_op_operand(const ttc_op *op, size_t i)
{
	return op && i < op->nops ? op->ops[i].value : NULL;
}

size_t ttc_op_num_results(const ttc_op *op)
{
	return op ? op->nres : 0;
}

ttc_value *ttc_op_result(const ttc_op *op, size_t i)
{
	return op && i < op->nres ? &op->res[i] : NULL;
}

const ttc_attr *ttc_op_props(const ttc_op *op)
{
	return op ? op->props : NULL;
}

const ttc_attr *ttc_op_attrs(const ttc_op *op)
{
	return op ? op->attrs : NULL;
}

void ttc_op_set_props(ttc_op *op, const ttc_attr *dict)
{
	if (op && (!dict || dict->kind == TTC_ATTR_DICT))
		op->props = dict && dict->len ? dict : NULL;
}

void ttc_op_set_attrs(ttc_op *op, const ttc_attr *dict)
{
	if (op && (!dict || dict->kind == TTC_ATTR_DICT))
		op->attrs = dict && dict->len ? dict : NULL;
}

const ttc_attr *ttc_op_attr(const ttc_op *op, const char *name)
{
	const ttc_attr *a;

	if (!op || !name)
		return NULL;
	a = ttc_attr_dict_get(op->props, name);
	if (!a)
		a = ttc_attr_dict_get(op->attrs, name);
	if (a || !op->def)
		return a;
	for (unsigned i = 0; i < op->def->nattrs; i++)
		if (!strcmp(op->def->attrs[i].name, name))
			return ttc_attr_spec_default(op->m->ctx,
						     &op->def->attrs[i]);
	return NULL;
}

const ttc_loc *ttc_op_loc(const ttc_op *op)
{
	return op ? op->loc : NULL;
}

void ttc_op_set_loc(ttc_op *op, const ttc_loc *loc)
{
	if (op)
		op->loc = loc;
}

void ttc_op_source_pos(const ttc_op *op, unsigned *line, unsigned *col)
{
	if (line)
		*line = op ? op->line : 0;
	if (col)
		*col = op ? op->col : 0;
}

/* ---- values ---- */

const ttc_type *ttc_value_type(const ttc_value *v)
{
	return v ? v->type : NULL;
}

ttc_op *ttc_value_def(const ttc_value *v)
{
	return v ? v->def : NULL;
}

ttc_func *ttc_value_func_arg_owner(const ttc_value *v)
{
	return v ? v->arg_of : NULL;
}

size_t ttc_value_index(const ttc_value *v)
{
	return v ? v->index : 0;
}

ttc_use *ttc_value_first_use(const ttc_value *v)
{
	return v ? v->uses : NULL;
}

size_t ttc_value_num_uses(const ttc_value *v)
{
	return v ? v->nuses : 0;
}

ttc_use *ttc_use_next(const ttc_use *u)
{
	return u ? u->next : NULL;
}

ttc_op *ttc_use_op(const ttc_use *u)
{
	return u ? u->op : NULL;
}

size_t ttc_use_index(const ttc_use *u)
{
	return u ? u->index : 0;
}

/* ---- rewriting ---- */

static ttc_module *value_module(const ttc_value *v)
{
	return v->def ? v->def->m : v->arg_of->m;
}

int ttc_func_append(ttc_func *f, ttc_op *op)
{
	if (!f || !op || op->func)
		return -EINVAL;
	op->func = f;
	op->prev = f->last;
	op->next = NULL;
	if (f->last)
		f->last->next = op;
	else
		f->first = op;
	f->last = op;
	f->nops++;
	return 0;
}

int ttc_op_insert_before(ttc_op *pos, ttc_op *op)
{
	if (!pos || !op || !pos->func || op->func)
		return -EINVAL;
	ttc_func *f = pos->func;

	op->func = f;
	op->next = pos;
	op->prev = pos->prev;
	if (pos->prev)
		pos->prev->next = op;
	else
		f->first = op;
	pos->prev = op;
	f->nops++;
	return 0;
}

int ttc_op_insert_after(ttc_op *pos, ttc_op *op)
{
	if (!pos || !op || !pos->func || op->func)
		return -EINVAL;
	if (pos->next)
		return ttc_op_insert_before(pos->next, op);
	return ttc_func_append(pos->func, op);
}

void ttc_op_detach(ttc_op *op)
{
	if (!op || !op->func)
		return;
	ttc_func *f = op->func;

	if (op->prev)
		op->prev->next = op->next;
	else
		f->first = op->next;
	if (op->next)
		op->next->prev = op->prev;
	else
		f->last = op->prev;
	op->prev = op->next = NULL;
	op->func = NULL;
	f->nops--;
}

int ttc_op_erase(ttc_op *op)
{
	if (!op)
		return -EINVAL;
	for (size_t i = 0; i < op->nres; i++)
		if (op->res[i].nuses)
			return -EBUSY;
	ttc_op_detach(op);
	for (size_t i = 0; i < op->nops; i++)
		use_unlink(&op->ops[i]);
	op->nops = 0;
	return 0;
}

int ttc_op_set_operand(ttc_op *op, size_t i, ttc_value *v)
{
	if (!op || !v || i >= op->nops || value_module(v)->arena != op->m->arena)
		return -EINVAL;
	use_unlink(&op->ops[i]);
	use_link(&op->ops[i], v);
	return 0;
}

int ttc_op_remove_operand(ttc_op *op, size_t i)
{
	if (!op || i >= op->nops)
		return -EINVAL;
	/* Uses are linked by address: unlink those that move, then relink. */
	for (size_t k = i; k < op->nops; k++) {
		ttc_value *v = op->ops[k].value;

		use_unlink(&op->ops[k]);
		op->ops[k].value = v;
	}
	for (size_t k = i + 1; k < op->nops; k++) {
		ttc_value *v = op->ops[k].value;

		op->ops[k - 1].index = k - 1;
		op->ops[k - 1].value = NULL;
		use_link(&op->ops[k - 1], v);
	}
	op->nops--;
	op->ops[op->nops].value = NULL;
	return 0;
}

int ttc_value_replace_all_uses(ttc_value *from, ttc_value *to)
{
	if (!from || !to || from->type != to->type)
		return -EINVAL;
	if (from == to)
		return 0;
	while (from->uses) {
		ttc_use *u = from->uses;

		use_unlink(u);
		use_link(u, to);
	}
	return 0;
}

int ttc_func_erase_arg(ttc_func *f, size_t i)
{
	if (!f || i >= f->nargs || f->args[i].uses)
		return -EINVAL;
	/* The arguments are values in one array that uses point into: the
	 * later ones move down a slot with their uses. */
	for (size_t j = i; j + 1 < f->nargs; j++) {
		ttc_value *to = &f->args[j], *from = &f->args[j + 1];

		to->type = from->type;
		while (from->uses) {
			ttc_use *u = from->uses;

			use_unlink(u);
			use_link(u, to);
		}
		f->arg_attrs[j] = f->arg_attrs[j + 1];
		f->arg_locs[j] = f->arg_locs[j + 1];
	}
	f->nargs--;
	return 0;
}

ttc_op *ttc_op_clone(const ttc_op *op, ttc_value *const *operands,
		     size_t nops)
{
	if (!op)
		return NULL;
	ttc_value **ins = NULL;
	const ttc_type **types = ttc_xmalloc((op->nres + 1) * sizeof(*types));

	if (!operands) {
		ins = ttc_xmalloc((op->nops + 1) * sizeof(*ins));
		for (size_t i = 0; i < op->nops; i++)
			ins[i] = op->ops[i].value;
		operands = ins;
		nops = op->nops;
	}
	for (size_t i = 0; i < op->nres; i++)
		types[i] = op->res[i].type;
	ttc_op *c = ttc_op_create(op->m, op->name, operands, nops, types,
				  op->nres, op->props, op->attrs, op->loc);

	if (c) {
		c->line = op->line;
		c->col = op->col;
	}
	free(ins);
	free(types);
	return c;
}
