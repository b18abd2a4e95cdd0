// SPDX-License-Identifier: Apache-2.0
#include "runtime.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cq.h"
#include "fd.h"
#include "launch.h"

static struct tt_runtime *runtime_new(struct tt_device *dev)
{
	struct tt_runtime *rt = calloc(1, sizeof(*rt));
	struct tt_xy first;

	if (!rt)
		return NULL;
	rt->grid_x = dev->info.grid_x;
	rt->grid_y = dev->info.grid_y;
	rt->cores = calloc((size_t)rt->grid_x * rt->grid_y,
			   sizeof(*rt->cores));
	rt->failures = calloc((size_t)rt->grid_x * rt->grid_y,
			      sizeof(*rt->failures));
	if (!rt->cores || !rt->failures ||
	    tt_device_tensix_core(dev, 0, &first)) {
		free(rt->failures);
		free(rt->cores);
		free(rt);
		return NULL;
	}
	rt->counter_core = first;
	rt->reset_gen = dev->reset_gen;
	rt->adopt = dev->owner_fresh;
	pthread_mutex_init(&rt->lock, NULL);
	pthread_mutex_init(&rt->cq_lock, NULL);
	return rt;
}

struct tt_runtime *tt_runtime_get(struct tt_device *dev)
{
	struct tt_runtime *rt;

	/* Programs run on a chip this process owns (docs/api.md). */
	if (tt_device_own(dev))
		return NULL;
	/* Every launch asks: once made, the runtime costs one load. */
	rt = __atomic_load_n(&dev->runtime, __ATOMIC_ACQUIRE);
	if (rt)
		return rt;
	/* Created under the device lock: two threads may start the first
	 * program at once. */
	pthread_mutex_lock(&dev->lock);
	rt = dev->runtime;
	if (!rt) {
		rt = runtime_new(dev);
		__atomic_store_n(&dev->runtime, rt, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&dev->lock);
	if (!rt) {
		tt_error(-ENOMEM, "%s: out of memory for the program runtime",
			 dev->name);
		return NULL;
	}
	if (tt_device_on_close(dev, TT_DISPATCH_CLOSE_LEVEL,
			       tt_runtime_destroy))
		return NULL;
	return rt;
}

struct tt_core_state *tt_runtime_core(struct tt_runtime *rt, struct tt_xy noc)
{
	if (noc.x >= rt->grid_x || noc.y >= rt->grid_y)
		return NULL;
	return &rt->cores[noc.y * rt->grid_x + noc.x];
}

void tt_runtime_forget(struct tt_runtime *rt)
{
	memset(rt->cores, 0,
	       (size_t)rt->grid_x * rt->grid_y * sizeof(*rt->cores));
	tt_launch_plan_forget(&rt->plan);
}

void tt_runtime_destroy(struct tt_device *dev)
{
	struct tt_runtime *rt = dev->runtime;

	if (!rt)
		return;
	tt_cq_destroy_all(dev);
	tt_fd_destroy(dev);
	pthread_mutex_destroy(&rt->cq_lock);
	pthread_mutex_destroy(&rt->lock);
	tt_launch_plan_free(&rt->plan);
	free(rt->cores);
	free(rt->failures);
	free(rt);
	dev->runtime = NULL;
}
