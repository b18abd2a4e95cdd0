// SPDX-License-Identifier: Apache-2.0
#include "fw/noc.h"

#include "hw/tile.h"
#include "fw/hart.h"
#include "fw/mmio.h"
#include "fw/wait.h"

/* Local address of this hart's command buffer on `noc`: hart_self() is a
 * register read, done once per command. */
static uintptr_t cmd_base(unsigned noc)
{
	unsigned buf = hart_self() % TT_NIU_CMD_BUFS;

	return (uintptr_t)TT_REG_NIU_ADDR(noc) + TT_NIU_CMD(buf, 0);
}

/*
 * Sleep until ISSUE reads 0. The NIU's writes of ISSUE wake the hart; as a
 * guard against a wake-up that never comes, the wait also ends every
 * NOC_POLL_US, on this hart's WAKE_AT, which is put back afterwards. The
 * deadline is renewed only once it has passed: a write to the hart page is
 * an event that ends the next wait at once.
 */
#define NOC_POLL_US 1000

static void wait_issue(volatile uint32_t *issue, uint32_t state)
{
	uintptr_t lo = hart_reg(TT_HART_REG(hart_self(), TT_HART_WAKE_AT_LO));
	uintptr_t hi = hart_reg(TT_HART_REG(hart_self(), TT_HART_WAKE_AT_HI));
	uint32_t saved_lo = mmio_read32(lo), saved_hi = mmio_read32(hi);
	uint64_t deadline = 0, now;

	do {
		now = hart_time_us();
		if (now >= deadline) {
			deadline = now + NOC_POLL_US;
			hart_set_wake_at(deadline);
		}
		/* Sleep on whichever value it holds (1 queued, 2 in
		 * flight), so each change wakes us. */
		tt_wait_ne(issue, state);
	} while ((state = *issue) != 0);
	mmio_write32(hi, saved_hi);
	mmio_write32(lo, saved_lo);
}

static void wait_free(uintptr_t base)
{
	volatile uint32_t *issue = mmio_ptr(base + TT_NIU_CMD_ISSUE);
	uint32_t state = *issue;

	/* Usually done already: the model runs a hart's own command as it
	 * writes ISSUE. */
	if (state != 0)
		wait_issue(issue, state);
}

uint32_t noc_wait_at(uintptr_t base)
{
	wait_free(base);
	return mmio_read32(base + TT_NIU_CMD_STATUS);
}

uint32_t noc_wait(unsigned noc)
{
	return noc_wait_at(cmd_base(noc));
}

static void issue_at(uintptr_t base, const struct noc_cmd *c)
{
	uint32_t coord;

	wait_free(base);
	coord = TT_FIELD_PREP(TT_NIU_COORD_X_MASK, c->x) |
		TT_FIELD_PREP(TT_NIU_COORD_Y_MASK, c->y) |
		TT_FIELD_PREP(TT_NIU_COORD_X_START_MASK, c->x_start) |
		TT_FIELD_PREP(TT_NIU_COORD_Y_START_MASK, c->y_start);
	mmio_write32(base + TT_NIU_CMD_TARG_LO, (uint32_t)c->remote);
	mmio_write32(base + TT_NIU_CMD_TARG_HI, (uint32_t)(c->remote >> 32));
	mmio_write32(base + TT_NIU_CMD_TARG_COORD, coord);
	mmio_write32(base + TT_NIU_CMD_RET_LO, c->local);
	mmio_write32(base + TT_NIU_CMD_RET_HI, 0);
	mmio_write32(base + TT_NIU_CMD_LEN, c->len);
	mmio_write32(base + TT_NIU_CMD_CTRL, c->ctrl);
	mmio_write32(base + TT_NIU_CMD_INCR, c->incr);
	/* The data to send must be in memory before the engine reads it. */
	mmio_barrier();
	mmio_write32(base + TT_NIU_CMD_ISSUE, 1);
}

void noc_issue(const struct noc_cmd *c)
{
	issue_at(cmd_base(c->noc), c);
}

uint32_t noc_run(const struct noc_cmd *c)
{
	uintptr_t base = cmd_base(c->noc);
	uint32_t status;

	issue_at(base, c);
	status = noc_wait_at(base);
	/* Data a READ brought in is read only after completion was seen. */
	mmio_barrier();
	return status;
}

uint32_t noc_read(unsigned noc, uint32_t x, uint32_t y, uint64_t addr,
		  uint32_t local, uint32_t len)
{
	struct noc_cmd c = { .noc = noc, .x = x, .y = y, .remote = addr,
			     .local = local, .len = len,
			     .ctrl = TT_NIU_OP_READ };

	return noc_run(&c);
}

uint32_t noc_write(unsigned noc, uint32_t x, uint32_t y, uint64_t addr,
		   uint32_t local, uint32_t len)
{
	struct noc_cmd c = { .noc = noc, .x = x, .y = y, .remote = addr,
			     .local = local, .len = len,
			     .ctrl = TT_NIU_OP_WRITE };

	return noc_run(&c);
}

uint32_t noc_mcast_write(unsigned noc, uint32_t x0, uint32_t y0, uint32_t x1,
			 uint32_t y1, uint64_t addr, uint32_t local,
			 uint32_t len)
{
	struct noc_cmd c = { .noc = noc, .x_start = x0, .y_start = y0,
			     .x = x1, .y = y1, .remote = addr, .local = local,
			     .len = len,
			     .ctrl = TT_NIU_OP_WRITE | TT_NIU_CTRL_MCAST };

	return noc_run(&c);
}

uint32_t noc_write32(unsigned noc, uint32_t x, uint32_t y, uint64_t addr,
		     uint32_t val)
{
	volatile uint32_t word = val;

	return noc_write(noc, x, y, addr, (uint32_t)(uintptr_t)&word, 4);
}

uint32_t noc_mcast_write32(unsigned noc, uint32_t x0, uint32_t y0,
			   uint32_t x1, uint32_t y1, uint64_t addr,
			   uint32_t val)
{
	volatile uint32_t word = val;

	return noc_mcast_write(noc, x0, y0, x1, y1, addr,
			       (uint32_t)(uintptr_t)&word, 4);
}

void noc_post_atomic_inc(unsigned noc, uint32_t x, uint32_t y, uint32_t addr,
			 uint32_t incr, uint32_t wrap)
{
	noc_post_atomic_inc_at(cmd_base(noc), x, y, addr, incr, wrap);
}
