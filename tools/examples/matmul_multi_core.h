/* SPDX-License-Identifier: Apache-2.0 */
/*
 * C = A x B on many Tensix cores, bf16 on the device, fp32 on the host.
 *
 * The work split is block sharding of C. Its Mt x Nt output tiles are cut
 * into blocks of bm x bn tiles, one per core of a cols x rows corner of
 * the device's logical grid (block (i, j) on logical core (j, i)). A core
 * computes its block in sub-blocks of sh x sw tiles, as many as DST holds;
 * for each, A's row panel (sh x Kt tiles) and B's column panel (Kt x sw)
 * arrive through two double-buffered CBs in chunks of kb tiles of K, its
 * compute kernel multiplies a whole chunk with one matmul_block_k and
 * sums the chunks in DST, and its writer stores the sub-block in C. The
 * cores of a row need the same A chunks and the cores of a column the
 * same B chunks: the first core of each row reads A from DRAM and
 * multicasts it along the row, the first core of each column does the
 * same with B (where the NOC allows; else every core reads its own). A,
 * B and C are interleaved DRAM buffers of one bf16 tile per page.
 *
 * Use: mm_multi_create, mm_multi_write_inputs, mm_multi_run (as often as
 * wanted: the first run also builds and loads the kernels, unless
 * mm_multi_warm_up did), mm_multi_read_output, mm_multi_free.
 *
 * Errors: 0 or a negative errno; mm_multi_error() then says what failed
 * (libtt's message for a failed libtt call). Not thread-safe: one thread
 * per mm_multi.
 */
#ifndef TT_EXAMPLE_MATMUL_MULTI_CORE_H
#define TT_EXAMPLE_MATMUL_MULTI_CORE_H

#include "tt.h"

/* How the product is laid out on the device (all counts in tiles). */
struct mm_multi_plan {
	uint32_t mt, nt, kt; /* M, N, K */
	unsigned grid_w, grid_h; /* the device's logical grid */
	unsigned cols, rows; /* cores used: logical (0,0)..(cols-1, rows-1) */
	uint32_t bm, bn; /* output block per core (less at the edges) */
	uint32_t sh, sw; /* sub-block: what DST holds at once */
	uint32_t kb; /* K chunk per matmul_block_k */
	bool mcast_a; /* A read once per row, multicast along it */
	bool mcast_b; /* B read once per column, multicast down it */
};

struct mm_multi;

/*
 * Plan C[m x n] = A[m x k] x B[k x n] on dev (m, n, k multiples of 32,
 * nonzero) on at most max_cores cores (0: the whole logical grid), and
 * allocate the buffers and the program. -EINVAL for a bad size, -ENOMEM,
 * or a libtt error.
 */
int mm_multi_create(tt_device *dev, uint32_t m, uint32_t n, uint32_t k,
		    unsigned max_cores, struct mm_multi **out);

const struct mm_multi_plan *mm_multi_plan(const struct mm_multi *mm);

/* Upload A (m x k) and B (k x n), row-major fp32, rounded to bf16. */
int mm_multi_write_inputs(struct mm_multi *mm, const float *a,
			  const float *b);

/* Run the program once: enqueue and wait. *ms (if not NULL) is the time
 * of enqueue + finish only. */
int mm_multi_run(struct mm_multi *mm, double *ms);

/* Build and load the kernels with a run that computes nothing (every
 * core's block empty), so that the next mm_multi_run times the product
 * alone. */
int mm_multi_warm_up(struct mm_multi *mm);

/* Read C (m x n, row-major fp32) of the last run. */
int mm_multi_read_output(struct mm_multi *mm, float *c);

/* NULL is ignored. */
void mm_multi_free(struct mm_multi *mm);

/* What the last failing mm_multi_* call of this thread said. */
const char *mm_multi_error(void);

#endif /* TT_EXAMPLE_MATMUL_MULTI_CORE_H */
