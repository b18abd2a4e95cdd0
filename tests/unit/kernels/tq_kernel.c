// SPDX-License-Identifier: Apache-2.0
/*
 * The device side of test_tensor_queue_device: one kernel, several
 * roles chosen by runtime argument 0.
 *
 * Args: mode, queue (TT_TQ_ARGS words), count, result (L1 address),
 * scratch (L1 address, one entry), timeout_us, entry bytes.
 * result[0] is the last tq_* status, result[1 + n] what entry n held (the
 * sum of its words) or was given.
 */
#include "dataflow_api.h"

enum { CONSUME = 1, PRODUCE = 2, PRODUCE_HALT = 3, BREAK = 4 };

#define A_COUNT (1 + TT_TQ_ARGS)

static void consume(tq_t *q, uint32_t n, volatile uint32_t *res,
		    uint32_t scratch, uint32_t tmo, uint32_t bytes)
{
	for (uint32_t e = 0; e < n; e++) {
		const volatile uint32_t *w =
			(const volatile uint32_t *)(uintptr_t)scratch;
		uint32_t sum = 0;
		int r = tq_wait_entry(q, tmo);

		res[0] = (uint32_t)r;
		if (r)
			return;
		noc_async_read(tq_entry_addr(q), scratch, bytes);
		noc_async_read_barrier();
		for (uint32_t i = 0; i < bytes / 4; i++)
			sum += w[i];
		res[1 + e] = sum;
		tq_pop(q);
	}
}

static void produce(tq_t *q, uint32_t n, volatile uint32_t *res,
		    uint32_t scratch, uint32_t tmo, uint32_t bytes)
{
	for (uint32_t e = 0; e < n; e++) {
		volatile uint32_t *w = (volatile uint32_t *)(uintptr_t)scratch;
		int r = tq_wait_free(q, tmo);

		res[0] = (uint32_t)r;
		if (r)
			return;
		for (uint32_t i = 0; i < bytes / 4; i++)
			w[i] = e * 1000003u + i;
		noc_async_write(scratch, tq_free_addr(q), bytes);
		tq_push(q);
		res[1 + e] = e;
	}
}

void kernel_main(void)
{
	uint32_t mode = get_arg_val(0), n = get_arg_val(A_COUNT);
	volatile uint32_t *res =
		(volatile uint32_t *)(uintptr_t)get_arg_val(A_COUNT + 1);
	uint32_t scratch = get_arg_val(A_COUNT + 2);
	uint32_t tmo = get_arg_val(A_COUNT + 3);
	uint32_t bytes = get_arg_val(A_COUNT + 4);
	tq_t q;

	tq_open(&q, 1,
		mode == CONSUME || mode == BREAK ? TQ_CONSUMER : TQ_PRODUCER);
	if (mode == CONSUME)
		consume(&q, n, res, scratch, tmo, bytes);
	else if (mode == BREAK)
		tq_break(&q);
	else
		produce(&q, n, res, scratch, tmo, bytes);
	if (mode == PRODUCE_HALT)
		__builtin_trap(); /* dies without closing, as a crash would */
	tq_close(&q);
}
