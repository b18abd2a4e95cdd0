// SPDX-License-Identifier: Apache-2.0
/*
 * The kernel runtime: kstart.S calls ttk_main(ctx, nargs, hart, node_id)
 * with the hart's struct tt_kernel_ctx (hw/l1.h); it fills the state the
 * kernel API reads (kernel_api/base.h), runs kernel_main() and returns 0
 * to the core firmware.
 *
 * Every kernel start pays for this file, on every hart of a program, so
 * what setup() assigns anyway is not also zeroed by kstart.S (NOINIT), and
 * nothing here reads a register.
 */
#include "kinternal.h"

#include "compute_kernel_api/common.h"
#include "kernel_api/noc.h"

#define NOINIT __attribute__((section(".ttk.noinit")))

const struct tt_kernel_ctx *ttk_ctx NOINIT;
bool ttk_logical_known; /* .bss: false at every start */
uint32_t ttk_logical_x NOINIT, ttk_logical_y NOINIT;
/* Set up per launch for the CBs in the context's cb_mask only. */
struct ttk_cb ttk_cb[TT_CB_COUNT] NOINIT;
uint8_t noc_index NOINIT;
uint8_t my_x[2] NOINIT, my_y[2] NOINIT;

uint32_t ttk_hart NOINIT;
uint32_t ttk_tx_shadow[TT_TX_ARG3 / 4 + 1] NOINIT;
uint32_t ttk_eltwise_flags;
uint32_t ttk_copy_flags;

/* Defined by compute kernels only (compute_kernel_api/common.h). */
extern const struct ttk_compute_config ttk_compute_config
	__attribute__((weak));

int32_t ttk_main(const struct tt_kernel_ctx *ctx, uint32_t nargs,
		 uint32_t hart, uint32_t node_id);

/* Bytes of a 32x32 tile in a data format (TT-Metal's tt::tile_size()); the
 * page size for anything else. */
static uint32_t tile_size(uint32_t format, uint32_t page_size)
{
	switch (format) {
	case DataFormat_Float32:
	case DataFormat_Int32:
	case DataFormat_UInt32:
		return 4096;
	case DataFormat_Float16:
	case DataFormat_Float16_b:
	case DataFormat_UInt16:
		return 2048;
	case DataFormat_Bfp8:
	case DataFormat_Bfp8_b:
		return 1088;
	case DataFormat_Bfp4:
	case DataFormat_Bfp4_b:
		return 576;
	case DataFormat_Bfp2:
	case DataFormat_Bfp2_b:
		return 320;
	case DataFormat_Int8:
	case DataFormat_UInt8:
		return 1024;
	default:
		return page_size;
	}
}

static void setup_cb(uint32_t i, const struct tt_cb_config *cfg)
{
	struct ttk_cb *c = &ttk_cb[i];

	if ((ttk_flags() & TT_KCTX_F_CB_CHECKS) &&
	    (!cfg->num_pages || !cfg->page_size ||
	     cfg->size != cfg->num_pages * cfg->page_size))
		ttk_fatal("CB %u: configured with %u pages of %u bytes but a size of %u bytes",
			  (unsigned)i, (unsigned)cfg->num_pages,
			  (unsigned)cfg->page_size, (unsigned)cfg->size);
	c->fifo_start = cfg->addr;
	c->fifo_limit = cfg->addr + cfg->size;
	c->rd_ptr = cfg->addr;
	c->wr_ptr = cfg->addr;
	c->page_size = cfg->page_size;
	c->num_pages = cfg->num_pages;
	c->format = cfg->format;
	c->tile_size = tile_size(cfg->format, cfg->page_size);
}

static void setup(const struct tt_kernel_ctx *ctx, uint32_t id)
{
	const struct tt_cb_config *table =
		(const struct tt_cb_config *)TT_L1_CB_TABLE;

	ttk_ctx = ctx;
	ttk_noc_flags.all = 0;
	noc_index = (uint8_t)(ctx->noc & 1);
	my_x[0] = my_x[1] = (uint8_t)TT_FIELD_GET(TT_TILE_NODE_ID_X_MASK, id);
	my_y[0] = my_y[1] = (uint8_t)TT_FIELD_GET(TT_TILE_NODE_ID_Y_MASK, id);
	/* Only as far as the highest configured CB: most kernels have few. */
	for (uint32_t m = ctx->cb_mask, i = 0; m; m >>= 1, i++)
		if (m & 1)
			setup_cb(i, &table[i]);
	/* Only compute kernels drive the coprocessor. */
	if (&ttk_compute_config) {
#pragma GCC unroll 16
		for (uint32_t i = 0; i < sizeof(ttk_tx_shadow) / 4; i++)
			ttk_tx_shadow[i] = ~0u;
		ttk_tx_set(TT_TX_CFG, ttk_compute_config.cfg);
	}
}

/* This core's place in the host's logical grid: its NOC 0 coordinates
 * in the bank table's list of L1 banks, one per logical core. Looked for
 * only by kernels that ask. */
void ttk_find_logical(void)
{
	const volatile struct tt_bank_table *banks = ttk_bank_table();
	uint32_t me = (uint32_t)my_x[0] | (uint32_t)my_y[0] << 8;
	uint32_t w = banks->l1_grid_w ? banks->l1_grid_w : 1;
	uint32_t n = ttk_bank_count(false);

	for (uint32_t i = 0; i < n; i++)
		if (banks->l1_xy[i] == me) {
			ttk_logical_x = i % w;
			ttk_logical_y = i / w;
			ttk_logical_known = true;
			return;
		}
	ttk_fatal("core (%u,%u) is not in the bank table's %u logical cores",
		  (unsigned)my_x[0], (unsigned)my_y[0], (unsigned)n);
}

int32_t ttk_main(const struct tt_kernel_ctx *ctx, uint32_t nargs,
		 uint32_t hart, uint32_t node_id)
{
	volatile struct tt_mailbox *mb;

	/* Core firmware before 1.1 passes neither (its a2 is nargs). */
	if (TTK_UNLIKELY(hart >= TT_TENSIX_HARTS)) {
		hart = mmio_read32(TT_REG_HART_ADDR + TT_HART_SELF);
		node_id = mmio_read32(TT_REG_TILE_CTRL_ADDR + TT_TILE_NODE_ID);
	}
	ttk_hart = hart;
	if (nargs < sizeof(*ctx) / 4)
		ttk_fatal("kernel launched with %u argument words instead of a kernel context (%u words)",
			  (unsigned)nargs, (unsigned)(sizeof(*ctx) / 4));
	setup(ctx, node_id);
	/* The mailbox once: ttk_set_waypoint() would find it at each use. */
	mb = (volatile struct tt_mailbox *)TT_L1_MAILBOX_ADDR(hart);
	mb->waypoint = TTK_WAYPOINT_WORD("R");
	kernel_main();
	/* What the kernel left in flight must land, and fail here if it
	 * does not. */
	if (ttk_noc_flags.all)
		ttk_noc_teardown();
	mb->waypoint = TTK_WAYPOINT_WORD("D");
	return 0;
}
