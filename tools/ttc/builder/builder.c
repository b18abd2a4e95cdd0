// SPDX-License-Identifier: Apache-2.0
/* The builder: modules, functions, and ttc_build, which makes any op
 * through the registry. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/ops.h"

#include "tools/ttc/ir/internal.h"

#include "internal.h"

static void *berr(ttc_builder *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void *berr(ttc_builder *b, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (b)
		ttc_diag_addf(b->ctx, "%s", msg);
	return NULL;
}

ttc_builder *ttc_builder_new(ttc_ctx *ctx, const char *sym_name)
{
	if (!ctx || ttc_register_ttir_ops(ctx))
		return NULL;
	ttc_builder *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->ctx = ctx;
	b->top = b->cur = ttc_module_new(ctx, sym_name);
	if (!b->top) {
		free(b);
		return NULL;
	}
	return b;
}

void ttc_builder_free(ttc_builder *b)
{
	if (!b)
		return;
	ttc_builder_free_data(b);
	ttc_module_free(b->top);
	free(b);
}

ttc_ctx *ttc_builder_ctx(const ttc_builder *b)
{
	return b ? b->ctx : NULL;
}

ttc_module *ttc_builder_module(const ttc_builder *b)
{
	return b ? b->top : NULL;
}

ttc_module *ttc_builder_take_module(ttc_builder *b)
{
	ttc_module *m = b ? b->top : NULL;

	if (b)
		b->top = b->cur = NULL;
	return m;
}

const ttc_type *ttc_builder_tensor(ttc_builder *b, enum ttc_float_kind elem,
				   unsigned rank, ...)
{
	int64_t dims[TTC_MAX_RANK];
	va_list ap;

	if (!b || rank > TTC_MAX_RANK)
		return NULL;
	va_start(ap, rank);
	for (unsigned i = 0; i < rank; i++)
		dims[i] = va_arg(ap, int);
	va_end(ap);
	return ttc_tensor_type(b->ctx, dims, rank,
			       ttc_float_type(b->ctx, elem), NULL);
}

ttc_func *ttc_builder_func(ttc_builder *b, const char *name,
			   const ttc_type *const *args, size_t nargs,
			   ttc_value **args_out)
{
	if (!b || !b->cur || !name)
		return NULL;
	if (b->nopen == TTC_BUILDER_MAX_NEST)
		return berr(b, "builder: more than %d functions open at once",
			    TTC_BUILDER_MAX_NEST);
	if (ttc_module_lookup(b->cur, name))
		return berr(b, "builder: function '%s' exists", name);
	ttc_func *f = ttc_func_new(b->cur, name, args, nargs, NULL, 0);

	if (!f)
		return berr(b, "builder: function '%s': bad argument types",
			    name);
	/* A function opened inside another is its helper, as tt-mlir's
	 * builder makes nested Python functions private. */
	if (b->nopen)
		ttc_func_set_visibility(f, TTC_VIS_PRIVATE);
	for (size_t i = 0; args_out && i < nargs; i++)
		args_out[i] = ttc_func_arg(f, i);
	b->open[b->nopen++] = f;
	return f;
}

int ttc_builder_return(ttc_builder *b, ttc_value *const *outs, size_t n)
{
	const ttc_type *types[64];

	if (!b || !b->nopen || n > 64 || (n && !outs)) {
		berr(b, "builder: return without an open function");
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		if (!outs[i]) {
			berr(b, "builder: output #%zu is NULL (an op before "
				"failed)", i);
			return -EINVAL;
		}
		types[i] = ttc_value_type(outs[i]);
	}
	ttc_func *f = b->open[b->nopen - 1];
	ttc_op *ret = ttc_op_create(b->cur, "func.return", outs, n, NULL, 0,
				    NULL, NULL, b->loc);

	if (!ret || ttc_func_append(f, ret))
		return -EINVAL;
	ttc_func_set_result_types(f, types, n);
	ttc_builder_reset_next(b);
	b->nopen--;
	return 0;
}

int ttc_builder_call(ttc_builder *b, const char *callee,
		     ttc_value *const *args, size_t nargs, ttc_value **outs)
{
	ttc_func *g = b && callee ? ttc_module_lookup(b->cur, callee) : NULL;
	const ttc_type *types[64];

	if (!g || !b->nopen || ttc_func_num_results(g) > 64) {
		berr(b, "builder: call of '%s': %s", callee ? callee : "?",
		     !g ? "no such function" :
		     b->nopen ? "more than 64 results" : "no open function");
		return -EINVAL;
	}
	size_t nres = ttc_func_num_results(g);

	for (size_t i = 0; i < nres && i < 64; i++)
		types[i] = ttc_func_result_type(g, i);
	struct ttc_named_attr e = { "callee", ttc_symref_attr(b->ctx, callee) };
	ttc_op *op = ttc_op_create(b->cur, "func.call", args, nargs, types,
				   nres, ttc_dict_attr(b->ctx, &e, 1), NULL,
				   b->loc);

	ttc_builder_reset_next(b);
	if (!op || ttc_op_verify(op) || ttc_func_append(b->open[b->nopen - 1],
							 op))
		return -EINVAL;
	if (ttc_builder_run_golden(b, op)) {
		ttc_op_detach(op);
		ttc_op_erase(op);
		return -EINVAL;
	}
	for (size_t i = 0; outs && i < nres; i++)
		outs[i] = ttc_op_result(op, i);
	return 0;
}

int ttc_builder_device_module(ttc_builder *b)
{
	if (!b || !b->top || b->cur != b->top || b->nopen)
		return -EINVAL;
	ttc_module *dev = ttc_module_new_nested(b->top, NULL,
						"ttcore.device_module");

	b->cur = dev ? ttc_module_new_nested(dev, NULL, NULL) : NULL;
	if (!b->cur) {
		b->cur = b->top;
		return -ENOMEM;
	}
	return 0;
}

int ttc_builder_end_module(ttc_builder *b)
{
	if (!b || !b->top || b->cur == b->top || b->nopen)
		return -EINVAL;
	b->cur = b->top;
	return 0;
}
