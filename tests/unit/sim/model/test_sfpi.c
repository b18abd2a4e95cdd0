// SPDX-License-Identifier: Apache-2.0
/*
 * The vector unit's instructions (hw/sfpi.h, TT_TX_SFPI), driven from the
 * host through libtt's register accesses on a blank embedded n150
 * (TT_FIRMWARE=/dev/null), from a hand-assembled hart program, and on a
 * chip made directly for the reset case.
 *
 * DST tiles are set through a Float32 tile and COPY in fp32 mode and read
 * back through a Float32 PACK, both exact, so every lane is compared bit
 * for bit with a host reference computed in the same fp32 operations.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "common/dataformat.h"
#include "common/soc_desc.h"
#include "common/tile_io.h"
#include "hw/sfpi.h"
#include "lib/kbuild/kbuild.h"
#include "rv32asm.h"
#include "sim/model/chip.h"
#include "sim/model/device.h"
#include "testutil.h"

#define OUT_ADDR 0xC0000u
#define SET_ADDR 0xE0000u
#define PROG_ADDR 0x70000u
#define TX(off) (TT_REG_TENSIX_ADDR + (off))
#define E 1024u /* elements per tile */
#define V TT_SFPI_TILE_VECS

/* Instruction words, short. */
#define R(op, d, a, b, c) TT_SFPI_R(TT_SFPI_##op, d, a, b, c)
#define LOAD(r, vec) TT_SFPI_M(TT_SFPI_LOAD, r, vec)
#define STORE(r, vec) TT_SFPI_M(TT_SFPI_STORE, r, vec)
#define LOADI(d, mode, imm) TT_SFPI_I(TT_SFPI_LOADI, d, TT_SFPI_LOADI_##mode, imm)
#define CMP(cond, a, b) R(CMP, TT_SFPI_##cond, a, b, 0)
#define PUSHC R(PUSHC, 0, 0, 0, 0)
#define ELSE R(ELSE, 0, 0, 0, 0)
#define POPC R(POPC, 0, 0, 0, 0)
#define RESET R(RESET, 0, 0, 0, 0)

struct fx {
	tt_device *dev;
	struct tt_xy c;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	setenv("TT_TRANSPORT", "embedded", 1);
	unsetenv("TT_SIM_BOARD");
	if (!f || tt_device_open(0, &f->dev)) {
		free(f);
		return -1;
	}
	if (tt_device_tensix_core(f->dev, 0, &f->c))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	tt_device_close(f->dev);
	free(f);
	return 0;
}

/* ---- registers ---- */

static void wr(struct fx *f, unsigned off, uint32_t v)
{
	assert_int_equal(tt_noc_write32(f->dev, 0, f->c.x, f->c.y, TX(off), v),
			 0);
}

static uint32_t rd(struct fx *f, unsigned off)
{
	uint32_t v = 0xDEADBEEF;

	assert_int_equal(tt_noc_read32(f->dev, 0, f->c.x, f->c.y, TX(off), &v),
			 0);
	return v;
}

static uint64_t rd64(struct fx *f, unsigned lo)
{
	return rd(f, lo) | (uint64_t)rd(f, lo + 4) << 32;
}

static void cfg(struct fx *f, bool fp32)
{
	wr(f, TT_TX_CFG, (fp32 ? TT_TX_CFG_FP32_DST : 0) |
				 TT_FIELD_PREP(TT_TX_CFG_FIDELITY_MASK, 4));
}

static void run_cmd(struct fx *f, unsigned op)
{
	if (tt_noc_write32(f->dev, 0, f->c.x, f->c.y, TX(TT_TX_CMD),
			   TT_TX_COMMAND(op, 0, 0)))
		fail_msg("command %u refused (status %u)", op,
			 rd(f, TT_TX_STATUS));
}

/* One instruction that must run. */
static void sfpi(struct fx *f, uint32_t w)
{
	if (tt_noc_write32(f->dev, 0, f->c.x, f->c.y, TX(TT_TX_SFPI), w))
		fail_msg("instruction %#x refused (status %u): %s", w,
			 rd(f, TT_TX_STATUS), tt_last_error());
	assert_int_equal(rd(f, TT_TX_STATUS), TT_TX_OK);
}

static void sfpi_all(struct fx *f, const uint32_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sfpi(f, w[i]);
}

#define SFPI_ALL(f, ...)                                                  \
	sfpi_all(f, (const uint32_t[]){ __VA_ARGS__ },                   \
		 sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t))

static void drain_errors(struct fx *f)
{
	struct tt_device_error errs[16];

	while (tt_device_errors(f->dev, errs, 16) > 0)
		;
}

/* A refused instruction: the write fails, STATUS says why, the error log
 * names the instruction register, nothing is counted. */
static void sfpi_err(struct fx *f, uint32_t w, enum tt_tx_err want)
{
	struct tt_device_error errs[8];
	uint64_t ops = rd64(f, TT_TX_OPS_LO);

	drain_errors(f);
	if (tt_noc_write32(f->dev, 0, f->c.x, f->c.y, TX(TT_TX_SFPI), w) !=
	    -EFAULT)
		fail_msg("instruction %#x was not refused", w);
	if (rd(f, TT_TX_STATUS) != want)
		fail_msg("instruction %#x: status %u, expected %u", w,
			 rd(f, TT_TX_STATUS), want);
	assert_int_equal(tt_device_errors(f->dev, errs, 8), 1);
	assert_int_equal(errs[0].code, TT_DEV_ERR_BAD_CMD);
	assert_non_null(strstr(errs[0].message, "0xffb1604c"));
	assert_int_equal(rd64(f, TT_TX_OPS_LO), ops);
}

/* ---- DST tiles, row-major, exact ---- */

static void put_tile(struct fx *f, uint32_t addr, const float *v)
{
	uint8_t buf[4096];

	assert_int_equal(df_tilize_convert(DF_FLOAT32, buf, sizeof(buf),
					   DF_FLOAT32, v, sizeof(float) * E, 32,
					   32),
			 0);
	assert_int_equal(tt_noc_write(f->dev, 0, f->c.x, f->c.y, addr, buf,
				      sizeof(buf)),
			 0);
}

static void set_dst(struct fx *f, unsigned d, const float *v)
{
	put_tile(f, SET_ADDR, v);
	wr(f, TT_TX_A_ADDR, SET_ADDR);
	wr(f, TT_TX_A_FMT, DF_FLOAT32);
	wr(f, TT_TX_DST, d);
	run_cmd(f, TT_TX_COPY);
}

static void get_dst(struct fx *f, unsigned d, float *out)
{
	uint8_t buf[4096];

	wr(f, TT_TX_DST, d);
	wr(f, TT_TX_OUT_ADDR, OUT_ADDR);
	wr(f, TT_TX_OUT_FMT, DF_FLOAT32);
	run_cmd(f, TT_TX_PACK);
	assert_int_equal(tt_noc_read(f->dev, 0, f->c.x, f->c.y, OUT_ADDR, buf,
				     sizeof(buf)),
			 0);
	assert_int_equal(df_untilize_convert(DF_FLOAT32, out, sizeof(float) * E,
					     DF_FLOAT32, buf, sizeof(buf), 32,
					     32),
			 0);
}

static uint32_t bits(float x)
{
	uint32_t u;

	memcpy(&u, &x, 4);
	return u;
}

static float from_bits(uint32_t u)
{
	float x;

	memcpy(&x, &u, 4);
	return x;
}

/* Bit for bit, but any NaN matches any NaN. */
static bool same(float a, float b)
{
	return bits(a) == bits(b) || (a != a && b != b);
}

static void expect_tile(const float *got, const float *want, const char *what)
{
	for (unsigned i = 0; i < E; i++)
		if (!same(got[i], want[i]))
			fail_msg("%s: element (%u,%u) is %.9g (%#x), expected %.9g (%#x)",
				 what, i / 32, i % 32, got[i], bits(got[i]),
				 want[i], bits(want[i]));
}

static unsigned seed = 4242;

static float urand(float lo, float hi)
{
	seed = seed * 1103515245u + 12345u;
	return lo + (hi - lo) * (float)((seed >> 8) & 0xFFFFFF) / 16777216.0f;
}

/* Random values, and at fixed places the values arithmetic gets wrong
 * most easily: signed zeros, infinities, NaN, subnormals, huge. */
static void fill(float *t, float lo, float hi)
{
	static const float special[] = { 0.0f, -0.0f, INFINITY, -INFINITY,
					 NAN, 1e-40f, -1e-40f, 3e38f,
					 -3e38f, 1.0f };

	for (unsigned i = 0; i < E; i++)
		t[i] = urand(lo, hi);
	for (unsigned i = 0; i < sizeof(special) / sizeof(special[0]); i++)
		t[i * 97 % E] = special[i];
}

/* Row-major index of lane l of vector v in a tile, from the face order
 * of hw/sfpi.h (element 32v + l in face order). */
static unsigned lane_elem(unsigned v, unsigned l)
{
	unsigned k = 32 * v + l, face = k / 256, in = k % 256;

	return ((face / 2) * 16 + in / 16) * 32 + (face % 2) * 16 + in % 16;
}

/* ---- tests ---- */

/* The register: writable, reads 0, counts OPS and FLOPS. */
static void test_register(void **state)
{
	struct fx *f = *state;
	uint64_t ops, flops;

	cfg(f, true);
	sfpi(f, RESET);
	ops = rd64(f, TT_TX_OPS_LO);
	flops = rd64(f, TT_TX_FLOPS_LO);
	sfpi(f, LOADI(0, BF16, 0x3F80));
	sfpi(f, R(ADD, 1, 0, 0, 0));
	sfpi(f, R(MAD, 1, 0, 0, 1));
	sfpi(f, R(ABS, 1, 1, 0, 0));
	assert_int_equal(rd(f, TT_TX_SFPI), 0);
	assert_int_equal(rd64(f, TT_TX_OPS_LO), ops + 4);
	assert_int_equal(rd64(f, TT_TX_FLOPS_LO), flops + 64);
	/* The register after it is still read-only. */
	assert_int_equal(tt_noc_write32(f->dev, 0, f->c.x, f->c.y,
					TX(TT_TX_SFPI + 4), 1),
			 -EFAULT);
}

/* LOAD and STORE move vectors in face order; a tile copied vector by
 * vector is the same tile. */
static void test_load_store_layout(void **state)
{
	struct fx *f = *state;
	float t[E], got[E], want[E];

	cfg(f, true);
	sfpi(f, RESET);
	for (unsigned i = 0; i < E; i++)
		t[i] = (float)i;
	set_dst(f, 1, t);
	/* Each vector of tile 1 to vector 0 of tile 2: its lanes are the
	 * elements hw/sfpi.h names. */
	for (unsigned v = 0; v < V; v++) {
		sfpi(f, LOAD(3, V + v));
		sfpi(f, STORE(3, 2 * V));
		get_dst(f, 2, got);
		for (unsigned l = 0; l < TT_SFPI_LANES; l++)
			if (got[lane_elem(0, l)] != (float)lane_elem(v, l))
				fail_msg("vector %u lane %u holds %g, expected element %u",
					 v, l, got[lane_elem(0, l)],
					 lane_elem(v, l));
	}
	/* Tile 1 to tile 7 (the last in fp32 mode), whole. */
	fill(t, -100, 100);
	set_dst(f, 1, t);
	for (unsigned v = 0; v < V; v++) {
		sfpi(f, LOAD(v % 8, V + v));
		sfpi(f, STORE(v % 8, 7 * V + v));
	}
	get_dst(f, 7, got);
	memcpy(want, t, sizeof(want));
	expect_tile(got, want, "tile copied by vectors");
}

/* LOADI's three modes, exact bits. */
static void test_loadi(void **state)
{
	struct fx *f = *state;
	float got[E];

	cfg(f, true);
	sfpi(f, RESET);
	SFPI_ALL(f, LOADI(0, BF16, 0x4049), STORE(0, 0));
	get_dst(f, 0, got);
	assert_int_equal(bits(got[0]), 0x40490000u);
	assert_int_equal(bits(got[lane_elem(0, 31)]), 0x40490000u);
	assert_int_equal(bits(got[lane_elem(1, 0)]), 0); /* not vector 1 */
	SFPI_ALL(f, LOADI(0, LO16, 0x0FDB), STORE(0, 0)); /* pi */
	get_dst(f, 0, got);
	assert_int_equal(bits(got[0]), bits(3.14159274f));
	SFPI_ALL(f, LOADI(0, HI16, 0xC049), STORE(0, 0)); /* -pi */
	get_dst(f, 0, got);
	assert_int_equal(bits(got[0]), bits(-3.14159274f));
	SFPI_ALL(f, LOADI(5, BF16, 0xFFFF), LOADI(5, HI16, 0x0000),
		 LOADI(5, LO16, 0x0001), STORE(5, 0)); /* smallest subnormal */
	get_dst(f, 0, got);
	assert_int_equal(bits(got[33]), 1u);
}

static float ref_min(float a, float b)
{
	if (a != a)
		return b;
	if (b != b)
		return a;
	if (a == b)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

static float ref_max(float a, float b)
{
	if (a != a)
		return b;
	if (b != b)
		return a;
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

/* Every arithmetic opcode on whole tiles, against fp32 on the host. */
static void test_arithmetic(void **state)
{
	struct fx *f = *state;
	static float a[E], b[E], c[E], got[E], want[E];
	static const struct {
		unsigned op;
		const char *name;
	} ops[] = {
		{ TT_SFPI_MOV, "MOV" }, { TT_SFPI_ADD, "ADD" },
		{ TT_SFPI_SUB, "SUB" }, { TT_SFPI_MUL, "MUL" },
		{ TT_SFPI_MAD, "MAD" }, { TT_SFPI_ABS, "ABS" },
		{ TT_SFPI_NEG, "NEG" }, { TT_SFPI_MIN, "MIN" },
		{ TT_SFPI_MAX, "MAX" },
	};

	cfg(f, true);
	sfpi(f, RESET);
	fill(a, -1e3f, 1e3f);
	fill(b, -1e3f, 1e3f);
	fill(c, -1e6f, 1e6f);
	/* Lanes where b and a meet a special value, and a MAD that only a
	 * fused multiply-add gets right: (1 + 2^-12)^2 - (1 + 2^-11) is
	 * 2^-24, 0 when the product is rounded first. */
	for (unsigned i = 0; i < 10; i++)
		b[(i * 97 + 5) % E] = a[i * 97 % E];
	b[1] = -0.0f;
	a[1] = 0.0f;
	b[3] = 0.0f;
	a[3] = -0.0f;
	a[2] = b[2] = 1.0f + 1.0f / 4096;
	c[2] = -(1.0f + 1.0f / 2048);
	set_dst(f, 0, a);
	set_dst(f, 1, b);
	set_dst(f, 2, c);
	for (unsigned k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		unsigned op = ops[k].op;
		bool unary = op == TT_SFPI_MOV || op == TT_SFPI_ABS ||
			     op == TT_SFPI_NEG;

		/* D = 7 reads A = 0, B = 1, C = 2; then in place: D = A. */
		for (unsigned v = 0; v < V; v++) {
			SFPI_ALL(f, LOAD(0, v), LOAD(1, V + v),
				 LOAD(2, 2 * V + v));
			sfpi(f, TT_SFPI_R(op, 7, 0, unary ? 0 : 1,
					  op == TT_SFPI_MAD ? 2 : 0));
			sfpi(f, STORE(7, 3 * V + v));
		}
		for (unsigned i = 0; i < E; i++) {
			float x = a[i], y = b[i], z = c[i];

			switch (op) {
			case TT_SFPI_MOV: want[i] = x; break;
			case TT_SFPI_ADD: want[i] = x + y; break;
			case TT_SFPI_SUB: want[i] = x - y; break;
			case TT_SFPI_MUL: want[i] = x * y; break;
			case TT_SFPI_MAD: want[i] = fmaf(x, y, z); break;
			case TT_SFPI_ABS: want[i] = from_bits(bits(x) & 0x7FFFFFFFu); break;
			case TT_SFPI_NEG: want[i] = from_bits(bits(x) ^ 0x80000000u); break;
			case TT_SFPI_MIN: want[i] = ref_min(x, y); break;
			default: want[i] = ref_max(x, y); break;
			}
		}
		/* The cases the reference must get as stated. */
		if (op == TT_SFPI_MAD)
			assert_true(want[2] == 1.0f / 16777216);
		if (op == TT_SFPI_MIN)
			assert_true(signbit(want[1]) && signbit(want[3]));
		if (op == TT_SFPI_MAX)
			assert_false(signbit(want[1]) || signbit(want[3]));
		get_dst(f, 3, got);
		expect_tile(got, want, ops[k].name);
	}
	/* A destination that is also a source. */
	SFPI_ALL(f, LOADI(4, BF16, 0x4000), R(MAD, 4, 4, 4, 4), STORE(4, 0));
	get_dst(f, 0, got);
	assert_true(got[0] == 6.0f); /* 2 * 2 + 2 */
}

/* 16-bit DST: STORE rounds to bfloat16 (nearest even), LOAD reads it. */
static void test_bf16_dst(void **state)
{
	struct fx *f = *state;
	float got[E];

	cfg(f, false);
	sfpi(f, RESET);
	/* 1 + 2^-8 + 2^-9 rounds up to 1 + 2^-7; 1 + 2^-8 (a tie) to 1. */
	SFPI_ALL(f, LOADI(0, BF16, 0x3F80), LOADI(0, LO16, 0xC000),
		 STORE(0, 5 * V), LOADI(1, BF16, 0x3F80),
		 LOADI(1, LO16, 0x8000), STORE(1, 5 * V + 1),
		 LOAD(2, 5 * V), R(SUB, 2, 2, 0, 0), STORE(2, 5 * V + 2));
	get_dst(f, 5, got);
	assert_int_equal(bits(got[lane_elem(0, 0)]), 0x3F810000u);
	assert_int_equal(bits(got[lane_elem(1, 3)]), 0x3F800000u);
	/* What LOAD read back is the rounded value: 2^-7 - 3 * 2^-9. */
	assert_true(got[lane_elem(2, 9)] == 1.0f / 512);
	/* Vectors of the last tile of the 16-bit DST exist. */
	sfpi(f, STORE(2, TT_DST_TILES_16 * V - 1));
	cfg(f, true);
}

/* Comparisons, masked writes, else-if chains and nesting, against the
 * same control flow per lane on the host. */
static void test_conditionals(void **state)
{
	struct fx *f = *state;
	static float x[E], y[E], got[E], want[E];

	cfg(f, true);
	sfpi(f, RESET);
	fill(x, -20, 20);
	for (unsigned i = 0; i < E; i += 7)
		if (fabsf(x[i]) < 100) /* equal to the thresholds at times */
			x[i] = (float)((int)x[i]);
	for (unsigned i = 0; i < E; i++)
		y[i] = 1000.0f + (float)i;
	set_dst(f, 0, x);
	set_dst(f, 1, y);
	/* L0 = x, L1 = 0, L2 = 10, L3 = 5;
	 * if (x < 0)        y = -1
	 * elif (x > 10)     y = 1
	 * elif (x == 5)     y = x * x     (MUL under the mask)
	 * else { if (x >= 2 && x <= 8) y = 2; else y = 3;  y = y + 100 }
	 * lanes not taken anywhere keep DST's y (none here, but STORE
	 * itself is masked below). */
	for (unsigned v = 0; v < V; v++) {
		SFPI_ALL(f, LOAD(0, v), LOAD(4, V + v), LOADI(1, BF16, 0),
			 LOADI(2, BF16, 0x4120), LOADI(3, BF16, 0x40A0),
			 LOADI(5, BF16, 0x4000), LOADI(6, BF16, 0x4100),
			 PUSHC, CMP(LT, 0, 1), LOADI(4, BF16, 0xBF80),
			 ELSE, CMP(GT, 0, 2), LOADI(4, BF16, 0x3F80),
			 ELSE, CMP(EQ, 0, 3), R(MUL, 4, 0, 0, 0),
			 ELSE,
			 PUSHC, CMP(GE, 0, 5), CMP(LE, 0, 6),
			 LOADI(4, BF16, 0x4000),
			 ELSE, LOADI(4, BF16, 0x4040),
			 POPC,
			 LOADI(7, BF16, 0x42C8), R(ADD, 4, 4, 7, 0),
			 POPC, STORE(4, 2 * V + v));
	}
	for (unsigned i = 0; i < E; i++) {
		float v = x[i], r;

		if (v < 0) {
			r = -1;
		} else if (v > 10) {
			r = 1;
		} else if (v == 5) {
			r = v * v;
		} else {
			r = v >= 2 && v <= 8 ? 2 : 3;
			r = r + 100;
		}
		want[i] = r;
	}
	get_dst(f, 2, got);
	expect_tile(got, want, "if/elseif/else, nested");

	/* A masked STORE writes only enabled lanes; NE and NaN. */
	set_dst(f, 3, y);
	for (unsigned v = 0; v < V; v++)
		SFPI_ALL(f, LOAD(0, v), LOADI(1, BF16, 0), PUSHC,
			 CMP(NE, 0, 1), STORE(0, 3 * V + v), POPC);
	for (unsigned i = 0; i < E; i++)
		want[i] = x[i] != 0.0f ? x[i] : y[i];
	get_dst(f, 3, got);
	expect_tile(got, want, "masked store, NE");
	assert_true(got[4 * 97] != got[4 * 97]); /* x was NaN there */
	assert_true(got[0] == y[0]); /* x was +0 there */
}

/* Each condition, NaN lanes included, against C's operators. */
static void test_every_condition(void **state)
{
	struct fx *f = *state;
	static float a[E], b[E], got[E], want[E];

	cfg(f, true);
	sfpi(f, RESET);
	fill(a, -3, 3);
	fill(b, -3, 3);
	for (unsigned i = 0; i < E; i += 3)
		b[i] = a[i];
	set_dst(f, 0, a);
	set_dst(f, 1, b);
	for (unsigned cond = 0; cond < TT_SFPI_COND_COUNT; cond++) {
		for (unsigned v = 0; v < V; v++)
			SFPI_ALL(f, LOAD(0, v), LOAD(1, V + v),
				 LOADI(2, BF16, 0), PUSHC,
				 TT_SFPI_R(TT_SFPI_CMP, cond, 0, 1, 0),
				 LOADI(2, BF16, 0x3F80), POPC,
				 STORE(2, 2 * V + v));
		for (unsigned i = 0; i < E; i++) {
			bool t;

			switch (cond) {
			case TT_SFPI_LT: t = a[i] < b[i]; break;
			case TT_SFPI_LE: t = a[i] <= b[i]; break;
			case TT_SFPI_GT: t = a[i] > b[i]; break;
			case TT_SFPI_GE: t = a[i] >= b[i]; break;
			case TT_SFPI_EQ: t = a[i] == b[i]; break;
			default: t = a[i] != b[i]; break;
			}
			want[i] = t ? 1.0f : 0.0f;
		}
		get_dst(f, 2, got);
		expect_tile(got, want, "condition");
	}
}

/* The stack: TT_SFPI_CC_DEPTH levels, over- and underflow refused and
 * harmless, RESET empties it. */
static void test_stack(void **state)
{
	struct fx *f = *state;
	float got[E];

	cfg(f, true);
	sfpi(f, RESET);
	drain_errors(f);
	sfpi_err(f, POPC, TT_TX_ERR_CC);
	sfpi_err(f, ELSE, TT_TX_ERR_CC);
	sfpi_err(f, CMP(LT, 0, 1), TT_TX_ERR_CC);
	/* Lane l of L0 = l (via DST), L1 = 16: each level keeps fewer. */
	for (unsigned l = 0; l < E; l++)
		got[l] = 0;
	set_dst(f, 1, got);
	set_dst(f, 2, got);
	for (unsigned l = 0; l < TT_SFPI_LANES; l++)
		got[lane_elem(0, l)] = (float)l;
	set_dst(f, 0, got);
	sfpi(f, LOAD(0, 0));
	sfpi(f, LOADI(2, BF16, 0));
	for (unsigned k = 0; k < TT_SFPI_CC_DEPTH; k++) {
		/* L1 = 31 - k: level k keeps lanes below it. */
		sfpi(f, PUSHC);
		sfpi(f, LOADI(1, BF16, bits(31.0f - (float)k) >> 16));
		sfpi(f, CMP(LT, 0, 1));
		sfpi(f, LOADI(3, BF16, 0x3F80));
		sfpi(f, R(ADD, 2, 2, 3, 0)); /* count the levels a lane is in */
	}
	sfpi_err(f, PUSHC, TT_TX_ERR_CC); /* full: refused, state kept */
	sfpi(f, STORE(2, V)); /* the innermost mask */
	for (unsigned k = 0; k < TT_SFPI_CC_DEPTH; k++)
		sfpi(f, POPC);
	sfpi(f, STORE(2, 2 * V)); /* all lanes again */
	sfpi_err(f, POPC, TT_TX_ERR_CC);
	get_dst(f, 1, got);
	for (unsigned l = 0; l < TT_SFPI_LANES; l++)
		assert_true(got[lane_elem(0, l)] ==
			    (l < 31 - (TT_SFPI_CC_DEPTH - 1) ? 8.0f : 0.0f));
	get_dst(f, 2, got);
	for (unsigned l = 0; l < TT_SFPI_LANES; l++) {
		unsigned levels = l < 24 ? 8 : 31 - l;

		assert_true(got[lane_elem(0, l)] == (float)levels);
	}
	/* RESET from deep inside: all lanes, empty stack. */
	SFPI_ALL(f, PUSHC, PUSHC, CMP(LT, 0, 2), RESET, LOADI(4, BF16, 0x4000),
		 STORE(4, 0));
	sfpi_err(f, POPC, TT_TX_ERR_CC);
	get_dst(f, 0, got);
	for (unsigned l = 0; l < TT_SFPI_LANES; l++)
		assert_true(got[lane_elem(0, l)] == 2.0f);
}

/* Bad encodings are refused with the right status and change nothing;
 * random words never bring the model down. */
static void test_hostile(void **state)
{
	struct fx *f = *state;
	static float before[4][E], after[E];
	static const struct {
		uint32_t w;
		enum tt_tx_err e;
	} bad[] = {
		{ 0, TT_TX_ERR_OP },
		{ TT_SFPI_OP_COUNT, TT_TX_ERR_OP },
		{ 0xFF, TT_TX_ERR_OP },
		{ R(ADD, 0, 1, 2, 0) | 1u << 24, TT_TX_ERR_OP }, /* reserved */
		{ R(ADD, 8, 1, 2, 0), TT_TX_ERR_OP },
		{ R(ADD, 0, 9, 2, 0), TT_TX_ERR_OP },
		{ R(ADD, 0, 1, 15, 0), TT_TX_ERR_OP },
		{ R(ADD, 0, 1, 2, 3), TT_TX_ERR_OP }, /* C unused */
		{ R(MAD, 0, 1, 2, 8), TT_TX_ERR_OP },
		{ R(MOV, 0, 1, 2, 0), TT_TX_ERR_OP }, /* B unused */
		{ R(ABS, 0, 1, 0, 1), TT_TX_ERR_OP },
		{ R(PUSHC, 1, 0, 0, 0), TT_TX_ERR_OP },
		{ R(POPC, 0, 0, 1, 0), TT_TX_ERR_OP },
		{ R(RESET, 0, 0, 0, 1), TT_TX_ERR_OP },
		{ R(ELSE, 0, 1, 0, 0), TT_TX_ERR_OP },
		{ R(CMP, TT_SFPI_COND_COUNT, 0, 1, 0), TT_TX_ERR_OP },
		{ R(CMP, TT_SFPI_LT, 0, 1, 2), TT_TX_ERR_OP },
		{ LOADI(0, BF16, 1) | 3u << 12, TT_TX_ERR_OP }, /* mode 3 */
		{ LOADI(8, BF16, 0), TT_TX_ERR_OP },
		{ LOAD(8, 0), TT_TX_ERR_OP },
		{ STORE(15, 0), TT_TX_ERR_OP },
		{ LOAD(0, TT_DST_TILES_32 * V), TT_TX_ERR_DST }, /* fp32 mode */
		{ STORE(0, TT_DST_TILES_32 * V), TT_TX_ERR_DST },
		{ STORE(0, 0xFFFFF), TT_TX_ERR_DST },
	};
	uint32_t w;
	unsigned ok = 0, refused = 0;

	cfg(f, true);
	sfpi(f, RESET);
	for (unsigned d = 0; d < 4; d++) {
		fill(before[d], -5, 5);
		set_dst(f, d, before[d]);
	}
	/* The registers hold DST 0's first vectors. */
	for (unsigned r = 0; r < TT_SFPI_LREGS; r++)
		sfpi(f, LOAD(r, r));
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		sfpi_err(f, bad[i].w, bad[i].e);
	/* Nothing changed: not DST, not a register, not the mask. */
	for (unsigned r = 0; r < TT_SFPI_LREGS; r++)
		sfpi(f, STORE(r, V + r));
	for (unsigned v = TT_SFPI_LREGS; v < V; v++)
		SFPI_ALL(f, LOAD(0, V + v), STORE(0, V + v));
	for (unsigned i = 0; i < TT_SFPI_LREGS * 32; i++)
		before[1][lane_elem(i / 32, i % 32)] =
			before[0][lane_elem(i / 32, i % 32)];
	for (unsigned d = 0; d < 4; d++) {
		get_dst(f, d, after);
		expect_tile(after, before[d], "after refused instructions");
	}
	/* The 16-bit DST has twice the vectors. */
	cfg(f, false);
	sfpi(f, LOAD(0, TT_DST_TILES_32 * V));
	sfpi_err(f, LOAD(0, TT_DST_TILES_16 * V), TT_TX_ERR_DST);
	cfg(f, true);
	/* Random words: each runs or is refused, with a defined status. */
	for (unsigned i = 0; i < 20000; i++) {
		seed = seed * 1103515245u + 12345u;
		w = seed ^ (seed << 7);
		if (i % 2 == 0) /* near valid: a small opcode, fields 0 or 1 */
			w = (w >> 24) % (TT_SFPI_OP_COUNT + 2) | (w & 0x00111100u);
		if (tt_noc_write32(f->dev, 0, f->c.x, f->c.y, TX(TT_TX_SFPI),
				   w) == 0) {
			ok++;
			continue;
		}
		refused++;
		switch (rd(f, TT_TX_STATUS)) {
		case TT_TX_ERR_OP:
		case TT_TX_ERR_DST:
		case TT_TX_ERR_CC:
			break;
		default:
			fail_msg("word %#x: status %u", w,
				 rd(f, TT_TX_STATUS));
		}
	}
	drain_errors(f);
	sfpi(f, RESET);
	print_message("# random words: %u ran, %u refused\n", ok, refused);
	assert_true(ok > 100 && refused > 100);
}

/* ---- from a hart ---- */

static void hart_wr(struct fx *f, unsigned off, uint32_t v)
{
	assert_int_equal(tt_noc_write32(f->dev, 0, f->c.x, f->c.y,
					TT_REG_HART_ADDR + off, v),
			 0);
}

static uint32_t hart_rd(struct fx *f, unsigned off)
{
	uint32_t v = 0;

	assert_int_equal(tt_noc_read32(f->dev, 0, f->c.x, f->c.y,
				       TT_REG_HART_ADDR + off, &v),
			 0);
	return v;
}

static void soft_reset(struct fx *f, uint32_t held)
{
	assert_int_equal(tt_noc_write32(f->dev, 0, f->c.x, f->c.y,
					TT_REG_TILE_CTRL_ADDR +
						TT_TILE_SOFT_RESET,
					held),
			 0);
}

static void wait_state(struct fx *f, unsigned h, uint32_t st)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (hart_rd(f, TT_HART_REG(h, TT_HART_STATE)) != st) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 5)
			fail_msg("hart %u: state %u, expected %u", h,
				 hart_rd(f, TT_HART_REG(h, TT_HART_STATE)), st);
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
}

/* The compute hart's instructions run; a bad one halts it with a store
 * access fault at TT_TX_SFPI, logged with the node as initiator. */
static void test_from_hart(void **state)
{
	struct fx *f = *state;
	const uint32_t prog[] = {
		RV_LI(10, TX(0)),
		RV_LI(11, LOADI(6, BF16, 0x4040)), /* 3.0 */
		RV_SW(11, 10, TT_TX_SFPI),
		RV_LI(11, STORE(6, V + 4)),
		RV_SW(11, 10, TT_TX_SFPI),
		RV_LI(11, R(ADD, 6, 6, 9, 0)), /* B = 9: refused */
		RV_SW(11, 10, TT_TX_SFPI),
		RV_EBREAK,
	};
	struct tt_device_error errs[4];
	float got[E];

	cfg(f, true);
	sfpi(f, RESET);
	soft_reset(f, TT_TILE_SOFT_RESET_ALL);
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++)
		wait_state(f, h, TT_HART_IN_RESET);
	drain_errors(f);
	assert_int_equal(tt_noc_write(f->dev, 0, f->c.x, f->c.y, PROG_ADDR,
				      prog, sizeof(prog)),
			 0);
	hart_wr(f, TT_HART_REG(2, TT_HART_RESET_PC), PROG_ADDR);
	soft_reset(f, TT_TILE_SOFT_RESET_ALL & ~tt_hart_reset_bit(2));
	wait_state(f, 2, TT_HART_HALTED);
	assert_int_equal(hart_rd(f, TT_HART_REG(2, TT_HART_FAULT_CAUSE)),
			 TT_HART_FAULT_STORE_ACCESS);
	assert_int_equal(hart_rd(f, TT_HART_REG(2, TT_HART_FAULT_ADDR)),
			 TX(TT_TX_SFPI));
	assert_int_equal(rd(f, TT_TX_STATUS), TT_TX_ERR_OP);
	assert_int_equal(tt_device_errors(f->dev, errs, 4), 1);
	assert_int_equal(errs[0].code, TT_DEV_ERR_BAD_CMD);
	assert_non_null(strstr(errs[0].message, "by node"));
	soft_reset(f, TT_TILE_SOFT_RESET_ALL);
	get_dst(f, 1, got);
	assert_true(got[lane_elem(4, 0)] == 3.0f);
	assert_true(got[lane_elem(4, 31)] == 3.0f);
}

/* ---- chip reset ---- */

static enum tt_dev_err dev_wr(struct sim_device *dev, uint64_t addr,
			      uint32_t v)
{
	struct sim_access a = { .op = TT_DEV_OP_WRITE, .x = 1, .y = 1,
				.init_x = TT_DEV_INITIATOR_HOST,
				.init_y = TT_DEV_INITIATOR_HOST,
				.addr = addr, .len = 4 };

	return sim_access(&dev->ctx, &a, &v);
}

static uint32_t dev_rd(struct sim_device *dev, uint64_t addr)
{
	struct sim_access a = { .op = TT_DEV_OP_READ, .x = 1, .y = 1,
				.init_x = TT_DEV_INITIATOR_HOST,
				.init_y = TT_DEV_INITIATOR_HOST,
				.addr = addr, .len = 4 };
	uint32_t v = 0xDEAD;

	assert_int_equal(sim_access(&dev->ctx, &a, &v), 0);
	return v;
}

/* A chip reset empties the condition stack, enables every lane and
 * zeroes the registers; a process that does not host the chip runs no
 * instructions. */
static void test_chip_reset(void **state)
{
	struct soc_desc *soc = malloc(sizeof(*soc));
	char err[SIM_ERR_LEN];
	struct sim_device *dev;
	struct sim_image *img2;
	struct sim_ctx ctx2 = { 0 };
	uint32_t w = RESET;
	struct sim_access a = { .op = TT_DEV_OP_WRITE, .x = 1, .y = 1,
				.init_x = TT_DEV_INITIATOR_HOST,
				.init_y = TT_DEV_INITIATOR_HOST,
				.addr = TX(TT_TX_SFPI), .len = 4 };

	(void)state;
	assert_non_null(soc);
	assert_int_equal(soc_desc_builtin("wormhole_b0_n150", soc, err,
					  sizeof(err)),
			 0);
	if (sim_device_create(soc, TT_HW_BOARD_N150, 0, 0, &dev, err))
		fail_msg("%s", err);
	dev_wr(dev, TX(TT_TX_CFG), TT_TX_CFG_FP32_DST);
	assert_int_equal(dev_wr(dev, TX(TT_TX_SFPI), LOADI(0, BF16, 0x3F80)),
			 0);
	assert_int_equal(dev_wr(dev, TX(TT_TX_SFPI), PUSHC), 0);
	assert_int_equal(dev_wr(dev, TX(TT_TX_SFPI), CMP(LT, 0, 1)), 0);
	/* No lane enabled now: this store writes nothing. */
	assert_int_equal(dev_wr(dev, TX(TT_TX_SFPI), STORE(0, 0)), 0);
	sim_chip_reset(dev, TT_ARC_RESET_FIRMWARE);
	assert_int_equal(dev_wr(dev, TX(TT_TX_SFPI), POPC), TT_DEV_ERR_BAD_CMD);
	assert_int_equal(dev_rd(dev, TX(TT_TX_STATUS)), TT_TX_ERR_CC);
	/* L1 reads 0 in every lane, L0 too, and all lanes store. */
	assert_int_equal(dev_wr(dev, TX(TT_TX_SFPI), LOADI(2, BF16, 0x3F80)),
			 0);
	assert_int_equal(dev_wr(dev, TX(TT_TX_SFPI), R(ADD, 2, 2, 0, 0)), 0);
	assert_int_equal(dev_wr(dev, TX(TT_TX_SFPI), STORE(2, 0)), 0);
	dev_wr(dev, TX(TT_TX_DST), 0);
	dev_wr(dev, TX(TT_TX_OUT_ADDR), OUT_ADDR);
	dev_wr(dev, TX(TT_TX_OUT_FMT), DF_FLOAT32);
	assert_int_equal(dev_wr(dev, TX(TT_TX_CMD),
				TT_TX_COMMAND(TT_TX_PACK, 0, 0)),
			 0);
	/* Vector 0 is face 0's rows 0 and 1: L1 bytes 0..127 of the pack. */
	for (unsigned l = 0; l < TT_SFPI_LANES; l++)
		assert_int_equal(dev_rd(dev, OUT_ADDR + 4 * l), 0x3F800000u);
	assert_int_equal(dev_rd(dev, OUT_ADDR + 4 * 32), 0);
	/* Another process's view of the image runs no instructions (its
	 * registers would not be the chip's), and reads the register as 0. */
	assert_int_equal(sim_image_attach(dup(dev->img->fd), &img2, err), 0);
	ctx2.img = img2;
	assert_int_equal(sim_access(&ctx2, &a, &w), TT_DEV_ERR_BAD_CMD);
	assert_int_equal(dev_rd(dev, TX(TT_TX_SFPI)), 0);
	sim_image_destroy(img2);
	sim_device_destroy(dev);
	free(soc);
}

/* ---- the kernel API's checks (compute_kernel_api/sfpi.h) ---- */

static int kbuild(const char *src, struct tt_kbinary **b)
{
	struct tt_kbuild_opts o = {
		.proc = TT_KPROC_COMPUTE,
		.source = src,
		.name = "sfpi_test",
	};

	*b = NULL;
	return tt_kbuild(&o, b);
}

/* A constant register number out of range does not compile; good code
 * with every construct does, at -O2 (the default). */
static void test_kernel_api_builds(void **state)
{
	static const char good[] =
		"#include \"compute_kernel_api.h\"\n"
		"void kernel_main(void)\n"
		"{\n"
		"\tsfpi_init();\n"
		"\tsfpi_loadi(SFPI_V1, 0.1f);\n"
		"\tfor (uint32_t v = 0; v < SFPI_TILE_VECS; v++) {\n"
		"\t\tsfpi_load(SFPI_V0, sfpi_dst(1, v));\n"
		"\t\tSFPI_IF(sfpi_lt(SFPI_V0, SFPI_V1), sfpi_ne(SFPI_V0, SFPI_V2)) {\n"
		"\t\t\tsfpi_mad(SFPI_V0, SFPI_V0, SFPI_V1, SFPI_V7);\n"
		"\t\t} SFPI_ELSEIF(sfpi_ge(SFPI_V0, SFPI_V3)) {\n"
		"\t\t\tsfpi_abs(SFPI_V0, SFPI_V0);\n"
		"\t\t} SFPI_ELSE {\n"
		"\t\t\tsfpi_neg(SFPI_V0, SFPI_V0);\n"
		"\t\t} SFPI_ENDIF;\n"
		"\t\tsfpi_store(sfpi_dst(1, v), SFPI_V0);\n"
		"\t}\n"
		"}\n";
	static const char bad_reg[] =
		"#include \"compute_kernel_api.h\"\n"
		"void kernel_main(void)\n"
		"{\n"
		"\tsfpi_add(SFPI_V0, 8, SFPI_V1);\n"
		"}\n";
	static const char no_endif[] =
		"#include \"compute_kernel_api.h\"\n"
		"void kernel_main(void)\n"
		"{\n"
		"\tSFPI_IF(sfpi_lt(SFPI_V0, SFPI_V1)) {\n"
		"\t\tsfpi_mov(SFPI_V0, SFPI_V1);\n"
		"\t}\n"
		"}\n";
	struct tt_kbinary *b;

	(void)state;
	if (kbuild(good, &b))
		fail_msg("good kernel: %s", tt_last_error());
	tt_kbinary_put(b);
	assert_int_equal(kbuild(bad_reg, &b), -ENOEXEC);
	assert_null(b);
	assert_non_null(strstr(tt_last_error(),
			       "vector register not below 8"));
	assert_int_equal(kbuild(no_endif, &b), -ENOEXEC);
	assert_null(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_register),
		cmocka_unit_test(test_load_store_layout),
		cmocka_unit_test(test_loadi),
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_bf16_dst),
		cmocka_unit_test(test_conditionals),
		cmocka_unit_test(test_every_condition),
		cmocka_unit_test(test_stack),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_from_hart),
		cmocka_unit_test(test_chip_reset),
		cmocka_unit_test(test_kernel_api_builds),
	};

	setenv("TT_FIRMWARE", "/dev/null", 1);
	return cmocka_run_group_tests_name("sfpi", tests, setup, teardown);
}
