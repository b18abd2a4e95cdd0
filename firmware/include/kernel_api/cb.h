/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Circular buffers, for data-movement and compute kernels alike (TT-Metal's
 * tt_metal/hw/inc/api/dataflow/dataflow_api.h). The configuration comes from
 * the program's CB table (hw/l1.h); the page counters are registers shared
 * by the core's harts (hw/tensix.h), 16 bits wide and wrapping:
 *
 *   available to the consumer  (uint16_t)(received - acked)
 *   free to the producer       num_pages - available
 *
 *   cb_reserve_back(cb, n)     wait until n pages are free
 *   cb_push_back(cb, n)        received += n; the write pointer moves n
 *                              pages and wraps when it lands exactly on
 *                              the end of the FIFO
 *   cb_wait_front(cb, n)       wait until n pages are available; waits
 *                              are cumulative (8, 16, 24, not 8 thrice)
 *   cb_pop_front(cb, n)        acked += n; the read pointer moves likewise
 *   cb_pages_reservable_at_back(cb, n), cb_pages_available_at_front(cb, n)
 *                              the same tests without waiting
 *   get_write_ptr(cb), get_read_ptr(cb)   L1 byte addresses
 *   get_tile_size(cb), get_dataformat(cb), get_cb_page_size(cb),
 *   get_cb_num_pages(cb)
 *
 * A CB has one producer and one consumer hart. When the host turns CB
 * checks on (TT_KCTX_F_CB_CHECKS), every call is checked and misuse is
 * reported (then the kernel halts): an index that is not configured, n
 * above the CB's page count, a push of more pages than were reserved or
 * are free, a pop of more than are available, and a pointer that steps
 * past the end of the FIFO instead of landing on it. Without checks the
 * calls cost a few instructions and misuse is undefined, as in TT-Metal.
 */
#ifndef TT_KERNEL_API_CB_H
#define TT_KERNEL_API_CB_H

#include "kernel_api/base.h"

/* Counter register reg of CB cb. */
static inline volatile uint32_t *ttk_cb_reg(uint32_t cb, uint32_t reg)
{
	return (volatile uint32_t *)(uintptr_t)(TT_REG_CB_ADDR +
						TT_CB_REG(cb % TT_CB_COUNT, reg));
}

static inline struct ttk_cb *ttk_cb_of(uint32_t cb)
{
	return &ttk_cb[cb % TT_CB_COUNT];
}

static inline uint32_t ttk_cb_available(uint32_t cb)
{
	return (uint16_t)(*ttk_cb_reg(cb, TT_CB_RECEIVED) -
			  *ttk_cb_reg(cb, TT_CB_ACKED));
}

static inline bool ttk_cb_checks(void)
{
	return ttk_flags() & TT_KCTX_F_CB_CHECKS;
}

/* Slow paths and checked versions (kernel/kcb.c). */
void ttk_cb_wait_free(uint32_t cb, uint32_t n);
void ttk_cb_wait_avail(uint32_t cb, uint32_t n);
void ttk_cb_reserve_checked(uint32_t cb, uint32_t n);
void ttk_cb_push_checked(uint32_t cb, uint32_t n);
void ttk_cb_wait_checked(uint32_t cb, uint32_t n);
void ttk_cb_pop_checked(uint32_t cb, uint32_t n);
bool ttk_cb_reservable_checked(uint32_t cb, uint32_t n);
bool ttk_cb_available_checked(uint32_t cb, uint32_t n);
uint32_t ttk_cb_checked_index(uint32_t cb, const char *op);

static inline bool cb_pages_reservable_at_back(uint32_t cb, uint32_t n)
{
	if (ttk_cb_checks())
		return ttk_cb_reservable_checked(cb, n);
	return (int32_t)(ttk_cb_of(cb)->num_pages - ttk_cb_available(cb)) >=
	       (int32_t)n;
}

static inline bool cb_pages_available_at_front(uint32_t cb, uint32_t n)
{
	if (ttk_cb_checks())
		return ttk_cb_available_checked(cb, n);
	return ttk_cb_available(cb) >= n;
}

static inline void cb_reserve_back(uint32_t cb, uint32_t n)
{
	if (ttk_cb_checks()) {
		ttk_cb_reserve_checked(cb, n);
		return;
	}
	if ((int32_t)(ttk_cb_of(cb)->num_pages - ttk_cb_available(cb)) <
	    (int32_t)n)
		ttk_cb_wait_free(cb, n);
}

static inline void cb_push_back(uint32_t cb, uint32_t n)
{
	struct ttk_cb *c = ttk_cb_of(cb);

	if (ttk_cb_checks()) {
		ttk_cb_push_checked(cb, n);
		return;
	}
	/* The pages' data before the count that hands them over. */
	ttk_fence();
	*ttk_cb_reg(cb, TT_CB_RECEIVED_INC) = n;
	c->wr_ptr += n * c->page_size;
	if (c->wr_ptr == c->fifo_limit)
		c->wr_ptr = c->fifo_start;
	c->pack_next = 0;
}

static inline void cb_wait_front(uint32_t cb, uint32_t n)
{
	if (ttk_cb_checks()) {
		ttk_cb_wait_checked(cb, n);
		return;
	}
	if (ttk_cb_available(cb) < n)
		ttk_cb_wait_avail(cb, n);
	/* No read of the pages before the count said they are there. */
	ttk_fence();
}

static inline void cb_pop_front(uint32_t cb, uint32_t n)
{
	struct ttk_cb *c = ttk_cb_of(cb);

	if (ttk_cb_checks()) {
		ttk_cb_pop_checked(cb, n);
		return;
	}
	/* Every read of the pages before they are handed back. */
	ttk_fence();
	*ttk_cb_reg(cb, TT_CB_ACKED_INC) = n;
	c->rd_ptr += n * c->page_size;
	if (c->rd_ptr == c->fifo_limit)
		c->rd_ptr = c->fifo_start;
}

/* The CB's state; with checks, only for a configured CB. */
static inline const struct ttk_cb *ttk_cb_get(uint32_t cb, const char *op)
{
	if (ttk_cb_checks())
		cb = ttk_cb_checked_index(cb, op);
	return ttk_cb_of(cb);
}

static inline uint32_t get_write_ptr(uint32_t cb)
{
	return ttk_cb_get(cb, "get_write_ptr")->wr_ptr;
}

static inline uint32_t get_read_ptr(uint32_t cb)
{
	return ttk_cb_get(cb, "get_read_ptr")->rd_ptr;
}

/* Bytes of one 32x32 tile in the CB's data format (the page size for a
 * format without tiles). */
static inline uint32_t get_tile_size(uint32_t cb)
{
	return ttk_cb_get(cb, "get_tile_size")->tile_size;
}

/* The CB's data format, TT-Metal's DataFormat numbering (DataFormat_*). */
static inline uint32_t get_dataformat(uint32_t cb)
{
	return ttk_cb_get(cb, "get_dataformat")->format;
}

static inline uint32_t get_cb_page_size(uint32_t cb)
{
	return ttk_cb_get(cb, "get_cb_page_size")->page_size;
}

static inline uint32_t get_cb_num_pages(uint32_t cb)
{
	return ttk_cb_get(cb, "get_cb_num_pages")->num_pages;
}

/* TT-Metal's tt::DataFormat values (common/dataformat.h). */
enum {
	DataFormat_Float32 = 0,
	DataFormat_Float16 = 1,
	DataFormat_Bfp8 = 2,
	DataFormat_Bfp4 = 3,
	DataFormat_Float16_b = 5,
	DataFormat_Bfp8_b = 6,
	DataFormat_Bfp4_b = 7,
	DataFormat_Int32 = 8,
	DataFormat_UInt16 = 9,
	DataFormat_Bfp2 = 11,
	DataFormat_Int8 = 14,
	DataFormat_Bfp2_b = 15,
	DataFormat_UInt32 = 24,
	DataFormat_UInt8 = 30,
	DataFormat_Invalid = 255,
};

/* TT-Metal's tt::CBIndex::c_0 .. c_31. */
enum {
	CBIndex_c_0, CBIndex_c_1, CBIndex_c_2, CBIndex_c_3, CBIndex_c_4,
	CBIndex_c_5, CBIndex_c_6, CBIndex_c_7, CBIndex_c_8, CBIndex_c_9,
	CBIndex_c_10, CBIndex_c_11, CBIndex_c_12, CBIndex_c_13, CBIndex_c_14,
	CBIndex_c_15, CBIndex_c_16, CBIndex_c_17, CBIndex_c_18, CBIndex_c_19,
	CBIndex_c_20, CBIndex_c_21, CBIndex_c_22, CBIndex_c_23, CBIndex_c_24,
	CBIndex_c_25, CBIndex_c_26, CBIndex_c_27, CBIndex_c_28, CBIndex_c_29,
	CBIndex_c_30, CBIndex_c_31,
};

#endif /* TT_KERNEL_API_CB_H */
