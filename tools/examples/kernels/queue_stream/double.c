// SPDX-License-Identifier: Apache-2.0
/*
 * A resident streaming kernel: for each of `count` entries, wait for an
 * input entry and a free output slot, read the entry into L1, double
 * every bfloat16 value, write the result to the output slot, then pop
 * the input and push the output.
 *
 * Doubling a bfloat16 is adding one to its exponent (bits 7..14): zero
 * and subnormals (exponent 0) stay as they are; values whose double
 * would overflow (exponent 0xFE and up) are left alone too.
 *
 * Runtime args: input queue (TT_TQ_ARGS words), output queue (the
 * same), count, scratch (L1 address, one entry), entry bytes.
 */
#include "dataflow_api.h"

static uint32_t double_half(uint32_t h)
{
	uint32_t e = (h >> 7) & 0xFF;

	return e && e < 0xFE ? h + 0x80 : h;
}

static void double_bf16(volatile uint32_t *w, uint32_t words)
{
	for (uint32_t i = 0; i < words; i++) {
		uint32_t v = w[i];

		w[i] = double_half(v & 0xFFFF) | double_half(v >> 16) << 16;
	}
}

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
			break; /* broken: stop, the host knows why */
		noc_async_read(tq_entry_addr(&in), scratch, bytes);
		noc_async_read_barrier();
		tq_pop(&in);
		double_bf16((volatile uint32_t *)(uintptr_t)scratch, bytes / 4);
		noc_async_write(scratch, tq_free_addr(&out), bytes);
		tq_push(&out);
	}
	tq_close(&in);
	tq_close(&out);
}
