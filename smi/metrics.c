// SPDX-License-Identifier: Apache-2.0
/*
 * The telemetry quantities tt-smi shows, in the order of Tenstorrent tt-smi's
 * telemetry tab, each with its unit, its snapshot key and the limit it is
 * held against. One table serves the live display, the snapshot and the
 * dump, so they never disagree on a name or a unit.
 */
#include "smi.h"

#define GET(fn, member)                                                        \
	static double fn(const struct tt_telemetry *t)                         \
	{                                                                      \
		return t->member;                                              \
	}

GET(vcore, vcore_v)
GET(current, current_a)
GET(power, power_w)
GET(board_power, input_power_w)
GET(aiclk, aiclk_mhz)
GET(arcclk, arcclk_mhz)
GET(axiclk, axiclk_mhz)
GET(asic_temp, asic_temp_c)
GET(vreg_temp, vreg_temp_c)
GET(inlet_temp, board_temp_c)
GET(outlet_temp, outlet_temp_c)
GET(fan_rpm, fan_rpm)
GET(vdd_max, vdd_max_v)
GET(tdc_limit, tdc_limit_a)
GET(tdp_limit, tdp_limit_w)
GET(board_power_limit, board_power_limit_w)
GET(aiclk_max, aiclk_max_mhz)
GET(thm_throttle, thm_limit_throttle_c)

#define NO_LIMIT NULL, -1

const struct smi_metric smi_metrics[] = {
	{"Core Voltage", "V", "voltage_v", 2, TT_TELEM_F_VCORE, vcore, vdd_max,
	 TT_TELEM_F_VDD_LIMITS},
	{"Core Current", "A", "current_a", 1, TT_TELEM_F_CURRENT, current,
	 tdc_limit, TT_TELEM_F_TDC_LIMIT},
	{"Core Power", "W", "power_w", 1, TT_TELEM_F_POWER, power, tdp_limit,
	 TT_TELEM_F_TDP_LIMIT},
	{"Board Power", "W", "board_power_w", 1, TT_TELEM_F_INPUT_POWER,
	 board_power, board_power_limit, TT_TELEM_F_BOARD_POWER_LIMIT},
	{"AICLK", "MHz", "aiclk_mhz", 0, TT_TELEM_F_AICLK, aiclk, aiclk_max,
	 TT_TELEM_F_AICLK_MAX},
	{"ARCCLK", "MHz", "arcclk_mhz", 0, TT_TELEM_F_ARCCLK, arcclk, NO_LIMIT},
	{"AXICLK", "MHz", "axiclk_mhz", 0, TT_TELEM_F_AXICLK, axiclk, NO_LIMIT},
	{"Core Temp", "°C", "asic_temperature_c", 1, TT_TELEM_F_ASIC_TEMP,
	 asic_temp, thm_throttle, TT_TELEM_F_THM_LIMIT_THROTTLE},
	{"VREG Temp", "°C", "vreg_temperature_c", 1, TT_TELEM_F_VREG_TEMP,
	 vreg_temp, NO_LIMIT},
	{"Inlet Temp", "°C", "inlet_temperature_c", 1, TT_TELEM_F_BOARD_TEMP,
	 inlet_temp, NO_LIMIT},
	{"Outlet Temp", "°C", "outlet_temperature_c", 1, TT_TELEM_F_OUTLET_TEMP,
	 outlet_temp, NO_LIMIT},
	{"Fan Speed", "RPM", "fan_speed_rpm", 0, TT_TELEM_F_FAN_RPM, fan_rpm,
	 NO_LIMIT},
};

const unsigned smi_nmetrics = sizeof(smi_metrics) / sizeof(smi_metrics[0]);
