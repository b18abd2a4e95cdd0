// SPDX-License-Identifier: Apache-2.0
/*
 * The golden of every op, by name. Adding an op's golden is one line
 * here (and, for an elementwise op, its scalar function in scalar.c);
 * test_ttc_golden checks that every op the registry holds has one.
 * The table lives above ops/ rather than in struct ttc_op_def because
 * goldens are a later stage: ops/ must not depend on them.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* func.call and func.return move values between functions: the
 * interpreter runs them, not a golden of their own. */
static int golden_by_interp(const ttc_op *op, ttc_tensor *const *in,
			    size_t nin, ttc_tensor *const *out, char *err,
			    size_t len)
{
	(void)op, (void)in, (void)nin, (void)out;
	return gfail(err, len, "run by the interpreter (ttc_golden_run), "
			       "not alone");
}

#define U(n) { "ttir." n, golden_unary }
#define B(n) { "ttir." n, golden_binary }

/* Sorted by name (looked up by bisection). */
static const struct golden_entry table[] = {
	{ "func.call", golden_by_interp }, { "func.return", golden_by_interp },
	{ "pybuda.argmax", golden_pybuda_reduce },
	{ "pybuda.avg_pool2d", golden_pybuda_pool },
	{ "pybuda.binary_stack", golden_binary_stack },
	{ "pybuda.buffer", golden_reshape },
	{ "pybuda.concatenate", golden_concat },
	{ "pybuda.constant", golden_pybuda_constant },
	{ "pybuda.conv2d", golden_pybuda_conv },
	{ "pybuda.conv2d_transpose", golden_pybuda_conv },
	{ "pybuda.gelu", golden_pybuda_gelu },
	{ "pybuda.heaviside", golden_heaviside },
	{ "pybuda.hslice", golden_zmove }, { "pybuda.hstack", golden_zmove },
	{ "pybuda.identity", golden_reshape },
	{ "pybuda.index", golden_pybuda_index },
	{ "pybuda.layernorm", golden_pybuda_layernorm },
	{ "pybuda.max_pool2d", golden_pybuda_pool },
	{ "pybuda.pad", golden_pybuda_pad },
	{ "pybuda.reduce_avg", golden_pybuda_reduce },
	{ "pybuda.reduce_sum", golden_pybuda_reduce },
	{ "pybuda.relu", golden_pybuda_relu },
	{ "pybuda.select", golden_select },
	{ "pybuda.softmax", golden_softmax }, { "pybuda.vslice", golden_zmove },
	{ "pybuda.vstack", golden_zmove }, { "tensor.empty", golden_fill },
	U("abs"), U("acos"), B("add"), { "ttir.arange", golden_arange },
	{ "ttir.argmax", golden_reduce }, U("asin"), U("asinh"), U("atan"),
	B("atan2"), { "ttir.avg_pool2d", golden_pool },
	{ "ttir.batch_norm_inference", golden_batch_norm },
	{ "ttir.bitcast_convert", golden_bitcast }, B("bitwise_and"),
	U("bitwise_not"), B("bitwise_or"), B("bitwise_xor"),
	{ "ttir.broadcast", golden_broadcast }, U("cbrt"), U("ceil"),
	{ "ttir.clamp_scalar", golden_clamp },
	{ "ttir.clamp_tensor", golden_clamp }, { "ttir.concat", golden_concat },
	{ "ttir.constant", golden_constant }, { "ttir.conv2d", golden_conv },
	{ "ttir.conv_transpose2d", golden_conv }, U("cos"),
	{ "ttir.cumprod", golden_running }, { "ttir.cumsum", golden_running },
	B("div"), { "ttir.dot_general", golden_dot_general },
	{ "ttir.embedding", golden_embedding }, { "ttir.empty", golden_fill },
	B("eq"), U("erf"), U("erfc"), U("exp"), U("exp2"), U("expm1"),
	U("floor"), U("frac"), { "ttir.full", golden_fill },
	{ "ttir.gather", golden_gather }, B("ge"), U("gelu"),
	{ "ttir.gelu_bw", golden_gelu_bw }, B("gt"), U("hardsigmoid"),
	U("isfinite"), { "ttir.layer_norm", golden_norm }, B("le"),
	{ "ttir.leaky_relu", golden_leaky_relu },
	{ "ttir.linear", golden_matmul }, U("log"), U("log1p"),
	B("logical_and"), B("logical_left_shift"), U("logical_not"),
	B("logical_or"), B("logical_right_shift"), B("logical_xor"), B("lt"),
	{ "ttir.matmul", golden_matmul }, { "ttir.max", golden_reduce },
	{ "ttir.max_pool2d", golden_pool }, B("maximum"),
	{ "ttir.mean", golden_reduce }, { "ttir.min", golden_reduce },
	B("minimum"), U("mish"), B("multiply"), B("ne"), U("neg"),
	{ "ttir.ones", golden_fill }, { "ttir.pad", golden_pad },
	{ "ttir.permute", golden_permute }, B("pow"),
	{ "ttir.prod", golden_reduce }, U("reciprocal"),
	{ "ttir.reduce_and", golden_reduce },
	{ "ttir.reduce_or", golden_reduce }, U("relu"), U("relu6"),
	B("remainder"), { "ttir.repeat", golden_repeat },
	{ "ttir.repeat_interleave", golden_repeat_interleave },
	{ "ttir.reshape", golden_reshape }, { "ttir.reverse", golden_reverse },
	B("right_shift"), { "ttir.rms_norm", golden_norm }, U("rsqrt"),
	{ "ttir.selu", golden_selu }, U("sigmoid"), U("sign"), U("signbit"),
	U("silu"), U("sin"), { "ttir.slice_static", golden_slice },
	{ "ttir.softmax", golden_softmax }, U("softsign"), U("sqrt"),
	U("square"), { "ttir.squeeze", golden_reshape }, B("subtract"),
	{ "ttir.sum", golden_reduce }, U("tan"), U("tanh"),
	{ "ttir.transpose", golden_transpose }, U("trunc"), U("typecast"),
	{ "ttir.unsqueeze", golden_reshape }, { "ttir.where", golden_where },
	{ "ttir.zeros", golden_fill },
};

#define N (sizeof(table) / sizeof(table[0]))

static int cmp(const void *key, const void *e)
{
	return strcmp(key, ((const struct golden_entry *)e)->name);
}

ttc_golden_fn ttc_golden_lookup(const char *name)
{
	const struct golden_entry *e;

	if (!name)
		return NULL;
	e = bsearch(name, table, N, sizeof(table[0]), cmp);
	return e ? e->fn : NULL;
}

size_t ttc_golden_count(void)
{
	return N;
}

const char *ttc_golden_name(size_t i)
{
	return i < N ? table[i].name : NULL;
}
