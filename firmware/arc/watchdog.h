/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The chip watchdog (TT_ARC_WDT_*): armed by the host, petted by the main
 * loop twice per period.
 *
 * Not on every pass of the loop: a write to the reset unit is an event on
 * this node, and an event ends the hart's next wait at once, so a pet on
 * every pass would keep the loop from ever sleeping.
 */
#ifndef TT_ARC_WATCHDOG_H
#define TT_ARC_WATCHDOG_H

#include <stdint.h>

/* Boot: take over whatever timeout the hardware has, and pet. */
void wdt_init(uint64_t now);

/* Pet if half a period has passed since the last pet. */
void wdt_tick(uint64_t now);

/* New timeout in ms, 0 = off; restarts the period. */
void wdt_set_timeout(uint32_t ms);

/* When the next pet is due; UINT64_MAX while the watchdog is off. */
uint64_t wdt_next_pet(void);

#endif /* TT_ARC_WATCHDOG_H */
