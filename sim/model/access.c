// SPDX-License-Identifier: Apache-2.0
#include "access.h"

#include <string.h>

#include "addr.h"
#include "doorbell.h"
#include "event.h"
#include "tensix.h"

/* Does enabled ATU region r of the page at atu cover [local, + len)? If
 * so, the bus address of local. The registers live in shared memory, so
 * each is read once and used only to compute an address that is then
 * looked up. */
static bool atu_region_hit(uint8_t *atu, unsigned r, uint64_t local,
			   uint64_t len, uint64_t *bus)
{
	volatile uint32_t *reg =
		sim_reg32(atu, TT_PCIE_ATU(r, TT_PCIE_ATU_CTRL));
	uint64_t base, limit, target;

	if (!(reg[0] & TT_PCIE_ATU_CTRL_ENABLE))
		return false;
	base = reg[1] | (uint64_t)reg[2] << 32;
	limit = reg[3] | (uint64_t)reg[4] << 32;
	target = reg[5] | (uint64_t)reg[6] << 32;
	if (local < base || local > limit || len - 1 > limit - local)
		return false;
	*bus = target + (local - base);
	return true;
}

/*
 * Bus address behind host-window address `local` of PCIe node n, through
 * its ATU (hw/pcie.h). Regions 1..15 first, in order, then region 0: the
 * model's host maps the whole window with region 0 for its own clients, and
 * a driver's region must win over it where they overlap.
 */
static enum tt_dev_err atu_translate(struct sim_image *img,
				     struct tt_node_desc *n, uint64_t local,
				     uint64_t len, uint64_t *bus)
{
	uint8_t *atu = sim_image_regs(img, n, TT_REG_PCIE_ATU);

	for (unsigned r = 1; r < TT_PCIE_ATU_REGIONS; r++)
		if (atu_region_hit(atu, r, local, len, bus))
			return TT_DEV_ERR_NONE;
	return atu_region_hit(atu, 0, local, len, bus) ? TT_DEV_ERR_NONE :
							 TT_DEV_ERR_ATU_MISS;
}

static enum tt_dev_err host_access(struct sim_ctx *c,
				   const struct sim_target *t,
				   const struct sim_access *a, void *buf)
{
	enum tt_dev_err e;
	uint64_t bus;
	uint8_t *p;

	e = atu_translate(c->img, t->node, t->host_addr, a->len, &bus);
	if (e)
		return e;
	if (!c->hostmem)
		return TT_DEV_ERR_HOST_MEM;
	p = sim_hostmem_get(c->hostmem, bus, a->len);
	if (!p)
		return TT_DEV_ERR_HOST_MEM;
	if (a->op == TT_DEV_OP_READ)
		memmove(buf, p, a->len);
	else
		memmove(p, buf, a->len);
	sim_hostmem_put(c->hostmem);
	return TT_DEV_ERR_NONE;
}

/* Store one register word; pages whose writes do more than store. */
static enum tt_dev_err reg_write(struct sim_ctx *c, const struct sim_target *t,
				 unsigned off, uint32_t *reg, uint32_t v)
{
	switch (t->page) {
	case TT_REG_TENSIX:
		return sim_tensix_write(c->img, t->node, off, v);
	case TT_REG_CB:
		sim_cb_write(sim_image_regs(c->img, t->node, TT_REG_CB), off,
			     v);
		return TT_DEV_ERR_NONE;
	default:
		__atomic_store_n(reg, v, __ATOMIC_RELEASE);
		if (t->page == TT_REG_TILE_CTRL && off == TT_TILE_SOFT_RESET)
			__atomic_fetch_or(reg + 1, v, __ATOMIC_ACQ_REL);
		return TT_DEV_ERR_NONE;
	}
}

/* After a register write: who must hear of it. A node's own harts signal
 * what they need themselves, except on the CB counters, which siblings
 * wait on (a coprocessor command signals what it wrote to L1 itself). */
static void reg_written(struct sim_ctx *c, const struct sim_target *t,
			const struct sim_access *a)
{
	if (a->from_hart) {
		if (t->page == TT_REG_CB)
			sim_event_after_write(c->img, t->node, false);
		return;
	}
	if (t->page == TT_REG_NIU0 || t->page == TT_REG_NIU1)
		sim_doorbell_ring(c->img->regs,
				  TT_DOORBELL_NIU(sim_image_node_index(c->img,
								       t->node),
						  t->page - TT_REG_NIU0));
	sim_event_after_write(c->img, t->node, sim_event_page_always(t->page));
}

static enum tt_dev_err reg_access(struct sim_ctx *c, const struct sim_target *t,
				  const struct sim_access *a, void *buf)
{
	bool write = a->op != TT_DEV_OP_READ;
	uint32_t *reg = (uint32_t *)(void *)t->ptr;
	uint32_t *val = buf;
	enum tt_dev_err e;

	e = sim_reg_check(t->page, t->page_off, a->len, write);
	if (e)
		return e;
	/* Word by word, so every register is read or written whole. */
	for (uint64_t i = 0; i < a->len / 4 && !e; i++) {
		uint32_t v;

		if (write) {
			memcpy(&v, &val[i], 4);
			e = reg_write(c, t, t->page_off + 4 * (unsigned)i,
				      &reg[i], v);
		} else {
			v = __atomic_load_n(&reg[i], __ATOMIC_ACQUIRE);
			memcpy(&val[i], &v, 4);
		}
	}
	if (write)
		reg_written(c, t, a);
	return e;
}

static enum tt_dev_err access_one(struct sim_ctx *c, const struct sim_access *a,
				  void *buf)
{
	struct sim_target t;
	enum tt_dev_err e;

	if (!a->len)
		return TT_DEV_ERR_NONE;
	e = sim_decode(c->img, a->noc, a->x, a->y, a->addr, a->len, &t);
	if (e)
		return e;
	switch (t.kind) {
	case SIM_TARGET_MEM:
		if (a->op == TT_DEV_OP_READ) {
			memmove(buf, t.ptr, a->len);
		} else {
			memmove(t.ptr, buf, a->len);
			if (!a->from_hart)
				sim_event_after_write(c->img, t.node, false);
		}
		return TT_DEV_ERR_NONE;
	case SIM_TARGET_REG:
		return reg_access(c, &t, a, buf);
	case SIM_TARGET_HOST:
		return host_access(c, &t, a, buf);
	}
	return TT_DEV_ERR_UNMAPPED;
}

enum tt_dev_err sim_access(struct sim_ctx *c, const struct sim_access *a,
			   void *buf)
{
	enum tt_dev_err e = access_one(c, a, buf);

	return e ? sim_errlog_record(c->img, e, a) : e;
}

static unsigned umin(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

static unsigned umax(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

enum tt_dev_err sim_multicast(struct sim_ctx *c, const struct sim_access *a,
			      unsigned x0, unsigned y0, unsigned x1,
			      unsigned y1, const void *buf)
{
	struct sim_access one = *a;
	unsigned hits = 0;

	if (a->noc >= TT_NOC_COUNT || !sim_noc_to_noc0(c->img, a->noc, &x0, &y0) ||
	    !sim_noc_to_noc0(c->img, a->noc, &x1, &y1))
		return sim_errlog_record(c->img, TT_DEV_ERR_MCAST, a);
	/* Deliver on NOC 0 coordinates: the rectangle is the same set. */
	one.noc = 0;
	one.op = TT_DEV_OP_MCAST;
	for (unsigned y = umin(y0, y1); y <= umax(y0, y1); y++) {
		for (unsigned x = umin(x0, x1); x <= umax(x0, x1); x++) {
			const struct tt_node_desc *n = sim_image_node(c->img, x, y);
			enum tt_dev_err e;

			if (n->type != TT_NODE_TENSIX ||
			    (n->flags & TT_NODE_F_HARVESTED))
				continue;
			one.x = x;
			one.y = y;
			e = sim_access(c, &one, (void *)buf);
			if (e)
				return e;
			hits++;
		}
	}
	return hits ? TT_DEV_ERR_NONE :
		      sim_errlog_record(c->img, TT_DEV_ERR_MCAST, a);
}

enum tt_dev_err sim_atomic_inc(struct sim_ctx *c, const struct sim_access *a,
			       uint32_t incr, unsigned wrap, uint32_t *old)
{
	uint32_t mask = wrap >= 31 ? UINT32_MAX : (2u << wrap) - 1;
	struct sim_target t;
	enum tt_dev_err e;
	uint32_t *word, cur, next;

	e = sim_decode(c->img, a->noc, a->x, a->y, a->addr, 4, &t);
	if (!e && (t.kind != SIM_TARGET_MEM ||
		   (t.node->type != TT_NODE_TENSIX && t.node->type != TT_NODE_ETH)))
		e = TT_DEV_ERR_UNMAPPED;
	if (!e && a->addr % 4)
		e = TT_DEV_ERR_ALIGN;
	if (e)
		return sim_errlog_record(c->img, e, a);
	word = (uint32_t *)(void *)t.ptr;
	cur = __atomic_load_n(word, __ATOMIC_RELAXED);
	do {
		next = (cur & ~mask) | ((cur + incr) & mask);
	} while (!__atomic_compare_exchange_n(word, &cur, next, false,
					      __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
	*old = cur;
	sim_event_after_write(c->img, t.node, false);
	return TT_DEV_ERR_NONE;
}
