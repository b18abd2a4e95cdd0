// SPDX-License-Identifier: Apache-2.0
/*
 * The pipeline (ttc/pipeline.h): devices in order, their modules in
 * order; initialize_pipeline checks the chain and compiles, run_forward
 * and run_inference pass inputs through every module, shutdown frees.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "ttc/ops.h"

int pl_err(ttc_pipeline *p, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->error, sizeof(p->error), fmt, ap);
	va_end(ap);
	return ret;
}

ttc_pipeline *ttc_pipeline_new(void)
{
	ttc_pipeline *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	ttc_config_init(&p->cfg);
	p->tail = &p->devs;
	p->ctx = ttc_ctx_new_ttir();
	p->queue = ttc_output_queue_new();
	if (!p->ctx || !p->queue) {
		ttc_shutdown(p);
		return NULL;
	}
	return p;
}

struct ttc_config *ttc_pipeline_config(ttc_pipeline *p)
{
	return &p->cfg;
}

ttc_output_queue *ttc_pipeline_output_queue(ttc_pipeline *p)
{
	return p->queue;
}

const char *ttc_pipeline_error(const ttc_pipeline *p)
{
	return p->error;
}

int ttc_pipeline_add_device(ttc_pipeline *p, ttc_device *d)
{
	if (!p || !d || d->next || p->tail == &d->next)
		return -EINVAL;
	if (p->stages)
		return pl_err(p, -EBUSY,
			      "device %s: the pipeline is "
			      "already initialized",
			      d->name);
	*p->tail = d;
	p->tail = &d->next;
	return 0;
}

/* ---- initialize ---- */

static int make_stages(ttc_pipeline *p)
{
	size_t n = 0;

	for (ttc_device *d = p->devs; d; d = d->next)
		for (ttc_pymodule *m = d->mods; m; m = m->next)
			n++;
	if (!n)
		return pl_err(p, -EINVAL, "no module is placed on a device");
	p->stages = calloc(n, sizeof(*p->stages));
	if (!p->stages)
		return -ENOMEM;
	for (ttc_device *d = p->devs; d; d = d->next)
		for (ttc_pymodule *m = d->mods; m; m = m->next)
			p->stages[p->nstages++] = (struct stage){d, m};
	return 0;
}

static bool same_shape(const ttc_type *a, const ttc_type *b)
{
	unsigned r = ttc_type_rank(a);

	return r == ttc_type_rank(b) &&
	       !memcmp(ttc_type_dims(a), ttc_type_dims(b), r * sizeof(int64_t));
}

static const ttc_type *input_type(ttc_pymodule *m, size_t j)
{
	return ttc_value_type(ttc_func_arg(m->f, m->in_args[j]));
}

/* Each module's inputs are the previous one's outputs. */
static int check_chain(ttc_pipeline *p)
{
	for (size_t k = 1; k < p->nstages; k++) {
		ttc_pymodule *a = p->stages[k - 1].m, *b = p->stages[k].m;

		if (a->nout != b->nin)
			return pl_err(p, -EINVAL,
				      "module %s has %zu inputs, the module "
				      "before it (%s) %zu outputs",
				      b->name, b->nin, a->name, a->nout);
		for (size_t j = 0; j < b->nin; j++)
			if (!same_shape(ttc_func_result_type(a->f, j),
					input_type(b, j)))
				return pl_err(p, -EINVAL,
					      "module %s: input %zu is not "
					      "of the shape of %s's output %zu",
					      b->name, j, a->name, j);
	}
	return 0;
}

static int check_inputs(ttc_pipeline *p, ttc_tensor *const *in, size_t n)
{
	ttc_pymodule *m = p->stages[0].m;

	if (n != m->nin)
		return pl_err(p, -EINVAL, "module %s takes %zu inputs, got %zu",
			      m->name, m->nin, n);
	for (size_t j = 0; j < n; j++)
		if (!in[j] || !same_shape(in[j]->type, input_type(m, j)))
			return pl_err(p, -EINVAL,
				      "module %s: input %zu is not of the "
				      "shape of argument %zu",
				      m->name, j, m->in_args[j]);
	return 0;
}

static int check_params(ttc_pipeline *p, ttc_pymodule *m)
{
	for (size_t i = 0; i < ttc_func_num_args(m->f); i++) {
		const char *name = pl_arg_name(m->f, i);

		if (pl_is_param(m->f, i) && !pl_module_value(m, i))
			return pl_err(p, -EINVAL,
				      "module %s: parameter %s (argument "
				      "%zu) has no value",
				      m->name, name ? name : "?", i);
	}
	return 0;
}

/* The saved op named s[0..len), added if new. */
static struct saved *add_saved(ttc_pipeline *p, const char *s, size_t len)
{
	struct saved *n;

	for (size_t i = 0; i < p->nsaved; i++)
		if (strlen(p->saved[i].op) == len &&
		    !strncmp(p->saved[i].op, s, len))
			return &p->saved[i];
	n = realloc(p->saved, (p->nsaved + 1) * sizeof(*n));
	if (!n)
		return NULL;
	p->saved = n;
	n += p->nsaved;
	*n = (struct saved){strndup(s, len), NULL, NULL};
	if (!n->op)
		return NULL;
	p->nsaved++;
	return n;
}

/* op_intermediates_to_save, split at commas (taps are added earlier). */
static int parse_saved(ttc_pipeline *p)
{
	const char *s = p->cfg.op_intermediates_to_save;

	while (s && *s) {
		size_t len = strcspn(s, ",");

		if (len && !add_saved(p, s, len))
			return -ENOMEM;
		s += len + (s[len] == ',');
	}
	return 0;
}

int ttc_insert_tapout_queue_for_op(ttc_pipeline *p, const char *op,
				   ttc_output_queue *q)
{
	struct saved *s;

	if (!p || !op || !*op || !q)
		return -EINVAL;
	if (p->stages)
		return pl_err(p, -EBUSY,
			      "tapout queue for %s: the pipeline "
			      "is already initialized",
			      op);
	s = add_saved(p, op, strlen(op));
	if (!s)
		return -ENOMEM;
	s->tap = q;
	return 0;
}

static bool has_op(struct stage *s, const char *name)
{
	if (s->d->tt) {
		const struct tt_model_desc *d = tt_model_get_desc(s->m->model);

		for (unsigned k = 0; k < d->programs[0].nops; k++)
			if (!strcmp(d->programs[0].ops[k].name, name))
				return true;
		return false;
	}
	for (ttc_op *op = ttc_func_first_op(s->m->f); op; op = ttc_op_next(op))
		if (pl_op_name(op) && !strcmp(pl_op_name(op), name))
			return true;
	return false;
}

static int check_saved(ttc_pipeline *p)
{
	for (size_t i = 0; i < p->nsaved; i++) {
		bool found = false;

		for (size_t k = 0; k < p->nstages && !found; k++)
			found = has_op(&p->stages[k], p->saved[i].op);
		if (!found)
			return pl_err(p, -ENOENT,
				      "op_intermediates_to_save: no module "
				      "has an op '%s'",
				      p->saved[i].op);
	}
	return 0;
}

int ttc_initialize_pipeline(ttc_pipeline *p, ttc_tensor *const *sample_inputs,
			    size_t n)
{
	int ret;

	if (!p)
		return -EINVAL;
	if (p->stages)
		return pl_err(p, -EBUSY,
			      p->ready ? "the pipeline is already initialized"
				       : "the pipeline failed to initialize: "
					 "shut it down");
	ret = make_stages(p);
	if (!ret)
		ret = check_chain(p);
	if (!ret && n)
		ret = check_inputs(p, sample_inputs, n);
	for (size_t k = 0; !ret && k < p->nstages; k++)
		ret = check_params(p, p->stages[k].m);
	if (!ret)
		ret = parse_saved(p);
	for (size_t k = 0; !ret && k < p->nstages; k++)
		if (p->stages[k].d->tt)
			ret = pl_stage_compile(p, &p->stages[k]);
	if (!ret)
		ret = check_saved(p);
	p->ready = !ret;
	return ret;
}

/* ---- runs ---- */

static void free_all(ttc_tensor **t, size_t n)
{
	for (size_t i = 0; t && i < n; i++)
		ttc_tensor_free(t[i]);
	free(t);
}

/* Runs stage k on cur[] (owned unless k is 0), giving next[]. */
static int step(ttc_pipeline *p, size_t k, ttc_tensor **cur, ttc_tensor ***next)
{
	struct stage *s = &p->stages[k];
	int ret;

	*next = calloc(s->m->nout + 1, sizeof(**next));
	ret = *next ? pl_stage_run(p, s, cur, *next) : -ENOMEM;
	if (k)
		free_all(cur, s->m->nin);
	if (ret) {
		free(*next);
		*next = NULL;
	}
	return ret;
}

static int start_run(ttc_pipeline *p, ttc_tensor *const *in, size_t n)
{
	if (!p->ready)
		return pl_err(p, -EINVAL,
			      "the pipeline is not initialized "
			      "(ttc_initialize_pipeline)");
	for (size_t i = 0; i < p->nsaved; i++) {
		ttc_tensor_free(p->saved[i].t);
		p->saved[i].t = NULL;
	}
	return check_inputs(p, in, n);
}

int ttc_run_forward(ttc_pipeline *p, ttc_tensor *const *inputs, size_t ninputs,
		    ttc_tensor **outputs, size_t noutputs)
{
	ttc_tensor **cur = (ttc_tensor **)inputs, **next = NULL;
	int ret;

	if (!p || !outputs)
		return -EINVAL;
	ret = start_run(p, inputs, ninputs);
	if (!ret && noutputs != p->stages[p->nstages - 1].m->nout)
		ret = pl_err(p, -EINVAL,
			     "the pipeline has %zu outputs, "
			     "room for %zu given",
			     p->stages[p->nstages - 1].m->nout, noutputs);
	for (size_t k = 0; !ret && k < p->nstages; k++, cur = next)
		ret = step(p, k, cur, &next);
	if (ret)
		return ret;
	memcpy(outputs, cur, noutputs * sizeof(*outputs));
	free(cur);
	return 0;
}

/* Runs inputs [b, e) through stage after stage; pushes their outputs. */
static int run_batch(ttc_pipeline *p, ttc_tensor *const *const *inputs,
		     size_t b, size_t e, ttc_output_queue *q)
{
	ttc_tensor ***cur = calloc(e - b, sizeof(*cur));
	size_t nout = p->stages[p->nstages - 1].m->nout;
	int ret = 0;

	if (!cur)
		return -ENOMEM;
	for (size_t i = b; i < e; i++)
		cur[i - b] = (ttc_tensor **)inputs[i];
	for (size_t k = 0; k < p->nstages; k++)
		for (size_t i = 0; i < e - b; i++) {
			ttc_tensor **next = NULL;

			if (!ret)
				ret = step(p, k, cur[i], &next);
			else if (k)
				free_all(cur[i], p->stages[k].m->nin);
			cur[i] = next;
		}
	for (size_t i = 0; i < e - b; i++) {
		if (!ret)
			ret = pl_queue_push(q, cur[i], nout);
		else
			free_all(cur[i], nout);
	}
	free(cur);
	return ret;
}

int ttc_run_inference(ttc_pipeline *p, ttc_tensor *const *const *inputs,
		      size_t input_count, size_t microbatch,
		      ttc_output_queue *q)
{
	int ret = 0;

	if (!p || (!inputs && input_count))
		return -EINVAL;
	microbatch = microbatch ? microbatch : 1;
	for (size_t i = 0; !ret && i < input_count; i++)
		ret = start_run(p, inputs[i],
				p->ready ? p->stages[0].m->nin : 0);
	for (size_t b = 0; !ret && b < input_count; b += microbatch)
		ret = run_batch(p, inputs, b,
				b + microbatch < input_count ? b + microbatch
							     : input_count,
				q ? q : p->queue);
	return ret;
}

int ttc_get_intermediates(ttc_pipeline *p, const char *op,
			  const ttc_tensor **out)
{
	for (size_t i = 0; p && op && i < p->nsaved; i++)
		if (!strcmp(p->saved[i].op, op)) {
			if (!p->saved[i].t)
				break;
			*out = p->saved[i].t;
			return 0;
		}
	return p ? pl_err(p, -ENOENT,
			  "no intermediate of op '%s' was "
			  "saved (op_intermediates_to_save)",
			  op ? op : "(null)")
		 : -EINVAL;
}

void ttc_shutdown(ttc_pipeline *p)
{
	ttc_device *d, *next;

	if (!p)
		return;
	for (d = p->devs; d; d = next) {
		next = d->next;
		ttc_device_free(d);
	}
	if (p->tmpdir[0])
		rmdir(p->tmpdir);
	for (size_t i = 0; i < p->nsaved; i++) {
		free(p->saved[i].op);
		ttc_tensor_free(p->saved[i].t);
	}
	free(p->saved);
	free(p->stages);
	ttc_output_queue_free(p->queue);
	ttc_ctx_free(p->ctx);
	ttc_config_release(&p->cfg);
	free(p);
}
