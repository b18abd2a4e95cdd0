// SPDX-License-Identifier: Apache-2.0
/*
 * canonicalize: folds identities to a fixed point with a worklist. An op
 * folds to one of its inputs (x + 0, x - 0, x * 1, x / 1, a reshape or
 * typecast to the same type, a transpose of a dimension with itself, an
 * identity permutation, a transpose undone by the same transpose), or is
 * rewritten in place (a reshape of a reshape reads the first one's input;
 * a permutation of a permutation becomes one). Then whatever used it is
 * looked at again, and a producer left unused is removed.
 *
 * x + 0 gives +0 where x is -0; nothing else the goldens compute changes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct worklist {
	ttc_op **v;
	size_t n, cap;
};

static void push(struct worklist *w, ttc_op *op)
{
	if (!op)
		return;
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->v = ttc_xrealloc(w->v, w->cap * sizeof(*w->v));
	}
	w->v[w->n++] = op;
}

static void push_users(struct worklist *w, ttc_value *v)
{
	for (ttc_use *u = ttc_value_first_use(v); u; u = ttc_use_next(u))
		push(w, ttc_use_op(u));
}

static bool is(const ttc_op *op, const char *name)
{
	return op && !strcmp(ttc_op_name(op), name);
}

static const ttc_type *rtype(const ttc_op *op)
{
	return ttc_value_type(ttc_op_result(op, 0));
}

/* The operand i if it has the result's type (so it can stand for it). */
static ttc_value *operand_if_same(const ttc_op *op, size_t i)
{
	ttc_value *v = ttc_op_operand(op, i);

	return ttc_value_type(v) == rtype(op) ? v : NULL;
}

static ttc_value *fold_arith(const ttc_op *op)
{
	ttc_value *l = ttc_op_operand(op, 0), *r = ttc_op_operand(op, 1);

	if ((is(op, "ttir.add") || is(op, "ttir.subtract")) &&
	    pass_value_is_splat(r, 0))
		return operand_if_same(op, 0);
	if (is(op, "ttir.add") && pass_value_is_splat(l, 0))
		return operand_if_same(op, 1);
	if ((is(op, "ttir.multiply") || is(op, "ttir.div")) &&
	    pass_value_is_splat(r, 1))
		return operand_if_same(op, 0);
	if (is(op, "ttir.multiply") && pass_value_is_splat(l, 1))
		return operand_if_same(op, 1);
	return NULL;
}

static int64_t norm_dim(int64_t d, unsigned rank)
{
	return d < 0 ? d + (int64_t)rank : d;
}

static bool transpose_pair(const ttc_op *op, int64_t *a, int64_t *b)
{
	unsigned r = ttc_type_rank(rtype(op));
	const ttc_attr *d0 = ttc_op_attr(op, "dim0"), *d1 = ttc_op_attr(op,
									"dim1");

	if (!d0 || !d1)
		return false;
	*a = norm_dim(ttc_attr_int(d0), r);
	*b = norm_dim(ttc_attr_int(d1), r);
	return true;
}

static ttc_value *fold_transpose(const ttc_op *op)
{
	int64_t a, b, c, d;
	ttc_op *in = ttc_value_def(ttc_op_operand(op, 0));

	if (!transpose_pair(op, &a, &b))
		return NULL;
	if (a == b)
		return operand_if_same(op, 0);
	if (is(in, "ttir.transpose") && transpose_pair(in, &c, &d) &&
	    ((a == c && b == d) || (a == d && b == c)))
		return ttc_value_type(ttc_op_operand(in, 0)) == rtype(op) ?
			       ttc_op_operand(in, 0) :
			       NULL;
	return NULL;
}

static int perm_of(const ttc_op *op, int64_t *p)
{
	const ttc_attr *a = ttc_op_attr(op, "permutation");

	return a ? ttc_attr_ints(a, p, TTC_MAX_RANK) : -EINVAL;
}

static bool identity(const int64_t *p, int n)
{
	for (int i = 0; i < n; i++)
		if (p[i] != i)
			return false;
	return true;
}

/* permute(permute(x, p), q) is permute(x, p[q[i]]): rewritten in place. */
static ttc_value *fold_permute(ttc_op *op, bool *changed)
{
	int64_t q[TTC_MAX_RANK], p[TTC_MAX_RANK], pq[TTC_MAX_RANK];
	int n = perm_of(op, q), m;
	ttc_op *in = ttc_value_def(ttc_op_operand(op, 0));

	if (n < 0)
		return NULL;
	if (identity(q, n))
		return operand_if_same(op, 0);
	if (!is(in, "ttir.permute") || (m = perm_of(in, p)) != n)
		return NULL;
	for (int i = 0; i < n; i++) {
		if (q[i] < 0 || q[i] >= n)
			return NULL;
		pq[i] = p[q[i]];
	}
	ttc_ctx *ctx = ttc_module_ctx(ttc_func_module(ttc_op_func(op)));

	ttc_op_set_operand(op, 0, ttc_op_operand(in, 0));
	ttc_op_set_props(op, ttc_attr_dict_set(ctx, ttc_op_props(op),
					       "permutation",
					       pass_i64_array(ctx, pq, n)));
	*changed = true;
	return identity(pq, n) ? operand_if_same(op, 0) : NULL;
}

static ttc_value *fold(ttc_op *op, bool *changed)
{
	ttc_op *in;

	*changed = false;
	if (ttc_op_num_results(op) != 1 || !ttc_op_num_operands(op))
		return NULL;
	if (ttc_op_num_operands(op) == 2)
		return fold_arith(op);
	if (ttc_op_num_operands(op) != 1)
		return NULL;
	if (is(op, "ttir.typecast"))
		return operand_if_same(op, 0);
	if (is(op, "ttir.transpose"))
		return fold_transpose(op);
	if (is(op, "ttir.permute"))
		return fold_permute(op, changed);
	if (!is(op, "ttir.reshape"))
		return NULL;
	if (operand_if_same(op, 0))
		return ttc_op_operand(op, 0);
	in = ttc_value_def(ttc_op_operand(op, 0));
	if (!is(in, "ttir.reshape"))
		return NULL;
	/* The outer shape is all that counts. */
	ttc_op_set_operand(op, 0, ttc_op_operand(in, 0));
	*changed = true;
	return operand_if_same(op, 0);
}

/* Removes op's producers that our rewrite left unused. */
static void drop_dead_inputs(ttc_op **ins, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		ttc_op *d = ins[i];

		if (d && ttc_op_func(d) && pass_op_is_pure(d) &&
		    ttc_op_num_results(d) == 1 &&
		    !ttc_value_num_uses(ttc_op_result(d, 0)))
			ttc_op_erase(d);
	}
}

static int visit(ttc_func *f, ttc_op *op, struct worklist *w,
		 struct ttc_pass_ctx *pc)
{
	ttc_op *ins[2] = { NULL, NULL };
	bool changed;
	ttc_value *to;
	int rc;

	if (ttc_op_func(op) != f)
		return 0; /* erased since it was pushed */
	for (size_t i = 0; i < 2 && i < ttc_op_num_operands(op); i++)
		ins[i] = ttc_value_def(ttc_op_operand(op, i));
	to = fold(op, &changed);
	if (!to && !changed)
		return 0;
	pc->stats->canonicalized++;
	if (!to) {
		push(w, op);
	} else {
		ttc_value *res = ttc_op_result(op, 0);

		push_users(w, res);
		if ((rc = ttc_value_replace_all_uses(res, to)) ||
		    (rc = ttc_op_erase(op)))
			return pass_fail(pc, op, rc, "cannot fold the op");
		push(w, ttc_value_def(to));
	}
	drop_dead_inputs(ins, 2);
	return 0;
}

static int run(ttc_func *f, struct ttc_pass_ctx *pc)
{
	struct worklist w = { 0 };
	int rc = 0;

	/* Pushed last to first: popped in program order. */
	for (ttc_op *op = ttc_func_last_op(f); op; op = ttc_op_prev(op))
		push(&w, op);
	while (w.n && !rc)
		rc = visit(f, w.v[--w.n], &w, pc);
	free(w.v);
	return rc;
}

const struct ttc_pass ttc_pass_canonicalize = {
	.name = "canonicalize",
	.summary = "folds identities (x + 0, x * 1, reshape to the same "
		   "shape, double transpose...)",
	.run = run,
};
