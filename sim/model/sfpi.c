// SPDX-License-Identifier: Apache-2.0
/*
 * The vector unit's instructions (hw/sfpi.h): eight vector registers of 32
 * fp32 lanes, a lane-enable mask and its condition stack, per node. One
 * instruction per write of TT_TX_SFPI; an instruction is decoded and
 * checked in full before it changes anything.
 */
#include <math.h>
#include <string.h>

#include "tensix_impl.h"

#define ALL_LANES UINT32_MAX

void tx_sfpi_reset(struct tx_sfpi *s)
{
	memset(s, 0, sizeof(*s));
	s->enable = ALL_LANES;
}

/* ---- lanes ---- */

static float lane_min(float a, float b)
{
	if (a != a)
		return b;
	if (b != b)
		return a;
	if (a == b) /* equal, or -0 and +0: the negative one */
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

static float lane_max(float a, float b)
{
	if (a != a)
		return b;
	if (b != b)
		return a;
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

static bool lane_cmp(unsigned cond, float a, float b)
{
	switch (cond) {
	case TT_SFPI_LT:
		return a < b;
	case TT_SFPI_LE:
		return a <= b;
	case TT_SFPI_GT:
		return a > b;
	case TT_SFPI_GE:
		return a >= b;
	case TT_SFPI_EQ:
		return a == b;
	default: /* TT_SFPI_NE */
		return a != b;
	}
}

static float with_bits(float x, uint32_t keep, uint32_t set)
{
	uint32_t u;

	memcpy(&u, &x, 4);
	u = (u & keep) | set;
	memcpy(&x, &u, 4);
	return x;
}

/* x with its sign bit flipped (NaNs too, unlike some compilers' -x). */
static float sign_flipped(float x)
{
	uint32_t u;

	memcpy(&u, &x, 4);
	u ^= 0x80000000u;
	memcpy(&x, &u, 4);
	return x;
}

/* ---- decoding ---- */

struct insn {
	unsigned op, d, a, b, c, mode;
	uint32_t vec, imm;
};

/* Which R-form fields an opcode reads or writes: D, A, B, C. */
#define F_D 1u
#define F_A 2u
#define F_B 4u
#define F_C 8u

static const uint8_t r_fields[TT_SFPI_OP_COUNT] = {
	[TT_SFPI_MOV] = F_D | F_A,	  [TT_SFPI_ADD] = F_D | F_A | F_B,
	[TT_SFPI_SUB] = F_D | F_A | F_B, [TT_SFPI_MUL] = F_D | F_A | F_B,
	[TT_SFPI_MAD] = F_D | F_A | F_B | F_C,
	[TT_SFPI_ABS] = F_D | F_A,	  [TT_SFPI_NEG] = F_D | F_A,
	[TT_SFPI_MIN] = F_D | F_A | F_B, [TT_SFPI_MAX] = F_D | F_A | F_B,
	[TT_SFPI_CMP] = F_D | F_A | F_B, /* D is the condition */
	[TT_SFPI_PUSHC] = 0,		  [TT_SFPI_ELSE] = 0,
	[TT_SFPI_POPC] = 0,		  [TT_SFPI_RESET] = 0,
};

/* An R-form field: used fields in range, unused ones zero. */
static bool r_field(unsigned used, unsigned v, unsigned limit)
{
	return used ? v < limit : v == 0;
}

static enum tt_tx_err decode(const struct tx_cmd *c, uint32_t w,
			     struct insn *i)
{
	unsigned f;

	memset(i, 0, sizeof(*i));
	i->op = TT_FIELD_GET(TT_SFPI_OP_MASK, w);
	i->d = TT_FIELD_GET(TT_SFPI_D_MASK, w);
	switch (i->op) {
	case TT_SFPI_LOAD:
	case TT_SFPI_STORE:
		i->vec = TT_FIELD_GET(TT_SFPI_VEC_MASK, w);
		if (i->d >= TT_SFPI_LREGS)
			return TT_TX_ERR_OP;
		if (i->vec >= c->cap * TT_SFPI_TILE_VECS)
			return TT_TX_ERR_DST;
		return TT_TX_OK;
	case TT_SFPI_LOADI:
		i->mode = TT_FIELD_GET(TT_SFPI_MODE_MASK, w);
		i->imm = TT_FIELD_GET(TT_SFPI_IMM_MASK, w);
		if (i->d >= TT_SFPI_LREGS || i->mode > TT_SFPI_LOADI_HI16)
			return TT_TX_ERR_OP;
		return TT_TX_OK;
	default:
		break;
	}
	if (i->op == 0 || i->op >= TT_SFPI_OP_COUNT ||
	    TT_FIELD_GET(TT_SFPI_R_RSVD_MASK, w))
		return TT_TX_ERR_OP;
	f = r_fields[i->op];
	i->a = TT_FIELD_GET(TT_SFPI_A_MASK, w);
	i->b = TT_FIELD_GET(TT_SFPI_B_MASK, w);
	i->c = TT_FIELD_GET(TT_SFPI_C_MASK, w);
	if (!r_field(f & F_D, i->d,
		     i->op == TT_SFPI_CMP ? TT_SFPI_COND_COUNT : TT_SFPI_LREGS) ||
	    !r_field(f & F_A, i->a, TT_SFPI_LREGS) ||
	    !r_field(f & F_B, i->b, TT_SFPI_LREGS) ||
	    !r_field(f & F_C, i->c, TT_SFPI_LREGS))
		return TT_TX_ERR_OP;
	return TT_TX_OK;
}

/* ---- execution ---- */

/* DST vector v: 32 elements of tile v / 32 in face order. Returns the
 * tile; idx[l] is lane l's element, row-major. */
static float *dst_vector(struct tx_cmd *c, uint32_t v, uint16_t idx[32])
{
	unsigned k = v % TT_SFPI_TILE_VECS, face = k / TT_SFPI_FACE_VECS;
	unsigned row0 = (face / 2) * 16 + 2 * (k % TT_SFPI_FACE_VECS);
	unsigned col0 = (face % 2) * 16;

	for (unsigned l = 0; l < TT_SFPI_LANES; l++)
		idx[l] = (uint16_t)((row0 + l / 16) * TX_DIM + col0 + l % 16);
	return tx_dst(c, v / TT_SFPI_TILE_VECS, 1);
}

static void load_store(struct tx_cmd *c, struct tx_sfpi *s,
		       const struct insn *i)
{
	uint16_t idx[TT_SFPI_LANES], wrote[TT_SFPI_LANES];
	float *t = dst_vector(c, i->vec, idx), *r = s->lreg[i->d];
	unsigned n = 0;

	for (unsigned l = 0; l < TT_SFPI_LANES; l++) {
		if (!(s->enable >> l & 1))
			continue;
		if (i->op == TT_SFPI_LOAD) {
			r[l] = t[idx[l]];
		} else {
			t[idx[l]] = r[l];
			wrote[n++] = idx[l];
		}
	}
	if (i->op == TT_SFPI_STORE)
		tx_dst_written(c, i->vec / TT_SFPI_TILE_VECS, wrote, n);
}

static float lane_op(const struct insn *i, float a, float b, float cc,
		     float old)
{
	switch (i->op) {
	case TT_SFPI_LOADI:
		if (i->mode == TT_SFPI_LOADI_BF16)
			return with_bits(old, 0, i->imm << 16);
		if (i->mode == TT_SFPI_LOADI_LO16)
			return with_bits(old, 0xFFFF0000u, i->imm);
		return with_bits(old, 0xFFFFu, i->imm << 16);
	case TT_SFPI_MOV:
		return a;
	case TT_SFPI_ADD:
		return a + b;
	case TT_SFPI_SUB:
		return a - b;
	case TT_SFPI_MUL:
		return a * b;
	case TT_SFPI_MAD:
		return fmaf(a, b, cc);
	case TT_SFPI_ABS:
		return with_bits(a, 0x7FFFFFFFu, 0);
	case TT_SFPI_NEG:
		return sign_flipped(a);
	case TT_SFPI_MIN:
		return lane_min(a, b);
	default: /* TT_SFPI_MAX */
		return lane_max(a, b);
	}
}

/* A register-writing instruction, lane by lane under ENABLE. Sources are
 * read whole first, so D may be one of them. */
static void lanes(struct tx_sfpi *s, const struct insn *i)
{
	float a[TT_SFPI_LANES], b[TT_SFPI_LANES], cc[TT_SFPI_LANES];
	float *d = s->lreg[i->d];

	memcpy(a, s->lreg[i->a], sizeof(a));
	memcpy(b, s->lreg[i->b], sizeof(b));
	memcpy(cc, s->lreg[i->c], sizeof(cc));
	for (unsigned l = 0; l < TT_SFPI_LANES; l++)
		if (s->enable >> l & 1)
			d[l] = lane_op(i, a[l], b[l], cc[l], d[l]);
}

static enum tt_tx_err control(struct tx_sfpi *s, const struct insn *i)
{
	struct tx_sfpi_cc *top = s->depth ? &s->cc[s->depth - 1] : NULL;
	uint32_t m = 0;

	switch (i->op) {
	case TT_SFPI_PUSHC:
		if (s->depth == TT_SFPI_CC_DEPTH)
			return TT_TX_ERR_CC;
		s->cc[s->depth].outer = s->enable;
		s->cc[s->depth].taken = 0;
		s->depth++;
		return TT_TX_OK;
	case TT_SFPI_RESET:
		s->enable = ALL_LANES;
		s->depth = 0;
		return TT_TX_OK;
	default:
		break;
	}
	if (!top)
		return TT_TX_ERR_CC;
	switch (i->op) {
	case TT_SFPI_CMP:
		for (unsigned l = 0; l < TT_SFPI_LANES; l++)
			if (lane_cmp(i->d, s->lreg[i->a][l], s->lreg[i->b][l]))
				m |= 1u << l;
		s->enable &= m;
		break;
	case TT_SFPI_ELSE:
		top->taken |= s->enable;
		s->enable = top->outer & ~top->taken;
		break;
	default: /* TT_SFPI_POPC */
		s->enable = top->outer;
		s->depth--;
		break;
	}
	return TT_TX_OK;
}

enum tt_tx_err tx_sfpi(struct tx_cmd *c, uint32_t w)
{
	struct tx_sfpi *s = &c->node->sfpi;
	struct insn i;
	enum tt_tx_err e = decode(c, w, &i);

	if (e)
		return e;
	switch (i.op) {
	case TT_SFPI_LOAD:
	case TT_SFPI_STORE:
		load_store(c, s, &i);
		return TT_TX_OK;
	case TT_SFPI_PUSHC:
	case TT_SFPI_CMP:
	case TT_SFPI_ELSE:
	case TT_SFPI_POPC:
	case TT_SFPI_RESET:
		return control(s, &i);
	case TT_SFPI_ADD:
	case TT_SFPI_SUB:
	case TT_SFPI_MUL:
	case TT_SFPI_MAD:
		c->macs = TT_SFPI_LANES;
		break;
	default:
		break;
	}
	lanes(s, &i);
	return TT_TX_OK;
}
