// SPDX-License-Identifier: Apache-2.0
/* The attributes of the node being converted, read with their defaults. */
#include <errno.h>
#include <string.h>

#include "internal.h"

const Onnx__AttributeProto *onx_attr(struct onx *im, const char *name)
{
	const onx_node *n = im->node;

	for (size_t i = 0; i < n->n_attribute; i++)
		if (n->attribute[i]->name &&
		    !strcmp(n->attribute[i]->name, name))
			return n->attribute[i];
	return NULL;
}

int64_t onx_attr_int(struct onx *im, const char *name, int64_t def)
{
	const Onnx__AttributeProto *a = onx_attr(im, name);

	return a && a->has_i ? a->i : def;
}

double onx_attr_float(struct onx *im, const char *name, double def)
{
	const Onnx__AttributeProto *a = onx_attr(im, name);

	if (!a)
		return def;
	if (a->has_f)
		return a->f;
	return a->has_i ? (double)a->i : def;
}

int onx_attr_ints(struct onx *im, const char *name, int64_t *out,
		  size_t max)
{
	const Onnx__AttributeProto *a = onx_attr(im, name);

	if (!a)
		return -ENOENT;
	if (a->n_ints > max)
		return onx_fail(im, "attribute '%s' has %zu values (at most "
				    "%zu)", name, a->n_ints, max);
	if (!a->n_ints && a->has_type &&
	    a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS)
		return onx_fail(im, "attribute '%s' is not a list of "
				    "integers", name);
	if (a->n_ints)
		memcpy(out, a->ints, a->n_ints * sizeof(*out));
	return (int)a->n_ints;
}

const char *onx_attr_str(struct onx *im, const char *name, const char *def)
{
	const Onnx__AttributeProto *a = onx_attr(im, name);

	if (!a || !a->has_s)
		return def;
	return ttc_intern(im->ctx, (const char *)a->s.data, a->s.len);
}
