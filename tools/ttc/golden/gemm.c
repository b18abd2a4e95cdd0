// SPDX-License-Identifier: Apache-2.0
/*
 * The fp32 matrix product under the matmul golden. Panels of k of at most
 * TTC_GEMM_KC are multiplied in fp32 (OpenBLAS's sgemm when libttc was
 * built with it, else a cache-blocked kernel) and summed in double, so
 * the rounding error grows with TTC_GEMM_KC, not with k, at the speed of
 * an fp32 product. docs/decisions.md says why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifdef TTC_HAVE_OPENBLAS
#include <cblas.h>

static void panel(const float *a, const float *b, float *c, size_t m,
		  size_t n, size_t kc, size_t lda)
{
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n,
		    (int)kc, 1.0f, a, (int)lda, b, (int)n, 0.0f, c, (int)n);
}

const char *ttc_golden_gemm_backend(void)
{
	return "openblas";
}
#else
/*
 * Four rows of C at a time over a block of NB columns, so that each value
 * of B loaded serves four rows and the block of C stays in L1; the inner
 * loop over j is contiguous and the compiler vectorizes it. restrict
 * tells it the rows do not overlap.
 */
#define NB 512

static void rows4(const float *a, size_t lda, const float *b, size_t n,
		  size_t kc, float *restrict c0, float *restrict c1,
		  float *restrict c2, float *restrict c3, size_t j0, size_t j1)
{
	for (size_t p = 0; p < kc; p++) {
		float x0 = a[p], x1 = a[lda + p], x2 = a[2 * lda + p];
		float x3 = a[3 * lda + p];
		const float *restrict bp = b + p * n;

		for (size_t j = j0; j < j1; j++) {
			float y = bp[j];

			c0[j] += x0 * y;
			c1[j] += x1 * y;
			c2[j] += x2 * y;
			c3[j] += x3 * y;
		}
	}
}

static void row1(const float *a, const float *b, size_t n, size_t kc,
		 float *restrict c, size_t j0, size_t j1)
{
	for (size_t p = 0; p < kc; p++) {
		float x = a[p];
		const float *restrict bp = b + p * n;

		for (size_t j = j0; j < j1; j++)
			c[j] += x * bp[j];
	}
}

static void panel(const float *a, const float *b, float *c, size_t m,
		  size_t n, size_t kc, size_t lda)
{
	memset(c, 0, m * n * sizeof(float));
	for (size_t j0 = 0; j0 < n; j0 += NB) {
		size_t j1 = j0 + NB < n ? j0 + NB : n, i = 0;

		for (; i + 4 <= m; i += 4)
			rows4(a + i * lda, lda, b, n, kc, c + i * n,
			      c + (i + 1) * n, c + (i + 2) * n,
			      c + (i + 3) * n, j0, j1);
		for (; i < m; i++)
			row1(a + i * lda, b, n, kc, c + i * n, j0, j1);
	}
}

const char *ttc_golden_gemm_backend(void)
{
	return "blocked";
}
#endif

/* Each panel's product kept apart, then summed in double in one pass
 * (one pass over memory rather than one per panel). */
static int gemm_panels(const float *a, const float *b, float *c, size_t m,
		       size_t n, size_t k)
{
	size_t np = (k + TTC_GEMM_KC - 1) / TTC_GEMM_KC, mn = m * n;
	float *t = np <= SIZE_MAX / sizeof(float) / mn ?
			   malloc(np * mn * sizeof(float)) : NULL;

	if (!t)
		return -1;
	for (size_t p = 0; p < np; p++) {
		size_t k0 = p * TTC_GEMM_KC;
		size_t kc = k - k0 < TTC_GEMM_KC ? k - k0 : TTC_GEMM_KC;

		panel(a + k0, b + k0 * n, t + p * mn, m, n, kc, k);
	}
	for (size_t i = 0; i < mn; i++) {
		double sum = 0;

		for (size_t p = 0; p < np; p++)
			sum += t[p * mn + i];
		c[i] = (float)sum;
	}
	free(t);
	return 0;
}

void ttc_golden_gemm(const float *a, const float *b, float *c, size_t m,
		     size_t n, size_t k)
{
	if (m == 0 || n == 0)
		return;
	if (k == 0) {
		memset(c, 0, m * n * sizeof(float));
		return;
	}
	if (k <= TTC_GEMM_KC || gemm_panels(a, b, c, m, n, k))
		panel(a, b, c, m, n, k, k); /* one panel, or no room for more */
}
