// SPDX-License-Identifier: Apache-2.0
/*
 * bench-queue's device stage: for each of `count` entries, copy the head
 * of the input queue to a free slot of the output queue through L1.
 *
 * Runtime args: input queue (TT_TQ_ARGS words), output queue (the
 * same), count, scratch (L1 address, one entry), entry bytes.
 */
#include "dataflow_api.h"

void kernel_main(void)
{
	uint32_t count = get_arg_val(2 * TT_TQ_ARGS);
	uint32_t scratch = get_arg_val(2 * TT_TQ_ARGS + 1);
	uint32_t bytes = get_arg_val(2 * TT_TQ_ARGS + 2);
	tq_t in, out;

	tq_open(&in, 0, TQ_CONSUMER);
	tq_open(&out, TT_TQ_ARGS, TQ_PRODUCER);
	for (uint32_t n = 0; n < count; n++) {
		if (tq_wait_entry(&in, 0) || tq_wait_free(&out, 0))
			break;
		noc_async_read(tq_entry_addr(&in), scratch, bytes);
		noc_async_read_barrier();
		tq_pop(&in);
		noc_async_write(scratch, tq_free_addr(&out), bytes);
		tq_push(&out);
	}
	tq_close(&in);
	tq_close(&out);
}
