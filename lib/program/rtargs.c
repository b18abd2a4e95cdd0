// SPDX-License-Identifier: Apache-2.0
/*
 * Runtime arguments: unique per (kernel, core), common per kernel, with
 * TT-Metal's limits (at most 255 unique words, at most 341 unique plus
 * common) and fixed counts once set. Each core's words live in their own
 * allocation, made when the count is first set, so pointers handed out by
 * tt_get_runtime_args stay valid as long as the program.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "program_internal.h"

static int common_count(const struct tt_kernel_obj *k)
{
	return k->crta_count > 0 ? k->crta_count : 0;
}

/* May core number idx (at c) of k take count unique args, its current
 * count being old (-1: never set)? */
static int check_unique(const struct tt_kernel_obj *k, struct tt_xy c,
			int old, unsigned count, const char *fn)
{
	unsigned common = (unsigned)common_count(k);

	if (count > TT_MAX_UNIQUE_RUNTIME_ARGS)
		return tt_error(-E2BIG,
				"%s: kernel %u (%s) on core (%u,%u): %u unique args, limit is %u",
				fn, k->pub.id, k->name, c.x, c.y, count,
				TT_MAX_UNIQUE_RUNTIME_ARGS);
	if (count + common > TT_MAX_RUNTIME_ARGS)
		return tt_error(-E2BIG,
				"%s: kernel %u (%s) on core (%u,%u): %u args (%u unique + %u common), limit is %u (unique + common)",
				fn, k->pub.id, k->name, c.x, c.y, count + common,
				count, common, TT_MAX_RUNTIME_ARGS);
	if (old >= 0 && (unsigned)old != count)
		return tt_error(-EINVAL,
				"%s: kernel %u (%s) on core (%u,%u): the number of runtime args is fixed at %d once set, cannot change it to %u",
				fn, k->pub.id, k->name, c.x, c.y, old, count);
	return 0;
}

static int core_index(const struct tt_kernel_obj *k, struct tt_xy c,
		      const char *fn)
{
	int idx = tt_kernel_core_index(k, c);

	if (idx < 0)
		return tt_error(-EINVAL,
				"%s: kernel %u (%s) is not placed on core (%u,%u)",
				fn, k->pub.id, k->name, c.x, c.y);
	return idx;
}

/* Store count words at core number idx (checked already). */
static int store(tt_program *p, struct tt_kernel_obj *k, int idx,
		 const uint32_t *args, unsigned count, const char *fn)
{
	struct tt_rta *a = &k->rta[idx];

	if (a->count < 0) {
		a->args = malloc((count ? count : 1) * sizeof(uint32_t));
		if (!a->args)
			return tt_error(-ENOMEM, "%s: out of memory", fn);
		a->count = (int)count;
		if (count > k->max_rta)
			k->max_rta = count;
		/* The count is part of the layout. */
		tt_program_changed(p);
	}
	if (count)
		memcpy(a->args, args, count * sizeof(uint32_t));
	return 0;
}

static int get_kernel(tt_program *p, tt_kernel_handle kh, const void *args,
		      unsigned count, const char *fn,
		      struct tt_kernel_obj **out)
{
	if (!p)
		return tt_error(-EINVAL, "%s: program is NULL", fn);
	if (count && !args)
		return tt_error(-EINVAL, "%s: %u args but args is NULL", fn,
				count);
	*out = tt_kernel_find(p, kh, fn);
	return *out ? 0 : -EINVAL;
}

int tt_set_runtime_args(tt_program *p, tt_kernel_handle kh, struct tt_xy c,
			const uint32_t *args, unsigned count)
{
	static const char fn[] = "tt_set_runtime_args";
	struct tt_kernel_obj *k = NULL;
	int idx, ret;

	ret = get_kernel(p, kh, args, count, fn, &k);
	if (ret)
		return ret;
	idx = core_index(k, c, fn);
	if (idx < 0)
		return idx;
	ret = check_unique(k, c, k->rta[idx].count, count, fn);
	return ret ? ret : store(p, k, idx, args, count, fn);
}

int tt_set_runtime_args_cores(tt_program *p, tt_kernel_handle kh,
			      const struct tt_core_range_set *cores,
			      const uint32_t *args, unsigned count)
{
	static const char fn[] = "tt_set_runtime_args_cores";
	struct tt_kernel_obj *k = NULL;
	struct tt_core_iter it;
	struct tt_xy c;
	int idx, ret;

	ret = get_kernel(p, kh, args, count, fn, &k);
	if (ret)
		return ret;
	if (!cores)
		return tt_error(-EINVAL, "%s: core range set is NULL", fn);
	ret = tt_core_range_set_check(cores);
	if (ret)
		return tt_error_wrap(ret, "%s", fn);
	/* All or nothing: check every core first. */
	for (tt_core_iter_init(&it, cores); tt_core_iter_next(&it, &c);) {
		idx = core_index(k, c, fn);
		if (idx < 0)
			return idx;
		ret = check_unique(k, c, k->rta[idx].count, count, fn);
		if (ret)
			return ret;
	}
	for (tt_core_iter_init(&it, cores); tt_core_iter_next(&it, &c);) {
		ret = store(p, k, tt_kernel_core_index(k, c), args, count, fn);
		if (ret)
			return ret;
	}
	return 0;
}

/* Check a per-core list as if applied in order. */
static int check_list(const struct tt_kernel_obj *k,
		      const struct tt_core_args *list, unsigned n,
		      const char *fn)
{
	int *pending = malloc(k->cores.ncores * sizeof(int));
	int ret = 0;

	if (!pending)
		return tt_error(-ENOMEM, "%s: out of memory", fn);
	for (unsigned i = 0; i < k->cores.ncores; i++)
		pending[i] = k->rta[i].count;
	for (unsigned i = 0; i < n && !ret; i++) {
		const struct tt_core_args *e = &list[i];
		int idx = core_index(k, e->core, fn);

		if (idx < 0) {
			ret = idx;
			break;
		}
		if (e->count && !e->args)
			ret = tt_error(-EINVAL,
				       "%s: entry %u (core (%u,%u)): %u args but args is NULL",
				       fn, i, e->core.x, e->core.y, e->count);
		else
			ret = check_unique(k, e->core, pending[idx], e->count,
					   fn);
		pending[idx] = (int)e->count;
	}
	free(pending);
	return ret;
}

int tt_set_runtime_args_per_core(tt_program *p, tt_kernel_handle kh,
				 const struct tt_core_args *list, unsigned n)
{
	static const char fn[] = "tt_set_runtime_args_per_core";
	struct tt_kernel_obj *k = NULL;
	int ret;

	ret = get_kernel(p, kh, list, n, fn, &k);
	if (!ret)
		ret = check_list(k, list, n, fn);
	for (unsigned i = 0; i < n && !ret; i++)
		ret = store(p, k, tt_kernel_core_index(k, list[i].core),
			    list[i].args, list[i].count, fn);
	return ret;
}

int tt_get_runtime_args(tt_program *p, tt_kernel_handle kh, struct tt_xy c,
			uint32_t **args, unsigned *count)
{
	static const char fn[] = "tt_get_runtime_args";
	struct tt_kernel_obj *k = NULL;
	int idx, ret;

	if (!args || !count)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				args ? "count" : "args");
	ret = get_kernel(p, kh, NULL, 0, fn, &k);
	if (ret)
		return ret;
	idx = core_index(k, c, fn);
	if (idx < 0)
		return idx;
	*count = k->rta[idx].count > 0 ? (unsigned)k->rta[idx].count : 0;
	*args = *count ? k->rta[idx].args : NULL;
	return 0;
}

/* A core of k with the most unique args. */
static struct tt_xy busiest_core(const struct tt_kernel_obj *k)
{
	struct tt_core_range_set s;
	struct tt_core_iter it;
	struct tt_xy c, best = k->cores.r[0].start;
	int most = -1;

	tt_program_rset_to_set(&k->cores, &s);
	for (tt_core_iter_init(&it, &s); tt_core_iter_next(&it, &c);) {
		int n = k->rta[tt_kernel_core_index(k, c)].count;

		if (n > most) {
			most = n;
			best = c;
		}
	}
	return best;
}

static int check_common(const struct tt_kernel_obj *k, unsigned count,
			const char *fn)
{
	struct tt_xy c;

	if (count > TT_MAX_RUNTIME_ARGS ||
	    k->max_rta + count > TT_MAX_RUNTIME_ARGS) {
		c = busiest_core(k);
		return tt_error(-E2BIG,
				"%s: kernel %u (%s) on core (%u,%u): %u args (%u unique + %u common), limit is %u (unique + common)",
				fn, k->pub.id, k->name, c.x, c.y,
				k->max_rta + count, k->max_rta, count,
				TT_MAX_RUNTIME_ARGS);
	}
	if (k->crta_count >= 0 && (unsigned)k->crta_count != count)
		return tt_error(-EINVAL,
				"%s: kernel %u (%s): the number of common runtime args is fixed at %d once set, cannot change it to %u",
				fn, k->pub.id, k->name, k->crta_count, count);
	return 0;
}

int tt_set_common_runtime_args(tt_program *p, tt_kernel_handle kh,
			       const uint32_t *args, unsigned count)
{
	static const char fn[] = "tt_set_common_runtime_args";
	struct tt_kernel_obj *k = NULL;
	int ret;

	ret = get_kernel(p, kh, args, count, fn, &k);
	if (!ret)
		ret = check_common(k, count, fn);
	if (ret)
		return ret;
	if (k->crta_count < 0) {
		k->crta = malloc((count ? count : 1) * sizeof(uint32_t));
		if (!k->crta)
			return tt_error(-ENOMEM, "%s: out of memory", fn);
		k->crta_count = (int)count;
		tt_program_changed(p);
	}
	if (count)
		memcpy(k->crta, args, count * sizeof(uint32_t));
	return 0;
}

int tt_get_common_runtime_args(tt_program *p, tt_kernel_handle kh,
			       uint32_t **args, unsigned *count)
{
	static const char fn[] = "tt_get_common_runtime_args";
	struct tt_kernel_obj *k = NULL;
	int ret;

	if (!args || !count)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				args ? "count" : "args");
	ret = get_kernel(p, kh, NULL, 0, fn, &k);
	if (ret)
		return ret;
	*count = (unsigned)common_count(k);
	*args = *count ? k->crta : NULL;
	return 0;
}
