/* SPDX-License-Identifier: Apache-2.0 */
/* The host message queues in CSM (hw/msgq.h) and their doorbell. */
#ifndef TT_ARC_MSGQ_H
#define TT_ARC_MSGQ_H

#include <stdbool.h>
#include <stdint.h>

/* Clear the queues, publish them and mark them ready (BOOT_STATUS). */
void msgq_init(void);

/* Clear the doorbell if it rang. Returns the TT_ARC_MISC_CNTL value the
 * firmware may sleep on: any later ring changes it. */
uint32_t msgq_doorbell_ack(void);

/* Serve every queue in order, each at most one ring's worth (so a busy
 * host cannot starve the rest of the loop; anything it adds later rings
 * the doorbell again). Returns the number of responses written; stops
 * after a TRIGGER_RESET and sets *reset. */
unsigned msgq_serve(bool *reset);

#endif /* TT_ARC_MSGQ_H */
