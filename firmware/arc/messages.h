/* SPDX-License-Identifier: Apache-2.0 */
/* What each message does (codes and arguments in hw/msgq.h). */
#ifndef TT_ARC_MESSAGES_H
#define TT_ARC_MESSAGES_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/msgq.h"

struct msg_ctx {
	uint32_t serial; /* the queue's last_serial, this message counted */
	bool reset; /* TRIGGER_RESET: reset the chip once answered */
};

/* Handle req and fill rsp (zeroed by the caller), word 0 included. */
void msg_handle(const struct tt_msg *req, struct tt_msg *rsp,
		struct msg_ctx *ctx);

#endif /* TT_ARC_MESSAGES_H */
