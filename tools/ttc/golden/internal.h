/* SPDX-License-Identifier: Apache-2.0 */
/* What the files of golden/ share: index helpers and the op tables. */
#ifndef TTC_GOLDEN_INTERNAL_H
#define TTC_GOLDEN_INTERNAL_H

#include <stdarg.h>

#include "ttc/golden.h"

#include "tools/ttc/ir/internal.h"

/* Writes a message into err and returns -EINVAL. */
int gfail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* C-order strides of a tensor type (in elements). */
void strides_of(const ttc_type *t, int64_t *st);
/* The flat index into a tensor of type src of the element at index idx
 * (of rank orank) of a NumPy broadcast of it (missing leading dims and
 * size-1 dims repeat). */
size_t bcast_index(const ttc_type *src, const int64_t *idx, unsigned orank);
/* Advances a multi-index over dims (C order); false after the last. */
bool next_index(int64_t *idx, const int64_t *dims, unsigned rank);
/* A dimension attribute of op (negative counts from the end). */
unsigned norm_dim_of(int64_t d, unsigned rank);
/* An integer-list attribute of op into v[TTC_MAX_RANK]; count or -1. */
int op_ints(const ttc_op *op, const char *name, int64_t *v);
/* A (height, width) attribute (one integer for both) into v[2]; -1 when
 * it is neither. */
int op_hw(const ttc_op *op, const char *name, int64_t *v);
/* padding (one integer, [h, w] or [top, left, bottom, right]) into
 * p[4] = top, left, bottom, right; -1 when it is none of them. */
int op_padding(const ttc_op *op, int64_t *p);

/* One entry of the golden table (table.c): the golden and, for the
 * elementwise ops that share one golden, their scalar function. */
struct golden_entry {
	const char *name;
	ttc_golden_fn fn;
};

/* Scalar functions of elementwise ops, looked up by op name. */
typedef double (*scalar1_fn)(double x);
typedef double (*scalar2_fn)(double a, double b);
scalar1_fn eltwise_unary_fn(const char *name);
scalar2_fn eltwise_binary_fn(const char *name);

/* The goldens of the files of golden/ (table.c lists them by name). */
int golden_unary(const ttc_op *, ttc_tensor *const *, size_t,
		 ttc_tensor *const *, char *, size_t);
int golden_binary(const ttc_op *, ttc_tensor *const *, size_t,
		  ttc_tensor *const *, char *, size_t);
int golden_where(const ttc_op *, ttc_tensor *const *, size_t,
		 ttc_tensor *const *, char *, size_t);
int golden_leaky_relu(const ttc_op *, ttc_tensor *const *, size_t,
		      ttc_tensor *const *, char *, size_t);
int golden_bitcast(const ttc_op *, ttc_tensor *const *, size_t,
		   ttc_tensor *const *, char *, size_t);
int golden_matmul(const ttc_op *, ttc_tensor *const *, size_t,
		  ttc_tensor *const *, char *, size_t);
int golden_reshape(const ttc_op *, ttc_tensor *const *, size_t,
		   ttc_tensor *const *, char *, size_t);
int golden_transpose(const ttc_op *, ttc_tensor *const *, size_t,
		     ttc_tensor *const *, char *, size_t);
int golden_permute(const ttc_op *, ttc_tensor *const *, size_t,
		   ttc_tensor *const *, char *, size_t);
int golden_broadcast(const ttc_op *, ttc_tensor *const *, size_t,
		     ttc_tensor *const *, char *, size_t);
int golden_concat(const ttc_op *, ttc_tensor *const *, size_t,
		  ttc_tensor *const *, char *, size_t);
int golden_slice(const ttc_op *, ttc_tensor *const *, size_t,
		 ttc_tensor *const *, char *, size_t);
int golden_reduce(const ttc_op *, ttc_tensor *const *, size_t,
		  ttc_tensor *const *, char *, size_t);
int golden_softmax(const ttc_op *, ttc_tensor *const *, size_t,
		   ttc_tensor *const *, char *, size_t);
int golden_constant(const ttc_op *, ttc_tensor *const *, size_t,
		    ttc_tensor *const *, char *, size_t);
int golden_fill(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_reverse(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_repeat(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_repeat_interleave(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_pad(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_running(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_clamp(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_selu(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_gelu_bw(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_arange(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_binary_stack(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_zmove(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_pybuda_index(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_select(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_pybuda_reduce(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_heaviside(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_pybuda_constant(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_norm(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_batch_norm(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_embedding(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_gather(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_dot_general(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_pool(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_conv(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);

/* A convolution's window and layout (l: which dim is N, H, W, C),
 * padding [top, left, bottom, right]; tr: transposed. */
struct golden_conv_params {
	int64_t s[2], d[2], p[4], g;
	unsigned l[4];
	bool tr;
};
int golden_conv_core(const struct golden_conv_params *cp,
		     ttc_tensor *const *in, size_t nin,
		     ttc_tensor *const *out, char *err, size_t len);
/* A pool's window and layout; avg divides by divisor when it is not 0,
 * else by the taps counted (incl: those in the padding too). */
struct golden_pool_params {
	int64_t k[2], s[2], d[2], p[4];
	unsigned l[4];
	bool avg, incl;
	double divisor;
};
int golden_pool_core(const struct golden_pool_params *pp,
		     ttc_tensor *const *in, ttc_tensor *const *out);

void golden_norm_rows(const ttc_tensor *x, const ttc_tensor *w,
		      const ttc_tensor *b, size_t m, double eps, bool rms,
		      ttc_tensor *out);
/* Scalar GELU: erf form, or the tanh approximation. */
double golden_gelu_scalar(double x, bool tanh_form);
int golden_pybuda_conv(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_pybuda_pool(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_pybuda_layernorm(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_pybuda_pad(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_pybuda_relu(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);
int golden_pybuda_gelu(const ttc_op *, ttc_tensor *const *, size_t,
		ttc_tensor *const *, char *, size_t);

#endif /* TTC_GOLDEN_INTERNAL_H */
