// SPDX-License-Identifier: Apache-2.0
/*
 * The ops added after the first set: convolutions, pools, norms,
 * dot_general, more data movement, clamps, arange; PyBuda's ops and
 * aliases. Shape inference of each, and each verifier message.
 */
#include <errno.h>

#include "ttc_testutil.h"

/* module { func @f(args) -> ret { %0 = op; return %0 } }: the op is on
 * line 3, column 1. */
static const char *fn(const char *args, const char *op, const char *ret)
{
	static char text[4096];

	snprintf(text, sizeof(text),
		 "module {\nfunc.func @f(%s) -> %s {\n%%0 = %s\nreturn %%0 : "
		 "%s\n}\n}\n",
		 args, ret, op, ret);
	return text;
}

static void ok(const char *args, const char *op, const char *ret)
{
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_str(ctx, fn(args, op, ret), 0);

	if (!m || ttc_module_verify(m))
		fail_msg("%s: %s", op, ttc_ctx_error(ctx));
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

static void bad(const char *args, const char *op, const char *ret,
		const char *msg)
{
	char want[1024];

	snprintf(want, sizeof(want), "t.mlir:3:1: error: %s", msg);
	expect_error(fn(args, op, ret), want);
}

#define X "%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>"
#define XT "(tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>)"
#define CONV_ATTRS(s, p, d, g) \
	"<{stride = " s ", padding = " p ", dilation = " d ", groups = " g "}>"

static void test_conv2d(void **state)
{
	(void)state;
	ok(X, "\"ttir.conv2d\"(%x, %w) " CONV_ATTRS("1 : i32", "0 : i32",
						    "1 : i32", "1 : i32")
	   " : " XT " -> tensor<1x6x6x4xf32>", "tensor<1x6x6x4xf32>");
	/* stride 2, padding [1, 1]: (8 + 2 - 3) / 2 + 1 = 4 */
	ok(X ", %b: tensor<1x1x1x4xf32>",
	   "\"ttir.conv2d\"(%x, %w, %b) " CONV_ATTRS("array<i32: 2, 2>",
						     "array<i32: 1, 1>",
						     "array<i32: 1, 1>", "1 : i32")
	   " : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<1x1x1x4xf32>)"
	   " -> tensor<1x4x4x4xf32>", "tensor<1x4x4x4xf32>");
	/* 4-value padding is [top, left, bottom, right], as in tt-mlir's
	 * conv2d_assymetric_padding test: 32 + 1 + 2 - 2 = 33 high,
	 * 32 + 3 + 4 - 2 = 37 wide */
	ok("%x: tensor<1x32x32x64xbf16>, %w: tensor<128x64x3x3xbf16>",
	   "\"ttir.conv2d\"(%x, %w) " CONV_ATTRS("1 : i32",
						  "array<i32: 1, 3, 2, 4>",
						  "1 : i32", "1 : i32")
	   " : (tensor<1x32x32x64xbf16>, tensor<128x64x3x3xbf16>) -> "
	   "tensor<1x33x37x128xbf16>", "tensor<1x33x37x128xbf16>");
	/* NCHW through the layout attributes, dilation 2: 8 - 4 - 1 + 1 */
	ok("%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>",
	   "\"ttir.conv2d\"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, "
	   "dilation = 2 : i32, groups = 1 : i32, channel_dim = 1, height_dim "
	   "= 2, width_dim = 3}> : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) "
	   "-> tensor<1x4x4x4xf32>", "tensor<1x4x4x4xf32>");
	bad(X, "\"ttir.conv2d\"(%x, %w) " CONV_ATTRS("1 : i32", "0 : i32",
						     "1 : i32", "2 : i32")
	    " : " XT " -> tensor<1x6x6x4xf32>", "tensor<1x6x6x4xf32>",
	    "'ttir.conv2d' op attribute 'groups' is 2: it must be >= 1 and "
	    "divide the input channels (3) and the output channels (4)");
	bad("%x: tensor<1x8x8x2xf32>, %w: tensor<4x3x3x3xf32>",
	    "\"ttir.conv2d\"(%x, %w) " CONV_ATTRS("1 : i32", "0 : i32",
						  "1 : i32", "1 : i32")
	    " : (tensor<1x8x8x2xf32>, tensor<4x3x3x3xf32>) -> "
	    "tensor<1x6x6x4xf32>", "tensor<1x6x6x4xf32>",
	    "'ttir.conv2d' op operand #1 (weight) tensor<4x3x3x3xf32> must have "
	    "2 input channels per group (dimension 1) for operand #0 (input) "
	    "tensor<1x8x8x2xf32> and groups 1");
	bad("%x: tensor<8x8x3xf32>, %w: tensor<4x3x3x3xf32>",
	    "\"ttir.conv2d\"(%x, %w) " CONV_ATTRS("1 : i32", "0 : i32",
						  "1 : i32", "1 : i32")
	    " : (tensor<8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<6x6x4xf32>",
	    "tensor<6x6x4xf32>",
	    "'ttir.conv2d' op operand #0 (input) must have rank 4, got "
	    "tensor<8x8x3xf32>");
	bad(X, "\"ttir.conv2d\"(%x, %w) " CONV_ATTRS("0 : i32", "0 : i32",
						     "1 : i32", "1 : i32")
	    " : " XT " -> tensor<1x6x6x4xf32>", "tensor<1x6x6x4xf32>",
	    "'ttir.conv2d' op attribute 'stride' must be >= 1, got [0, 0]");
	bad(X, "\"ttir.conv2d\"(%x, %w) " CONV_ATTRS("array<i32: 1, 1, 1>",
						     "0 : i32", "1 : i32",
						     "1 : i32")
	    " : " XT " -> tensor<1x6x6x4xf32>", "tensor<1x6x6x4xf32>",
	    "'ttir.conv2d' op attribute 'stride' must be an integer or 2 "
	    "integers [height, width]");
	bad(X, "\"ttir.conv2d\"(%x, %w) " CONV_ATTRS("1 : i32",
						     "array<i32: 1, 1, 1>",
						     "1 : i32", "1 : i32")
	    " : " XT " -> tensor<1x6x6x4xf32>", "tensor<1x6x6x4xf32>",
	    "'ttir.conv2d' op attribute 'padding' must be an integer, 2 "
	    "integers [height, width] or 4 [top, left, bottom, right]");
	bad(X, "\"ttir.conv2d\"(%x, %w) " CONV_ATTRS("1 : i32", "-1 : i32",
						     "1 : i32", "1 : i32")
	    " : " XT " -> tensor<1x6x6x4xf32>", "tensor<1x6x6x4xf32>",
	    "'ttir.conv2d' op attribute 'padding' must be >= 0, got -1");
	bad(X, "\"ttir.conv2d\"(%x, %w) " CONV_ATTRS("1 : i32", "0 : i32",
						     "5 : i32", "1 : i32")
	    " : " XT " -> tensor<1x6x6x4xf32>", "tensor<1x6x6x4xf32>",
	    "'ttir.conv2d' op window 3x3 (dilation 5x5) does not fit the padded "
	    "input 8x8");
	bad(X ", %b: tensor<3xf32>",
	    "\"ttir.conv2d\"(%x, %w, %b) " CONV_ATTRS("1 : i32", "0 : i32",
						      "1 : i32", "1 : i32")
	    " : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> "
	    "tensor<1x6x6x4xf32>", "tensor<1x6x6x4xf32>",
	    "'ttir.conv2d' op operand #2 (bias) tensor<3xf32> must hold the 4 "
	    "output channels, one value each");
	bad(X, "\"ttir.conv2d\"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, "
	    "dilation = 1 : i32, groups = 1 : i32, channel_dim = 0}> : " XT
	    " -> tensor<1x6x6x4xf32>", "tensor<1x6x6x4xf32>",
	    "'ttir.conv2d' op attribute 'channel_dim' names dimension 0, which "
	    "another layout attribute names");
	bad(X, "\"ttir.conv2d\"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, "
	    "dilation = 1 : i32}> : " XT " -> tensor<1x6x6x4xf32>",
	    "tensor<1x6x6x4xf32>",
	    "'ttir.conv2d' op requires attribute 'groups' (an integer)");
	/* flattened: the declared type stands */
	ok(X, "\"ttir.conv2d\"(%x, %w) <{stride = 1 : i32, padding = 0 : i32, "
	   "dilation = 1 : i32, groups = 1 : i32, flattened_compat_info = "
	   "#ttir<flattened_compat batch_size = 1, input_height = 8, "
	   "input_width = 8>}> : " XT " -> tensor<1x1x36x4xf32>",
	   "tensor<1x1x36x4xf32>");
}

static void test_conv_transpose2d(void **state)
{
	(void)state;
	/* (8 - 1) * 2 - 0 + 1 * (3 - 1) + 1 + 1 = 18; O = 2 * groups 1 */
	ok("%x: tensor<1x8x8x4xf32>, %w: tensor<4x2x3x3xf32>",
	   "\"ttir.conv_transpose2d\"(%x, %w) <{stride = 2 : i32, padding = 0 "
	   ": i32, output_padding = 1 : i32, dilation = 1 : i32, groups = 1 : "
	   "i32}> : (tensor<1x8x8x4xf32>, tensor<4x2x3x3xf32>) -> "
	   "tensor<1x18x18x2xf32>", "tensor<1x18x18x2xf32>");
	/* groups 2 with 3 output channels per group: O = 6 (only the input
	 * channels must divide by groups) */
	ok("%x: tensor<1x8x8x4xf32>, %w: tensor<4x3x1x1xf32>",
	   "\"ttir.conv_transpose2d\"(%x, %w) <{stride = 1 : i32, padding = 0 "
	   ": i32, output_padding = 0 : i32, dilation = 1 : i32, groups = 2 : "
	   "i32}> : (tensor<1x8x8x4xf32>, tensor<4x3x1x1xf32>) -> "
	   "tensor<1x8x8x6xf32>", "tensor<1x8x8x6xf32>");
	bad("%x: tensor<1x8x8x3xf32>, %w: tensor<4x2x3x3xf32>",
	    "\"ttir.conv_transpose2d\"(%x, %w) <{stride = 1 : i32, padding = 0 "
	    ": i32, output_padding = 0 : i32, dilation = 1 : i32, groups = 1 : "
	    "i32}> : (tensor<1x8x8x3xf32>, tensor<4x2x3x3xf32>) -> "
	    "tensor<1x10x10x2xf32>", "tensor<1x10x10x2xf32>",
	    "'ttir.conv_transpose2d' op operand #1 (weight) tensor<4x2x3x3xf32> "
	    "must have the 3 input channels of operand #0 (input) "
	    "tensor<1x8x8x3xf32> in dimension 0");
	bad("%x: tensor<1x1x1x4xf32>, %w: tensor<4x2x1x1xf32>",
	    "\"ttir.conv_transpose2d\"(%x, %w) <{stride = 1 : i32, padding = 1 "
	    ": i32, output_padding = 0 : i32, dilation = 1 : i32, groups = 1 : "
	    "i32}> : (tensor<1x1x1x4xf32>, tensor<4x2x1x1xf32>) -> "
	    "tensor<1x1x1x2xf32>", "tensor<1x1x1x2xf32>",
	    "'ttir.conv_transpose2d' op gives an output height of -1 (it must "
	    "be >= 1)");
}

#define P "%x: tensor<1x8x8x4xf32>"
#define POOL(k, s, p, c) \
	"<{kernel = " k ", stride = " s ", dilation = 1 : i32, padding = " p \
	", ceil_mode = " c "}> : (tensor<1x8x8x4xf32>) -> "

static void test_pools(void **state)
{
	(void)state;
	ok(P, "\"ttir.max_pool2d\"(%x) " POOL("2 : i32", "2 : i32", "0 : i32",
					     "false") "tensor<1x4x4x4xf32>",
	   "tensor<1x4x4x4xf32>");
	/* ceil_mode: (8 - 3) / 2 rounded up, + 1 = 4; floor gives 3 */
	ok(P, "\"ttir.avg_pool2d\"(%x) " POOL("3 : i32", "2 : i32", "0 : i32",
					     "true") "tensor<1x4x4x4xf32>",
	   "tensor<1x4x4x4xf32>");
	ok(P, "\"ttir.avg_pool2d\"(%x) " POOL("3 : i32", "2 : i32", "0 : i32",
					     "false") "tensor<1x3x3x4xf32>",
	   "tensor<1x3x3x4xf32>");
	/* ceil_mode never keeps a last window starting in the padding
	 * (PyTorch): bottom/right padding 1, 8 + 1 - 2 = 7, 7 / 2 rounded up
	 * + 1 = 5, but window 4 would start at 8, in the padding: 4 */
	ok(P, "\"ttir.max_pool2d\"(%x) " POOL("2 : i32", "2 : i32",
					     "array<i32: 0, 0, 1, 1>", "true")
	   "tensor<1x4x4x4xf32>", "tensor<1x4x4x4xf32>");
	/* [top, left, bottom, right] = [1, 0, 0, 0]: height 9 - 2 + 1 */
	ok(P, "\"ttir.max_pool2d\"(%x) " POOL("2 : i32", "1 : i32",
					     "array<i32: 1, 0, 0, 0>", "false")
	   "tensor<1x8x7x4xf32>", "tensor<1x8x7x4xf32>");
	bad(P, "\"ttir.max_pool2d\"(%x) <{kernel = 2 : i32, stride = 2 : i32, "
	    "dilation = 1 : i32, padding = 0 : i32}> : (tensor<1x8x8x4xf32>) "
	    "-> tensor<1x4x4x4xf32>", "tensor<1x4x4x4xf32>",
	    "'ttir.max_pool2d' op requires attribute 'ceil_mode' (a bool (true "
	    "or false))");
	bad(P, "\"ttir.max_pool2d\"(%x) " POOL("9 : i32", "1 : i32", "0 : i32",
					      "false") "tensor<1x4x4x4xf32>",
	    "tensor<1x4x4x4xf32>",
	    "'ttir.max_pool2d' op window 9x9 (dilation 1x1) does not fit the "
	    "padded input 8x8");
	bad(P, "\"ttir.max_pool2d\"(%x) " POOL("0 : i32", "1 : i32", "0 : i32",
					      "false") "tensor<1x4x4x4xf32>",
	    "tensor<1x4x4x4xf32>",
	    "'ttir.max_pool2d' op attribute 'kernel' must be >= 1, got [0, 0]");
}

#define N "%x: tensor<2x4x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>"

static void test_norms(void **state)
{
	(void)state;
	ok(N, "\"ttir.layer_norm\"(%x, %w, %b) <{normalized_shape = array<i64: "
	   "8>, operandSegmentSizes = array<i32: 1, 1, 1>}> : "
	   "(tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> "
	   "tensor<2x4x8xf32>", "tensor<2x4x8xf32>");
	ok(N, "\"ttir.rms_norm\"(%x, %b) <{normalized_shape = array<i64: 8>, "
	   "epsilon = 1.0e-06 : f32, operandSegmentSizes = array<i32: 1, 0, "
	   "1>}> : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>",
	   "tensor<2x4x8xf32>");
	ok(N, "\"ttir.rms_norm\"(%x) <{normalized_shape = array<i64: 4, 8>}> : "
	   "(tensor<2x4x8xf32>) -> tensor<2x4x8xf32>", "tensor<2x4x8xf32>");
	bad(N, "\"ttir.layer_norm\"(%x) <{normalized_shape = array<i64: 4>}> : "
	    "(tensor<2x4x8xf32>) -> tensor<2x4x8xf32>", "tensor<2x4x8xf32>",
	    "'ttir.layer_norm' op attribute 'normalized_shape' must be 1 or "
	    "more trailing dimensions of operand #0 (input) tensor<2x4x8xf32>");
	bad(N, "\"ttir.layer_norm\"(%x, %w) <{normalized_shape = array<i64: 8>, "
	    "operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<2x4x8xf32>, "
	    "tensor<8xf32>) -> tensor<2x4x8xf32>", "tensor<2x4x8xf32>",
	    "'ttir.layer_norm' op property 'operandSegmentSizes' must be "
	    "array<i32: 1, 0|1, 0|1> adding up to the 2 operands");
	bad("%x: tensor<2x4x8xf32>, %w: tensor<4xf32>",
	    "\"ttir.layer_norm\"(%x, %w) <{normalized_shape = array<i64: 8>}> : "
	    "(tensor<2x4x8xf32>, tensor<4xf32>) -> tensor<2x4x8xf32>",
	    "tensor<2x4x8xf32>",
	    "'ttir.layer_norm' op operand #1 (weight) tensor<4xf32> must have "
	    "the shape of attribute 'normalized_shape'");
	bad("%x: tensor<2x4x8xf32>, %w: tensor<4xf32>",
	    "\"ttir.layer_norm\"(%x, %w) <{normalized_shape = array<i64: 8>, "
	    "operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<2x4x8xf32>, "
	    "tensor<4xf32>) -> tensor<2x4x8xf32>", "tensor<2x4x8xf32>",
	    "'ttir.layer_norm' op operand #1 (bias) tensor<4xf32> must have the "
	    "shape of attribute 'normalized_shape'");
	ok("%x: tensor<2x3x4x5xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, "
	   "%m: tensor<1x3x1x1xf32>, %v: tensor<3xf32>",
	   "\"ttir.batch_norm_inference\"(%x, %s, %o, %m, %v) <{dimension = 1 "
	   ": i32, epsilon = 1.0e-05 : f32}> : (tensor<2x3x4x5xf32>, "
	   "tensor<3xf32>, tensor<3xf32>, tensor<1x3x1x1xf32>, tensor<3xf32>) "
	   "-> tensor<2x3x4x5xf32>", "tensor<2x3x4x5xf32>");
	bad("%x: tensor<2x3x4x5xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, "
	    "%m: tensor<3xf32>, %v: tensor<4xf32>",
	    "\"ttir.batch_norm_inference\"(%x, %s, %o, %m, %v) <{dimension = 1 "
	    ": i32, epsilon = 1.0e-05 : f32}> : (tensor<2x3x4x5xf32>, "
	    "tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4xf32>) -> "
	    "tensor<2x3x4x5xf32>", "tensor<2x3x4x5xf32>",
	    "'ttir.batch_norm_inference' op operand #4 (variance) tensor<4xf32> "
	    "must hold the 3 channels of dimension 1");
	bad(N ", %y: tensor<8xf32>",
	    "\"ttir.layer_norm\"(%x, %w, %b, %y) <{normalized_shape = "
	    "array<i64: 8>}> : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>,"
	    " tensor<8xf32>) -> tensor<2x4x8xf32>", "tensor<2x4x8xf32>",
	    "'ttir.layer_norm' op expects at most 3 operands (input, weight, "
	    "bias), got 4");
}

#define DG(bl, cl, br, cr) \
	"<{batch_dims_lhs = array<i64" bl ">, contract_dims_lhs = array<i64" \
	cl ">, batch_dims_rhs = array<i64" br ">, contract_dims_rhs = " \
	"array<i64" cr ">}>"

static void test_dot_general(void **state)
{
	(void)state;
	ok("%a: tensor<32x1xf32>, %b: tensor<1x64xf32>",
	   "\"ttir.dot_general\"(%a, %b) " DG("", ": 1", "", ": 0")
	   " : (tensor<32x1xf32>, tensor<1x64xf32>) -> tensor<32x64xf32>",
	   "tensor<32x64xf32>");
	/* batch 2 (dims 0/1), lhs free 3, rhs free 5 */
	ok("%a: tensor<2x3x4xf32>, %b: tensor<4x2x5xbf16>",
	   "\"ttir.dot_general\"(%a, %b) " DG(": 0", ": 2", ": 1", ": 0")
	   " : (tensor<2x3x4xf32>, tensor<4x2x5xbf16>) -> tensor<2x3x5xf32>",
	   "tensor<2x3x5xf32>");
	bad("%a: tensor<2x3x4xf32>, %b: tensor<5x2x5xf32>",
	    "\"ttir.dot_general\"(%a, %b) " DG(": 0", ": 2", ": 1", ": 0")
	    " : (tensor<2x3x4xf32>, tensor<5x2x5xf32>) -> tensor<2x3x5xf32>",
	    "tensor<2x3x5xf32>",
	    "'ttir.dot_general' op contracting dimension 2 of operand #0 (lhs) "
	    "is 4 but dimension 0 of operand #1 (rhs) is 5");
	bad("%a: tensor<2x3x4xf32>, %b: tensor<4x3x5xf32>",
	    "\"ttir.dot_general\"(%a, %b) " DG(": 0", ": 2", ": 1", ": 0")
	    " : (tensor<2x3x4xf32>, tensor<4x3x5xf32>) -> tensor<2x3x5xf32>",
	    "tensor<2x3x5xf32>",
	    "'ttir.dot_general' op batch dimension 0 of operand #0 (lhs) is 2 "
	    "but dimension 1 of operand #1 (rhs) is 3");
	bad("%a: tensor<2x3x4xf32>, %b: tensor<4x2x5xf32>",
	    "\"ttir.dot_general\"(%a, %b) " DG(": 0", ": 0", ": 1", ": 0")
	    " : (tensor<2x3x4xf32>, tensor<4x2x5xf32>) -> tensor<2x3x5xf32>",
	    "tensor<2x3x5xf32>",
	    "'ttir.dot_general' op attribute 'contract_dims_lhs' entry 0 is 0: "
	    "not a dimension of rank 3, or named twice");
	bad("%a: tensor<2x3x4xf32>, %b: tensor<4x2x5xf32>",
	    "\"ttir.dot_general\"(%a, %b) " DG("", ": 2", ": 1", ": 0")
	    " : (tensor<2x3x4xf32>, tensor<4x2x5xf32>) -> tensor<2x3x5xf32>",
	    "tensor<2x3x5xf32>",
	    "'ttir.dot_general' op lhs and rhs name 0 and 1 batch dimensions, 1 "
	    "and 1 contracting ones; they must match");
}

#define T "%x: tensor<2x1x3xf32>"
#define TIN " : (tensor<2x1x3xf32>) -> "

static void test_shapes(void **state)
{
	(void)state;
	ok(T, "\"ttir.squeeze\"(%x) <{dim = 1 : si32}>" TIN "tensor<2x3xf32>",
	   "tensor<2x3xf32>");
	ok(T, "\"ttir.squeeze\"(%x) <{dim = -2 : si32}>" TIN "tensor<2x3xf32>",
	   "tensor<2x3xf32>");
	bad(T, "\"ttir.squeeze\"(%x) <{dim = 0 : si32}>" TIN "tensor<1x3xf32>",
	    "tensor<1x3xf32>",
	    "'ttir.squeeze' op attribute 'dim' names dimension 0 of size 2; "
	    "squeeze needs size 1");
	ok(T, "\"ttir.unsqueeze\"(%x) <{dim = 3 : si32}>" TIN
	   "tensor<2x1x3x1xf32>", "tensor<2x1x3x1xf32>");
	ok(T, "\"ttir.unsqueeze\"(%x) <{dim = -4 : si32}>" TIN
	   "tensor<1x2x1x3xf32>", "tensor<1x2x1x3xf32>");
	bad(T, "\"ttir.unsqueeze\"(%x) <{dim = 4 : si32}>" TIN
	    "tensor<2x1x3x1xf32>", "tensor<2x1x3x1xf32>",
	    "'ttir.unsqueeze' op attribute 'dim' is 4, out of range for rank 4 "
	    "(expected -4..3)");
	ok(T, "\"ttir.repeat\"(%x) <{repeat_dimensions = array<i64: 1, 4, 2>}>"
	   TIN "tensor<2x4x6xf32>", "tensor<2x4x6xf32>");
	bad(T, "\"ttir.repeat\"(%x) <{repeat_dimensions = array<i64: 1, 4>}>"
	    TIN "tensor<2x4x3xf32>", "tensor<2x4x3xf32>",
	    "'ttir.repeat' op attribute 'repeat_dimensions' has 2 entries for "
	    "an operand of rank 3");
	bad(T, "\"ttir.repeat\"(%x) <{repeat_dimensions = array<i64: 1, 0, 1>}>"
	    TIN "tensor<2x0x3xf32>", "tensor<2x0x3xf32>",
	    "'ttir.repeat' op attribute 'repeat_dimensions' entry 1 is 0 (it "
	    "must be >= 1)");
	ok(T, "\"ttir.repeat_interleave\"(%x) <{repeats = 3 : ui32, dim = -1 : "
	   "si32}>" TIN "tensor<2x1x9xf32>", "tensor<2x1x9xf32>");
	bad(T, "\"ttir.repeat_interleave\"(%x) <{repeats = 0 : ui32, dim = 0 : "
	    "si32}>" TIN "tensor<2x1x3xf32>", "tensor<2x1x3xf32>",
	    "'ttir.repeat_interleave' op attribute 'repeats' is 0 (it must be "
	    ">= 1)");
	ok(T, "\"ttir.pad\"(%x) <{padding = array<i32: 0, 0, 1, 2, -1, 0>, "
	   "value = 0.0 : f32}>" TIN "tensor<2x4x2xf32>", "tensor<2x4x2xf32>");
	bad(T, "\"ttir.pad\"(%x) <{padding = array<i32: 0, 0>, value = 0.0 : "
	    "f32}>" TIN "tensor<2x1x3xf32>", "tensor<2x1x3xf32>",
	    "'ttir.pad' op attribute 'padding' has 2 entries; an operand of "
	    "rank 3 needs 6 (low, high per dimension)");
	bad(T, "\"ttir.pad\"(%x) <{padding = array<i32: 0, 0, -1, -1, 0, 0>, "
	    "value = 0.0 : f32}>" TIN "tensor<2x1x3xf32>", "tensor<2x1x3xf32>",
	    "'ttir.pad' op attribute 'padding' crops dimension 1 of size 1 "
	    "below 0");
	bad(T, "\"ttir.pad\"(%x) <{padding = array<i32: 0, 0, 0, 0, 0, 0>}>"
	    TIN "tensor<2x1x3xf32>", "tensor<2x1x3xf32>",
	    "'ttir.pad' op requires attribute 'value' (a float)");
	ok(T, "\"ttir.reverse\"(%x) <{dimensions = array<i64: 0, 2>}>" TIN
	   "tensor<2x1x3xf32>", "tensor<2x1x3xf32>");
	bad(T, "\"ttir.reverse\"(%x) <{dimensions = array<i64: 0, -3>}>" TIN
	    "tensor<2x1x3xf32>", "tensor<2x1x3xf32>",
	    "'ttir.reverse' op attribute 'dimensions' names dimension 0 twice");
	ok(T, "\"ttir.cumsum\"(%x) <{dim = -1 : i64}>" TIN "tensor<2x1x3xf32>",
	   "tensor<2x1x3xf32>");
	bad(T, "\"ttir.cumprod\"(%x) <{dim = 3 : i64}>" TIN "tensor<2x1x3xf32>",
	    "tensor<2x1x3xf32>",
	    "'ttir.cumprod' op attribute 'dim' is 3, out of range for rank 3 "
	    "(expected -3..2)");
}

static void test_lookup(void **state)
{
	(void)state;
	ok("%i: tensor<2x3xi32>, %w: tensor<10x8xbf16>",
	   "\"ttir.embedding\"(%i, %w) : (tensor<2x3xi32>, tensor<10x8xbf16>) "
	   "-> tensor<2x3x8xbf16>", "tensor<2x3x8xbf16>");
	ok("%i: tensor<4xi32>, %w: tensor<1x1x10x8xf32>",
	   "\"ttir.embedding\"(%i, %w) : (tensor<4xi32>, tensor<1x1x10x8xf32>) "
	   "-> tensor<4x8xf32>", "tensor<4x8xf32>");
	bad("%i: tensor<4xi32>, %w: tensor<10xf32>",
	    "\"ttir.embedding\"(%i, %w) : (tensor<4xi32>, tensor<10xf32>) -> "
	    "tensor<4x10xf32>", "tensor<4x10xf32>",
	    "'ttir.embedding' op operand #1 (weight) tensor<10xf32> must be a "
	    "table [vocabulary, width] (leading dimensions of 1 allowed)");
	ok("%x: tensor<5x3xf32>, %i: tensor<2x3xi32>",
	   "\"ttir.gather\"(%x, %i) <{dim = 0 : i32}> : (tensor<5x3xf32>, "
	   "tensor<2x3xi32>) -> tensor<2x3xf32>", "tensor<2x3xf32>");
	bad("%x: tensor<5x3xf32>, %i: tensor<2x4xi32>",
	    "\"ttir.gather\"(%x, %i) <{dim = 0 : i32}> : (tensor<5x3xf32>, "
	    "tensor<2x4xi32>) -> tensor<2x4xf32>", "tensor<2x4xf32>",
	    "'ttir.gather' op operand #1 (index) tensor<2x4xi32> must have the "
	    "rank of operand #0 (input) tensor<5x3xf32> and no larger dimension "
	    "outside dimension 0");
}

static void test_clamp_and_more(void **state)
{
	(void)state;
	ok("%x: tensor<4x8xbf16>",
	   "\"ttir.clamp_scalar\"(%x) <{min = 0.0 : f32, max = 6.0 : f32}> : "
	   "(tensor<4x8xbf16>) -> tensor<4x8xbf16>", "tensor<4x8xbf16>");
	bad("%x: tensor<4x8xbf16>",
	    "\"ttir.clamp_scalar\"(%x) <{min = 0.0 : f32}> : (tensor<4x8xbf16>) "
	    "-> tensor<4x8xbf16>", "tensor<4x8xbf16>",
	    "'ttir.clamp_scalar' op requires attribute 'max' (an integer or a "
	    "float)");
	ok("%x: tensor<1x16xbf16>, %l: tensor<1xbf16>, %h: tensor<1xbf16>",
	   "\"ttir.clamp_tensor\"(%x, %l, %h) : (tensor<1x16xbf16>, "
	   "tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x16xbf16>",
	   "tensor<1x16xbf16>");
	bad("%x: tensor<1x16xbf16>, %l: tensor<4x1xbf16>, %h: tensor<1xbf16>",
	    "\"ttir.clamp_tensor\"(%x, %l, %h) : (tensor<1x16xbf16>, "
	    "tensor<4x1xbf16>, tensor<1xbf16>) -> tensor<1x16xbf16>",
	    "tensor<1x16xbf16>",
	    "'ttir.clamp_tensor' op operand #1 (min) tensor<4x1xbf16> must "
	    "broadcast to operand #0 (input) tensor<1x16xbf16>");
	ok("%x: tensor<4xf32>", "\"ttir.selu\"(%x) : (tensor<4xf32>) -> "
	   "tensor<4xf32>", "tensor<4xf32>");
	ok("%g: tensor<4xf32>, %x: tensor<4xf32>",
	   "\"ttir.gelu_bw\"(%g, %x) <{approximate = \"tanh\"}> : "
	   "(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>", "tensor<4xf32>");
	ok("", "\"ttir.arange\"() <{start = 0 : si64, end = 32 : si64, step = 1 "
	   ": si64, arange_dimension = 1 : i64}> : () -> tensor<1x32x4xf32>",
	   "tensor<1x32x4xf32>");
	ok("", "\"ttir.arange\"() <{start = 10 : si64, end = 0 : si64, step = "
	   "-3 : si64, arange_dimension = 0 : i64}> : () -> tensor<4xi32>",
	   "tensor<4xi32>");
	bad("", "\"ttir.arange\"() <{start = 0 : si64, end = 16 : si64, step = "
	    "1 : si64, arange_dimension = 1 : i64}> : () -> tensor<1x32xf32>",
	    "tensor<1x32xf32>",
	    "'ttir.arange' op result dimension 1 is 32 but start, end and step "
	    "give 16 values");
	bad("", "\"ttir.arange\"() <{start = 0 : si64, end = 16 : si64, step = "
	    "1 : si64, arange_dimension = 2 : i64}> : () -> tensor<1x16xf32>",
	    "tensor<1x16xf32>",
	    "'ttir.arange' op attribute 'arange_dimension' (2) must name a "
	    "dimension of the result");
	bad("", "\"ttir.arange\"() <{start = 0 : si64, end = 16 : si64, step = "
	    "0 : si64, arange_dimension = 0 : i64}> : () -> tensor<16xf32>",
	    "tensor<16xf32>", "'ttir.arange' op attribute 'step' is 0");
}

#define Z "%x: tensor<1x2x32x64xf32>"
#define ZIN " : (tensor<1x2x32x64xf32>) -> "

static void test_pybuda(void **state)
{
	(void)state;
	ok(Z, "\"pybuda.hslice\"(%x) <{slices = 4 : i32}>" ZIN
	   "tensor<1x8x32x16xf32>", "tensor<1x8x32x16xf32>");
	ok(Z, "\"pybuda.hstack\"(%x)" ZIN "tensor<1x1x32x128xf32>",
	   "tensor<1x1x32x128xf32>");
	ok(Z, "\"pybuda.vslice\"(%x) <{slices = 2 : i32}>" ZIN
	   "tensor<1x4x16x64xf32>", "tensor<1x4x16x64xf32>");
	ok(Z, "\"pybuda.vstack\"(%x) <{slices = 2 : i32}>" ZIN
	   "tensor<1x1x64x64xf32>", "tensor<1x1x64x64xf32>");
	bad(Z, "\"pybuda.hslice\"(%x) <{slices = 3 : i32}>" ZIN
	    "tensor<1x6x32x21xf32>", "tensor<1x6x32x21xf32>",
	    "'pybuda.hslice' op attribute 'slices' is 3: it must be >= 1 and "
	    "divide dimension 3 (64)");
	bad(Z, "\"pybuda.vstack\"(%x) <{slices = 4 : i32}>" ZIN
	    "tensor<1x1x128x64xf32>", "tensor<1x1x128x64xf32>",
	    "'pybuda.vstack' op attribute 'slices' is 4: it must be >= 1 and "
	    "divide dimension 1 (2)");
	bad("%x: tensor<32x64xf32>", "\"pybuda.hslice\"(%x) <{slices = 2 : "
	    "i32}> : (tensor<32x64xf32>) -> tensor<32x32xf32>",
	    "tensor<32x32xf32>",
	    "'pybuda.hslice' op operand #0 (input) tensor<32x64xf32> must have "
	    "rank 3 or more ([..., Z, R, C])");
	ok(Z ", %y: tensor<1x2x32x64xf32>", "\"pybuda.binary_stack\"(%x, %y) "
	   "<{dim = -1 : i32}> : (tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>)"
	   " -> tensor<1x2x32x128xf32>", "tensor<1x2x32x128xf32>");
	bad(Z ", %y: tensor<1x2x32x32xf32>", "\"pybuda.binary_stack\"(%x, %y) "
	    "<{dim = -1 : i32}> : (tensor<1x2x32x64xf32>, tensor<1x2x32x32xf32>)"
	    " -> tensor<1x2x32x128xf32>", "tensor<1x2x32x128xf32>",
	    "'pybuda.binary_stack' op operand #0 (lhs) tensor<1x2x32x64xf32> "
	    "and operand #1 (rhs) tensor<1x2x32x32xf32> must have the same "
	    "type");
	ok(Z ", %y: tensor<64xf32>", "\"pybuda.heaviside\"(%x, %y) : "
	   "(tensor<1x2x32x64xf32>, tensor<64xf32>) -> tensor<1x2x32x64xf32>",
	   "tensor<1x2x32x64xf32>");
	ok(Z, "\"pybuda.index\"(%x) <{dim = 2 : i32, start = 4 : i32, stop = 20 "
	   ": i32, stride = 3 : i32}>" ZIN "tensor<1x2x6x64xf32>",
	   "tensor<1x2x6x64xf32>");
	ok(Z, "\"pybuda.index\"(%x) <{dim = -1 : i32, start = -1 : i32}>" ZIN
	   "tensor<1x2x32x1xf32>", "tensor<1x2x32x1xf32>");
	bad(Z, "\"pybuda.index\"(%x) <{dim = 2 : i32, start = 8 : i32, stop = 4 "
	    ": i32}>" ZIN "tensor<1x2x4x64xf32>", "tensor<1x2x4x64xf32>",
	    "'pybuda.index' op attributes 'start', 'stop' and 'stride' must "
	    "give 0 <= start < stop <= 32 and stride >= 1 along dimension 2");
	ok(Z, "\"pybuda.select\"(%x) <{dim = 2 : i32, index = [2 : i32, 3 : "
	   "i32], stride = 8 : i32}>" ZIN "tensor<1x2x12x64xf32>",
	   "tensor<1x2x12x64xf32>");
	ok(Z, "\"pybuda.select\"(%x) <{dim = 1 : i32, index = 1 : i32}>" ZIN
	   "tensor<1x1x32x64xf32>", "tensor<1x1x32x64xf32>");
	bad(Z, "\"pybuda.select\"(%x) <{dim = 2 : i32, index = [6 : i32, 3 : "
	    "i32], stride = 8 : i32}>" ZIN "tensor<1x2x12x64xf32>",
	    "tensor<1x2x12x64xf32>",
	    "'pybuda.select' op attributes 'index' [6, 3] and 'stride' 8 must "
	    "select within blocks that divide dimension 2 (32)");
	ok(Z, "\"pybuda.reduce_avg\"(%x) <{dim = -2 : i32}>" ZIN
	   "tensor<1x2x1x64xf32>", "tensor<1x2x1x64xf32>");
	ok(Z, "\"pybuda.reduce_sum\"(%x) <{dim = 3 : i32}>" ZIN
	   "tensor<1x2x32x1xf32>", "tensor<1x2x32x1xf32>");
	ok(Z, "\"pybuda.argmax\"(%x)" ZIN "tensor<1x1x1x1xi32>",
	   "tensor<1x1x1x1xi32>");
	ok(Z, "\"pybuda.identity\"(%x) <{unsqueeze = \"unsqueeze\", "
	   "unsqueeze_dim = 0 : i32}>" ZIN "tensor<1x1x2x32x64xf32>",
	   "tensor<1x1x2x32x64xf32>");
	bad(Z, "\"pybuda.identity\"(%x) <{unsqueeze = \"unsqueeze\"}>" ZIN
	    "tensor<1x2x32x64xf32>", "tensor<1x2x32x64xf32>",
	    "'pybuda.identity' op attribute 'unsqueeze' needs 'unsqueeze_dim'");
	ok(Z, "\"pybuda.buffer\"(%x)" ZIN "tensor<1x2x32x64xf32>",
	   "tensor<1x2x32x64xf32>");
	ok("", "\"pybuda.constant\"() <{constant = 2.5 : f32}> : () -> "
	   "tensor<1xbf16>", "tensor<1xbf16>");
}

/* An alias is the TTIR op: same definition, printed under its name. */
static void test_aliases(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	const char *text = fn("%a: tensor<2xf32>, %b: tensor<2xf32>",
			      "\"pybuda.max\"(%a, %b) : (tensor<2xf32>, "
			      "tensor<2xf32>) -> tensor<2xf32>",
			      "tensor<2xf32>");
	ttc_module *m = parse_str(ctx, text, 0);

	assert_non_null(m);
	assert_int_equal(ttc_module_verify(m), 0);
	ttc_op *op = ttc_func_first_op(ttc_module_item_func(m, 0));

	assert_string_equal(ttc_op_name(op), "ttir.maximum");
	assert_ptr_equal(ttc_op_get_def(op), ttc_lookup_op(ctx, "ttir.maximum"));
	assert_ptr_equal(ttc_lookup_op(ctx, "pybuda.matmul"),
			 ttc_lookup_op(ctx, "ttir.linear"));
	assert_ptr_equal(ttc_lookup_op(ctx, "pybuda.clip"),
			 ttc_lookup_op(ctx, "ttir.clamp_scalar"));
	ttc_module_free(m);

	/* listing, and the refusals */
	size_t n = ttc_op_alias_count(ctx);
	const struct ttc_op_def *d = NULL;

	assert_true(n >= 13);
	assert_string_equal(ttc_op_alias_at(ctx, 0, &d), "pybuda.abs");
	assert_string_equal(d->name, "ttir.abs");
	assert_null(ttc_op_alias_at(ctx, n, NULL));
	assert_int_equal(ttc_register_alias(ctx, "pybuda.add", "ttir.sub"),
			 -ENOENT);
	assert_int_equal(ttc_register_alias(ctx, "pybuda.add", "ttir.add"),
			 -EEXIST);
	assert_int_equal(ttc_register_alias(ctx, "ttir.exp", "ttir.add"),
			 -EEXIST);
	assert_int_equal(ttc_register_alias(ctx, "my.plus", "pybuda.add"), 0);
	assert_ptr_equal(ttc_lookup_op(ctx, "my.plus"),
			 ttc_lookup_op(ctx, "ttir.add"));
	assert_int_equal(ttc_register_alias(NULL, "a", "b"), -EINVAL);
	static const struct ttc_op_def dup = { .name = "pybuda.relu" };

	assert_int_equal(ttc_register_op(ctx, &dup), -EEXIST);
	ttc_ctx_free(ctx);
}

#define NCHW "%x: tensor<1x3x8x8xf32>"
#define PCONV(attrs, ret) \
	"\"pybuda.conv2d\"(%x, %w) " attrs " : (tensor<1x3x8x8xf32>, " \
	"tensor<4x3x3x3xf32>) -> " ret

/* PyBuda's convolutions and pools: NCHW, "same" padding by default,
 * padding in PyBuda's order [left, right, top, bottom]. */
static void test_pybuda_nn(void **state)
{
	(void)state;
	ok(NCHW ", %w: tensor<4x3x3x3xf32>", PCONV("", "tensor<1x4x8x8xf32>"),
	   "tensor<1x4x8x8xf32>");
	/* "same" with stride 2: ceil(8 / 2) */
	ok(NCHW ", %w: tensor<4x3x3x3xf32>",
	   PCONV("<{stride = 2 : i32}>", "tensor<1x4x4x4xf32>"),
	   "tensor<1x4x4x4xf32>");
	/* [left, right, top, bottom] = [0, 2, 1, 0]: 8 + 1 - 2 high,
	 * 8 + 2 - 2 wide */
	ok(NCHW ", %w: tensor<4x3x3x3xf32>",
	   PCONV("<{padding = array<i32: 0, 2, 1, 0>}>", "tensor<1x4x7x8xf32>"),
	   "tensor<1x4x7x8xf32>");
	bad(NCHW ", %w: tensor<4x3x3x3xf32>",
	    PCONV("<{padding = \"valid\"}>", "tensor<1x4x6x6xf32>"),
	    "tensor<1x4x6x6xf32>",
	    "'pybuda.conv2d' op attribute 'padding' must be \"same\", an "
	    "integer or 4 integers [left, right, top, bottom]");
	bad(NCHW ", %w: tensor<4x3x3x3xf32>",
	    PCONV("<{groups = 3 : i32}>", "tensor<1x4x8x8xf32>"),
	    "tensor<1x4x8x8xf32>",
	    "'pybuda.conv2d' op attribute 'groups' is 3: it must be >= 1 and "
	    "divide the input channels (3) and the output channels (4)");
	/* channel_last: NHWC */
	ok("%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>",
	   "\"pybuda.conv2d\"(%x, %w) <{channel_last = true, padding = 0 : "
	   "i32}> : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> "
	   "tensor<1x6x6x4xf32>", "tensor<1x6x6x4xf32>");
	ok(NCHW ", %w: tensor<3x2x2x2xf32>",
	   "\"pybuda.conv2d_transpose\"(%x, %w) <{stride = 2 : i32, padding "
	   "= 0 : i32}> : (tensor<1x3x8x8xf32>, tensor<3x2x2x2xf32>) -> "
	   "tensor<1x2x16x16xf32>", "tensor<1x2x16x16xf32>");
	ok(NCHW, "\"pybuda.max_pool2d\"(%x) <{kernel_size = 2 : i32, stride = "
	   "2 : i32, padding = 0 : i32}> : (tensor<1x3x8x8xf32>) -> "
	   "tensor<1x3x4x4xf32>", "tensor<1x3x4x4xf32>");
	bad(NCHW, "\"pybuda.max_pool2d\"(%x) <{kernel_size = 2 : i32, "
	    "return_indices = true}> : (tensor<1x3x8x8xf32>) -> "
	    "tensor<1x3x8x8xf32>", "tensor<1x3x8x8xf32>",
	    "'pybuda.max_pool2d' op attribute 'return_indices' is not "
	    "supported (the op has one result)");
	bad(NCHW, "\"pybuda.avg_pool2d\"(%x) <{kernel_size = 2 : i32, "
	    "divisor_override = 0 : i32}> : (tensor<1x3x8x8xf32>) -> "
	    "tensor<1x3x8x8xf32>", "tensor<1x3x8x8xf32>",
	    "'pybuda.avg_pool2d' op attribute 'divisor_override' must not be 0");
	/* the others */
	ok("%x: tensor<2x5xf32>, %y: tensor<2x3xf32>",
	   "\"pybuda.concatenate\"(%x, %y) <{axis = -1 : i32}> : "
	   "(tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x8xf32>",
	   "tensor<2x8xf32>");
	ok(NCHW, "\"pybuda.pad\"(%x) <{pad = array<i32: 1, 2, 3, 0>, mode = "
	   "\"reflect\"}> : (tensor<1x3x8x8xf32>) -> tensor<1x3x11x11xf32>",
	   "tensor<1x3x11x11xf32>");
	bad(NCHW, "\"pybuda.pad\"(%x) <{pad = array<i32: 8, 0>, mode = "
	    "\"reflect\"}> : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x16xf32>",
	    "tensor<1x3x8x16xf32>",
	    "'pybuda.pad' op attribute 'pad' [8, 0] does not fit dimension 3 "
	    "of 8 (>= 0; less than it to reflect)");
	bad(NCHW, "\"pybuda.pad\"(%x) <{pad = array<i32: 1, 1>, mode = "
	    "\"wrap\"}> : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x10xf32>",
	    "tensor<1x3x8x10xf32>",
	    "'pybuda.pad' op attribute 'mode' must be \"constant\", "
	    "\"replicate\" or \"reflect\"");
	ok("%x: tensor<2x8xf32>, %w: tensor<8xf32>, %b: tensor<1x8xf32>",
	   "\"pybuda.layernorm\"(%x, %w, %b) : (tensor<2x8xf32>, "
	   "tensor<8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>",
	   "tensor<2x8xf32>");
	bad("%x: tensor<2x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>",
	    "\"pybuda.layernorm\"(%x, %w, %b) <{dim = 0 : i32}> : "
	    "(tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> "
	    "tensor<2x8xf32>", "tensor<2x8xf32>",
	    "'pybuda.layernorm' op attribute 'dim' must name the last "
	    "dimension (1), got 0");
	bad("%x: tensor<2x8xf32>", "\"pybuda.relu\"(%x) <{mode = \"mid\"}> : "
	    "(tensor<2x8xf32>) -> tensor<2x8xf32>", "tensor<2x8xf32>",
	    "'pybuda.relu' op attribute 'mode' must be \"min\" or \"max\"");
	bad("%x: tensor<2x8xf32>", "\"pybuda.gelu\"(%x) <{approximate = "
	    "\"fast\"}> : (tensor<2x8xf32>) -> tensor<2x8xf32>",
	    "tensor<2x8xf32>",
	    "'pybuda.gelu' op attribute 'approximate' must be \"none\" or "
	    "\"tanh\"");
	/* bitcast_convert keeps the width (tt-mlir's negative test) */
	ok("%x: tensor<4xf32>", "\"ttir.bitcast_convert\"(%x) : "
	   "(tensor<4xf32>) -> tensor<4xui32>", "tensor<4xui32>");
	bad("%x: tensor<4xf32>", "\"ttir.bitcast_convert\"(%x) : "
	    "(tensor<4xf32>) -> tensor<4xui16>", "tensor<4xui16>",
	    "'ttir.bitcast_convert' op operand #0 (input) has 32-bit elements "
	    "but result #0 16-bit ones: a bitcast keeps the width");
	/* vector . vector is a tensor<1>, as tt-mlir's
	 * permute_slice_after_matmul test writes it */
	ok("%a: tensor<4096xbf16>, %b: tensor<4096xbf16>",
	   "\"ttir.matmul\"(%a, %b) : (tensor<4096xbf16>, tensor<4096xbf16>) "
	   "-> tensor<1xbf16>", "tensor<1xbf16>");
	bad("%x: tensor<2x8xf32>", "\"pybuda.softmax\"(%x) <{dim = 2 : i32}> "
	    ": (tensor<2x8xf32>) -> tensor<2x8xf32>", "tensor<2x8xf32>",
	    "'pybuda.softmax' op attribute 'dim' is 2, out of range for rank "
	    "2 (expected -2..1)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conv2d),
		cmocka_unit_test(test_conv_transpose2d),
		cmocka_unit_test(test_pools),
		cmocka_unit_test(test_norms),
		cmocka_unit_test(test_dot_general),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_clamp_and_more),
		cmocka_unit_test(test_pybuda),
		cmocka_unit_test(test_pybuda_nn),
		cmocka_unit_test(test_aliases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
