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
#include <time.h>

#include "tt/model.h"
#include "tt/tensor.h"
#include "ttc/golden.h"

#include "cli.h"

#define MAX_INPUTS 64

struct run_opts {
	const char *in, *dir, *program, *profile;
	const char *names[MAX_INPUTS], *paths[MAX_INPUTS];
	size_t ninputs;
	bool random;
	unsigned long long seed, loops;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ttc run [OPTIONS] MODEL.tti\n"
		"\n"
		"Load a compiled model on the device (the card, else the\n"
		"embedded chip model; TT_TRANSPORT picks one), run it and write\n"
		"each output as DIR/output_N.npy (N in the image's output order).\n"
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
		"  -h, --help              this help\n"
		"\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  the image is refused (damaged, or for another chip), an\n"
		"     input is missing or does not match, a run fails, or a file\n"
		"     cannot be read or written\n"
		"  2  usage error\n"
		"  3  no device\n");
}

static int parse_args(int argc, char **argv, struct run_opts *o)
{
	enum { O_RANDOM = 256, O_PROGRAM, O_LOOPS, O_PROFILE };
	static const struct option longs[] = {
		{"input", required_argument, NULL, 'i'},
		{"output", required_argument, NULL, 'o'},
		{"random", required_argument, NULL, O_RANDOM},
		{"program", required_argument, NULL, O_PROGRAM},
		{"loops", required_argument, NULL, O_LOOPS},
		{"profile", required_argument, NULL, O_PROFILE},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char *end, *eq;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":i:o:h", longs, NULL)) != -1) {
		switch (c) {
		case 'i':
			eq = strchr(optarg, '=');
			if (!eq || eq == optarg || !eq[1])
				return usage_error("run", "--input wants NAME=FILE.npy, got '%s'",
						   optarg);
			if (o->ninputs == MAX_INPUTS)
				return usage_error("run", "more than %d --input",
						   MAX_INPUTS);
			*eq = 0;
			o->names[o->ninputs] = optarg;
			o->paths[o->ninputs++] = eq + 1;
			break;
		case 'o': o->dir = optarg; break;
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
	for (size_t i = 0; x && i < nin; i++)
		tt_tensor_free(x[i]);
	for (size_t i = 0; y && i < nout; i++)
		tt_tensor_free(y[i]);
	free(x);
	free(y);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = {.dir = ".", .loops = 1};
	tt_device *dev = NULL;
	tt_model *m = NULL;
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	if (mkdir(o.dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "ttc: %s: %s\n", o.dir, strerror(errno));
		return EXIT_FAIL;
	}
	if (o.profile)
		setenv("TT_OPS_PROFILE", o.profile, 1);
	if (tt_device_open(0, &dev)) {
		fprintf(stderr, "ttc: no device: %s\n", tt_last_error());
		return 3;
	}
	if (tt_model_load(dev, o.in, &m)) {
		fprintf(stderr, "ttc: %s\n", tt_last_error());
		rc = EXIT_FAIL;
	} else {
		rc = run(m, &o);
	}
	tt_model_free(m);
	tt_device_close(dev);
	return rc;
}
