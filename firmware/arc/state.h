/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the management firmware knows and has decided, shared by its parts.
 * One hart, no interrupts: nothing here needs locking.
 */
#ifndef TT_ARC_STATE_H
#define TT_ARC_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/flash.h"
#include "sensors.h"

#define FAN_AUTO 0xFFFFFFFFu /* FORCE_FAN_SPEED argument: the policy decides */

struct arc_state {
	/* From the flash (boot.c). */
	struct tt_board_info board;
	uint32_t bundle_version;
	uint32_t core_version;

	/* Policy inputs (messages) and outputs (power.c). */
	bool busy; /* power state: busy clocks, else idle clocks */
	uint32_t forced_aiclk; /* MHz, 0 = none */
	uint32_t forced_fan; /* percent, or FAN_AUTO */
	uint32_t asic_state; /* 0 = A0, 3 = A3 */
	bool throttled; /* the ASIC is too hot: AICLK held at its minimum */
	bool over_shutdown; /* above the shutdown limit at the last tick */
	uint32_t therm_trips; /* times the shutdown limit was passed */
	uint32_t aiclk; /* MHz, as written to the clock register */
	uint32_t fan_duty; /* percent, as written */

	uint32_t wdt_ms; /* watchdog timeout, 0 = off (watchdog.c) */

	struct arc_sensors sens; /* the last reading */
	uint32_t heartbeat; /* telemetry refreshes so far */
};

extern struct arc_state arc;

#endif /* TT_ARC_STATE_H */
