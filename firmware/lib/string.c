// SPDX-License-Identifier: Apache-2.0
/*
 * Byte-wise on purpose: firmware copies little, and a hart faults on a
 * misaligned word access, so word tricks would need alignment checks that
 * cost more code than they save time. This file must be built with
 * -fno-tree-loop-distribute-patterns, or the compiler turns these loops
 * back into calls to themselves.
 */
#include "fw/string.h"

#include <stdint.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((uintptr_t)d - (uintptr_t)s >= n)
		return memcpy(dst, src, n);
	/* dst overlaps the tail of src: copy backwards. */
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p < *q ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}
