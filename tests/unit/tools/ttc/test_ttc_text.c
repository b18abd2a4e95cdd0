// SPDX-License-Identifier: Apache-2.0
/*
 * TTIR text: every syntax feature the parser accepts, every error path
 * with its exact message, printing, and parse(print(x)) == x over every
 * .mlir file of the tree.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "ttc_testutil.h"

/* Parses text, verifies, prints; the print must read back to itself. */
static char *round_trip(ttc_ctx *ctx, const char *text, unsigned pflags,
			unsigned flags)
{
	ttc_module *m = ttc_parse(ctx, "t.mlir", text, strlen(text), flags);

	if (!m)
		fail_msg("parse failed: %s", ttc_ctx_error(ctx));
	if (ttc_module_verify(m))
		fail_msg("verify failed: %s", ttc_ctx_error(ctx));
	char *out = ttc_print(m, pflags, NULL);
	ttc_module *m2 = ttc_parse(ctx, "t2.mlir", out, strlen(out), flags);

	if (!m2)
		fail_msg("reparse failed: %s\n%s", ttc_ctx_error(ctx), out);
	char *out2 = ttc_print(m2, pflags, NULL);

	assert_string_equal(out, out2);
	free(out2);
	ttc_module_free(m2);
	ttc_module_free(m);
	return out;
}

static void expect_print(const char *text, unsigned pflags, const char *want)
{
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	char *out = round_trip(ctx, text, pflags, 0);

	assert_string_equal(out, want);
	free(out);
	ttc_ctx_free(ctx);
}

static void test_generic_and_pretty(void **state)
{
	(void)state;
	expect_print(
		"// comment\nmodule {\n func.func @f(%x: tensor<2x3xf32>) -> "
		"tensor<2x3xf32> {\n"
		"  %y = \"ttir.neg\"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
		"  func.return %y : tensor<2x3xf32> // trailing\n }\n}\n",
		0,
		"module {\n  func.func @f(%arg0: tensor<2x3xf32>) -> "
		"tensor<2x3xf32> {\n"
		"    %0 = \"ttir.neg\"(%arg0) : (tensor<2x3xf32>) -> "
		"tensor<2x3xf32>\n"
		"    return %0 : tensor<2x3xf32>\n  }\n}\n");
}

static void test_module_forms(void **state)
{
	(void)state;
	/* A bare function is wrapped in a module; module @name with
	 * attributes; several modules in one file. */
	expect_print("func.func @f() {\n return\n}\n", 0,
		     "module {\n  func.func @f() {\n    return\n  }\n}\n");
	expect_print("module @m attributes {b = 1 : i32, a} {}\n", 0,
		     "module @m attributes {a, b = 1 : i32} {\n}\n");
	expect_print("module {}\nmodule @x {}\n", 0,
		     "module {\n  module {\n  }\n  module @x {\n  }\n}\n");
}

static void test_func_forms(void **state)
{
	(void)state;
	expect_print(
		"module {\n"
		"func.func public @f(%a: tensor<4xf32> {ttir.name = \"a\"}) -> "
		"(tensor<4xf32> {jax.result_info = \"\"}, tensor<4xf32>) "
		"attributes {x} {\n"
		"  return %a, %a : tensor<4xf32>, tensor<4xf32>\n}\n"
		"func.func private @d(tensor<4xf32>) -> tensor<4xf32>\n"
		"func.func nested @e() {\n return\n}\n}\n",
		0,
		"module {\n"
		"  func.func public @f(%arg0: tensor<4xf32> {ttir.name = \"a\"}) "
		"-> (tensor<4xf32> {jax.result_info = \"\"}, tensor<4xf32>) "
		"attributes {x} {\n"
		"    return %arg0, %arg0 : tensor<4xf32>, tensor<4xf32>\n  }\n"
		"  func.func private @d(tensor<4xf32>) -> tensor<4xf32>\n"
		"  func.func nested @e() {\n    return\n  }\n}\n");
}

static void test_call(void **state)
{
	(void)state;
	expect_print(
		"module {\n"
		"func.func private @g(%a: tensor<f32>) -> tensor<f32> {\n"
		" return %a : tensor<f32>\n}\n"
		"func.func @f(%a: tensor<f32>) -> tensor<f32> {\n"
		" %0 = func.call @g(%a) : (tensor<f32>) -> tensor<f32>\n"
		" %1 = call @g(%0) : (tensor<f32>) -> tensor<f32>\n"
		" %2 = \"func.call\"(%1) <{callee = @g}> : (tensor<f32>) -> "
		"tensor<f32>\n"
		" return %2 : tensor<f32>\n}\n}\n",
		0,
		"module {\n"
		"  func.func private @g(%arg0: tensor<f32>) -> tensor<f32> {\n"
		"    return %arg0 : tensor<f32>\n  }\n"
		"  func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n"
		"    %0 = call @g(%arg0) : (tensor<f32>) -> tensor<f32>\n"
		"    %1 = call @g(%0) : (tensor<f32>) -> tensor<f32>\n"
		"    %2 = call @g(%1) : (tensor<f32>) -> tensor<f32>\n"
		"    return %2 : tensor<f32>\n  }\n}\n");
}

/* Attributes of every kind survive a round trip unchanged. */
static void test_attributes(void **state)
{
	(void)state;
	const char *attrs =
		"{a = 1 : i32, b = -1 : si32, c = 3 : ui64, d = 18446744073709551615 : ui64, "
		"e = 1.000000e-05 : f32, f = 9.99999974E-6 : f32, g = 0.5 : bf16, "
		"h = 2.5, i = 7, j = true, k = false, l, m = \"s\\\"q\\n\", "
		"n = [1 : i32, [2 : i64]], o = array<i32: 1, -2>, p = array<i64>, "
		"q = array<f32: 1.5>, r = dense<1.0> : tensor<2x2xf32>, "
		"s = dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>, "
		"t = dense<\"0x0000803F\"> : tensor<4xf32>, "
		"u = dense<[true, false]> : tensor<2xi1>, v = tensor<4xbf16>, "
		"w = {x = 1 : i16}, y = @sym, z = #ttcore.reduce_type<sum>, "
		"za = affine_map<(d0) -> (d0)>, zb = i32, zc = 0x7F800000 : f32, "
		"zd = dense<[0x7FC00000, -0.0]> : tensor<2xf32>, "
		"\"quoted key\" = unit, ze = dense<> : tensor<0xf32>}";
	char text[4096];

	snprintf(text, sizeof(text),
		 "module {\nfunc.func @f(%%a: tensor<2xf32>) -> tensor<2xf32> {\n"
		 " %%0 = \"x.op\"(%%a) %s : (tensor<2xf32>) -> tensor<2xf32>\n"
		 " return %%0 : tensor<2xf32>\n}\n}\n",
		 attrs);
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	char *out = round_trip(ctx, text, 0, TTC_PARSE_ALLOW_UNREGISTERED);

	assert_non_null(strstr(out, "a = 1 : i32, b = -1 : si32, c = 3 : ui64, "
				    "d = 18446744073709551615 : ui64, "
				    "e = 1.0e-05 : f32, f = 1.0e-05 : "
				    "f32, g = 0.5 : bf16, h = 2.5 : f64, "
				    "i = 7 : i64, j = true, k = false, l, "
				    "m = \"s\\\"q\\n\""));
	assert_non_null(strstr(out, "o = array<i32: 1, -2>, p = array<i64>, "
				    "q = array<f32: 1.5>, "
				    "\"quoted key\", "
				    "r = dense<1.0> : tensor<2x2xf32>, "
				    "s = dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>, "
				    "t = dense<\"0x0000803F\"> : tensor<4xf32>, "
				    "u = dense<[true, false]> : tensor<2xi1>, "
				    "v = tensor<4xbf16>, w = {x = 1 : i16}, "
				    "y = @sym, z = #ttcore.reduce_type<sum>, "
				    "za = affine_map<(d0) -> (d0)>, zb = i32, "
				    "zc = 0x7F800000 : f32, "
				    "zd = dense<[0x7FC00000, -0.0]> : "
				    "tensor<2xf32>, "
				    "ze = dense<[]> : tensor<0xf32>"));
	free(out);
	ttc_ctx_free(ctx);
}

static void test_locations(void **state)
{
	(void)state;
	const char *text =
		"#loc9 = loc(\"early\")\n"
		"module {\nfunc.func @f(%a: tensor<f32> loc(#loc1)) -> "
		"tensor<f32> {\n"
		" %0 = \"ttir.abs\"(%a) : (tensor<f32>) -> tensor<f32> loc(#loc2)\n"
		" %1 = \"ttir.abs\"(%0) : (tensor<f32>) -> tensor<f32> "
		"loc(fused<\"m\">[#loc9, unknown])\n"
		" return %1 : tensor<f32> loc(callsite(\"a\" at \"f.py\":1:2))\n"
		"} loc(\"fn\"(\"f.py\":3:4))\n}\n"
		"#loc1 = loc(\"arg\")\n#loc2 = loc(\"f.py\":5:6)\n";
	const char *want =
		"module {\n  func.func @f(%arg0: tensor<f32> loc(\"arg\")) -> "
		"tensor<f32> {\n"
		"    %0 = \"ttir.abs\"(%arg0) : (tensor<f32>) -> tensor<f32> "
		"loc(\"f.py\":5:6)\n"
		"    %1 = \"ttir.abs\"(%0) : (tensor<f32>) -> tensor<f32> "
		"loc(fused<\"m\">[\"early\", unknown])\n"
		"    return %1 : tensor<f32> loc(callsite(\"a\" at \"f.py\":1:2))\n"
		"  } loc(\"fn\"(\"f.py\":3:4))\n}\n";

	expect_print(text, TTC_PRINT_LOC, want);
	/* Without --print-loc they are kept but not printed. */
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_str(ctx, text, 0);
	ttc_func *f = ttc_module_item_func(m, 0);

	assert_int_equal(ttc_loc_kind(ttc_op_loc(ttc_func_first_op(f))),
			 TTC_LOC_FILE);
	assert_int_equal(ttc_loc_line(ttc_op_loc(ttc_func_first_op(f))), 5);
	assert_string_equal(ttc_loc_str(ttc_func_arg_loc(f, 0)), "arg");
	char *out = ttc_print(m, 0, NULL);

	assert_null(strstr(out, "loc("));
	free(out);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

static void test_aliases(void **state)
{
	(void)state;
	expect_print("!t = tensor<2xf32>\n#a = {k = 1 : i32}\n"
		     "module {\nfunc.func @f(%x: !t) -> !t {\n"
		     " %0 = \"ttir.abs\"(%x) {d = #a} : (!t) -> !t\n"
		     " return %0 : !t\n}\n}\n",
		     0,
		     "module {\n  func.func @f(%arg0: tensor<2xf32>) -> "
		     "tensor<2xf32> {\n"
		     "    %0 = \"ttir.abs\"(%arg0) {d = {k = 1 : i32}} : "
		     "(tensor<2xf32>) -> tensor<2xf32>\n"
		     "    return %0 : tensor<2xf32>\n  }\n}\n");
}

static void test_multi_result_and_unregistered(void **state)
{
	(void)state;
	const char *text =
		"module {\nfunc.func @f(%a: tensor<4xf32>) -> tensor<4xi32> {\n"
		" %0:2 = \"ttir.sort\"(%a) <{dim = -1 : si32}> : (tensor<4xf32>) -> "
		"(tensor<4xf32>, tensor<4xi32>)\n"
		" %v, %i = \"x.y\"(%0#0, %0#1) : (tensor<4xf32>, tensor<4xi32>) "
		"-> (tensor<4xf32>, tensor<4xi32>)\n"
		" return %i : tensor<4xi32>\n}\n}\n";
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	char *out = round_trip(ctx, text, 0, TTC_PARSE_ALLOW_UNREGISTERED);

	assert_non_null(strstr(out, "%0:2 = \"ttir.sort\"(%arg0) <{dim = -1 "
				    ": si32}> : (tensor<4xf32>) -> "
				    "(tensor<4xf32>, tensor<4xi32>)\n"
				    "    %1:2 = \"x.y\"(%0#0, %0#1)"));
	assert_non_null(strstr(out, "return %1#1 : tensor<4xi32>"));
	free(out);
	ttc_ctx_free(ctx);
}

static void test_dps_normalised(void **state)
{
	(void)state;
	expect_print(FN("tensor<2x3xf32>",
			"%0 = ttir.empty() : tensor<2x3xf32>\n"
			"%1 = \"ttir.add\"(%a, %b, %0) : (tensor<2x3xf32>, "
			"tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n"
			"%2 = ttir.empty() : tensor<2x3xf32>\n"
			"%3 = \"ttir.concat\"(%1, %2) <{dim = 0 : si32}> : "
			"(tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n"
			"%4 = ttir.empty() : tensor<2x3xf32>\n"
			"return %4 : tensor<2x3xf32>\n"),
		     0,
		     "module {\n  func.func @f(%arg0: tensor<2x3xf32>, "
		     "%arg1: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
		     "    %0 = \"ttir.add\"(%arg0, %arg1) : (tensor<2x3xf32>, "
		     "tensor<2x3xf32>) -> tensor<2x3xf32>\n"
		     "    %1 = \"ttir.concat\"(%0) <{dim = 0 : si32}> : "
		     "(tensor<2x3xf32>) -> tensor<2x3xf32>\n"
		     "    %2 = ttir.empty() : tensor<2x3xf32>\n"
		     "    return %2 : tensor<2x3xf32>\n  }\n}\n");
	/* An output operand is dropped only when what is left is a valid
	 * count: else the printed text would lose one more when read again
	 * (the fuzzer's regress-dps-count). */
	expect_error(FN("tensor<2x3xf32>",
			"%0 = ttir.empty() : tensor<2x3xf32>\n"
			"%1 = \"ttir.exp\"(%a, %b, %0) : (tensor<2x3xf32>, "
			"tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n"
			"return %1 : tensor<2x3xf32>\n"),
		     "t.mlir:4:1: error: 'ttir.exp' op expects 1 operand "
		     "(input), got 3");
}

/* A trailing operand that is a real value, not an empty, is dropped as
 * the old output operand but its op stays; two operands too many are left
 * for the verifier, or each reading would drop one more (the fuzzer's
 * find: the print was not a fixed point). */
static void test_dps_only_one_extra_operand(void **state)
{
	static const char text[] =
		"module {\n  func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
		"    %0 = \"ttir.neg\"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n"
		"    %1 = \"ttir.abs\"(%arg0, %0, %0) : (tensor<2xf32>, tensor<2xf32>, "
		"tensor<2xf32>) -> tensor<2xf32>\n"
		"    return %1 : tensor<2xf32>\n  }\n}\n";
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = ttc_parse(ctx, "t.mlir", text, strlen(text), 0);
	char *out;

	(void)state;
	assert_non_null(m);
	assert_int_not_equal(ttc_module_verify(m), 0); /* abs takes one */
	out = ttc_print(m, 0, NULL);
	assert_string_equal(out, text);
	free(out);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
	/* One too many: dropped, and the value's op is kept. */
	expect_print(FN("tensor<2x3xf32>",
			"%0 = \"ttir.neg\"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
			"%1 = \"ttir.abs\"(%a, %0) : (tensor<2x3xf32>, "
			"tensor<2x3xf32>) -> tensor<2x3xf32>\n"
			"return %0 : tensor<2x3xf32>\n"),
		     0,
		     "module {\n  func.func @f(%arg0: tensor<2x3xf32>, %arg1: "
		     "tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
		     "    %0 = \"ttir.neg\"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
		     "    %1 = \"ttir.abs\"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
		     "    return %0 : tensor<2x3xf32>\n  }\n}\n");
}

/* Every parse error: position, message, source line and caret. */
static void test_parse_errors(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();

	assert_null(parse_str(ctx, "module {\n  func.func @f( {\n", 0));
	assert_string_equal(ttc_ctx_error(ctx),
			    "t.mlir:2:17: error: expected a type\n"
			    "  func.func @f( {\n"
			    "                ^\n");
	ttc_ctx_free(ctx);
	expect_error(FN("tensor<2x3xf32>", "return %c : tensor<2x3xf32>\n"),
		     "t.mlir:3:8: error: use of undefined value '%c'");
	expect_error(FN("tensor<2x3xf32>", "%0 = \"ttir.foo\"(%a) : "
					   "(tensor<2x3xf32>) -> tensor<2x3xf32>\n"),
		     "t.mlir:3:6: error: unknown op 'ttir.foo' (use "
		     "--allow-unregistered to keep it opaque)");
	expect_error(FN("tensor<2x3xf32>", "%0 = \"zz.foo\"(%a) : "
					   "(tensor<2x3xf32>) -> tensor<2x3xf32>\n"),
		     "t.mlir:3:6: error: unknown dialect 'zz' of op 'zz.foo' "
		     "(use --allow-unregistered to keep it opaque)");
	expect_error(FN("tensor<2x3xf32>", "%0 = \"ttir.abs\"(%a) : "
					   "(tensor<2x2xf32>) -> tensor<2x3xf32>\n"),
		     "t.mlir:3:17: error: 'ttir.abs' operand #0: use of value "
		     "'%a' as tensor<2x2xf32>, but it has type tensor<2x3xf32>");
	expect_error(FN("tensor<2x3xf32>", "%0 = \"ttir.abs\"(%a) : () -> "
					   "tensor<2x3xf32>\n"),
		     "t.mlir:3:6: error: 'ttir.abs' has 1 operand but its type "
		     "lists 0");
	expect_error(FN("tensor<2x3xf32>", "%0 = \"ttir.abs\"(%a) : "
					   "(tensor<?x3xf32>) -> tensor<2x3xf32>\n"),
		     "t.mlir:3:31: error: dynamically shaped tensors are not "
		     "supported (static shapes only)");
	expect_error(FN("tensor<2x3xf32>", "%0 = \"ttir.abs\"(%a) : "
					   "(tensor<1x1x1x1x1x1x1x1x1xf32>) -> tensor<2x3xf32>\n"),
		     "t.mlir:3:47: error: tensor rank is above the limit of 8");
	expect_error(FN("tensor<2x3xf32>", "%0 = \"ttir.abs\"(%a) : "
					   "(tensor<2x3xi7>) -> tensor<2x3xf32>\n"),
		     "t.mlir:3:24: error: tensor element type must be i1, i8, "
		     "i16, i32, i64 (signless, signed or unsigned), f16, bf16, "
		     "f32 or f64");
	expect_error(FN("tensor<2x3xf32>", "%0 = \"ttir.abs\"(%a) {x = 1, x = 2} "
					   ": (tensor<2x3xf32>) -> tensor<2x3xf32>\n"),
		     "t.mlir:3:21: error: attribute 'x' occurs more than once "
		     "in a dictionary");
	expect_error(FN("tensor<2x3xf32>", "%a = \"ttir.abs\"(%a) : "
					   "(tensor<2x3xf32>) -> tensor<2x3xf32>\n"),
		     "t.mlir:3:1: error: redefinition of value '%a'");
	expect_error(FN("tensor<2x3xf32>", "%0:2 = \"ttir.abs\"(%a) : "
					   "(tensor<2x3xf32>) -> tensor<2x3xf32>\n"),
		     "t.mlir:3:1: error: 'ttir.abs' has 1 result but 2 are "
		     "bound here");
	expect_error(FN("tensor<2x3xf32>", "return %a#1 : tensor<2x3xf32>\n"),
		     "t.mlir:3:8: error: '%a' has 1 result; #1 does not exist");
	expect_error(FN("tensor<2x3xf32>", "%0 = arith.addf %a, %b : f32\n"),
		     "t.mlir:3:6: error: custom assembly of 'arith.addf' is not "
		     "supported; write the op in generic form "
		     "(\"arith.addf\"(...))");
	expect_error(FN("tensor<2x3xf32>", "%0 = \"ttir.abs\"(%a) ({}) : "
					   "(tensor<2x3xf32>) -> tensor<2x3xf32>\n"),
		     "t.mlir:3:21: error: regions are not supported (op "
		     "'ttir.abs')");
	expect_error("module {\n  %0 = 1\n}\n",
		     "t.mlir:2:3: error: expected 'module' or 'func.func'");
	expect_error("module {\n", "t.mlir:2:1: error: missing '}' at the end "
				   "of a module");
	expect_error("module { func.func @f() { return\n",
		     "t.mlir:2:1: error: missing '}' at the end of function @f");
	expect_error("module attributes {a = \"x} {}\n",
		     "t.mlir:1:24: error: unterminated string");
	expect_error("module attributes {a = #nope} {}\n",
		     "t.mlir:1:24: error: undefined attribute alias '#nope'");
	expect_error("module attributes {a = dense<[1, 2]> : tensor<3xi32>} {}\n",
		     "t.mlir:1:30: error: dense literal has 2 elements in "
		     "dimension 0, the type has 3");
	expect_error("module attributes {a = dense<\"0x00\"> : tensor<3xi32>} {}\n",
		     "t.mlir:1:30: error: hex dense data has 1 bytes; the type "
		     "needs 12");
	expect_error("module attributes {a = 1.5 : i32} {}\n",
		     "t.mlir:1:24: error: float literal with integer type");
	expect_error("module attributes {a = loc(bogus)} {}\n",
		     "t.mlir:1:28: error: expected a location: unknown, "
		     "\"file\":line:col, \"name\", callsite(...), fused[...] or "
		     "#alias");
	expect_error("module attributes {a = \"x\\00\"} {}\n",
		     "t.mlir:1:24: error: strings may not contain NUL bytes");
	expect_error("module @m {} ` \n",
		     "t.mlir:1:14: error: unexpected character '`'");
}

/* Errors found by the verifier also point at the op's source line. */
static void test_verify_errors_are_located(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_str(ctx, FN("tensor<2x3xf32>",
		"  %0 = \"ttir.add\"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) "
		"-> tensor<3x3xf32>\n  return %a : tensor<2x3xf32>\n"), 0);

	assert_non_null(m);
	assert_int_equal(ttc_module_verify(m), 1);
	assert_string_equal(ttc_ctx_error(ctx),
		"t.mlir:3:3: error: 'ttir.add' op result #0 has type "
		"tensor<3x3xf32>, but the operands and attributes give "
		"tensor<2x3xf32> (any element type)\n"
		"  %0 = \"ttir.add\"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) "
		"-> tensor<3x3xf32>\n  ^\n");
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

/* Hostile input: truncations of a valid file and random bytes give an
 * error or a module, never a crash. */
static void test_truncations(void **state)
{
	(void)state;
	const char *text = FN("tensor<2x3xf32>",
		"%0 = \"ttir.sum\"(%a) <{dim_arg = [1 : i32], keep_dim = true}> : "
		"(tensor<2x3xf32>) -> tensor<2x1xf32> loc(\"x\":1:2)\n"
		"%1 = \"ttir.constant\"() <{value = dense<[[1.0, 2.0]]> : "
		"tensor<1x2xf32>}> : () -> tensor<1x2xf32>\n"
		"return %a : tensor<2x3xf32>\n");
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	size_t n = strlen(text);

	for (size_t i = 0; i < n; i++) {
		ttc_module *m = ttc_parse(ctx, "t", text, i, 0);

		if (m)
			ttc_module_verify(m);
		ttc_module_free(m);
		ttc_ctx_clear_diags(ctx);
	}
	/* A NUL byte inside brackets (the fuzzer's first find). */
	static const char nul[] = "module attributes {a = #x.y<a\0b>} {}";

	assert_null(ttc_parse(ctx, "t", nul, sizeof(nul) - 1, 0));
	assert_string_equal(first_error(ctx),
			    "t:1:30: error: unexpected NUL byte");
	ttc_ctx_clear_diags(ctx);
	/* And inside a string inside brackets (escaped or not): opaque
	 * text is a C string, so it must not be cut short there. */
	static const char nul_str[] = "module attributes {a = #x.y<\"a\0b\">} {}";
	static const char nul_esc[] = "module attributes {a = #x.y<\"a\\\0b\">} {}";

	assert_null(ttc_parse(ctx, "t", nul_str, sizeof(nul_str) - 1, 0));
	assert_string_equal(first_error(ctx),
			    "t:1:31: error: unexpected NUL byte");
	ttc_ctx_clear_diags(ctx);
	assert_null(ttc_parse(ctx, "t", nul_esc, sizeof(nul_esc) - 1, 0));
	assert_string_equal(first_error(ctx),
			    "t:1:32: error: unexpected NUL byte");
	ttc_ctx_clear_diags(ctx);
	srand(7);
	for (int k = 0; k < 2000; k++) {
		char buf[256];

		memcpy(buf, text, sizeof(buf));
		buf[rand() % sizeof(buf)] = (char)(rand() & 0xff);
		ttc_module_free(ttc_parse(ctx, "t", buf, sizeof(buf), 0));
		ttc_ctx_clear_diags(ctx);
	}
	ttc_ctx_free(ctx);
}

static int round_trip_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	static char text[1 << 20];
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;

	if (f)
		fclose(f);
	text[n] = 0;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	char *out = round_trip(ctx, text, TTC_PRINT_LOC, 0);

	free(out);
	ttc_ctx_free(ctx);
	return 1;
}

static int walk(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int count = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[4096];
		struct stat st;

		if (e->d_name[0] == '.' || !strncmp(e->d_name, "build", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			count += walk(path);
		else if (strlen(e->d_name) > 5 &&
			 !strcmp(e->d_name + strlen(e->d_name) - 5, ".mlir"))
			count += round_trip_file(path);
	}
	closedir(d);
	return count;
}

/* Every .mlir file of the tree parses, verifies and round-trips. */
static void test_round_trip_tree(void **state)
{
	(void)state;
	const char *src = getenv("TT_TEST_SRC");
	char root[4096];

	assert_non_null(src);
	snprintf(root, sizeof(root), "%s/..", src);
	assert_true(walk(root) >= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic_and_pretty),
		cmocka_unit_test(test_module_forms),
		cmocka_unit_test(test_func_forms),
		cmocka_unit_test(test_call),
		cmocka_unit_test(test_attributes),
		cmocka_unit_test(test_locations),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_multi_result_and_unregistered),
		cmocka_unit_test(test_dps_normalised),
		cmocka_unit_test(test_dps_only_one_extra_operand),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_verify_errors_are_located),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_round_trip_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
