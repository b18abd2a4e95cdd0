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

#define CG_MAX_ATTRS 16u
#define CG_NAME_MAX 100u /* characters kept of a location name */

struct cg_tensor {
	struct tt_model_tensor t;
	const ttc_value *v; /* NULL for tensors codegen adds */
	void *data;	    /* PARAM, CONST: row-major in t.data_format */
	size_t bytes;
	uint64_t tiles;
	unsigned first, last; /* op indices writing and last reading it */
};

struct cg_op {
	struct tt_model_op op;
	unsigned in[TT_MODEL_MAX_OP_INPUTS];
	struct tt_model_attr attrs[CG_MAX_ATTRS];
	const ttc_op *src;
};

struct ttc_compiled {
	ttc_ctx *ctx;
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

/* plan.c: grids, places and slots; then the description. */
int cg_plan(ttc_compiled *c);

#endif /* TTC_CODEGEN_INTERNAL_H */
