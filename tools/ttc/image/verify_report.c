// SPDX-License-Identifier: Apache-2.0
/*
 * Verification's statistics and text report: the first failing op
 * first, with its inputs' statistics on the device and golden sides,
 * then every op's PCC (docs/compiler.md "Verification").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "verify_internal.h"

void verify_stats(const double *v, size_t n, struct ttc_verify_stats *out)
{
	double sum = 0, sq = 0;
	size_t finite = 0;

	*out = (struct ttc_verify_stats){.known = true, .n = n,
					 .min = INFINITY, .max = -INFINITY};
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i])) {
			out->nan++;
			continue;
		}
		if (isinf(v[i])) {
			out->inf++;
			continue;
		}
		out->min = fmin(out->min, v[i]);
		out->max = fmax(out->max, v[i]);
		sum += v[i];
		finite++;
	}
	if (!finite) {
		out->min = out->max = NAN;
		out->mean = out->std = NAN;
		return;
	}
	out->mean = sum / (double)finite;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			sq += (v[i] - out->mean) * (v[i] - out->mean);
	out->std = sqrt(sq / (double)finite);
}

void verify_stats_tensor(const ttc_tensor *t, struct ttc_verify_stats *out)
{
	double *v = malloc((t->numel + 1) * sizeof(*v));

	*out = (struct ttc_verify_stats){0};
	if (!v)
		return;
	for (size_t i = 0; i < t->numel; i++)
		v[i] = ttc_tensor_get(t, i);
	verify_stats(v, t->numel, out);
	free(v);
}

void ttc_verify_result_free(struct ttc_verify_result *r)
{
	if (!r)
		return;
	for (size_t k = 0; r->ops && k < r->nops; k++) {
		free(r->ops[k].name);
		free(r->ops[k].kind);
	}
	for (size_t i = 0; r->inputs && i < r->ninputs; i++)
		free(r->inputs[i].name);
	free(r->ops);
	free(r->inputs);
	*r = (struct ttc_verify_result){.first_fail = -1};
}

static void print_stats(FILE *f, const char *side,
			const struct ttc_verify_stats *s)
{
	if (!s->known) {
		fprintf(f, "      %-7s not read\n", side);
		return;
	}
	fprintf(f,
		"      %-7s min %.6g max %.6g mean %.6g std %.6g nan %zu inf %zu (%zu values)\n",
		side, s->min, s->max, s->mean, s->std, s->nan, s->inf, s->n);
}

static void print_first(FILE *f, const struct ttc_verify_result *r,
			const struct ttc_verify_config *v)
{
	const struct ttc_verify_op *o = &r->ops[r->first_fail];

	fprintf(f, "first failing op: %s (%s, op #%u): pcc %.6f < %.4g%s, atol %.6g\n",
		o->name, o->kind, o->index, o->pcc, v->pcc,
		o->pcc >= v->pcc ? " (allclose fails)" : "", o->atol);
	fprintf(f, "  its inputs:\n");
	for (size_t i = 0; i < r->ninputs; i++) {
		const struct ttc_verify_input *in = &r->inputs[i];

		fprintf(f, "    %s (%s)\n", in->name, in->kind);
		print_stats(f, "device", &in->device);
		print_stats(f, "golden", &in->golden);
	}
}

void ttc_verify_print(FILE *f, const struct ttc_verify_result *r,
		      const struct ttc_verify_config *v)
{
	struct ttc_verify_config d = ttc_verify_config_default();

	if (!f || !r)
		return;
	if (!v)
		v = &d;
	if (r->first_fail >= 0 && (size_t)r->first_fail < r->nops)
		print_first(f, r, v);
	fprintf(f, "ops (pcc >= %.4g%s):\n", v->pcc,
		v->check_allclose ? ", allclose" : "");
	for (size_t k = 0; k < r->nops; k++) {
		const struct ttc_verify_op *o = &r->ops[k];

		if (!o->checked) {
			fprintf(f, "  #%-3u %-24s %-10s not checked\n",
				o->index, o->name, o->kind);
			continue;
		}
		fprintf(f, "  #%-3u %-24s %-10s pcc %.6f atol %-10.4g %s\n",
			o->index, o->name, o->kind, o->pcc, o->atol,
			o->pass ? "ok" : "FAIL");
	}
	fprintf(f, "verify: %zu ops checked, %zu failed: %s\n", r->checked,
		r->failed, r->pass ? "PASS" : "FAIL");
}
