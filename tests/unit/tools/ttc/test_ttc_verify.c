// SPDX-License-Identifier: Apache-2.0
/*
 * Verification (ttc/verify.h) on the embedded device: a small model
 * compiled with ttc_compile into a temporary image, loaded with
 * tt_model_load and verified op by op against the goldens.
 *
 * - a correct model passes, every op checked, a fused activation
 *   (linear + relu) included; leaky_relu and clip fused with their
 *   parameters, reciprocal (the device's recip);
 * - a deliberately broken op: the image's manifest tampered (one record's
 *   fn "add" made "sub", the section's and table's CRCs fixed) is named
 *   first, with its inputs' statistics on both sides; the ops after it
 *   fail too but come second; stop_at_first stops there; the ops filter
 *   checks only the named ones;
 * - a parameter changed on the device (tt_model_update_param) points at
 *   the op that reads it, the parameter among its inputs;
 * - the CNN of models/ (convolutions keep activations as rows) passes;
 * - a source the image was not compiled from is refused, nothing
 *   compared;
 * - the compile options an image records are read back, a bad one
 *   refused.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"
#include "tt/image.h"
#include "tt/model.h"
#include "ttc/compile.h"
#include "ttc/ops.h"
#include "ttc/text.h"
#include "ttc/verify.h"

static tt_device *dev;
static char dir[PATH_MAX];
static char last_error[4096]; /* verify()'s diagnostics */
static unsigned nimages;

static int group_up(void **state)
{
	void *d;

	(void)state;
	if (!dir[0] && !test_mkdtemp(dir, sizeof(dir), "tt-ttc-verify"))
		return -1;
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
	if (dir[0])
		test_rmtree(dir);
	return 0;
}

/* ------------------------------------------------------------------ */
/* A model: its source parsed, its parameters seeded. */

#define PARAM "{ttcore.argument_type = #ttcore.argument_type<parameter>}"
#define T "tensor<32x64xf32>"
#define W "tensor<64x64xf32>"

/* fc1 takes relu as its activation (fuse); res is a binary add. */
static const char small[] =
	"module {\n"
	"func.func @f(%x: " T " loc(\"x\"), %w: " W " " PARAM " loc(\"w\"),\n"
	"    %b: tensor<64xf32> " PARAM " loc(\"b\"), %w2: " W " " PARAM
	" loc(\"w2\")) -> " T " {\n"
	"  %0 = \"ttir.linear\"(%x, %w, %b) : (" T ", " W
	", tensor<64xf32>) -> " T " loc(\"fc1\")\n"
	"  %1 = \"ttir.relu\"(%0) : (" T ") -> " T " loc(\"act\")\n"
	"  %2 = \"ttir.multiply\"(%1, %x) : (" T ", " T ") -> " T
	" loc(\"gate\")\n"
	"  %3 = \"ttir.add\"(%2, %x) : (" T ", " T ") -> " T " loc(\"res\")\n"
	"  %4 = \"ttir.matmul\"(%3, %w2) : (" T ", " W ") -> " T
	" loc(\"fc2\")\n"
	"  return %4 : " T "\n"
	"}\n}\n";

#define MAXARGS 16

struct src {
	ttc_ctx *ctx;
	ttc_module *m;
	ttc_func *f;
	ttc_tensor *p[MAXARGS];
};

static const ttc_tensor *param_of(void *arg, ttc_func *f, size_t i)
{
	struct src *s = arg;

	(void)f;
	return i < MAXARGS ? s->p[i] : NULL;
}

static bool is_param(ttc_func *f, size_t i)
{
	const ttc_attr *d = ttc_func_arg_attrs(f, i);

	return d && ttc_attr_dict_get(d, "ttcore.argument_type");
}

static void src_open(struct src *s, const char *text, const char *path)
{
	*s = (struct src){.ctx = ttc_ctx_new_ttir()};
	assert_non_null(s->ctx);
	s->m = text ? ttc_parse(s->ctx, "t.mlir", text, strlen(text), 0)
		    : ttc_parse_file(s->ctx, path, 0);
	if (!s->m || ttc_module_verify(s->m))
		fail_msg("%s", ttc_ctx_error(s->ctx));
	s->f = ttc_module_item_func(s->m, 0);
	assert_non_null(s->f);
	assert_true(ttc_func_num_args(s->f) <= MAXARGS);
	for (size_t i = 0; i < ttc_func_num_args(s->f); i++)
		if (is_param(s->f, i))
			s->p[i] = ttc_tensor_random(
				s->ctx, ttc_value_type(ttc_func_arg(s->f, i)),
				100 + i);
}

static void src_close(struct src *s)
{
	for (size_t i = 0; i < MAXARGS; i++)
		ttc_tensor_free(s->p[i]);
	ttc_module_free(s->m);
	ttc_ctx_free(s->ctx);
}

/* Compile text (or the file at path) into a new image; its path. */
static void compile(const char *text, const char *path, char *out)
{
	struct ttc_compile_options o = ttc_compile_defaults();
	struct src s;

	src_open(&s, text, path);
	snprintf(out, PATH_MAX, "%s/m%u.tti", dir, nimages++);
	if (ttc_compile(s.m, s.f, dev, &o, param_of, &s, out, NULL))
		fail_msg("compile: %s", ttc_ctx_error(s.ctx));
	src_close(&s);
}

/* Seeded inputs of the model's input shapes, as Float32. */
static size_t inputs(const struct tt_model_desc *d, tt_tensor **x)
{
	size_t n = 0;
	uint32_t seed = 7;

	for (unsigned t = 0; t < d->ntensors; t++) {
		float *v;

		if (d->tensors[t].kind != TT_MODEL_INPUT)
			continue;
		assert_int_equal(tt_tensor_create(&d->tensors[t].shape,
						  TT_FLOAT32,
						  TT_TENSOR_ROW_MAJOR, &x[n]),
				 0);
		v = tt_tensor_data(x[n]);
		for (size_t i = 0; i < tt_tensor_volume(x[n]); i++) {
			seed = seed * 1664525u + 1013904223u;
			v[i] = (float)(seed >> 8) / (float)(1u << 23) - 1.0f;
		}
		n++;
	}
	return n;
}

/* Verify the image at path against text (or path src_path); the
 * report into rep (a buffer of len bytes, may be NULL). */
static int verify(const char *image, const char *text, const char *src_path,
		  struct ttc_verify_config *v, struct ttc_verify_result *r,
		  char *rep, size_t len, tt_model **keep)
{
	struct ttc_compile_options o;
	tt_tensor *x[4] = {0};
	struct src s;
	tt_model *m;
	size_t n;
	int ret;

	src_open(&s, text, src_path);
	if (tt_model_load(dev, image, &m))
		fail_msg("load: %s", tt_last_error());
	if (keep && *keep) {
		/* The caller's change to the loaded model (see its use). */
		tt_model_free(m);
		m = *keep;
	}
	n = inputs(tt_model_get_desc(m), x);
	assert_int_equal(ttc_verify_options_of(s.ctx, tt_model_get_desc(m),
					       &o),
			 0);
	v->report = rep ? fmemopen(rep, len, "w") : NULL;
	ret = ttc_verify(s.m, s.f, m, &o, param_of, &s, x, n, v, r);
	if (rep)
		fclose(v->report);
	v->report = NULL;
	if (ret && ret != -EINVAL)
		fail_msg("verify: %d %s", ret, ttc_ctx_error(s.ctx));
	snprintf(last_error, sizeof(last_error), "%s", ttc_ctx_error(s.ctx));
	for (size_t i = 0; i < n; i++)
		tt_tensor_free(x[i]);
	tt_model_free(m);
	if (keep)
		*keep = NULL;
	src_close(&s);
	return ret;
}

static const struct ttc_verify_op *op_named(const struct ttc_verify_result *r,
					    const char *name)
{
	for (size_t k = 0; k < r->nops; k++)
		if (!strcmp(r->ops[k].name, name))
			return &r->ops[k];
	fail_msg("no op %s in the result", name);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Tampering an image: replace bytes of a section, fix the CRCs. */

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* In the image at path, the first `from` in section name becomes `to`
 * (same length); the section's, the table's and the header's CRCs are
 * made right again, so only the meaning changed. */
static void tamper(const char *path, const char *name, const char *from,
		   const char *to)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long size;
	uint64_t table;
	uint32_t count;
	bool done = false;

	assert_non_null(f);
	assert_int_equal(strlen(from), strlen(to));
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	b = malloc((size_t)size);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	table = le(b + 24, 8);
	count = (uint32_t)le(b + 32, 4);
	for (uint32_t i = 0; i < count && !done; i++) {
		uint8_t *e = b + table + 64 * i;
		uint64_t off = le(e + 40, 8), n = le(e + 48, 8);
		char *p;

		if (strcmp((char *)e, name))
			continue;
		p = memmem(b + off, n, from, strlen(from));
		assert_non_null(p);
		memcpy(p, to, strlen(to));
		put32(e + 60, tt_crc32(0, b + off, n));
		done = true;
	}
	assert_true(done);
	put32(b + 40, tt_crc32(0, b + table, 64 * (size_t)count));
	put32(b + 44, 0);
	put32(b + 44, tt_crc32(0, b, 64));
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	free(b);
}

/* ------------------------------------------------------------------ */

static void passes_all(void **state)
{
	struct ttc_verify_config v = ttc_verify_config_default();
	struct ttc_verify_result r;
	char image[PATH_MAX], rep[8192] = "";
	const struct ttc_verify_op *fc1;

	(void)state;
	compile(small, NULL, image);
	assert_int_equal(verify(image, small, NULL, &v, &r, rep, sizeof(rep),
				NULL),
			 0);
	assert_true(r.pass);
	assert_int_equal(r.failed, 0);
	assert_int_equal(r.first_fail, -1);
	/* fc1 (relu fused), gate, res, fc2: every record computes a
	 * value of the source. */
	assert_int_equal(r.nops, 4);
	assert_int_equal(r.checked, 4);
	fc1 = op_named(&r, "fc1");
	assert_true(fc1->checked && fc1->pass);
	/* The fused relu is in the golden: without it the PCC of a
	 * linear against its relu is far from 1. */
	if (fc1->pcc < 0.999)
		fail_msg("fc1: pcc %f", fc1->pcc);
	assert_non_null(strstr(rep, "verify: 4 ops checked, 0 failed: PASS"));
	assert_null(strstr(rep, "first failing op"));
	ttc_verify_result_free(&r);
}

/* Each fused activation with parameters, and the one the device spells
 * otherwise (recip): matmul{leaky_relu 0.125}, add{clip -0.5..0.5},
 * exp{recip}. */
static const char acts[] =
	"module {\n"
	"func.func @f(%x: " T " loc(\"x\"), %w: " W " " PARAM
	" loc(\"w\")) -> " T " {\n"
	"  %0 = \"ttir.matmul\"(%x, %w) : (" T ", " W ") -> " T
	" loc(\"mm\")\n"
	"  %1 = \"ttir.leaky_relu\"(%0) <{parameter = 1.25e-01 : f32}> : (" T
	") -> " T " loc(\"lr\")\n"
	"  %2 = \"ttir.add\"(%1, %x) : (" T ", " T ") -> " T " loc(\"sum\")\n"
	"  %3 = \"ttir.clamp_scalar\"(%2) <{min = -5.0e-01 : f32, max = "
	"5.0e-01 : f32}> : (" T ") -> " T " loc(\"cl\")\n"
	"  %4 = \"ttir.exp\"(%3) : (" T ") -> " T " loc(\"e\")\n"
	"  %5 = \"ttir.reciprocal\"(%4) : (" T ") -> " T " loc(\"rc\")\n"
	"  return %5 : " T "\n"
	"}\n}\n";

static void activations_fused(void **state)
{
	struct ttc_verify_config v = ttc_verify_config_default();
	struct ttc_verify_result r;
	char image[PATH_MAX];

	(void)state;
	compile(acts, NULL, image);
	assert_int_equal(verify(image, acts, NULL, &v, &r, NULL, 0, NULL), 0);
	/* Three records, each with its activation fused. */
	assert_int_equal(r.nops, 3);
	for (size_t k = 0; k < r.nops; k++)
		if (!r.ops[k].checked || r.ops[k].pcc < 0.999)
			fail_msg("op %s: pcc %f", r.ops[k].name, r.ops[k].pcc);
	assert_true(r.pass);
	ttc_verify_result_free(&r);
}

static void broken_op_named_first(void **state)
{
	struct ttc_verify_config v = ttc_verify_config_default();
	struct ttc_verify_result r;
	char image[PATH_MAX], rep[8192] = "";
	const struct ttc_verify_op *o;

	(void)state;
	compile(small, NULL, image);
	tamper(image, TT_MODEL_MANIFEST_SECTION, "\"fn\": \"add\"",
	       "\"fn\": \"sub\"");
	assert_int_equal(verify(image, small, NULL, &v, &r, rep, sizeof(rep),
				NULL),
			 0);
	assert_false(r.pass);
	assert_true(r.first_fail >= 0);
	o = &r.ops[r.first_fail];
	assert_string_equal(o->name, "res");
	assert_false(o->pass);
	assert_true(o->pcc < 0.99);
	/* The ops before it pass. */
	assert_true(op_named(&r, "fc1")->pass && op_named(&r, "gate")->pass);
	/* Its inputs: gate (an activation) and x, both sides known. */
	assert_int_equal(r.ninputs, 2);
	assert_string_equal(r.inputs[0].name, "gate");
	assert_string_equal(r.inputs[0].kind, "activation");
	assert_string_equal(r.inputs[1].name, "x");
	assert_string_equal(r.inputs[1].kind, "input");
	for (size_t i = 0; i < 2; i++) {
		const struct ttc_verify_stats *d = &r.inputs[i].device;
		const struct ttc_verify_stats *g = &r.inputs[i].golden;

		assert_true(d->known && g->known);
		assert_int_equal(d->n, 32 * 64);
		assert_int_equal(d->nan + d->inf, 0);
		assert_true(d->min <= d->mean && d->mean <= d->max);
		assert_true(d->std > 0);
		/* The inputs were right: the sides agree. */
		assert_true(fabs(d->mean - g->mean) < 0.02);
		assert_true(fabs(d->max - g->max) < 0.05);
	}
	/* The report names it first, then its inputs. */
	if (strncmp(rep, "first failing op: res (binary, op #2)", 37))
		fail_msg("report:\n%s", rep);
	assert_non_null(strstr(rep, "    gate (activation)\n      device  min "));
	assert_non_null(strstr(rep, "FAIL"));
	ttc_verify_result_free(&r);

	/* stop_at_first: nothing after it runs. */
	v.stop_at_first = true;
	assert_int_equal(verify(image, small, NULL, &v, &r, NULL, 0, NULL), 0);
	assert_false(r.pass);
	assert_int_equal(r.nops, 3);
	assert_int_equal(r.failed, 1);
	ttc_verify_result_free(&r);

	/* Only fc2 checked: it is the first failing one then. */
	v = ttc_verify_config_default();
	v.ops = (const char *const[]){"fc2"};
	v.nops = 1;
	assert_int_equal(verify(image, small, NULL, &v, &r, NULL, 0, NULL), 0);
	assert_false(r.pass);
	assert_int_equal(r.checked, 1);
	assert_string_equal(r.ops[r.first_fail].name, "fc2");
	assert_false(op_named(&r, "res")->checked);
	assert_string_equal(r.inputs[0].name, "res");
	ttc_verify_result_free(&r);

	/* An op the image does not have is refused, naming it. */
	v.ops = (const char *const[]){"fc2", "nosuch"};
	v.nops = 2;
	assert_int_equal(verify(image, small, NULL, &v, &r, NULL, 0, NULL),
			 -EINVAL);
	if (!strstr(last_error, "verify: no op nosuch in program forward of the image"))
		fail_msg("message: %s", last_error);
	assert_int_equal(r.checked, 0);
	ttc_verify_result_free(&r);
}

static void broken_param(void **state)
{
	struct ttc_verify_config v = ttc_verify_config_default();
	struct ttc_verify_result r;
	char image[PATH_MAX];
	tt_model *m;
	tt_tensor *w;
	float *p;

	(void)state;
	compile(small, NULL, image);
	/* w2 replaced on the device by other values. */
	if (tt_model_load(dev, image, &m))
		fail_msg("load: %s", tt_last_error());
	assert_int_equal(tt_tensor_create(&(struct tt_shape){2, {64, 64}},
					  TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &w),
			 0);
	p = tt_tensor_data(w);
	for (size_t i = 0; i < 64 * 64; i++)
		p[i] = (float)((i * 37) % 11) - 5.0f;
	assert_int_equal(tt_model_update_param(m, "w2", w), 0);
	tt_tensor_free(w);
	assert_int_equal(verify(image, small, NULL, &v, &r, NULL, 0, &m), 0);
	assert_false(r.pass);
	assert_string_equal(r.ops[r.first_fail].name, "fc2");
	assert_int_equal(r.failed, 1);
	assert_int_equal(r.ninputs, 2);
	assert_string_equal(r.inputs[1].name, "w2");
	assert_string_equal(r.inputs[1].kind, "parameter");
	/* The device's parameter is not read back; its golden is. */
	assert_false(r.inputs[1].device.known);
	assert_true(r.inputs[1].golden.known);
	assert_int_equal(r.inputs[1].golden.n, 64 * 64);
	ttc_verify_result_free(&r);
}

static void cnn_rows(void **state)
{
	struct ttc_verify_config v = ttc_verify_config_default();
	struct ttc_verify_result r;
	char image[PATH_MAX], path[PATH_MAX];
	const char *src = getenv("TT_TEST_SRC");

	(void)state;
	assert_non_null(src);
	snprintf(path, sizeof(path), "%s/../models/cnn.mlir", src);
	compile(NULL, path, image);
	assert_int_equal(verify(image, NULL, path, &v, &r, NULL, 0, NULL), 0);
	for (size_t k = 0; k < r.nops; k++)
		if (r.ops[k].checked && !r.ops[k].pass)
			fail_msg("op %s: pcc %f", r.ops[k].name, r.ops[k].pcc);
	assert_true(r.pass);
	assert_true(r.checked >= 8);
	/* Every record, the layout changes codegen added (rows to NHWC)
	 * included, holds a value of the source. */
	assert_int_equal(r.checked, r.nops);
	/* The convolutions themselves are compared (rows against NHWC). */
	assert_true(op_named(&r, "stem")->checked);
	ttc_verify_result_free(&r);
}

static void other_source_refused(void **state)
{
	struct ttc_verify_config v = ttc_verify_config_default();
	struct ttc_verify_result r;
	char image[PATH_MAX], other[sizeof(small) + 16];
	char *p;

	(void)state;
	compile(small, NULL, image);
	/* The same model with the residual add named otherwise. */
	snprintf(other, sizeof(other), "%s", small);
	p = strstr(other, "loc(\"res\")");
	assert_non_null(p);
	memcpy(p, "loc(\"rez\")", 10);
	assert_int_equal(verify(image, other, NULL, &v, &r, NULL, 0, NULL),
			 -EINVAL);
	if (!strstr(last_error, "op #2 is res (binary) in the image, rez (binary) from the source"))
		fail_msg("message: %s", last_error);
	assert_int_equal(r.nops, 0);
	assert_int_equal(r.checked, 0);
	assert_false(r.pass);
	ttc_verify_result_free(&r);
	/* The same ops and names on a batch of 64: the shapes differ. */
	snprintf(other, sizeof(other), "%s", small);
	while ((p = strstr(other, "32x64")))
		p[0] = '6', p[1] = '4';
	assert_int_equal(verify(image, other, NULL, &v, &r, NULL, 0, NULL),
			 -EINVAL);
	if (!strstr(last_error, "tensor #0 is x in the image, x from the source (or of another shape)"))
		fail_msg("message: %s", last_error);
	assert_int_equal(r.checked, 0);
	ttc_verify_result_free(&r);
}

/* The refusal's message (another context than verify's helper). */
static void other_source_message(void **state)
{
	struct ttc_verify_result r;
	char image[PATH_MAX];
	struct src s;
	tt_model *m;
	tt_tensor *x[4];
	size_t n;
	static const char more[] =
		"module {\n"
		"func.func @f(%x: " T " loc(\"x\")) -> " T " {\n"
		"  %0 = \"ttir.exp\"(%x) : (" T ") -> " T " loc(\"e\")\n"
		"  return %0 : " T "\n}\n}\n";

	(void)state;
	compile(small, NULL, image);
	src_open(&s, more, NULL);
	if (tt_model_load(dev, image, &m))
		fail_msg("load: %s", tt_last_error());
	n = inputs(tt_model_get_desc(m), x);
	assert_int_equal(ttc_verify(s.m, s.f, m, NULL, param_of, &s, x, n,
				    NULL, &r),
			 -EINVAL);
	if (!strstr(ttc_ctx_error(s.ctx),
		    "the image was not compiled from this source and options: op #0 is fc1 (linear) in the image, e (unary) from the source"))
		fail_msg("message: %s", ttc_ctx_error(s.ctx));
	assert_int_equal(ttc_verify(NULL, s.f, m, NULL, NULL, NULL, x, n,
				    NULL, &r),
			 -EINVAL);
	for (size_t i = 0; i < n; i++)
		tt_tensor_free(x[i]);
	tt_model_free(m);
	src_close(&s);
	ttc_verify_result_free(&r);
}

static void options_read_back(void **state)
{
	static const struct tt_model_attr good[] = {
		{"board", "n150"},	     {"default_df", "Float16_b"},
		{"accumulate_df", "Float32"}, {"math_fidelity", "HiFi4"},
		{"amp_level", "2"},	     {"balancer_policy", "min_dram"},
		{"place_on_one_row", "true"}, {"random_params", "1"},
	};
	static const struct tt_model_attr bad[] = {{"amp_level", "4"}};
	struct tt_model_desc d = {.options = good, .noptions = 8};
	struct ttc_compile_options o;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	struct ttc_verify_config v = ttc_verify_config_default();

	(void)state;
	assert_int_equal(ttc_verify_options_of(ctx, &d, &o), 0);
	assert_int_equal(o.passes.default_df, TT_FLOAT16_B);
	assert_int_equal(o.codegen.default_df, TT_FLOAT16_B);
	assert_int_equal(o.passes.acc_df, TT_FLOAT32);
	assert_int_equal(o.passes.fidelity, TT_HIFI4);
	assert_int_equal(o.passes.amp_level, 2);
	assert_string_equal(o.codegen.balancer, "min_dram");
	assert_true(o.codegen.place_on_one_row);
	assert_int_equal(o.codegen.nrecord, 8);
	d = (struct tt_model_desc){.options = bad, .noptions = 1};
	assert_int_equal(ttc_verify_options_of(ctx, &d, &o), -EINVAL);
	assert_non_null(strstr(ttc_ctx_error(ctx),
			       "the image's compile option amp_level: '4' does not parse"));
	ttc_ctx_free(ctx);
	/* PyBuda's defaults. */
	assert_true(v.pcc == 0.99);
	assert_int_equal(v.golden_fmt, TT_FLOAT32);
	assert_false(v.stop_at_first || v.check_allclose);
	assert_null(v.ops);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(options_read_back),
		cmocka_unit_test(passes_all),
		cmocka_unit_test(activations_fused),
		cmocka_unit_test(broken_op_named_first),
		cmocka_unit_test(broken_param),
		cmocka_unit_test(cnn_rows),
		cmocka_unit_test(other_source_refused),
		cmocka_unit_test(other_source_message),
	};

	return cmocka_run_group_tests_name("ttc_verify", tests, group_up,
					   group_down);
}
