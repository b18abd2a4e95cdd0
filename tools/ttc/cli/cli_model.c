// SPDX-License-Identifier: Apache-2.0
/* A model file as the commands take it: TTIR text, or an ONNX model
 * (FILE.onnx) imported on the way (docs/onnx.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/text.h"

#include "cli.h"

bool cli_is_onnx(const char *path)
{
	size_t n = strlen(path);

	return n > 5 && !strcmp(path + n - 5, ".onnx");
}

int cli_add_shape(const char *cmd, struct cli_model_opts *o, const char *arg)
{
	if (o->nshapes == CLI_MAX_SHAPES)
		return usage_error(cmd, "more than %d --input-shape",
				   CLI_MAX_SHAPES);
	if (ttc_onnx_parse_shape(arg, &o->shapes[o->nshapes]))
		return usage_error(cmd, "--input-shape wants NAME=DxDx... "
					"(e.g. input=1x3x224x224), got '%s'",
				   arg);
	o->nshapes++;
	return 0;
}

int cli_load_model(ttc_ctx *ctx, const char *path,
		   const struct cli_model_opts *o, struct cli_model *out)
{
	memset(out, 0, sizeof(*out));
	if (!cli_is_onnx(path) && o && o->nshapes) {
		fprintf(stderr, "ttc: %s: --input-shape applies to ONNX models "
				"(*.onnx) only\n", path);
		return EXIT_FAIL;
	}
	if (!cli_is_onnx(path)) {
		out->module = ttc_parse_file(ctx, path, 0);
		if (!out->module || ttc_module_verify(out->module))
			return EXIT_FAIL;
		return 0;
	}
	struct ttc_onnx_options io = ttc_onnx_defaults();

	io.shapes = o ? o->shapes : NULL;
	io.nshapes = o ? o->nshapes : 0;
	if (ttc_onnx_import(ctx, path, &io, &out->onnx))
		return EXIT_FAIL;
	out->module = ttc_onnx_take_module(out->onnx);
	return 0;
}

const ttc_tensor *cli_model_param(const struct cli_model *m, ttc_func *f,
				  size_t i)
{
	return m && m->onnx ? ttc_onnx_param(m->onnx, f, i) : NULL;
}

void cli_model_free(struct cli_model *m)
{
	ttc_module_free(m->module);
	ttc_onnx_model_free(m->onnx);
	memset(m, 0, sizeof(*m));
}
