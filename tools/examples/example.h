/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every example shares: failing with libtt's message, finding the
 * example kernels, timing, and the result check against a host reference
 * (Pearson correlation, as TT-Metal's tests report it).
 *
 * Header-only on purpose: each example stays one program a reader can
 * copy out of the tree with this file.
 */
#ifndef TT_EXAMPLE_H
#define TT_EXAMPLE_H

#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tt.h"

/* Stop with what failed and libtt's explanation. */
static inline __attribute__((noreturn, format(printf, 1, 2))) void
ex_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "error: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", tt_last_error());
	exit(1);
}

/* Call f (a libtt call returning 0 or a negative errno) or stop. */
#define EX_TRY(f)                                                              \
	do {                                                                   \
		if ((f) != 0)                                                  \
			ex_die("%s", #f);                                      \
	} while (0)

/*
 * The path of an example kernel, "name/file.c" under the kernels
 * directory: $TT_EXAMPLES_KERNELS if set, else the source tree the
 * examples were built from. The result is in a static buffer.
 */
static inline const char *ex_kernel(const char *rel)
{
	static char path[4096];
	const char *dir = getenv("TT_EXAMPLES_KERNELS");

	if (!dir || !*dir)
		dir = TT_EXAMPLES_KERNEL_DIR;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, rel) >=
	    sizeof(path)) {
		fprintf(stderr, "error: kernel path %s/%s is too long\n", dir,
			rel);
		exit(1);
	}
	return path;
}

static inline void *ex_xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		fprintf(stderr, "error: out of memory (%zu bytes)\n", n);
		exit(1);
	}
	return p;
}

/* n values in [-1, 1), already bf16 values (what the device sees). */
static inline void ex_fill_bf16(float *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		p[i] = tt_bf16_to_float(tt_float_to_bf16(
			(float)(seed >> 8) / 8388608.0f - 1.0f));
	}
}

static inline double ex_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Pearson correlation of got and want (n values); 1 if both constant and
 * equal. */
static inline double ex_pcc(const float *got, const float *want, size_t n)
{
	double sg = 0, sw = 0, sgg = 0, sww = 0, sgw = 0;

	for (size_t i = 0; i < n; i++) {
		sg += got[i];
		sw += want[i];
	}
	sg /= (double)n;
	sw /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double g = got[i] - sg, w = want[i] - sw;

		sgg += g * g;
		sww += w * w;
		sgw += g * w;
	}
	if (sgg == 0 || sww == 0)
		return sgg == sww && sg == sw ? 1.0 : 0.0;
	return sgw / sqrt(sgg * sww);
}

/* Print the verdict line every example ends with; the exit status. */
static inline int ex_verdict(const char *name, int ok, const char *detail)
{
	printf("%s: %s (%s)\n", name, ok ? "PASS" : "FAIL", detail);
	return ok ? 0 : 1;
}

#endif /* TT_EXAMPLE_H */
