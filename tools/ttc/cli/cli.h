/* SPDX-License-Identifier: Apache-2.0 */
/* The ttc program's subcommands and its shared conventions. */
#ifndef TTC_CLI_H
#define TTC_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "ttc/ir.h"
#include "ttc/onnx.h"
#include "tt/image.h"

/* Exit status, the same for every tool of the tree (tools/README.md). */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,	/* the input is invalid, or a file cannot be used */
	EXIT_USAGE = 2, /* bad arguments */
};

/* "ttc: <message>" then "Try 'ttc[ CMD] --help'." on stderr; returns 2. */
int usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* cli_func.c: the function to work on (name, else the first with a
 * body, nested modules included), or NULL; whether name (N, argN, %argN
 * or its loc name) names argument i of f. */
ttc_func *cli_pick_func(ttc_module *m, const char *name);
bool cli_names_arg(ttc_func *f, size_t i, const char *name);
/* name with every character but letters, digits, '.', '-' and '_' made
 * '_' (a parameter's file name); cli_names_arg takes it too. */
void cli_file_name(const char *name, char *out, size_t n);
/* An option's NAME=VALUE (what: how VALUE is shown in the usage error):
 * arg cut at the '=' into name and value; 0, or the usage error. */
int cli_split(const char *cmd, const char *opt, const char *what, char *arg,
	      const char **name, const char **value);
/* Argument i is marked ttcore.argument_type<parameter> or <constant>. */
bool cli_arg_is_param(ttc_func *f, size_t i);

/* cli_model.c: a model file, TTIR text or ONNX (FILE.onnx, imported
 * with the --input-shape options given). */
#define CLI_MAX_SHAPES 32
struct cli_model_opts {
	struct ttc_onnx_shape shapes[CLI_MAX_SHAPES];
	size_t nshapes;
};
struct cli_model {
	ttc_module *module;
	ttc_onnx_model *onnx; /* its parameters' values, for ONNX */
};
bool cli_is_onnx(const char *path);
/* --input-shape NAME=DxD...: 0 or the usage error. */
int cli_add_shape(const char *cmd, struct cli_model_opts *o, const char *arg);
/* 0, or EXIT_FAIL with the diagnostics in ctx. */
int cli_load_model(ttc_ctx *ctx, const char *path,
		   const struct cli_model_opts *o, struct cli_model *out);
/* The value an ONNX model gives argument i of f (its initializer), or
 * NULL. */
const ttc_tensor *cli_model_param(const struct cli_model *m, ttc_func *f,
				  size_t i);
void cli_model_free(struct cli_model *m);

int cmd_parse(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_ops(int argc, char **argv);
int cmd_golden(int argc, char **argv);
int cmd_compile(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_onnx_test(int argc, char **argv);

/* ttc info's section listing (cmd_info.c): a table with a heading line,
 * or a JSON array of {"name", "offset", "size", "align", "crc32"}. */
void info_sections_text(FILE *f, const tt_image *img);
void info_sections_json(FILE *f, const tt_image *img);

#endif /* TTC_CLI_H */
