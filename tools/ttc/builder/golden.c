// SPDX-License-Identifier: Apache-2.0
/*
 * The library's goldens as the builder's golden hook, and the golden map:
 * every op result that has data, named by its op's location, read back
 * by name or written out as .npy files with an index.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ttc/golden.h"

#include "tools/ttc/ir/internal.h"

#include "internal.h"

/* A host tensor viewing a value's bytes (not owned). */
static ttc_tensor view(const ttc_builder *b, const ttc_value *v)
{
	size_t nbytes;
	const void *d = ttc_builder_data(b, v, &nbytes);
	const ttc_type *t = ttc_value_type(v);

	return (ttc_tensor){ .type = t, .numel = (size_t)ttc_type_numel(t),
			     .data = (void *)d };
}

/* func.call: the callee run by the interpreter on the operands. */
static int call_golden(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		       ttc_tensor **out, enum tt_data_format fmt)
{
	const char *callee = ttc_attr_str(ttc_op_attr(op, "callee"), NULL);
	ttc_func *f = NULL;

	for (ttc_module *m = ttc_func_module(ttc_op_func(op)); m && !f;
	     m = ttc_module_parent(m))
		f = ttc_module_lookup(m, callee);
	if (!f)
		return -EINVAL;
	struct ttc_golden_opts o = { .fmt = fmt };

	return ttc_golden_run(f, in, nin, out, &o);
}

/* Whether a result of op is larger than the limit set. */
static bool over_limit(const ttc_builder *b, const ttc_op *op)
{
	for (size_t i = 0; b->golden_limit && i < ttc_op_num_results(op); i++) {
		const ttc_type *t = ttc_value_type(ttc_op_result(op, i));

		if (!ttc_type_is_tensor(t) ||
		    (uint64_t)ttc_type_numel(t) *
				    ttc_type_elem_bytes(ttc_type_elem(t)) >
			    b->golden_limit)
			return true;
	}
	return false;
}

static int library_golden(void *user, ttc_builder *b, const ttc_op *op)
{
	enum tt_data_format fmt = *(const enum tt_data_format *)user;
	size_t nin = ttc_op_num_operands(op), nres = ttc_op_num_results(op);

	if (over_limit(b, op))
		return 0; /* left without data */
	ttc_tensor *views = calloc(nin + 1, sizeof(*views));
	ttc_tensor **in = calloc(nin + 1, sizeof(*in));
	ttc_tensor **out = calloc(nres + 1, sizeof(*out));
	int rc = views && in && out ? 0 : -ENOMEM;

	for (size_t i = 0; !rc && i < nin; i++) {
		views[i] = view(b, ttc_op_operand(op, i));
		in[i] = &views[i];
	}
	if (!rc && !strcmp(ttc_op_name(op), "func.call"))
		rc = call_golden(op, in, nin, out, fmt);
	else if (!rc)
		rc = ttc_golden_op(op, in, nin, out, fmt);
	for (size_t i = 0; !rc && i < nres; i++)
		rc = ttc_builder_set_data(b, ttc_op_result(op, i), out[i]->data,
					  out[i]->numel *
						  ttc_type_elem_bytes(ttc_type_elem(
							  out[i]->type)));
	for (size_t i = 0; out && i < nres; i++)
		ttc_tensor_free(out[i]);
	free(views);
	free(in);
	free(out);
	return rc;
}

static const enum tt_data_format golden_formats[] = {
	TT_FLOAT32, TT_FLOAT16_B, TT_FLOAT16, TT_BFP8_B, TT_BFP4_B,
};

int ttc_builder_use_goldens(ttc_builder *b, enum tt_data_format fmt)
{
	if (!b)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(golden_formats) / sizeof(*golden_formats);
	     i++)
		if (golden_formats[i] == fmt) {
			ttc_builder_set_golden(b, library_golden,
					       (void *)&golden_formats[i]);
			return 0;
		}
	ttc_diag_addf(b->ctx, "builder: goldens cannot round as data format "
			      "%d (Float32, Float16_b, Float16, Bfp8_b or "
			      "Bfp4_b)",
		      (int)fmt);
	return -EINVAL;
}

void ttc_builder_golden_limit(ttc_builder *b, uint64_t max_bytes)
{
	if (b)
		b->golden_limit = max_bytes;
}

/* ---- the golden map ------------------------------------------------------ */

/* The name a location gives: a name, file:line, or the first named part
 * of a call site or fusion; NULL for none. */
static const char *loc_name(const ttc_loc *l, char *buf, size_t len)
{
	switch (l ? ttc_loc_kind(l) : TTC_LOC_UNKNOWN) {
	case TTC_LOC_NAME:
		return ttc_loc_str(l);
	case TTC_LOC_FILE:
		snprintf(buf, len, "%s:%u", ttc_loc_str(l), ttc_loc_line(l));
		return buf;
	case TTC_LOC_CALLSITE:
	case TTC_LOC_FUSED:
		for (size_t i = 0; i < ttc_loc_num_children(l); i++) {
			const char *s = loc_name(ttc_loc_child(l, i), buf, len);

			if (s)
				return s;
		}
		return NULL;
	default:
		return NULL;
	}
}

/* Entry i of the map: data entries that are op results, in the order
 * they were first given data. */
static const struct ttc_bdata *map_entry(const ttc_builder *b, size_t i)
{
	for (size_t k = 0; b && k < b->ndata; k++)
		if (b->data[k].name && i-- == 0)
			return &b->data[k];
	return NULL;
}

size_t ttc_builder_golden_count(const ttc_builder *b)
{
	return b ? b->nnamed : 0;
}

/* The base name of an op result: its location's name, else the op's
 * name and the entry's position; ":r" for a result r > 0. */
static void base_name(const ttc_value *v, size_t pos, char *out, size_t len)
{
	const ttc_op *op = ttc_value_def(v);
	size_t r = ttc_value_index(v);
	char buf[256];
	const char *s = loc_name(ttc_op_loc(op), buf, sizeof(buf));
	int n = s ? snprintf(out, len, "%s", s) :
		    snprintf(out, len, "%s_%zu", ttc_op_name(op), pos);

	if (r && n >= 0 && (size_t)n < len)
		snprintf(out + n, len - (size_t)n, ":%zu", r);
}

/* Names are unique: a result whose base name an earlier one took gets
 * "#2", "#3", ... (ops built in a loop at one source line). */
void ttc_builder_name_entry(ttc_builder *b, struct ttc_bdata *d)
{
	char name[TTC_GOLDEN_NAME_MAX];
	size_t pos = ttc_builder_golden_count(b), n;
	unsigned same = 1;

	base_name(d->v, pos, name, sizeof(name));
	n = strlen(name);
	for (size_t k = 0; k < b->ndata; k++)
		same += b->data[k].name && !strncmp(b->data[k].name, name, n) &&
			(!b->data[k].name[n] || b->data[k].name[n] == '#');
	if (same > 1)
		snprintf(name + n, sizeof(name) - n, "#%u", same);
	n = strlen(name) + 1;
	d->name = ttc_xmalloc(n);
	memcpy(d->name, name, n);
	b->nnamed++;
}

int ttc_builder_golden_entry(const ttc_builder *b, size_t i,
			     struct ttc_golden_entry *e)
{
	const struct ttc_bdata *d = map_entry(b, i);

	if (!d || !e)
		return -EINVAL;
	e->name = d->name;
	e->value = d->v;
	e->op = ttc_value_def(d->v);
	e->data = d->data;
	e->nbytes = d->nbytes;
	return 0;
}

const ttc_value *ttc_builder_golden_find(const ttc_builder *b,
					 const char *name)
{
	struct ttc_golden_entry e;

	for (size_t i = 0; name && !ttc_builder_golden_entry(b, i, &e); i++)
		if (!strcmp(e.name, name))
			return e.value;
	return NULL;
}

/* A file name from an entry name: characters other than letters,
 * digits, '.', '-' and '_' become '_'; a leading '.' too. */
static void file_name(const char *name, char *out, size_t len)
{
	size_t n = 0;

	for (; name[n] && n + 1 < len; n++) {
		char c = name[n];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '-' || c == '_' ||
			 (c == '.' && n);

		out[n] = ok ? c : '_';
	}
	out[n] = 0;
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static int write_entry(ttc_builder *b, const char *dir, size_t i,
		       const struct ttc_golden_entry *e, FILE *index)
{
	char file[TTC_GOLDEN_NAME_MAX], path[4096];
	ttc_tensor t = view(b, e->value);
	const ttc_type *type = ttc_value_type(e->value);

	file_name(e->name, file, sizeof(file) - 4);
	/* Two names may sanitise alike: the entry number keeps files apart. */
	snprintf(path, sizeof(path), "%s/%zu-%s.npy", dir, i, file);
	int rc = ttc_tensor_save_npy(b->ctx, &t, path);

	if (rc)
		return rc;
	fprintf(index, "%s  {\"name\": ", i ? ",\n" : "");
	json_string(index, e->name);
	fprintf(index, ", \"file\": \"%zu-%s.npy\", \"op\": ", i, file);
	json_string(index, ttc_op_name(e->op));
	fprintf(index, ", \"result\": %zu, \"shape\": [",
		ttc_value_index(e->value));
	for (unsigned d = 0; d < ttc_type_rank(type); d++)
		fprintf(index, "%s%lld", d ? ", " : "",
			(long long)ttc_type_dims(type)[d]);
	fprintf(index, "]}");
	return 0;
}

int ttc_builder_write_goldens(ttc_builder *b, const char *dir)
{
	char path[4096];
	struct ttc_golden_entry e;
	int rc = 0;

	if (!b || !dir)
		return -EINVAL;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		rc = -errno;
		ttc_diag_addf(b->ctx, "%s: cannot create: %s", dir,
			      strerror(errno));
		return rc;
	}
	snprintf(path, sizeof(path), "%s/goldens.json", dir);
	FILE *index = fopen(path, "w");

	if (!index) {
		rc = -errno;
		ttc_diag_addf(b->ctx, "%s: cannot create: %s", path,
			      strerror(errno));
		return rc;
	}
	fprintf(index, "[\n");
	for (size_t i = 0; !rc && !ttc_builder_golden_entry(b, i, &e); i++)
		rc = write_entry(b, dir, i, &e, index);
	fprintf(index, "\n]\n");
	if (fclose(index) && !rc) {
		rc = -EIO;
		ttc_diag_addf(b->ctx, "%s: write failed", path);
	}
	return rc;
}
