// SPDX-License-Identifier: Apache-2.0
/*
 * The coprocessor's unpacker, element-wise and reduce units and packer
 * (hw/tensix.h): COPY, ELTWISE, REDUCE, PACK and TILIZE.
 *
 * Every command checks all it needs (flags, arguments, DST range, formats,
 * addresses) before it changes anything, so a refused command leaves DST
 * and L1 as they were. The unpacker feeds the source registers with at
 * most TF32 (10 mantissa bits, truncated); COPY and TILIZE go straight to
 * DST. Sums are fp32. Integer formats are unpacked to float and packed
 * from it (a 32-bit integer beyond 2^24 loses its low bits on the way).
 */
#include <string.h>

#include "tensix_impl.h"

static unsigned bits_set(unsigned v)
{
	return (unsigned)__builtin_popcount(v);
}

/* ---- COPY ---- */

/* Does every value of fmt fit TF32 as it is (at most 10 mantissa bits,
 * an exponent fp32 has)? Then the way into a source register changes
 * nothing and can be skipped. */
static bool fits_tf32(uint32_t fmt)
{
	switch ((enum df_format)fmt) {
	case DF_FLOAT16:
	case DF_FLOAT16_B:
	case DF_BFP8_B:
	case DF_BFP4_B:
	case DF_BFP2_B:
		return true;
	default:
		return false;
	}
}

/* Operands A and B into the FPU's source registers (TF32). */
static enum tt_tx_err load_sources(struct tx_cmd *c, float *a, float *b)
{
	enum tt_tx_err e = tx_tile_check(c, c->a_addr, c->a_fmt);

	if (!e)
		e = tx_tile_check(c, c->b_addr, c->b_fmt);
	if (e)
		return e;
	tx_tile_load(c, c->a_addr, c->a_fmt, a);
	tx_tile_load(c, c->b_addr, c->b_fmt, b);
	if (!fits_tf32(c->a_fmt))
		tx_to_src(a);
	if (!fits_tf32(c->b_fmt))
		tx_to_src(b);
	return TT_TX_OK;
}

enum tt_tx_err tx_copy(struct tx_cmd *c)
{
	float t[TX_ELEMS], *d;
	enum tt_tx_err e;

	if (c->sub || (c->flags & ~TT_TX_F_TRANSPOSE))
		return TT_TX_ERR_OP;
	d = tx_dst(c, c->dst, 1);
	if (!d)
		return TT_TX_ERR_DST;
	e = tx_tile_check(c, c->a_addr, c->a_fmt);
	if (e)
		return e;
	/* Unpacked straight to DST: full precision where DST has it. */
	tx_tile_load(c, c->a_addr, c->a_fmt, t);
	if (c->flags & TT_TX_F_TRANSPOSE)
		tx_transpose(d, t);
	else
		memcpy(d, t, sizeof(t));
	tx_dst_written(c, c->dst, NULL, 0);
	return TT_TX_OK;
}

/* ---- ELTWISE ---- */

#define BCAST_FLAGS \
	(TT_TX_F_BCAST_ROW | TT_TX_F_BCAST_COL | TT_TX_F_BCAST_SCALAR)

/* B as the operation sees it, broadcast per the flags, into out. */
static void bcast(const float *b, unsigned flags, float *out)
{
	for (unsigned r = 0; r < TX_DIM; r++)
		for (unsigned k = 0; k < TX_DIM; k++)
			out[r * TX_DIM + k] =
				flags & TT_TX_F_BCAST_ROW ? b[k] :
				flags & TT_TX_F_BCAST_COL ? b[r * TX_DIM] :
							    b[0];
}

/* v = a op b over a tile; the loops are plain so that they vectorise. */
static void eltwise_values(const struct tx_cmd *c, const struct tx_passes *p,
			   const float *a, const float *b, float *v)
{
	unsigned i;

	switch (c->sub) {
	case TT_TX_ADD:
		for (i = 0; i < TX_ELEMS; i++)
			v[i] = a[i] + b[i];
		break;
	case TT_TX_SUB:
		for (i = 0; i < TX_ELEMS; i++)
			v[i] = a[i] - b[i];
		break;
	default:
		for (i = 0; i < TX_ELEMS; i++)
			v[i] = tx_fid_mul(a[i], b[i], p);
		break;
	}
}

enum tt_tx_err tx_eltwise(struct tx_cmd *c)
{
	float a[TX_ELEMS], b[TX_ELEMS], bb[TX_ELEMS], v[TX_ELEMS], *d;
	const float *y = b;
	struct tx_passes p = { 0 };
	enum tt_tx_err e;

	if (c->sub > TT_TX_MUL || (c->flags & ~(BCAST_FLAGS | TT_TX_F_ACC)) ||
	    bits_set(c->flags & BCAST_FLAGS) > 1)
		return TT_TX_ERR_OP;
	if (c->sub == TT_TX_MUL && !tx_fidelity(c->fidelity, &p))
		return TT_TX_ERR_ARG;
	d = tx_dst(c, c->dst, 1);
	if (!d)
		return TT_TX_ERR_DST;
	e = load_sources(c, a, b);
	if (e)
		return e;
	if (c->flags & BCAST_FLAGS) {
		bcast(b, c->flags, bb);
		y = bb;
	}
	/* Into a local v: no aliasing for the compiler to fear, so the loops
	 * vectorise. */
	eltwise_values(c, &p, a, y, v);
	if (c->flags & TT_TX_F_ACC) {
		for (unsigned i = 0; i < TX_ELEMS; i++)
			d[i] += v[i];
	} else {
		memcpy(d, v, sizeof(v));
	}
	tx_dst_written(c, c->dst, NULL, 0);
	c->macs = TX_ELEMS;
	return TT_TX_OK;
}

/* ---- REDUCE ---- */

#define REDUCE_FLAGS \
	(TT_TX_F_REDUCE_ROW | TT_TX_F_REDUCE_COL | TT_TX_F_REDUCE_SCALAR)

/* Elements of DST a reduction writes: column 0, row 0 or (0, 0). */
static unsigned reduce_targets(unsigned flags, uint16_t *idx)
{
	if (flags & TT_TX_F_REDUCE_SCALAR) {
		idx[0] = 0;
		return 1;
	}
	for (unsigned i = 0; i < TX_DIM; i++)
		idx[i] = (uint16_t)(flags & TT_TX_F_REDUCE_ROW ? i * TX_DIM :
								 i);
	return TX_DIM;
}

/* Index of element j of the line a reduction folds into target t. */
static inline unsigned line_elem(unsigned flags, unsigned t, unsigned j)
{
	if (flags & TT_TX_F_REDUCE_ROW)
		return t * TX_DIM + j; /* row t */
	return j * TX_DIM + t; /* column t */
}

/* SUM and AVG: the products of the fidelity, summed per line in fp32
 * (for SCALAR: rows, then their sums). */
static void reduce_sum(struct tx_cmd *c, const float *a, float s,
		       const struct tx_passes *p, float *d, const uint16_t *idx,
		       unsigned nt)
{
	unsigned flags = c->flags & TT_TX_F_REDUCE_SCALAR ?
				 TT_TX_F_REDUCE_ROW :
				 c->flags;
	float sums[TX_DIM], total = 0.0f;

	for (unsigned t = 0; t < TX_DIM; t++) {
		float acc = 0.0f;

		for (unsigned j = 0; j < TX_DIM; j++)
			acc += tx_fid_mul(a[line_elem(flags, t, j)], s, p);
		sums[t] = acc;
		total += acc;
	}
	if (c->flags & TT_TX_F_REDUCE_SCALAR) {
		d[0] += total;
		return;
	}
	for (unsigned t = 0; t < nt; t++)
		d[idx[t]] += sums[t];
}

/* MAX: the largest a x s per line; a zeroed DST counts as -inf. */
static void reduce_max(struct tx_cmd *c, const float *a, float s, float *d,
		       const uint16_t *idx, unsigned nt)
{
	bool fresh = tx_dst_zeroed(c, c->dst);
	unsigned flags = c->flags;

	for (unsigned t = 0; t < nt; t++) {
		unsigned len = flags & TT_TX_F_REDUCE_SCALAR ? TX_ELEMS :
							       TX_DIM;
		float m = fresh ? -__builtin_inff() : d[idx[t]];

		for (unsigned j = 0; j < len; j++) {
			float v = a[flags & TT_TX_F_REDUCE_SCALAR ?
					    j :
					    line_elem(flags, t, j)] *
				  s;

			if (v > m)
				m = v;
		}
		d[idx[t]] = m;
	}
}

enum tt_tx_err tx_reduce(struct tx_cmd *c)
{
	float a[TX_ELEMS], b[TX_ELEMS], *d;
	uint16_t idx[TX_DIM];
	struct tx_passes p = { 0 };
	enum tt_tx_err e;
	unsigned nt;

	if (c->sub > TT_TX_REDUCE_MAX || (c->flags & ~REDUCE_FLAGS) ||
	    bits_set(c->flags) != 1)
		return TT_TX_ERR_OP;
	if (c->sub != TT_TX_REDUCE_MAX && !tx_fidelity(c->fidelity, &p))
		return TT_TX_ERR_ARG;
	d = tx_dst(c, c->dst, 1);
	if (!d)
		return TT_TX_ERR_DST;
	e = load_sources(c, a, b);
	if (e)
		return e;
	nt = reduce_targets(c->flags, idx);
	if (c->sub == TT_TX_REDUCE_MAX)
		reduce_max(c, a, b[0], d, idx, nt);
	else
		reduce_sum(c, a, b[0], &p, d, idx, nt);
	tx_dst_written(c, c->dst, idx, nt);
	c->macs = TX_ELEMS;
	return TT_TX_OK;
}

/* ---- TILIZE and PACK ---- */

/* 32 rows of 32 elements of a flat format, stride bytes apart, at addr. */
static enum tt_tx_err rows_check(const struct tx_cmd *c, uint32_t addr,
				 uint32_t fmt, uint32_t stride)
{
	size_t row;

	if (!tx_fmt_ok(fmt) || df_is_block((enum df_format)fmt))
		return TT_TX_ERR_FORMAT;
	row = df_elem_bytes((enum df_format)fmt) * TX_DIM;
	if (stride < row)
		return TT_TX_ERR_ARG;
	if (!tx_in_l1(c, addr, (uint64_t)(TX_DIM - 1) * stride + row))
		return TT_TX_ERR_ADDR;
	return TT_TX_OK;
}

enum tt_tx_err tx_tilize(struct tx_cmd *c)
{
	enum df_format f = (enum df_format)c->a_fmt;
	enum tt_tx_err e;
	size_t row;
	float *d;

	if (c->sub || c->flags)
		return TT_TX_ERR_OP;
	d = tx_dst(c, c->dst, 1);
	if (!d)
		return TT_TX_ERR_DST;
	e = rows_check(c, c->a_addr, c->a_fmt, c->arg[0]);
	if (e)
		return e;
	/* Like COPY, straight to DST. */
	row = df_elem_bytes(f) * TX_DIM;
	for (unsigned r = 0; r < TX_DIM; r++)
		df_convert(DF_FLOAT32, d + r * TX_DIM, sizeof(float) * TX_DIM,
			   f, c->l1 + c->a_addr + (uint64_t)r * c->arg[0], row,
			   TX_DIM);
	tx_dst_written(c, c->dst, NULL, 0);
	return TT_TX_OK;
}

enum tt_tx_err tx_pack(struct tx_cmd *c)
{
	enum df_format f = (enum df_format)c->out_fmt;
	enum tt_tx_err e;
	uint8_t *out;
	size_t row;
	float *d;

	if (c->sub || (c->flags & ~TT_TX_F_UNTILIZE))
		return TT_TX_ERR_OP;
	d = tx_dst(c, c->dst, 1);
	if (!d)
		return TT_TX_ERR_DST;
	if (c->flags & TT_TX_F_UNTILIZE) {
		e = rows_check(c, c->out_addr, c->out_fmt, c->arg[0]);
		if (e)
			return e;
		out = c->l1 + c->out_addr;
		row = df_elem_bytes(f) * TX_DIM;
		for (unsigned r = 0; r < TX_DIM; r++)
			df_convert(f, out + (uint64_t)r * c->arg[0], row,
				   DF_FLOAT32, d + r * TX_DIM,
				   sizeof(float) * TX_DIM, TX_DIM);
	} else {
		e = tx_tile_check(c, c->out_addr, c->out_fmt);
		if (e)
			return e;
		out = c->l1 + c->out_addr;
		df_tilize_convert(f, out, df_tile_bytes(f), DF_FLOAT32, d,
				  sizeof(float) * TX_ELEMS, TX_DIM, TX_DIM);
	}
	c->wrote_l1 = true;
	return TT_TX_OK;
}
