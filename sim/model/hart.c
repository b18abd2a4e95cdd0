// SPDX-License-Identifier: Apache-2.0
/*
 * What a hart sees outside its fast memory: its node's register pages
 * (through the same checked accesses the NOC uses, so the map is the same
 * for every initiator), a few registers computed for the reader, and, on
 * the ARC node, the flash.
 */
#include <string.h>

#include "access.h"
#include "addr.h"
#include "chip.h"
#include "device.h"
#include "doorbell.h"
#include "event.h"
#include "niu.h"
#include "scheduler.h"

static struct sim_hart *hart_of(struct rv32_hart *cpu)
{
	return cpu->user;
}

static struct sim_access own_node(struct sim_hart *h, enum tt_dev_op op,
				  uint32_t addr, unsigned size)
{
	struct sim_access a = {
		.op = op, .noc = 0, .x = h->node->x, .y = h->node->y,
		.init_x = h->node->x, .init_y = h->node->y,
		.addr = addr, .len = size,
	};

	return a;
}

static bool in_flash(struct sim_hart *h, uint32_t addr, unsigned size)
{
	return h->node->type == TT_NODE_ARC && addr >= TT_ARC_FLASH_BASE &&
	       addr - TT_ARC_FLASH_BASE <= TT_ARC_FLASH_SIZE - size;
}

/* Registers whose value depends on who reads, or when. */
static bool computed_load(struct sim_hart *h, uint32_t addr, uint32_t *val)
{
	uint64_t t;

	switch (addr) {
	case TT_REG_HART_ADDR + TT_HART_TIME_LO:
	case TT_REG_HART_ADDR + TT_HART_TIME_HI:
		t = sim_device_time_us(h->dev);
		*val = addr == TT_REG_HART_ADDR + TT_HART_TIME_LO ?
			       (uint32_t)t :
			       (uint32_t)(t >> 32);
		return true;
	case TT_REG_HART_ADDR + TT_HART_SELF:
		*val = h->index;
		return true;
	default:
		return false;
	}
}

/*
 * A word of the hart's own NIU pages that is plain storage for this
 * access, or NULL: every aligned word for a load, the command-buffer
 * words up to ISSUE for a store (*noc says which NIU). These are all of
 * a NOC command's accesses, so they skip the general path; what they do
 * is what sim_access would do (addr.c, access.c), and a store to ISSUE
 * then starts the command as there (hart_store).
 */
static uint32_t *own_niu_word(struct sim_hart *h, uint32_t addr,
			      unsigned size, bool write, unsigned *noc)
{
	uint32_t page = addr & ~(TT_REG_PAGE_SIZE - 1), off = addr - page;

	if (page == TT_REG_NIU0_ADDR)
		*noc = 0;
	else if (page == TT_REG_NIU1_ADDR)
		*noc = 1;
	else
		return NULL;
	if (!h->niu[*noc] || size != 4 || off % 4)
		return NULL;
	if (write && (off >= TT_NIU_CMD_BUFS * TT_NIU_CMD_STRIDE ||
		      off % TT_NIU_CMD_STRIDE > TT_NIU_CMD_ISSUE))
		return NULL;
	return sim_reg32(h->niu[*noc], off);
}


static enum rv32_cb hart_load(struct rv32_hart *cpu, uint32_t addr,
			      unsigned size, uint32_t *val)
{
	struct sim_hart *h = hart_of(cpu);
	unsigned noc;
	uint32_t v = 0, *word = own_niu_word(h, addr, size, false, &noc);
	struct sim_access a;

	if (word) {
		*val = __atomic_load_n(word, __ATOMIC_ACQUIRE);
		return RV32_CB_OK;
	}
	a = own_node(h, TT_DEV_OP_READ, addr, size);

	if (in_flash(h, addr, size)) {
		memcpy(&v, h->dev->flash + (addr - TT_ARC_FLASH_BASE), size);
		*val = v;
		return RV32_CB_OK;
	}
	if (size == 4 && computed_load(h, addr, val))
		return RV32_CB_OK;
	if (h->node->type == TT_NODE_ARC &&
	    (addr & ~(TT_REG_PAGE_SIZE - 1)) == TT_REG_ARC_SENSORS_ADDR)
		sim_chip_refresh_sensors(h->dev);
	if (sim_access(&h->dev->ctx, &a, &v))
		return RV32_CB_FAULT;
	*val = v;
	return RV32_CB_OK;
}

/* Pages whose changes the model must act on (reset lines, chip reset,
 * watchdog). */
static bool is_control(uint32_t addr)
{
	uint32_t page = addr & ~(TT_REG_PAGE_SIZE - 1);

	return page == TT_REG_TILE_CTRL_ADDR || page == TT_REG_ARC_RESET_ADDR;
}

static enum rv32_cb hart_store(struct rv32_hart *cpu, uint32_t addr,
			       unsigned size, uint32_t val)
{
	struct sim_hart *h = hart_of(cpu);
	unsigned noc;
	uint32_t *word = own_niu_word(h, addr, size, true, &noc);
	struct sim_access a;

	if (word) {
		__atomic_store_n(word, val, __ATOMIC_RELEASE);
		/* A hart's own NOC commands run at once, in its thread: no
		 * round trip through the engine, and the same order every
		 * run. */
		if (addr % TT_NIU_CMD_STRIDE == TT_NIU_CMD_ISSUE)
			sim_niu_service_buf(&h->dev->ctx, h->node, noc,
					    (addr % TT_REG_PAGE_SIZE) /
						    TT_NIU_CMD_STRIDE);
		return RV32_CB_OK;
	}
	a = own_node(h, TT_DEV_OP_WRITE, addr, size);
	a.from_hart = true;
	if (sim_access(&h->dev->ctx, &a, &val))
		return RV32_CB_FAULT;
	if (addr == TT_REG_HART_ADDR + TT_HART_HOST_IRQ)
		sim_irq_raise(h->dev->img->regs, TT_IRQ_HART);
	else if (addr == TT_REG_HART_ADDR + TT_HART_WAKE)
		sim_event_after_write(h->dev->img, h->node, true);
	else if (is_control(addr))
		sim_control_ring(h->dev->img->regs, h->node_index);
	return RV32_CB_OK;
}

static enum rv32_cb hart_watched_store(struct rv32_hart *cpu, uint32_t addr,
				       unsigned size)
{
	(void)size;
	sim_sched_watched_store(hart_of(cpu), addr);
	return RV32_CB_OK;
}

static void hart_stores_settled(struct rv32_hart *cpu)
{
	sim_sched_stores_settled(hart_of(cpu));
}

const struct rv32_ops sim_hart_ops = {
	.load = hart_load,
	.store = hart_store,
	.watched_store = hart_watched_store,
	.stores_settled = hart_stores_settled,
};
