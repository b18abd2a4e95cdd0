// SPDX-License-Identifier: Apache-2.0
/*
 * The model manifest (tt/model.h, docs/image.md "Manifest"): what the
 * writer emits the reader reads back to the same description (and the
 * same text); every check of the reader refuses its hostile input with a
 * message naming the fault: bad YAML, unknown keys, versions, names,
 * shapes, formats, kinds, slots, op records (unknown op, input counts,
 * attributes), use before definition, double writes, outputs never
 * written, slots shared by tensors alive at once, kernel keys.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tt/model.h"

static void expect_error(int ret, int code, const char *text)
{
	assert_int_equal(ret, code);
	if (!strstr(tt_last_error(), text))
		fail_msg("message \"%s\" lacks \"%s\"", tt_last_error(), text);
}

/* A small model: x -> linear(w, b) with gelu -> t0 -> softmax -> y.
 * t0 and a scratch t1 (the transpose of t0, read by nothing) share
 * slot 0 only if their lifetimes allow it. */
static const struct tt_model_tensor tensors[] = {
	{"x", {2, {32, 64}}, TT_FLOAT16_B, TT_MODEL_INPUT, false, -1, NULL,
	 TT_INVALID},
	{"w", {2, {64, 64}}, TT_FLOAT16_B, TT_MODEL_PARAM, false, -1,
	 "data/w", TT_FLOAT16_B},
	{"b", {1, {64}}, TT_FLOAT16_B, TT_MODEL_PARAM, false, -1, "data/b",
	 TT_FLOAT32},
	{"t0", {2, {32, 64}}, TT_FLOAT16_B, TT_MODEL_ACT, true, 0, NULL,
	 TT_INVALID},
	{"y", {2, {32, 64}}, TT_FLOAT16_B, TT_MODEL_OUTPUT, false, -1, NULL,
	 TT_INVALID},
};
static const struct tt_model_slot slots[] = {{true, 2048, 2}};
static const unsigned in0[] = {0, 1, 2};
static const unsigned in1[] = {3};
static const struct tt_model_attr a0[] = {{"activation", "gelu"},
					  {"grid", "8x7"},
					  {"fidelity", "HiFi4"}};
static const struct tt_model_attr a1[] = {{"scale", "0.5"},
					  {"causal", "false"}};
static const struct tt_model_op ops[] = {
	{"fc", "linear", in0, 3, 3, a0, 3},
	{"probs", "softmax", in1, 1, 4, a1, 2},
};
static const struct tt_model_program progs[] = {{"forward", ops, 2}};
static const char *const keys[] = {
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"};
static const struct tt_model_attr opts[] = {{"default_df", "Float16_b"},
					    {"quote\"d", "a\\b\nc"}};

static struct tt_model_desc good(void)
{
	return (struct tt_model_desc){
		.version = TT_MODEL_MANIFEST_VERSION,
		.arch = "wormhole_b0",
		.grid = {8, 7},
		.tensors = tensors,
		.ntensors = 5,
		.slots = slots,
		.nslots = 1,
		.programs = progs,
		.nprograms = 1,
		.kernels = keys,
		.nkernels = 1,
		.options = opts,
		.noptions = 2,
	};
}

static void emit_parse(const struct tt_model_desc *d, tt_model_manifest **m)
{
	char *text;
	size_t len;

	assert_int_equal(tt_model_desc_emit(d, &text, &len), 0);
	assert_int_equal(strlen(text), len);
	assert_int_equal(tt_model_desc_parse("t", text, len, m), 0);
	free(text);
}

static void round_trip(void **state)
{
	struct tt_model_desc d = good();
	const struct tt_model_desc *r;
	tt_model_manifest *m;
	char *t1, *t2;
	size_t l1, l2;

	(void)state;
	emit_parse(&d, &m);
	r = tt_model_manifest_desc(m);
	assert_string_equal(r->arch, "wormhole_b0");
	assert_int_equal(r->grid.x, 8);
	assert_int_equal(r->ntensors, 5);
	assert_string_equal(r->tensors[2].section, "data/b");
	assert_int_equal(r->tensors[2].data_format, TT_FLOAT32);
	assert_int_equal(r->tensors[3].slot, 0);
	assert_true(r->tensors[3].l1);
	assert_int_equal(r->slots[0].pages, 2);
	assert_int_equal(r->programs[0].ops[0].nin, 3);
	assert_int_equal(r->programs[0].ops[1].out, 4);
	assert_string_equal(r->programs[0].ops[0].attrs[0].value, "gelu");
	assert_string_equal(r->options[1].name, "quote\"d");
	assert_string_equal(r->options[1].value, "a\\b\nc");
	assert_string_equal(r->kernels[0], keys[0]);
	/* The text of what was read is the text written. */
	assert_int_equal(tt_model_desc_emit(&d, &t1, &l1), 0);
	assert_int_equal(tt_model_desc_emit(r, &t2, &l2), 0);
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);
	tt_model_manifest_free(m);
}

/* Parse text; expect code and a message with want. */
static void refuse(const char *text, int code, const char *want)
{
	tt_model_manifest *m = (void *)1;

	expect_error(tt_model_desc_parse("t", text, strlen(text), &m), code,
		     want);
	assert_null(m);
}

#define HEAD "tti: 1\narch: wormhole_b0\ngrid: [8, 7]\n"
#define X "  - {name: x, kind: input, shape: [32, 64], format: Float16_b}\n"
#define Y "  - {name: y, kind: output, shape: [32, 64], format: Float16_b}\n"
#define PROG(op) "programs:\n  - name: f\n    ops:\n" op
#define PROG0 "programs:\n  - name: f\n    ops: []\n"

static void refuses_yaml_and_header(void **state)
{
	(void)state;
	refuse("tti: [", -EINVAL, "t:2:1: invalid YAML");
	refuse("", -EINVAL, "empty");
	refuse("tti: 2\narch: a\ngrid: [1, 1]\n", -ENOTSUP, "version 2");
	refuse("tti: 1\narch: a\ngrid: [1, 1]\nextra: 1\n", -EINVAL,
	       "a known key");
	refuse("tti: 1\narch: a\ngrid: [1]\n", -EINVAL, "grid");
	refuse("tti: 1\narch: a\ngrid: [65, 1]\n", -EINVAL, "grid x");
	refuse(HEAD "tensors: []\nprograms: []\n", -EINVAL, "no program");
	refuse("a: &x 1\nb: *x\n", -EINVAL, "anchors");
}

static void refuses_tensors(void **state)
{
	(void)state;
	refuse(HEAD "tensors:\n" X X PROG0, -EINVAL, "defined twice");
	refuse(HEAD "tensors:\n  - {name: 'a b', kind: input, shape: [1], format: Float32}\n" PROG0,
	       -EINVAL, "bad name");
	refuse(HEAD "tensors:\n  - {name: a, kind: input, shape: [], format: Float32}\n" PROG0,
	       -EINVAL, "1..4 dims");
	refuse(HEAD "tensors:\n  - {name: a, kind: input, shape: [1,1,1,1,1], format: Float32}\n" PROG0,
	       -EINVAL, "shape");
	refuse(HEAD "tensors:\n  - {name: a, kind: input, shape: [0], format: Float32}\n" PROG0,
	       -EINVAL, "dimension 0 is 0");
	refuse(HEAD "tensors:\n  - {name: a, kind: input, shape: [4294967296], format: Float32}\n" PROG0,
	       -EINVAL, "shape");
	refuse(HEAD "tensors:\n  - {name: a, kind: input, shape: [1], format: Float64}\n" PROG0,
	       -EINVAL, "data format");
	refuse(HEAD "tensors:\n  - {name: a, kind: weight, shape: [1], format: Float32}\n" PROG0,
	       -EINVAL, "tensor kind");
	refuse(HEAD "tensors:\n  - {name: a, kind: param, shape: [1], format: Float32}\n" PROG0,
	       -EINVAL, "needs a data section");
	refuse(HEAD "tensors:\n  - {name: a, kind: param, shape: [32,32], format: Bfp8_b, data: {section: d, format: Bfp8_b}}\n" PROG0,
	       -EINVAL, "cannot be stored row-major");
	refuse(HEAD "tensors:\n  - {name: a, kind: act, shape: [1], format: Float32}\n" PROG0,
	       -EINVAL, "slot -1");
	refuse(HEAD "tensors:\n  - {name: a, kind: input, shape: [1], format: Float32, slot: 0}\nslots:\n  - {place: dram, page_size: 4096, pages: 1}\n" PROG0,
	       -EINVAL, "only activations");
	refuse(HEAD "tensors:\n  - {name: a, kind: act, shape: [64, 64], format: Float32, slot: 0}\nslots:\n  - {place: dram, page_size: 4096, pages: 3}\n" PROG0,
	       -EINVAL, "does not fit slot 0");
	refuse(HEAD "tensors:\n  - {name: a, kind: act, shape: [32], format: Float32, slot: 0}\nslots:\n  - {place: l1, page_size: 4096, pages: 3}\n" PROG0,
	       -EINVAL, "does not fit slot 0");
	refuse(HEAD "slots:\n  - {place: dram, page_size: 0, pages: 1}\n" PROG0,
	       -EINVAL, "is not a buffer");
	refuse(HEAD "kernels: [abc]\n" PROG0, -EINVAL, "portable key");
}

static void refuses_ops(void **state)
{
	(void)state;
	refuse(HEAD "tensors:\n" X Y PROG("      - {name: o, op: frobnicate, in: [x], out: y}\n"),
	       -EINVAL, "unknown op \"frobnicate\"");
	refuse(HEAD "tensors:\n" X Y PROG("      - {name: o, op: softmax, in: [x, x, x], out: y}\n"),
	       -EINVAL, "takes 1..2 inputs, has 3");
	refuse(HEAD "tensors:\n" X Y PROG("      - {name: o, op: softmax, in: [-], out: y}\n"),
	       -EINVAL, "takes 1..2 inputs");
	refuse(HEAD "tensors:\n" X Y PROG("      - {name: o, op: softmax, in: [z], out: y}\n"),
	       -EINVAL, "tensor reference");
	refuse(HEAD "tensors:\n" X Y PROG("      - {name: o, op: softmax, in: [x], out: x}\n"),
	       -EINVAL, "not an activation or output");
	refuse(HEAD "tensors:\n" X Y PROG("      - {name: o, op: softmax, in: [x], out: y, attrs: {colour: red}}\n"),
	       -EINVAL, "takes no attribute \"colour\"");
	refuse(HEAD "tensors:\n" X Y PROG("      - {name: o, op: softmax, in: [x], out: y, attrs: {scale: nan}}\n"),
	       -EINVAL, "attribute scale");
	refuse(HEAD "tensors:\n" X Y PROG("      - {name: o, op: unary, in: [x], out: y, attrs: {fn: frob}}\n"),
	       -EINVAL, "not a unary function");
	refuse(HEAD "tensors:\n" X Y PROG("      - {name: o, op: unary, in: [x], out: y, attrs: {fn: exp, grid: 0x3}}\n"),
	       -EINVAL, "attribute grid");
	refuse(HEAD "tensors:\n" X Y PROG("      - {name: o, op: unary, in: [x], out: y, attrs: {fn: exp, fidelity: HiFi9}}\n"),
	       -EINVAL, "attribute fidelity");
	refuse(HEAD "tensors:\n" X Y PROG("      - {name: o, op: reduce, in: [x], out: y, attrs: {fn: sum, dims: '0,7'}}\n"),
	       -EINVAL, "attribute dims");
	refuse(HEAD "tensors:\n" X Y PROG("      - {name: o, op: unary, in: [x], out: y, attrs: {fn: exp, fn: log}}\n"),
	       -EINVAL, "duplicate key");
	refuse(HEAD "tensors:\n" X Y "programs:\n  - name: f\n    ops: []\n",
	       -EINVAL, "never writes output y");
	refuse(HEAD "tensors:\n" X Y PROG("      - {name: o, op: unary, in: [x], out: y, attrs: {fn: exp}}\n"
					  "      - {name: p, op: unary, in: [x], out: y, attrs: {fn: exp}}\n"),
	       -EINVAL, "y is written twice");
}

/* Activations: read before written; two alive at once in one slot. */
static void refuses_lifetimes(void **state)
{
#define ACTS                                                                   \
	"  - {name: a, kind: act, shape: [32, 64], format: Float16_b, slot: 0}\n" \
	"  - {name: c, kind: act, shape: [32, 64], format: Float16_b, slot: 0}\n" \
	"slots:\n  - {place: dram, page_size: 2048, pages: 2}\n"
	(void)state;
	refuse(HEAD "tensors:\n" X Y "  - {name: a, kind: act, shape: [32, 64], format: Float16_b, slot: 0}\n"
	       "slots:\n  - {place: dram, page_size: 2048, pages: 2}\n"
	       PROG("      - {name: o, op: unary, in: [a], out: y, attrs: {fn: exp}}\n"),
	       -EINVAL, "reads a before any op writes it");
	/* a is read by the third op, after c (same slot) is written. */
	refuse(HEAD "tensors:\n" X Y ACTS
	       PROG("      - {name: o1, op: unary, in: [x], out: a, attrs: {fn: exp}}\n"
		    "      - {name: o2, op: unary, in: [x], out: c, attrs: {fn: exp}}\n"
		    "      - {name: o3, op: binary, in: [a, c], out: y, attrs: {fn: add}}\n"),
	       -EINVAL, "share slot 0 but are alive at once");
	/* The same slot reused after a's last read is fine. */
	{
		static const char ok[] = HEAD "tensors:\n" X Y ACTS
			PROG("      - {name: o1, op: unary, in: [x], out: a, attrs: {fn: exp}}\n"
			     "      - {name: o2, op: unary, in: [a], out: c, attrs: {fn: exp}}\n"
			     "      - {name: o3, op: unary, in: [c], out: y, attrs: {fn: exp}}\n");
		tt_model_manifest *m;

		/* o2 reads a while writing c into the same slot: an op must
		 * not write the slot of its own input. */
		expect_error(tt_model_desc_parse("t", ok, strlen(ok), &m),
			     -EINVAL, "alive at once");
	}
}

/* Emit refuses what the parser would: the writer checks first. */
static void emit_checks(void **state)
{
	struct tt_model_desc d = good();
	struct tt_model_tensor t[5];
	char *text = (void *)1;
	size_t len = 1;

	(void)state;
	memcpy(t, tensors, sizeof(t));
	t[3].slot = 5;
	d.tensors = t;
	expect_error(tt_model_desc_emit(&d, &text, &len), -EINVAL,
		     "slot 5 is not one of the 1 slots");
	assert_null(text);
	assert_int_equal(len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(refuses_yaml_and_header),
		cmocka_unit_test(refuses_tensors),
		cmocka_unit_test(refuses_ops),
		cmocka_unit_test(refuses_lifetimes),
		cmocka_unit_test(emit_checks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
