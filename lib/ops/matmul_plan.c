// SPDX-License-Identifier: Apache-2.0
/*
 * Matmul's plan (matmul_plan.h): shapes and broadcasting, every "auto" of
 * struct tt_matmul_cfg resolved (variant, grid, blocks, sub-blocks, K
 * chunk), every limit checked with a message naming the op, the argument
 * and the limit, and the program cache key.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matmul_plan.h"

const char *const tt_mm_variant_names[4] = { "auto", "reuse", "mcast_1d",
					     "mcast_2d" };

/* DST tiles an activation needs beyond its own. */
static uint32_t act_scratch(enum tt_unary_op op)
{
	switch (op) {
	case TT_UNARY_MISH:
		return 2;
	case TT_UNARY_ELU:
	case TT_UNARY_SOFTPLUS:
	case TT_UNARY_SOFTSIGN:
	case TT_UNARY_TAN:
		return 1;
	default:
		return 0;
	}
}

/* Shapes: K, M, N, the batch broadcast, the output. */
int tt_mm_plan_shapes(struct plan *p, const tt_device_tensor *a,
		      const tt_device_tensor *b, const tt_device_tensor *z,
		      const struct tt_matmul_cfg *c)
{
	const struct tt_shape *sha = tt_device_tensor_shape(a);
	const struct tt_shape *shb = tt_device_tensor_shape(b);
	char s1[100], s2[100];
	uint64_t m, k, kb, n, mt, kt, nt;
	int ret = wzrc(a, p->a);

	if (!ret)
		ret = wzrc(b, p->b);
	if (ret)
		return tt_error(ret, "%s: %s", p->fn, tt_last_error());
	/* A vector is not transposed: a [K] is a row, b [K] a column. */
	p->ta = c->transpose_a && sha->rank > 1;
	p->tb = shb->rank == 1 ? true : c->transpose_b;
	m = p->ta ? p->a[3] : p->a[2];
	k = p->ta ? p->a[2] : p->a[3];
	kb = p->tb ? p->b[3] : p->b[2];
	n = p->tb ? p->b[2] : p->b[3];
	if (k != kb)
		return tt_error(-EINVAL,
				"%s: K does not match: a %s%s has K %llu, b %s%s has K %llu",
				p->fn, tt_ops_shape_str(sha, s1, sizeof(s1)),
				p->ta ? " (transpose_a)" : "",
				(unsigned long long)k,
				tt_ops_shape_str(shb, s2, sizeof(s2)),
				p->tb && shb->rank > 1 ? " (transpose_b)" : "",
				(unsigned long long)kb);
	for (int i = 0; i < 2; i++) {
		if (p->a[i] == p->b[i] || p->a[i] == 1 || p->b[i] == 1) {
			p->o[i] = p->a[i] > p->b[i] ? p->a[i] : p->b[i];
			continue;
		}
		return tt_error(-EINVAL,
				"%s: batch dimensions do not broadcast: a %s, b %s: dimension %c is %llu in a and %llu in b (equal, or 1 in one of them)",
				p->fn, tt_ops_shape_str(sha, s1, sizeof(s1)),
				tt_ops_shape_str(shb, s2, sizeof(s2)), "wz"[i],
				(unsigned long long)p->a[i],
				(unsigned long long)p->b[i]);
	}
	p->o[2] = m;
	p->o[3] = n;
	mt = (m + 31) / 32;
	kt = (k + 31) / 32;
	nt = (n + 31) / 32;
	if (p->o[0] * p->o[1] * mt * nt > UINT32_MAX / 4 ||
	    mt * kt > UINT32_MAX / 4 || kt * nt > UINT32_MAX / 4 ||
	    p->o[0] * p->o[1] * mt * kt > UINT32_MAX / 4 ||
	    p->o[0] * p->o[1] * kt * nt > UINT32_MAX / 4)
		return tt_error(-E2BIG, "%s: a %s x b %s: too many tiles (at most 2^30 per tensor)",
				p->fn, tt_ops_shape_str(sha, s1, sizeof(s1)),
				tt_ops_shape_str(shb, s2, sizeof(s2)));
	p->mt = (uint32_t)mt;
	p->kt = (uint32_t)kt;
	p->nt = (uint32_t)nt;
	p->vk = (uint32_t)(k % 32 ? k % 32 : 32);
	p->vn = (uint32_t)(n % 32 ? n % 32 : 32);
	p->zn = (uint32_t)p->o[1];
	p->batches = (uint32_t)(p->o[0] * p->o[1]);
	/* Tile strides: page = base + r * rs + c * cs (+ the batch's). */
	{
		uint32_t at = (uint32_t)(mt * kt), bt = (uint32_t)(kt * nt);

		p->a_rs = p->ta ? 1 : p->kt;
		p->a_cs = p->ta ? p->mt : 1;
		p->b_rs = p->tb ? 1 : p->nt;
		p->b_cs = p->tb ? p->kt : 1;
		p->a_sz = p->a[1] > 1 ? at : 0;
		p->a_sw = p->a[0] > 1 ? (uint32_t)(at * p->a[1]) : 0;
		p->b_sz = p->b[1] > 1 ? bt : 0;
		p->b_sw = p->b[0] > 1 ? (uint32_t)(bt * p->b[1]) : 0;
	}
	/* The output: the larger rank; a rank-1 a drops M. */
	{
		unsigned rank = sha->rank > shb->rank ? sha->rank : shb->rank;

		if (rank < 2)
			rank = 2;
		if (sha->rank == 1 && shb->rank <= 2)
			rank = 1;
		p->oshape.rank = rank;
		for (unsigned i = 0; i < rank; i++)
			p->oshape.dims[i] = p->o[4 - rank + i];
	}
	if (z) {
		const struct tt_shape *shz = tt_device_tensor_shape(z);
		uint64_t d[4];

		ret = wzrc(z, d);
		if (ret)
			return tt_error(ret, "%s: %s", p->fn, tt_last_error());
		if (d[0] != 1 || d[1] != 1 || d[2] != 1 || d[3] != n)
			return tt_error(-EINVAL,
					"%s: bias %s is not a row of N = %llu values ([N] or [1, N])",
					p->fn, tt_ops_shape_str(shz, s1, sizeof(s1)),
					(unsigned long long)n);
	}
	return 0;
}

static int check_format(const struct plan *p, const char *what,
			enum tt_data_format f)
{
	if (tt_ops_format_ok(f))
		return 0;
	return tt_error(tt_tile_size(f) ? -ENOTSUP : -EINVAL,
			"%s: %s %s (%d): matmul takes Float32, Float16, Float16_b, Bfp8_b and Bfp4_b",
			p->fn, what, tt_data_format_name(f), (int)f);
}

/* The NOC rectangle (NOC 0 coordinates) of the logical cores lr. */
int tt_mm_noc_bounds(tt_device *dev, struct tt_core_range lr,
		     struct tt_core_range *out)
{
	struct tt_xy xy;

	out->start = (struct tt_xy){ UINT32_MAX, UINT32_MAX };
	out->end = (struct tt_xy){ 0, 0 };
	for (unsigned y = lr.start.y; y <= lr.end.y; y++) {
		for (unsigned x = lr.start.x; x <= lr.end.x; x++) {
			int ret = tt_device_worker_core(dev, (struct tt_xy){ x, y },
							&xy);

			if (ret)
				return ret;
			out->start.x = min_u32(out->start.x, xy.x);
			out->start.y = min_u32(out->start.y, xy.y);
			out->end.x = xy.x > out->end.x ? xy.x : out->end.x;
			out->end.y = xy.y > out->end.y ? xy.y : out->end.y;
		}
	}
	return 0;
}

/* Does the NOC rectangle r hold no enabled Tensix core but n? */
static int holds_only(tt_device *dev, const struct tt_core_range *r,
		      unsigned n, bool *only)
{
	unsigned count = tt_device_get_info(dev)->tensix_count, inside = 0;
	struct tt_xy xy;

	for (unsigned i = 0; i < count; i++) {
		int ret = tt_device_tensix_core(dev, i, &xy);

		if (ret)
			return ret;
		inside += xy.x >= r->start.x && xy.x <= r->end.x &&
			  xy.y >= r->start.y && xy.y <= r->end.y;
	}
	*only = inside == n;
	return 0;
}

/* Receivers of row i's in0 (row) or column i's in1. */
struct tt_core_range tt_mm_receivers(const struct plan *p, bool row,
				     unsigned i)
{
	return row ? tt_core_range(1, i, p->cols - 1, i)
		   : tt_core_range(i, 1, i, p->rows - 1);
}

/* *ok: every row (column) has receivers a NOC rectangle reaches exactly. */
static int can_share(tt_device *dev, const struct plan *p, bool row, bool *ok)
{
	unsigned lines = row ? p->rows : p->cols;
	int ret = 0;

	*ok = (row ? p->cols : p->rows) > 1;
	for (unsigned i = 0; i < lines && *ok && !ret; i++) {
		struct tt_core_range lr = tt_mm_receivers(p, row, i), r;

		ret = tt_mm_noc_bounds(dev, lr, &r);
		if (!ret)
			ret = holds_only(dev, &r, tt_core_range_num_cores(&lr), ok);
	}
	return ret;
}

/* The sub-block for a pm x pn block: the fewest sub-blocks, then the
 * fewest tile reads. */
static void auto_sub_block(struct plan *p, uint32_t dst)
{
	uint64_t best = UINT64_MAX;

	for (uint32_t sh = 1; sh <= p->pm && sh <= dst; sh++) {
		uint32_t sw = min_u32(dst / sh, p->pn);
		uint32_t nr = ceil_div(p->pm, sh), nc = ceil_div(p->pn, sw);
		uint64_t cost = (uint64_t)(nr * nc) << 32 |
				(nc * p->pm + nr * p->pn);

		if (cost < best) {
			best = cost;
			p->sh = sh;
			p->sw = sw;
		}
	}
}

/* The 2-D split for at most gx x gy cores: the smallest block, then the
 * fewest cores. */
static void auto_2d(struct plan *p, unsigned gx, unsigned gy, uint64_t cap)
{
	uint64_t best = UINT64_MAX;

	for (unsigned y = 1; y <= gy && y <= p->mt; y++) {
		for (unsigned x = 1; x <= gx && x <= p->nt; x++) {
			uint32_t bm = ceil_div(p->mt, y), bn = ceil_div(p->nt, x);
			unsigned rows = ceil_div(p->mt, bm), cols = ceil_div(p->nt, bn);
			uint64_t per = (uint64_t)bm * bn;
			uint64_t cost;

			/* Small outputs: fewer cores, each with some work. */
			if (per < cap && (uint64_t)rows * cols > 1)
				per = cap + (uint64_t)rows * cols;
			cost = per << 32 | rows * cols;
			if (cost < best) {
				best = cost;
				p->pm = bm;
				p->pn = bn;
			}
		}
	}
}

static uint64_t l1_need(const struct plan *p)
{
	uint64_t sa = tt_tile_size(p->fa), sb = tt_tile_size(p->fb);
	uint64_t so = tt_tile_size(p->fo);
	uint64_t need = 2ull * p->sh * p->kb * sa + 2ull * p->kb * p->sw * sb +
			2ull * p->sh * p->sw * so;

	if (p->ta)
		need += (uint64_t)p->sh * p->kb * tt_tile_size(p->fi);
	if (p->has_bias)
		need += 2ull * p->sw * tt_tile_size(p->fz) + tt_tile_size(p->fz);
	return need;
}

int tt_mm_plan_config(tt_ops_ctx *ctx, struct plan *p,
		      const struct tt_matmul_cfg *c, const tt_device_tensor *a,
		      const tt_device_tensor *b, const tt_device_tensor *z)
{
	unsigned gw, gh;
	uint64_t have;
	int ret;

	ret = tt_device_logical_grid(ctx->dev, &gw, &gh);
	if (ret)
		return ret;
	p->fa = tt_device_tensor_format(a);
	p->fb = tt_device_tensor_format(b);
	p->fz = z ? tt_device_tensor_format(z) : TT_FLOAT16_B;
	p->ma = tt_buffer_type(tt_device_tensor_buffer(a));
	p->mb = tt_buffer_type(tt_device_tensor_buffer(b));
	p->mz = z ? tt_buffer_type(tt_device_tensor_buffer(z)) : TT_BUFFER_DRAM;

	/* formats */
	if (c->in0_format != TT_OPS_FORMAT_AUTO && c->in0_format != p->fa)
		return tt_error(-EINVAL,
				"%s: cfg.in0_format %s but a is %s (the op does not convert inputs; tt_op_typecast does)",
				p->fn, tt_data_format_name(c->in0_format),
				tt_data_format_name(p->fa));
	if (c->in1_format != TT_OPS_FORMAT_AUTO && c->in1_format != p->fb)
		return tt_error(-EINVAL,
				"%s: cfg.in1_format %s but b is %s (the op does not convert inputs; tt_op_typecast does)",
				p->fn, tt_data_format_name(c->in1_format),
				tt_data_format_name(p->fb));
	p->fo = c->out_format == TT_OPS_FORMAT_AUTO ? p->fa : c->out_format;
	ret = check_format(p, "cfg.out_format", p->fo);
	if (ret)
		return ret;
	p->fi = c->interm_format;
	if (p->fi == TT_OPS_FORMAT_AUTO)
		p->fi = tt_data_format_is_block(p->fa) ? TT_FLOAT16_B : p->fa;
	ret = check_format(p, "cfg.interm_format", p->fi);
	if (ret)
		return ret;
	ret = tt_ops_out_mem_interleaved(p->fn, c->out_mem, p->ma, &p->mo);
	if (ret)
		return ret;

	/* math */
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
	if ((unsigned)c->mcast_in0 > TT_OPS_ON)
		return tt_error(-EINVAL, "%s: cfg.mcast_in0 %d is not auto (0), off (1) or on (2)",
				p->fn, (int)c->mcast_in0);
	p->fp32 = c->fp32_acc == TT_OPS_ON ||
		  (c->fp32_acc == TT_OPS_AUTO &&
		   (p->fa == TT_FLOAT32 || p->fb == TT_FLOAT32 ||
		    p->fo == TT_FLOAT32 || p->fz == TT_FLOAT32));
	p->approx = p->act.op == TT_UNARY_GELU_TANH;
	p->dst_tiles = p->fp32 ? 8 : 16;
	p->scratch_tiles = act_scratch(p->act.op);
	if (p->ta && !p->scratch_tiles)
		p->scratch_tiles = 1;

	/* grid */
	p->grid = c->grid;
	if (!p->grid.x && !p->grid.y)
		p->grid = (struct tt_xy){ gw, gh };
	if (!p->grid.x || !p->grid.y || p->grid.x > gw || p->grid.y > gh)
		return tt_error(-EINVAL, "%s: cfg.grid %ux%u does not fit the device's %ux%u logical grid",
				p->fn, p->grid.x, p->grid.y, gw, gh);
	if ((unsigned)c->variant > TT_MATMUL_MCAST_2D)
		return tt_error(-EINVAL, "%s: cfg.variant %d is not auto (0), reuse (1), mcast_1d (2) or mcast_2d (3)",
				p->fn, (int)c->variant);
	p->variant = c->variant;
	if (p->variant == TT_MATMUL_AUTO)
		p->variant = p->mt > 1 && p->nt > 1 && p->grid.x > 1 &&
				     p->grid.y > 1 ?
				     TT_MATMUL_MCAST_2D :
				     TT_MATMUL_REUSE;

	/* blocks */
	if ((c->per_core_m && c->per_core_m > p->mt) ||
	    (c->per_core_n && c->per_core_n > p->nt))
		return tt_error(-EINVAL, "%s: cfg.per_core_m %u x per_core_n %u: the output has %u x %u tiles",
				p->fn, c->per_core_m, c->per_core_n, p->mt, p->nt);
	switch (p->variant) {
	case TT_MATMUL_MCAST_2D:
		if (!c->grid.x && !c->grid.y)
			/* The op's own grid: at most AUTO_2D_SIDE^2 cores. */
			auto_2d(p, min_u32(p->grid.x, AUTO_2D_SIDE),
				min_u32(p->grid.y, AUTO_2D_SIDE),
				AUTO_MIN_TILES_PER_CORE);
		else
			auto_2d(p, p->grid.x, p->grid.y, AUTO_MIN_TILES_PER_CORE);
		break;
	case TT_MATMUL_MCAST_1D:
		if (c->mcast_in0 != TT_OPS_OFF) {
			p->pm = p->mt;
			p->pn = ceil_div(p->nt, p->grid.x);
		} else {
			p->pm = ceil_div(p->mt, p->grid.y);
			p->pn = p->nt;
		}
		break;
	default: {
		/* Reuse: blocks of about the output's tiles per core. */
		uint64_t cores = (uint64_t)p->grid.x * p->grid.y;
		uint64_t best = UINT64_MAX;

		for (uint32_t bm = 1; bm <= p->mt && bm <= 64; bm++) {
			for (uint32_t bn = 1; bn <= p->nt && bn <= 64; bn++) {
				uint64_t units = (uint64_t)p->batches *
						 ceil_div(p->mt, bm) * ceil_div(p->nt, bn);
				uint64_t used = units < cores ? units : cores;
				uint64_t per = (units + used - 1) / used * bm * bn;
				uint64_t cost;

				if (per < AUTO_MIN_TILES_PER_CORE && used > 1)
					per = AUTO_MIN_TILES_PER_CORE + used;
				/* Then the block whose sub-blocks read the
				 * fewest operand tiles per product (the
				 * largest, squarest: 1/bm + 1/bn). */
				cost = per << 20 | (bm + bn) * 4096 / (bm * bn);
				if (cost < best) {
					best = cost;
					p->pm = bm;
					p->pn = bn;
				}
			}
		}
		break;
	}
	}
	if (c->per_core_m)
		p->pm = c->per_core_m;
	if (c->per_core_n)
		p->pn = c->per_core_n;
	p->br = ceil_div(p->mt, p->pm);
	p->bc = ceil_div(p->nt, p->pn);
	if (p->variant == TT_MATMUL_MCAST_2D || p->variant == TT_MATMUL_MCAST_1D) {
		const char *v = tt_mm_variant_names[p->variant];

		if (p->variant == TT_MATMUL_MCAST_1D &&
		    (c->mcast_in0 != TT_OPS_OFF ? p->br != 1 : p->bc != 1))
			return tt_error(-EINVAL,
					"%s: cfg.variant mcast_1d with in%d multicast: cfg.per_core_%c %u must cover all %u tiles of %c",
					p->fn, c->mcast_in0 != TT_OPS_OFF ? 0 : 1,
					c->mcast_in0 != TT_OPS_OFF ? 'm' : 'n',
					c->mcast_in0 != TT_OPS_OFF ? p->pm : p->pn,
					c->mcast_in0 != TT_OPS_OFF ? p->mt : p->nt,
					c->mcast_in0 != TT_OPS_OFF ? 'M' : 'N');
		if (p->br > p->grid.y || p->bc > p->grid.x)
			return tt_error(-EINVAL,
					"%s: cfg.variant %s: %u x %u blocks of %u x %u tiles (per_core_m x per_core_n) need a %ux%u grid; cfg.grid is %ux%u",
					p->fn, v, p->br, p->bc, p->pm, p->pn,
					p->bc, p->br, p->grid.x, p->grid.y);
		p->rows = p->br;
		p->cols = p->bc;
		p->cores = p->rows * p->cols;
		p->units = p->batches; /* per core */
		p->lockstep = true;
		ret = can_share(ctx->dev, p, true, &p->mcast_a);
		if (!ret)
			ret = can_share(ctx->dev, p, false, &p->mcast_b);
		if (ret)
			return ret;
		if (p->variant == TT_MATMUL_MCAST_1D) {
			if (c->mcast_in0 != TT_OPS_OFF)
				p->mcast_b = false;
			else
				p->mcast_a = false;
		}
	} else {
		uint64_t units = (uint64_t)p->batches * p->br * p->bc;
		uint64_t max = (uint64_t)p->grid.x * p->grid.y;

		p->units = (uint32_t)units;
		p->cores = (uint32_t)(units < max ? units : max);
	}

	/* sub-block */
	if (p->scratch_tiles >= p->dst_tiles)
		return tt_error(-EINVAL, "%s: no DST tiles left", p->fn);
	if (c->out_subblock_h || c->out_subblock_w) {
		p->sh = c->out_subblock_h ? c->out_subblock_h : 1;
		p->sw = c->out_subblock_w ? c->out_subblock_w : 1;
		if (p->pm % p->sh || p->pn % p->sw)
			return tt_error(-EINVAL,
					"%s: cfg.out_subblock_h x w %u x %u does not divide the block per_core_m x per_core_n %u x %u",
					p->fn, p->sh, p->sw, p->pm, p->pn);
	} else {
		auto_sub_block(p, p->dst_tiles - p->scratch_tiles);
	}
	if (p->sh * p->sw + p->scratch_tiles > p->dst_tiles || p->sh > 255 ||
	    p->sw > 255)
		return tt_error(-EINVAL,
				"%s: cfg.out_subblock_h x w %u x %u needs %u DST tiles (%u more for %s); DST holds %u%s",
				p->fn, p->sh, p->sw, p->sh * p->sw + p->scratch_tiles,
				p->scratch_tiles,
				p->ta ? "transpose_a / the activation" : "the activation",
				p->dst_tiles, p->fp32 ? " with fp32 accumulation" : "");

	/* K blocking and L1 */
	have = tt_ops_l1_free(ctx);
	if (c->in0_block_w) {
		if (c->in0_block_w > 255 || p->kt % c->in0_block_w)
			return tt_error(-EINVAL,
					"%s: cfg.in0_block_w %u does not divide K's %u tiles (or is above 255)",
					p->fn, c->in0_block_w, p->kt);
		p->kb = c->in0_block_w;
	} else {
		uint32_t kmax = min_u32(AUTO_KB_MAX, p->kt);

		for (;;) {
			p->kb = ceil_div(p->kt, ceil_div(p->kt, kmax));
			if (kmax == 1 || l1_need(p) <= have)
				break;
			kmax /= 2;
		}
	}
	if (l1_need(p) > have)
		return tt_error(-ENOMEM,
				"%s: circular buffers need %llu bytes of L1 per core (sub-block %ux%u, in0_block_w %u, double-buffered), a core has %llu free",
				p->fn, (unsigned long long)l1_need(p), p->sh, p->sw,
				p->kb, (unsigned long long)have);
	return 0;
}

void tt_mm_plan_key(const struct plan *p, struct tt_ops_key *k)
{
	memset(k, 0, sizeof(*k));
	k->family = TT_OPS_MATMUL;
	k->op[0] = p->has_bias | p->ta << 1 | p->tb << 2 | p->lockstep << 3 |
		   p->mcast_a << 4 | p->mcast_b << 5 | (uint32_t)p->variant << 8;
	k->op[1] = (uint32_t)p->act.op;
	k->op[2] = (uint32_t)p->fz | (uint32_t)p->mz << 8 | (uint32_t)p->fi << 16;
	k->op[3] = p->pm | p->pn << 16;
	k->param[0] = fbits(p->act.p0);
	k->param[1] = fbits(p->act.p1);
	k->param[2] = p->kb | p->sh << 8 | p->sw << 16;
	memcpy(k->shape[0], p->a, sizeof(p->a));
	memcpy(k->shape[1], p->b, sizeof(p->b));
	memcpy(k->shape[2], p->o, sizeof(p->o));
	k->fmt[0] = p->fa;
	k->fmt[1] = p->fb;
	k->fmt[2] = p->fo;
	k->mem[0] = p->ma;
	k->mem[1] = p->mb;
	k->mem[2] = p->mo;
	k->grid_x = p->grid.x;
	k->grid_y = p->grid.y;
	k->cores = p->cores;
	k->tiles_per_core = p->pm * p->pn;
	k->block = p->kb;
	k->buffering = 2;
	k->fidelity = p->fid;
	k->fp32 = p->fp32;
	k->approx = p->approx;
}
