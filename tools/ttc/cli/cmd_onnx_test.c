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

#include "ttc/onnx.h"
#include "ttc/ops.h"

#include "cli.h"

#define MAX_ALLOW 2048
#define MAX_OPS 512

struct allow {
	char *pattern, *reason;
	bool used;
};

struct op_total {
	char name[64];
	unsigned pass, fail, unsupported;
};

struct conf {
	const char *allow_path;
	struct allow allow[MAX_ALLOW];
	size_t nallow;
	double rtol, atol;
	bool tap, quiet;
	struct op_total ops[MAX_OPS];
	size_t nops;
	unsigned n, pass, fail, unsupported, allowed, stale;
};

enum result { PASS, FAIL, UNSUPPORTED };

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
		"      --tap          TAP output (one test per case) for make test\n"
		"  -q, --quiet        only failures and the totals\n"
		"  -h, --help         this help\n"
		"\n"
		"Exit status: 0 when every case passed or is allowed and no\n"
		"allow-list entry is stale, 1 otherwise, 2 usage error.\n");
}

/* ---- the allow-list ---- */

static int load_allow(struct conf *c)
{
	FILE *f = fopen(c->allow_path, "r");
	char line[1024];
	unsigned lineno = 0;

	if (!f) {
		fprintf(stderr, "ttc: %s: %s\n", c->allow_path, strerror(errno));
		return EXIT_FAIL;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t"), *end;

		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (!*p || *p == '#')
			continue;
		end = p + strcspn(p, " \t");
		if (!*end || !end[strspn(end, " \t")] || c->nallow == MAX_ALLOW) {
			fprintf(stderr, "ttc: %s:%u: want 'PATTERN  REASON'%s\n",
				c->allow_path, lineno,
				c->nallow == MAX_ALLOW ? " (too many entries)" : "");
			fclose(f);
			return EXIT_FAIL;
		}
		*end++ = 0;
		c->allow[c->nallow].pattern = strdup(p);
		c->allow[c->nallow++].reason = strdup(end + strspn(end, " \t"));
	}
	fclose(f);
	return 0;
}

static struct allow *allowed(struct conf *c, const char *name)
{
	for (size_t i = 0; i < c->nallow; i++)
		if (!fnmatch(c->allow[i].pattern, name, 0))
			return &c->allow[i];
	return NULL;
}

/* ---- one case ---- */

static bool exists(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !stat(path, &st);
}

/* "WHY" from the context's first diagnostic, on one line. */
static void first_diag(ttc_ctx *ctx, char *why, size_t n)
{
	const struct ttc_diag *d = ttc_ctx_diag(ctx, 0);

	snprintf(why, n, "%s", d ? d->message : "(no diagnostic)");
	why[strcspn(why, "\n")] = 0;
}

static bool close_enough(double want, double got, const struct conf *c)
{
	if (isnan(want) || isnan(got))
		return isnan(want) && isnan(got);
	if (isinf(want) || isinf(got))
		return want == got;
	return fabs(got - want) <= c->atol + c->rtol * fabs(want);
}

static enum result compare(const ttc_tensor *want, const ttc_tensor *got,
			   size_t k, const struct conf *c, char *why,
			   size_t n)
{
	char tw[128], tg[128];
	double worst = 0;
	size_t at = 0, bad = 0;

	if (want->type != got->type) {
		ttc_type_format(want->type, tw, sizeof(tw));
		ttc_type_format(got->type, tg, sizeof(tg));
		snprintf(why, n, "output %zu is %s, expected %s", k, tg, tw);
		return FAIL;
	}
	for (size_t i = 0; i < want->numel; i++) {
		double w = ttc_tensor_get(want, i), g = ttc_tensor_get(got, i);

		if (close_enough(w, g, c))
			continue;
		if (!bad++ || fabs(g - w) > worst || isnan(g - w)) {
			worst = fabs(g - w);
			at = i;
		}
	}
	if (!bad)
		return PASS;
	snprintf(why, n, "output %zu: %zu of %zu values differ, the largest "
			 "by %g at %zu (%g, expected %g)",
		 k, bad, want->numel, worst, at, ttc_tensor_get(got, at),
		 ttc_tensor_get(want, at));
	return FAIL;
}

/* NumPy has no bfloat16: ONNX's test data holds bf16 tensors as uint16
 * bits. Such a tensor is given the bf16 type want has. */
static ttc_tensor *load_pb(ttc_ctx *ctx, const char *set, const char *kind,
			   size_t i, const ttc_type *want)
{
	char path[4096];
	ttc_tensor *t;
	const ttc_type *e;

	snprintf(path, sizeof(path), "%s/%s_%zu.pb", set, kind, i);
	t = ttc_onnx_load_tensor(ctx, path, NULL);
	e = t ? ttc_type_elem(t->type) : NULL;
	if (e && ttc_type_kind(e) == TTC_TYPE_INT && ttc_type_width(e) == 16 &&
	    ttc_type_signedness(e) == TTC_UNSIGNED &&
	    ttc_type_kind(ttc_type_elem(want)) == TTC_TYPE_FLOAT &&
	    ttc_type_float_kind(ttc_type_elem(want)) == TTC_BF16 &&
	    (int64_t)t->numel == ttc_type_numel(want))
		t->type = want;
	return t;
}

static size_t count_pb(const char *set, const char *kind)
{
	char name[64];
	size_t i = 0;

	while (snprintf(name, sizeof(name), "%s_%zu.pb", kind, i),
	       exists(set, name))
		i++;
	return i;
}

/* Runs one data set; PASS, or FAIL with why. */
static enum result run_set(ttc_ctx *ctx, ttc_onnx_model *om, const char *set,
			   const struct conf *c, char *why, size_t n)
{
	ttc_func *f = ttc_onnx_func(om);
	size_t na = ttc_func_num_args(f), nr = ttc_func_num_results(f);
	size_t nin = ttc_onnx_num_inputs(om);
	ttc_tensor **args = calloc(na + 1, sizeof(*args));
	ttc_tensor **res = calloc(nr + 1, sizeof(*res));
	enum result r = FAIL;

	if (!args || !res)
		goto out;
	if (count_pb(set, "input") != nin || count_pb(set, "output") != nr) {
		snprintf(why, n, "%s holds %zu inputs and %zu outputs, the "
				 "model has %zu and %zu",
			 set, count_pb(set, "input"), count_pb(set, "output"),
			 nin, nr);
		goto out;
	}
	for (size_t i = 0; i < na; i++) {
		args[i] = i < nin ? load_pb(ctx, set, "input", i,
					    ttc_value_type(ttc_func_arg(f, i))) :
				    ttc_tensor_clone(ttc_onnx_param(om, f, i));
		if (!args[i]) {
			first_diag(ctx, why, n);
			goto out;
		}
	}
	if (ttc_golden_run(f, args, na, res, NULL)) {
		first_diag(ctx, why, n);
		goto out;
	}
	r = PASS;
	for (size_t k = 0; r == PASS && k < nr; k++) {
		ttc_tensor *want = load_pb(ctx, set, "output", k,
					   ttc_func_result_type(f, k));

		if (!want) {
			first_diag(ctx, why, n);
			r = FAIL;
		} else {
			r = compare(want, res[k], k, c, why, n);
		}
		ttc_tensor_free(want);
	}
out:
	for (size_t i = 0; args && i < na; i++)
		ttc_tensor_free(args[i]);
	for (size_t i = 0; res && i < nr; i++)
		ttc_tensor_free(res[i]);
	free(args);
	free(res);
	return r;
}

/* The first data set's input shapes, by name: they resolve the model's
 * symbolic dimensions as --input-shape would. */
static void input_shapes(ttc_ctx *ctx, const char *dir,
			 struct ttc_onnx_options *o)
{
	static __thread struct ttc_onnx_shape shapes[CLI_MAX_SHAPES];
	char path[4096];
	size_t n = 0;

	*o = ttc_onnx_defaults();
	for (size_t i = 0; n < CLI_MAX_SHAPES; i++) {
		const char *name;
		ttc_tensor *t;

		snprintf(path, sizeof(path), "test_data_set_0/input_%zu.pb", i);
		if (!exists(dir, path))
			break;
		snprintf(path, sizeof(path), "%s/test_data_set_0/input_%zu.pb",
			 dir, i);
		t = ttc_onnx_load_tensor(ctx, path, &name);
		if (t && *name && strlen(name) < sizeof(shapes[0].name)) {
			struct ttc_onnx_shape *s = &shapes[n++];

			snprintf(s->name, sizeof(s->name), "%s", name);
			s->rank = ttc_type_rank(t->type);
			memcpy(s->dims, ttc_type_dims(t->type),
			       s->rank * sizeof(int64_t));
		}
		ttc_tensor_free(t);
	}
	ttc_ctx_clear_diags(ctx);
	o->shapes = shapes;
	o->nshapes = n;
}

static enum result run_case(const char *dir, const struct conf *c, char *why,
			    size_t n)
{
	struct ttc_onnx_options o;
	ttc_ctx *ctx = ttc_ctx_new_ttir();
	ttc_onnx_model *om = NULL;
	char path[4096];
	enum result r = PASS;
	int rc;

	input_shapes(ctx, dir, &o);
	snprintf(path, sizeof(path), "%s/model.onnx", dir);
	rc = ttc_onnx_import(ctx, path, &o, &om);
	if (rc) {
		first_diag(ctx, why, n);
		r = rc == -ENOTSUP ? UNSUPPORTED : FAIL;
	} else {
		for (unsigned s = 0; r == PASS; s++) {
			snprintf(path, sizeof(path), "%s/test_data_set_%u", dir,
				 s);
			if (!exists(path, "."))
				break;
			ttc_ctx_clear_diags(ctx);
			r = run_set(ctx, om, path, c, why, n);
		}
	}
	ttc_onnx_model_free(om);
	ttc_ctx_free(ctx);
	return r;
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

static void report(struct conf *c, const char *dir)
{
	char name[512], op[64], why[600];
	enum result r = run_case(dir, c, why, sizeof(why));
	struct allow *a = allowed(c, case_name(dir, name, sizeof(name)));
	struct op_total *t;

	case_op(dir, op, sizeof(op));
	t = total_of(c, op);
	c->n++;
	if (r == PASS) {
		c->pass++;
		t->pass++;
	} else if (r == FAIL) {
		c->fail++;
		t->fail++;
	} else {
		c->unsupported++;
		t->unsupported++;
	}
	if (a && r != PASS) {
		a->used = true;
		c->allowed++;
	}
	if (c->tap) {
		if (r == PASS)
			printf("ok %u - %s\n", c->n, name);
		else if (a)
			printf("ok %u - %s (%s, allowed: %s)\n", c->n, name,
			       r == FAIL ? "fails" : "unsupported", a->reason);
		else
			printf("not ok %u - %s\n# %s: %s\n", c->n, name,
			       r == FAIL ? "fail" : "unsupported", why);
		return;
	}
	if (r == PASS && !c->quiet)
		printf("pass %s\n", name);
	else if (r != PASS && (!c->quiet || !a))
		printf("%s %s: %s%s%s\n", r == FAIL ? "fail" : "unsupported",
		       name, why, a ? " (allowed: " : "", a ? a->reason : "");
	fflush(stdout);
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

	if (exists(dir, "model.onnx")) {
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
		if (!exists(path, "model.onnx"))
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

static void totals(struct conf *c)
{
	const char *hash = c->tap ? "# " : "";

	printf("%s%-28s %6s %6s %11s\n", hash, "op", "pass", "fail",
	       "unsupported");
	for (size_t i = 0; i < c->nops; i++)
		printf("%s%-28s %6u %6u %11u\n", hash, c->ops[i].name,
		       c->ops[i].pass, c->ops[i].fail, c->ops[i].unsupported);
	printf("%s%u cases: %u pass, %u fail, %u unsupported (%u of them "
	       "allowed)\n",
	       hash, c->n, c->pass, c->fail, c->unsupported, c->allowed);
	for (size_t i = 0; i < c->nallow; i++) {
		if (c->allow[i].used)
			continue;
		c->stale++;
		if (c->tap)
			printf("not ok %u - allow-list entry %s is stale (no "
			       "case fails or is unsupported)\n",
			       ++c->n, c->allow[i].pattern);
		else
			printf("stale allow-list entry %s: no case fails or "
			       "is unsupported\n", c->allow[i].pattern);
	}
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
		rc = load_allow(c);
	for (int i = optind; !rc && i < argc; i++)
		rc = run_dir(c, argv[i]);
	if (!rc) {
		totals(c);
		rc = c->fail + c->unsupported > c->allowed || c->stale ?
			     EXIT_FAIL : EXIT_OK;
	}
	for (size_t i = 0; i < c->nallow; i++) {
		free(c->allow[i].pattern);
		free(c->allow[i].reason);
	}
	free(c);
	return rc < 0 ? EXIT_OK : rc;
}
