/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the passes share: the built-in passes (manager.c lists them), the
 * ops' kinds (util.c) and small rewriting helpers. Not public.
 */
#ifndef TTC_PASSES_INTERNAL_H
#define TTC_PASSES_INTERNAL_H

#include "ttc/passes.h"

#include "../ir/internal.h"

/* The built-in passes: each defined in its own file. To add one, define
 * it in a new file, declare it here and list it in manager.c's table. */
extern const struct ttc_pass ttc_pass_decompose;
extern const struct ttc_pass ttc_pass_canonicalize;
extern const struct ttc_pass ttc_pass_consteval;
extern const struct ttc_pass ttc_pass_cse;
extern const struct ttc_pass ttc_pass_dce;
extern const struct ttc_pass ttc_pass_fuse;
extern const struct ttc_pass ttc_pass_formats;

/* A diagnostic "pass 'NAME': ..." (about op when not NULL); returns rc. */
int pass_fail(struct ttc_pass_ctx *pc, const ttc_op *op, int rc,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Registered, not a terminator, not a call, not an uninitialised
 * tensor: removing or merging it changes nothing but its results. */
bool pass_op_is_pure(const ttc_op *op);

/* The device's unary function of a unary elementwise op, or NULL when
 * op is not one the device op library computes (tt_unary_op_name's
 * spelling: "relu", "recip", "clip"). np: its parameters (0..2) in p. */
const char *pass_unary_device_name(const ttc_op *op, double p[2],
				   unsigned *np);
/* A binary elementwise op the device computes (add, maximum, eq...). */
bool pass_is_device_binary(const ttc_op *op);

/* Whether v is made by a constant op (ttir.constant, full, zeros, ones)
 * whose every element equals x. */
bool pass_value_is_splat(const ttc_value *v, double x);

/* A new op inserted before pos with pos's location; props may be NULL. */
ttc_op *pass_new_op(ttc_op *pos, const char *name, ttc_value *const *ops,
		    size_t nops, const ttc_type *result, const ttc_attr *props);
/* Replaces every use of op's results by vals and erases op. */
int pass_replace_op(ttc_op *op, ttc_value *const *vals);

/* Attribute makers of the forms TTIR prints. */
const ttc_attr *pass_i32_list(ttc_ctx *ctx, const int64_t *v, size_t n);
const ttc_attr *pass_i64_array(ttc_ctx *ctx, const int64_t *v, size_t n);
const ttc_attr *pass_si32(ttc_ctx *ctx, int64_t v);
const ttc_attr *pass_dict1(ttc_ctx *ctx, const char *k, const ttc_attr *v);

/* A tensor type with dims (elem and encoding of like). */
const ttc_type *pass_tensor_like(ttc_ctx *ctx, const ttc_type *like,
				 const int64_t *dims, unsigned rank);

#endif /* TTC_PASSES_INTERNAL_H */
