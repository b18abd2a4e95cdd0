// SPDX-License-Identifier: Apache-2.0
/*
 * The YAML tree (ytree.h): libyaml's events into nodes, with the limits
 * and checks that keep hostile input bounded.
 */
#include "ytree.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

static void __attribute__((format(printf, 3, 0)))
verr(char *err, size_t errlen, const char *fmt, va_list ap)
{
	if (err && errlen)
		vsnprintf(err, errlen, fmt, ap);
}

void ytree_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(err, errlen, fmt, ap);
	va_end(ap);
}


int ytree_fail_at(struct ysrc *s, unsigned line, unsigned col,
		  const char *fmt, ...)
{
	char msg[YTREE_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ytree_set_err(s->err, s->errlen, "%s:%u:%u: %s", s->origin, line, col,
		      msg);
	return -EINVAL;
}

#define yfail(L, node, ...) ytree_fail_at((L), (node)->line, (node)->col, __VA_ARGS__)

/*
 * Quote a scalar for a message: printable ASCII only, cut to YTREE_SHOW_MAX
 * characters, so a huge or binary value cannot swamp the message.
 */
const char *ytree_show(const struct ynode *n, char *buf, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < n->len && o + 4 < size; i++) {
		unsigned char c = (unsigned char)n->str[i];

		if (i == YTREE_SHOW_MAX) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		buf[o++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	buf[o] = '\0';
	return buf;
}

const char *ytree_kind_name(const struct ynode *n)
{
	switch (n->kind) {
	case Y_SEQ:
		return "a sequence";
	case Y_MAP:
		return "a mapping";
	case Y_SCALAR:
		break;
	}
	return n->len ? "a scalar" : "an empty value";
}

/* ------------------------------------------------------------------ */
/* Building the tree from libyaml events */

void ytree_free(struct ytree *t)
{
	for (size_t i = 0; i < t->count; i++) {
		free(t->all[i]->str);
		free(t->all[i]->items);
		free(t->all[i]);
	}
	free(t->all);
	memset(t, 0, sizeof(*t));
}

static struct ynode *tree_new(struct ytree *t, enum ykind kind,
			      const yaml_mark_t *m)
{
	struct ynode *n;

	if (t->count == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct ynode **all = realloc(t->all, cap * sizeof(*all));

		if (!all)
			return NULL;
		t->all = all;
		t->cap = cap;
	}
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->kind = kind;
	n->line = (unsigned)m->line + 1;
	n->col = (unsigned)m->column + 1;
	t->all[t->count++] = n;
	return n;
}

static int node_push(struct ynode *parent, struct ynode *child)
{
	if (parent->n == parent->cap) {
		size_t cap = parent->cap ? parent->cap * 2 : 8;
		struct ynode **items = realloc(parent->items,
					       cap * sizeof(*items));

		if (!items)
			return -ENOMEM;
		parent->items = items;
		parent->cap = cap;
	}
	parent->items[parent->n++] = child;
	return 0;
}

static bool key_eq(const struct ynode *a, const struct ynode *b)
{
	return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
}

struct keyref {
	const struct ynode *key;
	size_t pos;
};

static int keyref_cmp(const void *pa, const void *pb)
{
	const struct keyref *a = pa, *b = pb;
	size_t n = a->key->len < b->key->len ? a->key->len : b->key->len;
	int c = memcmp(a->key->str, b->key->str, n);

	if (c)
		return c;
	if (a->key->len != b->key->len)
		return a->key->len < b->key->len ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/*
 * Report the first repeated key of a mapping (the one that appears
 * earliest in the text after an earlier twin). Sorting keeps this cheap
 * for large hostile mappings.
 */
static int check_dup_keys(struct ysrc *L, const struct ynode *map)
{
	size_t pairs = map->n / 2, best = SIZE_MAX, twin = 0;
	const struct ynode *k, *first;
	struct keyref *refs;
	char b[YTREE_SHOW_BUF];

	if (pairs < 2)
		return 0;
	refs = malloc(pairs * sizeof(*refs));
	if (!refs)
		return -ENOMEM;
	for (size_t i = 0; i < pairs; i++) {
		refs[i].key = map->items[2 * i];
		refs[i].pos = i;
	}
	qsort(refs, pairs, sizeof(*refs), keyref_cmp);
	for (size_t i = 1; i < pairs; i++) {
		if (key_eq(refs[i - 1].key, refs[i].key) &&
		    refs[i].pos < best) {
			best = refs[i].pos;
			twin = refs[i - 1].pos;
		}
	}
	free(refs);
	if (best == SIZE_MAX)
		return 0;
	k = map->items[2 * best];
	first = map->items[2 * twin];
	return yfail(L, k, "duplicate key '%s' (first at line %u, column %u)",
		    ytree_show(k, b, sizeof(b)), first->line, first->col);
}

/* Line and column of a byte offset, for reader errors (no libyaml mark). */
static void offset_to_mark(const struct ysrc *L, size_t off, unsigned *line,
			   unsigned *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && i < L->len; i++) {
		if (L->text[i] == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
	}
}

static int syntax_error(struct ysrc *L, const yaml_parser_t *p)
{
	const char *problem = p->problem ? p->problem : "unknown error";
	unsigned line, col;

	switch (p->error) {
	case YAML_MEMORY_ERROR:
		ytree_set_err(L->err, L->errlen, "%s: out of memory", L->origin);
		return -ENOMEM;
	case YAML_READER_ERROR:
		offset_to_mark(L, p->problem_offset, &line, &col);
		return ytree_fail_at(L, line, col, "invalid YAML: %s", problem);
	default:
		break;
	}
	line = (unsigned)p->problem_mark.line + 1;
	col = (unsigned)p->problem_mark.column + 1;
	if (p->context)
		return ytree_fail_at(L, line, col, "invalid YAML: %s %s (line %u)",
			       problem, p->context,
			       (unsigned)p->context_mark.line + 1);
	return ytree_fail_at(L, line, col, "invalid YAML: %s", problem);
}

struct builder {
	struct ysrc *L;
	struct ytree *t;
	struct ynode *stack[YTREE_MAX_DEPTH];
	unsigned depth;
	unsigned docs;
};

/* Hang a new node under the open collection (or make it the root). */
static int attach(struct builder *b, struct ynode *n)
{
	struct ynode *parent;

	if (!b->depth) {
		b->t->root = n;
		return 0;
	}
	parent = b->stack[b->depth - 1];
	if (parent->kind == Y_MAP && parent->n % 2 == 0 && n->kind != Y_SCALAR)
		return yfail(b->L, n, "mapping keys must be scalars, got %s",
			    ytree_kind_name(n));
	return node_push(parent, n);
}

static int add_node(struct builder *b, enum ykind kind, const yaml_event_t *ev)
{
	struct ynode *n;
	int rc;

	if (b->t->count >= b->L->max_nodes)
		return ytree_fail_at(b->L, (unsigned)ev->start_mark.line + 1,
			       (unsigned)ev->start_mark.column + 1,
			       "too many YAML nodes (limit %u)",
			       b->L->max_nodes);
	if (kind != Y_SCALAR && b->depth == YTREE_MAX_DEPTH)
		return ytree_fail_at(b->L, (unsigned)ev->start_mark.line + 1,
			       (unsigned)ev->start_mark.column + 1,
			       "nesting deeper than %u levels", YTREE_MAX_DEPTH);
	n = tree_new(b->t, kind, &ev->start_mark);
	if (!n)
		return -ENOMEM;
	if (kind == Y_SCALAR) {
		n->len = ev->data.scalar.length;
		n->str = malloc(n->len + 1);
		if (!n->str)
			return -ENOMEM;
		memcpy(n->str, ev->data.scalar.value, n->len);
		n->str[n->len] = '\0';
	}
	rc = attach(b, n);
	if (rc)
		return rc;
	if (kind != Y_SCALAR)
		b->stack[b->depth++] = n;
	return 0;
}

static int check_anchor(struct builder *b, const yaml_event_t *ev,
			const yaml_char_t *anchor)
{
	if (!anchor)
		return 0;
	return ytree_fail_at(b->L, (unsigned)ev->start_mark.line + 1,
		       (unsigned)ev->start_mark.column + 1,
		       "anchors (&%.*s) are not supported", YTREE_SHOW_MAX,
		       (const char *)anchor);
}

static int on_event(struct builder *b, const yaml_event_t *ev, bool *done)
{
	unsigned line = (unsigned)ev->start_mark.line + 1;
	unsigned col = (unsigned)ev->start_mark.column + 1;
	struct ynode *closed;
	int rc;

	switch (ev->type) {
	case YAML_STREAM_END_EVENT:
		*done = true;
		return 0;
	case YAML_DOCUMENT_START_EVENT:
		if (b->docs++)
			return ytree_fail_at(b->L, line, col,
				       "more than one YAML document");
		return 0;
	case YAML_ALIAS_EVENT:
		return ytree_fail_at(b->L, line, col,
			       "aliases (*%.*s) are not supported",
			       YTREE_SHOW_MAX,
			       (const char *)ev->data.alias.anchor);
	case YAML_SCALAR_EVENT:
		rc = check_anchor(b, ev, ev->data.scalar.anchor);
		return rc ? rc : add_node(b, Y_SCALAR, ev);
	case YAML_SEQUENCE_START_EVENT:
		rc = check_anchor(b, ev, ev->data.sequence_start.anchor);
		return rc ? rc : add_node(b, Y_SEQ, ev);
	case YAML_MAPPING_START_EVENT:
		rc = check_anchor(b, ev, ev->data.mapping_start.anchor);
		return rc ? rc : add_node(b, Y_MAP, ev);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		/* libyaml pairs start and end events; guard anyway. */
		if (!b->depth)
			return 0;
		closed = b->stack[--b->depth];
		return closed->kind == Y_MAP ? check_dup_keys(b->L, closed) : 0;
	default:
		return 0;
	}
}

int ytree_build(struct ysrc *L, struct ytree *t)
{
	struct builder b = { .L = L, .t = t };
	yaml_parser_t p;
	bool done = false;
	int rc = 0;

	if (!yaml_parser_initialize(&p)) {
		ytree_set_err(L->err, L->errlen, "%s: out of memory", L->origin);
		return -ENOMEM;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)L->text,
				     L->len);
	while (!done && !rc) {
		yaml_event_t ev;

		if (!yaml_parser_parse(&p, &ev)) {
			rc = syntax_error(L, &p);
			break;
		}
		rc = on_event(&b, &ev, &done);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	if (rc == -ENOMEM)
		ytree_set_err(L->err, L->errlen, "%s: out of memory", L->origin);
	return rc;
}
