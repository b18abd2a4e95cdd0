/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The PyBuda flow in C (docs/compiler.md, "The PyBuda flow"): devices,
 * modules placed on them, configuration options, a pipeline compiled once
 * and run on batches of inputs, outputs in a queue, intermediates.
 *
 * - A device is a TT device (a libtt device: its modules are compiled
 *   with ttc_compile and run with tt_model_run) or a CPU device (its
 *   modules run on the goldens, ttc_golden_run).
 * - A module (PyBuda's PyBudaModule) is a function of a TTIR module with
 *   the values of its parameters (arguments marked parameter or
 *   constant): a table set by argument name or index, else a provider.
 *   Its other arguments are its inputs, in order; its results its outputs.
 * - The pipeline runs every module of every device, devices in the order
 *   they were added and modules in the order they were placed; the
 *   outputs of one module are the inputs of the next. A graph can so be
 *   split between the host and the device (pre-processing on the CPU,
 *   the rest on the TT device).
 * - Options (PyBuda's set_configuration_options): struct ttc_config,
 *   every field of PyBuda's, set as fields or by name. Those that apply to
 *   one chip become ttc_compile_options; the others are accepted, kept and
 *   listed by ttc_config_unsupported with the reason.
 * - Tensors in and out are host tensors (ttc/golden.h), of the types of
 *   the functions' arguments and results.
 *
 * Errors: 0 or a negative errno, and ttc_pipeline_error (or
 * ttc_config_error) names the module, op, option or tensor and the limit.
 */
#ifndef TTC_PIPELINE_H
#define TTC_PIPELINE_H

#include <stdio.h>

#include "tt/device.h"
#include "ttc/compile.h"
#include "ttc/golden.h"

/* ---- configuration ---------------------------------------------------- */

/* The number of options (every one of PyBuda's set_configuration_options). */
#define TTC_CONFIG_NOPTIONS 33

struct ttc_config {
	/* Applied: the compile (ttc/compile.h). */
	const char *balancer_policy; /* "NLP" (greedy), "Ribbon"/"CNN"
					(min_dram), or codegen's names */
	bool place_on_one_row;
	bool enable_consteval;			 /* default true */
	enum tt_data_format default_df_override; /* TT_INVALID: by type */
	enum tt_data_format accumulate_df;	 /* default Float16_b */
	enum tt_math_fidelity math_fidelity;	 /* default HiFi3 */
	bool enable_auto_fusing;		 /* default true */
	int amp_level;				 /* 0 .. 3 */
	/* Applied: the flow. */
	const char *backend_output_dir; /* NULL: a private temporary dir */
	const char *op_intermediates_to_save; /* op names, comma-separated */
	/* Accepted, not applied (ttc_config_unsupported says why). */
	bool enable_recompute;
	bool enable_t_streaming;
	bool manual_t_streaming;
	const char *performance_trace;
	int backend_opt_level;
	const char *backend_device_descriptor_path;
	const char *backend_cluster_descriptor_path;
	const char *backend_runtime_params_path;
	const char *backend_runtime_args;
	bool enable_conv_prestride;
	bool enable_stable_softmax;
	const char *harvested_rows;
	bool store_backend_db_to_yaml;
	bool input_queues_on_host;  /* default true */
	bool output_queues_on_host; /* default true */
	bool enable_auto_transposing_placement;
	bool use_interactive_placer; /* default true */
	bool enable_enumerate_u_kt;  /* default true */
	bool enable_device_tilize;
	const char *dram_placement_algorithm;
	const char *chip_placement_policy;
	bool enable_forked_dram_inputs;
	const char *device_config;
	/* Private: options set by name, and strings they own. */
	uint64_t set_by_name;
	char *owned[TTC_CONFIG_NOPTIONS];
	char error[256];
};

/* The defaults (PyBuda's). */
TTC_API void ttc_config_init(struct ttc_config *c);
/* Frees the strings ttc_set_configuration_options copied. */
TTC_API void ttc_config_release(struct ttc_config *c);

/*
 * Sets option name from its text: booleans "true"/"false"/"1"/"0",
 * integers in decimal, data formats as tt_data_format_parse reads them
 * ("Float16_b"; "none" for default_df_override), fidelities as
 * ttc_fidelity_parse, strings copied. -ENOENT for an unknown name (the
 * message names it), -EINVAL for a value the option does not take.
 */
TTC_API int ttc_set_configuration_options(struct ttc_config *c,
					  const char *name, const char *value);
TTC_API const char *ttc_config_error(const struct ttc_config *c);

/* The option names, in PyBuda's order; *n (may be NULL) their count. */
TTC_API const char *const *ttc_config_option_names(size_t *n);

/* Lists on f (may be NULL) each option set (by name, or away from its
 * default) that this system does not apply: "NAME: not supported on this
 * system (WHY)", one a line. Returns how many. */
TTC_API size_t ttc_config_unsupported(const struct ttc_config *c, FILE *f);

/* The compile options the applied options give; -EINVAL (message in
 * c) for a balancer policy codegen has no counterpart of. */
TTC_API int ttc_config_compile_options(struct ttc_config *c,
				       struct ttc_compile_options *o);

/* ---- devices and modules ---------------------------------------------- */

typedef struct ttc_device ttc_device;
typedef struct ttc_pymodule ttc_pymodule;
typedef struct ttc_pipeline ttc_pipeline;

/* A TT device named name on dev (kept open by the caller, who closes it
 * after ttc_pipeline_free), or, dev NULL, on device 0 opened here and
 * closed with the pipeline. NULL on failure (tt_last_error). */
TTC_API ttc_device *ttc_tt_device_new(const char *name, tt_device *dev);
/* A CPU device: its modules run on the goldens. */
TTC_API ttc_device *ttc_cpu_device_new(const char *name);
TTC_API void ttc_device_free(ttc_device *d); /* one not added */
TTC_API const char *ttc_device_name(const ttc_device *d);

/* What detect_available_devices lists: libtt's devices. */
struct ttc_device_desc {
	unsigned index;
	char arch[32], board[32], transport[32], name[64];
};
/* Up to max devices in out; *n gets how many there are. 0 or -errno. */
TTC_API int ttc_detect_available_devices(struct ttc_device_desc *out,
					 size_t max, size_t *n);

/* A module named name: function f of m (m stays the caller's, alive and
 * unchanged until the pipeline is freed: a TT device compiles a copy). */
TTC_API ttc_pymodule *ttc_pymodule_new_from_func(const char *name,
						 ttc_module *m, ttc_func *f);
/* A module from a TTIR file: its function func (NULL: the first defined
 * one); the module owns what it parsed. NULL with the parser's message
 * in ctx. */
TTC_API ttc_pymodule *ttc_pymodule_new_from_file(ttc_ctx *ctx, const char *name,
						 const char *path,
						 const char *func);
/* PyBuda's OnnxModule: the ONNX model at path imported (o NULL: the
 * defaults), its initializers the parameters' values. NULL with the
 * importer's message in ctx. */
struct ttc_onnx_options;
TTC_API ttc_pymodule *ttc_pymodule_new_from_onnx(ttc_ctx *ctx,
						 const char *name,
						 const char *path,
						 const struct ttc_onnx_options *o);
TTC_API void ttc_pymodule_free(ttc_pymodule *mod); /* one not placed */
/* A parameter's value, by argument name (its location), "argN" or "N"
 * (copied). -ENOENT naming it when no parameter argument has that name. */
TTC_API int ttc_pymodule_set_param(ttc_pymodule *mod, const char *arg,
				   const ttc_tensor *value);
/* Values of parameters the table lacks (ttc/codegen.h's provider). */
TTC_API void ttc_pymodule_set_param_fn(ttc_pymodule *mod, ttc_param_fn fn,
				       void *arg);

/* Places mod on d, after its other modules; d owns it then. */
TTC_API int ttc_device_place_module(ttc_device *d, ttc_pymodule *mod);

/* ---- the pipeline ------------------------------------------------------ */

TTC_API ttc_pipeline *ttc_pipeline_new(void);
/* The options the pipeline compiles with (set before initializing). */
TTC_API struct ttc_config *ttc_pipeline_config(ttc_pipeline *p);
/* Adds d after the devices added before; the pipeline owns it then. */
TTC_API int ttc_pipeline_add_device(ttc_pipeline *p, ttc_device *d);
/* The last error's message. */
TTC_API const char *ttc_pipeline_error(const ttc_pipeline *p);

/*
 * Checks the chain (each module's inputs are the previous one's outputs,
 * of the same shapes; sample_inputs, when n > 0, match the first module's
 * inputs), compiles every TT module (in backend_output_dir, else a
 * private temporary directory) and loads it on its device, and checks
 * that every op of op_intermediates_to_save is in some module.
 */
TTC_API int ttc_initialize_pipeline(ttc_pipeline *p,
				    ttc_tensor *const *sample_inputs, size_t n);

/* One pass: inputs of the first module, outputs[] (as many as the last
 * module's results) new tensors. */
TTC_API int ttc_run_forward(ttc_pipeline *p, ttc_tensor *const *inputs,
			    size_t ninputs, ttc_tensor **outputs,
			    size_t noutputs);

/* Output queues: one entry per input, the last module's outputs. */
typedef struct ttc_output_queue ttc_output_queue;
struct ttc_outputs {
	ttc_tensor **t;
	size_t n;
};
TTC_API ttc_output_queue *ttc_output_queue_new(void);
TTC_API void ttc_output_queue_free(ttc_output_queue *q);
TTC_API size_t ttc_output_queue_size(ttc_output_queue *q);
/* The oldest entry; waits up to timeout_ms (< 0: for ever) for one,
 * else -ETIMEDOUT. The caller frees it with ttc_outputs_release. */
TTC_API int ttc_output_queue_pop(ttc_output_queue *q, int timeout_ms,
				 struct ttc_outputs *out);
TTC_API void ttc_outputs_release(struct ttc_outputs *o);
/* The pipeline's own queue (run_inference's when given none). */
TTC_API ttc_output_queue *ttc_pipeline_output_queue(ttc_pipeline *p);

/*
 * Runs input_count inputs (inputs[i]: the first module's inputs of input
 * i) through the pipeline, microbatch of them at a time through each
 * module in turn (microbatch 0: 1), and pushes each input's outputs to q
 * (NULL: the pipeline's queue), in input order.
 */
TTC_API int ttc_run_inference(ttc_pipeline *p, ttc_tensor *const *const *inputs,
			      size_t input_count, size_t microbatch,
			      ttc_output_queue *q);

/* The result of op (a name of op_intermediates_to_save) in the last run:
 * a tensor of the pipeline, valid until the next run. -ENOENT when none
 * was saved under that name. */
TTC_API int ttc_get_intermediates(ttc_pipeline *p, const char *op,
				  const ttc_tensor **out);

/* PyBuda's insert_tapout_queue_for_op: after every run, op's result (as
 * ttc_get_intermediates gives it) is pushed to q (the caller's; it
 * outlives the pipeline), an entry of one tensor. Before initializing;
 * op need not be in op_intermediates_to_save. */
TTC_API int ttc_insert_tapout_queue_for_op(ttc_pipeline *p, const char *op,
					   ttc_output_queue *q);

/* Unloads the models and frees the pipeline, its devices and modules
 * (and the temporary images). NULL is ignored. */
TTC_API void ttc_shutdown(ttc_pipeline *p);

#endif /* TTC_PIPELINE_H */
