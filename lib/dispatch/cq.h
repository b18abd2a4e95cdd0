/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Command queues (internal side of tt/queue.h).
 *
 * Dispatch is synchronous on the host: each enqueue does its work in the
 * caller's thread, in queue order, except that a program, once started,
 * runs on the device while the host goes on. Whatever must not overlap a
 * running program (another program, a buffer transfer, an event wait)
 * first waits for it. A program's failure is kept on its queue and
 * returned by the next call that waits.
 */
#ifndef TT_LIB_CQ_H
#define TT_LIB_CQ_H

#include "lib/device/internal.h"
#include "tt/queue.h"

struct tt_command_queue {
	struct tt_device *dev;
	unsigned id;
	uint64_t enqueued; /* commands so far; command n has number n */
	uint64_t completed; /* all commands up to this number are done */
	int error; /* of a command that failed asynchronously, until read */
	char error_msg[1024];
	unsigned timeout_ms;
};

struct tt_event {
	struct tt_command_queue *cq; /* NULL until recorded */
	uint64_t seq; /* completes when cq->completed reaches it */
};

TT_HIDDEN void tt_cq_destroy_all(struct tt_device *dev);

#endif /* TT_LIB_CQ_H */
