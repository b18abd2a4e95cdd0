// SPDX-License-Identifier: Apache-2.0
/*
 * Verification's goldens: every value of the function after the passes,
 * with each fused activation (ttc.activation, decision 52) applied to
 * its op's result. The goldens ignore the attribute, so the interpreter's
 * own result tensor is rewritten as the visitor sees it: the ops after it
 * then read the activated value, as on the device.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../golden/internal.h"
#include "verify_internal.h"

static double leaky_relu(double x, double slope)
{
	return x > 0 || isnan(x) ? x : x * slope;
}

static double clip(double x, double lo, double hi)
{
	return isnan(x) ? x : fmin(fmax(x, lo), hi);
}

static double param(const ttc_op *op, const char *name)
{
	const ttc_attr *a = ttc_op_attr(op, name);

	if (!a)
		return 0;
	return ttc_attr_kind(a) == TTC_ATTR_INT ? (double)ttc_attr_int(a)
						 : ttc_attr_float(a);
}

/* The activation fused into op (tt_unary_op_name's spelling) on t. */
static int activate(ttc_ctx *ctx, const ttc_op *op, ttc_tensor *t)
{
	const ttc_attr *a = ttc_op_attr(op, "ttc.activation");
	double p0 = param(op, "ttc.activation_p0");
	double p1 = param(op, "ttc.activation_p1");
	scalar1_fn fn = NULL;
	const char *name;
	size_t len;

	if (!a)
		return 0;
	name = ttc_attr_str(a, &len);
	if (!name)
		return 0;
	if (!strcmp(name, "identity"))
		return 0;
	if (strcmp(name, "leaky_relu") && strcmp(name, "clip")) {
		/* The device's names are TTIR's but one. */
		fn = eltwise_unary_fn(strcmp(name, "recip") ? name
							    : "reciprocal");
		if (!fn) {
			ttc_diag_addf(ctx,
				      "verify: %s: no golden for the fused activation '%s'",
				      ttc_op_name(op), name);
			return -ENOTSUP;
		}
	}
	for (size_t i = 0; i < t->numel; i++) {
		double x = ttc_tensor_get(t, i);

		ttc_tensor_set(t, i, fn ? fn(x) : !strcmp(name, "clip")
				     ? clip(x, p0, p1) : leaky_relu(x, p0));
	}
	return 0;
}

static int put(struct vg_map *map, const ttc_value *v, const ttc_tensor *t)
{
	ttc_tensor *c;

	if (map->n == map->cap) {
		size_t cap = map->cap ? 2 * map->cap : 64;
		struct vg_entry *e = realloc(map->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		map->e = e;
		map->cap = cap;
	}
	c = ttc_tensor_clone(t);
	if (!c)
		return -ENOMEM;
	map->e[map->n++] = (struct vg_entry){v, c};
	return 0;
}

struct visit {
	ttc_ctx *ctx;
	struct vg_map *map;
};

static int on_result(void *arg, const ttc_op *op, size_t result,
		     const ttc_tensor *t)
{
	struct visit *s = arg;
	/* The interpreter's own tensor (see the top of the file). */
	int ret = result == 0 ? activate(s->ctx, op, (ttc_tensor *)t) : 0;

	return ret ? ret : put(s->map, ttc_op_result(op, result), t);
}

int vg_run(ttc_ctx *ctx, ttc_func *f, ttc_tensor *const *args,
	   enum tt_data_format fmt, struct vg_map *map)
{
	size_t nres = ttc_func_num_results(f);
	ttc_tensor **res = calloc(nres + 1, sizeof(*res));
	struct visit s = {ctx, map};
	struct ttc_golden_opts o = {fmt, on_result, &s};
	int ret = res ? 0 : -ENOMEM;

	for (size_t i = 0; !ret && i < ttc_func_num_args(f); i++)
		ret = put(map, ttc_func_arg(f, i), args[i]);
	if (!ret)
		ret = ttc_golden_run(f, args, ttc_func_num_args(f), res, &o);
	for (size_t i = 0; res && i < nres; i++)
		ttc_tensor_free(res[i]);
	free(res);
	return ret;
}

const ttc_tensor *vg_find(const struct vg_map *map, const ttc_value *v)
{
	for (size_t i = 0; v && i < map->n; i++)
		if (map->e[i].v == v)
			return map->e[i].t;
	return NULL;
}

void vg_free(struct vg_map *map)
{
	for (size_t i = 0; i < map->n; i++)
		ttc_tensor_free(map->e[i].t);
	free(map->e);
	*map = (struct vg_map){0};
}

int vg_from_tt(ttc_ctx *ctx, const ttc_type *t, const tt_tensor *x,
	       ttc_tensor **out)
{
	tt_tensor *f = NULL;
	ttc_tensor *h = ttc_tensor_new(ctx, t);
	int ret = h ? tt_tensor_to(x, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &f)
		    : -ENOMEM;

	if (!ret && tt_tensor_volume(f) != h->numel) {
		ttc_diag_addf(ctx,
			      "verify: an input has %zu elements, its argument %zu",
			      tt_tensor_volume(f), h->numel);
		ret = -EINVAL;
	}
	for (size_t i = 0; !ret && i < h->numel; i++)
		ttc_tensor_set(h, i, ((const float *)tt_tensor_data(f))[i]);
	tt_tensor_free(f);
	if (ret) {
		ttc_tensor_free(h);
		h = NULL;
	}
	*out = h;
	return ret;
}
