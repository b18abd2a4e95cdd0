// SPDX-License-Identifier: Apache-2.0
/*
 * The PyBuda flow in C (ttc/pipeline.h) on the embedded device:
 *
 * - an MLP module on a TT device equals its golden (PCC), and the
 *   caller's module is left as given (the compile works on a copy);
 * - a CPU module then a TT module (a graph split between host and
 *   device) equals the whole graph's golden;
 * - run_inference: 3 inputs, microbatches of 2, give 3 outputs in input
 *   order, each its input's golden; the queue is then empty;
 * - intermediates: the named op's result on the TT device and on the CPU
 *   device equals that op's golden; an op no module has is refused at
 *   initialize, one not saved at get; a tapout queue gets its op's
 *   result once per run;
 * - options: the unsupported ones set are listed with a reason, the
 *   applied ones are not; unknown names and bad values refused naming
 *   them; the applied ones reach ttc_compile_options;
 * - detect_available_devices lists the embedded device; a TT device
 *   given no libtt device opens device 0;
 * - a module from a file (a missing function and a file that does not
 *   parse refused naming them), its image kept in backend_output_dir;
 * - an ONNX module (OnnxModule) on the TT device equals it on the CPU
 *   device; a missing file and a model with a cycle refused naming them;
 * - errors: a run before initialize, a missing parameter, a chain whose
 *   shapes do not meet, inputs of the wrong count.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"
#include "ttc/ops.h"
#include "ttc/pipeline.h"
#include "ttc/text.h"

static tt_device *dev;

static int group_up(void **state)
{
	void *d;

	(void)state;
	if (booted_up(&d))
		return -1;
	dev = d;
	return 0;
}

static int group_down(void **state)
{
	(void)state;
	tt_device_close(dev);
	dev = NULL;
	return 0;
}

#define PARAM "{ttcore.argument_type = #ttcore.argument_type<parameter>}"

static const char mlp_text[] =
	"module @m {\n"
	"  func.func @forward(%x: tensor<32x64xbf16> loc(\"x\"),\n"
	"      %w1: tensor<64x64xbf16> " PARAM " loc(\"fc1.weight\"),\n"
	"      %b1: tensor<64xbf16> " PARAM " loc(\"fc1.bias\"),\n"
	"      %w2: tensor<64x32xbf16> " PARAM " loc(\"fc2.weight\"),\n"
	"      %b2: tensor<32xbf16> " PARAM
	" loc(\"fc2.bias\")) -> tensor<32x32xbf16> {\n"
	"    %0 = \"ttir.linear\"(%x, %w1, %b1) : (tensor<32x64xbf16>, "
	"tensor<64x64xbf16>, tensor<64xbf16>) -> tensor<32x64xbf16> "
	"loc(\"fc1\")\n"
	"    %1 = \"ttir.gelu\"(%0) : (tensor<32x64xbf16>) -> "
	"tensor<32x64xbf16> loc(\"act1\")\n"
	"    %2 = \"ttir.linear\"(%1, %w2, %b2) : (tensor<32x64xbf16>, "
	"tensor<64x32xbf16>, tensor<32xbf16>) -> tensor<32x32xbf16> "
	"loc(\"fc2\")\n"
	"    return %2 : tensor<32x32xbf16>\n"
	"  }\n"
	"}\n";

/* @pre on the host, @main on the device; @whole is both, the golden. */
static const char split_text[] =
	"module @s {\n"
	"  func.func @pre(%x: tensor<32x64xbf16> loc(\"x\")) -> "
	"tensor<32x64xbf16> {\n"
	"    %0 = \"ttir.abs\"(%x) : (tensor<32x64xbf16>) -> "
	"tensor<32x64xbf16> loc(\"pre\")\n"
	"    return %0 : tensor<32x64xbf16>\n"
	"  }\n"
	"  func.func @main(%h: tensor<32x64xbf16> loc(\"h\"),\n"
	"      %w: tensor<64x32xbf16> " PARAM " loc(\"fc.weight\"),\n"
	"      %b: tensor<32xbf16> " PARAM
	" loc(\"fc.bias\")) -> tensor<32x32xbf16> {\n"
	"    %0 = \"ttir.linear\"(%h, %w, %b) : (tensor<32x64xbf16>, "
	"tensor<64x32xbf16>, tensor<32xbf16>) -> tensor<32x32xbf16> "
	"loc(\"fc\")\n"
	"    return %0 : tensor<32x32xbf16>\n"
	"  }\n"
	"  func.func @whole(%x: tensor<32x64xbf16> loc(\"x\"),\n"
	"      %w: tensor<64x32xbf16> " PARAM " loc(\"fc.weight\"),\n"
	"      %b: tensor<32xbf16> " PARAM
	" loc(\"fc.bias\")) -> tensor<32x32xbf16> {\n"
	"    %0 = \"ttir.abs\"(%x) : (tensor<32x64xbf16>) -> "
	"tensor<32x64xbf16> loc(\"pre\")\n"
	"    %1 = \"ttir.linear\"(%0, %w, %b) : (tensor<32x64xbf16>, "
	"tensor<64x32xbf16>, tensor<32xbf16>) -> tensor<32x32xbf16> "
	"loc(\"fc\")\n"
	"    return %1 : tensor<32x32xbf16>\n"
	"  }\n"
	"}\n";

/* A parsed module and seeded values for every argument of a function. */
struct fixture {
	ttc_ctx *ctx;
	ttc_module *m;
	ttc_func *f;
	ttc_tensor *args[8];
	size_t nargs;
};

static void fixture_up(struct fixture *fx, const char *text, const char *fn,
		       uint64_t seed)
{
	memset(fx, 0, sizeof(*fx));
	fx->ctx = ttc_ctx_new_ttir();
	assert_non_null(fx->ctx);
	fx->m = ttc_parse(fx->ctx, "test", text, strlen(text), 0);
	if (!fx->m || ttc_module_verify(fx->m))
		fail_msg("%s", ttc_ctx_error(fx->ctx));
	fx->f = ttc_module_lookup(fx->m, fn);
	assert_non_null(fx->f);
	fx->nargs = ttc_func_num_args(fx->f);
	for (size_t i = 0; i < fx->nargs; i++) {
		fx->args[i] = ttc_tensor_random(
			fx->ctx, ttc_value_type(ttc_func_arg(fx->f, i)),
			seed + i);
		assert_non_null(fx->args[i]);
	}
}

static void fixture_down(struct fixture *fx)
{
	for (size_t i = 0; i < fx->nargs; i++)
		ttc_tensor_free(fx->args[i]);
	ttc_module_free(fx->m);
	ttc_ctx_free(fx->ctx);
}

/* The golden of f on args (its one result), with the result of op
 * (may be NULL) in *op_out. */
struct want_op {
	const char *name;
	ttc_tensor *t;
};

static int grab(void *arg, const ttc_op *op, size_t result, const ttc_tensor *t)
{
	struct want_op *w = arg;
	const ttc_loc *l = ttc_op_loc(op);

	if (!result && w->name && ttc_loc_kind(l) == TTC_LOC_NAME &&
	    !strcmp(ttc_loc_str(l), w->name)) {
		ttc_tensor_free(w->t);
		w->t = ttc_tensor_clone(t);
	}
	return 0;
}

static ttc_tensor *golden(ttc_func *f, ttc_tensor *const *args, size_t n,
			  struct want_op *w)
{
	struct ttc_golden_opts o = {TT_FLOAT32, w ? grab : NULL, w};
	ttc_tensor *r = NULL;

	if (ttc_golden_run(f, args, n, &r, &o))
		fail_msg("golden: %s",
			 ttc_ctx_error(ttc_module_ctx(ttc_func_module(f))));
	return r;
}

static void expect_close(const ttc_tensor *want, const ttc_tensor *got,
			 double pcc)
{
	struct ttc_compare_want w = ttc_compare_defaults();
	struct ttc_compare c;

	w.pcc = pcc;
	assert_non_null(got);
	assert_int_equal(ttc_compare_tensors(want, got, &w, &c), 0);
	if (!c.pass)
		fail_msg("pcc %.5f (want >= %.3f), max abs %.4g", c.pcc, pcc,
			 c.max_abs);
}

/* A module of fx's function with its parameters from fx's values. */
static ttc_pymodule *module_of(struct fixture *fx, const char *name,
			       ttc_func *f)
{
	ttc_pymodule *mod = ttc_pymodule_new_from_func(name, fx->m, f);
	char arg[16];

	assert_non_null(mod);
	for (size_t i = 1; i < ttc_func_num_args(f); i++) {
		snprintf(arg, sizeof(arg), "arg%zu", i);
		assert_int_equal(ttc_pymodule_set_param(mod, arg, fx->args[i]),
				 0);
	}
	return mod;
}

#define TRYP(p, e)                                                             \
	do {                                                                   \
		int r_ = (e);                                                  \
		if (r_)                                                        \
			fail_msg("%s: %d %s", #e, r_, ttc_pipeline_error(p));  \
	} while (0)

/* A pipeline with mod on one device (TT or CPU), initialized; saved
 * intermediates, and act1 tapped to q when q is given. */
static ttc_pipeline *one_device(ttc_pymodule *mod, bool tt, const char *saved,
				ttc_output_queue *q)
{
	ttc_pipeline *p = ttc_pipeline_new();
	ttc_device *d =
		tt ? ttc_tt_device_new("tt0", dev) : ttc_cpu_device_new("cpu0");

	assert_non_null(p);
	assert_non_null(d);
	assert_int_equal(ttc_device_place_module(d, mod), 0);
	assert_int_equal(ttc_pipeline_add_device(p, d), 0);
	if (saved) {
		struct ttc_config *c = ttc_pipeline_config(p);

		/* Unfused, so that fc1 is an op of the image. */
		assert_int_equal(ttc_set_configuration_options(
					 c, "enable_auto_fusing", "false"),
				 0);
		assert_int_equal(ttc_set_configuration_options(
					 c, "op_intermediates_to_save", saved),
				 0);
	}
	if (q)
		assert_int_equal(ttc_insert_tapout_queue_for_op(p, "act1", q),
				 0);
	TRYP(p, ttc_initialize_pipeline(p, NULL, 0));
	return p;
}

/* ------------------------------------------------------------------ */

static void mlp_on_tt(void **state)
{
	struct fixture fx;
	ttc_tensor *want, *got = NULL;
	ttc_pipeline *p;
	char *before, *after;

	(void)state;
	fixture_up(&fx, mlp_text, "forward", 11);
	before = ttc_print(fx.m, TTC_PRINT_LOC, NULL);
	p = one_device(module_of(&fx, "mlp", fx.f), true, NULL, NULL);
	TRYP(p, ttc_run_forward(p, fx.args, 1, &got, 1));
	want = golden(fx.f, fx.args, fx.nargs, NULL);
	expect_close(want, got, 0.99);
	after = ttc_print(fx.m, TTC_PRINT_LOC, NULL);
	assert_string_equal(before, after);
	/* Two outputs wanted of a one-output pipeline. */
	assert_int_equal(ttc_run_forward(p, fx.args, 1, &got, 2), -EINVAL);
	assert_non_null(strstr(ttc_pipeline_error(p), "1 outputs"));
	free(before);
	free(after);
	ttc_tensor_free(want);
	ttc_tensor_free(got);
	ttc_shutdown(p);
	fixture_down(&fx);
}

static void split_cpu_tt(void **state)
{
	struct fixture fx;
	ttc_pipeline *p = ttc_pipeline_new();
	ttc_device *cpu = ttc_cpu_device_new("cpu0");
	ttc_device *tt = ttc_tt_device_new("tt0", dev);
	ttc_func *pre, *main_f;
	ttc_pymodule *a, *b;
	ttc_tensor *want, *got = NULL;

	(void)state;
	fixture_up(&fx, split_text, "whole", 21);
	pre = ttc_module_lookup(fx.m, "pre");
	main_f = ttc_module_lookup(fx.m, "main");
	a = ttc_pymodule_new_from_func("pre", fx.m, pre);
	b = ttc_pymodule_new_from_func("main", fx.m, main_f);
	assert_non_null(a);
	assert_non_null(b);
	/* By the argument's name this time. */
	assert_int_equal(ttc_pymodule_set_param(b, "fc.weight", fx.args[1]), 0);
	assert_int_equal(ttc_pymodule_set_param(b, "fc.bias", fx.args[2]), 0);
	assert_int_equal(ttc_pymodule_set_param(b, "h", fx.args[2]), -ENOENT);
	assert_int_equal(ttc_pymodule_set_param(b, "nope", fx.args[2]),
			 -ENOENT);
	assert_int_equal(ttc_device_place_module(cpu, a), 0);
	assert_int_equal(ttc_device_place_module(tt, b), 0);
	assert_int_equal(ttc_device_place_module(tt, b), -EINVAL);
	assert_int_equal(ttc_pipeline_add_device(p, cpu), 0);
	assert_int_equal(ttc_pipeline_add_device(p, tt), 0);
	TRYP(p, ttc_initialize_pipeline(p, fx.args, 1));
	TRYP(p, ttc_run_forward(p, fx.args, 1, &got, 1));
	want = golden(fx.f, fx.args, fx.nargs, NULL);
	expect_close(want, got, 0.99);
	ttc_tensor_free(want);
	ttc_tensor_free(got);
	ttc_shutdown(p);
	fixture_down(&fx);
}

static void inference_in_order(void **state)
{
	struct fixture fx[3];
	ttc_tensor *const *inputs[3];
	ttc_pipeline *p;
	ttc_output_queue *q = ttc_output_queue_new();
	struct ttc_outputs o;

	(void)state;
	/* The same weights (seed), three inputs of their own. */
	for (int i = 0; i < 3; i++) {
		fixture_up(&fx[i], mlp_text, "forward", 11);
		ttc_tensor_free(fx[i].args[0]);
		fx[i].args[0] = ttc_tensor_random(
			fx[i].ctx, ttc_value_type(ttc_func_arg(fx[i].f, 0)),
			100 + (uint64_t)i);
		inputs[i] = fx[i].args;
	}
	p = one_device(module_of(&fx[0], "mlp", fx[0].f), true, NULL, NULL);
	TRYP(p, ttc_run_inference(p, inputs, 3, 2, q));
	assert_int_equal(ttc_output_queue_size(q), 3);
	for (int i = 0; i < 3; i++) {
		ttc_tensor *want =
			golden(fx[i].f, fx[i].args, fx[i].nargs, NULL);

		assert_int_equal(ttc_output_queue_pop(q, 1000, &o), 0);
		assert_int_equal(o.n, 1);
		expect_close(want, o.t[0], 0.99);
		ttc_outputs_release(&o);
		ttc_tensor_free(want);
	}
	assert_int_equal(ttc_output_queue_pop(q, 10, &o), -ETIMEDOUT);
	/* No queue given: the pipeline's. */
	TRYP(p, ttc_run_inference(p, inputs, 1, 0, NULL));
	assert_int_equal(ttc_output_queue_size(ttc_pipeline_output_queue(p)),
			 1);
	ttc_output_queue_free(q);
	ttc_shutdown(p);
	for (int i = 0; i < 3; i++)
		fixture_down(&fx[i]);
}

static void intermediates(void **state)
{
	struct fixture fx;
	struct want_op w = {"fc1", NULL}, a = {"act1", NULL};
	ttc_tensor *want, *got = NULL;
	const ttc_tensor *t;
	ttc_pipeline *p;

	(void)state;
	fixture_up(&fx, mlp_text, "forward", 31);
	want = golden(fx.f, fx.args, fx.nargs, &w);
	ttc_tensor_free(want);
	want = golden(fx.f, fx.args, fx.nargs, &a);
	assert_non_null(w.t);
	assert_non_null(a.t);
	for (int tt = 1; tt >= 0; tt--) {
		ttc_output_queue *q = ttc_output_queue_new();
		struct ttc_outputs o;

		p = one_device(module_of(&fx, "mlp", fx.f), tt, "fc1", q);
		assert_int_equal(ttc_get_intermediates(p, "fc1", &t), -ENOENT);
		TRYP(p, ttc_run_forward(p, fx.args, 1, &got, 1));
		TRYP(p, ttc_get_intermediates(p, "fc1", &t));
		expect_close(w.t, t, tt ? 0.99 : 0.9999);
		/* The tap: act1's result, once per run. */
		assert_int_equal(ttc_output_queue_size(q), 1);
		assert_int_equal(ttc_output_queue_pop(q, 0, &o), 0);
		assert_int_equal(o.n, 1);
		expect_close(a.t, o.t[0], tt ? 0.99 : 0.9999);
		ttc_outputs_release(&o);
		ttc_output_queue_free(q);
		assert_int_equal(ttc_get_intermediates(p, "fc2", &t), -ENOENT);
		assert_non_null(strstr(ttc_pipeline_error(p), "'fc2'"));
		ttc_tensor_free(got);
		got = NULL;
		ttc_shutdown(p);
	}
	/* An op no module has. */
	p = ttc_pipeline_new();
	{
		ttc_device *d = ttc_cpu_device_new(NULL);

		ttc_device_place_module(d, module_of(&fx, "mlp", fx.f));
		ttc_pipeline_add_device(p, d);
	}
	assert_int_equal(ttc_set_configuration_options(
				 ttc_pipeline_config(p),
				 "op_intermediates_to_save", "fc1,warp"),
			 0);
	assert_int_equal(ttc_initialize_pipeline(p, NULL, 0), -ENOENT);
	assert_non_null(strstr(ttc_pipeline_error(p), "'warp'"));
	ttc_shutdown(p);
	ttc_tensor_free(w.t);
	ttc_tensor_free(a.t);
	ttc_tensor_free(want);
	fixture_down(&fx);
}

/* Text f's contents; the caller frees. */
static char *listed(const struct ttc_config *c, size_t *n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*n = ttc_config_unsupported(c, f);
	fclose(f);
	return buf;
}

static void options(void **state)
{
	struct ttc_config c;
	struct ttc_compile_options o;
	const char *const *names;
	size_t n;
	char *text;

	(void)state;
	ttc_config_init(&c);
	text = listed(&c, &n);
	assert_int_equal(n, 0);
	free(text);
	names = ttc_config_option_names(&n);
	assert_int_equal(n, 33);
	assert_string_equal(names[0], "enable_recompute");
	assert_string_equal(names[32], "device_config");

	assert_int_equal(
		ttc_set_configuration_options(&c, "enable_t_streaming", "true"),
		0);
	assert_int_equal(ttc_set_configuration_options(&c, "harvested_rows",
						       "[[1], [2]]"),
			 0);
	/* Set, though to its default: still listed. */
	assert_int_equal(
		ttc_set_configuration_options(&c, "enable_recompute", "false"),
		0);
	assert_int_equal(
		ttc_set_configuration_options(&c, "math_fidelity", "HiFi4"), 0);
	assert_int_equal(
		ttc_set_configuration_options(&c, "accumulate_df", "Float32"),
		0);
	assert_int_equal(
		ttc_set_configuration_options(&c, "balancer_policy", "Ribbon"),
		0);
	assert_int_equal(ttc_set_configuration_options(&c, "amp_level", "1"),
			 0);
	/* A field set directly, away from its default. */
	c.backend_opt_level = 3;
	text = listed(&c, &n);
	assert_int_equal(n, 4);
	assert_non_null(strstr(text, "enable_t_streaming: not supported on "
				     "this system (no t-streaming"));
	assert_non_null(strstr(text, "harvested_rows: not supported"));
	assert_non_null(strstr(text, "enable_recompute: not supported"));
	assert_non_null(strstr(text, "backend_opt_level: not supported"));
	assert_null(strstr(text, "math_fidelity"));
	assert_null(strstr(text, "balancer_policy"));
	free(text);

	assert_int_equal(ttc_config_compile_options(&c, &o), 0);
	assert_int_equal(o.passes.fidelity, TT_HIFI4);
	assert_int_equal(o.passes.acc_df, TT_FLOAT32);
	assert_int_equal(o.passes.amp_level, 1);
	assert_string_equal(o.codegen.balancer, "min_dram");
	assert_true(o.passes.enable_consteval);

	/* Refusals name what is wrong. */
	assert_int_equal(
		ttc_set_configuration_options(&c, "enable_warp_drive", "true"),
		-ENOENT);
	assert_non_null(strstr(ttc_config_error(&c), "'enable_warp_drive'"));
	assert_int_equal(
		ttc_set_configuration_options(&c, "enable_consteval", "maybe"),
		-EINVAL);
	assert_non_null(strstr(ttc_config_error(&c), "enable_consteval"));
	assert_int_equal(
		ttc_set_configuration_options(&c, "math_fidelity", "HiFi9"),
		-EINVAL);
	assert_int_equal(ttc_set_configuration_options(&c, "amp_level", "1x"),
			 -EINVAL);
	assert_int_equal(
		ttc_set_configuration_options(&c, "balancer_policy", "Random"),
		0);
	assert_int_equal(ttc_config_compile_options(&c, &o), -EINVAL);
	assert_non_null(strstr(ttc_config_error(&c), "'Random'"));
	/* Every option by name. */
	for (size_t i = 0; i < 33; i++) {
		const char *v = strstr(names[i], "df") ? "Float16_b"
				: !strcmp(names[i], "math_fidelity") ? "LoFi"
				: !strcmp(names[i], "backend_opt_level") ||
						!strcmp(names[i], "amp_level")
					? "2"
					: "true";

		if (ttc_set_configuration_options(&c, names[i], v))
			fail_msg("%s = %s: %s", names[i], v,
				 ttc_config_error(&c));
	}
	ttc_config_release(&c);
}

static void detect(void **state)
{
	struct ttc_device_desc d[4];
	const struct tt_device_info *info = tt_device_get_info(dev);
	size_t n = 0;

	(void)state;
	assert_int_equal(ttc_detect_available_devices(d, 4, &n), 0);
	assert_true(n >= 1);
	assert_int_equal(d[0].index, 0);
	assert_string_equal(d[0].arch, info->arch_name);
	assert_string_equal(d[0].board, info->board);
	assert_string_equal(d[0].transport, info->transport);
	assert_string_equal(d[0].name, info->name);
	/* No device given: device 0, opened here. */
	{
		ttc_device *t = ttc_tt_device_new(NULL, NULL);

		assert_non_null(t);
		assert_string_equal(ttc_device_name(t), "tt0");
		ttc_device_free(t);
	}
}

/* A module from a file; images kept in backend_output_dir. */
static void from_file_kept(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], image[PATH_MAX + 16];
	struct fixture fx;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_pipeline *p = ttc_pipeline_new();
	ttc_device *d = ttc_tt_device_new("tt0", dev);
	ttc_pymodule *mod;
	ttc_tensor *want, *got = NULL;
	FILE *f;

	(void)state;
	assert_non_null(test_mkdtemp(dir, sizeof(dir), "ttc-pipeline-test"));
	snprintf(path, sizeof(path), "%s/mlp.mlir", dir);
	snprintf(image, sizeof(image), "%s/0-mlp.tti", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(mlp_text, f);
	fclose(f);
	fixture_up(&fx, mlp_text, "forward", 51);
	assert_null(ttc_pymodule_new_from_file(ctx, "mlp", path, "nope"));
	assert_non_null(strstr(ttc_ctx_error(ctx), "no such function"));
	assert_null(ttc_pymodule_new_from_file(ctx, "mlp", dir, NULL));
	mod = ttc_pymodule_new_from_file(ctx, "mlp", path, NULL);
	assert_non_null(mod);
	for (size_t i = 1; i < fx.nargs; i++) {
		char arg[16];

		snprintf(arg, sizeof(arg), "%zu", i);
		assert_int_equal(ttc_pymodule_set_param(mod, arg, fx.args[i]),
				 0);
	}
	assert_int_equal(ttc_device_place_module(d, mod), 0);
	assert_int_equal(ttc_pipeline_add_device(p, d), 0);
	assert_int_equal(ttc_set_configuration_options(ttc_pipeline_config(p),
						       "backend_output_dir",
						       dir),
			 0);
	TRYP(p, ttc_initialize_pipeline(p, NULL, 0));
	assert_int_equal(ttc_initialize_pipeline(p, NULL, 0), -EBUSY);
	TRYP(p, ttc_run_forward(p, fx.args, 1, &got, 1));
	want = golden(fx.f, fx.args, fx.nargs, NULL);
	expect_close(want, got, 0.99);
	ttc_shutdown(p);
	f = fopen(image, "rb");
	assert_non_null(f); /* kept */
	fclose(f);
	remove(image);
	remove(path);
	rmdir(dir);
	ttc_tensor_free(want);
	ttc_tensor_free(got);
	ttc_ctx_free(ctx);
	fixture_down(&fx);
}

/* PyBuda's OnnxModule: a conv, batch norm, relu, pool, global pool and
 * flatten model of the ONNX fuzzer's corpus on the TT device equals the
 * same module on the CPU device (its goldens); a missing file and a
 * model with a cycle are refused naming them. */
static void onnx_module(void **state)
{
	char path[PATH_MAX];
	const char *src = getenv("TT_TEST_SRC");
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_pipeline *tt, *cpu;
	ttc_tensor *x, *want = NULL, *got = NULL;
	const ttc_type *t;
	int64_t dims[] = { 1, 2, 5, 5 };

	(void)state;
	assert_non_null(src);
	assert_null(ttc_pymodule_new_from_onnx(ctx, "net", "/nonexistent.onnx",
					       NULL));
	assert_non_null(strstr(ttc_ctx_error(ctx), "/nonexistent.onnx"));
	ttc_ctx_clear_diags(ctx);
	snprintf(path, sizeof(path),
		 "%s/../tools/ttc/fuzz/corpus-onnx/hostile-cycle.onnx", src);
	assert_null(ttc_pymodule_new_from_onnx(ctx, "net", path, NULL));
	assert_non_null(strstr(ttc_ctx_error(ctx), "is not defined by an "
						   "earlier node"));
	snprintf(path, sizeof(path),
		 "%s/../tools/ttc/fuzz/corpus-onnx/valid-conv-bn-pool.onnx",
		 src);
	tt = one_device(ttc_pymodule_new_from_onnx(ctx, "net", path, NULL),
			true, NULL, NULL);
	cpu = one_device(ttc_pymodule_new_from_onnx(ctx, "net", path, NULL),
			 false, NULL, NULL);
	t = ttc_tensor_type(ctx, dims, 4, ttc_float_type(ctx, TTC_F32), NULL);
	x = ttc_tensor_random(ctx, t, 7);
	TRYP(tt, ttc_run_forward(tt, &x, 1, &got, 1));
	TRYP(cpu, ttc_run_forward(cpu, &x, 1, &want, 1));
	/* the corpus model's weights are all ones: its three outputs are
	 * equal, so PCC says nothing; within bf16's error instead */
	struct ttc_compare_want w = { .pcc = 0, .atol = 0.02, .rtol = 0.02,
				      .check_allclose = true };
	struct ttc_compare c;

	assert_int_equal(ttc_compare_tensors(want, got, &w, &c), 0);
	if (!c.pass)
		fail_msg("max abs %.4g", c.max_abs);
	ttc_shutdown(tt);
	ttc_shutdown(cpu);
	ttc_tensor_free(x);
	ttc_tensor_free(want);
	ttc_tensor_free(got);
	ttc_ctx_free(ctx);
}

static void errors(void **state)
{
	struct fixture fx, sx;
	ttc_pipeline *p = ttc_pipeline_new();
	ttc_device *d = ttc_cpu_device_new(NULL);
	ttc_pymodule *mod;
	ttc_tensor *got = NULL;

	(void)state;
	fixture_up(&fx, mlp_text, "forward", 41);
	fixture_up(&sx, split_text, "whole", 41);
	/* Nothing placed; then a parameter without a value. */
	assert_int_equal(ttc_initialize_pipeline(p, NULL, 0), -EINVAL);
	assert_non_null(strstr(ttc_pipeline_error(p), "no module"));
	ttc_shutdown(p);
	p = ttc_pipeline_new();
	mod = ttc_pymodule_new_from_func("mlp", fx.m, fx.f);
	assert_int_equal(ttc_pymodule_set_param(mod, "fc1.weight", fx.args[1]),
			 0);
	ttc_device_place_module(d, mod);
	ttc_pipeline_add_device(p, d);
	assert_int_equal(ttc_run_forward(p, fx.args, 1, &got, 1), -EINVAL);
	assert_non_null(strstr(ttc_pipeline_error(p), "not initialized"));
	assert_int_equal(ttc_initialize_pipeline(p, NULL, 0), -EINVAL);
	assert_non_null(strstr(ttc_pipeline_error(p), "fc1.bias"));
	assert_int_equal(ttc_initialize_pipeline(p, NULL, 0), -EBUSY);
	assert_non_null(strstr(ttc_pipeline_error(p), "failed to initialize"));
	ttc_shutdown(p);

	/* mlp (32x32 out) then main (takes 32x64): the chain breaks. */
	p = ttc_pipeline_new();
	d = ttc_cpu_device_new(NULL);
	ttc_device_place_module(d, module_of(&fx, "mlp", fx.f));
	ttc_device_place_module(
		d, module_of(&sx, "main", ttc_module_lookup(sx.m, "main")));
	ttc_pipeline_add_device(p, d);
	assert_int_equal(ttc_initialize_pipeline(p, NULL, 0), -EINVAL);
	assert_non_null(strstr(ttc_pipeline_error(p), "module main: input 0"));
	ttc_shutdown(p);

	/* Inputs of the wrong count and shape. */
	p = ttc_pipeline_new();
	d = ttc_cpu_device_new(NULL);
	ttc_device_place_module(d, module_of(&fx, "mlp", fx.f));
	ttc_pipeline_add_device(p, d);
	assert_int_equal(ttc_initialize_pipeline(p, fx.args, 2), -EINVAL);
	assert_non_null(strstr(ttc_pipeline_error(p), "takes 1 inputs, got 2"));
	ttc_shutdown(p);
	p = ttc_pipeline_new();
	d = ttc_cpu_device_new(NULL);
	ttc_device_place_module(d, module_of(&fx, "mlp", fx.f));
	ttc_pipeline_add_device(p, d);
	TRYP(p, ttc_initialize_pipeline(p, NULL, 0));
	assert_int_equal(ttc_run_forward(p, &fx.args[1], 1, &got, 1), -EINVAL);
	assert_non_null(strstr(ttc_pipeline_error(p), "input 0 is not"));
	ttc_shutdown(p);
	fixture_down(&sx);
	fixture_down(&fx);
}

int main(void)
{
	const struct CMUnitTest host[] = {
		cmocka_unit_test(options),
		cmocka_unit_test(errors),
	};
	const struct CMUnitTest device[] = {
		cmocka_unit_test(detect),
		cmocka_unit_test(mlp_on_tt),
		cmocka_unit_test(split_cpu_tt),
		cmocka_unit_test(inference_in_order),
		cmocka_unit_test(intermediates),
		cmocka_unit_test(from_file_kept),
		cmocka_unit_test(onnx_module),
	};
	int rc = cmocka_run_group_tests_name("pipeline_host", host, NULL, NULL);

	return rc | cmocka_run_group_tests_name("pipeline_device", device,
						group_up, group_down);
}
