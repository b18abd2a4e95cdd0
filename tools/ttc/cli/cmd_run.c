// SPDX-License-Identifier: Apache-2.0
/* ttc run: load an image on a device (libtt alone: no compiler needed) and
 * run it on .npy inputs or seeded ones; outputs as .npy, times per run
 * (docs/ttc.md). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>

#include "tt/model.h"
#include "tt/tensor.h"
#include "ttc/golden.h"
#include "ttc/ops.h"
#include "ttc/text.h"
#include "ttc/verify.h"

#include "cli.h"

#define MAX_INPUTS 64

struct run_opts {
	const char *in, *dir, *program, *profile;
	const char *names[MAX_INPUTS], *paths[MAX_INPUTS];
	size_t ninputs;
	bool random;
	unsigned long long seed, loops;
	/* --verify SOURCE: its parameters as for ttc compile. */
	const char *verify;
	const char *pnames[MAX_INPUTS], *ppaths[MAX_INPUTS];
	size_t nparams;
	bool random_params;
	unsigned long long param_seed;
	double pcc;
	/* an ONNX model: compiled first, with these --input-shape */
	char *shapes[CLI_MAX_SHAPES];
	size_t nshapes;
};

enum { O_RANDOM = 256, O_PROGRAM, O_LOOPS, O_PROFILE, O_VERIFY, O_RPARAMS,
       O_PCC, O_SHAPE };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ttc run [OPTIONS] MODEL.tti|MODEL.onnx\n"
		"\n"
		"Load a compiled model on the device (the card, else the\n"
		"embedded chip model; TT_TRANSPORT picks one), run it and write\n"
		"each output as DIR/output_N.npy (N in the image's output order).\n"
		"An ONNX model is compiled first ('ttc compile' with its\n"
		"defaults) into a temporary image.\n"
		"\n"
		"Options:\n"
		"  -i, --input NAME=X.npy  the input NAME ('ttc info' lists them)\n"
		"      --random SEED       inputs not given get seeded values,\n"
		"                          uniform in [-1, 1): input N the\n"
		"                          values 'ttc golden --random SEED' gives\n"
		"                          argument N\n"
		"  -o, --output DIR        where to write (default: .)\n"
		"      --program NAME      the program to run (default: the first)\n"
		"      --loops N           run N times (default 1); prints the\n"
		"                          time of each\n"
		"      --profile PREFIX    write PREFIX.json (Chrome trace) and\n"
		"                          PREFIX.csv: every op's time\n"
		"      --verify SOURCE     then run op by op and compare every\n"
		"                          op's result with its golden from the\n"
		"                          TTIR the image was compiled from;\n"
		"                          prints the report, the first failing\n"
		"                          op first\n"
		"  -p, --param NAME=X.npy  with --verify: a parameter's value, as\n"
		"                          given to 'ttc compile'\n"
		"      --random-params SEED  with --verify: the rest seeded as\n"
		"                          'ttc compile' did (default: the seed\n"
		"                          the image records)\n"
		"      --pcc X             with --verify: the threshold (0.99)\n"
		"      --input-shape NAME=DxD...  an ONNX input's shape, for\n"
		"                          symbolic or missing dimensions\n"
		"  -h, --help              this help\n"
		"\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  an op fails verification, the image is refused (damaged,\n"
		"     or for another chip, or not compiled from SOURCE), an\n"
		"     input is missing or does not match, a run fails, or a file\n"
		"     cannot be read or written\n"
		"  2  usage error\n"
		"  3  no device\n");
}

/* --verify's options: 'p' (--param), O_VERIFY, O_RPARAMS, O_PCC. */
static int verify_opt(struct run_opts *o, int c, char *arg)
{
	char *end, *eq;

	if (c == 'p') {
		eq = strchr(arg, '=');
		if (!eq || eq == arg || !eq[1])
			return usage_error("run", "--param wants NAME=FILE.npy, got '%s'",
					   arg);
		if (o->nparams == MAX_INPUTS)
			return usage_error("run", "more than %d --param",
					   MAX_INPUTS);
		*eq = 0;
		o->pnames[o->nparams] = arg;
		o->ppaths[o->nparams++] = eq + 1;
		return 0;
	}
	if (c == O_VERIFY) {
		o->verify = arg;
		return 0;
	}
	errno = 0;
	if (c == O_RPARAMS) {
		o->param_seed = strtoull(arg, &end, 0);
		o->random_params = true;
		if (!*arg || *end || errno || *arg == '-')
			return usage_error("run", "--random-params wants a number, got '%s'",
					   arg);
		return 0;
	}
	o->pcc = strtod(arg, &end);
	if (!*arg || *end || errno || !(o->pcc >= -1 && o->pcc <= 1))
		return usage_error("run", "--pcc wants a number -1..1, got '%s'",
				   arg);
	return 0;
}

static int parse_args(int argc, char **argv, struct run_opts *o)
{
	static const struct option longs[] = {
		{"input", required_argument, NULL, 'i'},
		{"output", required_argument, NULL, 'o'},
		{"random", required_argument, NULL, O_RANDOM},
		{"program", required_argument, NULL, O_PROGRAM},
		{"loops", required_argument, NULL, O_LOOPS},
		{"profile", required_argument, NULL, O_PROFILE},
		{"verify", required_argument, NULL, O_VERIFY},
		{"param", required_argument, NULL, 'p'},
		{"random-params", required_argument, NULL, O_RPARAMS},
		{"pcc", required_argument, NULL, O_PCC},
		{"input-shape", required_argument, NULL, O_SHAPE},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char *end;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":i:o:p:h", longs, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (o->ninputs == MAX_INPUTS)
				return usage_error("run", "more than %d --input",
						   MAX_INPUTS);
			if (cli_split("run", "--input", "FILE.npy", optarg,
				      &o->names[o->ninputs],
				      &o->paths[o->ninputs]))
				return EXIT_USAGE;
			o->ninputs++;
			break;
		case 'p':
		case O_VERIFY:
		case O_RPARAMS:
		case O_PCC:
			if (verify_opt(o, c, optarg))
				return EXIT_USAGE;
			break;
		case 'o': o->dir = optarg; break;
		case O_SHAPE:
			if (o->nshapes == CLI_MAX_SHAPES)
				return usage_error("run", "more than %d --input-shape",
						   CLI_MAX_SHAPES);
			o->shapes[o->nshapes++] = optarg;
			break;
		case O_PROGRAM: o->program = optarg; break;
		case O_PROFILE: o->profile = optarg; break;
		case O_RANDOM:
		case O_LOOPS:
			errno = 0;
			*(c == O_RANDOM ? &o->seed : &o->loops) =
				strtoull(optarg, &end, 0);
			if (!*optarg || *end || errno || *optarg == '-' ||
			    (c == O_LOOPS && (o->loops < 1 || o->loops > 1000000)))
				return usage_error("run", "%s wants a number%s, got '%s'",
						   argv[optind - 1],
						   c == O_LOOPS ? " 1..1000000" : "",
						   optarg);
			o->random |= c == O_RANDOM;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case ':':
			return usage_error("run", "option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return usage_error("run", "unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (optind == argc)
		return usage_error("run", "no image given");
	if (optind + 1 < argc)
		return usage_error("run", "one image only, got '%s' too",
				   argv[optind + 1]);
	o->in = argv[optind];
	if (!o->verify && (o->nparams || o->random_params || o->pcc))
		return usage_error("run", "--param, --random-params and --pcc go with --verify");
	if (o->nshapes && !cli_is_onnx(o->in))
		return usage_error("run", "--input-shape goes with an ONNX model");
	return 0;
}

/* Seeded values as 'ttc golden --random' gives an f32 argument: the
 * same seed, the same values, so a run and its golden see one input. */
static int random_input(const struct tt_model_tensor *t, uint64_t seed,
			tt_tensor **out)
{
	ttc_ctx *ctx = ttc_ctx_new();
	int64_t dims[TT_TENSOR_MAX_RANK];
	ttc_tensor *h = NULL;
	int ret = -ENOMEM;

	for (unsigned k = 0; k < t->shape.rank; k++)
		dims[k] = (int64_t)t->shape.dims[k];
	if (ctx)
		h = ttc_tensor_random(ctx,
				      ttc_tensor_type(ctx, dims, t->shape.rank,
						      ttc_float_type(ctx, TTC_F32),
						      NULL),
				      seed);
	if (h)
		ret = tt_tensor_from_data(&t->shape, TT_FLOAT32,
					  TT_TENSOR_ROW_MAJOR, h->data,
					  h->numel * sizeof(float), out);
	ttc_tensor_free(h);
	ttc_ctx_free(ctx);
	return ret;
}

/* The model's inputs in order, from --input or --random. */
static int load_inputs(const struct tt_model_desc *d,
		       const struct run_opts *o, tt_tensor **x, size_t *n)
{
	size_t k = 0;

	for (size_t g = 0; g < o->ninputs; g++) {
		bool found = false;

		for (unsigned i = 0; i < d->ntensors; i++)
			found |= d->tensors[i].kind == TT_MODEL_INPUT &&
				 !strcmp(d->tensors[i].name, o->names[g]);
		if (!found) {
			fprintf(stderr, "ttc: --input %s: %s has no input of that name\n",
				o->names[g], o->in);
			return EXIT_FAIL;
		}
	}
	for (unsigned i = 0; i < d->ntensors; i++) {
		const struct tt_model_tensor *t = &d->tensors[i];
		int ret = 1;

		if (t->kind != TT_MODEL_INPUT)
			continue;
		for (size_t g = 0; g < o->ninputs && ret > 0; g++)
			if (!strcmp(t->name, o->names[g]))
				ret = tt_tensor_load_npy(o->paths[g], &x[k]);
		if (ret > 0 && o->random)
			ret = random_input(t, o->seed + k, &x[k]);
		if (ret > 0) {
			fprintf(stderr, "ttc: no --input for input %s, and no --random\n",
				t->name);
			return EXIT_FAIL;
		}
		if (ret) {
			fprintf(stderr, "ttc: input %s: %s\n", t->name,
				tt_last_error());
			return EXIT_FAIL;
		}
		k++;
	}
	*n = k;
	return 0;
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int save_outputs(const struct tt_model_desc *d, const char *dir,
			tt_tensor **y, size_t n)
{
	char path[4096];

	(void)d;
	for (size_t i = 0; i < n; i++) {
		tt_tensor *f = NULL;
		int ret = tt_tensor_to(y[i], TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &f);

		snprintf(path, sizeof(path), "%s/output_%zu.npy", dir, i);
		if (!ret)
			ret = tt_tensor_save_npy(f, path);
		tt_tensor_free(f);
		if (ret) {
			fprintf(stderr, "ttc: %s: %s\n", path, tt_last_error());
			return EXIT_FAIL;
		}
		printf("%s\n", path);
	}
	return 0;
}

static size_t count(const struct tt_model_desc *d, enum tt_model_tensor_kind k)
{
	size_t n = 0;

	for (unsigned i = 0; i < d->ntensors; i++)
		n += d->tensors[i].kind == k;
	return n;
}

/* ---- --verify ---- */

struct vparams {
	ttc_func *f;
	ttc_tensor **v; /* per argument */
	size_t n;
};

static const ttc_tensor *vparam(void *arg, ttc_func *f, size_t i)
{
	struct vparams *p = arg;

	return f == p->f && i < p->n ? p->v[i] : NULL;
}

/* The seed ttc compile --random-params recorded, if any. */
static bool recorded_seed(const struct tt_model_desc *d,
			  unsigned long long *seed)
{
	char *end;

	for (unsigned i = 0; i < d->noptions; i++)
		if (!strcmp(d->options[i].name, "random_params")) {
			*seed = strtoull(d->options[i].value, &end, 0);
			return !*end;
		}
	return false;
}

/* Parameters as ttc compile makes them: --param, then seeded. */
static int verify_params(ttc_ctx *ctx, struct vparams *p,
			 const struct run_opts *o,
			 const struct tt_model_desc *d)
{
	unsigned long long seed = o->param_seed;
	bool random = o->random_params || recorded_seed(d, &seed);

	p->n = ttc_func_num_args(p->f);
	p->v = calloc(p->n + 1, sizeof(*p->v));
	if (!p->v)
		return EXIT_FAIL;
	for (size_t k = 0; k < o->nparams; k++) {
		size_t i = 0;

		while (i < p->n && !cli_names_arg(p->f, i, o->pnames[k]))
			i++;
		if (i == p->n) {
			fprintf(stderr, "ttc: --param %s: @%s has no argument of that name\n",
				o->pnames[k], ttc_func_name(p->f));
			return EXIT_FAIL;
		}
		p->v[i] = ttc_tensor_load_npy(ctx, o->ppaths[k]);
		if (!p->v[i])
			return EXIT_FAIL;
	}
	for (size_t i = 0; random && i < p->n; i++)
		if (!p->v[i] && cli_arg_is_param(p->f, i))
			p->v[i] = ttc_tensor_random(
				ctx, ttc_value_type(ttc_func_arg(p->f, i)),
				seed + i);
	return 0;
}

static int verify_with(ttc_ctx *ctx, ttc_module *src, tt_model *m,
		       const struct run_opts *o, tt_tensor **x, size_t n)
{
	const struct tt_model_desc *d = tt_model_get_desc(m);
	struct vparams p = {.f = cli_pick_func(src, NULL)};
	struct ttc_verify_config v = ttc_verify_config_default();
	struct ttc_verify_result r;
	struct ttc_compile_options co;
	int rc;

	if (!p.f) {
		fprintf(stderr, "ttc: %s: no function to verify against\n",
			o->verify);
		return EXIT_FAIL;
	}
	rc = verify_params(ctx, &p, o, d);
	if (!rc && ttc_verify_options_of(ctx, d, &co))
		rc = EXIT_FAIL;
	if (!rc) {
		if (o->pcc)
			v.pcc = o->pcc;
		v.report = stdout;
		rc = ttc_verify(src, p.f, m, &co, vparam, &p, x, n, &v, &r);
		if (rc)
			fprintf(stderr, "ttc: %s: cannot verify against %s\n",
				o->in, o->verify);
		rc = rc || !r.pass ? EXIT_FAIL : 0;
		ttc_verify_result_free(&r);
	}
	for (size_t i = 0; p.v && i < p.n; i++)
		ttc_tensor_free(p.v[i]);
	free(p.v);
	return rc;
}

/* --verify: the source parsed, the model verified on the inputs. */
static int verify(tt_model *m, const struct run_opts *o, tt_tensor **x,
		  size_t n)
{
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_module *src = ctx ? ttc_parse_file(ctx, o->verify, 0) : NULL;
	int rc = EXIT_FAIL;

	if (src && !ttc_module_verify(src))
		rc = verify_with(ctx, src, m, o, x, n);
	if (ctx)
		fputs(ttc_ctx_error(ctx), stderr);
	ttc_module_free(src);
	ttc_ctx_free(ctx);
	return rc;
}

static int run(tt_model *m, const struct run_opts *o)
{
	const struct tt_model_desc *d = tt_model_get_desc(m);
	size_t nin = count(d, TT_MODEL_INPUT), nout = count(d, TT_MODEL_OUTPUT);
	tt_tensor **x = calloc(nin + 1, sizeof(*x));
	tt_tensor **y = calloc(nout + 1, sizeof(*y));
	int rc = x && y ? load_inputs(d, o, x, &nin) : EXIT_FAIL;

	for (unsigned long long l = 0; !rc && l < o->loops; l++) {
		double t0 = now_ms();

		for (size_t i = 0; i < nout; i++) {
			tt_tensor_free(y[i]);
			y[i] = NULL;
		}
		if (tt_model_run(m, o->program, x, nin, y, nout)) {
			fprintf(stderr, "ttc: %s: %s\n", o->in, tt_last_error());
			rc = EXIT_FAIL;
			break;
		}
		fprintf(stderr, "ttc: run %llu: %.3f ms\n", l + 1, now_ms() - t0);
	}
	if (!rc)
		rc = save_outputs(d, o->dir, y, nout);
	if (!rc && o->verify)
		rc = verify(m, o, x, nin);
	for (size_t i = 0; x && i < nin; i++)
		tt_tensor_free(x[i]);
	for (size_t i = 0; y && i < nout; i++)
		tt_tensor_free(y[i]);
	free(x);
	free(y);
	return rc;
}

/* ttc compile of the ONNX model into DIR/model.tti, DIR a new temporary
 * directory; the transport compile picks is put back for the run. */
static int compile_onnx(struct run_opts *o, char *dir, size_t dirlen,
			char *image, size_t n)
{
	const char *tmp = getenv("TMPDIR");
	char *argv[8 + 2 * CLI_MAX_SHAPES];
	char *transport = getenv("TT_TRANSPORT");
	int argc = 0, rc;

	snprintf(dir, dirlen, "%s/ttc-run-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "ttc: %s: %s\n", dir, strerror(errno));
		return EXIT_FAIL;
	}
	snprintf(image, n, "%s/model.tti", dir);
	transport = transport ? strdup(transport) : NULL;
	argv[argc++] = "compile";
	argv[argc++] = "-q";
	for (size_t i = 0; i < o->nshapes; i++) {
		argv[argc++] = "--input-shape";
		argv[argc++] = o->shapes[i];
	}
	argv[argc++] = (char *)o->in;
	argv[argc++] = "-o";
	argv[argc++] = image;
	argv[argc] = NULL;
	rc = cmd_compile(argc, argv);
	if (transport)
		setenv("TT_TRANSPORT", transport, 1);
	else
		unsetenv("TT_TRANSPORT");
	free(transport);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = {.dir = ".", .loops = 1};
	char dir[4096] = "", image[4200];
	tt_device *dev = NULL;
	tt_model *m = NULL;
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	if (mkdir(o.dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "ttc: %s: %s\n", o.dir, strerror(errno));
		return EXIT_FAIL;
	}
	if (cli_is_onnx(o.in)) {
		rc = compile_onnx(&o, dir, sizeof(dir), image, sizeof(image));
		o.in = image;
	}
	if (!rc && o.profile)
		setenv("TT_OPS_PROFILE", o.profile, 1);
	if (!rc && tt_device_open(0, &dev)) {
		fprintf(stderr, "ttc: no device: %s\n", tt_last_error());
		rc = 3;
	}
	if (!rc && tt_model_load(dev, o.in, &m)) {
		fprintf(stderr, "ttc: %s\n", tt_last_error());
		rc = EXIT_FAIL;
	} else if (!rc) {
		rc = run(m, &o);
	}
	tt_model_free(m);
	tt_device_close(dev);
	if (*dir) {
		unlink(image);
		rmdir(dir);
	}
	return rc;
}
