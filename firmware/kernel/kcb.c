// SPDX-License-Identifier: Apache-2.0
/*
 * Circular buffers (kernel_api/cb.h): the waits, and the checked versions
 * of every call used when the host turned CB checks on. A check that
 * fails reports the call, the CB and the numbers, then halts.
 */
#include "kinternal.h"

#include "kernel_api/cb.h"

/* Sleep until n pages are free; the consumer's pops (ACKED) free them. */
void ttk_cb_wait_free(uint32_t cb, uint32_t n)
{
	const struct ttk_cb *c = ttk_cb_of(cb);
	volatile uint32_t *acked = ttk_cb_reg(cb, TT_CB_ACKED);
	volatile uint32_t *received = ttk_cb_reg(cb, TT_CB_RECEIVED);

	TTK_SET_WAYPOINT("CRBW");
	for (;;) {
		uint32_t a = *acked;

		if ((int32_t)(c->num_pages - (uint16_t)(*received - a)) >=
		    (int32_t)n)
			break;
		tt_wait_ne(acked, a);
	}
	TTK_SET_WAYPOINT("CRBD");
}

/* Sleep until n pages are available; the producer's pushes (RECEIVED)
 * bring them. */
void ttk_cb_wait_avail(uint32_t cb, uint32_t n)
{
	volatile uint32_t *acked = ttk_cb_reg(cb, TT_CB_ACKED);
	volatile uint32_t *received = ttk_cb_reg(cb, TT_CB_RECEIVED);

	TTK_SET_WAYPOINT("CWFW");
	for (;;) {
		uint32_t r = *received;

		if ((uint16_t)(r - *acked) >= n)
			break;
		tt_wait_ne(received, r);
	}
	TTK_SET_WAYPOINT("CWFD");
}

uint32_t ttk_cb_checked_index(uint32_t cb, const char *op)
{
	if (cb >= TT_CB_COUNT || !(ttk_cb_mask() & (1u << cb)))
		ttk_fatal("CB misuse: %s(%u): CB %u is not configured on this core (configured: 0x%x)",
			  op, (unsigned)cb, (unsigned)cb,
			  (unsigned)ttk_cb_mask());
	return cb;
}

/* A configured CB and a page count it can hold. */
static struct ttk_cb *checked(uint32_t cb, uint32_t n, const char *op)
{
	struct ttk_cb *c = &ttk_cb[ttk_cb_checked_index(cb, op)];

	if (n > c->num_pages)
		ttk_fatal("CB misuse: %s(%u, %u): CB %u holds only %u pages",
			  op, (unsigned)cb, (unsigned)n, (unsigned)cb,
			  (unsigned)c->num_pages);
	return c;
}

/* Move a pointer by n pages; it must land on the FIFO's end exactly to
 * wrap, as in TT-Metal's cb_push_back() and cb_pop_front(). */
static uint32_t advance(const struct ttk_cb *c, uint32_t ptr, uint32_t n,
			uint32_t cb, const char *op)
{
	uint32_t next = ptr + n * c->page_size;

	if (next > c->fifo_limit)
		ttk_fatal("CB misuse: %s(%u, %u): the pointer moves from 0x%x to 0x%x, past the end of the CB at 0x%x (calls must add up to the CB's %u pages exactly)",
			  op, (unsigned)cb, (unsigned)n, (unsigned)ptr,
			  (unsigned)next, (unsigned)c->fifo_limit,
			  (unsigned)c->num_pages);
	return next == c->fifo_limit ? c->fifo_start : next;
}

static uint32_t free_pages(const struct ttk_cb *c, uint32_t cb)
{
	uint32_t avail = ttk_cb_available(cb);

	return avail > c->num_pages ? 0 : c->num_pages - avail;
}

void ttk_cb_reserve_checked(uint32_t cb, uint32_t n)
{
	struct ttk_cb *c = checked(cb, n, "cb_reserve_back");

	if (free_pages(c, cb) < n)
		ttk_cb_wait_free(cb, n);
	if (c->reserved < n)
		c->reserved = n;
}

bool ttk_cb_reservable_checked(uint32_t cb, uint32_t n)
{
	struct ttk_cb *c = checked(cb, n, "cb_pages_reservable_at_back");

	if (free_pages(c, cb) < n)
		return false;
	if (c->reserved < n)
		c->reserved = n;
	return true;
}

void ttk_cb_push_checked(uint32_t cb, uint32_t n)
{
	struct ttk_cb *c = checked(cb, n, "cb_push_back");
	uint32_t avail = ttk_cb_available(cb);

	if (avail > c->num_pages)
		ttk_fatal("CB misuse: cb_push_back(%u, %u): CB %u already holds %u pages of %u",
			  (unsigned)cb, (unsigned)n, (unsigned)cb,
			  (unsigned)avail, (unsigned)c->num_pages);
	if (n > c->num_pages - avail)
		ttk_fatal("CB misuse: cb_push_back(%u, %u): only %u of CB %u's %u pages are free",
			  (unsigned)cb, (unsigned)n,
			  (unsigned)(c->num_pages - avail), (unsigned)cb,
			  (unsigned)c->num_pages);
	if (n > c->reserved)
		ttk_fatal("CB misuse: cb_push_back(%u, %u): only %u pages were reserved (cb_reserve_back)",
			  (unsigned)cb, (unsigned)n, (unsigned)c->reserved);
	c->wr_ptr = advance(c, c->wr_ptr, n, cb, "cb_push_back");
	c->reserved -= n;
	c->pack_next = 0;
	ttk_fence();
	*ttk_cb_reg(cb, TT_CB_RECEIVED_INC) = n;
}

void ttk_cb_wait_checked(uint32_t cb, uint32_t n)
{
	checked(cb, n, "cb_wait_front");
	if (ttk_cb_available(cb) < n)
		ttk_cb_wait_avail(cb, n);
	ttk_fence();
}

bool ttk_cb_available_checked(uint32_t cb, uint32_t n)
{
	checked(cb, n, "cb_pages_available_at_front");
	return ttk_cb_available(cb) >= n;
}

void ttk_cb_pop_checked(uint32_t cb, uint32_t n)
{
	struct ttk_cb *c = checked(cb, n, "cb_pop_front");
	uint32_t avail = ttk_cb_available(cb);

	if (n > avail)
		ttk_fatal("CB misuse: cb_pop_front(%u, %u): only %u pages are available",
			  (unsigned)cb, (unsigned)n, (unsigned)avail);
	c->rd_ptr = advance(c, c->rd_ptr, n, cb, "cb_pop_front");
	ttk_fence();
	*ttk_cb_reg(cb, TT_CB_ACKED_INC) = n;
}
