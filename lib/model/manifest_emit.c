// SPDX-License-Identifier: Apache-2.0
/*
 * The manifest's writer (tt_model_desc_emit): a checked description as
 * YAML in the layout docs/image.md shows, one op per line so that a diff
 * of two manifests reads op by op. Every free-text scalar is written
 * double-quoted with escapes, so no value can change the structure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

static void quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void attrs(FILE *f, const struct tt_model_attr *a, unsigned n)
{
	fputc('{', f);
	for (unsigned i = 0; i < n; i++) {
		if (i)
			fputs(", ", f);
		quoted(f, a[i].name);
		fputs(": ", f);
		quoted(f, a[i].value);
	}
	fputc('}', f);
}

static const char *const kind_names[] = {"input", "output", "param",
					 "const", "act"};

static void tensor(FILE *f, const struct tt_model_tensor *t)
{
	fprintf(f, "  - {name: ");
	quoted(f, t->name);
	fprintf(f, ", kind: %s, shape: [", kind_names[t->kind]);
	for (unsigned k = 0; k < t->shape.rank; k++)
		fprintf(f, "%s%llu", k ? ", " : "",
			(unsigned long long)t->shape.dims[k]);
	fprintf(f, "], format: %s, place: %s", tt_data_format_name(t->format),
		t->l1 ? "l1" : "dram");
	if (t->slot >= 0)
		fprintf(f, ", slot: %d", t->slot);
	if (t->section) {
		fprintf(f, ", data: {section: ");
		quoted(f, t->section);
		fprintf(f, ", format: %s}", tt_data_format_name(t->data_format));
	}
	fputs("}\n", f);
}

static void op(FILE *f, const struct tt_model_desc *d,
	       const struct tt_model_op *o)
{
	fputs("      - {name: ", f);
	quoted(f, o->name);
	fputs(", op: ", f);
	quoted(f, o->op);
	fputs(", in: [", f);
	for (unsigned i = 0; i < o->nin; i++) {
		fputs(i ? ", " : "", f);
		quoted(f, o->in[i] == TT_MODEL_NONE ? "-"
						     : d->tensors[o->in[i]].name);
	}
	fputs("], out: ", f);
	quoted(f, d->tensors[o->out].name);
	if (o->nattrs) {
		fputs(", attrs: ", f);
		attrs(f, o->attrs, o->nattrs);
	}
	fputs("}\n", f);
}

static void emit(FILE *f, const struct tt_model_desc *d)
{
	fprintf(f, "# tt model manifest (docs/image.md)\ntti: %u\narch: ",
		d->version);
	quoted(f, d->arch);
	fprintf(f, "\ngrid: [%u, %u]\noptions: ", d->grid.x, d->grid.y);
	attrs(f, d->options, d->noptions);
	fputs(d->ntensors ? "\ntensors:\n" : "\ntensors: []\n", f);
	for (unsigned i = 0; i < d->ntensors; i++)
		tensor(f, &d->tensors[i]);
	fputs(d->nslots ? "slots:\n" : "slots: []\n", f);
	for (unsigned i = 0; i < d->nslots; i++)
		fprintf(f, "  - {place: %s, page_size: %u, pages: %llu}\n",
			d->slots[i].l1 ? "l1" : "dram", d->slots[i].page_size,
			(unsigned long long)d->slots[i].pages);
	fputs("programs:\n", f);
	for (unsigned i = 0; i < d->nprograms; i++) {
		fputs("  - name: ", f);
		quoted(f, d->programs[i].name);
		fputs("\n    ops:\n", f);
		for (unsigned k = 0; k < d->programs[i].nops; k++)
			op(f, d, &d->programs[i].ops[k]);
	}
	fputs(d->nkernels ? "kernels:\n" : "kernels: []\n", f);
	for (unsigned i = 0; i < d->nkernels; i++)
		fprintf(f, "  - %s\n", d->kernels[i]);
}

int tt_model_desc_emit(const struct tt_model_desc *d, char **text, size_t *len)
{
	FILE *f;
	int ret;

	*text = NULL;
	*len = 0;
	ret = tt_model_desc_check(d);
	if (ret)
		return ret;
	f = open_memstream(text, len);
	if (!f)
		return tt_error(-ENOMEM, "tt_model_desc_emit: out of memory");
	emit(f, d);
	if (fclose(f) || !*text) {
		free(*text);
		*text = NULL;
		return tt_error(-ENOMEM, "tt_model_desc_emit: out of memory");
	}
	return 0;
}
