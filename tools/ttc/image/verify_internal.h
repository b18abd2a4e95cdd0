/* SPDX-License-Identifier: Apache-2.0 */
/* Verification's private parts (verify.c, verify_golden.c,
 * verify_report.c; ttc/verify.h). */
#ifndef TTC_IMAGE_VERIFY_INTERNAL_H
#define TTC_IMAGE_VERIFY_INTERNAL_H

#include "tt/tensor.h"
#include "ttc/verify.h"

/* The golden of every value of a function: its arguments' and every
 * op result's, after fused activations. */
struct vg_entry {
	const ttc_value *v;
	ttc_tensor *t;
};

struct vg_map {
	struct vg_entry *e;
	size_t n, cap;
};

/* Run f's goldens (fmt: as ttc_golden_opts) on args (one per argument)
 * into map; each op with ttc.activation has it applied to its result
 * before later ops read it, as the device does. 0 or -errno with a
 * diagnostic in ctx. */
int vg_run(ttc_ctx *ctx, ttc_func *f, ttc_tensor *const *args,
	   enum tt_data_format fmt, struct vg_map *map);
const ttc_tensor *vg_find(const struct vg_map *map, const ttc_value *v);
void vg_free(struct vg_map *map);

/* A host tensor of type t from a libtt tensor of as many elements. */
int vg_from_tt(ttc_ctx *ctx, const ttc_type *t, const tt_tensor *x,
	       ttc_tensor **out);

/* Statistics of n values. */
void verify_stats(const double *v, size_t n, struct ttc_verify_stats *out);
void verify_stats_tensor(const ttc_tensor *t, struct ttc_verify_stats *out);

#endif /* TTC_IMAGE_VERIFY_INTERNAL_H */
