// SPDX-License-Identifier: Apache-2.0
/*
 * Data movement ops (tt/ops/data.h): transpose, permute, reshape,
 * concat, slice, pad, repeat, tilize, untilize and embedding. Every one
 * is the same program shape: one data-movement kernel per core
 * (kernels/data/gather.c) that builds its share of the output's units
 * (tiles; rows for untilize) element by element from input pages it
 * caches in L1, told by a few geometry words (its common runtime args)
 * where each output element comes from. No element passes through the
 * compute engine, so every non-block format moves exactly.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops_internal.h"
#include "ops_data_gather_src.h"

/* The kernel's geometry words (kernels/data/gather.c). */
#define A_O 0
#define A_I 4
#define A_OWT 8
#define A_OHT 9
#define A_IWT 10
#define A_IHT 11
#define A_SRC 12
#define A_STEP 16
#define A_START 20
#define A_WRAP 24
#define A_PAD 28
#define A_BOX0 29
#define A_BOXN 33
#define A_XR 37
#define A_XC 38
#define A_XWT 39
#define A_INPAGE 40
#define A_OUTPAGE 41
#define A_COUNT 42

#define CB_CACHE 0u
#define CB_IDX 1u
#define CB_OUT 16u
#define MAX_SLOTS 64u
#define AUTO_SLOTS 32u
/* Output units a core gets at least when the op chooses the grid. */
#define AUTO_MIN_UNITS_PER_CORE 4u

enum data_op {
	OP_PERMUTE = 1,
	OP_RESHAPE,
	OP_CONCAT,
	OP_SLICE,
	OP_PAD,
	OP_REPEAT,
	OP_EMBEDDING,
	OP_TILIZE,
	OP_UNTILIZE,
};

enum { MODE_AFFINE = 0, MODE_RESHAPE = 1, MODE_EMBED = 2 };

struct tt_data_cfg tt_op_data_config(void)
{
	return (struct tt_data_cfg){ .out_format = TT_OPS_FORMAT_AUTO };
}

/* A call's program, every "auto" resolved. */
struct dplan {
	const char *fn;
	uint32_t op, mode, merge, in_rows, out_rows, tile_copy, bits;
	uint32_t g[A_COUNT];
	uint64_t units;
	enum tt_data_format fmt, fx;
	uint32_t es;
	enum tt_buffer_type mi, mo, mx;
	struct tt_xy grid;
	uint32_t cores, tpc, slots;
	uint64_t i4[4], o4[4];
	struct tt_shape oshape;
	tt_buffer *given; /* the caller's output buffer, or NULL */
};

static uint64_t tiles_of(uint64_t n)
{
	return (n + 31) / 32;
}

static uint32_t align_up(uint32_t n, uint32_t a)
{
	return (n + a - 1) / a * a;
}

static bool data_format_ok(enum tt_data_format f)
{
	switch (f) {
	case TT_FLOAT32:
	case TT_FLOAT16:
	case TT_FLOAT16_B:
	case TT_INT32:
	case TT_UINT32:
	case TT_UINT16:
	case TT_INT8:
	case TT_UINT8:
		return true;
	default:
		return false;
	}
}

static int format_error(const char *fn, const char *arg,
			enum tt_data_format f)
{
	if (tt_data_format_is_block(f))
		return tt_error(-ENOTSUP,
				"%s: %s is %s: block formats share an exponent among 16 elements, so elements cannot move alone (tt_op_typecast to Float16_b first); the data movement ops take Float32, Float16, Float16_b, Int32, UInt32, UInt16, Int8 and UInt8",
				fn, arg, tt_data_format_name(f));
	return tt_error(-ENOTSUP,
			"%s: %s is %s; the data movement ops take Float32, Float16, Float16_b, Int32, UInt32, UInt16, Int8 and UInt8",
			fn, arg, tt_data_format_name(f));
}

static int check_buffer(tt_ops_ctx *ctx, const char *fn, const char *arg,
			tt_buffer *buf)
{
	if (!buf)
		return tt_error(-EINVAL, "%s: %s has no buffer", fn, arg);
	if (tt_buffer_device(buf) != ctx->dev)
		return tt_error(-ENODEV,
				"%s: %s is on another device than the context's",
				fn, arg);
	if (!tt_buffer_is_allocated(buf))
		return tt_error(-ENXIO, "%s: %s: its buffer was deallocated",
				fn, arg);
	if (tt_buffer_layout(buf) != TT_LAYOUT_INTERLEAVED)
		return tt_error(-ENOTSUP,
				"%s: %s is %s; the ops take interleaved tensors (DRAM or L1)",
				fn, arg,
				tt_tensor_memory_layout_name(tt_buffer_layout(buf)));
	return 0;
}

/* A tensor argument; block formats pass with block_ok (they are
 * checked again once the op knows whether it moves whole tiles). */
static int check_tensor_fmt(tt_ops_ctx *ctx, const char *fn, const char *arg,
			    const tt_device_tensor *t, bool block_ok)
{
	enum tt_data_format f;
	int ret;

	if (!t)
		return tt_error(-EINVAL, "%s: %s is NULL", fn, arg);
	ret = check_buffer(ctx, fn, arg, tt_device_tensor_buffer(t));
	if (ret)
		return ret;
	f = tt_device_tensor_format(t);
	if (!data_format_ok(f) &&
	    !(block_ok && tt_data_format_is_block(f) && tt_tile_size(f)))
		return format_error(fn, arg, f);
	return 0;
}

static int check_tensor(tt_ops_ctx *ctx, const char *fn, const char *arg,
			const tt_device_tensor *t)
{
	return check_tensor_fmt(ctx, fn, arg, t, false);
}

static int check_tensor_tiles(tt_ops_ctx *ctx, const char *fn,
			      const char *arg, const tt_device_tensor *t)
{
	return check_tensor_fmt(ctx, fn, arg, t, true);
}

static void wzrc(const tt_device_tensor *t, uint64_t *d)
{
	tt_shape_wzrc(tt_device_tensor_shape(t), d);
}

/* Dims and identity geometry: output element [w, z, r, c] is input
 * element [w, z, r, c]; the whole output; tile pages. */
static int geom_init(struct dplan *p, const uint64_t *i4, const uint64_t *o4)
{
	uint64_t ot;

	memcpy(p->i4, i4, sizeof(p->i4));
	memcpy(p->o4, o4, sizeof(p->o4));
	ot = o4[0] * o4[1] * tiles_of(o4[2]) * tiles_of(o4[3]);
	for (int d = 0; d < 4; d++) {
		if (i4[d] > INT32_MAX || o4[d] > INT32_MAX)
			return tt_error(-E2BIG, "%s: a dimension of %llu; at most %d",
					p->fn, (unsigned long long)(i4[d] > o4[d] ? i4[d] : o4[d]),
					INT32_MAX);
		p->g[A_O + d] = (uint32_t)o4[d];
		p->g[A_I + d] = (uint32_t)i4[d];
		p->g[A_SRC + d] = (uint32_t)d;
		p->g[A_STEP + d] = 1;
		p->g[A_START + d] = 0;
		p->g[A_WRAP + d] = 0;
		p->g[A_BOX0 + d] = 0;
	}
	if (ot > UINT32_MAX / 2 ||
	    i4[0] * i4[1] * tiles_of(i4[2]) * tiles_of(i4[3]) > UINT32_MAX / 2)
		return tt_error(-E2BIG, "%s: more than %u tiles", p->fn,
				UINT32_MAX / 2);
	p->g[A_OWT] = (uint32_t)tiles_of(o4[3]);
	p->g[A_OHT] = (uint32_t)tiles_of(o4[2]);
	p->g[A_IWT] = (uint32_t)tiles_of(i4[3]);
	p->g[A_IHT] = (uint32_t)tiles_of(i4[2]);
	p->g[A_BOXN + 0] = (uint32_t)o4[0];
	p->g[A_BOXN + 1] = (uint32_t)o4[1];
	p->g[A_BOXN + 2] = p->g[A_OHT];
	p->g[A_BOXN + 3] = p->g[A_OWT];
	p->g[A_INPAGE] = (uint32_t)tt_tile_size(p->fmt);
	p->g[A_OUTPAGE] = (uint32_t)tt_tile_size(p->fmt);
	p->es = (uint32_t)tt_data_format_elem_size(p->fmt);
	p->bits = p->fmt == TT_BFP8_B ? 8 : p->fmt == TT_BFP4_B ? 4 :
		  p->fmt == TT_BFP2_B ? 2 : 0;
	p->units = ot;
	return 0;
}

/*
 * Whole-tile moves: every output tile is one input tile when the op keeps
 * rows and columns (same last two dims, mapped to themselves) and maps
 * output matrices [w, z] to input matrices inside the input. Block
 * formats take only this path.
 */
static int decide_tile_copy(struct dplan *p)
{
	bool ok = !p->in_rows && !p->out_rows && p->mode != MODE_EMBED &&
		  p->i4[2] == p->o4[2] && p->i4[3] == p->o4[3];

	if (ok && p->mode == MODE_AFFINE) {
		for (int d = 2; d < 4; d++)
			ok = ok && p->g[A_SRC + d] == (uint32_t)d &&
			     p->g[A_STEP + d] == 1 && p->g[A_START + d] == 0;
		for (int d = 0; d < 2 && ok; d++) {
			uint32_t s = p->g[A_SRC + d];
			int64_t lo, hi;

			if (s >= 2) {
				ok = false;
				break;
			}
			if (p->g[A_WRAP + d])
				continue;
			lo = (int64_t)p->g[A_BOX0 + s] * p->g[A_STEP + d] +
			     (int32_t)p->g[A_START + d];
			hi = (int64_t)(p->g[A_BOX0 + s] + p->g[A_BOXN + s] - 1) *
				     p->g[A_STEP + d] + (int32_t)p->g[A_START + d];
			ok = lo >= 0 && hi < (int64_t)p->i4[d];
		}
	}
	p->tile_copy = ok;
	if (ok)
		p->merge = 0; /* every tile of the box is replaced whole */
	if (p->bits && !ok)
		return tt_error(-ENOTSUP,
				"%s: the input is %s: block formats share an exponent among 16 elements, so they move only as whole tiles (ops that keep the last two dims: permutes and transposes of the outer dims, concat, slice and repeat along them, reshapes keeping the last two dims); this call moves elements (tt_op_typecast to Float16_b first)",
				p->fn, tt_data_format_name(p->fmt));
	return 0;
}

/* Grid, split, cache pages, L1, placement and format from the config. */
static int plan_config(tt_ops_ctx *ctx, struct dplan *p,
		       const struct tt_data_cfg *c)
{
	unsigned gw, gh;
	uint64_t max_cores, n, need, have;
	uint32_t inpage, outpage, fixed;
	int ret = tt_device_logical_grid(ctx->dev, &gw, &gh);

	if (ret)
		return ret;
	if (c->out_format != TT_OPS_FORMAT_AUTO && c->out_format != p->fmt)
		return tt_error(data_format_ok(c->out_format) || tt_tile_size(c->out_format) ? -ENOTSUP : -EINVAL,
				"%s: cfg.out_format %s: the data movement ops do not convert; the output is %s as the input (tt_op_typecast converts)",
				p->fn, tt_data_format_name(c->out_format),
				tt_data_format_name(p->fmt));
	ret = tt_ops_out_mem_interleaved(p->fn, c->out_mem, p->mi,
					 &p->mo);
	if (ret)
		return ret;
	if (p->given) {
		enum tt_buffer_type t = tt_buffer_type(p->given);

		if (c->out_mem != TT_OPS_MEM_AUTO && t != p->mo)
			return tt_error(-EINVAL, "%s: out is in %s; cfg.out_mem asks for %s",
					p->fn, tt_buffer_type_name(t),
					tt_buffer_type_name(p->mo));
		p->mo = t;
	}
	p->grid = c->grid;
	if (!p->grid.x && !p->grid.y)
		p->grid = (struct tt_xy){ gw, gh };
	if (!p->grid.x || !p->grid.y || p->grid.x > gw || p->grid.y > gh)
		return tt_error(-EINVAL, "%s: cfg.grid %ux%u does not fit the device's %ux%u logical grid",
				p->fn, p->grid.x, p->grid.y, gw, gh);
	max_cores = (uint64_t)p->grid.x * p->grid.y;
	if (c->tiles_per_core) {
		n = (p->units + c->tiles_per_core - 1) / c->tiles_per_core;
		if (n > max_cores)
			return tt_error(-EINVAL,
					"%s: cfg.tiles_per_core %u: %llu %s need %llu cores, cfg.grid %ux%u has %llu",
					p->fn, c->tiles_per_core,
					(unsigned long long)p->units,
					p->out_rows ? "rows" : "tiles",
					(unsigned long long)n, p->grid.x, p->grid.y,
					(unsigned long long)max_cores);
	} else {
		n = (p->units + AUTO_MIN_UNITS_PER_CORE - 1) /
		    AUTO_MIN_UNITS_PER_CORE;
		if (c->grid.x || c->grid.y)
			n = p->units;
		if (n > max_cores)
			n = max_cores;
	}
	p->cores = (uint32_t)n;
	p->tpc = c->tiles_per_core;

	/* L1: the input page cache, one output unit, an index tile */
	if (c->cache_pages > MAX_SLOTS)
		return tt_error(-EINVAL, "%s: cfg.cache_pages %u: at most %u",
				p->fn, c->cache_pages, MAX_SLOTS);
	inpage = align_up(p->g[A_INPAGE], 32);
	outpage = align_up(p->g[A_OUTPAGE], 32);
	fixed = outpage + (p->mode == MODE_EMBED ? 4096u : 0u);
	have = tt_ops_l1_free(ctx);
	if (c->cache_pages) {
		p->slots = c->cache_pages;
	} else if (p->tile_copy) {
		p->slots = 1; /* tiles go straight to the output page */
	} else {
		p->slots = p->out_rows ? p->g[A_IWT] : AUTO_SLOTS;
		if (p->slots > MAX_SLOTS)
			p->slots = MAX_SLOTS;
		while (p->slots > 1 &&
		       (uint64_t)p->slots * inpage + fixed > have)
			p->slots /= 2;
	}
	need = (uint64_t)p->slots * inpage + fixed;
	if (need > have)
		return tt_error(-ENOMEM,
				"%s: needs %llu bytes of L1 per core (cfg.cache_pages %u x %u-byte input pages + %u bytes of output%s), a core has %llu free",
				p->fn, (unsigned long long)need, p->slots, inpage,
				outpage, p->mode == MODE_EMBED ? " and index" : "",
				(unsigned long long)have);
	return 0;
}

/* FNV-1a of the geometry words. */
static uint64_t geom_hash(const uint32_t *g)
{
	const unsigned char *b = (const unsigned char *)g;
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < A_COUNT * sizeof(uint32_t); i++) {
		h ^= b[i];
		h *= 1099511628211ull;
	}
	return h;
}

static void plan_key(const struct dplan *p, struct tt_ops_key *k)
{
	uint64_t h = geom_hash(p->g);

	memset(k, 0, sizeof(*k));
	k->family = TT_OPS_DATA;
	k->op[0] = p->op;
	k->op[1] = p->mode;
	k->op[2] = p->merge | p->in_rows << 1 | p->out_rows << 2 |
		   p->tile_copy << 3;
	k->op[3] = p->es | p->bits << 8;
	k->param[0] = (uint32_t)h;
	k->param[1] = (uint32_t)(h >> 32);
	k->param[2] = p->g[A_PAD];
	memcpy(k->shape[0], p->i4, sizeof(p->i4));
	memcpy(k->shape[2], p->o4, sizeof(p->o4));
	k->fmt[0] = p->fmt;
	k->fmt[1] = p->fx;
	k->fmt[2] = p->fmt;
	k->mem[0] = p->mi;
	k->mem[1] = p->mx;
	k->mem[2] = p->mo;
	k->grid_x = p->grid.x;
	k->grid_y = p->grid.y;
	k->cores = p->cores;
	k->tiles_per_core = p->tpc;
	k->buffering = p->slots;
}

static int add_cb(tt_program *prog, const struct tt_core_range_set *cores,
		  unsigned index, enum tt_data_format fmt, uint32_t page,
		  uint32_t pages)
{
	struct tt_circular_buffer_config c =
		tt_circular_buffer_config(pages * page, index, fmt, page);
	tt_cb_handle h;

	return tt_create_circular_buffer(prog, cores, &c, &h);
}

static int build(const struct dplan *p, struct tt_ops_entry **out)
{
	struct tt_kernel_config rc = tt_reader_config();
	struct tt_core_range_set set;
	struct tt_ops_entry *e;
	tt_kernel_handle k;
	unsigned cnt;
	int ret;
	const struct tt_named_arg args[] = {
		{ "MODE", p->mode },
		{ "ES", p->es },
		{ "BITS", p->bits },
		{ "SLOTS", p->slots },
		{ "MERGE", p->merge },
		{ "TILE_COPY", p->tile_copy },
		{ "IN_ROWS", p->in_rows },
		{ "OUT_ROWS", p->out_rows },
		{ "IN_DRAM", p->mi == TT_BUFFER_DRAM },
		{ "OUT_DRAM", p->mo == TT_BUFFER_DRAM },
		{ "IDX_DRAM", p->mx == TT_BUFFER_DRAM },
	};

	ret = tt_num_cores_to_core_range_set(p->cores, p->grid, true, &set);
	if (ret)
		return ret;
	ret = tt_ops_entry_new(p->fn, p->cores, &e);
	if (ret)
		return ret;
	plan_key(p, &e->key);
	if (!ret)
		ret = add_cb(e->prog, &set, CB_CACHE, p->fmt,
			     align_up(p->g[A_INPAGE], 32), p->slots);
	if (!ret && p->mode == MODE_EMBED)
		ret = add_cb(e->prog, &set, CB_IDX, p->fx, 4096, 1);
	if (!ret)
		ret = add_cb(e->prog, &set, CB_OUT, p->fmt,
			     align_up(p->g[A_OUTPAGE], 32), 1);
	rc.named_compile_args = args;
	rc.named_compile_arg_count = TT_OPS_NARGS(args);
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_data_gather,
						   &set, &rc, &k);
	if (!ret)
		ret = tt_set_common_runtime_args(e->prog, k, p->g, A_COUNT);
	for (uint32_t i = 0, start = 0; !ret && i < p->cores; i++) {
		struct tt_ops_core *oc = &e->cores[i];
		uint32_t n = p->tpc ? (uint32_t)(p->units - start < p->tpc ?
						 p->units - start : p->tpc) :
				      (uint32_t)(p->units / p->cores) +
					      (i < p->units % p->cores);
		uint32_t r[8] = { 0, 0, 0, 0, start, n, 0, 0 };

		oc->xy = (struct tt_xy){ i % p->grid.x, i / p->grid.x };
		oc->start = start;
		oc->tiles = n;
		ret = tt_set_runtime_args(e->prog, k, oc->xy, r, 8);
		if (!ret)
			ret = tt_get_runtime_args(e->prog, k, oc->xy, &oc->rargs,
						  &cnt);
		start += n;
	}
	/* The geometry words, to tell a hash collision from a hit. */
	if (!ret)
		ret = tt_get_common_runtime_args(e->prog, k, &e->cores[0].wargs,
						 &cnt);
	if (ret) {
		tt_ops_entry_free(e);
		return ret;
	}
	*out = e;
	return 0;
}

/* Where the output lives and what it is, for *out given or not. */
static int prepare_out(tt_ops_ctx *ctx, struct dplan *p, tt_device_tensor **out,
		       bool *created)
{
	char s1[100], s2[100];
	uint64_t d[4];
	int ret;

	*created = false;
	if (!*out) {
		ret = tt_device_tensor_create(ctx->dev, &p->oshape, p->fmt, p->mo,
					      out);
		if (ret)
			return tt_error(ret, "%s: output %s %s in %s: %s", p->fn,
					tt_ops_shape_str(&p->oshape, s1, sizeof(s1)),
					tt_data_format_name(p->fmt),
					tt_buffer_type_name(p->mo), tt_last_error());
		*created = true;
		return 0;
	}
	wzrc(*out, d);
	if (memcmp(d, p->o4, sizeof(d)))
		return tt_error(-EINVAL, "%s: out is %s; the result is %s", p->fn,
				tt_ops_shape_str(tt_device_tensor_shape(*out), s1, sizeof(s1)),
				tt_ops_shape_str(&p->oshape, s2, sizeof(s2)));
	if (tt_device_tensor_format(*out) != p->fmt)
		return tt_error(-EINVAL, "%s: out is %s; the result is %s", p->fn,
				tt_data_format_name(tt_device_tensor_format(*out)),
				tt_data_format_name(p->fmt));
	return 0;
}

/* Find or build the program, set its buffers, enqueue, record. */
static int run(tt_ops_ctx *ctx, struct dplan *p, double t0, tt_buffer *in,
	       uint64_t in_first, tt_buffer *outb, uint64_t out_first,
	       const tt_device_tensor *idx, const char *shapes)
{
	struct tt_ops_entry *e, *made = NULL;
	struct tt_ops_key key;
	bool hit, collision = false;
	int ret;

	plan_key(p, &key);

	e = tt_ops_cache_find(ctx, &key);
	if (e && memcmp(e->cores[0].wargs, p->g, sizeof(p->g))) {
		/* Same hash, other geometry: a program of its own, run once
		 * and not cached. */
		ctx->hits--;
		e = NULL;
		collision = true;
	}
	hit = e != NULL;
	if (!e) {
		ret = build(p, &e);
		if (ret)
			return ret;
		if (collision)
			made = e;
		else
			tt_ops_cache_add(ctx, e);
	}
	for (unsigned i = 0; i < e->ncores; i++) {
		uint32_t *r = e->cores[i].rargs;

		r[0] = (uint32_t)tt_buffer_address(in);
		r[1] = (uint32_t)in_first;
		r[2] = (uint32_t)tt_buffer_address(outb);
		r[3] = (uint32_t)out_first;
		r[6] = idx ? (uint32_t)tt_buffer_address(tt_device_tensor_buffer(idx)) : 0;
		r[7] = idx ? (uint32_t)tt_device_tensor_first_tile(idx) : 0;
	}
	ret = tt_ops_enqueue(ctx, e->prog, made != NULL);
	if (!ret && ctx->prof_prefix) {
		struct tt_ops_rec r = { .hit = hit, .cores = p->cores,
					.tiles = p->units, .start_us = t0 };
		double t1 = tt_ops_now_us();

		ret = tt_finish(ctx->cq);
		r.enqueue_us = t1 - t0;
		r.finish_us = tt_ops_now_us() - t1;
		snprintf(r.name, sizeof(r.name), "%s", p->fn);
		snprintf(r.shapes, sizeof(r.shapes), "%s", shapes);
		snprintf(r.config, sizeof(r.config),
			 "grid %ux%u cores %u tiles_per_core %u cache_pages %u out %s %s",
			 p->grid.x, p->grid.y, p->cores, p->tpc, p->slots,
			 tt_data_format_name(p->fmt), tt_buffer_type_name(p->mo));
		tt_ops_profile_record(ctx, &r);
	}
	tt_ops_entry_free(made);
	return ret;
}

/* ---- the ops ---- */

#define CHECK_COMMON(fn)                                                      \
	do {                                                                  \
		if (!ctx)                                                     \
			return tt_error(-EINVAL, "%s: ctx is NULL", fn);      \
		if (!out)                                                     \
			return tt_error(-EINVAL, "%s: out is NULL", fn);      \
	} while (0)

static void shapes_str(const struct dplan *p, const tt_device_tensor *a,
		       char *buf, size_t len)
{
	char s1[100], s2[100];
	struct tt_shape is = { 4, { p->i4[0], p->i4[1], p->i4[2], p->i4[3] } };

	snprintf(buf, len, "a %s %s -> %s",
		 tt_ops_shape_str(a ? tt_device_tensor_shape(a) : &is, s1, sizeof(s1)),
		 tt_data_format_name(p->fmt),
		 tt_ops_shape_str(&p->oshape, s2, sizeof(s2)));
}

/* One input tensor, one output tensor: config, output, run. */
static int single(tt_ops_ctx *ctx, struct dplan *p, const tt_device_tensor *a,
		  const tt_device_tensor *idx, const struct tt_data_cfg *cfg,
		  tt_device_tensor **out, double t0)
{
	struct tt_data_cfg c = cfg ? *cfg : tt_op_data_config();
	char shapes[192];
	bool created;
	int ret;

	if (*out) {
		ret = check_tensor_tiles(ctx, p->fn, "out", *out);
		if (ret)
			return ret;
		p->given = tt_device_tensor_buffer(*out);
	}
	ret = decide_tile_copy(p);
	if (!ret)
		ret = plan_config(ctx, p, &c);
	if (!ret)
		ret = prepare_out(ctx, p, out, &created);
	if (ret)
		return ret;
	shapes_str(p, a, shapes, sizeof(shapes));
	ret = run(ctx, p, t0, tt_device_tensor_buffer(a),
		  tt_device_tensor_first_tile(a), tt_device_tensor_buffer(*out),
		  tt_device_tensor_first_tile(*out), idx, shapes);
	if (ret && created) {
		tt_device_tensor_free(*out);
		*out = NULL;
	}
	return ret;
}

static void plan_input(struct dplan *p, const char *fn, const tt_device_tensor *a)
{
	memset(p, 0, sizeof(*p));
	p->fn = fn;
	p->fmt = tt_device_tensor_format(a);
	p->fx = TT_INVALID;
	p->mi = tt_buffer_type(tt_device_tensor_buffer(a));
	p->mx = p->mi;
	p->oshape = *tt_device_tensor_shape(a);
}

static int permute_impl(tt_ops_ctx *ctx, const char *fn,
			const tt_device_tensor *a, const unsigned *perm,
			const struct tt_data_cfg *cfg, tt_device_tensor **out)
{
	double t0 = tt_ops_now_us();
	const struct tt_shape *as;
	uint64_t i4[4], o4[4];
	unsigned n, off, P[4];
	bool seen[4] = { false };
	struct dplan p;
	int ret;

	CHECK_COMMON(fn);
	ret = check_tensor_tiles(ctx, fn, "a", a);
	if (ret)
		return ret;
	if (!perm)
		return tt_error(-EINVAL, "%s: perm is NULL", fn);
	as = tt_device_tensor_shape(a);
	n = as->rank;
	off = 4 - n;
	for (unsigned k = 0; k < n; k++) {
		if (perm[k] >= n || seen[perm[k]]) {
			char b[64];
			size_t m = 0;

			for (unsigned j = 0; j < n; j++)
				m += (size_t)snprintf(b + m, sizeof(b) - m, "%s%u",
						      j ? "," : "", perm[j]);
			return tt_error(-EINVAL,
					"%s: perm [%s] is not a permutation of 0..%u (a has rank %u): entry %u is %u, %s",
					fn, b, n - 1, n, k, perm[k],
					perm[k] >= n ? "out of range" : "repeated");
		}
		seen[perm[k]] = true;
	}
	plan_input(&p, fn, a);
	p.op = OP_PERMUTE;
	wzrc(a, i4);
	for (unsigned K = 0; K < 4; K++) {
		P[K] = K < off ? K : perm[K - off] + off;
		o4[K] = i4[P[K]];
	}
	for (unsigned k = 0; k < n; k++)
		p.oshape.dims[k] = as->dims[perm[k]];
	ret = geom_init(&p, i4, o4);
	if (ret)
		return ret;
	for (unsigned K = 0; K < 4; K++)
		p.g[A_SRC + P[K]] = K;
	return single(ctx, &p, a, NULL, cfg, out, t0);
}

int tt_op_permute(tt_ops_ctx *ctx, const tt_device_tensor *a,
		  const unsigned *perm, const struct tt_data_cfg *cfg,
		  tt_device_tensor **out)
{
	return permute_impl(ctx, "tt_op_permute", a, perm, cfg, out);
}

static int norm_dim(const char *fn, const char *arg, int d, unsigned rank,
		    unsigned *out)
{
	if (d < -(int)rank || d >= (int)rank)
		return tt_error(-EINVAL, "%s: %s %d is out of range for rank %u (-%u..%u)",
				fn, arg, d, rank, rank, rank - 1);
	*out = d < 0 ? (unsigned)(d + (int)rank) : (unsigned)d;
	return 0;
}

int tt_op_transpose(tt_ops_ctx *ctx, const tt_device_tensor *a, int dim0,
		    int dim1, const struct tt_data_cfg *cfg,
		    tt_device_tensor **out)
{
	const char *fn = "tt_op_transpose";
	unsigned perm[4] = { 0, 1, 2, 3 }, d0 = 0, d1 = 0, rank;
	int ret;

	CHECK_COMMON(fn);
	ret = check_tensor_tiles(ctx, fn, "a", a);
	if (ret)
		return ret;
	rank = tt_device_tensor_shape(a)->rank;
	ret = norm_dim(fn, "dim0", dim0, rank, &d0);
	if (!ret)
		ret = norm_dim(fn, "dim1", dim1, rank, &d1);
	if (ret)
		return ret;
	perm[d0] = d1;
	perm[d1] = d0;
	return permute_impl(ctx, fn, a, perm, cfg, out);
}

int tt_op_reshape(tt_ops_ctx *ctx, const tt_device_tensor *a,
		  const struct tt_shape *shape, const struct tt_data_cfg *cfg,
		  tt_device_tensor **out)
{
	const char *fn = "tt_op_reshape";
	double t0 = tt_ops_now_us();
	uint64_t i4[4], o4[4];
	size_t vi, vo;
	char s1[100], s2[100];
	struct dplan p;
	int ret;

	CHECK_COMMON(fn);
	ret = check_tensor_tiles(ctx, fn, "a", a);
	if (ret)
		return ret;
	if (!shape)
		return tt_error(-EINVAL, "%s: shape is NULL", fn);
	ret = tt_shape_volume(shape, &vo);
	if (ret)
		return tt_error(ret, "%s: shape: %s", fn, tt_last_error());
	tt_shape_volume(tt_device_tensor_shape(a), &vi);
	if (vi != vo)
		return tt_error(-EINVAL,
				"%s: shape %s has %zu elements; a %s has %zu",
				fn, tt_ops_shape_str(shape, s1, sizeof(s1)), vo,
				tt_ops_shape_str(tt_device_tensor_shape(a), s2, sizeof(s2)),
				vi);
	if (vi > UINT32_MAX)
		return tt_error(-E2BIG, "%s: %zu elements; at most %u", fn, vi,
				UINT32_MAX);
	plan_input(&p, fn, a);
	p.op = OP_RESHAPE;
	p.mode = MODE_RESHAPE;
	p.oshape = *shape;
	wzrc(a, i4);
	tt_shape_wzrc(shape, o4);
	ret = geom_init(&p, i4, o4);
	if (ret)
		return ret;
	return single(ctx, &p, a, NULL, cfg, out, t0);
}

int tt_op_slice(tt_ops_ctx *ctx, const tt_device_tensor *a,
		const int64_t *start, const int64_t *end, const int64_t *step,
		const struct tt_data_cfg *cfg, tt_device_tensor **out)
{
	const char *fn = "tt_op_slice";
	double t0 = tt_ops_now_us();
	const struct tt_shape *as;
	uint64_t i4[4], o4[4];
	unsigned n, off;
	struct dplan p;
	int ret;

	CHECK_COMMON(fn);
	ret = check_tensor_tiles(ctx, fn, "a", a);
	if (ret)
		return ret;
	if (!start || !end)
		return tt_error(-EINVAL, "%s: %s is NULL", fn, start ? "end" : "start");
	as = tt_device_tensor_shape(a);
	n = as->rank;
	off = 4 - n;
	plan_input(&p, fn, a);
	p.op = OP_SLICE;
	wzrc(a, i4);
	memcpy(o4, i4, sizeof(o4));
	for (unsigned d = 0; d < n; d++) {
		int64_t st = step ? step[d] : 1, dim = (int64_t)as->dims[d];

		if (st < 1)
			return tt_error(-EINVAL, "%s: step[%u] %lld: a step is at least 1",
					fn, d, (long long)st);
		if (start[d] < 0 || start[d] >= dim)
			return tt_error(-EINVAL, "%s: start[%u] %lld is outside dimension %u of a (0..%lld)",
					fn, d, (long long)start[d], d, (long long)dim - 1);
		if (end[d] <= start[d] || end[d] > dim)
			return tt_error(-EINVAL, "%s: end[%u] %lld: dimension %u of a is %lld and start[%u] %lld (start < end <= %lld)",
					fn, d, (long long)end[d], d, (long long)dim,
					d, (long long)start[d], (long long)dim);
		o4[d + off] = (uint64_t)((end[d] - start[d] + st - 1) / st);
		p.oshape.dims[d] = o4[d + off];
	}
	ret = geom_init(&p, i4, o4);
	if (ret)
		return ret;
	for (unsigned d = 0; d < n; d++) {
		/* A step past the dim takes the start element alone, as the
		 * dim does (and fits the kernel's 32-bit words). */
		int64_t st = step ? step[d] : 1;

		if (st > (int64_t)as->dims[d])
			st = (int64_t)as->dims[d];
		p.g[A_STEP + d + off] = (uint32_t)st;
		p.g[A_START + d + off] = (uint32_t)start[d];
	}
	return single(ctx, &p, a, NULL, cfg, out, t0);
}

/* The bits of value in fmt (the low elem-size bytes of the word). */
static uint32_t value_bits(enum tt_data_format fmt, float value)
{
	uint32_t bits = 0;

	tt_convert(fmt, &bits, sizeof(bits), TT_FLOAT32, &value, sizeof(value), 1);
	return bits;
}

int tt_op_pad(tt_ops_ctx *ctx, const tt_device_tensor *a,
	      const uint64_t *before, const uint64_t *after, float value,
	      const struct tt_data_cfg *cfg, tt_device_tensor **out)
{
	const char *fn = "tt_op_pad";
	double t0 = tt_ops_now_us();
	const struct tt_shape *as;
	uint64_t i4[4], o4[4];
	unsigned n, off;
	struct dplan p;
	int ret;

	CHECK_COMMON(fn);
	ret = check_tensor_tiles(ctx, fn, "a", a);
	if (ret)
		return ret;
	as = tt_device_tensor_shape(a);
	n = as->rank;
	off = 4 - n;
	plan_input(&p, fn, a);
	p.op = OP_PAD;
	wzrc(a, i4);
	memcpy(o4, i4, sizeof(o4));
	for (unsigned d = 0; d < n; d++) {
		uint64_t b = before ? before[d] : 0, e = after ? after[d] : 0;

		if (b > INT32_MAX / 2 || e > INT32_MAX / 2 ||
		    i4[d + off] + b + e > INT32_MAX)
			return tt_error(-E2BIG, "%s: dimension %u: %llu + %llu + %llu elements; at most %d",
					fn, d, (unsigned long long)b,
					(unsigned long long)i4[d + off],
					(unsigned long long)e, INT32_MAX);
		o4[d + off] = i4[d + off] + b + e;
		p.oshape.dims[d] = o4[d + off];
	}
	ret = geom_init(&p, i4, o4);
	if (ret)
		return ret;
	for (unsigned d = 0; d < n; d++)
		p.g[A_START + d + off] = (uint32_t)-(int32_t)(before ? before[d] : 0);
	p.g[A_PAD] = value_bits(p.fmt, value);
	return single(ctx, &p, a, NULL, cfg, out, t0);
}

int tt_op_repeat(tt_ops_ctx *ctx, const tt_device_tensor *a,
		 const uint64_t *reps, const struct tt_data_cfg *cfg,
		 tt_device_tensor **out)
{
	const char *fn = "tt_op_repeat";
	double t0 = tt_ops_now_us();
	const struct tt_shape *as;
	uint64_t i4[4], o4[4];
	unsigned n, off;
	struct dplan p;
	int ret;

	CHECK_COMMON(fn);
	ret = check_tensor_tiles(ctx, fn, "a", a);
	if (ret)
		return ret;
	if (!reps)
		return tt_error(-EINVAL, "%s: reps is NULL", fn);
	as = tt_device_tensor_shape(a);
	n = as->rank;
	off = 4 - n;
	plan_input(&p, fn, a);
	p.op = OP_REPEAT;
	wzrc(a, i4);
	memcpy(o4, i4, sizeof(o4));
	for (unsigned d = 0; d < n; d++) {
		if (reps[d] < 1 || reps[d] > INT32_MAX ||
		    i4[d + off] * reps[d] > INT32_MAX)
			return tt_error(reps[d] < 1 ? -EINVAL : -E2BIG,
					"%s: reps[%u] %llu: at least 1 and at most %llu for dimension %u of %llu",
					fn, d, (unsigned long long)reps[d],
					(unsigned long long)(INT32_MAX / i4[d + off]), d,
					(unsigned long long)i4[d + off]);
		o4[d + off] = i4[d + off] * reps[d];
		p.oshape.dims[d] = o4[d + off];
	}
	ret = geom_init(&p, i4, o4);
	if (ret)
		return ret;
	for (unsigned d = 0; d < 4; d++)
		p.g[A_WRAP + d] = o4[d] != i4[d];
	return single(ctx, &p, a, NULL, cfg, out, t0);
}

int tt_op_concat(tt_ops_ctx *ctx, const tt_device_tensor *const *in,
		 unsigned n, int dim, const struct tt_data_cfg *cfg,
		 tt_device_tensor **out)
{
	const char *fn = "tt_op_concat";
	struct tt_data_cfg c = cfg ? *cfg : tt_op_data_config();
	double t0 = tt_ops_now_us();
	const struct tt_shape *s0;
	uint64_t f4[4], o4[4], offset = 0;
	unsigned rank, d = 0, D;
	bool created = false;
	char name[16], s1[100], s2[100];
	struct dplan p;
	int ret;

	CHECK_COMMON(fn);
	if (!in)
		return tt_error(-EINVAL, "%s: in is NULL", fn);
	if (n < 1 || n > 64)
		return tt_error(-EINVAL, "%s: n %u: 1..64 tensors", fn, n);
	for (unsigned k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "in[%u]", k);
		ret = check_tensor_tiles(ctx, fn, name, in[k]);
		if (ret)
			return ret;
	}
	s0 = tt_device_tensor_shape(in[0]);
	rank = s0->rank;
	ret = norm_dim(fn, "dim", dim, rank, &d);
	if (ret)
		return ret;
	D = d + 4 - rank;
	wzrc(in[0], f4);
	memcpy(o4, f4, sizeof(o4));
	o4[D] = 0;
	for (unsigned k = 0; k < n; k++) {
		const struct tt_shape *sk = tt_device_tensor_shape(in[k]);
		uint64_t k4[4];

		wzrc(in[k], k4);
		if (tt_device_tensor_format(in[k]) != tt_device_tensor_format(in[0]))
			return tt_error(-EINVAL, "%s: in[%u] is %s, in[0] %s: one format",
					fn, k,
					tt_data_format_name(tt_device_tensor_format(in[k])),
					tt_data_format_name(tt_device_tensor_format(in[0])));
		if (sk->rank != rank)
			return tt_error(-EINVAL, "%s: in[%u] %s has rank %u, in[0] %s rank %u",
					fn, k, tt_ops_shape_str(sk, s1, sizeof(s1)),
					sk->rank, tt_ops_shape_str(s0, s2, sizeof(s2)), rank);
		for (unsigned j = 0; j < 4; j++)
			if (j != D && k4[j] != f4[j])
				return tt_error(-EINVAL,
						"%s: in[%u] %s does not concat with in[0] %s along dim %u: dimension %u is %llu, not %llu",
						fn, k, tt_ops_shape_str(sk, s1, sizeof(s1)),
						tt_ops_shape_str(s0, s2, sizeof(s2)), d,
						j - (4 - rank), (unsigned long long)k4[j],
						(unsigned long long)f4[j]);
		o4[D] += k4[D];
	}
	if (o4[D] > INT32_MAX)
		return tt_error(-E2BIG, "%s: dimension %u of the result is %llu; at most %d",
				fn, d, (unsigned long long)o4[D], INT32_MAX);
	if (*out) {
		ret = check_tensor_tiles(ctx, fn, "out", *out);
		if (ret)
			return ret;
	}
	for (unsigned k = 0; k < n; k++) {
		uint64_t k4[4];
		char shapes[192];

		plan_input(&p, fn, in[k]);
		p.op = OP_CONCAT;
		p.merge = 1;
		p.oshape.dims[d] = o4[D];
		p.given = *out ? tt_device_tensor_buffer(*out) : NULL;
		wzrc(in[k], k4);
		ret = geom_init(&p, k4, o4);
		if (!ret) {
			p.g[A_START + D] = (uint32_t)-(int32_t)offset;
			if (D < 2) {
				p.g[A_BOX0 + D] = (uint32_t)offset;
				p.g[A_BOXN + D] = (uint32_t)k4[D];
			} else {
				uint64_t a0 = offset / 32, a1 = (offset + k4[D] - 1) / 32;

				p.g[A_BOX0 + D] = (uint32_t)a0;
				p.g[A_BOXN + D] = (uint32_t)(a1 - a0 + 1);
			}
			p.units = (uint64_t)p.g[A_BOXN] * p.g[A_BOXN + 1] *
				  p.g[A_BOXN + 2] * p.g[A_BOXN + 3];
			ret = decide_tile_copy(&p);
			if (!ret)
				ret = plan_config(ctx, &p, &c);
		}
		if (!ret && !*out) {
			ret = prepare_out(ctx, &p, out, &created);
		} else if (!ret && k == 0) {
			bool dummy;

			ret = prepare_out(ctx, &p, out, &dummy);
		}
		if (!ret) {
			shapes_str(&p, in[k], shapes, sizeof(shapes));
			ret = run(ctx, &p, t0, tt_device_tensor_buffer(in[k]),
				  tt_device_tensor_first_tile(in[k]),
				  tt_device_tensor_buffer(*out),
				  tt_device_tensor_first_tile(*out), NULL, shapes);
		}
		if (ret)
			break;
		offset += k4[D];
		t0 = tt_ops_now_us();
	}
	if (ret && created) {
		tt_ops_finish(ctx);
		tt_device_tensor_free(*out);
		*out = NULL;
	}
	return ret;
}

int tt_op_embedding(tt_ops_ctx *ctx, const tt_device_tensor *indices,
		    const tt_device_tensor *table,
		    const struct tt_data_cfg *cfg, tt_device_tensor **out)
{
	const char *fn = "tt_op_embedding";
	double t0 = tt_ops_now_us();
	const struct tt_shape *xs;
	uint64_t x4[4], t4[4], o4[4];
	char s1[100];
	enum tt_data_format fx;
	struct dplan p;
	int ret;

	CHECK_COMMON(fn);
	if (!indices)
		return tt_error(-EINVAL, "%s: indices is NULL", fn);
	ret = check_tensor(ctx, fn, "table", table);
	if (!ret)
		ret = check_buffer(ctx, fn, "indices", tt_device_tensor_buffer(indices));
	if (ret)
		return ret;
	fx = tt_device_tensor_format(indices);
	if (fx != TT_UINT32 && fx != TT_INT32)
		return tt_error(-ENOTSUP, "%s: indices are %s; UInt32 or Int32",
				fn, tt_data_format_name(fx));
	xs = tt_device_tensor_shape(indices);
	wzrc(indices, x4);
	wzrc(table, t4);
	if (x4[0] != 1 || x4[1] != 1)
		return tt_error(-EINVAL, "%s: indices %s: [S] or [B, S]", fn,
				tt_ops_shape_str(xs, s1, sizeof(s1)));
	if (t4[0] != 1 || t4[1] != 1)
		return tt_error(-EINVAL, "%s: table %s: [V, D]", fn,
				tt_ops_shape_str(tt_device_tensor_shape(table), s1, sizeof(s1)));
	plan_input(&p, fn, table);
	p.op = OP_EMBEDDING;
	p.mode = MODE_EMBED;
	p.fx = fx;
	p.mx = tt_buffer_type(tt_device_tensor_buffer(indices));
	o4[0] = 1;
	o4[1] = x4[2];
	o4[2] = x4[3];
	o4[3] = t4[3];
	if (xs->rank == 1)
		p.oshape = (struct tt_shape){ 2, { x4[3], t4[3] } };
	else
		p.oshape = (struct tt_shape){ 3, { x4[2], x4[3], t4[3] } };
	ret = geom_init(&p, t4, o4);
	if (ret)
		return ret;
	p.g[A_XR] = (uint32_t)x4[2];
	p.g[A_XC] = (uint32_t)x4[3];
	p.g[A_XWT] = (uint32_t)tiles_of(x4[3]);
	return single(ctx, &p, table, indices, cfg, out, t0);
}

int tt_op_tilize(tt_ops_ctx *ctx, tt_buffer *rows, const struct tt_shape *shape,
		 enum tt_data_format fmt, const struct tt_data_cfg *cfg,
		 tt_device_tensor **out)
{
	const char *fn = "tt_op_tilize";
	struct tt_data_cfg c = cfg ? *cfg : tt_op_data_config();
	double t0 = tt_ops_now_us();
	uint64_t i4[4], rb, nrows;
	char s1[100], shapes[192];
	bool created;
	struct dplan p;
	int ret;

	CHECK_COMMON(fn);
	if (!rows)
		return tt_error(-EINVAL, "%s: rows is NULL", fn);
	if (!shape)
		return tt_error(-EINVAL, "%s: shape is NULL", fn);
	ret = check_buffer(ctx, fn, "rows", rows);
	if (ret)
		return ret;
	if (!data_format_ok(fmt))
		return format_error(fn, "fmt", fmt);
	ret = tt_shape_wzrc(shape, i4);
	if (ret)
		return tt_error(ret, "%s: shape: %s", fn, tt_last_error());
	rb = i4[3] * tt_data_format_elem_size(fmt);
	nrows = i4[0] * i4[1] * i4[2];
	if (tt_buffer_page_size(rows) != rb || tt_buffer_num_pages(rows) != nrows)
		return tt_error(-EINVAL,
				"%s: rows has %llu pages of %llu bytes; a %s %s tensor is %llu rows of %llu bytes",
				fn, (unsigned long long)tt_buffer_num_pages(rows),
				(unsigned long long)tt_buffer_page_size(rows),
				tt_ops_shape_str(shape, s1, sizeof(s1)),
				tt_data_format_name(fmt), (unsigned long long)nrows,
				(unsigned long long)rb);
	if (*out) {
		ret = check_tensor(ctx, fn, "out", *out);
		if (ret)
			return ret;
	}
	memset(&p, 0, sizeof(p));
	p.fn = fn;
	p.op = OP_TILIZE;
	p.fmt = fmt;
	p.fx = TT_INVALID;
	p.mi = tt_buffer_type(rows);
	p.mx = p.mi;
	p.oshape = *shape;
	p.in_rows = 1;
	p.given = *out ? tt_device_tensor_buffer(*out) : NULL;
	ret = geom_init(&p, i4, i4);
	if (ret)
		return ret;
	p.g[A_INPAGE] = (uint32_t)rb;
	ret = plan_config(ctx, &p, &c);
	if (!ret)
		ret = prepare_out(ctx, &p, out, &created);
	if (ret)
		return ret;
	snprintf(shapes, sizeof(shapes), "rows %s %s -> tiles", s1,
		 tt_data_format_name(fmt));
	tt_ops_shape_str(shape, s1, sizeof(s1));
	snprintf(shapes, sizeof(shapes), "rows %s %s -> tiles", s1,
		 tt_data_format_name(fmt));
	ret = run(ctx, &p, t0, rows, 0, tt_device_tensor_buffer(*out),
		  tt_device_tensor_first_tile(*out), NULL, shapes);
	if (ret && created) {
		tt_device_tensor_free(*out);
		*out = NULL;
	}
	return ret;
}

int tt_op_untilize(tt_ops_ctx *ctx, const tt_device_tensor *a,
		   const struct tt_data_cfg *cfg, tt_buffer **out)
{
	const char *fn = "tt_op_untilize";
	struct tt_data_cfg c = cfg ? *cfg : tt_op_data_config();
	double t0 = tt_ops_now_us();
	uint64_t i4[4], rb, nrows;
	char s1[100], shapes[192];
	bool created = false;
	struct dplan p;
	int ret;

	CHECK_COMMON(fn);
	ret = check_tensor(ctx, fn, "a", a);
	if (ret)
		return ret;
	plan_input(&p, fn, a);
	p.op = OP_UNTILIZE;
	p.out_rows = 1;
	wzrc(a, i4);
	ret = geom_init(&p, i4, i4);
	if (ret)
		return ret;
	rb = i4[3] * p.es;
	nrows = i4[0] * i4[1] * i4[2];
	if (rb > UINT32_MAX || nrows > UINT32_MAX / 2)
		return tt_error(-E2BIG, "%s: rows of %llu bytes, %llu rows", fn,
				(unsigned long long)rb, (unsigned long long)nrows);
	p.g[A_OUTPAGE] = (uint32_t)rb;
	p.units = nrows;
	if (*out) {
		ret = check_buffer(ctx, fn, "out", *out);
		if (ret)
			return ret;
		if (tt_buffer_page_size(*out) != rb ||
		    tt_buffer_num_pages(*out) != nrows)
			return tt_error(-EINVAL,
					"%s: out has %llu pages of %llu bytes; a %s %s tensor is %llu rows of %llu bytes",
					fn, (unsigned long long)tt_buffer_num_pages(*out),
					(unsigned long long)tt_buffer_page_size(*out),
					tt_ops_shape_str(tt_device_tensor_shape(a), s1, sizeof(s1)),
					tt_data_format_name(p.fmt),
					(unsigned long long)nrows, (unsigned long long)rb);
		p.given = *out;
	}
	ret = plan_config(ctx, &p, &c);
	if (ret)
		return ret;
	if (!*out) {
		struct tt_buffer_config bc = {
			.device = ctx->dev, .size = rb * nrows, .page_size = rb,
			.type = p.mo,
		};

		ret = tt_buffer_create(&bc, out);
		if (ret)
			return tt_error(ret, "%s: output rows (%llu x %llu bytes in %s): %s",
					fn, (unsigned long long)nrows,
					(unsigned long long)rb,
					tt_buffer_type_name(p.mo), tt_last_error());
		created = true;
	}
	snprintf(shapes, sizeof(shapes), "a %s %s -> rows",
		 tt_ops_shape_str(tt_device_tensor_shape(a), s1, sizeof(s1)),
		 tt_data_format_name(p.fmt));
	ret = run(ctx, &p, t0, tt_device_tensor_buffer(a),
		  tt_device_tensor_first_tile(a), *out, 0, NULL, shapes);
	if (ret && created) {
		tt_buffer_free(*out);
		*out = NULL;
	}
	return ret;
}
