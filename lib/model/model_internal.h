/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Compiled models (tt/model.h), internal side: the op table shared by the
 * manifest's checks and the runtime, the loaded model, and the manifest's
 * storage.
 */
#ifndef TT_LIB_MODEL_INTERNAL_H
#define TT_LIB_MODEL_INTERNAL_H

#include "lib/device/internal.h"
#include "tt/model.h"
#include "tt/ops.h"

/* Limits on a manifest: generous for real models, bounded for hostile
 * ones. */
#define TT_MODEL_NAME_MAX 128u
#define TT_MODEL_MAX_TENSORS 65536u
#define TT_MODEL_MAX_OPS 65536u
#define TT_MODEL_MAX_DIM (1ull << 31)
#define TT_MODEL_MAX_TENSOR_BYTES (1ull << 36)

/* ---- the op table (model_ops.c) ---- */

/* One op call being made: its record, its tensors on the device. */
struct tt_model_call {
	tt_ops_ctx *ctx;
	const struct tt_model_desc *d;
	const struct tt_model_op *op;
	const tt_device_tensor *in[TT_MODEL_MAX_OP_INPUTS]; /* NULL: absent */
	tt_device_tensor *out;
};

struct tt_model_opdef {
	const char *name;
	unsigned min_in, max_in;
	/* Attributes it takes besides the common ones (NULL-terminated). */
	const char *const *attrs;
	int (*run)(struct tt_model_call *c);
};

/* The op named name, or NULL. */
TT_HIDDEN const struct tt_model_opdef *tt_model_opdef_find(const char *name);

/*
 * An op record's checks that need no device: the op exists, its input
 * count, every attribute is one it takes and parses. -EINVAL with a
 * message starting with where.
 */
TT_HIDDEN int tt_model_op_check(const char *where, const struct tt_model_op *op);

/* Make the call (the op's program, enqueued). */
TT_HIDDEN int tt_model_op_run(struct tt_model_call *c);

/* ---- the model (model.c) ---- */

/* The model's inputs (outputs true: outputs): tensor indices in order. */
TT_HIDDEN unsigned tt_model_io(const tt_model *m, bool outputs,
			       const unsigned **idx);

/* ---- checks (manifest_check.c) ---- */

/* The attribute's value in op, or NULL. */
TT_HIDDEN const char *tt_model_attr(const struct tt_model_op *op,
				    const char *name);
TT_HIDDEN bool tt_model_name_ok(const char *name);

#endif /* TT_LIB_MODEL_INTERNAL_H */
