// SPDX-License-Identifier: Apache-2.0
/* ttc golden: run a function of a TTIR module on the CPU goldens and
 * write its outputs (and with --all every intermediate) as .npy. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ttc/golden.h"
#include "ttc/ops.h"
#include "ttc/text.h"

#include "cli.h"
#include "golden_compare.h"

#define MAX_INPUTS 64

struct golden_opts {
	const char *in, *dir, *func, *compare;
	struct ttc_compare_want want;
	const char *names[MAX_INPUTS], *paths[MAX_INPUTS];
	size_t ninputs;
	bool random, all;
	unsigned long long seed;
	enum tt_data_format fmt;
	struct cli_model_opts model;
	const struct cli_model *src;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ttc golden [OPTIONS] FILE\n"
		"\n"
		"Run a function of the TTIR module in FILE (or the ONNX model\n"
		"FILE.onnx, whose initializers give its parameters) on the CPU\n"
		"goldens and write each output as DIR/output_N.npy.\n"
		"\n"
		"Options:\n"
		"  -i, --input NAME=X.npy  the argument NAME (argN, %%argN, N, or\n"
		"                          the name of its loc(\"...\")) from X.npy\n"
		"      --random SEED       arguments not given get seeded values\n"
		"  -o, --output DIR        where to write (default: .)\n"
		"      --all               also every op's result, as DIR/vN.npy\n"
		"                          (%%N of 'ttc parse'; vN_I.npy for %%N#I)\n"
		"      --func NAME         the function to run (default: the first)\n"
		"      --input-shape NAME=DxD...  an ONNX input's shape, for\n"
		"                          symbolic or missing dimensions\n"
		"      --format FMT        as the device rounds: bf16, fp16,\n"
		"                          bfp8_b or bfp4_b (default: fp32)\n"
		"      --compare DIR       compare each output (and with --all each\n"
		"                          result found there) with DIR/NAME.npy:\n"
		"                          one JSON record per tensor on stdout\n"
		"      --pcc X             the PCC a comparison needs (0.99)\n"
		"      --atol X, --rtol X  also require allclose with these\n"
		"                          (1e-8, 1e-5 when only one is given)\n"
		"  -h, --help              this help\n"
		"\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  the input does not parse or verify, an input tensor is\n"
		"     missing or does not match its argument, an op has no\n"
		"     golden, a file cannot be read or written, or a\n"
		"     comparison failed\n"
		"  2  usage error\n");
}

static int add_input(struct golden_opts *o, char *arg)
{
	if (o->ninputs == MAX_INPUTS)
		return usage_error("golden", "more than %d --input", MAX_INPUTS);
	if (cli_split("golden", "--input", "FILE.npy", arg,
		      &o->names[o->ninputs], &o->paths[o->ninputs]))
		return EXIT_USAGE;
	o->ninputs++;
	return 0;
}

static int parse_format(struct golden_opts *o, const char *s)
{
	if (tt_data_format_parse(s, &o->fmt) ||
	    (o->fmt != TT_FLOAT32 && o->fmt != TT_FLOAT16 &&
	     o->fmt != TT_FLOAT16_B && o->fmt != TT_BFP8_B &&
	     o->fmt != TT_BFP4_B))
		return usage_error("golden", "unknown --format '%s' (fp32, "
					     "bf16, fp16, bfp8_b, bfp4_b)", s);
	return 0;
}

static int parse_seed(struct golden_opts *o, const char *s)
{
	char *end;

	errno = 0;
	o->seed = strtoull(s, &end, 0);
	if (!*s || *end || errno || *s == '-')
		return usage_error("golden", "--random wants a number, got "
					     "'%s'", s);
	o->random = true;
	return 0;
}

static int parse_number(const char *opt, const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	if (!*s || *end || !(*v >= 0))
		return usage_error("golden", "%s wants a number >= 0, got '%s'",
				   opt, s);
	return 0;
}

static int parse_args(int argc, char **argv, struct golden_opts *o)
{
	enum { O_RANDOM = 256, O_ALL, O_FUNC, O_FORMAT, O_COMPARE, O_PCC,
	       O_ATOL, O_RTOL, O_SHAPE };
	static const struct option longs[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "random", required_argument, NULL, O_RANDOM },
		{ "all", no_argument, NULL, O_ALL },
		{ "func", required_argument, NULL, O_FUNC },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "compare", required_argument, NULL, O_COMPARE },
		{ "pcc", required_argument, NULL, O_PCC },
		{ "atol", required_argument, NULL, O_ATOL },
		{ "rtol", required_argument, NULL, O_RTOL },
		{ "input-shape", required_argument, NULL, O_SHAPE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc = 0;

	opterr = 0;
	optind = 1;
	while (!rc && (c = getopt_long(argc, argv, ":i:o:h", longs, NULL)) != -1) {
		switch (c) {
		case 'i': rc = add_input(o, optarg); break;
		case 'o': o->dir = optarg; break;
		case O_RANDOM: rc = parse_seed(o, optarg); break;
		case O_ALL: o->all = true; break;
		case O_FUNC: o->func = optarg; break;
		case O_SHAPE: rc = cli_add_shape("golden", &o->model, optarg); break;
		case O_FORMAT: rc = parse_format(o, optarg); break;
		case O_COMPARE: o->compare = optarg; break;
		case O_PCC: rc = parse_number("--pcc", optarg, &o->want.pcc); break;
		case O_ATOL:
			rc = parse_number("--atol", optarg, &o->want.atol);
			o->want.check_allclose = true;
			break;
		case O_RTOL:
			rc = parse_number("--rtol", optarg, &o->want.rtol);
			o->want.check_allclose = true;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case ':':
			return usage_error("golden", "option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return usage_error("golden", "unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (rc)
		return rc;
	if (optind == argc)
		return usage_error("golden", "no input file given");
	if (optind + 1 < argc)
		return usage_error("golden", "one input file only, got '%s' too",
				   argv[optind + 1]);
	o->in = argv[optind];
	return 0;
}

/* NumPy has no bfloat16: an f32 array for a bf16 argument of its shape
 * is rounded to it. Anything else is left for the interpreter's check. */
static ttc_tensor *as_arg(ttc_ctx *ctx, ttc_tensor *t, const ttc_type *want)
{
	const ttc_type *e = ttc_type_elem(want);

	if (ttc_type_kind(e) != TTC_TYPE_FLOAT ||
	    ttc_type_float_kind(e) != TTC_BF16 ||
	    ttc_type_elem(t->type) != ttc_float_type(ctx, TTC_F32) ||
	    ttc_type_rank(t->type) != ttc_type_rank(want) ||
	    memcmp(ttc_type_dims(t->type), ttc_type_dims(want),
		   ttc_type_rank(want) * sizeof(int64_t)))
		return t;
	ttc_tensor *b = ttc_tensor_new(ctx, want);

	for (size_t i = 0; b && i < t->numel; i++)
		ttc_tensor_set(b, i, ttc_tensor_get(t, i));
	ttc_tensor_free(t);
	return b;
}

/* Each argument's tensor from --input or --random; 0 or EXIT_FAIL. */
static int load_args(ttc_ctx *ctx, ttc_func *f, const struct golden_opts *o,
		     ttc_tensor **args)
{
	size_t n = ttc_func_num_args(f);

	for (size_t k = 0; k < o->ninputs; k++) {
		size_t i = 0;

		while (i < n && !cli_names_arg(f, i, o->names[k]))
			i++;
		if (i == n) {
			fprintf(stderr, "ttc: --input %s: @%s has no argument "
					"of that name (it has %zu: arg0 ... or "
					"their loc names)\n",
				o->names[k], ttc_func_name(f), n);
			return EXIT_FAIL;
		}
		ttc_tensor_free(args[i]);
		args[i] = ttc_tensor_load_npy(ctx, o->paths[k]);
		if (args[i])
			args[i] = as_arg(ctx, args[i],
					 ttc_value_type(ttc_func_arg(f, i)));
		if (!args[i])
			return EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++) {
		const ttc_tensor *t = cli_model_param(o->src, f, i);

		if (!args[i] && t && !(args[i] = ttc_tensor_clone(t)))
			return EXIT_FAIL;
		if (args[i])
			continue;
		if (!o->random) {
			fprintf(stderr, "ttc: no --input for argument #%zu "
					"(arg%zu) of @%s, and no --random\n",
				i, i, ttc_func_name(f));
			return EXIT_FAIL;
		}
		args[i] = ttc_tensor_random(ctx, ttc_value_type(ttc_func_arg(f, i)),
					    o->seed + i);
		if (!args[i])
			return EXIT_FAIL;
	}
	return 0;
}

struct writer {
	ttc_ctx *ctx;
	const struct golden_opts *o;
	int failed; /* comparisons that failed */
	const char *dir;
	const ttc_op *last; /* the op of the last result written */
	size_t next, num;   /* %N as the printer numbers ops with results */
};

/* Writes DIR/NAME.npy, and compares it when asked (required: an output,
 * which must have its counterpart). */
static int write_named(struct writer *w, const char *name,
		       const ttc_tensor *t, bool required)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s.npy", w->dir, name);
	if (ttc_tensor_save_npy(w->ctx, t, path))
		return -EIO;
	printf("%s\n", path);
	if (w->o->compare)
		w->failed += golden_compare(w->ctx, w->o->compare, name, t,
					    &w->o->want, required);
	return 0;
}

static int write_npy(struct writer *w, const char *stem, size_t n,
		     const ttc_tensor *t, bool required)
{
	char name[64];

	snprintf(name, sizeof(name), "%s%zu", stem, n);
	return write_named(w, name, t, required);
}

/* Result r of op as vN.npy, or vN_r.npy for %N#r of a multi-result op. */
static int visit(void *arg, const ttc_op *op, size_t r, const ttc_tensor *t)
{
	struct writer *w = arg;
	char name[64];

	if (op != w->last) {
		w->last = op;
		w->num = w->next++;
	}
	if (ttc_op_num_results(op) == 1)
		return write_npy(w, "v", w->num, t, false);
	snprintf(name, sizeof(name), "v%zu_%zu", w->num, r);
	return write_named(w, name, t, false);
}

static int run(ttc_ctx *ctx, ttc_module *m, const struct golden_opts *o)
{
	ttc_func *f = cli_pick_func(m, o->func);

	if (!f) {
		fprintf(stderr, "ttc: %s: no function %s%s to run\n", o->in,
			o->func ? "@" : "", o->func ? o->func : "");
		return EXIT_FAIL;
	}
	size_t na = ttc_func_num_args(f), nr = ttc_func_num_results(f);
	ttc_tensor **args = calloc(na + 1, sizeof(*args));
	ttc_tensor **res = calloc(nr + 1, sizeof(*res));
	struct writer w = { .ctx = ctx, .o = o, .dir = o->dir };
	struct ttc_golden_opts go = { .fmt = o->fmt,
				      .visit = o->all ? visit : NULL,
				      .visit_arg = &w };
	int rc = !args || !res ? EXIT_FAIL : load_args(ctx, f, o, args);

	if (!rc && ttc_golden_run(f, args, na, res, &go))
		rc = EXIT_FAIL;
	for (size_t i = 0; !rc && i < nr; i++)
		if (write_npy(&w, "output_", i, res[i], true))
			rc = EXIT_FAIL;
	if (!rc && w.failed)
		rc = EXIT_FAIL;
	for (size_t i = 0; i < na && args; i++)
		ttc_tensor_free(args[i]);
	for (size_t i = 0; i < nr && res; i++)
		ttc_tensor_free(res[i]);
	free(args);
	free(res);
	return rc;
}

int cmd_golden(int argc, char **argv)
{
	struct golden_opts o = { .dir = ".", .fmt = TT_FLOAT32,
				 .want = ttc_compare_defaults() };
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	if (mkdir(o.dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "ttc: %s: %s\n", o.dir, strerror(errno));
		return EXIT_FAIL;
	}
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	struct cli_model m;

	rc = cli_load_model(ctx, o.in, &o.model, &m);
	o.src = &m;
	if (!rc)
		rc = run(ctx, m.module, &o);
	fputs(ttc_ctx_error(ctx), stderr);
	cli_model_free(&m);
	ttc_ctx_free(ctx);
	return rc;
}
