/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Matmul's plan (internal to lib/ops/matmul*.c): the shapes, the config
 * with every "auto" resolved and checked, the cache key; matmul_plan.c
 * makes it, matmul.c builds and runs its program.
 */
#ifndef TT_LIB_OPS_MATMUL_PLAN_H
#define TT_LIB_OPS_MATMUL_PLAN_H

#include <string.h>

#include "ops_internal.h"

/* K tiles per matmul_block_k when the op chooses: fewer, larger
 * commands cost less host time on the model. */
#define AUTO_KB_MAX 64u
/* Output tiles a core gets at least when the op chooses the grid (every
 * core of a launch costs host time on the model). */
#define AUTO_MIN_TILES_PER_CORE 4u

/* Side of the corner of the grid the 2-D variant uses when cfg.grid is
 * auto: on the chip model a few host threads run every core's harts, so
 * fewer cores with larger blocks cost less (2048^3: 16 cores with 16x16
 * tile blocks took about 8 % less time than 64 with 8x8), and 16 cores
 * keep a few threads busy. */
#define AUTO_2D_SIDE 4u

enum share_role { READ_ALONE = 0, SEND = 1, RECEIVE = 2 };

struct plan {
	const char *fn;
	bool has_bias, ta, tb, approx, fp32, lockstep, mcast_a, mcast_b;
	struct tt_unary_fn act;
	uint64_t a[4], b[4], o[4];
	struct tt_shape oshape;
	uint32_t mt, nt, kt, vk, vn, zn, batches;
	uint32_t a_sw, a_sz, a_rs, a_cs, b_sw, b_sz, b_rs, b_cs;
	enum tt_data_format fa, fb, fz, fo, fi;
	enum tt_buffer_type ma, mb, mz, mo;
	enum tt_math_fidelity fid;
	enum tt_matmul_variant variant;
	struct tt_xy grid;
	uint32_t pm, pn, kb, sh, sw, br, bc, units, cores, rows, cols;
	uint32_t dst_tiles, scratch_tiles;
};


/* "auto", "reuse", "mcast_1d", "mcast_2d" */
extern TT_HIDDEN const char *const tt_mm_variant_names[4];

static inline uint32_t ceil_div(uint32_t a, uint32_t b)
{
	return (a + b - 1) / b;
}

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static inline uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static inline int wzrc(const tt_device_tensor *t, uint64_t *d)
{
	return tt_shape_wzrc(tt_device_tensor_shape(t), d);
}

/* Shapes: K, M, N, the batch broadcast, the output, the bias (z). */
TT_HIDDEN int tt_mm_plan_shapes(struct plan *p, const tt_device_tensor *a,
				const tt_device_tensor *b,
				const tt_device_tensor *z,
				const struct tt_matmul_cfg *c);

/* Formats, placement, math, variant, grid, blocking and L1, checked. */
TT_HIDDEN int tt_mm_plan_config(tt_ops_ctx *ctx, struct plan *p,
				const struct tt_matmul_cfg *c,
				const tt_device_tensor *a,
				const tt_device_tensor *b,
				const tt_device_tensor *z);

TT_HIDDEN void tt_mm_plan_key(const struct plan *p, struct tt_ops_key *k);

/* The NOC rectangle (NOC 0 coordinates) of the logical cores lr. */
TT_HIDDEN int tt_mm_noc_bounds(tt_device *dev, struct tt_core_range lr,
			       struct tt_core_range *out);

/* Receivers of row i's in0 (row) or column i's in1. */
TT_HIDDEN struct tt_core_range tt_mm_receivers(const struct plan *p, bool row,
					       unsigned i);

#endif /* TT_LIB_OPS_MATMUL_PLAN_H */
