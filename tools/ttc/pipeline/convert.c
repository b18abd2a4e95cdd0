// SPDX-License-Identifier: Apache-2.0
/*
 * Host tensors between libttc (ttc_tensor: a type and dense elements) and
 * libtt (tt_tensor: a device shape and a data format): through Float32
 * row-major, as the device's shape may differ from the function's type
 * (rank 1 held as 1xN) while the elements, in order, are the same.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

int pl_to_tt(const ttc_tensor *t, const struct tt_shape *shape, tt_tensor **out)
{
	uint64_t vol = 1;
	float *v;
	int ret;

	for (unsigned k = 0; k < shape->rank; k++)
		vol *= shape->dims[k];
	if (vol != t->numel)
		return -EINVAL;
	v = malloc(t->numel * sizeof(float) + 1);
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < t->numel; i++)
		v[i] = (float)ttc_tensor_get(t, i);
	ret = tt_tensor_from_data(shape, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, v,
				  t->numel * sizeof(float), out);
	free(v);
	return ret;
}

int pl_from_tt(ttc_ctx *ctx, const tt_tensor *t, const ttc_type *type,
	       ttc_tensor **out)
{
	tt_tensor *f = NULL;
	ttc_tensor *h;
	const float *v;
	int ret;

	ret = tt_tensor_to(t, TT_FLOAT32, TT_TENSOR_ROW_MAJOR, &f);
	if (ret)
		return ret;
	h = ttc_tensor_new(ctx, type);
	if (!h || h->numel != tt_tensor_volume(f)) {
		ttc_tensor_free(h);
		tt_tensor_free(f);
		return h ? -EINVAL : -ENOMEM;
	}
	v = tt_tensor_data(f);
	for (size_t i = 0; i < h->numel; i++)
		ttc_tensor_set(h, i, v[i]);
	tt_tensor_free(f);
	*out = h;
	return 0;
}
