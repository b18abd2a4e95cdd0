// SPDX-License-Identifier: Apache-2.0
/*
 * tt_backend_load: a compiled model as PyBuda's embedded backend
 * (docs/backend.md). Each input of the model gets an input queue of its
 * name, each output an output queue, each program a backend program with
 * the parameter $p_loop_count: a run takes loop-count entries from every
 * input queue, runs the model on each and appends each result to the
 * output queues, so the seed's "Embedded TTI Loading" loop runs a
 * compiled model unchanged.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/backend/backend_internal.h"
#include "model_internal.h"

/* Entries each queue holds: PyBuda pushes a microbatch per input before
 * running; this many runs' worth may wait in a queue. */
#define MODEL_QUEUE_DEPTH 16u
/* How long a run waits for an input entry or output room:
 * TT_MODEL_QUEUE_TIMEOUT_MS (1 ms..a day), default 10 s (a test of a run
 * with no input pushed need not wait that long). */
#define MODEL_QUEUE_TIMEOUT_MS 10000ul
#define MODEL_QUEUE_TIMEOUT_MAX_MS 86400000ul

struct model_prog {
	tt_model *m; /* shared by the programs; the first frees it */
	bool owner;
	const char *program;
	tt_tensor_queue **in, **out;
	unsigned nin, nout;
};

static void free_prog(void *arg)
{
	struct model_prog *p = arg;

	if (p->owner)
		tt_model_free(p->m);
	free(p->in);
	free(p->out);
	free(p);
}

/* The name of the model's i-th input (outputs: output). */
static const char *io_name(const struct model_prog *p, bool outputs,
			   unsigned i)
{
	const unsigned *idx;

	tt_model_io(p->m, outputs, &idx);
	return tt_model_get_desc(p->m)->tensors[idx[i]].name;
}

/* The queue's error, naming the model's tensor. */
static int io_error(int ret, const char *what, const char *name)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s", tt_last_error());
	return tt_error(ret, "%s %s: %s", what, name, msg);
}

static int run_once(struct model_prog *p, int timeout, tt_tensor **x,
		    tt_tensor **y)
{
	int ret = 0;

	for (unsigned i = 0; i < p->nin; i++)
		x[i] = NULL;
	for (unsigned i = 0; !ret && i < p->nin; i++) {
		ret = tt_tensor_queue_get(p->in[i], timeout, &x[i]);
		if (ret)
			io_error(ret, "input", io_name(p, false, i));
	}
	if (!ret)
		ret = tt_model_run(p->m, p->program, x, p->nin, y, p->nout);
	for (unsigned i = 0; !ret && i < p->nout; i++) {
		ret = tt_tensor_queue_push(p->out[i], y[i], timeout);
		if (ret)
			io_error(ret, "output", io_name(p, true, i));
	}
	/* Inputs last: a step whose output found no room keeps them for
	 * the next run instead of losing their result. */
	for (unsigned i = 0; !ret && i < p->nin; i++)
		ret = tt_tensor_queue_pop(p->in[i]);
	for (unsigned i = 0; i < p->nin; i++)
		tt_tensor_free(x[i]);
	return ret;
}

/* values[0]: $p_loop_count. */
static int run_prog(void *arg, const uint32_t *values)
{
	struct model_prog *p = arg;
	tt_tensor **x = calloc(p->nin + 1, sizeof(*x));
	tt_tensor **y = calloc(p->nout + 1, sizeof(*y));
	unsigned long timeout;
	int ret = x && y ? 0 : tt_error(-ENOMEM, "model run: out of memory");

	if (!ret)
		ret = tt_env_uint("TT_MODEL_QUEUE_TIMEOUT_MS", 1,
				  MODEL_QUEUE_TIMEOUT_MAX_MS,
				  MODEL_QUEUE_TIMEOUT_MS, &timeout);
	for (uint32_t loop = 0; !ret && loop < values[0]; loop++) {
		ret = run_once(p, (int)timeout, x, y);
		for (unsigned i = 0; i < p->nout; i++) {
			tt_tensor_free(y[i]);
			y[i] = NULL;
		}
	}
	free(x);
	free(y);
	return ret;
}

static int add_queues(tt_backend *b, tt_model *m, bool outputs)
{
	const struct tt_model_desc *d = tt_model_get_desc(m);
	const unsigned *idx;
	unsigned n = tt_model_io(m, outputs, &idx);
	int ret = 0;

	for (unsigned i = 0; !ret && i < n; i++) {
		const struct tt_model_tensor *t = &d->tensors[idx[i]];

		ret = tt_backend_add_queue(b, t->name,
					   outputs ? TT_IO_OUTPUT : TT_IO_INPUT,
					   &t->shape, t->format,
					   MODEL_QUEUE_DEPTH, TT_QUEUE_HOST);
	}
	return ret;
}

static int queues_of(tt_backend *b, tt_model *m, bool outputs,
		     tt_tensor_queue ***q, unsigned *n)
{
	const struct tt_model_desc *d = tt_model_get_desc(m);
	const unsigned *idx;

	*n = tt_model_io(m, outputs, &idx);
	*q = calloc(*n + 1, sizeof(**q));
	if (!*q)
		return tt_error(-ENOMEM, "tt_backend_load: out of memory");
	for (unsigned i = 0; i < *n; i++)
		(*q)[i] = tt_backend_queue(b, d->tensors[idx[i]].name);
	return 0;
}

static int add_program(tt_backend *b, tt_model *m, unsigned k, bool owner)
{
	static const char *const names[] = {"$p_loop_count"};
	static const uint32_t defaults[] = {1};
	const struct tt_model_desc *d = tt_model_get_desc(m);
	struct model_prog *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return tt_error(-ENOMEM, "tt_backend_load: out of memory");
	*p = (struct model_prog){.m = m, .owner = owner,
				 .program = d->programs[k].name};
	ret = queues_of(b, m, false, &p->in, &p->nin);
	if (!ret)
		ret = queues_of(b, m, true, &p->out, &p->nout);
	if (!ret)
		ret = tt_backend_add_host_program(
			b, d->programs[k].name, names, defaults, 1,
			&(struct tt_backend_host_prog){run_prog, free_prog, p});
	if (ret) {
		p->owner = false; /* the caller frees the model */
		free_prog(p);
	}
	return ret;
}

int tt_backend_load(tt_device *dev, const char *path, tt_backend **out)
{
	tt_backend *b = NULL;
	tt_model *m = NULL;
	bool owned = false;
	int ret;

	if (!out)
		return tt_error(-EINVAL, "tt_backend_load: out is NULL");
	*out = NULL;
	ret = tt_model_load(dev, path, &m);
	if (!ret)
		ret = tt_backend_create(dev, &b);
	if (!ret)
		ret = add_queues(b, m, false);
	if (!ret)
		ret = add_queues(b, m, true);
	for (unsigned k = 0; !ret && k < tt_model_get_desc(m)->nprograms; k++) {
		ret = add_program(b, m, k, k == 0);
		owned |= !ret && k == 0;
	}
	if (ret) {
		tt_backend_free(b);
		if (!owned)
			tt_model_free(m);
		return ret;
	}
	*out = b;
	return 0;
}
