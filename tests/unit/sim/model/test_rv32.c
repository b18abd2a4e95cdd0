// SPDX-License-Identifier: Apache-2.0
/*
 * The RV32IM interpreter (sim/model/rv32.h) instruction by instruction: programs
 * are built with the small encoder below, run from a malloc'd region at
 * BASE, and end in ebreak unless a test wants another exit. Expected
 * values are worked out by hand from the ISA manual, not by running the
 * interpreter.
 *
 * RV32_FUZZ_ITERS sets the number of random programs in test_fuzz (run it
 * long under the sanitizer build).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/model/rv32.h"

#define BASE 0x10000u /* local address of the region */
#define MEM_SIZE 0x4000u
#define DATA 0x1000u   /* offset of a data area in the region */
#define OUTSIDE 0x100u /* an address below the region */
#define MAX_CODE 2048

/* ---- encoder ---- */

/* clang-format off */
enum { ZERO, RA, SP, GP, TP, T0, T1, T2, S0, S1, A0, A1, A2, A3, A4, A5,
       A6, A7, S2, S3, S4, S5, S6, S7, S8, S9, S10, S11, T3, T4, T5, T6 };
/* clang-format on */

static uint32_t r_type(uint32_t f7, unsigned rs2, unsigned rs1, uint32_t f3,
		       unsigned rd, uint32_t op)
{
	return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static uint32_t i_type(int32_t imm, unsigned rs1, uint32_t f3, unsigned rd,
		       uint32_t op)
{
	return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 |
	       op;
}

static uint32_t s_type(int32_t imm, unsigned rs2, unsigned rs1, uint32_t f3)
{
	uint32_t u = (uint32_t)imm;

	return (u >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
	       (u & 0x1f) << 7 | 0x23;
}

static uint32_t b_type(int32_t imm, unsigned rs1, unsigned rs2, uint32_t f3)
{
	uint32_t u = (uint32_t)imm;

	return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | rs2 << 20 |
	       rs1 << 15 | f3 << 12 | (u >> 1 & 0xf) << 8 | (u >> 11 & 1) << 7 |
	       0x63;
}

static uint32_t j_type(int32_t imm, unsigned rd)
{
	uint32_t u = (uint32_t)imm;

	return (u >> 20 & 1) << 31 | (u >> 1 & 0x3ff) << 21 |
	       (u >> 11 & 1) << 20 | (u >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}

#define OP_IMM(name, f3)                                                       \
	static uint32_t name(unsigned rd, unsigned rs1, int32_t imm)           \
	{                                                                      \
		return i_type(imm, rs1, f3, rd, 0x13);                         \
	}
OP_IMM(addi, 0)
OP_IMM(slti, 2)
OP_IMM(sltiu, 3)
OP_IMM(xori, 4)
OP_IMM(ori, 6)
OP_IMM(andi, 7)

static uint32_t slli(unsigned rd, unsigned rs1, unsigned sh)
{
	return i_type((int32_t)sh, rs1, 1, rd, 0x13);
}

static uint32_t srli(unsigned rd, unsigned rs1, unsigned sh)
{
	return i_type((int32_t)sh, rs1, 5, rd, 0x13);
}

static uint32_t srai(unsigned rd, unsigned rs1, unsigned sh)
{
	return i_type((int32_t)(sh | 0x400), rs1, 5, rd, 0x13);
}

#define OP_REG(name, f7, f3)                                                   \
	static uint32_t name(unsigned rd, unsigned rs1, unsigned rs2)          \
	{                                                                      \
		return r_type(f7, rs2, rs1, f3, rd, 0x33);                     \
	}
OP_REG(add, 0, 0)
OP_REG(sub, 0x20, 0)
OP_REG(sll, 0, 1)
OP_REG(slt, 0, 2)
OP_REG(sltu, 0, 3)
OP_REG(xor_, 0, 4)
OP_REG(srl, 0, 5)
OP_REG(sra, 0x20, 5)
OP_REG(or_, 0, 6)
OP_REG(and_, 0, 7)
OP_REG(mul, 1, 0)
OP_REG(mulh, 1, 1)
OP_REG(mulhsu, 1, 2)
OP_REG(mulhu, 1, 3)
OP_REG(div_, 1, 4)
OP_REG(divu, 1, 5)
OP_REG(rem, 1, 6)
OP_REG(remu, 1, 7)

#define LOAD(name, f3)                                                         \
	static uint32_t name(unsigned rd, int32_t off, unsigned rs1)           \
	{                                                                      \
		return i_type(off, rs1, f3, rd, 0x03);                         \
	}
LOAD(lb, 0)
LOAD(lh, 1)
LOAD(lw, 2)
LOAD(lbu, 4)
LOAD(lhu, 5)

#define STORE(name, f3)                                                        \
	static uint32_t name(unsigned rs2, int32_t off, unsigned rs1)          \
	{                                                                      \
		return s_type(off, rs2, rs1, f3);                              \
	}
STORE(sb, 0)
STORE(sh, 1)
STORE(sw, 2)

#define BRANCH(name, f3)                                                       \
	static uint32_t name(unsigned rs1, unsigned rs2, int32_t off)          \
	{                                                                      \
		return b_type(off, rs1, rs2, f3);                              \
	}
BRANCH(beq, 0)
BRANCH(bne, 1)
BRANCH(blt, 4)
BRANCH(bge, 5)
BRANCH(bltu, 6)
BRANCH(bgeu, 7)

static uint32_t lui(unsigned rd, uint32_t imm20)
{
	return imm20 << 12 | rd << 7 | 0x37;
}

static uint32_t auipc(unsigned rd, uint32_t imm20)
{
	return imm20 << 12 | rd << 7 | 0x17;
}

static uint32_t jal(unsigned rd, int32_t off)
{
	return j_type(off, rd);
}

static uint32_t jalr(unsigned rd, unsigned rs1, int32_t off)
{
	return i_type(off, rs1, 0, rd, 0x67);
}

#define ECALL 0x00000073u
#define EBREAK 0x00100073u
#define WFI 0x10500073u
#define FENCE 0x0ff0000fu
#define FENCE_I 0x0000100fu
#define NOP 0x00000013u

/* ---- test environment ---- */

struct env {
	struct rv32_hart h;
	uint8_t *mem;
	uint32_t code[MAX_CODE];
	unsigned n; /* words in code */

	/* slow-path callback log and answers */
	unsigned loads, stores, watches;
	uint32_t cb_addr, cb_val, cb_pc;
	unsigned cb_size;
	enum rv32_cb load_ret, store_ret, watch_ret;
	uint32_t load_val;
	uint32_t mem_at_watch; /* the stored word as the callback saw it */
	unsigned settles; /* stores_settled calls */
	/* cb_store copies this into the watch range, as a waiter that
	 * publishes its word after a store's own look would. */
	const uint32_t *watch_on_store;
};

static enum rv32_cb cb_load(struct rv32_hart *h, uint32_t addr, unsigned size,
			    uint32_t *val)
{
	struct env *e = h->user;

	e->loads++;
	e->cb_addr = addr;
	e->cb_size = size;
	e->cb_pc = h->pc;
	*val = e->load_val;
	return e->load_ret;
}

static enum rv32_cb cb_store(struct rv32_hart *h, uint32_t addr, unsigned size,
			     uint32_t val)
{
	struct env *e = h->user;

	e->stores++;
	if (e->watch_on_store)
		memcpy((void *)e->h.store_watch, e->watch_on_store,
		       2 * sizeof(uint32_t));
	e->cb_addr = addr;
	e->cb_size = size;
	e->cb_val = val;
	e->cb_pc = h->pc;
	return e->store_ret;
}

static enum rv32_cb cb_watched(struct rv32_hart *h, uint32_t addr,
			       unsigned size)
{
	struct env *e = h->user;

	e->watches++;
	e->cb_addr = addr;
	e->cb_size = size;
	e->cb_pc = h->pc;
	memcpy(&e->mem_at_watch, e->mem + ((addr - BASE) & ~3u), 4);
	return e->watch_ret;
}

static void cb_settled(struct rv32_hart *h)
{
	struct env *e = h->user;

	e->settles++;
}

static const struct rv32_ops ops = {
	.load = cb_load,
	.store = cb_store,
	.watched_store = cb_watched,
	.stores_settled = cb_settled,
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));

	if (!e)
		return -1;
	e->mem = calloc(1, MEM_SIZE);
	if (!e->mem) {
		free(e);
		return -1;
	}
	rv32_init(&e->h, BASE);
	e->h.mem = e->mem;
	e->h.mem_base = BASE;
	e->h.mem_size = MEM_SIZE;
	e->h.ops = &ops;
	e->h.user = e;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	rv32_fini(&e->h);
	free(e->mem);
	free(e);
	return 0;
}

static void emit(struct env *e, uint32_t w)
{
	assert_true(e->n < MAX_CODE);
	e->code[e->n++] = w;
}

/* Load register rd with v (lui + addi). */
static void li(struct env *e, unsigned rd, uint32_t v)
{
	uint32_t hi = (v + 0x800) >> 12;

	emit(e, lui(rd, hi & 0xfffff));
	emit(e, addi(rd, rd, (int32_t)(v - (hi << 12))));
}

static void put32(struct env *e, uint32_t addr, uint32_t v)
{
	memcpy(e->mem + (addr - BASE), &v, 4);
}

static uint32_t get32(struct env *e, uint32_t addr)
{
	uint32_t v;

	memcpy(&v, e->mem + (addr - BASE), 4);
	return v;
}

/* Copy the program to BASE and point the hart at it. */
static void load(struct env *e)
{
	for (unsigned i = 0; i < e->n; i++)
		put32(e, BASE + 4 * i, e->code[i]);
	e->h.pc = BASE;
}

static enum rv32_exit run(struct env *e, uint64_t max)
{
	return rv32_run(&e->h, max);
}

/* Load, run, and expect to stop at the program's ebreak. */
static void run_to_ebreak(struct env *e)
{
	load(e);
	assert_int_equal(run(e, 1000000), RV32_EXIT_FAULT);
	assert_int_equal(e->h.fault_cause, TT_HART_FAULT_EBREAK);
	assert_int_equal(get32(e, e->h.pc), EBREAK);
}

/* Expect a fault of cause at pc with fault_addr addr. */
static void expect_fault(struct env *e, enum tt_hart_fault cause, uint32_t pc,
			 uint32_t addr)
{
	assert_int_equal(run(e, 1000000), RV32_EXIT_FAULT);
	assert_int_equal(e->h.fault_cause, cause);
	assert_int_equal(e->h.pc, pc);
	assert_int_equal(e->h.fault_addr, addr);
}

#define X(r) (((struct env *)*state)->h.x[r])

/* ---- RV32I ---- */

static void test_lui_auipc(void **state)
{
	struct env *e = *state;

	emit(e, lui(A0, 0x12345));
	emit(e, auipc(A1, 0));
	emit(e, auipc(A2, 0xfffff));
	emit(e, lui(A3, 0x80000));
	emit(e, auipc(A4, 1));
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(A0), 0x12345000);
	assert_int_equal(X(A1), BASE + 4);
	assert_int_equal(X(A2), BASE + 8 - 0x1000);
	assert_int_equal(X(A3), 0x80000000u);
	assert_int_equal(X(A4), BASE + 16 + 0x1000);
}

static void test_alu_immediate(void **state)
{
	struct env *e = *state;

	emit(e, addi(A0, ZERO, -5)); /* 0xfffffffb */
	emit(e, addi(A1, A0, 7));
	emit(e, slti(A2, A0, -4));
	emit(e, slti(A3, A0, -5));
	emit(e, sltiu(A4, A0, -4)); /* unsigned compare with 0xfffffffc */
	emit(e, sltiu(A5, ZERO, 1));
	emit(e, sltiu(A6, A0, 5));
	emit(e, slti(A7, A1, -1));
	emit(e, xori(S2, A0, -1));
	emit(e, ori(S3, A0, 4));
	emit(e, andi(S4, A0, 0x7f0));
	emit(e, andi(S5, A0, -2048));
	emit(e, addi(S6, A0, 2047));
	emit(e, addi(S7, A0, -2048));
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(A0), 0xfffffffbu);
	assert_int_equal(X(A1), 2);
	assert_int_equal(X(A2), 1);
	assert_int_equal(X(A3), 0);
	assert_int_equal(X(A4), 1);
	assert_int_equal(X(A5), 1);
	assert_int_equal(X(A6), 0);
	assert_int_equal(X(A7), 0);
	assert_int_equal(X(S2), 4);
	assert_int_equal(X(S3), 0xffffffffu);
	assert_int_equal(X(S4), 0x7f0);
	assert_int_equal(X(S5), 0xfffff800u);
	assert_int_equal(X(S6), 2042);
	assert_int_equal(X(S7), 0xfffff7fbu);
}

static void test_shift_immediate(void **state)
{
	struct env *e = *state;

	emit(e, addi(A0, ZERO, -5));
	emit(e, addi(A1, ZERO, 3));
	emit(e, slli(S2, A0, 4));
	emit(e, srli(S3, A0, 28));
	emit(e, srai(S4, A0, 1));
	emit(e, srai(S5, A0, 31));
	emit(e, srli(S6, A0, 31));
	emit(e, slli(S7, A1, 31));
	emit(e, slli(S8, A1, 0));
	emit(e, srai(S9, A1, 1));
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(S2), 0xffffffb0u);
	assert_int_equal(X(S3), 0xf);
	assert_int_equal(X(S4), 0xfffffffdu);
	assert_int_equal(X(S5), 0xffffffffu);
	assert_int_equal(X(S6), 1);
	assert_int_equal(X(S7), 0x80000000u);
	assert_int_equal(X(S8), 3);
	assert_int_equal(X(S9), 1);
}

static void test_alu_register(void **state)
{
	struct env *e = *state;

	emit(e, addi(A0, ZERO, -5));
	emit(e, addi(A1, ZERO, 3));
	emit(e, add(S2, A0, A1));
	emit(e, sub(S3, A1, A0));
	emit(e, sub(S4, A0, A1));
	emit(e, slt(S5, A0, A1));
	emit(e, sltu(S6, A0, A1));
	emit(e, slt(S7, A1, A0));
	emit(e, sltu(S8, A1, A0));
	emit(e, xor_(S9, A0, A1));
	emit(e, or_(S10, A0, A1));
	emit(e, and_(S11, A0, A1));
	emit(e, slt(T3, A0, A0));
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(S2), 0xfffffffeu);
	assert_int_equal(X(S3), 8);
	assert_int_equal(X(S4), 0xfffffff8u);
	assert_int_equal(X(S5), 1);
	assert_int_equal(X(S6), 0);
	assert_int_equal(X(S7), 0);
	assert_int_equal(X(S8), 1);
	assert_int_equal(X(S9), 0xfffffff8u);
	assert_int_equal(X(S10), 0xfffffffbu);
	assert_int_equal(X(S11), 3);
	assert_int_equal(X(T3), 0);
}

/* Register shifts use only the low 5 bits of rs2; SRA keeps the sign. */
static void test_shift_register(void **state)
{
	struct env *e = *state;

	emit(e, addi(A0, ZERO, -16)); /* 0xfffffff0 */
	emit(e, addi(A1, ZERO, 33));
	emit(e, addi(A2, ZERO, 32));
	emit(e, addi(A3, ZERO, -1)); /* shift amount 31 */
	emit(e, addi(A4, ZERO, 4));
	emit(e, sll(S2, A0, A1));
	emit(e, srl(S3, A0, A1));
	emit(e, sra(S4, A0, A1));
	emit(e, sll(S5, A0, A2));
	emit(e, sra(S6, A0, A3));
	emit(e, srl(S7, A0, A3));
	emit(e, srl(S8, A0, A4));
	emit(e, sra(S9, A0, A4));
	emit(e, sra(S10, A4, A4));
	emit(e, addi(A5, ZERO, 20));
	emit(e, sll(T3, A4, A3));
	emit(e, sll(T4, A4, A5));
	emit(e, srl(T5, A0, A5));
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(S2), 0xffffffe0u);
	assert_int_equal(X(S3), 0x7ffffff8u);
	assert_int_equal(X(S4), 0xfffffff8u);
	assert_int_equal(X(S5), 0xfffffff0u);
	assert_int_equal(X(S6), 0xffffffffu);
	assert_int_equal(X(S7), 1);
	assert_int_equal(X(S8), 0x0fffffffu);
	assert_int_equal(X(S9), 0xffffffffu);
	assert_int_equal(X(S10), 0);
	assert_int_equal(X(T3), 0);
	assert_int_equal(X(T4), 0x400000);
	assert_int_equal(X(T5), 0xfff);
}

static void test_multiply(void **state)
{
	struct env *e = *state;

	emit(e, addi(A0, ZERO, -3));
	emit(e, addi(A1, ZERO, 5));
	emit(e, lui(A2, 0x80000)); /* INT_MIN */
	emit(e, addi(A3, ZERO, -1));
	emit(e, lui(A4, 0x10));
	emit(e, mul(S2, A0, A1));
	emit(e, mulh(S3, A0, A1));
	emit(e, mulhu(S4, A0, A1));
	emit(e, mulhsu(S5, A0, A1));
	emit(e, mulhsu(S6, A1, A0));
	emit(e, mulh(S7, A2, A2));
	emit(e, mulhu(S8, A3, A3));
	emit(e, mulhsu(S9, A3, A3));
	emit(e, mulh(S10, A3, A3));
	emit(e, mul(S11, A4, A4));
	emit(e, mulh(T3, A2, A3));
	emit(e, mulhsu(T4, A2, A3));
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(S2), (uint32_t)-15);
	assert_int_equal(X(S3), 0xffffffffu);
	assert_int_equal(X(S4), 4); /* 0xfffffffd * 5 = 0x4_fffffff1 */
	assert_int_equal(X(S5), 0xffffffffu);
	assert_int_equal(X(S6), 4);
	assert_int_equal(X(S7), 0x40000000u);
	assert_int_equal(X(S8), 0xfffffffeu);
	assert_int_equal(X(S9), 0xffffffffu); /* -(2^32 - 1) */
	assert_int_equal(X(S10), 0);
	assert_int_equal(X(S11), 0);
	assert_int_equal(X(T3), 0);	      /* INT_MIN * -1 = 2^31 */
	assert_int_equal(X(T4), 0x80000000u); /* -2^31 * (2^32 - 1) */
}

static void test_divide(void **state)
{
	struct env *e = *state;

	emit(e, addi(A0, ZERO, 7));
	emit(e, addi(A1, ZERO, -7));
	emit(e, addi(A2, ZERO, 2));
	emit(e, addi(A3, ZERO, -2));
	emit(e, lui(A4, 0x80000));
	emit(e, addi(A5, ZERO, -1));
	/* by zero */
	emit(e, div_(S2, A0, ZERO));
	emit(e, divu(S3, A0, ZERO));
	emit(e, rem(S4, A1, ZERO));
	emit(e, remu(S5, A1, ZERO));
	emit(e, div_(S6, A1, ZERO));
	/* signed overflow */
	emit(e, div_(S7, A4, A5));
	emit(e, rem(S8, A4, A5));
	emit(e, divu(S9, A4, A5));
	emit(e, remu(S10, A4, A5));
	/* rounding towards zero, remainder takes the dividend's sign */
	emit(e, div_(S11, A1, A2));
	emit(e, rem(T3, A1, A2));
	emit(e, div_(T4, A0, A3));
	emit(e, rem(T5, A0, A3));
	emit(e, divu(T6, A1, A2));
	emit(e, remu(A6, A1, A2));
	emit(e, div_(A7, A1, A3));
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(S2), 0xffffffffu);
	assert_int_equal(X(S3), 0xffffffffu);
	assert_int_equal(X(S4), (uint32_t)-7);
	assert_int_equal(X(S5), (uint32_t)-7);
	assert_int_equal(X(S6), 0xffffffffu);
	assert_int_equal(X(S7), 0x80000000u);
	assert_int_equal(X(S8), 0);
	assert_int_equal(X(S9), 0);
	assert_int_equal(X(S10), 0x80000000u);
	assert_int_equal(X(S11), (uint32_t)-3);
	assert_int_equal(X(T3), (uint32_t)-1);
	assert_int_equal(X(T4), (uint32_t)-3);
	assert_int_equal(X(T5), 1);
	assert_int_equal(X(T6), 0x7ffffffcu);
	assert_int_equal(X(A6), 1);
	assert_int_equal(X(A7), 3);
}

static void test_loads_extend(void **state)
{
	struct env *e = *state;

	put32(e, BASE + DATA, 0x017fff80); /* bytes 80 ff 7f 01 */
	put32(e, BASE + DATA + 4, 0x8000ffff);
	li(e, S0, BASE + DATA);
	emit(e, lb(S2, 0, S0));
	emit(e, lbu(S3, 0, S0));
	emit(e, lb(S4, 2, S0));
	emit(e, lh(S5, 0, S0));
	emit(e, lhu(S6, 0, S0));
	emit(e, lh(S7, 2, S0));
	emit(e, lw(S8, 0, S0));
	emit(e, addi(S1, S0, 8));
	emit(e, lw(S9, -4, S1));
	emit(e, lh(S10, -2, S1));
	emit(e, lhu(S11, -2, S1));
	emit(e, lb(T3, -1, S1));
	emit(e, lbu(T4, -1, S1));
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(S2), 0xffffff80u);
	assert_int_equal(X(S3), 0x80);
	assert_int_equal(X(S4), 0x7f);
	assert_int_equal(X(S5), 0xffffff80u);
	assert_int_equal(X(S6), 0xff80);
	assert_int_equal(X(S7), 0x017f);
	assert_int_equal(X(S8), 0x017fff80);
	assert_int_equal(X(S9), 0x8000ffffu);
	assert_int_equal(X(S10), 0xffff8000u);
	assert_int_equal(X(S11), 0x8000);
	assert_int_equal(X(T3), 0xffffff80u);
	assert_int_equal(X(T4), 0x80);
}

static void test_stores(void **state)
{
	struct env *e = *state;

	put32(e, BASE + DATA, 0x11111111);
	put32(e, BASE + DATA + 4, 0x22222222);
	put32(e, BASE + DATA + 8, 0x33333333);
	put32(e, BASE + DATA + 12, 0x44444444);
	li(e, S0, BASE + DATA);
	li(e, A0, 0xa1b2c3d4);
	emit(e, sb(A0, 1, S0));
	emit(e, sh(A0, 6, S0));
	emit(e, sw(A0, 8, S0));
	emit(e, addi(S1, S0, 16));
	emit(e, sb(A0, -1, S1));
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(get32(e, BASE + DATA), 0x1111d411);
	assert_int_equal(get32(e, BASE + DATA + 4), 0xc3d42222u);
	assert_int_equal(get32(e, BASE + DATA + 8), 0xa1b2c3d4u);
	assert_int_equal(get32(e, BASE + DATA + 12), 0xd4444444u);
	assert_int_equal(get32(e, BASE + DATA + 16), 0);
}

/*
 * Every branch taken and not taken: s2 gets one bit per case, set by an ori
 * that a not-taken branch falls into and a taken one skips.
 */
static void test_branches(void **state)
{
	struct env *e = *state;
	struct {
		uint32_t (*fn)(unsigned, unsigned, int32_t);
		unsigned rs1, rs2;
		int taken;
	} c[] = {
		{beq, A0, A0, 1},  {beq, A0, A1, 0},  {bne, A0, A1, 1},
		{bne, A1, A1, 0},  {blt, A0, A1, 1},  {blt, A1, A0, 0},
		{blt, A1, A1, 0},  {bge, A1, A0, 1},  {bge, A1, A1, 1},
		{bge, A0, A1, 0},  {bltu, A1, A0, 1}, {bltu, A0, A1, 0},
		{bltu, A1, A1, 0}, {bgeu, A0, A1, 1}, {bgeu, A1, A1, 1},
		{bgeu, A1, A0, 0},
	};
	uint32_t want = 0;

	emit(e, addi(A0, ZERO, -1));
	emit(e, addi(A1, ZERO, 1));
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		emit(e, slli(S2, S2, 1));
		emit(e, c[i].fn(c[i].rs1, c[i].rs2, 8));
		emit(e, ori(S2, S2, 1));
		want = want << 1 | !c[i].taken;
	}
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(S2), want);
}

/* A backward loop, and a forward branch over a backward one. */
static void test_branch_backward(void **state)
{
	struct env *e = *state;

	emit(e, addi(A0, ZERO, 10)); /* counter */
	emit(e, addi(A1, ZERO, 0));  /* sum */
	emit(e, add(A1, A1, A0));    /* loop: */
	emit(e, addi(A0, A0, -1));
	emit(e, bne(A0, ZERO, -8));
	emit(e, beq(ZERO, ZERO, 12));
	emit(e, addi(A2, ZERO, 1)); /* skipped */
	emit(e, EBREAK);	    /* skipped */
	emit(e, blt(ZERO, A1, 8));  /* 0 < 55: taken */
	emit(e, addi(A3, ZERO, 1)); /* skipped */
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(A1), 55);
	assert_int_equal(X(A2), 0);
	assert_int_equal(X(A3), 0);
	assert_int_equal(e->h.pc, BASE + 40);
	assert_int_equal(e->h.instret, 2 + 3 * 10 + 2);
}

/* Straight code longer than any cache page, in a loop with a far branch. */
static void test_long_code(void **state)
{
	struct env *e = *state;
	unsigned body = 1000; /* the branch back reaches 4 KiB */

	emit(e, addi(A0, ZERO, 3));
	for (unsigned i = 0; i < body; i++)
		emit(e, addi(A1, A1, 1));
	emit(e, addi(A0, A0, -1));
	emit(e, bne(A0, ZERO, -(int32_t)(4 * (body + 1))));
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(A1), 3 * body);
	assert_int_equal(e->h.instret, 1 + 3 * (body + 2));
}

static void test_jal_jalr(void **state)
{
	struct env *e = *state;

	emit(e, jal(RA, 12));	    /* 0 */
	emit(e, addi(A0, ZERO, 1)); /* 4: skipped */
	emit(e, EBREAK);	    /* 8 */
	emit(e, auipc(T0, 0));	    /* 12: t0 = BASE + 12 */
	emit(e, jalr(A1, T0, 13));  /* 16: to BASE + 25 & ~1 */
	emit(e, addi(A0, ZERO, 2)); /* 20: skipped */
	emit(e, addi(A2, ZERO, 3)); /* 24 */
	emit(e, jal(S2, 12));	    /* 28: forward to 40 */
	emit(e, jalr(A3, RA, 4));   /* 32: back to 8 */
	emit(e, EBREAK);	    /* 36 */
	emit(e, addi(S3, S2, 0));   /* 40 */
	emit(e, jalr(S2, S2, 0));   /* 44: rd == rs1: goes to the old s2 */
	run_to_ebreak(e);
	assert_int_equal(X(A0), 0);
	assert_int_equal(X(RA), BASE + 4);
	assert_int_equal(X(A1), BASE + 20);
	assert_int_equal(X(A2), 3);
	assert_int_equal(X(S3), BASE + 32);
	assert_int_equal(X(S2), BASE + 48);
	assert_int_equal(X(A3), BASE + 36);
	assert_int_equal(e->h.pc, BASE + 8);
}

static void test_jal_backward_and_negative_jalr(void **state)
{
	struct env *e = *state;

	emit(e, jal(ZERO, 12));	    /* 0 */
	emit(e, addi(A0, A0, 1));   /* 4 */
	emit(e, jal(ZERO, 12));	    /* 8: to 20 */
	emit(e, jal(RA, -8));	    /* 12: back to 4 */
	emit(e, EBREAK);	    /* 16 */
	emit(e, addi(T0, RA, 16));  /* 20: t0 = BASE + 32 */
	emit(e, jalr(A1, T0, -16)); /* 24: to BASE + 16 */
	emit(e, EBREAK);	    /* 28 */
	run_to_ebreak(e);
	assert_int_equal(X(A0), 1);
	assert_int_equal(X(RA), BASE + 16);
	assert_int_equal(X(A1), BASE + 28);
	assert_int_equal(e->h.pc, BASE + 16);
}

/* x0 stays zero whatever is written to it or stored in h->x[0]. */
static void test_x0(void **state)
{
	struct env *e = *state;

	e->h.x[0] = 0x1234;
	e->load_val = 0x55;
	emit(e, add(A0, ZERO, ZERO));	  /* 0 */
	emit(e, addi(ZERO, ZERO, 5));	  /* 4 */
	emit(e, lui(ZERO, 0x12345));	  /* 8 */
	emit(e, auipc(ZERO, 1));	  /* 12 */
	emit(e, lw(ZERO, OUTSIDE, ZERO)); /* 16: the load still happens */
	emit(e, add(A1, ZERO, ZERO));	  /* 20 */
	emit(e, jal(ZERO, 4));		  /* 24 */
	emit(e, auipc(T0, 0));		  /* 28 */
	emit(e, jalr(ZERO, T0, 8));	  /* 32: to 36 */
	emit(e, mul(ZERO, T0, T0));	  /* 36 */
	emit(e, sub(A2, ZERO, ZERO));	  /* 40 */
	emit(e, EBREAK);		  /* 44 */
	run_to_ebreak(e);
	assert_int_equal(X(A0), 0);
	assert_int_equal(X(A1), 0);
	assert_int_equal(X(A2), 0);
	assert_int_equal(X(ZERO), 0);
	assert_int_equal(e->loads, 1);
	assert_int_equal(e->h.instret, 11);
}

static void test_fence_is_nop(void **state)
{
	struct env *e = *state;

	emit(e, addi(A0, ZERO, 1));
	emit(e, FENCE);
	emit(e, FENCE_I);
	emit(e, 0x8330000f); /* fence.tso */
	emit(e, addi(A0, A0, 1));
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(A0), 2);
	assert_int_equal(e->h.instret, 5);
}

/* ---- faults ---- */

static void test_illegal(void **state)
{
	struct env *e = *state;
	static const uint32_t words[] = {
		0x00000000, /* all zero */
		0xffffffff,
		0x00000001,			/* c.nop: 16-bit */
		0x45014501,			/* c.li a0, 0 twice */
		0xc0002573,			/* csrr a0, cycle */
		0x30200073,			/* mret */
		0x00008073,			/* ecall with rs1 set */
		0x10500073 | 1 << 7,		/* wfi with rd set */
		0x0000000b | 2 << 12,		/* custom-0, funct3 2 */
		0x0000000b | 1 << 25,		/* custom-0, funct7 1 */
		0x0000002b,			/* custom-1 */
		0x0000005b,			/* custom-2 */
		0x0000007b,			/* custom-3 */
		0x80000033,			/* add with funct7 0x40 */
		0x40004033,			/* xor with funct7 0x20 */
		0x02000033 | 0 << 12 | 1 << 26, /* funct7 0x03 */
		0x40001033,			/* sll with funct7 0x20 */
		0x40001013,			/* slli with imm[11:5] 0x20 */
		0x02005013,			/* srli with shamt[5] */
		0x42005013,			/* srai with shamt[5] */
		0x00001067,			/* jalr funct3 1 */
		0x00002063,			/* branch funct3 2 */
		0x00003063,			/* branch funct3 3 */
		0x00003003,			/* ld */
		0x00006003,			/* lwu */
		0x00007003,			/* load funct3 7 */
		0x00003023,			/* sd */
		0x00004023,			/* store funct3 4 */
		0x0000200f,			/* misc-mem funct3 2 */
		0x0000202f,			/* amo */
		0x00002007,			/* flw */
		0x0000003b,			/* addw (RV64) */
		0x0000001b,			/* addiw (RV64) */
	};

	for (unsigned i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		put32(e, BASE, words[i]);
		e->h.pc = BASE;
		e->h.instret = 0;
		expect_fault(e, TT_HART_FAULT_ILLEGAL, BASE, words[i]);
		assert_int_equal(e->h.instret, 0);
	}
}

static void test_ecall_ebreak(void **state)
{
	struct env *e = *state;

	emit(e, addi(A0, ZERO, 1));
	emit(e, ECALL);
	emit(e, addi(A0, ZERO, 2));
	emit(e, EBREAK);
	load(e);
	expect_fault(e, TT_HART_FAULT_ECALL, BASE + 4, 0);
	assert_int_equal(e->h.instret, 1);
	/* resuming past it works; neither retires */
	e->h.pc += 4;
	expect_fault(e, TT_HART_FAULT_EBREAK, BASE + 12, 0);
	assert_int_equal(X(A0), 2);
	assert_int_equal(e->h.instret, 2);
}

static void test_fetch_outside_region(void **state)
{
	struct env *e = *state;

	e->h.pc = BASE + MEM_SIZE;
	expect_fault(e, TT_HART_FAULT_FETCH_ACCESS, BASE + MEM_SIZE,
		     BASE + MEM_SIZE);
	e->h.pc = BASE - 4;
	expect_fault(e, TT_HART_FAULT_FETCH_ACCESS, BASE - 4, BASE - 4);
	e->h.pc = 0;
	expect_fault(e, TT_HART_FAULT_FETCH_ACCESS, 0, 0);
	e->h.pc = BASE + 2;
	expect_fault(e, TT_HART_FAULT_FETCH_ALIGN, BASE + 2, BASE + 2);
	assert_int_equal(e->h.instret, 0);
	assert_int_equal(e->loads, 0);
}

/* Running off the end of the region faults at the first address past it. */
static void test_fetch_runs_off_end(void **state)
{
	struct env *e = *state;

	put32(e, BASE + MEM_SIZE - 8, addi(A0, A0, 1));
	put32(e, BASE + MEM_SIZE - 4, addi(A0, A0, 1));
	e->h.pc = BASE + MEM_SIZE - 8;
	expect_fault(e, TT_HART_FAULT_FETCH_ACCESS, BASE + MEM_SIZE,
		     BASE + MEM_SIZE);
	assert_int_equal(X(A0), 2);
	assert_int_equal(e->h.instret, 2);
}

/*
 * A jump or branch to a misaligned target retires (links) and the fault is
 * reported at the target's fetch, with pc = the target.
 */
static void test_fetch_misaligned(void **state)
{
	struct env *e = *state;

	emit(e, auipc(T0, 0));
	emit(e, jalr(RA, T0, 10)); /* to BASE + 10 */
	load(e);
	expect_fault(e, TT_HART_FAULT_FETCH_ALIGN, BASE + 10, BASE + 10);
	assert_int_equal(X(RA), BASE + 8);
	assert_int_equal(e->h.instret, 2);

	e->n = 0;
	emit(e, beq(ZERO, ZERO, 6));
	load(e);
	expect_fault(e, TT_HART_FAULT_FETCH_ALIGN, BASE + 6, BASE + 6);

	e->n = 0;
	emit(e, jal(A0, -2));
	load(e);
	expect_fault(e, TT_HART_FAULT_FETCH_ALIGN, BASE - 2, BASE - 2);
	assert_int_equal(X(A0), BASE + 4);

	e->n = 0; /* a far jump out of the region */
	emit(e, jal(ZERO, (int32_t)MEM_SIZE + 0x100));
	load(e);
	expect_fault(e, TT_HART_FAULT_FETCH_ACCESS, BASE + MEM_SIZE + 0x100,
		     BASE + MEM_SIZE + 0x100);
}

static void test_misaligned_load_store(void **state)
{
	struct env *e = *state;
	struct {
		uint32_t insn;
		enum tt_hart_fault cause;
		uint32_t addr;
	} c[] = {
		{lw(A0, 2, S0), TT_HART_FAULT_LOAD_ALIGN, BASE + DATA + 2},
		{lw(A0, 1, S0), TT_HART_FAULT_LOAD_ALIGN, BASE + DATA + 1},
		{lh(A0, 1, S0), TT_HART_FAULT_LOAD_ALIGN, BASE + DATA + 1},
		{lhu(A0, 3, S0), TT_HART_FAULT_LOAD_ALIGN, BASE + DATA + 3},
		{sw(S0, 3, S0), TT_HART_FAULT_STORE_ALIGN, BASE + DATA + 3},
		{sh(S0, -1, S0), TT_HART_FAULT_STORE_ALIGN, BASE + DATA - 1},
		/* outside the region: no callback either */
		{lw(A0, 2, ZERO), TT_HART_FAULT_LOAD_ALIGN, 2},
		{sh(S0, 0x101, ZERO), TT_HART_FAULT_STORE_ALIGN, 0x101},
	};

	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		e->n = 0;
		li(e, S0, BASE + DATA);
		emit(e, c[i].insn);
		load(e);
		e->h.x[A0] = 0x77;
		e->h.instret = 0;
		expect_fault(e, c[i].cause, BASE + 8, c[i].addr);
		assert_int_equal(X(A0), 0x77);
		assert_int_equal(e->h.instret, 2);
	}
	assert_int_equal(get32(e, BASE + DATA), 0);
	assert_int_equal(get32(e, BASE + DATA - 4), 0);
	assert_int_equal(e->loads + e->stores, 0);
}

/* ---- the slow path ---- */

static void test_load_callback(void **state)
{
	struct env *e = *state;

	emit(e, lw(A0, OUTSIDE, ZERO));
	emit(e, lb(A1, OUTSIDE + 5, ZERO));
	emit(e, lhu(A2, OUTSIDE + 6, ZERO));
	emit(e, lh(A3, OUTSIDE + 6, ZERO));
	emit(e, lbu(A4, OUTSIDE + 7, ZERO));
	emit(e, EBREAK);
	load(e);
	e->load_val = 0x12345680;
	assert_int_equal(run(e, 1), RV32_EXIT_BUDGET);
	assert_int_equal(e->cb_addr, OUTSIDE);
	assert_int_equal(e->cb_size, 4);
	assert_int_equal(e->cb_pc, BASE);
	assert_int_equal(X(A0), 0x12345680);
	e->load_val = 0x80;
	assert_int_equal(run(e, 1), RV32_EXIT_BUDGET);
	assert_int_equal(e->cb_addr, OUTSIDE + 5);
	assert_int_equal(e->cb_size, 1);
	assert_int_equal(e->cb_pc, BASE + 4);
	assert_int_equal(X(A1), 0xffffff80u);
	e->load_val = 0x8001;
	assert_int_equal(run(e, 2), RV32_EXIT_BUDGET);
	assert_int_equal(e->cb_addr, OUTSIDE + 6);
	assert_int_equal(e->cb_size, 2);
	assert_int_equal(e->cb_pc, BASE + 12);
	assert_int_equal(X(A2), 0x8001);
	assert_int_equal(X(A3), 0xffff8001u);
	e->load_val = 0xffffff7f; /* bits above the size are ignored */
	assert_int_equal(run(e, 10), RV32_EXIT_FAULT);
	assert_int_equal(X(A4), 0x7f);
	assert_int_equal(e->loads, 5);
	assert_int_equal(e->h.instret, 5);
}

static void test_load_callback_stop_and_fault(void **state)
{
	struct env *e = *state;

	emit(e, lw(A0, OUTSIDE, ZERO));
	emit(e, lw(A1, OUTSIDE + 4, ZERO));
	emit(e, EBREAK);
	load(e);
	e->load_val = 42;
	e->load_ret = RV32_CB_STOP;
	assert_int_equal(run(e, 100), RV32_EXIT_STOP);
	assert_int_equal(e->h.pc, BASE + 4);
	assert_int_equal(X(A0), 42);
	assert_int_equal(e->h.instret, 1);
	e->load_ret = RV32_CB_FAULT;
	expect_fault(e, TT_HART_FAULT_LOAD_ACCESS, BASE + 4, OUTSIDE + 4);
	assert_int_equal(X(A1), 0);
	assert_int_equal(e->h.instret, 1);
	/* no callbacks at all: refused too */
	e->h.ops = NULL;
	e->load_ret = RV32_CB_OK;
	expect_fault(e, TT_HART_FAULT_LOAD_ACCESS, BASE + 4, OUTSIDE + 4);
	assert_int_equal(e->loads, 2);
}

static void test_store_callback(void **state)
{
	struct env *e = *state;

	li(e, A0, 0xa1b2c3d4);
	emit(e, sw(A0, OUTSIDE, ZERO));
	emit(e, sb(A0, OUTSIDE + 3, ZERO));
	emit(e, sh(A0, OUTSIDE + 6, ZERO));
	emit(e, sw(A0, -4, ZERO)); /* the top of the address space */
	emit(e, EBREAK);
	load(e);
	assert_int_equal(run(e, 3), RV32_EXIT_BUDGET);
	assert_int_equal(e->cb_addr, OUTSIDE);
	assert_int_equal(e->cb_size, 4);
	assert_int_equal(e->cb_val, 0xa1b2c3d4u);
	assert_int_equal(e->cb_pc, BASE + 8);
	assert_int_equal(run(e, 1), RV32_EXIT_BUDGET);
	assert_int_equal(e->cb_addr, OUTSIDE + 3);
	assert_int_equal(e->cb_size, 1);
	assert_int_equal(e->cb_val, 0xd4);
	assert_int_equal(run(e, 1), RV32_EXIT_BUDGET);
	assert_int_equal(e->cb_addr, OUTSIDE + 6);
	assert_int_equal(e->cb_size, 2);
	assert_int_equal(e->cb_val, 0xc3d4);
	e->store_ret = RV32_CB_STOP;
	assert_int_equal(run(e, 100), RV32_EXIT_STOP);
	assert_int_equal(e->cb_addr, 0xfffffffcu);
	assert_int_equal(e->h.pc, BASE + 24);
	assert_int_equal(e->h.instret, 6);
	assert_int_equal(e->stores, 4);

	e->h.pc = BASE + 8;
	e->store_ret = RV32_CB_FAULT;
	expect_fault(e, TT_HART_FAULT_STORE_ACCESS, BASE + 8, OUTSIDE);
	assert_int_equal(e->h.instret, 6);
}

/* Stores in the region call watched_store only inside the watched range. */
static void test_watched_store(void **state)
{
	struct env *e = *state;
	uint32_t watch[2] = { 0, 0 };

	li(e, S0, BASE + DATA);
	emit(e, addi(A0, ZERO, 0x5a));
	emit(e, sw(A0, 0, S0));
	emit(e, sh(A0, 6, S0));
	emit(e, sb(A0, OUTSIDE, ZERO)); /* outside: store callback only */
	emit(e, sb(A0, 9, S0));
	emit(e, EBREAK);
	load(e);
	e->h.store_watch = watch;
	assert_int_equal(run(e, 4), RV32_EXIT_BUDGET);
	assert_int_equal(e->watches, 0);
	assert_int_equal(get32(e, BASE + DATA), 0x5a);
	watch[0] = BASE + DATA;
	watch[1] = BASE + DATA + 12;
	assert_int_equal(run(e, 1), RV32_EXIT_BUDGET);
	assert_int_equal(e->watches, 1);
	assert_int_equal(e->cb_addr, BASE + DATA + 6);
	assert_int_equal(e->cb_size, 2);
	assert_int_equal(e->cb_pc, BASE + 16);
	assert_int_equal(e->mem_at_watch, 0x005a0000); /* already stored */
	assert_int_equal(run(e, 1), RV32_EXIT_BUDGET);
	assert_int_equal(e->watches, 1);
	assert_int_equal(e->stores, 1);
	e->watch_ret = RV32_CB_STOP;
	assert_int_equal(run(e, 10), RV32_EXIT_STOP);
	assert_int_equal(e->h.pc, BASE + 28);
	assert_int_equal(e->cb_addr, BASE + DATA + 9);
	assert_int_equal(e->cb_size, 1);
	assert_int_equal(e->h.instret, 7);

	e->h.pc = BASE + 8;
	e->watch_ret = RV32_CB_FAULT;
	expect_fault(e, TT_HART_FAULT_STORE_ACCESS, BASE + 12, BASE + DATA);
	assert_int_equal(e->cb_pc, BASE + 12);
	assert_int_equal(e->h.instret, 8); /* the addi, not the sw */
	e->h.store_watch = NULL;
	e->h.pc = BASE + 12;
	assert_int_equal(run(e, 1), RV32_EXIT_BUDGET);
	assert_int_equal(e->watches, 3);

	/* A range elsewhere in the region: the same stores go unreported. */
	e->h.store_watch = watch;
	watch[0] = BASE + DATA + 12;
	watch[1] = BASE + DATA + 16;
	e->h.pc = BASE + 12;
	e->watch_ret = RV32_CB_OK;
	assert_int_equal(run(e, 1), RV32_EXIT_BUDGET);
	assert_int_equal(e->watches, 3);
}

/*
 * A store's look at the watched range is not ordered after the store, so
 * a range that grows just after it goes unreported by watched_store. Then
 * stores_settled must follow before the run ends: the store first, then
 * a range that covers it, then the end of the run.
 */
static void test_stores_settled_after_a_missed_watch(void **state)
{
	struct env *e = *state;
	uint32_t watch[2] = { 0, 0 };
	const uint32_t later[2] = { BASE + DATA, BASE + DATA + 4 };

	li(e, S0, BASE + DATA);
	emit(e, addi(A0, ZERO, 7));
	emit(e, sw(A0, 0, S0));
	emit(e, sb(A0, OUTSIDE, ZERO)); /* the range grows here */
	emit(e, EBREAK);
	load(e);
	e->h.store_watch = watch;
	e->watch_on_store = later;
	e->store_ret = RV32_CB_OK;
	assert_int_equal(run(e, 100), RV32_EXIT_FAULT);
	assert_int_equal(e->watches, 0);
	assert_int_equal(e->stores, 1);
	assert_int_equal(e->settles, 1);
	assert_int_equal(get32(e, BASE + DATA), 7);
}

/* No store into the region, or nothing watched at the end: no call. */
static void test_stores_settled_only_when_needed(void **state)
{
	struct env *e = *state;
	uint32_t watch[2] = { BASE + DATA, BASE + DATA + 4 };

	li(e, S0, BASE + DATA);
	emit(e, lw(A0, 0, S0));
	emit(e, sb(A0, OUTSIDE, ZERO)); /* outside the region */
	emit(e, sw(A0, 8, S0)); /* in the region */
	emit(e, EBREAK);
	load(e);
	e->h.store_watch = watch;
	e->store_ret = RV32_CB_OK;
	assert_int_equal(run(e, 2 + 2), RV32_EXIT_BUDGET); /* li, lw, sb */
	assert_int_equal(e->stores, 1);
	assert_int_equal(e->settles, 0);
	watch[0] = watch[1] = 0;
	assert_int_equal(run(e, 100), RV32_EXIT_FAULT);
	assert_int_equal(e->settles, 0);
	e->h.pc = BASE + 16;
	watch[1] = BASE + 4;
	assert_int_equal(run(e, 100), RV32_EXIT_FAULT);
	assert_int_equal(e->settles, 1);
}

/* A hart that stores in a long loop settles every few thousand
 * instructions, not only when its turn ends: a waiter missed meanwhile
 * is woken within that many. */
static void test_stores_settle_during_a_long_run(void **state)
{
	struct env *e = *state;
	uint32_t watch[2] = { BASE + DATA + 64, BASE + DATA + 68 };

	li(e, S0, BASE + DATA);
	emit(e, sw(A0, 0, S0));
	emit(e, addi(A0, A0, 1));
	emit(e, jal(ZERO, -8));
	load(e);
	e->h.store_watch = watch;
	assert_int_equal(run(e, 100000), RV32_EXIT_BUDGET);
	assert_true(e->settles >= 100000 / 3 / 4096);
	assert_true(e->settles <= 100000 / 4096 + 2);
}

/* ---- waiting ---- */

static void test_waitne_waits(void **state)
{
	struct env *e = *state;

	put32(e, BASE + DATA, 5);
	li(e, S0, BASE + DATA);
	emit(e, addi(A1, ZERO, 5));
	emit(e, TT_INSN_WAIT_NE(S0, A1));
	emit(e, addi(A2, ZERO, 1));
	emit(e, EBREAK);
	load(e);
	assert_int_equal(run(e, 100), RV32_EXIT_WAIT);
	assert_int_equal(e->h.wait_addr, BASE + DATA);
	assert_int_equal(e->h.wait_val, 5);
	assert_int_equal(e->h.pc, BASE + 16);
	assert_int_equal(e->h.instret, 4);
	assert_int_equal(X(A2), 0);
	/* the caller resumes after it */
	assert_int_equal(run(e, 100), RV32_EXIT_FAULT);
	assert_int_equal(X(A2), 1);
}

static void test_waitne_continues(void **state)
{
	struct env *e = *state;

	put32(e, BASE + DATA, 5);
	li(e, S0, BASE + DATA);
	emit(e, addi(A1, ZERO, 6));
	emit(e, TT_INSN_WAIT_NE(S0, A1));
	emit(e, addi(A2, ZERO, 1));
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(A2), 1);
	assert_int_equal(e->h.instret, 5);
}

/* tt.waitge sleeps while the word is below the target (wrapping). */
static void test_waitge(void **state)
{
	struct env *e = *state;

	put32(e, BASE + DATA, 0xFFFFFFFE);
	li(e, S0, BASE + DATA);
	emit(e, addi(A1, ZERO, 2)); /* 2 is 4 past 0xFFFFFFFE */
	emit(e, TT_INSN_WAIT_GE(S0, A1));
	emit(e, addi(A2, ZERO, 1));
	emit(e, EBREAK);
	load(e);
	assert_int_equal(run(e, 100), RV32_EXIT_WAIT);
	assert_int_equal(e->h.wait_addr, BASE + DATA);
	assert_int_equal(e->h.wait_val, 2);
	assert_true(e->h.wait_ge);
	assert_int_equal(X(A2), 0);
	/* At the target it falls through. */
	put32(e, BASE + DATA, 2);
	e->h.pc = BASE + 12;
	assert_int_equal(run(e, 100), RV32_EXIT_FAULT);
	assert_int_equal(X(A2), 1);
}

static void test_waitge_past_target(void **state)
{
	struct env *e = *state;

	put32(e, BASE + DATA, 9);
	li(e, S0, BASE + DATA);
	emit(e, addi(A1, ZERO, 7));
	emit(e, TT_INSN_WAIT_GE(S0, A1));
	emit(e, addi(A2, ZERO, 1));
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(A2), 1);
}

static void test_waitne_slow_path(void **state)
{
	struct env *e = *state;

	emit(e, addi(S0, ZERO, OUTSIDE));
	emit(e, addi(A1, ZERO, 7));
	emit(e, TT_INSN_WAIT_NE(S0, A1));
	emit(e, EBREAK);
	load(e);
	e->load_val = 7;
	assert_int_equal(run(e, 100), RV32_EXIT_WAIT);
	assert_int_equal(e->cb_addr, OUTSIDE);
	assert_int_equal(e->cb_size, 4);
	assert_int_equal(e->cb_pc, BASE + 8);
	assert_int_equal(e->h.wait_addr, OUTSIDE);
	assert_int_equal(e->h.wait_val, 7);
	assert_int_equal(e->h.pc, BASE + 12);

	e->h.pc = BASE + 8;
	e->load_val = 8;
	expect_fault(e, TT_HART_FAULT_EBREAK, BASE + 12, 0);

	/* a callback's STOP: waiting wins, else stop after it */
	e->load_ret = RV32_CB_STOP;
	e->h.pc = BASE + 8;
	assert_int_equal(run(e, 100), RV32_EXIT_STOP);
	assert_int_equal(e->h.pc, BASE + 12);
	e->load_val = 7;
	e->h.pc = BASE + 8;
	assert_int_equal(run(e, 100), RV32_EXIT_WAIT);
	assert_int_equal(e->h.pc, BASE + 12);

	e->h.pc = BASE + 8;
	e->load_ret = RV32_CB_FAULT;
	expect_fault(e, TT_HART_FAULT_LOAD_ACCESS, BASE + 8, OUTSIDE);

	e->h.pc = BASE + 8;
	e->h.x[S0] = BASE + DATA + 2;
	expect_fault(e, TT_HART_FAULT_LOAD_ALIGN, BASE + 8, BASE + DATA + 2);
	assert_int_equal(e->loads, 5);
}

static void test_wfi(void **state)
{
	struct env *e = *state;

	emit(e, addi(A0, ZERO, 1));
	emit(e, WFI);
	emit(e, addi(A0, A0, 1));
	emit(e, EBREAK);
	load(e);
	assert_int_equal(run(e, 100), RV32_EXIT_WFI);
	assert_int_equal(e->h.pc, BASE + 8);
	assert_int_equal(e->h.instret, 2);
	assert_int_equal(run(e, 100), RV32_EXIT_FAULT);
	assert_int_equal(X(A0), 2);
}

/* ---- budget, stop, and changing code ---- */

/* A loop with calls: sum of i * i for i < 50, through a function. */
static void emit_budget_program(struct env *e)
{
	emit(e, addi(A0, ZERO, 50)); /* 0 */
	emit(e, addi(A1, ZERO, 0));  /* 4 */
	emit(e, addi(A0, A0, -1));   /* 8: loop */
	emit(e, jal(RA, 16));	     /* 12: call 28 */
	emit(e, add(A1, A1, A2));    /* 16 */
	emit(e, bne(A0, ZERO, -12)); /* 20 */
	emit(e, EBREAK);	     /* 24 */
	emit(e, mul(A2, A0, A0));    /* 28: square */
	emit(e, jalr(ZERO, RA, 0));  /* 32 */
}

static void test_budget_resume(void **state)
{
	struct env *e = *state;
	static const uint64_t steps[] = {1, 2, 3, 7, 64, 1000};
	uint32_t want_a1;
	uint64_t want_instret;

	emit_budget_program(e);
	run_to_ebreak(e);
	want_a1 = X(A1);
	want_instret = e->h.instret;
	assert_int_equal(want_a1, 40425);
	assert_int_equal(want_instret, 2 + 50 * 6);

	for (unsigned s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
		enum rv32_exit why;

		memset(e->h.x, 0, sizeof(e->h.x));
		e->h.pc = BASE;
		e->h.instret = 0;
		for (;;) {
			uint64_t before = e->h.instret;

			why = run(e, steps[s]);
			if (why != RV32_EXIT_BUDGET)
				break;
			assert_int_equal(e->h.instret - before, steps[s]);
			assert_int_equal(e->h.pc & 3, 0);
		}
		assert_int_equal(why, RV32_EXIT_FAULT);
		assert_int_equal(e->h.fault_cause, TT_HART_FAULT_EBREAK);
		assert_int_equal(X(A1), want_a1);
		assert_int_equal(e->h.instret, want_instret);
		assert_int_equal(e->h.pc, BASE + 24);
	}
}

static void test_budget_infinite_loop(void **state)
{
	struct env *e = *state;

	emit(e, addi(A0, A0, 1));
	emit(e, jal(ZERO, -4));
	load(e);
	assert_int_equal(run(e, 100001), RV32_EXIT_BUDGET);
	assert_int_equal(e->h.instret, 100001);
	assert_int_equal(X(A0), 50001);
	assert_int_equal(e->h.pc, BASE + 4);
}

static void test_stop(void **state)
{
	struct env *e = *state;
	int stop = 1;

	emit(e, addi(A0, ZERO, 1));
	emit(e, jal(ZERO, -4));
	load(e);
	e->h.stop = &stop;
	assert_int_equal(run(e, 1000), RV32_EXIT_STOP);
	assert_int_equal(e->h.instret, 0);
	assert_int_equal(e->h.pc, BASE);
	stop = 0;
	assert_int_equal(run(e, 1000), RV32_EXIT_BUDGET);
	assert_int_equal(e->h.instret, 1000);
}

/* The guest sets the stop word itself, then spins: the run ends at the
 * first taken branch back, or (any spin) within a few thousand. */
static void test_stop_seen_while_spinning(void **state)
{
	struct env *e = *state;

	li(e, S0, BASE + DATA);
	emit(e, addi(T1, ZERO, 1));
	emit(e, sw(T1, 0, S0));
	emit(e, jal(ZERO, 0)); /* 16: spin here */
	load(e);
	e->h.stop = (const int *)(e->mem + DATA);
	assert_int_equal(run(e, 1000000), RV32_EXIT_STOP);
	assert_int_equal(e->h.instret, 5); /* at the first branch back */
	assert_int_equal(e->h.pc, BASE + 16);

	/* a spin through a register jump is seen too */
	put32(e, BASE + DATA, 0);
	e->h.pc = BASE;
	e->h.instret = 0;
	put32(e, BASE + 16, auipc(T0, 0));
	put32(e, BASE + 20, jalr(ZERO, T0, 0));
	assert_int_equal(run(e, 1000000), RV32_EXIT_STOP);
	assert_true(e->h.instret < 4 + 5000);
}

/* A word rewritten by the host after it ran is seen the next time. */
static void test_code_rewritten_by_host(void **state)
{
	struct env *e = *state;

	emit(e, addi(A0, ZERO, 1));
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(A0), 1);
	put32(e, BASE, addi(A0, ZERO, 2));
	e->h.pc = BASE;
	run(e, 100);
	assert_int_equal(X(A0), 2);
	put32(e, BASE, EBREAK);
	e->h.pc = BASE;
	expect_fault(e, TT_HART_FAULT_EBREAK, BASE, 0);
	put32(e, BASE, 0);
	e->h.pc = BASE;
	expect_fault(e, TT_HART_FAULT_ILLEGAL, BASE, 0);
	put32(e, BASE, addi(A0, ZERO, 3));
	e->h.pc = BASE;
	run(e, 100);
	assert_int_equal(X(A0), 3);
}

/* The guest rewrites an instruction it has already run, no fence.i. */
static void test_code_rewritten_by_guest(void **state)
{
	struct env *e = *state;

	put32(e, BASE + 0x400, addi(A0, ZERO, 7));
	emit(e, auipc(S0, 0));	    /* 0 */
	emit(e, lw(T1, 0x400, S0)); /* 4 */
	emit(e, addi(T2, ZERO, 2)); /* 8 */
	emit(e, addi(A0, ZERO, 1)); /* 12: rewritten */
	emit(e, add(A1, A1, A0));   /* 16 */
	emit(e, addi(S1, S1, 1));   /* 20 */
	emit(e, sw(T1, 12, S0));    /* 24 */
	emit(e, blt(S1, T2, -16));  /* 28 */
	emit(e, EBREAK);
	run_to_ebreak(e);
	assert_int_equal(X(A1), 1 + 7);
}

/* Moving the region: the same code at a new address sees its new pc. */
static void test_region_moved(void **state)
{
	struct env *e = *state;

	emit(e, auipc(A0, 0));
	emit(e, jal(RA, 8));
	emit(e, EBREAK);
	emit(e, jalr(ZERO, RA, 0));
	run_to_ebreak(e);
	assert_int_equal(X(A0), BASE);
	e->h.mem_base = 0x40000;
	e->h.pc = 0x40000;
	expect_fault(e, TT_HART_FAULT_EBREAK, 0x40008, 0);
	assert_int_equal(X(A0), 0x40000);
	assert_int_equal(X(RA), 0x40008);
}

/*
 * Two harts laid out alike (same local addresses, their own memories) with
 * different code at the same addresses, run in turns on one thread: they
 * share its decoded records, and each must still run its own code,
 * branches and jumps included.
 */
static void test_harts_share_decoded_code(void **state)
{
	struct env *e = *state;
	struct rv32_hart other;
	uint8_t *mem2 = calloc(1, MEM_SIZE);
	const uint32_t prog1[] = { addi(A0, ZERO, 1), jal(ZERO, 8),
				   addi(A0, ZERO, 100), addi(A1, A0, 10),
				   EBREAK };
	const uint32_t prog2[] = { addi(A0, ZERO, 2), addi(A0, A0, 20),
				   beq(ZERO, ZERO, 8), addi(A0, ZERO, 200),
				   addi(A1, A0, 30), EBREAK };

	assert_non_null(mem2);
	rv32_init(&other, BASE);
	other.mem = mem2;
	other.mem_base = BASE;
	other.mem_size = MEM_SIZE;
	memcpy(e->mem, prog1, sizeof(prog1));
	memcpy(mem2, prog2, sizeof(prog2));
	for (unsigned round = 0; round < 3; round++) {
		e->h.pc = BASE;
		other.pc = BASE;
		assert_int_equal(rv32_run(&e->h, 100), RV32_EXIT_FAULT);
		assert_int_equal(rv32_run(&other, 100), RV32_EXIT_FAULT);
		assert_int_equal(e->h.x[A0], 1);
		assert_int_equal(e->h.x[A1], 11);
		assert_int_equal(e->h.pc, BASE + 16);
		assert_int_equal(other.x[A0], 22);
		assert_int_equal(other.x[A1], 52);
		assert_int_equal(other.pc, BASE + 20);
	}
	rv32_fini(&other);
	free(mem2);
}

/*
 * A region whose size is not a multiple of 4 (the header asks for one; the
 * core must still stay inside): an access that starts inside but runs past
 * the end faults without a callback; one wholly past it is a callback.
 * The region is malloc'd to its exact size so ASan sees any overrun.
 */
static void test_access_straddling_end(void **state)
{
	struct env *e = *state;
	uint32_t size = 0x1002, end = BASE + size;
	uint8_t *small = calloc(1, size);

	assert_non_null(small);
	small[0x1000] = 0x34;
	small[0x1001] = 0x92;
	e->h.mem = small;
	e->h.mem_size = size;
	e->n = 0;
	li(e, S0, end - 2);
	emit(e, lh(A0, 0, S0));
	emit(e, lbu(A1, 1, S0));
	emit(e, lw(A2, 0, S0)); /* 16: straddles */
	emit(e, EBREAK);
	for (unsigned i = 0; i < e->n; i++)
		memcpy(small + 4 * i, &e->code[i], 4);
	e->h.pc = BASE;
	expect_fault(e, TT_HART_FAULT_LOAD_ACCESS, BASE + 16, end - 2);
	assert_int_equal(X(A0), 0xffff9234u);
	assert_int_equal(X(A1), 0x92);
	assert_int_equal(e->loads, 0);

	/* a store straddling; then a byte wholly outside: the callback */
	memcpy(small + 16, &(uint32_t){sw(A0, 0, S0)}, 4);
	memcpy(small + 20, &(uint32_t){sb(A0, 2, S0)}, 4);
	e->h.pc = BASE + 16;
	expect_fault(e, TT_HART_FAULT_STORE_ACCESS, BASE + 16, end - 2);
	assert_int_equal(e->stores, 0);
	e->h.pc = BASE + 20;
	assert_int_equal(run(e, 1), RV32_EXIT_BUDGET);
	assert_int_equal(e->stores, 1);
	assert_int_equal(e->cb_addr, end);

	/* the last whole word of a region is fine */
	e->h.mem_size = 0x1000;
	memcpy(small + 20, &(uint32_t){lw(A3, -4, S0)}, 4);
	e->h.x[S0] = BASE + 0x1000;
	small[0xffc] = 0x11;
	e->h.pc = BASE + 20;
	assert_int_equal(run(e, 1), RV32_EXIT_BUDGET);
	assert_int_equal(X(A3), 0x11);
	rv32_fini(&e->h);
	free(small);
	e->h.mem = e->mem;
	e->h.mem_size = MEM_SIZE;
}

static void test_fault_names(void **state)
{
	(void)state;
	assert_string_equal(rv32_fault_name(TT_HART_FAULT_ILLEGAL),
			    "illegal instruction");
	for (int c = 0; c < TT_HART_FAULT_COUNT; c++) {
		assert_non_null(rv32_fault_name(c));
		for (int d = 0; d < c; d++)
			assert_string_not_equal(rv32_fault_name(c),
						rv32_fault_name(d));
	}
	assert_string_equal(rv32_fault_name(TT_HART_FAULT_COUNT),
			    "unknown fault");
}

/* ---- random programs ---- */

static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng_state >> 32);
}

static enum rv32_cb fuzz_load(struct rv32_hart *h, uint32_t addr, unsigned size,
			      uint32_t *val)
{
	(void)h;
	assert_true(size == 1 || size == 2 || size == 4);
	assert_int_equal(addr & (size - 1), 0);
	*val = rnd();
	return (enum rv32_cb)(rnd() % 3);
}

static enum rv32_cb fuzz_store(struct rv32_hart *h, uint32_t addr,
			       unsigned size, uint32_t val)
{
	(void)h;
	(void)val;
	assert_true(size == 1 || size == 2 || size == 4);
	assert_int_equal(addr & (size - 1), 0);
	return (enum rv32_cb)(rnd() % 3);
}

static enum rv32_cb fuzz_watched(struct rv32_hart *h, uint32_t addr,
				 unsigned size)
{
	assert_true(addr - h->mem_base < h->mem_size);
	assert_true(size == 1 || size == 2 || size == 4);
	return (enum rv32_cb)(rnd() % 3);
}

/* A random word: mostly a valid encoding with random fields. */
static uint32_t fuzz_word(void)
{
	static const uint32_t funct7[] = {0, 0x20, 1};
	static const uint32_t system[] = {ECALL, EBREAK, WFI, FENCE_I};
	uint32_t w = rnd();

	switch (rnd() % 16) {
	case 0: /* anything, mostly illegal */
		return w;
	case 1:
	case 2:
		return (w & 0x01ffff80) | funct7[rnd() % 3] << 25 | 0x33;
	case 3:
	case 4:
	case 5:
		return (w & ~0x7fu) | 0x13;
	case 6:
	case 7:
		return (w & ~0x7fu) | 0x03;
	case 8:
	case 9:
		return (w & ~0x7fu) | 0x23;
	case 10: /* a short branch */
		return (w & 0x01ffff80) | 0x63;
	case 11:
		return (w & ~0x7fu) | 0x63;
	case 12:
		return (w & ~0x7fu) | (rnd() % 2 ? 0x6f : 0x67);
	case 13:
		return (w & ~0x7fu) | (rnd() % 2 ? 0x37 : 0x17);
	case 14:
		return TT_INSN_WAIT_NE(rnd() % 32, rnd() % 32);
	default:
		return system[rnd() % 4];
	}
}

/* Run one random program in a random region; returns instructions run. */
static uint64_t fuzz_one(struct rv32_hart *h, const struct rv32_ops *fops)
{
	uint32_t size = 4 * (16 + rnd() % 1500);
	uint8_t *mem = malloc(size);
	uint32_t watch[2] = { 0, rnd() % 2 ? UINT32_MAX : 0 };
	int stop = 0;

	assert_non_null(mem);
	for (uint32_t i = 0; i < size; i += 4) {
		uint32_t w = fuzz_word();

		memcpy(mem + i, &w, 4);
	}
	rv32_init(h, 0);
	h->mem = mem;
	h->mem_base = rnd() % 4 ? (rnd() & ~3u) : 0;
	h->mem_size = size;
	h->ops = rnd() % 8 ? fops : NULL;
	h->store_watch = watch;
	h->stop = &stop;
	for (int i = 1; i < 32; i++) /* some point into the region */
		h->x[i] = rnd() % 2 ? h->mem_base + rnd() % (size + 64) : rnd();
	h->pc = h->mem_base + 4 * (rnd() % (size / 4));
	for (int run = 0; run < 40; run++) {
		uint64_t budget = 1 + rnd() % 3000, before = h->instret;
		enum rv32_exit why = rv32_run(h, budget);

		assert_true(why <= RV32_EXIT_STOP);
		assert_true(h->instret - before <= budget);
		if (why == RV32_EXIT_BUDGET)
			assert_int_equal(h->instret - before, budget);
		assert_int_equal(h->x[0], 0);
		if (why == RV32_EXIT_FAULT) {
			assert_true(h->fault_cause > TT_HART_FAULT_NONE &&
				    h->fault_cause < TT_HART_FAULT_RUNAWAY);
			h->pc = h->mem_base + 4 * (rnd() % (size / 4));
		} else {
			assert_int_equal(h->pc & 3, 0);
		}
		if (rnd() % 4 == 0) { /* rewrite some code */
			uint32_t w = fuzz_word();

			memcpy(mem + 4 * (rnd() % (size / 4)), &w, 4);
		}
		stop = rnd() % 16 == 0;
		watch[1] = rnd() % 2 ? UINT32_MAX : 0;
	}
	rv32_fini(h);
	free(mem);
	return h->instret;
}

static void test_fuzz(void **state)
{
	const struct rv32_ops fops = {
		.load = fuzz_load,
		.store = fuzz_store,
		.watched_store = fuzz_watched,
	};
	const char *env = getenv("RV32_FUZZ_ITERS");
	unsigned iters = env ? (unsigned)strtoul(env, NULL, 0) : 200;
	struct rv32_hart h;
	uint64_t insns = 0;

	(void)state;
	rng_state = 0x5eed;
	for (unsigned i = 0; i < iters; i++)
		insns += fuzz_one(&h, &fops);
	/* the programs did run, not just fault at once */
	printf("# %u programs, %llu instructions\n", iters,
	       (unsigned long long)insns);
	assert_true(insns > 20ull * iters);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_lui_auipc),
		T(test_alu_immediate),
		T(test_shift_immediate),
		T(test_alu_register),
		T(test_shift_register),
		T(test_multiply),
		T(test_divide),
		T(test_loads_extend),
		T(test_stores),
		T(test_branches),
		T(test_branch_backward),
		T(test_long_code),
		T(test_jal_jalr),
		T(test_jal_backward_and_negative_jalr),
		T(test_x0),
		T(test_fence_is_nop),
		T(test_illegal),
		T(test_ecall_ebreak),
		T(test_fetch_outside_region),
		T(test_fetch_runs_off_end),
		T(test_fetch_misaligned),
		T(test_misaligned_load_store),
		T(test_load_callback),
		T(test_load_callback_stop_and_fault),
		T(test_store_callback),
		T(test_watched_store),
		T(test_stores_settled_after_a_missed_watch),
		T(test_stores_settled_only_when_needed),
		T(test_stores_settle_during_a_long_run),
		T(test_waitne_waits),
		T(test_waitne_continues),
		T(test_waitne_slow_path),
		T(test_waitge),
		T(test_waitge_past_target),
		T(test_wfi),
		T(test_budget_resume),
		T(test_budget_infinite_loop),
		T(test_stop),
		T(test_stop_seen_while_spinning),
		T(test_code_rewritten_by_host),
		T(test_code_rewritten_by_guest),
		T(test_harts_share_decoded_code),
		T(test_region_moved),
		T(test_access_straddling_end),
		T(test_fault_names),
		T(test_fuzz),
	};

	return cmocka_run_group_tests_name("rv32", tests, NULL, NULL);
}
