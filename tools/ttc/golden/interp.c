// SPDX-License-Identifier: Apache-2.0
/*
 * The interpreter: runs a function on the goldens, op by op in order
 * (the block is in SSA order, so every operand is ready). An op's results
 * are found by its position (a hash of op pointers gives it), and freed
 * after the last op that uses them, so a long function holds only the
 * tensors still to be used.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Tensors of one function's values: arguments then each op's results. */
struct frame {
	ttc_func *f;
	size_t nargs, nops;
	ttc_tensor **args;
	ttc_tensor ***res; /* res[op position][result] */
	ttc_op **ops;
	size_t *last;	   /* last[k]: the last position using op k's results */
	size_t *slot, mask; /* open addressing: op pointer -> position + 1 */
};

static size_t hash_ptr(const void *p, size_t mask)
{
	uintptr_t x = (uintptr_t)p;

	return (size_t)((x >> 4) * 0x9E3779B97F4A7C15ull) & mask;
}

static int index_ops(struct frame *fr)
{
	size_t cap = 16;

	while (cap < 2 * fr->nops)
		cap *= 2;
	fr->mask = cap - 1;
	fr->slot = calloc(cap, sizeof(*fr->slot));
	if (!fr->slot)
		return -ENOMEM;
	for (size_t k = 0; k < fr->nops; k++) {
		size_t h = hash_ptr(fr->ops[k], fr->mask);

		while (fr->slot[h])
			h = (h + 1) & fr->mask;
		fr->slot[h] = k + 1;
	}
	return 0;
}

/* The position of op in the function (it is there: SSA holds). */
static size_t position(const struct frame *fr, const ttc_op *op)
{
	size_t h = hash_ptr(op, fr->mask);

	while (fr->slot[h] && fr->ops[fr->slot[h] - 1] != op)
		h = (h + 1) & fr->mask;
	return fr->slot[h] ? fr->slot[h] - 1 : SIZE_MAX;
}

static ttc_tensor *value_tensor(const struct frame *fr, const ttc_value *v)
{
	ttc_op *def = ttc_value_def(v);

	if (!def)
		return fr->args[ttc_value_index(v)];
	size_t k = position(fr, def);

	return k == SIZE_MAX || !fr->res[k] ? NULL :
					      fr->res[k][ttc_value_index(v)];
}

/* last[k] for every op: where its results are used for the last time
 * (its own position when they are not used). */
static void last_uses(struct frame *fr)
{
	for (size_t k = 0; k < fr->nops; k++) {
		ttc_op *op = fr->ops[k];

		fr->last[k] = k;
		for (size_t r = 0; r < ttc_op_num_results(op); r++)
			for (ttc_use *u = ttc_value_first_use(ttc_op_result(op, r));
			     u; u = ttc_use_next(u)) {
				size_t p = position(fr, ttc_use_op(u));

				if (p != SIZE_MAX && p > fr->last[k])
					fr->last[k] = p;
			}
	}
}

static void free_results(struct frame *fr, size_t k)
{
	if (!fr->res[k])
		return;
	for (size_t j = 0; j < ttc_op_num_results(fr->ops[k]); j++)
		ttc_tensor_free(fr->res[k][j]);
	free(fr->res[k]);
	fr->res[k] = NULL;
}

/* After op k ran: free what no later op needs. */
static void release(struct frame *fr, size_t k)
{
	ttc_op *op = fr->ops[k];

	if (fr->last[k] == k)
		free_results(fr, k);
	for (size_t i = 0; i < ttc_op_num_operands(op); i++) {
		ttc_op *def = ttc_value_def(ttc_op_operand(op, i));
		size_t p = def ? position(fr, def) : SIZE_MAX;

		if (p != SIZE_MAX && fr->last[p] == k)
			free_results(fr, p);
	}
}

static bool same_type(const ttc_type *a, const ttc_type *b)
{
	if (a->rank != b->rank || a->elem != b->elem)
		return false;
	for (unsigned i = 0; i < a->rank; i++)
		if (a->dims[i] != b->dims[i])
			return false;
	return true;
}

static int check_args(ttc_func *f, ttc_tensor *const *args, size_t nargs)
{
	ttc_ctx *ctx = ttc_module_ctx(ttc_func_module(f));
	char want[256], got[256];

	if (nargs != ttc_func_num_args(f)) {
		ttc_func_error(f, "@%s takes %zu arguments, %zu given",
			       ttc_func_name(f), ttc_func_num_args(f), nargs);
		return -EINVAL;
	}
	for (size_t i = 0; i < nargs; i++) {
		const ttc_type *t = ttc_value_type(ttc_func_arg(f, i));

		if (args[i] && same_type(args[i]->type, t))
			continue;
		ttc_type_format(t, want, sizeof(want));
		if (args[i])
			ttc_type_format(args[i]->type, got, sizeof(got));
		ttc_diag_addf(ctx, "argument #%zu of @%s must be %s, "
				   "got %s", i, ttc_func_name(f), want,
			      args[i] ? got : "nothing");
		return -EINVAL;
	}
	return 0;
}

static void frame_free(struct frame *fr)
{
	for (size_t i = 0; i < fr->nops && fr->res; i++)
		free_results(fr, i);
	free(fr->res);
	free(fr->ops);
	free(fr->last);
	free(fr->slot);
}

static int run_call(const ttc_op *op, ttc_tensor **in, size_t nin,
		    ttc_tensor **out, const struct ttc_golden_opts *o);

static int run_op(struct frame *fr, size_t k,
		  const struct ttc_golden_opts *o)
{
	ttc_op *op = fr->ops[k];
	size_t nin = ttc_op_num_operands(op), nres = ttc_op_num_results(op);
	ttc_tensor **in = calloc(nin + 1, sizeof(*in));
	int rc = 0;

	fr->res[k] = calloc(nres + 1, sizeof(ttc_tensor *));
	if (!in || !fr->res[k]) {
		free(in);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nin; i++)
		in[i] = value_tensor(fr, ttc_op_operand(op, i));
	if (!strcmp(ttc_op_name(op), "func.call"))
		rc = run_call(op, in, nin, fr->res[k], o);
	else
		rc = ttc_golden_op(op, in, nin, fr->res[k], o->fmt);
	free(in);
	for (size_t i = 0; !rc && o->visit && i < nres; i++)
		rc = o->visit(o->visit_arg, op, i, fr->res[k][i]);
	return rc;
}

static int collect(struct frame *fr, ttc_op *ret, ttc_tensor **results)
{
	size_t n = ttc_op_num_operands(ret);

	for (size_t i = 0; i < n; i++) {
		results[i] = ttc_tensor_clone(value_tensor(fr,
						ttc_op_operand(ret, i)));
		if (!results[i]) {
			while (i--)
				ttc_tensor_free(results[i]);
			return -ENOMEM;
		}
	}
	return 0;
}

static int run_func(ttc_func *f, ttc_tensor *const *args, size_t nargs,
		    ttc_tensor **results, const struct ttc_golden_opts *o)
{
	struct frame fr = { .f = f, .nargs = nargs,
			    .args = (ttc_tensor **)args,
			    .nops = ttc_func_num_ops(f) };
	int rc = 0;

	if (ttc_func_is_declaration(f)) {
		ttc_func_error(f, "@%s is a declaration: it has no body to run",
			       ttc_func_name(f));
		return -EINVAL;
	}
	fr.ops = calloc(fr.nops + 1, sizeof(*fr.ops));
	fr.res = calloc(fr.nops + 1, sizeof(*fr.res));
	fr.last = calloc(fr.nops + 1, sizeof(*fr.last));
	size_t k = 0;

	for (ttc_op *op = fr.ops ? ttc_func_first_op(f) : NULL; op;
	     op = ttc_op_next(op))
		fr.ops[k++] = op;
	if (!fr.ops || !fr.res || !fr.last || index_ops(&fr)) {
		frame_free(&fr);
		return -ENOMEM;
	}
	last_uses(&fr);
	/* The last op is func.return: collect reads its operands. */
	for (k = 0; !rc && k + 1 < fr.nops; k++) {
		rc = run_op(&fr, k, o);
		if (!rc)
			release(&fr, k);
	}
	if (!rc)
		rc = collect(&fr, fr.ops[fr.nops - 1], results);
	frame_free(&fr);
	return rc;
}

static int run_call(const ttc_op *op, ttc_tensor **in, size_t nin,
		    ttc_tensor **out, const struct ttc_golden_opts *o)
{
	const ttc_attr *callee = ttc_op_attr(op, "callee");
	ttc_module *m = ttc_func_module(ttc_op_func(op));
	ttc_func *f = NULL;

	for (; m && !f; m = ttc_module_parent(m))
		f = ttc_module_lookup(m, ttc_attr_str(callee, NULL));
	if (!f) {
		ttc_op_error(op, "'%s' op callee not found",
			     ttc_op_name(op));
		return -EINVAL;
	}
	/* The visitor sees the caller's values; the callee's are its own. */
	struct ttc_golden_opts inner = *o;

	inner.visit = NULL;
	return run_func(f, in, nin, out, &inner);
}

int ttc_golden_run(ttc_func *f, ttc_tensor *const *args, size_t nargs,
		   ttc_tensor **results, const struct ttc_golden_opts *opts)
{
	struct ttc_golden_opts o = { .fmt = TT_FLOAT32 };

	if (!f || (nargs && !args) || !results)
		return -EINVAL;
	if (opts)
		o = *opts;
	int rc = check_args(f, args, nargs);

	return rc ? rc : run_func(f, args, nargs, results, &o);
}
