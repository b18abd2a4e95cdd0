// SPDX-License-Identifier: Apache-2.0
/*
 * The compute API's out-of-line parts (compute_kernel_api/): operand
 * checks, error reports, tilize and untilize.
 */
#include "kinternal.h"

#include "compute_kernel_api/pack.h"

void ttk_dst_fail(const char *op, uint32_t idst, uint32_t n, uint32_t usable)
{
	if (n == 1)
		ttk_fatal("%s: DST index %u beyond the %u usable DST tiles",
			  op, (unsigned)idst, (unsigned)usable);
	ttk_fatal("%s: DST tiles %u..%u beyond the %u usable DST tiles", op,
		  (unsigned)idst, (unsigned)(idst + n - 1), (unsigned)usable);
}

void ttk_matmul_fail(const char *op, uint32_t rt, uint32_t ct, uint32_t kt)
{
	ttk_fatal("%s: block of %u x %u x %u tiles; each must be 1..255", op,
		  (unsigned)rt, (unsigned)ct, (unsigned)kt);
}

void ttk_sfpu_odst_fail(const char *op, uint32_t idst0, uint32_t odst)
{
	ttk_fatal("%s: the result goes to DST[idst0] = %u, not to %u", op,
		  (unsigned)idst0, (unsigned)odst);
}

void ttk_cb_check_tile(uint32_t cb, uint32_t itile, const char *op)
{
	const struct ttk_cb *c = &ttk_cb[ttk_cb_checked_index(cb, op)];
	uint32_t avail = ttk_cb_available(cb);
	uint32_t end = c->rd_ptr + (itile + 1) * c->tile_size;

	if (itile >= avail)
		ttk_fatal("CB misuse: %s reads tile %u of CB %u, which has %u pages available (cb_wait_front)",
			  op, (unsigned)itile, (unsigned)cb, (unsigned)avail);
	if (end > c->fifo_limit)
		ttk_fatal("CB misuse: %s reads tile %u of CB %u at 0x%x, past the end of the CB at 0x%x",
			  op, (unsigned)itile, (unsigned)cb,
			  (unsigned)(end - c->tile_size),
			  (unsigned)c->fifo_limit);
}

void ttk_cb_check_pack(uint32_t cb, uint32_t page, const char *op)
{
	const struct ttk_cb *c = &ttk_cb[ttk_cb_checked_index(cb, op)];
	uint32_t end = c->wr_ptr + (page + 1) * c->tile_size;

	if (page >= c->reserved)
		ttk_fatal("CB misuse: %s writes page %u of CB %u, which has %u pages reserved (cb_reserve_back)",
			  op, (unsigned)page, (unsigned)cb,
			  (unsigned)c->reserved);
	if (end > c->fifo_limit)
		ttk_fatal("CB misuse: %s writes page %u of CB %u at 0x%x, past the end of the CB at 0x%x",
			  op, (unsigned)page, (unsigned)cb,
			  (unsigned)(end - c->tile_size),
			  (unsigned)c->fifo_limit);
}

/* Bytes of one value of a format that has a row-major form; 0 if none
 * (block formats). */
static uint32_t value_size(uint32_t format)
{
	switch (format) {
	case DataFormat_Float32:
	case DataFormat_Int32:
	case DataFormat_UInt32:
		return 4;
	case DataFormat_Float16:
	case DataFormat_Float16_b:
	case DataFormat_UInt16:
		return 2;
	case DataFormat_Int8:
	case DataFormat_UInt8:
		return 1;
	default:
		return 0;
	}
}

static uint32_t row_major_size(uint32_t cb, const char *op)
{
	uint32_t size = value_size(ttk_cb_of(cb)->format);

	if (!size)
		ttk_fatal("%s: CB %u holds data format %u, which has no row-major form",
			  op, (unsigned)cb, (unsigned)ttk_cb_of(cb)->format);
	return size;
}

void ttk_tilize_block(uint32_t icb, uint32_t ntiles, uint32_t ocb)
{
	const struct ttk_cb *in = ttk_cb_of(icb);
	uint32_t vsize = row_major_size(icb, "tilize_block");

	if (ttk_cb_checks() && ntiles)
		ttk_cb_check_tile(icb, ntiles - 1, "tilize_block");
	for (uint32_t t = 0; t < ntiles; t++) {
		*ttk_tx_reg(TT_TX_A_ADDR) = in->rd_ptr + t * 32 * vsize;
		ttk_tx_set(TT_TX_A_FMT, in->format);
		ttk_tx_set(TT_TX_ARG0, ntiles * 32 * vsize);
		ttk_tx_set(TT_TX_DST, 0);
		ttk_tx_run(TT_TX_TILIZE, 0, 0);
		ttk_pack(0, ocb, ttk_cb_of(ocb)->pack_next++, 0,
			 "tilize_block");
	}
}

void ttk_untilize_block(uint32_t icb, uint32_t ntiles, uint32_t ocb)
{
	const struct ttk_cb *in = ttk_cb_of(icb), *out = ttk_cb_of(ocb);
	uint32_t vsize = row_major_size(ocb, "untilize_block");

	if (ttk_cb_checks() && ntiles) {
		ttk_cb_check_tile(icb, ntiles - 1, "untilize_block");
		ttk_cb_check_pack(ocb, ntiles - 1, "untilize_block");
	}
	for (uint32_t t = 0; t < ntiles; t++) {
		*ttk_tx_reg(TT_TX_A_ADDR) = in->rd_ptr + t * in->tile_size;
		ttk_tx_set(TT_TX_A_FMT, in->format);
		ttk_tx_set(TT_TX_DST, 0);
		ttk_tx_run(TT_TX_COPY, 0, 0);
		*ttk_tx_reg(TT_TX_OUT_ADDR) = out->wr_ptr + t * 32 * vsize;
		ttk_tx_set(TT_TX_OUT_FMT, out->format);
		ttk_tx_set(TT_TX_ARG0, ntiles * 32 * vsize);
		ttk_tx_run(TT_TX_PACK, 0, TT_TX_F_UNTILIZE);
	}
}
