/* SPDX-License-Identifier: Apache-2.0 */
/* The telemetry table in CSM (hw/telemetry.h). */
#ifndef TT_ARC_TELEMETRY_H
#define TT_ARC_TELEMETRY_H

#include <stdbool.h>

/* Refresh period, also published as UPDATE_TELEM_SPEED. */
#define TELEM_PERIOD_MS 100

/* Write the table with every tag and its current value, then publish its
 * address. Needs arc fully set up. */
void telem_init(void);

/* Rewrite every value from arc (and count a heartbeat if beat). */
void telem_update(bool beat);

#endif /* TT_ARC_TELEMETRY_H */
