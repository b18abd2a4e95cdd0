/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ttc merge's model: several compiled models' descriptions as one
 * (merge_desc.c), each input's names under its namespace, its data
 * sections renamed, its slots renumbered, kernels deduplicated by key.
 * docs/ttc.md, "ttc merge".
 */
#ifndef TTC_CLI_MERGE_H
#define TTC_CLI_MERGE_H

#include "model_view.h"

/* The data section of tensor t of input model m: "d/M/T" (at most 25
 * characters, under the container's 39). */
#define MERGE_SECTION_MAX 32

struct merge_in {
	const char *path;
	const char *ns; /* the namespace, "mlp" (names become "mlp/x") */
	tt_image *img;
	tt_model_manifest *man;
	const struct tt_model_desc *d;
	unsigned t0, s0; /* its first tensor and slot in the merged model */
};

struct merge_kernel {
	const char *key;
	const struct merge_in *from; /* the first input that has it */
};

/* The merged model: d points into the arrays and strings below. */
struct merge_out {
	struct tt_model_desc d;
	struct merge_kernel *kernels;
	void **mem; /* every allocation, freed by merge_free */
	size_t nmem, capmem;
};

/* Builds out from n checked inputs; the ELFs of two inputs under one key
 * must be the same bytes. 0, else EXIT_FAIL with a message on stderr. */
int merge_build(struct merge_in *in, unsigned n, struct merge_out *out);
void merge_free(struct merge_out *out);

#endif /* TTC_CLI_MERGE_H */
