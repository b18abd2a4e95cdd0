// SPDX-License-Identifier: Apache-2.0
/*
 * Element-wise ops: unary functions and binary ops with broadcasting, on
 * any number of cores, with a fused activation. One program shape for
 * all of them (kernels/eltwise/): a reader that fetches the input tiles
 * each output tile needs, a compute kernel specialised by named
 * compile-time arguments, a writer.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/memory/alloc.h"
#include "ops_internal.h"
#include "ops_eltwise_compute_src.h"
#include "ops_eltwise_reader_src.h"
#include "ops_eltwise_writer_src.h"

#define UNARY_BINOP 255u /* the compute kernel's BINOP for unary ops */
#define WHERE_BINOP 254u /* and for where */
/* where, among the binary ops of a plan (beyond enum tt_binary_op) */
#define OP_WHERE ((enum tt_binary_op)(TT_BINARY_OP_COUNT + 1))
#define CB_C 4u
#define CB_A 0u
#define CB_B 1u
#define CB_ZERO 2u
#define CB_MASK 3u
#define CB_OUT 16u
/* Output tiles a core gets at least when the op chooses the grid: on the
 * chip model every core of a launch costs host time, so small tensors
 * use few cores. */
#define AUTO_MIN_TILES_PER_CORE 8u

static const char *const unary_names[TT_UNARY_OP_COUNT] = {
	"identity", "exp", "log", "sqrt", "rsqrt", "recip", "sigmoid", "tanh",
	"gelu", "gelu_tanh", "relu", "silu", "abs", "neg", "sign", "square",
	"sin", "cos", "erf", "exp2", "expm1", "power", "leaky_relu", "relu6",
	"clip", "hardsigmoid", "hardswish", "elu", "softplus", "mish",
	"softsign", "erfc", "tan", "log1p", "floor", "ceil", "trunc", "round",
	"logical_not", "isfinite",
};

static const char *const binary_names[TT_BINARY_OP_COUNT] = {
	"add", "sub", "mul", "div", "max", "min", "pow", "rsub", "eq", "ne",
	"lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
};

const char *tt_unary_op_name(enum tt_unary_op op)
{
	return (unsigned)op < TT_UNARY_OP_COUNT ? unary_names[op] : NULL;
}

const char *tt_binary_op_name(enum tt_binary_op op)
{
	return (unsigned)op < TT_BINARY_OP_COUNT ? binary_names[op] : NULL;
}

struct tt_eltwise_cfg tt_op_eltwise_config(void)
{
	return (struct tt_eltwise_cfg){
		.out_format = TT_OPS_FORMAT_AUTO,
		.math_fidelity = TT_OPS_FIDELITY_AUTO,
	};
}

/* DST tiles a function needs per output tile (its result and scratch). */
static unsigned fn_slots(enum tt_unary_op op)
{
	switch (op) {
	case TT_UNARY_MISH:
		return 3;
	case TT_UNARY_ELU:
	case TT_UNARY_SOFTPLUS:
	case TT_UNARY_SOFTSIGN:
	case TT_UNARY_TAN:
		return 2;
	default:
		return 1;
	}
}

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

/* Check a function and its parameters; `what` names it in messages. */
static int check_fn(const char *fn, const char *what,
		    const struct tt_unary_fn *u)
{
	if ((unsigned)u->op >= TT_UNARY_OP_COUNT)
		return tt_error(-EINVAL, "%s: %s %d is not a unary function (0..%d)",
				fn, what, (int)u->op, TT_UNARY_OP_COUNT - 1);
	switch (u->op) {
	case TT_UNARY_POWER:
		if (!(u->p0 >= 0 && u->p0 <= 64 && u->p0 == floorf(u->p0)))
			return tt_error(-EINVAL,
					"%s: %s power: exponent %g is not an integer 0..64",
					fn, what, (double)u->p0);
		break;
	case TT_UNARY_CLIP:
		if (!(u->p0 <= u->p1))
			return tt_error(-EINVAL,
					"%s: %s clip: lower bound %g above upper bound %g",
					fn, what, (double)u->p0, (double)u->p1);
		break;
	case TT_UNARY_LEAKY_RELU:
	case TT_UNARY_ELU:
		if (!isfinite(u->p0))
			return tt_error(-EINVAL, "%s: %s %s: parameter %g is not finite",
					fn, what, unary_names[u->op],
					(double)u->p0);
		break;
	default:
		break;
	}
	return 0;
}

/* The config with every "auto" resolved, and what follows from it. */
struct plan {
	const char *fn;
	enum tt_binary_op op; /* TT_BINARY_OP_COUNT: unary */
	struct tt_unary_fn ufn, act;
	uint64_t a[4], b[4], o[4]; /* [w, z, r, c] */
	uint64_t o_tiles, wt, ht;
	struct tt_shape oshape;
	enum tt_data_format fa, fb, fo;
	enum tt_buffer_type ma, mb, mo;
	struct tt_xy grid;
	uint32_t cores, tpc, block, buffering, slots, dst_tiles;
	enum tt_math_fidelity fid;
	bool fp32, approx, fpu, mask;
	bool ints; /* an input or the output has an integer format */
	uint32_t vc, vr; /* valid columns and rows of the last tiles */
	uint32_t bc_a, bc_b; /* in-tile broadcast flags (BroadcastType_*) */
	uint32_t sa[4], sb[4];  /* tile strides */
	/* where's condition (op OP_WHERE), as b */
	const tt_device_tensor *cond;
	uint64_t c[4];
	uint32_t sc[4], bc_c;
	enum tt_data_format fc;
	enum tt_buffer_type mc;
	enum tt_ops_mem omem;   /* the output's placement when the op makes it */
	/* tensor accessor words of a, b, out and cond (none: interleaved) */
	uint32_t ta[4][TT_TENSOR_ACCESSOR_ARGS_MAX];
	unsigned nta[4];
	/* kernels/eltwise/eltwise_order.h: 0, or the output's bank count */
	uint32_t order_banks;
};

/* The compute API's BroadcastType_ROW / COL / SCALAR (hw/tensix.h's
 * TT_TX_F_BCAST_*). */
#define BC_ROW 0x02u
#define BC_COL 0x04u
#define BC_SCALAR 0x08u

static uint64_t tiles_of(uint64_t n)
{
	return (n + 31) / 32;
}

/* In-tile broadcast of an input with [.., r, c] against the output. */
static uint32_t bcast_flag(const uint64_t *in, const uint64_t *out)
{
	bool row = in[2] == 1 && out[2] > 1, col = in[3] == 1 && out[3] > 1;

	return row && col ? BC_SCALAR : row ? BC_ROW : col ? BC_COL : 0;
}

/* Tile strides of an input of [w, z, r, c] in, 0 where broadcast. */
static void strides(const uint64_t *in, uint32_t *s)
{
	uint64_t wt = tiles_of(in[3]), ht = tiles_of(in[2]);

	s[3] = wt > 1 ? 1 : 0;
	s[2] = ht > 1 ? (uint32_t)wt : 0;
	s[1] = in[1] > 1 ? (uint32_t)(wt * ht) : 0;
	s[0] = in[0] > 1 ? (uint32_t)(wt * ht * in[1]) : 0;
}

static int wzrc(const tt_device_tensor *t, uint64_t *d)
{
	return tt_shape_wzrc(tt_device_tensor_shape(t), d);
}

/* where's condition broadcast with the shape of a and b. */
static int fold_cond(struct plan *p)
{
	const struct tt_shape *shc;
	char s1[100], s2[100];
	int ret;

	if (!p->cond)
		return 0;
	shc = tt_device_tensor_shape(p->cond);
	ret = wzrc(p->cond, p->c);
	if (ret)
		return ret;
	for (int i = 0; i < 4; i++) {
		if (p->o[i] == p->c[i] || p->c[i] == 1)
			continue;
		if (p->o[i] != 1)
			return tt_error(-EINVAL,
					"%s: cond %s does not broadcast with a and b's %s: dimension %c is %llu there and %llu in cond (equal, or 1 in one of them)",
					p->fn, tt_ops_shape_str(shc, s1, sizeof(s1)),
					tt_ops_shape_str(&p->oshape, s2, sizeof(s2)),
					"wzrc"[i], (unsigned long long)p->o[i],
					(unsigned long long)p->c[i]);
		p->o[i] = p->c[i];
	}
	if (shc->rank > p->oshape.rank)
		p->oshape.rank = shc->rank;
	for (unsigned i = 0; i < p->oshape.rank; i++)
		p->oshape.dims[i] = p->o[4 - p->oshape.rank + i];
	p->bc_c = bcast_flag(p->c, p->o);
	strides(p->c, p->sc);
	return 0;
}

/* Shapes: the output's and the broadcast. */
static int plan_shapes(struct plan *p, const tt_device_tensor *a,
		       const tt_device_tensor *b)
{
	char sa[100], sb[100];
	int ret = wzrc(a, p->a);

	if (ret)
		return ret;
	memcpy(p->o, p->a, sizeof(p->o));
	p->oshape = *tt_device_tensor_shape(a);
	if (b) {
		const struct tt_shape *shb = tt_device_tensor_shape(b);

		ret = wzrc(b, p->b);
		if (ret)
			return ret;
		for (int i = 0; i < 4; i++) {
			if (p->a[i] == p->b[i] || p->b[i] == 1)
				continue;
			if (p->a[i] == 1) {
				p->o[i] = p->b[i];
				continue;
			}
			return tt_error(-EINVAL,
					"%s: b %s does not broadcast with a %s: dimension %c is %llu in a and %llu in b (equal, or 1 in one of them)",
					p->fn, tt_ops_shape_str(shb, sb, sizeof(sb)),
					tt_ops_shape_str(&p->oshape, sa, sizeof(sa)),
					"wzrc"[i], (unsigned long long)p->a[i],
					(unsigned long long)p->b[i]);
		}
		if (shb->rank > p->oshape.rank)
			p->oshape.rank = shb->rank;
		/* The output's shape at the larger rank, from the right. */
		for (unsigned i = 0; i < p->oshape.rank; i++)
			p->oshape.dims[i] = p->o[4 - p->oshape.rank + i];
		ret = fold_cond(p);
		if (ret)
			return ret;
		p->bc_a = bcast_flag(p->a, p->o);
		p->bc_b = bcast_flag(p->b, p->o);
		strides(p->a, p->sa);
		strides(p->b, p->sb);
	}
	p->wt = tiles_of(p->o[3]);
	p->ht = tiles_of(p->o[2]);
	p->o_tiles = p->o[0] * p->o[1] * p->ht * p->wt;
	if (p->o_tiles > UINT32_MAX / 2)
		return tt_error(-E2BIG, "%s: %llu output tiles; at most %u",
				p->fn, (unsigned long long)p->o_tiles,
				UINT32_MAX / 2);
	return 0;
}

static int plan_config(tt_ops_ctx *ctx, struct plan *p,
		       const struct tt_eltwise_cfg *c, const tt_device_tensor *a,
		       const tt_device_tensor *b)
{
	unsigned gw, gh;
	uint64_t need, have, tile_bytes;
	int ret;

	ret = tt_device_logical_grid(ctx->dev, &gw, &gh);
	if (ret)
		return ret;
	p->fa = tt_device_tensor_format(a);
	p->fb = b ? tt_device_tensor_format(b) : p->fa;
	p->ma = tt_buffer_type(tt_device_tensor_buffer(a));
	p->mb = b ? tt_buffer_type(tt_device_tensor_buffer(b)) : p->ma;
	p->fc = p->cond ? tt_device_tensor_format(p->cond) : p->fa;
	p->mc = p->cond ? tt_buffer_type(tt_device_tensor_buffer(p->cond)) :
			  p->ma;

	/* formats and placement */
	p->fo = c->out_format == TT_OPS_FORMAT_AUTO ? p->fa : c->out_format;
	if (!tt_ops_format_ok(p->fo) && !tt_ops_format_int(p->fo))
		return tt_error(tt_tile_size(p->fo) ? -ENOTSUP : -EINVAL,
				"%s: cfg.out_format %s (%d): the element-wise ops write Float32, Float16, Float16_b, Bfp8_b, Bfp4_b, Int32, UInt32, UInt16 and UInt8",
				p->fn, tt_data_format_name(p->fo), (int)p->fo);
	p->ints = tt_ops_format_int(p->fa) || tt_ops_format_int(p->fb) ||
		  tt_ops_format_int(p->fo);
	p->omem = c->out_mem;
	switch (c->out_mem) {
	case TT_OPS_MEM_AUTO:
		p->mo = p->ma;
		p->omem = p->ma == TT_BUFFER_L1 ? TT_OPS_MEM_L1 : TT_OPS_MEM_DRAM;
		break;
	case TT_OPS_MEM_DRAM:
		p->mo = TT_BUFFER_DRAM;
		break;
	case TT_OPS_MEM_L1:
	case TT_OPS_MEM_L1_HEIGHT_SHARDED:
	case TT_OPS_MEM_L1_WIDTH_SHARDED:
	case TT_OPS_MEM_L1_BLOCK_SHARDED:
		p->mo = TT_BUFFER_L1;
		break;
	default:
		return tt_error(-EINVAL, "%s: cfg.out_mem %d is not a placement (0 auto, 1 DRAM, 2 L1, 3..5 L1 height, width, block sharded)",
				p->fn, (int)c->out_mem);
	}

	/* math */
	if (c->math_fidelity == TT_OPS_FIDELITY_AUTO)
		p->fid = TT_HIFI4;
	else if (c->math_fidelity == TT_LOFI || c->math_fidelity == TT_HIFI2 ||
		 c->math_fidelity == TT_HIFI3 || c->math_fidelity == TT_HIFI4)
		p->fid = c->math_fidelity;
	else
		return tt_error(-EINVAL, "%s: cfg.math_fidelity %d is not LoFi (0), HiFi2 (2), HiFi3 (3) or HiFi4 (4)",
				p->fn, (int)c->math_fidelity);
	if ((unsigned)c->fp32_acc > TT_OPS_ON || (unsigned)c->approx > TT_OPS_ON)
		return tt_error(-EINVAL, "%s: cfg.%s %d is not auto (0), off (1) or on (2)",
				p->fn, (unsigned)c->fp32_acc > TT_OPS_ON ? "fp32_acc" : "approx",
				(unsigned)c->fp32_acc > TT_OPS_ON ? (int)c->fp32_acc : (int)c->approx);
	p->fp32 = c->fp32_acc == TT_OPS_ON ||
		  (c->fp32_acc == TT_OPS_AUTO &&
		   (p->fa == TT_FLOAT32 || p->fb == TT_FLOAT32 ||
		    p->fo == TT_FLOAT32 || p->ints));
	if (p->ints && !p->fp32)
		return tt_error(-EINVAL, "%s: integer tensors need fp32_acc (a 16-bit DST keeps 8 bits of an integer); cfg.fp32_acc is off",
				p->fn);
	p->approx = c->approx == TT_OPS_ON ||
		    (c->approx == TT_OPS_AUTO &&
		     (p->ufn.op == TT_UNARY_GELU_TANH || p->act.op == TT_UNARY_GELU_TANH));
	if (!p->approx && (p->ufn.op == TT_UNARY_GELU_TANH || p->act.op == TT_UNARY_GELU_TANH))
		return tt_error(-EINVAL, "%s: gelu_tanh needs approximate mode; cfg.approx is off",
				p->fn);
	if (p->approx && (p->ufn.op == TT_UNARY_GELU || p->act.op == TT_UNARY_GELU))
		return tt_error(-EINVAL, "%s: exact gelu in approximate mode (cfg.approx on, or gelu_tanh in the same op) would be gelu_tanh",
				p->fn);

	/* DST: 16 tiles of 16 bits, 8 of 32 (full sync) */
	p->dst_tiles = p->fp32 ? 8 : 16;
	/* The matrix unit's sources keep 10 bits (TF32): integers take the
	 * vector unit, exact in fp32 DST. */
	p->fpu = p->op <= TT_BINARY_MUL && !p->bc_a && !p->ints;
	p->slots = p->op == TT_BINARY_OP_COUNT || p->fpu ? 1 :
		   p->cond				 ? 3 :
							   2;
	if (fn_slots(p->ufn.op) > p->slots)
		p->slots = fn_slots(p->ufn.op);
	if (fn_slots(p->act.op) > p->slots)
		p->slots = fn_slots(p->act.op);
	/* Block-float outputs get their padding zeroed (kernels/eltwise). */
	p->vc = (uint32_t)(p->o[3] % 32 ? p->o[3] % 32 : 32);
	p->vr = (uint32_t)(p->o[2] % 32 ? p->o[2] % 32 : 32);
	p->mask = tt_data_format_is_block(p->fo) && (p->vc < 32 || p->vr < 32);
	if (p->mask)
		p->slots++;
	if (c->block_tiles) {
		if ((uint64_t)c->block_tiles * p->slots > p->dst_tiles)
			return tt_error(-EINVAL,
					"%s: cfg.block_tiles %u needs %llu DST tiles (%u per tile); DST holds %u%s",
					p->fn, c->block_tiles,
					(unsigned long long)c->block_tiles * p->slots,
					p->slots, p->dst_tiles,
					p->fp32 ? " with fp32 accumulation" : "");
		p->block = c->block_tiles;
	} else {
		p->block = p->dst_tiles / p->slots;
	}

	/* grid and split */
	p->grid = c->grid;
	if (!p->grid.x && !p->grid.y)
		p->grid = (struct tt_xy){ gw, gh };
	if (!p->grid.x || !p->grid.y || p->grid.x > gw || p->grid.y > gh)
		return tt_error(-EINVAL, "%s: cfg.grid %ux%u does not fit the device's %ux%u logical grid",
				p->fn, p->grid.x, p->grid.y, gw, gh);
	{
		uint64_t max_cores = (uint64_t)p->grid.x * p->grid.y, n;

		if (c->tiles_per_core) {
			n = (p->o_tiles + c->tiles_per_core - 1) / c->tiles_per_core;
			if (n > max_cores)
				return tt_error(-EINVAL,
						"%s: cfg.tiles_per_core %u: %llu tiles need %llu cores, cfg.grid %ux%u has %llu",
						p->fn, c->tiles_per_core,
						(unsigned long long)p->o_tiles,
						(unsigned long long)n, p->grid.x,
						p->grid.y, (unsigned long long)max_cores);
		} else {
			n = (p->o_tiles + AUTO_MIN_TILES_PER_CORE - 1) /
			    AUTO_MIN_TILES_PER_CORE;
			if (c->grid.x || c->grid.y)
				n = p->o_tiles; /* a grid asked for: use it */
			if (n > max_cores)
				n = max_cores;
		}
		p->cores = (uint32_t)n;
		p->tpc = c->tiles_per_core;
	}
	if (p->block > (p->o_tiles + p->cores - 1) / p->cores && !c->block_tiles)
		p->block = (uint32_t)((p->o_tiles + p->cores - 1) / p->cores);

	/* L1 */
	p->buffering = c->buffering ? c->buffering : 2;
	if (p->buffering > 1024)
		return tt_error(-EINVAL, "%s: cfg.buffering %u: at most 1024 blocks per circular buffer",
				p->fn, c->buffering);
	tile_bytes = tt_tile_size(p->fa) + (b ? tt_tile_size(p->fb) : 0) +
		     (p->cond ? tt_tile_size(p->fc) : 0) + tt_tile_size(p->fo);
	need = (uint64_t)p->buffering * p->block * tile_bytes +
	       (b ? tt_tile_size(TT_FLOAT16_B) : 0) +
	       (p->mask ? 2 * tt_tile_size(TT_FLOAT16_B) : 0);
	have = tt_ops_l1_free(ctx);
	if (need > have)
		return tt_error(-ENOMEM,
				"%s: circular buffers need %llu bytes of L1 per core (cfg.buffering %u x cfg.block_tiles %u x %llu bytes of tiles), a core has %llu free",
				p->fn, (unsigned long long)need, p->buffering,
				p->block, (unsigned long long)tile_bytes,
				(unsigned long long)have);
	return 0;
}

/*
 * The order cores take output tiles in: bank by bank for an interleaved
 * output (kernels/eltwise/eltwise_order.h), so that runs of tiles move in
 * one NOC transfer; in tile order when the compute kernel masks padding
 * (it finds edge tiles by their order) or the output is sharded.
 */
static int plan_order(tt_ops_ctx *ctx, struct plan *p)
{
	struct tt_bank_layout l;
	int ret;

	p->order_banks = 0;
	if (p->mask || p->nta[2])
		return 0;
	ret = tt_banks_layout(ctx->dev, &l);
	if (ret)
		return ret;
	p->order_banks = p->mo == TT_BUFFER_DRAM ? l.dram_banks : l.l1_banks;
	return 0;
}

static void plan_key(const struct plan *p, struct tt_ops_key *k)
{
	memset(k, 0, sizeof(*k));
	k->family = TT_OPS_ELTWISE;
	k->op[0] = (uint32_t)p->op;
	k->op[1] = (uint32_t)p->ufn.op;
	k->op[2] = (uint32_t)p->act.op;
	k->param[0] = fbits(p->ufn.p0);
	k->param[1] = fbits(p->ufn.p1);
	k->param[2] = fbits(p->act.p0);
	k->param[3] = fbits(p->act.p1);
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
	k->tiles_per_core = p->tpc;
	k->block = p->block;
	k->buffering = p->buffering;
	k->fidelity = p->fid;
	k->fp32 = p->fp32;
	k->approx = p->approx;
	memcpy(k->shape[3], p->c, sizeof(p->c));
	k->fmt[3] = p->cond ? p->fc : 0;
	k->mem[3] = p->cond ? p->mc : 0;
	for (int i = 0; i < 4; i++)
		k->layout[i] = tt_ops_layout_hash(p->ta[i], p->nta[i]);
}

#define NGEOM 19u /* the reader's geometry words */

/* Build the program of plan p (a cache miss). */
static int build(tt_ops_ctx *ctx, const struct plan *p,
		 struct tt_ops_entry **out)
{
	const bool has_b = p->op != TT_BINARY_OP_COUNT;
	struct tt_kernel_config rc = tt_reader_config(), wc = tt_writer_config();
	struct tt_kernel_config cc = tt_compute_config();
	struct tt_core_range_set set;
	tt_kernel_handle kr, kw, kc;
	struct tt_ops_entry *e;
	uint32_t pages = p->buffering * p->block;
	int ret;
	const struct tt_named_arg rargs[] = {
		{ "BLOCK", p->block },
		{ "A_DRAM", p->ma == TT_BUFFER_DRAM },
		{ "B_DRAM", p->mb == TT_BUFFER_DRAM },
		{ "HAS_B", has_b },
		{ "MASK", p->mask },
		{ "A_TA", p->nta[0] ? NGEOM + 1 : 0 },
		{ "B_TA", p->nta[1] ? NGEOM + 1 + p->nta[0] : 0 },
		{ "HAS_C", p->cond != NULL },
		{ "C_DRAM", p->mc == TT_BUFFER_DRAM },
		{ "C_TA", p->nta[3] ? NGEOM + 1 + p->nta[0] + p->nta[1] : 0 },
	};
	/* The reader's geometry, then the inputs' accessor words: common
	 * runtime args (kernels/eltwise). */
	uint32_t geom[NGEOM + 3 * TT_TENSOR_ACCESSOR_ARGS_MAX] = {
		(uint32_t)p->wt, (uint32_t)p->ht, (uint32_t)p->o[1],
		p->sa[0], p->sa[1], p->sa[2], p->sa[3],
		p->sb[0], p->sb[1], p->sb[2], p->sb[3], p->vc, p->vr,
		(uint32_t)p->o_tiles, p->order_banks,
		p->sc[0], p->sc[1], p->sc[2], p->sc[3],
	};
	uint32_t wcommon[2 + TT_TENSOR_ACCESSOR_ARGS_MAX] = {
		(uint32_t)p->o_tiles, p->order_banks,
	};
	const struct tt_named_arg wargs[] = {
		{ "BLOCK", p->block },
		{ "OUT_DRAM", p->mo == TT_BUFFER_DRAM },
		{ "OUT_TA", p->nta[2] ? 3 : 0 },
	};
	const unsigned ngeom = NGEOM + p->nta[0] + p->nta[1] + p->nta[3];
	const struct tt_named_arg cargs[] = {
		{ "BLOCK", p->block },
		{ "SLOTS", p->slots },
		{ "BINOP", p->cond ? WHERE_BINOP :
			   has_b   ? (uint32_t)p->op :
				     UNARY_BINOP },
		{ "FPU", p->fpu },
		{ "BCAST_A", p->bc_a },
		{ "BCAST_B", p->bc_b },
		{ "BCAST_C", p->bc_c },
		{ "UOP", (uint32_t)p->ufn.op },
		{ "UP0", fbits(p->ufn.p0) },
		{ "UP1", fbits(p->ufn.p1) },
		{ "ACT", (uint32_t)p->act.op },
		{ "AP0", fbits(p->act.p0) },
		{ "AP1", fbits(p->act.p1) },
		/* Geometry only where it is used, so that other shapes share
		 * the binary. */
		{ "MASK", p->mask },
		{ "OUT_WT", p->mask ? (uint32_t)p->wt : 0 },
		{ "OUT_HT", p->mask ? (uint32_t)p->ht : 0 },
		{ "OUT_VC", p->mask ? p->vc : 0 },
		{ "OUT_VR", p->mask ? p->vr : 0 },
	};

	ret = tt_num_cores_to_core_range_set(p->cores, p->grid, true, &set);
	if (ret)
		return ret;
	ret = tt_ops_entry_new(p->fn, p->cores, &e);
	if (ret)
		return ret;
	plan_key(p, &e->key);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_A, p->fa, pages);
	if (!ret && has_b)
		ret = tt_ops_add_cb(e->prog, &set, CB_B, p->fb, pages);
	if (!ret && p->cond)
		ret = tt_ops_add_cb(e->prog, &set, CB_C, p->fc, pages);
	if (!ret && has_b && !p->fpu && (p->bc_a || p->bc_b || p->bc_c))
		ret = tt_ops_add_cb(e->prog, &set, CB_ZERO, TT_FLOAT16_B, 1);
	if (!ret && p->mask)
		ret = tt_ops_add_cb(e->prog, &set, CB_MASK, TT_FLOAT16_B, 2);
	if (!ret)
		ret = tt_ops_add_cb(e->prog, &set, CB_OUT, p->fo, pages);
	rc.named_compile_args = rargs;
	rc.named_compile_arg_count = TT_OPS_NARGS(rargs);
	wc.named_compile_args = wargs;
	wc.named_compile_arg_count = TT_OPS_NARGS(wargs);
	cc.named_compile_args = cargs;
	cc.named_compile_arg_count = TT_OPS_NARGS(cargs);
	cc.math_fidelity = p->fid;
	cc.fp32_dest_acc_en = p->fp32;
	cc.dst_full_sync_en = true;
	cc.math_approx_mode = p->approx;
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_eltwise_reader,
						   &set, &rc, &kr);
	memcpy(geom + NGEOM, p->ta[0], p->nta[0] * sizeof(uint32_t));
	memcpy(geom + NGEOM + p->nta[0], p->ta[1], p->nta[1] * sizeof(uint32_t));
	memcpy(geom + NGEOM + p->nta[0] + p->nta[1], p->ta[3],
	       p->nta[3] * sizeof(uint32_t));
	if (!ret)
		ret = tt_set_common_runtime_args(e->prog, kr, geom, ngeom);
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_eltwise_compute,
						   &set, &cc, &kc);
	if (!ret)
		ret = tt_create_kernel_from_string(e->prog, tt_ops_eltwise_writer,
						   &set, &wc, &kw);
	memcpy(wcommon + 2, p->ta[2], p->nta[2] * sizeof(uint32_t));
	if (!ret)
		ret = tt_set_common_runtime_args(e->prog, kw, wcommon,
						 2 + p->nta[2]);
	/* The split: the first o_tiles % cores cores take one tile more. */
	for (uint32_t i = 0, start = 0; !ret && i < p->cores; i++) {
		struct tt_ops_core *oc = &e->cores[i];
		uint32_t n = (uint32_t)(p->o_tiles / p->cores) +
			     (i < p->o_tiles % p->cores);
		uint32_t r[8] = { 0, 0, 0, 0, start, n, 0, 0 };
		uint32_t w[4] = { 0, 0, start, n };
		uint32_t cargs_rt[2] = { n, start };
		unsigned cnt;

		oc->xy = (struct tt_xy){ i % p->grid.x, i / p->grid.x };
		oc->start = start;
		oc->tiles = n;
		ret = tt_set_runtime_args(e->prog, kr, oc->xy, r, 8);
		if (!ret)
			ret = tt_set_runtime_args(e->prog, kw, oc->xy, w, 4);
		if (!ret)
			ret = tt_set_runtime_args(e->prog, kc, oc->xy, cargs_rt, 2);
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
	(void)ctx;
	*out = e;
	return 0;
}

static void describe_config(const struct plan *p, char *buf, size_t len)
{
	snprintf(buf, len,
		 "grid %ux%u cores %u block %u buffering %u out %s %s fidelity %d fp32_acc %d approx %d act %s",
		 p->grid.x, p->grid.y, p->cores, p->block, p->buffering,
		 tt_data_format_name(p->fo), tt_ops_mem_name(p->omem),
		 (int)p->fid, p->fp32, p->approx, unary_names[p->act.op]);
}

/* Check or create the output. *created tells whether it is new. */
static int prepare_out(tt_ops_ctx *ctx, struct plan *p, tt_device_tensor **out,
		       bool *created, const struct tt_eltwise_cfg *c)
{
	int ret;

	*created = false;
	if (!*out) {
		ret = tt_ops_create_output(ctx, p->fn, &p->oshape, p->fo,
					   p->omem, p->grid, out);
		if (ret)
			return ret;
		*created = true;
		return 0;
	}
	ret = tt_ops_check_given_out(p->fn, *out, p->o, &p->oshape,
				     c->out_format, c->out_mem, p->mo);
	if (ret)
		return ret;
	if (c->out_mem >= TT_OPS_MEM_L1_HEIGHT_SHARDED &&
	    (unsigned)tt_buffer_layout(tt_device_tensor_buffer(*out)) !=
		    (unsigned)(c->out_mem - TT_OPS_MEM_L1_HEIGHT_SHARDED) +
			    TT_LAYOUT_HEIGHT_SHARDED)
		return tt_error(-EINVAL, "%s: out is %s; cfg.out_mem asks for %s",
				p->fn,
				tt_tensor_memory_layout_name(tt_buffer_layout(tt_device_tensor_buffer(*out))),
				tt_ops_mem_name(c->out_mem));
	return 0;
}

static int run3(tt_ops_ctx *ctx, const char *fn, enum tt_binary_op op,
	       const tt_device_tensor *a, const tt_device_tensor *b,
	       const struct tt_unary_fn *ufn, const struct tt_eltwise_cfg *cfg,
	       tt_device_tensor **out,
		const tt_device_tensor *cond)
{
	struct tt_eltwise_cfg cc = cfg ? *cfg : tt_op_eltwise_config();
	const struct tt_eltwise_cfg *c = &cc;
	double t0 = tt_ops_now_us();
	struct tt_ops_entry *e;
	struct tt_ops_key key;
	struct plan p;
	bool created, hit;
	uint64_t aaddr, baddr, caddr, oaddr, afirst, bfirst, cfirst, ofirst;
	int ret;

	memset(&p, 0, sizeof(p));
	p.fn = fn;
	p.op = op;
	p.cond = cond;
	if (!ctx)
		return tt_error(-EINVAL, "%s: ctx is NULL", fn);
	if (!a)
		return tt_error(-EINVAL, "%s: a is NULL", fn);
	if (op != TT_BINARY_OP_COUNT && !b)
		return tt_error(-EINVAL, "%s: b is NULL", fn);
	if (!out)
		return tt_error(-EINVAL, "%s: out is NULL", fn);
	if (op == OP_WHERE && !cond)
		return tt_error(-EINVAL, "%s: cond is NULL", fn);
	if (op != TT_BINARY_OP_COUNT && op != OP_WHERE &&
	    (unsigned)op >= TT_BINARY_OP_COUNT)
		return tt_error(-EINVAL, "%s: op %d is not a binary op (0..%d)",
				fn, (int)op, TT_BINARY_OP_COUNT - 1);
	ret = tt_ops_check_tensor_any(ctx, fn, "a", a);
	if (!ret && b)
		ret = tt_ops_check_tensor_any(ctx, fn, "b", b);
	if (!ret && cond)
		ret = tt_ops_check_tensor_any(ctx, fn, "cond", cond);
	if (!ret && *out)
		ret = tt_ops_check_tensor_any(ctx, fn, "out", *out);
	if (ret)
		return ret;
	if (*out) {
		/* A given output decides what the config leaves to the op. */
		enum tt_buffer_type t = tt_buffer_type(tt_device_tensor_buffer(*out));

		if (cc.out_format == TT_OPS_FORMAT_AUTO)
			cc.out_format = tt_device_tensor_format(*out);
		if (cc.out_mem == TT_OPS_MEM_AUTO)
			cc.out_mem = t == TT_BUFFER_L1 ? TT_OPS_MEM_L1 : TT_OPS_MEM_DRAM;
	}
	p.ufn = ufn ? *ufn : (struct tt_unary_fn){ TT_UNARY_NONE, 0, 0 };
	p.act = c->activation;
	ret = check_fn(fn, "function", &p.ufn);
	if (!ret)
		ret = check_fn(fn, "cfg.activation", &p.act);
	if (!ret)
		ret = plan_shapes(&p, a, b);
	if (!ret)
		ret = plan_config(ctx, &p, c, a, b);
	if (!ret)
		ret = prepare_out(ctx, &p, out, &created, c);
	if (ret)
		return ret;
	ret = tt_ops_accessor_words(fn, "a", a, p.ta[0], &p.nta[0]);
	if (!ret && b)
		ret = tt_ops_accessor_words(fn, "b", b, p.ta[1], &p.nta[1]);
	if (!ret)
		ret = tt_ops_accessor_words(fn, "out", *out, p.ta[2], &p.nta[2]);
	if (!ret && cond)
		ret = tt_ops_accessor_words(fn, "cond", cond, p.ta[3], &p.nta[3]);
	if (!ret)
		ret = plan_order(ctx, &p);
	if (ret)
		goto fail;

	plan_key(&p, &key);
	e = tt_ops_cache_find(ctx, &key);
	hit = e != NULL;
	if (!e) {
		ret = build(ctx, &p, &e);
		if (ret)
			goto fail;
		tt_ops_cache_add(ctx, e);
	}
	/* Only the runtime arguments change from call to call. */
	aaddr = tt_buffer_address(tt_device_tensor_buffer(a));
	afirst = tt_device_tensor_first_tile(a);
	baddr = b ? tt_buffer_address(tt_device_tensor_buffer(b)) : 0;
	bfirst = b ? tt_device_tensor_first_tile(b) : 0;
	caddr = cond ? tt_buffer_address(tt_device_tensor_buffer(cond)) : 0;
	cfirst = cond ? tt_device_tensor_first_tile(cond) : 0;
	oaddr = tt_buffer_address(tt_device_tensor_buffer(*out));
	ofirst = tt_device_tensor_first_tile(*out);
	for (unsigned i = 0; i < e->ncores; i++) {
		e->cores[i].rargs[0] = (uint32_t)aaddr;
		e->cores[i].rargs[1] = (uint32_t)afirst;
		e->cores[i].rargs[2] = (uint32_t)baddr;
		e->cores[i].rargs[3] = (uint32_t)bfirst;
		e->cores[i].rargs[6] = (uint32_t)caddr;
		e->cores[i].rargs[7] = (uint32_t)cfirst;
		e->cores[i].wargs[0] = (uint32_t)oaddr;
		e->cores[i].wargs[1] = (uint32_t)ofirst;
	}
	ret = tt_ops_enqueue(ctx, e->prog, false);
	if (ret)
		goto fail;
	if (ctx->prof_prefix) {
		struct tt_ops_rec r = { .hit = hit, .cores = p.cores,
					.tiles = p.o_tiles, .start_us = t0 };
		char s1[100], s2[100], s3[100];
		double t1 = tt_ops_now_us();

		ret = tt_finish(ctx->cq);
		r.enqueue_us = t1 - t0;
		r.finish_us = tt_ops_now_us() - t1;
		snprintf(r.name, sizeof(r.name), "%s", fn);
		snprintf(r.shapes, sizeof(r.shapes), "a %s %s%s%s -> %s %s",
			 tt_ops_shape_str(tt_device_tensor_shape(a), s1, sizeof(s1)),
			 tt_data_format_name(p.fa), b ? "; b " : "",
			 b ? tt_ops_shape_str(tt_device_tensor_shape(b), s2, sizeof(s2)) : "",
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

static int run(tt_ops_ctx *ctx, const char *fn, enum tt_binary_op op,
	       const tt_device_tensor *a, const tt_device_tensor *b,
	       const struct tt_unary_fn *ufn, const struct tt_eltwise_cfg *cfg,
	       tt_device_tensor **out)
{
	return run3(ctx, fn, op, a, b, ufn, cfg, out, NULL);
}

int tt_op_where(tt_ops_ctx *ctx, const tt_device_tensor *cond,
		const tt_device_tensor *a, const tt_device_tensor *b,
		const struct tt_eltwise_cfg *cfg, tt_device_tensor **out)
{
	if (!cond)
		return tt_error(-EINVAL, "tt_op_where: cond is NULL");
	return run3(ctx, "tt_op_where", OP_WHERE, a, b, NULL, cfg, out, cond);
}

int tt_op_unary(tt_ops_ctx *ctx, const tt_device_tensor *a,
		const struct tt_unary_fn *fn, const struct tt_eltwise_cfg *cfg,
		tt_device_tensor **out)
{
	if (!fn)
		return tt_error(-EINVAL, "tt_op_unary: fn is NULL");
	return run(ctx, "tt_op_unary", TT_BINARY_OP_COUNT, a, NULL, fn, cfg,
		   out);
}

int tt_op_binary(tt_ops_ctx *ctx, enum tt_binary_op op,
		 const tt_device_tensor *a, const tt_device_tensor *b,
		 const struct tt_eltwise_cfg *cfg, tt_device_tensor **out)
{
	if ((unsigned)op >= TT_BINARY_OP_COUNT)
		return tt_error(-EINVAL, "tt_op_binary: op %d is not a binary op (0..%d)",
				(int)op, TT_BINARY_OP_COUNT - 1);
	return run(ctx, "tt_op_binary", op, a, b, NULL, cfg, out);
}

#define UNARY(name, OP)                                                       \
	int tt_op_##name(tt_ops_ctx *ctx, const tt_device_tensor *a,          \
			 const struct tt_eltwise_cfg *cfg,                    \
			 tt_device_tensor **out)                              \
	{                                                                     \
		const struct tt_unary_fn f = { OP, 0, 0 };                    \
		return run(ctx, "tt_op_" #name, TT_BINARY_OP_COUNT, a, NULL,  \
			   &f, cfg, out);                                     \
	}

UNARY(exp, TT_UNARY_EXP)
UNARY(log, TT_UNARY_LOG)
UNARY(sqrt, TT_UNARY_SQRT)
UNARY(rsqrt, TT_UNARY_RSQRT)
UNARY(recip, TT_UNARY_RECIP)
UNARY(sigmoid, TT_UNARY_SIGMOID)
UNARY(tanh, TT_UNARY_TANH)
UNARY(gelu, TT_UNARY_GELU)
UNARY(gelu_tanh, TT_UNARY_GELU_TANH)
UNARY(relu, TT_UNARY_RELU)
UNARY(silu, TT_UNARY_SILU)
UNARY(abs, TT_UNARY_ABS)
UNARY(neg, TT_UNARY_NEG)
UNARY(sign, TT_UNARY_SIGN)
UNARY(square, TT_UNARY_SQUARE)
UNARY(sin, TT_UNARY_SIN)
UNARY(cos, TT_UNARY_COS)
UNARY(erf, TT_UNARY_ERF)
UNARY(relu6, TT_UNARY_RELU6)

#define UNARY_P(name, OP, decl, p0, p1)                                       \
	int tt_op_##name(tt_ops_ctx *ctx, const tt_device_tensor *a, decl,    \
			 const struct tt_eltwise_cfg *cfg,                    \
			 tt_device_tensor **out)                              \
	{                                                                     \
		const struct tt_unary_fn f = { OP, p0, p1 };                  \
		return run(ctx, "tt_op_" #name, TT_BINARY_OP_COUNT, a, NULL,  \
			   &f, cfg, out);                                     \
	}

#define COMMA ,
UNARY_P(clip, TT_UNARY_CLIP, float lo COMMA float hi, lo, hi)
UNARY_P(leaky_relu, TT_UNARY_LEAKY_RELU, float slope, slope, 0)
UNARY_P(elu, TT_UNARY_ELU, float alpha, alpha, 0)
UNARY_P(power, TT_UNARY_POWER, unsigned exponent, (float)exponent, 0)

int tt_op_typecast(tt_ops_ctx *ctx, const tt_device_tensor *a,
		   enum tt_data_format fmt, const struct tt_eltwise_cfg *cfg,
		   tt_device_tensor **out)
{
	struct tt_eltwise_cfg c = cfg ? *cfg : tt_op_eltwise_config();
	const struct tt_unary_fn f = { TT_UNARY_NONE, 0, 0 };

	if (c.out_format != TT_OPS_FORMAT_AUTO && c.out_format != fmt)
		return tt_error(-EINVAL, "tt_op_typecast: cfg.out_format %s is not the format asked for, %s",
				tt_data_format_name(c.out_format),
				tt_data_format_name(fmt));
	c.out_format = fmt;
	return run(ctx, "tt_op_typecast", TT_BINARY_OP_COUNT, a, NULL, &f, &c,
		   out);
}

#define BINARY(name, OP)                                                      \
	int tt_op_##name(tt_ops_ctx *ctx, const tt_device_tensor *a,          \
			 const tt_device_tensor *b,                           \
			 const struct tt_eltwise_cfg *cfg,                    \
			 tt_device_tensor **out)                              \
	{                                                                     \
		return run(ctx, "tt_op_" #name, OP, a, b, NULL, cfg, out);    \
	}

BINARY(add, TT_BINARY_ADD)
BINARY(sub, TT_BINARY_SUB)
BINARY(mul, TT_BINARY_MUL)
BINARY(div, TT_BINARY_DIV)
BINARY(max, TT_BINARY_MAX)
BINARY(min, TT_BINARY_MIN)
