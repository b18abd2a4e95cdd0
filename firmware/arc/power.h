/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Power and thermal policy: which AICLK and fan duty the chip runs at.
 *
 * AICLK: aiclk_min while the ASIC is throttled (hotter than
 * thm_limit_throttle, until it cools 5 degC below it); else the forced
 * clock if FORCE_AICLK set one; else aiclk_max in the busy power state and
 * aiclk_min in the idle one (the state after boot).
 * Fan: the forced duty, or 30% at 40 degC rising linearly to 100% at
 * thm_limit_throttle.
 */
#ifndef TT_ARC_POWER_H
#define TT_ARC_POWER_H

#include <stdbool.h>
#include <stdint.h>

/* Boot: fixed clocks from the board info, the idle state, the fan on its
 * policy. Needs arc.board and arc.sens. */
void power_init(void);

/* After a sensor reading: throttling, trip count, fan; applies them. */
void power_tick(void);

/* Write the clock and fan the policy now asks for, if they changed. */
void power_apply(void);

/* Policy inputs, from messages. They return false for an argument out of
 * range and change nothing then. */
bool power_force_aiclk(uint32_t mhz); /* 0 = back to the policy */
void power_set_busy(bool busy);
bool power_force_fan(uint32_t percent); /* FAN_AUTO = back to the policy */

#endif /* TT_ARC_POWER_H */
