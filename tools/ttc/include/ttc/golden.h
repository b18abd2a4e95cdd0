/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Goldens: a host reference for every op, the interpreter that runs a
 * function on them, the "as the device rounds" variants, and the metrics
 * that compare a result with its golden. docs/compiler.md ("Goldens").
 *
 * - A host tensor (ttc_tensor) is a tensor type and its elements in the
 *   element type's dense storage (as ttc_dense_attr stores them: f32 as
 *   float, bf16/f16 as their 16 bits, i1 as a byte, integers in their
 *   width). Goldens read every element as a double, compute in double
 *   (reductions and softmax accumulate in double) and store each result
 *   rounded to the result's element type, so an f32 result is the
 *   correctly rounded fp32 value wherever a single operation makes it.
 *   matmul and linear multiply in fp32 panels of k summed in double
 *   (ttc_golden_gemm).
 * - Conventions of ttc/common.h: failures return NULL or a negative errno
 *   and leave a diagnostic in the context naming the op, input or file.
 */
#ifndef TTC_GOLDEN_H
#define TTC_GOLDEN_H

#include "tt/dataformat.h"
#include "ttc/ir.h"

/* ---- host tensors ------------------------------------------------------- */

typedef struct ttc_tensor {
	const ttc_type *type; /* a tensor type (its encoding is ignored) */
	size_t numel;
	void *data; /* numel * ttc_type_elem_bytes(elem) bytes, owned */
} ttc_tensor;

/* A zeroed tensor of type t (a tensor type of int or float elements). */
TTC_API ttc_tensor *ttc_tensor_new(ttc_ctx *ctx, const ttc_type *t);
TTC_API void ttc_tensor_free(ttc_tensor *t);
TTC_API ttc_tensor *ttc_tensor_clone(const ttc_tensor *t);
/* Element i as a double; i1 is 0 or 1. */
TTC_API double ttc_tensor_get(const ttc_tensor *t, size_t i);
/* Stores v rounded to the element type: floats round to nearest even;
 * integers truncate toward zero, saturate to int64 and keep their low
 * bits (wrap, as a C cast); NaN stores 0; i1 stores v != 0. */
TTC_API void ttc_tensor_set(ttc_tensor *t, size_t i, double v);
/* Seeded values: floats uniform in [-1, 1) (then rounded to the type),
 * integers uniform in [-8, 8) ([0, 8) unsigned), i1 0 or 1. The same
 * seed gives the same values on every machine. */
TTC_API ttc_tensor *ttc_tensor_random(ttc_ctx *ctx, const ttc_type *t,
				      uint64_t seed);

/*
 * .npy files (format 1.0 written; 1.0 to 3.0 read), rank 0 to
 * TTC_MAX_RANK, dtypes <f2 <f4 <f8 |b1 |i1 |u1 <i2 <u2 <i4 <u4 <i8 <u8
 * (either byte order on read). bf16 tensors are written as <f4 (NumPy has
 * no bfloat16). A failure names the file and what is wrong.
 */
TTC_API ttc_tensor *ttc_tensor_load_npy(ttc_ctx *ctx, const char *path);
TTC_API int ttc_tensor_save_npy(ttc_ctx *ctx, const ttc_tensor *t,
				const char *path);

/* ---- the device's rounding ------------------------------------------------ */

/*
 * Passes t's values through fmt and back, in place, as the device would
 * store them: TT_FLOAT16_B (bf16) and TT_FLOAT16 element by element,
 * TT_BFP8_B and TT_BFP4_B by 32x32 tiles of the last two dimensions (a
 * shared exponent per 16 values of a face row), through libtt's
 * tt/dataformat.h. TT_FLOAT32 leaves t unchanged. Integer tensors are
 * left unchanged. -ENOTSUP for another format.
 */
TTC_API int ttc_tensor_round(ttc_ctx *ctx, ttc_tensor *t,
			     enum tt_data_format fmt);

/* ---- goldens of ops ------------------------------------------------------- */

/* The golden of one op: out[] are allocated with the op's result types;
 * on failure, err says why (0 or -EINVAL). */
typedef int (*ttc_golden_fn)(const ttc_op *op, ttc_tensor *const *in,
			     size_t nin, ttc_tensor *const *out, char *err,
			     size_t errlen);

/* The golden of the op named name ("ttir.add"), or NULL. */
TTC_API ttc_golden_fn ttc_golden_lookup(const char *name);
/* The ops with a golden: how many, and the name of each (sorted; NULL
 * past the end). */
TTC_API size_t ttc_golden_count(void);
TTC_API const char *ttc_golden_name(size_t i);

/*
 * Runs op's golden on in[] (one tensor per operand, of the operand's
 * type) into out[] (set to new tensors of the result types). fmt other
 * than TT_FLOAT32 runs it "as the device rounds": inputs and outputs
 * pass through fmt (ttc_tensor_round). 0, or -errno with a diagnostic
 * naming the op.
 */
TTC_API int ttc_golden_op(const ttc_op *op, ttc_tensor *const *in,
			  size_t nin, ttc_tensor **out,
			  enum tt_data_format fmt);

/*
 * C = A x B in fp32 (row-major; A m x k, B k x n, C m x n), accumulated
 * in fp32 over panels of k of at most TTC_GEMM_KC and in double across
 * panels. OpenBLAS's sgemm computes the panels when libttc was built with
 * it (ttc_golden_gemm_backend() says "openblas"), else a blocked kernel
 * of libttc ("blocked").
 */
#define TTC_GEMM_KC 256
TTC_API void ttc_golden_gemm(const float *a, const float *b, float *c,
			     size_t m, size_t n, size_t k);
TTC_API const char *ttc_golden_gemm_backend(void);

/* ---- the interpreter ------------------------------------------------------- */

/* Called for every result of every op of the function run, in order (the
 * intermediates; not those inside the functions it calls). A non-zero
 * return stops the run with it. */
typedef int (*ttc_golden_visit_fn)(void *arg, const ttc_op *op,
				   size_t result, const ttc_tensor *t);

struct ttc_golden_opts {
	enum tt_data_format fmt; /* TT_FLOAT32: plain fp32 goldens */
	ttc_golden_visit_fn visit; /* NULL: none */
	void *visit_arg;
};

/*
 * Runs f on args (one per argument, of its type: shape and element type
 * must match) and sets results[ttc_func_num_results(f)] to new tensors.
 * func.call runs the callee. 0, or -errno with a diagnostic naming the
 * argument or op (an op without a golden, a golden's failure).
 */
TTC_API int ttc_golden_run(ttc_func *f, ttc_tensor *const *args,
			   size_t nargs, ttc_tensor **results,
			   const struct ttc_golden_opts *opts);

/* ---- comparisons ------------------------------------------------------------ */

/* One comparison of a calculated tensor with its golden (tt-mlir's
 * tools/golden/metrics.py definitions; docs/compiler.md). */
struct ttc_compare {
	double pcc;	/* Pearson correlation, with tt-mlir's special cases */
	double atol;	/* max |golden - calc| */
	double rtol;	/* max |golden - calc| / |calc| */
	double max_abs; /* = atol */
	double max_rel; /* max |golden - calc| / |golden| */
	bool allclose;	/* |g - c| <= want_atol + want_rtol * |g| everywhere
			   (NaN equal to NaN, inf to the same inf) */
	bool pass;	/* pcc >= want_pcc and allclose when asked */
};

struct ttc_compare_want {
	double pcc;  /* 0.99 */
	double atol; /* 1e-8 */
	double rtol; /* 1e-5 */
	bool check_allclose;
};

/* The defaults above. */
TTC_API struct ttc_compare_want ttc_compare_defaults(void);

/*
 * Compares n values (double) of a golden and a calculated tensor.
 * same_shape is whether their shapes are equal (only empty tensors use
 * it). Returns the record.
 */
TTC_API struct ttc_compare ttc_compare_values(const double *golden,
					      const double *calc, size_t n,
					      bool same_shape,
					      const struct ttc_compare_want *w);
/* The same for two tensors (any element types). -EINVAL when the element
 * counts differ. */
TTC_API int ttc_compare_tensors(const ttc_tensor *golden,
				const ttc_tensor *calc,
				const struct ttc_compare_want *w,
				struct ttc_compare *out);

#endif /* TTC_GOLDEN_H */
