// SPDX-License-Identifier: Apache-2.0
/*
 * libttc's pass manager (the registry, unknown names, --print-after,
 * --time-passes, verification between passes, failing passes) and the
 * passes canonicalize, dce, cse, fuse and formats on small IR. decompose
 * and consteval: test_ttc_passes_eval.c.
 */
#include <stdio.h>

#include "ttc_passes_util.h"

#define T23 "tensor<2x3xf32>"
#define A23 "%a: tensor<2x3xf32>, %b: tensor<2x3xf32>"

/* ---- the manager ---- */

static void test_registry(void **state)
{
	(void)state;
	const char *want[] = { "decompose", "canonicalize", "consteval", "cse",
			       "dce", "fuse", "formats" };

	assert_int_equal(ttc_pass_count(), 7);
	for (size_t i = 0; i < 7; i++) {
		assert_string_equal(ttc_pass_at(i)->name, want[i]);
		assert_non_null(ttc_pass_at(i)->summary);
		assert_ptr_equal(ttc_pass_lookup(want[i]), ttc_pass_at(i));
	}
	assert_null(ttc_pass_at(7));
	/* The default pipeline names the first seven, in order. */
	size_t n = 0;
	const char *const *def = ttc_pass_default_pipeline(&n);

	assert_int_equal(n, 7);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(def[i], ttc_pass_at(i)->name);
	assert_ptr_equal(ttc_pass_default_pipeline(NULL), def);
	assert_null(ttc_pass_lookup("nope"));
	assert_null(ttc_pass_lookup(NULL));

	struct ttc_pass_options o = ttc_pass_options_default();

	assert_true(o.enable_consteval && o.enable_auto_fusing);
	assert_int_equal(o.consteval_limit, 64u << 20);
	assert_int_equal(o.acc_df, TT_FLOAT16_B);
	assert_int_equal(o.fidelity, TT_HIFI3);
	assert_int_equal(o.default_df, TT_INVALID);
	assert_int_equal(o.amp_level, 0);

	enum tt_math_fidelity f;

	assert_string_equal(ttc_fidelity_name(TT_HIFI2), "HiFi2");
	assert_null(ttc_fidelity_name((enum tt_math_fidelity)1));
	assert_int_equal(ttc_fidelity_parse("lofi", &f), 0);
	assert_int_equal(f, TT_LOFI);
	assert_int_equal(ttc_fidelity_parse("HiFi5", &f), -EINVAL);
}

static const char *const add0 = MOD(
	A23, T23,
	"%z = \"ttir.zeros\"() <{shape = array<i32: 2, 3>}> : () -> " T23 "\n"
	"%0 = \"ttir.add\"(%a, %z) : (" T23 ", " T23 ") -> " T23 "\n"
	"return %0 : " T23 "\n");

static void test_unknown_pass(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_ok(ctx, add0);
	const char *names[] = { "canonicalize", "nope" };

	assert_int_equal(ttc_run_passes(m, names, 2, NULL, NULL), -ENOENT);
	assert_string_equal(first_error(ctx),
			    "error: unknown pass 'nope'; known passes: "
			    "decompose "
			    "canonicalize consteval cse dce fuse formats");
	/* Nothing ran. */
	assert_int_equal(count_ops(m, "ttir.add"), 1);
	assert_int_equal(ttc_run_passes(NULL, NULL, 0, NULL, NULL), -EINVAL);
	assert_int_equal(ttc_run_passes(m, names, TTC_PASS_MAX_PIPELINE + 1,
					NULL, NULL),
			 -E2BIG);
	assert_int_equal(ttc_run_passes(m, NULL, 2, NULL, NULL), -EINVAL);
	/* A NULL name is unknown, not a crash. */
	const char *null_name[] = { NULL };

	ttc_ctx_clear_diags(ctx);
	assert_int_equal(ttc_run_passes(m, null_name, 1, NULL, NULL), -ENOENT);
	assert_non_null(strstr(first_error(ctx), "unknown pass '(null)'"));
	/* So is a print_after that names no pass. */
	struct ttc_pass_options o = ttc_pass_options_default();

	ttc_ctx_clear_diags(ctx);
	o.print_after = "canonicalise";
	assert_int_equal(ttc_run_passes(m, NULL, 0, &o, NULL), -ENOENT);
	assert_non_null(strstr(first_error(ctx),
			       "unknown pass 'canonicalise'; known passes:"));
	assert_int_equal(count_ops(m, "ttir.add"), 1);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

static char *run_captured(const char *text, const char *const *names,
			  size_t n, struct ttc_pass_options *o,
			  struct ttc_pass_stats *st)
{
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_ok(ctx, text);
	char *buf = NULL;
	size_t len = 0;

	o->out = open_memstream(&buf, &len);
	assert_non_null(o->out);
	if (ttc_run_passes(m, names, n, o, st))
		fail_msg("%s", ttc_ctx_error(ctx));
	fclose(o->out);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
	return buf;
}

static void test_print_after(void **state)
{
	(void)state;
	struct ttc_pass_options o = ttc_pass_options_default();
	char *s;

	o.print_after = "canonicalize";
	s = run_captured(add0, NULL, 0, &o, NULL);
	assert_non_null(strstr(s, "// -----// IR Dump After canonicalize"));
	/* The IR after canonicalize: the add and its zeros are gone. */
	assert_non_null(strstr(s, "//----- //\nmodule {\n"));
	assert_non_null(strstr(s, "func.func @f"));
	assert_null(strstr(s, "ttir.zeros"));
	assert_null(strstr(s, "ttir.add"));
	assert_null(strstr(s, "After dce"));
	free(s);

	o.print_after = "all";
	s = run_captured(add0, NULL, 0, &o, NULL);
	for (size_t i = 0; i < ttc_pass_count(); i++) {
		char want[64];

		snprintf(want, sizeof(want), "IR Dump After %s //",
			 ttc_pass_at(i)->name);
		assert_non_null(strstr(s, want));
	}
	/* The add is there before canonicalize, not after. */
	assert_non_null(strstr(s, "ttir.add"));
	assert_null(strstr(strstr(s, "After canonicalize"), "ttir.add"));
	free(s);

	o.print_after = NULL;
	s = run_captured(add0, NULL, 0, &o, NULL);
	assert_string_equal(s, "");
	free(s);
}

static void test_time_passes(void **state)
{
	(void)state;
	struct ttc_pass_options o = ttc_pass_options_default();
	struct ttc_pass_stats st;
	const char *names[] = { "dce", "cse", "dce" };
	double sum = 0;
	char *s;

	o.time_passes = true;
	s = run_captured(add0, names, 3, &o, &st);
	assert_int_equal(st.npasses, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_string_equal(st.times[i].name, names[i]);
		assert_true(st.times[i].ms >= 0);
		sum += st.times[i].ms;
	}
	assert_true(fabs(sum - st.total_ms) < 1e-9);
	assert_non_null(strstr(s, "pass"));
	assert_non_null(strstr(s, "ms"));
	assert_non_null(strstr(s, "%\n"));
	assert_non_null(strstr(s, "\ndce "));
	assert_non_null(strstr(s, "\ncse "));
	assert_non_null(strstr(s, "\ntotal "));
	assert_non_null(strstr(s, "100.0"));
	free(s);
}

/* A pass that breaks SSA: moves the first op to the end. */
static int break_ir(ttc_func *f, struct ttc_pass_ctx *pc)
{
	ttc_op *op = ttc_func_first_op(f);

	(void)pc;
	ttc_op_detach(op);
	return ttc_op_insert_before(ttc_func_last_op(f), op);
}

static int fail_io(ttc_func *f, struct ttc_pass_ctx *pc)
{
	(void)f, (void)pc;
	return -EIO;
}

static const struct ttc_pass breaker = { "break", "breaks the IR", break_ir,
					 NULL };
static const struct ttc_pass failer = { "fail", "fails", fail_io, NULL };

static void test_verify_each(void **state)
{
	(void)state;
	const struct ttc_pass *extra[] = { &breaker, &failer };
	struct ttc_pass_options o = ttc_pass_options_default();
	const char *names[] = { "break", "dce" };
	struct ttc_pass_stats st;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_ok(ctx, add0);

	o.extra_passes = extra;
	o.nextra_passes = 2;
	o.verify_each = true;
	assert_int_equal(ttc_run_passes(m, names, 2, &o, &st), -EINVAL);
	assert_non_null(strstr(ttc_ctx_error(ctx),
			       "pass 'break' left IR that does not verify"));
	assert_int_equal(st.npasses, 1); /* dce did not run */
	ttc_module_free(m);

	/* Without verification the broken IR goes through unnoticed. */
	ttc_ctx_clear_diags(ctx);
	m = parse_ok(ctx, add0);
	o.verify_each = false;
	assert_int_equal(ttc_run_passes(m, names, 1, &o, NULL), 0);
	assert_true(ttc_module_verify(m) > 0);
	ttc_module_free(m);

	/* Broken input: named as such before any pass. */
	ttc_ctx_clear_diags(ctx);
	m = parse_ok(ctx, add0);
	assert_int_equal(ttc_run_passes(m, names, 1, &o, NULL), 0);
	o.verify_each = true;
	assert_int_equal(ttc_run_passes(m, names + 1, 1, &o, NULL), -EINVAL);
	assert_non_null(strstr(ttc_ctx_error(ctx), "the input of the pipeline "
						   "does not verify"));
	ttc_module_free(m);

	/* A failing pass stops the run, named. */
	ttc_ctx_clear_diags(ctx);
	m = parse_ok(ctx, add0);
	const char *f2[] = { "fail", "dce" };

	assert_int_equal(ttc_run_passes(m, f2, 2, &o, &st), -EIO);
	assert_non_null(strstr(ttc_ctx_error(ctx), "pass 'fail' failed"));
	assert_int_equal(st.npasses, 1);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

/* Every function with a body, nested modules too; declarations skipped. */
static void test_nested(void **state)
{
	(void)state;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_ok(
		ctx, "module {\n"
		     "func.func private @decl(" T23 ") -> " T23 "\n"
		     "module @inner {\n"
		     "func.func @g(%a: " T23 ") -> " T23 " {\n"
		     "%0 = \"ttir.reshape\"(%a) <{shape = [2 : i32, 3 : i32]}>"
		     " : (" T23 ") -> " T23 "\n"
		     "return %0 : " T23 "\n}\n}\n}\n");
	struct ttc_pass_stats st;

	assert_int_equal(run_pass(m, "canonicalize", NULL, &st), 0);
	assert_int_equal(st.canonicalized, 1);
	char *s = ttc_print(m, 0, NULL);

	assert_null(strstr(s, "ttir.reshape"));
	free(s);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

/* ---- canonicalize ---- */

static void canon(const char *text, size_t want_ops, size_t folds)
{
	struct ttc_pass_stats st;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_ok(ctx, text);

	assert_int_equal(run_pass(m, "canonicalize", NULL, &st), 0);
	if (ttc_func_num_ops(ttc_module_lookup(m, "f")) != want_ops ||
	    st.canonicalized != folds) {
		char *s = ttc_print(m, 0, NULL);

		fail_msg("%zu folds, want %zu ops:\n%s", st.canonicalized,
			 want_ops, s);
	}
	ttc_module_free(m);
	ttc_ctx_free(ctx);
	/* And the goldens agree. */
	check_equiv(text, "canonicalize", NULL, true, NULL, NULL);
}

#define BIN(op, l, r) "\"ttir." op "\"(" l ", " r ") : (" T23 ", " T23 ") -> " T23

#define CONSTS \
	"%z = \"ttir.zeros\"() <{shape = array<i32: 2, 3>}> : () -> " T23 \
	"\n%o = \"ttir.ones\"() <{shape = array<i32: 2, 3>}> : () -> " T23 \
	"\n%c = \"ttir.constant\"() <{value = dense<0.0> : " T23 "}> : " \
	"() -> " T23 "\n%k = \"ttir.full\"() <{shape = array<i32: 2, 3>, " \
	"fill_value = 1.0 : f32}> : () -> " T23 "\n"

static void test_canonicalize_arith(void **state)
{
	(void)state;
	/* x + 0, 0 + x, x - 0, x * 1, 1 * x, x / 1: all folded (the
	 * constants unused by then are erased too). */
	canon(MOD(A23, T23, CONSTS
		  "%0 = " BIN("add", "%a", "%z") "\n"
		  "%1 = " BIN("add", "%c", "%0") "\n"
		  "%2 = " BIN("subtract", "%1", "%z") "\n"
		  "%3 = " BIN("multiply", "%2", "%o") "\n"
		  "%4 = " BIN("multiply", "%k", "%3") "\n"
		  "%5 = " BIN("div", "%4", "%k") "\n"
		  "return %5 : " T23 "\n"),
	      1, 6);
	/* Not identities: 0 - x, x * 0, x + 1, x / 0, 1 / x. */
	canon(MOD(A23, T23, CONSTS
		  "%0 = " BIN("subtract", "%z", "%a") "\n"
		  "%1 = " BIN("multiply", "%0", "%z") "\n"
		  "%2 = " BIN("add", "%1", "%o") "\n"
		  "%3 = " BIN("div", "%2", "%c") "\n"
		  "%4 = " BIN("div", "%o", "%3") "\n"
		  "return %4 : " T23 "\n"),
	      10, 0);
	/* A zero that broadcasts x to a bigger shape is no identity. */
	canon(MOD("%a: tensor<3xf32>", T23,
		  "%z = \"ttir.zeros\"() <{shape = array<i32: 2, 3>}> : () -> "
		  T23 "\n%0 = \"ttir.add\"(%a, %z) : (tensor<3xf32>, " T23
		  ") -> " T23 "\nreturn %0 : " T23 "\n"),
	      3, 0);
}

static void test_canonicalize_shapes(void **state)
{
	(void)state;
	/* Reshape to the same shape, typecast to the same type, transpose
	 * of a dimension with itself, identity permutation. */
	canon(MOD(A23, T23,
		  "%0 = \"ttir.reshape\"(%a) <{shape = [2 : i32, 3 : i32]}> : "
		  "(" T23 ") -> " T23 "\n"
		  "%1 = \"ttir.typecast\"(%0) : (" T23 ") -> " T23 "\n"
		  "%2 = \"ttir.transpose\"(%1) <{dim0 = 1 : si32, dim1 = -1 : "
		  "si32}> : (" T23 ") -> " T23 "\n"
		  "%3 = \"ttir.permute\"(%2) <{permutation = array<i64: 0, 1>}>"
		  " : (" T23 ") -> " T23 "\n"
		  "return %3 : " T23 "\n"),
	      1, 4);
	/* Double transpose (either order of the pair) and a reshape chain
	 * back to the input's shape. */
	canon(MOD(A23, T23,
		  "%0 = \"ttir.transpose\"(%a) <{dim0 = 0 : si32, dim1 = 1 : "
		  "si32}> : (" T23 ") -> tensor<3x2xf32>\n"
		  "%1 = \"ttir.transpose\"(%0) <{dim0 = 1 : si32, dim1 = 0 : "
		  "si32}> : (tensor<3x2xf32>) -> " T23 "\n"
		  "%2 = \"ttir.reshape\"(%1) <{shape = [6 : i32]}> : (" T23
		  ") -> tensor<6xf32>\n"
		  "%3 = \"ttir.reshape\"(%2) <{shape = [3 : i32, 2 : i32]}> : "
		  "(tensor<6xf32>) -> tensor<3x2xf32>\n"
		  "%4 = \"ttir.reshape\"(%3) <{shape = [2 : i32, 3 : i32]}> : "
		  "(tensor<3x2xf32>) -> " T23 "\n"
		  "return %4 : " T23 "\n"),
	      1, 3);
	/* A reshape of a reshape reads the first one's input. */
	canon(MOD(A23, "tensor<3x2xf32>",
		  "%0 = \"ttir.reshape\"(%a) <{shape = [6 : i32]}> : (" T23
		  ") -> tensor<6xf32>\n"
		  "%1 = \"ttir.reshape\"(%0) <{shape = [3 : i32, 2 : i32]}> : "
		  "(tensor<6xf32>) -> tensor<3x2xf32>\n"
		  "return %1 : tensor<3x2xf32>\n"),
	      2, 1);
	/* Two transposes of different pairs stay; permutations compose. */
	canon(MOD("%a: tensor<2x3x4xf32>", "tensor<4x3x2xf32>",
		  "%0 = \"ttir.transpose\"(%a) <{dim0 = 0 : si32, dim1 = 1 : "
		  "si32}> : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>\n"
		  "%1 = \"ttir.transpose\"(%0) <{dim0 = 0 : si32, dim1 = 2 : "
		  "si32}> : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>\n"
		  "%2 = \"ttir.permute\"(%1) <{permutation = array<i64: 0, 2, "
		  "1>}> : (tensor<4x2x3xf32>) -> tensor<4x3x2xf32>\n"
		  "%3 = \"ttir.permute\"(%2) <{permutation = array<i64: 1, 0, "
		  "2>}> : (tensor<4x3x2xf32>) -> tensor<3x4x2xf32>\n"
		  "%4 = \"ttir.permute\"(%3) <{permutation = array<i64: 1, 0, "
		  "2>}> : (tensor<3x4x2xf32>) -> tensor<4x3x2xf32>\n"
		  "return %4 : tensor<4x3x2xf32>\n"),
	      4, 2);
	/* Transposes of different pairs that keep the type stay. */
	canon(MOD("%a: tensor<2x2x2xf32>", "tensor<2x2x2xf32>",
		  "%0 = \"ttir.transpose\"(%a) <{dim0 = 0 : si32, dim1 = 1 : "
		  "si32}> : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>\n"
		  "%1 = \"ttir.transpose\"(%0) <{dim0 = 1 : si32, dim1 = 2 : "
		  "si32}> : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>\n"
		  "return %1 : tensor<2x2x2xf32>\n"),
	      3, 0);
	/* One permutation of another, returned: the composition. */
	canon(MOD("%a: tensor<2x3x4xf32>", "tensor<4x2x3xf32>",
		  "%0 = \"ttir.permute\"(%a) <{permutation = array<i64: 0, 2, "
		  "1>}> : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>\n"
		  "%1 = \"ttir.permute\"(%0) <{permutation = array<i64: 1, 0, "
		  "2>}> : (tensor<2x4x3xf32>) -> tensor<4x2x3xf32>\n"
		  "return %1 : tensor<4x2x3xf32>\n"),
	      2, 1);
	/* A typecast that converts stays. */
	canon(MOD(A23, "tensor<2x3xbf16>",
		  "%0 = \"ttir.typecast\"(%a) : (" T23 ") -> tensor<2x3xbf16>\n"
		  "return %0 : tensor<2x3xbf16>\n"),
	      2, 0);
}

/* ---- dce ---- */

static void test_dce(void **state)
{
	(void)state;
	struct ttc_pass_stats st;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_ok(
		ctx, MOD(A23, T23,
			 "%0 = " BIN("add", "%a", "%b") "\n"
			 "%1 = \"ttir.exp\"(%0) : (" T23 ") -> " T23 "\n"
			 "%2 = \"ttir.relu\"(%1) : (" T23 ") -> " T23 "\n"
			 "%3 = \"test.effect\"(%a) : (" T23 ") -> " T23 "\n"
			 "%4 = \"ttir.empty\"() : () -> " T23 "\n"
			 "%5 = " BIN("multiply", "%a", "%b") "\n"
			 "return %5 : " T23 "\n"));

	assert_int_equal(run_pass(m, "dce", NULL, &st), 0);
	/* The dead chain went in one sweep; the opaque op (it may have
	 * effects) and the empty tensor stayed. */
	assert_int_equal(st.erased, 3);
	assert_int_equal(count_ops(m, "ttir.add"), 0);
	assert_int_equal(count_ops(m, "ttir.exp"), 0);
	assert_int_equal(count_ops(m, "test.effect"), 1);
	assert_int_equal(count_ops(m, "ttir.empty"), 1);
	assert_int_equal(count_ops(m, "ttir.multiply"), 1);
	assert_int_equal(count_ops(m, "func.return"), 1);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

/* ---- cse ---- */

static void test_cse(void **state)
{
	(void)state;
	struct ttc_pass_stats st;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	const char *text = MOD(
		A23, T23,
		"%0 = " BIN("add", "%a", "%b") "\n"
		"%1 = " BIN("add", "%a", "%b") " loc(\"other\")\n"
		"%2 = " BIN("add", "%b", "%a") "\n"
		"%3 = " BIN("multiply", "%0", "%1") "\n"
		"%4 = " BIN("multiply", "%3", "%2") "\n"
		"%5 = \"ttir.leaky_relu\"(%4) <{parameter = 0.5 : f32}> : (" T23
		") -> " T23 "\n"
		"%6 = \"ttir.leaky_relu\"(%4) <{parameter = 0.25 : f32}> : ("
		T23 ") -> " T23 "\n"
		"%7 = \"ttir.leaky_relu\"(%4) <{parameter = 0.5 : f32}> : (" T23
		") -> " T23 "\n"
		"%8 = \"ttir.typecast\"(%a) : (" T23 ") -> tensor<2x3xbf16>\n"
		"%9 = \"ttir.typecast\"(%a) : (" T23 ") -> tensor<2x3xf16>\n"
		"%10 = \"test.rand\"(%a) : (" T23 ") -> " T23 "\n"
		"%11 = \"test.rand\"(%a) : (" T23 ") -> " T23 "\n"
		"%12 = " BIN("add", "%5", "%6") "\n"
		"%13 = " BIN("add", "%12", "%7") "\n"
		"%14 = " BIN("add", "%13", "%10") "\n"
		"%15 = " BIN("add", "%14", "%11") "\n"
		"%16 = \"ttir.typecast\"(%8) : (tensor<2x3xbf16>) -> " T23 "\n"
		"%17 = \"ttir.typecast\"(%9) : (tensor<2x3xf16>) -> " T23 "\n"
		"%18 = " BIN("add", "%15", "%16") "\n"
		"%19 = " BIN("add", "%18", "%17") "\n"
		"return %19 : " T23 "\n");
	ttc_module *m = parse_ok(ctx, text);

	assert_int_equal(run_pass(m, "cse", NULL, &st), 0);
	/* %1 (another location only) and %7 merge; operand order, another
	 * attribute, another result type, opaque ops: not. */
	assert_int_equal(st.merged, 2);
	assert_int_equal(count_ops(m, "ttir.leaky_relu"), 2);
	assert_int_equal(count_ops(m, "test.rand"), 2);
	assert_int_equal(count_ops(m, "ttir.typecast"), 4);
	/* multiply(%0, %0) now. */
	ttc_op *mul = find_op(m, "ttir.multiply");

	assert_ptr_equal(ttc_op_operand(mul, 0), ttc_op_operand(mul, 1));
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

/* ---- fuse ---- */

static void test_fuse(void **state)
{
	(void)state;
	struct ttc_pass_stats st;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	const char *text = MOD(
		"%a: tensor<2x3xf32>, %b: tensor<3x2xf32>",
		"(tensor<2x2xf32>, " T23 ", " T23 ", " T23 ")",
		"%0 = \"ttir.matmul\"(%a, %b) : (" T23 ", tensor<3x2xf32>) -> "
		"tensor<2x2xf32>\n"
		"%1 = \"ttir.relu\"(%0) : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
		"%2 = \"ttir.exp\"(%a) : (" T23 ") -> " T23 "\n"
		"%3 = \"ttir.leaky_relu\"(%2) <{parameter = 0.5 : f32}> : (" T23
		") -> " T23 "\n"
		"%4 = \"ttir.sigmoid\"(%3) : (" T23 ") -> " T23 "\n"
		"%5 = " BIN("add", "%a", "%a") "\n"
		"%6 = \"ttir.clamp_scalar\"(%5) <{min = -1.0 : f32, max = 2.0 : "
		"f32}> : (" T23 ") -> " T23 "\n"
		"%7 = " BIN("subtract", "%a", "%a") "\n"
		"%8 = \"ttir.tanh\"(%7) : (" T23 ") -> " T23 "\n"
		"%9 = \"ttir.exp\"(%7) : (" T23 ") -> " T23 "\n"
		"%10 = " BIN("add", "%8", "%9") "\n"
		"return %1, %4, %6, %10 : tensor<2x2xf32>, " T23 ", " T23 ", "
		T23 "\n");
	ttc_module *m = parse_ok(ctx, text);

	assert_int_equal(run_pass(m, "fuse", NULL, &st), 0);
	/* matmul+relu, exp+leaky_relu, add+clip; the sigmoid stays (exp has
	 * its one activation), tanh and exp stay (subtract's result has two
	 * uses, both unary). */
	assert_int_equal(st.fused, 3);
	assert_string_equal(str_attr(find_op(m, "ttir.matmul"),
				     "ttc.activation"),
			    "relu");
	assert_int_equal(count_ops(m, "ttir.relu"), 0);
	ttc_op *e = find_op(m, "ttir.exp");

	assert_string_equal(str_attr(e, "ttc.activation"), "leaky_relu");
	assert_true(ttc_attr_float(ttc_op_attr(e, "ttc.activation_p0")) == 0.5);
	assert_null(ttc_op_attr(e, "ttc.activation_p1"));
	assert_int_equal(count_ops(m, "ttir.sigmoid"), 1);
	ttc_op *ad = find_op(m, "ttir.add");

	assert_string_equal(str_attr(ad, "ttc.activation"), "clip");
	assert_true(ttc_attr_float(ttc_op_attr(ad, "ttc.activation_p0")) == -1);
	assert_true(ttc_attr_float(ttc_op_attr(ad, "ttc.activation_p1")) == 2);
	assert_int_equal(count_ops(m, "ttir.tanh"), 1);
	assert_null(ttc_op_attr(find_op(m, "ttir.subtract"), "ttc.activation"));
	ttc_module_free(m);

	/* Disabled: nothing fused. */
	m = parse_ok(ctx, text);
	struct ttc_pass_options o = ttc_pass_options_default();

	o.enable_auto_fusing = false;
	assert_int_equal(run_pass(m, "fuse", &o, &st), 0);
	assert_int_equal(st.fused, 0);
	assert_int_equal(count_ops(m, "ttir.relu"), 1);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

/* ---- formats ---- */

static const char *const fmt_text = MOD(
	"%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %i: tensor<2x3xi32>",
	"(tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x3xi32>)",
	"%0 = \"ttir.matmul\"(%a, %b) : (" T23 ", tensor<3x2xf32>) -> "
	"tensor<2x2xf32> loc(\"layer.0.attention.query\")\n"
	"%1 = \"ttir.softmax\"(%0) <{dimension = 1 : si32}> : "
	"(tensor<2x2xf32>) -> tensor<2x2xf32> loc(\"sm\")\n"
	"%2 = \"ttir.add\"(%1, %1) : (tensor<2x2xf32>, tensor<2x2xf32>) -> "
	"tensor<2x2xf32> loc(\"layer.1.out\")\n"
	"%3 = \"ttir.add\"(%i, %i) : (tensor<2x3xi32>, tensor<2x3xi32>) -> "
	"tensor<2x3xi32>\n"
	"%4 = \"ttir.typecast\"(%2) : (tensor<2x2xf32>) -> tensor<2x2xbf16>\n"
	"%5 = \"ttir.typecast\"(%4) : (tensor<2x2xbf16>) -> tensor<2x2xf32>\n"
	"return %2, %5, %3 : tensor<2x2xf32>, tensor<2x2xf32>, "
	"tensor<2x3xi32>\n");

struct fmt_want {
	const char *op; /* the n-th op of that name */
	int nth;
	const char *df, *acc, *fid, *wdf;
};

static ttc_op *nth_op(ttc_module *m, const char *name, int n)
{
	ttc_func *f = ttc_module_lookup(m, "f");

	for (ttc_op *op = ttc_func_first_op(f); op; op = ttc_op_next(op))
		if (!strcmp(ttc_op_name(op), name) && n-- == 0)
			return op;
	return NULL;
}

static void formats(struct ttc_pass_options *o, const struct fmt_want *w,
		    size_t n)
{
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_ok(ctx, fmt_text);
	struct ttc_pass_stats st;

	if (run_pass(m, "formats", o, &st))
		fail_msg("%s", ttc_ctx_error(ctx));
	assert_int_equal(st.annotated, 6);
	for (size_t i = 0; i < n; i++) {
		ttc_op *op = nth_op(m, w[i].op, w[i].nth);

		assert_non_null(op);
		assert_string_equal(str_attr(op, "ttc.df"), w[i].df);
		assert_string_equal(str_attr(op, "ttc.acc_df"), w[i].acc);
		assert_string_equal(str_attr(op, "ttc.fidelity"), w[i].fid);
		assert_string_equal(str_attr(op, "ttc.weight_df"), w[i].wdf);
	}
	assert_null(ttc_op_attr(ttc_func_last_op(ttc_module_lookup(m, "f")),
				"ttc.df"));
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

static void test_formats_defaults(void **state)
{
	(void)state;
	struct ttc_pass_options o = ttc_pass_options_default();
	/* The element types decide the format; the defaults the rest. */
	const struct fmt_want d[] = {
		{ "ttir.matmul", 0, "Float32", "Float16_b", "HiFi3", "" },
		{ "ttir.add", 1, "Int32", "Float16_b", "HiFi3", "" },
		{ "ttir.typecast", 0, "Float16_b", "Float16_b", "HiFi3", "" },
	};

	formats(&o, d, 3);
	/* default_df_override, accumulate_df, math_fidelity; integers keep
	 * theirs. */
	o.default_df = TT_BFP8_B;
	o.acc_df = TT_FLOAT32;
	o.fidelity = TT_HIFI4;
	const struct fmt_want g[] = {
		{ "ttir.matmul", 0, "Bfp8_b", "Float32", "HiFi4", "" },
		{ "ttir.softmax", 0, "Bfp8_b", "Float32", "HiFi4", "" },
		{ "ttir.add", 1, "Int32", "Float32", "HiFi4", "" },
		{ "ttir.typecast", 0, "Bfp8_b", "Float32", "HiFi4", "" },
	};

	formats(&o, g, 4);
}

static void test_formats_amp(void **state)
{
	(void)state;
	struct ttc_pass_options o = ttc_pass_options_default();

	o.amp_level = 1;
	const struct fmt_want a1[] = {
		{ "ttir.matmul", 0, "Float32", "Float16_b", "HiFi2", "Bfp8_b" },
		{ "ttir.add", 0, "Float32", "Float16_b", "HiFi3", "" },
	};

	formats(&o, a1, 2);
	o.amp_level = 2;
	const struct fmt_want a2[] = {
		{ "ttir.matmul", 0, "Float32", "Float16_b", "LoFi", "Bfp4_b" },
		{ "ttir.softmax", 0, "Float32", "Float16_b", "HiFi3", "" },
	};

	formats(&o, a2, 2);
	o.amp_level = 3;
	const struct fmt_want a3[] = {
		{ "ttir.matmul", 0, "Bfp8_b", "Float16_b", "HiFi2", "" },
		{ "ttir.softmax", 0, "Float16_b", "Float16_b", "HiFi3", "" },
		{ "ttir.add", 0, "Bfp8_b", "Float16_b", "HiFi3", "" },
		{ "ttir.add", 1, "Int32", "Float16_b", "HiFi3", "" },
	};

	formats(&o, a3, 4);
}

static void test_formats_overrides(void **state)
{
	(void)state;
	struct ttc_pass_options o = ttc_pass_options_default();
	const struct ttc_mp_override ov[] = {
		/* By op type (PyBuda's short name), then by regex: later
		 * wins. */
		{ NULL, NULL, "matmul", TT_BFP8_B, TT_FLOAT16_B, TT_HIFI2 },
		{ NULL, "layer\\.[0-9]+\\.(attention|out)", NULL, TT_BFP4_B,
		  TT_INVALID, TTC_FIDELITY_UNSET },
		/* By name, exactly (not a prefix). */
		{ "sm", NULL, NULL, TT_INVALID, TT_FLOAT32, TT_LOFI },
		{ "s", NULL, NULL, TT_BFP2_B, TT_FLOAT32, TT_LOFI },
		/* All selectors must match. */
		{ "sm", NULL, "ttir.add", TT_BFP2_B, TT_INVALID,
		  TTC_FIDELITY_UNSET },
		/* Integers keep their format. */
		{ NULL, NULL, "ttir.add", TT_INVALID, TT_INVALID, TT_HIFI4 },
		{ NULL, NULL, NULL, TT_BFP2_B, TT_INVALID, TTC_FIDELITY_UNSET },
	};
	const struct fmt_want w[] = {
		{ "ttir.matmul", 0, "Bfp4_b", "Float16_b", "HiFi2", "Bfp8_b" },
		{ "ttir.softmax", 0, "Float32", "Float32", "LoFi", "" },
		{ "ttir.add", 0, "Bfp4_b", "Float16_b", "HiFi4", "" },
		{ "ttir.add", 1, "Int32", "Float16_b", "HiFi4", "" },
	};

	o.amp_level = 1; /* then overridden */
	o.overrides = ov;
	o.noverrides = sizeof(ov) / sizeof(ov[0]);
	formats(&o, w, 4);
}

static void test_formats_errors(void **state)
{
	(void)state;
	struct ttc_pass_options o = ttc_pass_options_default();
	const struct ttc_mp_override bad = { NULL, "(unclosed", NULL,
					     TT_BFP8_B, TT_INVALID,
					     TTC_FIDELITY_UNSET };
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_ok(ctx, fmt_text);

	o.overrides = &bad;
	o.noverrides = 1;
	assert_int_equal(run_pass(m, "formats", &o, NULL), -EINVAL);
	assert_non_null(strstr(first_error(ctx), "pass 'formats': override "
						 "#0: regex '(unclosed': "));
	ttc_ctx_clear_diags(ctx);
	o = ttc_pass_options_default();
	o.amp_level = 4;
	assert_int_equal(run_pass(m, "formats", &o, NULL), -EINVAL);
	assert_string_equal(first_error(ctx), "error: pass 'formats': amp_level 4 is "
					      "not 0, 1, 2 or 3");
	ttc_ctx_clear_diags(ctx);
	o = ttc_pass_options_default();
	o.fidelity = (enum tt_math_fidelity)7;
	assert_int_equal(run_pass(m, "formats", &o, NULL), -EINVAL);
	assert_string_equal(first_error(ctx), "error: pass 'formats': fidelity 7 is "
					      "not LoFi, HiFi2, HiFi3 or HiFi4");
	ttc_ctx_clear_diags(ctx);
	o = ttc_pass_options_default();
	o.acc_df = (enum tt_data_format)99;
	assert_int_equal(run_pass(m, "formats", &o, NULL), -EINVAL);
	assert_string_equal(first_error(ctx), "error: pass 'formats': acc_df 99 is "
					      "not a data format");
	ttc_ctx_clear_diags(ctx);
	o = ttc_pass_options_default();
	o.noverrides = 2;
	assert_int_equal(run_pass(m, "formats", &o, NULL), -EINVAL);
	assert_string_equal(first_error(ctx), "error: pass 'formats': 2 "
					      "overrides and no array");
	/* Nothing was written by the failed runs. */
	assert_null(ttc_op_attr(find_op(m, "ttir.matmul"), "ttc.df"));
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

/* The whole default pipeline on a small model: the goldens agree. */
static void test_default_pipeline(void **state)
{
	(void)state;
	struct ttc_pass_stats st;
	struct ttc_pass_options o = ttc_pass_options_default();

	o.verify_each = true;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	const char *text = MOD(
		"%a: tensor<2x3xf32>, %b: tensor<3x2xf32>", "tensor<2x2xf32>",
		"%z = \"ttir.zeros\"() <{shape = array<i32: 2, 2>}> : () -> "
		"tensor<2x2xf32>\n"
		"%0 = \"ttir.matmul\"(%a, %b) : (" T23 ", tensor<3x2xf32>) -> "
		"tensor<2x2xf32>\n"
		"%1 = \"ttir.add\"(%0, %z) : (tensor<2x2xf32>, tensor<2x2xf32>) "
		"-> tensor<2x2xf32>\n"
		"%2 = \"ttir.relu\"(%1) : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
		"return %2 : tensor<2x2xf32>\n");
	ttc_module *m = parse_ok(ctx, text);

	assert_int_equal(ttc_run_passes(m, NULL, 0, &o, &st), 0);
	assert_int_equal(st.npasses, 7);
	assert_int_equal(st.fused, 1);
	assert_int_equal(ttc_func_num_ops(ttc_module_lookup(m, "f")), 2);
	assert_string_equal(str_attr(find_op(m, "ttir.matmul"), "ttc.df"),
			    "Float32");
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_unknown_pass),
		cmocka_unit_test(test_print_after),
		cmocka_unit_test(test_time_passes),
		cmocka_unit_test(test_verify_each),
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_canonicalize_arith),
		cmocka_unit_test(test_canonicalize_shapes),
		cmocka_unit_test(test_dce),
		cmocka_unit_test(test_cse),
		cmocka_unit_test(test_fuse),
		cmocka_unit_test(test_formats_defaults),
		cmocka_unit_test(test_formats_amp),
		cmocka_unit_test(test_formats_overrides),
		cmocka_unit_test(test_formats_errors),
		cmocka_unit_test(test_default_pipeline),
	};

	return cmocka_run_group_tests_name("ttc_passes", tests, NULL, NULL);
}
