// SPDX-License-Identifier: Apache-2.0
/*
 * cse: merges identical pure ops. Two ops are identical when they have
 * the same name, operands, properties, attributes (interned: the same
 * pointer) and result types; the later one's results are replaced by the
 * earlier one's, which dominates it (one block, in order). Locations do
 * not count. A hash table of the ops seen makes it one sweep.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static uint64_t mix(uint64_t h, const void *p)
{
	return (h ^ (uint64_t)(uintptr_t)p) * 0x100000001B3ull;
}

static uint64_t op_hash(const ttc_op *op)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const char *s = ttc_op_name(op); *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001B3ull;
	for (size_t i = 0; i < ttc_op_num_operands(op); i++)
		h = mix(h, ttc_op_operand(op, i));
	for (size_t i = 0; i < ttc_op_num_results(op); i++)
		h = mix(h, ttc_value_type(ttc_op_result(op, i)));
	h = mix(h, ttc_op_props(op));
	return mix(h, ttc_op_attrs(op));
}

static bool same(const ttc_op *a, const ttc_op *b)
{
	size_t n = ttc_op_num_operands(a), r = ttc_op_num_results(a);

	if (strcmp(ttc_op_name(a), ttc_op_name(b)) ||
	    n != ttc_op_num_operands(b) || r != ttc_op_num_results(b) ||
	    ttc_op_props(a) != ttc_op_props(b) ||
	    ttc_op_attrs(a) != ttc_op_attrs(b))
		return false;
	for (size_t i = 0; i < n; i++)
		if (ttc_op_operand(a, i) != ttc_op_operand(b, i))
			return false;
	for (size_t i = 0; i < r; i++)
		if (ttc_value_type(ttc_op_result(a, i)) !=
		    ttc_value_type(ttc_op_result(b, i)))
			return false;
	return true;
}

/* The earlier identical op, or NULL after recording op. */
static ttc_op *lookup(ttc_op **tab, size_t mask, ttc_op *op)
{
	size_t h = (size_t)op_hash(op) & mask;

	for (; tab[h]; h = (h + 1) & mask)
		if (same(tab[h], op))
			return tab[h];
	tab[h] = op;
	return NULL;
}

static int run(ttc_func *f, struct ttc_pass_ctx *pc)
{
	size_t cap = 16, mask;
	ttc_op **tab, *op, *next, *twin;
	int rc = 0;

	while (cap < 2 * ttc_func_num_ops(f) + 2)
		cap *= 2;
	mask = cap - 1;
	if (!(tab = calloc(cap, sizeof(*tab))))
		return pass_fail(pc, NULL, -ENOMEM, "out of memory");
	for (op = ttc_func_first_op(f); op && !rc; op = next) {
		next = ttc_op_next(op);
		if (!pass_op_is_pure(op) || !ttc_op_num_results(op) ||
		    !(twin = lookup(tab, mask, op)))
			continue;
		ttc_value *vals[16];
		size_t nr = ttc_op_num_results(op);

		if (nr > 16)
			continue;
		for (size_t i = 0; i < nr; i++)
			vals[i] = ttc_op_result(twin, i);
		if ((rc = pass_replace_op(op, vals)))
			rc = pass_fail(pc, op, rc, "cannot replace the op");
		else
			pc->stats->merged++;
	}
	free(tab);
	return rc;
}

const struct ttc_pass ttc_pass_cse = {
	.name = "cse",
	.summary = "merges identical ops",
	.run = run,
};
