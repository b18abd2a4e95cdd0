// SPDX-License-Identifier: Apache-2.0
/*
 * Matmul and linear (tt/ops/matmul.h): one program shape for every
 * variant (kernels/matmul/): a reader that fetches, masks and (for the
 * multicast variants) shares the operand chunks, a compute kernel that
 * does one matmul_block_k per chunk and sub-block with bias and
 * activation, a writer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matmul_plan.h"
#include "ops_matmul_compute_src.h"
#include "ops_matmul_reader_src.h"
#include "ops_matmul_writer_src.h"

#define CB_A 0u
#define CB_B 1u
#define CB_ZERO 2u
#define CB_BIAS 3u
#define CB_AT 4u
#define CB_OUT 16u
#define READER_ARGS 43u
#define WRITER_ARGS 11u
#define COMPUTE_ARGS 10u

struct tt_matmul_cfg tt_op_matmul_config(void)
{
	return (struct tt_matmul_cfg){
		.in0_format = TT_OPS_FORMAT_AUTO,
		.in1_format = TT_OPS_FORMAT_AUTO,
		.out_format = TT_OPS_FORMAT_AUTO,
		.interm_format = TT_OPS_FORMAT_AUTO,
		.math_fidelity = TT_OPS_FIDELITY_AUTO,
	};
}

static const char *const variant_names[] = { "auto", "reuse", "mcast_1d",
					     "mcast_2d" };

struct plan {
	const char *fn;
	bool has_bias, ta, tb, approx, fp32, lockstep, mcast_a, mcast_b;
	struct tt_unary_fn act;
	uint64_t a[4], b[4], o[4];
	struct tt_shape oshape;
	uint32_t mt, nt, kt, vk, vn, zn, batches;
	uint32_t a_sw, a_sz, a_rs, a_cs, b_sw, b_sz, b_rs, b_cs;
	enum tt_data_format fa, fb, fz, fo, fi;
	enum tt_buffer_type ma, mb, mz, mo;
	enum tt_math_fidelity fid;
	enum tt_matmul_variant variant;
	struct tt_xy grid;
	uint32_t pm, pn, kb, sh, sw, br, bc, units, cores, rows, cols;
	uint32_t dst_tiles, scratch_tiles;
};

static uint32_t ceil_div(uint32_t a, uint32_t b)
{
	return (a + b - 1) / b;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

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

static int wzrc(const tt_device_tensor *t, uint64_t *d)
{
	return tt_shape_wzrc(tt_device_tensor_shape(t), d);
}

/* Shapes: K, M, N, the batch broadcast, the output. */
static int plan_shapes(struct plan *p, const tt_device_tensor *a,
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
static int noc_bounds(tt_device *dev, struct tt_core_range lr,
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
static struct tt_core_range receivers(const struct plan *p, bool row,
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
		struct tt_core_range lr = receivers(p, row, i), r;

		ret = noc_bounds(dev, lr, &r);
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

static int plan_config(tt_ops_ctx *ctx, struct plan *p,
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
	ret = tt_ops_out_mem_interleaved(p->fn, c->out_mem, p->ma,
					 &p->mo);
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
				cost = per << 20 | (64 * 64 - bm * bn);
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
		const char *v = variant_names[p->variant];

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

static void plan_key(const struct plan *p, struct tt_ops_key *k)
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

static int add_cb(tt_program *prog, const struct tt_core_range_set *cores,
		  unsigned index, enum tt_data_format fmt, uint32_t pages)
{
	uint32_t page = (uint32_t)tt_tile_size(fmt);
	struct tt_circular_buffer_config c =
		tt_circular_buffer_config(pages * page, index, fmt, page);
	tt_cb_handle h;

	return tt_create_circular_buffer(prog, cores, &c, &h);
}

#define NARGS(a) (unsigned)(sizeof(a) / sizeof((a)[0]))

/* A core's sharing words for in0 (row) or in1: role, rectangle, count. */
static int share_args(tt_device *dev, const struct plan *p, bool row,
		      struct tt_xy core, uint32_t *out)
{
	unsigned line = row ? core.y : core.x;
	struct tt_xy sender = row ? (struct tt_xy){ 0, line }
				  : (struct tt_xy){ line, 0 };
	struct tt_core_range lr, r;
	int ret;

	memset(out, 0, 6 * sizeof(*out));
	if (!(row ? p->mcast_a : p->mcast_b))
		return 0;
	if (core.x != sender.x || core.y != sender.y) {
		ret = tt_device_worker_core(dev, sender, &sender);
		out[0] = RECEIVE;
		out[1] = sender.x;
		out[2] = sender.y;
		return ret;
	}
	lr = tt_mm_receivers(p, row, line);
	ret = tt_mm_noc_bounds(dev, lr, &r);
	out[0] = SEND;
	out[1] = r.start.x;
	out[2] = r.start.y;
	out[3] = r.end.x;
	out[4] = r.end.y;
	out[5] = tt_core_range_num_cores(&lr);
	return ret;
}

static int build(tt_ops_ctx *ctx, const struct plan *p,
		 struct tt_ops_entry **out)
{
	struct tt_kernel_config rc = tt_reader_config(), wc = tt_writer_config();
	struct tt_kernel_config cc = tt_compute_config();
	struct tt_core_range_set set;
	tt_kernel_handle kr, kw, kc;
	struct tt_ops_entry *e;
	uint32_t sems[4] = { 0, 0, 0, 0 };
	int ret = 0;
	const struct tt_named_arg rargs[] = {
		{ "SH", p->sh }, { "SW", p->sw }, { "KB", p->kb },
		{ "A_DRAM", p->ma == TT_BUFFER_DRAM },
		{ "B_DRAM", p->mb == TT_BUFFER_DRAM },
		{ "BIAS", p->has_bias },
		{ "BIAS_DRAM", p->mz == TT_BUFFER_DRAM },
		{ "TA", p->ta }, { "TB", p->tb },
		{ "LOCKSTEP", p->lockstep },
	};
	const struct tt_named_arg wargs[] = {
		{ "SH", p->sh }, { "SW", p->sw },
		{ "OUT_DRAM", p->mo == TT_BUFFER_DRAM },
	};
	const struct tt_named_arg cargs[] = {
		{ "SH", p->sh }, { "SW", p->sw }, { "KB", p->kb },
		{ "TA", p->ta }, { "TB", p->tb },
		{ "BIAS", p->has_bias },
		{ "ACT", (uint32_t)p->act.op },
		{ "AP0", fbits(p->act.p0) },
		{ "AP1", fbits(p->act.p1) },
		{ "SCRATCH", p->sh * p->sw },
		{ "LOCKSTEP", p->lockstep },
	};

	if (p->lockstep)
		set = tt_core_range_set_of_range(0, 0, p->cols - 1, p->rows - 1);
	else
		ret = tt_num_cores_to_core_range_set(p->cores, p->grid, true, &set);
	if (ret)
		return ret;
	e = calloc(1, sizeof(*e));
	if (e)
		e->cores = calloc(p->cores, sizeof(*e->cores));
	if (!e || !e->cores) {
		tt_ops_entry_free(e);
		return tt_error(-ENOMEM, "%s: out of memory", p->fn);
	}
	e->ncores = p->cores;
	tt_mm_plan_key(p, &e->key);
	ret = tt_program_create(&e->prog);
	if (!ret)
		ret = add_cb(e->prog, &set, CB_A, p->fa, 2 * p->sh * p->kb);
	if (!ret)
		ret = add_cb(e->prog, &set, CB_B, p->fb, 2 * p->kb * p->sw);
	if (!ret && p->has_bias)
		ret = add_cb(e->prog, &set, CB_ZERO, p->fz, 1);
	if (!ret && p->has_bias)
		ret = add_cb(e->prog, &set, CB_BIAS, p->fz, 2 * p->sw);
	if (!ret && p->ta)
		ret = add_cb(e->prog, &set, CB_AT, p->fi, p->sh * p->kb);
	if (!ret)
		ret = add_cb(e->prog, &set, CB_OUT, p->fo, 2 * p->sh * p->sw);
	for (unsigned i = 0; i < 4 && !ret && (p->mcast_a || p->mcast_b); i++)
		ret = tt_create_semaphore(e->prog, &set, 0, TT_CORE_TENSIX,
					  &sems[i]);
	rc.named_compile_args = rargs;
	rc.named_compile_arg_count = NARGS(rargs);
	wc.named_compile_args = wargs;
	wc.named_compile_arg_count = NARGS(wargs);
	cc.named_compile_args = cargs;
	cc.named_compile_arg_count = NARGS(cargs);
	cc.math_fidelity = p->fid;
	cc.fp32_dest_acc_en = p->fp32;
	cc.dst_full_sync_en = true;
	cc.math_approx_mode = p->approx;
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_matmul_reader,
						   &set, &rc, &kr);
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_matmul_compute,
						   &set, &cc, &kc);
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_matmul_writer,
						   &set, &wc, &kw);
	for (uint32_t i = 0, start = 0; !ret && i < p->cores; i++) {
		struct tt_ops_core *oc = &e->cores[i];
		uint32_t u0, count, ustride;
		uint32_t r[READER_ARGS], w[WRITER_ARGS], cp[COMPUTE_ARGS];
		unsigned cnt;

		if (p->lockstep) {
			oc->xy = (struct tt_xy){ i % p->cols, i / p->cols };
			u0 = oc->xy.y * p->bc + oc->xy.x;
			count = p->batches;
			ustride = p->br * p->bc;
		} else {
			oc->xy = (struct tt_xy){ i % p->grid.x, i / p->grid.x };
			count = p->units / p->cores + (i < p->units % p->cores);
			u0 = start;
			ustride = 1;
			start += count;
		}
		oc->start = u0;
		oc->tiles = count;
		memset(r, 0, sizeof(r));
		r[6] = u0;
		r[7] = count;
		r[8] = ustride;
		r[9] = p->mt;
		r[10] = p->nt;
		r[11] = p->kt;
		r[12] = p->br;
		r[13] = p->bc;
		r[14] = p->pm;
		r[15] = p->pn;
		r[16] = p->zn;
		r[17] = p->a_sw;
		r[18] = p->a_sz;
		r[19] = p->a_rs;
		r[20] = p->a_cs;
		r[21] = p->b_sw;
		r[22] = p->b_sz;
		r[23] = p->b_rs;
		r[24] = p->b_cs;
		r[25] = p->vk;
		r[26] = p->vn;
		ret = share_args(ctx->dev, p, true, oc->xy, &r[27]);
		if (!ret)
			ret = share_args(ctx->dev, p, false, oc->xy, &r[33]);
		memcpy(&r[39], sems, sizeof(sems));
		cp[0] = count;
		cp[1] = u0;
		cp[2] = ustride;
		cp[3] = p->mt;
		cp[4] = p->nt;
		cp[5] = p->kt;
		cp[6] = p->br;
		cp[7] = p->bc;
		cp[8] = p->pm;
		cp[9] = p->pn;
		w[0] = 0;
		w[1] = 0;
		w[2] = u0;
		w[3] = count;
		w[4] = ustride;
		w[5] = p->mt;
		w[6] = p->nt;
		w[7] = p->br;
		w[8] = p->bc;
		w[9] = p->pm;
		w[10] = p->pn;
		if (!ret)
			ret = tt_set_runtime_args(e->prog, kr, oc->xy, r, READER_ARGS);
		if (!ret)
			ret = tt_set_runtime_args(e->prog, kw, oc->xy, w, WRITER_ARGS);
		if (!ret)
			ret = tt_set_runtime_args(e->prog, kc, oc->xy, cp, COMPUTE_ARGS);
		if (!ret)
			ret = tt_get_runtime_args(e->prog, kr, oc->xy, &oc->rargs, &cnt);
		if (!ret)
			ret = tt_get_runtime_args(e->prog, kw, oc->xy, &oc->wargs, &cnt);
	}
	if (ret) {
		tt_ops_entry_free(e);
		return ret;
	}
	*out = e;
	return 0;
}

static void describe_config(const struct plan *p, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%s grid %ux%u cores %u block %ux%u sub-block %ux%u in0_block_w %u mcast in0 %d in1 %d out %s %s fidelity %d fp32_acc %d act %s%s%s%s",
		 tt_mm_variant_names[p->variant], p->grid.x, p->grid.y, p->cores,
		 p->pm, p->pn, p->sh, p->sw, p->kb, p->mcast_a, p->mcast_b,
		 tt_data_format_name(p->fo), tt_buffer_type_name(p->mo),
		 (int)p->fid, p->fp32,
		 tt_unary_op_name(p->act.op) ? tt_unary_op_name(p->act.op) : "?",
		 p->ta ? " transpose_a" : "", p->tb ? " transpose_b" : "",
		 p->has_bias ? " bias" : "");
}

static int prepare_out(tt_ops_ctx *ctx, struct plan *p, tt_device_tensor **out,
		       bool *created, const struct tt_matmul_cfg *c)
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
	if (c->out_format != TT_OPS_FORMAT_AUTO &&
	    tt_device_tensor_format(*out) != c->out_format)
		return tt_error(-EINVAL, "%s: out is %s; cfg.out_format asks for %s",
				p->fn, tt_data_format_name(tt_device_tensor_format(*out)),
				tt_data_format_name(c->out_format));
	if (c->out_mem != TT_OPS_MEM_AUTO &&
	    tt_buffer_type(tt_device_tensor_buffer(*out)) != p->mo)
		return tt_error(-EINVAL, "%s: out is in %s; cfg.out_mem asks for %s",
				p->fn,
				tt_buffer_type_name(tt_buffer_type(tt_device_tensor_buffer(*out))),
				tt_buffer_type_name(p->mo));
	return 0;
}

static int check_act(const char *fn, const struct tt_unary_fn *u)
{
	if ((unsigned)u->op >= TT_UNARY_OP_COUNT)
		return tt_error(-EINVAL, "%s: cfg.activation %d is not a unary function (0..%d)",
				fn, (int)u->op, TT_UNARY_OP_COUNT - 1);
	if (u->op == TT_UNARY_POWER &&
	    !(u->p0 >= 0 && u->p0 <= 64 && u->p0 == (float)(int)u->p0))
		return tt_error(-EINVAL, "%s: cfg.activation power: exponent %g is not an integer 0..64",
				fn, (double)u->p0);
	if (u->op == TT_UNARY_CLIP && !(u->p0 <= u->p1))
		return tt_error(-EINVAL, "%s: cfg.activation clip: lower bound %g above upper bound %g",
				fn, (double)u->p0, (double)u->p1);
	return 0;
}

static int run(tt_ops_ctx *ctx, const char *fn, const tt_device_tensor *a,
	       const tt_device_tensor *b, const tt_device_tensor *z,
	       bool linear, const struct tt_matmul_cfg *cfg,
	       tt_device_tensor **out)
{
	struct tt_matmul_cfg cc = cfg ? *cfg : tt_op_matmul_config();
	const struct tt_matmul_cfg *c = &cc;
	double t0 = tt_ops_now_us();
	struct tt_ops_entry *e;
	struct tt_ops_key key;
	struct plan p;
	bool created, hit;
	int ret;

	memset(&p, 0, sizeof(p));
	p.fn = fn;
	if (!ctx)
		return tt_error(-EINVAL, "%s: ctx is NULL", fn);
	if (!a)
		return tt_error(-EINVAL, "%s: a is NULL", fn);
	if (!b)
		return tt_error(-EINVAL, "%s: %s is NULL", fn, linear ? "w" : "b");
	if (!out)
		return tt_error(-EINVAL, "%s: out is NULL", fn);
	ret = tt_ops_check_tensor(ctx, fn, "a", a);
	if (!ret)
		ret = tt_ops_check_tensor(ctx, fn, linear ? "w" : "b", b);
	if (!ret && z)
		ret = tt_ops_check_tensor(ctx, fn, "bias", z);
	if (!ret && *out)
		ret = tt_ops_check_tensor(ctx, fn, "out", *out);
	if (ret)
		return ret;
	if (*out) {
		enum tt_buffer_type t = tt_buffer_type(tt_device_tensor_buffer(*out));

		if (cc.out_format == TT_OPS_FORMAT_AUTO)
			cc.out_format = tt_device_tensor_format(*out);
		if (cc.out_mem == TT_OPS_MEM_AUTO)
			cc.out_mem = t == TT_BUFFER_L1 ? TT_OPS_MEM_L1 : TT_OPS_MEM_DRAM;
	}
	p.has_bias = z != NULL;
	p.act = c->activation;
	ret = check_act(fn, &p.act);
	if (!ret)
		ret = tt_mm_plan_shapes(&p, a, b, z, c);
	if (!ret)
		ret = tt_mm_plan_config(ctx, &p, c, a, b, z);
	if (!ret)
		ret = prepare_out(ctx, &p, out, &created, c);
	if (ret)
		return ret;

	tt_mm_plan_key(&p, &key);
	e = tt_ops_cache_find(ctx, &key);
	hit = e != NULL;
	if (!e) {
		ret = build(ctx, &p, &e);
		if (ret)
			goto fail;
		tt_ops_cache_add(ctx, e);
	}
	/* Only the runtime arguments change from call to call. */
	{
		uint32_t aaddr = (uint32_t)tt_buffer_address(tt_device_tensor_buffer(a));
		uint32_t afirst = (uint32_t)tt_device_tensor_first_tile(a);
		uint32_t baddr = (uint32_t)tt_buffer_address(tt_device_tensor_buffer(b));
		uint32_t bfirst = (uint32_t)tt_device_tensor_first_tile(b);
		uint32_t zaddr = z ? (uint32_t)tt_buffer_address(tt_device_tensor_buffer(z)) : 0;
		uint32_t zfirst = z ? (uint32_t)tt_device_tensor_first_tile(z) : 0;
		uint32_t oaddr = (uint32_t)tt_buffer_address(tt_device_tensor_buffer(*out));
		uint32_t ofirst = (uint32_t)tt_device_tensor_first_tile(*out);

		for (unsigned i = 0; i < e->ncores; i++) {
			uint32_t *r = e->cores[i].rargs, *w = e->cores[i].wargs;

			r[0] = aaddr;
			r[1] = afirst;
			r[2] = baddr;
			r[3] = bfirst;
			r[4] = zaddr;
			r[5] = zfirst;
			w[0] = oaddr;
			w[1] = ofirst;
		}
	}
	ret = tt_enqueue_program(ctx->cq, e->prog, false);
	if (ret)
		goto fail;
	if (ctx->prof_prefix) {
		struct tt_ops_rec r = { .hit = hit, .cores = p.cores,
					.tiles = (uint64_t)p.batches * p.mt * p.nt,
					.start_us = t0 };
		char s1[100], s2[100], s3[100];
		double t1 = tt_ops_now_us();

		ret = tt_finish(ctx->cq);
		r.enqueue_us = t1 - t0;
		r.finish_us = tt_ops_now_us() - t1;
		snprintf(r.name, sizeof(r.name), "%s", fn);
		snprintf(r.shapes, sizeof(r.shapes), "a %s %s; b %s %s%s -> %s %s",
			 tt_ops_shape_str(tt_device_tensor_shape(a), s1, sizeof(s1)),
			 tt_data_format_name(p.fa),
			 tt_ops_shape_str(tt_device_tensor_shape(b), s2, sizeof(s2)),
			 tt_data_format_name(p.fb), z ? "; bias" : "",
			 tt_ops_shape_str(&p.oshape, s3, sizeof(s3)),
			 tt_data_format_name(p.fo));
		describe_config(&p, r.config, sizeof(r.config));
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

int tt_op_matmul(tt_ops_ctx *ctx, const tt_device_tensor *a,
		 const tt_device_tensor *b, const struct tt_matmul_cfg *cfg,
		 tt_device_tensor **out)
{
	return run(ctx, "tt_op_matmul", a, b, NULL, false, cfg, out);
}

int tt_op_linear(tt_ops_ctx *ctx, const tt_device_tensor *a,
		 const tt_device_tensor *w, const tt_device_tensor *bias,
		 const struct tt_matmul_cfg *cfg, tt_device_tensor **out)
{
	return run(ctx, "tt_op_linear", a, w, bias, true, cfg, out);
}

