// SPDX-License-Identifier: Apache-2.0
/*
 * Telemetry (hw/telemetry.h): find the table through the ARC scratch RAM,
 * check it, read it in three NOC reads (pointers, table, values) and
 * decode it into SI units.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "fw.h"
#include "hw/arc.h"
#include "hw/card.h"
#include "hw/telemetry.h"
#include "hw/tile.h"
#include "tt/telemetry.h"

/* Values we accept at most: offsets beyond are a corrupt table. The
 * firmware uses offset = tag, so TT_TAG_COUNT_MAX words would do today. */
#define TELEM_MAX_VALUES 1024

_Static_assert(TT_TELEM_F_COUNT <= 64, "valid is 64 bits");

/* ---- decoding ---- */

/* First value of every known tag. */
struct tag_values {
	uint32_t raw[TT_TAG_COUNT_MAX];
	uint8_t have[TT_TAG_COUNT_MAX];
};

static bool get(const struct tag_values *t, unsigned tag, uint32_t *v)
{
	if (tag >= TT_TAG_COUNT_MAX || !t->have[tag])
		return false;
	*v = t->raw[tag];
	return true;
}

/* Tags that become one double field, in SI units, decoded as
 * tt_telem_tag_enc() says (hw/telemetry.h). Later rows win over earlier
 * ones for the same field: the precise mW/mA tags come after the whole
 * W/A ones. */
static const struct {
	uint8_t tag, field;
	size_t off;
} doubles[] = {
#define D(tag, field, member) \
	{ tag, field, offsetof(struct tt_telemetry, member) }
	D(TT_TAG_ASIC_TEMPERATURE, TT_TELEM_F_ASIC_TEMP, asic_temp_c),
	D(TT_TAG_VREG_TEMPERATURE, TT_TELEM_F_VREG_TEMP, vreg_temp_c),
	D(TT_TAG_BOARD_TEMPERATURE, TT_TELEM_F_BOARD_TEMP, board_temp_c),
	D(TT_TAG_OUTLET_TEMPERATURE, TT_TELEM_F_OUTLET_TEMP, outlet_temp_c),
	D(TT_TAG_VCORE, TT_TELEM_F_VCORE, vcore_v),
	D(TT_TAG_TDP, TT_TELEM_F_POWER, power_w),
	D(TT_TAG_POWER_MW, TT_TELEM_F_POWER, power_w),
	D(TT_TAG_TDC, TT_TELEM_F_CURRENT, current_a),
	D(TT_TAG_CURRENT_MA, TT_TELEM_F_CURRENT, current_a),
	D(TT_TAG_INPUT_POWER, TT_TELEM_F_INPUT_POWER, input_power_w),
	D(TT_TAG_INPUT_CURRENT, TT_TELEM_F_INPUT_CURRENT, input_current_a),
	D(TT_TAG_AICLK, TT_TELEM_F_AICLK, aiclk_mhz),
	D(TT_TAG_AXICLK, TT_TELEM_F_AXICLK, axiclk_mhz),
	D(TT_TAG_ARCCLK, TT_TELEM_F_ARCCLK, arcclk_mhz),
	D(TT_TAG_FAN_SPEED, TT_TELEM_F_FAN_PERCENT, fan_percent),
	D(TT_TAG_FAN_RPM, TT_TELEM_F_FAN_RPM, fan_rpm),
	D(TT_TAG_TDP_LIMIT_MAX, TT_TELEM_F_TDP_LIMIT, tdp_limit_w),
	D(TT_TAG_TDC_LIMIT_MAX, TT_TELEM_F_TDC_LIMIT, tdc_limit_a),
	D(TT_TAG_THM_LIMIT_THROTTLE, TT_TELEM_F_THM_LIMIT_THROTTLE,
	  thm_limit_throttle_c),
	D(TT_TAG_THM_LIMIT_SHUTDOWN, TT_TELEM_F_THM_LIMIT_SHUTDOWN,
	  thm_limit_shutdown_c),
	D(TT_TAG_AICLK_LIMIT_MAX, TT_TELEM_F_AICLK_MAX, aiclk_max_mhz),
	D(TT_TAG_BOARD_POWER_LIMIT, TT_TELEM_F_BOARD_POWER_LIMIT,
	  board_power_limit_w),
#undef D
};

/* Tags whose raw value is the field. */
static const struct {
	uint8_t tag, field;
	size_t off;
} words[] = {
#define W(tag, field, member) \
	{ tag, field, offsetof(struct tt_telemetry, member) }
	W(TT_TAG_TIMER_HEARTBEAT, TT_TELEM_F_HEARTBEAT, heartbeat),
	W(TT_TAG_UPDATE_TELEM_SPEED, TT_TELEM_F_UPDATE_INTERVAL,
	  update_interval_ms),
	W(TT_TAG_WDT_TIMEOUT, TT_TELEM_F_WATCHDOG, watchdog_ms),
	W(TT_TAG_THERM_TRIP_COUNT, TT_TELEM_F_THERM_TRIP_COUNT,
	  therm_trip_count),
	W(TT_TAG_HARVESTING_STATE, TT_TELEM_F_HARVESTING, harvesting),
	W(TT_TAG_FLASH_BUNDLE_VERSION, TT_TELEM_F_FW_BUNDLE, fw_bundle),
	W(TT_TAG_CM_FW_VERSION, TT_TELEM_F_FW_CM, fw_cm),
	W(TT_TAG_CORE_FW_VERSION, TT_TELEM_F_FW_CORE, fw_core),
	W(TT_TAG_DM_APP_FW_VERSION, TT_TELEM_F_FW_DM_APP, fw_dm_app),
	W(TT_TAG_DM_BL_FW_VERSION, TT_TELEM_F_FW_DM_BL, fw_dm_bl),
	W(TT_TAG_ETH_FW_VERSION, TT_TELEM_F_FW_ETH, fw_eth),
	W(TT_TAG_TT_FLASH_VERSION, TT_TELEM_F_FW_TT_FLASH, fw_tt_flash),
#undef W
};

static void set_field(struct tt_telemetry *out, unsigned field)
{
	out->valid |= 1ull << field;
}

/* The value of tag's raw word in SI units, exactly as far as a double
 * holds it. */
static double convert(unsigned tag, uint32_t raw)
{
	enum tt_telem_enc enc = tt_telem_tag_enc(tag);

	return (double)tt_telem_num(enc, raw) / tt_telem_den(enc);
}

static void decode_tables(const struct tag_values *t, struct tt_telemetry *out)
{
	uint32_t v;

	for (size_t i = 0; i < sizeof(doubles) / sizeof(doubles[0]); i++) {
		if (!get(t, doubles[i].tag, &v))
			continue;
		*(double *)((char *)out + doubles[i].off) =
			convert(doubles[i].tag, v);
		set_field(out, doubles[i].field);
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!get(t, words[i].tag, &v))
			continue;
		*(uint32_t *)((char *)out + words[i].off) = v;
		set_field(out, words[i].field);
	}
}

/* The 64-bit ASIC id, or the older 32-bit one. */
static bool asic_id(const struct tag_values *t, uint64_t *id)
{
	uint32_t hi = 0, lo = 0;
	bool have_hi = get(t, TT_TAG_ASIC_ID_HIGH, &hi);
	bool have_lo = get(t, TT_TAG_ASIC_ID_LOW, &lo);

	if (!have_hi && !have_lo && !get(t, TT_TAG_ASIC_ID, &lo))
		return false;
	*id = (uint64_t)hi << 32 | lo;
	return true;
}

/* Fields built from several tags or with their own encoding. */
static void decode_special(const struct tag_values *t, struct tt_telemetry *out)
{
	uint32_t v, lo = 0;

	if (get(t, TT_TAG_VDD_LIMITS, &v)) {
		out->vdd_min_v = tt_telem_vdd_min_mv(v) / 1000.0;
		out->vdd_max_v = tt_telem_vdd_max_mv(v) / 1000.0;
		set_field(out, TT_TELEM_F_VDD_LIMITS);
	}
	if (get(t, TT_TAG_THROTTLED, &v)) {
		out->throttled = v != 0;
		set_field(out, TT_TELEM_F_THROTTLED);
	}
	if (get(t, TT_TAG_ASIC_STATE, &v)) {
		out->asic_state = v;
		set_field(out, TT_TELEM_F_ASIC_STATE);
	}
	if (get(t, TT_TAG_BOARD_ID_HIGH, &v)) {
		get(t, TT_TAG_BOARD_ID_LOW, &lo);
		out->board_id = (uint64_t)v << 32 | lo;
		out->card_type = tt_hw_card_type(v);
		set_field(out, TT_TELEM_F_BOARD_ID);
	}
	out->card_name = tt_card_type_name(out->card_type);
	if (asic_id(t, &out->asic_id))
		set_field(out, TT_TELEM_F_ASIC_ID);
}

void tt_telemetry_decode(const struct tt_telemetry_entry *e, unsigned n,
			 struct tt_telemetry *out)
{
	struct tag_values t;

	if (TT_ARG_NULL(out) || TT_ARG_NULL_LEN(e, n))
		return;
	memset(&t, 0, sizeof(t));
	for (unsigned i = 0; i < n; i++) {
		if (e[i].tag >= TT_TAG_COUNT_MAX || t.have[e[i].tag])
			continue;
		t.raw[e[i].tag] = e[i].raw;
		t.have[e[i].tag] = 1;
	}
	memset(out, 0, sizeof(*out));
	decode_tables(&t, out);
	decode_special(&t, out);
}

char *tt_fw_version_str(uint32_t version, char *buf, size_t len)
{
	if (TT_ARG_NULL_LEN(buf, len))
		return NULL;
	if (len)
		snprintf(buf, len, "%u.%u.%u.%u", version >> 24,
			 (version >> 16) & 0xFF, (version >> 8) & 0xFF,
			 version & 0xFF);
	return buf;
}

const char *tt_card_type_name(unsigned card_type)
{
	return tt_hw_card_name(card_type);
}

/* ---- reading the table ---- */

struct telem_snapshot {
	unsigned count;
	struct tt_telemetry_entry e[TT_TELEM_MAX_ENTRIES];
};

static int read_pointers(struct tt_device *dev, struct tt_xy arc,
			 uint32_t *table, uint32_t *data)
{
	/* SCRATCH_RAM words 12 (data) and 13 (table), adjacent. */
	_Static_assert(TT_ARC_SR_TELEM_TABLE == TT_ARC_SR_TELEM_DATA + 1,
		       "telemetry pointers adjacent");
	uint32_t p[2];
	int ret = tt_noc_read(dev, 0, arc.x, arc.y,
			      TT_REG_ARC_RESET_ADDR +
				      TT_ARC_SCRATCH_RAM(TT_ARC_SR_TELEM_DATA),
			      p, sizeof(p));

	if (ret)
		return ret;
	*data = p[0];
	*table = p[1];
	if (!*data || !*table)
		return tt_error(-EAGAIN,
				"%s: the management firmware has not published telemetry yet",
				dev->name);
	if (!tt_fw_csm_ok(*table, 8) || !tt_fw_csm_ok(*data, 4))
		return tt_error(-EPROTO,
				"%s: telemetry table at 0x%08x or values at 0x%08x lie outside CSM",
				dev->name, *table, *data);
	return 0;
}

/* Read the header and entries in one go; check version and count. */
static int read_table(struct tt_device *dev, struct tt_xy arc, uint32_t table,
		      uint32_t *entry, unsigned *count)
{
	uint32_t buf[2 + TT_TELEM_MAX_ENTRIES];
	uint64_t avail = TT_ARC_CSM_BASE + TT_ARC_CSM_SIZE - table;
	size_t len = sizeof(buf) < avail ? sizeof(buf) : (size_t)avail;
	int ret = tt_noc_read(dev, 0, arc.x, arc.y, table, buf, len);
	unsigned fit;

	if (ret)
		return ret;
	if (buf[0] != TT_TELEM_VERSION)
		return tt_error(-EPROTO,
				"%s: telemetry table version 0x%08x, expected 0x%08x",
				dev->name, buf[0], TT_TELEM_VERSION);
	fit = (len - 8) / 4 < TT_TELEM_MAX_ENTRIES ? (unsigned)(len - 8) / 4 :
						     TT_TELEM_MAX_ENTRIES;
	if (buf[1] > fit)
		return tt_error(-EPROTO,
				"%s: telemetry table at 0x%08x claims %u entries (at most %u fit)",
				dev->name, table, buf[1],
				fit);
	*count = buf[1];
	memcpy(entry, &buf[2], *count * sizeof(uint32_t));
	return 0;
}

static int read_snapshot(struct tt_device *dev, struct telem_snapshot *s)
{
	uint32_t entry[TT_TELEM_MAX_ENTRIES], values[TELEM_MAX_VALUES];
	uint32_t table, data, max_off = 0;
	struct tt_xy arc = { 0, 0 };
	int ret;

	ret = tt_fw_arc(dev, &arc);
	if (!ret)
		ret = read_pointers(dev, arc, &table, &data);
	if (!ret)
		ret = read_table(dev, arc, table, entry, &s->count);
	if (ret)
		return ret;
	for (unsigned i = 0; i < s->count; i++)
		if (TT_TELEM_ENTRY_OFF(entry[i]) > max_off)
			max_off = TT_TELEM_ENTRY_OFF(entry[i]);
	if (max_off >= TELEM_MAX_VALUES ||
	    !tt_fw_csm_ok(data, 4 * ((uint64_t)max_off + 1)))
		return tt_error(-EPROTO,
				"%s: telemetry value offset %u (values at 0x%08x) is out of range",
				dev->name, max_off, data);
	if (s->count) {
		ret = tt_noc_read(dev, 0, arc.x, arc.y, data, values,
				  4 * ((size_t)max_off + 1));
		if (ret)
			return ret;
	}
	for (unsigned i = 0; i < s->count; i++) {
		s->e[i].tag = TT_TELEM_ENTRY_TAG(entry[i]);
		s->e[i].raw = values[TT_TELEM_ENTRY_OFF(entry[i])];
	}
	return 0;
}

int tt_telemetry_read(tt_device *dev, struct tt_telemetry *out)
{
	struct telem_snapshot s;
	int ret;

	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(out);
	ret = read_snapshot(dev, &s);
	if (ret)
		return ret;
	tt_telemetry_decode(s.e, s.count, out);
	return 0;
}

int tt_telemetry_tag(tt_device *dev, unsigned tag, uint32_t *raw)
{
	struct telem_snapshot s;
	int ret;

	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(raw);
	ret = read_snapshot(dev, &s);
	if (ret)
		return ret;
	for (unsigned i = 0; i < s.count; i++) {
		if (s.e[i].tag == tag) {
			*raw = s.e[i].raw;
			return 0;
		}
	}
	return tt_error(-ENOENT,
			"%s: the management firmware does not publish telemetry tag %u",
			dev->name, tag);
}

int tt_telemetry_raw(tt_device *dev, struct tt_telemetry_entry *out,
		     unsigned max)
{
	struct telem_snapshot s;
	int ret;

	TT_CHECK_ARG(dev);
	if (TT_ARG_NULL_LEN(out, max))
		return -EINVAL;
	ret = read_snapshot(dev, &s);
	if (ret)
		return ret;
	if (max)
		memcpy(out, s.e,
		       (s.count < max ? s.count : max) * sizeof(s.e[0]));
	return (int)s.count;
}
