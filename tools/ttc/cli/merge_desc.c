// SPDX-License-Identifier: Apache-2.0
/* ttc merge: several models' descriptions as one (merge.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "merge.h"

/* An allocation owned by out (NULL when out of memory). */
static void *own(struct merge_out *o, size_t n, size_t size)
{
	void *p;

	if (o->nmem == o->capmem) {
		size_t cap = o->capmem ? 2 * o->capmem : 64;
		void **m = realloc(o->mem, cap * sizeof(*m));

		if (!m)
			return NULL;
		o->mem = m;
		o->capmem = cap;
	}
	p = calloc(n ? n : 1, size);
	if (p)
		o->mem[o->nmem++] = p;
	return p;
}

static char *ownf(struct merge_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static char *ownf(struct merge_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = n < 0 ? NULL : own(o, (size_t)n + 1, 1);
	if (!s)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void merge_free(struct merge_out *o)
{
	for (size_t i = 0; i < o->nmem; i++)
		free(o->mem[i]);
	free(o->mem);
	memset(o, 0, sizeof(*o));
}

static int oom(void)
{
	fprintf(stderr, "ttc: merge: out of memory\n");
	return EXIT_FAIL;
}

/* The merged tensors: names under the namespace, activations on the
 * renumbered slots, data in the renamed sections. */
static int add_tensors(struct merge_out *o, struct merge_in *in, unsigned n,
		       struct tt_model_tensor *t)
{
	unsigned k = 0;

	for (unsigned m = 0; m < n; m++) {
		const struct tt_model_desc *d = in[m].d;

		in[m].t0 = k;
		for (unsigned i = 0; i < d->ntensors; i++, k++) {
			t[k] = d->tensors[i];
			t[k].name =
				ownf(o, "%s/%s", in[m].ns, d->tensors[i].name);
			if (!t[k].name)
				return oom();
			if (t[k].slot >= 0)
				t[k].slot += (int)in[m].s0;
			if (t[k].section) {
				t[k].section = ownf(o, "d/%u/%u", m, i);
				if (!t[k].section)
					return oom();
			}
		}
	}
	return 0;
}

/* An op's attributes; one placed on the whole grid of a smaller model
 * keeps that grid in the larger merged one. */
static int op_attrs(struct merge_out *o, const struct tt_model_desc *d,
		    const struct tt_model_op *op, struct tt_model_op *to)
{
	bool pin = !view_attr(op, "grid", NULL) &&
		   (d->grid.x != o->d.grid.x || d->grid.y != o->d.grid.y);
	struct tt_model_attr *a = own(o, op->nattrs + 1, sizeof(*a));

	if (!a)
		return oom();
	memcpy(a, op->attrs, op->nattrs * sizeof(*a));
	to->attrs = a;
	to->nattrs = op->nattrs;
	if (!pin)
		return 0;
	a[to->nattrs].name = "grid";
	a[to->nattrs].value = ownf(o, "%ux%u", d->grid.x, d->grid.y);
	to->nattrs++;
	return a[to->nattrs - 1].value ? 0 : oom();
}

static int add_program(struct merge_out *o, const struct merge_in *in,
		       const struct tt_model_program *p,
		       struct tt_model_program *to)
{
	struct tt_model_op *ops = own(o, p->nops, sizeof(*ops));

	to->name = ownf(o, "%s/%s", in->ns, p->name);
	if (!ops || !to->name)
		return oom();
	to->ops = ops;
	to->nops = p->nops;
	for (unsigned k = 0; k < p->nops; k++) {
		const struct tt_model_op *op = &p->ops[k];
		unsigned *idx = own(o, op->nin, sizeof(*idx));

		ops[k] = *op;
		ops[k].name = ownf(o, "%s/%s", in->ns, op->name);
		if (!idx || !ops[k].name)
			return oom();
		for (unsigned j = 0; j < op->nin; j++)
			idx[j] = op->in[j] == TT_MODEL_NONE
					 ? TT_MODEL_NONE
					 : op->in[j] + in->t0;
		ops[k].in = idx;
		ops[k].out = op->out + in->t0;
		if (op_attrs(o, in->d, op, &ops[k]))
			return EXIT_FAIL;
	}
	return 0;
}

/* Whether the section a and b name hold the same bytes. */
static bool same_elf(const struct merge_in *a, const struct merge_in *b,
		     const char *key)
{
	char name[TT_MODEL_KERNEL_SECTION_MAX];
	struct tt_image_section sa, sb;

	tt_model_kernel_section(key, name);
	if (tt_image_find(a->img, name, &sa) ||
	    tt_image_find(b->img, name, &sb))
		return false;
	return sa.size == sb.size && !memcmp(sa.data, sb.data, sa.size);
}

/* Kernels by key, each once; one key with two ELFs is an error. */
static int add_kernels(struct merge_out *o, const struct merge_in *in,
		       unsigned n, unsigned total)
{
	const char **keys = own(o, total, sizeof(*keys));
	unsigned k = 0;

	o->kernels = own(o, total, sizeof(*o->kernels));
	if (!keys || !o->kernels)
		return oom();
	for (unsigned m = 0; m < n; m++)
		for (unsigned i = 0; i < in[m].d->nkernels; i++) {
			const char *key = in[m].d->kernels[i];
			unsigned j = 0;

			while (j < k && strcmp(keys[j], key))
				j++;
			if (j == k) {
				keys[k] = key;
				o->kernels[k++] =
					(struct merge_kernel){key, &in[m]};
			} else if (!same_elf(o->kernels[j].from, &in[m], key)) {
				fprintf(stderr,
					"ttc: merge: kernel %s: %s and %s hold "
					"different ELFs under one key\n",
					key, o->kernels[j].from->path,
					in[m].path);
				return EXIT_FAIL;
			}
		}
	o->d.kernels = keys;
	o->d.nkernels = k;
	return 0;
}

static int add_options(struct merge_out *o, const struct merge_in *in,
		       unsigned n, unsigned total)
{
	struct tt_model_attr *a = own(o, total, sizeof(*a));
	unsigned k = 0;

	if (!a)
		return oom();
	for (unsigned m = 0; m < n; m++)
		for (unsigned i = 0; i < in[m].d->noptions; i++, k++) {
			a[k].name = ownf(o, "%s/%s", in[m].ns,
					 in[m].d->options[i].name);
			a[k].value = in[m].d->options[i].value;
			if (!a[k].name)
				return oom();
		}
	o->d.options = a;
	o->d.noptions = k;
	return 0;
}

/* Two tensors, or two programs, of one name (two inputs in one
 * namespace): named, not left to the checker's first complaint. */
static int check_unique(const struct tt_model_desc *d)
{
	for (unsigned i = 0; i < d->ntensors; i++)
		for (unsigned j = i + 1; j < d->ntensors; j++)
			if (!strcmp(d->tensors[i].name, d->tensors[j].name)) {
				fprintf(stderr,
					"ttc: merge: two tensors named %s: "
					"give each input its own namespace "
					"(--name FILE=NS)\n",
					d->tensors[i].name);
				return EXIT_FAIL;
			}
	for (unsigned i = 0; i < d->nprograms; i++)
		for (unsigned j = i + 1; j < d->nprograms; j++)
			if (!strcmp(d->programs[i].name, d->programs[j].name)) {
				fprintf(stderr,
					"ttc: merge: two programs named %s: "
					"give each input its own namespace "
					"(--name FILE=NS)\n",
					d->programs[i].name);
				return EXIT_FAIL;
			}
	return 0;
}

static void count(const struct merge_in *in, unsigned n, unsigned c[5])
{
	memset(c, 0, 5 * sizeof(*c));
	for (unsigned m = 0; m < n; m++) {
		c[0] += in[m].d->ntensors;
		c[1] += in[m].d->nslots;
		c[2] += in[m].d->nprograms;
		c[3] += in[m].d->nkernels;
		c[4] += in[m].d->noptions;
	}
}

int merge_build(struct merge_in *in, unsigned n, struct merge_out *o)
{
	struct tt_model_tensor *t;
	struct tt_model_slot *s;
	struct tt_model_program *p;
	unsigned c[5], ks = 0, kp = 0;
	int rc;

	count(in, n, c);
	o->d.version = TT_MODEL_MANIFEST_VERSION;
	o->d.arch = in[0].d->arch;
	for (unsigned m = 0; m < n; m++) {
		if (in[m].d->grid.x > o->d.grid.x)
			o->d.grid.x = in[m].d->grid.x;
		if (in[m].d->grid.y > o->d.grid.y)
			o->d.grid.y = in[m].d->grid.y;
	}
	t = own(o, c[0], sizeof(*t));
	s = own(o, c[1], sizeof(*s));
	p = own(o, c[2], sizeof(*p));
	if (!t || !s || !p)
		return oom();
	for (unsigned m = 0; m < n; m++) {
		in[m].s0 = ks;
		for (unsigned i = 0; i < in[m].d->nslots; i++)
			s[ks++] = in[m].d->slots[i];
	}
	rc = add_tensors(o, in, n, t);
	for (unsigned m = 0; !rc && m < n; m++)
		for (unsigned i = 0; !rc && i < in[m].d->nprograms; i++)
			rc = add_program(o, &in[m], &in[m].d->programs[i],
					 &p[kp++]);
	o->d.tensors = t;
	o->d.ntensors = c[0];
	o->d.slots = s;
	o->d.nslots = c[1];
	o->d.programs = p;
	o->d.nprograms = kp;
	if (!rc)
		rc = add_kernels(o, in, n, c[3]);
	if (!rc)
		rc = add_options(o, in, n, c[4]);
	if (!rc)
		rc = check_unique(&o->d);
	if (!rc && tt_model_desc_check(&o->d)) {
		fprintf(stderr, "ttc: merge: the merged model: %s\n",
			tt_last_error());
		rc = EXIT_FAIL;
	}
	return rc;
}
