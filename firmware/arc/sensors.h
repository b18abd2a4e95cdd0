/* SPDX-License-Identifier: Apache-2.0 */
/* One reading of the sensors page (hw/arc.h). */
#ifndef TT_ARC_SENSORS_H
#define TT_ARC_SENSORS_H

#include <stdint.h>

struct arc_sensors {
	int32_t asic_temp; /* s16.16 degC */
	int32_t inlet_temp; /* s16.16 degC, board inlet air (ambient) */
	int32_t outlet_temp; /* s16.16 degC, board outlet air */
	int32_t vreg_temp; /* s16.16 degC */
	uint32_t vcore_mv;
	uint32_t current_ma;
	uint32_t power_mw;
	uint32_t fan_rpm;
};

/* Read every sensor once (the model refreshes the page on these reads). */
void sensors_read(struct arc_sensors *s);

/* Whole degrees as s16.16, saturated to the s16.16 range
 * (tt_telem_s16_16_of_whole(), hw/telemetry.h). */
int32_t temp_fx(uint32_t degc);

#endif /* TT_ARC_SENSORS_H */
