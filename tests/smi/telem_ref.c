// SPDX-License-Identifier: Apache-2.0
/*
 * What libtt reads from device N (default 0), as JSON with tt-smi's
 * snapshot keys (and card_type, the card the board id names, which the VM
 * tests compare with the driver's): the tt-smi tests compare the two. Static values only need
 * to be equal; readings are compared with a tolerance.
 *
 * "snapshot" holds, under tt-smi's section and key names, every number
 * and state a snapshot's device entry shows (null where the firmware does
 * not publish it), read independently of tt-smi: the device's
 * information, the health (core problems), every telemetry field with
 * its full precision, firmware versions and limits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/card.h"
#include "tt.h"

static void version(const char *key, uint32_t v, int last)
{
	char buf[24];

	if (v)
		printf("  \"%s\": \"%s\"", key, tt_fw_version_str(v, buf, sizeof(buf)));
	else
		printf("  \"%s\": null", key);
	printf("%s\n", last ? "" : ",");
}

/* A telemetry number, or null if the table does not publish it. */
static void num(const struct tt_telemetry *t, const char *key, int field,
		double v, const char *sep)
{
	if (TT_TELEM_HAS(t, field))
		printf("      \"%s\": %.17g%s\n", key, v, sep);
	else
		printf("      \"%s\": null%s\n", key, sep);
}

static void fw(const struct tt_telemetry *t, const char *key, int field,
	       uint32_t v, const char *sep)
{
	char buf[24];

	if (TT_TELEM_HAS(t, field) && v)
		printf("      \"%s\": \"%s\"%s\n", key,
		       tt_fw_version_str(v, buf, sizeof(buf)), sep);
	else
		printf("      \"%s\": null%s\n", key, sep);
}

static void snapshot(tt_device *dev, const struct tt_telemetry *t)
{
	const struct tt_device_info *i = tt_device_get_info(dev);
	struct tt_core_problem pr[64];
	int np = tt_device_core_problems(dev, pr, 64);

	printf("  \"snapshot\": {\n");
	printf("    \"index\": %u,\n    \"transport\": \"%s\",\n",
	       i->index, i->transport);
	printf("    \"name\": \"%s\",\n", i->name);
	printf("    \"health\": \"%s\",\n",
	       np < 0 ? "error" : np ? "degraded" : "ok");
	printf("    \"cores_needing_recovery\": %d,\n", np < 0 ? 0 : np);
	printf("    \"board_info\": {\n");
	printf("      \"board_type\": \"%s\",\n", i->board);
	if (TT_TELEM_HAS(t, TT_TELEM_F_BOARD_ID))
		printf("      \"board_id\": \"%016llx\",\n",
		       (unsigned long long)t->board_id);
	else
		printf("      \"board_id\": null,\n");
	printf("      \"arch\": \"%s\",\n      \"chip\": %u,\n",
	       i->arch_name, i->chip);
	printf("      \"tensix_cores\": %u,\n      \"dram_channels\": %u,\n",
	       i->tensix_count, i->dram_channels);
	printf("      \"dram_bytes\": %llu\n    },\n",
	       (unsigned long long)i->dram_size);
	printf("    \"telemetry\": {\n");
	num(t, "voltage_v", TT_TELEM_F_VCORE, t->vcore_v, ",");
	num(t, "current_a", TT_TELEM_F_CURRENT, t->current_a, ",");
	num(t, "power_w", TT_TELEM_F_POWER, t->power_w, ",");
	num(t, "board_power_w", TT_TELEM_F_INPUT_POWER, t->input_power_w, ",");
	num(t, "aiclk_mhz", TT_TELEM_F_AICLK, t->aiclk_mhz, ",");
	num(t, "arcclk_mhz", TT_TELEM_F_ARCCLK, t->arcclk_mhz, ",");
	num(t, "axiclk_mhz", TT_TELEM_F_AXICLK, t->axiclk_mhz, ",");
	num(t, "asic_temperature_c", TT_TELEM_F_ASIC_TEMP, t->asic_temp_c, ",");
	num(t, "vreg_temperature_c", TT_TELEM_F_VREG_TEMP, t->vreg_temp_c, ",");
	num(t, "inlet_temperature_c", TT_TELEM_F_BOARD_TEMP, t->board_temp_c,
	    ",");
	num(t, "outlet_temperature_c", TT_TELEM_F_OUTLET_TEMP, t->outlet_temp_c,
	    ",");
	num(t, "fan_speed_rpm", TT_TELEM_F_FAN_RPM, t->fan_rpm, ",");
	num(t, "fan_percent", TT_TELEM_F_FAN_PERCENT, t->fan_percent, ",");
	num(t, "heartbeat", TT_TELEM_F_HEARTBEAT, t->heartbeat, ",");
	if (TT_TELEM_HAS(t, TT_TELEM_F_THROTTLED))
		printf("      \"throttled\": %s\n    },\n",
		       t->throttled ? "true" : "false");
	else
		printf("      \"throttled\": null\n    },\n");
	printf("    \"firmwares\": {\n");
	fw(t, "fw_bundle_version", TT_TELEM_F_FW_BUNDLE, t->fw_bundle, ",");
	fw(t, "tt_flash_version", TT_TELEM_F_FW_TT_FLASH, t->fw_tt_flash, ",");
	fw(t, "cm_fw", TT_TELEM_F_FW_CM, t->fw_cm, ",");
	fw(t, "core_fw", TT_TELEM_F_FW_CORE, t->fw_core, ",");
	fw(t, "eth_fw", TT_TELEM_F_FW_ETH, t->fw_eth, ",");
	fw(t, "dm_bl_fw", TT_TELEM_F_FW_DM_BL, t->fw_dm_bl, ",");
	fw(t, "dm_app_fw", TT_TELEM_F_FW_DM_APP, t->fw_dm_app, "");
	printf("    },\n    \"limits\": {\n");
	num(t, "vdd_min_v", TT_TELEM_F_VDD_LIMITS, t->vdd_min_v, ",");
	num(t, "vdd_max_v", TT_TELEM_F_VDD_LIMITS, t->vdd_max_v, ",");
	num(t, "tdp_limit_w", TT_TELEM_F_TDP_LIMIT, t->tdp_limit_w, ",");
	num(t, "tdc_limit_a", TT_TELEM_F_TDC_LIMIT, t->tdc_limit_a, ",");
	num(t, "asic_fmax_mhz", TT_TELEM_F_AICLK_MAX, t->aiclk_max_mhz, ",");
	num(t, "thm_limit_c", TT_TELEM_F_THM_LIMIT_THROTTLE,
	    t->thm_limit_throttle_c, ",");
	num(t, "therm_trip_c", TT_TELEM_F_THM_LIMIT_SHUTDOWN,
	    t->thm_limit_shutdown_c, ",");
	num(t, "board_power_limit_w", TT_TELEM_F_BOARD_POWER_LIMIT,
	    t->board_power_limit_w, "");
	printf("    }\n  },\n");
}

int main(int argc, char **argv)
{
	unsigned index = argc > 1 ? (unsigned)atoi(argv[1]) : 0;
	struct tt_mgmt_board_info b;
	struct tt_telemetry t;
	tt_device *dev;

	if (tt_device_open(index, &dev) || tt_mgmt_wait_ready(dev, 5000) ||
	    tt_mgmt_board_info(dev, &b) || tt_telemetry_read(dev, &t)) {
		fprintf(stderr, "telem_ref: %s\n", tt_last_error());
		return 1;
	}
	printf("{\n");
	snapshot(dev, &t);
	printf("  \"board_id\": \"%016llx\",\n", (unsigned long long)b.board_id);
	printf("  \"board_type\": \"%s\",\n", tt_device_get_info(dev)->board);
	/* The card type the board id encodes, as tt-kmd names it. */
	printf("  \"card_type\": \"%s\",\n",
	       tt_hw_card_name(tt_hw_card_type((uint32_t)(b.board_id >> 32))));
	printf("  \"voltage_v\": %.4f,\n  \"aiclk_mhz\": %.1f,\n", t.vcore_v, t.aiclk_mhz);
	printf("  \"arcclk_mhz\": %.1f,\n  \"axiclk_mhz\": %.1f,\n", t.arcclk_mhz, t.axiclk_mhz);
	printf("  \"inlet_temperature_c\": %.3f,\n", t.board_temp_c);
	printf("  \"vdd_min_v\": %.3f,\n  \"vdd_max_v\": %.3f,\n", t.vdd_min_v, t.vdd_max_v);
	printf("  \"tdp_limit_w\": %.3f,\n  \"tdc_limit_a\": %.3f,\n", t.tdp_limit_w, t.tdc_limit_a);
	printf("  \"asic_fmax_mhz\": %.3f,\n  \"thm_limit_c\": %.3f,\n", t.aiclk_max_mhz, t.thm_limit_throttle_c);
	printf("  \"therm_trip_c\": %.3f,\n  \"board_power_limit_w\": %.3f,\n", t.thm_limit_shutdown_c, t.board_power_limit_w);
	printf("  \"heartbeat\": %u,\n", (unsigned)t.heartbeat);
	version("fw_bundle_version", t.fw_bundle, 0);
	version("cm_fw", t.fw_cm, 0);
	version("core_fw", t.fw_core, 0);
	version("dm_app_fw", t.fw_dm_app, 0);
	version("dm_bl_fw", t.fw_dm_bl, 0);
	version("tt_flash_version", t.fw_tt_flash, 1);
	printf("}\n");
	tt_device_close(dev);
	return 0;
}
