// SPDX-License-Identifier: Apache-2.0
/*
 * conv2d and conv_transpose2d: an on-device im2col feeding matmul_block_k
 * (kernels/conv/). The output [N*OH*OW, Cout] is cut in blocks of RT x NB
 * tiles split over the cores; the reader gathers the im2col rows of a
 * block straight into tile layout (zeros for padding) and reads the
 * weight tiles, the compute kernel does one matmul_block_k per K step
 * and adds bias and the activation, the writer stores the block.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops_internal.h"
#include "ops_conv_compute_src.h"
#include "ops_conv_reader_src.h"
#include "ops_conv_writer_src.h"

#define CB_A 0u
#define CB_B 1u
#define CB_ONES 2u
#define CB_BIAS 3u
#define CB_OUT 16u
/* Auto: at least this many output tiles per core (launch costs). */
#define AUTO_MIN_TILES_PER_CORE 2u

struct tt_conv2d_params tt_conv2d_params_default(void)
{
	return (struct tt_conv2d_params){
		.batch = 1, .in_h = 1, .in_w = 1, .kernel_h = 1, .kernel_w = 1,
		.stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1,
		.groups = 1,
	};
}

struct tt_conv2d_cfg tt_op_conv2d_config(void)
{
	return (struct tt_conv2d_cfg){
		.out_format = TT_OPS_FORMAT_AUTO,
		.math_fidelity = TT_OPS_FIDELITY_AUTO,
	};
}

/* Output size of one dimension; -1 when below 1. */
static int64_t out_dim(int64_t in, int64_t k, int64_t s, int64_t pa, int64_t pb,
		       int64_t d, int64_t op, bool tr)
{
	if (tr)
		return (in - 1) * s - pa - pb + d * (k - 1) + op + 1;
	return (in + pa + pb - d * (k - 1) - 1) / s + 1 -
	       ((in + pa + pb - d * (k - 1) - 1) < 0 ? 1 : 0);
}

static int check_params(const char *fn, const struct tt_conv2d_params *p,
			bool tr)
{
	if (!p)
		return tt_error(-EINVAL, "%s: p is NULL", fn);
	if (!p->batch || !p->in_h || !p->in_w)
		return tt_error(-EINVAL, "%s: p batch %u, in_h %u, in_w %u: each must be at least 1",
				fn, p->batch, p->in_h, p->in_w);
	if (!p->kernel_h || !p->kernel_w)
		return tt_error(-EINVAL, "%s: p kernel %ux%u: each side must be at least 1",
				fn, p->kernel_h, p->kernel_w);
	if (!p->stride_h || !p->stride_w)
		return tt_error(-EINVAL, "%s: p stride %ux%u: a stride of 0 (at least 1)",
				fn, p->stride_h, p->stride_w);
	if (!p->dilation_h || !p->dilation_w)
		return tt_error(-EINVAL, "%s: p dilation %ux%u: a dilation of 0 (at least 1)",
				fn, p->dilation_h, p->dilation_w);
	if (!p->groups)
		return tt_error(-EINVAL, "%s: p groups 0 (at least 1)", fn);
	if (p->kernel_h > 255 || p->kernel_w > 255 || p->stride_h > 4096 ||
	    p->stride_w > 4096 || p->dilation_h > 4096 || p->dilation_w > 4096 ||
	    p->pad_top > 4096 || p->pad_bottom > 4096 || p->pad_left > 4096 ||
	    p->pad_right > 4096)
		return tt_error(-EINVAL, "%s: p: kernel sides at most 255, stride, dilation and padding at most 4096",
				fn);
	if (!tr && (p->out_pad_h || p->out_pad_w))
		return tt_error(-EINVAL, "%s: p out_pad %ux%u: only conv_transpose2d has an output padding",
				fn, p->out_pad_h, p->out_pad_w);
	if (tr && (p->out_pad_h >= p->stride_h && p->out_pad_h >= p->dilation_h))
		return tt_error(-EINVAL, "%s: p out_pad_h %u: must be below stride_h %u or dilation_h %u",
				fn, p->out_pad_h, p->stride_h, p->dilation_h);
	if (tr && (p->out_pad_w >= p->stride_w && p->out_pad_w >= p->dilation_w))
		return tt_error(-EINVAL, "%s: p out_pad_w %u: must be below stride_w %u or dilation_w %u",
				fn, p->out_pad_w, p->stride_w, p->dilation_w);
	return 0;
}

static int out_hw(const char *fn, const struct tt_conv2d_params *p, bool tr,
		  uint32_t *oh, uint32_t *ow)
{
	int64_t h, w;
	int ret = check_params(fn, p, tr);

	if (ret)
		return ret;
	h = out_dim(p->in_h, p->kernel_h, p->stride_h, p->pad_top, p->pad_bottom,
		    p->dilation_h, p->out_pad_h, tr);
	w = out_dim(p->in_w, p->kernel_w, p->stride_w, p->pad_left, p->pad_right,
		    p->dilation_w, p->out_pad_w, tr);
	if (h < 1 || w < 1)
		return tt_error(-EINVAL,
				"%s: the output would be %lldx%lld: the kernel %ux%u (dilation %ux%u) is larger than the padded input %ux%u",
				fn, (long long)h, (long long)w, p->kernel_h,
				p->kernel_w, p->dilation_h, p->dilation_w,
				p->in_h + p->pad_top + p->pad_bottom,
				p->in_w + p->pad_left + p->pad_right);
	if (h > 65535 || w > 65535)
		return tt_error(-EINVAL, "%s: the output would be %lldx%lld; at most 65535 a side",
				fn, (long long)h, (long long)w);
	*oh = (uint32_t)h;
	*ow = (uint32_t)w;
	return 0;
}

int tt_conv2d_out_hw(const struct tt_conv2d_params *p, bool transposed,
		     uint32_t *oh, uint32_t *ow)
{
	if (!oh || !ow)
		return tt_error(-EINVAL, "tt_conv2d_out_hw: %s is NULL", !oh ? "oh" : "ow");
	return out_hw("tt_conv2d_out_hw", p, transposed, oh, ow);
}

static int mem_type(const char *fn, enum tt_ops_mem m, enum tt_buffer_type dflt,
		    enum tt_buffer_type *out)
{
	return tt_ops_out_mem_interleaved(fn, m, dflt, out);
}

/* The call with every "auto" resolved. */
struct plan {
	const char *fn;
	bool tr, bias;
	uint32_t oh, ow, cin, cout, ct, nt, kt, mt;
	uint64_t npix;
	enum tt_data_format fx, fw, fb, fo;
	enum tt_buffer_type mx, mw, mb, mo;
	struct tt_xy grid;
	uint32_t cores, rt, nb, kb, nblk, units;
	enum tt_math_fidelity fid;
	bool fp32;
	struct tt_unary_fn act; /* fused in the kernel (else NONE) */
	struct tt_unary_fn post; /* applied after by tt_op_unary */
	struct tt_shape oshape;
};

static bool act_fused(enum tt_unary_op op)
{
	switch (op) {
	case TT_UNARY_NONE: case TT_UNARY_RELU: case TT_UNARY_RELU6:
	case TT_UNARY_CLIP: case TT_UNARY_LEAKY_RELU: case TT_UNARY_SIGMOID:
	case TT_UNARY_TANH: case TT_UNARY_GELU: case TT_UNARY_SILU:
		return true;
	default:
		return false;
	}
}

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static int plan_all(tt_ops_ctx *ctx, struct plan *p, const tt_device_tensor *x,
		    const tt_device_tensor *w, const tt_device_tensor *bias,
		    const struct tt_conv2d_params *prm,
		    const struct tt_conv2d_cfg *c)
{
	uint64_t xd[4], wd[4], bd[4], need, have;
	unsigned gw, gh, dst;
	char s1[100];
	int ret;

	ret = out_hw(p->fn, prm, p->tr, &p->oh, &p->ow);
	if (ret)
		return ret;
	ret = tt_shape_wzrc(tt_device_tensor_shape(x), xd);
	if (!ret)
		ret = tt_shape_wzrc(tt_device_tensor_shape(w), wd);
	if (ret)
		return ret;
	p->npix = (uint64_t)prm->batch * prm->in_h * prm->in_w;
	if (xd[0] != 1 || xd[1] != 1 || xd[2] != p->npix)
		return tt_error(-EINVAL,
				"%s: x is %s; with batch %u, in_h %u, in_w %u it must be [1, 1, %llu, C] (NHWC flattened)",
				p->fn, tt_ops_shape_str(tt_device_tensor_shape(x), s1, sizeof(s1)),
				prm->batch, prm->in_h, prm->in_w,
				(unsigned long long)p->npix);
	p->cin = (uint32_t)xd[3];
	if (xd[3] > 65535)
		return tt_error(-EINVAL, "%s: x has %llu channels; at most 65535",
				p->fn, (unsigned long long)xd[3]);
	p->ct = (p->cin + 31) / 32;
	p->cout = (uint32_t)wd[3];
	if (p->cin % prm->groups)
		return tt_error(-EINVAL, "%s: groups %u does not divide the input channels %u",
				p->fn, prm->groups, p->cin);
	if (wd[0] != 1 || wd[1] != 1 ||
	    wd[2] != (uint64_t)prm->kernel_h * prm->kernel_w * p->ct * 32 ||
	    wd[3] > 65535)
		return tt_error(-EINVAL,
				"%s: w is %s; for a %ux%u kernel over %u input channels it must be [1, 1, %llu, Cout] (tt_%s_weights_create)",
				p->fn, tt_ops_shape_str(tt_device_tensor_shape(w), s1, sizeof(s1)),
				prm->kernel_h, prm->kernel_w, p->cin,
				(unsigned long long)prm->kernel_h * prm->kernel_w * p->ct * 32,
				p->tr ? "conv_transpose2d" : "conv2d");
	if (p->cout % prm->groups)
		return tt_error(-EINVAL, "%s: groups %u does not divide the output channels %u",
				p->fn, prm->groups, p->cout);
	p->nt = (p->cout + 31) / 32;
	p->kt = prm->kernel_h * prm->kernel_w * p->ct;
	p->npix = (uint64_t)prm->batch * p->oh * p->ow;
	if (p->npix > (1ull << 30))
		return tt_error(-E2BIG, "%s: %llu output pixels; at most 2^30",
				p->fn, (unsigned long long)p->npix);
	p->mt = (uint32_t)((p->npix + 31) / 32);
	p->oshape = TT_SHAPE(1, 1, p->npix, p->cout);
	if (bias) {
		ret = tt_shape_wzrc(tt_device_tensor_shape(bias), bd);
		if (ret)
			return ret;
		if (bd[0] != 1 || bd[1] != 1 || bd[2] != 1 || bd[3] != p->cout)
			return tt_error(-EINVAL, "%s: bias is %s; it must be [%u] (one value per output channel)",
					p->fn, tt_ops_shape_str(tt_device_tensor_shape(bias), s1, sizeof(s1)),
					p->cout);
		p->bias = true;
		p->fb = tt_device_tensor_format(bias);
		p->mb = tt_buffer_type(tt_device_tensor_buffer(bias));
	} else {
		p->fb = TT_FLOAT16_B;
		p->mb = TT_BUFFER_DRAM;
	}
	p->fx = tt_device_tensor_format(x);
	p->fw = tt_device_tensor_format(w);
	p->mx = tt_buffer_type(tt_device_tensor_buffer(x));
	p->mw = tt_buffer_type(tt_device_tensor_buffer(w));

	/* formats, placement, math */
	p->fo = c->out_format == TT_OPS_FORMAT_AUTO ? p->fx : c->out_format;
	if (!tt_ops_format_ok(p->fo))
		return tt_error(tt_tile_size(p->fo) ? -ENOTSUP : -EINVAL,
				"%s: cfg.out_format %s (%d): conv writes Float32, Float16, Float16_b, Bfp8_b and Bfp4_b",
				p->fn, tt_data_format_name(p->fo), (int)p->fo);
	ret = mem_type(p->fn, c->out_mem, p->mx, &p->mo);
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
	p->fp32 = c->fp32_acc == TT_OPS_ON ||
		  (c->fp32_acc == TT_OPS_AUTO &&
		   (p->fx == TT_FLOAT32 || p->fw == TT_FLOAT32 || p->fo == TT_FLOAT32));
	if ((unsigned)c->activation.op >= TT_UNARY_OP_COUNT)
		return tt_error(-EINVAL, "%s: cfg.activation %d is not a unary function (0..%d)",
				p->fn, (int)c->activation.op, TT_UNARY_OP_COUNT - 1);
	if (c->activation.op == TT_UNARY_CLIP && !(c->activation.p0 <= c->activation.p1))
		return tt_error(-EINVAL, "%s: cfg.activation clip: lower bound %g above upper bound %g",
				p->fn, (double)c->activation.p0, (double)c->activation.p1);
	if (c->activation.op == TT_UNARY_LEAKY_RELU && !isfinite(c->activation.p0))
		return tt_error(-EINVAL, "%s: cfg.activation leaky_relu: slope %g is not finite",
				p->fn, (double)c->activation.p0);
	if (act_fused(c->activation.op)) {
		p->act = c->activation;
	} else {
		p->post = c->activation;
	}

	/* blocking */
	dst = p->fp32 ? 8 : 16;
	if (c->block_cols) {
		if (c->block_cols > dst)
			return tt_error(-EINVAL, "%s: cfg.block_cols %u: a block's tiles must fit DST's %u%s",
					p->fn, c->block_cols, dst, p->fp32 ? " (fp32 accumulation)" : "");
		p->nb = c->block_cols;
	} else {
		p->nb = p->nt < dst ? p->nt : dst;
	}
	ret = tt_device_logical_grid(ctx->dev, &gw, &gh);
	if (ret)
		return ret;
	p->grid = c->grid;
	if (!p->grid.x && !p->grid.y)
		p->grid = (struct tt_xy){ gw, gh };
	if (!p->grid.x || !p->grid.y || p->grid.x > gw || p->grid.y > gh)
		return tt_error(-EINVAL, "%s: cfg.grid %ux%u does not fit the device's %ux%u logical grid",
				p->fn, p->grid.x, p->grid.y, gw, gh);
	p->nblk = (p->nt + p->nb - 1) / p->nb;
	if (c->block_rows) {
		if ((uint64_t)c->block_rows * p->nb > dst)
			return tt_error(-EINVAL,
					"%s: cfg.block_rows %u x block_cols %u = %u tiles; DST holds %u%s",
					p->fn, c->block_rows, p->nb, c->block_rows * p->nb,
					dst, p->fp32 ? " with fp32 accumulation" : "");
		p->rt = c->block_rows;
	} else {
		/* As many rows as DST holds, but enough blocks for the grid. */
		uint64_t cores = (uint64_t)p->grid.x * p->grid.y;
		uint64_t want = (uint64_t)p->mt * p->nt / AUTO_MIN_TILES_PER_CORE;
		uint64_t rows_per = 0;

		if (want < 1)
			want = 1;
		if (want < cores)
			cores = want;
		rows_per = ((uint64_t)p->mt * p->nblk + cores - 1) / cores;
		p->rt = dst / p->nb;
		if (rows_per < p->rt)
			p->rt = (uint32_t)(rows_per ? rows_per : 1);
	}
	if (c->block_k > 255)
		return tt_error(-EINVAL, "%s: cfg.block_k %u: at most 255 tiles", p->fn, c->block_k);
	p->kb = c->block_k ? c->block_k : (p->kt < 255 ? p->kt : 255);
	p->units = ((p->mt + p->rt - 1) / p->rt) * p->nblk;
	p->cores = p->units < p->grid.x * p->grid.y ? p->units : p->grid.x * p->grid.y;
	if (!c->grid.x && !c->grid.y) {
		uint32_t want = (p->mt * p->nt + AUTO_MIN_TILES_PER_CORE - 1) / AUTO_MIN_TILES_PER_CORE;

		if (want < p->cores)
			p->cores = want ? want : 1;
	}

	/* L1: auto shrinks block_k until the buffers fit */
	have = tt_ops_l1_free(ctx);
	for (;;) {
		need = 2ull * p->rt * p->kb * tt_tile_size(p->fx) +
		       2ull * p->kb * p->nb * tt_tile_size(p->fw) +
		       2ull * p->rt * p->nb * tt_tile_size(p->fo) +
		       (p->bias ? p->rt * tt_tile_size(TT_FLOAT16_B) + (uint64_t)p->nt * tt_tile_size(p->fb) : 0);
		if (need <= have || c->block_k || p->kb == 1)
			break;
		p->kb = (p->kb + 1) / 2;
	}
	if (need > have)
		return tt_error(-ENOMEM,
				"%s: circular buffers need %llu bytes of L1 per core (block %ux%u tiles, block_k %u, double-buffered), a core has %llu free",
				p->fn, (unsigned long long)need, p->rt, p->nb, p->kb,
				(unsigned long long)have);
	return 0;
}

static void plan_key(const struct plan *p, const struct tt_conv2d_params *prm,
		     struct tt_ops_key *k)
{
	memset(k, 0, sizeof(*k));
	k->family = TT_OPS_CONV;
	k->op[0] = p->tr ? 2 : 1;
	k->op[1] = p->act.op;
	k->op[2] = p->bias;
	k->param[0] = fbits(p->act.p0);
	k->param[1] = fbits(p->act.p1);
	k->param[2] = prm->kernel_h | prm->kernel_w << 8 | prm->stride_h << 16;
	k->param[3] = prm->stride_w | prm->dilation_h << 12 | prm->dilation_w << 24;
	k->shape[0][0] = prm->batch;
	k->shape[0][1] = prm->in_h;
	k->shape[0][2] = prm->in_w;
	k->shape[0][3] = p->cin;
	k->shape[1][0] = (uint64_t)prm->pad_top << 32 | prm->pad_bottom;
	k->shape[1][1] = (uint64_t)prm->pad_left << 32 | prm->pad_right;
	k->shape[1][2] = (uint64_t)prm->out_pad_h << 32 | prm->out_pad_w;
	k->shape[1][3] = (uint64_t)prm->groups << 32 | p->cout;
	k->shape[2][0] = p->oh;
	k->shape[2][1] = p->ow;
	k->shape[2][2] = p->npix;
	k->shape[2][3] = p->fb | (uint64_t)p->mb << 32;
	k->fmt[0] = p->fx;
	k->fmt[1] = p->fw;
	k->fmt[2] = p->fo;
	k->mem[0] = p->mx;
	k->mem[1] = p->mw;
	k->mem[2] = p->mo;
	k->grid_x = p->grid.x;
	k->grid_y = p->grid.y;
	k->cores = p->cores;
	k->tiles_per_core = p->rt | p->nb << 16;
	k->block = p->kb;
	k->fidelity = p->fid;
	k->fp32 = p->fp32;
}

static int build(const struct plan *p, const struct tt_conv2d_params *prm,
		 struct tt_ops_entry **out)
{
	struct tt_kernel_config rc = tt_reader_config(), wc = tt_writer_config();
	struct tt_kernel_config cc = tt_compute_config();
	struct tt_core_range_set set;
	tt_kernel_handle kr, kw, kc;
	struct tt_ops_entry *e;
	int ret;
	const struct tt_named_arg rargs[] = {
		{ "X_DRAM", p->mx == TT_BUFFER_DRAM },
		{ "W_DRAM", p->mw == TT_BUFFER_DRAM },
		{ "B_DRAM", p->mb == TT_BUFFER_DRAM },
		{ "HAS_BIAS", p->bias },
	};
	const uint32_t rgeom[] = {
		prm->in_h, prm->in_w, p->ct, p->oh, p->ow, (uint32_t)p->npix,
		prm->kernel_w, prm->stride_h, prm->stride_w, prm->pad_top,
		prm->pad_left, prm->dilation_h, prm->dilation_w, p->kt, p->nt,
		p->rt, p->nb, p->kb, p->nblk, p->tr ? 1u : 0u,
		(uint32_t)tt_tile_size(p->fx) / 1024u,
	};
	const uint32_t cgeom[] = { p->kt, p->nt, p->nblk };
	const uint32_t wgeom[] = { p->mt, p->nt, p->nblk };
	const struct tt_named_arg cargs[] = {
		{ "RT", p->rt },
		{ "NB", p->nb },
		{ "KB", p->kb },
		{ "HAS_BIAS", p->bias },
		{ "ACT", (uint32_t)p->act.op },
		{ "AP0", fbits(p->act.p0) },
		{ "AP1", fbits(p->act.p1) },
	};
	const struct tt_named_arg wargs[] = {
		{ "RT", p->rt },
		{ "NB", p->nb },
		{ "OUT_DRAM", p->mo == TT_BUFFER_DRAM },
	};

	ret = tt_num_cores_to_core_range_set(p->cores, p->grid, true, &set);
	if (ret)
		return ret;
	ret = tt_ops_entry_new(p->fn, p->cores, &e);
	if (ret)
		return ret;
	plan_key(p, prm, &e->key);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_A, p->fx,
				    2 * p->rt * p->kb);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_B, p->fw,
				    2 * p->kb * p->nb);
	if (!ret && p->bias)
		ret = tt_ops_add_cb(e->prog, &set, CB_ONES, TT_FLOAT16_B,
				    p->rt);
	if (!ret && p->bias)
		ret = tt_ops_add_cb(e->prog, &set, CB_BIAS, p->fb, p->nt);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_OUT, p->fo,
				    2 * p->rt * p->nb);
	rc.named_compile_args = rargs;
	rc.named_compile_arg_count = TT_OPS_NARGS(rargs);
	wc.named_compile_args = wargs;
	wc.named_compile_arg_count = TT_OPS_NARGS(wargs);
	cc.named_compile_args = cargs;
	cc.named_compile_arg_count = TT_OPS_NARGS(cargs);
	cc.math_fidelity = p->fid;
	cc.fp32_dest_acc_en = p->fp32;
	cc.dst_full_sync_en = true;
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_conv_reader,
						   &set, &rc, &kr);
	if (!ret)
		ret = tt_set_common_runtime_args(e->prog, kr, rgeom,
						 TT_OPS_NARGS(rgeom));
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_conv_compute,
						   &set, &cc, &kc);
	if (!ret)
		ret = tt_set_common_runtime_args(e->prog, kc, cgeom,
						 TT_OPS_NARGS(cgeom));
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_conv_writer,
						   &set, &wc, &kw);
	if (!ret)
		ret = tt_set_common_runtime_args(e->prog, kw, wgeom,
						 TT_OPS_NARGS(wgeom));
	for (uint32_t i = 0, start = 0; !ret && i < p->cores; i++) {
		struct tt_ops_core *oc = &e->cores[i];
		uint32_t n = p->units / p->cores + (i < p->units % p->cores);
		uint32_t r[8] = { 0, 0, 0, 0, 0, 0, start, n };
		uint32_t w[4] = { 0, 0, start, n };
		uint32_t crt[2] = { start, n };
		unsigned cnt;

		oc->xy = (struct tt_xy){ i % p->grid.x, i / p->grid.x };
		oc->start = start;
		oc->tiles = n;
		ret = tt_set_runtime_args(e->prog, kr, oc->xy, r, 8);
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

static int prepare_out(tt_ops_ctx *ctx, const struct plan *p,
		       const struct tt_conv2d_cfg *c, tt_device_tensor **out,
		       bool *created)
{
	const uint64_t want[4] = { 1, 1, p->npix, p->cout };
	char s1[100];
	int ret;

	*created = false;
	if (!*out) {
		ret = tt_device_tensor_create(ctx->dev, &p->oshape, p->fo, p->mo, out);
		if (ret)
			return tt_error(ret, "%s: output %s %s in %s: %s", p->fn,
					tt_ops_shape_str(&p->oshape, s1, sizeof(s1)),
					tt_data_format_name(p->fo),
					tt_buffer_type_name(p->mo), tt_last_error());
		*created = true;
		return 0;
	}
	ret = tt_ops_check_given_out(p->fn, *out, want, &p->oshape,
				     c->out_format, c->out_mem, p->mo);
	if (ret)
		return ret;
	return 0;
}

static int run(tt_ops_ctx *ctx, const char *fn, bool tr,
	       const tt_device_tensor *x, const tt_device_tensor *w,
	       const tt_device_tensor *bias, const struct tt_conv2d_params *prm,
	       const struct tt_conv2d_cfg *cfg, tt_device_tensor **out)
{
	struct tt_conv2d_cfg c = cfg ? *cfg : tt_op_conv2d_config();
	double t0 = tt_ops_now_us();
	tt_device_tensor *xt = NULL; /* x as Float16_b, for block-float x */
	const tt_device_tensor *xs = x;
	struct tt_ops_entry *e;
	struct tt_ops_key key;
	struct plan p;
	bool created = false, hit;
	int ret;

	memset(&p, 0, sizeof(p));
	p.fn = fn;
	p.tr = tr;
	if (!ctx)
		return tt_error(-EINVAL, "%s: ctx is NULL", fn);
	if (!x || !w || !out)
		return tt_error(-EINVAL, "%s: %s is NULL", fn, !x ? "x" : !w ? "w" : "out");
	ret = tt_ops_check_tensor(ctx, fn, "x", x);
	if (!ret)
		ret = tt_ops_check_tensor(ctx, fn, "w", w);
	if (!ret && bias)
		ret = tt_ops_check_tensor(ctx, fn, "bias", bias);
	if (!ret && *out)
		ret = tt_ops_check_tensor(ctx, fn, "out", *out);
	if (ret)
		return ret;
	if (*out) {
		if (c.out_format == TT_OPS_FORMAT_AUTO)
			c.out_format = tt_device_tensor_format(*out);
		if (c.out_mem == TT_OPS_MEM_AUTO)
			c.out_mem = tt_buffer_type(tt_device_tensor_buffer(*out)) == TT_BUFFER_L1 ?
					    TT_OPS_MEM_L1 : TT_OPS_MEM_DRAM;
	}
	if (c.out_format == TT_OPS_FORMAT_AUTO)
		c.out_format = tt_device_tensor_format(x);
	ret = plan_all(ctx, &p, x, w, bias, prm, &c);
	if (ret)
		return ret;
	if (tt_data_format_is_block(p.fx)) {
		/* The gather copies face rows: block floats go to Float16_b
		 * first (another op, on the device). */
		struct tt_eltwise_cfg ec = tt_op_eltwise_config();

		ec.out_mem = p.mx == TT_BUFFER_L1 ? TT_OPS_MEM_L1 : TT_OPS_MEM_DRAM;
		ret = tt_op_typecast(ctx, x, TT_FLOAT16_B, &ec, &xt);
		if (ret)
			return ret;
		xs = xt;
		ret = plan_all(ctx, &p, xs, w, bias, prm, &c);
		if (ret)
			goto fail;
	}
	ret = prepare_out(ctx, &p, &c, out, &created);
	if (ret)
		goto fail;
	plan_key(&p, prm, &key);
	e = tt_ops_cache_find(ctx, &key);
	hit = e != NULL;
	if (!e) {
		ret = build(&p, prm, &e);
		if (ret)
			goto fail;
		tt_ops_cache_add(ctx, e);
	}
	{
		uint32_t xa = (uint32_t)tt_buffer_address(tt_device_tensor_buffer(xs));
		uint32_t xf = (uint32_t)tt_device_tensor_first_tile(xs);
		uint32_t wa = (uint32_t)tt_buffer_address(tt_device_tensor_buffer(w));
		uint32_t wf = (uint32_t)tt_device_tensor_first_tile(w);
		uint32_t ba = bias ? (uint32_t)tt_buffer_address(tt_device_tensor_buffer(bias)) : 0;
		uint32_t bf = bias ? (uint32_t)tt_device_tensor_first_tile(bias) : 0;
		uint32_t oa = (uint32_t)tt_buffer_address(tt_device_tensor_buffer(*out));
		uint32_t of = (uint32_t)tt_device_tensor_first_tile(*out);

		for (unsigned i = 0; i < e->ncores; i++) {
			uint32_t *r = e->cores[i].rargs;

			r[0] = xa;
			r[1] = xf;
			r[2] = wa;
			r[3] = wf;
			r[4] = ba;
			r[5] = bf;
			e->cores[i].wargs[0] = oa;
			e->cores[i].wargs[1] = of;
		}
	}
	ret = tt_ops_enqueue(ctx, e->prog, false);
	if (ret)
		goto fail;
	if (xt) {
		/* The Float16_b copy must outlive the program. */
		ret = tt_finish(ctx->cq);
		tt_device_tensor_free(xt);
		xt = NULL;
		if (ret)
			goto fail;
	}
	if (p.post.op != TT_UNARY_NONE) {
		/* An activation the conv kernel does not fuse: in place. */
		ret = tt_op_unary(ctx, *out, &p.post, NULL, out);
		if (ret)
			goto fail;
	}
	if (ctx->prof_prefix) {
		struct tt_ops_rec r = { .hit = hit, .cores = p.cores,
					.tiles = (uint64_t)p.mt * p.nt, .start_us = t0 };
		char s1[100], s2[100], s3[100];
		double t1 = tt_ops_now_us();

		ret = tt_finish(ctx->cq);
		r.enqueue_us = t1 - t0;
		r.finish_us = tt_ops_now_us() - t1;
		snprintf(r.name, sizeof(r.name), "%s", fn);
		snprintf(r.shapes, sizeof(r.shapes), "x %s %s; w %s %s -> %s %s",
			 tt_ops_shape_str(tt_device_tensor_shape(x), s1, sizeof(s1)),
			 tt_data_format_name(tt_device_tensor_format(x)),
			 tt_ops_shape_str(tt_device_tensor_shape(w), s2, sizeof(s2)),
			 tt_data_format_name(p.fw),
			 tt_ops_shape_str(&p.oshape, s3, sizeof(s3)),
			 tt_data_format_name(p.fo));
		snprintf(r.config, sizeof(r.config),
			 "grid %ux%u cores %u block %ux%u block_k %u out %s %s fidelity %d fp32_acc %d act %s kernel %ux%u stride %ux%u groups %u",
			 p.grid.x, p.grid.y, p.cores, p.rt, p.nb, p.kb,
			 tt_data_format_name(p.fo), tt_buffer_type_name(p.mo),
			 (int)p.fid, p.fp32, tt_unary_op_name(c.activation.op),
			 prm->kernel_h, prm->kernel_w, prm->stride_h, prm->stride_w,
			 prm->groups);
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

int tt_op_conv2d(tt_ops_ctx *ctx, const tt_device_tensor *x,
		 const tt_device_tensor *w, const tt_device_tensor *bias,
		 const struct tt_conv2d_params *p,
		 const struct tt_conv2d_cfg *cfg, tt_device_tensor **out)
{
	return run(ctx, "tt_op_conv2d", false, x, w, bias, p, cfg, out);
}

int tt_op_conv_transpose2d(tt_ops_ctx *ctx, const tt_device_tensor *x,
			   const tt_device_tensor *w,
			   const tt_device_tensor *bias,
			   const struct tt_conv2d_params *p,
			   const struct tt_conv2d_cfg *cfg,
			   tt_device_tensor **out)
{
	return run(ctx, "tt_op_conv_transpose2d", true, x, w, bias, p, cfg, out);
}
