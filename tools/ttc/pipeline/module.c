// SPDX-License-Identifier: Apache-2.0
/*
 * Modules (PyBuda's PyBudaModule): a function of a TTIR module, its
 * inputs (the arguments not marked parameter or constant) and the values
 * of its parameters, from a table by argument or from a provider.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/internal.h"
#include "internal.h"
#include "ttc/onnx.h"
#include "ttc/ops.h"
#include "ttc/text.h"

bool pl_is_param(ttc_func *f, size_t i)
{
	const ttc_attr *d = ttc_func_arg_attrs(f, i);
	const ttc_attr *a =
		d ? ttc_attr_dict_get(d, "ttcore.argument_type") : NULL;
	const char *s = a ? ttc_attr_str(a, NULL) : NULL;

	return s && (strstr(s, "<parameter>") || strstr(s, "<constant>"));
}

static const char *loc_name(const ttc_loc *l)
{
	return l && ttc_loc_kind(l) == TTC_LOC_NAME ? ttc_loc_str(l) : NULL;
}

const char *pl_arg_name(ttc_func *f, size_t i)
{
	return loc_name(ttc_func_arg_loc(f, i));
}

const char *pl_op_name(const ttc_op *op)
{
	return loc_name(ttc_op_loc(op));
}

/* Whether name names argument i: its location, "argN" or "N". */
static bool names_arg(ttc_func *f, size_t i, const char *name)
{
	const char *l = pl_arg_name(f, i);
	char buf[32];

	snprintf(buf, sizeof(buf), "%zu", i);
	if (!strcmp(name, buf))
		return true;
	snprintf(buf, sizeof(buf), "arg%zu", i);
	return !strcmp(name, buf) || (l && !strcmp(l, name));
}

static int find_inputs(ttc_pymodule *mod)
{
	size_t n = ttc_func_num_args(mod->f);

	mod->in_args = calloc(n + 1, sizeof(*mod->in_args));
	mod->values = calloc(n + 1, sizeof(*mod->values));
	if (!mod->in_args || !mod->values)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!pl_is_param(mod->f, i))
			mod->in_args[mod->nin++] = i;
	mod->nout = ttc_func_num_results(mod->f);
	return 0;
}

ttc_pymodule *ttc_pymodule_new_from_func(const char *name, ttc_module *m,
					 ttc_func *f)
{
	ttc_pymodule *mod;

	if (!name || !m || !f || ttc_func_is_declaration(f))
		return NULL;
	mod = calloc(1, sizeof(*mod));
	if (!mod)
		return NULL;
	mod->name = strdup(name);
	mod->m = m;
	mod->f = f;
	if (!mod->name || find_inputs(mod)) {
		ttc_pymodule_free(mod);
		return NULL;
	}
	return mod;
}

static ttc_func *first_func(ttc_module *m)
{
	for (size_t i = 0; i < ttc_module_num_items(m); i++) {
		ttc_func *f = ttc_module_item_func(m, i);
		ttc_module *sub = ttc_module_item_module(m, i);

		if (f && !ttc_func_is_declaration(f))
			return f;
		if (sub && (f = first_func(sub)))
			return f;
	}
	return NULL;
}

ttc_pymodule *ttc_pymodule_new_from_file(ttc_ctx *ctx, const char *name,
					 const char *path, const char *func)
{
	ttc_ctx *own = ttc_ctx_new_ttir();
	ttc_module *m = own ? ttc_parse_file(own, path, 0) : NULL;
	ttc_func *f = NULL;
	ttc_pymodule *mod = NULL;
	int vr = m ? ttc_module_verify(m) : -1;

	if (!vr)
		f = func ? ttc_module_lookup(m, func) : first_func(m);
	if (f)
		mod = ttc_pymodule_new_from_func(name, m, f);
	if (!mod) {
		if (ctx)
			ttc_diag_addf(ctx, "%s: %s", path,
				      !own	  ? "out of memory"
				      : !vr && !f ? "no such function"
						  : ttc_ctx_error(own));
		ttc_module_free(m);
		ttc_ctx_free(own);
		return NULL;
	}
	mod->own_ctx = own;
	mod->own_m = m;
	return mod;
}

ttc_pymodule *ttc_pymodule_new_from_onnx(ttc_ctx *ctx, const char *name,
					 const char *path,
					 const struct ttc_onnx_options *o)
{
	ttc_ctx *own = ttc_ctx_new_ttir();
	ttc_onnx_model *om = NULL;
	ttc_pymodule *mod = NULL;

	if (own && !ttc_onnx_import(own, path, o, &om))
		mod = ttc_pymodule_new_from_func(name, ttc_onnx_module(om),
						 ttc_onnx_func(om));
	if (!mod) {
		if (ctx)
			ttc_diag_addf(ctx, "%s: %s", path,
				      own ? ttc_ctx_error(own) : "out of memory");
		ttc_onnx_model_free(om);
		ttc_ctx_free(own);
		return NULL;
	}
	/* the initializers give the parameters' values */
	ttc_pymodule_set_param_fn(mod, ttc_onnx_param, om);
	mod->own_ctx = own;
	mod->own_onnx = om;
	return mod;
}

void ttc_pymodule_free(ttc_pymodule *mod)
{
	if (!mod)
		return;
	for (size_t i = 0; mod->values && i < ttc_func_num_args(mod->f); i++)
		ttc_tensor_free(mod->values[i]);
	free(mod->values);
	free(mod->in_args);
	tt_model_free(mod->model);
	if (mod->temp_image)
		remove(mod->image);
	ttc_ctx_free(mod->cctx);
	ttc_module_free(mod->own_m);
	ttc_onnx_model_free(mod->own_onnx);
	ttc_ctx_free(mod->own_ctx);
	free(mod->name);
	free(mod);
}

int ttc_pymodule_set_param(ttc_pymodule *mod, const char *arg,
			   const ttc_tensor *value)
{
	if (!mod || !arg || !value)
		return -EINVAL;
	for (size_t i = 0; i < ttc_func_num_args(mod->f); i++) {
		ttc_tensor *copy;

		if (!pl_is_param(mod->f, i) || !names_arg(mod->f, i, arg))
			continue;
		copy = ttc_tensor_clone(value);
		if (!copy)
			return -ENOMEM;
		ttc_tensor_free(mod->values[i]);
		mod->values[i] = copy;
		return 0;
	}
	return -ENOENT;
}

void ttc_pymodule_set_param_fn(ttc_pymodule *mod, ttc_param_fn fn, void *arg)
{
	mod->param = fn;
	mod->param_arg = arg;
}

const ttc_tensor *pl_module_value(ttc_pymodule *mod, size_t i)
{
	if (mod->values[i])
		return mod->values[i];
	return mod->param ? mod->param(mod->param_arg, mod->f, i) : NULL;
}
