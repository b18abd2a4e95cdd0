// SPDX-License-Identifier: Apache-2.0
#include "event.h"

#include "doorbell.h"

static bool has_harts(const struct tt_node_desc *n)
{
	return (n->type == TT_NODE_TENSIX || n->type == TT_NODE_ARC) &&
	       !(n->flags & TT_NODE_F_HARVESTED);
}

void sim_event_after_write(struct sim_image *img, const struct tt_node_desc *n,
			   bool always)
{
	void (*now)(void *, unsigned, bool);
	uint32_t *waiters;

	if (!has_harts(n))
		return;
	if (!always) {
		waiters = sim_reg32(sim_image_regs(img, n, TT_REG_HART),
				    TT_HART_WAITERS);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (!__atomic_load_n(waiters, __ATOMIC_RELAXED))
			return;
	}
	/* The ARC node's events may reset the chip, which waits for every
	 * hart to stop: only the engine may run them. */
	now = __atomic_load_n(&img->node_event, __ATOMIC_ACQUIRE);
	if (now && n->type == TT_NODE_TENSIX)
		now(img->node_event_arg, sim_image_node_index(img, n), always);
	else
		sim_event_ring(img->regs, sim_image_node_index(img, n));
}
