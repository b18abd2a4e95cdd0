// SPDX-License-Identifier: Apache-2.0
/*
 * The passes that must keep the goldens' results: every rewrite of
 * decompose (goldens before and after on seeded inputs, bit for bit), and
 * consteval (constants and parameters folded, inputs never; the limit,
 * the switch, values of the wrong type).
 */
#include <dirent.h>
#include <math.h>

#include "ttc_passes_util.h"

#define Z4 "tensor<1x2x4x8xf32>"

static void dec(const char *text, const char *gone)
{
	struct ttc_pass_stats st;

	check_equiv(text, "decompose", gone, true, NULL, &st);
	assert_true(st.decomposed >= 1);
}

/* matmul's golden multiplies in fp32 panels, dot_general's in double:
 * they agree to PCC, not to the bit. */
static void dec_pcc(const char *text, const char *gone)
{
	struct ttc_pass_stats st;

	check_equiv(text, "decompose", gone, false, NULL, &st);
	assert_true(st.decomposed >= 1);
}

/* Decompose must leave text's op alone. */
static void dec_none(const char *text, const char *stays)
{
	struct ttc_pass_stats st;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_ok(ctx, text);

	assert_int_equal(run_pass(m, "decompose", NULL, &st), 0);
	assert_int_equal(st.decomposed, 0);
	assert_int_equal(count_ops(m, stays), 1);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

#define ONE(args, op, in, ret) \
	MOD(args, ret, "%0 = " op " : " in " -> " ret "\nreturn %0 : " ret "\n")

static void test_decompose_zmoves(void **state)
{
	(void)state;
	dec(ONE("%x: " Z4, "\"pybuda.hslice\"(%x) <{slices = 4 : i32}>",
		"(" Z4 ")", "tensor<1x8x4x2xf32>"),
	    "pybuda.hslice");
	dec(ONE("%x: tensor<6x4x6xf32>",
		"\"pybuda.hslice\"(%x) <{slices = 3 : i32}>",
		"(tensor<6x4x6xf32>)", "tensor<18x4x2xf32>"),
	    "pybuda.hslice");
	dec(ONE("%x: tensor<1x6x4x3xf32>",
		"\"pybuda.hstack\"(%x) <{slices = 3 : i32}>",
		"(tensor<1x6x4x3xf32>)", "tensor<1x2x4x9xf32>"),
	    "pybuda.hstack");
	/* slices -1: all of Z. */
	dec(ONE("%x: tensor<2x3x4x5xf32>", "\"pybuda.hstack\"(%x)",
		"(tensor<2x3x4x5xf32>)", "tensor<2x1x4x15xf32>"),
	    "pybuda.hstack");
	dec(ONE("%x: " Z4, "\"pybuda.vslice\"(%x) <{slices = 2 : i32}>",
		"(" Z4 ")", "tensor<1x4x2x8xf32>"),
	    "pybuda.vslice");
	dec(ONE("%x: " Z4, "\"pybuda.vstack\"(%x) <{slices = 2 : i32}>",
		"(" Z4 ")", "tensor<1x1x8x8xf32>"),
	    "pybuda.vstack");
	/* hslice then hstack: the input again. */
	dec(MOD("%x: " Z4, Z4,
		"%0 = \"pybuda.hslice\"(%x) <{slices = 2 : i32}> : (" Z4
		") -> tensor<1x4x4x4xf32>\n"
		"%1 = \"pybuda.hstack\"(%0) <{slices = 2 : i32}> : "
		"(tensor<1x4x4x4xf32>) -> " Z4 "\nreturn %1 : " Z4 "\n"),
	    "pybuda.hstack");
	/* Rank 8: the split would need rank 9; left alone. */
	dec_none(ONE("%x: tensor<1x1x1x1x1x2x4x8xf32>",
		     "\"pybuda.hslice\"(%x) <{slices = 2 : i32}>",
		     "(tensor<1x1x1x1x1x2x4x8xf32>)",
		     "tensor<1x1x1x1x1x4x4x4xf32>"),
		 "pybuda.hslice");
}

static void test_decompose_shapes(void **state)
{
	(void)state;
	dec(ONE("%x: tensor<2x1x3xf32>", "\"ttir.squeeze\"(%x) <{dim = 1 : "
					 "si32}>",
		"(tensor<2x1x3xf32>)", "tensor<2x3xf32>"),
	    "ttir.squeeze");
	dec(ONE("%x: tensor<2x3xf32>", "\"ttir.unsqueeze\"(%x) <{dim = -1 : "
				       "si32}>",
		"(tensor<2x3xf32>)", "tensor<2x3x1xf32>"),
	    "ttir.unsqueeze");
}

static void test_decompose_eltwise(void **state)
{
	(void)state;
	/* Zeros in x (make_args) take heaviside's middle branch; y
	 * broadcasts. */
	dec(ONE("%x: tensor<4x8xf32>, %y: tensor<8xf32>",
		"\"pybuda.heaviside\"(%x, %y)",
		"(tensor<4x8xf32>, tensor<8xf32>)", "tensor<4x8xf32>"),
	    "pybuda.heaviside");
	dec(ONE("%x: tensor<4x8xbf16>, %y: tensor<4x8xbf16>",
		"\"pybuda.heaviside\"(%x, %y)",
		"(tensor<4x8xbf16>, tensor<4x8xbf16>)", "tensor<4x8xbf16>"),
	    "pybuda.heaviside");
	/* Mixed element types: left alone. */
	dec_none(ONE("%x: tensor<4x8xf32>, %y: tensor<4x8xbf16>",
		     "\"pybuda.heaviside\"(%x, %y)",
		     "(tensor<4x8xf32>, tensor<4x8xbf16>)", "tensor<4x8xf32>"),
		 "pybuda.heaviside");
	dec(ONE("%x: tensor<4x8xf32>, %lo: tensor<8xf32>, %hi: tensor<4x8xf32>",
		"\"ttir.clamp_tensor\"(%x, %lo, %hi)",
		"(tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>)",
		"tensor<4x8xf32>"),
	    "ttir.clamp_tensor");
	dec(ONE("%x: tensor<4x8xf32>",
		"\"pybuda.gelu\"(%x) <{approximate = \"none\"}>",
		"(tensor<4x8xf32>)", "tensor<4x8xf32>"),
	    "pybuda.gelu");
	dec(ONE("%x: tensor<4x8xf32>", "\"pybuda.gelu\"(%x)",
		"(tensor<4x8xf32>)", "tensor<4x8xf32>"),
	    "pybuda.gelu");
	/* The tanh form is an op of its own on the device. */
	dec_none(ONE("%x: tensor<4x8xf32>",
		     "\"pybuda.gelu\"(%x) <{approximate = \"tanh\"}>",
		     "(tensor<4x8xf32>)", "tensor<4x8xf32>"),
		 "pybuda.gelu");
}

static void test_decompose_pybuda(void **state)
{
	(void)state;
	dec(ONE("%x: tensor<4x8xf32>", "\"pybuda.relu\"(%x)",
		"(tensor<4x8xf32>)", "tensor<4x8xf32>"),
	    "pybuda.relu");
	dec(ONE("%x: tensor<4x8xf32>",
		"\"pybuda.relu\"(%x) <{threshold = 0.5 : f32, mode = \"max\"}>",
		"(tensor<4x8xf32>)", "tensor<4x8xf32>"),
	    "pybuda.relu");
	/* A threshold with mode "min", or a negative cap: left alone. */
	dec_none(ONE("%x: tensor<4x8xf32>",
		     "\"pybuda.relu\"(%x) <{threshold = 0.5 : f32}>",
		     "(tensor<4x8xf32>)", "tensor<4x8xf32>"),
		 "pybuda.relu");
	dec_none(ONE("%x: tensor<4x8xf32>",
		     "\"pybuda.relu\"(%x) <{threshold = -0.5 : f32, mode = "
		     "\"max\"}>",
		     "(tensor<4x8xf32>)", "tensor<4x8xf32>"),
		 "pybuda.relu");
	dec(ONE("%x: tensor<4x8xf32>", "\"pybuda.identity\"(%x)",
		"(tensor<4x8xf32>)", "tensor<4x8xf32>"),
	    "pybuda.identity");
	dec(ONE("%x: tensor<4x8xf32>",
		"\"pybuda.identity\"(%x) <{unsqueeze = \"unsqueeze\", "
		"unsqueeze_dim = 1 : i32}>",
		"(tensor<4x8xf32>)", "tensor<4x1x8xf32>"),
	    "pybuda.identity");
	dec(ONE("%x: tensor<4x8xf32>, %y: tensor<4x3xf32>",
		"\"pybuda.concatenate\"(%x, %y) <{axis = -1 : i32}>",
		"(tensor<4x8xf32>, tensor<4x3xf32>)", "tensor<4x11xf32>"),
	    "pybuda.concatenate");
	dec(ONE("%x: tensor<4x9xf32>",
		"\"pybuda.index\"(%x) <{dim = 1 : i32, start = 1 : i32, stop = "
		"8 : i32, stride = 3 : i32}>",
		"(tensor<4x9xf32>)", "tensor<4x3xf32>"),
	    "pybuda.index");
	dec(ONE("%x: tensor<4x9xf32>",
		"\"pybuda.index\"(%x) <{dim = -2 : i32, start = -2 : i32}>",
		"(tensor<4x9xf32>)", "tensor<1x9xf32>"),
	    "pybuda.index");
	dec(ONE("%x: tensor<2x3x8xf32>, %w: tensor<1x8xf32>, %b: tensor<8xf32>",
		"\"pybuda.layernorm\"(%x, %w, %b) <{epsilon = 0.001 : f32}>",
		"(tensor<2x3x8xf32>, tensor<1x8xf32>, tensor<8xf32>)",
		"tensor<2x3x8xf32>"),
	    "pybuda.layernorm");
	dec(ONE("%x: tensor<2x3x4xf32>, %y: tensor<2x3x4xf32>",
		"\"pybuda.binary_stack\"(%x, %y) <{dim = 1 : i32}>",
		"(tensor<2x3x4xf32>, tensor<2x3x4xf32>)", "tensor<2x6x4xf32>"),
	    "pybuda.binary_stack");
	dec(ONE("%x: tensor<2x3x4xf32>, %y: tensor<2x3x4xf32>",
		"\"pybuda.binary_stack\"(%x, %y) <{dim = -1 : i32}>",
		"(tensor<2x3x4xf32>, tensor<2x3x4xf32>)", "tensor<2x3x8xf32>"),
	    "pybuda.binary_stack");
	/* frac of values scaled past 1 (negative ones too). */
	dec(MOD("%x: tensor<4x9xf32>", "tensor<4x9xf32>",
		"%s = \"ttir.full\"() <{shape = array<i32: 4, 9>, fill_value = "
		"7.3 : f32}> : () -> tensor<4x9xf32>\n"
		"%0 = \"ttir.multiply\"(%x, %s) : (tensor<4x9xf32>, "
		"tensor<4x9xf32>) -> tensor<4x9xf32>\n"
		"%1 = \"ttir.frac\"(%0) : (tensor<4x9xf32>) -> tensor<4x9xf32>\n"
		"return %1 : tensor<4x9xf32>\n"),
	    "ttir.frac");
}

static void test_decompose_windows(void **state)
{
	(void)state;
	/* NCHW, "same" padding (odd pixel high), stride 2, bias. */
	dec(ONE("%x: tensor<1x3x7x6xf32>, %w: tensor<4x3x3x3xf32>, "
		    "%b: tensor<4xf32>",
		    "\"pybuda.conv2d\"(%x, %w, %b) <{stride = 2 : i32}>",
		    "(tensor<1x3x7x6xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>)",
		    "tensor<1x4x4x3xf32>"),
		"pybuda.conv2d");
	/* channel_last, explicit padding [left, right, top, bottom],
	 * dilation, groups. */
	dec(ONE("%x: tensor<2x6x5x4xf32>, %w: tensor<4x2x2x3xf32>",
		    "\"pybuda.conv2d\"(%x, %w) <{channel_last = true, padding = "
		    "[1 : i32, 0 : i32, 2 : i32, 1 : i32], dilation = 2 : i32, "
		    "groups = 2 : i32}>",
		    "(tensor<2x6x5x4xf32>, tensor<4x2x2x3xf32>)",
		    "tensor<2x7x2x4xf32>"),
		"pybuda.conv2d");
	dec(ONE("%x: tensor<1x4x5x5xf32>, %w: tensor<4x3x3x3xf32>",
		    "\"pybuda.conv2d_transpose\"(%x, %w) <{stride = 2 : i32, "
		    "padding = 1 : i32}>",
		    "(tensor<1x4x5x5xf32>, tensor<4x3x3x3xf32>)",
		    "tensor<1x3x9x9xf32>"),
		"pybuda.conv2d_transpose");
	dec(ONE("%x: tensor<1x3x7x6xf32>",
		"\"pybuda.max_pool2d\"(%x) <{kernel_size = 3 : i32, stride = 2 "
		": i32, padding = 1 : i32, ceil_mode = true}>",
		"(tensor<1x3x7x6xf32>)", "tensor<1x3x4x4xf32>"),
	    "pybuda.max_pool2d");
	dec(ONE("%x: tensor<1x7x6x3xf32>",
		"\"pybuda.max_pool2d\"(%x) <{kernel_size = [2 : i32, 3 : i32], "
		"dilation = 2 : i32, padding = 0 : i32, channel_last = true}>",
		"(tensor<1x7x6x3xf32>)", "tensor<1x5x2x3xf32>"),
	    "pybuda.max_pool2d");
	dec(ONE("%x: tensor<2x3x6x6xf32>",
		"\"pybuda.avg_pool2d\"(%x) <{kernel_size = 3 : i32, stride = 2 "
		": i32, padding = 1 : i32, count_include_pad = false}>",
		"(tensor<2x3x6x6xf32>)", "tensor<2x3x3x3xf32>"),
	    "pybuda.avg_pool2d");
	dec(ONE("%x: tensor<2x3x6x6xf32>",
		"\"pybuda.avg_pool2d\"(%x) <{kernel_size = 2 : i32, stride = 2 "
		": i32, padding = 1 : i32}>",
		"(tensor<2x3x6x6xf32>)", "tensor<2x3x4x4xf32>"),
	    "pybuda.avg_pool2d");
	/* divisor_override has no TTIR form: left alone. */
	dec_none(ONE("%x: tensor<2x3x6x6xf32>",
		     "\"pybuda.avg_pool2d\"(%x) <{kernel_size = 2 : i32, "
		     "stride = 2 : i32, divisor_override = 3 : i32}>",
		     "(tensor<2x3x6x6xf32>)", "tensor<2x3x3x3xf32>"),
		 "pybuda.avg_pool2d");
}

/* Two NCHW convolutions in a row: canonicalize cancels the permutes
 * between them, so the graph runs NHWC from end to end. */
static void test_decompose_then_canonicalize(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_ok(
		ctx, MOD("%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, "
			 "%v: tensor<2x4x3x3xf32>",
			 "tensor<1x2x8x8xf32>",
			 "%0 = \"pybuda.conv2d\"(%x, %w) : (tensor<1x3x8x8xf32>, "
			 "tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>\n"
			 "%1 = \"pybuda.conv2d\"(%0, %v) : (tensor<1x4x8x8xf32>, "
			 "tensor<2x4x3x3xf32>) -> tensor<1x2x8x8xf32>\n"
			 "return %1 : tensor<1x2x8x8xf32>\n"));
	ttc_func *f = ttc_module_lookup(m, "f");
	ttc_tensor *args[3], *before, *after;
	const char *names[] = { "decompose", "canonicalize" };
	struct ttc_pass_options o = ttc_pass_options_default();

	make_args(ctx, f, args);
	run_golden(ctx, f, args, &before);
	o.verify_each = true;
	assert_int_equal(ttc_run_passes(m, names, 2, &o, NULL), 0);
	assert_int_equal(count_ops(m, "ttir.conv2d"), 2);
	assert_int_equal(count_ops(m, "ttir.permute"), 2);
	assert_ptr_equal(ttc_value_def(ttc_op_operand(
				 find_op(m, "ttir.conv2d"), 0)),
			 find_op(m, "ttir.permute"));
	run_golden(ctx, f, args, &after);
	assert_memory_equal(before->data, after->data, before->numel * 4);
	ttc_tensor_free(before);
	ttc_tensor_free(after);
	for (int i = 0; i < 3; i++)
		ttc_tensor_free(args[i]);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

#define DG(bl, cl, br, cr) \
	"<{batch_dims_lhs = array<i64" bl ">, contract_dims_lhs = array<i64" \
	cl ">, batch_dims_rhs = array<i64" br ">, contract_dims_rhs = " \
	"array<i64" cr ">}>"

static void test_decompose_reductions(void **state)
{
	(void)state;
	dec(ONE("%x: tensor<2x4x8xf32>",
		"\"pybuda.reduce_sum\"(%x) <{dim = 1 : i32}>",
		"(tensor<2x4x8xf32>)", "tensor<2x1x8xf32>"),
	    "pybuda.reduce_sum");
	dec(ONE("%x: tensor<2x4x8xf32>",
		"\"pybuda.reduce_avg\"(%x) <{dim = -1 : i32}>",
		"(tensor<2x4x8xf32>)", "tensor<2x4x1xf32>"),
	    "pybuda.reduce_avg");
	dec(ONE("%x: tensor<2x4x8xf32>",
		"\"pybuda.softmax\"(%x) <{dim = -1 : i32}>",
		"(tensor<2x4x8xf32>)", "tensor<2x4x8xf32>"),
	    "pybuda.softmax");
	dec(ONE("%x: tensor<2x4x8xf32>",
		"\"pybuda.softmax\"(%x) <{dim = 1 : i32, stable = false}>",
		"(tensor<2x4x8xf32>)", "tensor<2x4x8xf32>"),
	    "pybuda.softmax");
}

/* Forms the device op library refuses: linear with a bias that is not a
 * row, softmax not over the last dimension, reductions dropping
 * dimensions across tiles, argmax to integers or not along the last
 * dimension. */
static void test_decompose_device_forms(void **state)
{
	(void)state;
	dec(ONE("%a: tensor<3x5xf32>, %b: tensor<5x4xf32>, %c: "
		"tensor<3x4xf32>",
		"\"ttir.linear\"(%a, %b, %c)",
		"(tensor<3x5xf32>, tensor<5x4xf32>, tensor<3x4xf32>)",
		"tensor<3x4xf32>"),
	    "ttir.linear");
	dec(ONE("%a: tensor<3x5xf32>, %b: tensor<4x5xf32>, %c: tensor<1xf32>",
		"\"ttir.linear\"(%a, %b, %c) <{transpose_b = true}>",
		"(tensor<3x5xf32>, tensor<4x5xf32>, tensor<1xf32>)",
		"tensor<3x4xf32>"),
	    "ttir.linear");
	dec_none(ONE("%a: tensor<3x5xf32>, %b: tensor<5x4xf32>, %c: "
		     "tensor<1x4xf32>",
		     "\"ttir.linear\"(%a, %b, %c)",
		     "(tensor<3x5xf32>, tensor<5x4xf32>, tensor<1x4xf32>)",
		     "tensor<3x4xf32>"),
		 "ttir.linear");
	dec(ONE("%x: tensor<2x4x8xf32>",
		"\"ttir.softmax\"(%x) <{dimension = 1 : si32}>",
		"(tensor<2x4x8xf32>)", "tensor<2x4x8xf32>"),
	    NULL);
	dec(ONE("%x: tensor<2x4x8xf32>",
		"\"ttir.softmax\"(%x) <{dimension = -3 : si32}>",
		"(tensor<2x4x8xf32>)", "tensor<2x4x8xf32>"),
	    NULL);
	dec_none(ONE("%x: tensor<2x4x8xf32>",
		     "\"ttir.softmax\"(%x) <{dimension = -1 : si32}>",
		     "(tensor<2x4x8xf32>)", "tensor<2x4x8xf32>"),
		 "ttir.softmax");
	dec(ONE("%x: tensor<2x4x8xf32>",
		"\"ttir.sum\"(%x) <{dim_arg = [1 : i32], keep_dim = false}>",
		"(tensor<2x4x8xf32>)", "tensor<2x8xf32>"),
	    NULL);
	dec(ONE("%x: tensor<2x4x8xf32>",
		"\"ttir.max\"(%x) <{dim_arg = [-1 : i32], keep_dim = false}>",
		"(tensor<2x4x8xf32>)", "tensor<2x4xf32>"),
	    NULL);
	dec(ONE("%x: tensor<3x2xf32>",
		"\"ttir.mean\"(%x) <{dim_arg = [1 : i32], keep_dim = false}>",
		"(tensor<3x2xf32>)", "tensor<3xf32>"),
	    NULL);
	/* The reduced dimensions outermost: nothing moves. */
	dec_none(ONE("%x: tensor<2x4x8xf32>",
		     "\"ttir.min\"(%x) <{dim_arg = [0 : i32], keep_dim = false}>",
		     "(tensor<2x4x8xf32>)", "tensor<4x8xf32>"),
		 "ttir.min");
	dec(ONE("%x: tensor<2x4x8xf32>",
		"\"ttir.argmax\"(%x) <{dim_arg = [1 : i32], keep_dim = true}>",
		"(tensor<2x4x8xf32>)", "tensor<2x1x8xi64>"),
	    NULL);
	dec(ONE("%x: tensor<2x4x8xf32>",
		"\"ttir.argmax\"(%x) <{dim_arg = [0 : i32], keep_dim = false}>",
		"(tensor<2x4x8xf32>)", "tensor<4x8xi32>"),
	    NULL);
	dec(ONE("%x: tensor<2x4x8xf32>",
		"\"ttir.argmax\"(%x) <{dim_arg = [2 : i32], keep_dim = false}>",
		"(tensor<2x4x8xf32>)", "tensor<2x4xi64>"),
	    NULL);
	dec_none(ONE("%x: tensor<2x4x8xf32>",
		     "\"ttir.argmax\"(%x) <{dim_arg = [2 : i32], keep_dim = "
		     "true}>",
		     "(tensor<2x4x8xf32>)", "tensor<2x4x1xf32>"),
		 "ttir.argmax");
}

/* asinh with the device's functions: not bit for bit, to PCC. */
static void test_decompose_asinh(void **state)
{
	(void)state;
	dec_pcc(ONE("%x: tensor<4x8xf32>", "\"ttir.asinh\"(%x)",
		    "(tensor<4x8xf32>)", "tensor<4x8xf32>"),
		"ttir.asinh");
	/* Tiny, large and infinite values: within 4 ulps of asinh. */
	static const float v[8] = { 0.0f, 1e-30f, -1e-10f, 0.5f,
				    -3.0f, 1e20f, -3e37f, INFINITY };
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_ok(ctx, ONE("%x: tensor<8xf32>",
					  "\"ttir.asinh\"(%x)",
					  "(tensor<8xf32>)", "tensor<8xf32>"));
	ttc_func *f = ttc_module_lookup(m, "f");
	ttc_tensor *x = ttc_tensor_new(ctx, ttc_value_type(ttc_func_arg(f, 0)));
	ttc_tensor *y = NULL;

	for (size_t k = 0; k < 8; k++)
		ttc_tensor_set(x, k, v[k]);
	assert_int_equal(run_pass(m, "decompose", NULL, NULL), 0);
	assert_int_equal(count_ops(m, "ttir.asinh"), 0);
	run_golden(ctx, f, &x, &y);
	for (size_t k = 0; k < 8; k++) {
		double want = asinh((double)v[k]), got = ttc_tensor_get(y, k);

		if (isinf(want) ? got != want :
				  fabs(got - want) > 4 * 1.2e-7 * fabs(want))
			fail_msg("asinh(%g): %.9g, want %.9g", (double)v[k],
				 got, want);
	}
	ttc_tensor_free(x);
	ttc_tensor_free(y);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
	dec_none(ONE("%x: tensor<4x8xi32>", "\"ttir.asinh\"(%x)",
		     "(tensor<4x8xi32>)", "tensor<4x8xi32>"),
		 "ttir.asinh");
}

#define REV(dims, in)                                                          \
	ONE("%x: " in, "\"ttir.reverse\"(%x) <{dimensions = array<i64: " dims \
	    ">}>",                                                             \
	    "(" in ")", in)

/* reverse as slices of one element, last first, concatenated. */
static void test_decompose_reverse(void **state)
{
	(void)state;
	dec(REV("1", "tensor<2x3x4xf32>"), "ttir.reverse");
	dec(REV("0, 2", "tensor<2x3x4xf32>"), "ttir.reverse");
	dec(REV("-1", "tensor<2x3x16xi32>"), "ttir.reverse");
	dec(REV("1", "tensor<2x1x4xf32>"), "ttir.reverse");
	dec(ONE("%x: tensor<5xf32>",
		"\"ttir.reverse\"(%x) <{dimensions = array<i64>}>",
		"(tensor<5xf32>)", "tensor<5xf32>"),
	    "ttir.reverse");
	/* A slice per element of 17: left alone. */
	dec_none(REV("0", "tensor<17x2xf32>"), "ttir.reverse");
}

/* prod as products of one-element slices: not bit for bit (each
 * product rounds), to PCC. */
static void test_decompose_prod(void **state)
{
	(void)state;
	dec_pcc(ONE("%x: tensor<3x2x5xf32>",
		    "\"ttir.prod\"(%x) <{dim_arg = [1 : i32], keep_dim = true}>",
		    "(tensor<3x2x5xf32>)", "tensor<3x1x5xf32>"),
		"ttir.prod");
	dec_pcc(ONE("%x: tensor<3x2x5xf32>",
		    "\"ttir.prod\"(%x) <{dim_arg = [-1 : i32, 0 : i32], "
		    "keep_dim = false}>",
		    "(tensor<3x2x5xf32>)", "tensor<2xf32>"),
		"ttir.prod");
	dec_pcc(ONE("%x: tensor<3x2x1xf32>",
		    "\"ttir.prod\"(%x) <{keep_dim = false}>",
		    "(tensor<3x2x1xf32>)", "tensor<f32>"),
		"ttir.prod");
	dec_none(ONE("%x: tensor<3x2xi32>",
		     "\"ttir.prod\"(%x) <{dim_arg = [1 : i32], keep_dim = "
		     "true}>",
		     "(tensor<3x2xi32>)", "tensor<3x1xi32>"),
		 "ttir.prod");
	dec_none(ONE("%x: tensor<3x17xf32>",
		     "\"ttir.prod\"(%x) <{dim_arg = [1 : i32], keep_dim = "
		     "true}>",
		     "(tensor<3x17xf32>)", "tensor<3x1xf32>"),
		 "ttir.prod");
}

#define GATHER(in, idx, vals, dim, out)                                        \
	MOD("%x: " in, out,                                                    \
	    "%i = \"ttir.constant\"() <{value = dense<" vals "> : " idx       \
	    "}> : () -> " idx "\n"                                             \
	    "%0 = \"ttir.gather\"(%x, %i) <{dim = " dim " : si32}> : (" in     \
	    ", " idx ") -> " out "\n"                                          \
	    "return %0 : " out "\n")

/* gather as an embedding of one-element rows at computed offsets. */
static void test_decompose_gather(void **state)
{
	(void)state;
	dec(GATHER("tensor<3x4xf32>", "tensor<2x4xi64>",
		   "[[2, 0, 1, 1], [0, 2, 2, 0]]", "0", "tensor<2x4xf32>"),
	    "ttir.gather");
	dec(GATHER("tensor<3x4xf32>", "tensor<2x3xi32>",
		   "[[3, 0, 1], [1, 1, 2]]", "-1", "tensor<2x3xf32>"),
	    "ttir.gather");
	dec(GATHER("tensor<2x3x4xf32>", "tensor<2x2x3xi64>",
		   "[[[2, 0, 1], [1, 1, 0]], [[0, 2, 2], [2, 1, 0]]]", "1",
		   "tensor<2x2x3xf32>"),
	    "ttir.gather");
}

/* repeat_interleave as a rank-4 repeat between reshapes. */
static void test_decompose_repeat_interleave(void **state)
{
	(void)state;
	dec(ONE("%x: tensor<1x2x3x4xf32>",
		"\"ttir.repeat_interleave\"(%x) <{repeats = 2 : ui32, dim = "
		"2 : si32}>",
		"(tensor<1x2x3x4xf32>)", "tensor<1x2x6x4xf32>"),
	    "ttir.repeat_interleave");
	dec(ONE("%x: tensor<3x4xf32>",
		"\"ttir.repeat_interleave\"(%x) <{repeats = 3 : ui32, dim = "
		"-1 : si32}>",
		"(tensor<3x4xf32>)", "tensor<3x12xf32>"),
	    "ttir.repeat_interleave");
	dec(ONE("%x: tensor<3x4xi32>",
		"\"ttir.repeat_interleave\"(%x) <{repeats = 2 : ui32, dim = "
		"0 : si32}>",
		"(tensor<3x4xi32>)", "tensor<6x4xi32>"),
	    "ttir.repeat_interleave");
}

#define POOL(op, attrs, in, out)                                               \
	ONE("%x: " in, "\"ttir." op "\"(%x) <{" attrs "}>", "(" in ")", out)

/* Pools padded by more than half the kernel: ttir.pad, then the pool. */
static void test_decompose_pool_padding(void **state)
{
	(void)state;
	dec(POOL("max_pool2d",
		 "kernel = array<i32: 3, 3>, stride = array<i32: 1, 1>, "
		 "dilation = array<i32: 1, 1>, padding = array<i32: 2, 2, 2, 2>, "
		 "ceil_mode = false",
		 "tensor<1x5x5x2xf32>", "tensor<1x7x7x2xf32>"),
	    NULL);
	dec(POOL("avg_pool2d",
		 "kernel = array<i32: 3, 3>, stride = array<i32: 2, 1>, "
		 "dilation = array<i32: 1, 1>, padding = array<i32: 2, 0, 1, 2>, "
		 "ceil_mode = false, count_include_pad = true",
		 "tensor<2x5x6x3xf32>", "tensor<2x3x6x3xf32>"),
	    NULL);
	/* Integers: in f32 between typecasts (padded too). */
	dec(POOL("max_pool2d",
		 "kernel = array<i32: 3, 3>, stride = array<i32: 1, 1>, "
		 "dilation = array<i32: 1, 1>, padding = array<i32: 2, 2, 2, 2>, "
		 "ceil_mode = false",
		 "tensor<1x5x5x2xui8>", "tensor<1x7x7x2xui8>"),
	    NULL);
	dec(POOL("max_pool2d",
		 "kernel = array<i32: 2, 2>, stride = array<i32: 2, 2>, "
		 "dilation = array<i32: 1, 1>, padding = array<i32: 0, 0, 1, 1>, "
		 "ceil_mode = true",
		 "tensor<1x5x5x2xi32>", "tensor<1x3x3x2xi32>"),
	    NULL);
	/* The divisor would change; the device's limit is kept. */
	dec_none(POOL("avg_pool2d",
		      "kernel = array<i32: 3, 3>, stride = array<i32: 1, 1>, "
		      "dilation = array<i32: 1, 1>, padding = array<i32: 2, 2, "
		      "2, 2>, ceil_mode = false, count_include_pad = false",
		      "tensor<1x5x5x2xf32>", "tensor<1x7x7x2xf32>"),
		 "ttir.avg_pool2d");
	dec_none(POOL("max_pool2d",
		      "kernel = array<i32: 3, 3>, stride = array<i32: 1, 1>, "
		      "dilation = array<i32: 1, 1>, padding = array<i32: 1, 1, "
		      "1, 1>, ceil_mode = false",
		      "tensor<1x5x5x2xf32>", "tensor<1x5x5x2xf32>"),
		 "ttir.max_pool2d");
}

static void test_decompose_dot_general(void **state)
{
	(void)state;
	/* Plain: [M, K] x [K, N]. */
	dec_pcc(ONE("%a: tensor<4x6xf32>, %b: tensor<6x5xf32>",
		"\"ttir.dot_general\"(%a, %b) " DG("", ": 1", "", ": 0"),
		"(tensor<4x6xf32>, tensor<6x5xf32>)", "tensor<4x5xf32>"),
	    "ttir.dot_general");
	/* Batched, rhs contracting on its last dimension (transpose_b). */
	dec_pcc(ONE("%a: tensor<3x4x6xf32>, %b: tensor<3x5x6xf32>",
		"\"ttir.dot_general\"(%a, %b) " DG(": 0", ": 2", ": 0", ": 2"),
		"(tensor<3x4x6xf32>, tensor<3x5x6xf32>)", "tensor<3x4x5xf32>"),
	    "ttir.dot_general");
	/* lhs contracting on its first free dimension (transpose_a). */
	dec_pcc(ONE("%a: tensor<6x4xf32>, %b: tensor<6x5xf32>",
		"\"ttir.dot_general\"(%a, %b) " DG("", ": 0", "", ": 0"),
		"(tensor<6x4xf32>, tensor<6x5xf32>)", "tensor<4x5xf32>"),
	    "ttir.dot_general");
	/* Batch dimensions not leading: left alone. */
	dec_none(ONE("%a: tensor<4x3x6xf32>, %b: tensor<3x6x5xf32>",
		     "\"ttir.dot_general\"(%a, %b) "
		     DG(": 1", ": 2", ": 0", ": 1"),
		     "(tensor<4x3x6xf32>, tensor<3x6x5xf32>)",
		     "tensor<3x4x5xf32>"),
		 "ttir.dot_general");
	/* Two free dimensions on the lhs: left alone. */
	dec_none(ONE("%a: tensor<2x4x6xf32>, %b: tensor<6x5xf32>",
		     "\"ttir.dot_general\"(%a, %b) " DG("", ": 2", "", ": 0"),
		     "(tensor<2x4x6xf32>, tensor<6x5xf32>)",
		     "tensor<2x4x5xf32>"),
		 "ttir.dot_general");
}

/* ---- consteval ---- */

#define T23 "tensor<2x3xf32>"

struct params {
	ttc_tensor *t[4];
	int calls;
};

static const ttc_tensor *param_value(void *arg, ttc_func *f, size_t i)
{
	struct params *p = arg;

	(void)f;
	p->calls++;
	return i < 4 ? p->t[i] : NULL;
}

/* %w parameter, %c constant, %x input (marked), %y input (unmarked). */
static const char *const ce_text = MOD(
	"%w: " T23 " {ttcore.argument_type = #ttcore.argument_type<parameter>}"
	", %c: " T23 " {ttcore.argument_type = #ttcore.argument_type<constant>}"
	", %x: " T23 " {ttcore.argument_type = #ttcore.argument_type<input>}"
	", %y: " T23,
	"(" T23 ", " T23 ", " T23 ", " T23 ")",
	"%k = \"ttir.full\"() <{shape = array<i32: 2, 3>, fill_value = 2.0 : "
	"f32}> : () -> " T23 "\n"
	"%0 = \"ttir.multiply\"(%w, %k) : (" T23 ", " T23 ") -> " T23 "\n"
	"%1 = \"ttir.exp\"(%0) : (" T23 ") -> " T23 "\n"
	"%2 = \"ttir.add\"(%1, %c) : (" T23 ", " T23 ") -> " T23 "\n"
	"%3 = \"ttir.add\"(%2, %x) : (" T23 ", " T23 ") -> " T23 "\n"
	"%4 = \"ttir.add\"(%y, %k) : (" T23 ", " T23 ") -> " T23 "\n"
	"return %3, %4, %w, %k : " T23 ", " T23 ", " T23 ", " T23 "\n");

static void test_consteval(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_ok(ctx, ce_text);
	ttc_func *f = ttc_module_lookup(m, "f");
	ttc_tensor *args[4], *before[4], *after[4];
	struct params p = { { NULL }, 0 };
	struct ttc_pass_options o = ttc_pass_options_default();
	struct ttc_pass_stats st;

	make_args(ctx, f, args);
	for (size_t i = 0; i < 4; i++)
		p.t[i] = args[i]; /* %x, %y too: never folded anyway */
	run_golden(ctx, f, args, before);
	o.param_value = param_value;
	o.param_arg = &p;
	assert_int_equal(run_pass(m, "consteval", &o, &st), 0);
	/* multiply, exp and the first add fold; the adds of inputs do not;
	 * the parameter itself and the full stay as they are. */
	assert_int_equal(st.folded, 3);
	assert_int_equal(count_ops(m, "ttir.multiply"), 0);
	assert_int_equal(count_ops(m, "ttir.exp"), 0);
	assert_int_equal(count_ops(m, "ttir.add"), 2);
	assert_int_equal(count_ops(m, "ttir.constant"), 3);
	assert_int_equal(count_ops(m, "ttir.full"), 1);
	assert_true(p.calls >= 2);
	/* The constants hold the values, in hex. */
	char *s = ttc_print(m, 0, NULL);

	assert_non_null(strstr(s, "dense<\"0x"));
	free(s);
	run_golden(ctx, f, args, after);
	for (size_t i = 0; i < 4; i++) {
		assert_memory_equal(before[i]->data, after[i]->data,
				    before[i]->numel * 4);
		ttc_tensor_free(before[i]);
		ttc_tensor_free(after[i]);
	}
	/* It reads back: the hex constants parse to the same module. */
	s = ttc_print(m, 0, NULL);
	ttc_module *back = parse_ok(ctx, s);
	char *s2 = ttc_print(back, 0, NULL);

	assert_string_equal(s, s2);
	free(s);
	free(s2);
	ttc_module_free(back);
	ttc_module_free(m);

	/* No values known: only what constants alone make (nothing here). */
	m = parse_ok(ctx, ce_text);
	o.param_value = NULL;
	assert_int_equal(run_pass(m, "consteval", &o, &st), 0);
	assert_int_equal(st.folded, 0);
	ttc_module_free(m);

	/* Switched off. */
	m = parse_ok(ctx, ce_text);
	o.param_value = param_value;
	o.enable_consteval = false;
	assert_int_equal(run_pass(m, "consteval", &o, &st), 0);
	assert_int_equal(st.folded, 0);
	ttc_module_free(m);

	/* The limit: 2x3 f32 is 24 bytes. */
	m = parse_ok(ctx, ce_text);
	o.enable_consteval = true;
	o.consteval_limit = 23;
	assert_int_equal(run_pass(m, "consteval", &o, &st), 0);
	assert_int_equal(st.folded, 0);
	ttc_module_free(m);
	m = parse_ok(ctx, ce_text);
	o.consteval_limit = 24;
	assert_int_equal(run_pass(m, "consteval", &o, &st), 0);
	assert_int_equal(st.folded, 3);
	ttc_module_free(m);

	/* A value of the wrong type: an error naming the argument. */
	ttc_tensor *wrong = ttc_tensor_random(
		ctx, ttc_tensor_type(ctx, (int64_t[]){ 3, 2 }, 2,
				     ttc_float_type(ctx, TTC_F32), NULL),
		1);

	p.t[0] = wrong;
	m = parse_ok(ctx, ce_text);
	assert_int_equal(run_pass(m, "consteval", &o, &st), -EINVAL);
	assert_string_equal(first_error(ctx),
			    "error: pass 'consteval': @f argument #0: the value given "
			    "is tensor<3x2xf32>, the argument tensor<2x3xf32>");
	ttc_module_free(m);
	ttc_tensor_free(wrong);
	for (size_t i = 0; i < 4; i++)
		ttc_tensor_free(args[i]);
	ttc_ctx_free(ctx);
}

/* Constants alone: folded without any callback; goldens agree. */
static void test_consteval_constants(void **state)
{
	(void)state;
	struct ttc_pass_stats st;
	const char *text = MOD(
		"%x: tensor<4xf32>", "tensor<4xf32>",
		"%a = \"ttir.arange\"() <{start = 0 : si64, end = 4 : si64, "
		"step = 1 : si64, arange_dimension = 0 : i64}> : () -> "
		"tensor<4xf32>\n"
		"%o = \"ttir.ones\"() <{shape = array<i32: 4>}> : () -> "
		"tensor<4xf32>\n"
		"%c = \"ttir.constant\"() <{value = dense<[1.5, 2.5, 3.5, "
		"4.5]> : tensor<4xf32>}> : () -> tensor<4xf32>\n"
		"%0 = \"ttir.add\"(%a, %o) : (tensor<4xf32>, tensor<4xf32>) -> "
		"tensor<4xf32>\n"
		"%1 = \"ttir.multiply\"(%0, %c) : (tensor<4xf32>, "
		"tensor<4xf32>) -> tensor<4xf32>\n"
		"%2 = \"ttir.sqrt\"(%1) : (tensor<4xf32>) -> tensor<4xf32>\n"
		"%3 = \"ttir.add\"(%2, %x) : (tensor<4xf32>, tensor<4xf32>) -> "
		"tensor<4xf32>\n"
		"return %3 : tensor<4xf32>\n");

	check_equiv(text, "consteval", "ttir.sqrt", true, NULL, &st);
	assert_int_equal(st.folded, 3);
}

/* ---- the tree's models ---- */

#define MAXF 16

static int goldens_compared; /* functions whose goldens ran */

/* Every function with a body of m and its nested modules. */
static size_t funcs(ttc_module *m, ttc_func **out, size_t n)
{
	for (size_t i = 0; i < ttc_module_num_items(m); i++) {
		ttc_func *f = ttc_module_item_func(m, i);
		ttc_module *sub = ttc_module_item_module(m, i);

		if (f && !ttc_func_is_declaration(f) && n < MAXF)
			out[n++] = f;
		if (sub)
			n = funcs(sub, out, n);
	}
	return n;
}

struct run {
	ttc_func *f;
	bool ok; /* the goldens ran */
	ttc_tensor *args[16], *res[8];
};

static void golden_before(ttc_ctx *ctx, struct run *r)
{
	size_t na = ttc_func_num_args(r->f), nr = ttc_func_num_results(r->f);

	r->ok = na <= 16 && nr <= 8;
	for (size_t i = 0; r->ok && i < na; i++)
		r->ok = ttc_type_is_tensor(ttc_value_type(ttc_func_arg(r->f, i)));
	if (!r->ok)
		return;
	make_args(ctx, r->f, r->args);
	r->ok = !ttc_golden_run(r->f, r->args, na, r->res, NULL);
	ttc_ctx_clear_diags(ctx);
}

static void golden_after(ttc_ctx *ctx, struct run *r, const char *path)
{
	size_t na = ttc_func_num_args(r->f), nr = ttc_func_num_results(r->f);
	ttc_tensor *after[8];

	if (r->ok) {
		goldens_compared++;
		run_golden(ctx, r->f, r->args, after);
		for (size_t i = 0; i < nr; i++) {
			struct ttc_compare_want w = ttc_compare_defaults();
			struct ttc_compare c;

			assert_int_equal(ttc_compare_tensors(r->res[i], after[i],
							     &w, &c),
					 0);
			if (!(c.pcc >= 0.9999))
				fail_msg("%s @%s result %zu: pcc %f", path,
					 ttc_func_name(r->f), i, c.pcc);
			ttc_tensor_free(after[i]);
			ttc_tensor_free(r->res[i]);
		}
		for (size_t i = 0; i < na; i++)
			ttc_tensor_free(r->args[i]);
	}
}

/* The passes that keep the goldens' results, then the annotating ones;
 * the result verifies and reads back as printed. */
static void pipeline_file(const char *path)
{
	static const char *const keep[] = { "decompose", "canonicalize",
					    "consteval", "cse", "dce" };
	static const char *const annotate[] = { "fuse", "formats" };
	struct ttc_pass_options o = ttc_pass_options_default();
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = ttc_parse_file(ctx, path, TTC_PARSE_ALLOW_UNREGISTERED);
	ttc_func *fs[MAXF];
	struct run runs[MAXF];
	size_t n;

	if (!m || ttc_module_verify(m))
		fail_msg("%s: %s", path, ttc_ctx_error(ctx));
	n = funcs(m, fs, 0);
	for (size_t i = 0; i < n; i++) {
		runs[i].f = fs[i];
		golden_before(ctx, &runs[i]);
	}
	o.verify_each = true;
	if (ttc_run_passes(m, keep, 5, &o, NULL))
		fail_msg("%s: %s", path, ttc_ctx_error(ctx));
	for (size_t i = 0; i < n; i++)
		golden_after(ctx, &runs[i], path);
	if (ttc_run_passes(m, annotate, 2, &o, NULL))
		fail_msg("%s: %s", path, ttc_ctx_error(ctx));
	char *s = ttc_print(m, TTC_PRINT_LOC, NULL);
	ttc_module *back = ttc_parse(ctx, path, s, strlen(s),
				     TTC_PARSE_ALLOW_UNREGISTERED);
	char *s2 = back ? ttc_print(back, TTC_PRINT_LOC, NULL) : NULL;

	if (!back || ttc_module_verify(back) || strcmp(s, s2))
		fail_msg("%s: does not read back: %s", path,
			 ttc_ctx_error(ctx));
	free(s);
	free(s2);
	ttc_module_free(back);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

/* Every model of tests/data/ttir/ through the pipeline. */
static void test_tree_models(void **state)
{
	(void)state;
	const char *src = getenv("TT_TEST_SRC");
	char dir[4096];
	DIR *d;
	struct dirent *e;
	int count = 0;

	assert_non_null(src);
	snprintf(dir, sizeof(dir), "%s/data/ttir", src);
	assert_non_null(d = opendir(dir));
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char path[8192];

		if (l < 6 || strcmp(e->d_name + l - 5, ".mlir"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		pipeline_file(path);
		count++;
	}
	closedir(d);
	assert_true(count >= 4);
	printf("# %d models, %d functions compared on the goldens\n", count,
	       goldens_compared);
	assert_true(goldens_compared >= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decompose_zmoves),
		cmocka_unit_test(test_decompose_shapes),
		cmocka_unit_test(test_decompose_eltwise),
		cmocka_unit_test(test_decompose_reductions),
		cmocka_unit_test(test_decompose_pybuda),
		cmocka_unit_test(test_decompose_windows),
		cmocka_unit_test(test_decompose_then_canonicalize),
		cmocka_unit_test(test_decompose_dot_general),
		cmocka_unit_test(test_decompose_device_forms),
		cmocka_unit_test(test_decompose_pool_padding),
		cmocka_unit_test(test_decompose_asinh),
		cmocka_unit_test(test_decompose_reverse),
		cmocka_unit_test(test_decompose_prod),
		cmocka_unit_test(test_decompose_gather),
		cmocka_unit_test(test_decompose_repeat_interleave),
		cmocka_unit_test(test_consteval),
		cmocka_unit_test(test_consteval_constants),
		cmocka_unit_test(test_tree_models),
	};

	return cmocka_run_group_tests_name("ttc_passes_eval", tests, NULL,
					   NULL);
}
