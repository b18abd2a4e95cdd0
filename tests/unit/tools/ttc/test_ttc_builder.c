// SPDX-License-Identifier: Apache-2.0
/*
 * The builder (ttc/builder.h): what it prints, its failures (NULL and a
 * diagnostic naming the op, never an abort), host data and the golden
 * hook; and example-ttir_builder, whose output must parse back.
 */
#include <errno.h>
#include <sys/wait.h>

#include "ttc_testutil.h"
#include "ttc/builder.h"
#include "ttc/golden.h"
#include "tmpdir.h"

static ttc_ctx *ctx;
static ttc_builder *b;

static int setup(void **state)
{
	(void)state;
	ctx = ttc_ctx_new();
	b = ttc_builder_new(ctx, NULL);
	return b ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	ttc_builder_free(b);
	ttc_ctx_free(ctx);
	return 0;
}

static void expect_text(const char *want)
{
	char *got = ttc_print(ttc_builder_module(b), 0, NULL);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static const ttc_type *t2(int r, int c)
{
	return ttc_builder_tensor(b, TTC_F32, 2, r, c);
}

static void test_matmul_chain(void **state)
{
	(void)state;
	const ttc_type *t[] = { t2(4, 8), t2(8, 16), t2(1, 16) };
	ttc_value *in[3];

	assert_non_null(ttc_builder_func(b, "mlp", t, 3, in));
	ttc_value *y = ttc_relu(b, ttc_add(b, ttc_matmul(b, in[0], in[1]),
					   in[2]));
	int64_t shape[] = { 64 };
	ttc_value *z = ttc_reshape(b, y, shape, 1);

	assert_non_null(z);
	assert_int_equal(ttc_builder_return(b, &z, 1), 0);
	assert_int_equal(ttc_module_verify(ttc_builder_module(b)), 0);
	expect_text(
		"module {\n"
		"  func.func @mlp(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>, "
		"%arg2: tensor<1x16xf32>) -> tensor<64xf32> {\n"
		"    %0 = \"ttir.matmul\"(%arg0, %arg1) : (tensor<4x8xf32>, "
		"tensor<8x16xf32>) -> tensor<4x16xf32>\n"
		"    %1 = \"ttir.add\"(%0, %arg2) : (tensor<4x16xf32>, "
		"tensor<1x16xf32>) -> tensor<4x16xf32>\n"
		"    %2 = \"ttir.relu\"(%1) : (tensor<4x16xf32>) -> "
		"tensor<4x16xf32>\n"
		"    %3 = \"ttir.reshape\"(%2) <{shape = [64 : i32]}> : "
		"(tensor<4x16xf32>) -> tensor<64xf32>\n"
		"    return %3 : tensor<64xf32>\n"
		"  }\n"
		"}\n");
}

/* A shape error: NULL, the verifier's message, and the NULL carried. */
static void test_errors(void **state)
{
	(void)state;
	const ttc_type *t[] = { t2(4, 8), t2(4, 8) };
	ttc_value *in[2];

	ttc_builder_func(b, "f", t, 2, in);
	assert_null(ttc_matmul(b, in[0], in[1]));
	assert_string_equal(first_error(ctx),
			    "error: 'ttir.matmul' op operand #0 (a) "
			    "tensor<4x8xf32> contracts over 8 elements but "
			    "operand #1 (b) tensor<4x8xf32> over 4");
	ttc_ctx_clear_diags(ctx);
	assert_null(ttc_exp(b, NULL));
	assert_string_equal(first_error(ctx),
			    "error: 'ttir.exp' op: operand #0 is NULL (an op "
			    "before failed)");
	ttc_ctx_clear_diags(ctx);
	assert_null(ttc_build(b, "ttir.nope", in, 1, NULL));
	assert_string_equal(first_error(ctx), "error: 'ttir.nope': no such op");
	ttc_ctx_clear_diags(ctx);
	/* attributes that do not fix the type, and no type given */
	assert_null(ttc_arange(b, NULL, 0, 4, 1, 0));
	assert_string_equal(first_error(ctx),
			    "error: 'ttir.arange' op: these operands and "
			    "attributes do not fix the result types; give them");
	ttc_ctx_clear_diags(ctx);
	/* an element type the op does not leave free */
	ttc_builder_output_elem(b, ttc_float_type(ctx, TTC_BF16));
	assert_null(ttc_transpose(b, in[0], 0, 1));
	assert_string_equal(first_error(ctx),
			    "error: 'ttir.transpose' op result #0 has type "
			    "tensor<8x4xbf16>, but the operands and attributes "
			    "give tensor<8x4xf32>");
	ttc_ctx_clear_diags(ctx);
	ttc_value *none = NULL;

	assert_int_equal(ttc_builder_return(b, &none, 1), -EINVAL);
	assert_string_equal(first_error(ctx), "error: builder: output #0 is "
					      "NULL (an op before failed)");
	/* nothing failed was left in the function */
	assert_int_equal(ttc_func_num_ops(ttc_module_lookup(
				 ttc_builder_module(b), "f")), 0);
	assert_null(ttc_builder_func(b, "f", t, 2, in));
}

static void test_ops_and_options(void **state)
{
	(void)state;
	const ttc_type *x = ttc_builder_tensor(b, TTC_F32, 4, 1, 8, 8, 3);
	const ttc_type *w = ttc_builder_tensor(b, TTC_F32, 4, 4, 3, 3, 3);
	ttc_value *in[2];
	struct ttc_conv2d_params cp = { .stride = { 2, 2 },
					.padding = { 1, 1, 1, 1 } };
	struct ttc_pool2d_params pp = { .kernel = { 2, 2 },
					.stride = { 2, 2 } };

	ttc_builder_func(b, "net", (const ttc_type *[]){ x, w }, 2, in);
	ttc_value *c = ttc_conv2d(b, in[0], in[1], NULL, &cp);
	ttc_value *p = ttc_max_pool2d(b, c, &pp);
	static const int dims[] = { 1, 2 };

	ttc_builder_loc(b, "mean");
	ttc_builder_unit_attr(b, "ttir.should_hoist");
	ttc_value *m = ttc_mean(b, p, dims, 2, false);
	ttc_value *s = ttc_softmax(b, m, -1);
	ttc_value *n = ttc_layer_norm(b, s, NULL, NULL, 1, 1e-5f);
	ttc_value *r = ttc_arange(b, ttc_builder_tensor(b, TTC_F32, 2, 1, 4),
				  0, 4, 1, 1);
	ttc_value *out = ttc_multiply(b, n, r);

	assert_non_null(out);
	assert_int_equal(ttc_builder_return(b, &out, 1), 0);
	assert_string_equal(ttc_op_name(ttc_builder_last_op(b)),
			    "ttir.multiply");
	assert_int_equal(ttc_module_verify(ttc_builder_module(b)), 0);
	char *text = ttc_print(ttc_builder_module(b), TTC_PRINT_LOC, NULL);

	assert_non_null(strstr(text, "\"ttir.conv2d\"(%arg0, %arg1) <{dilation "
				     "= array<i32: 1, 1>, groups = 1 : i32, "
				     "padding = array<i32: 1, 1, 1, 1>, stride = "
				     "array<i32: 2, 2>}> : (tensor<1x8x8x3xf32>, "
				     "tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>"));
	assert_non_null(strstr(text, "\"ttir.mean\"(%1) <{dim_arg = [1 : i32, "
				     "2 : i32], keep_dim = false}> "
				     "{ttir.should_hoist} : (tensor<1x2x2x4xf32>)"
				     " -> tensor<1x4xf32> loc(\"mean\")"));
	assert_non_null(strstr(text, "operandSegmentSizes = array<i32: 1, 0, "
				     "0>"));
	free(text);
	/* the options were for one op only */
	ttc_ctx_clear_diags(ctx);
}

static void test_functions(void **state)
{
	(void)state;
	const ttc_type *t = t2(2, 2);
	ttc_value *a, *h, *y;

	assert_int_equal(ttc_builder_device_module(b), 0);
	ttc_builder_func(b, "main", &t, 1, &a);
	ttc_builder_func(b, "helper", &t, 1, &h);
	y = ttc_neg(b, h);
	ttc_builder_return(b, &y, 1);
	assert_int_equal(ttc_builder_call(b, "helper", &a, 1, &y), 0);
	assert_int_equal(ttc_builder_call(b, "missing", &a, 1, &y), -EINVAL);
	assert_int_equal(ttc_builder_end_module(b), -EINVAL); /* main open */
	ttc_builder_return(b, &y, 1);
	assert_int_equal(ttc_builder_end_module(b), 0);
	assert_int_equal(ttc_builder_end_module(b), -EINVAL);
	ttc_ctx_clear_diags(ctx);
	assert_int_equal(ttc_module_verify(ttc_builder_module(b)), 0);
	ttc_module *dev = ttc_module_item_module(ttc_builder_module(b), 0);
	ttc_module *inner = ttc_module_item_module(dev, 0);

	assert_string_equal(ttc_module_op_name(dev), "ttcore.device_module");
	assert_int_equal(ttc_func_visibility(ttc_module_lookup(inner, "helper")),
			 TTC_VIS_PRIVATE);
	assert_int_equal(ttc_builder_return(b, &y, 1), -EINVAL);
	ttc_module *m = ttc_builder_take_module(b);

	assert_null(ttc_builder_module(b));
	ttc_module_free(m);
}

/* The golden hook: called with each op whose operands have data; what it
 * stores is the result's data. */
static int calls;

static int add_golden(void *user, ttc_builder *bb, const ttc_op *op)
{
	size_t n;
	const float *x = ttc_builder_data(bb, ttc_op_operand(op, 0), &n);
	const float *y = ttc_builder_data(bb, ttc_op_operand(op, 1), NULL);
	float out[4];

	(void)user;
	calls++;
	if (strcmp(ttc_op_name(op), "ttir.add"))
		return -EINVAL;
	for (size_t i = 0; i < n / sizeof(float); i++)
		out[i] = x[i] + y[i];
	return ttc_builder_set_data(bb, ttc_op_result(op, 0), out, n);
}

static void test_data_and_golden(void **state)
{
	(void)state;
	const ttc_type *t[] = { t2(2, 2), t2(2, 2) };
	ttc_value *in[2];
	const float one[4] = { 1, 2, 3, 4 };
	size_t n;

	ttc_builder_func(b, "f", t, 2, in);
	assert_int_equal(ttc_builder_set_data(b, in[0], one, 12), -EINVAL);
	assert_int_equal(ttc_builder_set_data(b, in[0], one, 16), 0);
	assert_int_equal(ttc_builder_set_random(b, in[1], 7), 0);
	const float *r = ttc_builder_data(b, in[1], &n);

	assert_int_equal(n, 16);
	for (int i = 0; i < 4; i++)
		assert_true(r[i] >= -1 && r[i] < 1);
	float first = r[0];

	/* the same seed gives the same values */
	assert_int_equal(ttc_builder_set_random(b, in[1], 7), 0);
	assert_true(((const float *)ttc_builder_data(b, in[1], NULL))[0] ==
		    first);
	ttc_builder_set_golden(b, add_golden, NULL);
	ttc_value *s = ttc_add(b, in[0], in[1]);
	const float *g = ttc_builder_data(b, s, NULL);

	assert_int_equal(calls, 1);
	assert_non_null(g);
	assert_true(g[0] == 1 + first);
	/* a failing golden fails the op, and leaves nothing behind */
	assert_null(ttc_multiply(b, in[0], in[1]));
	assert_int_equal(calls, 2);
	assert_int_equal(ttc_func_num_ops(ttc_module_lookup(
				 ttc_builder_module(b), "f")), 1);
	/* no data on an operand: no call */
	ttc_value *e = ttc_exp(b, ttc_builder_func(b, "g", t, 1, in) ? in[0] :
								      NULL);

	assert_non_null(e);
	assert_int_equal(calls, 2);
	assert_null(ttc_builder_data(b, e, &n));
	assert_int_equal(n, 0);
	assert_int_equal(ttc_builder_set_npy(b, in[0], "/nonexistent.npy"),
			 -ENOENT);
}

/* The library's goldens compute every op as it is built, through
 * calls, and name the results by location in the golden map. */
static void test_library_goldens(void **state)
{
	(void)state;
	const ttc_type *t[] = { t2(2, 2), t2(2, 2) };
	ttc_value *in[2], *out[1];
	const float x[4] = { 1, -2, 3, -4 }, y[4] = { 0.5f, 0.25f, 2, 8 };

	assert_int_equal(ttc_builder_use_goldens(b, TT_INT32), -EINVAL);
	assert_non_null(strstr(ttc_ctx_error(ctx), "data format"));
	assert_int_equal(ttc_builder_use_goldens(b, TT_FLOAT32), 0);
	/* a callee first: relu(a) * b */
	ttc_builder_func(b, "inner", t, 2, in);
	ttc_value *m = ttc_multiply(b, ttc_relu(b, in[0]), in[1]);

	ttc_builder_return(b, &m, 1);
	ttc_builder_func(b, "main", t, 2, in);
	ttc_builder_set_data(b, in[0], x, sizeof(x));
	ttc_builder_set_data(b, in[1], y, sizeof(y));
	ttc_builder_loc(b, "sum");
	ttc_value *s = ttc_add(b, in[0], in[1]);
	ttc_value *n1 = ttc_neg(b, s);
	ttc_builder_loc(b, "sum");
	ttc_value *s2 = ttc_add(b, n1, in[1]);

	assert_int_equal(ttc_builder_call(b, "inner", in, 2, out), 0);
	assert_non_null(s2);
	const float *g = ttc_builder_data(b, s, NULL);

	assert_true(g[0] == 1.5f && g[1] == -1.75f && g[3] == 4);
	g = ttc_builder_data(b, s2, NULL);
	assert_true(g[0] == -1.0f && g[1] == 2 && g[3] == 4);
	g = ttc_builder_data(b, out[0], NULL);
	assert_non_null(g);
	assert_true(g[0] == 0.5f && g[1] == 0 && g[2] == 6 && g[3] == 0);
	/* the map: sum, ttir.neg_1, sum#2, the call (inner's ops had no
	 * data: not in it) */
	struct ttc_golden_entry e;

	assert_int_equal(ttc_builder_golden_count(b), 4);
	assert_int_equal(ttc_builder_golden_entry(b, 0, &e), 0);
	assert_string_equal(e.name, "sum");
	assert_ptr_equal(e.value, s);
	assert_int_equal(ttc_builder_golden_entry(b, 1, &e), 0);
	assert_string_equal(e.name, "ttir.neg_1");
	assert_int_equal(ttc_builder_golden_entry(b, 2, &e), 0);
	assert_string_equal(e.name, "sum#2");
	assert_int_equal(e.nbytes, 16);
	assert_int_equal(ttc_builder_golden_entry(b, 3, &e), 0);
	assert_string_equal(e.op ? ttc_op_name(e.op) : "", "func.call");
	assert_int_equal(ttc_builder_golden_entry(b, 4, &e), -EINVAL);
	assert_ptr_equal(ttc_builder_golden_find(b, "sum#2"), s2);
	assert_null(ttc_builder_golden_find(b, "nothing"));
	/* written out: one .npy per entry and the index */
	char dir[512], path[600];

	assert_non_null(test_mkdtemp(dir, sizeof(dir), "goldens"));
	strcat(dir, "/out");
	assert_int_equal(ttc_builder_write_goldens(b, dir), 0);
	snprintf(path, sizeof(path), "%s/2-sum_2.npy", dir);
	ttc_tensor *back = ttc_tensor_load_npy(ctx, path);

	assert_non_null(back);
	assert_true(ttc_tensor_get(back, 2) == -3);
	ttc_tensor_free(back);
	snprintf(path, sizeof(path), "%s/goldens.json", dir);
	FILE *f = fopen(path, "r");
	char text[2048];

	assert_non_null(f);
	text[fread(text, 1, sizeof(text) - 1, f)] = 0;
	fclose(f);
	assert_non_null(strstr(text, "{\"name\": \"sum#2\", \"file\": "
				     "\"2-sum_2.npy\", \"op\": \"ttir.add\", "
				     "\"result\": 0, \"shape\": [2, 2]}"));
	/* a directory that cannot be made names itself */
	assert_int_equal(ttc_builder_write_goldens(b, "/proc/no/such"),
			 -ENOENT);
	assert_non_null(strstr(ttc_ctx_error(ctx), "/proc/no/such"));
}

/* bf16 goldens "as the device rounds": 1 + 2^-9 is not a bf16. */
static void test_library_goldens_rounded(void **state)
{
	(void)state;
	const ttc_type *t[] = { t2(1, 2), t2(1, 2) };
	ttc_value *in[2];
	const float x[2] = { 1, 3 }, y[2] = { 0.001953125f, 0.5f };

	assert_int_equal(ttc_builder_use_goldens(b, TT_FLOAT16_B), 0);
	ttc_builder_func(b, "f", t, 2, in);
	ttc_builder_set_data(b, in[0], x, sizeof(x));
	ttc_builder_set_data(b, in[1], y, sizeof(y));
	const float *g = ttc_builder_data(b, ttc_add(b, in[0], in[1]), NULL);

	assert_non_null(g);
	assert_true(g[0] == 1.0f && g[1] == 3.5f);
}

/* example-ttir_builder prints modules that parse back, verify and print
 * the same. */
static void test_example(void **state)
{
	(void)state;
	char cmd[1024];
	static char out[1 << 16];
	const char *root = getenv("TT_BUILD_ROOT");

	snprintf(cmd, sizeof(cmd), "%s/tools/examples/example-ttir_builder "
				   "2>/dev/null", root ? root : "build");
	FILE *p = popen(cmd, "r");

	assert_non_null(p);
	size_t n = fread(out, 1, sizeof(out) - 1, p);

	out[n] = 0;
	assert_int_equal(WEXITSTATUS(pclose(p)), 0);
	/* ten sections, each a module that reads back */
	ttc_ctx *c = ttc_ctx_new_ttir();
	int modules = 0;

	for (char *s = out; s; modules++) {
		char *next = strstr(s, "// -----\n");

		if (next)
			*next = 0;
		ttc_module *m = parse_str(c, s, 0);

		if (!m || ttc_module_verify(m))
			fail_msg("section %d: %s", modules, ttc_ctx_error(c));
		ttc_module_free(m);
		s = next ? next + 9 : NULL;
	}
	assert_int_equal(modules, 10);
	ttc_ctx_free(c);
}

/* A limit on the goldens: a result over it is left without data (and
 * so is what depends on it); one at the limit is computed. */
static void test_golden_limit(void **state)
{
	(void)state;
	const ttc_type *t[] = { t2(2, 2) };
	const float x[4] = { 1, -2, 3, -4 };
	ttc_value *in[1];

	assert_int_equal(ttc_builder_use_goldens(b, TT_FLOAT32), 0);
	ttc_builder_golden_limit(b, 16); /* one 2x2 f32 tensor */
	ttc_builder_func(b, "main", t, 1, in);
	ttc_builder_set_data(b, in[0], x, sizeof(x));
	ttc_value *r = ttc_relu(b, in[0]);
	ttc_value *c = ttc_concat(b, (ttc_value *[]){ r, r }, 2, 0);
	ttc_value *n = ttc_neg(b, c);

	assert_non_null(ttc_builder_data(b, r, NULL));
	assert_non_null(c);
	assert_null(ttc_builder_data(b, c, NULL));
	assert_null(ttc_builder_data(b, n, NULL));
	ttc_builder_golden_limit(b, 0);
	assert_non_null(ttc_builder_data(b, ttc_neg(b, r), NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_matmul_chain, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ops_and_options, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_functions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_data_and_golden, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_library_goldens, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_golden_limit, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_library_goldens_rounded,
						setup, teardown),
		cmocka_unit_test(test_example),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
