// SPDX-License-Identifier: Apache-2.0
/* ttc report: where a compiled model's ops run and what memory they use,
 * from its manifest: DIR/report.txt, report.json, grid.svg and
 * memory.svg (docs/ttc.md, "ttc report"). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "report.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ttc report MODEL.tti -o DIR\n"
		"\n"
		"Write a placement and memory report of a compiled model:\n"
		"  DIR/report.txt   every op (kind, core grid, inputs and\n"
		"                   output with shape, format, place and\n"
		"                   slot), every slot with its tensors'\n"
		"                   lifetimes, totals\n"
		"  DIR/report.json  the same, one JSON document\n"
		"  DIR/grid.svg     the core grid, each op's cores\n"
		"  DIR/memory.svg   live L1 and DRAM activation bytes per op\n"
		"\n"
		"Options:\n"
		"  -o, --output DIR  where to write (made if missing)\n"
		"  -h, --help        this help\n"
		"\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  the image is not valid or holds no model, or DIR cannot\n"
		"     be written\n"
		"  2  usage error\n");
}

void report_live(const struct tt_model_desc *d,
		 const struct tt_model_program *p, unsigned k, uint64_t *l1,
		 uint64_t *dram)
{
	unsigned a, b;

	*l1 = *dram = 0;
	for (unsigned t = 0; t < d->ntensors; t++)
		if (d->tensors[t].kind == TT_MODEL_ACT &&
		    view_lifetime(p, t, &a, &b) && a <= k && k <= b)
			*(d->tensors[t].l1 ? l1 : dram) +=
				view_tensor_bytes(&d->tensors[t]);
}

/* ---- text ---- */

static void tensor_text(FILE *f, const char *role,
			const struct tt_model_desc *d, unsigned t)
{
	const struct tt_model_tensor *mt = &d->tensors[t];

	fprintf(f, "    %-3s %-28s ", role, mt->name);
	view_shape(f, &mt->shape);
	fprintf(f, " %s %s %s", tt_data_format_name(mt->format),
		mt->l1 ? "l1" : "dram", view_kind_name(mt->kind));
	if (mt->slot >= 0)
		fprintf(f, " slot %d", mt->slot);
	fputc('\n', f);
}

static void op_text(FILE *f, const struct tt_model_desc *d,
		    const struct tt_model_op *op, unsigned k)
{
	struct tt_xy g;
	bool ok = view_op_grid(d, op, &g);

	fprintf(f, "  op %u %s: %s, grid ", k, op->name, op->op);
	if (ok)
		fprintf(f, "%ux%u (%u cores)", g.x, g.y, g.x * g.y);
	else
		fprintf(f, "%s (unreadable)", view_attr(op, "grid", "?"));
	fprintf(f, ", epoch %u, chip %u\n", view_op_stage(op, "epoch"),
		view_op_stage(op, "chip"));
	for (unsigned j = 0; j < op->nin; j++)
		if (op->in[j] != TT_MODEL_NONE)
			tensor_text(f, "in", d, op->in[j]);
	tensor_text(f, "out", d, op->out);
}

static void slots_text(FILE *f, const struct tt_model_desc *d)
{
	unsigned a, b;

	fprintf(f, "slots:\n");
	for (unsigned s = 0; s < d->nslots; s++) {
		fprintf(f,
			"  slot %u: %s, %" PRIu64 " bytes (%" PRIu64
			" pages of %u)\n",
			s, d->slots[s].l1 ? "l1" : "dram",
			view_slot_bytes(&d->slots[s]), d->slots[s].pages,
			d->slots[s].page_size);
		for (unsigned t = 0; t < d->ntensors; t++)
			for (unsigned i = 0;
			     d->tensors[t].slot == (int)s && i < d->nprograms;
			     i++)
				if (view_lifetime(&d->programs[i], t, &a, &b))
					fprintf(f,
						"    %-28s %12" PRIu64
						" bytes, %s ops %u..%u\n",
						d->tensors[t].name,
						view_tensor_bytes(
							&d->tensors[t]),
						d->programs[i].name, a, b);
	}
}

struct totals {
	uint64_t slot_l1, slot_dram, kind[5], peak_l1, peak_dram;
};

static void totals(const struct tt_model_desc *d, struct totals *t)
{
	uint64_t l1, dram;

	memset(t, 0, sizeof(*t));
	for (unsigned s = 0; s < d->nslots; s++)
		*(d->slots[s].l1 ? &t->slot_l1 : &t->slot_dram) +=
			view_slot_bytes(&d->slots[s]);
	for (unsigned i = 0; i < d->ntensors; i++)
		t->kind[d->tensors[i].kind] +=
			view_tensor_bytes(&d->tensors[i]);
	for (unsigned i = 0; i < d->nprograms; i++)
		for (unsigned k = 0; k < d->programs[i].nops; k++) {
			report_live(d, &d->programs[i], k, &l1, &dram);
			t->peak_l1 = l1 > t->peak_l1 ? l1 : t->peak_l1;
			t->peak_dram =
				dram > t->peak_dram ? dram : t->peak_dram;
		}
}

static void write_text(FILE *f, const char *path, const struct tt_model_desc *d)
{
	struct totals t;

	fprintf(f, "model: %s\narch: %s, grid %ux%u\n\n", path, d->arch,
		d->grid.x, d->grid.y);
	for (unsigned i = 0; i < d->nprograms; i++) {
		fprintf(f, "program %s: %u ops\n", d->programs[i].name,
			d->programs[i].nops);
		for (unsigned k = 0; k < d->programs[i].nops; k++)
			op_text(f, d, &d->programs[i].ops[k], k);
		fputc('\n', f);
	}
	slots_text(f, d);
	totals(d, &t);
	fprintf(f,
		"\ntotals:\n  slots: L1 %" PRIu64 " bytes, DRAM %" PRIu64
		" bytes\n  peak live activations: L1 %" PRIu64
		" bytes, DRAM %" PRIu64 " bytes\n  inputs %" PRIu64
		" bytes, outputs %" PRIu64 " bytes, parameters %" PRIu64
		" bytes, constants %" PRIu64 " bytes\n",
		t.slot_l1, t.slot_dram, t.peak_l1, t.peak_dram,
		t.kind[TT_MODEL_INPUT], t.kind[TT_MODEL_OUTPUT],
		t.kind[TT_MODEL_PARAM], t.kind[TT_MODEL_CONST]);
}

/* ---- JSON ---- */

static void tensor_json(FILE *f, const struct tt_model_desc *d, unsigned t)
{
	const struct tt_model_tensor *mt = &d->tensors[t];

	fprintf(f, "{\"name\": ");
	view_json_str(f, mt->name);
	fprintf(f, ", \"kind\": \"%s\", \"shape\": ", view_kind_name(mt->kind));
	view_shape(f, &mt->shape);
	fprintf(f,
		", \"format\": \"%s\", \"place\": \"%s\", \"bytes\": %" PRIu64,
		tt_data_format_name(mt->format), mt->l1 ? "l1" : "dram",
		view_tensor_bytes(mt));
	if (mt->slot >= 0)
		fprintf(f, ", \"slot\": %d}", mt->slot);
	else
		fprintf(f, ", \"slot\": null}");
}

static void op_json(FILE *f, const struct tt_model_desc *d,
		    const struct tt_model_program *p, unsigned k)
{
	const struct tt_model_op *op = &p->ops[k];
	struct tt_xy g = {0, 0};
	uint64_t l1, dram;
	bool first = true;

	view_op_grid(d, op, &g);
	report_live(d, p, k, &l1, &dram);
	fprintf(f, "%s{\"index\": %u, \"name\": ", k ? ", " : "", k);
	view_json_str(f, op->name);
	fprintf(f, ", \"op\": ");
	view_json_str(f, op->op);
	fprintf(f,
		", \"grid\": [%u, %u], \"cores\": %u, \"epoch\": %u, "
		"\"chip\": %u, \"inputs\": [",
		g.x, g.y, g.x * g.y, view_op_stage(op, "epoch"),
		view_op_stage(op, "chip"));
	for (unsigned j = 0; j < op->nin; j++)
		if (op->in[j] != TT_MODEL_NONE) {
			fputs(first ? "" : ", ", f);
			tensor_json(f, d, op->in[j]);
			first = false;
		}
	fprintf(f, "], \"output\": ");
	tensor_json(f, d, op->out);
	fprintf(f,
		", \"live_l1_bytes\": %" PRIu64
		", \"live_dram_bytes\": %" PRIu64 "}",
		l1, dram);
}

static void slots_json(FILE *f, const struct tt_model_desc *d)
{
	unsigned a, b;

	fputc('[', f);
	for (unsigned s = 0; s < d->nslots; s++) {
		bool first = true;

		fprintf(f,
			"%s{\"index\": %u, \"place\": \"%s\", \"bytes\": "
			"%" PRIu64 ", \"page_size\": %u, \"pages\": %" PRIu64
			", \"tensors\": [",
			s ? ", " : "", s, d->slots[s].l1 ? "l1" : "dram",
			view_slot_bytes(&d->slots[s]), d->slots[s].page_size,
			d->slots[s].pages);
		for (unsigned t = 0; t < d->ntensors; t++)
			for (unsigned i = 0;
			     d->tensors[t].slot == (int)s && i < d->nprograms;
			     i++)
				if (view_lifetime(&d->programs[i], t, &a, &b)) {
					fprintf(f, "%s{\"name\": ",
						first ? "" : ", ");
					view_json_str(f, d->tensors[t].name);
					fprintf(f,
						", \"bytes\": %" PRIu64
						", \"program\": ",
						view_tensor_bytes(
							&d->tensors[t]));
					view_json_str(f, d->programs[i].name);
					fprintf(f,
						", \"first_op\": %u, "
						"\"last_op\": %u}",
						a, b);
					first = false;
				}
		fprintf(f, "]}");
	}
	fputc(']', f);
}

/* Each run of ops of one epoch, per program, with its peak live bytes
 * (the per-epoch usage PyBuda's reports show). */
static void epochs_json(FILE *f, const struct tt_model_desc *d)
{
	bool first = true;

	fputc('[', f);
	for (unsigned i = 0; i < d->nprograms; i++) {
		const struct tt_model_program *p = &d->programs[i];
		unsigned a = 0;

		for (unsigned k = 0; k < p->nops; k++) {
			unsigned e = view_op_stage(&p->ops[k], "epoch");
			uint64_t l1, dram, pl1 = 0, pdram = 0;

			if (k + 1 < p->nops &&
			    view_op_stage(&p->ops[k + 1], "epoch") == e)
				continue;
			for (unsigned j = a; j <= k; j++) {
				report_live(d, p, j, &l1, &dram);
				pl1 = l1 > pl1 ? l1 : pl1;
				pdram = dram > pdram ? dram : pdram;
			}
			fprintf(f, "%s{\"program\": ", first ? "" : ", ");
			view_json_str(f, p->name);
			fprintf(f,
				", \"epoch\": %u, \"first_op\": %u, "
				"\"last_op\": %u, \"peak_live_l1_bytes\": "
				"%" PRIu64
				", \"peak_live_dram_bytes\": %" PRIu64 "}",
				e, a, k, pl1, pdram);
			first = false;
			a = k + 1;
		}
	}
	fputc(']', f);
}

static void write_json(FILE *f, const char *path, const struct tt_model_desc *d)
{
	struct totals t;

	fprintf(f, "{\"file\": ");
	view_json_str(f, path);
	fprintf(f, ", \"arch\": ");
	view_json_str(f, d->arch);
	fprintf(f, ", \"grid\": [%u, %u], \"programs\": [", d->grid.x,
		d->grid.y);
	for (unsigned i = 0; i < d->nprograms; i++) {
		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		view_json_str(f, d->programs[i].name);
		fprintf(f, ", \"ops\": [");
		for (unsigned k = 0; k < d->programs[i].nops; k++)
			op_json(f, d, &d->programs[i], k);
		fprintf(f, "]}");
	}
	fprintf(f, "], \"epochs\": ");
	epochs_json(f, d);
	fprintf(f, ", \"slots\": ");
	slots_json(f, d);
	totals(d, &t);
	fprintf(f,
		", \"totals\": {\"slots_l1_bytes\": %" PRIu64
		", \"slots_dram_bytes\": %" PRIu64
		", \"peak_live_l1_bytes\": %" PRIu64
		", \"peak_live_dram_bytes\": %" PRIu64
		", \"input_bytes\": %" PRIu64 ", \"output_bytes\": %" PRIu64
		", \"param_bytes\": %" PRIu64 ", \"const_bytes\": %" PRIu64
		"}}\n",
		t.slot_l1, t.slot_dram, t.peak_l1, t.peak_dram,
		t.kind[TT_MODEL_INPUT], t.kind[TT_MODEL_OUTPUT],
		t.kind[TT_MODEL_PARAM], t.kind[TT_MODEL_CONST]);
}

/* ---- files ---- */

typedef void writer_fn(FILE *f, const char *path,
		       const struct tt_model_desc *d);

static void grid_svg(FILE *f, const char *path, const struct tt_model_desc *d)
{
	(void)path;
	report_grid_svg(f, d);
}

static void memory_svg(FILE *f, const char *path, const struct tt_model_desc *d)
{
	(void)path;
	report_memory_svg(f, d);
}

static int write_one(const char *dir, const char *name, writer_fn *fn,
		     const char *path, const struct tt_model_desc *d)
{
	char out[4096];
	FILE *f;

	snprintf(out, sizeof(out), "%s/%s", dir, name);
	f = fopen(out, "w");
	if (f) {
		fn(f, path, d);
		if (fclose(f) == 0) {
			printf("%s\n", out);
			return 0;
		}
	}
	fprintf(stderr, "ttc: %s: %s\n", out, strerror(errno));
	return EXIT_FAIL;
}

static int report(const char *path, const char *dir)
{
	tt_image *img = NULL;
	tt_model_manifest *man = NULL;
	const struct tt_model_desc *d;
	int ret = tt_image_open(path, &img), rc = 0;

	if (!ret)
		ret = view_manifest(img, &man);
	if (ret > 0)
		fprintf(stderr, "ttc: %s: an image with no model (no %s)\n",
			path, TT_MODEL_MANIFEST_SECTION);
	else if (ret)
		fprintf(stderr, "ttc: %s\n", tt_last_error());
	else if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "ttc: %s: %s\n", dir, strerror(errno));
		ret = 1;
	}
	if (!ret) {
		d = tt_model_manifest_desc(man);
		rc = write_one(dir, "report.txt", write_text, path, d);
		rc = rc ? rc
			: write_one(dir, "report.json", write_json, path, d);
		rc = rc ? rc : write_one(dir, "grid.svg", grid_svg, path, d);
		rc = rc ? rc
			: write_one(dir, "memory.svg", memory_svg, path, d);
	}
	tt_model_manifest_free(man);
	if (img)
		tt_image_close(img);
	return ret ? EXIT_FAIL : rc;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longs[] = {
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *dir = NULL;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:h", longs, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		}
		if (c == 'o')
			dir = optarg;
		else if (c == ':')
			return usage_error("report",
					   "option '%s' needs a value",
					   argv[optind - 1]);
		else
			return usage_error("report", "unknown option '%s'",
					   argv[optind - 1]);
	}
	if (optind + 1 != argc)
		return usage_error("report", "%s",
				   optind == argc ? "no image given"
						  : "one image at a time");
	if (!dir)
		return usage_error("report", "no output directory (-o DIR)");
	return report(argv[optind], dir);
}
