// SPDX-License-Identifier: Apache-2.0
/*
 * The device side of test_backend: one run of a program of the embedded
 * backend API (tt/backend.h). It takes loop_count entries of the input
 * queue, adds bias to every 32-bit word and pushes each result into the
 * output queue, as a model's program consumes one microbatch per loop.
 *
 * Runtime args: input queue (TT_TQ_ARGS words), output queue (the same),
 * loop_count ($p_loop_count), scratch (L1 address, one entry), entry
 * bytes, fault ($p_fault: non-zero halts the hart at once, as a crashing
 * kernel would). Common runtime arg 0: bias ($p_bias).
 */
#include "dataflow_api.h"

enum {
	A_LOOPS = 2 * TT_TQ_ARGS,
	A_SCRATCH,
	A_BYTES,
	A_FAULT,
};

static void add_bias(volatile uint32_t *w, uint32_t words, uint32_t bias)
{
	for (uint32_t i = 0; i < words; i++)
		w[i] += bias;
}

void kernel_main(void)
{
	uint32_t loops = get_arg_val(A_LOOPS);
	uint32_t scratch = get_arg_val(A_SCRATCH);
	uint32_t bytes = get_arg_val(A_BYTES);
	uint32_t bias = get_common_arg_val(0);
	tq_t in, out;

	if (get_arg_val(A_FAULT))
		__builtin_trap();
	tq_open(&in, 0, TQ_CONSUMER);
	tq_open(&out, TT_TQ_ARGS, TQ_PRODUCER);
	for (uint32_t n = 0; n < loops; n++) {
		if (tq_wait_entry(&in, 0) || tq_wait_free(&out, 0))
			break; /* broken: the host stopped us */
		noc_async_read(tq_entry_addr(&in), scratch, bytes);
		noc_async_read_barrier();
		tq_pop(&in);
		add_bias((volatile uint32_t *)(uintptr_t)scratch, bytes / 4,
			 bias);
		noc_async_write(scratch, tq_free_addr(&out), bytes);
		tq_push(&out);
	}
	tq_close(&in);
	tq_close(&out);
}
