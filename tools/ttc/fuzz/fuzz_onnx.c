// SPDX-License-Identifier: Apache-2.0
/*
 * libFuzzer target of the ONNX importer: any bytes must give a module
 * that verifies or a diagnostic, never a crash, a leak, undefined
 * behaviour or a huge allocation (malformed protobufs, hostile shapes,
 * huge dims, cycles, missing inputs). External data is refused (no
 * directory is given). A module that imports is printed and run on the
 * goldens with zeroed inputs when it is small.
 */
#include <stdint.h>
#include <stdlib.h>

#include "ttc/onnx.h"
#include "ttc/ops.h"
#include "ttc/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static ttc_ctx *ctx;

/* Inputs of at most this many elements in all are run. */
#define RUN_LIMIT 4096

static void run_small(ttc_onnx_model *om)
{
	ttc_func *f = ttc_onnx_func(om);
	size_t na = ttc_func_num_args(f), nr = ttc_func_num_results(f);
	ttc_tensor *args[64] = {NULL}, *res[64] = {NULL};
	int64_t total = 0;

	if (na > 64 || nr > 64)
		return;
	for (size_t i = 0; i < na; i++)
		total += ttc_type_numel(ttc_value_type(ttc_func_arg(f, i)));
	for (size_t i = 0; i < nr; i++)
		total += ttc_type_numel(ttc_func_result_type(f, i));
	if (total > RUN_LIMIT)
		return;
	for (size_t i = 0; i < na; i++) {
		const ttc_tensor *p = ttc_onnx_param(om, f, i);

		args[i] = p ? ttc_tensor_clone(p)
			    : ttc_tensor_new(ctx, ttc_value_type(ttc_func_arg(f, i)));
		if (!args[i])
			goto out;
	}
	ttc_golden_run(f, args, na, res, NULL); /* may fail; never crash */
out:
	for (size_t i = 0; i < na; i++)
		ttc_tensor_free(args[i]);
	for (size_t i = 0; i < nr; i++)
		ttc_tensor_free(res[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ttc_onnx_options o = ttc_onnx_defaults();
	ttc_onnx_model *om = NULL;

	if (!ctx)
		ctx = ttc_ctx_new_ttir();
	o.default_dim = size && (data[0] & 1) ? 2 : 0;
	if (!ttc_onnx_import_bytes(ctx, data, size, &o, &om)) {
		size_t len;
		char *text = ttc_print(ttc_onnx_module(om), TTC_PRINT_LOC, &len);

		if (!text || ttc_module_verify(ttc_onnx_module(om)))
			abort(); /* an imported module always verifies */
		free(text);
		run_small(om);
		ttc_onnx_model_free(om);
	} else if (!ttc_ctx_diag_count(ctx)) {
		abort(); /* a failure always says why */
	}
	ttc_ctx_clear_diags(ctx);
	return 0;
}
