// SPDX-License-Identifier: Apache-2.0
/* ttc merge: several compiled models in one image, each under its own
 * namespace, to run on one device (PyBuda's tti_merge; docs/ttc.md). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/tti.h"

#include "cli.h"
#include "merge.h"

#define MAX_MODELS 64
#define DATA_ALIGN 4096u
#define KERNEL_ALIGN 64u

struct merge_opts {
	const char *out;
	const char *paths[MAX_MODELS];
	unsigned n;
	const char *name_of[MAX_MODELS], *name_ns[MAX_MODELS];
	unsigned nnames;
	char stems[MAX_MODELS][256];
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ttc merge [OPTIONS] A.tti B.tti [...] -o OUT.tti\n"
		"\n"
		"Put several compiled models in one image, to load and run on\n"
		"one device: every program of every input, each model's\n"
		"tensors, programs, ops and options under a namespace (the\n"
		"file's stem: 'mlp/x', 'mlp/forward'), kernels shared by\n"
		"key, the memory plans side by side. The inputs must be for\n"
		"one arch; the image's grid is the largest of theirs.\n"
		"\n"
		"Options:\n"
		"  -o, --output OUT.tti  the image to write (replaced whole)\n"
		"      --name FILE=NS    the namespace of input FILE\n"
		"  -h, --help            this help\n"
		"\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  an input is not a valid image of a model, the inputs\n"
		"     differ in arch, names collide, or OUT cannot be written\n"
		"  2  usage error\n");
}

static int parse_args(int argc, char **argv, struct merge_opts *o)
{
	static const struct option longs[] = {
		{"output", required_argument, NULL, 'o'},
		{"name", required_argument, NULL, 'n'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char *eq;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:h", longs, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case 'n':
			eq = strchr(optarg, '=');
			if (!eq || eq == optarg || !eq[1])
				return usage_error(
					"merge",
					"--name wants FILE=NS, got '%s'",
					optarg);
			if (o->nnames == MAX_MODELS)
				return usage_error("merge",
						   "more than %d --name",
						   MAX_MODELS);
			*eq = 0;
			o->name_of[o->nnames] = optarg;
			o->name_ns[o->nnames++] = eq + 1;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case ':':
			return usage_error("merge", "option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return usage_error("merge", "unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	for (; optind < argc; optind++) {
		if (o->n == MAX_MODELS)
			return usage_error("merge", "more than %d images",
					   MAX_MODELS);
		o->paths[o->n++] = argv[optind];
	}
	if (o->n < 2)
		return usage_error("merge",
				   "two images or more to merge, got %u", o->n);
	if (!o->out)
		return usage_error("merge", "no output (-o OUT.tti)");
	return 0;
}

/* path's namespace: its --name, else its file name less ".tti". */
static const char *namespace_of(struct merge_opts *o, unsigned i)
{
	const char *p = o->paths[i], *base = strrchr(p, '/');
	size_t len;

	base = base ? base + 1 : p;
	for (unsigned k = 0; k < o->nnames; k++)
		if (!strcmp(o->name_of[k], p) || !strcmp(o->name_of[k], base))
			return o->name_ns[k];
	snprintf(o->stems[i], sizeof(o->stems[i]), "%s", base);
	len = strlen(o->stems[i]);
	if (len > 4 && !strcmp(o->stems[i] + len - 4, ".tti"))
		o->stems[i][len - 4] = 0;
	return o->stems[i];
}

/* Each --name names an input (a typo is not silently ignored). */
static int check_names(const struct merge_opts *o)
{
	for (unsigned k = 0; k < o->nnames; k++) {
		bool used = false;

		for (unsigned i = 0; i < o->n; i++) {
			const char *b = strrchr(o->paths[i], '/');

			used |= !strcmp(o->name_of[k], o->paths[i]) ||
				!strcmp(o->name_of[k], b ? b + 1 : o->paths[i]);
		}
		if (!used)
			return usage_error("merge",
					   "--name %s: not one of the images",
					   o->name_of[k]);
	}
	return 0;
}

/* A namespace becomes part of every name (docs/image.md: 1..128 of
 * A-Z a-z 0-9 _ . : / - $ #); refused here, naming the option. */
static bool namespace_ok(const char *ns)
{
	if (!*ns || strlen(ns) > 64 || ns[0] == '/')
		return false;
	for (; *ns; ns++)
		if (!((*ns >= 'a' && *ns <= 'z') ||
		      (*ns >= 'A' && *ns <= 'Z') ||
		      (*ns >= '0' && *ns <= '9') || strchr("_.:/-$#", *ns)))
			return false;
	return true;
}

static int open_input(struct merge_in *in, const struct merge_in *first)
{
	int ret = tt_image_open(in->path, &in->img);

	if (!ret)
		ret = view_manifest(in->img, &in->man);
	if (ret > 0) {
		fprintf(stderr,
			"ttc: merge: %s: an image with no model (no %s)\n",
			in->path, TT_MODEL_MANIFEST_SECTION);
		return EXIT_FAIL;
	}
	if (ret) {
		fprintf(stderr, "ttc: merge: %s\n", tt_last_error());
		return EXIT_FAIL;
	}
	in->d = tt_model_manifest_desc(in->man);
	if (first && strcmp(first->d->arch, in->d->arch)) {
		fprintf(stderr,
			"ttc: merge: %s is for %s, %s for %s: one arch only\n",
			first->path, first->d->arch, in->path, in->d->arch);
		return EXIT_FAIL;
	}
	return 0;
}

static int add_section(ttc_tti_writer *w, const tt_image *img, const char *from,
		       const char *to, uint32_t align)
{
	struct tt_image_section s;
	int ret = tt_image_find(img, from, &s);

	return ret ? ret : ttc_tti_add(w, to, s.data, s.size, align);
}

/* The manifest, every input's data renamed, each kernel once. */
static int write_image(ttc_ctx *ctx, const struct merge_out *o,
		       const struct merge_in *in, unsigned n, const char *path)
{
	ttc_tti_writer *w = ttc_tti_writer_new(ctx);
	char name[TT_MODEL_KERNEL_SECTION_MAX], *text = NULL;
	size_t len;
	int ret = w ? tt_model_desc_emit(&o->d, &text, &len) : -1;

	if (!ret)
		ret = ttc_tti_add(w, TT_MODEL_MANIFEST_SECTION, text, len, 8);
	for (unsigned m = 0; !ret && m < n; m++)
		for (unsigned i = 0; !ret && i < in[m].d->ntensors; i++)
			if (in[m].d->tensors[i].section)
				ret = add_section(
					w, in[m].img,
					in[m].d->tensors[i].section,
					o->d.tensors[in[m].t0 + i].section,
					DATA_ALIGN);
	for (unsigned k = 0; !ret && k < o->d.nkernels; k++) {
		tt_model_kernel_section(o->kernels[k].key, name);
		ret = add_section(w, o->kernels[k].from->img, name, name,
				  KERNEL_ALIGN);
	}
	if (!ret)
		ret = ttc_tti_write(w, path);
	free(text);
	ttc_tti_writer_free(w);
	return ret;
}

static int merge(struct merge_opts *opt, struct merge_in *in)
{
	struct merge_out o = {0};
	ttc_ctx *ctx = ttc_ctx_new();
	int rc = ctx ? 0 : EXIT_FAIL;

	for (unsigned m = 0; !rc && m < opt->n; m++) {
		in[m].path = opt->paths[m];
		in[m].ns = namespace_of(opt, m);
		if (!namespace_ok(in[m].ns)) {
			fprintf(stderr,
				"ttc: merge: %s: namespace '%s' is not 1..64 "
				"of A-Z a-z 0-9 _ . : / - $ # (--name "
				"FILE=NS)\n",
				in[m].path, in[m].ns);
			rc = EXIT_FAIL;
			break;
		}
		rc = open_input(&in[m], m ? &in[0] : NULL);
	}
	if (!rc)
		rc = merge_build(in, opt->n, &o);
	if (!rc && write_image(ctx, &o, in, opt->n, opt->out)) {
		const char *msg = ttc_ctx_diag_count(ctx) ? ttc_ctx_error(ctx)
							  : tt_last_error();

		fprintf(stderr, "ttc: merge: %s: %.*s\n", opt->out,
			(int)strcspn(msg, "\n"), msg);
		rc = EXIT_FAIL;
	}
	if (!rc)
		fprintf(stderr,
			"ttc: %s: %u models, %u programs, %u tensors, %u "
			"kernels\n",
			opt->out, opt->n, o.d.nprograms, o.d.ntensors,
			o.d.nkernels);
	merge_free(&o);
	ttc_ctx_free(ctx);
	return rc;
}

int cmd_merge(int argc, char **argv)
{
	static struct merge_opts o;
	struct merge_in in[MAX_MODELS] = {{0}};
	int rc;

	memset(&o, 0, sizeof(o));
	rc = parse_args(argc, argv, &o);
	if (!rc)
		rc = check_names(&o);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	rc = merge(&o, in);
	for (unsigned m = 0; m < o.n; m++) {
		tt_model_manifest_free(in[m].man);
		if (in[m].img)
			tt_image_close(in[m].img);
	}
	return rc;
}
