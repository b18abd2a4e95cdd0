// SPDX-License-Identifier: Apache-2.0
#include "watchdog.h"

#include "fw/hart.h"
#include "regs.h"
#include "state.h"

/* Pets so far: each pet writes a new value. The contract asks only for a
 * write, but a model that sees registers as shared memory can notice a
 * write only by its value changing. */
static uint32_t pets;
static uint64_t last_pet; /* device time, us */

/* Half the period, in microseconds: two pets per period. */
static uint64_t half_period(void)
{
	return (uint64_t)arc.wdt_ms * 500;
}

static void pet(uint64_t now)
{
	reset_write(TT_ARC_WDT_PET, ++pets);
	last_pet = now;
}

void wdt_init(uint64_t now)
{
	arc.wdt_ms = reset_read(TT_ARC_WDT_TIMEOUT);
	pet(now);
}

void wdt_tick(uint64_t now)
{
	if (arc.wdt_ms && now - last_pet >= half_period())
		pet(now);
}

void wdt_set_timeout(uint32_t ms)
{
	/* Pet first, so a shorter period does not expire on the old one's
	 * elapsed time before the new one takes effect. */
	pet(hart_time_us());
	reset_write(TT_ARC_WDT_TIMEOUT, ms);
	arc.wdt_ms = ms;
	pet(hart_time_us());
}

uint64_t wdt_next_pet(void)
{
	return arc.wdt_ms ? last_pet + half_period() : UINT64_MAX;
}
