// SPDX-License-Identifier: Apache-2.0
/*
 * The op library's context: device and queue, the program cache and its
 * counters, tensor checks shared by the op families.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hw/l1.h"
#include "lib/memory/alloc.h"
#include "ops_internal.h"

double tt_ops_now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

int tt_ops_ctx_create(tt_device *dev, tt_ops_ctx **out)
{
	const char *prof = getenv("TT_OPS_PROFILE");
	tt_ops_ctx *ctx;
	int ret;

	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(out);
	*out = NULL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return tt_error(-ENOMEM, "tt_ops_ctx_create: out of memory");
	ctx->dev = dev;
	ret = tt_device_command_queue(dev, 0, &ctx->cq);
	if (ret) {
		free(ctx);
		return ret;
	}
	if (prof && *prof) {
		ret = tt_ops_profile_start(ctx, prof);
		if (ret) {
			free(ctx);
			return tt_error(ret, "tt_ops_ctx_create: TT_OPS_PROFILE='%s': %s",
					prof, tt_last_error());
		}
	}
	*out = ctx;
	return 0;
}

int tt_ops_ctx_set_build_only(tt_ops_ctx *ctx, bool on)
{
	TT_CHECK_ARG(ctx);
	ctx->build_only = on;
	return 0;
}

int tt_ops_enqueue(tt_ops_ctx *ctx, tt_program *prog, bool blocking)
{
	if (ctx->build_only)
		return tt_compile_program(ctx->dev, prog);
	return tt_enqueue_program(ctx->cq, prog, blocking);
}

static void cache_free_all(tt_ops_ctx *ctx)
{
	for (unsigned b = 0; b < TT_OPS_BUCKETS; b++) {
		struct tt_ops_entry *e = ctx->buckets[b], *next;

		for (; e; e = next) {
			next = e->next;
			tt_ops_entry_free(e);
		}
		ctx->buckets[b] = NULL;
	}
	ctx->programs = 0;
}

void tt_ops_ctx_free(tt_ops_ctx *ctx)
{
	if (!ctx)
		return;
	tt_finish(ctx->cq);
	tt_ops_profile_stop(ctx);
	cache_free_all(ctx);
	free(ctx);
}

tt_device *tt_ops_ctx_device(const tt_ops_ctx *ctx)
{
	if (TT_ARG_NULL(ctx))
		return NULL;
	return ctx->dev;
}

tt_command_queue *tt_ops_ctx_queue(const tt_ops_ctx *ctx)
{
	if (TT_ARG_NULL(ctx))
		return NULL;
	return ctx->cq;
}

int tt_ops_finish(tt_ops_ctx *ctx)
{
	TT_CHECK_ARG(ctx);
	return tt_finish(ctx->cq);
}

int tt_ops_cache_stats(const tt_ops_ctx *ctx, struct tt_ops_cache_stats *out)
{
	TT_CHECK_ARG(ctx);
	TT_CHECK_ARG(out);
	out->hits = ctx->hits;
	out->misses = ctx->misses;
	out->programs = ctx->programs;
	return 0;
}

int tt_ops_cache_clear(tt_ops_ctx *ctx)
{
	int ret;

	TT_CHECK_ARG(ctx);
	ret = tt_finish(ctx->cq);
	cache_free_all(ctx);
	return ret;
}

/* FNV-1a over the key's bytes. */
static uint64_t key_hash(const struct tt_ops_key *k)
{
	const unsigned char *p = (const unsigned char *)k;
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < sizeof(*k); i++) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

struct tt_ops_entry *tt_ops_cache_find(tt_ops_ctx *ctx,
				       const struct tt_ops_key *key)
{
	uint64_t h = key_hash(key);
	struct tt_ops_entry *e = ctx->buckets[h % TT_OPS_BUCKETS];

	for (; e; e = e->next) {
		if (e->hash == h && !memcmp(&e->key, key, sizeof(*key))) {
			ctx->hits++;
			return e;
		}
	}
	return NULL;
}

void tt_ops_cache_add(tt_ops_ctx *ctx, struct tt_ops_entry *e)
{
	unsigned b;

	e->hash = key_hash(&e->key);
	b = (unsigned)(e->hash % TT_OPS_BUCKETS);
	e->next = ctx->buckets[b];
	ctx->buckets[b] = e;
	ctx->misses++;
	ctx->programs++;
}

int tt_ops_entry_new(const char *fn, unsigned ncores,
		     struct tt_ops_entry **out)
{
	struct tt_ops_entry *e = calloc(1, sizeof(*e));
	int ret;

	if (e)
		e->cores = calloc(ncores, sizeof(*e->cores));
	if (!e || !e->cores) {
		tt_ops_entry_free(e);
		return tt_error(-ENOMEM, "%s: out of memory", fn);
	}
	e->ncores = ncores;
	ret = tt_program_create(&e->prog);
	if (ret) {
		tt_ops_entry_free(e);
		return ret;
	}
	*out = e;
	return 0;
}

void tt_ops_entry_free(struct tt_ops_entry *e)
{
	if (!e)
		return;
	tt_program_free(e->prog);
	free(e->cores);
	free(e);
}

const char *tt_ops_shape_str(const struct tt_shape *s, char *buf, size_t len)
{
	size_t n = 0;

	n += (size_t)snprintf(buf, len, "[");
	for (unsigned i = 0; i < s->rank && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%llu", i ? "," : "",
				      (unsigned long long)s->dims[i]);
	if (n < len)
		snprintf(buf + n, len - n, "]");
	return buf;
}

bool tt_ops_format_ok(enum tt_data_format fmt)
{
	return fmt == TT_FLOAT32 || fmt == TT_FLOAT16 || fmt == TT_FLOAT16_B ||
	       fmt == TT_BFP8_B || fmt == TT_BFP4_B;
}

static int check_tensor(tt_ops_ctx *ctx, const char *fn, const char *arg,
			const tt_device_tensor *t, bool eltwise)
{
	tt_buffer *buf = tt_device_tensor_buffer(t);
	enum tt_data_format fmt = tt_device_tensor_format(t);

	if (!buf)
		return tt_error(-EINVAL, "%s: %s has no buffer", fn, arg);
	if (tt_buffer_device(buf) != ctx->dev)
		return tt_error(-ENODEV,
				"%s: %s is on another device than the context's",
				fn, arg);
	if (!tt_buffer_is_allocated(buf))
		return tt_error(-ENXIO, "%s: %s: its buffer was deallocated",
				fn, arg);
	if (!eltwise && tt_buffer_layout(buf) != TT_LAYOUT_INTERLEAVED)
		return tt_error(-ENOTSUP,
				"%s: %s is %s; the op takes interleaved tensors (DRAM or L1)",
				fn, arg,
				tt_tensor_memory_layout_name(tt_buffer_layout(buf)));
	if (eltwise && tt_ops_format_int(fmt))
		return 0;
	if (!tt_ops_format_ok(fmt))
		return tt_error(-ENOTSUP,
				"%s: %s is %s; the op takes Float32, Float16, Float16_b, Bfp8_b and Bfp4_b%s",
				fn, arg, tt_data_format_name(fmt),
				eltwise ? ", Int32, UInt32, UInt16 and UInt8" : "");
	return 0;
}

int tt_ops_check_tensor(tt_ops_ctx *ctx, const char *fn, const char *arg,
			const tt_device_tensor *t)
{
	return check_tensor(ctx, fn, arg, t, false);
}

uint64_t tt_ops_l1_free(tt_ops_ctx *ctx)
{
	uint64_t lowest = tt_alloc_l1_lowest(ctx->dev, (struct tt_xy){ 0, 0 });

	return lowest > TT_L1_PROG_UNRESERVED ? lowest - TT_L1_PROG_UNRESERVED :
					       0;
}

int tt_ops_check_tensor_any(tt_ops_ctx *ctx, const char *fn, const char *arg,
			    const tt_device_tensor *t)
{
	return check_tensor(ctx, fn, arg, t, true);
}

bool tt_ops_format_int(enum tt_data_format fmt)
{
	return fmt == TT_INT32 || fmt == TT_UINT32 || fmt == TT_UINT16 ||
	       fmt == TT_UINT8;
}

int tt_ops_accessor_words(const char *fn, const char *arg,
			  const tt_device_tensor *t, uint32_t *words,
			  unsigned *n)
{
	tt_buffer *buf = tt_device_tensor_buffer(t);
	int ret;

	*n = 0;
	if (tt_buffer_layout(buf) == TT_LAYOUT_INTERLEAVED)
		return 0;
	ret = tt_tensor_accessor_args_append(buf, words,
					     TT_TENSOR_ACCESSOR_ARGS_MAX, n);
	if (ret)
		return tt_error(ret, "%s: %s: %s", fn, arg, tt_last_error());
	return 0;
}

uint64_t tt_ops_layout_hash(const uint32_t *words, unsigned n)
{
	uint64_t h = 1469598103934665603ull;

	if (!n)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		h ^= words[i];
		h *= 1099511628211ull;
	}
	return h ? h : 1;
}

static const char *const mem_names[] = {
	"auto", "DRAM", "L1", "L1 height sharded", "L1 width sharded",
	"L1 block sharded",
};

const char *tt_ops_mem_name(enum tt_ops_mem mem)
{
	return (unsigned)mem < sizeof(mem_names) / sizeof(mem_names[0]) ?
		       mem_names[mem] :
		       NULL;
}

static uint32_t div_up(uint64_t a, uint64_t b)
{
	return (uint32_t)((a + b - 1) / b);
}

/* The shard spec of a sharded output over grid (tt/ops.h). */
static int shard_spec(const char *fn, const struct tt_shape *shape,
		      enum tt_ops_mem mem, struct tt_xy grid,
		      struct tt_core_range_set *cores,
		      struct tt_buffer_config *cfg)
{
	uint64_t d[4], rows, cols;
	uint32_t cores_n = grid.x * grid.y, sr, sc, n;
	int ret = tt_shape_wzrc(shape, d);

	if (ret)
		return ret;
	cols = (d[3] + 31) / 32;
	rows = d[0] * d[1] * ((d[2] + 31) / 32);
	if (rows > UINT32_MAX || cols > UINT32_MAX)
		return tt_error(-E2BIG, "%s: output of %llu x %llu tiles is too large to shard",
				fn, (unsigned long long)rows,
				(unsigned long long)cols);
	switch (mem) {
	case TT_OPS_MEM_L1_HEIGHT_SHARDED:
		sr = div_up(rows, cores_n);
		sc = (uint32_t)cols;
		n = div_up(rows, sr);
		ret = tt_num_cores_to_core_range_set(n, grid, true, cores);
		break;
	case TT_OPS_MEM_L1_WIDTH_SHARDED:
		sr = (uint32_t)rows;
		sc = div_up(cols, cores_n);
		n = div_up(cols, sc);
		ret = tt_num_cores_to_core_range_set(n, grid, true, cores);
		break;
	default: /* block */
		sr = div_up(rows, grid.y);
		sc = div_up(cols, grid.x);
		cores->count = 1;
		cores->ranges[0] = tt_core_range(0, 0, div_up(cols, sc) - 1,
						 div_up(rows, sr) - 1);
		break;
	}
	if (ret)
		return ret;
	cfg->layout = mem == TT_OPS_MEM_L1_HEIGHT_SHARDED ? TT_LAYOUT_HEIGHT_SHARDED :
		      mem == TT_OPS_MEM_L1_WIDTH_SHARDED  ? TT_LAYOUT_WIDTH_SHARDED :
							    TT_LAYOUT_BLOCK_SHARDED;
	cfg->shard = (struct tt_shard_spec_buffer){
		.spec = { .grid = cores, .shape = { sr * 32, sc * 32 },
			  .orientation = TT_SHARD_ROW_MAJOR },
		.page_shape = { 32, 32 },
		.tensor2d_shape_in_pages = { (uint32_t)rows, (uint32_t)cols },
	};
	return 0;
}

int tt_ops_create_output(tt_ops_ctx *ctx, const char *fn,
			 const struct tt_shape *shape, enum tt_data_format fmt,
			 enum tt_ops_mem mem, struct tt_xy grid,
			 tt_device_tensor **out)
{
	struct tt_buffer_config cfg = { .device = ctx->dev, .type = TT_BUFFER_L1 };
	struct tt_core_range_set cores;
	char s[100];
	tt_buffer *buf;
	int ret;

	if (mem == TT_OPS_MEM_DRAM || mem == TT_OPS_MEM_L1)
		ret = tt_device_tensor_create(ctx->dev, shape, fmt,
					      mem == TT_OPS_MEM_DRAM ?
						      TT_BUFFER_DRAM :
						      TT_BUFFER_L1,
					      out);
	else {
		ret = shard_spec(fn, shape, mem, grid, &cores, &cfg);
		cfg.page_size = tt_tile_size(fmt);
		cfg.size = (uint64_t)cfg.shard.tensor2d_shape_in_pages[0] *
			   cfg.shard.tensor2d_shape_in_pages[1] * cfg.page_size;
		if (!ret)
			ret = tt_create_buffer(&cfg, &buf);
		if (!ret) {
			ret = tt_device_tensor_on_buffer(buf, 0, shape, fmt, out);
			tt_buffer_free(buf);
		}
	}
	if (ret)
		return tt_error(ret, "%s: output %s %s in %s: %s", fn,
				tt_ops_shape_str(shape, s, sizeof(s)),
				tt_data_format_name(fmt), tt_ops_mem_name(mem),
				tt_last_error());
	return 0;
}

int tt_ops_out_mem_interleaved(const char *fn, enum tt_ops_mem mem,
			       enum tt_buffer_type dflt,
			       enum tt_buffer_type *out)
{
	switch (mem) {
	case TT_OPS_MEM_AUTO:
		*out = dflt;
		return 0;
	case TT_OPS_MEM_DRAM:
		*out = TT_BUFFER_DRAM;
		return 0;
	case TT_OPS_MEM_L1:
		*out = TT_BUFFER_L1;
		return 0;
	case TT_OPS_MEM_L1_HEIGHT_SHARDED:
	case TT_OPS_MEM_L1_WIDTH_SHARDED:
	case TT_OPS_MEM_L1_BLOCK_SHARDED:
		return tt_error(-ENOTSUP, "%s: cfg.out_mem %s: this op writes interleaved outputs (DRAM or L1) only",
				fn, tt_ops_mem_name(mem));
	}
	return tt_error(-EINVAL, "%s: cfg.out_mem %d is not a placement (0 auto, 1 DRAM, 2 L1, 3..5 L1 height, width, block sharded)",
			fn, (int)mem);
}

int tt_ops_check_given_out(const char *fn, const tt_device_tensor *out,
			   const uint64_t *o, const struct tt_shape *oshape,
			   enum tt_data_format fmt, enum tt_ops_mem mem,
			   enum tt_buffer_type mo)
{
	enum tt_buffer_type t = tt_buffer_type(tt_device_tensor_buffer(out));
	char s1[100], s2[100];
	uint64_t d[4];
	int ret = tt_shape_wzrc(tt_device_tensor_shape(out), d);

	if (ret)
		return ret;
	if (memcmp(d, o, sizeof(d)))
		return tt_error(-EINVAL, "%s: out is %s; the result is %s", fn,
				tt_ops_shape_str(tt_device_tensor_shape(out), s1,
						 sizeof(s1)),
				tt_ops_shape_str(oshape, s2, sizeof(s2)));
	if (fmt != TT_OPS_FORMAT_AUTO && tt_device_tensor_format(out) != fmt)
		return tt_error(-EINVAL, "%s: out is %s; cfg.out_format asks for %s",
				fn, tt_data_format_name(tt_device_tensor_format(out)),
				tt_data_format_name(fmt));
	if (mem != TT_OPS_MEM_AUTO && t != mo)
		return tt_error(-EINVAL, "%s: out is in %s; cfg.out_mem asks for %s",
				fn, tt_buffer_type_name(t), tt_buffer_type_name(mo));
	return 0;
}

int tt_ops_add_cb(tt_program *prog, const struct tt_core_range_set *cores,
		  unsigned index, enum tt_data_format fmt, uint64_t pages)
{
	uint32_t page = (uint32_t)tt_tile_size(fmt);
	struct tt_circular_buffer_config c = tt_circular_buffer_config(
		(uint32_t)(pages * page), index, fmt, page);
	tt_cb_handle h;

	return tt_create_circular_buffer(prog, cores, &c, &h);
}
