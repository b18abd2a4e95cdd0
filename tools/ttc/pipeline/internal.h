/* SPDX-License-Identifier: Apache-2.0 */
/* The PyBuda flow's objects (ttc/pipeline.h), shared by its files. */
#ifndef TTC_PIPELINE_INTERNAL_H
#define TTC_PIPELINE_INTERNAL_H

#include <limits.h>

#include "tt/model.h"
#include "ttc/onnx.h"
#include "ttc/pipeline.h"

struct ttc_pymodule {
	char *name;
	ttc_module *m; /* the caller's, or own_ctx's (from a file) */
	ttc_func *f;
	ttc_ctx *own_ctx;
	ttc_module *own_m;
	ttc_onnx_model *own_onnx; /* an OnnxModule's import */
	ttc_tensor **values; /* by argument index, owned; NULL: none */
	ttc_param_fn param;
	void *param_arg;
	/* The arguments that are inputs, in order. */
	size_t *in_args, nin, nout;
	/* On a TT device, after initializing: the compiled copy. */
	ttc_ctx *cctx;
	tt_model *model;
	char image[PATH_MAX];
	bool temp_image; /* removed at shutdown */
	bool placed;
	struct ttc_pymodule *next;
};

struct ttc_device {
	char *name;
	bool tt;
	tt_device *dev;
	bool own_dev;
	ttc_pymodule *mods, **tail;
	struct ttc_device *next;
};

struct saved {
	char *op;
	ttc_tensor *t;	       /* the last run's, or NULL */
	ttc_output_queue *tap; /* NULL, or where a copy of each goes */
};

/* A module in run order, and its device. */
struct stage {
	ttc_device *d;
	ttc_pymodule *m;
};

struct ttc_pipeline {
	struct ttc_config cfg;
	ttc_device *devs, **tail;
	struct stage *stages;
	size_t nstages;
	ttc_ctx *ctx; /* types of tensors made from device results */
	ttc_output_queue *queue;
	bool ready;
	char tmpdir[PATH_MAX];
	struct saved *saved;
	size_t nsaved;
	char error[1024];
};

int pl_err(ttc_pipeline *p, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The value of argument i of mod's function (table, then provider). */
const ttc_tensor *pl_module_value(ttc_pymodule *mod, size_t i);
bool pl_is_param(ttc_func *f, size_t i);
/* The name of argument i (its location) or of an op, or NULL. */
const char *pl_arg_name(ttc_func *f, size_t i);
const char *pl_op_name(const ttc_op *op);

/* Host tensors to libtt's and back (convert.c). */
int pl_to_tt(const ttc_tensor *t, const struct tt_shape *shape,
	     tt_tensor **out);
int pl_from_tt(ttc_ctx *ctx, const tt_tensor *t, const ttc_type *type,
	       ttc_tensor **out);

/* Keeps t as s's result (takes it), a copy to its tap queue. */
int pl_saved_keep(struct saved *s, ttc_tensor *t);

/* Compiles and loads a TT device's module (compile.c). */
int pl_stage_compile(ttc_pipeline *p, struct stage *s);
/* Runs one module on its inputs (run.c): out[] new tensors. */
int pl_stage_run(ttc_pipeline *p, struct stage *s, ttc_tensor *const *in,
		 ttc_tensor **out);

/* Pushes an entry (takes the tensors). */
int pl_queue_push(ttc_output_queue *q, ttc_tensor **t, size_t n);

#endif /* TTC_PIPELINE_INTERNAL_H */
