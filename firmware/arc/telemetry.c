// SPDX-License-Identifier: Apache-2.0
/*
 * The table is fixed at build time: one entry per tag, the values packed
 * in entry order (offset = index, not the tag number, which readers must
 * not assume anyway). Every value is encoded by hw/telemetry.h's
 * tt_telem_enc_*(), in the form tt_telem_tag_enc() gives for its tag.
 */
#include "telemetry.h"

#include <stdint.h>

#include "hw/flash.h"
#include "hw/telemetry.h"
#include "fw/mmio.h"
#include "csm.h"
#include "regs.h"
#include "state.h"
#include "fw_version.h"

static const uint16_t telem_tags[] = {
	TT_TAG_BOARD_ID_HIGH,
	TT_TAG_BOARD_ID_LOW,
	TT_TAG_ASIC_ID,
	TT_TAG_HARVESTING_STATE,
	TT_TAG_UPDATE_TELEM_SPEED,
	TT_TAG_VCORE,
	TT_TAG_TDP,
	TT_TAG_TDC,
	TT_TAG_VDD_LIMITS,
	TT_TAG_THM_LIMIT_SHUTDOWN,
	TT_TAG_ASIC_TEMPERATURE,
	TT_TAG_VREG_TEMPERATURE,
	TT_TAG_BOARD_TEMPERATURE,
	TT_TAG_AICLK,
	TT_TAG_AXICLK,
	TT_TAG_ARCCLK,
	TT_TAG_ETH_FW_VERSION,
	TT_TAG_DM_APP_FW_VERSION,
	TT_TAG_DM_BL_FW_VERSION,
	TT_TAG_FLASH_BUNDLE_VERSION,
	TT_TAG_CM_FW_VERSION,
	TT_TAG_FAN_SPEED,
	TT_TAG_TIMER_HEARTBEAT,
	TT_TAG_TELEM_ENUM_COUNT,
	TT_TAG_ENABLED_TENSIX_COL,
	TT_TAG_INPUT_CURRENT,
	TT_TAG_FAN_RPM,
	TT_TAG_BOARD_POWER_LIMIT,
	TT_TAG_INPUT_POWER,
	TT_TAG_TDC_LIMIT_MAX,
	TT_TAG_THM_LIMIT_THROTTLE,
	TT_TAG_TT_FLASH_VERSION,
	TT_TAG_THERM_TRIP_COUNT,
	TT_TAG_ASIC_ID_HIGH,
	TT_TAG_ASIC_ID_LOW,
	TT_TAG_AICLK_LIMIT_MAX,
	TT_TAG_TDP_LIMIT_MAX,
	TT_TAG_THROTTLED,
	TT_TAG_CORE_FW_VERSION,
	TT_TAG_ASIC_STATE,
	TT_TAG_POWER_MW,
	TT_TAG_CURRENT_MA,
	TT_TAG_WDT_TIMEOUT,
	TT_TAG_OUTLET_TEMPERATURE,
};

#define TELEM_COUNT (sizeof(telem_tags) / sizeof(telem_tags[0]))

_Static_assert(TELEM_COUNT <= TT_TELEM_MAX_ENTRIES, "too many tags");
_Static_assert(CSM_TELEM_BASE + sizeof(struct tt_telem_table) +
			       8 * TELEM_COUNT <= CSM_TELEM_END,
	       "telemetry fits its CSM area");

/* Board input at 12 V: only the ASIC's power is modelled. */
#define INPUT_VOLTS 12

static volatile struct tt_telem_table *const table =
	(volatile struct tt_telem_table *)CSM_TELEM_BASE;

static volatile uint32_t *values(void)
{
	return (volatile uint32_t *)(CSM_TELEM_BASE +
				     sizeof(struct tt_telem_table) +
				     4 * TELEM_COUNT);
}

/*
 * Enabled Tensix columns, in logical order as Blackhole reports them. The
 * board info has no column map, so the column count comes from the card:
 * Blackhole harvests columns (bit per column in `harvesting`), Wormhole and
 * Grayskull harvest rows and keep every column.
 */
static uint32_t tensix_cols(void)
{
	switch (arc.board.card_type) {
	case TT_CARD_P150A:
		return ~arc.board.harvesting & 0x3FFF;
	case TT_CARD_N150:
	case TT_CARD_N300:
		return 0xFF;
	case TT_CARD_E150:
		return 0xFFF;
	default:
		return 0;
	}
}

static uint32_t telem_value(uint16_t tag)
{
	const struct tt_board_info *b = &arc.board;

	switch (tag) {
	case TT_TAG_BOARD_ID_HIGH:
		return b->board_id_hi;
	case TT_TAG_BOARD_ID_LOW:
		return b->board_id_lo;
	case TT_TAG_ASIC_ID:
		return b->asic_id_lo;
	case TT_TAG_HARVESTING_STATE:
		return b->harvesting;
	case TT_TAG_UPDATE_TELEM_SPEED:
		return TELEM_PERIOD_MS;
	case TT_TAG_VCORE:
		return arc.sens.vcore_mv;
	case TT_TAG_TDP:
	case TT_TAG_INPUT_POWER:
		return tt_telem_enc_whole_milli(arc.sens.power_mw);
	case TT_TAG_TDC:
		return tt_telem_enc_whole_milli(arc.sens.current_ma);
	case TT_TAG_VDD_LIMITS:
		return tt_telem_enc_vdd_limits(b->vdd_min, b->vdd_max);
	case TT_TAG_THM_LIMIT_SHUTDOWN:
		return b->thm_limit_shutdown;
	case TT_TAG_ASIC_TEMPERATURE:
		return tt_telem_enc_s16_16(arc.sens.asic_temp);
	case TT_TAG_VREG_TEMPERATURE:
		return tt_telem_enc_signed_s16_16(arc.sens.vreg_temp);
	case TT_TAG_BOARD_TEMPERATURE:
		return tt_telem_enc_signed_s16_16(arc.sens.inlet_temp);
	case TT_TAG_AICLK:
		return arc.aiclk;
	case TT_TAG_AXICLK:
		return b->axiclk;
	case TT_TAG_ARCCLK:
		return b->arcclk;
	case TT_TAG_ETH_FW_VERSION:
		return 0; /* no Ethernet firmware yet */
	case TT_TAG_DM_APP_FW_VERSION:
		return b->dm_app_fw_version;
	case TT_TAG_DM_BL_FW_VERSION:
		return b->dm_bl_fw_version;
	case TT_TAG_FLASH_BUNDLE_VERSION:
		return arc.bundle_version;
	case TT_TAG_CM_FW_VERSION:
		return TT_FW_ARC_VERSION;
	case TT_TAG_FAN_SPEED:
		return arc.fan_duty;
	case TT_TAG_TIMER_HEARTBEAT:
		return arc.heartbeat;
	case TT_TAG_TELEM_ENUM_COUNT:
		return TELEM_COUNT;
	case TT_TAG_ENABLED_TENSIX_COL:
		return tensix_cols();
	case TT_TAG_INPUT_CURRENT:
		return tt_telem_enc_whole_milli(arc.sens.power_mw / INPUT_VOLTS);
	case TT_TAG_FAN_RPM:
		return arc.sens.fan_rpm;
	case TT_TAG_BOARD_POWER_LIMIT:
		return b->board_power_limit;
	case TT_TAG_TDC_LIMIT_MAX:
		return b->tdc_limit;
	case TT_TAG_THM_LIMIT_THROTTLE:
		return b->thm_limit_throttle;
	case TT_TAG_TT_FLASH_VERSION:
		return b->flash_tool_version;
	case TT_TAG_THERM_TRIP_COUNT:
		return arc.therm_trips;
	case TT_TAG_ASIC_ID_HIGH:
		return b->asic_id_hi;
	case TT_TAG_ASIC_ID_LOW:
		return b->asic_id_lo;
	case TT_TAG_AICLK_LIMIT_MAX:
		return b->aiclk_max;
	case TT_TAG_TDP_LIMIT_MAX:
		return b->tdp_limit;
	case TT_TAG_THROTTLED:
		return arc.throttled;
	case TT_TAG_CORE_FW_VERSION:
		return arc.core_version;
	case TT_TAG_ASIC_STATE:
		return arc.asic_state;
	case TT_TAG_POWER_MW:
		return arc.sens.power_mw;
	case TT_TAG_CURRENT_MA:
		return arc.sens.current_ma;
	case TT_TAG_WDT_TIMEOUT:
		return arc.wdt_ms;
	case TT_TAG_OUTLET_TEMPERATURE:
		/* s16.16 like ASIC_TEMPERATURE: our own tag has no whole-degree
		 * format to stay compatible with, unlike BOARD_TEMPERATURE. */
		return tt_telem_enc_s16_16(arc.sens.outlet_temp);
	default:
		return 0;
	}
}

void telem_update(bool beat)
{
	volatile uint32_t *v = values();

	if (beat)
		arc.heartbeat++;
	for (unsigned i = 0; i < TELEM_COUNT; i++)
		v[i] = telem_value(telem_tags[i]);
}

void telem_init(void)
{
	table->version = TT_TELEM_VERSION;
	table->entry_count = TELEM_COUNT;
	for (unsigned i = 0; i < TELEM_COUNT; i++)
		table->entry[i] = TT_TELEM_ENTRY(telem_tags[i], i);
	telem_update(false);
	/* A reader that finds the pointers finds a complete table. */
	mmio_barrier();
	scratch_ram_write(TT_ARC_SR_TELEM_DATA, (uint32_t)(uintptr_t)values());
	scratch_ram_write(TT_ARC_SR_TELEM_TABLE, CSM_TELEM_BASE);
}
