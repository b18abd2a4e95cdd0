// SPDX-License-Identifier: Apache-2.0
/*
 * Harts inside the chip model: reset lines, faults and their records,
 * waiting that costs nothing, wake-ups by host writes, sibling stores and
 * timers, NOC commands from a hart, the instruction budget, host
 * interrupts, chip reset. The flash is blank here (TT_FIRMWARE=/dev/null),
 * so no firmware runs and each test drives the harts itself.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "sim/model/device.h"
#include "sim/model/doorbell.h"
#include "rv32asm.h"
#include "common/soc_desc.h"

#define PROG 0x20000u /* L1 address of test programs */
#define DATA 0x30000u /* L1 address of test data */
/* Node-wide hart registers lie beyond a 12-bit offset from the page. */
#define NODE_REGS (TT_REG_HART_ADDR + TT_HART_NODE_REGS)
#define NODE(reg) ((reg) - TT_HART_NODE_REGS)

struct xy {
	unsigned x, y;
};

struct fixture {
	struct soc_desc soc;
	struct sim_device *dev;
	struct xy core, other; /* two Tensix cores */
};

static int setup_flags(void **state, unsigned flags)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char err[SIM_ERR_LEN];

	setenv("TT_FIRMWARE", "/dev/null", 1);
	if (!f || soc_desc_builtin("wormhole_b0_n150", &f->soc, err, sizeof(err)) ||
	    sim_device_create(&f->soc, TT_HW_BOARD_N150, 0, flags, &f->dev,
			      err)) {
		free(f);
		return -1;
	}
	f->core = (struct xy){ 1, 1 };
	f->other = (struct xy){ 2, 2 };
	*state = f;
	return 0;
}

static int setup(void **state)
{
	return setup_flags(state, 0);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	sim_device_destroy(f->dev);
	free(f);
	return 0;
}

static int host_rw(struct fixture *f, struct xy c, enum tt_dev_op op,
		   uint64_t addr, void *buf, uint64_t len)
{
	struct sim_access a = {
		.op = op, .x = c.x, .y = c.y, .addr = addr, .len = len,
		.init_x = TT_DEV_INITIATOR_HOST, .init_y = TT_DEV_INITIATOR_HOST,
	};

	return sim_access(&f->dev->ctx, &a, buf);
}

static void wr32(struct fixture *f, struct xy c, uint64_t addr, uint32_t v)
{
	assert_int_equal(host_rw(f, c, TT_DEV_OP_WRITE, addr, &v, 4), 0);
}

static uint32_t rd32(struct fixture *f, struct xy c, uint64_t addr)
{
	uint32_t v = 0;

	assert_int_equal(host_rw(f, c, TT_DEV_OP_READ, addr, &v, 4), 0);
	return v;
}

static uint32_t hart_reg(struct fixture *f, struct xy c, unsigned h,
			 unsigned reg)
{
	return rd32(f, c, TT_REG_HART_ADDR + TT_HART_REG(h, reg));
}

static void load(struct fixture *f, struct xy c, uint32_t addr,
		 const uint32_t *prog, size_t words)
{
	assert_int_equal(host_rw(f, c, TT_DEV_OP_WRITE, addr, (void *)prog,
				 words * 4),
			 0);
}

static void set_lines(struct fixture *f, struct xy c, uint32_t lines)
{
	wr32(f, c, TT_REG_TILE_CTRL_ADDR + TT_TILE_SOFT_RESET, lines);
}

static bool wait_state(struct fixture *f, struct xy c, unsigned h,
		       enum tt_hart_state st);

/* Start hart h of core c at PROG with prog loaded there. */
static void start(struct fixture *f, struct xy c, unsigned h,
		  const uint32_t *prog, size_t words)
{
	uint32_t lines = rd32(f, c, TT_REG_TILE_CTRL_ADDR + TT_TILE_SOFT_RESET);

	set_lines(f, c, lines | tt_hart_reset_bit(h));
	assert_true(wait_state(f, c, h, TT_HART_IN_RESET));
	load(f, c, PROG + h * 0x1000, prog, words);
	wr32(f, c, TT_REG_HART_ADDR + TT_HART_REG(h, TT_HART_RESET_PC),
	     PROG + h * 0x1000);
	set_lines(f, c, lines & ~tt_hart_reset_bit(h));
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait until hart h of core c is in `state`; false after 5 s. */
static bool wait_state(struct fixture *f, struct xy c, unsigned h,
		       enum tt_hart_state st)
{
	double t0 = now_s();

	while (now_s() - t0 < 5.0) {
		if (hart_reg(f, c, h, TT_HART_STATE) == st)
			return true;
		usleep(1000);
	}
	return false;
}

/* Wait until hart h of core c has retired an instruction. */
static bool wait_instret(struct fixture *f, struct xy c, unsigned h)
{
	double t0 = now_s();

	while (now_s() - t0 < 5.0) {
		if (hart_reg(f, c, h, TT_HART_INSTRET_LO))
			return true;
		usleep(1000);
	}
	return false;
}

static bool wait_word(struct fixture *f, struct xy c, uint64_t addr,
		      uint32_t want)
{
	double t0 = now_s();

	while (now_s() - t0 < 5.0) {
		if (rd32(f, c, addr) == want)
			return true;
		usleep(1000);
	}
	return false;
}

static void test_power_on_state(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(rd32(f, f->core, TT_REG_TILE_CTRL_ADDR + TT_TILE_SOFT_RESET),
			 TT_TILE_SOFT_RESET_ALL);
	for (unsigned h = 0; h < TT_TENSIX_HARTS; h++)
		assert_int_equal(hart_reg(f, f->core, h, TT_HART_STATE),
				 TT_HART_IN_RESET);
	assert_int_equal(rd32(f, f->core, TT_REG_HART_ADDR + TT_HART_COUNT), 3);
}

static void test_store_then_ebreak(void **state)
{
	struct fixture *f = *state;
	const uint32_t prog[] = {
		RV_LI(5, DATA), RV_LI(6, 0xC0FFEE), RV_SW(6, 5, 0), RV_EBREAK,
	};

	start(f, f->core, TT_HART_BRISC, prog, sizeof(prog) / 4);
	assert_true(wait_state(f, f->core, TT_HART_BRISC, TT_HART_HALTED));
	assert_int_equal(rd32(f, f->core, DATA), 0xC0FFEE);
	assert_int_equal(hart_reg(f, f->core, 0, TT_HART_FAULT_CAUSE),
			 TT_HART_FAULT_EBREAK);
	assert_int_equal(hart_reg(f, f->core, 0, TT_HART_FAULT_PC), PROG + 20);
	assert_int_equal(hart_reg(f, f->core, 0, TT_HART_INSTRET_LO), 5);
	assert_true(__atomic_load_n(&f->dev->img->regs->irq_status,
				    __ATOMIC_ACQUIRE) & TT_IRQ_HART_FAULT);
}

static void test_fault_record_and_model_survives(void **state)
{
	struct fixture *f = *state;
	const uint32_t bad_load[] = { RV_LI(5, 0x7000000), RV_LW(6, 5, 0) };
	const uint32_t bad_insn[] = { RV_ADDI(1, 0, 1), 0xFFFFFFFFu };
	const uint32_t good[] = { RV_LI(5, DATA + 8), RV_SW(5, 5, 0), RV_EBREAK };

	start(f, f->core, TT_HART_BRISC, bad_load, sizeof(bad_load) / 4);
	assert_true(wait_state(f, f->core, 0, TT_HART_HALTED));
	assert_int_equal(hart_reg(f, f->core, 0, TT_HART_FAULT_CAUSE),
			 TT_HART_FAULT_LOAD_ACCESS);
	assert_int_equal(hart_reg(f, f->core, 0, TT_HART_FAULT_ADDR), 0x7000000);
	assert_int_equal(hart_reg(f, f->core, 0, TT_HART_FAULT_PC), PROG + 8);

	start(f, f->core, TT_HART_NCRISC, bad_insn, sizeof(bad_insn) / 4);
	assert_true(wait_state(f, f->core, 1, TT_HART_HALTED));
	assert_int_equal(hart_reg(f, f->core, 1, TT_HART_FAULT_CAUSE),
			 TT_HART_FAULT_ILLEGAL);
	assert_int_equal(hart_reg(f, f->core, 1, TT_HART_FAULT_ADDR), 0xFFFFFFFFu);

	/* Reset clears the record; the same hart runs good code again. */
	start(f, f->core, TT_HART_BRISC, good, sizeof(good) / 4);
	assert_true(wait_state(f, f->core, 0, TT_HART_HALTED));
	assert_int_equal(hart_reg(f, f->core, 0, TT_HART_FAULT_CAUSE),
			 TT_HART_FAULT_EBREAK);
	assert_int_equal(rd32(f, f->core, DATA + 8), DATA + 8);
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* Wait on DATA == 0 with tt.waitne, then store 1 at DATA + 4. */
#define WAITER                                                              \
	{                                                                   \
		RV_LI(5, DATA), RV_LW(6, 5, 0), RV_WAITNE(5, 0),            \
			RV_LW(6, 5, 0), RV_BEQ(6, 0, -8), RV_ADDI(7, 0, 1), \
			RV_SW(7, 5, 4), RV_EBREAK,                          \
	}

static void test_waiting_costs_nothing_and_host_write_wakes(void **state)
{
	struct fixture *f = *state;
	const uint32_t waiter[] = WAITER;
	double c0;

	wr32(f, f->core, DATA, 0);
	wr32(f, f->core, DATA + 4, 0);
	start(f, f->core, TT_HART_BRISC, waiter, sizeof(waiter) / 4);
	assert_true(wait_state(f, f->core, 0, TT_HART_WAITING));
	assert_int_equal(hart_reg(f, f->core, 0, TT_HART_WAIT_ADDR), DATA);
	assert_int_not_equal(rd32(f, f->core, TT_REG_HART_ADDR + TT_HART_WAITERS), 0);
	c0 = cpu_s();
	usleep(300000);
	assert_true(cpu_s() - c0 < 0.03);
	assert_int_equal(rd32(f, f->core, DATA + 4), 0);
	wr32(f, f->core, DATA, 7);
	assert_true(wait_word(f, f->core, DATA + 4, 1));
	assert_true(wait_state(f, f->core, 0, TT_HART_HALTED));
	assert_int_equal(rd32(f, f->core, TT_REG_HART_ADDR + TT_HART_WAITERS), 0);
}

static void test_sibling_store_wakes(void **state)
{
	struct fixture *f = *state;
	const uint32_t waiter[] = WAITER;
	const uint32_t poke[] = {
		RV_LI(5, DATA), RV_ADDI(6, 0, 9), RV_SW(6, 5, 0), RV_EBREAK,
	};

	wr32(f, f->core, DATA, 0);
	wr32(f, f->core, DATA + 4, 0);
	start(f, f->core, TT_HART_BRISC, waiter, sizeof(waiter) / 4);
	assert_true(wait_state(f, f->core, 0, TT_HART_WAITING));
	start(f, f->core, TT_HART_COMPUTE, poke, sizeof(poke) / 4);
	assert_true(wait_word(f, f->core, DATA + 4, 1));
}

/* Echo the word at src to dst each time it changes: wait with tt.waitne
 * on src, store what came to dst. */
#define ECHO(src, dst)                                                      \
	{                                                                   \
		RV_LI(5, src), RV_LI(8, dst), RV_ADDI(6, 0, 0),             \
			RV_LW(7, 5, 0), RV_BNE(7, 6, 12), RV_WAITNE(5, 6),  \
			RV_JAL0(-12), RV_SW(7, 8, 0), RV_ADDI(6, 7, 0),     \
			RV_JAL0(-24),                                       \
	}

#define PINGS 20000

/* Wake-ups are never lost, however a write and a wait interleave: the
 * host writes a word a hart is about to wait on, often while that hart is
 * still running from the last round, and the hart's store wakes a sibling
 * the same way; writes of other words in between are events that wake
 * nobody. A lost wake-up stops the echo. */
static void test_no_lost_wakeups_under_ping_pong(void **state)
{
	struct fixture *f = *state;
	const uint32_t first[] = ECHO(DATA, DATA + 4);
	const uint32_t second[] = ECHO(DATA + 4, DATA + 8);
	double t0;

	for (unsigned i = 0; i < 3; i++)
		wr32(f, f->core, DATA + 4 * i, 0);
	start(f, f->core, TT_HART_BRISC, first, sizeof(first) / 4);
	start(f, f->core, TT_HART_NCRISC, second, sizeof(second) / 4);
	for (uint32_t i = 1; i <= PINGS; i++) {
		wr32(f, f->core, DATA, i);
		if (i % 3 == 0)
			wr32(f, f->core, DATA + 64, i);
		t0 = now_s();
		for (unsigned spin = 0; rd32(f, f->core, DATA + 8) != i;
		     spin++)
			if (spin % 1024 == 0 && now_s() - t0 > 5.0)
				fail_msg("round %u: echo stuck at %u, %u", i,
					 rd32(f, f->core, DATA + 4),
					 rd32(f, f->core, DATA + 8));
	}
}

static void test_reset_line_stops_a_running_hart(void **state)
{
	struct fixture *f = *state;
	const uint32_t spin[] = { RV_ADDI(5, 5, 1), RV_JAL0(-4) };
	uint32_t n1, n2;

	start(f, f->core, TT_HART_NCRISC, spin, sizeof(spin) / 4);
	assert_true(wait_state(f, f->core, 1, TT_HART_RUNNING));
	/* RUNNING is also shown while it waits for a thread: wait until it
	 * has had a turn (its count is published after every turn). */
	assert_true(wait_instret(f, f->core, 1));
	set_lines(f, f->core, TT_TILE_SOFT_RESET_ALL);
	assert_true(wait_state(f, f->core, 1, TT_HART_IN_RESET));
	n1 = hart_reg(f, f->core, 1, TT_HART_INSTRET_LO);
	usleep(20000);
	n2 = hart_reg(f, f->core, 1, TT_HART_INSTRET_LO);
	assert_int_equal(n1, n2);
	assert_true(n1 > 0);
}

static void test_budget_halts_a_runaway(void **state)
{
	struct fixture *f = *state;
	const uint32_t spin[] = { RV_ADDI(5, 5, 1), RV_JAL0(-4) };

	wr32(f, f->core, TT_REG_HART_ADDR + TT_HART_REG(2, TT_HART_BUDGET_LO),
	     1000001);
	start(f, f->core, TT_HART_COMPUTE, spin, sizeof(spin) / 4);
	assert_true(wait_state(f, f->core, 2, TT_HART_HALTED));
	assert_int_equal(hart_reg(f, f->core, 2, TT_HART_FAULT_CAUSE),
			 TT_HART_FAULT_RUNAWAY);
	assert_int_equal(hart_reg(f, f->core, 2, TT_HART_INSTRET_LO), 1000001);
	wr32(f, f->core, TT_REG_HART_ADDR + TT_HART_REG(2, TT_HART_BUDGET_LO), 0);
}

static void test_wfi_timer(void **state)
{
	struct fixture *f = *state;
	/* deadline = TIME + 50 ms in WAKE_AT; wfi until TIME >= deadline;
	 * store the time at DATA. */
	const uint32_t prog[] = {
		RV_LI(5, TT_REG_HART_ADDR), RV_LI(10, NODE_REGS),
		RV_LW(6, 10, NODE(TT_HART_TIME_LO)),
		RV_LI(7, 50000), RV_ADD(6, 6, 7),
		RV_SW(6, 5, TT_HART_REG(0, TT_HART_WAKE_AT_LO)),
		RV_WFI, RV_LW(8, 10, NODE(TT_HART_TIME_LO)), rv_b(6, 8, 6, -8),
		RV_LI(9, DATA), RV_SW(8, 9, 0), RV_SW(6, 9, 4), RV_EBREAK,
	};
	double t0 = now_s(), c0 = cpu_s();

	start(f, f->core, TT_HART_BRISC, prog, sizeof(prog) / 4);
	assert_true(wait_state(f, f->core, 0, TT_HART_HALTED));
	assert_int_equal(hart_reg(f, f->core, 0, TT_HART_FAULT_CAUSE),
			 TT_HART_FAULT_EBREAK);
	assert_true(now_s() - t0 >= 0.045);
	assert_true(rd32(f, f->core, DATA) >= rd32(f, f->core, DATA + 4));
	assert_true(cpu_s() - c0 < 0.04);
}

static void test_noc_write_from_a_hart(void **state)
{
	struct fixture *f = *state;
	uint32_t coord = TT_FIELD_PREP(TT_NIU_COORD_X_MASK, f->other.x) |
			 TT_FIELD_PREP(TT_NIU_COORD_Y_MASK, f->other.y);
	const uint32_t prog[] = {
		RV_LI(5, TT_REG_NIU0_ADDR), RV_LI(6, DATA + 0x100),
		RV_SW(6, 5, TT_NIU_CMD_TARG_LO), RV_SW(0, 5, TT_NIU_CMD_TARG_HI),
		RV_LI(6, coord), RV_SW(6, 5, TT_NIU_CMD_TARG_COORD),
		RV_LI(6, DATA), RV_SW(6, 5, TT_NIU_CMD_RET_LO),
		RV_SW(0, 5, TT_NIU_CMD_RET_HI), RV_ADDI(6, 0, 8),
		RV_SW(6, 5, TT_NIU_CMD_LEN), RV_ADDI(6, 0, TT_NIU_OP_WRITE),
		RV_SW(6, 5, TT_NIU_CMD_CTRL), RV_ADDI(6, 0, 1),
		RV_SW(6, 5, TT_NIU_CMD_ISSUE), RV_LW(7, 5, TT_NIU_CMD_ISSUE),
		RV_LW(8, 5, TT_NIU_CMD_STATUS), RV_EBREAK,
	};

	wr32(f, f->core, DATA, 0x11111111);
	wr32(f, f->core, DATA + 4, 0x22222222);
	start(f, f->core, TT_HART_NCRISC, prog, sizeof(prog) / 4);
	assert_true(wait_state(f, f->core, 1, TT_HART_HALTED));
	assert_int_equal(rd32(f, f->other, DATA + 0x100), 0x11111111);
	assert_int_equal(rd32(f, f->other, DATA + 0x104), 0x22222222);
	assert_int_equal(rd32(f, f->core, TT_REG_NIU0_ADDR + TT_NIU_WRITES_DONE), 1);
}

static void test_host_irq_from_a_hart(void **state)
{
	struct fixture *f = *state;
	struct tt_host_regs *r = f->dev->img->regs;
	const uint32_t prog[] = {
		RV_LI(5, NODE_REGS), RV_SW(5, 5, NODE(TT_HART_HOST_IRQ)), RV_EBREAK,
	};
	uint32_t seen = sim_irq_seq(r);

	__atomic_and_fetch(&r->irq_status, ~TT_IRQ_HART, __ATOMIC_SEQ_CST);
	start(f, f->core, TT_HART_BRISC, prog, sizeof(prog) / 4);
	assert_int_equal(sim_irq_wait(r, seen, 5000), 0);
	assert_true(wait_state(f, f->core, 0, TT_HART_HALTED));
	assert_true(__atomic_load_n(&r->irq_status, __ATOMIC_ACQUIRE) & TT_IRQ_HART);
}

/* Harts that count to a million, store the count, interrupt the host
 * and stop: on hart 0 of 16 cores, more than there are hart threads. */
#define COUNTERS 16
#define COUNT 1000000

/* The i-th enabled Tensix node of the image. */
static struct xy counter_core(struct fixture *f, unsigned i)
{
	struct sim_image *img = f->dev->img;

	for (unsigned n = 0; n < img->grid_x * img->grid_y; n++) {
		struct tt_node_desc *d = &img->nodes[n];

		if (d->type == TT_NODE_TENSIX &&
		    !(d->flags & TT_NODE_F_HARVESTED) && !i--)
			return (struct xy){ d->x, d->y };
	}
	fail_msg("fewer than %u Tensix nodes", COUNTERS);
	return (struct xy){ 0, 0 };
}

static void start_counters(struct fixture *f)
{
	const uint32_t prog[] = {
		RV_LI(5, COUNT), RV_ADDI(6, 6, 1), RV_BNE(6, 5, -4),
		RV_LI(7, DATA), RV_SW(6, 7, 0),
		RV_LI(5, NODE_REGS), RV_SW(5, 5, NODE(TT_HART_HOST_IRQ)),
		RV_EBREAK,
	};

	for (unsigned i = 0; i < COUNTERS; i++) {
		wr32(f, counter_core(f, i), DATA, 0);
		start(f, counter_core(f, i), TT_HART_BRISC, prog,
		      sizeof(prog) / 4);
	}
}

/* Wait as libtt does (sim_device_wait_irq) until every counter is in. */
static void wait_counters(struct fixture *f)
{
	struct tt_host_regs *r = f->dev->img->regs;
	double t0 = now_s();
	unsigned done = 0;

	while (done < COUNTERS && now_s() - t0 < 20.0) {
		uint32_t seen = sim_irq_seq(r);

		done = 0;
		for (unsigned i = 0; i < COUNTERS; i++)
			done += rd32(f, counter_core(f, i), DATA) == COUNT;
		if (done < COUNTERS)
			sim_device_wait_irq(f->dev, seen, 1000);
	}
	assert_int_equal(done, COUNTERS);
}

static int setup_host_waits(void **state)
{
	unsetenv("TT_SIM_THREADS");
	return setup_flags(state, SIM_DEVICE_HOST_WAITS);
}

/* A thread that waits for the chip runs harts meanwhile, and still
 * returns when the interrupt comes (or when nothing comes). */
static void test_waiting_thread_runs_harts(void **state)
{
	struct fixture *f = *state;
	uint32_t seen;

	start_counters(f);
	wait_counters(f);
	assert_true(sim_sched_assisted_turns(&f->dev->sched) > 0);
	/* Every counter has interrupted and stopped: nothing more comes. */
	for (unsigned i = 0; i < COUNTERS; i++)
		assert_true(wait_state(f, counter_core(f, i), 0,
				       TT_HART_HALTED));
	seen = sim_irq_seq(f->dev->img->regs);
	assert_int_equal(sim_device_wait_irq(f->dev, seen, 50), -ETIMEDOUT);
}

static int setup_host_waits_one_thread(void **state)
{
	int ret;

	setenv("TT_SIM_THREADS", "1", 1);
	ret = setup_flags(state, SIM_DEVICE_HOST_WAITS);
	unsetenv("TT_SIM_THREADS");
	return ret;
}

/* An explicit thread count is kept: waiting threads only wait. */
static void test_explicit_threads_keep_waiters_out(void **state)
{
	struct fixture *f = *state;

	start_counters(f);
	wait_counters(f);
	assert_int_equal(sim_sched_assisted_turns(&f->dev->sched), 0);
}

static void test_chip_reset_by_key(void **state)
{
	struct fixture *f = *state;
	const uint32_t spin[] = { RV_ADDI(5, 5, 1), RV_JAL0(-4) };
	struct xy arc = { f->dev->arc->x, f->dev->arc->y };
	uint32_t gen = f->dev->img->id->reset_gen;

	start(f, f->core, TT_HART_BRISC, spin, sizeof(spin) / 4);
	assert_true(wait_state(f, f->core, 0, TT_HART_RUNNING));
	wr32(f, arc, TT_REG_ARC_RESET_ADDR + TT_ARC_CHIP_RESET, 0x1234);
	usleep(20000);
	assert_int_equal(f->dev->img->id->reset_gen, gen);
	wr32(f, arc, TT_REG_ARC_RESET_ADDR + TT_ARC_CHIP_RESET,
	     TT_ARC_CHIP_RESET_KEY);
	/* The reset unit counts the reset once the chip is back. */
	assert_true(wait_word(f, arc, TT_REG_ARC_RESET_ADDR + TT_ARC_RESET_COUNT, 1));
	assert_int_equal(hart_reg(f, f->core, 0, TT_HART_STATE), TT_HART_IN_RESET);
	assert_int_equal(f->dev->img->id->reset_gen, gen + 1);
	assert_int_equal(rd32(f, f->core, TT_REG_TILE_CTRL_ADDR + TT_TILE_SOFT_RESET),
			 TT_TILE_SOFT_RESET_ALL);
	assert_int_equal(rd32(f, arc, TT_REG_ARC_RESET_ADDR + TT_ARC_RESET_CAUSE),
			 TT_ARC_RESET_FIRMWARE);
	/* The key does not stay armed. */
	assert_int_equal(rd32(f, arc, TT_REG_ARC_RESET_ADDR + TT_ARC_CHIP_RESET), 0);
}

/* Run a on BRISC and b on NCRISC: both must halt on a store fault. */
static void expect_store_faults(struct fixture *f, const uint32_t *a,
				unsigned na, const uint32_t *b, unsigned nb)
{
	start(f, f->core, TT_HART_BRISC, a, na);
	start(f, f->core, TT_HART_NCRISC, b, nb);
	for (unsigned h = 0; h < 2; h++) {
		assert_true(wait_state(f, f->core, h, TT_HART_HALTED));
		assert_int_equal(hart_reg(f, f->core, h, TT_HART_FAULT_CAUSE),
				 TT_HART_FAULT_STORE_ACCESS);
	}
}

static void test_bad_register_access_faults(void **state)
{
	struct fixture *f = *state;
	/* A byte store to a register, then (second hart) a write to a
	 * read-only one. */
	const uint32_t byte_store[] = {
		RV_LI(5, NODE_REGS), rv_s(0, 5, 5, NODE(TT_HART_WAKE)), RV_EBREAK,
	};
	const uint32_t ro_store[] = {
		RV_LI(5, NODE_REGS), RV_SW(5, 5, NODE(TT_HART_COUNT)), RV_EBREAK,
	};

	expect_store_faults(f, byte_store, sizeof(byte_store) / 4, ro_store,
			    sizeof(ro_store) / 4);
	assert_int_equal(rd32(f, f->core, TT_REG_HART_ADDR + TT_HART_COUNT), 3);
}

/* A hart's own command-buffer registers take a short path in the model:
 * the same rules still hold. Words below ISSUE store and read back, a
 * read-only word and a byte store fault. */
static void test_own_command_buffer_registers(void **state)
{
	struct fixture *f = *state;
#define CMD1(reg) ((uint32_t)TT_REG_NIU0_ADDR + TT_NIU_CMD(1, reg))
	const uint32_t targ = CMD1(TT_NIU_CMD_TARG_LO);
	const uint32_t status = CMD1(TT_NIU_CMD_STATUS);
	const uint32_t words[] = {
		RV_LI(5, CMD1(TT_NIU_CMD_TARG_LO)), RV_LI(6, 0x1234), RV_SW(6, 5, 0),
		RV_LW(7, 5, 0), RV_LI(8, DATA), RV_SW(7, 8, 0),
		RV_SW(6, 5, TT_NIU_CMD_STATUS - TT_NIU_CMD_TARG_LO), RV_EBREAK,
	};
	const uint32_t byte[] = { RV_LI(5, CMD1(TT_NIU_CMD_TARG_LO)),
				  rv_s(0, 5, 5, 4), RV_EBREAK };
#undef CMD1

	wr32(f, f->core, DATA, 0);
	expect_store_faults(f, words, sizeof(words) / 4, byte,
			    sizeof(byte) / 4);
	assert_int_equal(hart_reg(f, f->core, 0, TT_HART_FAULT_ADDR), status);
	assert_int_equal(hart_reg(f, f->core, 1, TT_HART_FAULT_ADDR), targ + 4);
	assert_int_equal(rd32(f, f->core, targ), 0x1234);
	assert_int_equal(rd32(f, f->core, DATA), 0x1234);
	assert_int_equal(rd32(f, f->core, status), 0);
}

/*
 * One worker thread: two harts doing unsynchronised read-modify-writes on
 * one word lose updates only where their turns switch, and those points
 * depend on instruction counts alone, so every run ends with the same sum.
 */
static uint32_t racy_sum(struct fixture *f)
{
	const uint32_t prog[] = {
		RV_LI(5, DATA), RV_LI(7, 300000), RV_LW(6, 5, 0),
		RV_ADDI(6, 6, 1), RV_SW(6, 5, 0), RV_ADDI(7, 7, -1),
		RV_BNE(7, 0, -16), RV_EBREAK,
	};

	set_lines(f, f->core, TT_TILE_SOFT_RESET_ALL);
	for (unsigned h = 0; h < 2; h++) {
		assert_true(wait_state(f, f->core, h, TT_HART_IN_RESET));
		load(f, f->core, PROG + h * 0x1000, prog, sizeof(prog) / 4);
		wr32(f, f->core, TT_REG_HART_ADDR + TT_HART_REG(h, TT_HART_RESET_PC),
		     PROG + h * 0x1000);
	}
	wr32(f, f->core, DATA, 0);
	/* Both out of reset in one write: one event starts them in order. */
	set_lines(f, f->core, TT_TILE_SOFT_RESET_TRISC);
	for (unsigned h = 0; h < 2; h++)
		assert_true(wait_state(f, f->core, h, TT_HART_HALTED));
	return rd32(f, f->core, DATA);
}

static void test_one_thread_is_deterministic(void **state)
{
	struct fixture *f = *state;
	uint32_t first = racy_sum(f);

	assert_true(first >= 300000 && first <= 600000);
	for (int i = 0; i < 3; i++)
		assert_int_equal(racy_sum(f), first);
}

static int setup_one_thread(void **state)
{
	int ret;

	setenv("TT_SIM_THREADS", "1", 1);
	ret = setup(state);
	unsetenv("TT_SIM_THREADS");
	return ret;
}

/* TT_SIM_THREADS is a count in 1..64 or unset: anything else fails the
 * chip's creation with an error naming the variable, its value and the
 * range, instead of quietly running one thread per CPU. */
static void test_bad_thread_counts_refused(void **state)
{
	static const char *const bad[] = { "0", "65", "abc", "4x", "-1",
					   " 2", "+2", "2 ",
					   "99999999999999999999" };
	struct fixture f = { 0 };
	char err[SIM_ERR_LEN], want[80];

	(void)state;
	setenv("TT_FIRMWARE", "/dev/null", 1);
	assert_int_equal(soc_desc_builtin("wormhole_b0_n150", &f.soc, err,
					  sizeof(err)),
			 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("TT_SIM_THREADS", bad[i], 1);
		err[0] = 0;
		f.dev = NULL;
		assert_int_equal(sim_device_create(&f.soc, TT_HW_BOARD_N150, 0,
						   0, &f.dev, err),
				 -EINVAL);
		assert_null(f.dev);
		snprintf(want, sizeof(want),
			 "TT_SIM_THREADS='%s' is not a whole number in 1..64",
			 bad[i]);
		assert_string_equal(err, want);
	}
	setenv("TT_SIM_THREADS", "64", 1);
	assert_int_equal(sim_device_create(&f.soc, TT_HW_BOARD_N150, 0, 0,
					   &f.dev, err),
			 0);
	sim_device_destroy(f.dev);
	unsetenv("TT_SIM_THREADS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_power_on_state, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_then_ebreak, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_record_and_model_survives,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_waiting_costs_nothing_and_host_write_wakes, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_sibling_store_wakes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_no_lost_wakeups_under_ping_pong, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reset_line_stops_a_running_hart,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_budget_halts_a_runaway, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_wfi_timer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_noc_write_from_a_hart, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_host_irq_from_a_hart, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_waiting_thread_runs_harts,
						setup_host_waits, teardown),
		cmocka_unit_test_setup_teardown(
			test_explicit_threads_keep_waiters_out,
			setup_host_waits_one_thread, teardown),
		cmocka_unit_test_setup_teardown(test_chip_reset_by_key, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_bad_register_access_faults,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_own_command_buffer_registers,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_thread_is_deterministic,
						setup_one_thread, teardown),
		cmocka_unit_test(test_bad_thread_counts_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
