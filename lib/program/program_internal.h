/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Programs as the dispatcher sees them (internal).
 *
 * A dispatcher runs a program on a device like this:
 *
 *   tt_program_finalize(prog, dev, &limits);     before every enqueue
 *   for each struct tt_program_core *c of tt_program_cores(prog, &n):
 *       per hart h with c->kernel[h] >= 0:
 *           binary: tt_program_kernel(prog, c->kernel[h])->bin, to
 *                   TT_L1_KERNEL_SLOT(h) unless the slot already holds
 *                   a binary with the same hash
 *           ctx:    c->ctx[h] (set flags) to TT_L1_KCTX(h)
 *           args:   c->ctx[h].rta_count words from c->rta[h] to
 *                   c->ctx[h].rta (= TT_L1_RTA(h)), then
 *                   c->ctx[h].crta_count words from c->crta[h] to
 *                   c->ctx[h].crta
 *       c->cbs->cb[] (if c->cbs) to TT_L1_CB_TABLE, c->sem[] to
 *       TT_L1_SEM_ADDR(i) for the bits of c->sem_mask, zero the CB
 *       counters of c->cbs->mask, then launch (hw/l1.h).
 *
 * Finalizing validates the program against the device (every core inside
 * the logical grid), builds kernels that have no binary yet (tt_kbuild),
 * places static circular buffers and checks them against the L1 limit,
 * and lays out per-core data. It is cheap when nothing changed since the
 * last call with the same device (it then only re-reads the addresses of
 * dynamic CBs' buffers and re-checks the CB region against the limit), so
 * it is meant to be called on every enqueue. Any Create*, Update* or
 * first Set*RuntimeArgs of a core marks the program for a new layout.
 *
 * The per-core array and everything it points to stay valid until the
 * next finalize that changes the layout, or tt_program_free. Runtime
 * argument values may be changed in place by the application at any time
 * (tt_get_runtime_args): the dispatcher must upload args on every enqueue
 * (they are not covered by the generation).
 *
 * The generation (tt_program_generation) changes whenever anything else
 * the device must see changes: binaries, contexts, CB tables, semaphores,
 * argument counts. Generations are unique across all programs of the
 * process, so (generation) alone tells whether a core holds a program's
 * current state.
 */
#ifndef TT_LIB_PROGRAM_INTERNAL_H
#define TT_LIB_PROGRAM_INTERNAL_H

#include "hw/hart.h"
#include "hw/l1.h"
#include "hw/tensix.h"
#include "lib/device/internal.h"
#include "lib/kbuild/kbuild.h"
#include "tt/program.h"

_Static_assert(TT_NUM_CIRCULAR_BUFFERS == TT_CB_COUNT, "CB count");
_Static_assert(TT_NUM_SEMAPHORES == TT_SEM_COUNT, "semaphore count");
_Static_assert(TT_MAX_RUNTIME_ARGS == TT_RTA_MAX_WORDS, "RTA limit");
_Static_assert((int)TT_KPROC_COMPUTE == (int)TT_HART_COMPUTE, "hart ids");

/* Static CBs start at TT_L1_PROG_UNRESERVED, each aligned to this. */
#define TT_CB_ALIGN 32u

struct tt_program_limits {
	/*
	 * The address static CBs must stay below on a logical core: the
	 * lowest L1 buffer there (alloc.h's tt_alloc_l1_lowest fits). NULL:
	 * no L1 buffers, the limit is the end of the L1 programs may use
	 * (l1_size - TT_L1_ARGS_SIZE, the hart argument areas).
	 */
	uint64_t (*l1_cb_limit)(struct tt_device *dev, struct tt_xy logical);
	/* Test hook: lay the program out without building kernels (bin
	 * stays NULL). Never set by the dispatcher. */
	bool skip_build;
};

/* A kernel, for the dispatcher. */
struct tt_program_kernel {
	unsigned id; /* tt_kernel_handle */
	const char *name; /* the path as given, or "<string N>" */
	enum tt_kproc proc; /* = hart */
	unsigned noc; /* its default NOC */
	struct tt_kbinary *bin; /* NULL until built */
};

/* The CB table of a core: entries of the indices in mask, others zero.
 * Shared by every core with the same table. */
struct tt_cb_table {
	uint32_t mask;
	struct tt_cb_config cb[TT_CB_COUNT];
};

/* One core of a finalized program. */
struct tt_program_core {
	struct tt_xy logical;
	struct tt_xy noc; /* NOC 0 coordinates */
	int kernel[TT_TENSIX_HARTS]; /* kernel handle, or -1 */
	/* Complete except flags (0): rta, crta, counts, cb_mask, noc,
	 * logical_x/y, kernel_id. Zero for harts without a kernel. */
	struct tt_kernel_ctx ctx[TT_TENSIX_HARTS];
	const uint32_t *rta[TT_TENSIX_HARTS]; /* NULL if no unique args */
	const uint32_t *crta[TT_TENSIX_HARTS]; /* NULL if no common args */
	const struct tt_cb_table *cbs; /* NULL: no CB on this core */
	uint32_t cb_end; /* end of the static CB region (its start if none) */
	uint32_t sem_mask;
	uint32_t sem[TT_SEM_COUNT]; /* initial values of the sem_mask bits */
};

/* See above. dev must stay open while the program is finalized for it. */
TT_HIDDEN int tt_program_finalize(tt_program *prog, struct tt_device *dev,
				  const struct tt_program_limits *lim);

/* The cores of the program in logical order (y * w + x), after a
 * successful finalize; NULL (and *n 0) before. */
TT_HIDDEN const struct tt_program_core *
tt_program_cores(const tt_program *prog, unsigned *n);

TT_HIDDEN unsigned tt_program_num_kernels(const tt_program *prog);
/* Kernel k (< tt_program_num_kernels), or NULL. */
TT_HIDDEN const struct tt_program_kernel *
tt_program_kernel(const tt_program *prog, unsigned k);

TT_HIDDEN uint64_t tt_program_generation(const tt_program *prog);

/* A number naming the program in messages (1, 2, ... per process). */
TT_HIDDEN unsigned tt_program_id(const tt_program *prog);

/*
 * AssignGlobalBufferToProgram's hook (declared in alloc.h too): the
 * program takes over the reference the caller took on buf and drops it
 * with tt_buffer_unref() when freed. Each call holds one reference.
 */
TT_HIDDEN int tt_program_hold_buffer(tt_program *prog, struct tt_buffer *buf);

/* ==================================================================
 * The program object itself: for program.c, kernel.c, cb.c,
 * semaphore.c, rtargs.c and program_desc.c only.
 */

/* A checked, non-empty core set, stored compactly. */
struct tt_program_rset {
	unsigned count;
	struct tt_core_range *r;
	struct tt_core_range box; /* bounding box */
	unsigned ncores;
};

/* Unique runtime args of one core of a kernel; count -1: never set. */
struct tt_rta {
	uint32_t *args;
	int count;
};

struct tt_kernel_obj {
	struct tt_program_kernel pub; /* id, name, proc, noc, bin */
	enum tt_kernel_type type;
	char *name;
	char *path; /* resolved; NULL for a kernel from a string */
	char *source;
	size_t source_len;
	uint32_t *ct_args;
	unsigned ct_count;
	struct tt_kdefine *defines; /* names and values owned */
	unsigned define_count;
	struct tt_knamed *named; /* names owned */
	unsigned named_count;
	unsigned math_fidelity;
	bool fp32_dest_acc, dst_full_sync, math_approx;
	const char *opt; /* "O0" .. "Os" */
	struct tt_program_rset cores;
	/* Core number (iteration order of cores) of each cell of the
	 * bounding box, -1 for cells not in the set. */
	int *cell;
	struct tt_rta *rta; /* per core number */
	unsigned max_rta; /* largest unique count set on any core */
	uint32_t *crta;
	int crta_count; /* -1: never set */
};

struct tt_cb_obj {
	unsigned id;
	struct tt_program_rset cores;
	struct tt_circular_buffer_config cfg;
	uint32_t mask; /* its indices */
	uint32_t addr; /* placed address (finalize) */
};

struct tt_sem_obj {
	unsigned id;
	struct tt_program_rset cores;
	uint32_t initial;
};

struct tt_program {
	unsigned id;
	struct tt_kernel_obj **kernels;
	unsigned nkernels;
	struct tt_cb_obj **cbs;
	unsigned ncbs;
	struct tt_sem_obj **sems;
	unsigned nsems;
	struct tt_buffer **held;
	unsigned nheld;
	/* The layout of the last finalize. */
	bool laid_out; /* valid for dev, nothing changed since */
	struct tt_device *dev;
	uint64_t gen;
	struct tt_program_core *cores;
	unsigned ncores;
	struct tt_cb_table **tables;
	unsigned ntables;
};

/* program.c */
TT_HIDDEN void tt_program_changed(tt_program *prog);
/* Check s for function fn and copy it: -EINVAL (message "fn: ...") if it
 * is NULL, malformed or empty. */
TT_HIDDEN int tt_program_rset_from(struct tt_program_rset *out,
			   const struct tt_core_range_set *s, const char *fn);
TT_HIDDEN void tt_program_rset_free(struct tt_program_rset *r);
TT_HIDDEN bool tt_program_rset_contains(const struct tt_program_rset *r, struct tt_xy c);
/* A core in both sets (the first corner of their first overlap). */
TT_HIDDEN bool tt_program_rset_common(const struct tt_program_rset *a, const struct tt_program_rset *b,
			      struct tt_xy *core);
/* The public form of a stored set (for iteration and queries). */
TT_HIDDEN void tt_program_rset_to_set(const struct tt_program_rset *r,
			      struct tt_core_range_set *out);
/* Append ptr to *arr (n elements): -ENOMEM. */
TT_HIDDEN int tt_append(void *arr, unsigned *n, void *ptr);
/* Replace the message with "<prefix>: <message>", keeping code. */
TT_HIDDEN int tt_error_wrap(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* kernel.c */
TT_HIDDEN struct tt_kernel_obj *tt_kernel_find(const tt_program *prog,
					       tt_kernel_handle k,
					       const char *fn);
TT_HIDDEN void tt_kernel_obj_free(struct tt_kernel_obj *k);
TT_HIDDEN int tt_kernel_build(tt_program *prog, struct tt_kernel_obj *k);
/* Core number of c in the kernel, or -1. */
TT_HIDDEN int tt_kernel_core_index(const struct tt_kernel_obj *k,
				   struct tt_xy c);
TT_HIDDEN const char *tt_kproc_name(enum tt_kproc p);

/* cb.c */
TT_HIDDEN void tt_cb_obj_free(struct tt_cb_obj *cb);
/* Dynamic CB address of cb (its buffer's), or 0 if static. */
TT_HIDDEN uint64_t tt_cb_dynamic_address(const struct tt_cb_obj *cb);
/* Give every CB its address; top[] is the static CB region end of each
 * cell of the w x h logical grid, TT_L1_PROG_UNRESERVED on entry. */
TT_HIDDEN int tt_cb_place(tt_program *prog, uint32_t *top, unsigned w);
/* The table of the core at c. */
TT_HIDDEN void tt_cb_fill_table(const tt_program *prog, struct tt_xy c,
				struct tt_cb_table *t);

/* semaphore.c */
TT_HIDDEN void tt_sem_obj_free(struct tt_sem_obj *s);
/* CreateSemaphore with a given id (program descriptors). */
TT_HIDDEN int tt_create_semaphore_id(tt_program *prog,
				     const struct tt_core_range_set *cores,
				     uint32_t initial_value,
				     enum tt_core_type core_type, uint32_t id,
				     const char *fn);

#endif /* TT_LIB_PROGRAM_INTERNAL_H */
