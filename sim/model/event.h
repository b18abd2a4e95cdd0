/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Node events: how a write to a node reaches the harts that wait there
 * (hw/hart.h, hw/host.h). Every writer other than the node's own harts
 * calls sim_event_after_write after changing the node. In the process
 * that runs the chip, events for Tensix nodes are handled at once, in the
 * writer's thread (img->node_event); otherwise the model's engine takes
 * them. Either way harts are woken, reset or restarted.
 */
#ifndef TT_SIM_EVENT_H
#define TT_SIM_EVENT_H

#include <stdbool.h>

#include "image.h"

/* Does a write to register page p need the model's attention even when no
 * hart waits (reset lines, hart control, the ARC reset unit)? */
static inline bool sim_event_page_always(enum tt_reg_page p)
{
	return p == TT_REG_TILE_CTRL || p == TT_REG_HART ||
	       p == TT_REG_ARC_RESET;
}

/*
 * Signal node n after a write. With `always` false the event is sent only
 * if a hart of n waits: the check of TT_HART_WAITERS follows the write
 * with a full barrier, pairing with the waiter's (see scheduler.c).
 */
void sim_event_after_write(struct sim_image *img, const struct tt_node_desc *n,
			   bool always);

#endif /* TT_SIM_EVENT_H */
