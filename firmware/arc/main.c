// SPDX-License-Identifier: Apache-2.0
/*
 * The management firmware: boot, then one loop that sleeps in tt.waitne
 * on the doorbell register until the host rings or the next telemetry
 * tick (or watchdog pet) is due. It never spins: an idle chip costs the
 * host a few wake-ups per second. Writes to this node's register pages
 * wake the hart itself, so the loop makes none on a pass that has nothing
 * to do.
 */
#include <stdbool.h>
#include <stdint.h>

#include "hw/arc.h"
#include "fw/hart.h"
#include "fw/wait.h"
#include "boot.h"
#include "msgq.h"
#include "power.h"
#include "regs.h"
#include "sensors.h"
#include "state.h"
#include "telemetry.h"
#include "watchdog.h"
#include "fw_version.h"

#define TICK_US (TELEM_PERIOD_MS * 1000ull)

struct arc_state arc;

/* Nothing a previous boot published may be trusted until this one
 * publishes it again. */
static void scratch_reset(void)
{
	scratch_ram_write(TT_ARC_SR_BOOT_STATUS, 0);
	scratch_ram_write(TT_ARC_SR_ERROR_STATUS, TT_ARC_BOOT_OK);
	scratch_ram_write(TT_ARC_SR_MSGQ_INFO, 0);
	scratch_ram_write(TT_ARC_SR_TELEM_DATA, 0);
	scratch_ram_write(TT_ARC_SR_TELEM_TABLE, 0);
	scratch_ram_write(TT_ARC_SR_FW_VERSION, TT_FW_ARC_VERSION);
}

/* What WAKE_AT holds (0 after boot). */
static uint64_t wake_at_set;

/*
 * Sleep while the doorbell register holds `seen`, until `wake_at` at the
 * latest. A write to the hart page is an event on this node, and an event
 * ends the next wait at once: WAKE_AT is written only when it changes, so
 * the loop sleeps on the second pass after a new deadline at the latest.
 * After boot nothing else on this hart waits, so WAKE_AT may stay set.
 */
static void sleep_until(uint32_t seen, uint64_t wake_at)
{
	volatile uint32_t *doorbell = mmio_ptr(reset_reg(TT_ARC_MISC_CNTL));

	if (wake_at != wake_at_set) {
		hart_set_wake_at(wake_at);
		wake_at_set = wake_at;
	}
	if (*doorbell == seen)
		tt_wait_ne(doorbell, seen);
}

/* Answered, the host told: now reset the whole chip. The model reloads
 * this firmware; until it does, there is nothing to do. */
static __attribute__((noreturn)) void chip_reset(void)
{
	reset_write(TT_ARC_CHIP_RESET, TT_ARC_CHIP_RESET_KEY);
	hart_sleep_forever();
}

static void tick(void)
{
	sensors_read(&arc.sens);
	power_tick();
	telem_update(true);
}

static void serve(void)
{
	bool reset;

	if (!msgq_serve(&reset))
		return;
	/* Messages may have changed clocks, fan or states. */
	telem_update(false);
	hart_host_irq();
	if (reset)
		chip_reset();
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static __attribute__((noreturn)) void run(void)
{
	uint64_t next_tick = hart_time_us() + TICK_US;

	for (;;) {
		uint64_t now;
		uint32_t seen;

		seen = msgq_doorbell_ack();
		now = hart_time_us();
		wdt_tick(now);
		if (now >= next_tick) {
			tick();
			next_tick += TICK_US;
			/* After a long stall, resume the rhythm rather than
			 * catch up with a burst of ticks. */
			if (next_tick <= now)
				next_tick = now + TICK_US;
		}
		/* Every pass, doorbell or not: a host may not have rung. */
		serve();
		sleep_until(seen, min64(next_tick, wdt_next_pet()));
	}
}

int main(void)
{
	post(TT_ARC_POST_START);
	scratch_reset();
	hart_set_wake_at(0);
	wdt_init(hart_time_us());

	boot();
	wdt_tick(hart_time_us());

	sensors_read(&arc.sens);
	power_init();
	telem_init();
	post(TT_ARC_POST_TELEMETRY);
	msgq_init();
	post(TT_ARC_POST_MSGQ);
	post(TT_ARC_POST_READY);
	run();
}
