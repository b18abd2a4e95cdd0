// SPDX-License-Identifier: Apache-2.0
/*
 * Softmax, layernorm and rmsnorm along the last dimension: one program
 * shape for the three (kernels/norm/): a reader that brings whole rows
 * of tiles (and the mask's rows, gamma and beta), a compute kernel that
 * keeps a row in L1 while it takes its statistics and applies them, a
 * writer. Rows of tiles are split over the cores. softmax.c has the
 * softmax's entry point; this file the engine and the norms'.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops_internal.h"
#include "ops_norm_compute_src.h"
#include "ops_norm_reader_src.h"
#include "ops_norm_writer_src.h"

#define CB_IN 0u
#define CB_MASK 1u
#define CB_GAMMA 2u
#define CB_BETA 3u
#define CB_CONST 4u
#define CB_OUT 16u
#define CB_X 24u
#define CB_EXP 26u
#define CB_STAT 27u
#define CB_TMP 28u
#define CB_GF 29u
#define CB_BF 30u
#define NCONST 6u
/* Rows of tiles a core gets at least when the op chooses the grid: on the
 * chip model every core of a launch costs host time (its kernels' set-up,
 * the constant tiles, gamma and beta broadcast), so rows are not spread
 * thinner than this. */
#ifndef AUTO_MIN_ROWS_PER_CORE
#define AUTO_MIN_ROWS_PER_CORE 8u
#endif

static const char *const op_names[3] = { "softmax", "layernorm", "rmsnorm" };

struct tt_norm_cfg tt_op_norm_config(void)
{
	return (struct tt_norm_cfg){
		.out_format = TT_OPS_FORMAT_AUTO,
		.inter_format = TT_OPS_FORMAT_AUTO,
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
	const struct tt_ops_norm_call *c;
	const char *fn;
	uint64_t a[4], m[4];
	uint64_t wt, ht, rows;
	uint32_t vc, msw, msz;
	enum tt_data_format fa, fo, fi, fx, fm, fg, fb;
	enum tt_buffer_type ma, mo, mm, mg, mb;
	struct tt_xy grid;
	uint32_t cores, rpc, block, buffering;
	enum tt_math_fidelity fid;
	bool fp32, scale, pad, softmax_x;
};

static int wzrc(const tt_device_tensor *t, uint64_t *d)
{
	return tt_shape_wzrc(tt_device_tensor_shape(t), d);
}

static int check_format(const struct plan *p, const char *what,
			enum tt_data_format f)
{
	if (tt_ops_format_ok(f))
		return 0;
	return tt_error(tt_tile_size(f) ? -ENOTSUP : -EINVAL,
			"%s: %s %s (%d): the op takes Float32, Float16, Float16_b, Bfp8_b and Bfp4_b",
			p->fn, what, tt_data_format_name(f), (int)f);
}

/* gamma or beta: [W] (leading 1s allowed). */
static int check_param(tt_ops_ctx *ctx, struct plan *p, const char *arg,
		       const tt_device_tensor *t)
{
	uint64_t d[4];
	char s[100];
	int ret = tt_ops_check_tensor(ctx, p->fn, arg, t);

	if (!ret)
		ret = wzrc(t, d);
	if (ret)
		return ret;
	if (d[0] != 1 || d[1] != 1 || d[2] != 1 || d[3] != p->a[3])
		return tt_error(-EINVAL, "%s: %s is %s; it must be [%llu] (the last dimension of a, leading dimensions 1)",
				p->fn, arg,
				tt_ops_shape_str(tt_device_tensor_shape(t), s, sizeof(s)),
				(unsigned long long)p->a[3]);
	return 0;
}

static int plan_all(tt_ops_ctx *ctx, struct plan *p)
{
	const struct tt_ops_norm_call *c = p->c;
	const struct tt_norm_cfg *cf = &c->cfg;
	const bool sm = c->op == 0;
	unsigned gw, gh;
	uint64_t need, have;
	char s1[100], s2[100];
	int ret;

	ret = wzrc(c->a, p->a);
	if (ret)
		return ret;
	p->wt = (p->a[3] + 31) / 32;
	p->ht = (p->a[2] + 31) / 32;
	p->rows = p->a[0] * p->a[1] * p->ht;
	if (p->rows * p->wt > UINT32_MAX / 2)
		return tt_error(-E2BIG, "%s: %llu tiles; at most %u", p->fn,
				(unsigned long long)(p->rows * p->wt), UINT32_MAX / 2);
	p->vc = (uint32_t)(p->a[3] % 32 ? p->a[3] % 32 : 32);
	p->pad = p->vc < 32;
	p->fa = tt_device_tensor_format(c->a);
	p->ma = tt_buffer_type(tt_device_tensor_buffer(c->a));
	p->fm = p->fg = p->fb = p->fa;
	p->mm = p->mg = p->mb = p->ma;

	if (c->mask) {
		ret = tt_ops_check_tensor(ctx, p->fn, "cfg.mask", c->mask);
		if (!ret)
			ret = wzrc(c->mask, p->m);
		if (ret)
			return ret;
		if (p->m[3] != p->a[3] || p->m[2] != p->a[2] ||
		    (p->m[1] != 1 && p->m[1] != p->a[1]) ||
		    (p->m[0] != 1 && p->m[0] != p->a[0]))
			return tt_error(-EINVAL,
					"%s: cfg.mask %s does not broadcast to a %s: its last two dimensions must be a's, the others a's or 1",
					p->fn,
					tt_ops_shape_str(tt_device_tensor_shape(c->mask), s1, sizeof(s1)),
					tt_ops_shape_str(tt_device_tensor_shape(c->a), s2, sizeof(s2)));
		p->fm = tt_device_tensor_format(c->mask);
		p->mm = tt_buffer_type(tt_device_tensor_buffer(c->mask));
		p->msz = p->m[1] > 1 ? (uint32_t)(p->ht * p->wt) : 0;
		p->msw = p->m[0] > 1 ? (uint32_t)(p->m[1] * p->ht * p->wt) : 0;
	}
	if (c->gamma) {
		ret = check_param(ctx, p, "gamma", c->gamma);
		if (ret)
			return ret;
		p->fg = tt_device_tensor_format(c->gamma);
		p->mg = tt_buffer_type(tt_device_tensor_buffer(c->gamma));
	}
	if (c->beta) {
		ret = check_param(ctx, p, "beta", c->beta);
		if (ret)
			return ret;
		p->fb = tt_device_tensor_format(c->beta);
		p->mb = tt_buffer_type(tt_device_tensor_buffer(c->beta));
	}
	if (sm && !isfinite(c->scale))
		return tt_error(-EINVAL, "%s: cfg.scale %g is not finite", p->fn,
				(double)c->scale);
	if (!sm && !(c->eps >= 0 && isfinite(c->eps)))
		return tt_error(-EINVAL, "%s: eps %g is not a finite value >= 0",
				p->fn, (double)c->eps);
	p->scale = sm && c->scale != 1.0f;
	p->softmax_x = sm && (p->scale || c->mask || c->causal);

	/* formats, placement */
	p->fo = cf->out_format == TT_OPS_FORMAT_AUTO ? p->fa : cf->out_format;
	ret = check_format(p, "cfg.out_format", p->fo);
	if (ret)
		return ret;
	p->fi = cf->inter_format != TT_OPS_FORMAT_AUTO ? cf->inter_format :
		p->fa == TT_FLOAT32 ? TT_FLOAT32 : TT_FLOAT16_B;
	ret = check_format(p, "cfg.inter_format", p->fi);
	if (ret)
		return ret;
	p->fx = tt_data_format_is_block(p->fi) ? TT_FLOAT16_B : p->fi;
	ret = tt_ops_out_mem_interleaved(p->fn, cf->out_mem, p->ma,
					 &p->mo);
	if (ret)
		return ret;

	/* math */
	if (cf->math_fidelity == TT_OPS_FIDELITY_AUTO)
		p->fid = TT_HIFI4;
	else if (cf->math_fidelity == TT_LOFI || cf->math_fidelity == TT_HIFI2 ||
		 cf->math_fidelity == TT_HIFI3 || cf->math_fidelity == TT_HIFI4)
		p->fid = cf->math_fidelity;
	else
		return tt_error(-EINVAL, "%s: cfg.math_fidelity %d is not LoFi (0), HiFi2 (2), HiFi3 (3) or HiFi4 (4)",
				p->fn, (int)cf->math_fidelity);
	if ((unsigned)cf->fp32_acc > TT_OPS_ON)
		return tt_error(-EINVAL, "%s: cfg.fp32_acc %d is not auto (0), off (1) or on (2)",
				p->fn, (int)cf->fp32_acc);
	p->fp32 = cf->fp32_acc != TT_OPS_OFF;
	/* Output blocks never straddle the end of the output CB (2 blocks):
	 * the block divides the row. */
	if (cf->block_tiles > 64)
		return tt_error(-EINVAL, "%s: cfg.block_tiles %u: at most 64 output tiles per block",
				p->fn, cf->block_tiles);
	p->block = cf->block_tiles ? cf->block_tiles : 8;
	if (p->block > p->wt)
		p->block = (uint32_t)p->wt;
	while (p->wt % p->block)
		p->block--;

	/* grid and split */
	ret = tt_device_logical_grid(ctx->dev, &gw, &gh);
	if (ret)
		return ret;
	p->grid = cf->grid;
	if (!p->grid.x && !p->grid.y)
		p->grid = (struct tt_xy){ gw, gh };
	if (!p->grid.x || !p->grid.y || p->grid.x > gw || p->grid.y > gh)
		return tt_error(-EINVAL, "%s: cfg.grid %ux%u does not fit the device's %ux%u logical grid",
				p->fn, p->grid.x, p->grid.y, gw, gh);
	{
		uint64_t max_cores = (uint64_t)p->grid.x * p->grid.y, n;

		if (cf->rows_per_core) {
			n = (p->rows + cf->rows_per_core - 1) / cf->rows_per_core;
			if (n > max_cores)
				return tt_error(-EINVAL,
						"%s: cfg.rows_per_core %u: %llu rows of tiles need %llu cores, cfg.grid %ux%u has %llu",
						p->fn, cf->rows_per_core,
						(unsigned long long)p->rows,
						(unsigned long long)n, p->grid.x,
						p->grid.y, (unsigned long long)max_cores);
		} else {
			n = (p->rows + AUTO_MIN_ROWS_PER_CORE - 1) /
			    AUTO_MIN_ROWS_PER_CORE;
			if (cf->grid.x || cf->grid.y)
				n = p->rows; /* a grid asked for: use it */
			if (n > max_cores)
				n = max_cores;
		}
		p->cores = (uint32_t)n;
		p->rpc = cf->rows_per_core;
	}

	/* L1: a whole row of tiles, with its intermediates */
	if (cf->buffering > 2)
		return tt_error(-EINVAL, "%s: cfg.buffering %u: 1 or 2 rows of tiles (0: auto)",
				p->fn, cf->buffering);
	{
		uint64_t row = 0, fixed;

		row += c->mask ? tt_tile_size(p->fm) : 0;
		row += tt_tile_size(p->fa);
		fixed = NCONST * tt_tile_size(TT_FLOAT32) +
			3 * tt_tile_size(TT_FLOAT32) +
			2ull * p->block * tt_tile_size(p->fo);
		if (c->gamma)
			fixed += p->wt * (tt_tile_size(p->fg) + tt_tile_size(p->fi));
		if (c->beta)
			fixed += p->wt * (tt_tile_size(p->fb) + tt_tile_size(p->fi));
		if (p->softmax_x)
			fixed += p->wt * tt_tile_size(p->fx);
		if (sm)
			fixed += p->wt * tt_tile_size(p->fi);
		have = tt_ops_l1_free(ctx);
		p->buffering = cf->buffering;
		if (!p->buffering)
			p->buffering = fixed + 2 * p->wt * row <= have ? 2 : 1;
		need = fixed + p->buffering * p->wt * row;
		if (need > have)
			return tt_error(-ENOMEM,
					"%s: a row of %llu tiles (W %llu) needs %llu bytes of L1 per core (input x %u, intermediates, output blocks), a core has %llu free; rows this long are not supported",
					p->fn, (unsigned long long)p->wt,
					(unsigned long long)p->a[3],
					(unsigned long long)need, p->buffering,
					(unsigned long long)have);
	}
	return 0;
}

static void plan_key(const struct plan *p, struct tt_ops_key *k)
{
	const struct tt_ops_norm_call *c = p->c;

	memset(k, 0, sizeof(*k));
	k->family = TT_OPS_NORM;
	k->op[0] = c->op;
	k->op[1] = c->causal;
	k->op[2] = c->mask != NULL;
	k->op[3] = (c->gamma != NULL) | (uint32_t)(c->beta != NULL) << 1;
	k->param[0] = fbits(p->scale ? c->scale : 1.0f);
	k->param[1] = fbits(c->op ? c->eps : 0.0f);
	memcpy(k->shape[0], p->a, sizeof(p->a));
	if (c->mask)
		memcpy(k->shape[1], p->m, sizeof(p->m));
	memcpy(k->shape[2], p->a, sizeof(p->a));
	k->fmt[0] = p->fa;
	k->fmt[1] = (uint32_t)p->fm | (uint32_t)p->fg << 8 |
		    (uint32_t)p->fb << 16 | (uint32_t)p->fi << 24;
	k->fmt[2] = p->fo;
	k->mem[0] = p->ma;
	k->mem[1] = (uint32_t)p->mm | (uint32_t)p->mg << 8 | (uint32_t)p->mb << 16;
	k->mem[2] = p->mo;
	k->grid_x = p->grid.x;
	k->grid_y = p->grid.y;
	k->cores = p->cores;
	k->tiles_per_core = p->rpc;
	k->block = p->block;
	k->buffering = p->buffering;
	k->fidelity = p->fid;
	k->fp32 = p->fp32;
}

static int build(const struct plan *p, struct tt_ops_entry **out)
{
	const struct tt_ops_norm_call *c = p->c;
	struct tt_kernel_config rc = tt_reader_config(), wc = tt_writer_config();
	struct tt_kernel_config cc = tt_compute_config();
	struct tt_core_range_set set;
	tt_kernel_handle kr, kw, kc;
	struct tt_ops_entry *e;
	const uint32_t wt = (uint32_t)p->wt;
	int ret;
	const struct tt_named_arg rargs[] = {
		{ "A_DRAM", p->ma == TT_BUFFER_DRAM },
		{ "MASK", c->mask != NULL },
		{ "MASK_DRAM", p->mm == TT_BUFFER_DRAM },
		{ "GAMMA", c->gamma != NULL },
		{ "GAMMA_DRAM", p->mg == TT_BUFFER_DRAM },
		{ "BETA", c->beta != NULL },
		{ "BETA_DRAM", p->mb == TT_BUFFER_DRAM },
		{ "PAD", p->pad },
		{ "CAUSAL", c->causal },
		{ "SCALE", 0 },
		{ "MEAN", 0 },
	};
	const uint32_t geom[] = {
		wt, (uint32_t)p->ht, (uint32_t)p->a[1], p->msw, p->msz, p->vc,
		fbits(1.0f / (float)p->a[3]), fbits(c->scale),
	};
	const struct tt_named_arg wargs[] = {
		{ "BLOCK", p->block },
		{ "OUT_DRAM", p->mo == TT_BUFFER_DRAM },
	};
	const struct tt_named_arg cargs[] = {
		{ "OP", c->op },
		{ "BLOCK", p->block },
		{ "SCALE", p->scale },
		{ "MASK", c->mask != NULL },
		{ "CAUSAL", c->causal },
		{ "PAD", p->pad },
		{ "GAMMA", c->gamma != NULL },
		{ "BETA", c->beta != NULL },
		{ "EPS", fbits(c->op ? c->eps : 0.0f) },
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
				    p->buffering * p->wt);
	if (!ret && c->mask)
		ret = tt_ops_add_cb(e->prog, &set, CB_MASK, p->fm,
				    p->buffering * p->wt);
	if (!ret && c->gamma)
		ret = tt_ops_add_cb(e->prog, &set, CB_GAMMA, p->fg, p->wt);
	if (!ret && c->gamma)
		ret = tt_ops_add_cb(e->prog, &set, CB_GF, p->fi, p->wt);
	if (!ret && c->beta)
		ret = tt_ops_add_cb(e->prog, &set, CB_BETA, p->fb, p->wt);
	if (!ret && c->beta)
		ret = tt_ops_add_cb(e->prog, &set, CB_BF, p->fi, p->wt);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_CONST, TT_FLOAT32,
				    NCONST);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_OUT, p->fo,
				    2ull * p->block);
	if (!ret && p->softmax_x)
		ret = tt_ops_add_cb(e->prog, &set, CB_X, p->fx, p->wt);
	if (!ret && c->op == 0)
		ret = tt_ops_add_cb(e->prog, &set, CB_EXP, p->fi, p->wt);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_STAT, TT_FLOAT32, 2);
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
		ret = tt_create_kernel_from_string(e->prog, tt_ops_norm_reader,
						   &set, &rc, &kr);
	if (!ret)
		ret = tt_set_common_runtime_args(e->prog, kr, geom,
						 TT_OPS_NARGS(geom));
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_norm_compute,
						   &set, &cc, &kc);
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_norm_writer,
						   &set, &wc, &kw);
	/* The split: the first rows % cores cores take one row more. */
	for (uint32_t i = 0, start = 0; !ret && i < p->cores; i++) {
		struct tt_ops_core *oc = &e->cores[i];
		uint32_t n = (uint32_t)(p->rows / p->cores) +
			     (i < p->rows % p->cores);
		uint32_t r[10] = { 0, 0, 0, 0, 0, 0, 0, 0, start, n };
		uint32_t w[5] = { 0, 0, start, n, wt };
		uint32_t k[6] = { start, n, wt, (uint32_t)p->ht,
				  fbits(1.0f / (float)p->a[3]), fbits(c->scale) };
		unsigned cnt;

		if (p->rpc && n > p->rpc)
			n = p->rpc; /* unreachable: cores = ceil(rows / rpc) */
		oc->xy = (struct tt_xy){ i % p->grid.x, i / p->grid.x };
		oc->start = start * wt;
		oc->tiles = n * wt;
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

static int prepare_out(tt_ops_ctx *ctx, struct plan *p, tt_device_tensor **out,
		       bool *created)
{
	const struct tt_norm_cfg *cf = &p->c->cfg;
	const struct tt_shape *as = tt_device_tensor_shape(p->c->a);
	char s1[100];
	int ret;

	*created = false;
	if (!*out) {
		ret = tt_device_tensor_create(ctx->dev, as, p->fo, p->mo, out);
		if (ret)
			return tt_error(ret, "%s: output %s %s in %s: %s", p->fn,
					tt_ops_shape_str(as, s1, sizeof(s1)),
					tt_data_format_name(p->fo),
					tt_buffer_type_name(p->mo), tt_last_error());
		*created = true;
		return 0;
	}
	ret = tt_ops_check_given_out(p->fn, *out, p->a, as, p->fo,
				     cf->out_mem, p->mo);
	if (ret)
		return ret;
	return 0;
}

static uint64_t addr_of(const tt_device_tensor *t)
{
	return t ? tt_buffer_address(tt_device_tensor_buffer(t)) : 0;
}

static uint64_t first_of(const tt_device_tensor *t)
{
	return t ? tt_device_tensor_first_tile(t) : 0;
}

int tt_ops_norm_run(tt_ops_ctx *ctx, const struct tt_ops_norm_call *call,
		    tt_device_tensor **out)
{
	struct tt_ops_norm_call cc = *call;
	const char *fn = call->fn;
	double t0 = tt_ops_now_us();
	struct tt_ops_entry *e;
	struct tt_ops_key key;
	struct plan p;
	bool created = false, hit;
	int ret;

	memset(&p, 0, sizeof(p));
	p.c = &cc;
	p.fn = fn;
	if (!ctx)
		return tt_error(-EINVAL, "%s: ctx is NULL", fn);
	if (!cc.a)
		return tt_error(-EINVAL, "%s: a is NULL", fn);
	if (!out)
		return tt_error(-EINVAL, "%s: out is NULL", fn);
	ret = tt_ops_check_tensor(ctx, fn, "a", cc.a);
	if (!ret && *out)
		ret = tt_ops_check_tensor(ctx, fn, "out", *out);
	if (ret)
		return ret;
	if (*out) {
		/* A given output decides what the config leaves to the op. */
		enum tt_buffer_type t = tt_buffer_type(tt_device_tensor_buffer(*out));

		if (cc.cfg.out_format == TT_OPS_FORMAT_AUTO)
			cc.cfg.out_format = tt_device_tensor_format(*out);
		if (cc.cfg.out_mem == TT_OPS_MEM_AUTO)
			p.mo = t; /* checked against below: same */
	}
	ret = plan_all(ctx, &p);
	if (!ret && *out && cc.cfg.out_mem == TT_OPS_MEM_AUTO)
		p.mo = tt_buffer_type(tt_device_tensor_buffer(*out));
	if (!ret)
		ret = prepare_out(ctx, &p, out, &created);
	if (ret)
		return ret;

	plan_key(&p, &key);
	e = tt_ops_cache_find(ctx, &key);
	hit = e != NULL;
	if (!e) {
		ret = build(&p, &e);
		if (ret)
			goto fail;
		tt_ops_cache_add(ctx, e);
	}
	for (unsigned i = 0; i < e->ncores; i++) {
		uint32_t *r = e->cores[i].rargs, *w = e->cores[i].wargs;

		r[0] = (uint32_t)addr_of(cc.a);
		r[1] = (uint32_t)first_of(cc.a);
		r[2] = (uint32_t)addr_of(cc.mask);
		r[3] = (uint32_t)first_of(cc.mask);
		r[4] = (uint32_t)addr_of(cc.gamma);
		r[5] = (uint32_t)first_of(cc.gamma);
		r[6] = (uint32_t)addr_of(cc.beta);
		r[7] = (uint32_t)first_of(cc.beta);
		w[0] = (uint32_t)addr_of(*out);
		w[1] = (uint32_t)first_of(*out);
	}
	ret = tt_ops_enqueue(ctx, e->prog, false);
	if (ret)
		goto fail;
	if (ctx->prof_prefix) {
		struct tt_ops_rec r = { .hit = hit, .cores = p.cores,
					.tiles = p.rows * p.wt, .start_us = t0 };
		char s1[100];
		double t1 = tt_ops_now_us();

		ret = tt_finish(ctx->cq);
		r.enqueue_us = t1 - t0;
		r.finish_us = tt_ops_now_us() - t1;
		snprintf(r.name, sizeof(r.name), "%s", fn);
		snprintf(r.shapes, sizeof(r.shapes), "a %s %s%s%s%s -> %s",
			 tt_ops_shape_str(tt_device_tensor_shape(cc.a), s1, sizeof(s1)),
			 tt_data_format_name(p.fa), cc.mask ? "; mask" : "",
			 cc.gamma ? "; gamma" : "", cc.beta ? "; beta" : "",
			 tt_data_format_name(p.fo));
		snprintf(r.config, sizeof(r.config),
			 "%s grid %ux%u cores %u block %u buffering %u out %s %s inter %s fidelity %d fp32_acc %d%s",
			 op_names[cc.op], p.grid.x, p.grid.y, p.cores, p.block,
			 p.buffering, tt_data_format_name(p.fo),
			 tt_buffer_type_name(p.mo), tt_data_format_name(p.fi),
			 (int)p.fid, p.fp32, cc.causal ? " causal" : "");
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

int tt_op_layernorm(tt_ops_ctx *ctx, const tt_device_tensor *a,
		    const tt_device_tensor *gamma, const tt_device_tensor *beta,
		    float eps, const struct tt_norm_cfg *cfg,
		    tt_device_tensor **out)
{
	struct tt_ops_norm_call c = {
		.fn = "tt_op_layernorm", .op = 1, .a = a, .gamma = gamma,
		.beta = beta, .eps = eps, .scale = 1.0f,
		.cfg = cfg ? *cfg : tt_op_norm_config(),
	};

	return tt_ops_norm_run(ctx, &c, out);
}

int tt_op_rmsnorm(tt_ops_ctx *ctx, const tt_device_tensor *a,
		  const tt_device_tensor *gamma, float eps,
		  const struct tt_norm_cfg *cfg, tt_device_tensor **out)
{
	struct tt_ops_norm_call c = {
		.fn = "tt_op_rmsnorm", .op = 2, .a = a, .gamma = gamma,
		.eps = eps, .scale = 1.0f,
		.cfg = cfg ? *cfg : tt_op_norm_config(),
	};

	return tt_ops_norm_run(ctx, &c, out);
}
