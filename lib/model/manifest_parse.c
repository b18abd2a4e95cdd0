// SPDX-License-Identifier: Apache-2.0
/*
 * The manifest's reader (tt_model_desc_parse): YAML (common/ytree.h,
 * bounded and located) into struct tt_model_desc, then every check of
 * tt_model_desc_check. The description's strings point into the tree,
 * which the manifest keeps.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ytree.h"
#include "model_internal.h"

#define MANIFEST_MAX_BYTES (64u << 20)
#define MANIFEST_MAX_NODES (4u << 20)

struct tt_model_manifest {
	struct ytree tree;
	struct tt_model_desc d;
	/* What d's arrays point at. */
	struct tt_model_tensor *tensors;
	struct tt_model_slot *slots;
	struct tt_model_program *programs;
	struct tt_model_op **ops; /* per program */
	unsigned **ins;		  /* per program: every op's inputs */
	struct tt_model_attr ***attrs; /* per program, per op: its attrs */
	const char **kernels;
	struct tt_model_attr *options;
	char err[YTREE_ERR_MAX];
	struct ysrc src;
};

static int bad(struct tt_model_manifest *m, const struct ynode *n,
	       const char *what, const char *want)
{
	char b[YTREE_SHOW_BUF];

	if (n && n->kind == Y_SCALAR)
		ytree_fail_at(&m->src, n->line, n->col,
			      "%s: expected %s, got '%s'", what, want,
			      ytree_show(n, b, sizeof(b)));
	else if (n)
		ytree_fail_at(&m->src, n->line, n->col, "%s: expected %s, got %s",
			      what, want, ytree_kind_name(n));
	else
		ytree_set_err(m->err, sizeof(m->err), "%s: %s: missing (%s)",
			      m->src.origin, what, want);
	return tt_error(-EINVAL, "%s", m->err);
}

static const struct ynode *get(const struct ynode *map, const char *key)
{
	if (!map || map->kind != Y_MAP)
		return NULL;
	for (size_t i = 0; i + 1 < map->n; i += 2)
		if (strcmp(map->items[i]->str, key) == 0)
			return map->items[i + 1];
	return NULL;
}

/* Every key of map is one of keys (a typo is an error, not ignored). */
static int only_keys(struct tt_model_manifest *m, const struct ynode *map,
		     const char *what, const char *const *keys)
{
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		const struct ynode *k = map->items[i];
		unsigned j;

		for (j = 0; keys[j]; j++)
			if (strcmp(k->str, keys[j]) == 0)
				break;
		if (!keys[j])
			return bad(m, k, what, "a known key");
	}
	return 0;
}

static int scalar(struct tt_model_manifest *m, const struct ynode *n,
		  const char *what, const char **out)
{
	*out = NULL;
	if (!n || n->kind != Y_SCALAR || strlen(n->str) != n->len)
		return bad(m, n, what, "a text value");
	*out = n->str;
	return 0;
}

static int u64(struct tt_model_manifest *m, const struct ynode *n,
	       const char *what, uint64_t max, uint64_t *out)
{
	char *end;

	if (!n || n->kind != Y_SCALAR || !n->len || n->str[0] < '0' ||
	    n->str[0] > '9')
		return bad(m, n, what, "a number");
	errno = 0;
	*out = strtoull(n->str, &end, 10);
	if (errno || *end || *out > max)
		return bad(m, n, what, "a number in range");
	return 0;
}

static int seq(struct tt_model_manifest *m, const struct ynode *n,
	       const char *what, size_t max)
{
	if (!n || n->kind != Y_SEQ)
		return bad(m, n, what, "a sequence");
	if (n->n > max)
		return bad(m, n, what, "a shorter sequence");
	return 0;
}

static int map(struct tt_model_manifest *m, const struct ynode *n,
	       const char *what)
{
	return !n || n->kind != Y_MAP ? bad(m, n, what, "a mapping") : 0;
}

static int format(struct tt_model_manifest *m, const struct ynode *n,
		  const char *what, enum tt_data_format *out)
{
	const char *s;

	if (scalar(m, n, what, &s))
		return -EINVAL;
	if (tt_data_format_parse(s, out))
		return bad(m, n, what, "a data format name (Float16_b, ...)");
	return 0;
}

static int place(struct tt_model_manifest *m, const struct ynode *n,
		 const char *what, bool *l1)
{
	const char *s;

	if (scalar(m, n, what, &s))
		return -EINVAL;
	if (strcmp(s, "dram") && strcmp(s, "l1"))
		return bad(m, n, what, "dram or l1");
	*l1 = strcmp(s, "l1") == 0;
	return 0;
}

static const char *const kind_names[] = {"input", "output", "param",
					 "const", "act"};

static int tensor_kind(struct tt_model_manifest *m, const struct ynode *n,
		       enum tt_model_tensor_kind *out)
{
	const char *s;

	if (scalar(m, n, "tensor kind", &s))
		return -EINVAL;
	for (unsigned k = 0; k < 5; k++)
		if (strcmp(s, kind_names[k]) == 0) {
			*out = (enum tt_model_tensor_kind)k;
			return 0;
		}
	return bad(m, n, "tensor kind", "input, output, param, const or act");
}

static int shape(struct tt_model_manifest *m, const struct ynode *n,
		 struct tt_shape *out)
{
	uint64_t v;

	if (seq(m, n, "shape", TT_TENSOR_MAX_RANK) || !n->n)
		return n && n->kind == Y_SEQ ? bad(m, n, "shape", "1..4 dims")
					     : -EINVAL;
	out->rank = (unsigned)n->n;
	for (size_t i = 0; i < n->n; i++) {
		if (u64(m, n->items[i], "shape", TT_MODEL_MAX_DIM, &v))
			return -EINVAL;
		out->dims[i] = v;
	}
	return 0;
}

static const char *const tensor_keys[] = {"name", "kind", "shape", "format",
					  "place", "slot", "data", NULL};
static const char *const data_keys[] = {"section", "format", NULL};

static int tensor(struct tt_model_manifest *m, const struct ynode *n,
		  struct tt_model_tensor *t)
{
	const struct ynode *data;
	uint64_t slot;

	if (map(m, n, "tensor") || only_keys(m, n, "tensor", tensor_keys) ||
	    scalar(m, get(n, "name"), "tensor name", &t->name) ||
	    tensor_kind(m, get(n, "kind"), &t->kind) ||
	    shape(m, get(n, "shape"), &t->shape) ||
	    format(m, get(n, "format"), "tensor format", &t->format))
		return -EINVAL;
	t->slot = -1;
	if (get(n, "place") && place(m, get(n, "place"), "place", &t->l1))
		return -EINVAL;
	if (get(n, "slot")) {
		if (u64(m, get(n, "slot"), "slot", TT_MODEL_MAX_TENSORS, &slot))
			return -EINVAL;
		t->slot = (int)slot;
	}
	data = get(n, "data");
	if (data && (map(m, data, "data") ||
		     only_keys(m, data, "data", data_keys) ||
		     scalar(m, get(data, "section"), "data section",
			    &t->section) ||
		     format(m, get(data, "format"), "data format",
			    &t->data_format)))
		return -EINVAL;
	return 0;
}

static const char *const slot_keys[] = {"place", "page_size", "pages", NULL};

static int slot(struct tt_model_manifest *m, const struct ynode *n,
		struct tt_model_slot *s)
{
	uint64_t ps;

	if (map(m, n, "slot") || only_keys(m, n, "slot", slot_keys) ||
	    place(m, get(n, "place"), "slot place", &s->l1) ||
	    u64(m, get(n, "page_size"), "page_size", 1u << 20, &ps) ||
	    u64(m, get(n, "pages"), "pages", TT_MODEL_MAX_TENSOR_BYTES,
		&s->pages))
		return -EINVAL;
	s->page_size = (uint32_t)ps;
	return 0;
}

static int tensor_ref(struct tt_model_manifest *m, const struct ynode *n,
		      unsigned *out)
{
	const char *s;

	if (scalar(m, n, "tensor reference", &s))
		return -EINVAL;
	if (strcmp(s, "-") == 0) {
		*out = TT_MODEL_NONE;
		return 0;
	}
	for (unsigned i = 0; i < m->d.ntensors; i++)
		if (strcmp(m->tensors[i].name, s) == 0) {
			*out = i;
			return 0;
		}
	return bad(m, n, "tensor reference", "the name of a tensor");
}

static int attrs(struct tt_model_manifest *m, const struct ynode *n,
		 struct tt_model_attr **out, unsigned *count)
{
	struct tt_model_attr *a;

	*count = 0;
	if (!n)
		return 0;
	if (map(m, n, "attrs"))
		return -EINVAL;
	if (n->n / 2 > TT_MODEL_MAX_ATTRS)
		return bad(m, n, "attrs", "fewer attributes");
	a = calloc(n->n / 2 + 1, sizeof(*a));
	if (!a)
		return tt_error(-ENOMEM, "%s: out of memory", m->src.origin);
	*out = a;
	for (size_t i = 0; i + 1 < n->n; i += 2) {
		a[i / 2].name = n->items[i]->str;
		if (scalar(m, n->items[i + 1], "attribute value",
			   &a[i / 2].value))
			return -EINVAL;
	}
	*count = (unsigned)(n->n / 2);
	return 0;
}

static const char *const op_keys[] = {"name", "op", "in", "out", "attrs",
				      NULL};

static int op(struct tt_model_manifest *m, const struct ynode *n,
	      struct tt_model_op *o, unsigned *in, struct tt_model_attr **a)
{
	const struct ynode *ins;

	if (map(m, n, "op") || only_keys(m, n, "op", op_keys) ||
	    scalar(m, get(n, "name"), "op name", &o->name) ||
	    scalar(m, get(n, "op"), "op", &o->op))
		return -EINVAL;
	ins = get(n, "in");
	if (seq(m, ins, "op inputs", TT_MODEL_MAX_OP_INPUTS))
		return -EINVAL;
	for (size_t i = 0; i < ins->n; i++)
		if (tensor_ref(m, ins->items[i], &in[i]))
			return -EINVAL;
	o->in = in;
	o->nin = (unsigned)ins->n;
	if (tensor_ref(m, get(n, "out"), &o->out))
		return -EINVAL;
	if (o->out == TT_MODEL_NONE)
		return bad(m, get(n, "out"), "op output", "a tensor");
	if (attrs(m, get(n, "attrs"), a, &o->nattrs))
		return -EINVAL;
	o->attrs = *a;
	return 0;
}

static const char *const program_keys[] = {"name", "ops", NULL};

static int program(struct tt_model_manifest *m, const struct ynode *n,
		   unsigned k)
{
	struct tt_model_program *p = &m->programs[k];
	const struct ynode *ops;

	if (map(m, n, "program") || only_keys(m, n, "program", program_keys) ||
	    scalar(m, get(n, "name"), "program name", &p->name))
		return -EINVAL;
	ops = get(n, "ops");
	if (seq(m, ops, "ops", TT_MODEL_MAX_OPS))
		return -EINVAL;
	m->ops[k] = calloc(ops->n + 1, sizeof(**m->ops));
	m->ins[k] = calloc((ops->n + 1) * TT_MODEL_MAX_OP_INPUTS,
			   sizeof(**m->ins));
	m->attrs[k] = calloc(ops->n + 1, sizeof(**m->attrs));
	if (!m->ops[k] || !m->ins[k] || !m->attrs[k])
		return tt_error(-ENOMEM, "%s: out of memory", m->src.origin);
	for (size_t i = 0; i < ops->n; i++)
		if (op(m, ops->items[i], &m->ops[k][i],
		       &m->ins[k][i * TT_MODEL_MAX_OP_INPUTS],
		       &m->attrs[k][i]))
			return -EINVAL;
	p->ops = m->ops[k];
	p->nops = (unsigned)ops->n;
	return 0;
}

static int list(struct tt_model_manifest *m, const struct ynode *root,
		const char *key, size_t max, size_t elem, void **out,
		unsigned *count)
{
	const struct ynode *n = get(root, key);

	*count = 0;
	if (!n)
		return 0;
	if (seq(m, n, key, max))
		return -EINVAL;
	*out = calloc(n->n + 1, elem);
	if (!*out)
		return tt_error(-ENOMEM, "%s: out of memory", m->src.origin);
	*count = (unsigned)n->n;
	return 0;
}

static const char *const top_keys[] = {"tti", "arch", "grid", "options",
				       "tensors", "slots", "programs",
				       "kernels", NULL};

static int header(struct tt_model_manifest *m, const struct ynode *r)
{
	const struct ynode *g = get(r, "grid");
	uint64_t v, x, y;

	if (map(m, r, "manifest") || only_keys(m, r, "manifest", top_keys) ||
	    u64(m, get(r, "tti"), "tti (the manifest version)", 1u << 20, &v))
		return -EINVAL;
	m->d.version = (uint32_t)v;
	if (v != TT_MODEL_MANIFEST_VERSION)
		return tt_error(v > TT_MODEL_MANIFEST_VERSION ? -ENOTSUP : -EINVAL,
				"%s: manifest version %llu; this libtt reads %u (made by a newer ttc?)",
				m->src.origin, (unsigned long long)v,
				TT_MODEL_MANIFEST_VERSION);
	if (scalar(m, get(r, "arch"), "arch", &m->d.arch) ||
	    seq(m, g, "grid", 2) || g->n != 2 ||
	    u64(m, g->items[0], "grid x", 64, &x) ||
	    u64(m, g->items[1], "grid y", 64, &y))
		return g && g->kind == Y_SEQ && g->n != 2 ?
			       bad(m, g, "grid", "[x, y]") : -EINVAL;
	m->d.grid = (struct tt_xy){(uint32_t)x, (uint32_t)y};
	return 0;
}

static int options(struct tt_model_manifest *m, const struct ynode *r)
{
	unsigned n;

	if (attrs(m, get(r, "options"), &m->options, &n))
		return -EINVAL;
	m->d.options = m->options;
	m->d.noptions = n;
	return 0;
}

static int body(struct tt_model_manifest *m, const struct ynode *r)
{
	const struct ynode *n;
	unsigned c;

	int ret = header(m, r);

	if (ret)
		return ret;
	if (options(m, r) ||
	    list(m, r, "tensors", TT_MODEL_MAX_TENSORS, sizeof(*m->tensors),
		 (void **)&m->tensors, &m->d.ntensors) ||
	    list(m, r, "slots", TT_MODEL_MAX_TENSORS, sizeof(*m->slots),
		 (void **)&m->slots, &m->d.nslots) ||
	    list(m, r, "programs", 1024, sizeof(*m->programs),
		 (void **)&m->programs, &m->d.nprograms) ||
	    list(m, r, "kernels", 65536, sizeof(*m->kernels),
		 (void **)&m->kernels, &m->d.nkernels))
		return -EINVAL;
	m->d.tensors = m->tensors;
	m->d.slots = m->slots;
	m->d.programs = m->programs;
	m->d.kernels = m->kernels;
	for (unsigned i = 0; i < m->d.ntensors; i++)
		if (tensor(m, get(r, "tensors")->items[i], &m->tensors[i]))
			return -EINVAL;
	for (unsigned i = 0; i < m->d.nslots; i++)
		if (slot(m, get(r, "slots")->items[i], &m->slots[i]))
			return -EINVAL;
	for (unsigned i = 0; i < m->d.nkernels; i++)
		if (scalar(m, get(r, "kernels")->items[i], "kernel",
			   &m->kernels[i]))
			return -EINVAL;
	c = m->d.nprograms;
	m->ops = calloc(c + 1, sizeof(*m->ops));
	m->ins = calloc(c + 1, sizeof(*m->ins));
	m->attrs = calloc(c + 1, sizeof(*m->attrs));
	if (!m->ops || !m->ins || !m->attrs)
		return tt_error(-ENOMEM, "%s: out of memory", m->src.origin);
	n = get(r, "programs");
	for (unsigned i = 0; i < c; i++)
		if (program(m, n->items[i], i))
			return -EINVAL;
	return 0;
}

void tt_model_manifest_free(tt_model_manifest *m)
{
	if (!m)
		return;
	for (unsigned i = 0; m->ops && i < m->d.nprograms; i++) {
		for (unsigned k = 0; m->attrs[i] && m->ops[i] &&
				     k < m->programs[i].nops; k++)
			free(m->attrs[i][k]);
		free(m->ops[i]);
		free(m->ins[i]);
		free(m->attrs[i]);
	}
	free(m->ops);
	free(m->ins);
	free(m->attrs);
	free(m->tensors);
	free(m->slots);
	free(m->programs);
	free(m->kernels);
	free(m->options);
	ytree_free(&m->tree);
	free(m);
}

int tt_model_desc_parse(const char *what, const void *text, size_t len,
			tt_model_manifest **out)
{
	tt_model_manifest *m;
	int ret;

	*out = NULL;
	if (!what)
		what = "manifest";
	if (!text || len > MANIFEST_MAX_BYTES)
		return tt_error(-EINVAL, "%s: no text, or larger than %u bytes",
				what, MANIFEST_MAX_BYTES);
	m = calloc(1, sizeof(*m));
	if (!m)
		return tt_error(-ENOMEM, "%s: out of memory", what);
	m->src = (struct ysrc){.origin = what, .text = text, .len = len,
			       .err = m->err, .errlen = sizeof(m->err),
			       .max_nodes = MANIFEST_MAX_NODES};
	ret = ytree_build(&m->src, &m->tree);
	if (ret)
		ret = tt_error(ret, "%s", m->err);
	else if (!m->tree.root)
		ret = tt_error(-EINVAL, "%s: empty manifest", what);
	if (!ret)
		ret = body(m, m->tree.root);
	if (!ret) {
		ret = tt_model_desc_check(&m->d);
		if (ret) {
			snprintf(m->err, sizeof(m->err), "%s", tt_last_error());
			tt_error(ret, "%s: %s", what, m->err);
		}
	}
	if (ret) {
		tt_model_manifest_free(m);
		return ret;
	}
	*out = m;
	return 0;
}

const struct tt_model_desc *tt_model_manifest_desc(const tt_model_manifest *m)
{
	return m ? &m->d : NULL;
}
