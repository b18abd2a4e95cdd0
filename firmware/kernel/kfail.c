// SPDX-License-Identifier: Apache-2.0
/*
 * Reports of misused kernel API calls (the error protocol of
 * kernel_api/base.h), and the semaphore waits.
 */
#include "kinternal.h"

#include "debug/assert.h"
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
