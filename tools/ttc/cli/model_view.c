// SPDX-License-Identifier: Apache-2.0
/* Reading a manifest for ttc info, merge and report (model_view.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tt/tensor.h"

#include "model_view.h"

int view_manifest(const tt_image *img, tt_model_manifest **out)
{
	struct tt_image_section s;
	size_t n = tt_image_section_count(img);
	bool found = false;

	*out = NULL;
	/* tt_image_find would set tt_last_error for a plain "no manifest". */
	for (size_t i = 0; i < n && !found; i++)
		found = !tt_image_section_at(img, i, &s) &&
			!strcmp(s.name, TT_MODEL_MANIFEST_SECTION);
	if (!found)
		return 1;
	return tt_model_desc_parse(tt_image_path(img), s.data, s.size, out);
}

void view_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void view_shape(FILE *f, const struct tt_shape *s)
{
	fputc('[', f);
	for (unsigned i = 0; i < s->rank; i++)
		fprintf(f, "%s%llu", i ? ", " : "",
			(unsigned long long)s->dims[i]);
	fputc(']', f);
}

const char *view_attr(const struct tt_model_op *op, const char *name,
		      const char *dflt)
{
	for (unsigned i = 0; i < op->nattrs; i++)
		if (!strcmp(op->attrs[i].name, name))
			return op->attrs[i].value;
	return dflt;
}

bool view_op_grid(const struct tt_model_desc *d, const struct tt_model_op *op,
		  struct tt_xy *out)
{
	const char *g = view_attr(op, "grid", NULL);
	char *end;
	unsigned long x, y;

	*out = d->grid;
	if (!g)
		return true;
	x = strtoul(g, &end, 10);
	if (end == g || *end != 'x')
		return false;
	g = end + 1;
	y = strtoul(g, &end, 10);
	if (end == g || *end || !x || !y || x > 4096 || y > 4096)
		return false;
	out->x = (unsigned)x;
	out->y = (unsigned)y;
	return true;
}

unsigned view_op_stage(const struct tt_model_op *op, const char *name)
{
	const char *v = view_attr(op, name, "0");
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	return *end || n > (1u << 20) ? 0 : (unsigned)n;
}

uint64_t view_tensor_bytes(const struct tt_model_tensor *t)
{
	size_t n = 0;

	if (tt_tensor_storage_size(&t->shape, t->format, TT_TENSOR_TILED, &n))
		return 0;
	return n;
}

static bool op_touches(const struct tt_model_op *op, unsigned t)
{
	if (op->out == t)
		return true;
	for (unsigned j = 0; j < op->nin; j++)
		if (op->in[j] == t)
			return true;
	return false;
}

bool view_lifetime(const struct tt_model_program *p, unsigned t,
		   unsigned *first, unsigned *last)
{
	bool seen = false;

	for (unsigned k = 0; k < p->nops; k++)
		if (op_touches(&p->ops[k], t)) {
			if (!seen)
				*first = k;
			*last = k;
			seen = true;
		}
	return seen;
}

const char *view_kind_name(enum tt_model_tensor_kind k)
{
	static const char *const names[] = {"input", "output", "param", "const",
					    "act"};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}
