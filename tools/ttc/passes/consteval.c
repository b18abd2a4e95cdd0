// SPDX-License-Identifier: Apache-2.0
/*
 * consteval (enable_consteval): PyBuda's constant evaluation. An op whose
 * operands are all known at compile time (made by constant ops, or
 * function arguments marked #ttcore.argument_type<parameter> or
 * <constant> whose values the caller supplies through param_value) is run
 * on its golden now and replaced by a ttir.constant holding the result
 * (a dense attribute, hex form), which the image keeps. Ops with no
 * operands are constants already and an argument alone is never copied
 * into a constant; results over consteval_limit bytes stay computed at
 * run time (and so does everything computed from them).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Known values of one function: value -> tensor (open addressing). */
struct known {
	const ttc_value **key;
	ttc_tensor **val;
	bool *owned;
	size_t mask;
};

static size_t slot(const struct known *k, const ttc_value *v)
{
	size_t h = (size_t)(((uintptr_t)v >> 4) * 0x9E3779B97F4A7C15ull) &
		   k->mask;

	while (k->key[h] && k->key[h] != v)
		h = (h + 1) & k->mask;
	return h;
}

static const ttc_tensor *get(const struct known *k, const ttc_value *v)
{
	size_t h = slot(k, v);

	return k->key[h] ? k->val[h] : NULL;
}

static void put(struct known *k, const ttc_value *v, ttc_tensor *t,
		bool owned)
{
	size_t h = slot(k, v);

	k->key[h] = v;
	k->val[h] = t;
	k->owned[h] = owned;
}

static bool is_constant_op(const char *n)
{
	static const char *const names[] = {
		"ttir.constant", "ttir.full", "ttir.zeros", "ttir.ones",
		"ttir.arange", "pybuda.constant",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(n, names[i]))
			return true;
	return false;
}

/* Whether argument i is a parameter or a constant. */
static bool marked(const ttc_func *f, size_t i)
{
	const ttc_attr *d = ttc_func_arg_attrs(f, i);
	const ttc_attr *a = d ? ttc_attr_dict_get(d, "ttcore.argument_type") :
				NULL;
	const char *s;

	if (!a || ttc_attr_kind(a) != TTC_ATTR_OPAQUE ||
	    !(s = ttc_attr_str(a, NULL)))
		return false;
	return strstr(s, "argument_type<parameter>") ||
	       strstr(s, "argument_type<constant>");
}

static int known_args(ttc_func *f, struct ttc_pass_ctx *pc, struct known *k)
{
	if (!pc->param_value)
		return 0;
	for (size_t i = 0; i < ttc_func_num_args(f); i++) {
		ttc_value *a = ttc_func_arg(f, i);
		const ttc_tensor *t;

		if (!marked(f, i))
			continue;
		if (!(t = pc->param_value(pc->param_arg, f, i)))
			continue;
		if (t->type != ttc_value_type(a)) {
			char want[128], got[128];

			ttc_type_format(ttc_value_type(a), want, sizeof(want));
			ttc_type_format(t->type, got, sizeof(got));
			return pass_fail(pc, NULL, -EINVAL,
					 "@%s argument #%zu: the value given "
					 "is %s, the argument %s",
					 ttc_func_name(f), i, got, want);
		}
		put(k, a, (ttc_tensor *)t, false);
	}
	return 0;
}

static bool dense_type(const ttc_type *t)
{
	enum ttc_type_kind e;

	if (!ttc_type_is_tensor(t))
		return false;
	e = ttc_type_kind(ttc_type_elem(t));
	return e == TTC_TYPE_INT || e == TTC_TYPE_FLOAT;
}

/* Whether op can be folded: every operand known, a golden, one result
 * of dense storage within the limit. */
static bool foldable(const ttc_op *op, const struct known *k, size_t limit)
{
	size_t n = ttc_op_num_operands(op);
	const ttc_type *t;

	if (!n || ttc_op_num_results(op) != 1 || !pass_op_is_pure(op) ||
	    !ttc_golden_lookup(ttc_op_name(op)))
		return false;
	t = ttc_value_type(ttc_op_result(op, 0));
	if (!dense_type(t) ||
	    (size_t)ttc_type_numel(t) * ttc_type_elem_bytes(ttc_type_elem(t)) >
		    limit)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!get(k, ttc_op_operand(op, i)))
			return false;
	return true;
}

/* The value of a constant op, computed once. */
static int source(ttc_op *op, struct known *k, struct ttc_pass_ctx *pc)
{
	ttc_tensor *out = NULL;
	const ttc_type *t;

	if (ttc_op_num_results(op) != 1 || get(k, ttc_op_result(op, 0)))
		return 0;
	t = ttc_value_type(ttc_op_result(op, 0));
	if (!dense_type(t) || !ttc_golden_lookup(ttc_op_name(op)) ||
	    (size_t)ttc_type_numel(t) * ttc_type_elem_bytes(ttc_type_elem(t)) >
		    pc->opts->consteval_limit)
		return 0;
	/* A constant the goldens cannot read (a resource kept elsewhere)
	 * is simply not known: drop the golden's diagnostic. */
	size_t ndiags = pc->ctx->ndiags;

	if (ttc_golden_op(op, NULL, 0, &out, TT_FLOAT32)) {
		pc->ctx->ndiags = ndiags;
		return 0;
	}
	put(k, ttc_op_result(op, 0), out, true);
	return 0;
}

static int fold(ttc_op *op, struct known *k, struct ttc_pass_ctx *pc)
{
	size_t n = ttc_op_num_operands(op);
	ttc_tensor **in = calloc(n, sizeof(*in)), *out = NULL;
	ttc_ctx *ctx = pc->ctx;
	int rc;

	if (!in)
		return pass_fail(pc, op, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		in[i] = (ttc_tensor *)get(k, ttc_op_operand(op, i));
	rc = ttc_golden_op(op, in, n, &out, TT_FLOAT32);
	free(in);
	if (rc)
		return pass_fail(pc, op, rc, "cannot evaluate the op");
	const ttc_type *t = ttc_value_type(ttc_op_result(op, 0));
	size_t bytes = out->numel * ttc_type_elem_bytes(ttc_type_elem(t));
	const ttc_attr *v = ttc_dense_attr(ctx, t, out->data, bytes, false,
					   true);
	ttc_op *c = v ? pass_new_op(op, "ttir.constant", NULL, 0, t,
				    pass_dict1(ctx, "value", v)) :
			NULL;
	ttc_value *r;

	if (!c) {
		ttc_tensor_free(out);
		return pass_fail(pc, op, -ENOMEM, "cannot make the constant");
	}
	r = ttc_op_result(c, 0);
	if ((rc = pass_replace_op(op, &r))) {
		ttc_tensor_free(out);
		return pass_fail(pc, op, rc, "cannot replace the op");
	}
	put(k, r, out, true);
	pc->stats->folded++;
	return 0;
}

static int run(ttc_func *f, struct ttc_pass_ctx *pc)
{
	size_t cap = 16, need = 4 * (ttc_func_num_ops(f) +
				     ttc_func_num_args(f)) + 16;
	struct known k;
	ttc_op *op, *next;
	int rc;

	if (!pc->opts->enable_consteval)
		return 0;
	while (cap < need)
		cap *= 2;
	k.mask = cap - 1;
	k.key = calloc(cap, sizeof(*k.key));
	k.val = calloc(cap, sizeof(*k.val));
	k.owned = calloc(cap, sizeof(*k.owned));
	rc = k.key && k.val && k.owned ? known_args(f, pc, &k) :
		pass_fail(pc, NULL, -ENOMEM, "out of memory");
	for (op = ttc_func_first_op(f); op && !rc; op = next) {
		next = ttc_op_next(op);
		if (is_constant_op(ttc_op_name(op)))
			rc = source(op, &k, pc);
		else if (foldable(op, &k, pc->opts->consteval_limit))
			rc = fold(op, &k, pc);
	}
	for (size_t i = 0; k.key && k.val && k.owned && i < cap; i++)
		if (k.key[i] && k.owned[i])
			ttc_tensor_free(k.val[i]);
	free(k.key);
	free(k.val);
	free(k.owned);
	return rc;
}

const struct ttc_pass ttc_pass_consteval = {
	.name = "consteval",
	.summary = "evaluates at compile time what depends on parameters "
		   "and constants alone (enable_consteval)",
	.run = run,
};
