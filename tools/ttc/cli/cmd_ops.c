// SPDX-License-Identifier: Apache-2.0
/* ttc ops: the op registry, as a table or JSON. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "ttc/golden.h"
#include "ttc/ops.h"

#include "cli.h"

static const char *const kind_names[] = {
	[TTC_AK_ANY] = "any",	    [TTC_AK_BOOL] = "bool",
	[TTC_AK_INT] = "int",	    [TTC_AK_FLOAT] = "float",
	[TTC_AK_NUMBER] = "number", [TTC_AK_STRING] = "string",
	[TTC_AK_INTS] = "ints",	    [TTC_AK_INT_OR_INTS] = "int|ints",
	[TTC_AK_DENSE] = "dense",   [TTC_AK_TYPE] = "type",
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ttc ops [--json]\n"
		"\n"
		"List the registered ops: name, operands, results, attributes\n"
		"(kind, and required, optional or default) and a summary; then\n"
		"the aliases (another dialect's name of an op), as 'alias = op'.\n"
		"\n"
		"Options:\n"
		"      --json  one JSON document: {\"ops\": [{\"name\", "
		"\"summary\",\n"
		"              \"operands\", \"variadic\", \"optional_last\", "
		"\"results\",\n"
		"              \"attributes\": [{\"name\", \"kind\", "
		"\"presence\"}],\n"
		"              \"golden\": whether it has a CPU golden}],\n"
		"              \"aliases\": [{\"name\", \"op\"}]}\n"
		"  -h, --help  this help\n"
		"\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  failure\n"
		"  2  usage error\n");
}

static const char *presence(const struct ttc_attr_spec *s)
{
	return s->presence == TTC_ATTR_REQUIRED ? "required" :
	       s->presence == TTC_ATTR_OPTIONAL ? "optional" : "default";
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

static void json_op(const struct ttc_op_def *d)
{
	printf("{\"name\": ");
	json_str(d->name);
	printf(", \"summary\": ");
	json_str(d->summary ? d->summary : "");
	printf(", \"operands\": [");
	for (unsigned i = 0; i < d->noperands; i++) {
		printf(i ? ", " : "");
		json_str(d->operands[i]);
	}
	printf("], \"variadic\": %s, \"optional_last\": %s, \"results\": %u"
	       ", \"golden\": %s, \"attributes\": [",
	       d->flags & TTC_OPF_VARIADIC ? "true" : "false",
	       d->flags & TTC_OPF_OPTIONAL_LAST ? "true" : "false",
	       d->nresults, ttc_golden_lookup(d->name) ? "true" : "false");
	for (unsigned i = 0; i < d->nattrs; i++) {
		printf(i ? ", {\"name\": " : "{\"name\": ");
		json_str(d->attrs[i].name);
		printf(", \"kind\": \"%s\", \"presence\": \"%s\"}",
		       kind_names[d->attrs[i].kind], presence(&d->attrs[i]));
	}
	printf("]}");
}

static void text_op(const struct ttc_op_def *d)
{
	printf("%-24s (", d->name);
	for (unsigned i = 0; i < d->noperands; i++)
		printf("%s%s%s", i ? ", " : "", d->operands[i],
		       i + 1 == d->noperands &&
				       (d->flags & TTC_OPF_VARIADIC) ? "..." :
		       (i + 1 == d->noperands &&
			(d->flags & TTC_OPF_OPTIONAL_LAST)) ||
				       (i && (d->flags & TTC_OPF_SEGMENTS)) ?
			       "?" : "");
	printf(")");
	for (unsigned i = 0; i < d->nattrs; i++)
		printf("%s%s: %s%s", i ? ", " : " {", d->attrs[i].name,
		       kind_names[d->attrs[i].kind],
		       d->attrs[i].presence == TTC_ATTR_REQUIRED ? "" :
		       d->attrs[i].presence == TTC_ATTR_OPTIONAL ? "?" :
								   " = default");
	printf("%s  %s%s\n", d->nattrs ? "}" : "", d->summary ? d->summary : "",
	       ttc_golden_lookup(d->name) ? "" : " [no golden]");
}

/* Second names of ops (PyBuda's): "alias -> op", or JSON entries. */
static void list_aliases(const ttc_ctx *ctx, bool json)
{
	const struct ttc_op_def *d;

	if (json)
		printf("\n], \"aliases\": [");
	for (size_t i = 0; i < ttc_op_alias_count(ctx); i++) {
		const char *name = ttc_op_alias_at(ctx, i, &d);

		if (!json) {
			printf("%-24s = %s\n", name, d->name);
			continue;
		}
		printf(i ? ",\n  {\"name\": " : "\n  {\"name\": ");
		json_str(name);
		printf(", \"op\": ");
		json_str(d->name);
		printf("}");
	}
}

int cmd_ops(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longs, NULL)) != -1) {
		if (c == 'j') {
			json = true;
		} else if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		} else {
			return usage_error("ops", "unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("ops", "unexpected argument '%s'",
				   argv[optind]);
	ttc_ctx *ctx = ttc_ctx_new_ttir();

	if (!ctx)
		return EXIT_FAIL;
	if (json)
		printf("{\"ops\": [");
	for (size_t i = 0; i < ttc_op_def_count(ctx); i++) {
		if (json) {
			printf(i ? ",\n  " : "\n  ");
			json_op(ttc_op_def_at(ctx, i));
		} else {
			text_op(ttc_op_def_at(ctx, i));
		}
	}
	list_aliases(ctx, json);
	if (json)
		printf("\n]}\n");
	ttc_ctx_free(ctx);
	return EXIT_OK;
}
