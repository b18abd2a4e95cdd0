/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Codegen: a function of TTIR (after ttc/passes.h's pipeline) made into a
 * compiled model for one target: every op lowered to an op record of the
 * device op library (libtt's tt/model.h), every tensor given a device
 * shape, a data format and a place, a core grid per op (the balancer),
 * and the memory plan (activation lifetimes, slots shared between
 * tensors that are never alive together, L1 while it lasts, DRAM after).
 * docs/compiler.md ("Codegen") has the rules.
 *
 * ttc/compile.h writes the result into an image with the kernels its
 * programs need.
 */
#ifndef TTC_CODEGEN_H
#define TTC_CODEGEN_H

#include "tt/dataformat.h"
#include "tt/model.h"
#include "ttc/golden.h"

/* What the compiled model runs on. */
struct ttc_target {
	const char *arch;     /* "wormhole_b0" */
	unsigned grid_x, grid_y; /* logical worker grid */
	uint64_t l1_bytes;    /* per core */
	uint64_t dram_bytes;  /* all channels */
};

/* override_op_size: op (its location name) on an r x c grid. */
struct ttc_op_size {
	const char *op;
	unsigned r, c;
};

struct ttc_codegen_options {
	struct ttc_target target;
	/* Format of tensors no pass gave one (ttc.df); TT_INVALID: by
	 * element type (f32 Float32, bf16 Float16_b, f16 Float16). */
	enum tt_data_format default_df;
	/* "greedy": the most cores each op can use, activations in L1 while
	 * they fit; "min_dram": the same grid, and every activation that
	 * fits in L1 kept there first by size, largest first, to save DRAM
	 * traffic. */
	const char *balancer;
	const struct ttc_op_size *op_sizes;
	size_t nop_sizes;
	bool place_on_one_row; /* every op on one row of cores */
	/* set_epoch_break / set_chip_break: ops (by location name) that
	 * start a new epoch (a chip break also starts a pipeline stage, run
	 * in order on this one chip). Activations that cross an epoch
	 * boundary live in DRAM, as PyBuda's go through DRAM queues. */
	const char *const *epoch_breaks;
	size_t nepoch_breaks;
	const char *const *chip_breaks;
	size_t nchip_breaks;
	/* Part of each core's L1 activations may take (0: 0.25); the rest
	 * is the op library's circular buffers. */
	double l1_fraction;
	/* Recorded in the manifest (name, value pairs). */
	const struct tt_model_attr *record;
	size_t nrecord;
};

TTC_API struct ttc_codegen_options ttc_codegen_defaults(void);

/* A parameter's value (function argument arg_index of f), or NULL. */
typedef const ttc_tensor *(*ttc_param_fn)(void *arg, ttc_func *f,
					  size_t arg_index);

typedef struct ttc_compiled ttc_compiled;

/*
 * Lower f. Arguments marked as parameters or constants (argument
 * attribute ttcore.argument_type, ttc/passes.h) take their values from
 * param (every one must have one); the others are the model's inputs,
 * and f's results its outputs. An op that has no device op, a shape the
 * device cannot hold, or a model too large for the target fails naming
 * the op, what it needs and what there is. 0 or -errno with a
 * diagnostic in the context.
 */
TTC_API int ttc_codegen(ttc_func *f, const struct ttc_codegen_options *o,
			ttc_param_fn param, void *param_arg,
			ttc_compiled **out);
TTC_API void ttc_compiled_free(ttc_compiled *c);
TTC_API const struct tt_model_desc *ttc_compiled_desc(const ttc_compiled *c);

/* The IR value whose values tensor (an index of the description's
 * tensors) holds, or NULL (out of range, or a tensor codegen made with
 * no value of its own). A tensor codegen added to hold a value in the
 * other layout (rows or natural, docs/compiler.md "Codegen") gives the
 * value it holds: its elements in row-major order are the value's.
 * Verification (ttc/verify.h) compares a record's result with it. */
TTC_API const ttc_value *ttc_compiled_tensor_value(const ttc_compiled *c,
						   unsigned tensor);

/* Bytes of activations in L1 and DRAM at the plan's peak, of parameters
 * and constants, and the number of slots. */
struct ttc_plan_stats {
	uint64_t l1_peak, dram_peak, params;
	unsigned slots, l1_tensors, dram_tensors;
};
TTC_API void ttc_compiled_stats(const ttc_compiled *c,
				struct ttc_plan_stats *out);

#endif /* TTC_CODEGEN_H */
