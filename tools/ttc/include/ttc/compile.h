/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The whole compile: a function of a TTIR module through the pass
 * pipeline (ttc/passes.h), codegen (ttc/codegen.h) for a device, the
 * kernels its programs need built on that device (nothing runs), and the
 * image written (docs/image.md). ttc compile and the PyBuda flow
 * (ttc/pipeline.h) are this call.
 */
#ifndef TTC_COMPILE_H
#define TTC_COMPILE_H

#include "tt/device.h"
#include "ttc/codegen.h"
#include "ttc/passes.h"

struct tt_kernel_set;

/* Write the image: manifest, data, and kernels (those of kernels, which
 * tt_model_build_kernels filled; NULL: none, the loading host then
 * needs the compiler). */
TTC_API int ttc_compiled_write(ttc_ctx *ctx, const ttc_compiled *c,
			       const struct tt_kernel_set *kernels,
			       const char *path);

/* Progress of a long compile: stage ("passes", "codegen", "kernels",
 * "write"), and for kernels the ops built so far of total. */
typedef void (*ttc_progress_fn)(void *arg, const char *stage, size_t done,
				size_t total);

struct ttc_compile_options {
	struct ttc_pass_options passes;
	/* target is filled from the device; the rest is used as given. */
	struct ttc_codegen_options codegen;
	bool no_kernels; /* leave the kernels out (a host with the compiler
			    builds them at load) */
	ttc_progress_fn progress;
	void *progress_arg;
};

TTC_API struct ttc_compile_options ttc_compile_defaults(void);

struct ttc_compile_report {
	struct ttc_pass_stats passes;
	struct ttc_plan_stats plan;
	size_t ops, tensors, kernels;
	double ms_passes, ms_codegen, ms_kernels, ms_write;
};

/* The device's target (arch, logical grid, L1 per core, DRAM). */
TTC_API int ttc_target_of(tt_device *dev, struct ttc_target *out);

/*
 * Compile f (of m, which the passes rewrite in place) for dev into the
 * image at path. param gives the values of f's parameters and constants
 * (ttc/codegen.h). 0, or -errno with a diagnostic in m's context naming
 * the op, the stage and the limit. rep (may be NULL) gets the figures.
 */
TTC_API int ttc_compile(ttc_module *m, ttc_func *f, tt_device *dev,
			const struct ttc_compile_options *o,
			ttc_param_fn param, void *param_arg, const char *path,
			struct ttc_compile_report *rep);

#endif /* TTC_COMPILE_H */
