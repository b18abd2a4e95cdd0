// SPDX-License-Identifier: Apache-2.0
/*
 * Pools and upsample on NHWC-flattened activations ([1, 1, N*H*W, C]):
 * max_pool2d, avg_pool2d, global average pool, nearest upsample. One
 * program shape (kernels/pool/ and conv's writer): per output tile the
 * reader gathers one tile per window tap (as conv's im2col does), the
 * compute kernel folds them with max or add on the vector unit (avg then
 * multiplies by a per-pixel divisor tile), the writer stores it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops_internal.h"
#include "ops_conv_writer_src.h"
#include "ops_pool_compute_src.h"
#include "ops_pool_reader_src.h"

#define CB_IN 0u
#define CB_SCALE 1u
#define CB_OUT 16u
#define AUTO_MIN_TILES_PER_CORE 2u
#define MAX_TAPS 65536u

enum { MODE_MAX = 0, MODE_AVG = 1, MODE_UP = 2 };

struct tt_pool2d_params tt_pool2d_params_default(void)
{
	return (struct tt_pool2d_params){
		.batch = 1, .in_h = 1, .in_w = 1, .kernel_h = 1, .kernel_w = 1,
		.stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1,
	};
}

struct tt_pool_cfg tt_op_pool_config(void)
{
	return (struct tt_pool_cfg){ .out_format = TT_OPS_FORMAT_AUTO };
}

/* PyTorch's pooling output size. */
static int64_t pool_dim(int64_t in, int64_t k, int64_t s, int64_t pa,
			int64_t pb, int64_t d, bool ceil_mode)
{
	int64_t num = in + pa + pb - d * (k - 1) - 1, o;

	if (num < 0)
		return -1;
	o = (ceil_mode ? (num + s - 1) / s : num / s) + 1;
	/* the last window must start inside the input or the left padding */
	if (ceil_mode && (o - 1) * s >= in + pa)
		o--;
	return o;
}

static int pool_hw(const char *fn, const struct tt_pool2d_params *p,
		   bool avg, uint32_t *oh, uint32_t *ow)
{
	int64_t h, w;

	if (!p)
		return tt_error(-EINVAL, "%s: p is NULL", fn);
	if (!p->batch || !p->in_h || !p->in_w)
		return tt_error(-EINVAL, "%s: p batch %u, in_h %u, in_w %u: each must be at least 1",
				fn, p->batch, p->in_h, p->in_w);
	if (!p->kernel_h || !p->kernel_w)
		return tt_error(-EINVAL, "%s: p kernel %ux%u: each side must be at least 1",
				fn, p->kernel_h, p->kernel_w);
	if ((uint64_t)p->kernel_h * p->kernel_w > MAX_TAPS)
		return tt_error(-EINVAL, "%s: p kernel %ux%u: at most %u taps",
				fn, p->kernel_h, p->kernel_w, MAX_TAPS);
	if (!p->stride_h || !p->stride_w)
		return tt_error(-EINVAL, "%s: p stride %ux%u: a stride of 0 (at least 1)",
				fn, p->stride_h, p->stride_w);
	if (!p->dilation_h || !p->dilation_w)
		return tt_error(-EINVAL, "%s: p dilation %ux%u: a dilation of 0 (at least 1)",
				fn, p->dilation_h, p->dilation_w);
	if (avg && (p->dilation_h != 1 || p->dilation_w != 1))
		return tt_error(-EINVAL, "%s: p dilation %ux%u: avg_pool2d has no dilation (1)",
				fn, p->dilation_h, p->dilation_w);
	if (p->stride_h > 4096 || p->stride_w > 4096 || p->dilation_h > 4096 ||
	    p->dilation_w > 4096 || p->pad_top > 4096 || p->pad_bottom > 4096 ||
	    p->pad_left > 4096 || p->pad_right > 4096)
		return tt_error(-EINVAL, "%s: p: stride, dilation and padding at most 4096", fn);
	if (2 * p->pad_top > p->kernel_h || 2 * p->pad_bottom > p->kernel_h ||
	    2 * p->pad_left > p->kernel_w || 2 * p->pad_right > p->kernel_w)
		return tt_error(-EINVAL, "%s: p padding %u,%u,%u,%u: at most half the kernel %ux%u",
				fn, p->pad_top, p->pad_bottom, p->pad_left, p->pad_right,
				p->kernel_h, p->kernel_w);
	h = pool_dim(p->in_h, p->kernel_h, p->stride_h, p->pad_top, p->pad_bottom,
		     p->dilation_h, p->ceil_mode);
	w = pool_dim(p->in_w, p->kernel_w, p->stride_w, p->pad_left, p->pad_right,
		     p->dilation_w, p->ceil_mode);
	if (h < 1 || w < 1)
		return tt_error(-EINVAL,
				"%s: the output would be %lldx%lld: the kernel %ux%u (dilation %ux%u) is larger than the padded input %ux%u",
				fn, (long long)h, (long long)w, p->kernel_h, p->kernel_w,
				p->dilation_h, p->dilation_w,
				p->in_h + p->pad_top + p->pad_bottom,
				p->in_w + p->pad_left + p->pad_right);
	*oh = (uint32_t)h;
	*ow = (uint32_t)w;
	return 0;
}

int tt_pool2d_out_hw(const struct tt_pool2d_params *p, uint32_t *oh,
		     uint32_t *ow)
{
	if (!oh || !ow)
		return tt_error(-EINVAL, "tt_pool2d_out_hw: %s is NULL", !oh ? "oh" : "ow");
	return pool_hw("tt_pool2d_out_hw", p, false, oh, ow);
}

struct plan {
	const char *fn;
	uint32_t mode, oh, ow, c, ct, mt, taps;
	uint64_t npix, units;
	enum tt_data_format fx, fo;
	enum tt_buffer_type mx, mo;
	struct tt_xy grid;
	uint32_t cores;
	bool fp32;
	struct tt_shape oshape;
};

static uint32_t fill_of(uint32_t mode, enum tt_data_format f)
{
	if (mode != MODE_MAX)
		return 0;
	if (f == TT_FLOAT32)
		return 0xFF800000u;
	if (f == TT_FLOAT16)
		return 0xFC00FC00u;
	return 0xFF80FF80u;
}

static int build(const struct plan *pl, const struct tt_pool2d_params *p,
		 const struct tt_ops_key *key, struct tt_ops_entry **out)
{
	struct tt_kernel_config rc = tt_reader_config(), wc = tt_writer_config();
	struct tt_kernel_config cc = tt_compute_config();
	struct tt_core_range_set set;
	tt_kernel_handle kr, kw, kc;
	struct tt_ops_entry *e;
	int ret;
	const struct tt_named_arg rargs[] = {
		{ "X_DRAM", pl->mx == TT_BUFFER_DRAM },
	};
	const uint32_t rgeom[] = {
		p->in_h, p->in_w, pl->ct, pl->oh, pl->ow, (uint32_t)pl->npix,
		p->kernel_h, p->kernel_w, p->stride_h, p->stride_w, p->pad_top,
		p->pad_left, p->dilation_h, p->dilation_w, pl->mode,
		(uint32_t)tt_tile_size(pl->fx) / 1024u, fill_of(pl->mode, pl->fx),
		p->pad_bottom, p->pad_right, p->count_include_pad,
	};
	const uint32_t wgeom[] = { pl->mt, pl->ct, pl->ct };
	const struct tt_named_arg cargs[] = {
		{ "MODE", pl->mode },
		{ "TAPS", pl->taps },
	};
	const struct tt_named_arg wargs[] = {
		{ "RT", 1 },
		{ "NB", 1 },
		{ "OUT_DRAM", pl->mo == TT_BUFFER_DRAM },
	};

	ret = tt_num_cores_to_core_range_set(pl->cores, pl->grid, true, &set);
	if (ret)
		return ret;
	ret = tt_ops_entry_new(pl->fn, pl->cores, &e);
	if (ret)
		return ret;
	e->key = *key;
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_IN, pl->fx, 4);
	if (!ret && pl->mode == MODE_AVG)
		ret = tt_ops_add_cb(e->prog, &set, CB_SCALE, TT_FLOAT32, 2);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_OUT, pl->fo, 2);
	rc.named_compile_args = rargs;
	rc.named_compile_arg_count = TT_OPS_NARGS(rargs);
	wc.named_compile_args = wargs;
	wc.named_compile_arg_count = TT_OPS_NARGS(wargs);
	cc.named_compile_args = cargs;
	cc.named_compile_arg_count = TT_OPS_NARGS(cargs);
	cc.fp32_dest_acc_en = pl->fp32;
	cc.dst_full_sync_en = true;
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_pool_reader,
						   &set, &rc, &kr);
	if (!ret)
		ret = tt_set_common_runtime_args(e->prog, kr, rgeom,
						 TT_OPS_NARGS(rgeom));
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_pool_compute,
						   &set, &cc, &kc);
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_conv_writer,
						   &set, &wc, &kw);
	if (!ret)
		ret = tt_set_common_runtime_args(e->prog, kw, wgeom,
						 TT_OPS_NARGS(wgeom));
	for (uint32_t i = 0, start = 0; !ret && i < pl->cores; i++) {
		struct tt_ops_core *oc = &e->cores[i];
		uint32_t n = (uint32_t)(pl->units / pl->cores) + (i < pl->units % pl->cores);
		uint32_t r[4] = { 0, 0, start, n }, w[4] = { 0, 0, start, n };
		uint32_t crt[2] = { start, n };
		unsigned cnt;

		oc->xy = (struct tt_xy){ i % pl->grid.x, i / pl->grid.x };
		oc->start = start;
		oc->tiles = n;
		ret = tt_set_runtime_args(e->prog, kr, oc->xy, r, 4);
		if (!ret)
			ret = tt_set_runtime_args(e->prog, kw, oc->xy, w, 4);
		if (!ret)
			ret = tt_set_runtime_args(e->prog, kc, oc->xy, crt, 2);
		if (!ret)
			ret = tt_get_runtime_args(e->prog, kr, oc->xy, &oc->rargs, &cnt);
		if (!ret)
			ret = tt_get_runtime_args(e->prog, kw, oc->xy, &oc->wargs, &cnt);
		start += n;
	}
	if (ret) {
		tt_ops_entry_free(e);
		return ret;
	}
	*out = e;
	return 0;
}

static int plan_cfg(tt_ops_ctx *ctx, struct plan *pl, const tt_device_tensor *x,
		    const struct tt_pool_cfg *c)
{
	unsigned gw, gh;
	uint64_t need, have, max_cores;
	int ret;

	pl->fx = tt_device_tensor_format(x);
	pl->mx = tt_buffer_type(tt_device_tensor_buffer(x));
	pl->fo = c->out_format == TT_OPS_FORMAT_AUTO ? pl->fx : c->out_format;
	if (!tt_ops_format_ok(pl->fo))
		return tt_error(tt_tile_size(pl->fo) ? -ENOTSUP : -EINVAL,
				"%s: cfg.out_format %s (%d): pools write Float32, Float16, Float16_b, Bfp8_b and Bfp4_b",
				pl->fn, tt_data_format_name(pl->fo), (int)pl->fo);
	switch (c->out_mem) {
	case TT_OPS_MEM_AUTO: pl->mo = pl->mx; break;
	case TT_OPS_MEM_DRAM: pl->mo = TT_BUFFER_DRAM; break;
	case TT_OPS_MEM_L1: pl->mo = TT_BUFFER_L1; break;
	default:
		return tt_error(-EINVAL, "%s: cfg.out_mem %d is not a placement (0 auto, 1 DRAM, 2 L1)",
				pl->fn, (int)c->out_mem);
	}
	if ((unsigned)c->fp32_acc > TT_OPS_ON)
		return tt_error(-EINVAL, "%s: cfg.fp32_acc %d is not auto (0), off (1) or on (2)",
				pl->fn, (int)c->fp32_acc);
	pl->fp32 = c->fp32_acc == TT_OPS_ON ||
		   (c->fp32_acc == TT_OPS_AUTO &&
		    (pl->mode == MODE_AVG || pl->fx == TT_FLOAT32 || pl->fo == TT_FLOAT32));
	ret = tt_device_logical_grid(ctx->dev, &gw, &gh);
	if (ret)
		return ret;
	pl->grid = c->grid;
	if (!pl->grid.x && !pl->grid.y)
		pl->grid = (struct tt_xy){ gw, gh };
	if (!pl->grid.x || !pl->grid.y || pl->grid.x > gw || pl->grid.y > gh)
		return tt_error(-EINVAL, "%s: cfg.grid %ux%u does not fit the device's %ux%u logical grid",
				pl->fn, pl->grid.x, pl->grid.y, gw, gh);
	max_cores = (uint64_t)pl->grid.x * pl->grid.y;
	if (c->tiles_per_core) {
		uint64_t n = (pl->units + c->tiles_per_core - 1) / c->tiles_per_core;

		if (n > max_cores)
			return tt_error(-EINVAL,
					"%s: cfg.tiles_per_core %u: %llu tiles need %llu cores, cfg.grid %ux%u has %llu",
					pl->fn, c->tiles_per_core, (unsigned long long)pl->units,
					(unsigned long long)n, pl->grid.x, pl->grid.y,
					(unsigned long long)max_cores);
		pl->cores = (uint32_t)n;
	} else {
		uint64_t n = (c->grid.x || c->grid.y) ? pl->units :
			(pl->units + AUTO_MIN_TILES_PER_CORE - 1) / AUTO_MIN_TILES_PER_CORE;

		pl->cores = (uint32_t)(n < max_cores ? n : max_cores);
	}
	need = 4ull * tt_tile_size(pl->fx) + 2ull * tt_tile_size(pl->fo) +
	       (pl->mode == MODE_AVG ? 2ull * tt_tile_size(TT_FLOAT32) : 0);
	have = tt_ops_l1_free(ctx);
	if (need > have)
		return tt_error(-ENOMEM, "%s: circular buffers need %llu bytes of L1 per core, a core has %llu free",
				pl->fn, (unsigned long long)need, (unsigned long long)have);
	return 0;
}

static int run(tt_ops_ctx *ctx, const char *fn, uint32_t mode,
	       const tt_device_tensor *x, const struct tt_pool2d_params *p,
	       uint32_t oh, uint32_t ow, const struct tt_pool_cfg *cfg,
	       tt_device_tensor **out)
{
	struct tt_pool_cfg c = cfg ? *cfg : tt_op_pool_config();
	double t0 = tt_ops_now_us();
	tt_device_tensor *xt = NULL;
	const tt_device_tensor *xs = x;
	struct tt_ops_entry *e;
	struct tt_ops_key key;
	struct plan pl;
	uint64_t xd[4], d[4];
	bool created = false, hit;
	char s1[100], s2[100];
	int ret;

	memset(&pl, 0, sizeof(pl));
	pl.fn = fn;
	pl.mode = mode;
	pl.oh = oh;
	pl.ow = ow;
	ret = tt_shape_wzrc(tt_device_tensor_shape(x), xd);
	if (ret)
		return ret;
	pl.npix = (uint64_t)p->batch * p->in_h * p->in_w;
	if (xd[0] != 1 || xd[1] != 1 || xd[2] != pl.npix || xd[3] > 65535)
		return tt_error(-EINVAL,
				"%s: x is %s; with batch %u, in_h %u, in_w %u it must be [1, 1, %llu, C] (NHWC flattened, C at most 65535)",
				fn, tt_ops_shape_str(tt_device_tensor_shape(x), s1, sizeof(s1)),
				p->batch, p->in_h, p->in_w, (unsigned long long)pl.npix);
	pl.c = (uint32_t)xd[3];
	pl.ct = (pl.c + 31) / 32;
	pl.npix = (uint64_t)p->batch * oh * ow;
	if (pl.npix > (1ull << 30))
		return tt_error(-E2BIG, "%s: %llu output pixels; at most 2^30",
				fn, (unsigned long long)pl.npix);
	pl.mt = (uint32_t)((pl.npix + 31) / 32);
	pl.units = (uint64_t)pl.mt * pl.ct;
	pl.taps = mode == MODE_UP ? 1 : p->kernel_h * p->kernel_w;
	pl.oshape = TT_SHAPE(1, 1, pl.npix, pl.c);
	if (*out) {
		if (c.out_format == TT_OPS_FORMAT_AUTO)
			c.out_format = tt_device_tensor_format(*out);
		if (c.out_mem == TT_OPS_MEM_AUTO)
			c.out_mem = tt_buffer_type(tt_device_tensor_buffer(*out)) == TT_BUFFER_L1 ?
					    TT_OPS_MEM_L1 : TT_OPS_MEM_DRAM;
	}
	if (c.out_format == TT_OPS_FORMAT_AUTO)
		c.out_format = tt_device_tensor_format(x);
	ret = plan_cfg(ctx, &pl, x, &c);
	if (ret)
		return ret;
	if (*out) {
		uint64_t want[4] = { 1, 1, pl.npix, pl.c };

		ret = tt_shape_wzrc(tt_device_tensor_shape(*out), d);
		if (ret)
			return ret;
		if (memcmp(d, want, sizeof(d)))
			return tt_error(-EINVAL, "%s: out is %s; the result is %s", fn,
					tt_ops_shape_str(tt_device_tensor_shape(*out), s1, sizeof(s1)),
					tt_ops_shape_str(&pl.oshape, s2, sizeof(s2)));
		if (tt_device_tensor_format(*out) != pl.fo)
			return tt_error(-EINVAL, "%s: out is %s; cfg.out_format asks for %s",
					fn, tt_data_format_name(tt_device_tensor_format(*out)),
					tt_data_format_name(pl.fo));
		if (tt_buffer_type(tt_device_tensor_buffer(*out)) != pl.mo)
			return tt_error(-EINVAL, "%s: out is in %s; cfg.out_mem asks for %s", fn,
					tt_buffer_type_name(tt_buffer_type(tt_device_tensor_buffer(*out))),
					tt_buffer_type_name(pl.mo));
	}
	if (tt_data_format_is_block(pl.fx)) {
		struct tt_eltwise_cfg ec = tt_op_eltwise_config();

		ec.out_mem = pl.mx == TT_BUFFER_L1 ? TT_OPS_MEM_L1 : TT_OPS_MEM_DRAM;
		ret = tt_op_typecast(ctx, x, TT_FLOAT16_B, &ec, &xt);
		if (ret)
			return ret;
		xs = xt;
		pl.fx = TT_FLOAT16_B;
	}
	if (!*out) {
		ret = tt_device_tensor_create(ctx->dev, &pl.oshape, pl.fo, pl.mo, out);
		if (ret) {
			ret = tt_error(ret, "%s: output %s %s in %s: %s", fn,
				       tt_ops_shape_str(&pl.oshape, s1, sizeof(s1)),
				       tt_data_format_name(pl.fo),
				       tt_buffer_type_name(pl.mo), tt_last_error());
			goto fail;
		}
		created = true;
	}

	memset(&key, 0, sizeof(key));
	key.family = TT_OPS_CONV;
	key.op[0] = 16 + mode;
	key.op[1] = p->ceil_mode;
	key.op[2] = p->count_include_pad;
	key.param[0] = p->kernel_h | p->kernel_w << 16;
	key.param[1] = p->stride_h | p->stride_w << 16;
	key.param[2] = p->dilation_h | p->dilation_w << 16;
	key.shape[0][0] = p->batch;
	key.shape[0][1] = p->in_h;
	key.shape[0][2] = p->in_w;
	key.shape[0][3] = pl.c;
	key.shape[1][0] = (uint64_t)p->pad_top << 32 | p->pad_bottom;
	key.shape[1][1] = (uint64_t)p->pad_left << 32 | p->pad_right;
	key.shape[2][0] = oh;
	key.shape[2][1] = ow;
	key.fmt[0] = pl.fx;
	key.fmt[2] = pl.fo;
	key.mem[0] = pl.mx;
	key.mem[2] = pl.mo;
	key.grid_x = pl.grid.x;
	key.grid_y = pl.grid.y;
	key.cores = pl.cores;
	key.tiles_per_core = c.tiles_per_core;
	key.fp32 = pl.fp32;
	e = tt_ops_cache_find(ctx, &key);
	hit = e != NULL;
	if (!e) {
		ret = build(&pl, p, &key, &e);
		if (ret)
			goto fail;
		tt_ops_cache_add(ctx, e);
	}
	for (unsigned i = 0; i < e->ncores; i++) {
		e->cores[i].rargs[0] = (uint32_t)tt_buffer_address(tt_device_tensor_buffer(xs));
		e->cores[i].rargs[1] = (uint32_t)tt_device_tensor_first_tile(xs);
		e->cores[i].wargs[0] = (uint32_t)tt_buffer_address(tt_device_tensor_buffer(*out));
		e->cores[i].wargs[1] = (uint32_t)tt_device_tensor_first_tile(*out);
	}
	ret = tt_ops_enqueue(ctx, e->prog, false);
	if (ret)
		goto fail;
	if (xt) {
		ret = tt_finish(ctx->cq);
		tt_device_tensor_free(xt);
		xt = NULL;
		if (ret)
			goto fail;
	}
	if (ctx->prof_prefix) {
		struct tt_ops_rec r = { .hit = hit, .cores = pl.cores,
					.tiles = pl.units, .start_us = t0 };
		double t1 = tt_ops_now_us();

		ret = tt_finish(ctx->cq);
		r.enqueue_us = t1 - t0;
		r.finish_us = tt_ops_now_us() - t1;
		snprintf(r.name, sizeof(r.name), "%s", fn);
		snprintf(r.shapes, sizeof(r.shapes), "x %s %s -> %s %s",
			 tt_ops_shape_str(tt_device_tensor_shape(x), s1, sizeof(s1)),
			 tt_data_format_name(tt_device_tensor_format(x)),
			 tt_ops_shape_str(&pl.oshape, s2, sizeof(s2)),
			 tt_data_format_name(pl.fo));
		snprintf(r.config, sizeof(r.config),
			 "grid %ux%u cores %u out %s %s fp32_acc %d kernel %ux%u stride %ux%u",
			 pl.grid.x, pl.grid.y, pl.cores, tt_data_format_name(pl.fo),
			 tt_buffer_type_name(pl.mo), pl.fp32, p->kernel_h, p->kernel_w,
			 p->stride_h, p->stride_w);
		tt_ops_profile_record(ctx, &r);
		if (ret)
			goto fail;
	}
	return 0;
fail:
	if (xt) {
		tt_finish(ctx->cq);
		tt_device_tensor_free(xt);
	}
	if (created) {
		tt_finish(ctx->cq);
		tt_device_tensor_free(*out);
		*out = NULL;
	}
	return ret;
}

static int common_checks(tt_ops_ctx *ctx, const char *fn,
			 const tt_device_tensor *x, tt_device_tensor **out)
{
	int ret;

	if (!ctx)
		return tt_error(-EINVAL, "%s: ctx is NULL", fn);
	if (!x || !out)
		return tt_error(-EINVAL, "%s: %s is NULL", fn, !x ? "x" : "out");
	ret = tt_ops_check_tensor(ctx, fn, "x", x);
	if (!ret && *out)
		ret = tt_ops_check_tensor(ctx, fn, "out", *out);
	return ret;
}

static int pool(tt_ops_ctx *ctx, const char *fn, uint32_t mode,
		const tt_device_tensor *x, const struct tt_pool2d_params *p,
		const struct tt_pool_cfg *cfg, tt_device_tensor **out)
{
	uint32_t oh, ow;
	int ret = common_checks(ctx, fn, x, out);

	if (!ret)
		ret = pool_hw(fn, p, mode == MODE_AVG, &oh, &ow);
	if (ret)
		return ret;
	return run(ctx, fn, mode, x, p, oh, ow, cfg, out);
}

int tt_op_max_pool2d(tt_ops_ctx *ctx, const tt_device_tensor *x,
		     const struct tt_pool2d_params *p,
		     const struct tt_pool_cfg *cfg, tt_device_tensor **out)
{
	return pool(ctx, "tt_op_max_pool2d", MODE_MAX, x, p, cfg, out);
}

int tt_op_avg_pool2d(tt_ops_ctx *ctx, const tt_device_tensor *x,
		     const struct tt_pool2d_params *p,
		     const struct tt_pool_cfg *cfg, tt_device_tensor **out)
{
	return pool(ctx, "tt_op_avg_pool2d", MODE_AVG, x, p, cfg, out);
}

int tt_op_global_avg_pool2d(tt_ops_ctx *ctx, const tt_device_tensor *x,
			    uint32_t batch, uint32_t in_h, uint32_t in_w,
			    const struct tt_pool_cfg *cfg,
			    tt_device_tensor **out)
{
	struct tt_pool2d_params p = tt_pool2d_params_default();

	p.batch = batch;
	p.in_h = in_h;
	p.in_w = in_w;
	p.kernel_h = in_h;
	p.kernel_w = in_w;
	return pool(ctx, "tt_op_global_avg_pool2d", MODE_AVG, x, &p, cfg, out);
}

int tt_op_upsample_nearest(tt_ops_ctx *ctx, const tt_device_tensor *x,
			   uint32_t batch, uint32_t in_h, uint32_t in_w,
			   uint32_t scale_h, uint32_t scale_w,
			   const struct tt_pool_cfg *cfg, tt_device_tensor **out)
{
	const char *fn = "tt_op_upsample_nearest";
	struct tt_pool2d_params p = tt_pool2d_params_default();
	int ret = common_checks(ctx, fn, x, out);

	if (ret)
		return ret;
	if (!batch || !in_h || !in_w)
		return tt_error(-EINVAL, "%s: batch %u, in_h %u, in_w %u: each must be at least 1",
				fn, batch, in_h, in_w);
	if (!scale_h || !scale_w || scale_h > 1024 || scale_w > 1024)
		return tt_error(-EINVAL, "%s: scale %ux%u: each must be 1..1024",
				fn, scale_h, scale_w);
	if ((uint64_t)in_h * scale_h > 65535 || (uint64_t)in_w * scale_w > 65535)
		return tt_error(-EINVAL, "%s: the output would be %llux%llu; at most 65535 a side",
				fn, (unsigned long long)in_h * scale_h,
				(unsigned long long)in_w * scale_w);
	p.batch = batch;
	p.in_h = in_h;
	p.in_w = in_w;
	p.stride_h = scale_h;
	p.stride_w = scale_w;
	return run(ctx, fn, MODE_UP, x, &p, in_h * scale_h, in_w * scale_w, cfg,
		   out);
}
