/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internals of the tile coprocessor, shared by tensix.c (registers, state,
 * command dispatch), tx_operand.c (numerics and operands), tx_fpu.c
 * (unpack, element-wise, reduce, pack), tx_matmul.c (matrix blocks),
 * sfpu.c (the vector unit's functions) and sfpi.c (its instructions). Not
 * used elsewhere.
 *
 * DST tiles are kept as 1024 floats each in row-major (r, c) order,
 * whatever the mode; in 16-bit mode every value written is rounded to
 * bfloat16 (or half) first, so the floats hold exactly what the hardware
 * would. Tiles in L1 are in face order and any data format; conversions
 * are common/dataformat.h's.
 */
#ifndef TT_SIM_TENSIX_IMPL_H
#define TT_SIM_TENSIX_IMPL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/dataformat.h"
#include "hw/sfpi.h"
#include "hw/tensix.h"

#define TX_ELEMS DF_TILE_ELEMS
#define TX_DIM DF_TILE_DIM

/* The vector unit's instruction state (hw/sfpi.h). */
struct tx_sfpi_cc {
	uint32_t outer, taken; /* lane masks */
};

struct tx_sfpi {
	float lreg[TT_SFPI_LREGS][TT_SFPI_LANES];
	uint32_t enable; /* lane-enable mask */
	unsigned depth; /* condition stack entries in use */
	struct tx_sfpi_cc cc[TT_SFPI_CC_DEPTH];
};

/* One node's coprocessor state (private memory). */
struct tx_node {
	pthread_mutex_t lock; /* held while a command runs */
	float *dst; /* TT_DST_TILES_16 tiles; NULL until the first command */
	uint32_t zeroed; /* bit d: DST[d] zeroed and not written since */
	struct tx_sfpi sfpi;
};

/* One command being run: the operand registers as they were when CMD was
 * written, the decoded command and the configuration. */
struct tx_cmd {
	struct tx_node *node;
	uint8_t *l1; /* the node's L1, l1_size bytes from local address 0 */
	uint64_t l1_size;
	uint32_t a_addr, a_fmt, b_addr, b_fmt, out_addr, out_fmt, dst;
	uint32_t arg[4];
	unsigned op, sub, flags;
	unsigned cap; /* DST tiles in this mode */
	bool fp32; /* CFG.FP32_DST */
	bool approx; /* CFG.APPROX */
	unsigned fidelity; /* enum tt_tx_fidelity */
	/* Results besides DST. */
	uint64_t macs; /* for TT_TX_FLOPS */
	bool wrote_l1; /* PACK: L1 changed */
};

/* ---- tensix.c: DST ---- */

/* Tile d of DST, if d + n <= the capacity (n >= 1). */
float *tx_dst(struct tx_cmd *c, uint32_t d, uint32_t n);

/* Values were written to DST[d] at the elements listed (all 1024 if idx
 * is NULL): round them to DST's precision and mark the tile written. */
void tx_dst_written(struct tx_cmd *c, uint32_t d, const uint16_t *idx,
		    unsigned n);

/* Does DST[d] count as zeroed (REDUCE MAX)? */
bool tx_dst_zeroed(const struct tx_cmd *c, uint32_t d);

/* ---- tx_operand.c: numerics and operands shared by the units ---- */

#define TX_TF32_BITS 10u /* mantissa bits of the source registers */

/* x keeping only the top `bits` of its mantissa; inf and NaN unchanged. */
static inline float tx_keep(float x, unsigned bits)
{
	uint32_t u;

	memcpy(&u, &x, 4);
	if ((u & 0x7F800000u) != 0x7F800000u)
		u &= ~((1u << (23 - bits)) - 1);
	memcpy(&x, &u, 4);
	return x;
}

/* B's bits 7..10 (B10 - B6), exact; 0 for inf and NaN, whose B6 carries
 * them whole. */
static inline float tx_b_low(float b)
{
	float d = tx_keep(b, 10) - tx_keep(b, 6);

	return d == d ? d : 0.0f;
}

/* Mantissa bits of A and B in the multiplier's first pass; HiFi3 adds a
 * second, A4 x (B10 - B6). */
struct tx_passes {
	unsigned a_bits, b_bits;
	bool second;
};

/* The passes of fidelity fid (enum tt_tx_fidelity); false for a value
 * that is no fidelity. */
bool tx_fidelity(unsigned fid, struct tx_passes *p);

/* a x b as the multiplier computes it (a, b already TF32). */
static inline float tx_fid_mul(float a, float b, const struct tx_passes *p)
{
	float v = tx_keep(a, p->a_bits) * tx_keep(b, p->b_bits);

	return p->second ? v + tx_keep(a, 4) * tx_b_low(b) : v;
}

/* Is [addr, addr + len) inside the node's L1? */
bool tx_in_l1(const struct tx_cmd *c, uint64_t addr, uint64_t len);

/* Is fmt a format the model converts? */
bool tx_fmt_ok(uint32_t fmt);

/* Checks of a tile operand at addr in fmt: TT_TX_ERR_FORMAT,
 * TT_TX_ERR_ADDR or TT_TX_OK. */
enum tt_tx_err tx_tile_check(const struct tx_cmd *c, uint32_t addr,
			     uint32_t fmt);

/* The checked tile at L1 address addr as 1024 floats, row-major. */
void tx_tile_load(const struct tx_cmd *c, uint64_t addr, uint32_t fmt,
		  float *out);

/* A tile into a source register: TF32. */
void tx_to_src(float *t);

/* dst = src transposed (32x32, row-major). */
void tx_transpose(float *dst, const float *src);

/* ---- tx_fpu.c: unpack, element-wise, reduce, pack ---- */

enum tt_tx_err tx_copy(struct tx_cmd *c);
enum tt_tx_err tx_eltwise(struct tx_cmd *c);
enum tt_tx_err tx_reduce(struct tx_cmd *c);
enum tt_tx_err tx_pack(struct tx_cmd *c);
enum tt_tx_err tx_tilize(struct tx_cmd *c);

/* ---- tx_matmul.c: matrix blocks ---- */

enum tt_tx_err tx_matmul(struct tx_cmd *c);

/* ---- sfpu.c: the vector unit ---- */

enum tt_tx_err tx_sfpu(struct tx_cmd *c);
enum tt_tx_err tx_sfpu_binary(struct tx_cmd *c);

/* One of the vector unit's functions over a tile: d[i] = f(d[i], p). */
typedef void (*tx_tile_fn)(float *d, float p);

/* sfpu_vec.c: function `sub` (enum tt_tx_sfpu) on host vector math, or
 * NULL where the host or the build has none for it. */
tx_tile_fn tx_sfpu_vec(unsigned sub);

/* ---- sfpi.c: the vector unit's instructions ---- */

/* The state after a chip reset: registers 0, all lanes enabled. */
void tx_sfpi_reset(struct tx_sfpi *s);

/* Run instruction word w (TT_TX_SFPI); nothing changes unless TT_TX_OK. */
enum tt_tx_err tx_sfpi(struct tx_cmd *c, uint32_t w);

#endif /* TT_SIM_TENSIX_IMPL_H */
