/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libttc's passes: functions from IR to IR, each with a name, run in a
 * pipeline by a pass manager that can print the IR after a pass, time
 * every pass and verify between passes. docs/compiler.md ("Passes") lists
 * each pass, the attributes it writes and the options.
 *
 * Conventions of ttc/common.h: failures return a negative errno and leave
 * a diagnostic in the module's context naming the pass (and the op).
 */
#ifndef TTC_PASSES_H
#define TTC_PASSES_H

#include <stdio.h>

#include "tt/dataformat.h"
#include "tt/program.h"
#include "ttc/golden.h"
#include "ttc/ir.h"

struct ttc_pass_ctx;

/*
 * A pass. run is called once for every function with a body of the
 * module and of its nested modules, in order; run_module (when not NULL)
 * is called once with the top-level module instead (for passes that look
 * at the whole program). Each returns 0, or a negative errno with a
 * diagnostic in pc->ctx.
 */
struct ttc_pass {
	const char *name;
	const char *summary; /* one line */
	int (*run)(ttc_func *f, struct ttc_pass_ctx *pc);
	int (*run_module)(ttc_module *m, struct ttc_pass_ctx *pc);
};

/* "Unset" for a fidelity of an override (keep what is there). */
#define TTC_FIDELITY_UNSET ((enum tt_math_fidelity)0xff)

/*
 * configure_mixed_precision: the ops it applies to, and what it sets.
 * An op matches when every selector given matches: name (the op's loc
 * name, exactly), regex (a POSIX extended regex searched in the loc name)
 * and op_type ("ttir.softmax"). df, acc_df: TT_INVALID keeps the value;
 * fidelity: TTC_FIDELITY_UNSET keeps it.
 */
struct ttc_mp_override {
	const char *name;
	const char *regex;
	const char *op_type;
	enum tt_data_format df;
	enum tt_data_format acc_df;
	enum tt_math_fidelity fidelity;
};

/* The largest pipeline ttc_run_passes runs. */
#define TTC_PASS_MAX_PIPELINE 64

/*
 * Options (start from ttc_pass_options_default()). The mixed-precision
 * fields are PyBuda's set_configuration_options: default_df_override,
 * accumulate_df, math_fidelity, amp_level.
 */
struct ttc_pass_options {
	bool enable_consteval;	 /* default true */
	bool enable_auto_fusing; /* default true */
	/* consteval folds no op whose result is bigger (bytes; 64 MiB). */
	size_t consteval_limit;
	/* TT_INVALID (default): each op's format follows its result's
	 * element type (f32 Float32, bf16 Float16_b, f16 Float16). */
	enum tt_data_format default_df;
	enum tt_data_format acc_df;	/* default Float16_b */
	enum tt_math_fidelity fidelity; /* default HiFi3 */
	int amp_level;			/* 0 (default) .. 3 */
	const struct ttc_mp_override *overrides; /* applied in order */
	size_t noverrides;
	/* Values of function arguments marked parameter or constant
	 * (consteval): the tensor of argument arg_index of f, or NULL when
	 * unknown. NULL callback: none is known. */
	const ttc_tensor *(*param_value)(void *arg, ttc_func *f,
					 size_t arg_index);
	void *param_arg;
	/* NULL, a pass name or "all": print the module after that pass. */
	const char *print_after;
	bool time_passes; /* print the table of times after the run */
	bool verify_each; /* verify the input and after every pass */
	FILE *out;	  /* where printing goes; NULL: stderr */
	/* Passes known besides the built-in ones (looked up first). */
	const struct ttc_pass *const *extra_passes;
	size_t nextra_passes;
};

/* What a run did: per-pass wall time and what the passes counted. */
struct ttc_pass_time {
	const char *name;
	double ms;
};

struct ttc_pass_stats {
	size_t npasses; /* entries of times, in pipeline order */
	struct ttc_pass_time times[TTC_PASS_MAX_PIPELINE];
	double total_ms;
	size_t decomposed; /* ops rewritten by decompose */
	size_t canonicalized; /* folds of canonicalize */
	size_t folded;	  /* ops replaced by constants (consteval) */
	size_t merged;	  /* ops merged by cse */
	size_t erased;	  /* ops removed by dce */
	size_t fused;	  /* activations fused (fuse) */
	size_t annotated; /* ops given formats (formats) */
};

/* What a pass sees. */
struct ttc_pass_ctx {
	ttc_ctx *ctx;
	ttc_module *module; /* the top-level module being run */
	const struct ttc_pass *pass; /* the pass running */
	const struct ttc_pass_options *opts;
	const ttc_tensor *(*param_value)(void *arg, ttc_func *f,
					 size_t arg_index);
	void *param_arg;
	struct ttc_pass_stats *stats; /* never NULL */
	void *state; /* for a pass's own use across functions of one run */
};

TTC_API struct ttc_pass_options ttc_pass_options_default(void);

/*
 * Runs the passes named in names[n] (n 0: the default pipeline,
 * decompose, canonicalize, consteval, cse, dce, fuse, formats) over m.
 * o NULL: the defaults. stats (may be NULL) is filled. An unknown name
 * fails before anything runs, naming it and the known passes; a pass that
 * fails, or (verify_each) leaves IR that does not verify, stops the run
 * with a diagnostic naming it. 0 or a negative errno.
 */
TTC_API int ttc_run_passes(ttc_module *m, const char *const *names, size_t n,
			   const struct ttc_pass_options *o,
			   struct ttc_pass_stats *stats);

/* The default pipeline's names, in order; *n (may be NULL) their count. */
TTC_API const char *const *ttc_pass_default_pipeline(size_t *n);

/* The built-in passes, in the default pipeline's order then the rest. */
TTC_API size_t ttc_pass_count(void);
TTC_API const struct ttc_pass *ttc_pass_at(size_t i);
/* A built-in pass by name, or NULL. */
TTC_API const struct ttc_pass *ttc_pass_lookup(const char *name);

/* Names of fidelities as PyBuda spells them ("HiFi3"), and back
 * (case-insensitive; 0 or -EINVAL). */
TTC_API const char *ttc_fidelity_name(enum tt_math_fidelity f);
TTC_API int ttc_fidelity_parse(const char *name, enum tt_math_fidelity *f);

#endif /* TTC_PASSES_H */
