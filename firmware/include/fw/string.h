/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The few C library routines firmware uses (firmware/lib/string.c). The
 * compiler also calls memcpy and memset on its own, for struct copies and
 * initialisers, so every image links them.
 */
#ifndef TT_FW_STRING_H
#define TT_FW_STRING_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

#endif /* TT_FW_STRING_H */
