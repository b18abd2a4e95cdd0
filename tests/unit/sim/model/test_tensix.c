// SPDX-License-Identifier: Apache-2.0
/*
 * The tile coprocessor and the circular-buffer counters (hw/tensix.h),
 * driven from the host through libtt's register accesses on a blank
 * embedded n150 (TT_FIRMWARE=/dev/null: every byte of L1 is the test's),
 * and, for harts, hand-assembled programs released straight from reset.
 *
 * Every numeric result is checked against a host reference: exact where
 * the model's arithmetic is exact (format conversions, truncated-operand
 * products), in double precision with a tolerance elsewhere.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "sim/model/chip.h"
#include "common/dataformat.h"
#include "sim/model/device.h"
#include "sim/model/gemm.h"
#include "rv32asm.h"
#include "common/soc_desc.h"
#include "sim/model/tensix.h"
#include "testutil.h"
#include "common/tile_io.h"

#define L1_SIZE 1499136u /* n150 */
#define A_ADDR 0x40000u
#define B_ADDR 0x80000u
#define OUT_ADDR 0xC0000u
#define ROWS_ADDR 0xD0000u
#define SET_ADDR 0xE0000u /* set_dst's tile */
#define PROG_ADDR 0x70000u
#define RESULT_ADDR 0x71000u
#define TX(off) (TT_REG_TENSIX_ADDR + (off))
#define CBR(i, r) (TT_REG_CB_ADDR + TT_CB_REG(i, r))
#define E 1024u /* elements per tile */

struct fx {
	tt_device *dev;
	struct tt_xy c, other;
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
	if (tt_device_tensix_core(f->dev, 0, &f->c) ||
	    tt_device_tensix_core(f->dev, 9, &f->other))
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

/* ---- register helpers ---- */

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

static void cfg(struct fx *f, bool fp32, unsigned fid, bool approx)
{
	wr(f, TT_TX_CFG, (fp32 ? TT_TX_CFG_FP32_DST : 0) |
				 TT_FIELD_PREP(TT_TX_CFG_FIDELITY_MASK, fid) |
				 (approx ? TT_TX_CFG_APPROX : 0));
}

static void operands(struct fx *f, uint32_t a, enum df_format af, uint32_t b,
		     enum df_format bf, unsigned dst)
{
	wr(f, TT_TX_A_ADDR, a);
	wr(f, TT_TX_A_FMT, af);
	wr(f, TT_TX_B_ADDR, b);
	wr(f, TT_TX_B_FMT, bf);
	wr(f, TT_TX_DST, dst);
}

static void args(struct fx *f, uint32_t a0, uint32_t a1, uint32_t a2)
{
	wr(f, TT_TX_ARG0, a0);
	wr(f, TT_TX_ARG1, a1);
	wr(f, TT_TX_ARG2, a2);
}

static int issue(struct fx *f, unsigned op, unsigned sub, unsigned flags)
{
	return tt_noc_write32(f->dev, 0, f->c.x, f->c.y, TX(TT_TX_CMD),
			      TT_TX_COMMAND(op, sub, flags));
}

static void run_ok(struct fx *f, unsigned op, unsigned sub, unsigned flags)
{
	if (issue(f, op, sub, flags))
		fail_msg("command %u/%u/%#x refused (status %u): %s", op, sub,
			 flags, rd(f, TT_TX_STATUS), tt_last_error());
	assert_int_equal(rd(f, TT_TX_STATUS), TT_TX_OK);
}

/* Forget the device errors recorded so far. */
static void drain_errors(struct fx *f)
{
	struct tt_device_error errs[16];

	while (tt_device_errors(f->dev, errs, 16) > 0)
		;
}

/* A refused command: the write fails, STATUS says why, the device error
 * log names the command register, nothing is counted. */
static void run_err(struct fx *f, uint32_t cmd, enum tt_tx_err want)
{
	struct tt_device_error errs[8];
	uint64_t ops = rd64(f, TT_TX_OPS_LO);
	int n;

	drain_errors(f);
	assert_int_equal(tt_noc_write32(f->dev, 0, f->c.x, f->c.y,
					TX(TT_TX_CMD), cmd),
			 -EFAULT);
	if (rd(f, TT_TX_STATUS) != want)
		fail_msg("command %#x: status %u, expected %u", cmd,
			 rd(f, TT_TX_STATUS), want);
	n = tt_device_errors(f->dev, errs, 8);
	assert_int_equal(n, 1);
	assert_int_equal(errs[0].code, TT_DEV_ERR_BAD_CMD);
	assert_non_null(strstr(errs[0].message, "0xffb16030"));
	assert_int_equal(rd64(f, TT_TX_OPS_LO), ops);
}

/* ---- tiles ---- */

static unsigned seed = 12345;

static float urand(float lo, float hi)
{
	seed = seed * 1103515245u + 12345u;
	return lo + (hi - lo) * (float)((seed >> 8) & 0xFFFFFF) / 16777216.0f;
}

static float bf16(float v)
{
	return df_bf16_to_f32(df_f32_to_bf16_rne(v));
}

static void fill_bf16(float *t, float lo, float hi)
{
	for (unsigned i = 0; i < E; i++)
		t[i] = bf16(urand(lo, hi));
}

static void fill_f32(float *t, float lo, float hi)
{
	for (unsigned i = 0; i < E; i++)
		t[i] = urand(lo, hi);
}

/* Write row-major values as one tile of fmt at addr. */
static void put_tile(struct fx *f, uint32_t addr, enum df_format fmt,
		     const float *v)
{
	uint8_t buf[4096];
	size_t tb = df_tile_bytes(fmt);

	assert_int_equal(df_tilize_convert(fmt, buf, tb, DF_FLOAT32, v,
					   sizeof(float) * E, 32, 32),
			 0);
	assert_int_equal(tt_noc_write(f->dev, 0, f->c.x, f->c.y, addr, buf, tb),
			 0);
}

/* DST[d] as row-major floats, through a Float32 pack (exact). The
 * registers it uses are put back. */
static void get_dst(struct fx *f, unsigned d, float *out)
{
	uint32_t dst = rd(f, TT_TX_DST), oa = rd(f, TT_TX_OUT_ADDR);
	uint32_t of = rd(f, TT_TX_OUT_FMT);
	uint8_t buf[4096];

	wr(f, TT_TX_DST, d);
	wr(f, TT_TX_OUT_ADDR, OUT_ADDR);
	wr(f, TT_TX_OUT_FMT, DF_FLOAT32);
	run_ok(f, TT_TX_PACK, 0, 0);
	assert_int_equal(tt_noc_read(f->dev, 0, f->c.x, f->c.y, OUT_ADDR, buf,
				     sizeof(buf)),
			 0);
	assert_int_equal(df_untilize_convert(DF_FLOAT32, out, sizeof(float) * E,
					     DF_FLOAT32, buf, sizeof(buf), 32,
					     32),
			 0);
	wr(f, TT_TX_DST, dst);
	wr(f, TT_TX_OUT_ADDR, oa);
	wr(f, TT_TX_OUT_FMT, of);
}

/* DST[d] = v (row-major), through a Float32 tile and COPY; fp32 mode
 * keeps it exact. Leaves A at that tile and DST at d. */
static void set_dst(struct fx *f, unsigned d, const float *v)
{
	put_tile(f, SET_ADDR, DF_FLOAT32, v);
	wr(f, TT_TX_A_ADDR, SET_ADDR);
	wr(f, TT_TX_A_FMT, DF_FLOAT32);
	wr(f, TT_TX_DST, d);
	run_ok(f, TT_TX_COPY, 0, 0);
}

static void expect_close(const float *got, const double *want, double rel,
			 double abs_tol, const char *what)
{
	for (unsigned i = 0; i < E; i++) {
		double err = fabs((double)got[i] - want[i]);

		if (got[i] == want[i]) /* infinities too */
			continue;
		if (!(err <= rel * fabs(want[i]) + abs_tol))
			fail_msg("%s: element (%u,%u) is %.9g, expected %.9g",
				 what, i / 32, i % 32, got[i], want[i]);
	}
}

static void expect_equal(const float *got, const float *want, const char *what)
{
	for (unsigned i = 0; i < E; i++)
		if (memcmp(&got[i], &want[i], 4))
			fail_msg("%s: element (%u,%u) is %.9g, expected %.9g",
				 what, i / 32, i % 32, got[i], want[i]);
}

/* ---- registers and pages ---- */

static void test_registers(void **state)
{
	struct fx *f = *state;
	uint32_t regs[12], back[12];
	struct tt_xy dram, pcie;
	uint32_t v;

	cfg(f, false, TT_TX_HIFI4, false);
	assert_int_equal(rd(f, TT_TX_DST_TILES), TT_DST_TILES_16);
	cfg(f, true, TT_TX_HIFI4, false);
	assert_int_equal(rd(f, TT_TX_DST_TILES), TT_DST_TILES_32);
	/* Operand registers in one burst, read back whole. */
	for (unsigned i = 0; i < 12; i++)
		regs[i] = 0x1000u * i + 7;
	regs[0] = TT_TX_CFG_FP32_DST;
	assert_int_equal(tt_noc_write(f->dev, 0, f->c.x, f->c.y, TX(0), regs,
				      sizeof(regs)),
			 0);
	assert_int_equal(tt_noc_read(f->dev, 0, f->c.x, f->c.y, TX(0), back,
				     sizeof(back)),
			 0);
	assert_memory_equal(regs, back, sizeof(regs));
	/* CMD reads 0; the read-only registers refuse writes. */
	wr(f, TT_TX_DST, 0);
	wr(f, TT_TX_ARG0, 0);
	run_ok(f, TT_TX_ZERO, 0, 0);
	assert_int_equal(rd(f, TT_TX_CMD), 0);
	for (unsigned off = TT_TX_STATUS; off <= TT_TX_DST_TILES; off += 4)
		assert_int_equal(tt_noc_write32(f->dev, 0, f->c.x, f->c.y,
						TX(off), 1),
				 -EFAULT);
	assert_int_equal(rd(f, TT_TX_DST_TILES), TT_DST_TILES_32);
	assert_int_equal(tt_noc_write32(f->dev, 0, f->c.x, f->c.y, TX(2), 1),
			 -EFAULT);
	/* Both pages exist on Tensix nodes only. */
	assert_int_equal(tt_device_dram_core(f->dev, 0, 0, &dram), 0);
	assert_int_equal(tt_device_pcie_core(f->dev, &pcie), 0);
	assert_int_equal(tt_noc_read32(f->dev, 0, dram.x, dram.y,
				       TX(TT_TX_STATUS), &v),
			 -EFAULT);
	assert_int_equal(tt_noc_write32(f->dev, 0, dram.x, dram.y,
					CBR(0, TT_CB_RECEIVED_INC), 1),
			 -EFAULT);
	assert_int_equal(tt_noc_read32(f->dev, 0, pcie.x, pcie.y,
				       CBR(0, TT_CB_RECEIVED), &v),
			 -EFAULT);
	assert_int_equal(tt_noc_write32(f->dev, 0, pcie.x, pcie.y,
					TX(TT_TX_CMD), 1),
			 -EFAULT);
}

static uint32_t cb_rd(struct fx *f, unsigned i, unsigned reg)
{
	uint32_t v = 0xDEAD;

	assert_int_equal(tt_noc_read32(f->dev, 0, f->c.x, f->c.y, CBR(i, reg),
				       &v),
			 0);
	return v;
}

static void cb_wr(struct fx *f, unsigned i, unsigned reg, uint32_t v)
{
	assert_int_equal(tt_noc_write32(f->dev, 0, f->c.x, f->c.y, CBR(i, reg),
					v),
			 0);
}

static void test_cb_counters(void **state)
{
	struct fx *f = *state;
	uint32_t zeros[4 * TT_CB_STRIDE / 4] = { 0 };
	struct niu_cmd nc = { 0 };
	uint32_t v;

	for (unsigned i = 0; i < TT_CB_COUNT; i++) {
		cb_wr(f, i, TT_CB_RECEIVED, i);
		cb_wr(f, i, TT_CB_ACKED, 1000 + i);
	}
	/* 16 bits, wrapping. */
	cb_wr(f, 3, TT_CB_RECEIVED, 0xFFFF);
	cb_wr(f, 3, TT_CB_RECEIVED_INC, 2);
	assert_int_equal(cb_rd(f, 3, TT_CB_RECEIVED), 1);
	cb_wr(f, 3, TT_CB_ACKED, 0x12345);
	assert_int_equal(cb_rd(f, 3, TT_CB_ACKED), 0x2345);
	cb_wr(f, 3, TT_CB_ACKED_INC, 0xFFFF);
	assert_int_equal(cb_rd(f, 3, TT_CB_ACKED), 0x2344);
	cb_wr(f, 3, TT_CB_ACKED_INC, 0x10002); /* adds 2 mod 2^16 */
	assert_int_equal(cb_rd(f, 3, TT_CB_ACKED), 0x2346);
	/* The increment registers read 0; neighbours are untouched. */
	assert_int_equal(cb_rd(f, 3, TT_CB_RECEIVED_INC), 0);
	assert_int_equal(cb_rd(f, 3, TT_CB_ACKED_INC), 0);
	assert_int_equal(cb_rd(f, 2, TT_CB_RECEIVED), 2);
	assert_int_equal(cb_rd(f, 4, TT_CB_ACKED), 1004);
	assert_int_equal(cb_rd(f, 31, TT_CB_RECEIVED), 31);
	cb_wr(f, 31, TT_CB_RECEIVED_INC, 5);
	assert_int_equal(cb_rd(f, 31, TT_CB_RECEIVED), 36);
	/* A launcher zeroes a run of CBs in one write. */
	assert_int_equal(tt_noc_write(f->dev, 0, f->c.x, f->c.y, CBR(0, 0),
				      zeros, sizeof(zeros)),
			 0);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(cb_rd(f, i, TT_CB_RECEIVED), 0);
		assert_int_equal(cb_rd(f, i, TT_CB_ACKED), 0);
	}
	assert_int_equal(cb_rd(f, 4, TT_CB_RECEIVED), 4);
	/* Past the last CB: read-only zeros. */
	assert_int_equal(tt_noc_write32(f->dev, 0, f->c.x, f->c.y,
					CBR(TT_CB_COUNT, 0), 1),
			 -EFAULT);
	assert_int_equal(tt_noc_read32(f->dev, 0, f->c.x, f->c.y,
				       CBR(TT_CB_COUNT, 0), &v),
			 0);
	assert_int_equal(v, 0);
	/* Another node pushes over the NOC. */
	v = 7;
	assert_int_equal(tt_noc_write(f->dev, 0, f->other.x, f->other.y,
				      RESULT_ADDR, &v, 4),
			 0);
	nc.op = TT_NIU_OP_WRITE;
	nc.x = f->c.x;
	nc.y = f->c.y;
	nc.targ = CBR(6, TT_CB_RECEIVED_INC);
	nc.ret = RESULT_ADDR;
	nc.len = 4;
	cb_wr(f, 6, TT_CB_RECEIVED, 0xFFFE);
	assert_int_equal(niu_run(f->dev, f->other.x, f->other.y, 0, 0, &nc),
			 TT_DEV_ERR_NONE);
	assert_int_equal(cb_rd(f, 6, TT_CB_RECEIVED), 5);
}

/* ---- harts ---- */

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

/* Put a program at addr, point hart h at it and release h alone from
 * the reset lines held in `held`; returns the lines now held. */
static uint32_t start_hart(struct fx *f, unsigned h, uint32_t addr,
			   const uint32_t *code, size_t n, uint32_t held)
{
	assert_int_equal(tt_noc_write(f->dev, 0, f->c.x, f->c.y, addr, code,
				      n * 4),
			 0);
	hart_wr(f, TT_HART_REG(h, TT_HART_RESET_PC), addr);
	held &= ~tt_hart_reset_bit(h);
	assert_int_equal(tt_noc_write32(f->dev, 0, f->c.x, f->c.y,
					TT_REG_TILE_CTRL_ADDR +
						TT_TILE_SOFT_RESET,
					held),
			 0);
	return held;
}

static void wait_state(struct fx *f, unsigned h, uint32_t st);

/* Every hart held in reset, and seen to be. */
static void hold_all(struct fx *f)
{
	assert_int_equal(tt_noc_write32(f->dev, 0, f->c.x, f->c.y,
					TT_REG_TILE_CTRL_ADDR +
						TT_TILE_SOFT_RESET,
					TT_TILE_SOFT_RESET_ALL),
			 0);
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++)
		wait_state(f, h, TT_HART_IN_RESET);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Wait up to 5 s for hart h to reach state st. */
static void wait_state(struct fx *f, unsigned h, uint32_t st)
{
	double t0 = now_s();

	while (hart_rd(f, TT_HART_REG(h, TT_HART_STATE)) != st) {
		if (now_s() - t0 > 5)
			fail_msg("hart %u: state %u, pc %#x, expected state %u",
				 h, hart_rd(f, TT_HART_REG(h, TT_HART_STATE)),
				 hart_rd(f, TT_HART_REG(h, TT_HART_PC)), st);
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
}

enum waker { BY_HOST, BY_SIBLING, BY_NOC };

static void wait_and_wake(struct fx *f, enum waker how)
{
	/* Hart 1 waits (tt.waitne) until CB 5's RECEIVED changes, stores
	 * the new value at RESULT_ADDR and stops on ebreak. */
	const uint32_t waiter[] = {
		RV_LI(10, CBR(5, TT_CB_RECEIVED)),
		RV_LI(11, RESULT_ADDR),
		RV_LW(12, 10, 0),
		RV_WAITNE(10, 12), /* loop: */
		RV_LW(13, 10, 0),
		RV_BEQ(13, 12, -8),
		RV_SW(13, 11, 0),
		RV_EBREAK,
	};
	/* Hart 0 pushes 3 pages into CB 5 and stops, after a delay (some
	 * ms) so that the wake-up of its own release is long over. */
	const uint32_t pusher[] = {
		RV_LI(5, 2000000),
		RV_ADDI(5, 5, -1), /* loop: */
		RV_BNE(5, 0, -4),
		RV_LI(10, CBR(5, TT_CB_RECEIVED_INC)),
		RV_ADDI(11, 0, 3),
		RV_SW(11, 10, 0),
		RV_EBREAK,
	};
	uint32_t held = TT_TILE_SOFT_RESET_ALL, v = 0;
	struct niu_cmd nc = { 0 };

	hold_all(f);
	cb_wr(f, 5, TT_CB_RECEIVED, 0xFFFF);
	assert_int_equal(tt_noc_write32(f->dev, 0, f->c.x, f->c.y, RESULT_ADDR,
					0xAAAA),
			 0);
	held = start_hart(f, 1, PROG_ADDR, waiter,
			  sizeof(waiter) / sizeof(waiter[0]), held);
	wait_state(f, 1, TT_HART_WAITING);
	assert_int_equal(hart_rd(f, TT_HART_REG(1, TT_HART_WAIT_ADDR)),
			 CBR(5, TT_CB_RECEIVED));
	/* Asleep, not spinning. */
	nanosleep(&(struct timespec){ 0, 30000000 }, NULL);
	assert_int_equal(hart_rd(f, TT_HART_REG(1, TT_HART_STATE)),
			 TT_HART_WAITING);
	switch (how) {
	case BY_HOST:
		cb_wr(f, 5, TT_CB_RECEIVED_INC, 3);
		break;
	case BY_SIBLING:
		start_hart(f, 0, PROG_ADDR + 0x100, pusher,
			   sizeof(pusher) / sizeof(pusher[0]), held);
		break;
	case BY_NOC:
		v = 3;
		assert_int_equal(tt_noc_write(f->dev, 0, f->other.x,
					      f->other.y, RESULT_ADDR, &v, 4),
				 0);
		nc.op = TT_NIU_OP_WRITE;
		nc.x = f->c.x;
		nc.y = f->c.y;
		nc.targ = CBR(5, TT_CB_RECEIVED_INC);
		nc.ret = RESULT_ADDR;
		nc.len = 4;
		assert_int_equal(niu_run(f->dev, f->other.x, f->other.y, 0, 2,
					 &nc),
				 TT_DEV_ERR_NONE);
		break;
	}
	wait_state(f, 1, TT_HART_HALTED);
	assert_int_equal(hart_rd(f, TT_HART_REG(1, TT_HART_FAULT_CAUSE)),
			 TT_HART_FAULT_EBREAK);
	assert_int_equal(tt_noc_read32(f->dev, 0, f->c.x, f->c.y, RESULT_ADDR,
				       &v),
			 0);
	assert_int_equal(v, 2); /* 0xFFFF + 3, mod 2^16 */
	hold_all(f);
}

static void test_cb_wait_woken_by_host(void **state)
{
	wait_and_wake(*state, BY_HOST);
}

static void test_cb_wait_woken_by_sibling(void **state)
{
	wait_and_wake(*state, BY_SIBLING);
}

static void test_cb_wait_woken_by_noc(void **state)
{
	wait_and_wake(*state, BY_NOC);
}

/* A pack by one hart changes L1 under a sibling waiting on it: that
 * sibling wakes, as it would for a store. */
static void test_pack_wakes_sibling(void **state)
{
	struct fx *f = *state;
	const uint32_t waiter[] = {
		RV_LI(10, OUT_ADDR),
		RV_LI(11, RESULT_ADDR),
		RV_LW(12, 10, 0),
		RV_WAITNE(10, 12), /* loop: */
		RV_LW(13, 10, 0),
		RV_BEQ(13, 12, -8),
		RV_SW(13, 11, 0),
		RV_EBREAK,
	};
	const uint32_t packer[] = {
		RV_LI(5, 2000000),
		RV_ADDI(5, 5, -1), /* loop: */
		RV_BNE(5, 0, -4),
		RV_LI(10, TX(0)),
		RV_LI(11, OUT_ADDR),
		RV_SW(11, 10, TT_TX_OUT_ADDR),
		RV_SW(0, 10, TT_TX_OUT_FMT), /* Float32 */
		RV_SW(0, 10, TT_TX_DST),
		RV_ADDI(11, 0, TT_TX_PACK),
		RV_SW(11, 10, TT_TX_CMD),
		RV_EBREAK,
	};
	float v[E];
	uint32_t held, r = 0;

	for (unsigned i = 0; i < E; i++)
		v[i] = 2.0f;
	hold_all(f);
	cfg(f, true, TT_TX_HIFI4, false);
	set_dst(f, 0, v);
	assert_int_equal(tt_noc_write32(f->dev, 0, f->c.x, f->c.y, OUT_ADDR,
					0xAAAA),
			 0);
	held = start_hart(f, 1, PROG_ADDR, waiter,
			  sizeof(waiter) / sizeof(waiter[0]),
			  TT_TILE_SOFT_RESET_ALL);
	wait_state(f, 1, TT_HART_WAITING);
	start_hart(f, 2, PROG_ADDR + 0x100, packer,
		   sizeof(packer) / sizeof(packer[0]), held);
	wait_state(f, 2, TT_HART_HALTED);
	assert_int_equal(hart_rd(f, TT_HART_REG(2, TT_HART_FAULT_CAUSE)),
			 TT_HART_FAULT_EBREAK);
	wait_state(f, 1, TT_HART_HALTED);
	assert_int_equal(tt_noc_read32(f->dev, 0, f->c.x, f->c.y, RESULT_ADDR,
				       &r),
			 0);
	assert_int_equal(r, 0x40000000u); /* 2.0f */
	hold_all(f);
}

/* A hart's good command runs; a bad one halts it with a store access
 * fault on the command register, logged with the node as initiator. */
static void test_hart_commands(void **state)
{
	struct fx *f = *state;
	const uint32_t good[] = {
		RV_LI(10, TX(0)),
		RV_ADDI(11, 0, 3),
		RV_SW(11, 10, TT_TX_DST),
		RV_SW(0, 10, TT_TX_ARG0),
		RV_ADDI(11, 0, TT_TX_ZERO),
		RV_SW(11, 10, TT_TX_CMD),
		RV_EBREAK,
	};
	const uint32_t bad[] = {
		RV_LI(10, TX(0)),
		RV_ADDI(11, 0, 99),
		RV_SW(11, 10, TT_TX_CMD),
		RV_EBREAK,
	};
	struct tt_device_error errs[4];
	uint64_t ops;

	cfg(f, true, TT_TX_HIFI4, false);
	ops = rd64(f, TT_TX_OPS_LO);
	hold_all(f);
	start_hart(f, 2, PROG_ADDR, good, sizeof(good) / sizeof(good[0]),
		   TT_TILE_SOFT_RESET_ALL);
	wait_state(f, 2, TT_HART_HALTED);
	assert_int_equal(hart_rd(f, TT_HART_REG(2, TT_HART_FAULT_CAUSE)),
			 TT_HART_FAULT_EBREAK);
	assert_int_equal(rd64(f, TT_TX_OPS_LO), ops + 1);
	assert_int_equal(rd(f, TT_TX_STATUS), TT_TX_OK);
	hold_all(f);
	drain_errors(f);
	start_hart(f, 2, PROG_ADDR + 0x100, bad, sizeof(bad) / sizeof(bad[0]),
		   TT_TILE_SOFT_RESET_ALL);
	wait_state(f, 2, TT_HART_HALTED);
	assert_int_equal(hart_rd(f, TT_HART_REG(2, TT_HART_FAULT_CAUSE)),
			 TT_HART_FAULT_STORE_ACCESS);
	assert_int_equal(hart_rd(f, TT_HART_REG(2, TT_HART_FAULT_ADDR)),
			 TX(TT_TX_CMD));
	assert_int_equal(rd(f, TT_TX_STATUS), TT_TX_ERR_OP);
	assert_int_equal(tt_device_errors(f->dev, errs, 4), 1);
	assert_int_equal(errs[0].code, TT_DEV_ERR_BAD_CMD);
	assert_non_null(strstr(errs[0].message, "by node"));
	hold_all(f);
}

/* ---- DST ---- */

static void test_dst_capacity(void **state)
{
	struct fx *f = *state;

	cfg(f, false, TT_TX_HIFI4, false);
	assert_int_equal(rd(f, TT_TX_DST_TILES), 16);
	args(f, 0, 0, 0);
	wr(f, TT_TX_DST, 15);
	run_ok(f, TT_TX_ZERO, 0, 0);
	wr(f, TT_TX_DST, 16);
	run_err(f, TT_TX_COMMAND(TT_TX_ZERO, 0, 0), TT_TX_ERR_DST);
	wr(f, TT_TX_DST, 0xFFFFFFFF);
	run_err(f, TT_TX_COMMAND(TT_TX_ZERO, 0, 0), TT_TX_ERR_DST);
	wr(f, TT_TX_DST, 10);
	args(f, 6, 0, 0);
	run_ok(f, TT_TX_ZERO, 0, 0);
	args(f, 7, 0, 0);
	run_err(f, TT_TX_COMMAND(TT_TX_ZERO, 0, 0), TT_TX_ERR_DST);
	args(f, 0xFFFFFFFF, 0, 0);
	run_err(f, TT_TX_COMMAND(TT_TX_ZERO, 0, 0), TT_TX_ERR_DST);

	cfg(f, true, TT_TX_HIFI4, false);
	assert_int_equal(rd(f, TT_TX_DST_TILES), 8);
	args(f, 0, 0, 0);
	wr(f, TT_TX_DST, 7);
	run_ok(f, TT_TX_ZERO, 0, 0);
	wr(f, TT_TX_DST, 8);
	run_err(f, TT_TX_COMMAND(TT_TX_ZERO, 0, 0), TT_TX_ERR_DST);
	/* Blocks and second operands too. */
	operands(f, A_ADDR, DF_FLOAT16_B, B_ADDR, DF_FLOAT16_B, 0);
	args(f, 3 | 3 << 8 | 1 << 16, 1, 3); /* 9 tiles */
	run_err(f, TT_TX_COMMAND(TT_TX_MATMUL, 0, 0), TT_TX_ERR_DST);
	args(f, 2 | 4 << 8 | 1 << 16, 1, 4); /* 8 tiles from DST[1] */
	wr(f, TT_TX_DST, 1);
	run_err(f, TT_TX_COMMAND(TT_TX_MATMUL, 0, 0), TT_TX_ERR_DST);
	wr(f, TT_TX_DST, 0);
	run_ok(f, TT_TX_MATMUL, 0, 0);
	args(f, 8, 0, 0);
	run_err(f, TT_TX_COMMAND(TT_TX_SFPU_BINARY, TT_TX_ADD, 0),
		TT_TX_ERR_DST);
}

/* ---- refusals ---- */

/* Unknown formats, formats not converted, a value past the enum. */
static const uint32_t bad_fmts[] = { 4, 255, DF_BFP8, DF_BFP2, 0x10005 };

/* MATMUL ARG0..ARG2 that are refused. */
static const uint32_t bad_blocks[][3] = {
	{ 0, 1, 1 }, /* RT = CT = KT = 0 */
	{ 1 | 1 << 8, 1, 1 }, /* KT = 0 */
	{ 1 | 1 << 16, 1, 1 }, /* CT = 0 */
	{ 1 << 8 | 1 << 16, 1, 1 }, /* RT = 0 */
	{ 1 | 1 << 8 | 1 << 16 | 1 << 24, 1, 1 }, /* reserved bits */
	{ 2 | 1 << 8 | 2 << 16, 1, 1 }, /* A's rows overlap */
	{ 1 | 2 << 8 | 2 << 16, 1, 1 }, /* B's rows overlap */
};

static void test_refusals(void **state)
{
	struct fx *f = *state;
	float keep[E], t[E], got[E];

	cfg(f, true, TT_TX_HIFI4, false);
	fill_bf16(t, -1, 1);
	put_tile(f, B_ADDR, DF_FLOAT16_B, t);
	fill_bf16(keep, -1, 1);
	set_dst(f, 0, keep);
	operands(f, A_ADDR, DF_FLOAT16_B, B_ADDR, DF_FLOAT16_B, 0);
	args(f, 0, 0, 0);
	/* Unknown operations, reserved bits, sub-operations, flags. */
	run_err(f, 0, TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_OP_COUNT, 0, 0), TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(0xFF, 0, 0), TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_ZERO, 0, 0) | 1u << 24, TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_ZERO, 1, 0), TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_ZERO, 0, TT_TX_F_ACC), TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_COPY, 1, 0), TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_COPY, 0, TT_TX_F_BCAST_ROW),
		TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_ELTWISE, TT_TX_DIV, 0), TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_ELTWISE, TT_TX_ADD,
				 TT_TX_F_BCAST_ROW | TT_TX_F_BCAST_COL),
		TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_ELTWISE, TT_TX_ADD, TT_TX_F_TRANSPOSE),
		TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_MATMUL, 1, 0), TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_MATMUL, 0, TT_TX_F_ACC), TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_REDUCE, 3, TT_TX_F_REDUCE_ROW),
		TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_REDUCE, TT_TX_REDUCE_SUM, 0),
		TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_REDUCE, TT_TX_REDUCE_SUM,
				 TT_TX_F_REDUCE_ROW | TT_TX_F_REDUCE_COL),
		TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_SFPU, TT_TX_SFPU_COUNT, 0),
		TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_SFPU, TT_TX_EXP, TT_TX_F_ACC),
		TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_SFPU_BINARY, TT_TX_POW + 1, 0),
		TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_PACK, 0, TT_TX_F_TRANSPOSE),
		TT_TX_ERR_OP);
	run_err(f, TT_TX_COMMAND(TT_TX_TILIZE, 0, TT_TX_F_UNTILIZE),
		TT_TX_ERR_OP);
	/* Formats: unknown, not converted, or none for this use. */
	for (unsigned i = 0; i < sizeof(bad_fmts) / sizeof(bad_fmts[0]); i++) {
		wr(f, TT_TX_A_FMT, bad_fmts[i]);
		run_err(f, TT_TX_COMMAND(TT_TX_COPY, 0, 0), TT_TX_ERR_FORMAT);
		run_err(f, TT_TX_COMMAND(TT_TX_TILIZE, 0, 0), TT_TX_ERR_FORMAT);
		wr(f, TT_TX_A_FMT, DF_FLOAT16_B);
		wr(f, TT_TX_B_FMT, bad_fmts[i]);
		run_err(f, TT_TX_COMMAND(TT_TX_ELTWISE, TT_TX_MUL, 0),
			TT_TX_ERR_FORMAT);
		wr(f, TT_TX_B_FMT, DF_FLOAT16_B);
		wr(f, TT_TX_OUT_FMT, bad_fmts[i]);
		run_err(f, TT_TX_COMMAND(TT_TX_PACK, 0, 0), TT_TX_ERR_FORMAT);
	}
	wr(f, TT_TX_A_FMT, DF_BFP8_B);
	args(f, 2048, 0, 0);
	run_err(f, TT_TX_COMMAND(TT_TX_TILIZE, 0, 0), TT_TX_ERR_FORMAT);
	wr(f, TT_TX_OUT_FMT, DF_BFP4_B);
	run_err(f, TT_TX_COMMAND(TT_TX_PACK, 0, TT_TX_F_UNTILIZE),
		TT_TX_ERR_FORMAT);
	/* Operands outside L1. */
	wr(f, TT_TX_A_FMT, DF_FLOAT16_B);
	wr(f, TT_TX_A_ADDR, L1_SIZE - 2047);
	run_err(f, TT_TX_COMMAND(TT_TX_COPY, 0, 0), TT_TX_ERR_ADDR);
	wr(f, TT_TX_A_ADDR, 0xFFFFF000);
	run_err(f, TT_TX_COMMAND(TT_TX_ELTWISE, TT_TX_ADD, 0), TT_TX_ERR_ADDR);
	wr(f, TT_TX_A_ADDR, L1_SIZE - 2048);
	run_ok(f, TT_TX_COPY, 0, 0);
	set_dst(f, 0, keep);
	operands(f, A_ADDR, DF_FLOAT16_B, L1_SIZE - 1000, DF_FLOAT16_B, 0);
	run_err(f, TT_TX_COMMAND(TT_TX_REDUCE, 0, TT_TX_F_REDUCE_ROW),
		TT_TX_ERR_ADDR);
	wr(f, TT_TX_B_ADDR, B_ADDR);
	args(f, 1 | 1 << 8 | 2 << 16, 0, 0x10000000); /* B(1,0) far away */
	run_err(f, TT_TX_COMMAND(TT_TX_MATMUL, 0, 0), TT_TX_ERR_ADDR);
	wr(f, TT_TX_OUT_FMT, DF_FLOAT32);
	wr(f, TT_TX_OUT_ADDR, L1_SIZE - 4095);
	run_err(f, TT_TX_COMMAND(TT_TX_PACK, 0, 0), TT_TX_ERR_ADDR);
	wr(f, TT_TX_OUT_ADDR, OUT_ADDR);
	args(f, 0x10000, 0, 0);
	run_err(f, TT_TX_COMMAND(TT_TX_PACK, 0, TT_TX_F_UNTILIZE),
		TT_TX_ERR_ADDR);
	run_err(f, TT_TX_COMMAND(TT_TX_TILIZE, 0, 0), TT_TX_ERR_ADDR);
	/* Arguments. */
	args(f, 127, 0, 0); /* rows of 32 bf16 are 64 bytes; fp32 128 */
	run_err(f, TT_TX_COMMAND(TT_TX_PACK, 0, TT_TX_F_UNTILIZE),
		TT_TX_ERR_ARG);
	args(f, 63, 0, 0);
	run_err(f, TT_TX_COMMAND(TT_TX_TILIZE, 0, 0), TT_TX_ERR_ARG);
	for (unsigned i = 0; i < sizeof(bad_blocks) / sizeof(bad_blocks[0]);
	     i++) {
		args(f, bad_blocks[i][0], bad_blocks[i][1], bad_blocks[i][2]);
		run_err(f, TT_TX_COMMAND(TT_TX_MATMUL, 0, 0), TT_TX_ERR_ARG);
	}
	/* Fidelity 1 is none: refused where fidelity matters. */
	cfg(f, true, 1, false);
	args(f, 1 | 1 << 8 | 1 << 16, 1, 1);
	run_err(f, TT_TX_COMMAND(TT_TX_MATMUL, 0, 0), TT_TX_ERR_ARG);
	run_err(f, TT_TX_COMMAND(TT_TX_ELTWISE, TT_TX_MUL, 0), TT_TX_ERR_ARG);
	run_err(f, TT_TX_COMMAND(TT_TX_REDUCE, TT_TX_REDUCE_SUM,
				 TT_TX_F_REDUCE_COL),
		TT_TX_ERR_ARG);
	/* A refused command changed nothing. */
	get_dst(f, 0, got);
	expect_equal(got, keep, "DST after refusals");
	run_ok(f, TT_TX_ELTWISE, TT_TX_ADD, 0);
	run_ok(f, TT_TX_REDUCE, TT_TX_REDUCE_MAX, TT_TX_F_REDUCE_ROW);
}

/* ---- formats ---- */

static const enum df_format all_formats[] = {
	DF_FLOAT32, DF_FLOAT16, DF_FLOAT16_B, DF_BFP8_B, DF_BFP4_B, DF_BFP2_B,
	DF_INT8,    DF_UINT8,	DF_UINT16,    DF_INT32, DF_UINT32,
};

/* Values worth converting to fmt: integers (some out of range, to
 * saturate) for integer formats, spread floats otherwise. */
static void format_values(enum df_format fmt, float *v)
{
	for (unsigned i = 0; i < E; i++) {
		switch (fmt) {
		case DF_INT8:
		case DF_UINT8:
			v[i] = rintf(urand(-300, 300));
			break;
		case DF_UINT16:
			v[i] = rintf(urand(-1000, 70000));
			break;
		case DF_INT32:
		case DF_UINT32:
			v[i] = rintf(urand(-1e6f, 1e7f));
			break;
		default:
			v[i] = urand(-3, 3) * exp2f((float)(i % 7) - 3);
			break;
		}
	}
	v[5] = 0.0f;
}

static void test_unpack_every_format(void **state)
{
	struct fx *f = *state;
	float v[E], want[E], got[E], tr[E];
	uint8_t tile[4096];

	cfg(f, true, TT_TX_HIFI4, false);
	for (unsigned k = 0; k < sizeof(all_formats) / sizeof(all_formats[0]);
	     k++) {
		enum df_format fmt = all_formats[k];
		size_t tb = df_tile_bytes(fmt);

		format_values(fmt, v);
		assert_int_equal(df_tilize_convert(fmt, tile, tb, DF_FLOAT32, v,
						   sizeof(v), 32, 32),
				 0);
		assert_int_equal(tt_noc_write(f->dev, 0, f->c.x, f->c.y, A_ADDR,
					      tile, tb),
				 0);
		assert_int_equal(df_untilize_convert(DF_FLOAT32, want,
						     sizeof(want), fmt, tile,
						     tb, 32, 32),
				 0);
		operands(f, A_ADDR, fmt, 0, DF_FLOAT32, 1);
		run_ok(f, TT_TX_COPY, 0, 0);
		get_dst(f, 1, got);
		expect_equal(got, want, df_name(fmt));
		run_ok(f, TT_TX_COPY, 0, TT_TX_F_TRANSPOSE);
		get_dst(f, 1, got);
		for (unsigned i = 0; i < E; i++)
			tr[i] = want[(i % 32) * 32 + i / 32];
		expect_equal(got, tr, "transposed");
	}
}

static void test_pack_every_format(void **state)
{
	struct fx *f = *state;
	uint8_t want[4096], got[4096];
	float v[E];

	cfg(f, true, TT_TX_HIFI4, false);
	for (unsigned k = 0; k < sizeof(all_formats) / sizeof(all_formats[0]);
	     k++) {
		enum df_format fmt = all_formats[k];
		size_t tb = df_tile_bytes(fmt);

		format_values(fmt, v);
		v[7] = 1e-40f; /* a denormal, for the block formats */
		set_dst(f, 2, v);
		assert_int_equal(df_tilize_convert(fmt, want, tb, DF_FLOAT32, v,
						   sizeof(v), 32, 32),
				 0);
		memset(got, 0xEE, sizeof(got));
		assert_int_equal(tt_noc_write(f->dev, 0, f->c.x, f->c.y,
					      OUT_ADDR, got, sizeof(got)),
				 0);
		wr(f, TT_TX_OUT_ADDR, OUT_ADDR);
		wr(f, TT_TX_OUT_FMT, fmt);
		run_ok(f, TT_TX_PACK, 0, 0);
		assert_int_equal(tt_noc_read(f->dev, 0, f->c.x, f->c.y,
					     OUT_ADDR, got, sizeof(got)),
				 0);
		if (memcmp(got, want, tb))
			fail_msg("PACK to %s differs from df_tilize_convert",
				 df_name(fmt));
		for (size_t i = tb; i < sizeof(got); i++)
			assert_int_equal(got[i], 0xEE);
	}
}

static void test_tilize_and_untilize(void **state)
{
	struct fx *f = *state;
	const enum df_format fmts[] = { DF_FLOAT16_B, DF_FLOAT32, DF_UINT16,
					DF_FLOAT16, DF_INT8 };
	uint8_t rows[32 * 200], back[32 * 200], tile[4096], want_tile[4096];
	float v[E], want[E], got[E];

	cfg(f, true, TT_TX_HIFI4, false);
	for (unsigned k = 0; k < sizeof(fmts) / sizeof(fmts[0]); k++) {
		enum df_format fmt = fmts[k];
		size_t es = df_elem_bytes(fmt), pitch = 40 * es + 8;

		/* A 32x40 row-major matrix, rows `pitch` bytes apart; the
		 * tile is its columns 3..34. */
		format_values(fmt == DF_FLOAT16_B ? DF_FLOAT32 : fmt, v);
		memset(rows, 0x5A, sizeof(rows));
		for (unsigned r = 0; r < 32; r++) {
			uint8_t *row = rows + r * pitch + 3 * es;

			assert_int_equal(df_convert(fmt, row, 32 * es,
						    DF_FLOAT32, v + r * 32, 128,
						    32),
					 0);
		}
		assert_int_equal(tt_noc_write(f->dev, 0, f->c.x, f->c.y,
					      ROWS_ADDR, rows, 32 * pitch),
				 0);
		for (unsigned r = 0; r < 32; r++)
			assert_int_equal(df_convert(DF_FLOAT32, want + r * 32,
						    128, fmt,
						    rows + r * pitch + 3 * es,
						    32 * es, 32),
					 0);
		operands(f, ROWS_ADDR + 3 * es, fmt, 0, DF_FLOAT32, 4);
		args(f, (uint32_t)pitch, 0, 0);
		run_ok(f, TT_TX_TILIZE, 0, 0);
		get_dst(f, 4, got);
		expect_equal(got, want, "TILIZE");
		/* Packed as a tile: what the host's tilize makes. */
		assert_int_equal(df_tilize_convert(fmt, want_tile,
						   df_tile_bytes(fmt),
						   DF_FLOAT32, want,
						   sizeof(want), 32, 32),
				 0);
		wr(f, TT_TX_OUT_ADDR, OUT_ADDR);
		wr(f, TT_TX_OUT_FMT, fmt);
		run_ok(f, TT_TX_PACK, 0, 0);
		assert_int_equal(tt_noc_read(f->dev, 0, f->c.x, f->c.y,
					     OUT_ADDR, tile,
					     df_tile_bytes(fmt)),
				 0);
		assert_memory_equal(tile, want_tile, df_tile_bytes(fmt));
		/* Untilized back at another pitch: the same rows, the gaps
		 * between them untouched. */
		memset(back, 0xC3, sizeof(back));
		assert_int_equal(tt_noc_write(f->dev, 0, f->c.x, f->c.y,
					      ROWS_ADDR + 0x4000, back,
					      sizeof(back)),
				 0);
		args(f, (uint32_t)(pitch + 4), 0, 0);
		wr(f, TT_TX_OUT_ADDR, ROWS_ADDR + 0x4000);
		run_ok(f, TT_TX_PACK, 0, TT_TX_F_UNTILIZE);
		assert_int_equal(tt_noc_read(f->dev, 0, f->c.x, f->c.y,
					     ROWS_ADDR + 0x4000, back,
					     sizeof(back)),
				 0);
		for (unsigned r = 0; r < 32; r++) {
			const uint8_t *row = back + r * (pitch + 4);

			assert_memory_equal(row, rows + r * pitch + 3 * es,
					    32 * es);
			if (r < 31)
				assert_int_equal(row[32 * es], 0xC3);
		}
	}
}

/* ---- 16-bit DST ---- */

static void test_dst_rounding(void **state)
{
	struct fx *f = *state;
	float v[E], got[E], want[E], half[E];
	uint8_t tile[2048];

	cfg(f, false, TT_TX_HIFI4, false);
	fill_f32(v, -10, 10);
	memcpy(&v[1], &(uint32_t){ 0x3F808000u }, 4); /* tie, to even: down */
	memcpy(&v[2], &(uint32_t){ 0x3F818000u }, 4); /* tie, to even: up */
	memcpy(&v[3], &(uint32_t){ 0x3F808001u }, 4); /* above the tie */
	put_tile(f, A_ADDR, DF_FLOAT32, v);
	operands(f, A_ADDR, DF_FLOAT32, 0, DF_FLOAT32, 5);
	run_ok(f, TT_TX_COPY, 0, 0);
	get_dst(f, 5, got);
	for (unsigned i = 0; i < E; i++)
		want[i] = bf16(v[i]);
	expect_equal(got, want, "bf16 DST");
	assert_true(got[1] == 1.0f && got[2] == 1.015625f &&
		    got[3] == 1.0078125f);
	/* fp32 DST keeps everything. */
	cfg(f, true, TT_TX_HIFI4, false);
	run_ok(f, TT_TX_COPY, 0, 0);
	get_dst(f, 5, got);
	expect_equal(got, v, "fp32 DST");
	/* With A in Float16, 16-bit DST holds halves: 1 + 2^-11 + 2^-13
	 * rounds up to 1 + 2^-10 (bfloat16 would give 1). */
	cfg(f, false, TT_TX_HIFI4, false);
	for (unsigned i = 0; i < E; i++) {
		half[i] = 1.0f;
		v[i] = 0x1p-11f + 0x1p-13f;
	}
	assert_int_equal(df_tilize_convert(DF_FLOAT16, tile, sizeof(tile),
					   DF_FLOAT32, half, sizeof(half), 32,
					   32),
			 0);
	assert_int_equal(tt_noc_write(f->dev, 0, f->c.x, f->c.y, A_ADDR, tile,
				      sizeof(tile)),
			 0);
	put_tile(f, B_ADDR, DF_FLOAT32, v);
	operands(f, A_ADDR, DF_FLOAT16, B_ADDR, DF_FLOAT32, 6);
	run_ok(f, TT_TX_ELTWISE, TT_TX_ADD, 0);
	get_dst(f, 6, got);
	assert_true(got[0] == 1.0f + 0x1p-10f && got[E - 1] == got[0]);
	wr(f, TT_TX_A_FMT, DF_FLOAT32);
	put_tile(f, A_ADDR, DF_FLOAT32, half);
	run_ok(f, TT_TX_ELTWISE, TT_TX_ADD, 0);
	get_dst(f, 6, got);
	assert_true(got[0] == 1.0f);
	/* The vector unit's results are rounded too. */
	wr(f, TT_TX_ARG0, 0);
	run_ok(f, TT_TX_SFPU, TT_TX_EXP, 0);
	get_dst(f, 6, got);
	assert_true(got[0] == bf16(expf(1.0f)));
}

/* ---- element-wise ---- */

static double bcast_ref(const float *b, unsigned flags, unsigned i)
{
	unsigned r = i / 32, c = i % 32;

	if (flags & TT_TX_F_BCAST_ROW)
		return b[c];
	if (flags & TT_TX_F_BCAST_COL)
		return b[r * 32];
	if (flags & TT_TX_F_BCAST_SCALAR)
		return b[0];
	return b[i];
}

static void test_eltwise(void **state)
{
	struct fx *f = *state;
	const unsigned bcasts[] = { 0, TT_TX_F_BCAST_ROW, TT_TX_F_BCAST_COL,
				    TT_TX_F_BCAST_SCALAR };
	float a[E], b[E], acc[E], got[E];
	double want[E];

	cfg(f, true, TT_TX_HIFI4, false);
	fill_bf16(a, -2, 2);
	fill_bf16(b, -2, 2);
	fill_bf16(acc, -4, 4);
	for (unsigned op = TT_TX_ADD; op <= TT_TX_MUL; op++) {
		for (unsigned k = 0; k < 4; k++) {
			for (unsigned with_acc = 0; with_acc < 2; with_acc++) {
				unsigned fl = bcasts[k] |
					      (with_acc ? TT_TX_F_ACC : 0);

				set_dst(f, 7, acc);
				put_tile(f, A_ADDR, DF_FLOAT16_B, a);
				put_tile(f, B_ADDR, DF_FLOAT16_B, b);
				operands(f, A_ADDR, DF_FLOAT16_B, B_ADDR,
					 DF_FLOAT16_B, 7);
				run_ok(f, TT_TX_ELTWISE, op, fl);
				get_dst(f, 7, got);
				for (unsigned i = 0; i < E; i++) {
					double x = a[i];
					double y = bcast_ref(b, fl, i);
					double v = op == TT_TX_ADD ? x + y :
						   op == TT_TX_SUB ? x - y :
								     x * y;

					want[i] = with_acc ? acc[i] + v : v;
				}
				/* bf16 inputs: every product is exact, each
				 * sum rounds once or twice in fp32. */
				expect_close(got, want, 2.5e-7, 1e-6,
					     "ELTWISE");
			}
		}
	}
	/* In 16-bit mode the result is the bf16 rounding of that. */
	cfg(f, false, TT_TX_HIFI4, false);
	run_ok(f, TT_TX_ELTWISE, TT_TX_MUL, TT_TX_F_BCAST_COL);
	get_dst(f, 7, got);
	for (unsigned i = 0; i < E; i++)
		assert_true(got[i] == bf16(a[i] * b[(i / 32) * 32]));
}

/* ---- matrix products ---- */

/* Put an rt x kt block of random tiles at addr with a row stride (in
 * tiles); returns the matrix, (rt*32) x (kt*32) row-major. */
static float *put_block(struct fx *f, uint32_t addr, enum df_format fmt,
			unsigned rt, unsigned kt, unsigned stride, float lo,
			float hi, bool as_bf16)
{
	size_t cols = (size_t)kt * 32, tb = df_tile_bytes(fmt);
	float *m = malloc(sizeof(float) * rt * 32 * cols), t[E];
	uint8_t tile[4096];

	assert_non_null(m);
	for (unsigned r = 0; r < rt; r++) {
		for (unsigned k = 0; k < kt; k++) {
			if (as_bf16)
				fill_bf16(t, lo, hi);
			else
				fill_f32(t, lo, hi);
			assert_int_equal(df_tilize_convert(fmt, tile, tb,
							   DF_FLOAT32, t,
							   sizeof(t), 32, 32),
					 0);
			assert_int_equal(df_untilize_convert(DF_FLOAT32, t,
							     sizeof(t), fmt,
							     tile, tb, 32, 32),
					 0);
			size_t at = addr + ((size_t)r * stride + k) * tb;

			assert_int_equal(tt_noc_write(f->dev, 0, f->c.x,
						      f->c.y, at, tile, tb),
					 0);
			for (unsigned i = 0; i < 32; i++)
				memcpy(m + ((size_t)r * 32 + i) * cols + k * 32,
				       t + i * 32, 32 * sizeof(float));
		}
	}
	return m;
}

/* Operand truncation of the model: top `bits` of the mantissa. */
static float keep_bits(float x, unsigned bits)
{
	uint32_t u;

	memcpy(&u, &x, 4);
	u &= ~((1u << (23 - bits)) - 1);
	memcpy(&x, &u, 4);
	return x;
}

/* a x b as the multiplier computes it at fidelity fid. */
static float fid_mul_ref(float a, float b, unsigned fid)
{
	a = keep_bits(a, 10);
	b = keep_bits(b, 10);
	switch (fid) {
	case TT_TX_LOFI:
		return keep_bits(a, 4) * keep_bits(b, 6);
	case TT_TX_HIFI2:
		return keep_bits(a, 8) * keep_bits(b, 6);
	case TT_TX_HIFI3:
		return keep_bits(a, 8) * keep_bits(b, 6) +
		       keep_bits(a, 4) * (b - keep_bits(b, 6));
	default:
		return keep_bits(a, 8) * b;
	}
}

/* C(rt*32 x ct*32) = A x B (B's tiles transposed if asked), each product
 * as fidelity fid computes it (fid < 0: exact), in double. */
static double *matmul_ref(const float *a, const float *b, unsigned rt,
			  unsigned ct, unsigned kt, bool tr, int fid)
{
	size_t m = rt * 32u, n = ct * 32u, k = kt * 32u;
	double *c = calloc(m * n, sizeof(double));

	assert_non_null(c);
	for (size_t i = 0; i < m; i++) {
		for (size_t j = 0; j < n; j++) {
			double s = 0;

			for (size_t p = 0; p < k; p++) {
				/* Transposed within each tile. */
				size_t bp = tr ? (p / 32) * 32 + j % 32 : p;
				size_t bj = tr ? (j / 32) * 32 + p % 32 : j;
				float x = a[i * k + p], y = b[bp * n + bj];

				if (fid < 0)
					s += (double)x * y;
				else
					s += fid_mul_ref(x, y, (unsigned)fid);
			}
			c[i * n + j] = s;
		}
	}
	return c;
}

/* DST tile (r, c) of a block result, against C. */
static double block_err(struct fx *f, unsigned d0, unsigned rt, unsigned ct,
			const double *c, double base, double scale)
{
	double worst = 0;
	float got[E];

	for (unsigned r = 0; r < rt; r++) {
		for (unsigned k = 0; k < ct; k++) {
			get_dst(f, d0 + r * ct + k, got);
			for (unsigned i = 0; i < E; i++) {
				double w = base + scale *
					   c[(r * 32 + i / 32) * ct * 32 +
					     k * 32 + i % 32];
				double e = fabs(got[i] - w) / fabs(w);

				if (e > worst)
					worst = e;
			}
		}
	}
	return worst;
}

static void test_matmul_block(void **state)
{
	struct fx *f = *state;
	const unsigned rt = 2, ct = 4, kt = 3, sa = 5, sb = 6;
	float *a, *b, one[E];
	double *c, *ct_ref;
	uint64_t flops;

	cfg(f, true, TT_TX_HIFI4, false);
	a = put_block(f, A_ADDR, DF_FLOAT16_B, rt, kt, sa, 0, 1, true);
	b = put_block(f, B_ADDR, DF_FLOAT16_B, kt, ct, sb, 0, 1, true);
	c = matmul_ref(a, b, rt, ct, kt, false, -1);
	operands(f, A_ADDR, DF_FLOAT16_B, B_ADDR, DF_FLOAT16_B, 0);
	wr(f, TT_TX_ARG0, 0);
	wr(f, TT_TX_DST, 0);
	args(f, rt * ct, 0, 0);
	run_ok(f, TT_TX_ZERO, 0, 0);
	args(f, rt | ct << 8 | kt << 16, sa, sb);
	flops = rd64(f, TT_TX_FLOPS_LO);
	run_ok(f, TT_TX_MATMUL, 0, 0);
	assert_int_equal(rd64(f, TT_TX_FLOPS_LO) - flops,
			 32768ull * rt * ct * kt);
	/* HiFi4, bf16 in, fp32 DST: the fp32 reference to about 1e-6. */
	assert_true(block_err(f, 0, rt, ct, c, 0, 1) < 1.5e-6);
	/* It accumulates. */
	run_ok(f, TT_TX_MATMUL, 0, 0);
	assert_true(block_err(f, 0, rt, ct, c, 0, 2) < 1.5e-6);
	/* Transposed B tiles. */
	ct_ref = matmul_ref(a, b, rt, ct, kt, true, -1);
	args(f, rt * ct, 0, 0);
	run_ok(f, TT_TX_ZERO, 0, 0);
	args(f, rt | ct << 8 | kt << 16, sa, sb);
	run_ok(f, TT_TX_MATMUL, 0, TT_TX_F_TRANSPOSE);
	assert_true(block_err(f, 0, rt, ct, ct_ref, 0, 1) < 1.5e-6);
	/* Into 16-bit DST: each result rounded to bf16 (half an ulp, 2^-8
	 * at most, plus the fp32 sum's error). */
	cfg(f, false, TT_TX_HIFI4, false);
	args(f, rt * ct, 0, 0);
	wr(f, TT_TX_DST, 8);
	run_ok(f, TT_TX_ZERO, 0, 0);
	args(f, rt | ct << 8 | kt << 16, sa, sb);
	run_ok(f, TT_TX_MATMUL, 0, 0);
	assert_true(block_err(f, 8, rt, ct, c, 0, 1) < 0x1p-8 + 2e-6);
	get_dst(f, 8, one);
	for (unsigned i = 0; i < E; i++)
		assert_true(one[i] == bf16(one[i]));
	free(a);
	free(b);
	free(c);
	free(ct_ref);
}

/* Mixed formats, and a long inner dimension in one command. */
static void test_matmul_formats(void **state)
{
	struct fx *f = *state;
	float *a, *b;
	double *c;

	cfg(f, true, TT_TX_HIFI4, false);
	a = put_block(f, A_ADDR, DF_BFP8_B, 1, 16, 16, -1, 1, true);
	b = put_block(f, B_ADDR, DF_FLOAT16_B, 16, 2, 2, -1, 1, true);
	c = matmul_ref(a, b, 1, 2, 16, false, -1);
	operands(f, A_ADDR, DF_BFP8_B, B_ADDR, DF_FLOAT16_B, 2);
	args(f, 2, 0, 0);
	run_ok(f, TT_TX_ZERO, 0, 0);
	args(f, 1 | 2 << 8 | 16 << 16, 16, 2);
	run_ok(f, TT_TX_MATMUL, 0, 0);
	/* Signed sums may cancel: absolute error against the magnitude. */
	for (unsigned k = 0; k < 2; k++) {
		float got[E];

		get_dst(f, 2 + k, got);
		for (unsigned i = 0; i < E; i++) {
			double w = c[(i / 32) * 64 + k * 32 + i % 32];

			assert_true(fabs(got[i] - w) < 2e-4);
		}
	}
	free(a);
	free(b);
	free(c);
}

/* Mean relative error of DST[d] against v. */
static double mean_err(const float *got, const double *v)
{
	double s = 0;

	for (unsigned i = 0; i < E; i++)
		s += fabs(got[i] - v[i]) / fabs(v[i]);
	return s / E;
}

static void test_fidelity(void **state)
{
	struct fx *f = *state;
	const unsigned fids[] = { TT_TX_LOFI, TT_TX_HIFI2, TT_TX_HIFI3,
				  TT_TX_HIFI4 };
	double err_mul[4], err_mm[4], exact[E], model[E], *c, *cm;
	float a[E], b[E], got[E], *ma, *mb;

	/* Full fp32 mantissas, so every pass matters. */
	fill_f32(a, 0.5f, 1.0f);
	fill_f32(b, 0.5f, 1.0f);
	ma = put_block(f, ROWS_ADDR, DF_FLOAT32, 1, 2, 2, 0.5f, 1.0f, false);
	mb = put_block(f, ROWS_ADDR + 0x4000, DF_FLOAT32, 2, 1, 1, 0.5f, 1.0f,
		       false);
	c = matmul_ref(ma, mb, 1, 1, 2, false, -1);
	for (unsigned i = 0; i < E; i++)
		exact[i] = (double)a[i] * b[i];
	for (unsigned k = 0; k < 4; k++) {
		cfg(f, true, fids[k], false);
		put_tile(f, A_ADDR, DF_FLOAT32, a);
		put_tile(f, B_ADDR, DF_FLOAT32, b);
		operands(f, A_ADDR, DF_FLOAT32, B_ADDR, DF_FLOAT32, 0);
		run_ok(f, TT_TX_ELTWISE, TT_TX_MUL, 0);
		get_dst(f, 0, got);
		/* Exactly the truncated operands' product. */
		for (unsigned i = 0; i < E; i++)
			assert_true(got[i] == fid_mul_ref(a[i], b[i], fids[k]));
		err_mul[k] = mean_err(got, exact);
		/* The matrix unit: the same products, summed. */
		operands(f, ROWS_ADDR, DF_FLOAT32, ROWS_ADDR + 0x4000,
			 DF_FLOAT32, 1);
		args(f, 0, 0, 0);
		run_ok(f, TT_TX_ZERO, 0, 0);
		args(f, 1 | 1 << 8 | 2 << 16, 2, 1);
		run_ok(f, TT_TX_MATMUL, 0, 0);
		cm = matmul_ref(ma, mb, 1, 1, 2, false, (int)fids[k]);
		assert_true(block_err(f, 1, 1, 1, cm, 0, 1) < 4e-6);
		get_dst(f, 1, got);
		for (unsigned i = 0; i < E; i++)
			model[i] = c[i];
		err_mm[k] = mean_err(got, model);
		free(cm);
	}
	print_message("# fidelity mean rel. error, MUL: %.2e %.2e %.2e %.2e; "
		      "MATMUL: %.2e %.2e %.2e %.2e\n",
		      err_mul[0], err_mul[1], err_mul[2], err_mul[3], err_mm[0],
		      err_mm[1], err_mm[2], err_mm[3]);
	/* Each step up is more accurate; LoFi by far the least. */
	for (unsigned k = 0; k < 3; k++) {
		assert_true(err_mul[k] > err_mul[k + 1]);
		assert_true(err_mm[k] > err_mm[k + 1]);
	}
	assert_true(err_mul[0] > 10 * err_mul[3]);
	assert_true(err_mm[0] > 10 * err_mm[3]);
	/* HiFi4 is TF32 x TF32 truncation at worst (A: 8 bits here). */
	assert_true(err_mul[3] < 0x1p-8);
	free(ma);
	free(mb);
	free(c);
}

/* Fidelity on operands of every format, in one command: the products of
 * the truncated values, whatever precision the format brought. */
static void test_fidelity_formats(void **state)
{
	struct fx *f = *state;
	static const enum df_format fmts[] = { DF_FLOAT16_B, DF_BFP8_B,
					       DF_BFP4_B,    DF_FLOAT16,
					       DF_INT8,	     DF_UINT16 };
	float *ma, *mb;
	double *cm;

	for (unsigned k = 0; k < sizeof(fmts) / sizeof(fmts[0]); k++) {
		bool ints = fmts[k] == DF_INT8 || fmts[k] == DF_UINT16;
		float hi = ints ? 120 : 1;

		for (unsigned fid = TT_TX_LOFI; fid <= TT_TX_HIFI4; fid++) {
			if (fid == 1)
				continue;
			cfg(f, true, fid, false);
			ma = put_block(f, A_ADDR, fmts[k], 2, 2, 2, hi / 4, hi,
				       false);
			mb = put_block(f, B_ADDR, fmts[k], 2, 1, 1, hi / 4, hi,
				       false);
			operands(f, A_ADDR, fmts[k], B_ADDR, fmts[k], 1);
			args(f, 2, 0, 0);
			run_ok(f, TT_TX_ZERO, 0, 0);
			args(f, 2 | 1 << 8 | 2 << 16, 2, 1);
			run_ok(f, TT_TX_MATMUL, 0, 0);
			cm = matmul_ref(ma, mb, 2, 1, 2, false, (int)fid);
			if (!(block_err(f, 1, 2, 1, cm, 0, 1) < 4e-6))
				fail_msg("MATMUL of %s at fidelity %u",
					 df_name(fmts[k]), fid);
			free(ma);
			free(mb);
			free(cm);
		}
	}
}

/* The source registers hold TF32: ADD of fp32 operands adds their top
 * 10 mantissa bits, where COPY keeps all 23 (test_dst_rounding). */
static void test_source_precision(void **state)
{
	struct fx *f = *state;
	float a[E], b[E], got[E];

	cfg(f, true, TT_TX_HIFI4, false);
	fill_f32(a, -8, 8);
	fill_f32(b, -8, 8);
	put_tile(f, A_ADDR, DF_FLOAT32, a);
	put_tile(f, B_ADDR, DF_FLOAT32, b);
	operands(f, A_ADDR, DF_FLOAT32, B_ADDR, DF_FLOAT32, 1);
	for (unsigned op = TT_TX_ADD; op <= TT_TX_SUB; op++) {
		run_ok(f, TT_TX_ELTWISE, op, 0);
		get_dst(f, 1, got);
		for (unsigned i = 0; i < E; i++) {
			float x = keep_bits(a[i], 10), y = keep_bits(b[i], 10);
			float v = op == TT_TX_ADD ? x + y : x - y;

			assert_true(got[i] == v);
		}
	}
}

/* ---- reductions ---- */

static void test_reduce(void **state)
{
	struct fx *f = *state;
	const unsigned dirs[] = { TT_TX_F_REDUCE_ROW, TT_TX_F_REDUCE_COL,
				  TT_TX_F_REDUCE_SCALAR };
	float a[E], sc[E], p[E], got[E];
	double want[E], mag[E];
	const float s = 0.5f;

	cfg(f, true, TT_TX_HIFI4, false);
	fill_bf16(a, -4, 4);
	fill_bf16(sc, 10, 20); /* only (0, 0) counts */
	sc[0] = s;
	fill_bf16(p, -1, 1);
	put_tile(f, A_ADDR, DF_FLOAT16_B, a);
	put_tile(f, B_ADDR, DF_FLOAT16_B, sc);
	for (unsigned sub = TT_TX_REDUCE_SUM; sub <= TT_TX_REDUCE_AVG; sub++) {
		for (unsigned k = 0; k < 3; k++) {
			set_dst(f, 3, p);
			operands(f, A_ADDR, DF_FLOAT16_B, B_ADDR, DF_FLOAT16_B,
				 3);
			run_ok(f, TT_TX_REDUCE, sub, dirs[k]);
			get_dst(f, 3, got);
			for (unsigned i = 0; i < E; i++) {
				want[i] = p[i];
				mag[i] = fabs(p[i]);
			}
			for (unsigned i = 0; i < E; i++) {
				unsigned r = i / 32, c = i % 32;
				unsigned t = dirs[k] == TT_TX_F_REDUCE_ROW ?
						     r * 32 :
					     dirs[k] == TT_TX_F_REDUCE_COL ? c :
									     0;

				want[t] += (double)a[i] * s;
				mag[t] += fabs((double)a[i] * s);
			}
			/* fp32 sums: a few ulps of the terms' magnitude. */
			for (unsigned i = 0; i < E; i++)
				if (!(fabs(got[i] - want[i]) <=
				      4 * 0x1p-24 * mag[i] * 32))
					fail_msg("REDUCE %u/%#x at %u: %g, expected %g",
						 sub, dirs[k], i, got[i],
						 want[i]);
		}
	}
	/* MAX of negative values into a zeroed tile: not 0. */
	for (unsigned i = 0; i < E; i++)
		a[i] = -bf16(urand(1, 100));
	put_tile(f, A_ADDR, DF_FLOAT16_B, a);
	for (unsigned k = 0; k < 3; k++) {
		args(f, 0, 0, 0);
		run_ok(f, TT_TX_ZERO, 0, 0);
		run_ok(f, TT_TX_REDUCE, TT_TX_REDUCE_MAX, dirs[k]);
		get_dst(f, 3, got);
		for (unsigned i = 0; i < E; i++)
			want[i] = 0;
		for (unsigned i = 0; i < E; i++) {
			unsigned r = i / 32, c = i % 32;
			unsigned t = dirs[k] == TT_TX_F_REDUCE_ROW ? r * 32 :
				     dirs[k] == TT_TX_F_REDUCE_COL ? c :
								     0;
			double v = (double)a[i] * s;

			if (want[t] == 0 || v > want[t])
				want[t] = v;
		}
		expect_close(got, want, 0, 0, "REDUCE MAX into zeros");
		/* Once written, the tile takes part: smaller inputs leave
		 * it as it is. */
		for (unsigned i = 0; i < E; i++)
			p[i] = a[i] * 3;
		put_tile(f, B_ADDR + 0x1000, DF_FLOAT16_B, p);
		wr(f, TT_TX_A_ADDR, B_ADDR + 0x1000);
		run_ok(f, TT_TX_REDUCE, TT_TX_REDUCE_MAX, dirs[k]);
		get_dst(f, 3, got);
		expect_close(got, want, 0, 0, "REDUCE MAX, smaller input");
		wr(f, TT_TX_A_ADDR, A_ADDR);
	}
	/* MAX into a tile that was written ignores fidelity and keeps the
	 * larger of old and new. */
	for (unsigned i = 0; i < E; i++)
		p[i] = (i % 2) ? -1000.0f : 1000.0f;
	set_dst(f, 3, p);
	operands(f, A_ADDR, DF_FLOAT16_B, B_ADDR, DF_FLOAT16_B, 3);
	cfg(f, true, 1, false);
	run_ok(f, TT_TX_REDUCE, TT_TX_REDUCE_MAX, TT_TX_F_REDUCE_COL);
	get_dst(f, 3, got);
	for (unsigned c = 0; c < 32; c++) {
		double m = -INFINITY;

		for (unsigned r = 0; r < 32; r++)
			m = fmax(m, (double)a[r * 32 + c] * s);
		assert_true(got[c] == (c % 2 ? m : 1000.0f));
	}
	assert_true(got[32] == 1000.0f && got[33] == -1000.0f);
}

/*
 * REDUCE SUM and AVG at every fidelity, against the fidelity rule of
 * hw/tensix.h (fid_mul_ref: the operands' mantissas truncated) applied to
 * each a x scaler, summed per line in fp32 in line order (SCALAR: rows,
 * then their sums) and added to DST. fp32 inputs with low mantissa bits
 * set and a scaler that is no power of two, so every fidelity gives its
 * own result, each compared bit for bit. MAX ignores fidelity: the plain
 * product of the TF32 operands at every setting.
 */
static void reduce_fid_ref(const float *a, float s, const float *p,
			   unsigned dir, unsigned fid, float *want)
{
	float sums[32], total = 0.0f;

	memcpy(want, p, sizeof(float) * E);
	for (unsigned t = 0; t < 32; t++) {
		float acc = 0.0f;

		for (unsigned j = 0; j < 32; j++) {
			unsigned i = dir == TT_TX_F_REDUCE_COL ? j * 32 + t :
								 t * 32 + j;

			acc += fid_mul_ref(a[i], s, fid);
		}
		sums[t] = acc;
		total += acc;
	}
	if (dir == TT_TX_F_REDUCE_SCALAR) {
		want[0] += total;
		return;
	}
	for (unsigned t = 0; t < 32; t++)
		want[dir == TT_TX_F_REDUCE_ROW ? t * 32 : t] += sums[t];
}

static void test_reduce_fidelity(void **state)
{
	struct fx *f = *state;
	const unsigned dirs[] = { TT_TX_F_REDUCE_ROW, TT_TX_F_REDUCE_COL,
				  TT_TX_F_REDUCE_SCALAR };
	const unsigned fids[] = { TT_TX_LOFI, TT_TX_HIFI2, TT_TX_HIFI3,
				  TT_TX_HIFI4 };
	/* 0.7 has mantissa bits below the 4th, 6th and 8th: each pass
	 * sees another scaler; 1/32 is AVG's of a line, a power of two. */
	const float scalers[] = { 0.7f, 1.0f / 3.0f, 1.0f / 32.0f };
	float a[E], sc[E], p[E], got[E], want[4][E], m;

	fill_f32(a, -4, 4);
	for (unsigned i = 0; i < E; i++) /* every mantissa bit of TF32 set */
		a[i] = a[i] < 0 ? -keep_bits(-a[i], 10) : keep_bits(a[i], 10);
	a[5] = 1.9990234375f; /* 1.1111111111b: the mantissa all ones */
	fill_f32(sc, 10, 20); /* only (0, 0) counts */
	fill_bf16(p, -1, 1);
	put_tile(f, A_ADDR, DF_FLOAT32, a);
	for (unsigned si = 0; si < 3; si++) {
		sc[0] = scalers[si];
		put_tile(f, B_ADDR, DF_FLOAT32, sc);
		for (unsigned sub = TT_TX_REDUCE_SUM; sub <= TT_TX_REDUCE_AVG;
		     sub++) {
			for (unsigned k = 0; k < 3; k++) {
				for (unsigned fi = 0; fi < 4; fi++) {
					cfg(f, true, fids[fi], false);
					set_dst(f, 3, p);
					operands(f, A_ADDR, DF_FLOAT32, B_ADDR,
						 DF_FLOAT32, 3);
					run_ok(f, TT_TX_REDUCE, sub, dirs[k]);
					get_dst(f, 3, got);
					reduce_fid_ref(a, keep_bits(sc[0], 10),
						       p, dirs[k], fids[fi],
						       want[fi]);
					for (unsigned i = 0; i < E; i++)
						if (memcmp(&got[i],
							   &want[fi][i], 4))
							fail_msg("REDUCE %u/%#x, scaler %g, fidelity %u: element %u is %.9g, expected %.9g",
								 sub, dirs[k],
								 scalers[si],
								 fids[fi], i,
								 got[i],
								 want[fi][i]);
				}
				/* The inputs tell every fidelity apart. */
				for (unsigned x = 0; si == 0 && x < 4; x++)
					for (unsigned y = x + 1; y < 4; y++)
						assert_memory_not_equal(
							want[x], want[y],
							sizeof(want[x]));
			}
		}
	}
	/* MAX: the same product at every fidelity. */
	sc[0] = 0.7f;
	put_tile(f, B_ADDR, DF_FLOAT32, sc);
	for (unsigned fi = 0; fi < 4; fi++) {
		cfg(f, true, fids[fi], false);
		args(f, 0, 0, 0);
		wr(f, TT_TX_DST, 3);
		run_ok(f, TT_TX_ZERO, 0, 0);
		operands(f, A_ADDR, DF_FLOAT32, B_ADDR, DF_FLOAT32, 3);
		run_ok(f, TT_TX_REDUCE, TT_TX_REDUCE_MAX, TT_TX_F_REDUCE_SCALAR);
		get_dst(f, 3, got);
		m = -INFINITY;
		for (unsigned i = 0; i < E; i++)
			if (a[i] * keep_bits(0.7f, 10) > m)
				m = a[i] * keep_bits(0.7f, 10);
		if (memcmp(&got[0], &m, 4))
			fail_msg("REDUCE MAX at fidelity %u: %.9g, expected %.9g",
				 fids[fi], got[0], m);
	}
}

/* ---- the vector unit ---- */

struct unary_case {
	unsigned fn;
	float lo, hi, param;
	bool approx; /* has an approximate form */
};

/* The vector unit's functions, in double. */
static double unary_ref(unsigned fn, double x, double p)
{
	switch (fn) {
	case TT_TX_EXP:
		return exp(x);
	case TT_TX_LOG:
		return log(x);
	case TT_TX_SQRT:
		return sqrt(x);
	case TT_TX_RECIP:
		return 1 / x;
	case TT_TX_RELU:
		return x > 0 ? x : 0;
	case TT_TX_GELU:
		return 0.5 * x * (1 + erf(x / sqrt(2.0)));
	case TT_TX_SIGMOID:
		return 1 / (1 + exp(-x));
	case TT_TX_TANH:
		return tanh(x);
	case TT_TX_ABS:
		return fabs(x);
	case TT_TX_SQUARE:
		return x * x;
	case TT_TX_NEG:
		return -x;
	case TT_TX_POWER:
		return pow(x, p);
	case TT_TX_RSQRT:
		return 1 / sqrt(x);
	case TT_TX_EXP2:
		return exp2(x);
	case TT_TX_SILU:
		return x / (1 + exp(-x));
	case TT_TX_SIN:
		return sin(x);
	case TT_TX_COS:
		return cos(x);
	case TT_TX_SIGN:
		return (x > 0) - (x < 0);
	case TT_TX_FILL:
		return p;
	case TT_TX_LEAKY_RELU:
		return x > 0 ? x : p * x;
	case TT_TX_EXPM1:
		return expm1(x);
	default: /* TT_TX_ERF */
		return erf(x);
	}
}

static const struct unary_case unary_cases[] = {
	{ TT_TX_EXP, -20, 20, 0, true },
	{ TT_TX_LOG, 1e-6f, 1e6f, 0, true },
	{ TT_TX_SQRT, 1e-6f, 1e6f, 0, true },
	{ TT_TX_RECIP, -1e4f, 1e4f, 0, true },
	{ TT_TX_RELU, -5, 5, 0, false },
	{ TT_TX_GELU, -6, 6, 0, true },
	{ TT_TX_SIGMOID, -20, 20, 0, true },
	{ TT_TX_TANH, -6, 6, 0, true },
	{ TT_TX_ABS, -5, 5, 0, false },
	{ TT_TX_SQUARE, -100, 100, 0, false },
	{ TT_TX_NEG, -5, 5, 0, false },
	{ TT_TX_POWER, 0.01f, 10, 2.5f, false },
	{ TT_TX_RSQRT, 1e-6f, 1e6f, 0, false },
	{ TT_TX_EXP2, -30, 30, 0, false },
	{ TT_TX_SILU, -20, 20, 0, false },
	{ TT_TX_SIN, -10, 10, 0, false },
	{ TT_TX_COS, -10, 10, 0, false },
	{ TT_TX_SIGN, -1, 1, 0, false },
	{ TT_TX_FILL, -1, 1, 3.25f, false },
	{ TT_TX_LEAKY_RELU, -5, 5, 0.1f, false },
	{ TT_TX_EXPM1, -5, 5, 0, false },
	{ TT_TX_ERF, -4, 4, 0, false },
};

static void sfpu_case(struct fx *f, const struct unary_case *u, bool approx)
{
	float v[E], got[E];
	double want[E], worst = 0;
	uint32_t pbits;

	for (unsigned i = 0; i < E; i++) {
		/* Log-spaced for wide positive ranges. */
		v[i] = u->lo > 0 ? u->lo * powf(u->hi / u->lo, urand(0, 1)) :
				   urand(u->lo, u->hi);
		want[i] = unary_ref(u->fn, v[i], u->param);
	}
	v[9] = u->lo > 0 ? 1.0f : 0.0f;
	want[9] = unary_ref(u->fn, v[9], u->param);
	cfg(f, true, TT_TX_HIFI4, approx);
	set_dst(f, 4, v);
	memcpy(&pbits, &u->param, 4);
	wr(f, TT_TX_ARG0, pbits);
	wr(f, TT_TX_DST, 4);
	run_ok(f, TT_TX_SFPU, u->fn, 0);
	get_dst(f, 4, got);
	if (!approx) {
		/* libm in fp32: a few ulps, sin/cos near their zeros in
		 * absolute terms. */
		expect_close(got, want, 1e-6, 1e-6, "SFPU");
		return;
	}
	for (unsigned i = 0; i < E; i++) {
		double err = got[i] == want[i] ? 0 : fabs(got[i] - want[i]);
		/* The tanh form of gelu: 1e-3 of max(|gelu|, 1). */
		double scale = u->fn == TT_TX_GELU ? fmax(fabs(want[i]), 1) :
						     fabs(want[i]);

		if (!(err <= 1e-3 * scale))
			fail_msg("approximate SFPU %u at %g: %g, expected %g",
				 u->fn, v[i], got[i], want[i]);
		if (scale > 0 && err / scale > worst)
			worst = err / scale;
	}
	print_message("# approximate SFPU %u: worst error %.1e\n", u->fn,
		      worst);
}

static void test_sfpu(void **state)
{
	struct fx *f = *state;

	for (size_t k = 0; k < sizeof(unary_cases) / sizeof(unary_cases[0]);
	     k++) {
		sfpu_case(f, &unary_cases[k], false);
		if (unary_cases[k].approx)
			sfpu_case(f, &unary_cases[k], true);
	}
}

/* The scalar C function a vector-unit function computes, in float. */
static float unary_f(unsigned fn, float x)
{
	switch (fn) {
	case TT_TX_EXP:
		return expf(x);
	case TT_TX_LOG:
		return logf(x);
	case TT_TX_TANH:
		return tanhf(x);
	case TT_TX_EXP2:
		return exp2f(x);
	case TT_TX_EXPM1:
		return expm1f(x);
	case TT_TX_SIN:
		return sinf(x);
	case TT_TX_COS:
		return cosf(x);
	case TT_TX_SIGMOID:
		return 1.0f / (1.0f + expf(-x));
	case TT_TX_SILU:
		return x / (1.0f + expf(-x));
	case TT_TX_GELU:
		return 0.5f * x * (1.0f + erff(x * 0.707106781f));
	default: /* TT_TX_ERF */
		return erff(x);
	}
}

/* Special and extreme inputs (NaN, infinities, signed zeros, subnormals,
 * overflow and underflow, huge arguments of sin and cos) give what the C
 * library's scalar function gives: the same class and sign, and a close
 * value, whichever form (scalar or the host's vector math) the model
 * uses. */
static void test_sfpu_specials(void **state)
{
	static const unsigned fns[] = {
		TT_TX_EXP, TT_TX_LOG, TT_TX_TANH, TT_TX_EXP2, TT_TX_EXPM1,
		TT_TX_SIN, TT_TX_COS, TT_TX_SIGMOID, TT_TX_SILU, TT_TX_GELU,
		TT_TX_ERF,
	};
	const float special[] = {
		NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 0x1p-140f,
		-0x1p-140f, FLT_MIN, 88.8f, -104.0f, 128.5f, -150.5f, 1e30f,
		-1e30f, 3.0e5f, 1e-20f, FLT_MAX, -FLT_MAX, 9.0f, -9.0f,
	};
	struct fx *f = *state;
	float v[E], got[E];

	/* Every element special: ordinary values are test_sfpu's. */
	for (unsigned i = 0; i < E; i++)
		v[i] = special[i % (sizeof(special) / sizeof(special[0]))];
	cfg(f, true, TT_TX_HIFI4, false);
	for (size_t k = 0; k < sizeof(fns) / sizeof(fns[0]); k++) {
		set_dst(f, 4, v);
		wr(f, TT_TX_DST, 4);
		run_ok(f, TT_TX_SFPU, fns[k], 0);
		get_dst(f, 4, got);
		for (unsigned i = 0; i < E; i++) {
			float want = unary_f(fns[k], v[i]);
			bool same = isnan(want) ? isnan(got[i]) :
				    isinf(want) || want == 0 ?
					    got[i] == want &&
						    !signbit(got[i]) ==
							    !signbit(want) :
					    fabsf(got[i] - want) <=
						    1e-6f * fabsf(want) +
							    1e-30f;

			if (!same)
				fail_msg("SFPU %u at %a: %a, the C library %a",
					 fns[k], v[i], got[i], want);
		}
	}
}

/* The approximations are in use: exp differs from the exact one
 * somewhere, within its bound. */
static void test_sfpu_approx_differs(void **state)
{
	struct fx *f = *state;
	float v[E], exact[E], approx[E];
	unsigned diff = 0;

	fill_f32(v, -10, 10);
	for (int k = 0; k < 2; k++) {
		cfg(f, true, TT_TX_HIFI4, k);
		set_dst(f, 4, v);
		run_ok(f, TT_TX_SFPU, TT_TX_EXP, 0);
		get_dst(f, 4, k ? approx : exact);
	}
	for (unsigned i = 0; i < E; i++)
		diff += exact[i] != approx[i];
	assert_true(diff > 0);
}

static double b_ref(unsigned op, double a, double b)
{
	switch (op) {
	case TT_TX_ADD:
		return a + b;
	case TT_TX_SUB:
		return a - b;
	case TT_TX_MUL:
		return a * b;
	case TT_TX_DIV:
		return a / b;
	case TT_TX_MAX:
		return fmax(a, b);
	case TT_TX_MIN:
		return fmin(a, b);
	case TT_TX_RSUB:
		return b - a;
	default:
		return pow(a, b);
	}
}

static void test_sfpu_binary(void **state)
{
	struct fx *f = *state;
	float x[E], y[E], got[E];
	double want[E];

	cfg(f, true, TT_TX_HIFI4, false);
	fill_f32(x, 0.1f, 4);
	fill_f32(y, -3, 3);
	for (unsigned op = TT_TX_ADD; op <= TT_TX_POW; op++) {
		set_dst(f, 5, x);
		set_dst(f, 6, y);
		wr(f, TT_TX_DST, 5);
		wr(f, TT_TX_ARG0, 6);
		run_ok(f, TT_TX_SFPU_BINARY, op, 0);
		get_dst(f, 5, got);
		for (unsigned i = 0; i < E; i++)
			want[i] = b_ref(op, x[i], y[i]);
		expect_close(got, want, 1e-6, 1e-6, "SFPU_BINARY");
	}
	/* MAX and MIN as fmaxf and fminf: a NaN on either side loses. */
	for (unsigned op = TT_TX_MAX; op <= TT_TX_MIN; op++) {
		x[0] = NAN;
		y[1] = NAN;
		x[2] = y[2] = NAN;
		set_dst(f, 5, x);
		set_dst(f, 6, y);
		wr(f, TT_TX_DST, 5);
		wr(f, TT_TX_ARG0, 6);
		run_ok(f, TT_TX_SFPU_BINARY, op, 0);
		get_dst(f, 5, got);
		assert_true(got[0] == y[0] && got[1] == x[1] && isnan(got[2]));
		for (unsigned i = 3; i < E; i++)
			assert_true(got[i] == (op == TT_TX_MAX ?
						       fmaxf(x[i], y[i]) :
						       fminf(x[i], y[i])));
	}
	fill_f32(x, 0.1f, 4);
	/* A tile with itself. */
	set_dst(f, 5, x);
	wr(f, TT_TX_ARG0, 5);
	run_ok(f, TT_TX_SFPU_BINARY, TT_TX_MUL, 0);
	get_dst(f, 5, got);
	for (unsigned i = 0; i < E; i++)
		want[i] = (double)x[i] * x[i];
	expect_close(got, want, 1e-7, 0, "DST[5] squared");
}

/* ---- DST rounding in bulk (common/tile_io.h) ---- */

/* df_round_to is the scalar round trip, on every kind of value, for
 * lengths with and without a ragged end. */
static void test_round_to(void **state)
{
	static const uint32_t special[] = {
		0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
		0x7F800001, 0xFFFFFFFF, 0x00000001, 0x807FFFFF, 0x3F808000,
		0x3F818000, 0x3F808001, 0x7F7FFFFF, 0x477FF000, 0x33000000,
		0x38800000, 0x387FC000,
	};
	float v[1000], w[1000];

	(void)state;
	for (unsigned k = 0; k < 2; k++) {
		enum df_format fmt = k ? DF_FLOAT16 : DF_FLOAT16_B;

		for (unsigned i = 0; i < 1000; i++) {
			uint32_t u = i < sizeof(special) / 4 ?
					     special[i] :
					     (uint32_t)(urand(0, 1) * 4294967040.0f);

			memcpy(&v[i], &u, 4);
			w[i] = k ? df_f16_to_f32(df_f32_to_f16(v[i])) :
				   df_bf16_to_f32(df_f32_to_bf16_rne(v[i]));
		}
		assert_int_equal(df_round_to(fmt, v, 999), 0);
		assert_memory_equal(v, w, 999 * sizeof(float));
	}
	assert_int_equal(df_round_to(DF_FLOAT32, v, 4), -EINVAL);
	assert_int_equal(df_round_to(DF_FLOAT16_B, NULL, 4), -EINVAL);
	assert_int_equal(df_round_to(DF_FLOAT16_B, NULL, 0), 0);
}

/* ---- the GEMM behind MATMUL ---- */

typedef int (*gemm_fn)(size_t m, size_t n, size_t k, const float *a,
		       size_t lda, const float *b, size_t ldb, float *c,
		       size_t ldc);

/* C += A x B on ragged shapes and padded strides, both implementations,
 * against double sums; C's padding stays as it was. */
static void gemm_case(gemm_fn fn, size_t m, size_t n, size_t k)
{
	size_t lda = k + 3, ldb = n + 1, ldc = n + 2;
	float *a = malloc(sizeof(float) * m * lda);
	float *b = malloc(sizeof(float) * k * ldb);
	float *c = malloc(sizeof(float) * m * ldc);
	float *c0 = malloc(sizeof(float) * m * ldc);

	assert_true(a && b && c && c0);
	for (size_t i = 0; i < m * lda; i++)
		a[i] = urand(-1, 1);
	for (size_t i = 0; i < k * ldb; i++)
		b[i] = urand(-1, 1);
	for (size_t i = 0; i < m * ldc; i++)
		c[i] = c0[i] = urand(-1, 1);
	assert_int_equal(fn(m, n, k, a, lda, b, ldb, c, ldc), 0);
	for (size_t i = 0; i < m; i++) {
		for (size_t j = 0; j < ldc; j++) {
			double want = c0[i * ldc + j], mag = fabs(want);

			for (size_t p = 0; j < n && p < k; p++) {
				want += (double)a[i * lda + p] * b[p * ldb + j];
				mag += fabs((double)a[i * lda + p] *
					    b[p * ldb + j]);
			}
			/* The fp32 bound: k + 1 roundings of the magnitude. */
			if (!(fabs(c[i * ldc + j] - want) <=
			      (k + 1) * 0x1p-24 * mag))
				fail_msg("gemm %zux%zux%zu: C(%zu,%zu) = %.9g, expected %.9g",
					 m, n, k, i, j, c[i * ldc + j], want);
		}
	}
	free(a);
	free(b);
	free(c);
	free(c0);
}

static void test_gemm_shapes(void **state)
{
	static const size_t shapes[][3] = {
		{ 1, 1, 1 },	  { 7, 17, 300 },  { 32, 32, 32 },
		{ 6, 16, 256 },	  { 13, 48, 5 },   { 100, 33, 513 },
		{ 64, 128, 1024 }, { 5, 3, 2 },	   { 9, 15, 257 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		gemm_case(sim_gemm, shapes[i][0], shapes[i][1], shapes[i][2]);
		gemm_case(sim_gemm_portable, shapes[i][0], shapes[i][1],
			  shapes[i][2]);
	}
	assert_int_equal(sim_gemm(0, 5, 5, NULL, 5, NULL, 5, NULL, 5), 0);
	print_message("# gemm implementation: %s\n", sim_gemm_impl());
}

/* A value kept to bfloat16's bits (truncated). */
static float bf16_of(float v)
{
	uint32_t u;

	memcpy(&u, &v, sizeof(u));
	u &= 0xFFFF0000u;
	memcpy(&v, &u, sizeof(v));
	return v;
}

/* sim_gemm_bf16 on bfloat16 operands: C += A x B within the fp32 bound
 * of k + 1 roundings, C added to rather than overwritten. */
static void gemm_bf16_case(size_t m, size_t n, size_t k)
{
	float *a = malloc(sizeof(float) * m * k);
	float *b = malloc(sizeof(float) * k * n);
	float *c = malloc(sizeof(float) * m * n);
	float *c0 = malloc(sizeof(float) * m * n);

	assert_true(a && b && c && c0);
	for (size_t i = 0; i < m * k; i++)
		a[i] = bf16_of(urand(-4, 4));
	for (size_t i = 0; i < k * n; i++)
		b[i] = bf16_of(urand(-1, 1));
	for (size_t i = 0; i < m * n; i++)
		c[i] = c0[i] = urand(-1, 1);
	assert_int_equal(sim_gemm_bf16(m, n, k, a, b, c), 0);
	for (size_t i = 0; i < m; i++) {
		for (size_t j = 0; j < n; j++) {
			double want = c0[i * n + j], mag = fabs(want);

			for (size_t p = 0; p < k; p++) {
				want += (double)a[i * k + p] * b[p * n + j];
				mag += fabs((double)a[i * k + p] * b[p * n + j]);
			}
			if (!(fabs(c[i * n + j] - want) <= (k + 1) * 0x1p-24 * mag))
				fail_msg("gemm_bf16 %zux%zux%zu: C(%zu,%zu) = %.9g, expected %.9g",
					 m, n, k, i, j, c[i * n + j], want);
		}
	}
	free(a);
	free(b);
	free(c);
	free(c0);
}

/* One planted value in A or B that is not a bfloat16 (low bits, or a
 * subnormal) refuses the product and leaves C as it was. */
static void gemm_bf16_refused(bool in_a, uint32_t bits)
{
	enum { M = 32, N = 64, K = 64 };
	static float a[M * K], b[K * N], c[M * N];
	float v;

	for (size_t i = 0; i < M * K; i++)
		a[i] = bf16_of(urand(-1, 1));
	for (size_t i = 0; i < K * N; i++)
		b[i] = bf16_of(urand(-1, 1));
	for (size_t i = 0; i < M * N; i++)
		c[i] = (float)i;
	memcpy(&v, &bits, sizeof(v));
	if (in_a)
		a[M * K - 1] = v;
	else
		b[K * N - 1] = v;
	assert_int_equal(sim_gemm_bf16(M, N, K, a, b, c), -ERANGE);
	for (size_t i = 0; i < M * N; i++)
		assert_true(c[i] == (float)i);
}

static void test_gemm_bf16(void **state)
{
	static const size_t shapes[][3] = {
		{ 32, 32, 32 }, { 64, 96, 160 }, { 128, 128, 256 },
		{ 512, 32, 32 }, { 32, 512, 64 },
	};
	float one = 1;

	(void)state;
	print_message("# bfloat16 gemm: %s\n", sim_gemm_bf16_impl());
	if (strcmp(sim_gemm_bf16_impl(), "amx")) {
		/* No tile unit here: every product goes to sim_gemm. */
		assert_int_equal(sim_gemm_bf16(32, 32, 32, &one, &one, &one),
				 -ENOTSUP);
		return;
	}
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		gemm_bf16_case(shapes[i][0], shapes[i][1], shapes[i][2]);
	gemm_bf16_refused(true, 0x3F800001u);  /* 1 + 2^-23 */
	gemm_bf16_refused(false, 0xBF808000u); /* -(1 + 2^-8) */
	gemm_bf16_refused(true, 0x00400000u);  /* subnormal, bf16 bits */
	gemm_bf16_refused(false, 0x80010000u); /* negative subnormal */
	assert_int_equal(sim_gemm_bf16(16, 32, 32, &one, &one, &one), -ENOTSUP);
	assert_int_equal(sim_gemm_bf16(32, 48, 32, &one, &one, &one), -ENOTSUP);
	assert_int_equal(sim_gemm_bf16(32, 32, 33, &one, &one, &one), -ENOTSUP);
	assert_int_equal(sim_gemm_bf16(0, 32, 32, NULL, NULL, NULL), 0);
}

/* ---- chip reset, and processes that do not host the chip ---- */

static uint32_t sim_rd(struct sim_device *dev, uint64_t addr)
{
	struct sim_access a = { .op = TT_DEV_OP_READ, .x = 1, .y = 1,
				.init_x = TT_DEV_INITIATOR_HOST,
				.init_y = TT_DEV_INITIATOR_HOST,
				.addr = addr, .len = 4 };
	uint32_t v = 0xDEAD;

	assert_int_equal(sim_access(&dev->ctx, &a, &v), 0);
	return v;
}

static enum tt_dev_err sim_wr_ctx(struct sim_ctx *ctx, uint64_t addr,
				  const void *p, size_t len)
{
	struct sim_access a = { .op = TT_DEV_OP_WRITE, .x = 1, .y = 1,
				.init_x = TT_DEV_INITIATOR_HOST,
				.init_y = TT_DEV_INITIATOR_HOST,
				.addr = addr, .len = len };

	return sim_access(ctx, &a, (void *)p);
}

static void sim_wr(struct sim_device *dev, uint64_t addr, uint32_t v)
{
	assert_int_equal(sim_wr_ctx(&dev->ctx, addr, &v, 4), 0);
}

static void test_chip_reset_and_clients(void **state)
{
	struct soc_desc *soc = malloc(sizeof(*soc));
	char err[SIM_ERR_LEN];
	struct sim_device *dev;
	struct sim_image *img2;
	struct sim_ctx ctx2 = { 0 };
	float v[E];
	uint32_t cmd = TT_TX_COMMAND(TT_TX_COPY, 0, 0);

	(void)state;
	assert_non_null(soc);
	assert_int_equal(soc_desc_builtin("wormhole_b0_n150", soc, err,
					  sizeof(err)),
			 0);
	if (sim_device_create(soc, TT_HW_BOARD_N150, 0, 0, &dev, err))
		fail_msg("%s", err);
	/* Some state: a counter, a configuration, a DST tile, counts. */
	for (unsigned i = 0; i < E; i++)
		v[i] = 1.5f;
	assert_int_equal(sim_wr_ctx(&dev->ctx, A_ADDR, v, sizeof(v)), 0);
	sim_wr(dev, CBR(3, TT_CB_RECEIVED), 77);
	sim_wr(dev, TX(TT_TX_CFG), TT_TX_CFG_FP32_DST |
				   TT_FIELD_PREP(TT_TX_CFG_FIDELITY_MASK, 2));
	sim_wr(dev, TX(TT_TX_A_ADDR), A_ADDR);
	sim_wr(dev, TX(TT_TX_A_FMT), DF_FLOAT32);
	sim_wr(dev, TX(TT_TX_DST), 2);
	sim_wr(dev, TX(TT_TX_CMD), cmd);
	assert_int_equal(sim_rd(dev, TX(TT_TX_OPS_LO)), 1);
	assert_int_equal(sim_rd(dev, TX(TT_TX_DST_TILES)), 8);

	sim_chip_reset(dev, TT_ARC_RESET_FIRMWARE);
	assert_int_equal(sim_rd(dev, CBR(3, TT_CB_RECEIVED)), 0);
	for (unsigned off = 0; off < TT_TX_DST_TILES; off += 4)
		assert_int_equal(sim_rd(dev, TX(off)), 0);
	assert_int_equal(sim_rd(dev, TX(TT_TX_DST_TILES)), 16);
	/* DST is cleared, and counts as zeroed for REDUCE MAX. */
	sim_wr(dev, TX(TT_TX_DST), 2);
	sim_wr(dev, TX(TT_TX_OUT_ADDR), OUT_ADDR);
	sim_wr(dev, TX(TT_TX_OUT_FMT), DF_FLOAT32);
	sim_wr(dev, TX(TT_TX_CMD), TT_TX_COMMAND(TT_TX_PACK, 0, 0));
	for (unsigned i = 0; i < E; i += 97)
		assert_int_equal(sim_rd(dev, OUT_ADDR + 4 * i), 0);
	for (unsigned i = 0; i < E; i++)
		v[i] = -2.0f - (float)i;
	assert_int_equal(sim_wr_ctx(&dev->ctx, A_ADDR, v, sizeof(v)), 0);
	v[0] = 1.0f;
	assert_int_equal(sim_wr_ctx(&dev->ctx, B_ADDR, v, sizeof(v)), 0);
	sim_wr(dev, TX(TT_TX_A_ADDR), A_ADDR);
	sim_wr(dev, TX(TT_TX_A_FMT), DF_FLOAT32);
	sim_wr(dev, TX(TT_TX_B_ADDR), B_ADDR);
	sim_wr(dev, TX(TT_TX_B_FMT), DF_FLOAT32);
	sim_wr(dev, TX(TT_TX_CMD), TT_TX_COMMAND(TT_TX_REDUCE,
						 TT_TX_REDUCE_MAX,
						 TT_TX_F_REDUCE_SCALAR));
	sim_wr(dev, TX(TT_TX_CMD), TT_TX_COMMAND(TT_TX_PACK, 0, 0));
	assert_int_equal(sim_rd(dev, OUT_ADDR), 0xC0000000u); /* -2.0f */

	/* Another process's view of the image: registers yes, commands
	 * no (its coprocessor would not be the chip's). */
	assert_int_equal(sim_image_attach(dup(dev->img->fd), &img2, err), 0);
	ctx2.img = img2;
	assert_int_equal(sim_wr_ctx(&ctx2, TX(TT_TX_DST), &(uint32_t){ 5 }, 4),
			 TT_DEV_ERR_NONE);
	assert_int_equal(sim_rd(dev, TX(TT_TX_DST)), 5);
	assert_int_equal(sim_wr_ctx(&ctx2, TX(TT_TX_CMD), &cmd, 4),
			 TT_DEV_ERR_BAD_CMD);
	assert_int_equal(sim_wr_ctx(&ctx2, CBR(1, TT_CB_ACKED_INC),
				    &(uint32_t){ 9 }, 4),
			 TT_DEV_ERR_NONE);
	assert_int_equal(sim_rd(dev, CBR(1, TT_CB_ACKED)), 9);
	sim_image_destroy(img2);
	/* Released, the chip runs no more commands here. */
	sim_tensix_release(dev->img);
	assert_int_equal(sim_wr_ctx(&dev->ctx, TX(TT_TX_CMD), &cmd, 4),
			 TT_DEV_ERR_BAD_CMD);
	sim_tensix_release(dev->img); /* unknown now: ignored */
	sim_device_destroy(dev);
	free(soc);
}

/* ---- counters ---- */

static void test_counters(void **state)
{
	struct fx *f = *state;
	uint64_t ops = rd64(f, TT_TX_OPS_LO), flops = rd64(f, TT_TX_FLOPS_LO);

	cfg(f, true, TT_TX_HIFI4, false);
	operands(f, A_ADDR, DF_FLOAT16_B, B_ADDR, DF_FLOAT16_B, 0);
	args(f, 0, 0, 0);
	run_ok(f, TT_TX_ZERO, 0, 0);
	run_ok(f, TT_TX_COPY, 0, 0);
	run_ok(f, TT_TX_ELTWISE, TT_TX_ADD, 0);
	assert_int_equal(rd64(f, TT_TX_OPS_LO), ops + 3);
	assert_int_equal(rd64(f, TT_TX_FLOPS_LO), flops + 1024);
	run_err(f, TT_TX_COMMAND(TT_TX_ZERO, 9, 0), TT_TX_ERR_OP);
	assert_int_equal(rd64(f, TT_TX_FLOPS_LO), flops + 1024);
	run_ok(f, TT_TX_ZERO, 0, 0);
	assert_int_equal(rd(f, TT_TX_STATUS), TT_TX_OK);
	assert_int_equal(rd64(f, TT_TX_OPS_LO), ops + 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registers),
		cmocka_unit_test(test_cb_counters),
		cmocka_unit_test(test_cb_wait_woken_by_host),
		cmocka_unit_test(test_cb_wait_woken_by_sibling),
		cmocka_unit_test(test_cb_wait_woken_by_noc),
		cmocka_unit_test(test_hart_commands),
		cmocka_unit_test(test_pack_wakes_sibling),
		cmocka_unit_test(test_dst_capacity),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_unpack_every_format),
		cmocka_unit_test(test_pack_every_format),
		cmocka_unit_test(test_tilize_and_untilize),
		cmocka_unit_test(test_dst_rounding),
		cmocka_unit_test(test_eltwise),
		cmocka_unit_test(test_matmul_block),
		cmocka_unit_test(test_matmul_formats),
		cmocka_unit_test(test_fidelity),
		cmocka_unit_test(test_fidelity_formats),
		cmocka_unit_test(test_source_precision),
		cmocka_unit_test(test_reduce),
		cmocka_unit_test(test_reduce_fidelity),
		cmocka_unit_test(test_sfpu),
		cmocka_unit_test(test_sfpu_specials),
		cmocka_unit_test(test_sfpu_approx_differs),
		cmocka_unit_test(test_sfpu_binary),
		cmocka_unit_test(test_round_to),
		cmocka_unit_test(test_gemm_shapes),
		cmocka_unit_test(test_gemm_bf16),
		cmocka_unit_test(test_chip_reset_and_clients),
		cmocka_unit_test(test_counters),
	};

	/* A blank flash: no firmware, so the tests own L1 and the harts. */
	setenv("TT_FIRMWARE", "/dev/null", 1);
	return cmocka_run_group_tests_name("tensix", tests, setup, teardown);
}
