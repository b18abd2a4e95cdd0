// SPDX-License-Identifier: Apache-2.0
/*
 * The one program of embedded_backend's model: result = activations +
 * bias, element by element in bfloat16, for loop_count entries (the
 * run's $p_loop_count). Each loop waits for an entry of both inputs and a
 * free slot of the output, reads both entries into L1, adds them and
 * pushes the sum. Both inputs have the same tile layout, so adding the
 * tiled entries word by word adds matching elements.
 *
 * The sum is computed in float (the compiler's soft float: the data
 * movement harts have no FPU) and rounded to bfloat16 to nearest even,
 * as the host's tt_float_to_bf16 does.
 *
 * Runtime args: activations, bias and result queues (TT_TQ_ARGS words
 * each), loop_count, scratch (L1 address of two entries), entry bytes.
 */
#include "dataflow_api.h"

enum {
	A_LOOPS = 3 * TT_TQ_ARGS,
	A_SCRATCH,
	A_BYTES,
};

union bits {
	float f;
	uint32_t u;
};

static float from_bf16(uint32_t h)
{
	union bits b = {.u = h << 16};

	return b.f;
}

static uint32_t to_bf16(float f)
{
	union bits b = {.f = f};

	if ((b.u & 0x7FFFFFFFu) > 0x7F800000u)
		return 0x7FC0; /* NaN */
	return (b.u + 0x7FFFu + ((b.u >> 16) & 1)) >> 16;
}

/* x[i] += y[i] for the bfloat16 pairs of `words` words. */
static void add_bf16(volatile uint32_t *x, const volatile uint32_t *y,
		     uint32_t words)
{
	for (uint32_t i = 0; i < words; i++) {
		uint32_t a = x[i], b = y[i];
		uint32_t lo =
			to_bf16(from_bf16(a & 0xFFFF) + from_bf16(b & 0xFFFF));
		uint32_t hi = to_bf16(from_bf16(a >> 16) + from_bf16(b >> 16));

		x[i] = lo | hi << 16;
	}
}

void kernel_main(void)
{
	uint32_t loops = get_arg_val(A_LOOPS);
	uint32_t act = get_arg_val(A_SCRATCH);
	uint32_t bytes = get_arg_val(A_BYTES);
	uint32_t bias = act + bytes;
	tq_t in_act, in_bias, out;

	tq_open(&in_act, 0, TQ_CONSUMER);
	tq_open(&in_bias, TT_TQ_ARGS, TQ_CONSUMER);
	tq_open(&out, 2 * TT_TQ_ARGS, TQ_PRODUCER);
	for (uint32_t n = 0; n < loops; n++) {
		if (tq_wait_entry(&in_act, 0) || tq_wait_entry(&in_bias, 0) ||
		    tq_wait_free(&out, 0))
			break; /* broken: the host gave up */
		noc_async_read(tq_entry_addr(&in_act), act, bytes);
		noc_async_read(tq_entry_addr(&in_bias), bias, bytes);
		noc_async_read_barrier();
		tq_pop(&in_act);
		tq_pop(&in_bias);
		add_bf16((volatile uint32_t *)(uintptr_t)act,
			 (const volatile uint32_t *)(uintptr_t)bias, bytes / 4);
		noc_async_write(act, tq_free_addr(&out), bytes);
		tq_push(&out);
	}
	tq_close(&in_act);
	tq_close(&in_bias);
	tq_close(&out);
}
