/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers of the ops' shape inference: checks that name the operand or
 * attribute at fault, broadcasting, dims. */
#ifndef TTC_OPS_SHAPE_H
#define TTC_OPS_SHAPE_H

#include "tools/ttc/ir/internal.h"

/* Sets in->err and returns -EINVAL. */
int fail(struct ttc_infer *in, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Operand i as a tensor type, or fails naming it. */
const ttc_type *operand_tensor(struct ttc_infer *in, size_t i, int *rc);
/* dims[] of rank n as a tensor of elem (encoding none); fails on a bad
 * shape. */
const ttc_type *make_tensor(struct ttc_infer *in, const int64_t *dims,
			    unsigned n, const ttc_type *elem);
/* A dimension attribute (negative counts from the end) as 0..rank-1. */
int norm_dim(struct ttc_infer *in, const char *attr, int64_t d,
	     unsigned rank, unsigned *out);
/* A list-of-integers attribute into v[TTC_MAX_RANK]; its length, or a
 * failure naming it. Absent: -ENOENT without failing when optional. */
int attr_ints(struct ttc_infer *in, const char *attr, int64_t *v,
	      size_t max, bool optional);
/* NumPy broadcasting of a and b into dims/rank; fails naming operands
 * ia and ib. */
int broadcast2(struct ttc_infer *in, const ttc_type *a, size_t ia,
	       const ttc_type *b, size_t ib, int64_t *dims, unsigned *rank);
/* Fails unless operands ia and ib have the same element type. */
int same_elem(struct ttc_infer *in, size_t ia, size_t ib);
/* A name for operand i ("#1 (rhs)"), into a static buffer per call site. */
const char *operand_name(struct ttc_infer *in, size_t i, char *buf,
			 size_t n);
/* The text of a type, into buf. */
const char *type_text(const ttc_type *t, char *buf, size_t n);

/* Inference of an op whose result has operand #0's shape and element
 * type. */
int infer_same_type(struct ttc_infer *in, const ttc_type **out);
/* Operand i as a rank-4 tensor type, or fails naming it. */
int operand_rank4(struct ttc_infer *in, size_t i, const ttc_type **t);
/* A convolution's bias, when given (operand #2), holds one value per
 * output channel (o of them). */
int check_conv_bias(struct ttc_infer *in, int64_t o);
/* t (rank 4) with its height, width and channel dimensions (nhwc[1..3]
 * name them) set to hw[0], hw[1] and c. */
const ttc_type *with_hwc(struct ttc_infer *in, const ttc_type *t,
			 const unsigned *nhwc, const int64_t *hw, int64_t c);
/* Inference of a concatenation along the dimension attribute attr
 * (ttir.concat's dim, pybuda.concatenate's axis). */
int infer_concat_along(struct ttc_infer *in, const char *attr,
		       const ttc_type **out);

/* One output extent of a window of k (dilated by d) sliding by s over
 * x plus padding lo, hi; ceil rounds the last partial window up (but
 * never keeps one that starts in the high padding). 0: none fits. */
int64_t ttc_window_out(int64_t x, int64_t lo, int64_t hi, int64_t k,
		       int64_t s, int64_t d, bool ceil);

/* Op tables of the files of ops/. */
extern const struct ttc_op_def ttc_eltwise_defs[];
extern const size_t ttc_eltwise_count;
extern const struct ttc_op_def ttc_matmul_defs[];
extern const size_t ttc_matmul_count;
extern const struct ttc_op_def ttc_data_defs[];
extern const size_t ttc_data_count;
extern const struct ttc_op_def ttc_reduce_defs[];
extern const size_t ttc_reduce_count;
extern const struct ttc_op_def ttc_nn_defs[];
extern const size_t ttc_nn_count;
extern const struct ttc_op_def ttc_tm_defs[];
extern const size_t ttc_tm_count;
extern const struct ttc_op_def ttc_pybuda_defs[];
extern const size_t ttc_pybuda_count;
extern const struct ttc_op_def ttc_pybuda_nn_defs[];
extern const size_t ttc_pybuda_nn_count;
/* PyBuda's names of TTIR ops: { alias, target } pairs. */
extern const char *const ttc_pybuda_aliases[][2];
extern const size_t ttc_pybuda_alias_count;
/* The number of values arange makes: ceil((end - start) / step), >= 0. */
int64_t ttc_arange_count(int64_t start, int64_t end, int64_t step);
extern const struct ttc_op_def ttc_create_defs[];
extern const size_t ttc_create_count;

#endif /* TTC_OPS_SHAPE_H */
