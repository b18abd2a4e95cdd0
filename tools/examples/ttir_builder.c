// SPDX-License-Identifier: Apache-2.0
/*
 * tt-mlir's builder examples (its tools/builder/ documentation), in C
 * with libttc's builder (ttc/builder.h). Each section makes one module
 * and prints its TTIR on standard output; sections are separated by
 * "// -----" lines, so the output reads back with
 *
 *	example-ttir_builder | ttc parse --split-input-file -
 *
 * The program checks that itself (every module parses back, verifies
 * and prints the same) and ends with its verdict line on standard error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttc/builder.h"
#include "ttc/text.h"

#include "example.h"

/* One module per section, in printed text; NULL after a failure. */
typedef ttc_builder *(*section_fn)(ttc_ctx *ctx);

static const ttc_type *t32x32(ttc_builder *b)
{
	return ttc_builder_tensor(b, TTC_F32, 2, 32, 32);
}

/* "build ttir module": sigmoid of a 32x32 f32 input, with locations. */
static ttc_builder *build_ttir_module(ttc_ctx *ctx)
{
	ttc_builder *b = ttc_builder_new(ctx, NULL);
	const ttc_type *t = t32x32(b);
	ttc_value *in0;

	ttc_builder_func(b, "modela", &t, 1, &in0);
	TTC_HERE(b); /* the line of the call, as the Python builder does */
	ttc_value *sigmoid0 = ttc_sigmoid(b, in0);

	ttc_builder_return(b, &sigmoid0, 1);
	return b;
}

/* "override location": the op's location given by name. */
static ttc_builder *override_location(ttc_ctx *ctx)
{
	ttc_builder *b = ttc_builder_new(ctx, NULL);
	const ttc_type *t = t32x32(b);
	ttc_value *in0;

	ttc_builder_func(b, "modela", &t, 1, &in0);
	ttc_builder_loc(b, "tenstorrent://custom_location/sigmoid_op");
	ttc_value *sigmoid0 = ttc_sigmoid(b, in0);

	ttc_builder_return(b, &sigmoid0, 1);
	return b;
}

/* "add op attributes": a unit attribute on the op. */
static ttc_builder *op_attributes(ttc_ctx *ctx)
{
	ttc_builder *b = ttc_builder_new(ctx, NULL);
	const ttc_type *t = t32x32(b);
	ttc_value *in0;

	ttc_builder_func(b, "modela", &t, 1, &in0);
	ttc_builder_unit_attr(b, "ttir.should_hoist");
	ttc_value *sigmoid0 = ttc_sigmoid(b, in0);

	ttc_builder_return(b, &sigmoid0, 1);
	return b;
}

/* "multiple returns": several outputs marked at once (tt-mlir shows it
 * with batch_norm_training, which libttc does not register yet; here a
 * layer_norm and the mean it removed). */
static ttc_builder *multiple_returns(ttc_ctx *ctx)
{
	ttc_builder *b = ttc_builder_new(ctx, NULL);
	const ttc_type *t[] = { ttc_builder_tensor(b, TTC_F32, 4, 2, 16, 32, 32),
				ttc_builder_tensor(b, TTC_F32, 1, 32),
				ttc_builder_tensor(b, TTC_F32, 1, 32) };
	ttc_value *in[3], *out[2];
	static const int last = -1;

	ttc_builder_func(b, "layer_norm", t, 3, in);
	out[0] = ttc_layer_norm(b, in[0], in[1], in[2], 1, 1e-5f);
	out[1] = ttc_mean(b, in[0], &last, 1, true);
	ttc_builder_return(b, out, 2);
	return b;
}

/* "set inputs/outputs": inputs with data (zeros and ones; then seeded
 * random ones, as torch.randn). The library's goldens compute every op
 * as it is built; the section checks add_result's against the sum. */
static ttc_builder *inputs_with_data(ttc_ctx *ctx)
{
	ttc_builder *b = ttc_builder_new(ctx, NULL);
	const ttc_type *t[] = { t32x32(b), t32x32(b) };
	ttc_value *in[2];
	static float zeros[32 * 32], ones[32 * 32];

	for (size_t i = 0; i < 32 * 32; i++)
		ones[i] = 1.0f;
	ttc_builder_func(b, "test_with_mixed_init", t, 2, in);
	if (ttc_builder_use_goldens(b, TT_FLOAT32) ||
	    ttc_builder_set_data(b, in[0], zeros, sizeof(zeros)) ||
	    ttc_builder_set_data(b, in[1], ones, sizeof(ones)) ||
	    ttc_builder_set_random(b, in[1], 2026))
		return ttc_builder_free(b), NULL;
	ttc_value *add_result = ttc_add(b, in[0], in[1]);
	const float *x = ttc_builder_data(b, in[0], NULL);
	const float *y = ttc_builder_data(b, in[1], NULL);
	const float *g = ttc_builder_data(b, add_result, NULL);

	for (size_t i = 0; g && i < 32 * 32; i++)
		if (g[i] != x[i] + y[i])
			g = NULL;
	if (!g) {
		fprintf(stderr, EX_NAME ": add_result's golden is not in0 + "
				"in1\n");
		return ttc_builder_free(b), NULL;
	}
	ttc_builder_return(b, &add_result, 1);
	return b;
}

/* "set inputs/outputs with custom goldens": seeded inputs (torch.randn's
 * place), then add_result's golden given by hand (set_operand_goldens):
 * the given bytes replace the computed ones in the golden map. */
static ttc_builder *custom_goldens(ttc_ctx *ctx)
{
	ttc_builder *b = ttc_builder_new(ctx, NULL);
	const ttc_type *t[] = { t32x32(b), t32x32(b) };
	ttc_value *in[2];
	static float sum[32 * 32];

	ttc_builder_func(b, "test_with_mixed_init", t, 2, in);
	if (ttc_builder_use_goldens(b, TT_FLOAT32) ||
	    ttc_builder_set_random(b, in[0], 1) ||
	    ttc_builder_set_random(b, in[1], 2))
		return ttc_builder_free(b), NULL;
	const float *x = ttc_builder_data(b, in[0], NULL);
	const float *y = ttc_builder_data(b, in[1], NULL);

	for (size_t i = 0; i < 32 * 32; i++)
		sum[i] = x[i] + y[i];
	ttc_value *add_result = ttc_add(b, in[0], in[1]);

	if (ttc_builder_set_data(b, add_result, sum, sizeof(sum)) ||
	    ttc_builder_golden_count(b) != 1)
		return ttc_builder_free(b), NULL;
	ttc_builder_return(b, &add_result, 1);
	return b;
}

/* "change output dtype for mixed precision": f32 in, bf16 out. */
static ttc_builder *mixed_precision(ttc_ctx *ctx)
{
	ttc_builder *b = ttc_builder_new(ctx, NULL);
	const ttc_type *t = t32x32(b);
	ttc_value *in0;

	ttc_builder_func(b, "modela", &t, 1, &in0);
	ttc_builder_output_elem(b, ttc_float_type(ctx, TTC_BF16));
	ttc_value *sigmoid0 = ttc_sigmoid(b, in0);

	ttc_builder_return(b, &sigmoid0, 1);
	return b;
}

/* One sigmoid function, optionally calling a nested helper. */
static void sigmoid_func(ttc_builder *b, const char *name, bool nested)
{
	const ttc_type *t = t32x32(b);
	ttc_value *in0, *nin, *y;

	ttc_builder_func(b, name, &t, 1, &in0);
	ttc_value *sigmoid0 = ttc_sigmoid(b, in0);

	if (nested) {
		/* Opened inside my_modela: built whole, private. */
		ttc_builder_func(b, "nested_func", &t, 1, &nin);
		y = ttc_sigmoid(b, nin);
		ttc_builder_return(b, &y, 1);
		ttc_builder_call(b, "nested_func", &sigmoid0, 1, &sigmoid0);
	}
	ttc_builder_return(b, &sigmoid0, 1);
}

/* "build multiple functions". */
static ttc_builder *multiple_functions(ttc_ctx *ctx)
{
	ttc_builder *b = ttc_builder_new(ctx, NULL);

	sigmoid_func(b, "modela", false);
	sigmoid_func(b, "modelb", false);
	return b;
}

/* "build nested functions": my_modela calls nested_func. */
static ttc_builder *nested_functions(ttc_ctx *ctx)
{
	ttc_builder *b = ttc_builder_new(ctx, NULL);

	sigmoid_func(b, "my_modela", true);
	sigmoid_func(b, "my_modelb", false);
	return b;
}

/* "build device module graph": the same inside ttcore.device_module. */
static ttc_builder *device_module(ttc_ctx *ctx)
{
	ttc_builder *b = ttc_builder_new(ctx, NULL);

	ttc_builder_device_module(b);
	sigmoid_func(b, "my_modela", true);
	sigmoid_func(b, "my_modelb", false);
	ttc_builder_end_module(b);
	return b;
}

static const struct {
	const char *name;
	section_fn fn;
	unsigned print;
} sections[] = {
	{ "build ttir module", build_ttir_module, TTC_PRINT_LOC },
	{ "override location", override_location, TTC_PRINT_LOC },
	{ "add op attributes", op_attributes, 0 },
	{ "multiple returns", multiple_returns, 0 },
	{ "set inputs/outputs", inputs_with_data, 0 },
	{ "set inputs/outputs with custom goldens", custom_goldens, 0 },
	{ "change output dtype for mixed precision", mixed_precision, 0 },
	{ "build multiple functions", multiple_functions, 0 },
	{ "build nested functions", nested_functions, 0 },
	{ "build device module graph", device_module, 0 },
};

/* The text parses back, verifies and prints the same. */
static bool reads_back(ttc_ctx *ctx, const char *text, unsigned flags)
{
	ttc_module *m = ttc_parse(ctx, "section", text, strlen(text), 0);
	char *again = m && !ttc_module_verify(m) ? ttc_print(m, flags, NULL) :
						   NULL;
	bool same = again && !strcmp(again, text);

	free(again);
	ttc_module_free(m);
	return same;
}

static int run_section(size_t i)
{
	ttc_ctx *ctx = ttc_ctx_new();
	ttc_builder *b = sections[i].fn(ctx);
	ttc_module *m = ttc_builder_module(b);
	char *text = m && !ttc_ctx_diag_count(ctx) && !ttc_module_verify(m) ?
			     ttc_print(m, sections[i].print, NULL) :
			     NULL;
	int ok = text && reads_back(ctx, text, sections[i].print);

	printf("%s// %s\n%s", i ? "// -----\n" : "", sections[i].name,
	       text ? text : "");
	if (!ok)
		fprintf(stderr, EX_NAME ": section '%s': %s\n",
			sections[i].name, ttc_ctx_error(ctx));
	free(text);
	ttc_builder_free(b);
	ttc_ctx_free(ctx);
	return ok;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: " EX_NAME "\n"
		   "Builds tt-mlir's builder examples with libttc's builder and "
		   "prints their\nTTIR, sections separated by '// -----'.\n"
		   "\n"
		   "  --help     this help\n"
		   "  --version  the version\n"
		   "\n"
		   "Exit status: 0 every module read back; 1 one did not; 2 "
		   "usage error.\n");
}

int main(int argc, char **argv)
{
	size_t n = sizeof(sections) / sizeof(sections[0]), passed = 0;
	char detail[64];

	ex_no_args(argc, argv, usage);
	for (size_t i = 0; i < n; i++)
		passed += run_section(i);
	fflush(stdout);
	snprintf(detail, sizeof(detail), "%zu of %zu modules read back", passed,
		 n);
	/* The verdict goes to stderr: stdout is TTIR for ttc parse. */
	fprintf(stderr, EX_NAME ": %s (%s)\n", passed == n ? "PASS" : "FAIL",
		detail);
	return passed == n ? 0 : EX_EXIT_FAIL;
}
