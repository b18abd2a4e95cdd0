// SPDX-License-Identifier: Apache-2.0
#include "dmaeng.h"

#include <errno.h>
#include <string.h>

#include "doorbell.h"
#include "hw/dmaeng.h"

static uint32_t *reg(struct sim_dmaeng *e, unsigned off)
{
	return sim_reg32(e->regs, off);
}

void sim_dmaeng_init(struct sim_dmaeng *e, struct sim_ctx *c,
		     struct tt_node_desc *pcie)
{
	memset(e, 0, sizeof(*e));
	e->ctx = c;
	e->pcie = pcie;
	e->regs =
		sim_image_regs(c->img, pcie, (enum tt_reg_page)TT_DMA_REG_PAGE);
	e->ring = sim_image_regs(c->img, pcie,
				 (enum tt_reg_page)TT_DMA_RING_PAGE);
	/* A fresh engine: whatever the image held, nothing is posted. */
	e->cons = __atomic_load_n(reg(e, TT_DMA_PROD), __ATOMIC_ACQUIRE);
	__atomic_store_n(reg(e, TT_DMA_CONS), e->cons, __ATOMIC_RELEASE);
	__atomic_store_n(reg(e, TT_DMA_ENTRIES), TT_DMA_RING_ENTRIES,
			 __ATOMIC_RELAXED);
	__atomic_store_n(reg(e, TT_DMA_MAX_LEN), TT_DMA_MAX_LENGTH,
			 __ATOMIC_RELAXED);
	/* Last: the host takes the ID as the sign that the engine works. */
	__atomic_store_n(reg(e, TT_DMA_ID), TT_DMA_ID_MAGIC, __ATOMIC_RELEASE);
}

static uint32_t slot32(const uint8_t *slot, unsigned off)
{
	return __atomic_load_n((const uint32_t *)(const void *)(slot + off),
			       __ATOMIC_RELAXED);
}

/* A copy of slot i: the host may scribble on it meanwhile, so every field
 * is read once and only the copy is used. */
static struct tt_dma_hw_desc read_desc(struct sim_dmaeng *e, uint32_t i)
{
	const uint8_t *s = e->ring + TT_DMA_SLOT_OFF(i);
	struct tt_dma_hw_desc d = {
		.host = slot32(s, TT_DMA_DESC_HOST) |
			(uint64_t)slot32(s, TT_DMA_DESC_HOST + 4) << 32,
		.local = slot32(s, TT_DMA_DESC_LOCAL) |
			 (uint64_t)slot32(s, TT_DMA_DESC_LOCAL + 4) << 32,
		.len = slot32(s, TT_DMA_DESC_LEN),
		.ctrl = slot32(s, TT_DMA_DESC_CTRL),
	};

	return d;
}

static void count_bytes(struct sim_dmaeng *e, uint32_t n)
{
	uint32_t lo = __atomic_fetch_add(reg(e, TT_DMA_BYTES_LO), n,
					 __ATOMIC_RELAXED);

	if ((uint64_t)lo + n > UINT32_MAX)
		__atomic_fetch_add(reg(e, TT_DMA_BYTES_HI), 1,
				   __ATOMIC_RELAXED);
}

/* Check and perform one descriptor; TT_DEV_ERR_NONE or the recorded error. */
static enum tt_dev_err run_desc(struct sim_dmaeng *e,
				const struct tt_dma_hw_desc *d)
{
	struct sim_ctx *c = e->ctx;
	unsigned dir = TT_FIELD_GET(TT_DMA_CTRL_DIR_MASK, d->ctrl);
	struct sim_access a = {
		.op = dir == TT_DMA_DIR_FROM_DEVICE ? TT_DEV_OP_READ
						    : TT_DEV_OP_WRITE,
		.noc = d->ctrl & TT_DMA_CTRL_NOC ? 1 : 0,
		.init_x = e->pcie->x,
		.init_y = e->pcie->y,
		.x = TT_FIELD_GET(TT_DMA_CTRL_X_MASK, d->ctrl),
		.y = TT_FIELD_GET(TT_DMA_CTRL_Y_MASK, d->ctrl),
		.addr = d->local,
		.len = d->len,
	};
	enum tt_dev_err err;
	uint8_t *p;

	if (dir != TT_DMA_DIR_TO_DEVICE && dir != TT_DMA_DIR_FROM_DEVICE)
		return sim_errlog_record(c->img, TT_DEV_ERR_BAD_CMD, &a);
	if (!d->len || d->len > TT_DMA_MAX_LENGTH)
		return sim_errlog_record(c->img, TT_DEV_ERR_RANGE, &a);
	if (d->len % TT_DMA_ALIGN || d->local % TT_DMA_ALIGN ||
	    d->host % TT_DMA_ALIGN)
		return sim_errlog_record(c->img, TT_DEV_ERR_ALIGN, &a);
	if (d->local >= 1ull << TT_DMA_LOCAL_BITS ||
	    d->len > (1ull << TT_DMA_LOCAL_BITS) - d->local)
		return sim_errlog_record(c->img, TT_DEV_ERR_RANGE, &a);
	p = c->hostmem ? sim_hostmem_get(c->hostmem, d->host, d->len) : NULL;
	if (!p) {
		a.addr = d->host; /* the bus address that has no memory */
		return sim_errlog_record(c->img, TT_DEV_ERR_HOST_MEM, &a);
	}
	/* One memmove for node memory (access.c); the host memory table stays
	 * read-locked, so the buffer cannot go away under the copy. */
	err = sim_access(c, &a, p);
	sim_hostmem_put(c->hostmem);
	if (!err)
		count_bytes(e, d->len);
	return err;
}

unsigned sim_dmaeng_run(struct sim_dmaeng *e)
{
	unsigned ran = 0;

	for (;;) {
		uint32_t prod =
			__atomic_load_n(reg(e, TT_DMA_PROD), __ATOMIC_ACQUIRE);
		struct tt_dma_hw_desc d;
		enum tt_dev_err err;

		if (prod == e->cons ||
		    __atomic_load_n(reg(e, TT_DMA_HALTED), __ATOMIC_ACQUIRE))
			return ran;
		/* More than a ring ahead is a confused host: refuse the lot
		 * rather than run stale slots again. */
		if (prod - e->cons > TT_DMA_RING_ENTRIES) {
			struct sim_access a = {.op = TT_DEV_OP_WRITE,
					       .init_x = e->pcie->x,
					       .init_y = e->pcie->y,
					       .x = e->pcie->x,
					       .y = e->pcie->y,
					       .addr = TT_DMA_PROD,
					       .len = prod - e->cons};

			sim_errlog_record(e->ctx->img, TT_DEV_ERR_BAD_CMD, &a);
			__atomic_fetch_add(reg(e, TT_DMA_ERRORS), 1,
					   __ATOMIC_RELAXED);
			__atomic_store_n(&e->cons, prod, __ATOMIC_RELEASE);
			__atomic_store_n(reg(e, TT_DMA_CONS), prod,
					 __ATOMIC_SEQ_CST);
			sim_irq_raise(e->ctx->img->regs, TT_IRQ_DMA_DONE);
			continue;
		}
		d = read_desc(e, e->cons);
		err = d.ctrl & TT_DMA_CTRL_SKIP ? TT_DEV_ERR_NONE
						: run_desc(e, &d);
		__atomic_store_n(sim_reg32(e->ring, TT_DMA_SLOT_OFF(e->cons) +
							    TT_DMA_DESC_STATUS),
				 d.ctrl & TT_DMA_CTRL_SKIP
					 ? TT_DMA_STATUS_SKIPPED
					 : (uint32_t)err,
				 __ATOMIC_RELAXED);
		if (err)
			__atomic_fetch_add(reg(e, TT_DMA_ERRORS), 1,
					   __ATOMIC_RELAXED);
		__atomic_store_n(&e->cons, e->cons + 1, __ATOMIC_RELEASE);
		/* Release: the data and STATUS before the new CONS. */
		__atomic_store_n(reg(e, TT_DMA_CONS), e->cons,
				 __ATOMIC_SEQ_CST);
		ran++;
		if (err && (d.ctrl & TT_DMA_CTRL_HALT)) {
			__atomic_store_n(reg(e, TT_DMA_HALTED), 1,
					 __ATOMIC_SEQ_CST);
			sim_irq_raise(e->ctx->img->regs, TT_IRQ_DMA_DONE);
			return ran;
		}
		if (d.ctrl & TT_DMA_CTRL_IRQ)
			sim_irq_raise(e->ctx->img->regs, TT_IRQ_DMA_DONE);
	}
}

static void *dma_main(void *arg)
{
	struct sim_dmaeng *e = arg;

	pthread_mutex_lock(&e->lock);
	while (!e->stop) {
		if (!e->kicked) {
			pthread_cond_wait(&e->cond, &e->lock);
			continue;
		}
		e->kicked = false;
		pthread_mutex_unlock(&e->lock);
		sim_dmaeng_run(e);
		pthread_mutex_lock(&e->lock);
	}
	pthread_mutex_unlock(&e->lock);
	return NULL;
}

int sim_dmaeng_start(struct sim_dmaeng *e, struct sim_ctx *c,
		     struct tt_node_desc *pcie)
{
	int ret;

	sim_dmaeng_init(e, c, pcie);
	pthread_mutex_init(&e->lock, NULL);
	pthread_cond_init(&e->cond, NULL);
	ret = -pthread_create(&e->thread, NULL, dma_main, e);
	if (ret) {
		__atomic_store_n(reg(e, TT_DMA_ID), 0, __ATOMIC_RELEASE);
		pthread_cond_destroy(&e->cond);
		pthread_mutex_destroy(&e->lock);
		return ret;
	}
	e->started = true;
	return 0;
}

void sim_dmaeng_kick(struct sim_dmaeng *e)
{
	if (!e->started ||
	    __atomic_load_n(reg(e, TT_DMA_PROD), __ATOMIC_ACQUIRE) ==
		    __atomic_load_n(&e->cons, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&e->lock);
	e->kicked = true;
	pthread_cond_signal(&e->cond);
	pthread_mutex_unlock(&e->lock);
}

void sim_dmaeng_stop(struct sim_dmaeng *e)
{
	if (!e->started)
		return;
	pthread_mutex_lock(&e->lock);
	e->stop = true;
	pthread_cond_signal(&e->cond);
	pthread_mutex_unlock(&e->lock);
	pthread_join(e->thread, NULL);
	pthread_cond_destroy(&e->cond);
	pthread_mutex_destroy(&e->lock);
	e->started = false;
	/* The host must not post to an engine that is gone. */
	__atomic_store_n(reg(e, TT_DMA_ID), 0, __ATOMIC_RELEASE);
}
