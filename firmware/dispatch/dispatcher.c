// SPDX-License-Identifier: Apache-2.0
/*
 * The fast-dispatch dispatcher (hw/dispatch.h, docs/dispatch.md): a
 * kernel that never returns until told to. libtt builds it at run time
 * like any BRISC kernel and starts it on the core it keeps out of the
 * user's grid.
 *
 * It reads the host's commands from the issue ring in host memory into
 * its staging area, as many as have arrived (up to the area's size), and
 * carries them out in order. Writes are posted; every point where order
 * matters to someone else (reusing the staging area, waiting for workers,
 * telling the host) waits for them first.
 */
#include <stdint.h>

#include "dataflow_api.h"
#include "fw/hart.h"
#include "fw/wait.h"
#include "hw/dispatch.h"

struct rings {
	uint32_t pcie_x, pcie_y;
	uint64_t ring, done; /* NOC addresses on the PCIe core */
	uint32_t size, records;
	uint32_t rd; /* issue bytes consumed (wrapping count) */
	uint32_t completed; /* completion records written */
};

static uint64_t host(const struct rings *r, uint64_t addr)
{
	return ttk_noc_xy(r->pcie_x, r->pcie_y, 0) | addr;
}

static void write_cmd(const struct tt_dispatch_cmd *c)
{
	uint32_t src = (uint32_t)(uintptr_t)(c + 1);

	if (c->x0 == c->x1 && c->y0 == c->y1)
		noc_async_write(src, get_noc_addr(c->x0, c->y0, c->addr),
				c->len);
	else
		noc_async_write_multicast(
			src,
			get_noc_multicast_addr(c->x0, c->y0, c->x1, c->y1,
					       c->addr),
			c->len, 0);
}

static void wait_workers(uint32_t target)
{
	tt_wait_reach((volatile uint32_t *)TT_DISPATCH_COUNTER, target);
}

/* Record first, then the count that makes it visible, then the
 * interrupt: the host reads in the opposite order. */
static void complete(struct rings *r, uint32_t value)
{
	volatile uint32_t *stage = (volatile uint32_t *)(TT_DISPATCH_COUNTER +
							 0x10);
	uint32_t slot = r->completed % r->records;

	noc_async_write_barrier();
	stage[0] = value;
	stage[1] = 0;
	stage[2] = ++r->completed;
	noc_async_write((uint32_t)(uintptr_t)stage,
			host(r, r->done + 8u * slot), 8);
	noc_async_write_barrier();
	noc_async_write((uint32_t)(uintptr_t)&stage[2],
			host(r, r->done + 8u * r->records), 4);
	noc_async_write_barrier();
	hart_host_irq();
}

static uint32_t padded(uint32_t len)
{
	return (len + TT_DISPATCH_ALIGN - 1) & ~(TT_DISPATCH_ALIGN - 1);
}

/* Carry out the commands staged from ring offset `off`, n bytes; returns
 * the bytes consumed, or ~0u after EXIT. */
static uint32_t run_staged(struct rings *r, uint32_t off, uint32_t n)
{
	uint32_t p = 0;

	while (p + sizeof(struct tt_dispatch_cmd) <= n) {
		const struct tt_dispatch_cmd *c =
			(const struct tt_dispatch_cmd *)(TT_DISPATCH_STAGE + p);
		uint32_t need = sizeof(*c) + padded(c->len);

		if (c->op == TT_DCMD_WRAP)
			return r->size - off; /* the rest of the ring */
		if (p + need > n)
			break; /* the rest of it is not staged yet */
		p += need;
		switch (c->op) {
		case TT_DCMD_WRITE:
			write_cmd(c);
			break;
		case TT_DCMD_WAIT:
			noc_async_write_barrier();
			wait_workers(c->tt_dispatch_cmd_value);
			break;
		case TT_DCMD_DONE:
			complete(r, c->tt_dispatch_cmd_value);
			break;
		case TT_DCMD_EXIT:
			complete(r, c->tt_dispatch_cmd_value);
			return ~0u;
		default:
			/* Not a command of ours: stop where the host sees it. */
			__builtin_trap();
		}
	}
	return p;
}

void kernel_main(void)
{
	volatile uint32_t *wp = (volatile uint32_t *)TT_DISPATCH_WP;
	struct rings r = {
		.pcie_x = get_arg_val(TT_DARG_PCIE_XY) & 0xFF,
		.pcie_y = (get_arg_val(TT_DARG_PCIE_XY) >> 8) & 0xFF,
		.ring = get_arg_val(TT_DARG_RING_LO) |
			(uint64_t)get_arg_val(TT_DARG_RING_HI) << 32,
		.done = get_arg_val(TT_DARG_DONE_LO) |
			(uint64_t)get_arg_val(TT_DARG_DONE_HI) << 32,
		.size = get_arg_val(TT_DARG_RING_SIZE),
		.records = get_arg_val(TT_DARG_DONE_RECORDS),
		.rd = get_arg_val(TT_DARG_START),
	};

	for (;;) {
		uint32_t avail = tt_wait_change(wp, r.rd) - r.rd;
		uint32_t off = r.rd & (r.size - 1), n, used;

		n = avail < r.size - off ? avail : r.size - off;
		n = n < TT_DISPATCH_STAGE_SIZE ? n : TT_DISPATCH_STAGE_SIZE;
		/* The staging area is about to change under posted writes. */
		noc_async_write_barrier();
		noc_async_read(host(&r, r.ring + off), TT_DISPATCH_STAGE, n);
		noc_async_read_barrier();
		used = run_staged(&r, off, n);
		if (used == ~0u)
			return;
		r.rd += used;
	}
}
