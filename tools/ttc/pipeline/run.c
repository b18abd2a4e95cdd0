// SPDX-License-Identifier: Apache-2.0
/*
 * One module run on host tensors: a CPU device's on the goldens
 * (ttc_golden_run), a TT device's on its loaded model (tt_model_run, or
 * tt_model_run_each when intermediates are saved: each op's result is
 * read back and the named ones kept).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static struct saved *saved_of(ttc_pipeline *p, const char *op)
{
	for (size_t i = 0; op && i < p->nsaved; i++)
		if (!strcmp(p->saved[i].op, op))
			return &p->saved[i];
	return NULL;
}

int pl_saved_keep(struct saved *s, ttc_tensor *t)
{
	ttc_tensor **copy;

	ttc_tensor_free(s->t);
	s->t = t;
	if (!s->tap)
		return 0;
	copy = calloc(1, sizeof(*copy));
	if (copy)
		*copy = ttc_tensor_clone(t);
	if (!copy || !*copy || pl_queue_push(s->tap, copy, 1)) {
		if (copy)
			ttc_tensor_free(*copy);
		free(copy);
		return -ENOMEM;
	}
	return 0;
}

/* ---- CPU ---- */

static int cpu_visit(void *arg, const ttc_op *op, size_t result,
		     const ttc_tensor *t)
{
	struct saved *s = saved_of(arg, pl_op_name(op));
	ttc_tensor *copy;

	if (!s || result)
		return 0;
	copy = ttc_tensor_clone(t);
	if (!copy)
		return -ENOMEM;
	return pl_saved_keep(s, copy);
}

/* t as a tensor of type (same elements, in order), or t itself. */
static ttc_tensor *as_type(ttc_ctx *ctx, ttc_tensor *t, const ttc_type *type)
{
	ttc_tensor *c;

	if (t->type == type)
		return t;
	c = ttc_tensor_new(ctx, type);
	if (!c || c->numel != t->numel) {
		ttc_tensor_free(c);
		return NULL;
	}
	for (size_t i = 0; i < t->numel; i++)
		ttc_tensor_set(c, i, ttc_tensor_get(t, i));
	return c;
}

static int run_cpu(ttc_pipeline *p, ttc_pymodule *mod, ttc_tensor *const *in,
		   ttc_tensor **out)
{
	size_t n = ttc_func_num_args(mod->f);
	ttc_tensor **args = calloc(n + 1, sizeof(*args));
	bool *own = calloc(n + 1, sizeof(*own));
	struct ttc_golden_opts o = {TT_FLOAT32, p->nsaved ? cpu_visit : NULL,
				    p};
	ttc_ctx *ctx = ttc_module_ctx(mod->m);
	int ret = args && own ? 0 : -ENOMEM;

	for (size_t j = 0; !ret && j < mod->nin; j++) {
		size_t a = mod->in_args[j];

		args[a] = as_type(ctx, in[j],
				  ttc_value_type(ttc_func_arg(mod->f, a)));
		own[a] = args[a] != in[j];
		if (!args[a])
			ret = -ENOMEM;
	}
	/* Parameters too: the caller's may have types of another context. */
	for (size_t a = 0; !ret && a < n; a++) {
		ttc_tensor *v = (ttc_tensor *)pl_module_value(mod, a);

		if (args[a])
			continue;
		args[a] = as_type(ctx, v,
				  ttc_value_type(ttc_func_arg(mod->f, a)));
		own[a] = args[a] != v;
		if (!args[a])
			ret = -ENOMEM;
	}
	if (!ret) {
		ret = ttc_golden_run(mod->f, args, n, out, &o);
		if (ret)
			pl_err(p, ret, "module %s: %s", mod->name,
			       ttc_ctx_error(ctx));
	}
	for (size_t a = 0; args && a < n; a++)
		if (own && own[a])
			ttc_tensor_free(args[a]);
	free(args);
	free(own);
	return ret;
}

/* ---- TT ---- */

static int tt_visit(void *arg, unsigned op_index, const struct tt_model_op *op,
		    const tt_tensor *result)
{
	ttc_pipeline *p = arg;
	struct saved *s = saved_of(p, op->name);
	const struct tt_shape *sh = tt_tensor_shape(result);
	int64_t dims[TT_TENSOR_MAX_RANK];
	ttc_tensor *t = NULL;
	int ret;

	(void)op_index;
	if (!s)
		return 0;
	for (unsigned k = 0; k < sh->rank; k++)
		dims[k] = (int64_t)sh->dims[k];
	ret = pl_from_tt(p->ctx, result,
			 ttc_tensor_type(p->ctx, dims, sh->rank,
					 ttc_float_type(p->ctx, TTC_F32), NULL),
			 &t);
	return ret ? ret : pl_saved_keep(s, t);
}

static int run_tt(ttc_pipeline *p, ttc_pymodule *mod, ttc_tensor *const *in,
		  ttc_tensor **out)
{
	const struct tt_model_desc *d = tt_model_get_desc(mod->model);
	tt_tensor **x = calloc(mod->nin + 1, sizeof(*x));
	tt_tensor **y = calloc(mod->nout + 1, sizeof(*y));
	int ret = x && y ? 0 : -ENOMEM;
	size_t j = 0;

	for (unsigned i = 0; !ret && i < d->ntensors; i++)
		if (d->tensors[i].kind == TT_MODEL_INPUT) {
			ret = pl_to_tt(in[j], &d->tensors[i].shape, &x[j]);
			j++;
		}
	if (!ret)
		ret = p->nsaved
			      ? tt_model_run_each(mod->model, NULL, x, mod->nin,
						  y, mod->nout, tt_visit, p)
			      : tt_model_run(mod->model, NULL, x, mod->nin, y,
					     mod->nout);
	if (ret)
		pl_err(p, ret, "module %s: %s", mod->name, tt_last_error());
	for (size_t k = 0; !ret && k < mod->nout; k++) {
		ret = pl_from_tt(ttc_module_ctx(mod->m), y[k],
				 ttc_func_result_type(mod->f, k), &out[k]);
		if (ret)
			pl_err(p, ret, "module %s: output %zu: %s", mod->name,
			       k, tt_last_error());
	}
	for (size_t k = 0; x && k < mod->nin; k++)
		tt_tensor_free(x[k]);
	for (size_t k = 0; y && k < mod->nout; k++)
		tt_tensor_free(y[k]);
	free(x);
	free(y);
	return ret;
}

int pl_stage_run(ttc_pipeline *p, struct stage *s, ttc_tensor *const *in,
		 ttc_tensor **out)
{
	int ret =
		s->d->tt ? run_tt(p, s->m, in, out) : run_cpu(p, s->m, in, out);

	if (ret)
		for (size_t k = 0; k < s->m->nout; k++) {
			ttc_tensor_free(out[k]);
			out[k] = NULL;
		}
	return ret;
}
