// SPDX-License-Identifier: Apache-2.0
/*
 * libttc's codegen (ttc/codegen.h) without a device: TTIR text to a
 * compiled model description, checked record by record (the lowering
 * rules, their attributes and what the passes put on ops), tensor by
 * tensor (names, kinds, formats, data in the image), and the memory plan
 * (lifetimes, slots, L1 or DRAM by the budget and the balancer, limits,
 * grids). Every description codegen returns must pass
 * tt_model_desc_check and survive tt_model_desc_emit + _parse unchanged.
 */
#include <stdio.h>
#include <unistd.h>

#include "tmpdir.h"
#include "tt/image.h"
#include "tt/model.h"
#include "ttc/codegen.h"
#include "ttc/compile.h"
#include "ttc_passes_util.h"

#define MAXARGS 12
#define PARAM "{ttcore.argument_type = #ttcore.argument_type<parameter>}"
#define CONST "{ttcore.argument_type = #ttcore.argument_type<constant>}"

struct cg {
	ttc_ctx *ctx;
	ttc_module *m;
	ttc_func *f;
	ttc_compiled *c;
	const struct tt_model_desc *d;
	ttc_tensor *params[MAXARGS];
	bool no_params; /* leave parameters without values */
};

static const ttc_tensor *param_of(void *arg, ttc_func *f, size_t i)
{
	struct cg *g = arg;

	(void)f;
	return i < MAXARGS ? g->params[i] : NULL;
}

/* Values of parameter i: exact in bf16, different per argument. */
static double ramp(size_t i, size_t k)
{
	return (double)(k % 7) * 0.5 - 1.0 + (double)i * 0.25;
}

static bool is_param_arg(ttc_func *f, size_t i)
{
	const ttc_attr *d = ttc_func_arg_attrs(f, i);

	return d && ttc_attr_dict_get(d, "ttcore.argument_type");
}

/* tt_model_desc_emit, _parse and emit again: the same text, the same
 * tensors, slots and records. */
static void check_round_trip(const struct tt_model_desc *d)
{
	tt_model_manifest *mf;
	const struct tt_model_desc *p;
	char *t1, *t2;
	size_t n1, n2;

	if (tt_model_desc_check(d))
		fail_msg("desc check: %s", tt_last_error());
	if (tt_model_desc_emit(d, &t1, &n1))
		fail_msg("emit: %s", tt_last_error());
	if (tt_model_desc_parse("cg", t1, n1, &mf))
		fail_msg("parse: %s\n%s", tt_last_error(), t1);
	p = tt_model_manifest_desc(mf);
	assert_int_equal(p->ntensors, d->ntensors);
	assert_int_equal(p->nslots, d->nslots);
	assert_int_equal(p->nprograms, d->nprograms);
	for (unsigned i = 0; i < d->ntensors; i++) {
		assert_string_equal(p->tensors[i].name, d->tensors[i].name);
		assert_int_equal(p->tensors[i].kind, d->tensors[i].kind);
		assert_int_equal(p->tensors[i].format, d->tensors[i].format);
		assert_int_equal(p->tensors[i].slot, d->tensors[i].slot);
		assert_int_equal(p->tensors[i].l1, d->tensors[i].l1);
		assert_int_equal(p->tensors[i].shape.rank,
				 d->tensors[i].shape.rank);
	}
	for (unsigned s = 0; s < d->nslots; s++) {
		assert_int_equal(p->slots[s].pages, d->slots[s].pages);
		assert_int_equal(p->slots[s].page_size, d->slots[s].page_size);
		assert_int_equal(p->slots[s].l1, d->slots[s].l1);
	}
	assert_int_equal(p->programs[0].nops, d->programs[0].nops);
	for (unsigned k = 0; k < d->programs[0].nops; k++) {
		const struct tt_model_op *a = &d->programs[0].ops[k];
		const struct tt_model_op *b = &p->programs[0].ops[k];

		assert_string_equal(a->op, b->op);
		assert_int_equal(a->nattrs, b->nattrs);
		assert_int_equal(a->nin, b->nin);
		assert_int_equal(a->out, b->out);
	}
	if (tt_model_desc_emit(p, &t2, &n2))
		fail_msg("emit again: %s", tt_last_error());
	assert_int_equal(n1, n2);
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);
	tt_model_manifest_free(mf);
}

/* Parses text, gives every parameter argument a ramp (unless
 * no_params or a value is set already) and runs codegen with o (NULL:
 * a wormhole_b0 8x7 target). A description it returns is checked. */
static int cg_run(struct cg *g, const char *text,
		  const struct ttc_codegen_options *o)
{
	struct ttc_codegen_options def = ttc_codegen_defaults();
	int ret;

	g->ctx = ttc_ctx_new_ttir();
	g->m = parse_ok(g->ctx, text);
	g->f = ttc_module_lookup(g->m, "f");
	assert_non_null(g->f);
	for (size_t i = 0;
	     !g->no_params && i < ttc_func_num_args(g->f) && i < MAXARGS; i++) {
		if (g->params[i] || !is_param_arg(g->f, i))
			continue;
		g->params[i] = ttc_tensor_new(
			g->ctx, ttc_value_type(ttc_func_arg(g->f, i)));
		assert_non_null(g->params[i]);
		for (size_t k = 0; k < g->params[i]->numel; k++)
			ttc_tensor_set(g->params[i], k, ramp(i, k));
	}
	ret = ttc_codegen(g->f, o ? o : &def, param_of, g, &g->c);
	if (ret) {
		assert_null(g->c);
		return ret;
	}
	g->d = ttc_compiled_desc(g->c);
	assert_non_null(g->d);
	check_round_trip(g->d);
	return 0;
}

static void cg_ok(struct cg *g, const char *text,
		  const struct ttc_codegen_options *o)
{
	if (cg_run(g, text, o))
		fail_msg("codegen: %s\n%s", ttc_ctx_error(g->ctx), text);
}

/* codegen must fail with ret and a diagnostic holding each of want
 * (NULL-terminated). */
static void cg_fails(struct cg *g, const char *text,
		     const struct ttc_codegen_options *o, int ret, ...)
{
	va_list ap;
	const char *w;
	int got = cg_run(g, text, o);

	if (got != ret)
		fail_msg("codegen gave %d, want %d: %s", got, ret,
			 ttc_ctx_error(g->ctx));
	va_start(ap, ret);
	while ((w = va_arg(ap, const char *)))
		if (!strstr(ttc_ctx_error(g->ctx), w))
			fail_msg("'%s' not in: %s", w, ttc_ctx_error(g->ctx));
	va_end(ap);
}

static void cg_done(struct cg *g)
{
	ttc_compiled_free(g->c);
	for (size_t i = 0; i < MAXARGS; i++)
		ttc_tensor_free(g->params[i]);
	ttc_module_free(g->m);
	ttc_ctx_free(g->ctx);
	memset(g, 0, sizeof(*g));
}

/* ---- lookups in a description ---- */

static unsigned tensor_idx(const struct tt_model_desc *d, const char *name)
{
	for (unsigned i = 0; i < d->ntensors; i++)
		if (!strcmp(d->tensors[i].name, name))
			return i;
	fail_msg("no tensor %s", name);
	return 0;
}

static const struct tt_model_tensor *tensor(const struct tt_model_desc *d,
					    const char *name)
{
	return &d->tensors[tensor_idx(d, name)];
}

static const struct tt_model_op *rec(const struct tt_model_desc *d,
				     const char *name)
{
	for (unsigned k = 0; k < d->programs[0].nops; k++)
		if (!strcmp(d->programs[0].ops[k].name, name))
			return &d->programs[0].ops[k];
	fail_msg("no op %s", name);
	return NULL;
}

static const char *attr(const struct tt_model_op *op, const char *name)
{
	for (unsigned i = 0; i < op->nattrs; i++)
		if (!strcmp(op->attrs[i].name, name))
			return op->attrs[i].value;
	return NULL;
}

static void assert_attr(const struct tt_model_op *op, const char *name,
			const char *want)
{
	const char *v = attr(op, name);

	if (!want && v)
		fail_msg("op %s: %s = %s, want none", op->name, name, v);
	if (want && (!v || strcmp(v, want)))
		fail_msg("op %s: %s = %s, want %s", op->name, name,
			 v ? v : "(none)", want);
}

static double attr_num(const struct tt_model_op *op, const char *name)
{
	const char *v = attr(op, name);

	if (!v)
		fail_msg("op %s has no %s", op->name, name);
	return strtod(v, NULL);
}

/* A small target: one grid_x x grid_y, l1 bytes per core, all of it
 * for activations. */
static struct ttc_codegen_options small_target(unsigned gx, unsigned gy,
					       uint64_t l1, uint64_t dram)
{
	struct ttc_codegen_options o = ttc_codegen_defaults();

	o.target = (struct ttc_target){"wormhole_b0", gx, gy, l1, dram};
	o.l1_fraction = 1.0;
	return o;
}

static char text_buf[16384];

/* Appends to text_buf. */
static void put(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void put(const char *fmt, ...)
{
	size_t n = strlen(text_buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text_buf + n, sizeof(text_buf) - n, fmt, ap);
	va_end(ap);
	assert_true(strlen(text_buf) < sizeof(text_buf) - 1);
}

/* ---- lowering ---- */

static const char *const unary[][2] = {
	{"abs", "abs"},
	{"ceil", "ceil"},
	{"cos", "cos"},
	{"erf", "erf"},
	{"erfc", "erfc"},
	{"exp", "exp"},
	{"exp2", "exp2"},
	{"expm1", "expm1"},
	{"floor", "floor"},
	{"gelu", "gelu"},
	{"hardsigmoid", "hardsigmoid"},
	{"isfinite", "isfinite"},
	{"log", "log"},
	{"log1p", "log1p"},
	{"logical_not", "logical_not"},
	{"mish", "mish"},
	{"neg", "neg"},
	{"reciprocal", "recip"},
	{"relu", "relu"},
	{"relu6", "relu6"},
	{"rsqrt", "rsqrt"},
	{"sigmoid", "sigmoid"},
	{"sign", "sign"},
	{"silu", "silu"},
	{"sin", "sin"},
	{"softsign", "softsign"},
	{"sqrt", "sqrt"},
	{"square", "square"},
	{"tan", "tan"},
	{"tanh", "tanh"},
	{"trunc", "trunc"},
};
#define NUNARY (sizeof(unary) / sizeof(unary[0]))

#define T32 "tensor<32x32xf32>"

static void test_lower_unary(void **state)
{
	(void)state;
	struct cg g = {0};
	char name[64], prev[16] = "%a";

	text_buf[0] = '\0';
	put("module {\nfunc.func @f(%%a: " T32 " loc(\"a\")) -> " T32 " {\n");
	for (size_t i = 0; i < NUNARY; i++) {
		put("%%u%zu = \"ttir.%s\"(%s) : (" T32 ") -> " T32
		    " loc(\"u_%s\")\n",
		    i, unary[i][0], prev, unary[i][0]);
		snprintf(prev, sizeof(prev), "%%u%zu", i);
	}
	put("%%l = \"ttir.leaky_relu\"(%%u%zu) <{parameter = 1.25e-01 : f32}>"
	    " : (" T32 ") -> " T32 " loc(\"leaky\")\n",
	    NUNARY - 1);
	put("%%c = \"ttir.clamp_scalar\"(%%l) <{min = -5.0e-01 : f32, max = "
	    "2.0 "
	    ": f32}> : (" T32 ") -> " T32 " loc(\"clip\")\n");
	put("return %%c : " T32 "\n}\n}\n");
	cg_ok(&g, text_buf, NULL);
	assert_int_equal(g.d->programs[0].nops, NUNARY + 2);
	for (size_t i = 0; i < NUNARY; i++) {
		const struct tt_model_op *op;

		snprintf(name, sizeof(name), "u_%s", unary[i][0]);
		op = rec(g.d, name);
		assert_string_equal(op->op, "unary");
		assert_attr(op, "fn", unary[i][1]);
		/* fn and the grid, nothing else. */
		assert_int_equal(op->nattrs, 2);
		assert_int_equal(op->nin, 1);
		assert_int_equal(op->out, tensor_idx(g.d, name));
		if (i == 0)
			assert_int_equal(op->in[0], tensor_idx(g.d, "a"));
		else
			assert_int_equal(op->in[0], (op - 1)->out);
	}
	const struct tt_model_op *l = rec(g.d, "leaky"), *c = rec(g.d, "clip");

	assert_string_equal(l->op, "unary");
	assert_attr(l, "fn", "leaky_relu");
	assert_true(attr_num(l, "p0") == 0.125);
	assert_attr(l, "p1", NULL);
	assert_string_equal(c->op, "unary");
	assert_attr(c, "fn", "clip");
	assert_true(attr_num(c, "p0") == -0.5);
	assert_true(attr_num(c, "p1") == 2.0);
	assert_int_equal(c->in[0], l->out);
	assert_int_equal(g.d->tensors[c->out].kind, TT_MODEL_OUTPUT);
	cg_done(&g);
}

static const char *const binary[][2] = {
	{"add", "add"},
	{"subtract", "sub"},
	{"multiply", "mul"},
	{"div", "div"},
	{"maximum", "max"},
	{"minimum", "min"},
	{"pow", "pow"},
	{"eq", "eq"},
	{"ne", "ne"},
	{"lt", "lt"},
	{"le", "le"},
	{"gt", "gt"},
	{"ge", "ge"},
	{"logical_and", "logical_and"},
	{"logical_or", "logical_or"},
	{"logical_xor", "logical_xor"},
};
#define NBINARY (sizeof(binary) / sizeof(binary[0]))

static void test_lower_binary_where_typecast(void **state)
{
	(void)state;
	struct cg g = {0};
	char name[64];

	text_buf[0] = '\0';
	put("module {\nfunc.func @f(%%a: " T32 " loc(\"a\"), %%b: " T32
	    " loc(\"b\"), %%p: " T32 " loc(\"p\")) -> tensor<32x32xbf16> {\n");
	for (size_t i = 0; i < NBINARY; i++)
		put("%%b%zu = \"ttir.%s\"(%%a, %%b) : (" T32 ", " T32
		    ") -> " T32 " loc(\"b_%s\")\n",
		    i, binary[i][0], binary[i][0]);
	put("%%w = \"ttir.where\"(%%p, %%b0, %%b1) : (" T32 ", " T32 ", " T32
	    ") -> " T32 " loc(\"sel\")\n");
	put("%%t = \"ttir.typecast\"(%%w) : (" T32 ") -> tensor<32x32xbf16>"
	    " loc(\"cast\")\n");
	put("return %%t : tensor<32x32xbf16>\n}\n}\n");
	cg_ok(&g, text_buf, NULL);
	for (size_t i = 0; i < NBINARY; i++) {
		const struct tt_model_op *op;

		snprintf(name, sizeof(name), "b_%s", binary[i][0]);
		op = rec(g.d, name);
		assert_string_equal(op->op, "binary");
		assert_attr(op, "fn", binary[i][1]);
		assert_int_equal(op->nattrs, 2);
		assert_int_equal(op->nin, 2);
		assert_int_equal(op->in[0], tensor_idx(g.d, "a"));
		assert_int_equal(op->in[1], tensor_idx(g.d, "b"));
	}
	const struct tt_model_op *w = rec(g.d, "sel"), *t = rec(g.d, "cast");

	assert_string_equal(w->op, "where");
	assert_int_equal(w->nin, 3);
	assert_int_equal(w->in[0], tensor_idx(g.d, "p"));
	assert_int_equal(w->in[1], tensor_idx(g.d, "b_add"));
	assert_int_equal(w->in[2], tensor_idx(g.d, "b_subtract"));
	assert_attr(w, "fn", NULL);
	assert_string_equal(t->op, "typecast");
	assert_attr(t, "fn", NULL);
	assert_int_equal(t->nattrs, 1); /* the grid */
	assert_int_equal(g.d->tensors[t->in[0]].format, TT_FLOAT32);
	assert_int_equal(g.d->tensors[t->out].format, TT_FLOAT16_B);
	cg_done(&g);
}

static void test_lower_matmul(void **state)
{
	(void)state;
	struct cg g = {0};
	const char *text =
		MOD("%x: tensor<32x64xf32> loc(\"x\"), %y: tensor<32x64xf32> "
		    "loc(\"y\"), "
		    "%w: tensor<32x32xf32> loc(\"w\"), %bias: tensor<32xf32> "
		    "loc(\"bias\")",
		    "tensor<64x32xf32>",
		    "%0 = \"ttir.matmul\"(%x, %y) <{transpose_a = false, "
		    "transpose_b = true}> : "
		    "(tensor<32x64xf32>, tensor<32x64xf32>) -> "
		    "tensor<32x32xf32> loc(\"mm\")\n"
		    "%1 = \"ttir.matmul\"(%0, %x) : (tensor<32x32xf32>, "
		    "tensor<32x64xf32>)"
		    " -> tensor<32x64xf32> loc(\"plain\")\n"
		    "%2 = \"ttir.linear\"(%1, %w, %bias) <{transpose_a = true, "
		    "transpose_b = false}> : "
		    "(tensor<32x64xf32>, tensor<32x32xf32>, tensor<32xf32>) -> "
		    "tensor<64x32xf32> loc(\"lin\")\n"
		    "return %2 : tensor<64x32xf32>\n");

	cg_ok(&g, text, NULL);
	const struct tt_model_op *mm = rec(g.d, "mm"), *pl = rec(g.d, "plain"),
				 *li = rec(g.d, "lin");

	assert_string_equal(mm->op, "matmul");
	assert_attr(mm, "transpose_a", "false");
	assert_attr(mm, "transpose_b", "true");
	assert_attr(mm, "fn", NULL);
	assert_int_equal(mm->nin, 2);
	assert_string_equal(pl->op, "matmul");
	/* No attribute in the IR: the device op's default (or false). */
	assert_true(!attr(pl, "transpose_a") ||
		    !strcmp(attr(pl, "transpose_a"), "false"));
	assert_true(!attr(pl, "transpose_b") ||
		    !strcmp(attr(pl, "transpose_b"), "false"));
	assert_string_equal(li->op, "linear");
	assert_attr(li, "transpose_a", "true");
	assert_attr(li, "transpose_b", "false");
	assert_int_equal(li->nin, 3);
	assert_int_equal(li->in[2], tensor_idx(g.d, "bias"));
	assert_int_equal(li->in[0], pl->out);
	cg_done(&g);
}

#define SMX(dim, t)                                                            \
	MOD("%x: " t " loc(\"x\")", t,                                         \
	    "%0 = \"ttir.softmax\"(%x) <{dimension = " dim " : si32}> : (" t   \
	    ") -> " t " loc(\"probs\")\n"                                      \
	    "return %0 : " t "\n")

static void test_lower_softmax(void **state)
{
	(void)state;
	struct cg g = {0};

	cg_ok(&g, SMX("-1", "tensor<4x32x64xf32>"), NULL);
	assert_string_equal(rec(g.d, "probs")->op, "softmax");
	assert_int_equal(rec(g.d, "probs")->nattrs, 1);
	cg_done(&g);
	cg_ok(&g, SMX("2", "tensor<4x32x64xf32>"), NULL);
	assert_string_equal(rec(g.d, "probs")->op, "softmax");
	cg_done(&g);
	cg_fails(&g, SMX("1", "tensor<4x32x64xf32>"), NULL, -ENOTSUP, "probs",
		 "softmax over dimension 1 of 3", "the last one", NULL);
	cg_done(&g);
	cg_fails(&g, SMX("-2", "tensor<4x32x64xf32>"), NULL, -ENOTSUP, "probs",
		 "softmax", NULL);
	cg_done(&g);
}

#define NORM(op, ns, w, eps)                                                   \
	MOD("%x: tensor<8x32x64xf32> loc(\"x\"), %g: " w " "                   \
	    "{ttcore.argument_type = #ttcore.argument_type<parameter>} "       \
	    "loc(\"g\"), %b: " w " {ttcore.argument_type = "                   \
	    "#ttcore.argument_type<parameter>} loc(\"b\")",                    \
	    "tensor<8x32x64xf32>",                                             \
	    "%0 = \"ttir." op                                                  \
	    "\"(%x, %g, %b) <{normalized_shape = array<i64: " ns               \
	    ">, epsilon = " eps " : f32, operandSegmentSizes = "               \
	    "array<i32: 1, 1, 1>}> : (tensor<8x32x64xf32>, " w ", " w          \
	    ") -> tensor<8x32x64xf32> loc(\"norm\")\n"                         \
	    "return %0 : tensor<8x32x64xf32>\n")
#define W64 "tensor<64xf32>"
/* One of weight and bias, as segs says. */
#define NORM1(op, segs)                                                        \
	MOD("%x: tensor<8x32x64xf32> loc(\"x\"), %w: tensor<64xf32> " PARAM    \
	    " loc(\"w\")",                                                     \
	    "tensor<8x32x64xf32>",                                             \
	    "%0 = \"ttir." op "\"(%x, %w) <{normalized_shape = array<i64: 64>" \
	    ", epsilon = 0.5 : f32, operandSegmentSizes = array<i32: " segs    \
	    ">}> : (tensor<8x32x64xf32>, tensor<64xf32>) -> "                  \
	    "tensor<8x32x64xf32> loc(\"norm\")\n"                              \
	    "return %0 : tensor<8x32x64xf32>\n")

static void test_lower_norm(void **state)
{
	(void)state;
	struct cg g = {0};
	const struct tt_model_op *op;

	cg_ok(&g, NORM("layer_norm", "64", W64, "1.0e-05"), NULL);
	op = rec(g.d, "norm");
	assert_string_equal(op->op, "layernorm");
	assert_int_equal(op->nin, 3);
	assert_int_equal(op->in[1], tensor_idx(g.d, "g"));
	assert_int_equal(op->in[2], tensor_idx(g.d, "b"));
	/* The f32 epsilon, printed so that it reads back the same. */
	assert_true((float)attr_num(op, "eps") == 1.0e-05f);
	cg_done(&g);
	cg_ok(&g, NORM("layer_norm", "64", W64, "0.25"), NULL);
	assert_true(attr_num(rec(g.d, "norm"), "eps") == 0.25);
	cg_done(&g);
	/* Only the last dimension alone. */
	cg_fails(&g,
		 NORM("layer_norm", "32, 64", "tensor<32x64xf32>", "1.0e-05"),
		 NULL, -ENOTSUP, "norm",
		 "normalized_shape must be the last dimension", NULL);
	cg_done(&g);
	/* Two trailing dimensions, the first of them as long as the last. */
	cg_fails(
		&g,
		MOD("%x: tensor<2x64x64xf32>", "tensor<2x64x64xf32>",
		    "%0 = \"ttir.layer_norm\"(%x) <{normalized_shape = "
		    "array<i64: 64, 64>, epsilon = 0.5 : f32, "
		    "operandSegmentSizes = array<i32: 1, 0, 0>}> : "
		    "(tensor<2x64x64xf32>) -> tensor<2x64x64xf32> loc(\"sq\")\n"
		    "return %0 : tensor<2x64x64xf32>\n"),
		NULL, -ENOTSUP, "sq", "normalized_shape", NULL);
	cg_done(&g);
	/* rms_norm: the device op takes a weight, no bias. */
	cg_ok(&g, NORM1("rms_norm", "1, 1, 0"), NULL);
	op = rec(g.d, "norm");
	assert_string_equal(op->op, "rmsnorm");
	assert_int_equal(op->nin, 2);
	assert_int_equal(op->in[1], tensor_idx(g.d, "w"));
	assert_true(attr_num(op, "eps") == 0.5);
	cg_done(&g);
	cg_fails(&g, NORM("rms_norm", "64", W64, "0.5"), NULL, -ENOTSUP, "norm",
		 "rms_norm with a bias", NULL);
	cg_done(&g);
	cg_fails(&g, NORM1("rms_norm", "1, 0, 1"), NULL, -ENOTSUP,
		 "rms_norm with a bias", NULL);
	cg_done(&g);
	/* layer_norm with a bias alone: the weight's place is empty. */
	cg_ok(&g, NORM1("layer_norm", "1, 0, 1"), NULL);
	op = rec(g.d, "norm");
	assert_int_equal(op->nin, 3);
	assert_int_equal(op->in[1], TT_MODEL_NONE);
	assert_int_equal(op->in[2], tensor_idx(g.d, "w"));
	cg_done(&g);
	cg_ok(&g, NORM1("layer_norm", "1, 1, 0"), NULL);
	op = rec(g.d, "norm");
	assert_int_equal(op->nin, 2);
	assert_int_equal(op->in[1], tensor_idx(g.d, "w"));
	cg_done(&g);
	cg_fails(&g,
		 NORM("rms_norm", "8, 32, 64", "tensor<8x32x64xf32>", "0.5"),
		 NULL, -ENOTSUP, "normalized_shape", NULL);
	cg_done(&g);
}

static void test_lower_reduce(void **state)
{
	(void)state;
	struct cg g = {0};
	const char *text =
		MOD("%x: tensor<4x32x64xf32> loc(\"x\")", "tensor<1x1x1xf32>",
		    "%0 = \"ttir.sum\"(%x) <{dim_arg = [-1 : i32], keep_dim = "
		    "true}> : "
		    "(tensor<4x32x64xf32>) -> tensor<4x32x1xf32> loc(\"s\")\n"
		    "%1 = \"ttir.mean\"(%x) <{dim_arg = [0 : i32, -2 : i32], "
		    "keep_dim = false}> : "
		    "(tensor<4x32x64xf32>) -> tensor<64xf32> loc(\"m\")\n"
		    "%2 = \"ttir.max\"(%x) <{keep_dim = true}> : "
		    "(tensor<4x32x64xf32>) -> tensor<1x1x1xf32> loc(\"mx\")\n"
		    "%3 = \"ttir.min\"(%x) <{dim_arg = [1 : i32], keep_dim = "
		    "true}> : "
		    "(tensor<4x32x64xf32>) -> tensor<4x1x64xf32> loc(\"mn\")\n"
		    "return %2 : tensor<1x1x1xf32>\n");
	const struct tt_model_op *op;

	cg_ok(&g, text, NULL);
	op = rec(g.d, "s");
	assert_string_equal(op->op, "reduce");
	assert_attr(op, "fn", "sum");
	assert_attr(op, "dims", "2");
	assert_attr(op, "keepdim", "true");
	op = rec(g.d, "m");
	assert_attr(op, "fn", "mean");
	assert_attr(op, "dims", "0,1");
	assert_attr(op, "keepdim", "false");
	op = rec(g.d, "mx");
	assert_attr(op, "fn", "max");
	assert_attr(op, "dims", "0,1,2"); /* no dim_arg: every dimension */
	op = rec(g.d, "mn");
	assert_attr(op, "fn", "min");
	assert_attr(op, "dims", "1");
	cg_done(&g);
}

static void test_lower_data_movement(void **state)
{
	(void)state;
	struct cg g = {0};
	const char *text = MOD(
		"%x: tensor<2x32x64xf32> loc(\"x\"), %y: tensor<2x32x64xf32> "
		"loc(\"y\")",
		"tensor<64x32x2xf32>",
		"%0 = \"ttir.transpose\"(%x) <{dim0 = -2 : si32, dim1 = 2 : "
		"si32}> : "
		"(tensor<2x32x64xf32>) -> tensor<2x64x32xf32> loc(\"tr\")\n"
		"%1 = \"ttir.permute\"(%x) <{permutation = array<i64: 2, 0, "
		"1>}> : "
		"(tensor<2x32x64xf32>) -> tensor<64x2x32xf32> loc(\"pm\")\n"
		"%2 = \"ttir.reshape\"(%x) <{shape = [64 : i32, 64 : i32]}> : "
		"(tensor<2x32x64xf32>) -> tensor<64x64xf32> loc(\"rs\")\n"
		"%3 = \"ttir.unsqueeze\"(%2) <{dim = 0 : si32}> : "
		"(tensor<64x64xf32>) -> tensor<1x64x64xf32> loc(\"us\")\n"
		"%4 = \"ttir.squeeze\"(%3) <{dim = 0 : si32}> : "
		"(tensor<1x64x64xf32>) -> tensor<64x64xf32> loc(\"sq\")\n"
		"%5 = \"ttir.concat\"(%x, %y) <{dim = 1 : si32}> : "
		"(tensor<2x32x64xf32>, tensor<2x32x64xf32>) -> "
		"tensor<2x64x64xf32> loc(\"cat\")\n"
		"%6 = \"ttir.slice_static\"(%5) <{begins = [0 : i32, 0 : i32, "
		"32 : i32], "
		"ends = [2 : i32, 64 : i32, 64 : i32], step = [1 : i32, 2 : "
		"i32, 1 : i32]}> : "
		"(tensor<2x64x64xf32>) -> tensor<2x32x32xf32> loc(\"sl\")\n"
		"%7 = \"ttir.permute\"(%6) <{permutation = array<i64: 2, 1, "
		"0>}> : "
		"(tensor<2x32x32xf32>) -> tensor<32x32x2xf32> loc(\"pm2\")\n"
		"%8 = \"ttir.concat\"(%7, %7) <{dim = 0 : si32}> : "
		"(tensor<32x32x2xf32>, tensor<32x32x2xf32>) -> "
		"tensor<64x32x2xf32> loc(\"cat2\")\n"
		"return %8 : tensor<64x32x2xf32>\n");
	const struct tt_model_op *op;

	cg_ok(&g, text, NULL);
	op = rec(g.d, "tr");
	assert_string_equal(op->op, "transpose");
	assert_attr(op, "dim0", "-2");
	assert_attr(op, "dim1", "2");
	op = rec(g.d, "pm");
	assert_string_equal(op->op, "permute");
	assert_attr(op, "perm", "2,0,1");
	for (size_t i = 0; i < 3; i++) {
		static const char *const rs[] = {"rs", "us", "sq"};

		op = rec(g.d, rs[i]);
		assert_string_equal(op->op, "reshape");
		assert_int_equal(op->nattrs, 1); /* the grid */
	}
	assert_int_equal(tensor(g.d, "us")->shape.rank, 3);
	assert_int_equal(tensor(g.d, "us")->shape.dims[0], 1);
	op = rec(g.d, "cat");
	assert_string_equal(op->op, "concat");
	assert_attr(op, "dim", "1");
	assert_int_equal(op->nin, 2);
	assert_int_equal(op->in[1], tensor_idx(g.d, "y"));
	op = rec(g.d, "sl");
	assert_string_equal(op->op, "slice");
	assert_attr(op, "start", "0,0,32");
	assert_attr(op, "end", "2,64,64");
	assert_attr(op, "step", "1,2,1");
	op = rec(g.d, "cat2");
	assert_int_equal(op->in[0], op->in[1]);
	cg_done(&g);
}

/* ttc.activation, _p0, ttc.fidelity and ttc.acc_df on ops, set by hand
 * and by the passes. */
static void test_lower_pass_attrs(void **state)
{
	(void)state;
	struct cg g = {0};
	const char *hand = MOD(
		"%x: tensor<32x64xbf16> loc(\"x\"), %w: tensor<64x32xbf16> "
		"loc(\"w\")",
		"tensor<32x32xbf16>",
		"%0 = \"ttir.matmul\"(%x, %w) {ttc.activation = "
		"\"leaky_relu\", "
		"ttc.activation_p0 = 2.5e-01 : f32, ttc.fidelity = \"HiFi2\", "
		"ttc.acc_df = \"Float32\", ttc.df = \"Bfp8_b\"} : "
		"(tensor<32x64xbf16>, tensor<64x32xbf16>) -> "
		"tensor<32x32xbf16> loc(\"mm\")\n"
		"%1 = \"ttir.add\"(%0, %0) {ttc.acc_df = \"Float16_b\", "
		"ttc.fidelity = \"LoFi\"} : "
		"(tensor<32x32xbf16>, tensor<32x32xbf16>) -> "
		"tensor<32x32xbf16> loc(\"sum\")\n"
		"return %1 : tensor<32x32xbf16>\n");
	const struct tt_model_op *op;

	cg_ok(&g, hand, NULL);
	op = rec(g.d, "mm");
	assert_attr(op, "activation", "leaky_relu");
	assert_true(attr_num(op, "activation_p0") == 0.25);
	assert_attr(op, "activation_p1", NULL);
	assert_attr(op, "fidelity", "HiFi2");
	assert_attr(op, "fp32_acc", "true");
	assert_int_equal(g.d->tensors[op->out].format, TT_BFP8_B);
	op = rec(g.d, "sum");
	assert_attr(op, "fp32_acc", "false");
	assert_attr(op, "fidelity", "LoFi");
	assert_attr(op, "activation", NULL);
	cg_done(&g);

	/* ttc.weight_df: the format of a matmul's weights when they are
	 * parameters or constants; an activation keeps its own. */
	cg_ok(&g,
	      MOD("%x: tensor<32x64xbf16> loc(\"x\"), %w: "
		  "tensor<64x32xbf16> " PARAM
		  " loc(\"w\"), %u: tensor<32x32xbf16> loc(\"u\")",
		  "tensor<32x32xbf16>",
		  "%0 = \"ttir.matmul\"(%x, %w) {ttc.weight_df = \"Bfp8_b\"} : "
		  "(tensor<32x64xbf16>, tensor<64x32xbf16>) -> "
		  "tensor<32x32xbf16> "
		  "loc(\"mm\")\n"
		  "%1 = \"ttir.matmul\"(%0, %u) {ttc.weight_df = \"Bfp4_b\"} : "
		  "(tensor<32x32xbf16>, tensor<32x32xbf16>) -> "
		  "tensor<32x32xbf16> "
		  "loc(\"mm2\")\n"
		  "return %1 : tensor<32x32xbf16>\n"),
	      NULL);
	assert_int_equal(tensor(g.d, "w")->format, TT_BFP8_B);
	assert_int_equal(tensor(g.d, "w")->data_format, TT_FLOAT16_B);
	assert_int_equal(tensor(g.d, "u")->format, TT_FLOAT16_B);
	assert_int_equal(tensor(g.d, "mm")->format, TT_FLOAT16_B);
	cg_done(&g);

	/* The passes: relu fused into the matmul, formats and fidelity. */
	const char *fused =
		MOD("%x: tensor<32x64xbf16> loc(\"x\"), %w: tensor<64x32xbf16> "
		    "loc(\"w\")",
		    "tensor<32x32xbf16>",
		    "%0 = \"ttir.matmul\"(%x, %w) : (tensor<32x64xbf16>, "
		    "tensor<64x32xbf16>) -> tensor<32x32xbf16> loc(\"mm\")\n"
		    "%1 = \"ttir.relu\"(%0) : (tensor<32x32xbf16>) -> "
		    "tensor<32x32xbf16> loc(\"act\")\n"
		    "%2 = \"ttir.exp\"(%1) : (tensor<32x32xbf16>) -> "
		    "tensor<32x32xbf16> loc(\"e\")\n"
		    "return %2 : tensor<32x32xbf16>\n");
	struct ttc_pass_options po = ttc_pass_options_default();

	g.ctx = ttc_ctx_new_ttir();
	g.m = parse_ok(g.ctx, fused);
	po.fidelity = TT_HIFI4;
	po.acc_df = TT_FLOAT32;
	if (ttc_run_passes(g.m, NULL, 0, &po, NULL))
		fail_msg("%s", ttc_ctx_error(g.ctx));
	g.f = ttc_module_lookup(g.m, "f");
	assert_int_equal(ttc_codegen(g.f, NULL, param_of, &g, &g.c), 0);
	g.d = ttc_compiled_desc(g.c);
	check_round_trip(g.d);
	assert_int_equal(g.d->programs[0].nops, 2);
	op = &g.d->programs[0].ops[0];
	assert_string_equal(op->op, "matmul");
	assert_attr(op, "activation", "relu");
	assert_attr(op, "fidelity", "HiFi4");
	assert_attr(op, "fp32_acc", "true");
	assert_string_equal(g.d->programs[0].ops[1].op, "unary");
	assert_attr(&g.d->programs[0].ops[1], "fn", "exp");
	assert_int_equal(g.d->programs[0].ops[1].in[0], op->out);
	cg_done(&g);
}

/* Integer operands or results: fp32 accumulation whatever ttc.acc_df
 * says (the op library refuses them in a 16-bit DST). */
static void test_lower_int_fp32_acc(void **state)
{
	(void)state;
	struct cg g = {0};
	const char *acc = "{ttc.acc_df = \"Float16_b\"}";

	text_buf[0] = '\0';
	put("module {\nfunc.func @f(%%a: tensor<32x32xi32> loc(\"a\"), "
	    "%%f: " T32 " loc(\"f\")) -> (" T32 ", tensor<32x32xi32>) {\n");
	put("%%0 = \"ttir.add\"(%%a, %%a) %s : (tensor<32x32xi32>, "
	    "tensor<32x32xi32>) -> tensor<32x32xi32> loc(\"iadd\")\n", acc);
	put("%%1 = \"ttir.typecast\"(%%0) %s : (tensor<32x32xi32>) -> " T32
	    " loc(\"tofloat\")\n", acc);
	put("%%2 = \"ttir.add\"(%%1, %%f) %s : (" T32 ", " T32 ") -> " T32
	    " loc(\"fadd\")\n", acc);
	put("%%3 = \"ttir.lt\"(%%2, %%f) : (" T32 ", " T32
	    ") -> tensor<32x32xi1> loc(\"cmp\")\n");
	put("%%4 = \"ttir.typecast\"(%%2) %s : (" T32 ") -> "
	    "tensor<32x32xi32> loc(\"toint\")\n", acc);
	put("%%5 = \"ttir.where\"(%%3, %%4, %%a) : (tensor<32x32xi1>, "
	    "tensor<32x32xi32>, tensor<32x32xi32>) -> tensor<32x32xi32> "
	    "loc(\"sel\")\n");
	put("return %%2, %%5 : " T32 ", tensor<32x32xi32>\n}\n}\n");
	cg_ok(&g, text_buf, NULL);
	assert_attr(rec(g.d, "iadd"), "fp32_acc", "true");
	assert_attr(rec(g.d, "tofloat"), "fp32_acc", "true");
	assert_attr(rec(g.d, "toint"), "fp32_acc", "true");
	assert_attr(rec(g.d, "cmp"), "fp32_acc", "true");
	assert_attr(rec(g.d, "sel"), "fp32_acc", "true");
	assert_attr(rec(g.d, "fadd"), "fp32_acc", "false");
	assert_int_equal(tensor(g.d, "iadd")->format, TT_INT32);
	cg_done(&g);
}

/* argmax along the last dimension: tt_op_argmax, indices in Float32
 * whatever ttc.df asks; along another dimension refused (decompose
 * moves it last). */
static void test_lower_argmax(void **state)
{
	(void)state;
	struct cg g = {0};
	const struct tt_model_op *op;

	cg_ok(&g,
	      MOD("%x: tensor<4x32x64xf32> loc(\"x\")", "tensor<4x32x1xf32>",
		  "%0 = \"ttir.argmax\"(%x) <{dim_arg = [2 : i32], keep_dim = "
		  "true}> {ttc.df = \"Float16_b\"} : (tensor<4x32x64xf32>) -> "
		  "tensor<4x32x1xf32> loc(\"am\")\n"
		  "return %0 : tensor<4x32x1xf32>\n"),
	      NULL);
	op = rec(g.d, "am");
	assert_string_equal(op->op, "argmax");
	assert_attr(op, "keepdim", "true");
	assert_attr(op, "fn", NULL);
	assert_int_equal(op->in[0], tensor_idx(g.d, "x"));
	assert_int_equal(g.d->tensors[op->out].format, TT_FLOAT32);
	cg_done(&g);
	cg_ok(&g,
	      MOD("%x: tensor<4x32x64xf32> loc(\"x\")", "tensor<4x32xf32>",
		  "%0 = \"ttir.argmax\"(%x) <{dim_arg = [-1 : i32], keep_dim = "
		  "false}> : (tensor<4x32x64xf32>) -> tensor<4x32xf32> "
		  "loc(\"am\")\n"
		  "return %0 : tensor<4x32xf32>\n"),
	      NULL);
	assert_attr(rec(g.d, "am"), "keepdim", "false");
	cg_done(&g);
	cg_fails(&g,
		 MOD("%x: tensor<4x32x64xf32>", "tensor<4x1x64xf32>",
		     "%0 = \"ttir.argmax\"(%x) <{dim_arg = [1 : i32], keep_dim "
		     "= true}> : (tensor<4x32x64xf32>) -> tensor<4x1x64xf32> "
		     "loc(\"am\")\n"
		     "return %0 : tensor<4x1x64xf32>\n"),
		 NULL, -ENOTSUP, "am", "the last one", NULL);
	cg_done(&g);
}

/* ttir.pad: before and after lists and the value (an infinity too: a
 * max pool's padding made explicit); cropping refused. */
static void test_lower_pad(void **state)
{
	(void)state;
	struct cg g = {0};
	const struct tt_model_op *op;

	cg_ok(&g,
	      MOD("%x: tensor<1x5x5x32xf32> loc(\"x\")", "tensor<1x8x6x32xf32>",
		  "%0 = \"ttir.pad\"(%x) <{padding = array<i32: 0, 0, 2, 1, 0, "
		  "1, 0, 0>, value = 0xFF800000 : f32}> : "
		  "(tensor<1x5x5x32xf32>) -> tensor<1x8x6x32xf32> "
		  "loc(\"padded\")\n"
		  "return %0 : tensor<1x8x6x32xf32>\n"),
	      NULL);
	op = rec(g.d, "padded");
	assert_string_equal(op->op, "pad");
	assert_attr(op, "before", "0,2,0,0");
	assert_attr(op, "after", "0,1,1,0");
	assert_attr(op, "value", "-inf");
	assert_int_equal(op->in[0], tensor_idx(g.d, "x"));
	cg_done(&g);
	cg_ok(&g,
	      MOD("%x: tensor<3x4xf32>", "tensor<3x7xf32>",
		  "%0 = \"ttir.pad\"(%x) <{padding = array<i32: 0, 0, 3, 0>, "
		  "value = 2.5 : f32}> : (tensor<3x4xf32>) -> tensor<3x7xf32> "
		  "loc(\"padded\")\n"
		  "return %0 : tensor<3x7xf32>\n"),
	      NULL);
	assert_attr(rec(g.d, "padded"), "value", "2.5");
	assert_attr(rec(g.d, "padded"), "before", "0,3");
	cg_done(&g);
	cg_fails(&g,
		 MOD("%x: tensor<3x4xf32>", "tensor<3x3xf32>",
		     "%0 = \"ttir.pad\"(%x) <{padding = array<i32: 0, 0, -1, "
		     "0>, value = 0.0 : f32}> : (tensor<3x4xf32>) -> "
		     "tensor<3x3xf32> loc(\"crop\")\n"
		     "return %0 : tensor<3x3xf32>\n"),
		 NULL, -ENOTSUP, "crop", "does not crop", NULL);
	cg_done(&g);
}

/* ttir.embedding: tt_op_embedding of integer indices [S] or [B, S] and a
 * table [V, D]; other forms refused. */
static void test_lower_embedding(void **state)
{
	(void)state;
	struct cg g = {0};
	const struct tt_model_op *op;

	cg_ok(&g,
	      MOD("%i: tensor<2x3xi32> loc(\"ids\"), %w: tensor<10x64xf32> "
		  "loc(\"table\")",
		  "tensor<2x3x64xf32>",
		  "%0 = \"ttir.embedding\"(%i, %w) : (tensor<2x3xi32>, "
		  "tensor<10x64xf32>) -> tensor<2x3x64xf32> loc(\"rows\")\n"
		  "return %0 : tensor<2x3x64xf32>\n"),
	      NULL);
	op = rec(g.d, "rows");
	assert_string_equal(op->op, "embedding");
	assert_int_equal(op->nin, 2);
	assert_int_equal(op->in[0], tensor_idx(g.d, "ids"));
	assert_int_equal(op->in[1], tensor_idx(g.d, "table"));
	assert_int_equal(g.d->tensors[op->out].shape.rank, 3);
	cg_done(&g);
	cg_fails(&g,
		 MOD("%i: tensor<2x3x2xi32>, %w: tensor<10x64xf32>",
		     "tensor<2x3x2x64xf32>",
		     "%0 = \"ttir.embedding\"(%i, %w) : (tensor<2x3x2xi32>, "
		     "tensor<10x64xf32>) -> tensor<2x3x2x64xf32> "
		     "loc(\"rows\")\n"
		     "return %0 : tensor<2x3x2x64xf32>\n"),
		 NULL, -ENOTSUP, "rows", "indices [S] or [B, S]", NULL);
	cg_done(&g);
}

/* ttir.broadcast and ttir.repeat: tt_op_repeat's counts; ttir.cumsum
 * along the last two dimensions of floats. */
static void test_lower_repeat_cumsum(void **state)
{
	(void)state;
	struct cg g = {0};
	const struct tt_model_op *op;

	cg_ok(&g,
	      MOD("%x: tensor<1x3x1xf32> loc(\"x\")", "tensor<4x6x5xf32>",
		  "%0 = \"ttir.broadcast\"(%x) <{broadcast_dimensions = "
		  "array<i64: 4, 1, 5>}> : (tensor<1x3x1xf32>) -> "
		  "tensor<4x3x5xf32> loc(\"b\")\n"
		  "%1 = \"ttir.repeat\"(%0) <{repeat_dimensions = array<i64: "
		  "1, 2, 1>}> : (tensor<4x3x5xf32>) -> tensor<4x6x5xf32> "
		  "loc(\"r\")\n"
		  "%2 = \"ttir.cumsum\"(%1) <{dim = -2 : i64}> : "
		  "(tensor<4x6x5xf32>) -> tensor<4x6x5xf32> loc(\"c\")\n"
		  "return %2 : tensor<4x6x5xf32>\n"),
	      NULL);
	op = rec(g.d, "b");
	assert_string_equal(op->op, "repeat");
	assert_attr(op, "reps", "4,1,5");
	assert_int_equal(op->in[0], tensor_idx(g.d, "x"));
	op = rec(g.d, "r");
	assert_string_equal(op->op, "repeat");
	assert_attr(op, "reps", "1,2,1");
	op = rec(g.d, "c");
	assert_string_equal(op->op, "cumsum");
	assert_attr(op, "dim", "1");
	cg_done(&g);
	cg_fails(&g,
		 MOD("%x: tensor<4x6x5xf32>", "tensor<4x6x5xf32>",
		     "%0 = \"ttir.cumsum\"(%x) <{dim = 0 : i64}> : "
		     "(tensor<4x6x5xf32>) -> tensor<4x6x5xf32> loc(\"c\")\n"
		     "return %0 : tensor<4x6x5xf32>\n"),
		 NULL, -ENOTSUP, "c", "along dimension 0 of 3", NULL);
	cg_done(&g);
	cg_fails(&g,
		 MOD("%x: tensor<6xi32>", "tensor<6xi32>",
		     "%0 = \"ttir.cumsum\"(%x) <{dim = 0 : i64}> : "
		     "(tensor<6xi32>) -> tensor<6xi32> loc(\"c\")\n"
		     "return %0 : tensor<6xi32>\n"),
		 NULL, -ENOTSUP, "c", "an integer cumsum", NULL);
	cg_done(&g);
}

/* The index of the k-th output in tensor order (the runtime's). */
static unsigned nth_output(const struct tt_model_desc *d, unsigned k)
{
	for (unsigned i = 0; i < d->ntensors; i++)
		if (d->tensors[i].kind == TT_MODEL_OUTPUT && !k--)
			return i;
	fail_msg("no output %u", k);
	return 0;
}

/* The op record writing tensor t. */
static const struct tt_model_op *writer(const struct tt_model_desc *d,
					unsigned t)
{
	for (unsigned k = 0; k < d->programs[0].nops; k++)
		if (d->programs[0].ops[k].out == t)
			return &d->programs[0].ops[k];
	fail_msg("no op writes tensor %u", t);
	return NULL;
}

/* Results the runtime could not take as they are (an argument, a value
 * returned twice, a result whose tensor comes before an earlier
 * result's) are copied by a reshape to a tensor of their own, so the
 * outputs in tensor order are the results in order. */
static void test_lower_results(void **state)
{
	(void)state;
	struct cg g = {0};
	const struct tt_model_op *op;
	unsigned t;

	cg_ok(&g,
	      MOD("%x: " T32 " loc(\"x\"), %y: " T32,
		  "(" T32 ", " T32 ", " T32 ", " T32 ")",
		  "%0 = \"ttir.relu\"(%y) : (" T32 ") -> " T32 " loc(\"r\")\n"
		  "%1 = \"ttir.exp\"(%0) : (" T32 ") -> " T32 " loc(\"e\")\n"
		  "return %1, %x, %0, %0 : " T32 ", " T32 ", " T32 ", " T32
		  "\n"),
	      NULL);
	assert_int_equal(g.d->programs[0].nops, 5);
	/* #0: e itself. */
	t = nth_output(g.d, 0);
	assert_string_equal(g.d->tensors[t].name, "e");
	/* #1: a copy of the input x. */
	t = nth_output(g.d, 1);
	op = writer(g.d, t);
	assert_string_equal(op->op, "reshape");
	assert_int_equal(op->in[0], tensor_idx(g.d, "x"));
	assert_int_equal(tensor(g.d, "x")->kind, TT_MODEL_INPUT);
	assert_int_equal(g.d->tensors[t].shape.dims[0], 32);
	assert_int_equal(g.d->tensors[t].format, TT_FLOAT32);
	/* #2 and #3: copies of r, which comes before e. */
	for (unsigned k = 2; k < 4; k++) {
		t = nth_output(g.d, k);
		op = writer(g.d, t);
		assert_string_equal(op->op, "reshape");
		assert_int_equal(op->in[0], tensor_idx(g.d, "r"));
	}
	assert_int_equal(tensor(g.d, "r")->kind, TT_MODEL_ACT);
	cg_done(&g);
	/* An argument alone (ONNX's Identity). */
	cg_ok(&g, MOD("%x: " T32 " loc(\"x\")", T32, "return %x : " T32 "\n"),
	      NULL);
	assert_int_equal(g.d->programs[0].nops, 1);
	op = writer(g.d, nth_output(g.d, 0));
	assert_string_equal(op->op, "reshape");
	assert_int_equal(op->in[0], tensor_idx(g.d, "x"));
	assert_string_equal(g.d->tensors[op->out].name, "x.copy");
	cg_done(&g);
	/* The last output returned again at once. */
	cg_ok(&g,
	      MOD("%x: " T32, "(" T32 ", " T32 ")",
		  "%0 = \"ttir.relu\"(%x) : (" T32 ") -> " T32 " loc(\"r\")\n"
		  "return %0, %0 : " T32 ", " T32 "\n"),
	      NULL);
	assert_int_equal(nth_output(g.d, 0), tensor_idx(g.d, "r"));
	op = writer(g.d, nth_output(g.d, 1));
	assert_string_equal(op->op, "reshape");
	assert_int_equal(op->in[0], tensor_idx(g.d, "r"));
	cg_done(&g);
}

/* ---- refusals ---- */

static void test_refusals(void **state)
{
	(void)state;
	struct cg g = {0};

	/* No device op: named. */
	cg_fails(&g,
		 MOD("%x: " T32, T32,
		     "%0 = \"ttir.cumprod\"(%x) <{dim = 0 : si64}> : (" T32
		     ") -> " T32 " loc(\"running\")\n"
		     "return %0 : " T32 "\n"),
		 NULL, -ENOTSUP, "running", "'ttir.cumprod' has no device op",
		 NULL);
	cg_done(&g);
	/* Rank 5: the tensor named, as argument or op result. */
	cg_fails(&g,
		 MOD("%x: tensor<1x1x1x2x32xf32> loc(\"five\")",
		     "tensor<1x1x1x2x32xf32>",
		     "%0 = \"ttir.relu\"(%x) : (tensor<1x1x1x2x32xf32>) -> "
		     "tensor<1x1x1x2x32xf32>\n"
		     "return %0 : tensor<1x1x1x2x32xf32>\n"),
		 NULL, -ENOTSUP, "five: the device holds tensors of rank 0..4",
		 NULL);
	cg_done(&g);
	cg_fails(&g,
		 MOD("%x: tensor<2x2x2x32xf32>", "tensor<1x2x2x2x32xf32>",
		     "%0 = \"ttir.unsqueeze\"(%x) <{dim = 0 : si32}> : "
		     "(tensor<2x2x2x32xf32>) -> tensor<1x2x2x2x32xf32> "
		     "loc(\"up\")\n"
		     "return %0 : tensor<1x2x2x2x32xf32>\n"),
		 NULL, -ENOTSUP, "up: the device holds tensors of rank 0..4",
		 NULL);
	cg_done(&g);
	/* A parameter without a value. */
	g.no_params = true;
	cg_fails(
		&g,
		MOD("%x: " T32 ", %w: " T32
		    " {ttcore.argument_type = #ttcore.argument_type<parameter>}"
		    " loc(\"fc.weight\")",
		    T32,
		    "%0 = \"ttir.add\"(%x, %w) : (" T32 ", " T32 ") -> " T32
		    "\n"
		    "return %0 : " T32 "\n"),
		NULL, -EINVAL,
		"argument #1 (fc.weight) of @f is a parameter "
		"without a value",
		NULL);
	cg_done(&g);
	/* An integer quotient: the device rounds it, TTIR truncates. */
	cg_fails(&g,
		 MOD("%x: tensor<32x32xi32>, %y: tensor<32x32xi32>",
		     "tensor<32x32xi32>",
		     "%0 = \"ttir.div\"(%x, %y) : (tensor<32x32xi32>, "
		     "tensor<32x32xi32>) -> tensor<32x32xi32> loc(\"q\")\n"
		     "return %0 : tensor<32x32xi32>\n"),
		 NULL, -ENOTSUP, "q", "an integer div", NULL);
	cg_done(&g);
	/* Integer data beyond 2^24: its Float32 image would not be it. */
	cg_fails(&g,
		 MOD("%x: tensor<2x3xi32>", "tensor<2x3xi32>",
		     "%c = \"ttir.constant\"() <{value = dense<[[1, 2, 3], "
		     "[4, 16777217, 6]]> : tensor<2x3xi32>}> : () -> "
		     "tensor<2x3xi32> loc(\"big\")\n"
		     "%0 = \"ttir.add\"(%x, %c) : (tensor<2x3xi32>, "
		     "tensor<2x3xi32>) -> tensor<2x3xi32>\n"
		     "return %0 : tensor<2x3xi32>\n"),
		 NULL, -ENOTSUP, "big: integer value 16777217 (element 4)",
		 "2^24", NULL);
	cg_done(&g);
}

/* A parameter value whose shape is not the argument's is refused. */
static void test_param_value_shape(void **state)
{
	(void)state;
	struct cg g = {0};
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *m = parse_ok(ctx, MOD("%x: tensor<4xf32>", "tensor<4xf32>",
					  "return %x : tensor<4xf32>\n"));

	g.params[1] = ttc_tensor_new(
		ctx,
		ttc_value_type(ttc_func_arg(ttc_module_lookup(m, "f"), 0)));
	cg_fails(
		&g,
		MOD("%x: " T32 ", %w: " T32
		    " {ttcore.argument_type = #ttcore.argument_type<parameter>}"
		    " loc(\"w\")",
		    T32,
		    "%0 = \"ttir.add\"(%x, %w) : (" T32 ", " T32 ") -> " T32
		    "\n"
		    "return %0 : " T32 "\n"),
		NULL, -EINVAL, "w", "4 elements", "1024", NULL);
	cg_done(&g);
	ttc_module_free(m);
	ttc_ctx_free(ctx);
}

/* ---- tensors ---- */

static void test_tensor_names(void **state)
{
	(void)state;
	struct cg g = {0};
	const char *text =
		MOD("%x: " T32 " loc(\"x\"), %y: " T32 " loc(\"x\"), %z: " T32
		    " loc(\"fc 1/w[0]\"), %u: " T32,
		    T32,
		    "%0 = \"ttir.add\"(%x, %y) : (" T32 ", " T32 ") -> " T32
		    " loc(\"x\")\n"
		    "%1 = \"ttir.add\"(%0, %z) : (" T32 ", " T32 ") -> " T32
		    " loc(\"s\")\n"
		    "%2 = \"ttir.add\"(%1, %u) : (" T32 ", " T32 ") -> " T32
		    " loc(\"s\")\n"
		    "%3 = \"ttir.relu\"(%2) : (" T32 ") -> " T32 "\n"
		    "return %3 : " T32 "\n");

	cg_ok(&g, text, NULL);
	assert_int_equal(g.d->ntensors, 8);
	assert_string_equal(g.d->tensors[0].name, "x");
	assert_string_equal(g.d->tensors[1].name, "x#2");
	assert_string_equal(g.d->tensors[2].name, "fc_1/w_0_");
	assert_string_equal(g.d->tensors[3].name, "arg3");
	assert_string_equal(g.d->tensors[4].name, "x#3");
	assert_string_equal(g.d->tensors[5].name, "s");
	assert_string_equal(g.d->tensors[6].name, "s#2");
	/* No location: the op's name and its index. */
	assert_non_null(strstr(g.d->tensors[7].name, "relu"));
	assert_int_equal(g.d->tensors[7].kind, TT_MODEL_OUTPUT);
	for (unsigned k = 0; k < 4; k++)
		assert_int_equal(g.d->programs[0].ops[k].out, 4 + k);
	cg_done(&g);

	/* A location of 300 characters: cut to 100. */
	char longname[301];

	memset(longname, 'n', 300);
	longname[300] = '\0';
	text_buf[0] = '\0';
	put("module {\nfunc.func @f(%%x: " T32 " loc(\"%s\"), %%y: " T32
	    " loc(\"%s\")) -> " T32 " {\n"
	    "%%0 = \"ttir.add\"(%%x, %%y) : (" T32 ", " T32 ") -> " T32
	    " loc(\"%s\")\nreturn %%0 : " T32 "\n}\n}\n",
	    longname, longname, longname);
	cg_ok(&g, text_buf, NULL);
	assert_int_equal(strlen(g.d->tensors[0].name), 100);
	assert_string_equal(g.d->tensors[1].name + 100, "#2");
	assert_string_equal(g.d->tensors[2].name + 100, "#3");
	cg_done(&g);
}

/* Reads section name of the image at path into a new buffer. */
static void *image_section(const char *path, const char *name, size_t *len)
{
	tt_image *img;
	struct tt_image_section s;
	void *copy;

	if (tt_image_open(path, &img))
		fail_msg("%s", tt_last_error());
	if (tt_image_find(img, name, &s))
		fail_msg("%s", tt_last_error());
	copy = malloc(s.size + 1);
	memcpy(copy, s.data, s.size);
	*len = s.size;
	tt_image_close(img);
	return copy;
}

/* Integer parameters and constants are stored as Float32 (exact below
 * 2^24; the loader converts to the tensor's integer format); full,
 * zeros, ones and arange become constants of their values. */
static void test_int_data_and_creation(void **state)
{
	(void)state;
	struct cg g = {0};
	char dir[256], path[300];
	size_t len;
	float *data;

	cg_ok(&g,
	      MOD("%x: tensor<2x3xi32> loc(\"x\"), %w: tensor<2x3xi32> " PARAM
		  " loc(\"iw\")",
		  "tensor<2x3xf32>",
		  "%c = \"ttir.constant\"() <{value = dense<[[1, -2, 3], [4, "
		  "16777216, 6]]> : tensor<2x3xi32>}> : () -> "
		  "tensor<2x3xi32> loc(\"ic\")\n"
		  "%f = \"ttir.full\"() <{shape = array<i32: 2, 3>, "
		  "fill_value = 7.1 : f32}> : () -> tensor<2x3xf32> "
		  "loc(\"seven\")\n"
		  "%a = \"ttir.arange\"() <{start = 0 : si64, end = 3 : si64, "
		  "step = 1 : si64, arange_dimension = 1 : i64}> : () -> "
		  "tensor<2x3xf32> loc(\"ramp\")\n"
		  "%0 = \"ttir.add\"(%x, %w) : (tensor<2x3xi32>, "
		  "tensor<2x3xi32>) -> tensor<2x3xi32> loc(\"s\")\n"
		  "%1 = \"ttir.add\"(%0, %c) : (tensor<2x3xi32>, "
		  "tensor<2x3xi32>) -> tensor<2x3xi32> loc(\"s2\")\n"
		  "%2 = \"ttir.typecast\"(%1) : (tensor<2x3xi32>) -> "
		  "tensor<2x3xf32> loc(\"c\")\n"
		  "%3 = \"ttir.add\"(%2, %f) : (tensor<2x3xf32>, "
		  "tensor<2x3xf32>) -> tensor<2x3xf32> loc(\"t\")\n"
		  "%4 = \"ttir.add\"(%3, %a) : (tensor<2x3xf32>, "
		  "tensor<2x3xf32>) -> tensor<2x3xf32> loc(\"out\")\n"
		  "return %4 : tensor<2x3xf32>\n"),
	      NULL);
	assert_int_equal(g.d->programs[0].nops, 5);
	assert_int_equal(tensor(g.d, "iw")->format, TT_INT32);
	assert_int_equal(tensor(g.d, "iw")->data_format, TT_FLOAT32);
	assert_int_equal(tensor(g.d, "ic")->kind, TT_MODEL_CONST);
	assert_int_equal(tensor(g.d, "ic")->format, TT_INT32);
	assert_int_equal(tensor(g.d, "seven")->kind, TT_MODEL_CONST);
	assert_int_equal(tensor(g.d, "ramp")->kind, TT_MODEL_CONST);
	assert_int_equal(tensor(g.d, "ramp")->format, TT_FLOAT32);
	assert_non_null(test_mkdtemp(dir, sizeof(dir), "ttc-codegen"));
	snprintf(path, sizeof(path), "%s/m.tti", dir);
	if (ttc_compiled_write(g.ctx, g.c, NULL, path))
		fail_msg("%s", ttc_ctx_error(g.ctx));
	const float ic[] = {1, -2, 3, 4, 16777216, 6};
	const float seven[] = {7.1f, 7.1f, 7.1f, 7.1f, 7.1f, 7.1f};
	const float ramp_v[] = {0, 1, 2, 0, 1, 2};

	data = image_section(path, tensor(g.d, "iw")->section, &len);
	assert_int_equal(len, 6 * 4);
	for (size_t k = 0; k < 6; k++)
		assert_true(data[k] == (float)(int)ramp(1, k));
	free(data);
	data = image_section(path, tensor(g.d, "ic")->section, &len);
	assert_int_equal(len, sizeof(ic));
	assert_memory_equal(data, ic, sizeof(ic));
	free(data);
	data = image_section(path, tensor(g.d, "seven")->section, &len);
	assert_int_equal(len, sizeof(seven));
	assert_memory_equal(data, seven, sizeof(seven));
	free(data);
	data = image_section(path, tensor(g.d, "ramp")->section, &len);
	assert_int_equal(len, sizeof(ramp_v));
	assert_memory_equal(data, ramp_v, sizeof(ramp_v));
	free(data);
	unlink(path);
	rmdir(dir);
	cg_done(&g);
}

static void test_tensor_kinds_formats_data(void **state)
{
	(void)state;
	struct cg g = {0};
	const char *text =
		MOD("%x: tensor<2x3xf32> loc(\"x\"), "
		    "%w: tensor<2x3xbf16> " PARAM " loc(\"w\"), "
		    "%v: tensor<2x3xf32> " PARAM " loc(\"v\"), "
		    "%k: tensor<2x3xf32> " CONST " loc(\"k\"), "
		    "%dead: tensor<2x3xf32> " PARAM " loc(\"dead\"), "
		    "%h: tensor<2x3xf16> loc(\"h\"), %i: tensor<2x3xi32> "
		    "loc(\"i\"), "
		    "%unused: tensor<2x3xf32> loc(\"unused\")",
		    "tensor<2x3xf32>",
		    "%s = \"ttir.constant\"() <{value = dense<2.5> : "
		    "tensor<2x3xf32>}> : "
		    "() -> tensor<2x3xf32> loc(\"splat\")\n"
		    "%n = \"ttir.constant\"() <{value = dense<[[1.0, 2.0, "
		    "3.0], [4.0, 5.0, 6.5]]> : "
		    "tensor<2x3xf32>}> : () -> tensor<2x3xf32> loc(\"table\")\n"
		    "%0 = \"ttir.add\"(%x, %v) {ttc.df = \"Float16_b\"} : "
		    "(tensor<2x3xf32>, "
		    "tensor<2x3xf32>) -> tensor<2x3xf32> loc(\"a0\")\n"
		    "%1 = \"ttir.typecast\"(%w) : (tensor<2x3xbf16>) -> "
		    "tensor<2x3xf32> loc(\"a1\")\n"
		    "%2 = \"ttir.add\"(%0, %1) : (tensor<2x3xf32>, "
		    "tensor<2x3xf32>) -> "
		    "tensor<2x3xf32> loc(\"a2\")\n"
		    "%3 = \"ttir.add\"(%2, %k) : (tensor<2x3xf32>, "
		    "tensor<2x3xf32>) -> "
		    "tensor<2x3xf32> loc(\"a3\")\n"
		    "%4 = \"ttir.add\"(%3, %s) : (tensor<2x3xf32>, "
		    "tensor<2x3xf32>) -> "
		    "tensor<2x3xf32> loc(\"a4\")\n"
		    "%5 = \"ttir.multiply\"(%4, %n) : (tensor<2x3xf32>, "
		    "tensor<2x3xf32>) -> "
		    "tensor<2x3xf32> loc(\"a5\")\n"
		    "%6 = \"ttir.typecast\"(%h) : (tensor<2x3xf16>) -> "
		    "tensor<2x3xf32> loc(\"a6\")\n"
		    "%7 = \"ttir.typecast\"(%i) : (tensor<2x3xi32>) -> "
		    "tensor<2x3xf32> loc(\"a7\")\n"
		    "%8 = \"ttir.add\"(%6, %7) : (tensor<2x3xf32>, "
		    "tensor<2x3xf32>) -> "
		    "tensor<2x3xf32> loc(\"a8\")\n"
		    "%9 = \"ttir.add\"(%5, %8) : (tensor<2x3xf32>, "
		    "tensor<2x3xf32>) -> "
		    "tensor<2x3xf32> loc(\"out\")\n"
		    "return %9 : tensor<2x3xf32>\n");
	const struct tt_model_desc *d;

	/* A rank-0 constant: one element of shape [1]. */
	cg_ok(&g,
	      MOD("%x: tensor<2x3xf32>", "tensor<2x3xf32>",
		  "%s = \"ttir.constant\"() <{value = dense<3.0> : "
		  "tensor<f32>}> : () -> tensor<f32> loc(\"three\")\n"
		  "%0 = \"ttir.reshape\"(%s) <{shape = [1 : i32, 1 : i32]}> : "
		  "(tensor<f32>) -> tensor<1x1xf32> loc(\"r\")\n"
		  "%1 = \"ttir.multiply\"(%x, %0) : (tensor<2x3xf32>, "
		  "tensor<1x1xf32>) -> tensor<2x3xf32> loc(\"m\")\n"
		  "return %1 : tensor<2x3xf32>\n"),
	      NULL);
	assert_int_equal(tensor(g.d, "three")->shape.rank, 1);
	assert_int_equal(tensor(g.d, "three")->shape.dims[0], 1);
	assert_int_equal(tensor(g.d, "three")->kind, TT_MODEL_CONST);
	cg_done(&g);

	cg_ok(&g, text, NULL);
	d = g.d;
	/* The folded-away parameter has no tensor; the unused input does. */
	for (unsigned i = 0; i < d->ntensors; i++)
		assert_string_not_equal(d->tensors[i].name, "dead");
	assert_int_equal(tensor(d, "unused")->kind, TT_MODEL_INPUT);
	assert_int_equal(tensor(d, "x")->kind, TT_MODEL_INPUT);
	assert_int_equal(tensor(d, "w")->kind, TT_MODEL_PARAM);
	assert_int_equal(tensor(d, "v")->kind, TT_MODEL_PARAM);
	assert_int_equal(tensor(d, "k")->kind, TT_MODEL_CONST);
	assert_int_equal(tensor(d, "splat")->kind, TT_MODEL_CONST);
	assert_int_equal(tensor(d, "table")->kind, TT_MODEL_CONST);
	assert_int_equal(tensor(d, "a0")->kind, TT_MODEL_ACT);
	assert_int_equal(tensor(d, "out")->kind, TT_MODEL_OUTPUT);
	for (unsigned i = 0; i < d->ntensors; i++)
		assert_true((d->tensors[i].kind == TT_MODEL_ACT) ==
			    (d->tensors[i].slot >= 0));
	/* Formats: ttc.df, else the element type. */
	assert_int_equal(tensor(d, "a0")->format, TT_FLOAT16_B);
	assert_int_equal(tensor(d, "a2")->format, TT_FLOAT32);
	assert_int_equal(tensor(d, "w")->format, TT_FLOAT16_B);
	assert_int_equal(tensor(d, "x")->format, TT_FLOAT32);
	assert_int_equal(tensor(d, "h")->format, TT_FLOAT16);
	assert_int_equal(tensor(d, "i")->format, TT_INT32);
	assert_int_equal(tensor(d, "w")->data_format, TT_FLOAT16_B);
	assert_int_equal(tensor(d, "v")->data_format, TT_FLOAT32);
	assert_int_equal(tensor(d, "splat")->data_format, TT_FLOAT32);

	/* The data in the image: the values given, bf16 or f32. */
	char dir[256], path[300];
	size_t len;
	void *data;

	assert_non_null(test_mkdtemp(dir, sizeof(dir), "ttc-codegen"));
	snprintf(path, sizeof(path), "%s/m.tti", dir);
	if (ttc_compiled_write(g.ctx, g.c, NULL, path))
		fail_msg("%s", ttc_ctx_error(g.ctx));
	data = image_section(path, tensor(d, "w")->section, &len);
	assert_int_equal(len, 6 * 2);
	for (size_t k = 0; k < 6; k++)
		assert_true(tt_bf16_to_float(((uint16_t *)data)[k]) ==
			    (float)ramp(1, k));
	free(data);
	data = image_section(path, tensor(d, "v")->section, &len);
	assert_int_equal(len, 6 * 4);
	for (size_t k = 0; k < 6; k++)
		assert_true(((float *)data)[k] == (float)ramp(2, k));
	free(data);
	data = image_section(path, tensor(d, "k")->section, &len);
	for (size_t k = 0; k < 6; k++)
		assert_true(((float *)data)[k] == (float)ramp(3, k));
	free(data);
	data = image_section(path, tensor(d, "splat")->section, &len);
	assert_int_equal(len, 24);
	for (size_t k = 0; k < 6; k++)
		assert_true(((float *)data)[k] == 2.5f);
	free(data);
	data = image_section(path, tensor(d, "table")->section, &len);
	const float want[] = {1, 2, 3, 4, 5, 6.5};

	assert_memory_equal(data, want, sizeof(want));
	free(data);
	/* And the manifest in it is the description. */
	data = image_section(path, TT_MODEL_MANIFEST_SECTION, &len);
	char *text2;
	size_t n2;

	assert_int_equal(tt_model_desc_emit(d, &text2, &n2), 0);
	assert_int_equal(len, n2);
	assert_memory_equal(data, text2, n2);
	free(text2);
	free(data);
	unlink(path);
	rmdir(dir);
	cg_done(&g);

	/* default_df: every float tensor the passes gave no format. */
	struct ttc_codegen_options o = ttc_codegen_defaults();

	o.default_df = TT_FLOAT16_B;
	cg_ok(&g, text, &o);
	d = g.d;
	assert_int_equal(tensor(d, "x")->format, TT_FLOAT16_B);
	assert_int_equal(tensor(d, "v")->format, TT_FLOAT16_B);
	assert_int_equal(tensor(d, "v")->data_format, TT_FLOAT16_B);
	assert_int_equal(tensor(d, "h")->format, TT_FLOAT16_B);
	assert_int_equal(tensor(d, "a2")->format, TT_FLOAT16_B);
	assert_int_equal(tensor(d, "i")->format, TT_INT32);
	cg_done(&g);
	o.default_df = TT_BFP8_B;
	cg_ok(&g, text, &o);
	assert_int_equal(tensor(g.d, "a0")->format, TT_FLOAT16_B); /* ttc.df */
	assert_int_equal(tensor(g.d, "a2")->format, TT_BFP8_B);
	/* Block formats are not stored row-major: the data is f32. */
	assert_int_equal(tensor(g.d, "v")->data_format, TT_FLOAT32);
	cg_done(&g);
}

/* ---- the memory plan ---- */

#define CHAIN                                                                  \
	MOD("%x: " T32 " loc(\"x\")", T32,                                     \
	    "%0 = \"ttir.relu\"(%x) : (" T32 ") -> " T32 " loc(\"a\")\n"       \
	    "%1 = \"ttir.exp\"(%0) : (" T32 ") -> " T32 " loc(\"b\")\n"        \
	    "%2 = \"ttir.neg\"(%1) : (" T32 ") -> " T32 " loc(\"c\")\n"        \
	    "%3 = \"ttir.sin\"(%2) : (" T32 ") -> " T32 " loc(\"d\")\n"        \
	    "return %3 : " T32 "\n")

static void test_plan_lifetimes(void **state)
{
	(void)state;
	struct cg g = {0};
	struct ttc_plan_stats st;

	/* x -> a -> b -> c -> d: a and c share a slot, b has its own (an
	 * op never writes the slot it reads). */
	cg_ok(&g, CHAIN, NULL);
	assert_int_equal(g.d->nslots, 2);
	assert_int_equal(tensor(g.d, "a")->slot, tensor(g.d, "c")->slot);
	assert_int_not_equal(tensor(g.d, "a")->slot, tensor(g.d, "b")->slot);
	assert_int_equal(tensor(g.d, "d")->slot, -1);
	assert_int_equal(g.d->slots[0].pages, 1);
	assert_int_equal(g.d->slots[0].page_size, tt_tile_size(TT_FLOAT32));
	ttc_compiled_stats(g.c, &st);
	assert_int_equal(st.slots, 2);
	assert_int_equal(st.l1_tensors, 3);
	assert_int_equal(st.dram_tensors, 0);
	assert_int_equal(st.l1_peak, 2 * tt_tile_size(TT_FLOAT32));
	cg_done(&g);

	/* A diamond: both branches alive until the join. */
	cg_ok(&g,
	      MOD("%x: " T32 " loc(\"x\")", T32,
		  "%0 = \"ttir.relu\"(%x) : (" T32 ") -> " T32 " loc(\"top\")\n"
		  "%1 = \"ttir.exp\"(%0) : (" T32 ") -> " T32 " loc(\"l\")\n"
		  "%2 = \"ttir.neg\"(%0) : (" T32 ") -> " T32 " loc(\"r\")\n"
		  "%3 = \"ttir.add\"(%1, %2) : (" T32 ", " T32 ") -> " T32
		  " loc(\"join\")\n"
		  "%4 = \"ttir.sin\"(%3) : (" T32 ") -> " T32 " loc(\"out\")\n"
		  "return %4 : " T32 "\n"),
	      NULL);
	int top = tensor(g.d, "top")->slot, l = tensor(g.d, "l")->slot,
	    r = tensor(g.d, "r")->slot, j = tensor(g.d, "join")->slot;

	assert_int_equal(g.d->nslots, 3);
	assert_true(top != l && top != r && l != r);
	assert_true(j != l && j != r);
	cg_done(&g);

	/* An output read by a later op: alive to the end, in no slot. */
	cg_ok(&g,
	      MOD("%x: " T32 " loc(\"x\")", "(" T32 ", " T32 ")",
		  "%0 = \"ttir.relu\"(%x) : (" T32 ") -> " T32 " loc(\"o1\")\n"
		  "%1 = \"ttir.exp\"(%0) : (" T32 ") -> " T32 " loc(\"a\")\n"
		  "%2 = \"ttir.neg\"(%1) : (" T32 ") -> " T32 " loc(\"o2\")\n"
		  "return %0, %2 : " T32 ", " T32 "\n"),
	      NULL);
	assert_int_equal(tensor(g.d, "o1")->kind, TT_MODEL_OUTPUT);
	assert_int_equal(tensor(g.d, "o1")->slot, -1);
	assert_int_equal(tensor(g.d, "o2")->kind, TT_MODEL_OUTPUT);
	assert_int_equal(rec(g.d, "a")->in[0], tensor_idx(g.d, "o1"));
	assert_int_equal(g.d->nslots, 1);
	cg_done(&g);

	/* Formats of other page sizes never share a slot. */
	cg_ok(&g,
	      MOD("%x: " T32 " loc(\"x\")", T32,
		  "%0 = \"ttir.relu\"(%x) {ttc.df = \"Float16_b\"} : (" T32
		  ") -> " T32 " loc(\"a\")\n"
		  "%1 = \"ttir.exp\"(%0) : (" T32 ") -> " T32 " loc(\"b\")\n"
		  "%2 = \"ttir.neg\"(%1) : (" T32 ") -> " T32 " loc(\"c\")\n"
		  "%3 = \"ttir.sin\"(%2) : (" T32 ") -> " T32 " loc(\"d\")\n"
		  "return %3 : " T32 "\n"),
	      NULL);
	assert_int_equal(g.d->nslots, 3);
	assert_int_not_equal(tensor(g.d, "a")->slot, tensor(g.d, "c")->slot);
	assert_int_equal(g.d->slots[tensor(g.d, "a")->slot].page_size,
			 tt_tile_size(TT_FLOAT16_B));
	cg_done(&g);
}

/* x (32 x 32n bf16: n tiles). */
static void mk_budget_text(unsigned tiles_small, unsigned tiles_big)
{
	text_buf[0] = '\0';
	put("module {\nfunc.func @f(%%x: tensor<32x%uxbf16> loc(\"x\"), "
	    "%%y: tensor<32x%uxbf16> loc(\"y\")) -> tensor<32x%uxbf16> {\n",
	    32 * tiles_small, 32 * tiles_big, 32 * tiles_big);
	/* small: op 0..1; big: op 1..2. */
	put("%%0 = \"ttir.relu\"(%%x) : (tensor<32x%uxbf16>) -> "
	    "tensor<32x%uxbf16> loc(\"small\")\n",
	    32 * tiles_small, 32 * tiles_small);
	put("%%1 = \"ttir.exp\"(%%y) : (tensor<32x%uxbf16>) -> "
	    "tensor<32x%uxbf16> loc(\"big\")\n",
	    32 * tiles_big, 32 * tiles_big);
	put("%%2 = \"ttir.sum\"(%%0) <{dim_arg = [1 : i32], keep_dim = true}> "
	    ": "
	    "(tensor<32x%uxbf16>) -> tensor<32x1xbf16> loc(\"r\")\n",
	    32 * tiles_small);
	put("%%3 = \"ttir.add\"(%%1, %%2) : (tensor<32x%uxbf16>, "
	    "tensor<32x1xbf16>) -> tensor<32x%uxbf16> loc(\"out\")\n",
	    32 * tiles_big, 32 * tiles_big);
	put("return %%3 : tensor<32x%uxbf16>\n}\n}\n", 32 * tiles_big);
}

static void test_plan_budget(void **state)
{
	(void)state;
	struct cg g = {0};
	const uint64_t tile = tt_tile_size(TT_FLOAT16_B);
	struct ttc_codegen_options o;
	struct ttc_plan_stats st;

	/* small (2 tiles, ops 0..2), big (9 tiles, ops 1..3), r (1 tile,
	 * ops 2..3); an L1 budget of 10 tiles: greedy keeps small in L1
	 * (program order), then big does not fit, r does; min_dram places
	 * big first, then small does not fit with it, r does. */
	mk_budget_text(2, 9);
	o = small_target(1, 1, 10 * tile, 0);
	cg_ok(&g, text_buf, &o);
	assert_true(tensor(g.d, "small")->l1);
	assert_false(tensor(g.d, "big")->l1);
	assert_true(tensor(g.d, "r")->l1);
	ttc_compiled_stats(g.c, &st);
	assert_int_equal(st.l1_tensors, 2);
	assert_int_equal(st.dram_tensors, 1);
	assert_int_equal(st.dram_peak, 9 * tile);
	cg_done(&g);
	o.balancer = "min_dram";
	cg_ok(&g, text_buf, &o);
	assert_false(tensor(g.d, "small")->l1);
	assert_true(tensor(g.d, "big")->l1);
	assert_true(tensor(g.d, "r")->l1);
	ttc_compiled_stats(g.c, &st);
	assert_int_equal(st.dram_peak, 2 * tile);
	assert_int_equal(st.l1_peak, 10 * tile);
	cg_done(&g);

	/* The budget: l1_fraction of l1_bytes on every core of the grid. */
	o = small_target(1, 1, 12 * tile, 0);
	o.l1_fraction = 0.5; /* 6 tiles: big does not fit anywhere */
	cg_ok(&g, text_buf, &o);
	assert_false(tensor(g.d, "big")->l1);
	assert_true(tensor(g.d, "small")->l1);
	cg_done(&g);
	o.target.grid_x = 2; /* 12 tiles: everything fits */
	cg_ok(&g, text_buf, &o);
	assert_true(tensor(g.d, "big")->l1 && tensor(g.d, "small")->l1 &&
		    tensor(g.d, "r")->l1);
	cg_done(&g);
	o.target.grid_x = 1;
	o.target.grid_y = 2;
	cg_ok(&g, text_buf, &o);
	assert_true(tensor(g.d, "big")->l1);
	cg_done(&g);
	/* l1_fraction 0: a quarter (12 x 4 tiles / 4 = 12). */
	o = small_target(4, 1, 12 * tile, 0);
	o.l1_fraction = 0;
	cg_ok(&g, text_buf, &o);
	assert_true(tensor(g.d, "big")->l1 && tensor(g.d, "small")->l1);
	cg_done(&g);
	o.target.l1_bytes = 10 * tile;
	cg_ok(&g, text_buf, &o);
	assert_false(tensor(g.d, "big")->l1);
	cg_done(&g);
	/* Nothing fits: every activation in DRAM. */
	o = small_target(1, 1, tile / 2, 0);
	cg_ok(&g, text_buf, &o);
	for (unsigned i = 0; i < g.d->nslots; i++)
		assert_false(g.d->slots[i].l1);
	ttc_compiled_stats(g.c, &st);
	assert_int_equal(st.l1_peak, 0);
	assert_int_equal(st.l1_tensors, 0);
	cg_done(&g);
}

/* big (8 tiles, ops 0..1), small (1, ops 1..2), small2 (1, ops 2..3),
 * big2 (12, ops 3..4): at most 13 tiles alive at once, but first fit
 * makes slots of 8 and 12 tiles. Under a budget of 14 tiles the larger
 * moves to DRAM. */
static void test_plan_demote(void **state)
{
	(void)state;
	struct cg g = {0};
	const uint64_t tile = tt_tile_size(TT_FLOAT16_B);
	struct ttc_codegen_options o = small_target(1, 1, 100 * tile, 0);
	struct ttc_plan_stats st;
#define B8 "tensor<32x256xbf16>"
#define B12 "tensor<32x384xbf16>"
#define B1 "tensor<32x32xbf16>"
	const char *text = MOD(
		"%x: " B8 " loc(\"x\"), %w: " B1 " loc(\"w\"), %v: " B12
		" loc(\"v\")",
		B12,
		"%0 = \"ttir.relu\"(%x) : (" B8 ") -> " B8 " loc(\"big\")\n"
		"%1 = \"ttir.slice_static\"(%0) <{begins = [0 : i32, 0 : i32], "
		"ends = [32 : i32, 32 : i32], step = [1 : i32, 1 : i32]}> : "
		"(" B8 ") -> " B1 " loc(\"small\")\n"
		"%2 = \"ttir.add\"(%1, %w) : (" B1 ", " B1 ") -> " B1
		" loc(\"small2\")\n"
		"%3 = \"ttir.matmul\"(%2, %v) <{transpose_b = false}> : (" B1
		", " B12 ") -> " B12 " loc(\"big2\")\n"
		"%4 = \"ttir.relu\"(%3) : (" B12 ") -> " B12 " loc(\"out\")\n"
		"return %4 : " B12 "\n");
	const struct tt_model_tensor *big, *big2;

	/* Without a limit: all in L1, slots of 8 and 12 tiles. */
	cg_ok(&g, text, &o);
	assert_int_equal(g.d->nslots, 2);
	big = tensor(g.d, "big");
	big2 = tensor(g.d, "big2");
	assert_int_equal(big->slot, tensor(g.d, "small2")->slot);
	assert_int_equal(big2->slot, tensor(g.d, "small")->slot);
	assert_int_equal(g.d->slots[big->slot].pages, 8);
	assert_int_equal(g.d->slots[big2->slot].pages, 12);
	assert_true(g.d->slots[0].l1 && g.d->slots[1].l1);
	cg_done(&g);
	o.target.l1_bytes = 14 * tile;
	cg_ok(&g, text, &o);
	big = tensor(g.d, "big");
	big2 = tensor(g.d, "big2");
	assert_int_equal(g.d->nslots, 2);
	assert_true(g.d->slots[big->slot].l1);
	assert_false(g.d->slots[big2->slot].l1);
	ttc_compiled_stats(g.c, &st);
	assert_int_equal(st.l1_peak, 8 * tile);
	assert_int_equal(st.dram_peak, 12 * tile);
	assert_int_equal(st.l1_tensors, 2);
	assert_int_equal(st.dram_tensors, 2);
	/* Tensors follow their slot (tt_model_desc_check agrees). */
	for (unsigned i = 0; i < g.d->ntensors; i++)
		if (g.d->tensors[i].slot >= 0)
			assert_int_equal(g.d->tensors[i].l1,
					 g.d->slots[g.d->tensors[i].slot].l1);
	cg_done(&g);
}

static void test_plan_dram_limit(void **state)
{
	(void)state;
	struct cg g = {0};
	const uint64_t t32 = tt_tile_size(TT_FLOAT32);
	/* x, a, b, c in DRAM slots or buffers: x 1 tile, 2 slots, d 1. */
	struct ttc_codegen_options o = small_target(1, 1, 0, 4 * t32);
	char need[64], has[64];

	o.l1_fraction = 0.25;
	cg_ok(&g, CHAIN, &o);
	cg_done(&g);
	o.target.dram_bytes = 4 * t32 - 1;
	snprintf(need, sizeof(need), "needs %llu bytes",
		 (unsigned long long)(4 * t32));
	snprintf(has, sizeof(has), "the device has %llu",
		 (unsigned long long)(4 * t32 - 1));
	cg_fails(&g, CHAIN, &o, -ENOSPC, "does not fit the device's DRAM", need,
		 has, "d (", NULL);
	cg_done(&g);
	/* dram_bytes 0: no limit. */
	o.target.dram_bytes = 0;
	cg_ok(&g, CHAIN, &o);
	cg_done(&g);
}

static void test_plan_grids(void **state)
{
	(void)state;
	struct cg g = {0};
	struct ttc_codegen_options o = ttc_codegen_defaults();
	struct ttc_op_size sizes[] = {{"b", 2, 3}, {"c", 7, 1}};

	cg_ok(&g, CHAIN, &o);
	for (unsigned k = 0; k < 4; k++)
		assert_attr(&g.d->programs[0].ops[k], "grid", "8x7");
	assert_int_equal(g.d->grid.x, 8);
	assert_int_equal(g.d->grid.y, 7);
	assert_string_equal(g.d->arch, "wormhole_b0");
	cg_done(&g);

	/* override_op_size: r rows of c columns, written columns x rows. */
	o.op_sizes = sizes;
	o.nop_sizes = 2;
	cg_ok(&g, CHAIN, &o);
	assert_attr(rec(g.d, "a"), "grid", "8x7");
	assert_attr(rec(g.d, "b"), "grid", "3x2");
	assert_attr(rec(g.d, "c"), "grid", "1x7");
	assert_attr(rec(g.d, "d"), "grid", "8x7");
	cg_done(&g);

	/* place_on_one_row: one row of the grid, overrides still win. */
	o.place_on_one_row = true;
	cg_ok(&g, CHAIN, &o);
	assert_attr(rec(g.d, "a"), "grid", "8x1");
	assert_attr(rec(g.d, "b"), "grid", "3x2");
	cg_done(&g);
	o.place_on_one_row = false;

	/* Larger than the target, or empty: refused naming the op. */
	sizes[1] = (struct ttc_op_size){"c", 8, 1};
	cg_fails(&g, CHAIN, &o, -EINVAL, "override_op_size 8x1 for c",
		 "7 rows of 8 cores", NULL);
	cg_done(&g);
	sizes[1] = (struct ttc_op_size){"c", 1, 9};
	cg_fails(&g, CHAIN, &o, -EINVAL, "override_op_size 1x9 for c", NULL);
	cg_done(&g);
	sizes[1] = (struct ttc_op_size){"c", 0, 1};
	cg_fails(&g, CHAIN, &o, -EINVAL, "override_op_size 0x1 for c", NULL);
	cg_done(&g);

	/* Options out of range are refused, not ignored. */
	o = ttc_codegen_defaults();
	o.balancer = "min-dram";
	cg_fails(&g, CHAIN, &o, -EINVAL, "balancer 'min-dram'",
		 "greedy and min_dram", NULL);
	cg_done(&g);
	o = ttc_codegen_defaults();
	o.l1_fraction = 1.5;
	cg_fails(&g, CHAIN, &o, -EINVAL, "l1_fraction 1.5 is not 0..1", NULL);
	cg_done(&g);
	o.l1_fraction = -0.25;
	cg_fails(&g, CHAIN, &o, -EINVAL, "l1_fraction -0.25", NULL);
	cg_done(&g);
	o.l1_fraction = 0.25;
	sizes[0].op = NULL;
	o.op_sizes = sizes;
	o.nop_sizes = 2;
	cg_fails(&g, CHAIN, &o, -EINVAL, "override_op_size #0 names no op",
		 NULL);
	cg_done(&g);
	o.op_sizes = NULL;
	cg_fails(&g, CHAIN, &o, -EINVAL, "override_op_size #0 names no op",
		 NULL);
	cg_done(&g);
	o.nop_sizes = 0;
	o.l1_fraction = 1.0;
	o.balancer = NULL; /* greedy */
	cg_ok(&g, CHAIN, &o);
	cg_done(&g);

	/* Recorded options go into the description. */
	const struct tt_model_attr rec_opts[] = {{"balancer", "greedy"},
						 {"seed", "7"}};

	o = ttc_codegen_defaults();
	o.record = rec_opts;
	o.nrecord = 2;
	cg_ok(&g, CHAIN, &o);
	assert_int_equal(g.d->noptions, 2);
	assert_string_equal(g.d->options[1].name, "seed");
	assert_string_equal(g.d->options[1].value, "7");
	cg_done(&g);
}


/* set_epoch_break / set_chip_break: records carry their epoch and chip;
 * an activation alive across a break waits in DRAM; a break naming no op
 * is refused. */
static void test_plan_epochs(void **state)
{
	(void)state;
	struct cg g = {0};
	struct ttc_codegen_options o = ttc_codegen_defaults();
	const char *eb[] = {"c"}, *chb[] = {"b"}, *bad[] = {"nosuch"};

	o.epoch_breaks = eb;
	o.nepoch_breaks = 1;
	cg_ok(&g, CHAIN, &o);
	assert_attr(rec(g.d, "a"), "epoch", "0");
	assert_attr(rec(g.d, "b"), "epoch", "0");
	assert_attr(rec(g.d, "c"), "epoch", "1");
	assert_attr(rec(g.d, "d"), "chip", "0");
	/* b is written in epoch 0 and read by c in epoch 1: DRAM. */
	assert_false(tensor(g.d, "b")->l1);
	assert_true(tensor(g.d, "a")->l1);
	assert_true(tensor(g.d, "c")->l1);
	cg_done(&g);

	o.chip_breaks = chb;
	o.nchip_breaks = 1;
	cg_ok(&g, CHAIN, &o);
	assert_attr(rec(g.d, "b"), "epoch", "1");
	assert_attr(rec(g.d, "b"), "chip", "1");
	assert_attr(rec(g.d, "c"), "epoch", "2");
	assert_attr(rec(g.d, "c"), "chip", "1");
	assert_false(tensor(g.d, "a")->l1);
	assert_false(tensor(g.d, "b")->l1);
	cg_done(&g);

	o.chip_breaks = NULL;
	o.nchip_breaks = 0;
	o.epoch_breaks = bad;
	cg_fails(&g, CHAIN, &o, -EINVAL, "epoch break at nosuch",
		 "no op has that name", NULL);
	cg_done(&g);

	/* Without breaks, no epoch attributes. */
	cg_ok(&g, CHAIN, NULL);
	assert_attr(rec(g.d, "a"), "epoch", NULL);
	cg_done(&g);
}

/* Convolutions: activations as rows, weights as the device matrix, a
 * residual add and relu staying in rows, natural shapes back before a
 * matmul and at the output. */
#define TIMG "tensor<1x8x8x16xf32>"
#define TOUT "tensor<1x8x8x32xf32>"
#define CONV_MODEL                                                             \
	"module {\n  func.func @f(%x: " TIMG " loc(\"x\"), "                      \
	"%w: tensor<32x16x3x3xf32> {ttcore.argument_type = "                     \
	"#ttcore.argument_type<parameter>} loc(\"w\"), "                          \
	"%b: tensor<1x1x1x32xf32> {ttcore.argument_type = "                      \
	"#ttcore.argument_type<parameter>} loc(\"b\")) -> " TOUT " {\n"          \
	"%0 = \"ttir.conv2d\"(%x, %w, %b) <{stride = 1 : i32, padding = 1 : i32, " \
	"dilation = 1 : i32, groups = 1 : i32}> : (" TIMG                         \
	", tensor<32x16x3x3xf32>, tensor<1x1x1x32xf32>) -> " TOUT " loc(\"conv\")\n" \
	"%1 = \"ttir.relu\"(%0) : (" TOUT ") -> " TOUT " loc(\"act\")\n"          \
	"%2 = \"ttir.add\"(%1, %b) : (" TOUT ", tensor<1x1x1x32xf32>) -> " TOUT   \
	" loc(\"shift\")\n"                                                       \
	"return %2 : " TOUT "\n  }\n}\n"

static void test_lower_conv(void **state)
{
	(void)state;
	struct cg g = {0};
	const struct tt_model_op *conv, *nat;
	const struct tt_model_tensor *w;

	cg_ok(&g, CONV_MODEL, NULL);
	/* x is natural; a reshape makes its rows. */
	assert_int_equal(tensor(g.d, "x")->shape.rank, 4);
	assert_int_equal(tensor(g.d, "x.rows")->shape.dims[2], 64);
	conv = rec(g.d, "conv");
	assert_string_equal(conv->op, "conv2d");
	assert_attr(conv, "batch", "1");
	assert_attr(conv, "in_h", "8");
	assert_attr(conv, "kernel_w", "3");
	assert_attr(conv, "pad_bottom", "1");
	assert_attr(conv, "groups", "1");
	/* Weights as the device matrix: 9 taps x 32 (16 padded) rows. */
	w = &g.d->tensors[conv->in[1]];
	assert_int_equal(w->kind, TT_MODEL_PARAM);
	assert_int_equal(w->shape.dims[2], 9 * 32);
	assert_int_equal(w->shape.dims[3], 32);
	assert_int_equal(g.d->tensors[conv->in[2]].shape.rank, 1);
	/* relu and the per-channel add stay in rows. */
	assert_int_equal(tensor(g.d, "act")->shape.dims[2], 64);
	assert_int_equal(tensor(g.d, "shift")->shape.dims[2], 64);
	/* The output has its natural shape, through one reshape. */
	nat = rec(g.d, "shift.nhwc");
	assert_string_equal(nat->op, "reshape");
	assert_int_equal(g.d->tensors[nat->out].kind, TT_MODEL_OUTPUT);
	assert_int_equal(g.d->tensors[nat->out].shape.dims[1], 8);
	cg_done(&g);
}

/* models/mlp.mlir, with the passes, on the default target. */
static void test_mlp(void **state)
{
	(void)state;
	struct cg g = {0};
	const char *src = getenv("TT_TEST_SRC");
	char path[512];
	FILE *fp;
	size_t n;

	if (!src)
		skip();
	snprintf(path, sizeof(path), "%s/../models/mlp.mlir", src);
	fp = fopen(path, "r");
	assert_non_null(fp);
	n = fread(text_buf, 1, sizeof(text_buf) - 1, fp);
	fclose(fp);
	text_buf[n] = '\0';
	g.ctx = ttc_ctx_new_ttir();
	g.m = parse_ok(g.ctx, text_buf);
	/* AMP level 1: matmul weights in Bfp8_b. */
	struct ttc_pass_options po = ttc_pass_options_default();

	po.amp_level = 1;
	if (ttc_run_passes(g.m, NULL, 0, &po, NULL))
		fail_msg("%s", ttc_ctx_error(g.ctx));
	g.f = ttc_module_lookup(g.m, "forward");
	for (size_t i = 1; i < ttc_func_num_args(g.f); i++) {
		g.params[i] = ttc_tensor_new(
			g.ctx, ttc_value_type(ttc_func_arg(g.f, i)));
		for (size_t k = 0; k < g.params[i]->numel; k++)
			ttc_tensor_set(g.params[i], k, ramp(i, k));
	}
	if (ttc_codegen(g.f, NULL, param_of, &g, &g.c))
		fail_msg("%s", ttc_ctx_error(g.ctx));
	g.d = ttc_compiled_desc(g.c);
	check_round_trip(g.d);
	assert_int_equal(tensor(g.d, "x")->kind, TT_MODEL_INPUT);
	assert_int_equal(tensor(g.d, "fc1.weight")->kind, TT_MODEL_PARAM);
	assert_int_equal(tensor(g.d, "probs")->kind, TT_MODEL_OUTPUT);
	assert_string_equal(rec(g.d, "norm")->op, "layernorm");
	assert_string_equal(rec(g.d, "probs")->op, "softmax");
	assert_int_equal(tensor(g.d, "fc1.weight")->format, TT_BFP8_B);
	assert_int_equal(tensor(g.d, "head.weight")->format, TT_BFP8_B);
	assert_int_equal(tensor(g.d, "fc1.weight")->data_format, TT_FLOAT16_B);
	assert_int_equal(tensor(g.d, "fc1.bias")->format, TT_FLOAT16_B);
	assert_attr(rec(g.d, "fc1"), "fidelity", "HiFi2");
	cg_done(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lower_unary),
		cmocka_unit_test(test_lower_binary_where_typecast),
		cmocka_unit_test(test_lower_matmul),
		cmocka_unit_test(test_lower_softmax),
		cmocka_unit_test(test_lower_norm),
		cmocka_unit_test(test_lower_reduce),
		cmocka_unit_test(test_lower_data_movement),
		cmocka_unit_test(test_lower_pass_attrs),
		cmocka_unit_test(test_lower_int_fp32_acc),
		cmocka_unit_test(test_lower_argmax),
		cmocka_unit_test(test_lower_results),
		cmocka_unit_test(test_lower_pad),
		cmocka_unit_test(test_lower_embedding),
		cmocka_unit_test(test_lower_repeat_cumsum),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_param_value_shape),
		cmocka_unit_test(test_tensor_names),
		cmocka_unit_test(test_tensor_kinds_formats_data),
		cmocka_unit_test(test_int_data_and_creation),
		cmocka_unit_test(test_plan_lifetimes),
		cmocka_unit_test(test_plan_budget),
		cmocka_unit_test(test_plan_demote),
		cmocka_unit_test(test_plan_dram_limit),
		cmocka_unit_test(test_plan_grids),
		cmocka_unit_test(test_plan_epochs),
		cmocka_unit_test(test_lower_conv),
		cmocka_unit_test(test_mlp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
