/* SPDX-License-Identifier: Apache-2.0 */
/* The builder's state, shared by the files of builder/. */
#ifndef TTC_BUILDER_INTERNAL_H
#define TTC_BUILDER_INTERNAL_H

#include "ttc/builder.h"

#define TTC_BUILDER_MAX_NEST 16
#define TTC_BUILDER_MAX_UNIT 8

/* Host data of one value. */
struct ttc_bdata {
	const ttc_value *v;
	void *data;
	size_t nbytes;
	char *name; /* its name in the golden map; NULL for an argument */
};

struct ttc_builder {
	ttc_ctx *ctx;
	ttc_module *top;      /* NULL once taken */
	ttc_module *cur;      /* where new functions go */
	ttc_func *open[TTC_BUILDER_MAX_NEST]; /* functions being built */
	unsigned nopen;
	ttc_op *last;
	/* options of the next op */
	const ttc_loc *loc;
	const char *units[TTC_BUILDER_MAX_UNIT];
	unsigned nunits;
	const ttc_type *out_elem, *out_type;
	/* value -> data */
	struct ttc_bdata *data;
	size_t ndata, datacap;
	size_t nnamed; /* entries with a name: the golden map's size */
	ttc_builder_golden_fn golden;
	void *golden_user;
	uint64_t golden_limit; /* the library's goldens: 0, or the largest
				  result they compute, in bytes */
};

/* Forgets the options of the next op. */
void ttc_builder_reset_next(ttc_builder *b);
/* Calls the golden hook for op when all its operands have data. */
int ttc_builder_run_golden(ttc_builder *b, const ttc_op *op);
void ttc_builder_free_data(ttc_builder *b);
/* Names an op result's first data in the golden map (golden.c). */
void ttc_builder_name_entry(ttc_builder *b, struct ttc_bdata *d);

#endif /* TTC_BUILDER_INTERNAL_H */
