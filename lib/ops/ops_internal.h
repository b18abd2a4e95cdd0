/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The op library's shared parts (internal side of tt/ops.h): the
 * context, the program cache, the profiler, and helpers every op family
 * uses (tensor checks, the work split, messages).
 */
#ifndef TT_LIB_OPS_INTERNAL_H
#define TT_LIB_OPS_INTERNAL_H

#include "lib/device/internal.h"
#include "tt/ops.h"

/* Op families, the first word of a cache key. */
enum tt_ops_family {
	TT_OPS_ELTWISE = 1,
	TT_OPS_MATMUL,
	TT_OPS_REDUCE,
	TT_OPS_NORM,
	TT_OPS_DATA,
	TT_OPS_CONV,
};

/*
 * A program cache key: everything a program's build depends on. Zeroed
 * before it is filled (memcmp compares it, padding and all).
 */
struct tt_ops_key {
	uint32_t family;
	uint32_t op[4];             /* the family's op and sub-ops */
	uint32_t param[4];          /* parameters baked into kernels */
	uint64_t shape[4][4];       /* [w, z, r, c] of inputs and output */
	uint32_t fmt[4];            /* their formats */
	uint32_t mem[4];            /* their buffer types */
	uint32_t grid_x, grid_y, cores;
	uint32_t tiles_per_core, block, buffering;
	uint32_t fidelity, fp32, approx;
	uint64_t layout[4];         /* tt_ops_layout_hash of the tensors */
};

/* One core of a cached program: where its argument words live. */
struct tt_ops_core {
	struct tt_xy xy;
	uint32_t start, tiles; /* output tiles */
	uint32_t *rargs, *wargs; /* the program's words (tt_get_runtime_args) */
};

/* A cached program. */
struct tt_ops_entry {
	struct tt_ops_key key;
	uint64_t hash;
	tt_program *prog;
	unsigned ncores;
	struct tt_ops_core *cores;
	struct tt_ops_entry *next; /* same bucket */
};

#define TT_OPS_BUCKETS 256u

/* One recorded op call. */
struct tt_ops_rec {
	char name[32];
	char shapes[192];
	char config[256];
	bool hit;
	unsigned cores;
	uint64_t tiles;
	double start_us;   /* since the profile started */
	double enqueue_us; /* op entry to enqueue returned */
	double finish_us;  /* enqueue returned to finish returned */
};

struct tt_ops_ctx {
	tt_device *dev;
	tt_command_queue *cq;
	struct tt_ops_entry *buckets[TT_OPS_BUCKETS];
	uint64_t hits, misses, programs;
	/* Build programs and their kernels, run nothing (ttc's codegen). */
	bool build_only;
	/* profiling */
	char *prof_prefix; /* NULL: off */
	struct tt_ops_rec *recs;
	size_t nrecs, caprecs;
	double prof_t0;
};

/* Enqueue an op's program on the context's queue; in build-only mode
 * compile its kernels instead (tt_compile_program). */
TT_HIDDEN int tt_ops_enqueue(tt_ops_ctx *ctx, tt_program *prog, bool blocking);

/* Monotonic microseconds. */
TT_HIDDEN double tt_ops_now_us(void);

/* The cached program of key, or NULL (counts a hit when found). */
TT_HIDDEN struct tt_ops_entry *tt_ops_cache_find(tt_ops_ctx *ctx,
						 const struct tt_ops_key *key);

/* Add a built entry (takes it; counts a miss). */
TT_HIDDEN void tt_ops_cache_add(tt_ops_ctx *ctx, struct tt_ops_entry *e);

/* A new entry of ncores cores with its (empty) program; the caller
 * fills its key and program. -ENOMEM naming fn. */
TT_HIDDEN int tt_ops_entry_new(const char *fn, unsigned ncores,
			       struct tt_ops_entry **out);

/* Free an entry that never made it into the cache. */
TT_HIDDEN void tt_ops_entry_free(struct tt_ops_entry *e);

/* Record a call when profiling (no-op otherwise); rec->start_us is the
 * absolute tt_ops_now_us() of the call's start. */
TT_HIDDEN void tt_ops_profile_record(tt_ops_ctx *ctx,
				     const struct tt_ops_rec *rec);

/* "[2,3,64,64]" of a shape. */
TT_HIDDEN const char *tt_ops_shape_str(const struct tt_shape *s, char *buf,
				       size_t len);

/*
 * Check a device tensor argument of op `fn` named `arg`: on ctx's
 * device, allocated, interleaved, a format the element-wise ops take.
 */
TT_HIDDEN int tt_ops_check_tensor(tt_ops_ctx *ctx, const char *fn,
				  const char *arg, const tt_device_tensor *t);

/* Is fmt one the ops compute on (Float32, Float16, Float16_b, Bfp8_b,
 * Bfp4_b)? */
TT_HIDDEN bool tt_ops_format_ok(enum tt_data_format fmt);

/* Bytes of L1 free for circular buffers on every core. */
TT_HIDDEN uint64_t tt_ops_l1_free(tt_ops_ctx *ctx);

/* ---- sharded tensors (any op that takes them) ---- */

/*
 * The tensor accessor words of t's buffer (tt_tensor_accessor_args_append)
 * into words (TT_TENSOR_ACCESSOR_ARGS_MAX of them), *n their count; 0 for
 * an interleaved tensor (the address generators serve those).
 */
TT_HIDDEN int tt_ops_accessor_words(const char *fn, const char *arg,
				    const tt_device_tensor *t, uint32_t *words,
				    unsigned *n);

/* A hash of t's layout for cache keys: 0 interleaved, else of its
 * accessor words (which cores, which shard shape). */
TT_HIDDEN uint64_t tt_ops_layout_hash(const uint32_t *words, unsigned n);

/* Check a tensor as tt_ops_check_tensor does, sharded buffers and the
 * integer formats (tt_ops_format_int) allowed: what the element-wise ops
 * take. */
TT_HIDDEN int tt_ops_check_tensor_any(tt_ops_ctx *ctx, const char *fn,
				      const char *arg,
				      const tt_device_tensor *t);

/*
 * Create an output tensor of shape and fmt where mem says (DRAM or L1
 * interleaved, or L1 sharded over grid as tt/ops.h's enum tt_ops_mem
 * describes). mem must not be TT_OPS_MEM_AUTO.
 */
TT_HIDDEN int tt_ops_create_output(tt_ops_ctx *ctx, const char *fn,
				   const struct tt_shape *shape,
				   enum tt_data_format fmt, enum tt_ops_mem mem,
				   struct tt_xy grid, tt_device_tensor **out);

/* Is fmt an integer format the element-wise ops take (Int32, UInt32,
 * UInt16, UInt8)? */
TT_HIDDEN bool tt_ops_format_int(enum tt_data_format fmt);

/*
 * The buffer type of an interleaved output placed by cfg.out_mem mem
 * (auto: dflt), for the ops that write interleaved outputs only: a
 * sharded placement is -ENOTSUP, a bad value -EINVAL, both named.
 */
TT_HIDDEN int tt_ops_out_mem_interleaved(const char *fn, enum tt_ops_mem mem,
					 enum tt_buffer_type dflt,
					 enum tt_buffer_type *out);

/*
 * Check an output the caller gave: the result's shape (o as [w, z, r, c],
 * oshape to name it), and the format fmt and buffer type mo where the
 * config asks for them (fmt TT_OPS_FORMAT_AUTO, mem TT_OPS_MEM_AUTO: any).
 */
TT_HIDDEN int tt_ops_check_given_out(const char *fn,
				     const tt_device_tensor *out,
				     const uint64_t *o,
				     const struct tt_shape *oshape,
				     enum tt_data_format fmt,
				     enum tt_ops_mem mem,
				     enum tt_buffer_type mo);

/* A circular buffer `index` of `pages` tiles of fmt on cores. */
TT_HIDDEN int tt_ops_add_cb(tt_program *prog,
			    const struct tt_core_range_set *cores,
			    unsigned index, enum tt_data_format fmt,
			    uint64_t pages);

/* Elements of an argument array. */
#define TT_OPS_NARGS(a) (unsigned)(sizeof(a) / sizeof((a)[0]))

/* "DRAM", "L1", "L1 height sharded", ...; NULL for a bad value. */
TT_HIDDEN const char *tt_ops_mem_name(enum tt_ops_mem mem);

/* ---- softmax and normalisation (norm.c; softmax.c calls it) ---- */

/* One call of softmax (op 0), layernorm (1) or rmsnorm (2). */
struct tt_ops_norm_call {
	const char *fn;
	unsigned op;
	const tt_device_tensor *a, *mask, *gamma, *beta;
	float scale, eps;
	bool causal;
	struct tt_norm_cfg cfg;
};

TT_HIDDEN int tt_ops_norm_run(tt_ops_ctx *ctx, const struct tt_ops_norm_call *c,
			      tt_device_tensor **out);

#endif /* TT_LIB_OPS_INTERNAL_H */
