// SPDX-License-Identifier: Apache-2.0
/* Helpers of the ops' shape inference. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "shape.h"

int fail(struct ttc_infer *in, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(in->err, sizeof(in->err), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

const char *type_text(const ttc_type *t, char *buf, size_t n)
{
	ttc_type_format(t, buf, n);
	return buf;
}

const char *operand_name(struct ttc_infer *in, size_t i, char *buf, size_t n)
{
	const struct ttc_op_def *d = in->def;
	size_t k = i < d->noperands ? i : d->noperands - 1;

	snprintf(buf, n, "operand #%zu (%s)", i, d->noperands ?
			d->operands[k] : "?");
	return buf;
}

const ttc_type *operand_tensor(struct ttc_infer *in, size_t i, int *rc)
{
	char nb[64], tb[128];

	if (i >= in->nin) {
		*rc = fail(in, "is missing %s", operand_name(in, i, nb,
							     sizeof(nb)));
		return NULL;
	}
	if (in->in[i]->kind != TTC_TYPE_TENSOR) {
		*rc = fail(in, "%s must be a ranked tensor, got %s",
			   operand_name(in, i, nb, sizeof(nb)),
			   type_text(in->in[i], tb, sizeof(tb)));
		return NULL;
	}
	*rc = 0;
	return in->in[i];
}

const ttc_type *make_tensor(struct ttc_infer *in, const int64_t *dims,
			    unsigned n, const ttc_type *elem)
{
	for (unsigned i = 0; i < n; i++) {
		if (dims[i] < 0) {
			fail(in, "gives a negative result dimension %u (%" PRId64
				 ")",
			     i, dims[i]);
			return NULL;
		}
	}
	if (n > TTC_MAX_RANK) {
		fail(in, "gives a result of rank %u, above %d", n,
		     TTC_MAX_RANK);
		return NULL;
	}
	return ttc_tensor_type(in->ctx, dims, n, elem, NULL);
}

int norm_dim(struct ttc_infer *in, const char *attr, int64_t d,
	     unsigned rank, unsigned *out)
{
	int64_t r = rank;

	if (d < -r || d >= r || rank == 0)
		return fail(in, "attribute '%s' is %" PRId64 ", out of range "
				"for rank %u (expected %" PRId64 "..%" PRId64
				")",
			    attr, d, rank, -r, r - 1);
	*out = (unsigned)(d < 0 ? d + r : d);
	return 0;
}

int attr_ints(struct ttc_infer *in, const char *attr, int64_t *v,
	      size_t max, bool optional)
{
	const ttc_attr *a = ttc_infer_attr(in, attr);

	if (!a) {
		if (optional)
			return -ENOENT;
		return fail(in, "requires attribute '%s' (a list of integers)",
			    attr);
	}
	int n = ttc_attr_ints(a, v, max);

	if (n == -E2BIG)
		return fail(in, "attribute '%s' has more than %zu entries",
			    attr, max);
	if (n < 0)
		return fail(in, "attribute '%s' must be a list of integers",
			    attr);
	return n;
}

int broadcast2(struct ttc_infer *in, const ttc_type *a, size_t ia,
	       const ttc_type *b, size_t ib, int64_t *dims, unsigned *rank)
{
	unsigned r = a->rank > b->rank ? a->rank : b->rank;
	char na[64], nb[64], ta[128], tb[128];

	for (unsigned k = 0; k < r; k++) {
		int64_t x = k < r - a->rank ? 1 : a->dims[k - (r - a->rank)];
		int64_t y = k < r - b->rank ? 1 : b->dims[k - (r - b->rank)];

		if (x != y && x != 1 && y != 1)
			return fail(in, "%s of type %s and %s of type %s do "
					"not broadcast: dimension %u is %" PRId64
					" against %" PRId64,
				    operand_name(in, ia, na, sizeof(na)),
				    type_text(a, ta, sizeof(ta)),
				    operand_name(in, ib, nb, sizeof(nb)),
				    type_text(b, tb, sizeof(tb)), k, x, y);
		dims[k] = x == 1 ? y : x;
	}
	*rank = r;
	return 0;
}

int same_elem(struct ttc_infer *in, size_t ia, size_t ib)
{
	const ttc_type *a = in->in[ia]->elem, *b = in->in[ib]->elem;
	char na[64], nb[64], ta[32], tb[32];

	if (a == b)
		return 0;
	return fail(in, "%s and %s must have the same element type, got %s "
			"and %s",
		    operand_name(in, ia, na, sizeof(na)),
		    operand_name(in, ib, nb, sizeof(nb)),
		    type_text(a, ta, sizeof(ta)), type_text(b, tb, sizeof(tb)));
}

int infer_same_type(struct ttc_infer *in, const ttc_type **out)
{
	int rc;
	const ttc_type *t = operand_tensor(in, 0, &rc);

	if (!t)
		return rc;
	out[0] = ttc_tensor_type(in->ctx, t->dims, t->rank, t->elem, NULL);
	return 0;
}

int operand_rank4(struct ttc_infer *in, size_t i, const ttc_type **t)
{
	int rc;
	char nb[64], tb[128];

	if (!(*t = operand_tensor(in, i, &rc)))
		return rc;
	if ((*t)->rank != 4)
		return fail(in, "%s must have rank 4, got %s",
			    operand_name(in, i, nb, sizeof(nb)),
			    type_text(*t, tb, sizeof(tb)));
	return 0;
}

int check_conv_bias(struct ttc_infer *in, int64_t o)
{
	int rc;
	const ttc_type *b;
	char tb[128];

	if (in->nin < 3)
		return 0;
	if (!(b = operand_tensor(in, 2, &rc)))
		return rc;
	if (ttc_type_numel(b) != o)
		return fail(in, "operand #2 (bias) %s must hold the %" PRId64
				" output channels, one value each",
			    type_text(b, tb, sizeof(tb)), o);
	return 0;
}

const ttc_type *with_hwc(struct ttc_infer *in, const ttc_type *t,
			 const unsigned *nhwc, const int64_t *hw, int64_t c)
{
	int64_t dims[4];

	memcpy(dims, t->dims, sizeof(dims));
	dims[nhwc[1]] = hw[0];
	dims[nhwc[2]] = hw[1];
	dims[nhwc[3]] = c;
	return make_tensor(in, dims, 4, t->elem);
}
