// SPDX-License-Identifier: Apache-2.0
/*
 * ttc onnx-test: ONNX's backend test cases (a directory holding
 * model.onnx and test_data_set_N/{input,output}_M.pb) imported and run
 * on the CPU goldens, each output compared with the expected one as
 * ONNX's own backend runner does (rtol 1e-3, atol 1e-7). One line per
 * case, totals per op, and an allow-list of cases expected to be
 * unsupported or to fail, with a reason each (docs/onnx.md).
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tt/device.h"
#include "ttc/onnx.h"
#include "ttc/ops.h"
#include "ttc/pipeline.h"

#include "cli.h"
#include "onnx_case.h"

#define MAX_ALLOW 2048
#define MAX_OPS 512

struct allow {
	char *pattern, *reason;
	bool used;
};

struct op_total {
	char name[64];
	unsigned pass, fail, unsupported;
	unsigned dpass, dfail, dunsupported; /* on the device */
};

struct conf {
	const char *allow_path, *device_allow_path;
	struct allow allow[MAX_ALLOW];
	size_t nallow;
	struct allow dallow[MAX_ALLOW];
	size_t ndallow;
	bool device;
	tt_device *dev;
	unsigned dn, dpass, dfail, dunsupported, dallowed, dstale;
	double rtol, atol;
	bool tap, quiet;
	struct op_total ops[MAX_OPS];
	size_t nops;
	unsigned n, pass, fail, unsupported, allowed, stale;
};


static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ttc onnx-test [OPTIONS] DIR...\n"
		"\n"
		"Run ONNX backend test cases on the CPU goldens. DIR is one case\n"
		"(a directory with model.onnx and test_data_set_N/) or a\n"
		"directory of cases (Debian's libonnx-testdata installs them\n"
		"under /usr/share/libonnx-testdata/data/{node,simple,\n"
		"pytorch-operator,pytorch-converted}). Each case is imported,\n"
		"run on every data set, and each output compared with the\n"
		"expected one: |got - want| <= atol + rtol * |want|, NaN\n"
		"equal to NaN, and the same shape and element type.\n"
		"\n"
		"One line per case: 'pass NAME', 'fail NAME: WHY' (the output and\n"
		"its largest error) or 'unsupported NAME: WHY' (the node and what\n"
		"it lacks); then the totals per op (a case of one node counts for\n"
		"its op, larger ones for 'graph') and over all.\n"
		"\n"
		"Options:\n"
		"  -a, --allow FILE   the cases expected to fail or be unsupported:\n"
		"                     lines 'PATTERN  REASON' (PATTERN a shell glob\n"
		"                     over 'SET/CASE', e.g. node/test_lstm*), '#'\n"
		"                     comments. Such a case is counted as allowed;\n"
		"                     an entry no case matches, or whose cases all\n"
		"                     pass, is stale and fails the run\n"
		"      --rtol X       relative tolerance (default 1e-3)\n"
		"      --atol X       absolute tolerance (default 1e-7)\n"
		"      --device       also run every case that passes on the goldens\n"
		"                     on the embedded chip model: compiled with\n"
		"                     the defaults (bf16) and compared with the\n"
		"                     expected outputs by PCC >= 0.99 (integers and\n"
		"                     booleans exactly); lines 'device pass NAME',\n"
		"                     'device fail NAME: WHY', 'device unsupported\n"
		"                     NAME: WHY' (what the compile refused)\n"
		"      --device-allow FILE  the allow-list of the device runs\n"
		"      --tap          TAP output (one test per case) for make test\n"
		"  -q, --quiet        only failures and the totals\n"
		"  -h, --help         this help\n"
		"\n"
		"Exit status: 0 when every case passed or is allowed and no\n"
		"allow-list entry is stale, 1 otherwise, 2 usage error.\n");
}

/* ---- the allow-list ---- */

static int load_allow(const char *path, struct allow *list, size_t *n)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	unsigned lineno = 0;

	if (!f) {
		fprintf(stderr, "ttc: %s: %s\n", path, strerror(errno));
		return EXIT_FAIL;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t"), *end;

		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (!*p || *p == '#')
			continue;
		end = p + strcspn(p, " \t");
		if (!*end || !end[strspn(end, " \t")] || *n == MAX_ALLOW) {
			fprintf(stderr, "ttc: %s:%u: want 'PATTERN  REASON'%s\n",
				path, lineno,
				*n == MAX_ALLOW ? " (too many entries)" : "");
			fclose(f);
			return EXIT_FAIL;
		}
		*end++ = 0;
		list[*n].pattern = strdup(p);
		list[(*n)++].reason = strdup(end + strspn(end, " \t"));
	}
	fclose(f);
	return 0;
}

static struct allow *allowed(struct allow *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!fnmatch(list[i].pattern, name, 0))
			return &list[i];
	return NULL;
}

/* The op a case counts for: its model's one node's, else "graph". */
static void case_op(const char *dir, char *op, size_t n)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/model.onnx", dir);
	if (ttc_onnx_only_op(path, op, n) != 1)
		snprintf(op, n, "graph");
}

static struct op_total *total_of(struct conf *c, const char *op)
{
	for (size_t i = 0; i < c->nops; i++)
		if (!strcmp(c->ops[i].name, op))
			return &c->ops[i];
	if (c->nops == MAX_OPS)
		return &c->ops[MAX_OPS - 1];
	snprintf(c->ops[c->nops].name, sizeof(c->ops[0].name), "%s", op);
	return &c->ops[c->nops++];
}

static const char *case_name(const char *dir, char *buf, size_t n)
{
	/* SET/CASE: the last two components */
	const char *end = dir + strlen(dir), *p;
	int slashes = 0;

	while (end > dir && end[-1] == '/')
		end--;
	for (p = end; p > dir; p--)
		if (p[-1] == '/' && ++slashes == 2)
			break;
	snprintf(buf, n, "%.*s", (int)(end - p), p);
	return buf;
}

static void count(enum onnx_result r, unsigned *pass, unsigned *fail,
		  unsigned *unsupported)
{
	++*(r == ONNX_PASS ? pass : r == ONNX_FAIL ? fail : unsupported);
}

static const char *word(enum onnx_result r)
{
	return r == ONNX_PASS ? "pass" : r == ONNX_FAIL ? "fail" : "unsupported";
}

/* One result line (or TAP case) of a run; where is "" or "device ". */
static void print_result(struct conf *c, unsigned n, const char *where,
			 const char *name, enum onnx_result r,
			 const struct allow *a, const char *why)
{
	if (c->tap) {
		if (r == ONNX_PASS)
			printf("ok %u - %s%s\n", n, where, name);
		else if (a)
			printf("ok %u - %s%s (%s, allowed: %s)\n", n, where, name,
			       word(r), a->reason);
		else
			printf("not ok %u - %s%s\n# %s: %s\n", n, where, name,
			       word(r), why);
	} else if (r == ONNX_PASS ? !c->quiet : !c->quiet || !a) {
		printf("%s%s %s%s%s%s%s\n", where, word(r), name,
		       r == ONNX_PASS ? "" : ": ", r == ONNX_PASS ? "" : why,
		       a && r != ONNX_PASS ? " (allowed: " : "",
		       a && r != ONNX_PASS ? a->reason : "");
	}
	fflush(stdout);
}

static void report(struct conf *c, const char *dir)
{
	struct onnx_case_opts o = {c->rtol, c->atol, c->device ? c->dev : NULL};
	struct onnx_case_result *r = malloc(sizeof(*r));
	char name[512], op[64];
	struct allow *a;
	struct op_total *t;

	if (!r)
		return;
	onnx_case_run(dir, &o, r);
	case_name(dir, name, sizeof(name));
	case_op(dir, op, sizeof(op));
	t = total_of(c, op);
	count(r->cpu, &c->pass, &c->fail, &c->unsupported);
	count(r->cpu, &t->pass, &t->fail, &t->unsupported);
	a = r->cpu == ONNX_PASS ? NULL : allowed(c->allow, c->nallow, name);
	if (a) {
		a->used = true;
		c->allowed++;
	}
	print_result(c, ++c->n, "", name, r->cpu, a, r->cpu_why);
	if (r->ran_device) {
		c->dn++;
		count(r->device, &c->dpass, &c->dfail, &c->dunsupported);
		count(r->device, &t->dpass, &t->dfail, &t->dunsupported);
		a = r->device == ONNX_PASS ? NULL :
		    allowed(c->dallow, c->ndallow, name);
		if (a) {
			a->used = true;
			c->dallowed++;
		}
		print_result(c, ++c->n, "device ", name, r->device, a,
			     r->device_why);
	}
	free(r);
}

static int open_device(struct conf *c)
{
	/* the embedded chip model, in this process: never a card or a
	 * daemon another user may own */
	setenv("TT_TRANSPORT", "embedded", 1);
	if (tt_device_open(0, &c->dev)) {
		fprintf(stderr, "ttc: the chip model: %s\n", tt_last_error());
		return 3;
	}
	return 0;
}

/* ---- the cases under a directory ---- */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(struct conf *c, const char *dir)
{
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	DIR *d;

	if (onnx_case_exists(dir, "model.onnx")) {
		report(c, dir);
		return 0;
	}
	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "ttc: %s: %s\n", dir, strerror(errno));
		return EXIT_FAIL;
	}
	while ((e = readdir(d))) {
		char path[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!onnx_case_exists(path, "model.onnx"))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				break;
		}
		names[n++] = strdup(path);
	}
	closedir(d);
	if (names)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; names && i < n; i++) {
		report(c, names[i]);
		free(names[i]);
	}
	free(names);
	return 0;
}

/* Allow-list entries no case used: stale. */
static unsigned stale(struct conf *c, struct allow *list, size_t n,
		      const char *where)
{
	unsigned k = 0;

	for (size_t i = 0; i < n; i++) {
		if (list[i].used)
			continue;
		k++;
		if (c->tap)
			printf("not ok %u - %sallow-list entry %s is stale (no "
			       "case fails or is unsupported)\n",
			       ++c->n, where, list[i].pattern);
		else
			printf("stale %sallow-list entry %s: no case fails or "
			       "is unsupported\n", where, list[i].pattern);
	}
	return k;
}

static void totals(struct conf *c)
{
	const char *hash = c->tap ? "# " : "";

	printf("%s%-28s %6s %6s %11s", hash, "op", "pass", "fail",
	       "unsupported");
	printf(c->device ? "   device: pass  fail unsupported\n" : "\n");
	for (size_t i = 0; i < c->nops; i++) {
		const struct op_total *t = &c->ops[i];

		printf("%s%-28s %6u %6u %11u", hash, t->name, t->pass, t->fail,
		       t->unsupported);
		if (c->device)
			printf("   %12u %5u %11u", t->dpass, t->dfail,
			       t->dunsupported);
		printf("\n");
	}
	printf("%s%u cases: %u pass, %u fail, %u unsupported (%u of them "
	       "allowed)\n",
	       hash, c->pass + c->fail + c->unsupported, c->pass, c->fail,
	       c->unsupported, c->allowed);
	if (c->device)
		printf("%son the device, of the %u that pass on the goldens: %u "
		       "pass, %u fail, %u unsupported (%u of them allowed)\n",
		       hash, c->dn, c->dpass, c->dfail, c->dunsupported,
		       c->dallowed);
	c->stale = stale(c, c->allow, c->nallow, "");
	c->dstale = stale(c, c->dallow, c->ndallow, "device ");
	if (c->tap)
		printf("1..%u\n", c->n);
}

static int parse_args(int argc, char **argv, struct conf *c)
{
	static const struct option longs[] = {
		{"allow", required_argument, NULL, 'a'},
		{"rtol", required_argument, NULL, 'r'},
		{"atol", required_argument, NULL, 't'},
		{"tap", no_argument, NULL, 'T'},
		{"device", no_argument, NULL, 'D'},
		{"device-allow", required_argument, NULL, 'A'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int o;
	char *end;

	opterr = 0;
	optind = 1;
	while ((o = getopt_long(argc, argv, ":a:qh", longs, NULL)) != -1) {
		switch (o) {
		case 'a': c->allow_path = optarg; break;
		case 'r':
		case 't':
			*(o == 'r' ? &c->rtol : &c->atol) = strtod(optarg, &end);
			if (*end || end == optarg)
				return usage_error("onnx-test", "%s wants a "
							"number, got '%s'",
						   o == 'r' ? "--rtol" : "--atol",
						   optarg);
			break;
		case 'T': c->tap = true; break;
		case 'D': c->device = true; break;
		case 'A': c->device_allow_path = optarg; break;
		case 'q': c->quiet = true; break;
		case 'h': usage(stdout); return -1;
		case ':':
			return usage_error("onnx-test", "option '%s' needs a "
							"value", argv[optind - 1]);
		default:
			return usage_error("onnx-test", "unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (optind == argc)
		return usage_error("onnx-test", "no test directory given");
	return 0;
}

int cmd_onnx_test(int argc, char **argv)
{
	struct conf *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return EXIT_FAIL;
	c->rtol = 1e-3;
	c->atol = 1e-7;
	rc = parse_args(argc, argv, c);
	if (!rc && c->allow_path)
		rc = load_allow(c->allow_path, c->allow, &c->nallow);
	if (!rc && c->device_allow_path)
		rc = load_allow(c->device_allow_path, c->dallow, &c->ndallow);
	if (!rc && c->device)
		rc = open_device(c);
	for (int i = optind; !rc && i < argc; i++)
		rc = run_dir(c, argv[i]);
	if (!rc) {
		totals(c);
		rc = c->fail + c->unsupported > c->allowed || c->stale ||
				     c->dfail + c->dunsupported > c->dallowed ||
				     c->dstale ?
			     EXIT_FAIL : EXIT_OK;
	}
	for (size_t i = 0; i < c->nallow; i++) {
		free(c->allow[i].pattern);
		free(c->allow[i].reason);
	}
	for (size_t i = 0; i < c->ndallow; i++) {
		free(c->dallow[i].pattern);
		free(c->dallow[i].reason);
	}
	tt_device_close(c->dev);
	free(c);
	return rc < 0 ? EXIT_OK : rc;
}
