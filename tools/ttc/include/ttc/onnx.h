/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ONNX frontend: an ONNX model (a ModelProto file, with its external
 * data files) imported as a TTIR module of one function, docs/onnx.md.
 *
 *	struct ttc_onnx_options o = ttc_onnx_defaults();
 *	ttc_onnx_model *om;
 *	if (ttc_onnx_import(ctx, "resnet18.onnx", &o, &om))
 *		fputs(ttc_ctx_error(ctx), stderr);   names the node
 *	ttc_func *f = ttc_onnx_func(om);
 *	ttc_compile(ttc_onnx_module(om), f, dev, &co, ttc_onnx_param, om, ...);
 *
 * The function's arguments are the graph's inputs, in order (but those
 * given values in the options), then the inputs given values, marked
 * ttcore.argument_type<constant>, then its initializers that the graph
 * uses as tensors, marked ttcore.argument_type<parameter>, each named
 * (loc) after its ONNX name; ttc_onnx_param gives their values. Constant nodes and everything
 * computed from constants alone at import time (shape chains) become
 * ttir.constant ops. An op, attribute or input the importer cannot map
 * onto TTIR is an error naming the node (name, op type, opset and the
 * attribute or input), never a silently different graph.
 */
#ifndef TTC_ONNX_H
#define TTC_ONNX_H

#include "ttc/golden.h"

typedef struct ttc_onnx_model ttc_onnx_model;

/* A graph input's shape given by the user: NAME and its dims. */
struct ttc_onnx_shape {
	char name[128];
	unsigned rank;
	int64_t dims[TTC_MAX_RANK];
};

/* A graph input given its value at import time: it becomes a constant,
 * as an initializer would (shape, axes or pads inputs a compiler needs
 * to know). */
struct ttc_onnx_const {
	const char *name;
	const ttc_tensor *value; /* of the input's element type */
};

struct ttc_onnx_options {
	/* Shapes for inputs whose dims are symbolic or missing (and
	 * overrides of given ones). */
	const struct ttc_onnx_shape *shapes;
	size_t nshapes;
	/* Inputs bound to values (constants of the function). */
	const struct ttc_onnx_const *consts;
	size_t nconsts;
	/* A symbolic dimension no shape names: this value, or (0) an error
	 * naming the input and the dimension. */
	int64_t default_dim;
	/* The function's name (NULL: "forward"). */
	const char *func_name;
	/* The directory external data files are relative to (NULL: the
	 * model file's). */
	const char *base_dir;
};

TTC_API struct ttc_onnx_options ttc_onnx_defaults(void);

/* Parses "NAME=1x3x224x224" (a rank-0 input: "NAME=") into s. 0, or
 * -EINVAL. */
TTC_API int ttc_onnx_parse_shape(const char *arg, struct ttc_onnx_shape *s);

/* Imports the model file at path (o NULL: the defaults). 0, or -errno
 * with a diagnostic in ctx. */
TTC_API int ttc_onnx_import(ttc_ctx *ctx, const char *path,
			    const struct ttc_onnx_options *o,
			    ttc_onnx_model **out);
/* The same from bytes in memory (external data relative to
 * o->base_dir, refused when it is NULL). */
TTC_API int ttc_onnx_import_bytes(ttc_ctx *ctx, const void *data,
				  size_t len,
				  const struct ttc_onnx_options *o,
				  ttc_onnx_model **out);
TTC_API void ttc_onnx_model_free(ttc_onnx_model *om);

TTC_API ttc_module *ttc_onnx_module(const ttc_onnx_model *om);
TTC_API ttc_func *ttc_onnx_func(const ttc_onnx_model *om);
/* The module, now the caller's (ttc_onnx_param still works while om
 * lives). */
TTC_API ttc_module *ttc_onnx_take_module(ttc_onnx_model *om);
/* The number of graph inputs (the function's first arguments). */
TTC_API size_t ttc_onnx_num_inputs(const ttc_onnx_model *om);
/* A ttc_param_fn (ttc/codegen.h): argument i's value, or NULL for an
 * input. arg is the model. */
TTC_API const ttc_tensor *ttc_onnx_param(void *arg, ttc_func *f, size_t i);
/* The opset of the default domain the model imports. */
TTC_API int64_t ttc_onnx_opset(const ttc_onnx_model *om);

/*
 * A serialized TensorProto (the conformance data's input_N.pb and
 * output_N.pb) as a host tensor. name (may be NULL) gets the tensor's
 * name (valid while ctx lives). NULL with a diagnostic naming the file.
 */
TTC_API ttc_tensor *ttc_onnx_load_tensor(ttc_ctx *ctx, const char *path,
					 const char **name);

/* The converters: op type, the opsets it covers (until 0: to 17) and
 * the attributes it understands (comma-separated). i past the end:
 * -ERANGE. */
struct ttc_onnx_op_info {
	const char *type, *attrs;
	int since, until;
};
TTC_API int ttc_onnx_op_at(size_t i, struct ttc_onnx_op_info *out);

/* Whether the model file at path has a graph of one node: 1 with its op
 * type in op[n], 0 when it has more or none, -errno when the file does
 * not read or parse. */
TTC_API int ttc_onnx_only_op(const char *path, char *op, size_t n);

#endif /* TTC_ONNX_H */
