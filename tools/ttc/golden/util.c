// SPDX-License-Identifier: Apache-2.0
/* Helpers of the goldens: messages, strides, broadcast indexing. */
#include <errno.h>
#include <stdio.h>

#include "internal.h"

int gfail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void strides_of(const ttc_type *t, int64_t *st)
{
	int64_t s = 1;

	for (unsigned i = t->rank; i-- > 0;) {
		st[i] = s;
		s *= t->dims[i];
	}
}

size_t bcast_index(const ttc_type *src, const int64_t *idx, unsigned orank)
{
	if (src->rank == 0)
		return 0;
	int64_t st[TTC_MAX_RANK];
	size_t off = 0;
	unsigned lead = orank - src->rank;

	strides_of(src, st);
	for (unsigned i = 0; i < src->rank; i++)
		if (src->dims[i] != 1)
			off += (size_t)(idx[lead + i] * st[i]);
	return off;
}

bool next_index(int64_t *idx, const int64_t *dims, unsigned rank)
{
	for (unsigned i = rank; i-- > 0;) {
		if (++idx[i] < dims[i])
			return true;
		idx[i] = 0;
	}
	return false;
}

unsigned norm_dim_of(int64_t d, unsigned rank)
{
	return (unsigned)(d < 0 ? d + rank : d);
}

int op_ints(const ttc_op *op, const char *name, int64_t *v)
{
	const ttc_attr *a = ttc_op_attr(op, name);

	if (!a)
		return -1;
	if (ttc_attr_kind(a) == TTC_ATTR_INT) {
		v[0] = ttc_attr_int(a);
		return 1;
	}
	return ttc_attr_ints(a, v, TTC_MAX_RANK);
}

int op_hw(const ttc_op *op, const char *name, int64_t *v)
{
	int64_t t[TTC_MAX_RANK];
	int n = op_ints(op, name, t);

	if (n == 1)
		t[1] = t[0];
	else if (n != 2)
		return -1;
	v[0] = t[0];
	v[1] = t[1];
	return 0;
}

int op_padding(const ttc_op *op, int64_t *p)
{
	int64_t t[TTC_MAX_RANK];
	int n = op_ints(op, "padding", t);

	if (n != 1 && n != 2 && n != 4)
		return -1;
	for (int i = 0; i < 4; i++)
		p[i] = n == 1 ? t[0] : n == 2 ? t[i % 2] : t[i];
	return 0;
}
