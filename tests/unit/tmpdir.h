/* SPDX-License-Identifier: Apache-2.0 */
/* A fresh private directory for one test, under $TMPDIR (default /tmp),
 * and its removal. */
#ifndef TT_TESTS_TMPDIR_H
#define TT_TESTS_TMPDIR_H

#include <ftw.h>
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

static inline int test_rmtree_entry_(const char *path, const struct stat *st,
				     int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* Remove path and everything under it (symbolic links not followed). */
static inline void test_rmtree(const char *path)
{
	nftw(path, test_rmtree_entry_, 16, FTW_DEPTH | FTW_PHYS);
}

#endif /* TT_TESTS_TMPDIR_H */
