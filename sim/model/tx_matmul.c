// SPDX-License-Identifier: Apache-2.0
/*
 * The matrix unit on blocks (TT_TX_MATMUL): for r < RT, c < CT,
 * DST[d + r*CT + c] += sum over k < KT of A(r, k) x B(k, c).
 *
 * One command is one GEMM (gemm.h): A's block is untilized into a
 * row-major matrix (m x k), B's into another (k x n), each truncated to
 * the bits the multiplier sees at the configured fidelity (which implies
 * TF32), and C = A x B is added to the DST tiles, then rounded once to
 * DST's precision. HiFi3's second pass, A4 x (B10 - B6), is a second GEMM
 * into the same C. Operands that are all bfloat16 values multiply on the
 * host's AMX unit (sim_gemm_bf16), the others in fp32 (sim_gemm).
 */
#include <string.h>

#include "gemm.h"
#include "scratch.h"
#include "tensix_impl.h"

struct block {
	unsigned rt, ct, kt;
	size_t m, n, k; /* in elements */
};

/* Size and stride checks; the block in *b. */
static enum tt_tx_err matmul_args(const struct tx_cmd *c, struct block *b)
{
	uint32_t a0 = c->arg[0];

	b->rt = a0 & 0xFF;
	b->ct = a0 >> 8 & 0xFF;
	b->kt = a0 >> 16 & 0xFF;
	if (!b->rt || !b->ct || !b->kt || a0 >> 24)
		return TT_TX_ERR_ARG;
	/* Overlapping rows of a block are a kernel's mistake. */
	if ((b->rt > 1 && c->arg[1] < b->kt) ||
	    (b->kt > 1 && c->arg[2] < b->ct))
		return TT_TX_ERR_ARG;
	b->m = (size_t)b->rt * TX_DIM;
	b->n = (size_t)b->ct * TX_DIM;
	b->k = (size_t)b->kt * TX_DIM;
	return TT_TX_OK;
}

/* The last tile of a rows x cols block at addr with a row stride. */
static enum tt_tx_err block_check(const struct tx_cmd *c, uint32_t addr,
				  uint32_t fmt, unsigned rows, unsigned cols,
				  uint32_t stride)
{
	uint64_t tb, last;

	if (!tx_fmt_ok(fmt))
		return TT_TX_ERR_FORMAT;
	tb = df_tile_bytes((enum df_format)fmt);
	last = ((uint64_t)(rows - 1) * stride + cols - 1) * tb;
	return tx_in_l1(c, addr + last, tb) ? TT_TX_OK : TT_TX_ERR_ADDR;
}

/* A rows x cols block of tiles (rows `stride` tiles apart; a block row's
 * tiles are adjacent) as one row-major matrix, cols * 32 wide. */
static void unpack_block(const struct tx_cmd *c, uint32_t addr, uint32_t fmt,
			 unsigned rows, unsigned cols, uint32_t stride,
			 float *out)
{
	enum df_format f = (enum df_format)fmt;
	uint64_t tb = df_tile_bytes(f);
	size_t w = (size_t)cols * TX_DIM;

	for (unsigned r = 0; r < rows; r++)
		df_untilize_convert(DF_FLOAT32, out + r * TX_DIM * w,
				    sizeof(float) * TX_DIM * w, f,
				    c->l1 + addr + (uint64_t)r * stride * tb,
				    cols * tb, TX_DIM, w);
}

/* Every 32x32 tile of a row-major matrix (rows x cols tiles) transposed
 * in place. */
static void transpose_tiles(float *m, unsigned rows, unsigned cols)
{
	size_t w = (size_t)cols * TX_DIM;

	for (unsigned tr = 0; tr < rows; tr++) {
		for (unsigned tc = 0; tc < cols; tc++) {
			float *t = m + (size_t)tr * TX_DIM * w + tc * TX_DIM;

			for (unsigned i = 0; i < TX_DIM; i++) {
				for (unsigned j = i + 1; j < TX_DIM; j++) {
					float x = t[i * w + j];

					t[i * w + j] = t[j * w + i];
					t[j * w + i] = x;
				}
			}
		}
	}
}

/* Fraction bits (after the leading one) a value unpacked from fmt can
 * have: keeping at least that many changes nothing. */
static unsigned frac_bits(uint32_t fmt)
{
	switch (fmt) {
	case DF_FLOAT16_B:
		return 7;
	case DF_BFP8_B:
	case DF_INT8:
		return 6;
	case DF_BFP4_B:
		return 2;
	case DF_BFP2_B:
		return 0;
	case DF_UINT8:
		return 7;
	case DF_FLOAT16:
		return 10;
	case DF_UINT16:
		return 15;
	default: /* Float32, Int32, UInt32 */
		return 23;
	}
}

static inline uint32_t mant_mask(unsigned bits)
{
	return ~((1u << (23 - bits)) - 1);
}

/* dst = src keeping `bits` mantissa bits (inf, NaN unchanged), n a
 * multiple of 32; runs of 32 so that the loop vectorises. dst may be
 * src. */
static void trunc_to(float *dst, const float *src, size_t n, unsigned bits)
{
	uint32_t mask = mant_mask(bits), u[TX_DIM];

	for (size_t i = 0; i < n; i += TX_DIM) {
		memcpy(u, src + i, sizeof(u));
		for (unsigned j = 0; j < TX_DIM; j++) {
			bool special = (u[j] & 0x7F800000u) == 0x7F800000u;

			u[j] &= special ? ~0u : mask;
		}
		memcpy(dst + i, u, sizeof(u));
	}
}

/* dst = B10 - B6 of src (exact; 0 for inf and NaN), n a multiple of 32. */
static void low_bits(float *dst, const float *src, size_t n)
{
	uint32_t u[TX_DIM], hi[TX_DIM], lo[TX_DIM];
	float fh[TX_DIM], fl[TX_DIM];

	for (size_t i = 0; i < n; i += TX_DIM) {
		memcpy(u, src + i, sizeof(u));
		for (unsigned j = 0; j < TX_DIM; j++) {
			bool special = (u[j] & 0x7F800000u) == 0x7F800000u;

			hi[j] = special ? 0 : u[j] & mant_mask(10);
			lo[j] = special ? 0 : u[j] & mant_mask(6);
		}
		memcpy(fh, hi, sizeof(fh));
		memcpy(fl, lo, sizeof(fl));
		for (unsigned j = 0; j < TX_DIM; j++)
			dst[i + j] = fh[j] - fl[j];
	}
}

/* d[0..32) += s[0..32); distinct arrays, so the loop vectorises. */
static void add_row(float *restrict d, const float *restrict s)
{
	for (unsigned j = 0; j < TX_DIM; j++)
		d[j] += s[j];
}

/* DST[d + r*CT + c] += the (r, c) tile of the product. */
static void matmul_out(struct tx_cmd *c, const struct block *b, float *d,
		       const float *prod)
{
	for (unsigned r = 0; r < b->rt; r++) {
		for (unsigned col = 0; col < b->ct; col++) {
			unsigned tile = r * b->ct + col;
			float *t = d + (size_t)tile * TX_ELEMS;
			const float *s = prod + (size_t)r * TX_DIM * b->n +
					 col * TX_DIM;

			for (unsigned i = 0; i < TX_DIM; i++, s += b->n)
				add_row(t + i * TX_DIM, s);
			tx_dst_written(c, c->dst + tile, NULL, 0);
		}
	}
}

/*
 * The operands as the multiplier sees them, into scratch: A's block is
 * one row-major matrix (m x k), B's another (k x n), each truncated to
 * the first pass's bits (which implies TF32) unless its format has no
 * more; HiFi3 adds A4 and B's low bits behind them.
 */
static bool matmul_operands(const struct tx_cmd *c, const struct block *b,
			    const struct tx_passes *p, float **a, float **bm)
{
	size_t na = b->m * b->k, nb = b->k * b->n, np = p->second ? 2 : 1;

	*a = sim_scratch(SIM_SCRATCH_TX_A, sizeof(float) * na * np);
	*bm = sim_scratch(SIM_SCRATCH_TX_B, sizeof(float) * nb * np);
	if (!*a || !*bm)
		return false;
	unpack_block(c, c->a_addr, c->a_fmt, b->rt, b->kt, c->arg[1], *a);
	unpack_block(c, c->b_addr, c->b_fmt, b->kt, b->ct, c->arg[2], *bm);
	if (c->flags & TT_TX_F_TRANSPOSE)
		transpose_tiles(*bm, b->kt, b->ct);
	if (p->second) {
		trunc_to(*a + na, *a, na, 4);
		low_bits(*bm + nb, *bm, nb);
	}
	if (frac_bits(c->a_fmt) > p->a_bits)
		trunc_to(*a, *a, na, p->a_bits);
	if (frac_bits(c->b_fmt) > p->b_bits)
		trunc_to(*bm, *bm, nb, p->b_bits);
	return true;
}

/* Whether the multiplier's operands have at most bfloat16's 7 fraction
 * bits: bfloat16 and block-float inputs, or a fidelity that keeps no
 * more. (HiFi3's second pass always does: A4 and B10 - B6.) */
static bool bf16_operands(const struct tx_cmd *c, const struct tx_passes *p)
{
	unsigned a = frac_bits(c->a_fmt), b = frac_bits(c->b_fmt);

	return (a < p->a_bits ? a : p->a_bits) <= 7 &&
	       (b < p->b_bits ? b : p->b_bits) <= 7;
}

/* prod += a x bm: in bfloat16 on the host's tile unit where the operands
 * allow it (sim_gemm_bf16 checks every value), else in fp32. */
static int gemm(const struct block *b, bool bf16, const float *a,
		const float *bm, float *prod)
{
	if (bf16 && !sim_gemm_bf16(b->m, b->n, b->k, a, bm, prod))
		return 0;
	return sim_gemm(b->m, b->n, b->k, a, b->k, bm, b->n, prod, b->n);
}

enum tt_tx_err tx_matmul(struct tx_cmd *c)
{
	struct tx_passes p;
	struct block b;
	enum tt_tx_err e;
	float *d, *a, *bm, *prod;
	int ret;

	if (c->sub || (c->flags & ~TT_TX_F_TRANSPOSE))
		return TT_TX_ERR_OP;
	if (!tx_fidelity(c->fidelity, &p))
		return TT_TX_ERR_ARG;
	e = matmul_args(c, &b);
	if (e)
		return e;
	d = tx_dst(c, c->dst, b.rt * b.ct);
	if (!d)
		return TT_TX_ERR_DST;
	e = block_check(c, c->a_addr, c->a_fmt, b.rt, b.kt, c->arg[1]);
	if (!e)
		e = block_check(c, c->b_addr, c->b_fmt, b.kt, b.ct, c->arg[2]);
	if (e)
		return e;
	prod = sim_scratch(SIM_SCRATCH_TX_C, sizeof(float) * b.m * b.n);
	/* Out of host memory for the block: as if the block were too big. */
	if (!prod || !matmul_operands(c, &b, &p, &a, &bm))
		return TT_TX_ERR_ARG;
	memset(prod, 0, sizeof(float) * b.m * b.n);
	ret = gemm(&b, bf16_operands(c, &p), a, bm, prod);
	if (!ret && p.second)
		ret = gemm(&b, true, a + b.m * b.k, bm + b.k * b.n, prod);
	if (ret)
		return TT_TX_ERR_ARG;
	matmul_out(c, &b, d, prod);
	c->macs = (uint64_t)TX_ELEMS * TX_DIM * b.rt * b.ct * b.kt;
	return TT_TX_OK;
}
