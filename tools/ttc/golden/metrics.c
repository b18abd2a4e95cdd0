// SPDX-License-Identifier: Apache-2.0
/*
 * Comparisons of a result with its golden, as tt-mlir defines them
 * (tools/golden/metrics.py): atol and rtol are the largest absolute
 * difference and the largest difference relative to the calculated
 * value; PCC is Pearson's correlation with special cases for empty,
 * constant, non-finite and one-element tensors, so that a degenerate
 * tensor never divides by zero (docs/compiler.md lists the rules).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "internal.h"

struct ttc_compare_want ttc_compare_defaults(void)
{
	return (struct ttc_compare_want){ .pcc = 0.99, .atol = 1e-8,
					  .rtol = 1e-5 };
}

static bool isclose(double a, double b, double atol, double rtol)
{
	if (a == b)
		return true; /* infinities of one sign, exact values */
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return fabs(a - b) <= atol + rtol * fabs(b);
}

static bool all_nan(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			return false;
	return true;
}

/* NumPy's any(): NaN counts as non-zero. */
static bool any_nonzero(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] != 0)
			return true;
	return false;
}

static double masked(double v)
{
	return isfinite(v) ? v : 0;
}

/* Pearson's correlation of the masked values; both vary (n >= 2). */
static double pearson(const double *g, const double *c, size_t n)
{
	double mg = 0, mc = 0, sgg = 0, scc = 0, sgc = 0;

	for (size_t i = 0; i < n; i++) {
		mg += masked(g[i]);
		mc += masked(c[i]);
	}
	mg /= (double)n;
	mc /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double a = masked(g[i]) - mg, b = masked(c[i]) - mc;

		sgg += a * a;
		scc += b * b;
		sgc += a * b;
	}
	double r = sgc / sqrt(sgg * scc);

	return r > 1 ? 1 : r < -1 ? -1 : r;
}

static bool constant(const double *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (masked(v[i]) != masked(v[0]))
			return false;
	return true;
}

static double pcc(const double *g, const double *c, size_t n,
		  bool same_shape, const struct ttc_compare_want *w)
{
	if (n == 0)
		return same_shape ? 1 : 0;
	bool gn = all_nan(g, n), cn = all_nan(c, n);

	if (gn && cn)
		return 1;
	if (any_nonzero(g, n) != any_nonzero(c, n) || gn || cn)
		return 0;
	bool equal = true;

	for (size_t i = 0; equal && i < n; i++)
		equal = masked(g[i]) == masked(c[i]);
	if (equal)
		return 1;
	if (n == 1)
		return isclose(masked(c[0]), masked(g[0]), w->atol, w->rtol);
	bool kg = constant(g, n), kc = constant(c, n);

	if (kg && kc)
		return isclose(masked(c[0]), masked(g[0]), w->atol, w->rtol);
	if (kg || kc)
		return 0; /* one varies, the other does not: no correlation */
	return pearson(g, c, n);
}

struct ttc_compare ttc_compare_values(const double *g, const double *c,
				      size_t n, bool same_shape,
				      const struct ttc_compare_want *want)
{
	struct ttc_compare_want dw = ttc_compare_defaults();
	const struct ttc_compare_want *w = want ? want : &dw;
	struct ttc_compare r = { .allclose = true };

	for (size_t i = 0; i < n; i++) {
		double d = fabs(g[i] - c[i]);

		if (g[i] == c[i])
			d = 0; /* inf against the same inf */
		if (d > r.atol || isnan(d))
			r.atol = d;
		if (d / fabs(c[i]) > r.rtol || (d && !c[i]))
			r.rtol = d / fabs(c[i]);
		if (d / fabs(g[i]) > r.max_rel || (d && !g[i]))
			r.max_rel = d / fabs(g[i]);
		if (!isclose(c[i], g[i], w->atol, w->rtol))
			r.allclose = false;
	}
	r.max_abs = r.atol;
	r.pcc = pcc(g, c, n, same_shape, w);
	r.pass = r.pcc >= w->pcc && (!w->check_allclose || r.allclose);
	return r;
}

int ttc_compare_tensors(const ttc_tensor *golden, const ttc_tensor *calc,
			const struct ttc_compare_want *w,
			struct ttc_compare *out)
{
	if (golden->numel != calc->numel)
		return -EINVAL;
	size_t n = golden->numel;
	double *g = malloc((2 * n + 1) * sizeof(double)), *c = g + n;

	if (!g)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		g[i] = ttc_tensor_get(golden, i);
		c[i] = ttc_tensor_get(calc, i);
	}
	bool same = golden->type->rank == calc->type->rank;

	for (unsigned i = 0; same && i < golden->type->rank; i++)
		same = golden->type->dims[i] == calc->type->dims[i];
	*out = ttc_compare_values(g, c, n, same, w);
	free(g);
	return 0;
}
