// SPDX-License-Identifier: Apache-2.0
#include "sensors.h"

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

int32_t temp_whole(int32_t fx)
{
	/* Arithmetic shift: rounds towards minus infinity after adding a
	 * half, so -2.5 becomes -2 and 2.5 becomes 3. Done in 64 bits so
	 * the largest readings cannot overflow. */
	return (int32_t)(((int64_t)fx + 0x8000) >> 16);
}

int32_t temp_fx(uint32_t degc)
{
	return degc > 0x7FFF ? 0x7FFF0000 : (int32_t)(degc << 16);
}
