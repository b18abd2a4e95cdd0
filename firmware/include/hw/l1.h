/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * What the Tensix core firmware keeps in L1, and the launch protocol by
 * which the host (or another core) runs a binary on a hart.
 *
 *   0x00000  BRISC firmware: code, data, stack     TT_L1_FW_SIZE
 *   0x08000  NCRISC firmware
 *   0x10000  compute firmware
 *   0x18000  mailboxes, one struct tt_mailbox per hart
 *   0x18300  launch words, one uint32_t per hart (TT_L1_LAUNCH_SEQ)
 *   0x18C00  completion counters (TT_L1_COUNTERS) launchers ask for
 *   0x19000  program area (below), TT_L1_PROG_SIZE
 *   0x1C000  bank table (struct tt_bank_table)
 *   0x1D000  print rings, one struct tt_print_ring per hart
 *   0x20000  TT_L1_UNRESERVED: free for kernels, arguments and data
 *
 * A program (libtt's TT-Metal-style programs) uses TT_L1_UNRESERVED as
 * three kernel slots and leaves the rest to circular buffers and L1
 * buffers:
 *
 *   0x20000  kernel slot of hart h at TT_L1_KERNEL_SLOT(h), 32 KiB each
 *   0x38000  TT_L1_PROG_UNRESERVED: circular buffers grow up from here,
 *            L1 buffers down from the end of L1
 *
 * The program area holds, for the program running on the core:
 *
 *   +0x0000  struct tt_kernel_ctx per hart (TT_L1_KCTX(h))
 *   +0x0100  semaphores: TT_SEM_COUNT words, TT_SEM_STRIDE apart
 *   +0x0200  CB table: TT_CB_COUNT struct tt_cb_config (hw/tensix.h)
 *   +0x0600  runtime arguments of hart h at TT_L1_RTA(h), unique ones
 *            then common ones, TT_RTA_MAX_WORDS in all
 *
 * A program kernel is an ordinary launch (below) with entry = its slot and
 * args = its struct tt_kernel_ctx (nargs = its size in words). Whoever
 * launches a program writes slots, CB table, semaphores, arguments and
 * contexts, zeroes the CB counters of the CBs it uses (hw/tensix.h), and
 * only then writes the launch messages and the launch words.
 *
 * Launch, host side (for hart h):
 *   1. wait until mailbox[h].fw_state == TT_FW_READY and done.seq ==
 *      the launch word TT_L1_LAUNCH_SEQ(h) (the hart is idle);
 *   2. put the binary and its arguments in L1 (at or above
 *      TT_L1_UNRESERVED);
 *   3. write launch.entry, .args, .nargs, then the launch word =
 *      done.seq + 1 (last: it starts the run).
 * The launch words of a core's harts are side by side, so that one write
 * starts several of them (the same seq for all: a hart starts on any
 * value different from its done.seq).
 * The firmware calls entry(args, nargs, hart, node_id) on its own stack
 * (hart: its enum tt_tensix_hart; node_id: the node's TT_TILE_NODE_ID,
 * hw/tile.h, so a kernel needs no register read to know either), stores
 * the return value in done.ret, then writes done.seq = its launch word, writes
 * TT_HART_HOST_IRQ (hw/hart.h) and waits for the next launch. A hart that
 * faults halts (state TT_HART_HALTED) instead of completing.
 */
#ifndef TT_HW_L1_H
#define TT_HW_L1_H

#include "bits.h"

#define TT_L1_FW_BRISC 0x00000u
#define TT_L1_FW_NCRISC 0x08000u
#define TT_L1_FW_COMPUTE 0x10000u
#define TT_L1_FW_SIZE 0x08000u
#define TT_L1_MAILBOX 0x18000u
#define TT_L1_MAILBOX_STRIDE 0x100u
#define TT_L1_UNRESERVED 0x20000u

/* Firmware region of hart h (enum tt_tensix_hart). */
#define TT_L1_FW_BASE(h) ((uint32_t)(h) * TT_L1_FW_SIZE)
/* Mailbox of hart h. */
#define TT_L1_MAILBOX_ADDR(h) (TT_L1_MAILBOX + (uint32_t)(h) * TT_L1_MAILBOX_STRIDE)
/* Launch word of hart h: the launch's seq, written last (above). */
#define TT_L1_LAUNCH_SEQ_BASE (TT_L1_MAILBOX + 3u * TT_L1_MAILBOX_STRIDE)
#define TT_L1_LAUNCH_SEQ(h) (TT_L1_LAUNCH_SEQ_BASE + 4u * (uint32_t)(h))

/* Words a launcher may name as launch.notify_addr (on any core). */
#define TT_L1_COUNTERS 0x18C00u
#define TT_L1_COUNTERS_SIZE 0x400u

/* Program layout (above). */
#define TT_L1_PROG 0x19000u
#define TT_L1_PROG_SIZE 0x3000u
#define TT_L1_BANKS 0x1C000u
#define TT_L1_BANKS_SIZE 0x1000u
#define TT_L1_PRINT 0x1D000u
#define TT_L1_PRINT_STRIDE 0x400u
#define TT_L1_KERNEL_SLOT_SIZE 0x8000u
#define TT_L1_KERNEL_SLOT(h) (TT_L1_UNRESERVED + (uint32_t)(h) * \
			      TT_L1_KERNEL_SLOT_SIZE)
#define TT_L1_PROG_UNRESERVED 0x38000u

#define TT_L1_KCTX(h) (TT_L1_PROG + (uint32_t)(h) * 0x40u)
#define TT_L1_SEM (TT_L1_PROG + 0x100u)
#define TT_SEM_COUNT 8u
#define TT_SEM_STRIDE 16u /* TT-Metal's L1 alignment */
#define TT_L1_SEM_ADDR(i) (TT_L1_SEM + (uint32_t)(i) * TT_SEM_STRIDE)
#define TT_L1_CB_TABLE (TT_L1_PROG + 0x200u)
#define TT_L1_RTA(h) (TT_L1_PROG + 0x600u + (uint32_t)(h) * 0x800u)
#define TT_RTA_MAX_WORDS 341u /* unique + common, per kernel per core */
#define TT_L1_PRINT_RING(h) (TT_L1_PRINT + (uint32_t)(h) * \
			     TT_L1_PRINT_STRIDE)

/* What a program kernel is launched with (args of its launch). */
struct tt_kernel_ctx {
	uint32_t rta; /* L1 address of the unique runtime arguments */
	uint32_t rta_count;
	uint32_t crta; /* L1 address of the common runtime arguments */
	uint32_t crta_count;
	uint32_t cb_mask; /* bit i: CB i is configured in the CB table */
	uint32_t noc; /* the NOC this kernel uses by default, 0 or 1 */
	/* Formerly the core's logical coordinates: they made every core's
	 * context different, so a launch could not multicast it. The bank
	 * table gives them now (l1_grid_w). Written as 0. */
	uint32_t unused[2];
	uint32_t flags; /* TT_KCTX_F_* */
	uint32_t kernel_id; /* the host's id of the kernel, for reports */
	uint32_t reserved[6];
};

#define TT_KCTX_F_CB_CHECKS 0x1u /* check CB use; halt on misuse */
#define TT_KCTX_F_PRINT 0x2u /* the print ring of this hart is drained */

/* One circular buffer, as the kernels see it. Sizes in bytes. */
struct tt_cb_config {
	uint32_t addr; /* first byte of the FIFO in L1 */
	uint32_t size; /* num_pages * page_size */
	uint32_t num_pages;
	uint32_t page_size;
	uint32_t format; /* data format (common/dataformat.h numbering) */
	uint32_t reserved[3];
};

/* Interleaved buffers (TT-Metal's InterleavedAddrGen, in
 * tt_metal/hw/inc/internal/dataflow/dataflow_api_addrgen.h): page i lives in
 * bank i % banks, at the buffer's address plus (i / banks) * page size in
 * that bank. Coordinates are NOC 0's: x | y << 8. Written by libtt to every
 * core it launches programs on. */
#define TT_BANKS_MAX_DRAM 16u
#define TT_BANKS_MAX_L1 256u
struct tt_bank_table {
	uint32_t dram_banks;
	uint32_t l1_banks;
	uint32_t grid_x, grid_y; /* NOC grid size, to mirror for NOC 1 */
	/* Page alignment of interleaved buffers: a page takes its size
	 * rounded up to this in each bank (0: 32 for DRAM, 16 for L1). */
	uint32_t dram_align, l1_align;
	/* Width of the host's logical grid: L1 bank i is on logical core
	 * (i % l1_grid_w, i / l1_grid_w); how a kernel finds its own. */
	uint32_t l1_grid_w;
	uint32_t reserved;
	uint32_t dram_xy[TT_BANKS_MAX_DRAM];
	uint32_t l1_xy[TT_BANKS_MAX_L1];
};

/* A hart's print ring: the kernel appends bytes at wr, the host consumes
 * them at rd (both free-running byte counts; data index = count mod
 * TT_PRINT_DATA). The kernel waits while the ring is full. */
#define TT_PRINT_DATA (TT_L1_PRINT_STRIDE - 16u)
struct tt_print_ring {
	uint32_t wr;
	uint32_t rd;
	uint32_t reserved[2];
	uint8_t data[TT_PRINT_DATA];
};

#define TT_FW_READY 0x52454459u /* "YDER": waiting for launches */

/* Kernel entry point: returns a value reported in done.ret. A kernel
 * that needs neither hart nor node_id may take only the first two. */
typedef int32_t (*tt_kernel_entry)(const uint32_t *args, uint32_t nargs,
				   uint32_t hart, uint32_t node_id);

struct tt_launch_msg {
	/* Formerly the seq that starts the run; that is the launch word
	 * TT_L1_LAUNCH_SEQ(h) now, next to the other harts'. Written as 0. */
	uint32_t unused;
	uint32_t entry; /* L1 address of the entry point */
	uint32_t args; /* L1 address of nargs 32-bit arguments */
	uint32_t nargs;
	/* If notify_addr != 0: when the run is done, the firmware adds 1 to
	 * the 32-bit word at notify_addr of node notify_xy (x | y << 8, NOC
	 * 0) over NOC 0 -- how a dispatcher core counts finished cores. */
	uint32_t notify_xy;
	uint32_t notify_addr;
	uint32_t flags; /* TT_LAUNCH_F_* */
	/* Harts of this core (bit h: hart h) that must have finished the
	 * same launch (done.seq reached this hart's launch word) before
	 * this one notifies: one hart counts for the whole core. */
	uint32_t wait_mask;
};

/* The run ends without a host interrupt (TT_HART_HOST_IRQ): whoever
 * counts the harts (a dispatcher) raises one for all of them. */
#define TT_LAUNCH_F_NO_IRQ (1u << 0)

struct tt_launch_done {
	uint32_t seq; /* = the launch word once the run has returned */
	int32_t ret; /* the entry point's return value */
	uint32_t runs; /* launches completed since the firmware started */
	uint32_t reserved[5];
};

#define TT_HOST_MARK_FAILED 0x52435652u /* "RVCR" */

struct tt_mailbox {
	uint32_t fw_state; /* TT_FW_READY once the firmware waits */
	uint32_t fw_version; /* a.b.c.d */
	uint32_t hart; /* enum tt_tensix_hart, as the firmware saw it */
	/* Last waypoint the running kernel passed: four characters, first in
	 * the low byte ("CRBW": waiting in cb_reserve_back; 0 = none). */
	uint32_t waypoint;
	/* The host's, never the firmware's: TT_HOST_MARK_FAILED once a
	 * launch on this hart hung or faulted, with the pid of the process
	 * that saw it, so every process can tell the core needs recovery
	 * (anything else, whatever a stray write left, is no mark); zeroed
	 * when the host recovers it. Chip boot clears both with the rest of
	 * the mailbox. */
	uint32_t host_mark;
	uint32_t host_mark_pid;
	uint32_t reserved0[2];
	struct tt_launch_msg launch;
	struct tt_launch_done done;
	uint32_t reserved1[40];
};

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(struct tt_mailbox) == TT_L1_MAILBOX_STRIDE,
	       "mailbox layout");
_Static_assert(sizeof(struct tt_kernel_ctx) == 0x40, "kernel context");
_Static_assert(sizeof(struct tt_cb_config) == 32, "CB table entry");
_Static_assert(32 * sizeof(struct tt_cb_config) <= 0x400, "CB table");
_Static_assert(sizeof(struct tt_bank_table) <= TT_L1_BANKS_SIZE,
	       "bank table");
_Static_assert(sizeof(struct tt_print_ring) == TT_L1_PRINT_STRIDE,
	       "print ring");
_Static_assert(TT_RTA_MAX_WORDS * 4 <= 0x800, "runtime arguments");
_Static_assert(TT_L1_LAUNCH_SEQ(3) <= TT_L1_COUNTERS,
	       "launch words after three mailboxes");
#endif

#endif /* TT_HW_L1_H */
