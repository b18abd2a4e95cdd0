/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * Telemetry table, as Blackhole's CMFW publishes it (tt-zephyr-platforms'
 * lib/tenstorrent/bh_arc/telemetry.h; read as tt-umd's
 * device/arc/arc_telemetry_reader.cpp does; tags as in tt-kmd's sysfs,
 * docs/sysfs-attributes.md).
 *
 * TT_ARC_SCRATCH_RAM(TT_ARC_SR_TELEM_TABLE) holds the CSM address of
 * struct tt_telem_table, TT_ARC_SCRATCH_RAM(TT_ARC_SR_TELEM_DATA) that of
 * its values. Each entry is tag [15:0] | offset [31:16]; the tag's value is
 * data[offset]. Readers must bound entry_count and offsets and must not
 * assume offset == tag. The firmware refreshes the values every
 * UPDATE_TELEM_SPEED ms and increments TIMER_HEARTBEAT each time.
 */
#ifndef TT_HW_TELEMETRY_H
#define TT_HW_TELEMETRY_H

#include "bits.h"

#define TT_TELEM_VERSION 0x00000100u
#define TT_TELEM_MAX_ENTRIES 128

enum tt_telem_tag {
	TT_TAG_BOARD_ID_HIGH = 1, /* card type in [19:4] (hw/card.h) */
	TT_TAG_BOARD_ID_LOW = 2,
	TT_TAG_ASIC_ID = 3,
	TT_TAG_HARVESTING_STATE = 4,
	TT_TAG_UPDATE_TELEM_SPEED = 5, /* ms */
	TT_TAG_VCORE = 6, /* mV */
	TT_TAG_TDP = 7, /* W (power) */
	TT_TAG_TDC = 8, /* A (current) */
	TT_TAG_VDD_LIMITS = 9, /* [15:0] min mV, [31:16] max mV */
	TT_TAG_THM_LIMIT_SHUTDOWN = 10, /* degC, signed */
	TT_TAG_ASIC_TEMPERATURE = 11, /* s16.16 degC */
	TT_TAG_VREG_TEMPERATURE = 12, /* degC, signed */
	TT_TAG_BOARD_TEMPERATURE = 13, /* degC, signed */
	TT_TAG_AICLK = 14, /* MHz */
	TT_TAG_AXICLK = 15, /* MHz */
	TT_TAG_ARCCLK = 16, /* MHz */
	TT_TAG_ETH_FW_VERSION = 24,
	TT_TAG_DM_APP_FW_VERSION = 26,
	TT_TAG_DM_BL_FW_VERSION = 27,
	TT_TAG_FLASH_BUNDLE_VERSION = 28,
	TT_TAG_CM_FW_VERSION = 29,
	TT_TAG_FAN_SPEED = 31, /* percent */
	TT_TAG_TIMER_HEARTBEAT = 32,
	TT_TAG_TELEM_ENUM_COUNT = 33,
	TT_TAG_ENABLED_TENSIX_COL = 34,
	TT_TAG_INPUT_CURRENT = 39, /* A */
	TT_TAG_FAN_RPM = 41,
	TT_TAG_BOARD_POWER_LIMIT = 53, /* W */
	TT_TAG_INPUT_POWER = 54, /* W */
	TT_TAG_TDC_LIMIT_MAX = 55, /* A */
	TT_TAG_THM_LIMIT_THROTTLE = 56, /* degC, signed */
	TT_TAG_TT_FLASH_VERSION = 58,
	TT_TAG_THERM_TRIP_COUNT = 60,
	TT_TAG_ASIC_ID_HIGH = 61,
	TT_TAG_ASIC_ID_LOW = 62,
	TT_TAG_AICLK_LIMIT_MAX = 63, /* MHz */
	TT_TAG_TDP_LIMIT_MAX = 64, /* W */
	/* Ours, after Blackhole's last tag (70). */
	TT_TAG_THROTTLED = 100, /* 1 while the thermal policy holds AICLK down */
	TT_TAG_CORE_FW_VERSION = 101, /* Tensix core firmware, a.b.c.d */
	TT_TAG_ASIC_STATE = 102, /* 0 = A0, 3 = A3 */
	TT_TAG_POWER_MW = 103, /* mW, the precise figure behind TDP */
	TT_TAG_CURRENT_MA = 104, /* mA, the precise figure behind TDC */
	TT_TAG_WDT_TIMEOUT = 105, /* ms, 0 = off */
	/* s16.16 degC: air leaving the board (BOARD_TEMPERATURE is the air
	 * coming in), so outlet - inlet shows the heat the card sheds. */
	TT_TAG_OUTLET_TEMPERATURE = 106,
	TT_TAG_COUNT_MAX = 128
};

struct tt_telem_table {
	uint32_t version; /* TT_TELEM_VERSION */
	uint32_t entry_count; /* <= TT_TELEM_MAX_ENTRIES */
	uint32_t entry[]; /* tag [15:0] | offset [31:16]; values follow */
};

#define TT_TELEM_ENTRY(tag, off) (((uint32_t)(off) << 16) | (tag))
#define TT_TELEM_ENTRY_TAG(e) ((e) & 0xFFFFu)
#define TT_TELEM_ENTRY_OFF(e) ((e) >> 16)

/*
 * How a value is encoded. Every value is one 32-bit word in one of these
 * forms; the tag's comment above names its unit. The helpers below are
 * the only encoders and decoders: the firmware publishes with them,
 * libtt and the driver read with them. They are integer-only (the kernel
 * and the RV32 firmware have no floating point) and divide no 64-bit
 * number (no libgcc or div64 helper needed).
 */
enum tt_telem_enc {
	TT_TELEM_ENC_WORD = 0, /* ids, counts, bit maps, versions */
	TT_TELEM_ENC_WHOLE, /* unsigned whole units: W, A, MHz, %, rpm, ms */
	TT_TELEM_ENC_SIGNED, /* signed (two's complement) whole units: degC */
	TT_TELEM_ENC_MILLI, /* unsigned thousandths: mV, mW, mA */
	TT_TELEM_ENC_S16_16, /* signed 16.16 fixed point: degC */
	TT_TELEM_ENC_VDD_LIMITS, /* min mV [15:0], max mV [31:16] */
};

static inline enum tt_telem_enc tt_telem_tag_enc(unsigned int tag)
{
	switch (tag) {
	case TT_TAG_ASIC_TEMPERATURE:
	case TT_TAG_OUTLET_TEMPERATURE:
		return TT_TELEM_ENC_S16_16;
	case TT_TAG_THM_LIMIT_SHUTDOWN:
	case TT_TAG_VREG_TEMPERATURE:
	case TT_TAG_BOARD_TEMPERATURE:
	case TT_TAG_THM_LIMIT_THROTTLE:
		return TT_TELEM_ENC_SIGNED;
	case TT_TAG_VCORE:
	case TT_TAG_POWER_MW:
	case TT_TAG_CURRENT_MA:
		return TT_TELEM_ENC_MILLI;
	case TT_TAG_UPDATE_TELEM_SPEED:
	case TT_TAG_TDP:
	case TT_TAG_TDC:
	case TT_TAG_AICLK:
	case TT_TAG_AXICLK:
	case TT_TAG_ARCCLK:
	case TT_TAG_FAN_SPEED:
	case TT_TAG_INPUT_CURRENT:
	case TT_TAG_FAN_RPM:
	case TT_TAG_BOARD_POWER_LIMIT:
	case TT_TAG_INPUT_POWER:
	case TT_TAG_TDC_LIMIT_MAX:
	case TT_TAG_AICLK_LIMIT_MAX:
	case TT_TAG_TDP_LIMIT_MAX:
	case TT_TAG_WDT_TIMEOUT:
		return TT_TELEM_ENC_WHOLE;
	case TT_TAG_VDD_LIMITS:
		return TT_TELEM_ENC_VDD_LIMITS;
	default:
		return TT_TELEM_ENC_WORD;
	}
}

/* ---- encoding (the firmware) ---- */

/* floor(q / 65536), without shifting a negative number. */
static inline int64_t tt_telem_s16_16_floor(int64_t q)
{
	return q >= 0 ? q >> 16 : -((-q + 0xFFFF) >> 16);
}

/* S16_16 from degrees C in s16.16: the same bits. */
static inline uint32_t tt_telem_enc_s16_16(int32_t fx)
{
	return (uint32_t)fx;
}

/* SIGNED whole degrees from s16.16, rounded half up: 2.5 -> 3, -2.5 -> -2. */
static inline uint32_t tt_telem_enc_signed_s16_16(int32_t fx)
{
	return (uint32_t)(int32_t)tt_telem_s16_16_floor((int64_t)fx + 0x8000);
}

/* WHOLE units from thousandths (W from mW, A from mA), rounded half up. */
static inline uint32_t tt_telem_enc_whole_milli(uint32_t milli)
{
	return milli / 1000 + (milli % 1000 >= 500);
}

/* VDD_LIMITS from the limits in mV; each is cut to 16 bits. */
static inline uint32_t tt_telem_enc_vdd_limits(uint32_t min_mv,
					       uint32_t max_mv)
{
	return (min_mv & 0xFFFFu) | (max_mv & 0xFFFFu) << 16;
}

/* Whole degrees C as s16.16, saturated to what s16.16 holds. */
static inline int32_t tt_telem_s16_16_of_whole(int32_t degc)
{
	if (degc > 0x7FFF)
		return 0x7FFF0000;
	if (degc < -0x8000)
		return -0x7FFFFFFF - 1;
	return (int32_t)((uint32_t)degc << 16);
}

/* ---- decoding (libtt, the driver) ---- */

/*
 * A value of form enc, exactly: tt_telem_num() / tt_telem_den() units.
 * Not for WORD and VDD_LIMITS (their den is 1: the raw word).
 */
static inline int64_t tt_telem_num(enum tt_telem_enc enc, uint32_t raw)
{
	switch (enc) {
	case TT_TELEM_ENC_SIGNED:
	case TT_TELEM_ENC_S16_16:
		return (int32_t)raw;
	default:
		return raw;
	}
}

static inline uint32_t tt_telem_den(enum tt_telem_enc enc)
{
	switch (enc) {
	case TT_TELEM_ENC_MILLI:
		return 1000;
	case TT_TELEM_ENC_S16_16:
		return 0x10000;
	default:
		return 1;
	}
}

/*
 * In thousandths of the unit (hwmon's millidegrees C, mV, mA); s16.16
 * rounded toward minus infinity.
 */
static inline int64_t tt_telem_to_milli(enum tt_telem_enc enc, uint32_t raw)
{
	int64_t v = tt_telem_num(enc, raw);

	switch (enc) {
	case TT_TELEM_ENC_MILLI:
		return v;
	case TT_TELEM_ENC_S16_16:
		return tt_telem_s16_16_floor(v * 1000);
	default:
		return v * 1000;
	}
}

/*
 * In millionths of the unit (hwmon's uW); s16.16 rounded toward minus
 * infinity.
 */
static inline int64_t tt_telem_to_micro(enum tt_telem_enc enc, uint32_t raw)
{
	int64_t v = tt_telem_num(enc, raw);

	switch (enc) {
	case TT_TELEM_ENC_MILLI:
		return v * 1000;
	case TT_TELEM_ENC_S16_16:
		return tt_telem_s16_16_floor(v * 1000000);
	default:
		return v * 1000000;
	}
}

/* The limits in a VDD_LIMITS value, mV. */
static inline uint32_t tt_telem_vdd_min_mv(uint32_t raw)
{
	return raw & 0xFFFFu;
}

static inline uint32_t tt_telem_vdd_max_mv(uint32_t raw)
{
	return raw >> 16;
}

#endif /* TT_HW_TELEMETRY_H */
