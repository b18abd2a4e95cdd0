// SPDX-License-Identifier: Apache-2.0
/* Goldens of the ops that make tensors: constant, full, zeros, ones,
 * empty (zeros: its contents are undefined, zeros are one choice),
 * arange. */
#include <inttypes.h>
#include <string.h>

#include "internal.h"

int golden_constant(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		    ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_attr *v = ttc_op_attr(op, "value");

	(void)in, (void)nin;
	if (!v || ttc_attr_kind(v) != TTC_ATTR_DENSE)
		return gfail(err, len, "attribute 'value' is not dense "
				       "elements (dense_resource has no data)");
	for (size_t i = 0; i < out[0]->numel; i++)
		ttc_tensor_set(out[0], i, ttc_attr_dense_get(v, i));
	return 0;
}

int golden_fill(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		ttc_tensor *const *out, char *err, size_t len)
{
	const char *n = ttc_op_name(op);
	double v = 0;

	(void)in, (void)nin, (void)err, (void)len;
	if (!strcmp(n, "ttir.ones")) {
		v = 1;
	} else if (!strcmp(n, "ttir.full")) {
		const ttc_attr *a = ttc_op_attr(op, "fill_value");

		v = ttc_attr_kind(a) == TTC_ATTR_INT ? (double)ttc_attr_int(a) :
						       ttc_attr_float(a);
	}
	for (size_t i = 0; i < out[0]->numel; i++)
		ttc_tensor_set(out[0], i, v);
	return 0;
}

/* arange: start + i * step along arange_dimension, the same along the
 * other dimensions. */
int golden_arange(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		  ttc_tensor *const *out, char *err, size_t len)
{
	const ttc_type *t = out[0]->type;
	int64_t d = ttc_attr_int(ttc_op_attr(op, "arange_dimension"));
	int64_t s = ttc_attr_int(ttc_op_attr(op, "start"));
	int64_t step = ttc_attr_int(ttc_op_attr(op, "step"));
	int64_t idx[TTC_MAX_RANK] = { 0 };

	(void)in, (void)nin;
	if (d < 0 || d >= (int64_t)t->rank)
		return gfail(err, len, "arange_dimension %" PRId64
				       " is not a dimension", d);
	for (size_t i = 0; i < out[0]->numel; i++) {
		ttc_tensor_set(out[0], i, (double)(s + idx[d] * step));
		next_index(idx, t->dims, t->rank);
	}
	return 0;
}

/* pybuda.constant: one element, the attribute constant. */
int golden_pybuda_constant(const ttc_op *op, ttc_tensor *const *in,
			   size_t nin, ttc_tensor *const *out, char *err,
			   size_t len)
{
	(void)in, (void)nin, (void)err, (void)len;
	for (size_t i = 0; i < out[0]->numel; i++)
		ttc_tensor_set(out[0], i,
			       ttc_attr_float(ttc_op_attr(op, "constant")));
	return 0;
}
