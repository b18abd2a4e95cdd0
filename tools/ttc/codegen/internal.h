/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Codegen's shared state: the compiled model being made (tensors, op
 * records, slots) with the storage of everything its description points
 * at, shared by lower.c (TTIR to op records), plan.c (placement and the
 * memory plan) and write.c (the image).
 */
#ifndef TTC_CODEGEN_INTERNAL_H
#define TTC_CODEGEN_INTERNAL_H

#include "ttc/codegen.h"

#define CG_MAX_ATTRS TT_MODEL_MAX_ATTRS
#define CG_NAME_MAX 100u /* characters kept of a location name */

struct cg_tensor {
	struct tt_model_tensor t;
	const ttc_value *v; /* NULL for tensors codegen adds */
	void *data;	    /* PARAM, CONST: row-major in t.data_format */
	size_t bytes;
	uint64_t tiles;
	unsigned first, last; /* op indices writing and last reading it */
	/* Held as rows [1, 1, N*H*W, C] (the layout of convolutions,
	 * window.c), not its natural shape; twin: the same values in the
	 * other layout once a reshape made them (~0u: none yet). */
	bool rows;
	unsigned twin;
	const ttc_type *type; /* its IR type */
};

struct cg_op {
	struct tt_model_op op;
	unsigned in[TT_MODEL_MAX_OP_INPUTS];
	struct tt_model_attr attrs[CG_MAX_ATTRS];
	const ttc_op *src;
};

struct ttc_compiled {
	ttc_ctx *ctx;
	ttc_func *f; /* being lowered */
	ttc_param_fn param;
	void *param_arg;
	struct ttc_codegen_options o;
	struct cg_tensor *tensors;
	size_t ntensors, captensors;
	struct cg_op *ops;
	size_t nops, capops;
	struct tt_model_slot *slots;
	size_t nslots, capslots;
	/* The description (arrays built by cg_finish). */
	struct tt_model_tensor *dt;
	struct tt_model_op *dops;
	struct tt_model_program prog;
	struct tt_model_desc desc;
	struct ttc_plan_stats stats;
	/* Every string the description points at. */
	char **strs;
	size_t nstrs, capstrs;
};

/* A copy of s (or printf) kept until the compiled model is freed; NULL
 * when out of memory. */
const char *cg_str(ttc_compiled *c, const char *s);
const char *cg_printf(ttc_compiled *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A diagnostic naming op (or the function, when op is NULL); returns
 * code. */
int cg_error(ttc_compiled *c, const ttc_op *op, int code, const char *fmt,
	     ...) __attribute__((format(printf, 4, 5)));

/* A name fit for the manifest: want with other characters as '_' (cut
 * to CG_NAME_MAX), else fallback and index; unique: "#2", "#3" added
 * until no tensor has it. */
const char *cg_tame(ttc_compiled *c, const char *want, const char *fallback,
		    size_t index, bool unique);

/* The op's name for records and messages: its location name, else
 * "<op name>_<index>". */
const char *cg_op_name(ttc_compiled *c, const ttc_op *op, size_t index);

/* lower.c: f's arguments, ops and results into tensors and op records. */
int cg_lower(ttc_compiled *c, ttc_func *f, ttc_param_fn param, void *arg);

/* lower.c, for window.c: a new record of op (its name, kind and inputs
 * left to the caller); a tensor for a value; tensor t in the rows or
 * natural layout (a reshape record added the first time); a string
 * attribute; a parameter's or constant's data. */
struct cg_op *cg_new_op(ttc_compiled *c, const ttc_op *op, const char *kind,
			size_t index);
int cg_add_tensor(ttc_compiled *c, const ttc_value *v, const char *name,
		  enum tt_model_tensor_kind kind, const ttc_op *op,
		  unsigned *out);
/* The same for a tensor of type t with no IR value (def: the op whose
 * ttc.df gives its format, or NULL), natural or as rows. */
int cg_add_typed(ttc_compiled *c, const ttc_type *t, const ttc_op *def,
		 bool rows, const char *name, enum tt_model_tensor_kind kind,
		 const ttc_op *op, unsigned *out);
int cg_layout(ttc_compiled *c, unsigned t, bool rows, size_t index,
	      unsigned *out);
int cg_attr(ttc_compiled *c, struct cg_op *o, const char *name,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int cg_set_data(ttc_compiled *c, unsigned t, const ttc_tensor *h,
		const ttc_op *op);

/* window.c: convolutions and pools, whose activations are rows. */
bool cg_is_window_op(const ttc_op *op);
/* An argument all of whose uses are a convolution's weight or bias: its
 * tensor is made by the convolution, in the device's layout. */
bool cg_window_only_arg(const ttc_value *v);
/* The record of a window op (its inputs in vm's tensors given as in[]:
 * in[0] the activation, in rows). */
int cg_lower_window(ttc_compiled *c, const ttc_op *op, size_t index,
		    struct cg_op *o);
/* Its record kind: "conv2d", "max_pool2d", "avg_pool2d",
 * "global_avg_pool". */
const char *cg_window_kind(const ttc_op *op);

/* plan.c: grids, places and slots; then the description. */
int cg_plan(ttc_compiled *c);

#endif /* TTC_CODEGEN_INTERNAL_H */
