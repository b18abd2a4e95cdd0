// SPDX-License-Identifier: Apache-2.0
/*
 * The PCIe node's DMA engine (sim/model/dmaeng.c, hw/dmaeng.h) on an in-process
 * n150: descriptors posted in the image's ring, rung through the doorbell,
 * copying between a memfd mapped in the host memory table and node memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "sim/model/device.h"
#include "sim/model/doorbell.h"
#include "hw/dmaeng.h"
#include "common/soc_desc.h"

#define BUF_SIZE (4u << 20)
#define WAIT_MS 5000

struct fixture {
	struct soc_desc soc;
	struct sim_device *dev;
	int memfd;
	uint8_t *host; /* BUF_SIZE bytes, the memfd as this process sees it */
	struct sim_dma_map map;
	struct tt_node_desc *tensix, *dram;
	uint32_t prod;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char err[SIM_ERR_LEN];
	struct sim_image *img;

	if (!f ||
	    soc_desc_builtin("wormhole_b0_n150", &f->soc, err, sizeof(err)) ||
	    sim_device_create(&f->soc, TT_HW_BOARD_N150, 0, 0, &f->dev, err))
		goto fail;
	f->memfd = memfd_create("dmaeng", MFD_ALLOW_SEALING);
	if (f->memfd < 0 || ftruncate(f->memfd, BUF_SIZE) ||
	    fcntl(f->memfd, F_ADD_SEALS, F_SEAL_SHRINK))
		goto fail;
	f->host = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		       f->memfd, 0);
	if (f->host == MAP_FAILED ||
	    sim_device_dma_map(f->dev, f->memfd, BUF_SIZE, 1, &f->map, err))
		goto fail;
	img = f->dev->img;
	for (unsigned i = 0; i < img->grid_x * img->grid_y; i++) {
		struct tt_node_desc *n = &img->nodes[i];

		if (!f->tensix && n->type == TT_NODE_TENSIX &&
		    !(n->flags & TT_NODE_F_HARVESTED))
			f->tensix = n;
		if (!f->dram && n->type == TT_NODE_DRAM && n->mem_size)
			f->dram = n;
	}
	if (!f->tensix || !f->dram)
		goto fail;
	*state = f;
	return 0;
fail:
	free(f);
	return -1;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	sim_device_destroy(f->dev);
	munmap(f->host, BUF_SIZE);
	close(f->memfd);
	free(f);
	return 0;
}

static uint32_t *dreg(struct fixture *f, unsigned off)
{
	return sim_reg32(sim_image_regs(f->dev->img, f->dev->pcie,
					(enum tt_reg_page)TT_DMA_REG_PAGE),
			 off);
}

static struct tt_dma_hw_desc *slot(struct fixture *f, uint32_t i)
{
	return (struct tt_dma_hw_desc
			*)(void *)(sim_image_regs(
					   f->dev->img, f->dev->pcie,
					   (enum tt_reg_page)TT_DMA_RING_PAGE) +
				   TT_DMA_SLOT_OFF(i));
}

static uint32_t ctrl(unsigned dir, unsigned noc, unsigned x, unsigned y,
		     bool irq)
{
	return TT_FIELD_PREP(TT_DMA_CTRL_DIR_MASK, dir) |
	       (noc ? TT_DMA_CTRL_NOC : 0) | (irq ? TT_DMA_CTRL_IRQ : 0) |
	       TT_FIELD_PREP(TT_DMA_CTRL_X_MASK, x) |
	       TT_FIELD_PREP(TT_DMA_CTRL_Y_MASK, y);
}

/* Fill the next slot (not posted until ring()). */
static void add(struct fixture *f, uint64_t host, uint64_t local, uint32_t len,
		uint32_t c)
{
	struct tt_dma_hw_desc *d = slot(f, f->prod);

	d->host = host;
	d->local = local;
	d->len = len;
	d->ctrl = c;
	d->status = 0xDEAD;
	d->tag = f->prod;
	f->prod++;
}

/* Post what add() filled, ring, and wait until the engine caught up. */
static void ring_and_wait(struct fixture *f)
{
	struct tt_host_regs *r = f->dev->img->regs;

	__atomic_store_n(dreg(f, TT_DMA_PROD), f->prod, __ATOMIC_RELEASE);
	sim_doorbell_kick(r);
	for (int ms = 0; ms < WAIT_MS; ms++) {
		uint32_t seen = sim_irq_seq(r);

		if (__atomic_load_n(dreg(f, TT_DMA_CONS), __ATOMIC_ACQUIRE) ==
		    f->prod)
			return;
		sim_irq_wait(r, seen, 1);
	}
	fail_msg("engine stuck: CONS %u, PROD %u", *dreg(f, TT_DMA_CONS),
		 f->prod);
}

static uint64_t bus(struct fixture *f, uint64_t off)
{
	return f->map.bus + off;
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 31 + seed + (i >> 12));
}

static void test_engine_published(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(*dreg(f, TT_DMA_ID), TT_DMA_ID_MAGIC);
	assert_int_equal(*dreg(f, TT_DMA_ENTRIES), TT_DMA_RING_ENTRIES);
	assert_int_equal(TT_DMA_RING_ENTRIES, 512);
	assert_int_equal(*dreg(f, TT_DMA_MAX_LEN), TT_DMA_MAX_LENGTH);
	assert_int_equal(*dreg(f, TT_DMA_CONS), 0);
	assert_true(f->dev->img->id->contract_minor >= 3); /* since 1.3 */
}

static void test_to_and_from_dram_and_l1(void **state)
{
	struct fixture *f = *state;
	struct sim_image *img = f->dev->img;
	uint8_t *dram = img->base + f->dram->mem_off;
	uint8_t *l1 = img->base + f->tensix->mem_off;
	size_t big = 3u << 20; /* 3 MiB in one descriptor */

	fill(f->host, big, 1);
	add(f, bus(f, 0), 0x100000, (uint32_t)big,
	    ctrl(TT_DMA_DIR_TO_DEVICE, 0, f->dram->x, f->dram->y, false));
	/* NOC 1 coordinates of the Tensix node. */
	add(f, bus(f, 8), 0x20004, 4096,
	    ctrl(TT_DMA_DIR_TO_DEVICE, 1, img->grid_x - 1 - f->tensix->x,
		 img->grid_y - 1 - f->tensix->y, false));
	ring_and_wait(f);
	assert_memory_equal(dram + 0x100000, f->host, big);
	assert_memory_equal(l1 + 0x20004, f->host + 8, 4096);
	assert_int_equal(slot(f, 0)->status, 0);
	assert_int_equal(slot(f, 1)->status, 0);

	fill(dram + 0x800000, big, 7);
	memset(f->host, 0, BUF_SIZE);
	add(f, bus(f, 4), 0x800000, (uint32_t)big,
	    ctrl(TT_DMA_DIR_FROM_DEVICE, 0, f->dram->x, f->dram->y, true));
	add(f, bus(f, BUF_SIZE - 64), 0x20004, 64,
	    ctrl(TT_DMA_DIR_FROM_DEVICE, 0, f->tensix->x, f->tensix->y, true));
	ring_and_wait(f);
	assert_memory_equal(f->host + 4, dram + 0x800000, big);
	assert_memory_equal(f->host + BUF_SIZE - 64, l1 + 0x20004, 64);
	assert_int_equal(f->host[0], 0); /* nothing before the range */
	assert_int_equal(*dreg(f, TT_DMA_ERRORS), 0);
	assert_int_equal(*dreg(f, TT_DMA_BYTES_LO),
			 (uint32_t)(2 * big + 4096 + 64));
}

/* The last error record, checked for its code, direction and target. */
static void assert_last_error(struct fixture *f, uint32_t head_before,
			      enum tt_dev_err code, uint64_t addr)
{
	struct tt_host_regs *r = f->dev->img->regs;
	uint32_t head = __atomic_load_n(&r->err_head, __ATOMIC_ACQUIRE);
	struct tt_dev_error *e;

	assert_true(head > head_before);
	e = &r->err[(head - 1) % TT_DEV_ERR_RING];
	assert_int_equal(e->seq, head);
	assert_int_equal(e->code, code);
	assert_int_equal(e->addr, addr);
	assert_int_equal(e->initiator_x, f->dev->pcie->x);
	assert_int_equal(e->initiator_y, f->dev->pcie->y);
}

static void test_bad_descriptors_fail_alone(void **state)
{
	struct fixture *f = *state;
	struct tt_host_regs *r = f->dev->img->regs;
	uint32_t head = r->err_head, t = f->tensix->x, u = f->tensix->y;
	uint8_t *l1 = f->dev->img->base + f->tensix->mem_off;
	struct {
		uint64_t host, local;
		uint32_t len, ctrl;
		enum tt_dev_err want;
		uint64_t addr; /* in the error record */
	} bad[] = {
		/* host address with no memory behind it */
		{0x1000, 0x1000, 64, ctrl(TT_DMA_DIR_TO_DEVICE, 0, t, u, 0),
		 TT_DEV_ERR_HOST_MEM, 0x1000},
		/* runs past the end of the host buffer */
		{bus(f, BUF_SIZE - 4), 0x1000, 8,
		 ctrl(TT_DMA_DIR_FROM_DEVICE, 0, t, u, 0), TT_DEV_ERR_HOST_MEM,
		 bus(f, BUF_SIZE - 4)},
		/* no node at x 63 */
		{bus(f, 0), 0x1000, 64, ctrl(TT_DMA_DIR_TO_DEVICE, 0, 63, 0, 0),
		 TT_DEV_ERR_NO_NODE, 0x1000},
		/* past the end of L1 */
		{bus(f, 0), f->tensix->mem_size - 4, 8,
		 ctrl(TT_DMA_DIR_TO_DEVICE, 0, t, u, 0), TT_DEV_ERR_RANGE,
		 f->tensix->mem_size - 4},
		/* lengths 0 and 2^28 + 4, direction 0 and 3, misaligned */
		{bus(f, 0), 0x1000, 0, ctrl(TT_DMA_DIR_TO_DEVICE, 0, t, u, 0),
		 TT_DEV_ERR_RANGE, 0x1000},
		{bus(f, 0), 0x1000, TT_DMA_MAX_LENGTH + 4,
		 ctrl(TT_DMA_DIR_TO_DEVICE, 0, t, u, 0), TT_DEV_ERR_RANGE,
		 0x1000},
		{bus(f, 0), 0x1000, 64, ctrl(0, 0, t, u, 0), TT_DEV_ERR_BAD_CMD,
		 0x1000},
		{bus(f, 0), 0x1000, 64, ctrl(3, 0, t, u, 0), TT_DEV_ERR_BAD_CMD,
		 0x1000},
		{bus(f, 2), 0x1000, 64, ctrl(TT_DMA_DIR_TO_DEVICE, 0, t, u, 0),
		 TT_DEV_ERR_ALIGN, 0x1000},
		{bus(f, 0), 0x1002, 64, ctrl(TT_DMA_DIR_TO_DEVICE, 0, t, u, 0),
		 TT_DEV_ERR_ALIGN, 0x1002},
		/* local address at 2^36 - 4 with 8 bytes */
		{bus(f, 0), (1ull << 36) - 4, 8,
		 ctrl(TT_DMA_DIR_TO_DEVICE, 0, t, u, 0), TT_DEV_ERR_RANGE,
		 (1ull << 36) - 4},
	};
	size_t n = sizeof(bad) / sizeof(bad[0]);

	memset(l1 + 0x1000, 0, 64);
	fill(f->host, 64, 3);
	for (size_t i = 0; i < n; i++) {
		uint32_t before =
			__atomic_load_n(&r->err_head, __ATOMIC_ACQUIRE);
		uint32_t s = f->prod;

		__atomic_and_fetch(&r->irq_status, ~TT_IRQ_DEV_ERROR,
				   __ATOMIC_SEQ_CST);
		add(f, bad[i].host, bad[i].local, bad[i].len, bad[i].ctrl);
		ring_and_wait(f);
		assert_int_equal(slot(f, s)->status, bad[i].want);
		assert_last_error(f, before, bad[i].want, bad[i].addr);
		assert_true(r->irq_status & TT_IRQ_DEV_ERROR);
	}
	assert_int_equal(*dreg(f, TT_DMA_ERRORS), n);
	assert_int_equal(r->err_head - head, n);
	/* None of them wrote anything; the engine goes on after them. */
	for (int i = 0; i < 64; i++)
		assert_int_equal(l1[0x1000 + i], 0);
	add(f, bus(f, 0), 0x1000, 64, ctrl(TT_DMA_DIR_TO_DEVICE, 0, t, u, 0));
	ring_and_wait(f);
	assert_int_equal(slot(f, f->prod - 1)->status, 0);
	assert_memory_equal(l1 + 0x1000, f->host, 64);
}

static void test_ring_wraps(void **state)
{
	struct fixture *f = *state;
	uint8_t *l1 = f->dev->img->base + f->tensix->mem_off;
	const unsigned total = 3 * TT_DMA_RING_ENTRIES + 7;
	unsigned done = 0;

	fill(f->host, 4 * total, 5);
	while (done < total) {
		/* Batches of 300, so posts straddle the end of the ring. */
		unsigned batch = total - done < 300 ? total - done : 300;

		for (unsigned i = 0; i < batch; i++, done++)
			add(f, bus(f, 4 * done), 0x30000 + 4 * done, 4,
			    ctrl(TT_DMA_DIR_TO_DEVICE, 0, f->tensix->x,
				 f->tensix->y, i == batch - 1));
		ring_and_wait(f);
	}
	assert_memory_equal(l1 + 0x30000, f->host, 4 * total);
	assert_int_equal(*dreg(f, TT_DMA_CONS), total);
	assert_int_equal(*dreg(f, TT_DMA_ERRORS), 0);
	for (unsigned i = 0; i < TT_DMA_RING_ENTRIES; i++)
		assert_int_equal(slot(f, i)->status, 0);
}

static void test_interrupt_on_request_only(void **state)
{
	struct fixture *f = *state;
	struct tt_host_regs *r = f->dev->img->regs;
	uint32_t seq;

	__atomic_and_fetch(&r->irq_status, ~TT_IRQ_DMA_DONE, __ATOMIC_SEQ_CST);
	add(f, bus(f, 0), 0x1000, 64,
	    ctrl(TT_DMA_DIR_TO_DEVICE, 0, f->tensix->x, f->tensix->y, false));
	ring_and_wait(f);
	assert_false(r->irq_status & TT_IRQ_DMA_DONE);

	seq = sim_irq_seq(r);
	add(f, bus(f, 0), 0x1000, 64,
	    ctrl(TT_DMA_DIR_FROM_DEVICE, 0, f->tensix->x, f->tensix->y, true));
	__atomic_store_n(dreg(f, TT_DMA_PROD), f->prod, __ATOMIC_RELEASE);
	sim_doorbell_kick(r);
	assert_int_equal(sim_irq_wait(r, seq, WAIT_MS), 0);
	assert_true(r->irq_status & TT_IRQ_DMA_DONE);
	/* The interrupt comes after CONS moved past the descriptor. */
	assert_int_equal(*dreg(f, TT_DMA_CONS), f->prod);
}

static void test_prod_too_far_ahead_refused(void **state)
{
	struct fixture *f = *state;
	struct tt_host_regs *r = f->dev->img->regs;
	uint8_t *l1 = f->dev->img->base + f->tensix->mem_off;
	uint32_t head = r->err_head;

	memset(l1 + 0x40000, 0, 4);
	fill(f->host, 4, 9);
	/* A valid slot, but PROD claims a ring and one more. */
	add(f, bus(f, 0), 0x40000, 4,
	    ctrl(TT_DMA_DIR_TO_DEVICE, 0, f->tensix->x, f->tensix->y, false));
	f->prod += TT_DMA_RING_ENTRIES;
	ring_and_wait(f);
	assert_int_equal(*dreg(f, TT_DMA_ERRORS), 1);
	assert_last_error(f, head, TT_DEV_ERR_BAD_CMD, TT_DMA_PROD);
	assert_int_equal(l1[0x40000], 0);
	/* It goes on from there. */
	add(f, bus(f, 0), 0x40000, 4,
	    ctrl(TT_DMA_DIR_TO_DEVICE, 0, f->tensix->x, f->tensix->y, false));
	ring_and_wait(f);
	assert_memory_equal(l1 + 0x40000, f->host, 4);
}

/* A failure with HALT stops the ring until the host resumes it; slots the
 * host marks SKIP meanwhile finish without running. */
static void test_halt_then_skip(void **state)
{
	struct fixture *f = *state;
	struct tt_host_regs *r = f->dev->img->regs;
	uint8_t *l1 = f->dev->img->base + f->tensix->mem_off;
	uint32_t c = ctrl(TT_DMA_DIR_TO_DEVICE, 0, f->tensix->x, f->tensix->y,
			  true) |
		     TT_DMA_CTRL_HALT;
	uint32_t seq;

	memset(l1 + 0x50000, 0, 16);
	fill(f->host, 16, 11);
	add(f, 0x1000, 0x50000, 4, c);	  /* no host memory: fails */
	add(f, bus(f, 0), 0x50000, 4, c); /* to be skipped */
	add(f, bus(f, 4), 0x50004, 4, c); /* to run after the resume */
	seq = sim_irq_seq(r);
	__atomic_store_n(dreg(f, TT_DMA_PROD), f->prod, __ATOMIC_RELEASE);
	sim_doorbell_kick(r);
	assert_int_equal(sim_irq_wait(r, seq, WAIT_MS), 0);
	for (int ms = 0; ms < WAIT_MS && !*dreg(f, TT_DMA_HALTED); ms++)
		usleep(1000);
	assert_int_equal(*dreg(f, TT_DMA_HALTED), 1);
	assert_int_equal(*dreg(f, TT_DMA_CONS), 1);
	assert_int_equal(slot(f, 0)->status, TT_DEV_ERR_HOST_MEM);
	/* Halted: another doorbell runs nothing. */
	sim_doorbell_kick(r);
	usleep(20000);
	assert_int_equal(*dreg(f, TT_DMA_CONS), 1);

	slot(f, 1)->ctrl |= TT_DMA_CTRL_SKIP;
	__atomic_store_n(dreg(f, TT_DMA_HALTED), 0, __ATOMIC_RELEASE);
	ring_and_wait(f);
	assert_int_equal(slot(f, 1)->status, TT_DMA_STATUS_SKIPPED);
	assert_int_equal(slot(f, 2)->status, 0);
	assert_int_equal(l1[0x50000], 0);
	assert_memory_equal(l1 + 0x50004, f->host + 4, 4);
	assert_int_equal(*dreg(f, TT_DMA_ERRORS), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_engine_published, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_to_and_from_dram_and_l1,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_descriptors_fail_alone,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_wraps, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_interrupt_on_request_only,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_prod_too_far_ahead_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_halt_then_skip, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
