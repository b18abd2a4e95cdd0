// SPDX-License-Identifier: Apache-2.0
/*
 * One ONNX backend test case (a directory holding model.onnx and
 * test_data_set_N/{input,output}_M.pb): imported, run on the goldens on
 * every data set and compared with the expected outputs as ONNX's own
 * backend runner compares (|got - want| <= atol + rtol * |want|); then,
 * when asked, compiled for the device through the PyBuda flow
 * (ttc/pipeline.h) and run there, compared by PCC >= 0.99 (integers
 * and booleans exactly), as the device computes in bf16.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ttc/onnx.h"
#include "ttc/ops.h"
#include "ttc/pipeline.h"

#include "cli.h"
#include "onnx_case.h"


bool onnx_case_exists(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !stat(path, &st);
}

/* "WHY" from the context's first diagnostic, on one line. */
static void first_diag(ttc_ctx *ctx, char *why, size_t n)
{
	const struct ttc_diag *d = ttc_ctx_diag(ctx, 0);

	snprintf(why, n, "%s", d ? d->message : "(no diagnostic)");
	why[strcspn(why, "\n")] = 0;
}

static bool close_enough(double want, double got, const struct onnx_case_opts *c)
{
	if (isnan(want) || isnan(got))
		return isnan(want) && isnan(got);
	if (isinf(want) || isinf(got))
		return want == got;
	return fabs(got - want) <= c->atol + c->rtol * fabs(want);
}

static enum onnx_result compare(const ttc_tensor *want, const ttc_tensor *got,
			   size_t k, const struct onnx_case_opts *c, char *why,
			   size_t n)
{
	char tw[128], tg[128];
	double worst = 0;
	size_t at = 0, bad = 0;

	if (want->type != got->type) {
		ttc_type_format(want->type, tw, sizeof(tw));
		ttc_type_format(got->type, tg, sizeof(tg));
		snprintf(why, n, "output %zu is %s, expected %s", k, tg, tw);
		return ONNX_FAIL;
	}
	for (size_t i = 0; i < want->numel; i++) {
		double w = ttc_tensor_get(want, i), g = ttc_tensor_get(got, i);

		if (close_enough(w, g, c))
			continue;
		if (!bad++ || fabs(g - w) > worst || isnan(g - w)) {
			worst = fabs(g - w);
			at = i;
		}
	}
	if (!bad)
		return ONNX_PASS;
	snprintf(why, n, "output %zu: %zu of %zu values differ, the largest "
			 "by %g at %zu (%g, expected %g)",
		 k, bad, want->numel, worst, at, ttc_tensor_get(got, at),
		 ttc_tensor_get(want, at));
	return ONNX_FAIL;
}

/* NumPy has no bfloat16: ONNX's test data holds bf16 tensors as uint16
 * bits. Such a tensor is given the bf16 type want has. */
static ttc_tensor *load_pb(ttc_ctx *ctx, const char *set, const char *kind,
			   size_t i, const ttc_type *want)
{
	char path[4096];
	ttc_tensor *t;
	const ttc_type *e;

	snprintf(path, sizeof(path), "%s/%s_%zu.pb", set, kind, i);
	t = ttc_onnx_load_tensor(ctx, path, NULL);
	e = t ? ttc_type_elem(t->type) : NULL;
	if (e && ttc_type_kind(e) == TTC_TYPE_INT && ttc_type_width(e) == 16 &&
	    ttc_type_signedness(e) == TTC_UNSIGNED &&
	    ttc_type_kind(ttc_type_elem(want)) == TTC_TYPE_FLOAT &&
	    ttc_type_float_kind(ttc_type_elem(want)) == TTC_BF16 &&
	    (int64_t)t->numel == ttc_type_numel(want))
		t->type = want;
	return t;
}

static size_t count_pb(const char *set, const char *kind)
{
	char name[64];
	size_t i = 0;

	while (snprintf(name, sizeof(name), "%s_%zu.pb", kind, i),
	       onnx_case_exists(set, name))
		i++;
	return i;
}

#define MAX_INPUTS 64

/* The first data set's inputs: their shapes resolve the model's symbolic
 * dimensions as --input-shape would; the integer ones are bound to
 * constants when the importer needs their values (shapes, axes, pads
 * that the test gives as graph inputs). */
struct case_data {
	struct ttc_onnx_shape shapes[MAX_INPUTS];
	struct ttc_onnx_const consts[MAX_INPUTS];
	ttc_tensor *values[MAX_INPUTS];
	bool bound[MAX_INPUTS];
	size_t n, nconsts;
};

static void read_first_set(ttc_ctx *ctx, const char *dir, struct case_data *d)
{
	char path[4096];

	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < MAX_INPUTS; i++) {
		const char *name;
		ttc_tensor *t;

		snprintf(path, sizeof(path), "test_data_set_0/input_%zu.pb", i);
		if (!onnx_case_exists(dir, path))
			break;
		snprintf(path, sizeof(path), "%s/test_data_set_0/input_%zu.pb",
			 dir, i);
		t = ttc_onnx_load_tensor(ctx, path, &name);
		if (!t || strlen(name) >= sizeof(d->shapes[0].name)) {
			ttc_tensor_free(t);
			break;
		}
		snprintf(d->shapes[i].name, sizeof(d->shapes[i].name), "%s", name);
		d->shapes[i].rank = ttc_type_rank(t->type);
		memcpy(d->shapes[i].dims, ttc_type_dims(t->type),
		       d->shapes[i].rank * sizeof(int64_t));
		d->values[i] = t;
		d->n++;
	}
	ttc_ctx_clear_diags(ctx);
}

/* Binds every named integer input; how many. */
static size_t bind_integers(struct case_data *d)
{
	for (size_t i = 0; i < d->n; i++) {
		const ttc_type *e = ttc_type_elem(d->values[i]->type);

		if (ttc_type_kind(e) != TTC_TYPE_INT || ttc_type_width(e) == 1 ||
		    !d->shapes[i].name[0])
			continue;
		d->bound[i] = true;
		d->consts[d->nconsts++] = (struct ttc_onnx_const){
			d->shapes[i].name, d->values[i]};
	}
	return d->nconsts;
}

static void free_case_data(struct case_data *d)
{
	for (size_t i = 0; i < d->n; i++)
		ttc_tensor_free(d->values[i]);
}

/* Whether input i of the data set equals v. */
static bool same_values(ttc_ctx *ctx, const char *set, size_t i,
			const ttc_tensor *v)
{
	ttc_tensor *t = load_pb(ctx, set, "input", i, v->type);
	bool same = t && t->type == v->type &&
		    !memcmp(t->data, v->data,
			    v->numel * ttc_type_elem_bytes(ttc_type_elem(v->type)));

	ttc_tensor_free(t);
	return same;
}

/* A data set's inputs that are not bound, in order, as the function's
 * first arguments in[]; 0, or -1 with why. */
static int load_inputs(ttc_ctx *ctx, const char *set, const struct case_data *d,
		       ttc_func *f, size_t nin, ttc_tensor **in, char *why,
		       size_t n)
{
	size_t files = count_pb(set, "input"), k = 0, bound = 0;

	for (size_t i = 0; i < files && i < MAX_INPUTS; i++)
		bound += d->bound[i];
	if (files != nin + bound) {
		snprintf(why, n, "%s holds %zu inputs, the model has %zu", set,
			 files, nin + bound);
		return -1;
	}
	for (size_t i = 0; i < files; i++) {
		if (d->bound[i] && !same_values(ctx, set, i, d->values[i])) {
			snprintf(why, n, "input %zu of %s differs from the "
					 "first data set's, to which the model "
					 "was specialised", i, set);
			return -1;
		}
		if (d->bound[i])
			continue;
		in[k] = load_pb(ctx, set, "input", i,
				ttc_value_type(ttc_func_arg(f, k)));
		if (!in[k++]) {
			first_diag(ctx, why, n);
			return -1;
		}
	}
	return 0;
}

/* Runs one data set; ONNX_PASS, or FAIL with why. */
static enum onnx_result run_set(ttc_ctx *ctx, ttc_onnx_model *om,
				const struct case_data *d, const char *set,
				const struct onnx_case_opts *c, char *why,
				size_t n)
{
	ttc_func *f = ttc_onnx_func(om);
	size_t na = ttc_func_num_args(f), nr = ttc_func_num_results(f);
	size_t nin = ttc_onnx_num_inputs(om);
	ttc_tensor **args = calloc(na + 1, sizeof(*args));
	ttc_tensor **res = calloc(nr + 1, sizeof(*res));
	enum onnx_result r = ONNX_FAIL;

	if (!args || !res)
		goto out;
	if (count_pb(set, "output") != nr) {
		snprintf(why, n, "%s holds %zu outputs, the model has %zu", set,
			 count_pb(set, "output"), nr);
		goto out;
	}
	if (load_inputs(ctx, set, d, f, nin, args, why, n))
		goto out;
	for (size_t i = nin; i < na; i++)
		if (!(args[i] = ttc_tensor_clone(ttc_onnx_param(om, f, i))))
			goto out;
	if (ttc_golden_run(f, args, na, res, NULL)) {
		first_diag(ctx, why, n);
		goto out;
	}
	r = ONNX_PASS;
	for (size_t k = 0; r == ONNX_PASS && k < nr; k++) {
		ttc_tensor *want = load_pb(ctx, set, "output", k,
					   ttc_func_result_type(f, k));

		if (!want) {
			first_diag(ctx, why, n);
			r = ONNX_FAIL;
		} else {
			r = compare(want, res[k], k, c, why, n);
		}
		ttc_tensor_free(want);
	}
out:
	for (size_t i = 0; args && i < na; i++)
		ttc_tensor_free(args[i]);
	for (size_t i = 0; res && i < nr; i++)
		ttc_tensor_free(res[i]);
	free(args);
	free(res);
	return r;
}

/* ---- on the device ---- */

static bool is_float(const ttc_tensor *t)
{
	return ttc_type_kind(ttc_type_elem(t->type)) == TTC_TYPE_FLOAT;
}

/* Whether every value is as close as bf16 arithmetic gets: within 2%
 * plus 1% of the largest magnitude (PCC says nothing of a tensor of one
 * value or of equal values). */
static bool bf16_close(const ttc_tensor *want, const ttc_tensor *got)
{
	double big = 0;

	for (size_t i = 0; i < want->numel; i++)
		big = fmax(big, fabs(ttc_tensor_get(want, i)));
	for (size_t i = 0; i < want->numel; i++) {
		double w = ttc_tensor_get(want, i), g = ttc_tensor_get(got, i);

		if (!(fabs(g - w) <= 1e-3 + 1e-2 * big + 2e-2 * fabs(w)))
			return false;
	}
	return true;
}

/* The device's output k against the expected one: PCC for floats (the
 * device computes in bf16), exact for the rest. */
static enum onnx_result compare_device(const ttc_tensor *want,
				       const ttc_tensor *got, size_t k,
				       char *why, size_t n)
{
	struct ttc_compare_want w = ttc_compare_defaults();
	struct ttc_compare cmp;

	if (want->numel != got->numel ||
	    ttc_type_rank(want->type) != ttc_type_rank(got->type)) {
		snprintf(why, n, "output %zu has %zu values, expected %zu", k,
			 got->numel, want->numel);
		return ONNX_FAIL;
	}
	if (!is_float(want)) {
		for (size_t i = 0; i < want->numel; i++)
			if (ttc_tensor_get(want, i) != ttc_tensor_get(got, i)) {
				snprintf(why, n, "output %zu: value %zu is %g, "
						 "expected %g", k, i,
					 ttc_tensor_get(got, i),
					 ttc_tensor_get(want, i));
				return ONNX_FAIL;
			}
		return ONNX_PASS;
	}
	if (ttc_compare_tensors(want, got, &w, &cmp))
		return ONNX_FAIL;
	if (cmp.pass || bf16_close(want, got))
		return ONNX_PASS;
	snprintf(why, n, "output %zu: PCC %.5f (at least %.2f), max abs "
			 "error %g", k, cmp.pcc, w.pcc, cmp.max_abs);
	return ONNX_FAIL;
}

static enum onnx_result device_set(ttc_ctx *ctx, ttc_pipeline *p,
				   ttc_onnx_model *om,
				   const struct case_data *d, const char *set,
				   char *why, size_t n)
{
	ttc_func *f = ttc_onnx_func(om);
	size_t nin = ttc_onnx_num_inputs(om), nr = ttc_func_num_results(f);
	ttc_tensor **in = calloc(nin + 1, sizeof(*in));
	ttc_tensor **out = calloc(nr + 1, sizeof(*out));
	enum onnx_result r = ONNX_FAIL;

	if (!in || !out || load_inputs(ctx, set, d, f, nin, in, why, n))
		goto out;
	if (ttc_run_forward(p, in, nin, out, nr)) {
		snprintf(why, n, "the run failed: %s", ttc_pipeline_error(p));
		goto out;
	}
	r = ONNX_PASS;
	for (size_t k = 0; r == ONNX_PASS && k < nr; k++) {
		ttc_tensor *want = load_pb(ctx, set, "output", k,
					   ttc_func_result_type(f, k));

		r = want ? compare_device(want, out[k], k, why, n) : ONNX_FAIL;
		ttc_tensor_free(want);
	}
out:
	for (size_t i = 0; in && i < nin; i++)
		ttc_tensor_free(in[i]);
	for (size_t i = 0; out && i < nr; i++)
		ttc_tensor_free(out[i]);
	free(in);
	free(out);
	return r;
}

/* Compiles the model for dev through the pipeline (a refusal is
 * "unsupported on the device") and runs every data set. */
static enum onnx_result run_device(ttc_ctx *ctx, tt_device *dev,
				   ttc_onnx_model *om,
				   const struct case_data *data, const char *dir,
				   char *why, size_t n)
{
	ttc_pipeline *p = ttc_pipeline_new();
	ttc_device *d = p ? ttc_tt_device_new("tt0", dev) : NULL;
	ttc_pymodule *mod = d ? ttc_pymodule_new_from_func(
					"case", ttc_onnx_module(om),
					ttc_onnx_func(om)) :
				NULL;
	enum onnx_result r = ONNX_UNSUPPORTED;
	char path[4096];

	if (!mod || ttc_device_place_module(d, mod) ||
	    ttc_pipeline_add_device(p, d)) {
		snprintf(why, n, "cannot set up the pipeline");
		ttc_pymodule_free(mod);
		ttc_device_free(d);
		ttc_shutdown(p);
		return ONNX_FAIL;
	}
	ttc_pymodule_set_param_fn(mod, ttc_onnx_param, om);
	if (ttc_initialize_pipeline(p, NULL, 0)) {
		snprintf(why, n, "%s", ttc_pipeline_error(p));
		why[strcspn(why, "\n")] = 0;
	} else {
		r = ONNX_PASS;
	}
	for (unsigned s = 0; r == ONNX_PASS; s++) {
		snprintf(path, sizeof(path), "%s/test_data_set_%u", dir, s);
		if (!onnx_case_exists(path, "."))
			break;
		r = device_set(ctx, p, om, data, path, why, n);
	}
	ttc_shutdown(p);
	return r;
}

static int import(ttc_ctx *ctx, const char *dir, const struct case_data *d,
		  ttc_onnx_model **om)
{
	struct ttc_onnx_options io = ttc_onnx_defaults();
	char path[4096];

	io.shapes = d->shapes;
	io.nshapes = d->n;
	io.consts = d->consts;
	io.nconsts = d->nconsts;
	snprintf(path, sizeof(path), "%s/model.onnx", dir);
	return ttc_onnx_import(ctx, path, &io, om);
}

void onnx_case_run(const char *dir, const struct onnx_case_opts *o,
		   struct onnx_case_result *res)
{
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_onnx_model *om = NULL;
	struct case_data *d = calloc(1, sizeof(*d));
	char path[4096];
	enum onnx_result r = ONNX_PASS;
	int rc = -ENOMEM;

	memset(res, 0, sizeof(*res));
	if (d) {
		read_first_set(ctx, dir, d);
		rc = import(ctx, dir, d, &om);
	}
	/* an input the importer must know (a shape, axes, pads): bound
	 * from the first data set, as a compiler that specializes on it */
	if (rc == -ENOTSUP && ttc_ctx_diag_count(ctx) &&
	    strstr(ttc_ctx_diag(ctx, 0)->message, "must be known at import") &&
	    bind_integers(d)) {
		ttc_ctx_clear_diags(ctx);
		rc = import(ctx, dir, d, &om);
		res->bound = d->nconsts;
	}
	if (rc) {
		first_diag(ctx, res->cpu_why, sizeof(res->cpu_why));
		r = rc == -ENOTSUP ? ONNX_UNSUPPORTED : ONNX_FAIL;
	}
	for (unsigned s = 0; !rc && r == ONNX_PASS; s++) {
		snprintf(path, sizeof(path), "%s/test_data_set_%u", dir, s);
		if (!onnx_case_exists(path, "."))
			break;
		ttc_ctx_clear_diags(ctx);
		r = run_set(ctx, om, d, path, o, res->cpu_why,
			    sizeof(res->cpu_why));
	}
	res->cpu = r;
	if (r == ONNX_PASS && o->dev) {
		res->ran_device = true;
		res->device = run_device(ctx, o->dev, om, d, dir,
					 res->device_why,
					 sizeof(res->device_why));
	}
	if (d)
		free_case_data(d);
	free(d);
	ttc_onnx_model_free(om);
	ttc_ctx_free(ctx);
}
