// SPDX-License-Identifier: Apache-2.0
/* ttc info's summary of a model's manifest: target, options, inputs and
 * outputs, programs with their op kinds, parameters, the memory plan and
 * the kernels (docs/ttc.md, "ttc info"). */
#include <inttypes.h>
#include <string.h>

#include "model_view.h"

/* Count and device bytes of the tensors of one kind. */
static void kind_totals(const struct tt_model_desc *d,
			enum tt_model_tensor_kind k, unsigned *n, uint64_t *b)
{
	*n = 0;
	*b = 0;
	for (unsigned i = 0; i < d->ntensors; i++)
		if (d->tensors[i].kind == k) {
			(*n)++;
			*b += view_tensor_bytes(&d->tensors[i]);
		}
}

static void plan_totals(const struct tt_model_desc *d, uint64_t *l1,
			uint64_t *dram)
{
	*l1 = *dram = 0;
	for (unsigned i = 0; i < d->nslots; i++)
		*(d->slots[i].l1 ? l1 : dram) += view_slot_bytes(&d->slots[i]);
}

/* Whether op k of p is the first of its kind in p (for the histogram). */
static bool first_of_kind(const struct tt_model_program *p, unsigned k)
{
	for (unsigned j = 0; j < k; j++)
		if (!strcmp(p->ops[j].op, p->ops[k].op))
			return false;
	return true;
}

static unsigned kind_count(const struct tt_model_program *p, const char *op)
{
	unsigned n = 0;

	for (unsigned k = 0; k < p->nops; k++)
		n += !strcmp(p->ops[k].op, op);
	return n;
}

static void io_text(FILE *f, const struct tt_model_desc *d,
		    enum tt_model_tensor_kind k)
{
	fprintf(f, "%s:\n", k == TT_MODEL_INPUT ? "inputs" : "outputs");
	for (unsigned i = 0; i < d->ntensors; i++) {
		const struct tt_model_tensor *t = &d->tensors[i];

		if (t->kind != k)
			continue;
		fprintf(f, "  %-24s ", t->name);
		view_shape(f, &t->shape);
		fprintf(f, " %s\n", tt_data_format_name(t->format));
	}
}

void info_model_text(FILE *f, const struct tt_model_desc *d)
{
	unsigned n;
	uint64_t b, l1, dram;

	fprintf(f, "arch:      %s\ngrid:      %ux%u\noptions:  ", d->arch,
		d->grid.x, d->grid.y);
	for (unsigned i = 0; i < d->noptions; i++)
		fprintf(f, " %s=%s", d->options[i].name, d->options[i].value);
	fprintf(f, "%s\n", d->noptions ? "" : " (none)");
	io_text(f, d, TT_MODEL_INPUT);
	io_text(f, d, TT_MODEL_OUTPUT);
	fprintf(f, "programs:\n");
	for (unsigned i = 0; i < d->nprograms; i++) {
		const struct tt_model_program *p = &d->programs[i];

		fprintf(f, "  %-24s %u ops:", p->name, p->nops);
		for (unsigned k = 0; k < p->nops; k++)
			if (first_of_kind(p, k))
				fprintf(f, " %s %u", p->ops[k].op,
					kind_count(p, p->ops[k].op));
		fputc('\n', f);
	}
	kind_totals(d, TT_MODEL_PARAM, &n, &b);
	fprintf(f, "parameters: %u, %" PRIu64 " bytes\n", n, b);
	kind_totals(d, TT_MODEL_CONST, &n, &b);
	fprintf(f, "constants:  %u, %" PRIu64 " bytes\n", n, b);
	plan_totals(d, &l1, &dram);
	fprintf(f,
		"memory plan: %u slots, L1 %" PRIu64 " bytes, DRAM %" PRIu64
		" bytes\n",
		d->nslots, l1, dram);
	for (unsigned i = 0; i < d->nslots; i++)
		fprintf(f, "  slot %-4u %-4s %12" PRIu64 " bytes\n", i,
			d->slots[i].l1 ? "l1" : "dram",
			view_slot_bytes(&d->slots[i]));
	fprintf(f, "kernels:   %u\n", d->nkernels);
}

static void io_json(FILE *f, const struct tt_model_desc *d,
		    enum tt_model_tensor_kind k)
{
	bool first = true;

	fputc('[', f);
	for (unsigned i = 0; i < d->ntensors; i++) {
		const struct tt_model_tensor *t = &d->tensors[i];

		if (t->kind != k)
			continue;
		fprintf(f, "%s{\"name\": ", first ? "" : ", ");
		view_json_str(f, t->name);
		fprintf(f, ", \"shape\": ");
		view_shape(f, &t->shape);
		fprintf(f, ", \"format\": ");
		view_json_str(f, tt_data_format_name(t->format));
		fputc('}', f);
		first = false;
	}
	fputc(']', f);
}

static void programs_json(FILE *f, const struct tt_model_desc *d)
{
	fputc('[', f);
	for (unsigned i = 0; i < d->nprograms; i++) {
		const struct tt_model_program *p = &d->programs[i];
		bool first = true;

		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		view_json_str(f, p->name);
		fprintf(f, ", \"ops\": %u, \"op_kinds\": {", p->nops);
		for (unsigned k = 0; k < p->nops; k++)
			if (first_of_kind(p, k)) {
				fprintf(f, "%s", first ? "" : ", ");
				view_json_str(f, p->ops[k].op);
				fprintf(f, ": %u", kind_count(p, p->ops[k].op));
				first = false;
			}
		fprintf(f, "}}");
	}
	fputc(']', f);
}

static void plan_json(FILE *f, const struct tt_model_desc *d)
{
	uint64_t l1, dram;

	plan_totals(d, &l1, &dram);
	fprintf(f, "{\"slots\": [");
	for (unsigned i = 0; i < d->nslots; i++)
		fprintf(f,
			"%s{\"place\": \"%s\", \"bytes\": %" PRIu64
			", \"page_size\": %u, \"pages\": %" PRIu64 "}",
			i ? ", " : "", d->slots[i].l1 ? "l1" : "dram",
			view_slot_bytes(&d->slots[i]), d->slots[i].page_size,
			d->slots[i].pages);
	fprintf(f, "], \"l1_bytes\": %" PRIu64 ", \"dram_bytes\": %" PRIu64 "}",
		l1, dram);
}

void info_model_json(FILE *f, const struct tt_model_desc *d)
{
	unsigned n;
	uint64_t b;

	fprintf(f, "{\"manifest_version\": %u, \"arch\": ", d->version);
	view_json_str(f, d->arch);
	fprintf(f, ", \"grid\": [%u, %u], \"options\": {", d->grid.x,
		d->grid.y);
	for (unsigned i = 0; i < d->noptions; i++) {
		fprintf(f, "%s", i ? ", " : "");
		view_json_str(f, d->options[i].name);
		fprintf(f, ": ");
		view_json_str(f, d->options[i].value);
	}
	fprintf(f, "}, \"inputs\": ");
	io_json(f, d, TT_MODEL_INPUT);
	fprintf(f, ", \"outputs\": ");
	io_json(f, d, TT_MODEL_OUTPUT);
	fprintf(f, ", \"programs\": ");
	programs_json(f, d);
	kind_totals(d, TT_MODEL_PARAM, &n, &b);
	fprintf(f, ", \"parameters\": {\"count\": %u, \"bytes\": %" PRIu64 "}",
		n, b);
	kind_totals(d, TT_MODEL_CONST, &n, &b);
	fprintf(f, ", \"constants\": {\"count\": %u, \"bytes\": %" PRIu64 "}",
		n, b);
	fprintf(f, ", \"memory\": ");
	plan_json(f, d);
	fprintf(f, ", \"kernels\": %u}", d->nkernels);
}
