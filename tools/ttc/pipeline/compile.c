// SPDX-License-Identifier: Apache-2.0
/*
 * initialize_pipeline's compile of a TT device's module: a private copy
 * of its TTIR (the passes rewrite what they compile; the caller's module
 * stays as given), ttc_compile with the pipeline's options into an image
 * (backend_output_dir, else the pipeline's temporary directory), and the
 * image loaded on the device with tt_model_load.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ttc/ops.h"
#include "ttc/text.h"

/* The values of the copy's parameters: the module's, by argument index
 * (the copy's arguments are the original's, in order), made again with
 * the copy's types (types belong to a context, and the passes compare
 * them). */
struct values {
	ttc_func *cf;
	ttc_tensor **v;
	size_t n;
};

static const ttc_tensor *param_of(void *arg, ttc_func *f, size_t i)
{
	struct values *vals = arg;

	return f == vals->cf && i < vals->n ? vals->v[i] : NULL;
}

static int copy_values(ttc_pipeline *p, ttc_pymodule *mod, ttc_func *cf,
		       struct values *vals)
{
	vals->cf = cf;
	vals->n = ttc_func_num_args(cf);
	vals->v = calloc(vals->n + 1, sizeof(*vals->v));
	if (!vals->v)
		return -ENOMEM;
	for (size_t i = 0; i < vals->n; i++) {
		const ttc_tensor *t =
			pl_is_param(cf, i) ? pl_module_value(mod, i) : NULL;

		if (!t)
			continue;
		vals->v[i] = ttc_tensor_new(
			mod->cctx, ttc_value_type(ttc_func_arg(cf, i)));
		if (!vals->v[i] || vals->v[i]->numel != t->numel)
			return pl_err(p, -EINVAL,
				      "module %s: argument %zu: "
				      "a value of %zu elements, %zu wanted",
				      mod->name, i, t->numel,
				      vals->v[i] ? vals->v[i]->numel : 0);
		for (size_t k = 0; k < t->numel; k++)
			ttc_tensor_set(vals->v[i], k, ttc_tensor_get(t, k));
	}
	return 0;
}

static void free_values(struct values *vals)
{
	for (size_t i = 0; vals->v && i < vals->n; i++)
		ttc_tensor_free(vals->v[i]);
	free(vals->v);
}

static int image_dir(ttc_pipeline *p, const char **dir)
{
	const char *tmp = getenv("TMPDIR");

	if (p->cfg.backend_output_dir) {
		*dir = p->cfg.backend_output_dir;
		return 0;
	}
	if (!p->tmpdir[0]) {
		snprintf(p->tmpdir, sizeof(p->tmpdir), "%s/ttc-pipeline-XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(p->tmpdir)) {
			p->tmpdir[0] = 0;
			return pl_err(p, -errno, "a temporary directory: %s",
				      strerror(errno));
		}
	}
	*dir = p->tmpdir;
	return 0;
}

/* The image's path: the directory, the module's place and its name with
 * what a file name cannot hold replaced. */
static int image_path(ttc_pipeline *p, struct stage *s, size_t k)
{
	const char *dir = NULL;
	int ret = image_dir(p, &dir);
	char *c;

	if (ret)
		return ret;
	snprintf(s->m->image, sizeof(s->m->image), "%s/%zu-%s.tti", dir, k,
		 s->m->name);
	for (c = strrchr(s->m->image, '/') + 1; *c; c++)
		if (*c == '/' || *c == ' ')
			*c = '_';
	s->m->temp_image = !p->cfg.backend_output_dir;
	return 0;
}

/* The copy: the module printed with locations and parsed back. */
static int private_copy(ttc_pipeline *p, ttc_pymodule *mod, ttc_module **cm,
			ttc_func **cf)
{
	size_t len;
	char *text = ttc_print(mod->m, TTC_PRINT_LOC, &len);

	mod->cctx = ttc_ctx_new_ttir();
	if (!text || !mod->cctx) {
		free(text);
		return pl_err(p, -ENOMEM, "module %s: out of memory",
			      mod->name);
	}
	*cm = ttc_parse(mod->cctx, mod->name, text, len, 0);
	free(text);
	*cf = *cm ? ttc_module_lookup(*cm, ttc_func_name(mod->f)) : NULL;
	if (!*cf)
		return pl_err(p, -EINVAL, "module %s: its copy: %s", mod->name,
			      ttc_ctx_error(mod->cctx));
	return 0;
}

static size_t count_kind(const struct tt_model_desc *d,
			 enum tt_model_tensor_kind k)
{
	size_t n = 0;

	for (unsigned i = 0; i < d->ntensors; i++)
		n += d->tensors[i].kind == k;
	return n;
}

static int load(ttc_pipeline *p, struct stage *s)
{
	const struct tt_model_desc *d;
	int ret = tt_model_load(s->d->dev, s->m->image, &s->m->model);

	if (ret)
		return pl_err(p, ret, "module %s on %s: %s", s->m->name,
			      s->d->name, tt_last_error());
	d = tt_model_get_desc(s->m->model);
	if (count_kind(d, TT_MODEL_INPUT) != s->m->nin ||
	    count_kind(d, TT_MODEL_OUTPUT) != s->m->nout)
		return pl_err(p, -EINVAL,
			      "module %s: the image has %zu inputs and %zu "
			      "outputs, the function %zu and %zu",
			      s->m->name, count_kind(d, TT_MODEL_INPUT),
			      count_kind(d, TT_MODEL_OUTPUT), s->m->nin,
			      s->m->nout);
	return 0;
}

int pl_stage_compile(ttc_pipeline *p, struct stage *s)
{
	struct ttc_compile_options o;
	struct values vals = {0};
	ttc_module *cm = NULL;
	ttc_func *cf = NULL;
	int ret;

	ret = ttc_config_compile_options(&p->cfg, &o);
	if (ret)
		return pl_err(p, ret, "%s", ttc_config_error(&p->cfg));
	ret = image_path(p, s, (size_t)(s - p->stages));
	if (!ret)
		ret = private_copy(p, s->m, &cm, &cf);
	if (!ret)
		ret = copy_values(p, s->m, cf, &vals);
	if (!ret) {
		ret = ttc_compile(cm, cf, s->d->dev, &o, param_of, &vals,
				  s->m->image, NULL);
		if (ret)
			pl_err(p, ret, "module %s: compile: %s", s->m->name,
			       ttc_ctx_error(s->m->cctx));
	}
	free_values(&vals);
	ttc_module_free(cm);
	ttc_ctx_free(s->m->cctx);
	s->m->cctx = NULL;
	return ret ? ret : load(p, s);
}
