// SPDX-License-Identifier: Apache-2.0
/* ttc_build: one op through the registry (inference, then the
 * verifier), and the options of the next op. */
#include <errno.h>
#include <string.h>

#include "tools/ttc/ir/internal.h"

#include "internal.h"

void ttc_builder_reset_next(ttc_builder *b)
{
	b->loc = NULL;
	b->nunits = 0;
	b->out_elem = b->out_type = NULL;
}

void ttc_builder_loc(ttc_builder *b, const char *name)
{
	if (b && name)
		b->loc = ttc_loc_name(b->ctx, name, NULL);
}

void ttc_builder_loc_file(ttc_builder *b, const char *file, unsigned line)
{
	if (b && file)
		b->loc = ttc_loc_file(b->ctx, file, line, 0);
}

void ttc_builder_unit_attr(ttc_builder *b, const char *name)
{
	if (b && name && b->nunits < TTC_BUILDER_MAX_UNIT)
		b->units[b->nunits++] = name;
}

void ttc_builder_output_elem(ttc_builder *b, const ttc_type *elem)
{
	if (b)
		b->out_elem = elem;
}

void ttc_builder_output_type(ttc_builder *b, const ttc_type *t)
{
	if (b)
		b->out_type = t;
}

ttc_op *ttc_builder_last_op(const ttc_builder *b)
{
	return b ? b->last : NULL;
}

static const ttc_attr *unit_attrs(ttc_builder *b)
{
	struct ttc_named_attr e[TTC_BUILDER_MAX_UNIT];

	for (unsigned i = 0; i < b->nunits; i++)
		e[i] = (struct ttc_named_attr){ b->units[i],
						ttc_unit_attr(b->ctx) };
	return b->nunits ? ttc_dict_attr(b->ctx, e, b->nunits) : NULL;
}

/* The result types: inferred, then the options' element type or type. */
static int result_types(ttc_builder *b, const struct ttc_op_def *d,
			const ttc_type *const *in, size_t n,
			const ttc_attr *props, const ttc_type **out)
{
	if (b->out_type && d->nresults == 1) {
		out[0] = b->out_type;
		return 0;
	}
	if (ttc_op_infer(b->ctx, d, in, n, props, out))
		return -EINVAL;
	for (unsigned i = 0; b->out_elem && i < d->nresults; i++)
		out[i] = ttc_tensor_type_with_elem(b->ctx, out[i], b->out_elem);
	return 0;
}

static ttc_op *make_op(ttc_builder *b, const struct ttc_op_def *d,
		       ttc_value *const *operands, size_t n,
		       const ttc_attr *props)
{
	const ttc_type *in[64], *out[8];

	if (n > 64 || d->nresults > 8 ||
	    (d->flags & TTC_OPF_VARIADIC_RESULTS)) {
		ttc_diag_addf(b->ctx, "'%s' op: the builder makes it with "
				      "ttc_builder_call or not at all",
			      d->name);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		in[i] = ttc_value_type(operands[i]);
	if (result_types(b, d, in, n, props, out))
		return NULL;
	ttc_op *op = ttc_op_create(b->cur, d->name, operands, n, out,
				   d->nresults, props, unit_attrs(b), b->loc);

	if (op && ttc_op_verify(op)) {
		ttc_op_erase(op);
		return NULL;
	}
	return op;
}

ttc_value *ttc_build(ttc_builder *b, const char *name,
		     ttc_value *const *operands, size_t n,
		     const ttc_attr *props)
{
	if (!b || !name || (n && !operands))
		return NULL;
	const struct ttc_op_def *d = ttc_lookup_op(b->ctx, name);
	ttc_op *op = NULL;

	if (!d)
		ttc_diag_addf(b->ctx, "'%s': no such op", name);
	else if (!b->nopen)
		ttc_diag_addf(b->ctx, "'%s' op: no open function "
				      "(ttc_builder_func)", name);
	for (size_t i = 0; d && b->nopen && i < n; i++)
		if (!operands[i]) {
			ttc_diag_addf(b->ctx, "'%s' op: operand #%zu is NULL "
					      "(an op before failed)",
				      d->name, i);
			d = NULL;
		}
	if (d && b->nopen)
		op = make_op(b, d, operands, n, props);
	ttc_builder_reset_next(b);
	if (!op)
		return NULL;
	ttc_func_append(b->open[b->nopen - 1], op);
	if (ttc_builder_run_golden(b, op)) {
		ttc_op_detach(op);
		ttc_op_erase(op);
		return NULL;
	}
	b->last = op;
	return ttc_op_num_results(op) ? ttc_op_result(op, 0) : NULL;
}
