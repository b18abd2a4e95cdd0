// SPDX-License-Identifier: Apache-2.0
/* Memory for the IR: arenas (freed all at once) and growing strings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define CHUNK_MIN (64u << 10)

struct ttc_arena_chunk {
	struct ttc_arena_chunk *next;
	size_t used, cap;
	_Alignas(16) char data[];
};

void *ttc_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		/* The IR has no way to continue without memory. */
		fputs("libttc: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *ttc_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		fputs("libttc: out of memory\n", stderr);
		abort();
	}
	return q;
}

void *ttc_arena_alloc(struct ttc_arena *a, size_t n)
{
	struct ttc_arena_chunk *c = a->head;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK_MIN ? n : CHUNK_MIN;

		c = ttc_xmalloc(sizeof(*c) + cap);
		c->used = 0;
		c->cap = cap;
		c->next = a->head;
		a->head = c;
	}
	void *p = c->data + c->used;

	c->used += n;
	memset(p, 0, n);
	return p;
}

char *ttc_arena_strndup(struct ttc_arena *a, const char *s, size_t n)
{
	char *p = ttc_arena_alloc(a, n + 1);

	if (n)
		memcpy(p, s, n);
	return p;
}

void ttc_arena_release(struct ttc_arena *a)
{
	struct ttc_arena_chunk *c = a->head;

	while (c) {
		struct ttc_arena_chunk *n = c->next;

		free(c);
		c = n;
	}
	a->head = NULL;
}

static void buf_reserve(struct ttc_buf *b, size_t more)
{
	if (b->len + more + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap * 2 : 256;

	while (cap < b->len + more + 1)
		cap *= 2;
	b->p = ttc_xrealloc(b->p, cap);
	b->cap = cap;
}

void ttc_buf_put(struct ttc_buf *b, const void *s, size_t n)
{
	buf_reserve(b, n);
	if (!n) {
		b->p[b->len] = 0;
		return;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

void ttc_buf_puts(struct ttc_buf *b, const char *s)
{
	ttc_buf_put(b, s, strlen(s));
}

void ttc_buf_putc(struct ttc_buf *b, char c)
{
	buf_reserve(b, 1);
	b->p[b->len++] = c;
	b->p[b->len] = 0;
}

void ttc_buf_printf(struct ttc_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	buf_reserve(b, 64);
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= b->cap - b->len) {
		buf_reserve(b, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

void ttc_buf_free(struct ttc_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}
