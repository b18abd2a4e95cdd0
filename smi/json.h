/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small streaming JSON writer: objects and arrays nest, members are
 * written in the order given, strings are escaped, numbers that are not
 * finite become null. Pretty (4-space indent) or compact (one line).
 */
#ifndef TT_SMI_JSON_H
#define TT_SMI_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JW_DEPTH 16

struct jw {
	FILE *f;
	bool compact;
	unsigned depth;
	bool first[JW_DEPTH]; /* nothing written yet at this depth */
	char close[JW_DEPTH]; /* '}' or ']' of the container at a depth */
	bool overflow;	      /* nesting deeper than JW_DEPTH: output invalid */
};

void jw_init(struct jw *w, FILE *f, bool compact);
/* key is NULL inside arrays and for the top level. */
void jw_object(struct jw *w, const char *key);
void jw_array(struct jw *w, const char *key);
void jw_end(struct jw *w); /* of the innermost object or array */
void jw_string(struct jw *w, const char *key, const char *s); /* NULL: null */
void jw_int(struct jw *w, const char *key, int64_t v);
void jw_uint(struct jw *w, const char *key, uint64_t v);
/* At most `decimals` digits after the point, trailing zeros kept off. */
void jw_number(struct jw *w, const char *key, double v, int decimals);
void jw_bool(struct jw *w, const char *key, bool v);
void jw_null(struct jw *w, const char *key);
/* After the top-level value: newline; 0 or -errno of the stream. */
int jw_finish(struct jw *w);

#endif /* TT_SMI_JSON_H */
