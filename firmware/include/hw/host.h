/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * The host interface: the device image as the host sees it.
 *
 * The chip model keeps all device state in one shared-memory object, the
 * device image. On a VM it is the ivshmem BAR; in-process and through the
 * ttsim daemon it is the same object mapped by every client. Its layout:
 *
 *   0x0000  identity page (struct tt_identity): signature, contract
 *           version, the chip's shape and where everything else lives
 *   0x1000  host registers (struct tt_host_regs): doorbells, interrupts,
 *           device error log
 *   0x4000  node table: struct tt_node_desc[grid_x * grid_y], indexed by
 *           y * grid_x + x in NOC 0 coordinates
 *   ...     register blocks and memories at the offsets the node table gives
 *
 * Every offset and size read from an image must be checked against the
 * image size before use: the device is untrusted.
 *
 * All multi-byte values are little-endian. 32-bit registers that several
 * agents update (doorbells, interrupt status, error head) are changed only
 * with atomic read-modify-write operations.
 */
#ifndef TT_HW_HOST_H
#define TT_HW_HOST_H

#include "bits.h"

#define TT_IMAGE_IDENTITY_OFF 0x0000u
#define TT_IMAGE_HOST_REGS_OFF 0x1000u
#define TT_IMAGE_NODE_TABLE_OFF 0x4000u

/* "TTSIMIMG" as two little-endian words. */
#define TT_IDENTITY_MAGIC_LO 0x4d495354u /* "TSIM" */
#define TT_IDENTITY_MAGIC_HI 0x474d4953u /* "SIMG" */

/* Device states (tt_identity.state). */
enum tt_dev_state {
	TT_DEV_STATE_INIT = 0, /* being built; do not use */
	TT_DEV_STATE_READY = 1, /* the model serves the device */
	TT_DEV_STATE_STOPPED = 2, /* the model has shut down */
};

struct tt_identity {
	uint32_t magic_lo; /* TT_IDENTITY_MAGIC_LO */
	uint32_t magic_hi; /* TT_IDENTITY_MAGIC_HI */
	uint16_t contract_major; /* TT_HW_CONTRACT_MAJOR */
	uint16_t contract_minor; /* TT_HW_CONTRACT_MINOR */
	uint32_t state; /* enum tt_dev_state */
	uint32_t arch; /* enum tt_hw_arch */
	uint32_t board; /* enum tt_hw_board */
	uint32_t chip_index; /* position on the board, 0-based */
	uint32_t grid_x; /* NOC grid, nodes per row */
	uint32_t grid_y; /* NOC grid, rows */
	uint32_t tensix_count; /* enabled Tensix nodes */

	uint64_t image_size; /* bytes in the whole image */
	uint64_t node_table_off; /* TT_IMAGE_NODE_TABLE_OFF */
	uint32_t node_size; /* sizeof(struct tt_node_desc) */
	uint32_t dram_channels;
	uint64_t dram_bank_size; /* bytes per DRAM channel */
	uint32_t worker_l1_size; /* bytes of L1 per Tensix node */
	uint32_t eth_l1_size; /* bytes of L1 per ETH node */
	char soc_name[32]; /* SoC descriptor name, NUL-terminated */
	/* Chip resets so far (hw/arc.h). Bumped when a reset starts: a
	 * handle that saw another value is stale and must be reopened. */
	uint32_t reset_gen;
	uint32_t reserved[35];
};

/* Interrupt causes (tt_host_regs.irq_status bits). */
#define TT_IRQ_NOC_DONE TT_BIT(0) /* a command with TT_NIU_CTRL_IRQ ended */
#define TT_IRQ_DEV_ERROR TT_BIT(1) /* a device error was recorded */
#define TT_IRQ_HART TT_BIT(2) /* a hart wrote TT_HART_HOST_IRQ (hw/hart.h) */
#define TT_IRQ_HART_FAULT TT_BIT(3) /* a hart halted on a fault */
#define TT_IRQ_RESET TT_BIT(4) /* the chip was reset (hw/arc.h) */
#define TT_IRQ_DMA_DONE TT_BIT(5) /* DMA descriptors finished (hw/dmaeng.h) */

/*
 * Doorbells: bit i of doorbell_pending asks the device to look at register
 * block i (TT_DOORBELL_NIU). The ringer sets the bit with an atomic OR,
 * then increments doorbell_seq and wakes waiters on it.
 */
#define TT_DOORBELL_WORDS 64
#define TT_DOORBELL_NIU(node_index, noc) ((node_index) * 2u + (noc))

/*
 * Node events (hw/hart.h): a writer that changes a node's memory or
 * registers while that node's TT_HART_WAITERS is non-zero sets the node's
 * bit in event_pending (atomic OR), then increments doorbell_seq and wakes
 * its waiters like a doorbell. The writer reads TT_HART_WAITERS after its
 * write, with a full barrier in between.
 */
#define TT_EVENT_WORDS 32

/* Device error codes (error log, TT_NIU_CMD_STATUS). */
enum tt_dev_err {
	TT_DEV_ERR_NONE = 0,
	TT_DEV_ERR_NO_NODE = 1, /* coordinates outside the grid, or empty */
	TT_DEV_ERR_HARVESTED = 2, /* the node is fused off */
	TT_DEV_ERR_UNMAPPED = 3, /* nothing at that local address */
	TT_DEV_ERR_RANGE = 4, /* the access runs past the end of a region */
	TT_DEV_ERR_ALIGN = 5, /* misaligned atomic or register access */
	TT_DEV_ERR_ATU_MISS = 6, /* host window address with no ATU region */
	TT_DEV_ERR_HOST_MEM = 7, /* no host memory at the bus address */
	TT_DEV_ERR_MCAST = 8, /* bad multicast rectangle */
	TT_DEV_ERR_BAD_CMD = 9, /* unknown NIU command */
	TT_DEV_ERR_READ_ONLY = 10, /* write to a read-only register */
	TT_DEV_ERR_NOC = 11, /* the transaction failed on the NOC */
	TT_DEV_ERR_COUNT
};

/* Who started a failed access (tt_dev_error.op). */
enum tt_dev_op {
	TT_DEV_OP_READ = 0,
	TT_DEV_OP_WRITE = 1,
	TT_DEV_OP_MCAST = 2,
	TT_DEV_OP_ATOMIC = 3,
};

#define TT_DEV_INITIATOR_HOST 0xFFu /* initiator_x/y of host accesses */

/* One device error. seq is written last (release): a record is valid when
 * seq == its position in the log + 1. */
struct tt_dev_error {
	uint32_t seq;
	uint8_t code; /* enum tt_dev_err */
	uint8_t op; /* enum tt_dev_op */
	uint8_t noc;
	uint8_t reserved0;
	uint8_t initiator_x; /* NOC 0 coordinates, or TT_DEV_INITIATOR_HOST */
	uint8_t initiator_y;
	uint8_t target_x; /* as addressed, on the NOC used */
	uint8_t target_y;
	uint32_t len;
	uint64_t addr; /* target local address */
	uint64_t reserved1;
};

#define TT_DEV_ERR_RING 64

struct tt_host_regs {
	uint32_t doorbell_seq;
	uint32_t irq_seq; /* incremented (and woken) on every interrupt */
	uint32_t irq_status; /* TT_IRQ_* sticky bits; host clears them */
	/* Agents asleep on doorbell_seq / irq_seq: a ringer makes the wake-up
	 * system call only when there is someone to wake. */
	uint32_t doorbell_sleepers;
	uint32_t irq_sleepers;
	uint32_t reserved0[11];
	uint32_t doorbell_pending[TT_DOORBELL_WORDS];
	uint32_t err_head; /* errors ever recorded; record i at i % RING */
	uint32_t reserved1[15];
	struct tt_dev_error err[TT_DEV_ERR_RING];
	uint32_t event_pending[TT_EVENT_WORDS]; /* one bit per node index */
	/* A node's own hart changed its tile control or reset-unit page:
	 * the model follows it without waking anyone. */
	uint32_t control_pending[TT_EVENT_WORDS];
};

/* A node, in the node table. */
struct tt_node_desc {
	uint8_t type; /* enum tt_hw_node_type */
	uint8_t flags; /* TT_NODE_F_* */
	uint8_t x; /* NOC 0 coordinates */
	uint8_t y;
	uint16_t channel; /* DRAM or ETH channel; 0xFFFF if none */
	uint16_t reserved0;
	uint64_t mem_base; /* local address where memory starts */
	uint64_t mem_size; /* bytes of memory; 0 if none */
	uint64_t mem_off; /* image offset of the memory */
	uint64_t regs_off; /* image offset of TT_REG_BLOCK_SIZE of registers */
	uint64_t reserved1;
};

#define TT_NODE_NO_CHANNEL 0xFFFFu

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct tt_identity) == 256, "identity layout");
_Static_assert(sizeof(struct tt_dev_error) == 32, "error record layout");
_Static_assert(sizeof(struct tt_host_regs) == 0xA80, "host regs layout");
_Static_assert(sizeof(struct tt_host_regs) <=
		       TT_IMAGE_NODE_TABLE_OFF - TT_IMAGE_HOST_REGS_OFF,
	       "host regs fit their pages");
_Static_assert(sizeof(struct tt_node_desc) == 48, "node layout");
#endif

#endif /* TT_HW_HOST_H */
