// SPDX-License-Identifier: Apache-2.0
/*
 * Reductions (sum, mean, max, min over any dimensions), argmax along the
 * last dimension and cumsum along one of the last two: one program
 * shape (kernels/reduce/): a reader that streams the input tiles of
 * each "line" (the tiles one output tile folds, or a row or column of
 * tiles for cumsum), a compute kernel that folds them in DST, a writer.
 * Lines are split over the cores.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops_internal.h"
#include "ops_reduce_compute_src.h"
#include "ops_reduce_reader_src.h"
#include "ops_reduce_writer_src.h"

#define CB_IN 0u
#define CB_CONST 4u
#define CB_OUT 16u
#define CB_STAT 27u
#define CB_TMP 28u
#define NCONST 7u

/* The compute kernel's OP. */
enum { R_SUM, R_MEAN, R_MAX, R_MIN, R_ARGMAX, R_CUMSUM_W, R_CUMSUM_H };

/* The compute API's REDUCE_ROW / COL / SCALAR (hw/tensix.h's
 * TT_TX_F_REDUCE_*). */
#define RD_ROW 0x02u
#define RD_COL 0x04u
#define RD_SCALAR 0x08u

static const char *const names[TT_REDUCE_OP_COUNT] = { "sum", "mean", "max",
						       "min" };

const char *tt_reduce_op_name(enum tt_reduce_op op)
{
	return (unsigned)op < TT_REDUCE_OP_COUNT ? names[op] : NULL;
}

struct tt_reduce_cfg tt_op_reduce_config(void)
{
	return (struct tt_reduce_cfg){
		.out_format = TT_OPS_FORMAT_AUTO,
		.math_fidelity = TT_OPS_FIDELITY_AUTO,
	};
}

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

struct plan {
	const char *fn;
	unsigned op;          /* R_* */
	bool red[4];          /* reduced, over [w, z, r, c] */
	uint64_t a[4], o[4];  /* wzrc of a and out */
	uint64_t at[4];       /* a in tiles: [w, z, ht, wt] */
	uint64_t ot[4], lt[4]; /* line extents over the output and the line */
	uint64_t lines, len;
	struct tt_shape oshape;
	uint32_t vc, vr, final, chunk;
	bool padc, padr;
	float invn;
	enum tt_data_format fa, fo;
	enum tt_buffer_type ma, mo;
	struct tt_xy grid;
	uint32_t cores, tpc;
	enum tt_math_fidelity fid;
	bool fp32;
};

static const uint32_t RD_FLAGS[4] = { 0, RD_ROW, RD_COL, RD_SCALAR };

/* The lines: for reductions, one per output tile; for cumsum, one per
 * row (W) or column (H) of tiles. */
static void plan_lines(struct plan *p)
{
	for (int i = 0; i < 4; i++) {
		p->lt[i] = p->red[i] ? p->at[i] : 1;
		p->ot[i] = p->red[i] ? 1 : p->at[i];
	}
	p->lines = p->ot[0] * p->ot[1] * p->ot[2] * p->ot[3];
	p->len = p->lt[0] * p->lt[1] * p->lt[2] * p->lt[3];
	p->vc = (uint32_t)(p->a[3] % 32 ? p->a[3] % 32 : 32);
	p->vr = (uint32_t)(p->a[2] % 32 ? p->a[2] % 32 : 32);
	p->padc = p->red[3] && p->vc < 32;
	p->padr = p->red[2] && p->vr < 32;
	p->final = RD_FLAGS[(p->red[3] ? 1 : 0) | (p->red[2] ? 2 : 0)];
}

static int plan_config(tt_ops_ctx *ctx, struct plan *p,
		       const struct tt_reduce_cfg *c)
{
	unsigned gw, gh;
	uint64_t need, have, max_cores, n;
	uint32_t block;
	int ret;

	if (p->lines * p->len > UINT32_MAX / 2)
		return tt_error(-E2BIG, "%s: %llu tiles; at most %u", p->fn,
				(unsigned long long)(p->lines * p->len),
				UINT32_MAX / 2);
	if (c->out_format != TT_OPS_FORMAT_AUTO)
		p->fo = c->out_format;
	if (!tt_ops_format_ok(p->fo))
		return tt_error(tt_tile_size(p->fo) ? -ENOTSUP : -EINVAL,
				"%s: cfg.out_format %s (%d): the op writes Float32, Float16, Float16_b, Bfp8_b and Bfp4_b",
				p->fn, tt_data_format_name(p->fo), (int)p->fo);
	ret = tt_ops_out_mem_interleaved(p->fn, c->out_mem, p->ma,
					 &p->mo);
	if (ret)
		return ret;
	if (c->math_fidelity == TT_OPS_FIDELITY_AUTO)
		p->fid = TT_HIFI4;
	else if (c->math_fidelity == TT_LOFI || c->math_fidelity == TT_HIFI2 ||
		 c->math_fidelity == TT_HIFI3 || c->math_fidelity == TT_HIFI4)
		p->fid = c->math_fidelity;
	else
		return tt_error(-EINVAL, "%s: cfg.math_fidelity %d is not LoFi (0), HiFi2 (2), HiFi3 (3) or HiFi4 (4)",
				p->fn, (int)c->math_fidelity);
	if ((unsigned)c->fp32_acc > TT_OPS_ON)
		return tt_error(-EINVAL, "%s: cfg.fp32_acc %d is not auto (0), off (1) or on (2)",
				p->fn, (int)c->fp32_acc);
	p->fp32 = c->fp32_acc != TT_OPS_OFF;
	if (c->block_tiles > 64)
		return tt_error(-EINVAL, "%s: cfg.block_tiles %u: at most 64 tiles per chunk",
				p->fn, c->block_tiles);
	block = c->block_tiles ? c->block_tiles : 8;
	p->chunk = block < p->len ? block : (uint32_t)p->len;
	while (p->len % p->chunk)
		p->chunk--;

	ret = tt_device_logical_grid(ctx->dev, &gw, &gh);
	if (ret)
		return ret;
	p->grid = c->grid;
	if (!p->grid.x && !p->grid.y)
		p->grid = (struct tt_xy){ gw, gh };
	if (!p->grid.x || !p->grid.y || p->grid.x > gw || p->grid.y > gh)
		return tt_error(-EINVAL, "%s: cfg.grid %ux%u does not fit the device's %ux%u logical grid",
				p->fn, p->grid.x, p->grid.y, gw, gh);
	max_cores = (uint64_t)p->grid.x * p->grid.y;
	if (c->tiles_per_core) {
		n = (p->lines + c->tiles_per_core - 1) / c->tiles_per_core;
		if (n > max_cores)
			return tt_error(-EINVAL,
					"%s: cfg.tiles_per_core %u: %llu %s need %llu cores, cfg.grid %ux%u has %llu",
					p->fn, c->tiles_per_core,
					(unsigned long long)p->lines,
					p->op >= R_CUMSUM_W ? "lines of tiles" : "output tiles",
					(unsigned long long)n, p->grid.x, p->grid.y,
					(unsigned long long)max_cores);
	} else {
		n = p->lines < max_cores ? p->lines : max_cores;
	}
	p->cores = (uint32_t)n;
	p->tpc = c->tiles_per_core;

	need = 2ull * p->chunk * tt_tile_size(p->fa) +
	       (NCONST + 2) * tt_tile_size(TT_FLOAT32) + 2 * tt_tile_size(p->fo);
	have = tt_ops_l1_free(ctx);
	if (need > have)
		return tt_error(-ENOMEM,
				"%s: circular buffers need %llu bytes of L1 per core (2 chunks of %u tiles, constants, output), a core has %llu free",
				p->fn, (unsigned long long)need, p->chunk,
				(unsigned long long)have);
	return 0;
}

static void plan_key(const struct plan *p, struct tt_ops_key *k)
{
	memset(k, 0, sizeof(*k));
	k->family = TT_OPS_REDUCE;
	k->op[0] = p->op;
	k->op[1] = (uint32_t)p->red[0] | (uint32_t)p->red[1] << 1 |
		   (uint32_t)p->red[2] << 2 | (uint32_t)p->red[3] << 3;
	k->param[0] = fbits(p->invn);
	memcpy(k->shape[0], p->a, sizeof(p->a));
	memcpy(k->shape[2], p->o, sizeof(p->o));
	k->fmt[0] = p->fa;
	k->fmt[2] = p->fo;
	k->mem[0] = p->ma;
	k->mem[2] = p->mo;
	k->grid_x = p->grid.x;
	k->grid_y = p->grid.y;
	k->cores = p->cores;
	k->tiles_per_core = p->tpc;
	k->block = p->chunk;
	k->fidelity = p->fid;
	k->fp32 = p->fp32;
}

static int build(const struct plan *p, struct tt_ops_entry **out)
{
	struct tt_kernel_config rc = tt_reader_config(), wc = tt_writer_config();
	struct tt_kernel_config cc = tt_compute_config();
	struct tt_core_range_set set;
	tt_kernel_handle kr, kw, kc;
	struct tt_ops_entry *e;
	int ret;
	const bool cumsum = p->op >= R_CUMSUM_W;
	const struct tt_named_arg rargs[] = {
		{ "A_DRAM", p->ma == TT_BUFFER_DRAM },
	};
	const uint32_t geom[] = {
		(uint32_t)p->at[1], (uint32_t)p->at[2], (uint32_t)p->at[3],
		(uint32_t)p->ot[1], (uint32_t)p->ot[2], (uint32_t)p->ot[3],
		(uint32_t)p->lt[1], (uint32_t)p->lt[2], (uint32_t)p->lt[3],
		(uint32_t)p->len, p->chunk, p->op == R_ARGMAX ? 2 : 1, p->vc,
		p->vr,
	};
	const struct tt_named_arg wargs[] = {
		{ "OUT_DRAM", p->mo == TT_BUFFER_DRAM },
		{ "SAME", cumsum },
	};
	const struct tt_named_arg cargs[] = {
		{ "OP", p->op },
		{ "FINAL", p->final },
		{ "PADC", p->padc },
		{ "PADR", p->padr },
		{ "INVN", fbits(p->invn) },
	};

	ret = tt_num_cores_to_core_range_set(p->cores, p->grid, true, &set);
	if (ret)
		return ret;
	ret = tt_ops_entry_new(p->fn, p->cores, &e);
	if (ret)
		return ret;
	plan_key(p, &e->key);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_IN, p->fa,
				    2ull * p->chunk);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_CONST, TT_FLOAT32,
				    NCONST);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_OUT, p->fo, 2);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_STAT, TT_FLOAT32, 1);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_TMP, TT_FLOAT32, 1);
	rc.named_compile_args = rargs;
	rc.named_compile_arg_count = TT_OPS_NARGS(rargs);
	wc.named_compile_args = wargs;
	wc.named_compile_arg_count = TT_OPS_NARGS(wargs);
	cc.named_compile_args = cargs;
	cc.named_compile_arg_count = TT_OPS_NARGS(cargs);
	cc.math_fidelity = p->fid;
	cc.fp32_dest_acc_en = p->fp32;
	cc.dst_full_sync_en = true;
	cc.math_approx_mode = false;
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_reduce_reader,
						   &set, &rc, &kr);
	if (!ret)
		ret = tt_set_common_runtime_args(e->prog, kr, geom,
						 TT_OPS_NARGS(geom));
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_reduce_compute,
						   &set, &cc, &kc);
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_reduce_writer,
						   &set, &wc, &kw);
	if (!ret)
		ret = tt_set_common_runtime_args(e->prog, kw, geom,
						 TT_OPS_NARGS(geom));
	for (uint32_t i = 0, start = 0; !ret && i < p->cores; i++) {
		struct tt_ops_core *oc = &e->cores[i];
		uint32_t n = (uint32_t)(p->lines / p->cores) +
			     (i < p->lines % p->cores);
		uint32_t r[4] = { 0, 0, start, n }, w[4] = { 0, 0, start, n };
		uint32_t k[7] = { n, (uint32_t)p->len, p->chunk,
				  (uint32_t)p->lt[3], (uint32_t)p->lt[2],
				  (uint32_t)p->at[3], (uint32_t)p->at[2] };
		unsigned cnt;

		oc->xy = (struct tt_xy){ i % p->grid.x, i / p->grid.x };
		oc->start = start;
		oc->tiles = n;
		ret = tt_set_runtime_args(e->prog, kr, oc->xy, r,
					  TT_OPS_NARGS(r));
		if (!ret)
			ret = tt_set_runtime_args(e->prog, kw, oc->xy, w,
						  TT_OPS_NARGS(w));
		if (!ret)
			ret = tt_set_runtime_args(e->prog, kc, oc->xy, k,
						  TT_OPS_NARGS(k));
		if (!ret)
			ret = tt_get_runtime_args(e->prog, kr, oc->xy, &oc->rargs,
						  &cnt);
		if (!ret)
			ret = tt_get_runtime_args(e->prog, kw, oc->xy, &oc->wargs,
						  &cnt);
		start += n;
	}
	if (ret) {
		tt_ops_entry_free(e);
		return ret;
	}
	*out = e;
	return 0;
}

static int wzrc(const tt_device_tensor *t, uint64_t *d)
{
	return tt_shape_wzrc(tt_device_tensor_shape(t), d);
}

static int prepare_out(tt_ops_ctx *ctx, struct plan *p, tt_device_tensor **out,
		       bool *created, const struct tt_reduce_cfg *c)
{
	uint64_t d[4];
	char s1[100], s2[100];
	int ret;

	*created = false;
	if (!*out) {
		ret = tt_device_tensor_create(ctx->dev, &p->oshape, p->fo, p->mo,
					      out);
		if (ret)
			return tt_error(ret, "%s: output %s %s in %s: %s", p->fn,
					tt_ops_shape_str(&p->oshape, s1, sizeof(s1)),
					tt_data_format_name(p->fo),
					tt_buffer_type_name(p->mo), tt_last_error());
		*created = true;
		return 0;
	}
	ret = wzrc(*out, d);
	if (ret)
		return ret;
	if (memcmp(d, p->o, sizeof(d)))
		return tt_error(-EINVAL, "%s: out is %s; the result is %s", p->fn,
				tt_ops_shape_str(tt_device_tensor_shape(*out), s1, sizeof(s1)),
				tt_ops_shape_str(&p->oshape, s2, sizeof(s2)));
	if (tt_device_tensor_format(*out) != p->fo)
		return tt_error(-EINVAL, "%s: out is %s; the result is %s", p->fn,
				tt_data_format_name(tt_device_tensor_format(*out)),
				tt_data_format_name(p->fo));
	if (c->out_mem != TT_OPS_MEM_AUTO &&
	    tt_buffer_type(tt_device_tensor_buffer(*out)) != p->mo)
		return tt_error(-EINVAL, "%s: out is in %s; cfg.out_mem asks for %s",
				p->fn,
				tt_buffer_type_name(tt_buffer_type(tt_device_tensor_buffer(*out))),
				tt_buffer_type_name(p->mo));
	return 0;
}

/* Common part: p->fn, p->op set; dims as a bit mask over a's dims;
 * cumsum_dim for cumsum. */
static int run(tt_ops_ctx *ctx, struct plan *p, const tt_device_tensor *a,
	       uint32_t dims, bool keepdim, const struct tt_reduce_cfg *cfg,
	       tt_device_tensor **out)
{
	struct tt_reduce_cfg c = cfg ? *cfg : tt_op_reduce_config();
	double t0 = tt_ops_now_us();
	const struct tt_shape *as;
	struct tt_ops_entry *e;
	struct tt_ops_key key;
	bool created = false, hit;
	uint64_t count = 1, kd[4];
	char s1[100];
	int ret;

	if (!ctx)
		return tt_error(-EINVAL, "%s: ctx is NULL", p->fn);
	if (!a)
		return tt_error(-EINVAL, "%s: a is NULL", p->fn);
	if (!out)
		return tt_error(-EINVAL, "%s: out is NULL", p->fn);
	ret = tt_ops_check_tensor(ctx, p->fn, "a", a);
	if (!ret && *out)
		ret = tt_ops_check_tensor(ctx, p->fn, "out", *out);
	if (ret)
		return ret;
	as = tt_device_tensor_shape(a);
	ret = wzrc(a, p->a);
	if (ret)
		return ret;
	if (!dims)
		dims = as->rank >= 32 ? ~0u : (1u << as->rank) - 1;
	if (dims >> as->rank)
		return tt_error(-EINVAL, "%s: dims 0x%x names a dimension beyond a's %u (a is %s)",
				p->fn, dims, as->rank,
				tt_ops_shape_str(as, s1, sizeof(s1)));
	for (unsigned i = 0; i < as->rank; i++) {
		int wi = 4 - (int)as->rank + (int)i;

		if (!(dims >> i & 1))
			continue;
		if (wi < 0 || (as->rank > 4 && wi == 0))
			return tt_error(-ENOTSUP, "%s: reducing dimension %u of a rank-%u tensor: the op reduces only the last three of a tensor of rank above 4",
					p->fn, i, as->rank);
		p->red[wi] = true;
	}
	for (int i = 0; i < 4; i++) {
		p->at[i] = i >= 2 ? (p->a[i] + 31) / 32 : p->a[i];
		p->o[i] = p->red[i] && p->op < R_CUMSUM_W ? 1 : p->a[i];
		if (p->red[i])
			count *= p->a[i];
	}
	p->invn = 1.0f / (float)count;
	/* the output's shape */
	p->oshape = *as;
	if (p->op < R_CUMSUM_W) {
		unsigned r = 0;

		for (unsigned i = 0; i < as->rank; i++) {
			if (!(dims >> i & 1))
				p->oshape.dims[r++] = as->dims[i];
			else if (keepdim)
				p->oshape.dims[r++] = 1;
		}
		if (!r)
			p->oshape.dims[r++] = 1;
		p->oshape.rank = r;
		ret = tt_shape_wzrc(&p->oshape, kd);
		if (ret)
			return ret;
		if (memcmp(kd, p->o, sizeof(kd)))
			return tt_error(-ENOTSUP,
					"%s: without keepdim the result %s would move elements between tiles; the op does not (ask for keepdim)",
					p->fn, tt_ops_shape_str(&p->oshape, s1, sizeof(s1)));
	}
	p->fa = tt_device_tensor_format(a);
	p->ma = tt_buffer_type(tt_device_tensor_buffer(a));
	p->fo = p->op == R_ARGMAX ? TT_FLOAT32 : p->fa;
	if (*out && c.out_format == TT_OPS_FORMAT_AUTO)
		c.out_format = tt_device_tensor_format(*out);
	if (*out && c.out_mem == TT_OPS_MEM_AUTO)
		c.out_mem = tt_buffer_type(tt_device_tensor_buffer(*out)) ==
					    TT_BUFFER_L1 ? TT_OPS_MEM_L1 :
							   TT_OPS_MEM_DRAM;
	plan_lines(p);
	ret = plan_config(ctx, p, &c);
	if (!ret)
		ret = prepare_out(ctx, p, out, &created, &c);
	if (ret)
		return ret;

	plan_key(p, &key);
	e = tt_ops_cache_find(ctx, &key);
	hit = e != NULL;
	if (!e) {
		ret = build(p, &e);
		if (ret)
			goto fail;
		tt_ops_cache_add(ctx, e);
	}
	for (unsigned i = 0; i < e->ncores; i++) {
		e->cores[i].rargs[0] = (uint32_t)tt_buffer_address(tt_device_tensor_buffer(a));
		e->cores[i].rargs[1] = (uint32_t)tt_device_tensor_first_tile(a);
		e->cores[i].wargs[0] = (uint32_t)tt_buffer_address(tt_device_tensor_buffer(*out));
		e->cores[i].wargs[1] = (uint32_t)tt_device_tensor_first_tile(*out);
	}
	ret = tt_ops_enqueue(ctx, e->prog, false);
	if (ret)
		goto fail;
	if (ctx->prof_prefix) {
		struct tt_ops_rec r = { .hit = hit, .cores = p->cores,
					.tiles = p->lines * p->len, .start_us = t0 };
		char s2[100];
		double t1 = tt_ops_now_us();

		ret = tt_finish(ctx->cq);
		r.enqueue_us = t1 - t0;
		r.finish_us = tt_ops_now_us() - t1;
		snprintf(r.name, sizeof(r.name), "%s", p->fn);
		snprintf(r.shapes, sizeof(r.shapes), "a %s %s -> %s %s",
			 tt_ops_shape_str(as, s1, sizeof(s1)),
			 tt_data_format_name(p->fa),
			 tt_ops_shape_str(&p->oshape, s2, sizeof(s2)),
			 tt_data_format_name(p->fo));
		snprintf(r.config, sizeof(r.config),
			 "dims wzrc %d%d%d%d grid %ux%u cores %u chunk %u out %s %s fidelity %d fp32_acc %d",
			 p->red[0], p->red[1], p->red[2], p->red[3], p->grid.x,
			 p->grid.y, p->cores, p->chunk, tt_data_format_name(p->fo),
			 tt_buffer_type_name(p->mo), (int)p->fid, p->fp32);
		tt_ops_profile_record(ctx, &r);
		if (ret)
			goto fail;
	}
	return 0;
fail:
	if (created) {
		tt_device_tensor_free(*out);
		*out = NULL;
	}
	return ret;
}

int tt_op_reduce(tt_ops_ctx *ctx, const tt_device_tensor *a,
		 enum tt_reduce_op op, uint32_t dims, bool keepdim,
		 const struct tt_reduce_cfg *cfg, tt_device_tensor **out)
{
	struct plan p;

	memset(&p, 0, sizeof(p));
	p.fn = "tt_op_reduce";
	if ((unsigned)op >= TT_REDUCE_OP_COUNT)
		return tt_error(-EINVAL, "tt_op_reduce: op %d is not a reduction (0 sum, 1 mean, 2 max, 3 min)",
				(int)op);
	p.op = (unsigned)op;
	return run(ctx, &p, a, dims, keepdim, cfg, out);
}

#define REDUCE(name, OP)                                                      \
	int tt_op_##name(tt_ops_ctx *ctx, const tt_device_tensor *a,          \
			 uint32_t dims, bool keepdim,                         \
			 const struct tt_reduce_cfg *cfg,                     \
			 tt_device_tensor **out)                              \
	{                                                                     \
		struct plan p;                                                \
                                                                              \
		memset(&p, 0, sizeof(p));                                     \
		p.fn = "tt_op_" #name;                                        \
		p.op = OP;                                                    \
		return run(ctx, &p, a, dims, keepdim, cfg, out);              \
	}

REDUCE(sum, R_SUM)
REDUCE(mean, R_MEAN)
REDUCE(amax, R_MAX)
REDUCE(amin, R_MIN)

int tt_op_argmax(tt_ops_ctx *ctx, const tt_device_tensor *a, bool keepdim,
		 const struct tt_reduce_cfg *cfg, tt_device_tensor **out)
{
	struct plan p;
	const struct tt_shape *s;

	memset(&p, 0, sizeof(p));
	p.fn = "tt_op_argmax";
	p.op = R_ARGMAX;
	if (!a || !ctx || !out)
		return run(ctx, &p, a, 0, keepdim, cfg, out);
	s = tt_device_tensor_shape(a);
	if (s->rank && s->dims[s->rank - 1] > 2048)
		return tt_error(-ENOTSUP, "tt_op_argmax: a's last dimension is %llu; at most 2048 (indices pass the matrix unit, exact up to 2048)",
				(unsigned long long)s->dims[s->rank - 1]);
	return run(ctx, &p, a, s->rank ? 1u << (s->rank - 1) : 0, keepdim, cfg,
		   out);
}

int tt_op_cumsum(tt_ops_ctx *ctx, const tt_device_tensor *a, int dim,
		 const struct tt_reduce_cfg *cfg, tt_device_tensor **out)
{
	struct plan p;
	const struct tt_shape *s;
	int d;

	memset(&p, 0, sizeof(p));
	p.fn = "tt_op_cumsum";
	p.op = R_CUMSUM_W;
	if (!a || !ctx || !out)
		return run(ctx, &p, a, 0, true, cfg, out);
	s = tt_device_tensor_shape(a);
	d = dim < 0 ? (int)s->rank + dim : dim;
	if (d < 0 || d >= (int)s->rank)
		return tt_error(-EINVAL, "tt_op_cumsum: dim %d is not a dimension of a (rank %u)",
				dim, s->rank);
	if (d < (int)s->rank - 2)
		return tt_error(-ENOTSUP, "tt_op_cumsum: dim %d: the op sums along the last two dimensions only (rank %u)",
				dim, s->rank);
	p.op = d == (int)s->rank - 1 ? R_CUMSUM_W : R_CUMSUM_H;
	return run(ctx, &p, a, 1u << d, true, cfg, out);
}
