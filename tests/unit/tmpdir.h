/* SPDX-License-Identifier: Apache-2.0 */
/* A fresh private directory for one test, under $TMPDIR (default /tmp). */
#ifndef TT_TESTS_TMPDIR_H
#define TT_TESTS_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

/* Make <tmp>/<prefix>-XXXXXX in buf; returns buf, or NULL on failure. */
static inline char *test_mkdtemp(char *buf, size_t len, const char *prefix)
{
	const char *tmp = getenv("TMPDIR");
	int n = snprintf(buf, len, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp",
			 prefix);

	if (n < 0 || (size_t)n >= len)
		return NULL;
	return mkdtemp(buf);
}

#endif /* TT_TESTS_TMPDIR_H */
