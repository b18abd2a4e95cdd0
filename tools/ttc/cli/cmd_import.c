// SPDX-License-Identifier: Apache-2.0
/* ttc import: an ONNX model as TTIR text, its parameters as .npy files
 * (docs/onnx.md). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ttc/ops.h"
#include "ttc/text.h"

#include "cli.h"

struct import_opts {
	const char *in, *out, *params;
	struct cli_model_opts m;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ttc import [OPTIONS] MODEL.onnx\n"
		"\n"
		"Import an ONNX model (opsets 7 to 17; external data files are\n"
		"read from the model's directory) and print it as TTIR: one\n"
		"function @forward whose arguments are the graph's inputs, then\n"
		"the initializers it uses, marked as parameters and named after\n"
		"them. Constants and what is computed from them alone (shape\n"
		"chains) are folded. A node the importer cannot map is an error\n"
		"naming it, its op type, the opset and what is missing.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE         write the TTIR there (default: stdout)\n"
		"      --input-shape NAME=DxD...  the shape of input NAME, for\n"
		"                            symbolic or missing dimensions\n"
		"                            (repeatable; NAME= for a scalar)\n"
		"      --list-ops            list the ONNX ops the importer maps:\n"
		"                            op type, opsets, attributes\n"
		"      --params DIR          write each parameter's value as\n"
		"                            DIR/NAME.npy, for 'ttc compile\n"
		"                            --param NAME=DIR/NAME.npy'\n"
		"  -h, --help                this help\n"
		"\n"
		"'ttc compile', 'ttc golden' and 'ttc parse' also take a .onnx\n"
		"file directly.\n"
		"\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  the model does not parse, uses what the importer does not\n"
		"     support (named), or a file cannot be used\n"
		"  2  usage error\n");
}

/* One line per converter: TYPE, opsets, attributes. */
static void list_ops(void)
{
	struct ttc_onnx_op_info op;

	for (size_t i = 0; !ttc_onnx_op_at(i, &op); i++) {
		char range[16];

		if (op.until)
			snprintf(range, sizeof(range), "%d-%d", op.since, op.until);
		else
			snprintf(range, sizeof(range), "%d-17", op.since);
		printf("%-24s %-6s %s\n", op.type, range, op.attrs);
	}
}

static int parse_args(int argc, char **argv, struct import_opts *o)
{
	enum { O_SHAPE = 256, O_PARAMS, O_LIST };
	static const struct option longs[] = {
		{"output", required_argument, NULL, 'o'},
		{"input-shape", required_argument, NULL, O_SHAPE},
		{"params", required_argument, NULL, O_PARAMS},
		{"list-ops", no_argument, NULL, O_LIST},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c, rc = 0;

	opterr = 0;
	optind = 1;
	while (!rc && (c = getopt_long(argc, argv, ":o:h", longs, NULL)) != -1) {
		switch (c) {
		case 'o': o->out = optarg; break;
		case O_SHAPE: rc = cli_add_shape("import", &o->m, optarg); break;
		case O_PARAMS: o->params = optarg; break;
		case O_LIST: list_ops(); return -1;
		case 'h': usage(stdout); return -1;
		case ':':
			return usage_error("import", "option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return usage_error("import", "unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (rc)
		return rc;
	if (optind == argc)
		return usage_error("import", "no input file given");
	if (optind + 1 < argc)
		return usage_error("import", "one input file only, got '%s' too",
				   argv[optind + 1]);
	o->in = argv[optind];
	if (!cli_is_onnx(o->in))
		return usage_error("import", "'%s' is not an ONNX file (*.onnx)",
				   o->in);
	return 0;
}

/* DIR/NAME.npy for each parameter (characters of NAME other than
 * letters, digits, '.', '-' and '_' become '_'). */
static int write_params(ttc_ctx *ctx, const struct cli_model *m,
			const char *dir)
{
	ttc_func *f = cli_pick_func(m->module, NULL);

	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "ttc: %s: %s\n", dir, strerror(errno));
		return EXIT_FAIL;
	}
	for (size_t i = 0; f && i < ttc_func_num_args(f); i++) {
		const ttc_tensor *t = cli_model_param(m, f, i);
		const ttc_loc *l = ttc_func_arg_loc(f, i);
		char name[256], path[4096];

		if (!t)
			continue;
		cli_file_name(ttc_loc_str(l), name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s.npy", dir, name);
		if (ttc_tensor_save_npy(ctx, t, path))
			return EXIT_FAIL;
	}
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct import_opts o = {0};
	struct cli_model m;
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	FILE *out = stdout;

	rc = cli_load_model(ctx, o.in, &o.m, &m);
	if (!rc && o.params)
		rc = write_params(ctx, &m, o.params);
	if (!rc && o.out && !(out = fopen(o.out, "w"))) {
		fprintf(stderr, "ttc: %s: %s\n", o.out, strerror(errno));
		rc = EXIT_FAIL;
	}
	if (!rc && ttc_print_file(m.module, TTC_PRINT_LOC, out))
		rc = EXIT_FAIL;
	if (out && out != stdout && fclose(out) && !rc) {
		fprintf(stderr, "ttc: %s: %s\n", o.out, strerror(errno));
		rc = EXIT_FAIL;
	}
	fputs(ttc_ctx_error(ctx), stderr);
	cli_model_free(&m);
	ttc_ctx_free(ctx);
	return rc;
}
