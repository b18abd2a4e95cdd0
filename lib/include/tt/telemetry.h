/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Telemetry: the table of tagged values the management firmware publishes
 * and refreshes (every update_interval_ms), read over the NOC without
 * disturbing the firmware. Tags and encodings are those of Blackhole's
 * firmware and tt-kmd's sysfs attributes, plus a few of this chip's own.
 *
 * The table is untrusted: its address, version, size and every offset are
 * checked before use (-EPROTO otherwise). A tag the firmware does not
 * publish leaves its fields unset; `valid` says which fields were set.
 *
 * Board air: board_temp_c (BOARD_TEMPERATURE, whole degrees) is the air
 * coming into the board, the inlet, which is the ambient; outlet_temp_c
 * (this chip's OUTLET_TEMPERATURE tag, s16.16) is the air leaving it, so
 * outlet - inlet is the heat the card sheds into its airflow.
 *
 * Thread-safety: calls on one device may come from several threads.
 */
#ifndef TT_TELEMETRY_H
#define TT_TELEMETRY_H

#include "device.h"

/* One published value, as the firmware stores it. */
struct tt_telemetry_entry {
	unsigned tag;
	uint32_t raw;
};

/* Bits of tt_telemetry.valid: the fields set from published tags. */
enum tt_telemetry_field {
	TT_TELEM_F_ASIC_TEMP = 0,
	TT_TELEM_F_VREG_TEMP,
	TT_TELEM_F_BOARD_TEMP,
	TT_TELEM_F_VCORE,
	TT_TELEM_F_POWER,
	TT_TELEM_F_CURRENT,
	TT_TELEM_F_INPUT_POWER,
	TT_TELEM_F_INPUT_CURRENT,
	TT_TELEM_F_AICLK,
	TT_TELEM_F_AXICLK,
	TT_TELEM_F_ARCCLK,
	TT_TELEM_F_FAN_PERCENT,
	TT_TELEM_F_FAN_RPM,
	TT_TELEM_F_TDP_LIMIT,
	TT_TELEM_F_TDC_LIMIT,
	TT_TELEM_F_THM_LIMIT_THROTTLE,
	TT_TELEM_F_THM_LIMIT_SHUTDOWN,
	TT_TELEM_F_VDD_LIMITS, /* vdd_min_v and vdd_max_v */
	TT_TELEM_F_AICLK_MAX,
	TT_TELEM_F_BOARD_POWER_LIMIT,
	TT_TELEM_F_HEARTBEAT,
	TT_TELEM_F_UPDATE_INTERVAL,
	TT_TELEM_F_THROTTLED,
	TT_TELEM_F_ASIC_STATE,
	TT_TELEM_F_WATCHDOG,
	TT_TELEM_F_THERM_TRIP_COUNT,
	TT_TELEM_F_BOARD_ID, /* board_id, card_type, card_name */
	TT_TELEM_F_ASIC_ID,
	TT_TELEM_F_HARVESTING,
	TT_TELEM_F_FW_BUNDLE,
	TT_TELEM_F_FW_CM,
	TT_TELEM_F_FW_CORE,
	TT_TELEM_F_FW_DM_APP,
	TT_TELEM_F_FW_DM_BL,
	TT_TELEM_F_FW_ETH,
	TT_TELEM_F_FW_TT_FLASH,
	TT_TELEM_F_OUTLET_TEMP,
	TT_TELEM_F_COUNT
};

#define TT_TELEM_HAS(t, field) (((t)->valid >> (field)) & 1u)

/* Decoded telemetry, SI units. Fields not published read 0. */
struct tt_telemetry {
	uint64_t valid; /* bit (1 << enum tt_telemetry_field) per field set */

	double asic_temp_c, vreg_temp_c;
	double board_temp_c; /* board inlet air (ambient) */
	double outlet_temp_c; /* board outlet air */
	double vcore_v;
	double power_w, current_a; /* core rail */
	double input_power_w, input_current_a; /* board input */
	double aiclk_mhz, axiclk_mhz, arcclk_mhz;
	double fan_percent, fan_rpm;

	/* Limits the firmware enforces. */
	double tdp_limit_w, tdc_limit_a;
	double thm_limit_throttle_c, thm_limit_shutdown_c;
	double vdd_min_v, vdd_max_v;
	double aiclk_max_mhz;
	double board_power_limit_w;

	uint32_t heartbeat; /* grows by one per refresh */
	uint32_t update_interval_ms;
	bool throttled; /* thermal policy holds AICLK down */
	unsigned asic_state; /* 0 = A0 (normal), 3 = A3 (quiesced) */
	uint32_t watchdog_ms; /* 0 = off */
	uint32_t therm_trip_count;
	uint32_t harvesting;

	uint64_t board_id; /* BOARD_ID_HIGH << 32 | BOARD_ID_LOW */
	unsigned card_type; /* (BOARD_ID_HIGH >> 4) & 0xFFFF */
	const char *card_name; /* tt_card_type_name(card_type), or "unknown" */
	uint64_t asic_id; /* ASIC_ID_HIGH << 32 | ASIC_ID_LOW */

	/* Firmware versions, a.b.c.d one byte each (tt_fw_version_str). */
	uint32_t fw_bundle; /* flash bundle */
	uint32_t fw_cm; /* management (CM/ARC) firmware */
	uint32_t fw_core; /* Tensix core firmware */
	uint32_t fw_dm_app, fw_dm_bl; /* board management firmware */
	uint32_t fw_eth;
	uint32_t fw_tt_flash; /* the tool that wrote the flash */
};

/*
 * Read the whole table once (a few NOC reads) and decode it into *out.
 * Returns 0, -EAGAIN if the firmware has not published a table yet,
 * -EPROTO if the table is malformed, or a NOC error.
 */
TT_API int tt_telemetry_read(tt_device *dev, struct tt_telemetry *out);

/* Raw value of one tag; -ENOENT if the firmware does not publish it. */
TT_API int tt_telemetry_tag(tt_device *dev, unsigned tag, uint32_t *raw);

/*
 * Every published tag with its raw value, in table order; stores at most
 * `max` and returns how many the table holds (may exceed max), or a
 * negative error.
 */
TT_API int tt_telemetry_raw(tt_device *dev, struct tt_telemetry_entry *out,
			    unsigned max);

/*
 * Decode n (tag, raw) pairs into *out (zeroed first). Unknown tags are
 * ignored; when a tag repeats, the first one counts. Pure: no device.
 */
TT_API void tt_telemetry_decode(const struct tt_telemetry_entry *e, unsigned n,
				struct tt_telemetry *out);

/* Format a version word as "a.b.c.d" (most significant byte first) into
 * buf (len bytes, 16 is always enough); returns buf. */
TT_API char *tt_fw_version_str(uint32_t version, char *buf, size_t len);

/* Name of a card type code, as tt-kmd names them ("n150", "n300",
 * "p150a", ...; "e150" for this stack's Grayskull card), or "unknown". */
TT_API const char *tt_card_type_name(unsigned card_type);

#endif /* TT_TELEMETRY_H */
