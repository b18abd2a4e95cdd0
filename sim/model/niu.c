// SPDX-License-Identifier: Apache-2.0
#include "niu.h"

#include "doorbell.h"
#include "event.h"

/* A command, copied out of its (shared, concurrently writable) buffer. */
struct niu_cmd {
	uint64_t targ, ret;
	uint32_t coord, len, ctrl, incr;
};

static uint32_t rd(uint8_t *page, unsigned off)
{
	return __atomic_load_n(sim_reg32(page, off), __ATOMIC_ACQUIRE);
}

static void wr(uint8_t *page, unsigned off, uint32_t v)
{
	__atomic_store_n(sim_reg32(page, off), v, __ATOMIC_RELEASE);
}

static void count(uint8_t *page, unsigned off, uint32_t n)
{
	__atomic_fetch_add(sim_reg32(page, off), n, __ATOMIC_ACQ_REL);
}

static void count_bytes(uint8_t *page, uint64_t n)
{
	uint32_t lo = __atomic_fetch_add(sim_reg32(page, TT_NIU_BYTES_LO),
					 (uint32_t)n, __ATOMIC_ACQ_REL);

	if ((uint64_t)lo + (uint32_t)n > UINT32_MAX)
		count(page, TT_NIU_BYTES_HI, 1);
	count(page, TT_NIU_BYTES_HI, (uint32_t)(n >> 32));
}

static struct niu_cmd read_cmd(uint8_t *page, unsigned b)
{
	struct niu_cmd cmd;

	cmd.targ = rd(page, TT_NIU_CMD(b, TT_NIU_CMD_TARG_LO)) |
		   (uint64_t)(rd(page, TT_NIU_CMD(b, TT_NIU_CMD_TARG_HI)) & 0xF)
			   << 32;
	cmd.ret = rd(page, TT_NIU_CMD(b, TT_NIU_CMD_RET_LO)) |
		  (uint64_t)(rd(page, TT_NIU_CMD(b, TT_NIU_CMD_RET_HI)) & 0xF)
			  << 32;
	cmd.coord = rd(page, TT_NIU_CMD(b, TT_NIU_CMD_TARG_COORD));
	cmd.len = rd(page, TT_NIU_CMD(b, TT_NIU_CMD_LEN));
	cmd.ctrl = rd(page, TT_NIU_CMD(b, TT_NIU_CMD_CTRL));
	cmd.incr = rd(page, TT_NIU_CMD(b, TT_NIU_CMD_INCR));
	return cmd;
}

/* The issuing node's own memory at [ret, + len), as a pointer. */
static enum tt_dev_err local_mem(struct sim_ctx *c, struct tt_node_desc *n,
				 unsigned noc, uint64_t ret, uint64_t len,
				 void **p)
{
	struct sim_access a = { .op = TT_DEV_OP_READ, .noc = 0, .x = n->x,
				.y = n->y, .addr = ret, .len = len,
				.init_x = n->x, .init_y = n->y };
	enum tt_dev_err e = TT_DEV_ERR_UNMAPPED;

	if (ret >= n->mem_base && ret - n->mem_base < n->mem_size &&
	    len <= n->mem_size - (ret - n->mem_base)) {
		*p = c->img->base + n->mem_off + (ret - n->mem_base);
		return TT_DEV_ERR_NONE;
	}
	if (ret >= n->mem_base && ret - n->mem_base < n->mem_size)
		e = TT_DEV_ERR_RANGE;
	a.noc = noc;
	return sim_errlog_record(c->img, e, &a);
}

static enum tt_dev_err run_cmd(struct sim_ctx *c, struct tt_node_desc *n,
			       unsigned noc, const struct niu_cmd *cmd,
			       uint8_t *page)
{
	unsigned op = TT_FIELD_GET(TT_NIU_CTRL_OP_MASK, cmd->ctrl);
	struct sim_access a = {
		.noc = noc, .init_x = n->x, .init_y = n->y,
		.x = TT_FIELD_GET(TT_NIU_COORD_X_MASK, cmd->coord),
		.y = TT_FIELD_GET(TT_NIU_COORD_Y_MASK, cmd->coord),
		.addr = cmd->targ, .len = cmd->len,
	};
	enum tt_dev_err e;
	uint32_t old;
	void *buf;

	switch (op) {
	case TT_NIU_OP_READ:
	case TT_NIU_OP_WRITE:
		a.op = op == TT_NIU_OP_READ ? TT_DEV_OP_READ : TT_DEV_OP_WRITE;
		e = local_mem(c, n, noc, cmd->ret, cmd->len, &buf);
		if (e)
			return e;
		if (op == TT_NIU_OP_WRITE && (cmd->ctrl & TT_NIU_CTRL_MCAST))
			e = sim_multicast(
				c, &a,
				TT_FIELD_GET(TT_NIU_COORD_X_START_MASK, cmd->coord),
				TT_FIELD_GET(TT_NIU_COORD_Y_START_MASK, cmd->coord),
				a.x, a.y, buf);
		else
			e = sim_access(c, &a, buf);
		if (!e) {
			count(page, op == TT_NIU_OP_READ ? TT_NIU_READS_DONE :
							   TT_NIU_WRITES_DONE, 1);
			count_bytes(page, cmd->len);
		}
		return e;
	case TT_NIU_OP_ATOMIC_INC:
		a.op = TT_DEV_OP_ATOMIC;
		a.len = 4;
		e = sim_atomic_inc(c, &a, cmd->incr,
				   TT_FIELD_GET(TT_NIU_CTRL_WRAP_MASK, cmd->ctrl),
				   &old);
		if (!e && (cmd->ctrl & TT_NIU_CTRL_RETURN)) {
			e = local_mem(c, n, noc, cmd->ret, 4, &buf);
			if (!e)
				__atomic_store_n((uint32_t *)buf, old,
						 __ATOMIC_RELEASE);
		}
		if (!e)
			count(page, TT_NIU_ATOMICS_DONE, 1);
		return e;
	default:
		a.op = TT_DEV_OP_WRITE;
		return sim_errlog_record(c->img, TT_DEV_ERR_BAD_CMD, &a);
	}
}

/* Run buffer b's command if it is issued and nobody claimed it yet. */
static void service(struct sim_ctx *c, struct tt_node_desc *n, unsigned noc,
		    uint8_t *page, unsigned b)
{
	uint32_t pending = 1;
	struct niu_cmd cmd;
	enum tt_dev_err e;

	/* Claim the command: the engine and the node's own harts may both
	 * look at one buffer, and only one may run it. */
	if (!__atomic_compare_exchange_n(
		    sim_reg32(page, TT_NIU_CMD(b, TT_NIU_CMD_ISSUE)), &pending,
		    2, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	cmd = read_cmd(page, b);
	e = run_cmd(c, n, noc, &cmd, page);
	if (e)
		count(page, TT_NIU_ERRORS, 1);
	wr(page, TT_NIU_CMD(b, TT_NIU_CMD_STATUS), e);
	wr(page, TT_NIU_CMD(b, TT_NIU_CMD_ISSUE), 0);
	/* A hart of this node may wait for the command to end, or for the
	 * data a read brought into its memory. */
	sim_event_after_write(c->img, n, false);
	if (cmd.ctrl & TT_NIU_CTRL_IRQ)
		sim_irq_raise(c->img->regs, TT_IRQ_NOC_DONE);
}

static uint8_t *niu_page(struct sim_ctx *c, struct tt_node_desc *n,
			 unsigned noc)
{
	if (n->type == TT_NODE_NONE || (n->flags & TT_NODE_F_HARVESTED))
		return NULL;
	return sim_image_regs(c->img, n, noc ? TT_REG_NIU1 : TT_REG_NIU0);
}

void sim_niu_service(struct sim_ctx *c, struct tt_node_desc *n, unsigned noc)
{
	uint8_t *page = niu_page(c, n, noc);

	for (unsigned b = 0; page && b < TT_NIU_CMD_BUFS; b++)
		service(c, n, noc, page, b);
}

void sim_niu_service_buf(struct sim_ctx *c, struct tt_node_desc *n,
			 unsigned noc, unsigned b)
{
	uint8_t *page = niu_page(c, n, noc);

	if (page && b < TT_NIU_CMD_BUFS)
		service(c, n, noc, page, b);
}
