// SPDX-License-Identifier: Apache-2.0
#include "sensors.h"

#include "hw/telemetry.h"
#include "regs.h"

void sensors_read(struct arc_sensors *s)
{
	s->asic_temp = (int32_t)sens_read(TT_SENS_ASIC_TEMP);
	s->inlet_temp = (int32_t)sens_read(TT_SENS_INLET_TEMP);
	s->outlet_temp = (int32_t)sens_read(TT_SENS_OUTLET_TEMP);
	s->vreg_temp = (int32_t)sens_read(TT_SENS_VREG_TEMP);
	s->vcore_mv = sens_read(TT_SENS_VCORE);
	s->current_ma = sens_read(TT_SENS_CURRENT);
	s->power_mw = sens_read(TT_SENS_POWER);
	s->fan_rpm = sens_read(TT_SENS_FAN_RPM);
}

int32_t temp_fx(uint32_t degc)
{
	/* Limits are unsigned: the largest must not wrap to negative. */
	return tt_telem_s16_16_of_whole(degc > 0x7FFF ? 0x7FFF :
							(int32_t)degc);
}
