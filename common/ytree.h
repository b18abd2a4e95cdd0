/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A YAML document as a small tree of scalars, sequences and mappings,
 * built from libyaml's events so that hostile input stays bounded:
 * nesting depth and node count are limited, anchors and aliases are
 * refused, every mapping is checked for duplicate keys and only one
 * document is accepted, each failure with the exact position
 * ("origin:line:col: message"). SoC descriptors and model manifests are
 * read through it.
 *
 * Every node lives in one list owned by the tree, so freeing is a flat
 * loop and no error path can leak.
 */
#ifndef TT_COMMON_YTREE_H
#define TT_COMMON_YTREE_H

#include <stdbool.h>
#include <stddef.h>

#define YTREE_MAX_DEPTH 32 /* nested collections */
#define YTREE_SHOW_MAX 40  /* characters of a value quoted in a message */
#define YTREE_SHOW_BUF (YTREE_SHOW_MAX + 8)
#define YTREE_ERR_MAX 512  /* bytes of one formatted message */

enum ykind { Y_SCALAR, Y_SEQ, Y_MAP };

struct ynode {
	enum ykind kind;
	unsigned line, col; /* 1-based */
	char *str; /* scalar text, NUL-terminated (may hold NULs) */
	size_t len;
	/* Sequence: items. Mapping: key, value, key, value, ... */
	struct ynode **items;
	size_t n, cap;
};

struct ytree {
	struct ynode **all; /* every node, for freeing */
	size_t count, cap;
	struct ynode *root;
};

/* The text being read and where its messages go. */
struct ysrc {
	const char *origin; /* names the text in messages */
	const char *text;
	size_t len;
	char *err; /* the message of a failure (may be NULL) */
	size_t errlen;
	unsigned max_nodes;
};

/* Build t from s->text: 0, -EINVAL with s->err set, or -ENOMEM. */
int ytree_build(struct ysrc *s, struct ytree *t);
void ytree_free(struct ytree *t);

/* printf into err (when not NULL). */
void ytree_set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "origin:line:col: message" into s->err; returns -EINVAL. */
int ytree_fail_at(struct ysrc *s, unsigned line, unsigned col,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A scalar quoted for a message: printable ASCII only, cut to
 * YTREE_SHOW_MAX characters. Returns buf. */
const char *ytree_show(const struct ynode *n, char *buf, size_t size);
/* "a sequence", "a mapping", "a scalar", "an empty value". */
const char *ytree_kind_name(const struct ynode *n);

#endif /* TT_COMMON_YTREE_H */
