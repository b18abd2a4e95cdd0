/* SPDX-License-Identifier: Apache-2.0 */
/* The ONNX importer's state and the helpers its op converters share. */
#ifndef TTC_ONNX_INTERNAL_H
#define TTC_ONNX_INTERNAL_H

#include <errno.h>

#include <onnx.pb-c.h>

#include "ttc/builder.h"
#include "ttc/onnx.h"

typedef Onnx__NodeProto onx_node;

/* One ONNX value name bound to an IR value. */
struct onx_binding {
	const char *name; /* interned */
	ttc_value *value;
};

struct ttc_onnx_model {
	ttc_ctx *ctx;
	ttc_module *module;
	ttc_func *func;
	size_t ninputs;
	ttc_tensor **params; /* per argument; NULL for inputs */
	size_t nargs;
	int64_t opset;
};

/* The import in progress. */
struct onx {
	ttc_ctx *ctx;
	ttc_builder *b;
	const struct ttc_onnx_options *o;
	const Onnx__ModelProto *model;
	int64_t opset;	      /* the one converters follow */
	int64_t legacy_opset; /* a model's opset below 7, read as 7 */
	struct onx_binding *map; /* open addressing on the interned name */
	size_t mapcap, nmap;
	const onx_node *node; /* the node being converted, for errors */
	unsigned counter;     /* names of values the importer makes */
};

/* The largest dimension and tensor the importer accepts. */
#define ONX_MAX_DIM (INT64_C(1) << 31)
#define ONX_MAX_NUMEL (UINT64_C(1) << 40)

/* The largest value computed or made constant at import time. */
#define ONX_MAX_FOLD_BYTES (256u << 20)

/* The builder's goldens: ops on known values are computed as they are
 * built, up to ONX_MAX_FOLD_BYTES a result (a larger one is simply not
 * known at import time). 0 or -EINVAL. */
int onx_use_folding(struct onx *im);

/* ---- the value map (model.c) ---- */

/* The IR value of an ONNX value name, or NULL. */
ttc_value *onx_lookup(struct onx *im, const char *name);
int onx_bind(struct onx *im, const char *name, ttc_value *v);

/* ---- errors ---- */

/* What names a node in messages and locations: its name, else its first
 * output's, else its op type. */
const char *onx_node_name(const onx_node *n);

/* A diagnostic naming the node being converted: "node 'conv1' (Conv,
 * opset 11): <message>". Returns -EINVAL. */
int onx_fail(struct onx *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* -ENOTSUP with "... is not supported: <message>". */
int onx_unsupported(struct onx *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- attributes (attr.c) ---- */

const Onnx__AttributeProto *onx_attr(struct onx *im, const char *name);
int64_t onx_attr_int(struct onx *im, const char *name, int64_t def);
double onx_attr_float(struct onx *im, const char *name, double def);
/* The attribute's ints into out[max]: their count, -ENOENT when absent,
 * or -EINVAL (with a diagnostic) when it is not a list of ints or is
 * longer than max. */
int onx_attr_ints(struct onx *im, const char *name, int64_t *out,
		  size_t max);
/* The string attribute (interned), or def. */
const char *onx_attr_str(struct onx *im, const char *name, const char *def);

/* ---- inputs and outputs (values.c) ---- */

/* Whether input i is given (an empty name means absent). */
bool onx_has_in(struct onx *im, size_t i);
/* The IR value of input i; NULL with a diagnostic naming the input when
 * it is absent or unknown. */
ttc_value *onx_in(struct onx *im, size_t i);
const ttc_type *onx_in_type(struct onx *im, size_t i);
unsigned onx_in_rank(struct onx *im, size_t i);
/* Input i's values, known at import time (a constant or computed from
 * constants), as int64s into out[max]: the count, or a negative errno
 * with a diagnostic ("input 1 (shape) must be a constant"). */
int onx_in_ints(struct onx *im, size_t i, int64_t *out, size_t max);
/* Input i's one value as a double (a constant scalar or one-element
 * tensor). */
int onx_in_scalar(struct onx *im, size_t i, double *out);
/* The host data of v, or NULL when it is not known at import time. */
const void *onx_data(struct onx *im, const ttc_value *v);
/* Binds output i of the node to v. */
int onx_out(struct onx *im, size_t i, ttc_value *v);

/* ---- building ops (values.c) ---- */

/* ttc_build with the node's location. NULL with the builder's
 * diagnostic. */
ttc_value *onx_build(struct onx *im, const char *op, ttc_value *const *in,
		     size_t n, const ttc_attr *props);
/* A ttir.constant of type t holding raw (ttc_type_elem_bytes per
 * element). */
ttc_value *onx_const(struct onx *im, const ttc_type *t, const void *raw);
/* A zeroed host tensor of type t for a value known at import time; NULL
 * with a diagnostic when it would exceed ONX_MAX_FOLD_BYTES. */
ttc_tensor *onx_host_tensor(struct onx *im, const ttc_type *t);
/* A scalar constant of elem type broadcast-compatible with anything:
 * shape [] (rank 0). */
ttc_value *onx_const_scalar(struct onx *im, const ttc_type *elem,
			    double v);
ttc_value *onx_reshape(struct onx *im, ttc_value *x, const int64_t *dims,
		       unsigned rank);
ttc_value *onx_permute(struct onx *im, ttc_value *x, const int64_t *perm,
		       unsigned rank);
ttc_value *onx_typecast(struct onx *im, ttc_value *x, const ttc_type *elem);
/* A value's element type, dims and rank. */
const ttc_type *onx_elem(const ttc_value *v);
const int64_t *onx_dims(const ttc_value *v);
unsigned onx_rank(const ttc_value *v);
/* The op on one or two operands, or on x and a scalar constant of its
 * element type (NULL operands give NULL). */
ttc_value *onx_op1(struct onx *im, const char *op, ttc_value *x);
ttc_value *onx_op2(struct onx *im, const char *op, ttc_value *a,
		   ttc_value *b);
ttc_value *onx_op_scalar(struct onx *im, const char *op, ttc_value *x,
			 double c);
/* [d : i32, ...], the ArrayAttr form of the reductions' dim_arg; a
 * reduction op over dims[n] (an empty list reduces nothing). */
const ttc_attr *onx_dim_list(struct onx *im, const int64_t *d, size_t n);
ttc_value *onx_reduce(struct onx *im, const char *op, ttc_value *x,
		      const int64_t *dims, size_t n, bool keep);
/* Attribute dictionary helpers: {name = value, ...}. */
const ttc_attr *onx_props(struct onx *im, const struct ttc_named_attr *e,
			  size_t n);
const ttc_attr *onx_i64(struct onx *im, int64_t v);
const ttc_attr *onx_i32(struct onx *im, int64_t v);
const ttc_attr *onx_f32(struct onx *im, double v);
const ttc_attr *onx_bool(struct onx *im, bool v);
const ttc_attr *onx_i64s(struct onx *im, const int64_t *v, size_t n);
const ttc_attr *onx_i32s(struct onx *im, const int64_t *v, size_t n);
/* An axis in [-rank, rank) made non-negative; -1 with a diagnostic
 * naming what when out of range. */
int onx_axis(struct onx *im, int64_t axis, unsigned rank, const char *what);

/* ---- layout (values.c) ----
 * ONNX is NCHW; TTIR's convolutions and pools are NHWC. A convolution's
 * result is permute(y_nhwc, [0,3,1,2]): y_nhwc is its NHWC twin, which
 * the next convolution, pool or element-wise op takes directly, so the
 * permutes between layers have no reader and are dropped. */

/* x's NHWC twin (x = permute(t, [0,3,1,2])), or NULL. */
ttc_value *onx_nhwc_of(ttc_value *x);
/* x (NCHW, rank 4) in NHWC: its twin, else a permute. */
ttc_value *onx_to_nhwc(struct onx *im, ttc_value *x);
/* y (NHWC) as NCHW: a permute whose operand is y's twin. */
ttc_value *onx_from_nhwc(struct onx *im, ttc_value *y);
/* An element-wise op: on the NHWC twins when an operand of rank 4 has
 * one (the others permuted, or made rank 4 and permuted, constants
 * folding), its result given back as NCHW; else as onx_build. */
ttc_value *onx_eltwise(struct onx *im, const char *op, ttc_value *const *in,
		       size_t n, const ttc_attr *props);

/* ---- tensors (tensor.c) ---- */

/* The element type of ONNX data type dt, or NULL (unsupported). */
const ttc_type *onx_elem_type(ttc_ctx *ctx, int32_t dt);
const char *onx_dtype_name(int32_t dt);
/* A TensorProto's values as a host tensor (*out); external data is read
 * from base_dir. 0, or -ENOTSUP (an element type we lack) or -EINVAL
 * with a diagnostic naming the tensor. */
int onx_tensor(ttc_ctx *ctx, const Onnx__TensorProto *t,
	       const char *base_dir, ttc_tensor **out);

/* The whole file at path into *data (malloc'd). 0, or -errno with a
 * diagnostic naming the file. */
int onx_read_file(ttc_ctx *ctx, const char *path, void **data, size_t *len);

/* ---- converters (ops_*.c) ---- */

typedef int (*onx_convert_fn)(struct onx *im);

struct onx_op {
	const char *type;  /* the ONNX op type */
	onx_convert_fn fn;
	const char *attrs; /* the attributes understood, comma-separated */
	int since, until;  /* the opsets handled (until 0: the newest) */
};

/* Each family's table, ended by an entry with type NULL. */
extern const struct onx_op onx_ops_eltwise[];
extern const struct onx_op onx_ops_math[];
extern const struct onx_op onx_ops_shape[];
extern const struct onx_op onx_ops_nn[];
extern const struct onx_op onx_ops_reduce[];

/* The converter of op type at opset, or NULL. */
const struct onx_op *onx_find_op(const char *type, int64_t opset);

#endif /* TTC_ONNX_INTERNAL_H */
