// SPDX-License-Identifier: Apache-2.0
/* ttc parse: read TTIR, verify it, print it back. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/ops.h"
#include "ttc/text.h"

#include "cli.h"

struct parse_opts {
	const char *in, *out;
	unsigned parse_flags, print_flags;
	bool split, no_verify;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ttc parse [OPTIONS] FILE\n"
		"\n"
		"Read the TTIR of FILE ('-' for standard input), verify it and\n"
		"print it back in the form docs/compiler.md describes.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE         write there instead of stdout\n"
		"      --print-loc           print locations (loc(...))\n"
		"      --allow-unregistered  keep unknown ops and dialects,\n"
		"                            opaque, instead of failing\n"
		"      --split-input-file    treat '// -----' lines as\n"
		"                            separating independent inputs\n"
		"      --no-verify           print without verifying\n"
		"  -h, --help                this help\n"
		"\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  the input does not parse or verify (messages on stderr\n"
		"     as FILE:LINE:COL: error: ...), or a file cannot be used\n"
		"  2  usage error\n");
}

static int parse_args(int argc, char **argv, struct parse_opts *o)
{
	enum { O_LOC = 256, O_UNREG, O_SPLIT, O_NOVERIFY };
	static const struct option longs[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "print-loc", no_argument, NULL, O_LOC },
		{ "allow-unregistered", no_argument, NULL, O_UNREG },
		{ "split-input-file", no_argument, NULL, O_SPLIT },
		{ "no-verify", no_argument, NULL, O_NOVERIFY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:h", longs, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case O_LOC:
			o->print_flags |= TTC_PRINT_LOC;
			break;
		case O_UNREG:
			o->parse_flags |= TTC_PARSE_ALLOW_UNREGISTERED;
			break;
		case O_SPLIT:
			o->split = true;
			break;
		case O_NOVERIFY:
			o->no_verify = true;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case ':':
			return usage_error("parse", "option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return usage_error("parse", "unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (optind == argc)
		return usage_error("parse", "no input file given");
	if (optind + 1 < argc)
		return usage_error("parse", "one input file only, got '%s' "
					    "too",
				   argv[optind + 1]);
	o->in = argv[optind];
	return 0;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 1 << 16, n = 0, got;
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

/* One input: parse, verify, append its text to out. 0 or 1 (failed). */
static int one(ttc_ctx *ctx, const struct parse_opts *o, const char *name,
	       const char *text, size_t len, FILE *out)
{
	ttc_module *m = ttc_parse(ctx, name, text, len, o->parse_flags);
	int rc = 0;

	if (m && (o->no_verify || ttc_module_verify(m) == 0))
		ttc_print_file(m, o->print_flags, out);
	else
		rc = 1;
	fputs(ttc_ctx_error(ctx), stderr);
	ttc_ctx_clear_diags(ctx);
	ttc_module_free(m);
	return rc;
}

/* Chunks separated by lines "// -----"; each keeps its line numbers by
 * blanking the text before it. */
static int split(ttc_ctx *ctx, const struct parse_opts *o, char *text,
		 size_t len, FILE *out)
{
	static const char mark[] = "// -----";
	char *copy = malloc(len + 1);
	size_t start = 0;
	int failed = 0;
	bool first = true;

	memcpy(copy, text, len);
	for (size_t i = 0; i <= len; i++) {
		bool at_mark = i < len && (i == 0 || text[i - 1] == '\n') &&
			       !strncmp(text + i, mark, sizeof(mark) - 1);

		if (!at_mark && i < len)
			continue;
		memcpy(copy, text, len);
		for (size_t k = 0; k < start; k++)
			if (copy[k] != '\n')
				copy[k] = ' ';
		if (!first)
			fputs("// -----\n", out);
		first = false;
		failed |= one(ctx, o, o->in, copy, i, out);
		start = i;
	}
	free(copy);
	return failed;
}

int cmd_parse(int argc, char **argv)
{
	struct parse_opts o = { 0 };
	int rc = parse_args(argc, argv, &o);

	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	size_t len;
	char *text = slurp(o.in, &len);

	if (!text) {
		fprintf(stderr, "ttc: %s: %s\n", o.in, strerror(errno));
		return EXIT_FAIL;
	}
	FILE *out = o.out ? fopen(o.out, "w") : stdout;

	if (!out) {
		fprintf(stderr, "ttc: %s: %s\n", o.out, strerror(errno));
		free(text);
		return EXIT_FAIL;
	}
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	const char *name = strcmp(o.in, "-") ? o.in : "<stdin>";
	int failed = o.split ? split(ctx, &o, text, len, out) :
			       one(ctx, &o, name, text, len, out);

	ttc_ctx_free(ctx);
	free(text);
	if (out != stdout && fclose(out)) {
		fprintf(stderr, "ttc: %s: %s\n", o.out, strerror(errno));
		return EXIT_FAIL;
	}
	return failed ? EXIT_FAIL : EXIT_OK;
}
