/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Running code on harts, the RV32IM cores of a node. A Tensix core has
 * three (0 BRISC, 1 NCRISC, 2 compute), the ARC node one.
 *
 * Kernels: an RV32 ELF executable linked to run from L1 at or above
 * TT_HART_KERNEL_BASE, entry point `int32_t entry(const uint32_t *args,
 * uint32_t nargs)`. tt_hart_load_elf() puts it in a core's L1;
 * tt_hart_launch() asks the core firmware on one hart to call it;
 * tt_hart_wait() collects its return value. Arguments go to a per-hart
 * area at the end of L1:
 *
 *   [l1_size - TT_HART_ARGS_BYTES, l1_size)   argument areas, hart h at
 *                                             tt_hart_args_addr(l1_size, h)
 *   [TT_HART_KERNEL_BASE, l1_size - TT_HART_ARGS_BYTES)   kernels and data
 *   [0, TT_HART_KERNEL_BASE)                  core firmware, mailboxes
 *
 * Bring-up: tt_hart_exec_raw() runs an ELF on a bare hart instead,
 * without the core firmware (until the next tt_device_reset()).
 *
 * Cores are named by NOC 0 coordinates and must be enabled Tensix cores
 * (tt_hart_status() also takes the ARC node). Messages name them
 * "hart 0 of core 1-1" (x-y).
 *
 * Thread-safety: calls on one device may come from several threads; one
 * hart runs one launch at a time.
 */
#ifndef TT_HART_H
#define TT_HART_H

#include "device.h"

#define TT_HART_KERNEL_BASE 0x20000u /* first L1 byte free for kernels */
#define TT_HART_ARGS_BYTES 0x1000u /* argument areas, at the end of L1 */
#define TT_HART_ARGS_MAX 256u /* 32-bit arguments per launch */
#define TT_HART_TENSIX 3u /* harts per Tensix core */

/* L1 address of hart h's argument area on a core with l1_size bytes. */
static inline uint32_t tt_hart_args_addr(uint64_t l1_size, unsigned h)
{
	return (uint32_t)(l1_size - TT_HART_ARGS_BYTES) + h * 4 *
	       TT_HART_ARGS_MAX;
}

enum tt_hart_run_state {
	TT_HART_STATE_RESET = 0, /* held in reset */
	TT_HART_STATE_RUNNING = 1,
	TT_HART_STATE_WAITING = 2, /* asleep until an event */
	TT_HART_STATE_HALTED = 3, /* stopped on a fault; see the fault fields */
};

struct tt_hart_status {
	enum tt_hart_run_state state;
	const char *state_name; /* "in reset", "running", "waiting", "halted" */
	uint32_t pc; /* where it last stopped or was sampled */
	unsigned fault; /* 0 none, else the device's fault cause */
	const char *fault_name; /* "no fault", "illegal instruction", ... */
	uint32_t fault_pc; /* the faulting instruction */
	uint32_t fault_addr; /* data address, or the illegal instruction word */
	uint64_t instret; /* instructions retired since reset */
};

/*
 * State of hart `hart` of `core` (an enabled Tensix core or the ARC node).
 * Returns 0, -EINVAL (no such core or hart), -EPROTO (the device reports
 * nonsense) or a NOC error.
 */
TT_API int tt_hart_status(tt_device *dev, struct tt_xy core, unsigned hart,
			  struct tt_hart_status *out);

/* Name of a fault cause ("store access fault", ...; "unknown fault"). */
TT_API const char *tt_hart_fault_name(unsigned fault);

/* Name of a Tensix hart: "BRISC", "NCRISC", "COMPUTE" ("hart?" if none). */
TT_API const char *tt_hart_name(unsigned hart);

/* A Tensix core that must be recovered before it runs another program. */
struct tt_core_problem {
	struct tt_xy core; /* NOC 0 coordinates */
	unsigned hart; /* its first hart in trouble */
	int pid; /* who saw the failure or left the core busy; 0: unknown */
	char why[192]; /* one line, for people */
};

/*
 * The Tensix cores that need recovery (docs/dispatch.md, "Recovery"): a
 * hart whose launch hung or faulted, as its runtime marked it in the
 * core's mailbox, and, while no process owns the chip's runtime, a hart
 * still inside a launch (its owner died). A monitor's call: it takes no
 * lock, changes nothing and needs no ownership; what a running owner is
 * doing right now never counts. Fills out[0..min(max, n)) in NOC order and
 * returns n, the number of such cores, or a negative errno (-EINVAL for a
 * NULL dev, or out NULL with max > 0; a NOC error).
 */
TT_API int tt_device_core_problems(tt_device *dev, struct tt_core_problem *out,
				   unsigned max);

/*
 * Load the RV32 ELF executable elf[0..len) into core's L1: each segment's
 * file bytes, then zeros up to its memory size. Every segment must lie in
 * [TT_HART_KERNEL_BASE, l1_size - TT_HART_ARGS_BYTES). Stores the entry
 * point in *entry (may be NULL). Returns 0, -ENOEXEC or -EINVAL (not a
 * valid executable; the message says why), -ERANGE (a segment outside the
 * kernel area) or a NOC error. Nothing is written unless the file is valid.
 */
TT_API int tt_hart_load_elf(tt_device *dev, struct tt_xy core, const void *elf,
			    size_t len, uint32_t *entry);

/* The same from a file (at most 64 MiB). */
TT_API int tt_hart_load_elf_file(tt_device *dev, struct tt_xy core,
				 const char *path, uint32_t *entry);

/*
 * Ask the core firmware on `hart` to call entry(args, nargs): copies the
 * arguments to the hart's argument area and writes the launch message.
 * Does not wait for the run. If the core firmware is still booting, waits
 * up to two seconds for it. Returns 0; -EBUSY if the hart is still running
 * a previous launch, is held in reset, or its firmware is not ready;
 * -EFAULT if it has halted on a fault (reset the device); -EINVAL for bad
 * arguments (entry outside the kernel area, nargs > TT_HART_ARGS_MAX).
 */
TT_API int tt_hart_launch(tt_device *dev, struct tt_xy core, unsigned hart,
			  uint32_t entry, const uint32_t *args, unsigned nargs);

/*
 * Wait up to timeout_ms (< 0: no limit) for the last launch on `hart` to
 * return; *ret (may be NULL) gets its return value. Returns 0,
 * -ETIMEDOUT (the message gives the hart's pc and state), -EFAULT if the
 * hart halted (the message gives the fault cause, pc and address), or
 * -EIO if the hart is held in reset or its firmware stopped serving.
 */
TT_API int tt_hart_wait(tt_device *dev, struct tt_xy core, unsigned hart,
			int timeout_ms, int32_t *ret);

/* tt_hart_launch() then tt_hart_wait(). */
TT_API int tt_hart_run(tt_device *dev, struct tt_xy core, unsigned hart,
		       uint32_t entry, const uint32_t *args, unsigned nargs,
		       int timeout_ms, int32_t *ret);

/*
 * Bring-up path: hold `hart` of a Tensix core in reset (which stops the
 * core firmware on it), load the ELF anywhere in L1 (it may overwrite the
 * firmware), point the hart's reset vector at its entry and release it.
 * The program runs bare (no arguments, no stack set up) until it halts or
 * the chip is reset; the hart runs no launches until tt_device_reset().
 * Errors as tt_hart_load_elf(), with L1 as the allowed range.
 */
TT_API int tt_hart_exec_raw(tt_device *dev, struct tt_xy core, unsigned hart,
			    const void *elf, size_t len);

#endif /* TT_HART_H */
