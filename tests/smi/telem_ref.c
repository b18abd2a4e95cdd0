// SPDX-License-Identifier: Apache-2.0
/*
 * What libtt reads from device N (default 0), as JSON with tt-smi's
 * snapshot keys (and card_type, the card the board id names, which the VM
 * tests compare with the driver's): the tt-smi tests compare the two. Static values only need
 * to be equal; readings are compared with a tolerance.
 */
#include <stdio.h>
#include <stdlib.h>

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
	printf("{\n  \"board_id\": \"%016llx\",\n", (unsigned long long)b.board_id);
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
