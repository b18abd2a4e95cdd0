// SPDX-License-Identifier: Apache-2.0
/*
 * The matmul golden's portable kernel: golden/gemm.c built here without
 * OpenBLAS (libttc uses OpenBLAS when Meson finds it, so its own build
 * would not run this one). Exact on small integers past one panel, close
 * to a double reference on random values, every edge of its blocking.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/golden.h"

#include "ttc_testutil.h"

static void reference(const float *a, const float *b, double *c, size_t m,
		      size_t n, size_t k)
{
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++) {
			double s = 0;

			for (size_t p = 0; p < k; p++)
				s += (double)a[i * k + p] * b[p * n + j];
			c[i * n + j] = s;
		}
}

/* m x k times k x n against the double product: equal when exact is
 * set (small integers), else within fp32 rounding of each panel. */
static void check(size_t m, size_t n, size_t k, bool exact)
{
	float *a = malloc((m * k + 1) * sizeof(float));
	float *b = malloc((k * n + 1) * sizeof(float));
	float *c = malloc((m * n + 1) * sizeof(float));
	double *r = malloc((m * n + 1) * sizeof(double));
	uint32_t s = 12345;

	for (size_t i = 0; i < m * k; i++) {
		s = s * 1664525u + 1013904223u;
		a[i] = exact ? (float)(s >> 29) - 4 : (float)(s >> 8) * 0x1p-24f - 0.5f;
	}
	for (size_t i = 0; i < k * n; i++) {
		s = s * 1664525u + 1013904223u;
		b[i] = exact ? (float)(s >> 29) - 4 : (float)(s >> 8) * 0x1p-24f - 0.5f;
	}
	memset(c, 0xff, (m * n + 1) * sizeof(float)); /* NaN: all written? */
	ttc_golden_gemm(a, b, c, m, n, k);
	reference(a, b, r, m, n, k);
	for (size_t i = 0; i < m * n; i++) {
		double tol = exact ? 0 : 1e-6 * (double)k;

		if (!(fabs(c[i] - r[i]) <= tol))
			fail_msg("%zux%zux%zu: c[%zu] = %.9g, want %.9g", m, n, k,
				 i, (double)c[i], r[i]);
	}
	free(a);
	free(b);
	free(c);
	free(r);
}

static void test_blocked_backend(void **state)
{
	(void)state;
	assert_string_equal(ttc_golden_gemm_backend(), "blocked");
	check(1, 1, 1, true);
	check(5, 3, 7, true);     /* rows not a multiple of 4 */
	check(9, 600, 3, true);   /* columns past one block */
	check(6, 5, 2 * TTC_GEMM_KC + 7, true); /* three panels */
	check(4, 4, 0, true);     /* k = 0: zeros */
	check(33, 65, 300, false);
	check(64, 64, TTC_GEMM_KC, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocked_backend),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
