/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Verification (PyBuda's VerifyConfig): a compiled model run on the
 * device op by op, every op's result (or those named) compared with the
 * golden of the IR value it computes. The report names the first op
 * whose PCC falls below the threshold, with the statistics of its
 * inputs, so a wrong result is traced to the op that made it and not to
 * the ops downstream of it. docs/compiler.md ("Verification").
 *
 * How: the source function goes through the same passes and codegen as
 * the image did (the compile options the image was made with, the
 * image's arch and grid); the description codegen gives must be the
 * image's (same ops, in order, same names), else the image was not
 * compiled from this source and options and nothing is compared. The
 * goldens run on the IR after the passes (a fused activation,
 * ttc.activation, applied to its op's golden as the device applies
 * it), and tt_model_run_each reads each op's result back.
 */
#ifndef TTC_VERIFY_H
#define TTC_VERIFY_H

#include <stdio.h>

#include "tt/model.h"
#include "ttc/compile.h"

struct ttc_verify_config {
	double pcc;	     /* threshold; 0.99 */
	double atol, rtol;   /* for check_allclose (1e-8, 1e-5) */
	bool check_allclose; /* also require allclose; false */
	const char *const *ops; /* record names to check (each must be one
				   of the image's); NULL/0: every op */
	size_t nops;
	bool stop_at_first; /* stop the run at the first failure */
	enum tt_data_format golden_fmt; /* goldens "as the device rounds";
					   TT_FLOAT32: plain */
	FILE *report;	    /* the text report; NULL: none */
};

TTC_API struct ttc_verify_config ttc_verify_config_default(void);

/* Statistics of one tensor's values. */
struct ttc_verify_stats {
	bool known; /* false: not available on that side */
	size_t n, nan, inf;
	double min, max, mean, std; /* of the finite values */
};

/* One op record's verdict. */
struct ttc_verify_op {
	char *name; /* the record's name (owned by the result) */
	char *kind; /* "linear", "unary", ... (owned) */
	unsigned index;	  /* in the program */
	bool checked;	  /* compared (false: not selected, no IR value) */
	double pcc, atol;
	bool pass;
};

/* An input of the first failing op. */
struct ttc_verify_input {
	char *name; /* the tensor's name (owned by the result) */
	const char *kind; /* "input", "parameter", "constant", "activation" */
	struct ttc_verify_stats device, golden;
};

struct ttc_verify_result {
	bool pass;		 /* every op checked passed */
	size_t checked, failed;
	struct ttc_verify_op *ops; /* one per record run, in order */
	size_t nops;
	long first_fail; /* index in ops, or -1 */
	struct ttc_verify_input *inputs; /* of the first failing op */
	size_t ninputs;
};

TTC_API void ttc_verify_result_free(struct ttc_verify_result *r);

/*
 * The compile options an image records (its manifest's options:
 * default_df, accumulate_df, math_fidelity, amp_level, balancer_policy,
 * place_on_one_row) over ttc_compile_defaults(). Strings point into d.
 * -EINVAL with a diagnostic in ctx naming an option whose value does not
 * parse; unknown names are ignored (board, random_params...).
 */
TTC_API int ttc_verify_options_of(ttc_ctx *ctx, const struct tt_model_desc *d,
				  struct ttc_compile_options *out);

/*
 * Verify model (loaded from an image compiled from f of m with options
 * o and parameters param) on inputs[n] (the model's inputs in order, as
 * for tt_model_run). The passes rewrite m in place. Returns 0 when the
 * comparison ran (the verdict is out->pass; the report is printed to
 * v->report), or -errno with a diagnostic in m's context: the image was
 * not compiled from this source and options, the goldens or the run
 * failed. out is freed with ttc_verify_result_free either way.
 */
TTC_API int ttc_verify(ttc_module *m, ttc_func *f, tt_model *model,
		       const struct ttc_compile_options *o, ttc_param_fn param,
		       void *param_arg, tt_tensor *const *inputs, size_t n,
		       const struct ttc_verify_config *v,
		       struct ttc_verify_result *out);

/* The text report of r (what ttc_verify prints to v->report). */
TTC_API void ttc_verify_print(FILE *f, const struct ttc_verify_result *r,
			      const struct ttc_verify_config *v);

#endif /* TTC_VERIFY_H */
