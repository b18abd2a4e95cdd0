// SPDX-License-Identifier: Apache-2.0
/* Goldens of the elementwise ops: unary, binary with NumPy broadcasting,
 * where, leaky_relu, bitcast_convert, clamp_scalar, clamp_tensor, selu,
 * gelu_bw. */
#include <math.h>
#include <string.h>

#include "internal.h"

int golden_unary(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		 ttc_tensor *const *out, char *err, size_t len)
{
	scalar1_fn f = eltwise_unary_fn(ttc_op_name(op));
	const ttc_type *e = in[0]->type->elem;

	(void)nin;
	if (!f)
		return gfail(err, len, "no scalar function");
	/* ~ of a boolean is its negation, as in NumPy and PyTorch. */
	if (e->kind == TTC_TYPE_INT && e->width == 1 &&
	    !strcmp(ttc_op_name(op), "ttir.bitwise_not"))
		f = eltwise_unary_fn("ttir.logical_not");
	for (size_t i = 0; i < out[0]->numel; i++)
		ttc_tensor_set(out[0], i, f(ttc_tensor_get(in[0], i)));
	return 0;
}

int golden_leaky_relu(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		      ttc_tensor *const *out, char *err, size_t len)
{
	double p = ttc_attr_float(ttc_op_attr(op, "parameter"));

	(void)nin, (void)err, (void)len;
	for (size_t i = 0; i < out[0]->numel; i++) {
		double x = ttc_tensor_get(in[0], i);

		ttc_tensor_set(out[0], i, x < 0 ? p * x : x);
	}
	return 0;
}

/* The bits of each element, reinterpreted (the element sizes match, as
 * the verifier of tt-mlir requires). */
int golden_bitcast(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		   ttc_tensor *const *out, char *err, size_t len)
{
	size_t a = ttc_type_elem_bytes(in[0]->type->elem);
	size_t b = ttc_type_elem_bytes(out[0]->type->elem);

	(void)op, (void)nin;
	if (a != b)
		return gfail(err, len, "bitcast from %zu-byte to %zu-byte "
				       "elements", a, b);
	memcpy(out[0]->data, in[0]->data, a * in[0]->numel);
	return 0;
}

/* Element i of the output's flat order in x: the same index when x has
 * the output's elements (broadcasting only repeats), else through the
 * multi-index. */
static double at(const ttc_tensor *x, size_t i, const int64_t *idx,
		 const ttc_tensor *out)
{
	if (x->numel == out->numel)
		return ttc_tensor_get(x, i);
	return ttc_tensor_get(x, bcast_index(x->type, idx, out->type->rank));
}

/* A logical shift right sees the lhs as unsigned of its width. */
static double as_unsigned(double v, const ttc_type *elem)
{
	unsigned w = elem->width;
	uint64_t u = (uint64_t)(int64_t)v;

	if (w < 64)
		u &= (UINT64_C(1) << w) - 1;
	else
		u >>= 1, u <<= 1; /* keep 2^63 representable below */
	return (double)u;
}

int golden_binary(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		  ttc_tensor *const *out, char *err, size_t len)
{
	scalar2_fn f = eltwise_binary_fn(ttc_op_name(op));
	const ttc_type *o = out[0]->type;
	bool lsr = !strcmp(ttc_op_name(op), "ttir.logical_right_shift") &&
		   in[0]->type->elem->kind == TTC_TYPE_INT;
	int64_t idx[TTC_MAX_RANK] = { 0 };

	(void)nin;
	if (!f)
		return gfail(err, len, "no scalar function");
	for (size_t i = 0; i < out[0]->numel; i++) {
		double a = at(in[0], i, idx, out[0]);
		double b = at(in[1], i, idx, out[0]);

		if (lsr)
			a = as_unsigned(a, in[0]->type->elem);
		ttc_tensor_set(out[0], i, f(a, b));
		next_index(idx, o->dims, o->rank);
	}
	return 0;
}

int golden_where(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		 ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *o = out[0]->type;
	int64_t idx[TTC_MAX_RANK] = { 0 };

	(void)op, (void)nin, (void)err, (void)len;
	for (size_t i = 0; i < out[0]->numel; i++) {
		const ttc_tensor *s = at(in[0], i, idx, out[0]) != 0 ? in[1] :
								       in[2];

		ttc_tensor_set(out[0], i, at(s, i, idx, out[0]));
		next_index(idx, o->dims, o->rank);
	}
	return 0;
}

/* torch.clamp: NaN stays NaN; with min > max every value is max. */
static double clamp(double x, double lo, double hi)
{
	if (isnan(x))
		return x;
	return fmin(fmax(x, lo), hi);
}

int golden_clamp(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		 ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *o = out[0]->type;
	bool scalar = nin == 1;
	double lo = ttc_attr_float(ttc_op_attr(op, "min"));
	double hi = ttc_attr_float(ttc_op_attr(op, "max"));
	int64_t idx[TTC_MAX_RANK] = { 0 };

	(void)err, (void)len;
	for (size_t i = 0; i < out[0]->numel; i++) {
		if (!scalar) {
			lo = at(in[1], i, idx, out[0]);
			hi = at(in[2], i, idx, out[0]);
		}
		ttc_tensor_set(out[0], i, clamp(ttc_tensor_get(in[0], i), lo, hi));
		next_index(idx, o->dims, o->rank);
	}
	return 0;
}

/* selu: scale * (max(x, 0) + min(alpha * (e^x - 1), 0)). */
int golden_selu(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		ttc_tensor *const *out, char *err, size_t len)
{
	double s = ttc_attr_float(ttc_op_attr(op, "scale"));
	double a = ttc_attr_float(ttc_op_attr(op, "alpha"));

	(void)nin, (void)err, (void)len;
	for (size_t i = 0; i < out[0]->numel; i++) {
		double x = ttc_tensor_get(in[0], i);

		ttc_tensor_set(out[0], i, x > 0 ? s * x :
					   isnan(x) ? x : s * a * expm1(x));
	}
	return 0;
}

double golden_gelu_scalar(double x, bool tanh_form)
{
	if (tanh_form)
		return 0.5 * x *
		       (1 + tanh(sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
	return 0.5 * x * (1 + erf(x / sqrt(2)));
}

/* gelu'(x): erf form (approximate "none") or tanh form ("tanh"). */
static double gelu_grad(double x, bool tanh_form)
{
	if (tanh_form) {
		const double k = sqrt(2 / M_PI), c = 0.044715;
		double u = k * (x + c * x * x * x), t = tanh(u);

		return 0.5 * (1 + t) +
		       0.5 * x * (1 - t * t) * k * (1 + 3 * c * x * x);
	}
	return 0.5 * (1 + erf(x / sqrt(2))) +
	       x * exp(-0.5 * x * x) / sqrt(2 * M_PI);
}

/* gelu_bw(grad, x): grad * gelu'(x), broadcasting. */
int golden_gelu_bw(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		   ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *o = out[0]->type;
	const char *ap = ttc_attr_str(ttc_op_attr(op, "approximate"), NULL);
	bool tf = ap && !strcmp(ap, "tanh");
	int64_t idx[TTC_MAX_RANK] = { 0 };

	(void)nin;
	if (ap && !tf && strcmp(ap, "none"))
		return gfail(err, len, "approximate \"%s\" (\"none\" or "
				       "\"tanh\")", ap);
	for (size_t i = 0; i < out[0]->numel; i++) {
		double g = at(in[0], i, idx, out[0]);
		double x = at(in[1], i, idx, out[0]);

		ttc_tensor_set(out[0], i, g * gelu_grad(x, tf));
		next_index(idx, o->dims, o->rank);
	}
	return 0;
}

/* pybuda.heaviside (torch.heaviside): rhs where lhs is 0, else
 * lhs > 0 (0 for NaN). */
int golden_heaviside(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		     ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *o = out[0]->type;
	int64_t idx[TTC_MAX_RANK] = { 0 };

	(void)op, (void)nin, (void)err, (void)len;
	for (size_t i = 0; i < out[0]->numel; i++) {
		double x = at(in[0], i, idx, out[0]);

		ttc_tensor_set(out[0], i, x == 0 ? at(in[1], i, idx, out[0]) :
						   x > 0);
		next_index(idx, o->dims, o->rank);
	}
	return 0;
}
