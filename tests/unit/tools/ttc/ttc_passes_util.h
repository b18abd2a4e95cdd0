/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers of the pass suites: modules from text, one pass run, goldens
 * before and after a pass. */
#ifndef TTC_PASSES_UTIL_H
#define TTC_PASSES_UTIL_H

#include <errno.h>
#include <math.h>

#include "ttc/golden.h"
#include "ttc/passes.h"

#include "ttc_testutil.h"

/* A module of one function @f(args) -> ret { body }. */
#define MOD(args, ret, body) \
	"module {\nfunc.func @f(" args ") -> " ret " {\n" body "}\n}\n"

static inline ttc_module *parse_ok(ttc_ctx *ctx, const char *text)
{
	ttc_module *m = parse_str(ctx, text, TTC_PARSE_ALLOW_UNREGISTERED);

	if (!m)
		fail_msg("%s\n%s", ttc_ctx_error(ctx), text);
	if (ttc_module_verify(m))
		fail_msg("%s\n%s", ttc_ctx_error(ctx), text);
	return m;
}

/* Runs one pass, verifying after it. */
static inline int run_pass(ttc_module *m, const char *name,
			   struct ttc_pass_options *o,
			   struct ttc_pass_stats *st)
{
	struct ttc_pass_options d = ttc_pass_options_default();
	const char *names[] = { name };

	if (!o)
		o = &d;
	o->verify_each = true;
	return ttc_run_passes(m, names, 1, o, st);
}

static inline size_t count_ops(ttc_module *m, const char *name)
{
	ttc_func *f = ttc_module_lookup(m, "f");
	size_t n = 0;

	for (ttc_op *op = ttc_func_first_op(f); op; op = ttc_op_next(op))
		n += !strcmp(ttc_op_name(op), name);
	return n;
}

/* The first op named name in @f. */
static inline ttc_op *find_op(ttc_module *m, const char *name)
{
	ttc_func *f = ttc_module_lookup(m, "f");

	for (ttc_op *op = ttc_func_first_op(f); op; op = ttc_op_next(op))
		if (!strcmp(ttc_op_name(op), name))
			return op;
	return NULL;
}

/* A string attribute of op, or "" */
static inline const char *str_attr(const ttc_op *op, const char *name)
{
	const ttc_attr *a = op ? ttc_op_attr(op, name) : NULL;
	const char *s = a ? ttc_attr_str(a, NULL) : NULL;

	return s ? s : "";
}

/* Seeded arguments of f; every fifth element of each is 0 (where
 * rewrites have their edge cases). */
static inline void make_args(ttc_ctx *ctx, ttc_func *f, ttc_tensor **args)
{
	for (size_t i = 0; i < ttc_func_num_args(f); i++) {
		args[i] = ttc_tensor_random(ctx,
					    ttc_value_type(ttc_func_arg(f, i)),
					    1234 + i);
		assert_non_null(args[i]);
		for (size_t k = 0; k < args[i]->numel; k += 5)
			ttc_tensor_set(args[i], k, 0);
	}
}

static inline void run_golden(ttc_ctx *ctx, ttc_func *f, ttc_tensor **args,
			      ttc_tensor **res)
{
	if (ttc_golden_run(f, args, ttc_func_num_args(f), res, NULL))
		fail_msg("golden: %s", ttc_ctx_error(ctx));
}

/*
 * Runs pass over text's @f and checks the goldens agree before and
 * after on seeded inputs: bit for bit (exact) or PCC >= 0.9999. gone:
 * an op that must no longer be there (or NULL). Returns the pass's
 * count in stats (st may be NULL).
 */
static inline void check_equiv(const char *text, const char *pass,
			       const char *gone, bool exact,
			       struct ttc_pass_options *o,
			       struct ttc_pass_stats *st)
{
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_ok(ctx, text);
	ttc_func *f = ttc_module_lookup(m, "f");
	size_t na = ttc_func_num_args(f), nr = ttc_func_num_results(f);
	ttc_tensor *args[8] = { 0 }, *before[4] = { 0 }, *after[4] = { 0 };

	assert_true(na <= 8 && nr <= 4);
	make_args(ctx, f, args);
	run_golden(ctx, f, args, before);
	if (run_pass(m, pass, o, st))
		fail_msg("%s: %s", pass, ttc_ctx_error(ctx));
	if (gone && count_ops(m, gone)) {
		char *s = ttc_print(m, 0, NULL);

		fail_msg("%s still there after %s:\n%s", gone, pass, s);
	}
	run_golden(ctx, f, args, after);
	for (size_t i = 0; i < nr; i++) {
		assert_ptr_equal(before[i]->type, after[i]->type);
		if (exact) {
			size_t b = before[i]->numel *
				   ttc_type_elem_bytes(
					   ttc_type_elem(before[i]->type));

			if (memcmp(before[i]->data, after[i]->data, b))
				fail_msg("%s: result %zu differs", pass, i);
		} else {
			struct ttc_compare_want w = ttc_compare_defaults();
			struct ttc_compare c;

			assert_int_equal(ttc_compare_tensors(before[i],
							     after[i], &w, &c),
					 0);
			if (!(c.pcc >= 0.9999))
				fail_msg("%s: result %zu pcc %f", pass, i,
					 c.pcc);
		}
		ttc_tensor_free(before[i]);
		ttc_tensor_free(after[i]);
	}
	for (size_t i = 0; i < na; i++)
		ttc_tensor_free(args[i]);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

#endif /* TTC_PASSES_UTIL_H */
