// SPDX-License-Identifier: Apache-2.0
/* One op's golden: results allocated, inputs checked, the device's
 * rounding applied around it when asked. */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

static ttc_ctx *ctx_of(const ttc_op *op)
{
	return ttc_module_ctx(ttc_func_module(ttc_op_func(op)));
}

static void free_all(ttc_tensor **t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		ttc_tensor_free(t[i]);
		t[i] = NULL;
	}
}

/* Copies of the inputs rounded through fmt (in[] when fmt is fp32). */
static int round_inputs(ttc_ctx *ctx, ttc_tensor *const *in, size_t nin,
			ttc_tensor **copy, enum tt_data_format fmt)
{
	for (size_t i = 0; i < nin; i++) {
		copy[i] = ttc_tensor_clone(in[i]);
		int rc = copy[i] ? ttc_tensor_round(ctx, copy[i], fmt) : -ENOMEM;

		if (rc) {
			free_all(copy, i + 1);
			return rc;
		}
	}
	return 0;
}

static int run(const ttc_op *op, ttc_golden_fn fn, ttc_tensor *const *in,
	       size_t nin, ttc_tensor **out, enum tt_data_format fmt)
{
	ttc_ctx *ctx = ctx_of(op);
	size_t nres = ttc_op_num_results(op);
	char err[256] = "";
	int rc;

	for (size_t i = 0; i < nres; i++)
		if (!(out[i] = ttc_tensor_new(ctx, ttc_value_type(
						       ttc_op_result(op, i))))) {
			free_all(out, i);
			ttc_op_error(op, "'%s' op result #%zu has no host "
					 "tensor type", ttc_op_name(op), i);
			return -EINVAL;
		}
	rc = fn(op, in, nin, out, err, sizeof(err));
	for (size_t i = 0; !rc && i < nres; i++)
		rc = ttc_tensor_round(ctx, out[i], fmt);
	if (rc) {
		free_all(out, nres);
		ttc_op_error(op, "'%s' op golden failed: %s", ttc_op_name(op),
			     err[0] ? err : "data format");
	}
	return rc;
}

int ttc_golden_op(const ttc_op *op, ttc_tensor *const *in, size_t nin,
		  ttc_tensor **out, enum tt_data_format fmt)
{
	ttc_golden_fn fn = ttc_golden_lookup(ttc_op_name(op));
	int rc;

	if (!fn) {
		ttc_op_error(op, "'%s' op has no golden", ttc_op_name(op));
		return -ENOTSUP;
	}
	if (nin != ttc_op_num_operands(op)) {
		ttc_op_error(op, "'%s' op golden given %zu inputs for %zu "
				 "operands", ttc_op_name(op), nin,
			     ttc_op_num_operands(op));
		return -EINVAL;
	}
	for (size_t i = 0; i < nin; i++)
		if (!in[i] || in[i]->numel != (size_t)ttc_type_numel(
						   ttc_value_type(ttc_op_operand(op, i)))) {
			ttc_op_error(op, "'%s' op golden input #%zu does not "
					 "match the operand's type",
				     ttc_op_name(op), i);
			return -EINVAL;
		}
	if (fmt == TT_FLOAT32)
		return run(op, fn, in, nin, out, fmt);
	ttc_tensor **copy = calloc(nin + 1, sizeof(*copy));

	rc = copy ? round_inputs(ctx_of(op), in, nin, copy, fmt) : -ENOMEM;
	if (rc) {
		free(copy);
		ttc_op_error(op, "'%s' op cannot round the inputs to %s",
			     ttc_op_name(op), tt_data_format_name(fmt));
		return rc;
	}
	rc = run(op, fn, copy, nin, out, fmt);
	free_all(copy, nin);
	free(copy);
	return rc;
}
