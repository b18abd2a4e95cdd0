// SPDX-License-Identifier: Apache-2.0
/*
 * A compiled model on a device (tt/model.h): the image checked against
 * the device, its kernels served, every tensor allocated (activations on
 * the memory plan's slots), parameters and constants written, and runs
 * of its programs as op calls of the device op library.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/dispatch/fd.h"
#include "model_internal.h"
#include "tt/buffer.h"
#include "tt/image.h"
#include "tt/kernel_set.h"

struct tt_model {
	tt_device *dev;
	tt_image *img;
	tt_model_manifest *man;
	const struct tt_model_desc *d;
	tt_kernel_set *kernels;
	tt_ops_ctx *ctx;
	tt_buffer **slots;
	tt_device_tensor **t; /* one per tensor */
	unsigned *inputs, *outputs; /* tensor indices, in order */
	unsigned ninputs, noutputs;
};

/* The image is for this device: same arch, a logical grid that holds
 * the placement's. */
static int check_target(tt_model *m)
{
	const struct tt_device_info *info = tt_device_get_info(m->dev);
	unsigned w, h;
	int ret;

	if (!info || !info->arch_name || strcmp(info->arch_name, m->d->arch))
		return tt_error(-ENOTSUP,
				"%s: compiled for %s, the device is %s",
				tt_image_path(m->img), m->d->arch,
				info && info->arch_name ? info->arch_name : "?");
	ret = tt_device_logical_grid(m->dev, &w, &h);
	if (ret)
		return ret;
	if (m->d->grid.x > w || m->d->grid.y > h)
		return tt_error(-ENOTSUP,
				"%s: placed on a %ux%u grid of cores; this device has %ux%u (harvested or smaller): recompile for it",
				tt_image_path(m->img), m->d->grid.x,
				m->d->grid.y, w, h);
	return 0;
}

static int add_kernels(tt_model *m)
{
	struct tt_image_section s;
	char name[TT_MODEL_KERNEL_SECTION_MAX];
	int ret = tt_kernel_set_create(&m->kernels);

	for (unsigned i = 0; !ret && i < m->d->nkernels; i++) {
		tt_model_kernel_section(m->d->kernels[i], name);
		ret = tt_image_find(m->img, name, &s);
		if (!ret)
			ret = tt_kernel_set_add(m->kernels, m->d->kernels[i],
						s.data, s.size);
	}
	return ret ? ret : tt_kernel_set_serve(m->kernels);
}

static int make_slots(tt_model *m)
{
	m->slots = calloc(m->d->nslots + 1, sizeof(*m->slots));
	if (!m->slots)
		return tt_error(-ENOMEM, "model: out of memory");
	for (unsigned i = 0; i < m->d->nslots; i++) {
		const struct tt_model_slot *s = &m->d->slots[i];
		struct tt_buffer_config cfg = {
			.device = m->dev,
			.size = s->pages * s->page_size,
			.page_size = s->page_size,
			.type = s->l1 ? TT_BUFFER_L1 : TT_BUFFER_DRAM,
		};
		int ret = tt_buffer_create(&cfg, &m->slots[i]);

		if (ret)
			return ret;
	}
	return 0;
}

/* A parameter's or constant's data: its section, as a host tensor. */
static int write_data(tt_model *m, unsigned i)
{
	const struct tt_model_tensor *t = &m->d->tensors[i];
	struct tt_image_section s;
	size_t want;
	tt_tensor *h;
	int ret;

	ret = tt_image_find(m->img, t->section, &s);
	if (ret)
		return ret;
	ret = tt_tensor_storage_size(&t->shape, t->data_format,
				     TT_TENSOR_ROW_MAJOR, &want);
	if (ret)
		return ret;
	if (s.size != want)
		return tt_error(-EINVAL,
				"%s: tensor %s: section %s has %llu bytes, its shape in %s needs %zu",
				tt_image_path(m->img), t->name, t->section,
				(unsigned long long)s.size,
				tt_data_format_name(t->data_format), want);
	ret = tt_tensor_wrap(&t->shape, t->data_format, TT_TENSOR_ROW_MAJOR,
			     (void *)s.data, s.size, NULL, NULL, &h);
	if (ret)
		return ret;
	ret = tt_device_tensor_write(m->t[i], tt_ops_ctx_queue(m->ctx), h);
	tt_tensor_free(h);
	return ret;
}

static int make_tensor(tt_model *m, unsigned i)
{
	const struct tt_model_tensor *t = &m->d->tensors[i];

	if (t->kind == TT_MODEL_ACT)
		return tt_device_tensor_on_buffer(m->slots[t->slot], 0,
						  &t->shape, t->format,
						  &m->t[i]);
	return tt_device_tensor_create(m->dev, &t->shape, t->format,
				       t->l1 ? TT_BUFFER_L1 : TT_BUFFER_DRAM,
				       &m->t[i]);
}

static int make_tensors(tt_model *m, bool write)
{
	const struct tt_model_desc *d = m->d;
	int ret = 0;

	m->t = calloc(d->ntensors + 1, sizeof(*m->t));
	m->inputs = calloc(d->ntensors + 1, sizeof(*m->inputs));
	m->outputs = calloc(d->ntensors + 1, sizeof(*m->outputs));
	if (!m->t || !m->inputs || !m->outputs)
		return tt_error(-ENOMEM, "model: out of memory");
	for (unsigned i = 0; !ret && i < d->ntensors; i++) {
		ret = make_tensor(m, i);
		if (d->tensors[i].kind == TT_MODEL_INPUT)
			m->inputs[m->ninputs++] = i;
		if (d->tensors[i].kind == TT_MODEL_OUTPUT)
			m->outputs[m->noutputs++] = i;
		if (!ret && write && (d->tensors[i].kind == TT_MODEL_PARAM ||
				      d->tensors[i].kind == TT_MODEL_CONST))
			ret = write_data(m, i);
	}
	return ret;
}

void tt_model_free(tt_model *m)
{
	if (!m)
		return;
	if (m->ctx)
		tt_ops_finish(m->ctx);
	for (unsigned i = 0; m->t && i < m->d->ntensors; i++)
		tt_device_tensor_free(m->t[i]);
	for (unsigned i = 0; m->slots && i < m->d->nslots; i++)
		tt_buffer_free(m->slots[i]);
	tt_ops_ctx_free(m->ctx);
	if (m->kernels)
		tt_kernel_set_free(m->kernels);
	free(m->t);
	free(m->slots);
	free(m->inputs);
	free(m->outputs);
	tt_model_manifest_free(m->man);
	if (m->img)
		tt_image_close(m->img);
	free(m);
}

/* Everything but the image: shared by loading and by building kernels. */
static int setup(tt_model *m, bool write)
{
	int ret = tt_ops_ctx_create(m->dev, &m->ctx);

	if (!ret)
		ret = make_slots(m);
	if (!ret)
		ret = make_tensors(m, write);
	return ret;
}

int tt_model_load(tt_device *dev, const char *path, tt_model **out)
{
	struct tt_image_section s;
	tt_model *m;
	int ret;

	*out = NULL;
	if (!dev || !path)
		return tt_error(-EINVAL, "tt_model_load: %s is NULL",
				dev ? "path" : "dev");
	m = calloc(1, sizeof(*m));
	if (!m)
		return tt_error(-ENOMEM, "tt_model_load: out of memory");
	m->dev = dev;
	ret = tt_image_open(path, &m->img);
	if (!ret)
		ret = tt_image_find(m->img, TT_MODEL_MANIFEST_SECTION, &s);
	if (!ret)
		ret = tt_model_desc_parse(path, s.data, s.size, &m->man);
	if (!ret) {
		m->d = tt_model_manifest_desc(m->man);
		ret = check_target(m);
	}
	if (!ret)
		ret = add_kernels(m);
	if (!ret)
		ret = setup(m, true);
	if (ret) {
		tt_model_free(m);
		return ret;
	}
	*out = m;
	return 0;
}

const struct tt_model_desc *tt_model_get_desc(const tt_model *m)
{
	return m ? m->d : NULL;
}

static const struct tt_model_program *find_program(const tt_model *m,
						   const char *name)
{
	for (unsigned i = 0; i < m->d->nprograms; i++)
		if (!name || strcmp(m->d->programs[i].name, name) == 0)
			return &m->d->programs[i];
	return NULL;
}

static int read_output(tt_model *m, unsigned t, tt_tensor **out);

/* What tt_model_run_each calls after every op (NULL: nothing). */
struct op_visit {
	int (*fn)(void *arg, unsigned op_index, const struct tt_model_op *op,
		  const tt_tensor *result);
	void *arg;
};

/* The op's result, once the device is done with it, to the visitor. */
static int visit_op(tt_model *m, const struct op_visit *v, unsigned k,
		    const struct tt_model_op *op)
{
	tt_tensor *r = NULL;
	int ret = tt_ops_finish(m->ctx);

	if (!ret)
		ret = read_output(m, op->out, &r);
	if (!ret)
		ret = v->fn(v->arg, k, op, r);
	tt_tensor_free(r);
	return ret;
}

/* Enqueue every op of p (their programs run in order on the queue);
 * with a visitor, each op's result is read back and visited before the
 * next op runs (activations share slots: later ops overwrite them). */
static int run_ops(tt_model *m, const struct tt_model_program *p,
		   const struct op_visit *v)
{
	for (unsigned k = 0; k < p->nops; k++) {
		const struct tt_model_op *op = &p->ops[k];
		struct tt_model_call c = {.ctx = m->ctx, .d = m->d, .op = op,
					  .out = m->t[op->out]};
		char msg[512];
		int ret;

		for (unsigned j = 0; j < op->nin; j++)
			c.in[j] = op->in[j] == TT_MODEL_NONE ? NULL
							     : m->t[op->in[j]];
		ret = tt_model_op_run(&c);
		if (ret) {
			snprintf(msg, sizeof(msg), "%s", tt_last_error());
			return tt_error(ret, "program %s: op %s (%s): %s",
					p->name, op->name, op->op, msg);
		}
		if (v && v->fn) {
			ret = visit_op(m, v, k, op);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int read_output(tt_model *m, unsigned t, tt_tensor **out)
{
	const struct tt_model_tensor *mt = &m->d->tensors[t];
	int ret = tt_tensor_create(&mt->shape, mt->format, TT_TENSOR_TILED, out);

	if (!ret)
		ret = tt_device_tensor_read(m->t[t], tt_ops_ctx_queue(m->ctx),
					    *out);
	if (ret) {
		tt_tensor_free(*out);
		*out = NULL;
	}
	return ret;
}

/* The error of a tensor's write, naming the model's tensor. */
static int named_error(int ret, const char *what, const char *name)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s", tt_last_error());
	return tt_error(ret, "%s %s: %s", what, name, msg);
}

/* ---- the inputs and outputs of one program ----
 * A model of several programs (ttc merge's) may be run on just what a
 * program uses: the inputs it reads and the outputs it writes, each in
 * the model's order (docs/image.md). */

static bool program_uses(const struct tt_model_program *p, unsigned t,
			 bool out)
{
	for (unsigned k = 0; k < p->nops; k++) {
		if (out && p->ops[k].out == t)
			return true;
		for (unsigned j = 0; !out && j < p->ops[k].nin; j++)
			if (p->ops[k].in[j] == t)
				return true;
	}
	return false;
}

/* How many of the model's inputs p reads (outputs p writes). */
static unsigned program_io_count(const tt_model *m,
				 const struct tt_model_program *p, bool out)
{
	const unsigned *idx = out ? m->outputs : m->inputs;
	unsigned n = 0, all = out ? m->noutputs : m->ninputs;

	for (unsigned i = 0; i < all; i++)
		n += program_uses(p, idx[i], out);
	return n;
}

/* The tensor of the i-th input (output) given to tt_model_run: the
 * model's i-th, or with own the i-th that p uses. */
static unsigned io_tensor(const tt_model *m, const struct tt_model_program *p,
			  bool own, bool out, size_t i)
{
	const unsigned *idx = out ? m->outputs : m->inputs;
	unsigned all = out ? m->noutputs : m->ninputs;

	if (!own)
		return idx[i];
	for (unsigned k = 0; k < all; k++)
		if (program_uses(p, idx[k], out) && i-- == 0)
			return idx[k];
	return idx[0]; /* not reached: i < program_io_count */
}

/* Whether the call gives p's own inputs and outputs rather than all the
 * model's; -EINVAL when it gives neither. */
static int io_mode(const tt_model *m, const struct tt_model_program *p,
		   size_t ninputs, size_t noutputs, bool *own)
{
	unsigned pin, pout;

	*own = false;
	if (ninputs == m->ninputs && noutputs == m->noutputs)
		return 0;
	pin = program_io_count(m, p, false);
	pout = program_io_count(m, p, true);
	*own = true;
	if (ninputs == pin && noutputs == pout)
		return 0;
	return tt_error(-EINVAL,
			"tt_model_run: the model has %u inputs and %u outputs, given %zu and %zu (program %s reads %u and writes %u)",
			m->ninputs, m->noutputs, ninputs, noutputs, p->name,
			pin, pout);
}

static int run(tt_model *m, const char *program, tt_tensor *const *inputs,
	       size_t ninputs, tt_tensor **outputs, size_t noutputs,
	       const struct op_visit *v)
{
	const struct tt_model_program *p;
	bool own;
	int ret = 0;

	if (!m || (ninputs && !inputs) || (noutputs && !outputs))
		return tt_error(-EINVAL, "tt_model_run: NULL argument");
	p = find_program(m, program);
	if (!p)
		return tt_error(-ENOENT, "tt_model_run: no program %s",
				program);
	ret = io_mode(m, p, ninputs, noutputs, &own);
	for (size_t i = 0; !ret && i < ninputs; i++) {
		unsigned t = io_tensor(m, p, own, false, i);

		ret = tt_device_tensor_write(m->t[t], tt_ops_ctx_queue(m->ctx),
					     inputs[i]);
		if (ret)
			ret = named_error(ret, "tt_model_run: input",
					  m->d->tensors[t].name);
	}
	if (!ret)
		ret = run_ops(m, p, v);
	for (size_t i = 0; i < noutputs; i++)
		outputs[i] = NULL;
	for (size_t i = 0; !ret && i < noutputs; i++)
		ret = read_output(m, io_tensor(m, p, own, true, i),
				  &outputs[i]);
	if (ret)
		for (size_t i = 0; i < noutputs; i++) {
			tt_tensor_free(outputs[i]);
			outputs[i] = NULL;
		}
	return ret;
}

int tt_model_run(tt_model *m, const char *program, tt_tensor *const *inputs,
		 size_t ninputs, tt_tensor **outputs, size_t noutputs)
{
	return run(m, program, inputs, ninputs, outputs, noutputs, NULL);
}

int tt_model_run_each(tt_model *m, const char *program,
		      tt_tensor *const *inputs, size_t ninputs,
		      tt_tensor **outputs, size_t noutputs,
		      int (*visit)(void *arg, unsigned op_index,
				   const struct tt_model_op *op,
				   const tt_tensor *result),
		      void *arg)
{
	struct op_visit v = {visit, arg};

	if (!visit)
		return tt_error(-EINVAL, "tt_model_run_each: visit is NULL");
	return run(m, program, inputs, ninputs, outputs, noutputs, &v);
}

int tt_model_update_param(tt_model *m, const char *name, const tt_tensor *t)
{
	int ret;

	if (!m || !name || !t)
		return tt_error(-EINVAL, "tt_model_update_param: NULL argument");
	for (unsigned i = 0; i < m->d->ntensors; i++)
		if (strcmp(m->d->tensors[i].name, name) == 0) {
			if (m->d->tensors[i].kind != TT_MODEL_PARAM)
				return tt_error(-EINVAL,
						"tt_model_update_param: %s is not a parameter",
						name);
			tt_ops_finish(m->ctx);
			ret = tt_device_tensor_write(
				m->t[i], tt_ops_ctx_queue(m->ctx), t);
			return ret ? named_error(ret,
						 "tt_model_update_param: parameter",
						 name)
				   : 0;
		}
	return tt_error(-ENOENT, "tt_model_update_param: no tensor %s", name);
}

/* ---- kernels for an image ---- */

int tt_model_build_kernels(tt_device *dev, const struct tt_model_desc *d,
			   struct tt_kernel_set *set)
{
	tt_model *m;
	int ret = tt_model_desc_check(d);

	if (ret)
		return ret;
	m = calloc(1, sizeof(*m));
	if (!m)
		return tt_error(-ENOMEM, "tt_model_build_kernels: out of memory");
	m->dev = dev;
	m->d = d;
	ret = setup(m, false);
	if (!ret)
		ret = tt_ops_ctx_set_build_only(m->ctx, true);
	if (!ret)
		ret = tt_kernel_set_record(set);
	/* Fast dispatch's own kernel too: a loading host without the
	 * compiler cannot start dispatching without it. */
	if (!ret)
		ret = tt_fd_build_dispatcher();
	for (unsigned i = 0; !ret && i < d->nprograms; i++)
		ret = run_ops(m, &d->programs[i], NULL);
	tt_kernel_set_record(NULL);
	tt_model_free(m);
	return ret;
}

/* For the backend: the model's inputs and outputs. */
unsigned tt_model_io(const tt_model *m, bool outputs, const unsigned **idx)
{
	*idx = outputs ? m->outputs : m->inputs;
	return outputs ? m->noutputs : m->ninputs;
}
