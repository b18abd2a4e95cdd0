// SPDX-License-Identifier: Apache-2.0
/*
 * Tensix core firmware: one source, built once per hart kind with
 * TT_FW_HART set to its enum tt_tensix_hart. It announces itself in its
 * mailbox (hw/l1.h), then runs launches one after the other.
 *
 * A kernel is trusted with nothing the loop needs afterwards: launch.S
 * enters it on a fresh stack and comes back to kernel_done() on a fresh
 * stack again, and everything carried across the call lives in the
 * mailbox or in memory. A kernel that returns with its registers in any
 * state is fine; one that faults halts the hart for the host to reset.
 */
#include <stdint.h>

#include "hw/hart.h"
#include "hw/l1.h"
#include "hw/tile.h"
#include "fw/hart.h"
#include "fw/mmio.h"
#include "fw/noc.h"
#include "fw/wait.h"
#include "fw_version.h"

#ifndef TT_FW_HART
#error "build with -DTT_FW_HART=<enum tt_tensix_hart>"
#endif
_Static_assert(TT_FW_HART >= 0 && TT_FW_HART < TT_TENSIX_HARTS,
	       "TT_FW_HART names a Tensix hart");

#define MAILBOX ((volatile struct tt_mailbox *)TT_L1_MAILBOX_ADDR(TT_FW_HART))
#define LAUNCH_SEQ ((volatile uint32_t *)TT_L1_LAUNCH_SEQ(TT_FW_HART))

/* launch.S: call entry(args, nargs, hart, node_id) with sp at the top of
 * the stack, then continue in kernel_done(ret) with sp reset again. The
 * entry comes last: the first four are already where the kernel takes
 * them. */
__attribute__((noreturn)) void run_kernel(uint32_t args, uint32_t nargs,
					  uint32_t hart, uint32_t node_id,
					  uint32_t entry);
__attribute__((noreturn)) void kernel_done(int32_t ret);

/* TT_TILE_NODE_ID, read once at start: every kernel gets it (hw/l1.h). */
static uint32_t node_id;

/* The launch word of the run in progress. */
static uint32_t running_seq;

/* Sleep until every hart in mask has finished the run of running_seq:
 * the launcher starts a core's harts with one seq. */
static void wait_for_siblings(uint32_t mask)
{
	mask &= (1u << TT_TENSIX_HARTS) - 1;
	for (uint32_t h = 0; mask; h++, mask >>= 1)
		if (mask & 1)
			tt_wait_reach(&((volatile struct tt_mailbox *)
						TT_L1_MAILBOX_ADDR(h))
					       ->done.seq,
				      running_seq);
}

/* Count this core's run as finished at the launcher's counter, if it
 * asked this hart to: a dispatcher then waits on one word, not on every
 * mailbox. After done.seq, so a counted run always has its final done
 * records. The hart that counts for the core (the launcher picks the
 * one that usually finishes last) waits for the others first. Its
 * command buffer is known at build time. */
static void notify_launcher(uint32_t notify_xy, uint32_t notify_addr,
			    uint32_t wait_mask)
{
	if (!notify_addr)
		return;
	wait_for_siblings(wait_mask);
	noc_post_atomic_inc_at(TT_REG_NIU_ADDR(0) + TT_NIU_CMD(TT_FW_HART, 0),
			       notify_xy & 0xFF, (notify_xy >> 8) & 0xFF,
			       notify_addr, 1, 31);
}

/* Wait for a launch and start it. */
static __attribute__((noreturn)) void next_launch(void)
{
	volatile struct tt_mailbox *mb = MAILBOX;
	uint32_t done = mb->done.seq;

	running_seq = tt_wait_change(LAUNCH_SEQ, done);
	/* The launcher wrote entry, args and nargs before the seq. */
	mmio_barrier();
	run_kernel(mb->launch.args, mb->launch.nargs, TT_FW_HART, node_id,
		   mb->launch.entry);
}

void kernel_done(int32_t ret)
{
	volatile struct tt_mailbox *mb = MAILBOX;
	/* Once done.seq is written the launch message is the launcher's
	 * again (the next launch may be on its way): read it before. */
	uint32_t notify_xy = mb->launch.notify_xy;
	uint32_t notify_addr = mb->launch.notify_addr;
	uint32_t flags = mb->launch.flags;
	uint32_t wait_mask = mb->launch.wait_mask;

	mb->done.ret = ret;
	mb->done.runs = mb->done.runs + 1;
	/* seq last: it tells the host that ret and runs are final. */
	mmio_barrier();
	mb->done.seq = running_seq;
	notify_launcher(notify_xy, notify_addr, wait_mask);
	if (!(flags & TT_LAUNCH_F_NO_IRQ))
		hart_host_irq();
	next_launch();
}

int main(void)
{
	volatile struct tt_mailbox *mb = MAILBOX;
	uint32_t self = hart_self();

	mb->fw_state = 0;
	mb->hart = self;
	/* Loaded for another hart: running on would answer its launches
	 * from the wrong stack and region. Halt where the host sees it. */
	if (self != TT_FW_HART)
		hart_halt();
	hart_set_wake_at(0);
	node_id = mmio_read32(TT_REG_TILE_CTRL_ADDR + TT_TILE_NODE_ID);
	mb->fw_version = TT_FW_CORE_VERSION;
	mb->done.ret = 0;
	mb->done.runs = 0;
	/* Whatever is there counts as done: only a new seq starts a run. */
	mb->done.seq = *LAUNCH_SEQ;
	mmio_barrier();
	mb->fw_state = TT_FW_READY;
	next_launch();
}
