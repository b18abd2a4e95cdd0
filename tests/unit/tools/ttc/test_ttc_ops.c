// SPDX-License-Identifier: Apache-2.0
/* TTIR's ops: shape inference of each, and each verifier message. */
#include "ttc_testutil.h"

/* One op on %a, %b (2x3 f32), %c (2x1 f32) or %d (2x2 f32), whose
 * result is returned. */
static char *one_op(const char *op, const char *ret)
{
	static char text[2048];

	snprintf(text, sizeof(text),
		 "module {\nfunc.func @f(%%a: tensor<2x3xf32>, %%b: "
		 "tensor<2x3xf32>, %%c: tensor<2x1xf32>, %%d: tensor<2x2xf32>) "
		 "-> %s {\n%%0 = %s\nreturn %%0 : %s\n}\n}\n",
		 ret, op, ret);
	return text;
}

static void ok(const char *op, const char *ret)
{
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_str(ctx, one_op(op, ret), 0);

	if (!m || ttc_module_verify(m))
		fail_msg("%s: %s", op, ttc_ctx_error(ctx));
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

static void bad(const char *op, const char *ret, const char *msg)
{
	char want[1024];

	snprintf(want, sizeof(want), "t.mlir:3:1: error: %s", msg);
	expect_error(one_op(op, ret), want);
}

#define T23 "tensor<2x3xf32>"

static void test_elementwise(void **state)
{
	(void)state;
	ok("\"ttir.exp\"(%a) : (" T23 ") -> " T23, T23);
	ok("\"ttir.relu\"(%a) : (" T23 ") -> tensor<2x3xbf16>",
	   "tensor<2x3xbf16>");
	ok("\"ttir.add\"(%a, %b) : (" T23 ", " T23 ") -> " T23, T23);
	ok("\"ttir.eq\"(%a, %b) : (" T23 ", " T23 ") -> tensor<2x3xi1>",
	   "tensor<2x3xi1>");
	ok("\"ttir.leaky_relu\"(%a) <{parameter = 0.01 : f32}> : (" T23 ") -> "
	   T23, T23);
	ok("\"ttir.typecast\"(%a) : (" T23 ") -> tensor<2x3xi32>",
	   "tensor<2x3xi32>");
	bad("\"ttir.exp\"(%a) : (" T23 ") -> tensor<3x2xf32>", "tensor<3x2xf32>",
	    "'ttir.exp' op result #0 has type tensor<3x2xf32>, but the "
	    "operands and attributes give tensor<2x3xf32> (any element type)");
	bad("\"ttir.exp\"(%a, %c) : (" T23 ", tensor<2x1xf32>) -> " T23, T23,
	    "'ttir.exp' op expects 1 operand (input), got 2");
	bad("\"ttir.add\"(%a) : (" T23 ") -> " T23, T23,
	    "'ttir.add' op expects 2 operands (lhs, rhs), got 1");
	bad("\"ttir.leaky_relu\"(%a) : (" T23 ") -> " T23, T23,
	    "'ttir.leaky_relu' op requires attribute 'parameter' (a float)");
	bad("\"ttir.leaky_relu\"(%a) <{parameter = 1 : i32}> : (" T23 ") -> "
	    T23, T23,
	    "'ttir.leaky_relu' op attribute 'parameter' must be a float, got "
	    "1 : i32");
}

static void test_broadcasting(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	const char *text =
		"module {\nfunc.func @f(%a: tensor<4x1x3xf32>, %b: tensor<5x1xf32>, "
		"%c: tensor<f32>, %d: tensor<4x5x3xi1>) -> tensor<4x5x3xf32> {\n"
		"%0 = \"ttir.multiply\"(%a, %b) : (tensor<4x1x3xf32>, "
		"tensor<5x1xf32>) -> tensor<4x5x3xf32>\n"
		"%1 = \"ttir.add\"(%0, %c) : (tensor<4x5x3xf32>, tensor<f32>) -> "
		"tensor<4x5x3xf32>\n"
		"%2 = \"ttir.where\"(%d, %1, %c) : (tensor<4x5x3xi1>, "
		"tensor<4x5x3xf32>, tensor<f32>) -> tensor<4x5x3xf32>\n"
		"return %2 : tensor<4x5x3xf32>\n}\n}\n";
	ttc_module *m = parse_str(ctx, text, 0);

	assert_non_null(m);
	assert_int_equal(ttc_module_verify(m), 0);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
	bad("\"ttir.add\"(%a, %b) : (" T23 ", " T23 ") -> tensor<1x2x3xf32>",
	    "tensor<1x2x3xf32>",
	    "'ttir.add' op result #0 has type tensor<1x2x3xf32>, but the "
	    "operands and attributes give tensor<2x3xf32> (any element type)");
}

static void test_matmul(void **state)
{
	(void)state;
	ok("\"ttir.matmul\"(%a, %b) <{transpose_b = true}> : (" T23 ", " T23
	   ") -> tensor<2x2xf32>", "tensor<2x2xf32>");
	ok("\"ttir.matmul\"(%a, %b) <{transpose_a = true}> : (" T23 ", " T23
	   ") -> tensor<3x3xf32>", "tensor<3x3xf32>");
	ok("\"ttir.linear\"(%a, %b, %d) <{transpose_b = true}> : (" T23 ", " T23
	   ", tensor<2x2xf32>) -> tensor<2x2xf32>", "tensor<2x2xf32>");
	bad("\"ttir.matmul\"(%a, %b) : (" T23 ", " T23 ") -> " T23, T23,
	    "'ttir.matmul' op operand #0 (a) tensor<2x3xf32> contracts over 3 "
	    "elements but operand #1 (b) tensor<2x3xf32> over 2");
	bad("\"ttir.linear\"(%a, %b, %a, %c) : (" T23 ", " T23 ", " T23 ", "
	    "tensor<2x1xf32>) -> " T23, T23,
	    "'ttir.linear' op expects at most 3 operands (a, b, bias), got 4");
	bad("\"ttir.linear\"(%a, %b, %a) <{transpose_a = true}> : (" T23 ", " T23
	    ", " T23 ") -> tensor<3x3xf32>", "tensor<3x3xf32>",
	    "'ttir.linear' op operand #2 (bias) tensor<2x3xf32> must "
	    "broadcast to the product's shape tensor<3x3xf32>");
}

static void test_data_movement(void **state)
{
	(void)state;
	ok("\"ttir.reshape\"(%a) <{shape = [6 : i32]}> : (" T23 ") -> "
	   "tensor<6xf32>", "tensor<6xf32>");
	bad("\"ttir.reshape\"(%a) <{shape = [5 : i32]}> : (" T23 ") -> "
	    "tensor<5xf32>", "tensor<5xf32>",
	    "'ttir.reshape' op attribute 'shape' has 5 elements, operand #0 "
	    "(input) tensor<2x3xf32> has 6");
	bad("\"ttir.reshape\"(%a) : (" T23 ") -> tensor<6xf32>", "tensor<6xf32>",
	    "'ttir.reshape' op requires attribute 'shape' (a list of integers "
	    "([1 : i32, ...] or array<i64: ...>))");
	ok("\"ttir.transpose\"(%a) <{dim0 = 0 : si32, dim1 = -1 : si32}> : ("
	   T23 ") -> tensor<3x2xf32>", "tensor<3x2xf32>");
	bad("\"ttir.transpose\"(%a) <{dim0 = 2 : si32, dim1 = 0 : si32}> : ("
	    T23 ") -> tensor<3x2xf32>", "tensor<3x2xf32>",
	    "'ttir.transpose' op attribute 'dim0' is 2, out of range for rank "
	    "2 (expected -2..1)");
	ok("\"ttir.permute\"(%a) <{permutation = array<i64: 1, 0>}> : (" T23
	   ") -> tensor<3x2xf32>", "tensor<3x2xf32>");
	bad("\"ttir.permute\"(%a) <{permutation = array<i64: 1, 1>}> : (" T23
	    ") -> tensor<3x2xf32>", "tensor<3x2xf32>",
	    "'ttir.permute' op attribute 'permutation' is not a permutation of "
	    "0..1 (entry 1 is 1)");
	ok("\"ttir.broadcast\"(%c) <{broadcast_dimensions = array<i64: 1, 4>}> : "
	   "(tensor<2x1xf32>) -> tensor<2x4xf32>", "tensor<2x4xf32>");
	bad("\"ttir.broadcast\"(%a) <{broadcast_dimensions = array<i64: 2, 1>}> "
	    ": (" T23 ") -> tensor<4x3xf32>", "tensor<4x3xf32>",
	    "'ttir.broadcast' op attribute 'broadcast_dimensions' entry 0 is 2 "
	    "for a dimension of size 2 (a factor must be >= 1, and 1 unless "
	    "the dimension is 1)");
	ok("\"ttir.concat\"(%a, %b, %a) <{dim = -1 : si32}> : (" T23 ", " T23
	   ", " T23 ") -> tensor<2x9xf32>", "tensor<2x9xf32>");
	bad("\"ttir.concat\"(%a, %d) <{dim = 0 : si32}> : (" T23
	    ", tensor<2x2xf32>) -> tensor<4x3xf32>", "tensor<4x3xf32>",
	    "'ttir.concat' op operand #1 (inputs) tensor<2x2xf32> does not "
	    "match operand #0 tensor<2x3xf32> outside dimension 0");
	ok("\"ttir.slice_static\"(%a) <{begins = [0 : i32, -1 : i32], ends = "
	   "[2 : i32, 0 : i32], step = [2 : i32, -1 : i32]}> : (" T23
	   ") -> tensor<1x2xf32>", "tensor<1x2xf32>");
	bad("\"ttir.slice_static\"(%a) <{begins = [0 : i32], ends = [1 : i32], "
	    "step = [1 : i32]}> : (" T23 ") -> tensor<1xf32>", "tensor<1xf32>",
	    "'ttir.slice_static' op attributes 'begins', 'ends' and 'step' "
	    "need 2 entries each (the operand's rank), got 1, 1 and 1");
}

static void test_reductions(void **state)
{
	(void)state;
	ok("\"ttir.sum\"(%a) <{dim_arg = [1 : i32], keep_dim = true}> : (" T23
	   ") -> tensor<2x1xf32>", "tensor<2x1xf32>");
	ok("\"ttir.mean\"(%a) <{dim_arg = [-2 : i32], keep_dim = false}> : ("
	   T23 ") -> tensor<3xf32>", "tensor<3xf32>");
	ok("\"ttir.max\"(%a) <{keep_dim = false}> : (" T23 ") -> tensor<f32>",
	   "tensor<f32>");
	ok("\"ttir.argmax\"(%a) <{dim_arg = [1 : i32], keep_dim = false}> : ("
	   T23 ") -> tensor<2xi32>", "tensor<2xi32>");
	bad("\"ttir.sum\"(%a) <{dim_arg = [1 : i32]}> : (" T23
	    ") -> tensor<2x1xf32>", "tensor<2x1xf32>",
	    "'ttir.sum' op requires attribute 'keep_dim' (a bool (true or "
	    "false))");
	bad("\"ttir.sum\"(%a) <{dim_arg = [1 : i32, -1 : i32], keep_dim = "
	    "true}> : (" T23 ") -> tensor<2x1xf32>", "tensor<2x1xf32>",
	    "'ttir.sum' op attribute 'dim_arg' names dimension 1 twice");
	ok("\"ttir.softmax\"(%a) <{dimension = -1 : si32}> : (" T23 ") -> " T23,
	   T23);
	bad("\"ttir.softmax\"(%a) <{dimension = 3 : si32}> : (" T23 ") -> " T23,
	    T23,
	    "'ttir.softmax' op attribute 'dimension' is 3, out of range for "
	    "rank 2 (expected -2..1)");
}

static void test_creation(void **state)
{
	(void)state;
	ok("\"ttir.constant\"() <{value = dense<1.0> : " T23 "}> : () -> " T23,
	   T23);
	bad("\"ttir.constant\"() <{value = dense<1.0> : tensor<3xf32>}> : () -> "
	    T23, T23,
	    "'ttir.constant' op result #0 has type tensor<2x3xf32>, but the "
	    "operands and attributes give tensor<3xf32>");
	bad("\"ttir.constant\"() <{value = 1 : i32}> : () -> " T23, T23,
	    "'ttir.constant' op attribute 'value' must be dense elements "
	    "(dense<...> : tensor<...>)");
	ok("\"ttir.full\"() <{shape = array<i32: 2, 3>, fill_value = 7 : i32}> "
	   ": () -> tensor<2x3xi32>", "tensor<2x3xi32>");
	ok("\"ttir.zeros\"() <{shape = array<i32: 2, 3>}> : () -> " T23, T23);
	ok("\"ttir.ones\"() <{shape = array<i32: 2, 3>}> : () -> tensor<2x3xbf16>",
	   "tensor<2x3xbf16>");
	bad("\"ttir.ones\"() <{shape = array<i32: 3, 2>}> : () -> " T23, T23,
	    "'ttir.ones' op result #0 has type tensor<2x3xf32>, but the "
	    "operands and attributes give tensor<3x2xf32> (any element type)");
	bad("\"ttir.full\"() <{shape = array<i32: 2, 3>, fill_value = \"x\"}> "
	    ": () -> " T23, T23,
	    "'ttir.full' op attribute 'fill_value' must be an integer or a "
	    "float, got \"x\"");
	ok("ttir.empty() : " T23, T23);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elementwise),
		cmocka_unit_test(test_broadcasting),
		cmocka_unit_test(test_matmul),
		cmocka_unit_test(test_data_movement),
		cmocka_unit_test(test_reductions),
		cmocka_unit_test(test_creation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
