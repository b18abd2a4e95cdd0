// SPDX-License-Identifier: Apache-2.0
/*
 * libttc's goldens: the metrics' rules (tt-mlir's PCC special cases),
 * .npy round trips, the device's rounding, the golden table against the
 * registry, and the interpreter's error paths with their messages. The
 * goldens' values are checked against NumPy by tests/golden/.
 */
#include <errno.h>
#include <math.h>
#include <unistd.h>

#include "ttc/golden.h"

#include "tmpdir.h"
#include "ttc_testutil.h"

static struct ttc_compare cmp(const double *g, const double *c, size_t n)
{
	struct ttc_compare_want w = ttc_compare_defaults();

	return ttc_compare_values(g, c, n, true, &w);
}

static void test_pcc_rules(void **state)
{
	(void)state;
	struct ttc_compare_want w = ttc_compare_defaults();
	double a[] = { 1, 2, 3, 4 }, b[] = { 2, 4, 6, 8.5 };

	/* Empty: 1 when the shapes agree, else 0; atol and rtol 0. */
	assert_true(ttc_compare_values(a, b, 0, true, &w).pcc == 1);
	assert_true(ttc_compare_values(a, b, 0, false, &w).pcc == 0);
	assert_true(ttc_compare_values(a, b, 0, true, &w).atol == 0);
	/* Correlated, not equal. */
	struct ttc_compare r = cmp(a, b, 4);

	assert_true(r.pcc > 0.99 && r.pcc < 1);
	assert_true(r.atol == 4.5 && r.max_abs == 4.5);
	assert_true(fabs(r.rtol - 4.5 / 8.5) < 1e-12); /* over calc */
	assert_true(r.max_rel == 4.5 / 4);	       /* over golden */
	assert_false(r.allclose);
	/* Anti-correlated. */
	double neg[] = { -1, -2, -3, -4 };

	assert_true(fabs(cmp(a, neg, 4).pcc + 1) < 1e-12);
	/* Both all-NaN: 1; one all-NaN: 0. */
	double nan4[] = { NAN, NAN, NAN, NAN };

	assert_true(cmp(nan4, nan4, 4).pcc == 1);
	assert_true(cmp(a, nan4, 4).pcc == 0);
	/* One all zeros, the other not: 0. */
	double z[] = { 0, 0, 0, 0 };

	assert_true(cmp(z, a, 4).pcc == 0);
	assert_true(cmp(z, z, 4).pcc == 1 && cmp(z, z, 4).allclose);
	/* Non-finite values count as 0; then exactly equal: 1. */
	double gi[] = { 1, INFINITY, 3, NAN }, ci[] = { 1, -INFINITY, 3, 0 };

	assert_true(cmp(gi, ci, 4).pcc == 1);
	/* Constants: isclose of the constants. */
	double k1[] = { 2, 2, 2 }, k2[] = { 2 + 1e-9, 2 + 1e-9, 2 + 1e-9 },
	       k3[] = { 3, 3, 3 };

	assert_true(cmp(k1, k2, 3).pcc == 1);
	assert_true(cmp(k1, k3, 3).pcc == 0);
	/* A constant against a varying tensor: no correlation. */
	assert_true(cmp(k1, a, 3).pcc == 0);
	/* One element: isclose. */
	double s1 = 5, s2 = 5 + 1e-6, s3 = 6;

	assert_true(cmp(&s1, &s2, 1).pcc == 1);
	assert_true(cmp(&s1, &s3, 1).pcc == 0);
	/* The same values: pass, allclose, no error. */
	r = cmp(a, a, 4);
	assert_true(r.pcc == 1 && r.pass && r.allclose && r.atol == 0);
	/* allclose treats NaN as equal to NaN and inf to the same inf. */
	double n1[] = { NAN, INFINITY }, n2[] = { NAN, INFINITY };

	assert_true(cmp(n1, n2, 2).allclose);
	/* pass follows the wanted PCC and, when asked, allclose. */
	w.pcc = 0.999999;
	assert_false(ttc_compare_values(a, b, 4, true, &w).pass);
	w.pcc = 0.9;
	assert_true(ttc_compare_values(a, b, 4, true, &w).pass);
	w.check_allclose = true;
	assert_false(ttc_compare_values(a, b, 4, true, &w).pass);
}

static const ttc_type *t_f32(ttc_ctx *ctx, unsigned rank, const int64_t *d)
{
	return ttc_tensor_type(ctx, d, rank, ttc_float_type(ctx, TTC_F32), NULL);
}

static void test_tensors_and_npy(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	int64_t d[8] = { 2, 3, 4, 1, 2, 1, 3, 2 };
	char dir[256], path[300];

	assert_non_null(test_mkdtemp(dir, sizeof(dir), "ttc-golden"));
	snprintf(path, sizeof(path), "%s/t.npy", dir);
	/* Every rank 0..8, f32, i1, si8, ui16, i64, bf16, f64. */
	const ttc_type *elems[] = {
		ttc_float_type(ctx, TTC_F32), ttc_int_type(ctx, 1, TTC_SIGNLESS),
		ttc_int_type(ctx, 8, TTC_SIGNED), ttc_int_type(ctx, 16, TTC_UNSIGNED),
		ttc_int_type(ctx, 64, TTC_SIGNLESS), ttc_float_type(ctx, TTC_BF16),
		ttc_float_type(ctx, TTC_F64),
	};
	for (unsigned r = 0; r <= 8; r++)
		for (size_t e = 0; e < sizeof(elems) / sizeof(elems[0]); e++) {
			const ttc_type *t = ttc_tensor_type(ctx, d, r, elems[e], NULL);
			ttc_tensor *x = ttc_tensor_random(ctx, t, 7 + r);

			assert_non_null(x);
			assert_int_equal(ttc_tensor_save_npy(ctx, x, path), 0);
			ttc_tensor *y = ttc_tensor_load_npy(ctx, path);

			assert_non_null(y);
			assert_int_equal(y->numel, x->numel);
			assert_int_equal(ttc_type_rank(y->type), r);
			for (size_t i = 0; i < x->numel; i++)
				assert_true(ttc_tensor_get(x, i) == ttc_tensor_get(y, i));
			ttc_tensor_free(x);
			ttc_tensor_free(y);
		}
	/* Setting rounds to the type: NaN and huge values into i32. */
	ttc_tensor *i = ttc_tensor_new(ctx, ttc_tensor_type(ctx, d, 1,
				ttc_int_type(ctx, 32, TTC_SIGNLESS), NULL));

	ttc_tensor_set(i, 0, NAN);
	ttc_tensor_set(i, 1, -2.7);
	assert_true(ttc_tensor_get(i, 0) == 0 && ttc_tensor_get(i, 1) == -2);
	ttc_tensor_free(i);
	/* A file that is not .npy, and one missing: errors name the file. */
	FILE *f = fopen(path, "w");

	fputs("junk", f);
	fclose(f);
	assert_null(ttc_tensor_load_npy(ctx, path));
	assert_non_null(strstr(ttc_ctx_error(ctx), "not a .npy file"));
	/* Fortran order is refused, by name. */
	static const char fortran[] =
		"\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', "
		"'fortran_order': True, 'shape': (1,), }   \n\0\0\0\0";

	f = fopen(path, "w");
	fwrite(fortran, 1, sizeof(fortran) - 1, f);
	fclose(f);
	ttc_ctx_clear_diags(ctx);
	assert_null(ttc_tensor_load_npy(ctx, path));
	assert_non_null(strstr(ttc_ctx_error(ctx), "Fortran order"));
	unlink(path);
	ttc_ctx_clear_diags(ctx);
	assert_null(ttc_tensor_load_npy(ctx, path));
	assert_non_null(strstr(ttc_ctx_error(ctx), path));
	rmdir(dir);
	ttc_ctx_free(ctx);
}

static void test_device_rounding(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	int64_t d[2] = { 32, 32 };
	ttc_tensor *x = ttc_tensor_new(ctx, t_f32(ctx, 2, d));

	for (size_t i = 0; i < x->numel; i++)
		ttc_tensor_set(x, i, 1.0 + (double)i / 4096);
	ttc_tensor *b = ttc_tensor_clone(x), *h = ttc_tensor_clone(x),
		   *p = ttc_tensor_clone(x), *q = ttc_tensor_clone(x);

	assert_int_equal(ttc_tensor_round(ctx, b, TT_FLOAT16_B), 0);
	assert_int_equal(ttc_tensor_round(ctx, h, TT_FLOAT16), 0);
	assert_int_equal(ttc_tensor_round(ctx, p, TT_BFP8_B), 0);
	assert_int_equal(ttc_tensor_round(ctx, q, TT_BFP4_B), 0);
	/* 1 + 1/4096: bf16 keeps 7 bits, fp16 10, bfp8 7 below the shared
	 * exponent, bfp4 3. */
	assert_true(ttc_tensor_get(b, 1) == 1.0);
	assert_true(ttc_tensor_get(h, 4) == 1.0 + 4.0 / 4096);
	assert_true(fabs(ttc_tensor_get(p, 100) - (1.0 + 100.0 / 4096)) <= 1.0 / 64);
	assert_true(fabs(ttc_tensor_get(q, 100) - (1.0 + 100.0 / 4096)) <= 1.0 / 4);
	assert_true(ttc_tensor_get(q, 100) != ttc_tensor_get(x, 100));
	/* Formats goldens do not round through. */
	assert_int_equal(ttc_tensor_round(ctx, b, TT_INT32), -ENOTSUP);
	assert_non_null(strstr(ttc_ctx_error(ctx), "Int32"));
	ttc_tensor_free(x);
	ttc_tensor_free(b);
	ttc_tensor_free(h);
	ttc_tensor_free(p);
	ttc_tensor_free(q);
	ttc_ctx_free(ctx);
}

/*
 * Every registered op has a golden, and the table is sorted. (The ops
 * registered before their goldens were written had a shrinking
 * golden_pending list here; it is empty now, and an op added without a
 * golden fails this test: docs/compiler.md.)
 */
static void test_every_op_has_a_golden(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();

	for (size_t i = 0; i < ttc_op_def_count(ctx); i++) {
		const char *n = ttc_op_def_at(ctx, i)->name;

		if (!ttc_golden_lookup(n))
			fail_msg("op %s has no golden (golden/table.c)", n);
	}
	for (size_t i = 1; i < ttc_golden_count(); i++)
		assert_true(strcmp(ttc_golden_name(i - 1), ttc_golden_name(i)) < 0);
	assert_null(ttc_golden_name(ttc_golden_count()));
	assert_null(ttc_golden_lookup("ttir.nope"));
	ttc_ctx_free(ctx);
}

/* The gemm's panels summed in double: k past TTC_GEMM_KC is exact on
 * small integers. */
static void test_gemm(void **state)
{
	(void)state;
	enum { M = 3, N = 5, K = 2 * TTC_GEMM_KC + 7 };
	static float a[M * K], b[K * N], c[M * N];

	for (size_t i = 0; i < M * K; i++)
		a[i] = (float)(i % 7) - 3;
	for (size_t i = 0; i < K * N; i++)
		b[i] = (float)(i % 5) - 2;
	ttc_golden_gemm(a, b, c, M, N, K);
	for (size_t i = 0; i < M; i++)
		for (size_t j = 0; j < N; j++) {
			double s = 0;

			for (size_t p = 0; p < K; p++)
				s += (double)a[i * K + p] * b[p * N + j];
			assert_true(c[i * N + j] == (float)s);
		}
	assert_non_null(ttc_golden_gemm_backend());
}

static const char *const TWO_ADD =
	"module {\nfunc.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> "
	"tensor<2x3xf32> {\n%0 = \"ttir.add\"(%a, %b) : (tensor<2x3xf32>, "
	"tensor<3xf32>) -> tensor<2x3xf32>\nreturn %0 : tensor<2x3xf32>\n}\n}\n";

static int count_visit(void *arg, const ttc_op *op, size_t r,
		       const ttc_tensor *t)
{
	(void)op, (void)r, (void)t;
	++*(int *)arg;
	return 0;
}

static void test_interpreter(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_str(ctx, TWO_ADD, 0);
	ttc_func *f = ttc_module_lookup(m, "f");
	int64_t d23[2] = { 2, 3 }, d3[1] = { 3 }, d32[2] = { 3, 2 };
	ttc_tensor *a = ttc_tensor_random(ctx, t_f32(ctx, 2, d23), 1);
	ttc_tensor *b = ttc_tensor_random(ctx, t_f32(ctx, 1, d3), 2);
	ttc_tensor *bad = ttc_tensor_random(ctx, t_f32(ctx, 2, d32), 3);
	ttc_tensor *args[2] = { a, b }, *res[1] = { NULL };
	int visits = 0;
	struct ttc_golden_opts o = { .fmt = TT_FLOAT32, .visit = count_visit,
				     .visit_arg = &visits };

	assert_int_equal(ttc_golden_run(f, args, 2, res, &o), 0);
	assert_int_equal(visits, 1);
	for (size_t i = 0; i < 6; i++)
		assert_true(ttc_tensor_get(res[0], i) ==
			    (float)(ttc_tensor_get(a, i) + ttc_tensor_get(b, i % 3)));
	ttc_tensor_free(res[0]);
	/* Wrong count, wrong shape, missing tensor: named. */
	assert_int_equal(ttc_golden_run(f, args, 1, res, NULL), -EINVAL);
	assert_non_null(strstr(ttc_ctx_error(ctx), "@f takes 2 arguments, 1 given"));
	ttc_ctx_clear_diags(ctx);
	args[1] = bad;
	assert_int_equal(ttc_golden_run(f, args, 2, res, NULL), -EINVAL);
	assert_string_equal(first_error(ctx), "error: argument #1 of @f must be "
					      "tensor<3xf32>, got tensor<3x2xf32>");
	ttc_ctx_clear_diags(ctx);
	args[1] = NULL;
	assert_int_equal(ttc_golden_run(f, args, 2, res, NULL), -EINVAL);
	assert_non_null(strstr(ttc_ctx_error(ctx), "got nothing"));
	ttc_ctx_clear_diags(ctx);
	/* Rounding to a format goldens do not know fails naming it. */
	args[1] = b;
	o.fmt = TT_INT8;
	assert_int_equal(ttc_golden_run(f, args, 2, res, &o), -ENOTSUP);
	assert_non_null(strstr(ttc_ctx_error(ctx), "Int8"));
	ttc_module_free(m);
	ttc_ctx_clear_diags(ctx);
	/* An op without a golden (opaque), located. */
	m = parse_str(ctx, "func.func @g(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
			   "%0 = \"foo.bar\"(%a) : (tensor<2xf32>) -> "
			   "tensor<2xf32>\nreturn %0 : tensor<2xf32>\n}\n",
		      TTC_PARSE_ALLOW_UNREGISTERED);
	f = ttc_module_lookup(m, "g");
	ttc_tensor *x = ttc_tensor_random(ctx, t_f32(ctx, 1, d23), 4);

	assert_int_equal(ttc_golden_run(f, &x, 1, res, NULL), -ENOTSUP);
	assert_string_equal(first_error(ctx),
			    "t.mlir:2:1: error: 'foo.bar' op has no golden");
	ttc_tensor_free(x);
	ttc_module_free(m);
	ttc_tensor_free(a);
	ttc_tensor_free(b);
	ttc_tensor_free(bad);
	ttc_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcc_rules),
		cmocka_unit_test(test_tensors_and_npy),
		cmocka_unit_test(test_device_rounding),
		cmocka_unit_test(test_every_op_has_a_golden),
		cmocka_unit_test(test_gemm),
		cmocka_unit_test(test_interpreter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
