/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The device op library (TT-Metal's ttnn role): eager multi-core ops on
 * device tensors (tt/tensor.h). docs/ops.md has every op, its configs
 * and limits; in short:
 *
 * Context. tt_ops_ctx_create(dev, &ctx) makes a context on a device and
 * its command queue 0: the program cache, its counters and the profiler
 * live there. One thread uses a context at a time. Free it with
 * tt_ops_ctx_free before closing the device.
 *
 * Calls. tt_op_<name>(ctx, inputs..., cfg, &out): inputs are device
 * tensors of the context's device, in tile layout (as every device
 * tensor is). cfg may be NULL: the op then chooses the grid, blocking,
 * formats and fidelity for the device and the shapes. *out NULL: the op
 * creates the output (a new device tensor the caller frees); else *out
 * is used as given and must have the result's shape, and the format and
 * placement the config asks for (if it asks). An op enqueues its program
 * and returns without waiting (tt_ops_finish waits); inputs and outputs
 * must stay alive until then.
 *
 * Configs. Start from tt_op_eltwise_config() (every field "auto") and
 * change fields; a zero-initialised struct is not "auto" (its formats
 * are Float32 and its fidelity LoFi, as in tt/program.h).
 *
 * Padding. A tensor's last two dimensions are stored padded to whole
 * 32 x 32 tiles. Ops compute the logical elements; what the padding of
 * an output holds is unspecified (an element-wise op leaves f(0) there).
 *
 * Program cache. The first call with a given op, shapes, formats,
 * placements and config builds a program (kernels compiled or found in
 * the kernel cache); later calls with the same key reuse it and only
 * rewrite its runtime arguments (buffer addresses, tile offsets).
 * tt_ops_cache_stats counts hits and misses.
 *
 * Profiling. TT_OPS_PROFILE=prefix when the context is created, or
 * tt_ops_profile_start(ctx, prefix): every op call is recorded (name,
 * shapes, config, cache hit, host time to enqueue, time to finish) and
 * written to prefix.json (Chrome trace events: Perfetto,
 * chrome://tracing) and prefix.csv (one row per call) by
 * tt_ops_profile_stop or tt_ops_ctx_free. While profiling, each op waits
 * for its program to finish, so that its time is its own.
 *
 * Errors: 0 or a negative errno, tt_last_error() naming the op, the
 * argument and the limit: "tt_op_add: b [3,64,64] does not broadcast to
 * a [2,64,64]: dimension 0 is 3, not 1 or 2", "tt_op_exp:
 * cfg.buffering 64: circular buffers need 1572864 bytes of L1 per core,
 * a core has 1294336". -EINVAL bad argument or config, -ENOTSUP a data
 * format the op does not take, -ENOMEM out of memory (host, L1 or
 * DRAM), -ENODEV a tensor of another device; program build and dispatch
 * errors as tt/queue.h's.
 */
#ifndef TT_OPS_H
#define TT_OPS_H

#include "common.h"
#include "core.h"
#include "dataformat.h"
#include "device.h"
#include "program.h"
#include "queue.h"
#include "tensor.h"

typedef struct tt_ops_ctx tt_ops_ctx;

/* ---- context ---- */

/* A context on dev (its command queue 0). TT_OPS_PROFILE in the
 * environment starts profiling to that prefix. */
TT_API int tt_ops_ctx_create(tt_device *dev, tt_ops_ctx **out);

/* Wait for the queue, write the profile if one is on, free every cached
 * program. NULL is ignored. */
TT_API void tt_ops_ctx_free(tt_ops_ctx *ctx);

TT_API tt_device *tt_ops_ctx_device(const tt_ops_ctx *ctx);
TT_API tt_command_queue *tt_ops_ctx_queue(const tt_ops_ctx *ctx);

/*
 * Build-only mode (ttc's codegen uses it to collect an image's kernels):
 * while on, an op call checks its arguments, builds its program (and
 * caches it) and compiles its kernels, but runs nothing: its output holds
 * nothing meaningful.
 */
TT_API int tt_ops_ctx_set_build_only(tt_ops_ctx *ctx, bool on);

/* Wait until every op enqueued so far has finished (tt_finish). */
TT_API int tt_ops_finish(tt_ops_ctx *ctx);

struct tt_ops_cache_stats {
	uint64_t hits;     /* calls that reused a cached program */
	uint64_t misses;   /* calls that built one */
	uint64_t programs; /* programs in the cache now */
};

TT_API int tt_ops_cache_stats(const tt_ops_ctx *ctx,
			      struct tt_ops_cache_stats *out);

/* Free every cached program (after waiting for the queue); the counters
 * stay. */
TT_API int tt_ops_cache_clear(tt_ops_ctx *ctx);

/* Record every op call from now on; prefix.json and prefix.csv are
 * written (replaced) by tt_ops_profile_stop or tt_ops_ctx_free. A
 * profile already on is written first. */
TT_API int tt_ops_profile_start(tt_ops_ctx *ctx, const char *prefix);

/* Write the files and stop recording; nothing to do if none is on. */
TT_API int tt_ops_profile_stop(tt_ops_ctx *ctx);

/* ---- element-wise functions ---- */

/*
 * The unary functions, also the fused activations of other ops. Each
 * runs on the vector unit; the composite ones (marked *) are built from
 * its tile functions and its instructions (docs/ops.md says how).
 * Parameters are in struct tt_unary_fn's p0, p1.
 */
enum tt_unary_op {
	TT_UNARY_NONE = 0,   /* identity: a copy (with typecast: the format) */
	TT_UNARY_EXP,
	TT_UNARY_LOG,
	TT_UNARY_SQRT,
	TT_UNARY_RSQRT,
	TT_UNARY_RECIP,
	TT_UNARY_SIGMOID,
	TT_UNARY_TANH,
	TT_UNARY_GELU,       /* exact: x/2 (1 + erf(x / sqrt 2)) */
	TT_UNARY_GELU_TANH,  /* tanh approximation (approximate mode) */
	TT_UNARY_RELU,
	TT_UNARY_SILU,
	TT_UNARY_ABS,
	TT_UNARY_NEG,
	TT_UNARY_SIGN,
	TT_UNARY_SQUARE,
	TT_UNARY_SIN,
	TT_UNARY_COS,
	TT_UNARY_ERF,
	TT_UNARY_EXP2,
	TT_UNARY_EXPM1,
	TT_UNARY_POWER,      /* x^p0, p0 an integer 0..64 */
	TT_UNARY_LEAKY_RELU, /* x < 0 ? p0 x : x */
	TT_UNARY_RELU6,      /* * min(max(x, 0), 6) */
	TT_UNARY_CLIP,       /* * min(max(x, p0), p1), p0 <= p1 */
	TT_UNARY_HARDSIGMOID, /* * clip(x / 6 + 1/2, 0, 1) */
	TT_UNARY_HARDSWISH,  /* * x hardsigmoid(x) */
	TT_UNARY_ELU,        /* * x < 0 ? p0 (e^x - 1) : x */
	TT_UNARY_SOFTPLUS,   /* * log(1 + e^x); x above 20: x */
	TT_UNARY_MISH,       /* * x tanh(softplus(x)) */
	TT_UNARY_SOFTSIGN,   /* * x / (1 + |x|) */
	TT_UNARY_ERFC,       /* * 1 - erf(x) */
	TT_UNARY_TAN,        /* * sin x / cos x */
	TT_UNARY_LOG1P,      /* * log(1 + x) */
	TT_UNARY_FLOOR,      /* * */
	TT_UNARY_CEIL,       /* * */
	TT_UNARY_TRUNC,      /* * */
	TT_UNARY_ROUND,      /* * to nearest, ties to even */
	TT_UNARY_LOGICAL_NOT, /* * x == 0 ? 1 : 0 */
	TT_UNARY_ISFINITE,   /* * 1 for finite x, else 0 */
	TT_UNARY_OP_COUNT
};

/* A unary function with its parameters. */
struct tt_unary_fn {
	enum tt_unary_op op;
	float p0, p1;
};

/* "exp", "gelu_tanh", ...; NULL for a value out of range. */
TT_API const char *tt_unary_op_name(enum tt_unary_op op);

enum tt_binary_op {
	TT_BINARY_ADD = 0, /* matrix unit */
	TT_BINARY_SUB,     /* a - b, matrix unit */
	TT_BINARY_MUL,     /* matrix unit (uses the fidelity) */
	TT_BINARY_DIV,     /* vector unit from here on */
	TT_BINARY_MAX,
	TT_BINARY_MIN,
	TT_BINARY_POW,     /* a^b */
	TT_BINARY_RSUB,    /* b - a */
	TT_BINARY_EQ,      /* comparisons and logical ops give 1 or 0 */
	TT_BINARY_NE,
	TT_BINARY_LT,
	TT_BINARY_LE,
	TT_BINARY_GT,
	TT_BINARY_GE,
	TT_BINARY_LOGICAL_AND, /* a != 0 and b != 0 */
	TT_BINARY_LOGICAL_OR,
	TT_BINARY_LOGICAL_XOR,
	TT_BINARY_OP_COUNT
};

/* "add", "logical_and", ...; NULL for a value out of range. */
TT_API const char *tt_binary_op_name(enum tt_binary_op op);

/* ---- configs ---- */

/*
 * Where an output lives (inputs live where their buffers are: any device
 * tensor, interleaved or on a sharded buffer, tt_device_tensor_on_buffer).
 * A sharded output the op creates is sharded over the op's cfg.grid (the
 * whole grid when auto), its tiles seen as a matrix of W*Z*Ht rows and Wt
 * columns (tt/buffer.h's pages): height sharding gives each core
 * ceil(rows / cores) whole rows of tiles; width sharding each core
 * ceil(Wt / cores) columns; block sharding a grid.y x grid.x grid of
 * blocks, core (x, y) holding block row y, block column x. Cores beyond
 * the last shard hold nothing.
 */
enum tt_ops_mem {
	TT_OPS_MEM_AUTO = 0, /* where input a lives (interleaved) */
	TT_OPS_MEM_DRAM,     /* DRAM, interleaved */
	TT_OPS_MEM_L1,       /* L1, interleaved */
	TT_OPS_MEM_L1_HEIGHT_SHARDED,
	TT_OPS_MEM_L1_WIDTH_SHARDED,
	TT_OPS_MEM_L1_BLOCK_SHARDED,
};

/* A switch with "auto". */
enum tt_ops_switch {
	TT_OPS_AUTO = 0,
	TT_OPS_OFF,
	TT_OPS_ON,
};

/* "auto" for formats and fidelity. */
#define TT_OPS_FORMAT_AUTO TT_INVALID
#define TT_OPS_FIDELITY_AUTO ((enum tt_math_fidelity)0xff)

/*
 * Config of the element-wise ops (unary and binary). Work is split in
 * tiles of the output over the first cores of grid, row by row
 * (tt_split_work_to_cores).
 */
struct tt_eltwise_cfg {
	/* Cores: a grid.x x grid.y grid from logical (0,0); {0, 0}: the
	 * device's whole logical grid. */
	struct tt_xy grid;
	/* At most this many output tiles per core (0: auto, as even a split
	 * as the grid and the shape allow); the cores used are
	 * ceil(tiles / tiles_per_core), which must fit the grid. */
	uint32_t tiles_per_core;
	/* Tiles per DST block (0: auto, as many as DST holds). */
	uint32_t block_tiles;
	/* Blocks each circular buffer holds (0: auto, 2: double-buffered). */
	uint32_t buffering;
	enum tt_ops_mem out_mem;
	/* Format of the output (TT_OPS_FORMAT_AUTO: input a's). Float32,
	 * Float16, Float16_b, Bfp8_b, Bfp4_b, and the integer formats
	 * Int32, UInt32, UInt16, UInt8 (exact below 2^24; docs/ops.md),
	 * also for inputs. */
	enum tt_data_format out_format;
	/* TT_OPS_FIDELITY_AUTO: HiFi4. */
	enum tt_math_fidelity math_fidelity;
	/* 32-bit DST (auto: on when an input or the output is Float32 or an
	 * integer format; integer tensors need it). */
	enum tt_ops_switch fp32_acc;
	/* Approximate vector functions (auto: only for gelu_tanh). */
	enum tt_ops_switch approx;
	/* Applied to the result (TT_UNARY_NONE: nothing). */
	struct tt_unary_fn activation;
};

/* Every field auto, no activation. */
TT_API struct tt_eltwise_cfg tt_op_eltwise_config(void);

/* ---- unary ops ---- */

/* out = fn(a), then cfg's activation. */
TT_API int tt_op_unary(tt_ops_ctx *ctx, const tt_device_tensor *a,
		       const struct tt_unary_fn *fn,
		       const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);

/* The same, one function each. */
TT_API int tt_op_exp(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_log(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_sqrt(tt_ops_ctx *ctx, const tt_device_tensor *a,
		      const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_rsqrt(tt_ops_ctx *ctx, const tt_device_tensor *a,
		       const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_recip(tt_ops_ctx *ctx, const tt_device_tensor *a,
		       const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_sigmoid(tt_ops_ctx *ctx, const tt_device_tensor *a,
			 const struct tt_eltwise_cfg *cfg,
			 tt_device_tensor **out);
TT_API int tt_op_tanh(tt_ops_ctx *ctx, const tt_device_tensor *a,
		      const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_gelu(tt_ops_ctx *ctx, const tt_device_tensor *a,
		      const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_gelu_tanh(tt_ops_ctx *ctx, const tt_device_tensor *a,
			   const struct tt_eltwise_cfg *cfg,
			   tt_device_tensor **out);
TT_API int tt_op_relu(tt_ops_ctx *ctx, const tt_device_tensor *a,
		      const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_silu(tt_ops_ctx *ctx, const tt_device_tensor *a,
		      const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_abs(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_neg(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_sign(tt_ops_ctx *ctx, const tt_device_tensor *a,
		      const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_square(tt_ops_ctx *ctx, const tt_device_tensor *a,
			const struct tt_eltwise_cfg *cfg,
			tt_device_tensor **out);
TT_API int tt_op_sin(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_cos(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_erf(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_relu6(tt_ops_ctx *ctx, const tt_device_tensor *a,
		       const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_clip(tt_ops_ctx *ctx, const tt_device_tensor *a, float lo,
		      float hi, const struct tt_eltwise_cfg *cfg,
		      tt_device_tensor **out);
TT_API int tt_op_leaky_relu(tt_ops_ctx *ctx, const tt_device_tensor *a,
			    float slope, const struct tt_eltwise_cfg *cfg,
			    tt_device_tensor **out);
TT_API int tt_op_elu(tt_ops_ctx *ctx, const tt_device_tensor *a, float alpha,
		     const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_power(tt_ops_ctx *ctx, const tt_device_tensor *a,
		       unsigned exponent, const struct tt_eltwise_cfg *cfg,
		       tt_device_tensor **out);
/* A copy in another format (cfg->out_format, if given, must be fmt). */
TT_API int tt_op_typecast(tt_ops_ctx *ctx, const tt_device_tensor *a,
			  enum tt_data_format fmt,
			  const struct tt_eltwise_cfg *cfg,
			  tt_device_tensor **out);

/* ---- binary ops ----
 *
 * out = a op b, then cfg's activation. a and b broadcast as NumPy
 * arrays do over [w, z, r, c] (tt/tensor.h's shape convention): each
 * dimension equal, or 1 in one of them; out has the larger of each. A
 * dimension r or c of 1 is broadcast inside the tile (row, column or
 * scalar broadcast); w and z by reading the same tiles again.
 */
TT_API int tt_op_binary(tt_ops_ctx *ctx, enum tt_binary_op op,
			const tt_device_tensor *a, const tt_device_tensor *b,
			const struct tt_eltwise_cfg *cfg,
			tt_device_tensor **out);

/*
 * out = cond != 0 ? a : b, element by element (a NaN cond is not 0, as in
 * C), cond, a and b broadcast together as the binary ops' inputs are;
 * then cfg's activation. Values are selected, not computed: each is a's
 * or b's in the output's format (docs/ops.md: broadcast operands pass
 * the matrix unit, which keeps 10 mantissa bits).
 */
TT_API int tt_op_where(tt_ops_ctx *ctx, const tt_device_tensor *cond,
		       const tt_device_tensor *a, const tt_device_tensor *b,
		       const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);

TT_API int tt_op_add(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     const tt_device_tensor *b,
		     const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_sub(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     const tt_device_tensor *b,
		     const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_mul(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     const tt_device_tensor *b,
		     const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_div(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     const tt_device_tensor *b,
		     const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_max(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     const tt_device_tensor *b,
		     const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);
TT_API int tt_op_min(tt_ops_ctx *ctx, const tt_device_tensor *a,
		     const tt_device_tensor *b,
		     const struct tt_eltwise_cfg *cfg, tt_device_tensor **out);

/* The other op families, one header each. */
#include "ops/matmul.h"
#include "ops/reduce.h"
#include "ops/norm.h"
#include "ops/data.h"
#include "ops/conv.h"

#endif /* TT_OPS_H */
