// SPDX-License-Identifier: Apache-2.0
/*
 * Reports of misused kernel API calls (the error protocol of
 * kernel_api/base.h), and the semaphore waits.
 */
#include "kinternal.h"

#include "debug/assert.h"
#include "kernel_api/accessor.h"
#include "kernel_api/args.h"
#include "kernel_api/sem.h"

void ttk_assert_fail(const char *cond, const char *file, unsigned line)
{
	ttk_fatal("assert failed: %s at %s:%u", cond, file, line);
}

void ttk_arg_fail(uint32_t i, bool common)
{
	ttk_fatal("%s %u out of range: the kernel has %u",
		  common ? "common runtime argument" : "runtime argument",
		  (unsigned)i,
		  (unsigned)ttk_arg_count(common));
}

void ttk_ct_arg_fail(uint32_t i, uint32_t count)
{
	ttk_fatal("compile-time argument %u out of range: the kernel has %u",
		  (unsigned)i, (unsigned)count);
}

void ttk_bank_fail(uint32_t bank, bool is_dram)
{
	uint32_t n = ttk_bank_count(is_dram);

	if (!n)
		ttk_fatal("no %s banks in the bank table at 0x%x",
			  is_dram ? "DRAM" : "L1", (unsigned)TT_L1_BANKS);
	ttk_fatal("%s bank %u out of range: the bank table has %u",
		  is_dram ? "DRAM" : "L1", (unsigned)bank, (unsigned)n);
}

void ttk_sem_fail(uint32_t id)
{
	ttk_fatal("semaphore %u out of range: a core has %u", (unsigned)id,
		  (unsigned)TT_SEM_COUNT);
}

/* Sleep on the word until it equals val (or reaches it, at_least). */
void ttk_sem_wait(volatile uint32_t *sem, uint32_t val, bool at_least)
{
	TTK_SET_WAYPOINT("NSW");
	for (;;) {
		uint32_t v = *sem;

		if (at_least ? v >= val : v == val)
			break;
		tt_wait_ne(sem, v);
	}
	TTK_SET_WAYPOINT("NSD");
}

void ttk_ta_args_fail(uint32_t kind, uint32_t off, uint32_t count,
		      uint32_t header)
{
	static const char *const from[] = { "compile-time", "runtime",
					    "common runtime" };

	if (kind == 3)
		ttk_fatal("TensorAccessor: its TensorAccessorArgs were never set");
	if (kind == 4)
		ttk_fatal("TensorAccessor: the accessor args give an empty shard");
	if (off >= count)
		ttk_fatal("TensorAccessorArgs: %s argument %u out of range: the kernel has %u",
			  from[kind], (unsigned)off, (unsigned)count);
	if (!TT_TA_IS_HEADER(header))
		ttk_fatal("TensorAccessorArgs: %s argument %u is 0x%x, not the first word of tt_tensor_accessor_args_append",
			  from[kind], (unsigned)off, (unsigned)header);
	ttk_fatal("TensorAccessorArgs: %s arguments from %u are not tensor accessor words of a whole buffer (header 0x%x, the kernel has %u arguments)",
		  from[kind], (unsigned)off, (unsigned)header,
		  (unsigned)count);
}

void ttk_ta_page_fail(uint32_t id, uint32_t n, bool shard)
{
	ttk_fatal("TensorAccessor: %s %u out of range: the sharded buffer has %u",
		  shard ? "shard" : "page", (unsigned)id, (unsigned)n);
}

void ttk_ta_not_sharded(void)
{
	ttk_fatal("TensorAccessor: shard calls need a sharded buffer; this one is interleaved");
}
