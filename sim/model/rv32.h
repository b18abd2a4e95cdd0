/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RV32IM interpreter: one hart's architectural state and the loop that
 * runs it. It knows nothing of nodes, scheduling or the device image: its
 * user gives it one fast memory region (a pointer and the local addresses
 * it covers) and callbacks for everything else, and decides what to do
 * when rv32_run() returns.
 *
 * Instructions: RV32I, M, fence, fence.i (no-ops), ecall, ebreak, wfi, and
 * the wait hint TT_INSN_WAIT_NE (hw/hart.h). Instruction fetch is only from
 * the fast region. A changed instruction word in memory is always seen the
 * next time it executes, whoever wrote it and whether or not fence.i ran.
 */
#ifndef TT_SIM_RV32_H
#define TT_SIM_RV32_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/hart.h"

struct rv32_hart;

/* Why rv32_run() returned. The pc is left as documented per reason. */
enum rv32_exit {
	RV32_EXIT_BUDGET, /* max instructions executed; pc = next */
	RV32_EXIT_WFI, /* executed wfi; pc = the instruction after it */
	RV32_EXIT_WAIT, /* executed tt.waitne or tt.waitge that sleeps (see
			 * wait_addr below); pc = the instruction after it */
	RV32_EXIT_FAULT, /* fault_cause/addr filled; pc = faulting insn,
			  * except FETCH_ALIGN/FETCH_ACCESS: pc = the
			  * address fetched (a jump or branch to a bad
			  * target retires, links, and faults at the
			  * target) */
	RV32_EXIT_STOP, /* a callback asked to stop (returned
			 * RV32_CB_STOP), or *stop was set; pc = next */
};

/* Slow-path callback results. */
enum rv32_cb {
	RV32_CB_OK = 0, /* done, continue */
	RV32_CB_STOP = 1, /* done, but return RV32_EXIT_STOP after this insn */
	RV32_CB_FAULT = 2, /* refused: access fault at this address */
};

struct rv32_ops {
	/*
	 * Loads and stores outside the fast region. size is 1, 2 or 4 and
	 * addr is naturally aligned (misaligned accesses fault before any
	 * callback). *val is zero-extended; the core sign-extends.
	 * During any callback h->pc is the accessing instruction; x[]
	 * and instret are only brought up to date when rv32_run returns.
	 */
	enum rv32_cb (*load)(struct rv32_hart *h, uint32_t addr, unsigned size,
			     uint32_t *val);
	enum rv32_cb (*store)(struct rv32_hart *h, uint32_t addr, unsigned size,
			      uint32_t val);
	/*
	 * Called after a store into the fast region that touches the
	 * watched range (a sibling hart waits on a word there). May be NULL.
	 */
	enum rv32_cb (*watched_store)(struct rv32_hart *h, uint32_t addr,
				      unsigned size);
	/*
	 * Called after a full barrier when the watched range is not empty,
	 * at the end of every run and of every few thousand instructions
	 * that stored into the fast region: a store's own look at the range
	 * is not ordered after it, so a waiter published meanwhile may have
	 * been missed. May be NULL.
	 */
	void (*stores_settled)(struct rv32_hart *h);
};

struct rv32_hart {
	uint32_t x[32]; /* x[0] reads as 0 whatever is stored in it */
	uint32_t pc;
	uint64_t instret; /* instructions retired, ever (the user resets it) */

	/* Fast region: local addresses [mem_base, mem_base + mem_size) are
	 * mem[0 .. mem_size). mem_size is a multiple of 4; mem and mem_base
	 * are 4-byte aligned (else the region is treated as empty). Shared
	 * with other threads: accessed with relaxed atomics for aligned
	 * words. Read at each rv32_run. */
	uint8_t *mem;
	uint32_t mem_base;
	uint32_t mem_size;

	const struct rv32_ops *ops;
	/* Optional: two words {lo, hi}, local addresses: a fast-region store
	 * whose address lies in [lo, hi) makes the core call
	 * ops->watched_store. lo == hi watches nothing. The owner may change
	 * them at any time (relaxed atomics); a store that races with the
	 * change may or may not be reported (ops->stores_settled then
	 * follows). */
	const uint32_t *store_watch;
	/* Optional: checked at least every few thousand instructions and at
	 * every taken branch back; non-zero makes rv32_run return STOP. */
	const int *stop;
	void *user; /* the callbacks' context */

	/* Filled on exit. */
	enum tt_hart_fault fault_cause;
	uint32_t fault_addr; /* data address, the instruction word
			      * (ILLEGAL), the pc (FETCH_*), or 0 */
	/* RV32_EXIT_WAIT: the hart sleeps while mem[wait_addr] == wait_val
	 * (tt.waitne), or while it is below wait_val, wrapping (tt.waitge). */
	uint32_t wait_addr, wait_val;
	bool wait_ge;
};

/* Set up a hart: registers zero, pc = reset_pc. The caller
 * then fills mem, ops and the optional fields. */
void rv32_init(struct rv32_hart *h, uint32_t reset_pc);

/* Release the hart. Decoded instructions belong to the threads that ran
 * it and are freed when they exit. */
void rv32_fini(struct rv32_hart *h);

/*
 * Run until one of the exits above, executing at most max_insns
 * instructions (max_insns > 0). Returns the exit reason. Never touches
 * memory outside the fast region except through ops.
 */
enum rv32_exit rv32_run(struct rv32_hart *h, uint64_t max_insns);

/* Name of a fault cause ("illegal instruction", ...). */
const char *rv32_fault_name(enum tt_hart_fault cause);

#endif /* TT_SIM_RV32_H */
