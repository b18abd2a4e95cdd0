// SPDX-License-Identifier: Apache-2.0
/* ttc compile: a TTIR model into an image (.tti) for the embedded chip
 * model of a board (docs/ttc.md). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tt/device.h"
#include "ttc/compile.h"
#include "ttc/golden.h"
#include "ttc/ops.h"
#include "ttc/text.h"

#include "cli.h"

#define MAX_LIST 64

struct compile_opts {
	const char *in, *out, *func, *board;
	const char *pnames[MAX_LIST], *ppaths[MAX_LIST];
	size_t nparams;
	struct ttc_op_size sizes[MAX_LIST];
	size_t nsizes;
	const char *epochs[MAX_LIST], *chips[MAX_LIST];
	size_t nepochs, nchips;
	bool random, quiet;
	unsigned long long seed;
	struct ttc_compile_options c;
	struct tt_model_attr record[16];
	size_t nrecord;
	struct cli_model_opts model;
	const struct cli_model *src;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ttc compile [OPTIONS] FILE -o MODEL.tti\n"
		"\n"
		"Compile a function of the TTIR module in FILE, or the ONNX\n"
		"model FILE.onnx, for the chip and write a self-contained\n"
		"image: the manifest, the parameters and the kernels (a host\n"
		"without the RISC-V compiler runs it).\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE         the image to write (required)\n"
		"      --func NAME           the function (default: the first)\n"
		"      --board B             the board to compile for: n150,\n"
		"                            n300, p150 (default: the embedded\n"
		"                            model's, or TT_SIM_BOARD)\n"
		"  -p, --param NAME=X.npy    a parameter's value (NAME as for\n"
		"                            'ttc golden --input'; an ONNX\n"
		"                            model's initializers are the\n"
		"                            default)\n"
		"      --input-shape NAME=DxD...  an ONNX input's shape, for\n"
		"                            symbolic or missing dimensions\n"
		"      --random-params SEED  parameters not given get seeded\n"
		"                            values (as 'ttc golden --random')\n"
		"      --df F                default data format: Float32,\n"
		"                            Float16_b, Float16, Bfp8_b, Bfp4_b\n"
		"      --accumulate-df F     accumulation format (Float32 turns\n"
		"                            32-bit accumulation on)\n"
		"      --fidelity F          LoFi, HiFi2, HiFi3, HiFi4\n"
		"      --amp N               automatic mixed precision level 0..3\n"
		"      --balancer P          greedy (default) or min_dram\n"
		"      --override-op-size OP=RxC  run op OP on R rows of C cores\n"
		"      --place-on-one-row    every op on one row of cores\n"
		"      --epoch-break OP      start a new epoch at op OP (its\n"
		"                            location name): activations crossing\n"
		"                            it wait in DRAM (repeatable)\n"
		"      --chip-break OP       start a new chip's pipeline stage at\n"
		"                            OP (on one chip: an epoch break)\n"
		"      --no-consteval        do not fold parameter-only ops\n"
		"      --no-fusing           do not fuse activations into ops\n"
		"      --no-kernels          leave the kernels out of the image\n"
		"      --print-after P       print the IR after pass P (or all)\n"
		"      --time-passes         print each pass's time\n"
		"  -q, --quiet               no progress line\n"
		"  -h, --help                this help\n"
		"\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  the input does not parse or verify, an op has no device\n"
		"     op, the model does not fit the chip (the op and the bytes\n"
		"     are named), or a file cannot be read or written\n"
		"  2  usage error\n"
		"  3  no device model to compile for\n");
}

static int add_param(struct compile_opts *o, char *arg)
{
	if (o->nparams == MAX_LIST)
		return usage_error("compile", "more than %d --param", MAX_LIST);
	if (cli_split("compile", "--param", "VALUE", arg, &o->pnames[o->nparams],
		  &o->ppaths[o->nparams]))
		return EXIT_USAGE;
	o->nparams++;
	return 0;
}

static int add_size(struct compile_opts *o, char *arg)
{
	const char *op, *rc;
	unsigned r, c;
	char tail;

	if (o->nsizes == MAX_LIST)
		return usage_error("compile", "more than %d --override-op-size",
				   MAX_LIST);
	if (cli_split("compile", "--override-op-size", "VALUE", arg, &op, &rc))
		return EXIT_USAGE;
	if (sscanf(rc, "%ux%u%c", &r, &c, &tail) != 2 || !r || !c)
		return usage_error("compile", "--override-op-size %s=%s: want "
					      "RxC (rows x columns of cores)",
				   op, rc);
	o->sizes[o->nsizes++] = (struct ttc_op_size){op, r, c};
	return 0;
}

static int format_arg(const char *opt, const char *s, enum tt_data_format *f)
{
	if (tt_data_format_parse(s, f))
		return usage_error("compile", "%s: unknown data format '%s'",
				   opt, s);
	return 0;
}

static int record(struct compile_opts *o, const char *name, const char *v)
{
	if (o->nrecord < sizeof(o->record) / sizeof(o->record[0]))
		o->record[o->nrecord++] = (struct tt_model_attr){name, v};
	return 0;
}

static int parse_uint(const char *opt, const char *s, unsigned long long max,
		      unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (!*s || *end || errno || *s == '-' || *v > max)
		return usage_error("compile", "%s wants a number 0..%llu, got "
					      "'%s'", opt, max, s);
	return 0;
}

static int parse_opt(struct compile_opts *o, int c, char **argv)
{
	struct ttc_pass_options *p = &o->c.passes;
	unsigned long long v;
	int rc = 0;

	switch (c) {
	case 'o': o->out = optarg; break;
	case 'p': return add_param(o, optarg);
	case 'q': o->quiet = true; break;
	case 'F': o->func = optarg; break;
	case 'B': o->board = optarg; return record(o, "board", optarg);
	case 'R':
		rc = parse_uint("--random-params", optarg, ~0ull, &o->seed);
		o->random = true;
		return rc ? rc : record(o, "random_params", optarg);
	case 'D':
		rc = format_arg("--df", optarg, &p->default_df);
		o->c.codegen.default_df = p->default_df;
		return rc ? rc : record(o, "default_df", optarg);
	case 'A':
		rc = format_arg("--accumulate-df", optarg, &p->acc_df);
		return rc ? rc : record(o, "accumulate_df", optarg);
	case 'M':
		if (ttc_fidelity_parse(optarg, &p->fidelity))
			return usage_error("compile", "--fidelity: '%s' is not "
						      "LoFi, HiFi2, HiFi3 or "
						      "HiFi4", optarg);
		return record(o, "math_fidelity", optarg);
	case 'L':
		rc = parse_uint("--amp", optarg, 3, &v);
		p->amp_level = (int)v;
		return rc ? rc : record(o, "amp_level", optarg);
	case 'b':
		if (strcmp(optarg, "greedy") && strcmp(optarg, "min_dram"))
			return usage_error("compile", "--balancer: '%s' is not "
						      "greedy or min_dram",
					   optarg);
		o->c.codegen.balancer = optarg;
		return record(o, "balancer_policy", optarg);
	case 'S': return add_size(o, optarg);
	case 'E':
	case 'H':
		if ((c == 'E' ? o->nepochs : o->nchips) == MAX_LIST)
			return usage_error("compile", "more than %d breaks",
					   MAX_LIST);
		if (c == 'E')
			o->epochs[o->nepochs++] = optarg;
		else
			o->chips[o->nchips++] = optarg;
		return record(o, c == 'E' ? "epoch_break" : "chip_break",
			      optarg);
	case '1':
		o->c.codegen.place_on_one_row = true;
		return record(o, "place_on_one_row", "true");
	case 'C': p->enable_consteval = false; break;
	case 'U': p->enable_auto_fusing = false; break;
	case 'K': o->c.no_kernels = true; break;
	case 'P': p->print_after = optarg; break;
	case 'T': p->time_passes = true; break;
	case 'I': return cli_add_shape("compile", &o->model, optarg);
	case 'h': usage(stdout); return -1;
	case ':':
		return usage_error("compile", "option '%s' needs a value",
				   argv[optind - 1]);
	default:
		return usage_error("compile", "unknown option '%s'",
				   argv[optind - 1]);
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct compile_opts *o)
{
	static const struct option longs[] = {
		{"output", required_argument, NULL, 'o'},
		{"param", required_argument, NULL, 'p'},
		{"quiet", no_argument, NULL, 'q'},
		{"func", required_argument, NULL, 'F'},
		{"board", required_argument, NULL, 'B'},
		{"random-params", required_argument, NULL, 'R'},
		{"df", required_argument, NULL, 'D'},
		{"accumulate-df", required_argument, NULL, 'A'},
		{"fidelity", required_argument, NULL, 'M'},
		{"amp", required_argument, NULL, 'L'},
		{"balancer", required_argument, NULL, 'b'},
		{"override-op-size", required_argument, NULL, 'S'},
		{"place-on-one-row", no_argument, NULL, '1'},
		{"epoch-break", required_argument, NULL, 'E'},
		{"chip-break", required_argument, NULL, 'H'},
		{"no-consteval", no_argument, NULL, 'C'},
		{"no-fusing", no_argument, NULL, 'U'},
		{"no-kernels", no_argument, NULL, 'K'},
		{"print-after", required_argument, NULL, 'P'},
		{"time-passes", no_argument, NULL, 'T'},
		{"input-shape", required_argument, NULL, 'I'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c, rc = 0;

	opterr = 0;
	optind = 1;
	while (!rc && (c = getopt_long(argc, argv, ":o:p:qh", longs, NULL)) != -1)
		rc = parse_opt(o, c, argv);
	if (rc)
		return rc;
	if (optind == argc)
		return usage_error("compile", "no input file given");
	if (optind + 1 < argc)
		return usage_error("compile", "one input file only, got '%s' too",
				   argv[optind + 1]);
	if (!o->out)
		return usage_error("compile", "no output given (-o MODEL.tti)");
	o->in = argv[optind];
	return 0;
}

/* ---- parameters ---- */

struct params {
	ttc_ctx *ctx;
	ttc_func *f;
	ttc_tensor **v; /* per argument */
	size_t n;
};

static const ttc_tensor *param_value(void *arg, ttc_func *f, size_t i)
{
	struct params *p = arg;

	return f == p->f && i < p->n ? p->v[i] : NULL;
}

static int load_params(struct params *p, const struct compile_opts *o)
{
	p->n = ttc_func_num_args(p->f);
	p->v = calloc(p->n + 1, sizeof(*p->v));
	if (!p->v)
		return EXIT_FAIL;
	for (size_t k = 0; k < o->nparams; k++) {
		size_t i = 0;

		while (i < p->n && !cli_names_arg(p->f, i, o->pnames[k]))
			i++;
		if (i == p->n) {
			fprintf(stderr, "ttc: --param %s: @%s has no argument "
					"of that name\n",
				o->pnames[k], ttc_func_name(p->f));
			return EXIT_FAIL;
		}
		p->v[i] = ttc_tensor_load_npy(p->ctx, o->ppaths[k]);
		if (!p->v[i])
			return EXIT_FAIL;
	}
	for (size_t i = 0; i < p->n; i++) {
		const ttc_tensor *t = cli_model_param(o->src, p->f, i);

		if (!p->v[i] && t && !(p->v[i] = ttc_tensor_clone(t)))
			return EXIT_FAIL;
	}
	for (size_t i = 0; o->random && i < p->n; i++)
		if (!p->v[i] && cli_arg_is_param(p->f, i))
			p->v[i] = ttc_tensor_random(
				p->ctx, ttc_value_type(ttc_func_arg(p->f, i)),
				o->seed + i);
	return 0;
}

static void free_params(struct params *p)
{
	for (size_t i = 0; p->v && i < p->n; i++)
		ttc_tensor_free(p->v[i]);
	free(p->v);
}

/* ---- the compile ---- */

static void show_progress(void *arg, const char *stage, size_t done,
			  size_t total)
{
	const char *in = arg;

	(void)done;
	(void)total;
	fprintf(stderr, "\rttc: compiling %s: %-8s", in, stage);
	fflush(stderr);
}

static int open_target(const struct compile_opts *o, tt_device **dev)
{
	int ret;

	/* Kernels are built for the board's chip model, in this process:
	 * never a card or a daemon another user may own. */
	setenv("TT_TRANSPORT", "embedded", 1);
	if (o->board)
		setenv("TT_SIM_BOARD", o->board, 1);
	ret = tt_device_open(0, dev);
	if (ret)
		fprintf(stderr, "ttc: the chip model%s%s: %s\n",
			o->board ? " of board " : "", o->board ? o->board : "",
			tt_last_error());
	return ret ? 3 : 0;
}

static void report(const struct compile_opts *o,
		   const struct ttc_compile_report *r)
{
	fprintf(stderr,
		"ttc: %s: %zu ops, %zu tensors, %zu kernels; activations "
		"%llu B in L1, %llu B in DRAM (%u slots), parameters %llu B; "
		"passes %.0f ms, codegen %.0f ms, kernels %.0f ms, write %.0f ms\n",
		o->out, r->ops, r->tensors, r->kernels,
		(unsigned long long)r->plan.l1_peak,
		(unsigned long long)r->plan.dram_peak, r->plan.slots,
		(unsigned long long)r->plan.params, r->ms_passes, r->ms_codegen,
		r->ms_kernels, r->ms_write);
}

static int compile(ttc_ctx *ctx, ttc_module *m, struct compile_opts *o)
{
	struct params p = {.ctx = ctx, .f = cli_pick_func(m, o->func)};
	struct ttc_compile_report r;
	tt_device *dev = NULL;
	int rc;

	if (!p.f) {
		fprintf(stderr, "ttc: %s: no function %s%s to compile\n", o->in,
			o->func ? "@" : "", o->func ? o->func : "");
		return EXIT_FAIL;
	}
	rc = load_params(&p, o);
	if (!rc)
		rc = open_target(o, &dev);
	if (!rc) {
		o->c.codegen.op_sizes = o->sizes;
		o->c.codegen.nop_sizes = o->nsizes;
		o->c.codegen.epoch_breaks = o->epochs;
		o->c.codegen.nepoch_breaks = o->nepochs;
		o->c.codegen.chip_breaks = o->chips;
		o->c.codegen.nchip_breaks = o->nchips;
		o->c.codegen.record = o->record;
		o->c.codegen.nrecord = o->nrecord;
		o->c.passes.out = stderr;
		if (!o->quiet && isatty(STDERR_FILENO)) {
			o->c.progress = show_progress;
			o->c.progress_arg = (void *)o->in;
		}
		rc = ttc_compile(m, p.f, dev, &o->c, param_value, &p, o->out,
				 &r) ? EXIT_FAIL : 0;
		if (o->c.progress)
			fputs("\r\033[K", stderr);
		if (!rc && !o->quiet)
			report(o, &r);
	}
	tt_device_close(dev);
	free_params(&p);
	return rc;
}

int cmd_compile(int argc, char **argv)
{
	struct compile_opts o = {.c = ttc_compile_defaults()};
	struct cli_model m = {0};
	ttc_ctx *ctx;
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	ctx = ttc_ctx_new_ttir();
	rc = cli_load_model(ctx, o.in, &o.model, &m);
	o.src = &m;
	if (!rc)
		rc = compile(ctx, m.module, &o);
	fputs(ttc_ctx_error(ctx), stderr);
	cli_model_free(&m);
	ttc_ctx_free(ctx);
	return rc;
}
