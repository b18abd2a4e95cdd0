// SPDX-License-Identifier: Apache-2.0
/*
 * The pass manager: the table of built-in passes, options, and the run of
 * a pipeline over every function of a module (nested modules too), with
 * printing, timing and verification between passes.
 */
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ttc/text.h"

#include "internal.h"

/*
 * Built-in passes: the default pipeline's first (its order), then the
 * others. A pass of another file of libttc is added by declaring it in
 * internal.h and listing it here; one that joins the default pipeline is
 * named in default_names too (DEFAULT_PIPELINE counts them).
 */
static const struct ttc_pass *const builtin[] = {
	&ttc_pass_decompose, &ttc_pass_canonicalize, &ttc_pass_consteval,
	&ttc_pass_cse,	     &ttc_pass_dce,	     &ttc_pass_fuse,
	&ttc_pass_formats,
};
#define NBUILTIN (sizeof(builtin) / sizeof(builtin[0]))
#define DEFAULT_PIPELINE 7

static const char *const default_names[DEFAULT_PIPELINE] = {
	"decompose", "canonicalize", "consteval", "cse", "dce", "fuse", "formats",
};

const char *const *ttc_pass_default_pipeline(size_t *n)
{
	if (n)
		*n = DEFAULT_PIPELINE;
	return default_names;
}

size_t ttc_pass_count(void)
{
	return NBUILTIN;
}

const struct ttc_pass *ttc_pass_at(size_t i)
{
	return i < NBUILTIN ? builtin[i] : NULL;
}

const struct ttc_pass *ttc_pass_lookup(const char *name)
{
	for (size_t i = 0; name && i < NBUILTIN; i++)
		if (!strcmp(builtin[i]->name, name))
			return builtin[i];
	return NULL;
}

struct ttc_pass_options ttc_pass_options_default(void)
{
	return (struct ttc_pass_options){
		.enable_consteval = true,
		.enable_auto_fusing = true,
		.consteval_limit = 64u << 20,
		.default_df = TT_INVALID,
		.acc_df = TT_FLOAT16_B,
		.fidelity = TT_HIFI3,
	};
}

static const struct {
	enum tt_math_fidelity f;
	const char *name;
} fidelities[] = { { TT_LOFI, "LoFi" },
		   { TT_HIFI2, "HiFi2" },
		   { TT_HIFI3, "HiFi3" },
		   { TT_HIFI4, "HiFi4" } };

const char *ttc_fidelity_name(enum tt_math_fidelity f)
{
	for (size_t i = 0; i < 4; i++)
		if (fidelities[i].f == f)
			return fidelities[i].name;
	return NULL;
}

int ttc_fidelity_parse(const char *name, enum tt_math_fidelity *f)
{
	for (size_t i = 0; name && f && i < 4; i++)
		if (!strcasecmp(fidelities[i].name, name)) {
			*f = fidelities[i].f;
			return 0;
		}
	return -EINVAL;
}

static const struct ttc_pass *find(const struct ttc_pass_options *o,
				   const char *name)
{
	for (size_t i = 0; name && i < o->nextra_passes; i++)
		if (o->extra_passes[i] && o->extra_passes[i]->name &&
		    !strcmp(o->extra_passes[i]->name, name))
			return o->extra_passes[i];
	return ttc_pass_lookup(name);
}

static void unknown(ttc_ctx *ctx, const struct ttc_pass_options *o,
		    const char *name)
{
	struct ttc_buf b = { 0 };

	ttc_buf_printf(&b, "unknown pass '%s'; known passes:",
		       name ? name : "(null)");
	for (size_t i = 0; i < o->nextra_passes; i++)
		if (o->extra_passes[i] && o->extra_passes[i]->name)
			ttc_buf_printf(&b, " %s", o->extra_passes[i]->name);
	for (size_t i = 0; i < NBUILTIN; i++)
		ttc_buf_printf(&b, " %s", builtin[i]->name);
	ttc_diag_addf(ctx, "%s", b.p);
	ttc_buf_free(&b);
}

/* Every function with a body of m and its nested modules. */
static int run_funcs(ttc_module *m, struct ttc_pass_ctx *pc)
{
	int rc;

	for (size_t i = 0; i < ttc_module_num_items(m); i++) {
		ttc_func *f = ttc_module_item_func(m, i);
		ttc_module *sub = ttc_module_item_module(m, i);

		if (f && !ttc_func_is_declaration(f) &&
		    (rc = pc->pass->run(f, pc)))
			return rc;
		if (sub && (rc = run_funcs(sub, pc)))
			return rc;
	}
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void print_times(FILE *out, const struct ttc_pass_stats *s)
{
	fprintf(out, "%-16s %10s %6s\n", "pass", "ms", "%");
	for (size_t i = 0; i < s->npasses; i++)
		fprintf(out, "%-16s %10.3f %6.1f\n", s->times[i].name,
			s->times[i].ms,
			s->total_ms > 0 ? 100 * s->times[i].ms / s->total_ms :
					  0.0);
	fprintf(out, "%-16s %10.3f %6.1f\n", "total", s->total_ms, 100.0);
}

static bool wants_print(const struct ttc_pass_options *o, const char *name)
{
	return o->print_after && (!strcmp(o->print_after, "all") ||
				  !strcmp(o->print_after, name));
}

static int run_one(ttc_module *m, struct ttc_pass_ctx *pc)
{
	const struct ttc_pass *p = pc->pass;
	const struct ttc_pass_options *o = pc->opts;
	FILE *out = o->out ? o->out : stderr;
	int rc, nerr;

	pc->state = NULL;
	rc = p->run_module ? p->run_module(m, pc) :
	     p->run	   ? run_funcs(m, pc) :
			     0;
	if (rc) {
		ttc_diag_addf(pc->ctx, "pass '%s' failed", p->name);
		return rc;
	}
	if (o->verify_each && (nerr = ttc_module_verify(m))) {
		ttc_diag_addf(pc->ctx,
			      "pass '%s' left IR that does not verify "
			      "(%d errors)",
			      p->name, nerr);
		return -EINVAL;
	}
	if (wants_print(o, p->name)) {
		fprintf(out, "// -----// IR Dump After %s //----- //\n",
			p->name);
		if ((rc = ttc_print_file(m, 0, out)))
			return rc;
	}
	return 0;
}

int ttc_run_passes(ttc_module *m, const char *const *names, size_t n,
		   const struct ttc_pass_options *o,
		   struct ttc_pass_stats *stats)
{
	struct ttc_pass_options def = ttc_pass_options_default();
	struct ttc_pass_stats local;
	const struct ttc_pass *pipe[TTC_PASS_MAX_PIPELINE];
	ttc_ctx *ctx;
	int rc = 0;

	if (!m)
		return -EINVAL;
	ctx = ttc_module_ctx(m);
	o = o ? o : &def;
	stats = stats ? stats : &local;
	memset(stats, 0, sizeof(*stats));
	if (n && !names) {
		ttc_diag_addf(ctx, "a pipeline of %zu passes and no names", n);
		return -EINVAL;
	}
	if (n > TTC_PASS_MAX_PIPELINE) {
		ttc_diag_addf(ctx, "a pipeline of %zu passes (at most %d)", n,
			      TTC_PASS_MAX_PIPELINE);
		return -E2BIG;
	}
	for (size_t i = 0; i < (n ? n : DEFAULT_PIPELINE); i++) {
		pipe[i] = n ? find(o, names[i]) :
			      ttc_pass_lookup(default_names[i]);
		if (!pipe[i]) {
			unknown(ctx, o, n ? names[i] : default_names[i]);
			return -ENOENT;
		}
	}
	n = n ? n : DEFAULT_PIPELINE;
	/* --print-after=typo would otherwise print nothing, silently. */
	if (o->print_after && strcmp(o->print_after, "all") &&
	    !find(o, o->print_after)) {
		unknown(ctx, o, o->print_after);
		return -ENOENT;
	}
	if (o->verify_each && ttc_module_verify(m)) {
		ttc_diag_addf(ctx, "the input of the pipeline does not verify");
		return -EINVAL;
	}
	struct ttc_pass_ctx pc = { .ctx = ctx, .module = m, .opts = o,
				   .param_value = o->param_value,
				   .param_arg = o->param_arg,
				   .stats = stats };

	for (size_t i = 0; i < n && !rc; i++) {
		double t0 = now_ms();

		pc.pass = pipe[i];
		rc = run_one(m, &pc);
		stats->times[i].name = pipe[i]->name;
		stats->times[i].ms = now_ms() - t0;
		stats->total_ms += stats->times[i].ms;
		stats->npasses = i + 1;
	}
	if (o->time_passes)
		print_times(o->out ? o->out : stderr, stats);
	return rc;
}
