/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Chip-level hardware of the model: the boot ROM, chip reset, the
 * management watchdog, sensors and clocks, and the dispatch of node
 * events to the harts (scheduler.h). The policy on top (what to boot, when to
 * throttle) is firmware's.
 */
#ifndef TT_SIM_CHIP_H
#define TT_SIM_CHIP_H

#include "hw/arc.h"

struct sim_device;

/* Bring the chip up as after power-on: flash from the firmware bundle,
 * boot ROM, the management hart released. */
void sim_chip_power_on(struct sim_device *dev);

/* Reset the whole chip (every hart, the management firmware restarted). */
void sim_chip_reset(struct sim_device *dev, enum tt_arc_reset_cause cause);

/* Handle what the engine found: node events and the watchdog. */
void sim_chip_node_event(struct sim_device *dev, unsigned node_index);
/* A node's own hart changed its control registers: no one is woken. */
void sim_chip_node_control(struct sim_device *dev, unsigned node_index);
void sim_chip_poll(struct sim_device *dev);

/* Recompute the sensors page from the power model (ARC reads it). */
void sim_chip_refresh_sensors(struct sim_device *dev);

#endif /* TT_SIM_CHIP_H */
