// SPDX-License-Identifier: Apache-2.0
/* ttc golden --compare: one record per tensor, the golden against the
 * .npy of the same name in another directory (a device's results). */
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "golden_compare.h"

/* JSON has no inf or NaN: they are written as strings. */
static void num(const char *key, double v)
{
	if (isfinite(v))
		printf(", \"%s\": %.9g", key, v);
	else
		printf(", \"%s\": \"%s\"", key, isnan(v) ? "nan" :
						v > 0 ? "inf" : "-inf");
}

int golden_compare(ttc_ctx *ctx, const char *dir, const char *name,
		   const ttc_tensor *golden, const struct ttc_compare_want *w,
		   bool required)
{
	char path[4096];
	struct ttc_compare r;

	snprintf(path, sizeof(path), "%s/%s.npy", dir, name);
	if (access(path, F_OK)) {
		if (!required)
			return 0;
		fprintf(stderr, "ttc: --compare: no %s to compare %s with\n",
			path, name);
		return 1;
	}
	ttc_tensor *calc = ttc_tensor_load_npy(ctx, path);

	if (!calc)
		return 1;
	if (ttc_compare_tensors(golden, calc, w, &r)) {
		char g[128], c[128];

		ttc_type_format(golden->type, g, sizeof(g));
		ttc_type_format(calc->type, c, sizeof(c));
		fprintf(stderr, "ttc: --compare: %s is %s, the golden %s is %s\n",
			path, c, name, g);
		ttc_tensor_free(calc);
		return 1;
	}
	ttc_tensor_free(calc);
	printf("{\"name\": \"%s\", \"result\": \"%s\"", name,
	       r.pass ? "pass" : "fail");
	num("pcc", r.pcc);
	num("expected_pcc", w->pcc);
	num("atol", r.atol);
	num("rtol", r.rtol);
	num("max_abs", r.max_abs);
	num("max_rel", r.max_rel);
	printf(", \"allclose\": %s}\n", r.allclose ? "true" : "false");
	return r.pass ? 0 : 1;
}
