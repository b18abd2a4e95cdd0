// SPDX-License-Identifier: Apache-2.0
/*
 * ttc_verify (ttc/verify.h): the source recompiled as the image was, its
 * description checked against the image's, the goldens of every value,
 * and the model run op by op with each result compared with the golden
 * of the IR value its record computes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../ir/internal.h"
#include "verify_internal.h"

struct ttc_verify_config ttc_verify_config_default(void)
{
	struct ttc_compare_want w = ttc_compare_defaults();

	return (struct ttc_verify_config){
		.pcc = w.pcc,
		.atol = w.atol,
		.rtol = w.rtol,
		.golden_fmt = TT_FLOAT32,
	};
}

static int bad_option(ttc_ctx *ctx, const struct tt_model_attr *a)
{
	ttc_diag_addf(ctx, "the image's compile option %s: '%s' does not parse",
		      a->name, a->value);
	return -EINVAL;
}

static int bool_of(const char *s, bool *out)
{
	if (!strcmp(s, "true") || !strcmp(s, "false")) {
		*out = !strcmp(s, "true");
		return 0;
	}
	return -EINVAL;
}

/* One recorded option into o; unknown names are not compile options. */
static int option(struct ttc_compile_options *o, const struct tt_model_attr *a)
{
	struct ttc_pass_options *p = &o->passes;
	char *end;

	if (!strcmp(a->name, "default_df")) {
		if (tt_data_format_parse(a->value, &p->default_df))
			return -EINVAL;
		o->codegen.default_df = p->default_df;
	} else if (!strcmp(a->name, "accumulate_df")) {
		return tt_data_format_parse(a->value, &p->acc_df) ? -EINVAL : 0;
	} else if (!strcmp(a->name, "math_fidelity")) {
		return ttc_fidelity_parse(a->value, &p->fidelity);
	} else if (!strcmp(a->name, "amp_level")) {
		long v = strtol(a->value, &end, 10);

		if (!*a->value || *end || v < 0 || v > 3)
			return -EINVAL;
		p->amp_level = (int)v;
	} else if (!strcmp(a->name, "balancer_policy")) {
		if (strcmp(a->value, "greedy") && strcmp(a->value, "min_dram"))
			return -EINVAL;
		o->codegen.balancer = a->value;
	} else if (!strcmp(a->name, "place_on_one_row")) {
		return bool_of(a->value, &o->codegen.place_on_one_row);
	} else if (!strcmp(a->name, "enable_consteval")) {
		return bool_of(a->value, &p->enable_consteval);
	} else if (!strcmp(a->name, "enable_auto_fusing")) {
		return bool_of(a->value, &p->enable_auto_fusing);
	}
	return 0;
}

int ttc_verify_options_of(ttc_ctx *ctx, const struct tt_model_desc *d,
			  struct ttc_compile_options *out)
{
	*out = ttc_compile_defaults();
	for (unsigned i = 0; d && i < d->noptions; i++)
		if (option(out, &d->options[i]))
			return bad_option(ctx, &d->options[i]);
	if (d) {
		out->codegen.record = d->options;
		out->codegen.nrecord = d->noptions;
	}
	return 0;
}

static bool same_shape(const struct tt_shape *a, const struct tt_shape *b)
{
	if (a->rank != b->rank)
		return false;
	for (unsigned k = 0; k < a->rank; k++)
		if (a->dims[k] != b->dims[k])
			return false;
	return true;
}

/* The recompiled description is the image's: same ops in order, same
 * names and kinds, same tensors by name and shape. Attributes are not
 * compared: an op computing another function of the same shapes shows
 * as that op failing verification, which names it. */
static int same_model(ttc_ctx *ctx, const struct tt_model_desc *img,
		      const struct tt_model_desc *src)
{
	const struct tt_model_program *pi = &img->programs[0];
	const struct tt_model_program *ps = &src->programs[0];
	unsigned n = pi->nops > ps->nops ? pi->nops : ps->nops;

	for (unsigned k = 0; k < n; k++) {
		const struct tt_model_op *a = k < pi->nops ? &pi->ops[k] : NULL;
		const struct tt_model_op *b = k < ps->nops ? &ps->ops[k] : NULL;

		if (a && b && !strcmp(a->name, b->name) &&
		    !strcmp(a->op, b->op) && a->out < img->ntensors &&
		    b->out < src->ntensors &&
		    !strcmp(img->tensors[a->out].name,
			    src->tensors[b->out].name))
			continue;
		ttc_diag_addf(ctx,
			      "verify: the image was not compiled from this source and options: op #%u is %s (%s) in the image, %s (%s) from the source",
			      k, a ? a->name : "nothing", a ? a->op : "-",
			      b ? b->name : "nothing", b ? b->op : "-");
		return -EINVAL;
	}
	if (img->ntensors != src->ntensors) {
		ttc_diag_addf(ctx,
			      "verify: the image was not compiled from this source and options: %u tensors in the image, %u from the source",
			      img->ntensors, src->ntensors);
		return -EINVAL;
	}
	for (unsigned t = 0; t < img->ntensors; t++)
		if (strcmp(img->tensors[t].name, src->tensors[t].name) ||
		    !same_shape(&img->tensors[t].shape,
				&src->tensors[t].shape)) {
			ttc_diag_addf(ctx,
				      "verify: the image was not compiled from this source and options: tensor #%u is %s in the image, %s from the source (or of another shape)",
				      t, img->tensors[t].name,
				      src->tensors[t].name);
			return -EINVAL;
		}
	return 0;
}

/* Every op the config names is a record of the image's program. */
static int known_ops(ttc_ctx *ctx, const struct tt_model_desc *d,
		     const struct ttc_verify_config *v)
{
	const struct tt_model_program *p = &d->programs[0];

	for (size_t i = 0; v->ops && i < v->nops; i++) {
		unsigned k = 0;

		while (k < p->nops && strcmp(p->ops[k].name, v->ops[i]))
			k++;
		if (k == p->nops) {
			ttc_diag_addf(ctx,
				      "verify: no op %s in program %s of the image ('ttc info' lists them)",
				      v->ops[i], p->name);
			return -EINVAL;
		}
	}
	return 0;
}

/* Everything a run needs. */
struct vstate {
	ttc_ctx *ctx;
	ttc_func *f;
	const ttc_compiled *c;
	const struct tt_model_desc *d; /* the image's */
	const struct ttc_verify_config *v;
	struct ttc_verify_result *r;
	struct vg_map golden;
	struct ttc_verify_stats *dev; /* per tensor, device side */
	ttc_tensor **args;
	size_t nargs;
	bool diag; /* a visitor's failure left its own diagnostic */
};

/* The golden's arguments: the model's inputs where the image has them,
 * parameter values elsewhere (zeros for one nothing reads). */
static int make_args(struct vstate *s, ttc_param_fn param, void *param_arg,
		     tt_tensor *const *inputs, size_t n)
{
	const struct tt_model_desc *cd = ttc_compiled_desc(s->c);
	size_t k = 0;
	int ret = 0;

	s->nargs = ttc_func_num_args(s->f);
	s->args = calloc(s->nargs + 1, sizeof(*s->args));
	if (!s->args)
		return -ENOMEM;
	for (unsigned t = 0; !ret && t < cd->ntensors; t++) {
		const ttc_value *v = ttc_compiled_tensor_value(s->c, t);

		if (cd->tensors[t].kind != TT_MODEL_INPUT)
			continue;
		if (k >= n) {
			ttc_diag_addf(s->ctx, "verify: the model has more than %zu inputs",
				      n);
			return -EINVAL;
		}
		for (size_t i = 0; !ret && i < s->nargs; i++)
			if (ttc_func_arg(s->f, i) == v && !s->args[i]) {
				ret = vg_from_tt(s->ctx, ttc_value_type(v),
						 inputs[k], &s->args[i]);
				if (!ret)
					verify_stats_tensor(s->args[i],
							    &s->dev[t]);
			}
		k++;
	}
	for (size_t i = 0; !ret && i < s->nargs; i++) {
		const ttc_tensor *p;

		if (s->args[i])
			continue;
		p = param ? param(param_arg, s->f, i) : NULL;
		s->args[i] = p ? ttc_tensor_clone(p)
			       : ttc_tensor_new(s->ctx, ttc_value_type(
							ttc_func_arg(s->f, i)));
		if (!s->args[i])
			ret = -ENOMEM;
	}
	return ret;
}

static bool selected(const struct ttc_verify_config *v, const char *name)
{
	for (size_t i = 0; i < v->nops; i++)
		if (!strcmp(v->ops[i], name))
			return true;
	return !v->nops || !v->ops;
}

static const char *kind_name(enum tt_model_tensor_kind k)
{
	static const char *const names[] = {"input", "output", "parameter",
					    "constant", "activation"};

	return (unsigned)k < 5 ? names[k] : "?";
}

/* The inputs of the first failing op, as they were when it ran. */
static int note_inputs(struct vstate *s, const struct tt_model_op *op)
{
	struct ttc_verify_result *r = s->r;

	r->inputs = calloc(op->nin + 1, sizeof(*r->inputs));
	if (!r->inputs)
		return -ENOMEM;
	for (unsigned j = 0; j < op->nin; j++) {
		unsigned t = op->in[j];
		struct ttc_verify_input *in = &r->inputs[r->ninputs];
		const ttc_tensor *g;

		if (t == TT_MODEL_NONE)
			continue;
		in->name = strdup(s->d->tensors[t].name);
		if (!in->name)
			return -ENOMEM;
		in->kind = kind_name(s->d->tensors[t].kind);
		in->device = s->dev[t];
		g = vg_find(&s->golden, ttc_compiled_tensor_value(s->c, t));
		if (g)
			verify_stats_tensor(g, &in->golden);
		r->ninputs++;
	}
	return 0;
}

/* A device result's values, row-major, as doubles (a new array). */
static double *values_of(const tt_tensor *x, size_t *n)
{
	tt_tensor *f = NULL;
	double *v = NULL;

	if (tt_tensor_to(x, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &f))
		return NULL;
	*n = tt_tensor_volume(f);
	v = malloc((*n + 1) * sizeof(*v));
	for (size_t i = 0; v && i < *n; i++)
		v[i] = ((const float *)tt_tensor_data(f))[i];
	tt_tensor_free(f);
	return v;
}

/* A stop asked for by stop_at_first (not an error). */
#define STOP 1

static int compare(struct vstate *s, struct ttc_verify_op *vo,
		   const struct tt_model_op *op, const double *calc, size_t n)
{
	const ttc_tensor *g = vg_find(&s->golden,
				      ttc_compiled_tensor_value(s->c, op->out));
	struct ttc_compare_want w = {s->v->pcc, s->v->atol, s->v->rtol,
				     s->v->check_allclose};
	struct ttc_compare cmp;
	double *gv;

	if (!g || !selected(s->v, op->name))
		return 0;
	if (g->numel != n) {
		ttc_diag_addf(s->ctx,
			      "verify: op %s: the device gave %zu values, its golden has %zu",
			      op->name, n, g->numel);
		s->diag = true;
		return -EINVAL;
	}
	gv = malloc((n + 1) * sizeof(*gv));
	if (!gv)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		gv[i] = ttc_tensor_get(g, i);
	cmp = ttc_compare_values(gv, calc, n, true, &w);
	free(gv);
	vo->checked = true;
	vo->pcc = cmp.pcc;
	vo->atol = cmp.atol;
	vo->pass = cmp.pass;
	s->r->checked++;
	if (cmp.pass)
		return 0;
	s->r->failed++;
	if (s->r->first_fail < 0) {
		s->r->first_fail = (long)vo->index;
		if (note_inputs(s, op))
			return -ENOMEM;
	}
	return s->v->stop_at_first ? STOP : 0;
}

static int on_op(void *arg, unsigned k, const struct tt_model_op *op,
		 const tt_tensor *result)
{
	struct vstate *s = arg;
	struct ttc_verify_op *vo = &s->r->ops[k];
	size_t n = 0;
	double *calc = values_of(result, &n);
	int ret;

	if (!calc)
		return -ENOMEM;
	*vo = (struct ttc_verify_op){.name = strdup(op->name),
				     .kind = strdup(op->op), .index = k};
	s->r->nops = k + 1;
	if (!vo->name || !vo->kind) {
		free(calc);
		return -ENOMEM;
	}
	verify_stats(calc, n, &s->dev[op->out]);
	ret = compare(s, vo, op, calc, n);
	free(calc);
	return ret;
}

static int device_run(struct vstate *s, tt_model *model,
		      tt_tensor *const *inputs, size_t n)
{
	const struct tt_model_desc *d = s->d;
	size_t nout = 0;
	tt_tensor **y;
	int ret;

	for (unsigned t = 0; t < d->ntensors; t++)
		nout += d->tensors[t].kind == TT_MODEL_OUTPUT;
	y = calloc(nout + 1, sizeof(*y));
	if (!y)
		return -ENOMEM;
	ret = tt_model_run_each(model, NULL, inputs, n, y, nout, on_op, s);
	for (size_t i = 0; i < nout; i++)
		tt_tensor_free(y[i]);
	free(y);
	if (ret == STOP)
		return 0;
	if (ret < 0 && !s->diag)
		ttc_diag_addf(s->ctx, "verify: running the model: %s",
			      tt_last_error());
	return ret;
}

/* Passes and codegen as the image was compiled. */
static int recompile(struct vstate *s, ttc_module *m,
		     const struct ttc_compile_options *o, ttc_param_fn param,
		     void *param_arg, ttc_compiled **c)
{
	struct ttc_compile_options opt = o ? *o : ttc_compile_defaults();
	int ret;

	opt.codegen.target.arch = s->d->arch;
	opt.codegen.target.grid_x = s->d->grid.x;
	opt.codegen.target.grid_y = s->d->grid.y;
	if (!opt.codegen.target.l1_bytes || !opt.codegen.target.dram_bytes) {
		struct ttc_target t = ttc_codegen_defaults().target;

		opt.codegen.target.l1_bytes = t.l1_bytes;
		opt.codegen.target.dram_bytes = t.dram_bytes;
	}
	opt.passes.param_value = param;
	opt.passes.param_arg = param_arg;
	opt.passes.print_after = NULL;
	opt.passes.time_passes = false;
	ret = ttc_run_passes(m, NULL, 0, &opt.passes, NULL);
	if (!ret)
		ret = ttc_codegen(s->f, &opt.codegen, param, param_arg, c);
	return ret;
}

int ttc_verify(ttc_module *m, ttc_func *f, tt_model *model,
	       const struct ttc_compile_options *o, ttc_param_fn param,
	       void *param_arg, tt_tensor *const *inputs, size_t n,
	       const struct ttc_verify_config *v, struct ttc_verify_result *out)
{
	struct ttc_verify_config cfg = v ? *v : ttc_verify_config_default();
	struct vstate s = {.v = &cfg, .r = out, .f = f};
	ttc_compiled *c = NULL;
	int ret;

	if (!out)
		return -EINVAL;
	*out = (struct ttc_verify_result){.first_fail = -1};
	if (!m || !f || !model || (n && !inputs))
		return -EINVAL;
	s.ctx = ttc_module_ctx(m);
	s.d = tt_model_get_desc(model);
	if (!s.d->nprograms) {
		ttc_diag_addf(s.ctx, "verify: the image has no program");
		return -EINVAL;
	}
	ret = recompile(&s, m, o, param, param_arg, &c);
	s.c = c;
	if (!ret)
		ret = same_model(s.ctx, s.d, ttc_compiled_desc(c));
	if (!ret)
		ret = known_ops(s.ctx, s.d, &cfg);
	if (!ret) {
		s.dev = calloc(s.d->ntensors + 1, sizeof(*s.dev));
		out->ops = calloc(s.d->programs[0].nops + 1, sizeof(*out->ops));
		ret = s.dev && out->ops ? 0 : -ENOMEM;
	}
	if (!ret)
		ret = make_args(&s, param, param_arg, inputs, n);
	if (!ret)
		ret = vg_run(s.ctx, f, s.args, cfg.golden_fmt, &s.golden);
	if (!ret)
		ret = device_run(&s, model, inputs, n);
	out->pass = !ret && !out->failed;
	if (!ret && cfg.report)
		ttc_verify_print(cfg.report, out, &cfg);
	for (size_t i = 0; s.args && i < s.nargs; i++)
		ttc_tensor_free(s.args[i]);
	free(s.args);
	free(s.dev);
	vg_free(&s.golden);
	ttc_compiled_free(c);
	return ret;
}
