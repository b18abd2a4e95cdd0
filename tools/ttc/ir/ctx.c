// SPDX-License-Identifier: Apache-2.0
/* The context: interning tables and diagnostics. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifndef TT_PROJECT_VERSION
#define TT_PROJECT_VERSION "0.0.0"
#endif

const char *ttc_version(void)
{
	return TT_PROJECT_VERSION;
}

ttc_ctx *ttc_ctx_new(void)
{
	ttc_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->tabcap = 1024;
	ctx->tab = calloc(ctx->tabcap, sizeof(*ctx->tab));
	if (!ctx->tab) {
		free(ctx);
		return NULL;
	}
	ttc_register_builtin(ctx);
	return ctx;
}

void ttc_ctx_free(ttc_ctx *ctx)
{
	if (!ctx)
		return;
	ttc_ctx_clear_diags(ctx);
	free(ctx->diags);
	ttc_buf_free(&ctx->errtext);
	ttc_buf_free(&ctx->key);
	free(ctx->tab);
	free(ctx->defs);
	free(ctx->aliases);
	ttc_arena_release(&ctx->arena);
	free(ctx);
}

/* Eight bytes a step (keys run to hundreds of bytes: a dictionary's
 * spelling), then a final mix, since the tables index by the low bits. */
uint64_t ttc_hash(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	w = 0;
	if (n) /* an empty key may come with a NULL pointer */
		memcpy(&w, s, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ull;
	return h ^ (h >> 32);
}

const void *ttc_intern_find(ttc_ctx *ctx, const void *key, size_t n,
			    uint64_t *hash)
{
	uint64_t h = ttc_hash(key, n);
	size_t mask = ctx->tabcap - 1;

	*hash = h;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct ttc_intern_entry *e = &ctx->tab[i];

		if (!e->key)
			return NULL;
		if (e->hash == h && e->keylen == n && !memcmp(e->key, key, n))
			return e->obj;
	}
}

static void intern_grow(ttc_ctx *ctx)
{
	struct ttc_intern_entry *old = ctx->tab;
	size_t oldcap = ctx->tabcap;

	ctx->tabcap *= 2;
	ctx->tab = ttc_xmalloc(ctx->tabcap * sizeof(*ctx->tab));
	memset(ctx->tab, 0, ctx->tabcap * sizeof(*ctx->tab));
	for (size_t i = 0; i < oldcap; i++) {
		if (!old[i].key)
			continue;
		size_t j = old[i].hash & (ctx->tabcap - 1);

		while (ctx->tab[j].key)
			j = (j + 1) & (ctx->tabcap - 1);
		ctx->tab[j] = old[i];
	}
	free(old);
}

void ttc_intern_add(ttc_ctx *ctx, const void *key, size_t n, uint64_t hash,
		    const void *obj)
{
	if ((ctx->tablen + 1) * 2 > ctx->tabcap)
		intern_grow(ctx);
	size_t mask = ctx->tabcap - 1, i = hash & mask;

	while (ctx->tab[i].key)
		i = (i + 1) & mask;
	ctx->tab[i].hash = hash;
	ctx->tab[i].keylen = n;
	ctx->tab[i].key = ttc_arena_strndup(&ctx->arena, key, n);
	ctx->tab[i].obj = obj;
	ctx->tablen++;
}

const char *ttc_intern(ttc_ctx *ctx, const char *s, size_t len)
{
	struct ttc_buf *k = &ctx->key;
	uint64_t h;

	k->len = 0;
	ttc_buf_putc(k, 'S');
	ttc_buf_put(k, s, len);
	const char *found = ttc_intern_find(ctx, k->p, k->len, &h);

	if (found)
		return found;
	char *copy = ttc_arena_strndup(&ctx->arena, s, len);

	ttc_intern_add(ctx, k->p, k->len, h, copy);
	return copy;
}

/* ---- diagnostics ---- */

/* The line'th line of src, for the caret display. */
static void put_source_line(struct ttc_buf *b, const char *src, size_t n,
			    unsigned line, unsigned col)
{
	size_t i = 0;

	for (unsigned l = 1; l < line && i < n; i++)
		if (src[i] == '\n')
			l++;
	size_t e = i;

	while (e < n && src[e] != '\n')
		e++;
	if (i >= n && line > 1)
		return;
	ttc_buf_put(b, src + i, e - i);
	ttc_buf_putc(b, '\n');
	for (unsigned c = 1; c < col; c++)
		ttc_buf_putc(b, i + c - 1 < e && src[i + c - 1] == '\t' ?
					'\t' : ' ');
	ttc_buf_puts(b, "^\n");
}

void ttc_diag_add(ttc_ctx *ctx, const char *file, const char *src,
		  size_t srclen, unsigned line, unsigned col,
		  const ttc_loc *loc, const char *msg)
{
	struct ttc_buf t = { 0 };

	if (ctx->ndiags == ctx->diagcap) {
		ctx->diagcap = ctx->diagcap ? ctx->diagcap * 2 : 8;
		ctx->diags = ttc_xrealloc(ctx->diags,
					  ctx->diagcap * sizeof(*ctx->diags));
	}
	if (line)
		ttc_buf_printf(&t, "%s:%u:%u: ", file ? file : "<input>", line,
			       col);
	else if (loc && loc->lk != TTC_LOC_UNKNOWN) {
		ttc_format_loc(&t, loc);
		ttc_buf_puts(&t, ": ");
	}
	ttc_buf_printf(&t, "error: %s\n", msg);
	if (line && src)
		put_source_line(&t, src, srclen, line, col);
	struct ttc_diag *d = &ctx->diags[ctx->ndiags++];

	d->file = file ? strdup(file) : NULL;
	d->line = line;
	d->col = col;
	d->message = strdup(msg);
	d->text = t.p ? t.p : strdup("");
}

void ttc_diag_addf(ttc_ctx *ctx, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ttc_diag_add(ctx, NULL, NULL, 0, 0, 0, NULL, msg);
}

size_t ttc_ctx_diag_count(const ttc_ctx *ctx)
{
	return ctx ? ctx->ndiags : 0;
}

const struct ttc_diag *ttc_ctx_diag(const ttc_ctx *ctx, size_t i)
{
	return ctx && i < ctx->ndiags ? &ctx->diags[i] : NULL;
}

const char *ttc_ctx_error(ttc_ctx *ctx)
{
	if (!ctx)
		return "";
	ctx->errtext.len = 0;
	ttc_buf_puts(&ctx->errtext, "");
	for (size_t i = 0; i < ctx->ndiags; i++)
		ttc_buf_puts(&ctx->errtext, ctx->diags[i].text);
	return ctx->errtext.p;
}

void ttc_ctx_clear_diags(ttc_ctx *ctx)
{
	if (!ctx)
		return;
	for (size_t i = 0; i < ctx->ndiags; i++) {
		free((char *)ctx->diags[i].file);
		free((char *)ctx->diags[i].message);
		free((char *)ctx->diags[i].text);
	}
	ctx->ndiags = 0;
}
