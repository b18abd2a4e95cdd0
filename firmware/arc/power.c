// SPDX-License-Identifier: Apache-2.0
#include "power.h"

#include "regs.h"
#include "sensors.h"
#include "state.h"

#define THROTTLE_HYSTERESIS 5 /* degC below the limit to unthrottle */
#define FAN_MIN_DUTY 30 /* percent, at and below FAN_MIN_TEMP */
#define FAN_MIN_TEMP 40 /* degC */
#define FAN_MAX_DUTY 100

static uint32_t target_aiclk(void)
{
	if (arc.throttled)
		return arc.board.aiclk_min;
	if (arc.forced_aiclk)
		return arc.forced_aiclk;
	return arc.busy ? arc.board.aiclk_max : arc.board.aiclk_min;
}

static uint32_t auto_fan(int32_t temp)
{
	int32_t lo = temp_fx(FAN_MIN_TEMP);
	int32_t hi = temp_fx(arc.board.thm_limit_throttle);
	uint32_t num, span;

	if (temp <= lo)
		return FAN_MIN_DUTY;
	if (temp >= hi)
		return FAN_MAX_DUTY;
	/* lo < temp < hi. In 1/256 degC so that the product fits 32 bits. */
	num = (uint32_t)(temp - lo) >> 8;
	span = (uint32_t)(hi - lo) >> 8;
	if (span == 0)
		return FAN_MAX_DUTY;
	return FAN_MIN_DUTY + (FAN_MAX_DUTY - FAN_MIN_DUTY) * num / span;
}

static uint32_t target_fan(void)
{
	if (arc.forced_fan != FAN_AUTO)
		return arc.forced_fan;
	return auto_fan(arc.sens.asic_temp);
}

void power_apply(void)
{
	uint32_t aiclk = target_aiclk(), fan = target_fan();

	if (aiclk != arc.aiclk) {
		sens_write(TT_SENS_AICLK, aiclk);
		arc.aiclk = aiclk;
	}
	if (fan != arc.fan_duty) {
		sens_write(TT_SENS_FAN_DUTY, fan);
		arc.fan_duty = fan;
	}
}

void power_init(void)
{
	sens_write(TT_SENS_AXICLK, arc.board.axiclk);
	sens_write(TT_SENS_ARCCLK, arc.board.arcclk);
	arc.busy = false;
	arc.forced_aiclk = 0;
	arc.forced_fan = FAN_AUTO;
	/* Impossible values, so that power_apply() writes both. */
	arc.aiclk = 0;
	arc.fan_duty = FAN_AUTO;
	power_tick();
}

/* The limit with hysteresis: on above it, off only 5 degC below it. */
static bool over_limit(bool was, int32_t temp, uint32_t limit)
{
	int32_t on = temp_fx(limit);

	if (temp > on)
		return true;
	return was && temp >= on - temp_fx(THROTTLE_HYSTERESIS);
}

void power_tick(void)
{
	int32_t t = arc.sens.asic_temp;
	bool over = over_limit(arc.over_shutdown, t,
			       arc.board.thm_limit_shutdown);

	if (over && !arc.over_shutdown)
		arc.therm_trips++;
	arc.over_shutdown = over;
	arc.throttled = over_limit(arc.throttled, t,
				   arc.board.thm_limit_throttle);
	power_apply();
}

bool power_force_aiclk(uint32_t mhz)
{
	if (mhz && (mhz < arc.board.aiclk_min || mhz > arc.board.aiclk_max))
		return false;
	arc.forced_aiclk = mhz;
	power_apply();
	return true;
}

void power_set_busy(bool busy)
{
	arc.busy = busy;
	power_apply();
}

bool power_force_fan(uint32_t percent)
{
	if (percent != FAN_AUTO && percent > FAN_MAX_DUTY)
		return false;
	arc.forced_fan = percent;
	power_apply();
	return true;
}
