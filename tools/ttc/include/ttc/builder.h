/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The builder: TTIR made from C, as tt-mlir's Python TTIRBuilder makes it
 * (tools/builder/ in tt-mlir's repository).
 *
 *	ttc_builder *b = ttc_builder_new(ctx, NULL);
 *	const ttc_type *t = ttc_builder_tensor(b, TTC_F32, 2, 32, 32);
 *	ttc_value *in[1];
 *	ttc_builder_func(b, "modela", &t, 1, in);
 *	ttc_value *y = ttc_sigmoid(b, in[0]);
 *	ttc_builder_return(b, &y, 1);
 *	ttc_print_file(ttc_builder_module(b), 0, stdout);
 *	ttc_builder_free(b);
 *
 * Every op function creates its op through the registry (ttc/ops.h),
 * infers its result type and verifies it. A failure returns NULL and
 * leaves a diagnostic in the context naming the op; a NULL operand makes
 * the next op fail too ("operand #0 is NULL"), so a chain of calls can be
 * checked once at the end. Nothing aborts.
 *
 * Values may carry host data (ttc_builder_set_data, _npy, _random): the
 * builder keeps a map value -> bytes. When a golden callback is set, it
 * is called after each op whose operands all have data, to compute the
 * op's results (ttc_builder_set_golden; docs/compiler.md).
 */
#ifndef TTC_BUILDER_H
#define TTC_BUILDER_H

#include "tt/dataformat.h"
#include "ttc/ir.h"

typedef struct ttc_builder ttc_builder;

/* A builder making a new module (sym_name optional) in ctx, whose TTIR
 * ops are registered if they were not. NULL when out of memory. */
TTC_API ttc_builder *ttc_builder_new(ttc_ctx *ctx, const char *sym_name);
/* Frees the builder, its data and its module (unless taken). */
TTC_API void ttc_builder_free(ttc_builder *b);
TTC_API ttc_ctx *ttc_builder_ctx(const ttc_builder *b);
TTC_API ttc_module *ttc_builder_module(const ttc_builder *b);
/* The module, now the caller's to free (ttc_module_free). */
TTC_API ttc_module *ttc_builder_take_module(ttc_builder *b);

/* tensor<d0 x ... x elem>: rank dims follow (ints). */
TTC_API const ttc_type *ttc_builder_tensor(ttc_builder *b,
					   enum ttc_float_kind elem,
					   unsigned rank, ...);

/* ---- functions and modules ------------------------------------------------ */

/*
 * Starts function name with arguments of types args (written to
 * args_out[nargs]). Ops go into it until ttc_builder_return. A function
 * started while another is open nests: it is built in full, then the
 * outer one continues (tt-mlir's builder.call of a Python function).
 */
TTC_API ttc_func *ttc_builder_func(ttc_builder *b, const char *name,
				   const ttc_type *const *args, size_t nargs,
				   ttc_value **args_out);
/* Marks the outputs: func.return of them, which become the function's
 * result types; closes the function. 0 or -EINVAL. */
TTC_API int ttc_builder_return(ttc_builder *b, ttc_value *const *outs,
			       size_t n);
/* func.call of a function of the module: its results into outs[]
 * (the callee's result count). 0 or -EINVAL. */
TTC_API int ttc_builder_call(ttc_builder *b, const char *callee,
			     ttc_value *const *args, size_t nargs,
			     ttc_value **outs);
/* Functions from now on go into ttcore.device_module { builtin.module };
 * ttc_builder_end_module returns to the top level. */
TTC_API int ttc_builder_device_module(ttc_builder *b);
TTC_API int ttc_builder_end_module(ttc_builder *b);

/* ---- options of the next op ------------------------------------------------ */

/* The next op's location: loc("name"), or loc("file":line:0). */
TTC_API void ttc_builder_loc(ttc_builder *b, const char *name);
TTC_API void ttc_builder_loc_file(ttc_builder *b, const char *file,
				  unsigned line);
/* Where the call is written, as tt-mlir's builder records the Python
 * line. */
#define TTC_HERE(b) ttc_builder_loc_file((b), __FILE__, __LINE__)
/* A unit attribute ({ttir.should_hoist}) on the next op (up to 8). */
TTC_API void ttc_builder_unit_attr(ttc_builder *b, const char *name);
/* The next op's result element type (mixed precision: sigmoid from f32
 * to bf16), for ops whose result element type is free. */
TTC_API void ttc_builder_output_elem(ttc_builder *b, const ttc_type *elem);
/* The next op's result type, for ops whose attributes do not fix it
 * (arange). */
TTC_API void ttc_builder_output_type(ttc_builder *b, const ttc_type *t);

/* ---- any op ------------------------------------------------------------------ */

/*
 * The op name (a TTIR op, a pybuda.* op or an alias) on operands, with
 * properties props (a dictionary or NULL): created, typed by inference,
 * verified and appended to the open function. Its first result, or NULL
 * with a diagnostic.
 */
TTC_API ttc_value *ttc_build(ttc_builder *b, const char *name,
			     ttc_value *const *operands, size_t n,
			     const ttc_attr *props);
/* The op of the last successful ttc_build (for its other results). */
TTC_API ttc_op *ttc_builder_last_op(const ttc_builder *b);

/* ---- data and goldens -------------------------------------------------------- */

/* v's data: ttc_type_numel * ttc_type_elem_bytes bytes, little-endian
 * (bf16/f16 as their 16 bits), copied. -EINVAL on a size mismatch. */
TTC_API int ttc_builder_set_data(ttc_builder *b, const ttc_value *v,
				 const void *data, size_t nbytes);
/* Seeded values: floats uniform in [-1, 1), integers in [-8, 8) ([0, 8)
 * unsigned), i1 0 or 1; the same seed gives the same bytes everywhere. */
TTC_API int ttc_builder_set_random(ttc_builder *b, const ttc_value *v,
				   uint64_t seed);
/* From a .npy file of the value's element count (libtt's reader: f32
 * files fill f32, f16 and bf16 values; other dtypes must match the
 * element size). */
TTC_API int ttc_builder_set_npy(ttc_builder *b, const ttc_value *v,
				const char *path);
/* v's data or NULL; *nbytes (may be NULL) its size. */
TTC_API const void *ttc_builder_data(const ttc_builder *b, const ttc_value *v,
				     size_t *nbytes);

/*
 * Called after each op is built when all its operands have data: it
 * computes the op's results (ttc_builder_set_data on each
 * ttc_op_result(op, i)). A negative return fails the op's build (the
 * callback leaves a diagnostic). fn NULL removes it.
 */
typedef int (*ttc_builder_golden_fn)(void *user, ttc_builder *b,
				     const ttc_op *op);
TTC_API void ttc_builder_set_golden(ttc_builder *b, ttc_builder_golden_fn fn,
				    void *user);
/*
 * The library's goldens (ttc/golden.h) as the hook: every op whose
 * operands have data gets its results computed as it is built (a
 * func.call runs its callee). fmt TT_FLOAT32 gives plain fp32 goldens;
 * TT_FLOAT16_B, TT_FLOAT16, TT_BFP8_B or TT_BFP4_B "as the device
 * rounds". 0, or -EINVAL for another format.
 */
TTC_API int ttc_builder_use_goldens(ttc_builder *b, enum tt_data_format fmt);
/* Those goldens leave an op whose result would exceed max_bytes without
 * data (0: no limit, the default): a frontend folding a hostile model's
 * constants must not allocate terabytes. */
TTC_API void ttc_builder_golden_limit(ttc_builder *b, uint64_t max_bytes);

/*
 * The golden map: every op result with data, in the order computed.
 * An entry's name is its op's location (loc("name") gives name,
 * loc("file":line:col) "file:line", a call site or fusion its first
 * named part), else "<op name>_<position>"; ":r" follows for result r > 0,
 * and "#2", "#3", ... a name an earlier entry took.
 */
#define TTC_GOLDEN_NAME_MAX 320
struct ttc_golden_entry {
	const char *name; /* valid while the builder lives */
	const ttc_value *value;
	const ttc_op *op;
	const void *data; /* as ttc_builder_data */
	size_t nbytes;
};
TTC_API size_t ttc_builder_golden_count(const ttc_builder *b);
/* Entry i: 0, or -EINVAL past the end. */
TTC_API int ttc_builder_golden_entry(const ttc_builder *b, size_t i,
				     struct ttc_golden_entry *e);
/* The value of the entry named name, or NULL. */
TTC_API const ttc_value *ttc_builder_golden_find(const ttc_builder *b,
						 const char *name);
/*
 * Writes the map into directory dir (created if missing): entry i as
 * "<i>-<name>.npy" (characters of the name other than letters, digits,
 * '.', '-' and '_' become '_'; bf16 as <f4) and goldens.json, a list of
 * {name, file, op, result, shape}. 0, or -errno with a diagnostic naming
 * the file.
 */
TTC_API int ttc_builder_write_goldens(ttc_builder *b, const char *dir);

/* ---- one function per op ------------------------------------------------------ */

#define TTC_BUILDER_UNARY(n) \
	TTC_API ttc_value *ttc_##n(ttc_builder *b, ttc_value *x);
#define TTC_BUILDER_BINARY(n) \
	TTC_API ttc_value *ttc_##n(ttc_builder *b, ttc_value *x, ttc_value *y);
#include "ttc/builder_ops.def"
#undef TTC_BUILDER_UNARY
#undef TTC_BUILDER_BINARY

TTC_API ttc_value *ttc_where(ttc_builder *b, ttc_value *cond, ttc_value *x,
			     ttc_value *y);
TTC_API ttc_value *ttc_leaky_relu(ttc_builder *b, ttc_value *x, float slope);
TTC_API ttc_value *ttc_clamp_scalar(ttc_builder *b, ttc_value *x, float min,
				    float max);
/* typecast to elem. */
TTC_API ttc_value *ttc_typecast(ttc_builder *b, ttc_value *x,
				const ttc_type *elem);
TTC_API ttc_value *ttc_matmul(ttc_builder *b, ttc_value *a, ttc_value *w);
/* bias may be NULL. */
TTC_API ttc_value *ttc_linear(ttc_builder *b, ttc_value *a, ttc_value *w,
			      ttc_value *bias);

/* conv2d, conv_transpose2d (NHWC): 2 entries for height and width,
 * padding as [top, left, bottom, right]. Zeroed fields mean stride 1,
 * dilation 1, padding 0, groups 1. */
struct ttc_conv2d_params {
	int32_t stride[2], padding[4], dilation[2], output_padding[2];
	int32_t groups;
};
TTC_API ttc_value *ttc_conv2d(ttc_builder *b, ttc_value *x, ttc_value *w,
			      ttc_value *bias,
			      const struct ttc_conv2d_params *p);
TTC_API ttc_value *ttc_conv_transpose2d(ttc_builder *b, ttc_value *x,
					ttc_value *w, ttc_value *bias,
					const struct ttc_conv2d_params *p);
struct ttc_pool2d_params {
	int32_t kernel[2], stride[2], padding[4], dilation[2];
	bool ceil_mode;
};
TTC_API ttc_value *ttc_max_pool2d(ttc_builder *b, ttc_value *x,
				  const struct ttc_pool2d_params *p);
TTC_API ttc_value *ttc_avg_pool2d(ttc_builder *b, ttc_value *x,
				  const struct ttc_pool2d_params *p);

TTC_API ttc_value *ttc_reshape(ttc_builder *b, ttc_value *x,
			       const int64_t *shape, unsigned rank);
TTC_API ttc_value *ttc_transpose(ttc_builder *b, ttc_value *x, int dim0,
				 int dim1);
TTC_API ttc_value *ttc_permute(ttc_builder *b, ttc_value *x,
			       const int64_t *perm, unsigned rank);
TTC_API ttc_value *ttc_concat(ttc_builder *b, ttc_value *const *xs,
			      size_t n, int dim);
TTC_API ttc_value *ttc_squeeze(ttc_builder *b, ttc_value *x, int dim);
TTC_API ttc_value *ttc_unsqueeze(ttc_builder *b, ttc_value *x, int dim);
/* Reductions: dims (ndims 0: all of them), keep_dim. */
TTC_API ttc_value *ttc_sum(ttc_builder *b, ttc_value *x, const int *dims,
			   unsigned ndims, bool keep_dim);
TTC_API ttc_value *ttc_mean(ttc_builder *b, ttc_value *x, const int *dims,
			    unsigned ndims, bool keep_dim);
TTC_API ttc_value *ttc_max(ttc_builder *b, ttc_value *x, const int *dims,
			   unsigned ndims, bool keep_dim);
TTC_API ttc_value *ttc_softmax(ttc_builder *b, ttc_value *x, int dimension);
/* weight and bias may be NULL; normalized over the last nnorm dims. */
TTC_API ttc_value *ttc_layer_norm(ttc_builder *b, ttc_value *x,
				  ttc_value *weight, ttc_value *bias,
				  unsigned nnorm, float epsilon);
TTC_API ttc_value *ttc_rms_norm(ttc_builder *b, ttc_value *x,
				ttc_value *weight, ttc_value *bias,
				unsigned nnorm, float epsilon);
TTC_API ttc_value *ttc_embedding(ttc_builder *b, ttc_value *ids,
				 ttc_value *table);
/* start, start + step, ... below end along dim of type t. */
TTC_API ttc_value *ttc_arange(ttc_builder *b, const ttc_type *t,
			      int64_t start, int64_t end, int64_t step,
			      int64_t dim);

#endif /* TTC_BUILDER_H */
