/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * The DMA engine of the PCIe node (since contract 1.3): copies between host
 * memory (bus addresses, the same ones the ATU targets, hw/pcie.h) and any
 * node's local memory, for the driver's DMA queues.
 *
 * Its registers and its descriptor ring are host-only pages of the PCIe
 * node's register block in the device image (hw/host.h: node descriptor
 * regs_off + page * TT_REG_PAGE_SIZE). They are not in the NOC address map
 * (hw/tile.h): device code cannot start host DMA.
 *
 * The ring holds TT_DMA_RING_ENTRIES descriptors. PROD and CONS count
 * descriptors ever posted and ever finished (free-running, wrapping at
 * 2^32); descriptor n lives in slot n % TT_DMA_RING_ENTRIES. The host
 * fills slots PROD.., then writes PROD (release) and rings: it increments
 * doorbell_seq (hw/host.h), directly or through the VM's doorbell. The
 * engine looks at PROD whenever doorbell_seq moves (no doorbell_pending
 * bit: a guest cannot do an atomic OR on its BAR). For each descriptor in
 * order it checks the fields, copies, writes STATUS, then advances CONS
 * (release); a descriptor with TT_DMA_CTRL_IRQ raises TT_IRQ_DMA_DONE after
 * CONS moved past it. The host must not change a slot between posting it
 * and seeing CONS pass it.
 *
 * Every field is untrusted input for the engine: a PROD more than
 * TT_DMA_RING_ENTRIES ahead of CONS is refused whole (one BAD_CMD record,
 * ERRORS + 1, nothing run, CONS set to PROD, TT_IRQ_DMA_DONE); a bad
 * descriptor is not performed, gets a TT_DEV_ERR_* in STATUS, a
 * device-error-log record (op READ or WRITE, the target node, the local
 * or, for host-side failures, the bus address) and TT_IRQ_DEV_ERROR, and
 * the engine goes on with the next one. STATUS is the only word the engine
 * writes in a slot.
 */
#ifndef TT_HW_DMAENG_H
#define TT_HW_DMAENG_H

#include "bits.h"
#include "tile.h"

/* Pages of the PCIe node's register block (after enum tt_reg_page's). */
#define TT_DMA_REG_PAGE 9   /* engine registers */
#define TT_DMA_RING_PAGE 10 /* first page of the ring */
#define TT_DMA_RING_PAGES 4
#define TT_DMA_DESC_SIZE 32
#define TT_DMA_RING_ENTRIES                                                    \
	(TT_DMA_RING_PAGES * TT_REG_PAGE_SIZE / TT_DMA_DESC_SIZE) /* 512 */

/* Engine registers, byte offsets in TT_DMA_REG_PAGE, 32-bit. */
#define TT_DMA_ID 0x00 /* RO: TT_DMA_ID_MAGIC when the engine exists */
#define TT_DMA_ID_MAGIC 0x31414D44u /* "DMA1" */
#define TT_DMA_ENTRIES 0x04	    /* RO: TT_DMA_RING_ENTRIES */
#define TT_DMA_MAX_LEN 0x08	    /* RO: TT_DMA_MAX_LENGTH */
#define TT_DMA_PROD 0x10	    /* host: descriptors posted */
#define TT_DMA_CONS 0x14	    /* engine: descriptors finished */
#define TT_DMA_ERRORS 0x18 /* engine: descriptors failed (grows only) */
/* Engine sets it to 1 when a descriptor with TT_DMA_CTRL_HALT fails (after
 * CONS moved past it); it then runs nothing until the host writes 0 and
 * rings. Meanwhile the host may mark posted slots TT_DMA_CTRL_SKIP. */
#define TT_DMA_HALTED 0x1C
#define TT_DMA_BYTES_LO 0x20 /* engine: bytes copied (grows only) */
#define TT_DMA_BYTES_HI 0x24

#define TT_DMA_MAX_LENGTH (1u << 28) /* bytes per descriptor */
#define TT_DMA_ALIGN 4		     /* bus address, local address and length */
#define TT_DMA_LOCAL_BITS 36	     /* a node's local address */

/* Descriptor ctrl word. */
#define TT_DMA_CTRL_DIR_MASK TT_GENMASK(1, 0)
#define TT_DMA_DIR_TO_DEVICE 1	   /* host memory -> node memory */
#define TT_DMA_DIR_FROM_DEVICE 2   /* node memory -> host memory */
#define TT_DMA_CTRL_NOC TT_BIT(2)  /* NOC 1: x, y are NOC 1 coordinates */
#define TT_DMA_CTRL_IRQ TT_BIT(3)  /* raise TT_IRQ_DMA_DONE when done */
#define TT_DMA_CTRL_HALT TT_BIT(4) /* on failure, halt (TT_DMA_HALTED) */
#define TT_DMA_CTRL_SKIP TT_BIT(5) /* finish without running it */
#define TT_DMA_CTRL_X_MASK TT_GENMASK(13, 8)
#define TT_DMA_CTRL_Y_MASK TT_GENMASK(21, 16)

/* One descriptor, TT_DMA_DESC_SIZE bytes, little-endian. */
struct tt_dma_hw_desc {
	uint64_t host;	 /* bus address */
	uint64_t local;	 /* local address on node (x, y), below 2^36 */
	uint32_t len;	 /* bytes: 1..TT_DMA_MAX_LENGTH, a multiple of 4 */
	uint32_t ctrl;	 /* TT_DMA_CTRL_* */
	uint32_t status; /* engine: 0, enum tt_dev_err or _SKIPPED */
	uint32_t tag;	 /* the host's; the engine ignores it */
};

#define TT_DMA_DESC_HOST 0x00
#define TT_DMA_DESC_LOCAL 0x08
#define TT_DMA_DESC_LEN 0x10
#define TT_DMA_DESC_CTRL 0x14
#define TT_DMA_DESC_STATUS 0x18
#define TT_DMA_DESC_TAG 0x1C

#define TT_DMA_STATUS_SKIPPED 0x100u /* not run: TT_DMA_CTRL_SKIP */

/* Byte offset of slot i's descriptor from the first ring page. */
#define TT_DMA_SLOT_OFF(i)                                                     \
	((uint32_t)((i) % TT_DMA_RING_ENTRIES) * TT_DMA_DESC_SIZE)

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct tt_dma_hw_desc) == TT_DMA_DESC_SIZE,
	       "DMA descriptor layout");
_Static_assert(TT_DMA_REG_PAGE >= TT_REG_PAGE_COUNT &&
		       (TT_DMA_RING_PAGE + TT_DMA_RING_PAGES) *
				       TT_REG_PAGE_SIZE <=
			       TT_REG_BLOCK_SIZE,
	       "DMA pages fit the register block after the NOC-visible ones");
#endif

#endif /* TT_HW_DMAENG_H */
