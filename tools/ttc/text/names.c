// SPDX-License-Identifier: Apache-2.0
/* Name tables of the parser: SSA values of a function, aliases. */
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static size_t slot(const struct name_table *t, const char *s, size_t n)
{
	size_t mask = t->cap - 1, i = ttc_hash(s, n) & mask;

	while (t->e[i].s && (t->e[i].n != n || memcmp(t->e[i].s, s, n)))
		i = (i + 1) & mask;
	return i;
}

void *names_get(const struct name_table *t, const char *s, size_t n,
		size_t *count)
{
	if (!t->cap)
		return NULL;
	size_t i = slot(t, s, n);

	if (!t->e[i].s)
		return NULL;
	if (count)
		*count = t->e[i].count;
	return t->e[i].obj;
}

static void grow(struct name_table *t)
{
	struct name_table old = *t;

	t->cap = old.cap ? old.cap * 2 : 64;
	t->e = calloc(t->cap, sizeof(*t->e));
	if (!t->e)
		abort();
	t->len = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.e[i].s)
			names_put(t, old.e[i].s, old.e[i].n, old.e[i].obj,
				  old.e[i].count);
	free(old.e);
}

void names_put(struct name_table *t, const char *s, size_t n, void *obj,
	       size_t count)
{
	if ((t->len + 1) * 2 > t->cap)
		grow(t);
	size_t i = slot(t, s, n);

	if (!t->e[i].s)
		t->len++;
	t->e[i] = (struct name_entry){ s, n, obj, count };
}

void names_clear(struct name_table *t)
{
	if (t->len)
		memset(t->e, 0, t->cap * sizeof(*t->e));
	t->len = 0;
}

void names_free(struct name_table *t)
{
	free(t->e);
	memset(t, 0, sizeof(*t));
}
