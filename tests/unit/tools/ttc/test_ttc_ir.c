// SPDX-License-Identifier: Apache-2.0
/* The graph IR's API: interning, building, use lists, rewriting, the
 * verifier's SSA rules, the registry, NULL arguments. */
#include <errno.h>

#include "ttc_testutil.h"

static const ttc_type *t2x3(ttc_ctx *ctx)
{
	int64_t d[] = { 2, 3 };

	return ttc_tensor_type(ctx, d, 2, ttc_float_type(ctx, TTC_F32), NULL);
}

static void test_interning(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new();
	int64_t d[] = { 2, 3 };
	const ttc_type *f32 = ttc_float_type(ctx, TTC_F32);

	assert_ptr_equal(t2x3(ctx), ttc_tensor_type(ctx, d, 2, f32, NULL));
	assert_ptr_not_equal(t2x3(ctx), ttc_tensor_type(ctx, d, 1, f32, NULL));
	assert_ptr_equal(ttc_int_type(ctx, 32, TTC_SIGNED),
			 ttc_int_type(ctx, 32, TTC_SIGNED));
	assert_ptr_not_equal(ttc_int_type(ctx, 32, TTC_SIGNED),
			     ttc_int_type(ctx, 32, TTC_UNSIGNED));
	assert_ptr_equal(ttc_int_attr(ctx, 5, NULL), ttc_int_attr(ctx, 5, NULL));
	assert_ptr_equal(ttc_string_attr(ctx, "ab", 2),
			 ttc_string_attr(ctx, "abc", 2));
	struct ttc_named_attr e1[] = { { "b", ttc_bool_attr(ctx, true) },
				       { "a", ttc_unit_attr(ctx) } };
	struct ttc_named_attr e2[] = { e1[1], e1[0] };

	assert_ptr_equal(ttc_dict_attr(ctx, e1, 2), ttc_dict_attr(ctx, e2, 2));
	assert_string_equal(ttc_attr_dict_at(ttc_dict_attr(ctx, e1, 2), 0)->name,
			    "a");
	float v[] = { 1, 2, 3, 4, 5, 6 };
	const ttc_attr *dn = ttc_dense_attr(ctx, t2x3(ctx), v, sizeof(v),
					    false, false);

	assert_ptr_equal(dn, ttc_dense_attr(ctx, t2x3(ctx), v, sizeof(v),
					    false, false));
	assert_true(ttc_attr_dense_get(dn, 5) == 6.0);
	assert_null(ttc_dense_attr(ctx, t2x3(ctx), v, 8, false, false));
	assert_string_equal(first_error(ctx), "error: dense elements: 8 bytes "
					      "given, 24 expected for the type");
	/* Values are rounded to their type; integers wrap to their width. */
	const ttc_type *bf16 = ttc_float_type(ctx, TTC_BF16);

	assert_true(ttc_attr_float(ttc_float_attr(ctx, 1.00390625, bf16)) == 1.0);
	assert_int_equal(ttc_attr_int(ttc_int_attr(ctx, 300,
				      ttc_int_type(ctx, 8, TTC_SIGNLESS))), 44);
	assert_int_equal(ttc_attr_int(ttc_int_attr(ctx, 255,
				      ttc_int_type(ctx, 8, TTC_SIGNED))), -1);
	/* Locations are interned too. */
	assert_ptr_equal(ttc_loc_file(ctx, "f", 1, 2), ttc_loc_file(ctx, "f", 1, 2));
	ttc_ctx_free(ctx);
}

static void test_type_limits(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new();
	int64_t d[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	const ttc_type *f32 = ttc_float_type(ctx, TTC_F32);

	assert_non_null(ttc_tensor_type(ctx, d, 8, f32, NULL));
	assert_non_null(ttc_tensor_type(ctx, d, 0, f32, NULL));
	assert_null(ttc_tensor_type(ctx, d, 9, f32, NULL));
	assert_string_equal(first_error(ctx), "error: tensor rank 9 is above "
					      "the limit of 8");
	d[0] = -1;
	assert_null(ttc_tensor_type(ctx, d, 1, f32, NULL));
	assert_null(ttc_int_type(ctx, 65, TTC_SIGNLESS));
	char buf[64];

	d[0] = 4;
	ttc_type_format(ttc_tensor_type(ctx, d, 2,
					ttc_int_type(ctx, 8, TTC_UNSIGNED),
					ttc_opaque_attr(ctx, "#l")),
			buf, sizeof(buf));
	assert_string_equal(buf, "tensor<4x1xui8, #l>");
	assert_int_equal(ttc_type_format(f32, buf, 2), 3);
	assert_string_equal(buf, "f");
	ttc_ctx_free(ctx);
}

/* Builds f(a, b) = neg(add(a, b)) through the API. */
static ttc_func *build(ttc_ctx *ctx, ttc_module *m, ttc_op **add,
		       ttc_op **neg)
{
	const ttc_type *t = t2x3(ctx), *ts[] = { t, t };
	ttc_func *f = ttc_func_new(m, "f", ts, 2, ts, 1);
	ttc_value *ab[] = { ttc_func_arg(f, 0), ttc_func_arg(f, 1) };

	*add = ttc_op_create(m, "ttir.add", ab, 2, &t, 1, NULL, NULL, NULL);
	ttc_value *s = ttc_op_result(*add, 0);

	*neg = ttc_op_create(m, "ttir.neg", &s, 1, &t, 1, NULL, NULL, NULL);
	ttc_value *r = ttc_op_result(*neg, 0);
	ttc_op *ret = ttc_op_create(m, "func.return", &r, 1, NULL, 0, NULL,
				    NULL, NULL);

	assert_int_equal(ttc_func_append(f, *add), 0);
	assert_int_equal(ttc_func_append(f, *neg), 0);
	assert_int_equal(ttc_func_append(f, ret), 0);
	return f;
}

static void test_build_and_uses(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = ttc_module_new(ctx, "m");
	ttc_op *add, *neg;
	ttc_func *f = build(ctx, m, &add, &neg);

	assert_int_equal(ttc_module_verify(m), 0);
	assert_ptr_equal(ttc_op_get_def(add), ttc_lookup_op(ctx, "ttir.add"));
	assert_int_equal(ttc_value_num_uses(ttc_func_arg(f, 0)), 1);
	ttc_use *u = ttc_value_first_use(ttc_op_result(add, 0));

	assert_ptr_equal(ttc_use_op(u), neg);
	assert_int_equal(ttc_use_index(u), 0);
	assert_null(ttc_use_next(u));
	assert_ptr_equal(ttc_value_def(ttc_op_operand(neg, 0)), add);
	assert_ptr_equal(ttc_value_func_arg_owner(ttc_func_arg(f, 1)), f);
	assert_int_equal(ttc_func_num_ops(f), 3);
	char *out = ttc_print(m, 0, NULL);

	assert_string_equal(out,
		"module @m {\n  func.func @f(%arg0: tensor<2x3xf32>, %arg1: "
		"tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
		"    %0 = \"ttir.add\"(%arg0, %arg1) : (tensor<2x3xf32>, "
		"tensor<2x3xf32>) -> tensor<2x3xf32>\n"
		"    %1 = \"ttir.neg\"(%0) : (tensor<2x3xf32>) -> "
		"tensor<2x3xf32>\n    return %1 : tensor<2x3xf32>\n  }\n}\n");
	free(out);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

static void test_rewrite(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = ttc_module_new(ctx, NULL);
	ttc_op *add, *neg;
	ttc_func *f = build(ctx, m, &add, &neg);

	/* An op still used cannot go. */
	assert_int_equal(ttc_op_erase(add), -EBUSY);
	/* Replace neg(add) by a clone of add with swapped operands. */
	ttc_value *ba[] = { ttc_func_arg(f, 1), ttc_func_arg(f, 0) };
	ttc_op *c = ttc_op_clone(add, ba, 2);

	assert_int_equal(ttc_op_insert_after(neg, c), 0);
	assert_int_equal(ttc_value_replace_all_uses(ttc_op_result(neg, 0),
						    ttc_op_result(c, 0)), 0);
	assert_int_equal(ttc_op_erase(neg), 0);
	assert_int_equal(ttc_op_erase(add), 0);
	assert_int_equal(ttc_func_num_ops(f), 2);
	assert_int_equal(ttc_value_num_uses(ttc_func_arg(f, 0)), 1);
	assert_int_equal(ttc_module_verify(m), 0);
	/* Moving the clone after the return breaks dominance and the
	 * terminator rule; the verifier names both. */
	ttc_op *ret = ttc_func_last_op(f);

	ttc_op_detach(ret);
	assert_int_equal(ttc_op_insert_before(c, ret), 0);
	assert_int_equal(ttc_module_verify(m), 3);
	assert_string_equal(first_error(ctx),
			    "error: 'func.return' op operand #0 does not dominate "
			    "this use (it is defined later, or in another "
			    "function)");
	ttc_ctx_clear_diags(ctx);
	/* Type-changing replacement is refused. */
	ttc_value *x = ttc_func_arg(f, 0);
	const ttc_type *i32 = ttc_int_type(ctx, 32, TTC_SIGNLESS);
	ttc_func *g = ttc_func_new(m, "g", &i32, 1, NULL, 0);

	assert_int_equal(ttc_value_replace_all_uses(x, ttc_func_arg(g, 0)),
			 -EINVAL);
	assert_int_equal(ttc_op_remove_operand(c, 0), 0);
	assert_int_equal(ttc_op_num_operands(c), 1);
	assert_ptr_equal(ttc_op_operand(c, 0), x);
	assert_int_equal(ttc_value_num_uses(ttc_func_arg(f, 1)), 0);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

/* Erasing an unused argument moves the later ones down with their uses,
 * attributes and locations; a used one stays. */
static void test_erase_arg(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = ttc_module_new(ctx, NULL);
	int64_t two = 2;
	const ttc_type *f32 = ttc_tensor_type(ctx, &two, 1,
					      ttc_float_type(ctx, TTC_F32), NULL);
	const ttc_type *i32 = ttc_tensor_type(
		ctx, &two, 1, ttc_int_type(ctx, 32, TTC_SIGNLESS), NULL);
	const ttc_type *ts[] = { f32, i32, f32 };
	ttc_func *f = ttc_func_new(m, "f", ts, 3, &f32, 1);
	ttc_value *ops[] = { ttc_func_arg(f, 2), ttc_func_arg(f, 0) };
	ttc_op *add = ttc_op_create(m, "ttir.add", ops, 2, &f32, 1, NULL,
				    NULL, NULL);
	ttc_value *r = ttc_op_result(add, 0);
	ttc_op *ret = ttc_op_create(m, "func.return", &r, 1, NULL, 0, NULL,
				    NULL, NULL);

	ttc_func_append(f, add);
	ttc_func_append(f, ret);
	ttc_func_set_arg_loc(f, 2, ttc_loc_name(ctx, "w", NULL));
	assert_int_equal(ttc_func_erase_arg(f, 0), -EINVAL); /* used */
	assert_int_equal(ttc_func_erase_arg(f, 3), -EINVAL);
	assert_int_equal(ttc_func_erase_arg(NULL, 0), -EINVAL);
	assert_int_equal(ttc_func_erase_arg(f, 1), 0);
	assert_int_equal(ttc_func_num_args(f), 2);
	assert_ptr_equal(ttc_value_type(ttc_func_arg(f, 1)), f32);
	assert_ptr_equal(ttc_op_operand(add, 0), ttc_func_arg(f, 1));
	assert_ptr_equal(ttc_op_operand(add, 1), ttc_func_arg(f, 0));
	assert_int_equal(ttc_value_num_uses(ttc_func_arg(f, 1)), 1);
	assert_string_equal(ttc_loc_str(ttc_func_arg_loc(f, 1)), "w");
	assert_int_equal(ttc_module_verify(m), 0);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

static void test_verifier_functions(void **state)
{
	(void)state;
	expect_error(FN("tensor<2x3xf32>", "return\n"),
		     "t.mlir:3:1: error: 'func.return' op has 0 operands, but "
		     "the function @f returns 1");
	expect_error(FN("tensor<2x3xf32>", "%0 = \"ttir.reshape\"(%a) "
		     "<{shape = [3 : i32, 2 : i32]}> : (tensor<2x3xf32>) -> "
		     "tensor<3x2xf32>\nreturn %0 : tensor<3x2xf32>\n"),
		     "t.mlir:4:1: error: 'func.return' op operand #0 has type "
		     "tensor<3x2xf32>, but the function @f returns "
		     "tensor<2x3xf32>");
	expect_error(FN("tensor<2x3xf32>", ""),
		     "t.mlir:2:1: error: function @f must end with func.return");
	expect_error(FN("tensor<2x3xf32>", "return %a : tensor<2x3xf32>\n"
					   "return %a : tensor<2x3xf32>\n"),
		     "t.mlir:3:1: error: 'func.return' op must be the last op "
		     "of the function @f");
	expect_error("module {\nfunc.func @f() {\nreturn\n}\n"
		     "func.func @f() {\nreturn\n}\n}\n",
		     "t.mlir:5:1: error: redefinition of function @f");
	expect_error(FN("tensor<2x3xf32>", "%0 = call @nope(%a) : "
		     "(tensor<2x3xf32>) -> tensor<2x3xf32>\n"
		     "return %0 : tensor<2x3xf32>\n"),
		     "t.mlir:3:1: error: 'func.call' op calls @nope, which is "
		     "not a function of the module");
	expect_error("module {\nfunc.func private @g(tensor<2xf32>) -> "
		     "tensor<2xf32>\n"
		     "func.func @f(%a: tensor<2xi32>) -> tensor<2xf32> {\n"
		     "%0 = call @g(%a) : (tensor<2xi32>) -> tensor<2xf32>\n"
		     "return %0 : tensor<2xf32>\n}\n}\n",
		     "t.mlir:4:1: error: 'func.call' op operand #0 has type "
		     "tensor<2xi32>, but @g declares tensor<2xf32>");
}

static void test_registry(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new();

	/* A bare context knows func.return and func.call only. */
	assert_int_equal(ttc_op_def_count(ctx), 2);
	assert_int_equal(ttc_register_ttir_ops(ctx), 0);
	assert_int_equal(ttc_register_ttir_ops(ctx), 0); /* idempotent */
	size_t n = ttc_op_def_count(ctx);

	assert_true(n > 80);
	for (size_t i = 1; i < n; i++)
		assert_true(strcmp(ttc_op_def_at(ctx, i - 1)->name,
				   ttc_op_def_at(ctx, i)->name) < 0);
	assert_int_equal(ttc_register_op(ctx, ttc_lookup_op(ctx, "ttir.add")),
			 -EEXIST);
	assert_string_equal(first_error(ctx), "error: op 'ttir.add' is "
					      "registered twice");
	ttc_ctx_clear_diags(ctx);
	/* Defaults come from the spec. */
	const struct ttc_op_def *mm = ttc_lookup_op(ctx, "ttir.matmul");
	const ttc_attr *d = ttc_attr_spec_default(ctx, &mm->attrs[0]);

	assert_int_equal(ttc_attr_kind(d), TTC_ATTR_BOOL);
	assert_false(ttc_attr_bool(d));
	/* The builder's entry: inference from types and attributes. */
	int64_t a[] = { 4, 8 }, b[] = { 8, 16 };
	const ttc_type *f32 = ttc_float_type(ctx, TTC_F32);
	const ttc_type *in[] = { ttc_tensor_type(ctx, a, 2, f32, NULL),
				 ttc_tensor_type(ctx, b, 2, f32, NULL) }, *out;
	char buf[64];

	assert_int_equal(ttc_op_infer(ctx, mm, in, 2, NULL, &out), 0);
	ttc_type_format(out, buf, sizeof(buf));
	assert_string_equal(buf, "tensor<4x16xf32>");
	assert_int_equal(ttc_op_infer(ctx, mm, in + 1, 1, NULL, &out), -EINVAL);
	assert_string_equal(first_error(ctx), "error: 'ttir.matmul' op is "
					      "missing operand #1 (b)");
	ttc_ctx_free(ctx);
}

static void test_null_args(void **state)
{
	(void)state;
	assert_null(ttc_parse(NULL, "x", "", 0, 0));
	assert_null(ttc_print(NULL, 0, NULL));
	assert_null(ttc_module_new(NULL, NULL));
	assert_null(ttc_op_create(NULL, "x", NULL, 0, NULL, 0, NULL, NULL, NULL));
	assert_int_equal(ttc_op_erase(NULL), -EINVAL);
	assert_int_equal(ttc_value_replace_all_uses(NULL, NULL), -EINVAL);
	assert_int_equal(ttc_register_op(NULL, NULL), -EINVAL);
	assert_int_equal(ttc_register_ttir_ops(NULL), -EINVAL);
	assert_null(ttc_lookup_op(NULL, "ttir.add"));
	assert_int_equal(ttc_ctx_diag_count(NULL), 0);
	assert_string_equal(ttc_ctx_error(NULL), "");
	ttc_module_free(NULL);
	ttc_ctx_free(NULL);
	ttc_ctx *ctx = ttc_ctx_new();

	assert_null(ttc_parse_file(ctx, "/nonexistent/x.mlir", 0));
	assert_string_equal(first_error(ctx), "error: /nonexistent/x.mlir: No "
					      "such file or directory");
	ttc_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interning),
		cmocka_unit_test(test_type_limits),
		cmocka_unit_test(test_build_and_uses),
		cmocka_unit_test(test_rewrite),
		cmocka_unit_test(test_erase_arg),
		cmocka_unit_test(test_verifier_functions),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_null_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
