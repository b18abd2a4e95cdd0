// SPDX-License-Identifier: Apache-2.0
/*
 * ttc: the model compiler's command line. Subcommands: parse (read,
 * verify and print TTIR), ops (the op registry), golden (run a module
 * on the CPU goldens), info (what an image file holds), compile (a
 * model into an image), run (an image on the device), merge (images
 * in one), report (placement and memory). docs/ttc.md.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ttc [-h] [-V] COMMAND [ARGS...]\n"
		"\n"
		"The model compiler of tt-stack.\n"
		"\n"
		"Commands:\n"
		"  parse FILE     read TTIR, verify it and print it back\n"
		"  ops            list the registered ops\n"
		"  golden FILE    run a module on the CPU goldens, write .npy\n"
		"  info FILE.tti  check an image file, list its sections\n"
		"  compile FILE   compile a model into an image (.tti)\n"
		"  run MODEL.tti  run a compiled model on the device\n"
		"  merge A.tti B.tti ...  several images in one (-o C.tti)\n"
		"  report MODEL.tti       placement and memory report (-o DIR)\n"
		"\n"
		"'ttc COMMAND --help' describes each.\n"
		"\n"
		"Options:\n"
		"  -h, --help     this help\n"
		"  -V, --version  the version\n"
		"\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  failure: the input is invalid or a file cannot be used\n"
		"  2  usage error\n");
}

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("ttc: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'ttc%s%s --help'.\n", cmd ? " " : "",
		cmd ? cmd : "");
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage_error(NULL, "no command given");
	const char *c = argv[1];

	if (!strcmp(c, "-h") || !strcmp(c, "--help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(c, "-V") || !strcmp(c, "--version")) {
		printf("ttc %s\n", TT_PROJECT_VERSION);
		return EXIT_OK;
	}
	if (!strcmp(c, "parse"))
		return cmd_parse(argc - 1, argv + 1);
	if (!strcmp(c, "ops"))
		return cmd_ops(argc - 1, argv + 1);
	if (!strcmp(c, "golden"))
		return cmd_golden(argc - 1, argv + 1);
	if (!strcmp(c, "info"))
		return cmd_info(argc - 1, argv + 1);
	if (!strcmp(c, "compile"))
		return cmd_compile(argc - 1, argv + 1);
	if (!strcmp(c, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(c, "merge"))
		return cmd_merge(argc - 1, argv + 1);
	if (!strcmp(c, "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(c, "import"))
		return cmd_import(argc - 1, argv + 1);
	if (!strcmp(c, "onnx-test"))
		return cmd_onnx_test(argc - 1, argv + 1);
	if (c[0] == '-')
		return usage_error(NULL, "unknown option '%s'", c);
	return usage_error(NULL, "unknown command '%s'", c);
}
