// SPDX-License-Identifier: Apache-2.0
/*
 * Elementwise ONNX ops: unary, binary with multidirectional broadcasting,
 * variadic (Sum, Max, Min, Mean), comparisons (their results are bool),
 * activations with parameters, Clip, Where, Cast.
 */
#include <math.h>
#include <string.h>

#include "internal.h"

/* ---- one TTIR op per ONNX op ---- */

static const struct {
	const char *onnx, *ttir;
} direct[] = {
	{"Abs", "ttir.abs"},	     {"Neg", "ttir.neg"},
	{"Exp", "ttir.exp"},	     {"Log", "ttir.log"},
	{"Sqrt", "ttir.sqrt"},	     {"Reciprocal", "ttir.reciprocal"},
	{"Relu", "ttir.relu"},	     {"Sigmoid", "ttir.sigmoid"},
	{"Tanh", "ttir.tanh"},	     {"Sin", "ttir.sin"},
	{"Cos", "ttir.cos"},	     {"Tan", "ttir.tan"},
	{"Asin", "ttir.asin"},	     {"Acos", "ttir.acos"},
	{"Atan", "ttir.atan"},	     {"Asinh", "ttir.asinh"},
	{"Erf", "ttir.erf"},	     {"Floor", "ttir.floor"},
	{"Ceil", "ttir.ceil"},	     {"Sign", "ttir.sign"},
	{"Not", "ttir.logical_not"}, {"Softsign", "ttir.softsign"},
	{"Mish", "ttir.mish"},	     {"Add", "ttir.add"},
	{"Sub", "ttir.subtract"},    {"Mul", "ttir.multiply"},
	{"Div", "ttir.div"},	     {"Pow", "ttir.pow"},
	{"And", "ttir.logical_and"}, {"Or", "ttir.logical_or"},
	{"Xor", "ttir.logical_xor"}, {"Equal", "ttir.eq"},
	{"Greater", "ttir.gt"},	     {"Less", "ttir.lt"},
	{"GreaterOrEqual", "ttir.ge"}, {"LessOrEqual", "ttir.le"},
	{"Max", "ttir.maximum"},     {"Min", "ttir.minimum"},
	{"Sum", "ttir.add"},	     {"Mean", "ttir.add"},
};

static const char *ttir_of(const char *onnx)
{
	for (size_t i = 0; i < sizeof(direct) / sizeof(direct[0]); i++)
		if (!strcmp(direct[i].onnx, onnx))
			return direct[i].ttir;
	return NULL;
}

static bool is_compare(const char *t)
{
	return !strcmp(t, "Equal") || !strcmp(t, "Greater") ||
	       !strcmp(t, "Less") || !strcmp(t, "GreaterOrEqual") ||
	       !strcmp(t, "LessOrEqual");
}

/* Comparisons and logical ops give bool (i1) in ONNX. */
static ttc_value *as_bool(struct onx *im, ttc_value *v)
{
	return onx_typecast(im, v, ttc_int_type(im->ctx, 1, TTC_SIGNLESS));
}

static int unary(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);

	return onx_out(im, 0, onx_eltwise(im, ttir_of(im->node->op_type), &x, 1,
					  NULL));
}

static int binary(struct onx *im)
{
	const char *t = im->node->op_type;
	ttc_value *in[2] = {onx_in(im, 0), onx_in(im, 1)};
	ttc_value *v;

	if (!in[0] || !in[1])
		return -EINVAL;
	/* Pow's exponent may have another type (opset 12): compute in the
	 * base's. */
	if (!strcmp(t, "Pow"))
		in[1] = onx_typecast(im, in[1], onx_elem(in[0]));
	v = onx_eltwise(im, ttir_of(t), in, 2, NULL);
	if (v && is_compare(t))
		v = as_bool(im, v);
	return onx_out(im, 0, v);
}

/* Sum, Max, Min, Mean: a chain over the inputs. */
static int variadic(struct onx *im)
{
	const char *t = im->node->op_type;
	ttc_value *acc = onx_in(im, 0);

	for (size_t i = 1; acc && i < im->node->n_input; i++) {
		ttc_value *in[2] = {acc, onx_in(im, i)};

		acc = onx_eltwise(im, ttir_of(t), in, 2, NULL);
	}
	if (acc && !strcmp(t, "Mean") && im->node->n_input > 1) {
		ttc_value *in[2] = {acc, onx_const_scalar(
					     im, onx_elem(acc),
					     (double)im->node->n_input)};

		acc = onx_build(im, "ttir.div", in, 2, NULL);
	}
	return onx_out(im, 0, acc);
}

/* ---- activations with parameters ---- */

static ttc_value *scalar_op(struct onx *im, const char *op, ttc_value *x,
			    double c)
{
	ttc_value *in[2] = {x, x ? onx_const_scalar(im, onx_elem(x), c) : NULL};

	return onx_eltwise(im, op, in, 2, NULL);
}

static ttc_value *where(struct onx *im, ttc_value *c, ttc_value *a,
			ttc_value *b)
{
	ttc_value *in[3] = {c, a, b};

	return onx_eltwise(im, "ttir.where", in, 3, NULL);
}

static int leaky_relu(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	struct ttc_named_attr e = {
		"parameter", onx_f32(im, onx_attr_float(im, "alpha", 0.01))};

	return onx_out(im, 0, onx_eltwise(im, "ttir.leaky_relu", &x, 1,
					  onx_props(im, &e, 1)));
}

/* x > 0 ? x : alpha * (exp(x) - 1), times gamma for Selu. */
static ttc_value *elu_of(struct onx *im, ttc_value *x, double alpha)
{
	ttc_value *neg = scalar_op(
		im, "ttir.multiply",
		scalar_op(im, "ttir.subtract",
			  onx_build(im, "ttir.exp", &x, 1, NULL), 1.0),
		alpha);

	return where(im, scalar_op(im, "ttir.gt", x, 0.0), x, neg);
}

static int elu(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);

	return onx_out(im, 0,
		       x ? elu_of(im, x, onx_attr_float(im, "alpha", 1.0)) :
			   NULL);
}

static int selu(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	double alpha = onx_attr_float(im, "alpha", 1.67326319217681884765625);
	double gamma = onx_attr_float(im, "gamma", 1.05070102214813232421875);

	return onx_out(im, 0, x ? scalar_op(im, "ttir.multiply",
					    elu_of(im, x, alpha), gamma) :
				  NULL);
}

static int celu(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	double alpha = onx_attr_float(im, "alpha", 1.0);

	/* max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) */
	if (!x)
		return -EINVAL;
	ttc_value *e = scalar_op(im, "ttir.div", x, alpha);

	e = onx_build(im, "ttir.exp", &e, 1, NULL);
	e = scalar_op(im, "ttir.multiply", scalar_op(im, "ttir.subtract", e, 1),
		      alpha);
	ttc_value *in[2] = {scalar_op(im, "ttir.maximum", x, 0),
			    scalar_op(im, "ttir.minimum", e, 0)};

	return onx_out(im, 0, onx_eltwise(im, "ttir.add", in, 2, NULL));
}

static int thresholded_relu(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	double alpha = onx_attr_float(im, "alpha", 1.0);

	if (!x)
		return -EINVAL;
	return onx_out(im, 0, where(im, scalar_op(im, "ttir.gt", x, alpha), x,
				    onx_const_scalar(im, onx_elem(x), 0)));
}

static int prelu(struct onx *im)
{
	ttc_value *x = onx_in(im, 0), *slope = onx_in(im, 1);

	if (!x || !slope)
		return -EINVAL;
	ttc_value *in[2] = {x, slope};
	ttc_value *neg = onx_eltwise(im, "ttir.multiply", in, 2, NULL);

	return onx_out(im, 0,
		       where(im, scalar_op(im, "ttir.lt", x, 0.0), neg, x));
}

/* clamp(alpha * x + beta, 0, 1) */
static ttc_value *hard_sigmoid_of(struct onx *im, ttc_value *x, double alpha,
				  double beta)
{
	ttc_value *y = scalar_op(im, "ttir.add",
				 scalar_op(im, "ttir.multiply", x, alpha), beta);
	struct ttc_named_attr e[] = {{"max", onx_f32(im, 1.0)},
				     {"min", onx_f32(im, 0.0)}};

	return y ? onx_eltwise(im, "ttir.clamp_scalar", &y, 1,
			       onx_props(im, e, 2)) :
		   NULL;
}

static int hard_sigmoid(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);

	return onx_out(im, 0, x ? hard_sigmoid_of(
					  im, x, onx_attr_float(im, "alpha", 0.2),
					  onx_attr_float(im, "beta", 0.5)) :
				  NULL);
}

static int hard_swish(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);

	if (!x)
		return -EINVAL;
	ttc_value *in[2] = {x, hard_sigmoid_of(im, x, 1.0 / 6, 0.5)};

	return onx_out(im, 0, onx_eltwise(im, "ttir.multiply", in, 2, NULL));
}

/* log(1 + exp(x)) */
static int softplus(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	ttc_value *e = x ? onx_build(im, "ttir.exp", &x, 1, NULL) : NULL;

	return onx_out(im, 0,
		       e ? onx_build(im, "ttir.log1p", &e, 1, NULL) : NULL);
}

/* ---- compositions of what TTIR has ---- */

static ttc_value *un(struct onx *im, const char *op, ttc_value *x)
{
	return x ? onx_eltwise(im, op, &x, 1, NULL) : NULL;
}

static ttc_value *bin(struct onx *im, const char *op, ttc_value *a,
		      ttc_value *b)
{
	ttc_value *in[2] = {a, b};

	return onx_eltwise(im, op, in, 2, NULL);
}

/* Round half to even: f = floor(x), d = x - f; d > 1/2 gives f + 1,
 * d < 1/2 gives f, and a tie the even one of f and f + 1: f + (f mod 2)
 * (remainder takes the divisor's sign, so it is 0 or 1). */
static int round_even(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	ttc_value *f = un(im, "ttir.floor", x);
	ttc_value *d = bin(im, "ttir.subtract", x, f);
	ttc_value *tie = bin(im, "ttir.add", f,
			     scalar_op(im, "ttir.remainder", f, 2));
	ttc_value *lo = where(im, scalar_op(im, "ttir.lt", d, 0.5), f, tie);

	return onx_out(im, 0, where(im, scalar_op(im, "ttir.gt", d, 0.5),
				    scalar_op(im, "ttir.add", f, 1), lo));
}

/* sinh = (e^x - e^-x) / 2, cosh = (e^x + e^-x) / 2 */
static int hyperbolic(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	ttc_value *e = un(im, "ttir.exp", x);
	ttc_value *en = un(im, "ttir.exp", un(im, "ttir.neg", x));
	bool sinh = !strcmp(im->node->op_type, "Sinh");

	return onx_out(im, 0, scalar_op(im, "ttir.multiply",
					bin(im, sinh ? "ttir.subtract" :
						       "ttir.add", e, en),
					0.5));
}

/* acosh = log(x + sqrt(x^2 - 1)), atanh = log((1 + x) / (1 - x)) / 2 */
static int inverse_hyperbolic(struct onx *im)
{
	ttc_value *x = onx_in(im, 0), *y;

	if (!strcmp(im->node->op_type, "Acosh")) {
		ttc_value *r = un(im, "ttir.sqrt",
				  scalar_op(im, "ttir.subtract",
					    bin(im, "ttir.multiply", x, x), 1));

		y = un(im, "ttir.log", bin(im, "ttir.add", x, r));
	} else {
		ttc_value *q = bin(im, "ttir.div", scalar_op(im, "ttir.add", x, 1),
				   un(im, "ttir.neg",
				      scalar_op(im, "ttir.subtract", x, 1)));

		y = scalar_op(im, "ttir.multiply", un(im, "ttir.log", q), 0.5);
	}
	return onx_out(im, 0, y);
}

/* x < -lambd ? x + bias : x > lambd ? x - bias : 0 */
static int shrink(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	double lambd = onx_attr_float(im, "lambd", 0.5);
	double bias = onx_attr_float(im, "bias", 0.0);

	if (!x)
		return -EINVAL;
	ttc_value *hi = where(im, scalar_op(im, "ttir.gt", x, lambd),
			      scalar_op(im, "ttir.subtract", x, bias),
			      onx_const_scalar(im, onx_elem(x), 0));

	return onx_out(im, 0, where(im, scalar_op(im, "ttir.lt", x, -lambd),
				    scalar_op(im, "ttir.add", x, bias), hi));
}

/* IsNaN: x != x. IsInf: |x| == inf, restricted by sign. */
static int is_nan(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);

	return onx_out(im, 0, as_bool(im, bin(im, "ttir.ne", x, x)));
}

static int is_inf(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	bool pos = onx_attr_int(im, "detect_positive", 1);
	bool neg = onx_attr_int(im, "detect_negative", 1);
	ttc_value *y;

	if (!x)
		return -EINVAL;
	if (pos && neg)
		y = scalar_op(im, "ttir.eq", un(im, "ttir.abs", x), INFINITY);
	else if (pos || neg)
		y = scalar_op(im, "ttir.eq", x, pos ? INFINITY : -INFINITY);
	else /* detects nothing: x != x && x == x is false everywhere */
		y = bin(im, "ttir.logical_and", bin(im, "ttir.ne", x, x),
			bin(im, "ttir.eq", x, x));
	return onx_out(im, 0, as_bool(im, y));
}

/* Mod: fmod 0 takes the divisor's sign (integers only, as ONNX says),
 * fmod 1 the dividend's (C's fmod). */
static int mod(struct onx *im)
{
	ttc_value *a = onx_in(im, 0), *b = onx_in(im, 1);
	bool fmod = onx_attr_int(im, "fmod", 0);

	if (!a || !b)
		return -EINVAL;
	ttc_value *r = bin(im, "ttir.remainder", a, b);

	if (!fmod)
		return onx_out(im, 0, r);
	/* remainder with the divisor's sign, made the dividend's: subtract b
	 * where r != 0 and the signs of r and a differ */
	ttc_value *zero = onx_const_scalar(im, onx_elem(a), 0);
	ttc_value *differ = bin(im, "ttir.ne", bin(im, "ttir.lt", r, zero),
				bin(im, "ttir.lt", a, zero));
	ttc_value *fix = bin(im, "ttir.logical_and", differ,
			     bin(im, "ttir.ne", r, zero));

	return onx_out(im, 0, where(im, fix, bin(im, "ttir.subtract", r, b), r));
}

static int bit_shift(struct onx *im)
{
	ttc_value *a = onx_in(im, 0), *b = onx_in(im, 1);
	const char *dir = onx_attr_str(im, "direction", "");

	if (strcmp(dir, "LEFT") && strcmp(dir, "RIGHT"))
		return onx_unsupported(im, "attribute 'direction' '%s' (LEFT "
					   "or RIGHT)", dir);
	return onx_out(im, 0, bin(im, !strcmp(dir, "LEFT") ?
					      "ttir.logical_left_shift" :
					      "ttir.logical_right_shift",
				  a, b));
}

/* ---- Clip, Where, Cast, Identity ---- */

static int clip(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	double lo = -INFINITY, hi = INFINITY;

	if (!x)
		return -EINVAL;
	if (im->opset < 11) {
		lo = onx_attr_float(im, "min", -INFINITY);
		hi = onx_attr_float(im, "max", INFINITY);
	} else {
		bool known = true;
		ttc_value *b[2] = {NULL, NULL};

		for (size_t i = 1; i < 3; i++) {
			if (!onx_has_in(im, i))
				continue;
			b[i - 1] = onx_in(im, i);
			known &= onx_data(im, b[i - 1]) != NULL;
		}
		if (!known) {
			/* bounds computed at run time: max then min */
			ttc_value *y = x;

			for (size_t i = 0; i < 2; i++) {
				if (!b[i])
					continue;
				ttc_value *in[2] = {y, b[i]};

				y = onx_build(im, i ? "ttir.minimum" :
						      "ttir.maximum",
					      in, 2, NULL);
			}
			return onx_out(im, 0, y);
		}
		if (b[0] && onx_in_scalar(im, 1, &lo))
			return -EINVAL;
		if (b[1] && onx_in_scalar(im, 2, &hi))
			return -EINVAL;
	}
	if (ttc_type_kind(onx_elem(x)) == TTC_TYPE_INT) {
		/* integer bounds: exact through maximum and minimum */
		ttc_value *y = x;

		if (lo > -INFINITY)
			y = scalar_op(im, "ttir.maximum", y, lo);
		if (hi < INFINITY)
			y = scalar_op(im, "ttir.minimum", y, hi);
		return onx_out(im, 0, y);
	}
	struct ttc_named_attr e[] = {
		{"max", onx_f32(im, hi < 3.4e38 ? hi : 3.4e38)},
		{"min", onx_f32(im, lo > -3.4e38 ? lo : -3.4e38)}};

	return onx_out(im, 0, onx_eltwise(im, "ttir.clamp_scalar", &x, 1,
					  onx_props(im, e, 2)));
}

static int where_op(struct onx *im)
{
	ttc_value *c = onx_in(im, 0), *a = onx_in(im, 1), *b = onx_in(im, 2);

	return onx_out(im, 0, where(im, c, a, b));
}

static int cast(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);
	int64_t to = onx_attr_int(im, "to", 0);
	const ttc_type *elem = onx_elem_type(im->ctx, (int32_t)to);

	if (!elem)
		return onx_unsupported(im, "attribute 'to' (%s)",
				       onx_dtype_name((int32_t)to));
	return onx_out(im, 0, onx_typecast(im, x, elem));
}

static int cast_like(struct onx *im)
{
	ttc_value *x = onx_in(im, 0), *like = onx_in(im, 1);

	return onx_out(im, 0, like ? onx_typecast(im, x, onx_elem(like)) : NULL);
}

static int identity(struct onx *im)
{
	return onx_out(im, 0, onx_in(im, 0));
}

/* Dropout at inference is the identity; its mask output is all true. */
static int dropout(struct onx *im)
{
	ttc_value *x = onx_in(im, 0);

	if (!x)
		return -EINVAL;
	if (onx_has_in(im, 2)) {
		double training;

		if (onx_in_scalar(im, 2, &training))
			return -ENOTSUP;
		if (training != 0)
			return onx_unsupported(im, "training_mode true (only "
						    "inference)");
	}
	if (im->node->n_output > 1 && im->node->output[1][0]) {
		const ttc_type *t = ttc_tensor_type_with_elem(
			im->ctx, ttc_value_type(x),
			ttc_int_type(im->ctx, 1, TTC_SIGNLESS));
		struct ttc_named_attr e[] = {
			{"fill_value", onx_i64(im, 1)},
			{"shape", onx_i32s(im, ttc_type_dims(t),
					   ttc_type_rank(t))}};

		ttc_builder_output_type(im->b, t);
		if (onx_out(im, 1, onx_build(im, "ttir.full", NULL, 0,
					     onx_props(im, e, 2))))
			return -EINVAL;
	}
	return onx_out(im, 0, x);
}

#define UNARY(name) {name, unary, "", 7, 0}
#define BINARY(name) {name, binary, "", 7, 0}

const struct onx_op onx_ops_eltwise[] = {
	UNARY("Abs"), UNARY("Neg"), UNARY("Exp"), UNARY("Log"),
	UNARY("Sqrt"), UNARY("Reciprocal"), UNARY("Relu"), UNARY("Sigmoid"),
	UNARY("Tanh"), UNARY("Sin"), UNARY("Cos"), UNARY("Tan"),
	UNARY("Asin"), UNARY("Acos"), UNARY("Atan"), UNARY("Asinh"),
	UNARY("Erf"), UNARY("Floor"), UNARY("Ceil"), UNARY("Sign"),
	UNARY("Not"), UNARY("Softsign"), UNARY("Mish"),
	BINARY("Add"), BINARY("Sub"), BINARY("Mul"), BINARY("Div"),
	BINARY("Pow"), BINARY("And"), BINARY("Or"), BINARY("Xor"),
	BINARY("Equal"), BINARY("Greater"), BINARY("Less"),
	BINARY("GreaterOrEqual"), BINARY("LessOrEqual"),
	{"Sum", variadic, "", 7, 0},
	{"Max", variadic, "", 7, 0},
	{"Min", variadic, "", 7, 0},
	{"Mean", variadic, "", 7, 0},
	{"LeakyRelu", leaky_relu, "alpha", 7, 0},
	{"Elu", elu, "alpha", 7, 0},
	{"Selu", selu, "alpha,gamma", 7, 0},
	{"Celu", celu, "alpha", 12, 0},
	{"ThresholdedRelu", thresholded_relu, "alpha", 10, 0},
	{"PRelu", prelu, "", 7, 0},
	{"HardSigmoid", hard_sigmoid, "alpha,beta", 7, 0},
	{"HardSwish", hard_swish, "", 14, 0},
	{"Softplus", softplus, "", 7, 0},
	{"Clip", clip, "min,max", 7, 10},
	{"Clip", clip, "", 11, 0},
	{"Where", where_op, "", 9, 0},
	{"Cast", cast, "to", 7, 0},
	{"CastLike", cast_like, "", 15, 0},
	{"Identity", identity, "", 7, 0},
	{"Round", round_even, "", 11, 0},
	{"Sinh", hyperbolic, "", 9, 0},
	{"Cosh", hyperbolic, "", 9, 0},
	{"Acosh", inverse_hyperbolic, "", 9, 0},
	{"Atanh", inverse_hyperbolic, "", 9, 0},
	{"Shrink", shrink, "lambd,bias", 9, 0},
	{"IsNaN", is_nan, "", 9, 0},
	{"IsInf", is_inf, "detect_positive,detect_negative", 10, 0},
	{"Mod", mod, "fmod", 10, 0},
	{"BitShift", bit_shift, "direction", 11, 0},
	{"Dropout", dropout, "ratio,seed", 7, 0},
	{NULL, NULL, NULL, 0, 0},
};
