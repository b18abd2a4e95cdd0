// SPDX-License-Identifier: Apache-2.0
#include "json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

void jw_init(struct jw *w, FILE *f, bool compact)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->compact = compact;
	w->first[0] = true;
}

static void put_string(struct jw *w, const char *s)
{
	fputc('"', w->f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", w->f);
			break;
		case '\\':
			fputs("\\\\", w->f);
			break;
		case '\n':
			fputs("\\n", w->f);
			break;
		case '\r':
			fputs("\\r", w->f);
			break;
		case '\t':
			fputs("\\t", w->f);
			break;
		default:
			if (*p < 0x20 || *p == 0x7F)
				fprintf(w->f, "\\u%04x", *p);
			else
				fputc(*p, w->f);
		}
	}
	fputc('"', w->f);
}

/* Separator, indentation and key before a value. */
static void member(struct jw *w, const char *key)
{
	if (!w->first[w->depth])
		fputc(',', w->f);
	w->first[w->depth] = false;
	if (w->depth && !w->compact) {
		fputc('\n', w->f);
		for (unsigned i = 0; i < w->depth; i++)
			fputs("    ", w->f);
	}
	if (key) {
		put_string(w, key);
		fputs(w->compact ? ":" : ": ", w->f);
	}
}

static void open_container(struct jw *w, const char *key, char c)
{
	member(w, key);
	fputc(c, w->f);
	if (w->depth + 1 >= JW_DEPTH) {
		w->overflow = true;
		return;
	}
	w->depth++;
	w->first[w->depth] = true;
	w->close[w->depth] = c == '{' ? '}' : ']';
}

void jw_object(struct jw *w, const char *key)
{
	open_container(w, key, '{');
}

void jw_array(struct jw *w, const char *key)
{
	open_container(w, key, '[');
}

void jw_end(struct jw *w)
{
	bool empty = w->first[w->depth];
	char c = w->close[w->depth];

	if (!w->depth)
		return;
	w->depth--;
	if (!empty && !w->compact) {
		fputc('\n', w->f);
		for (unsigned i = 0; i < w->depth; i++)
			fputs("    ", w->f);
	}
	fputc(c, w->f);
}

void jw_string(struct jw *w, const char *key, const char *s)
{
	member(w, key);
	if (s)
		put_string(w, s);
	else
		fputs("null", w->f);
}

void jw_int(struct jw *w, const char *key, int64_t v)
{
	member(w, key);
	fprintf(w->f, "%" PRId64, v);
}

void jw_uint(struct jw *w, const char *key, uint64_t v)
{
	member(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void jw_number(struct jw *w, const char *key, double v, int decimals)
{
	char buf[64];
	char *dot, *end;

	member(w, key);
	if (!isfinite(v)) {
		fputs("null", w->f);
		return;
	}
	snprintf(buf, sizeof(buf), "%.*f", decimals < 0 ? 0 : decimals, v);
	dot = strchr(buf, '.');
	if (dot) {
		end = buf + strlen(buf) - 1;
		while (end > dot && *end == '0')
			*end-- = 0;
		if (end == dot)
			*end = 0;
	}
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
	fputs(buf, w->f);
}

void jw_bool(struct jw *w, const char *key, bool v)
{
	member(w, key);
	fputs(v ? "true" : "false", w->f);
}

void jw_null(struct jw *w, const char *key)
{
	member(w, key);
	fputs("null", w->f);
}

int jw_finish(struct jw *w)
{
	fputc('\n', w->f);
	if (fflush(w->f) || ferror(w->f))
		return -(errno ? errno : EIO);
	return w->overflow ? -EOVERFLOW : 0;
}
