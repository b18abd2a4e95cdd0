// SPDX-License-Identifier: Apache-2.0
/*
 * Telemetry: the pure decoding of (tag, raw) pairs with every conversion,
 * then the live table of a booted embedded chip: heartbeat, plausible
 * values, limits, versions, power and temperature under load, thermal
 * throttling from the test-chamber ambient register, the board's inlet and
 * outlet air.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testcases.h"
#include "testutil.h"


/* ---- decoding ---- */

static uint32_t fx(double degc)
{
	return (uint32_t)(int32_t)(degc * 65536.0);
}

static void test_decode_every_conversion(void **state)
{
	const struct tt_telemetry_entry e[] = {
		{ TT_TAG_ASIC_TEMPERATURE, fx(-10.25) },
		{ TT_TAG_VREG_TEMPERATURE, (uint32_t)-5 },
		{ TT_TAG_BOARD_TEMPERATURE, 31 },
		{ TT_TAG_OUTLET_TEMPERATURE, fx(38.5) },
		{ TT_TAG_VCORE, 850 },
		{ TT_TAG_POWER_MW, 51234 }, /* precise, before the W tag */
		{ TT_TAG_TDP, 51 },
		{ TT_TAG_TDC, 60 },
		{ TT_TAG_CURRENT_MA, 60250 },
		{ TT_TAG_INPUT_POWER, 70 },
		{ TT_TAG_INPUT_CURRENT, 6 },
		{ TT_TAG_AICLK, 1000 },
		{ TT_TAG_AXICLK, 900 },
		{ TT_TAG_ARCCLK, 540 },
		{ TT_TAG_FAN_SPEED, 40 },
		{ TT_TAG_FAN_RPM, 2100 },
		{ TT_TAG_TDP_LIMIT_MAX, 150 },
		{ TT_TAG_TDC_LIMIT_MAX, 200 },
		{ TT_TAG_THM_LIMIT_THROTTLE, 85 },
		{ TT_TAG_THM_LIMIT_SHUTDOWN, 105 },
		{ TT_TAG_VDD_LIMITS, 900u << 16 | 700 },
		{ TT_TAG_AICLK_LIMIT_MAX, 1000 },
		{ TT_TAG_BOARD_POWER_LIMIT, 300 },
		{ TT_TAG_TIMER_HEARTBEAT, 1234 },
		{ TT_TAG_UPDATE_TELEM_SPEED, 100 },
		{ TT_TAG_THROTTLED, 1 },
		{ TT_TAG_ASIC_STATE, 3 },
		{ TT_TAG_WDT_TIMEOUT, 500 },
		{ TT_TAG_THERM_TRIP_COUNT, 2 },
		{ TT_TAG_HARVESTING_STATE, 0x800 },
		{ TT_TAG_BOARD_ID_HIGH, 0x00000183 },
		{ TT_TAG_BOARD_ID_LOW, 0x12345678 },
		{ TT_TAG_ASIC_ID_HIGH, 0xAABBCCDD },
		{ TT_TAG_ASIC_ID_LOW, 0x11223344 },
		{ TT_TAG_FLASH_BUNDLE_VERSION, 0x13070000 },
		{ TT_TAG_CM_FW_VERSION, 0x00010203 },
		{ TT_TAG_CORE_FW_VERSION, 0x01000000 },
		{ TT_TAG_DM_APP_FW_VERSION, 0x05060708 },
		{ TT_TAG_DM_BL_FW_VERSION, 0x00000001 },
		{ TT_TAG_ETH_FW_VERSION, 0x00060E00 },
		{ TT_TAG_TT_FLASH_VERSION, 0x03020100 },
	};
	struct tt_telemetry t;
	char v[16];

	(void)state;
	tt_telemetry_decode(e, sizeof(e) / sizeof(e[0]), &t);
	assert_true(t.asic_temp_c == -10.25);
	assert_true(t.vreg_temp_c == -5.0);
	assert_true(t.board_temp_c == 31.0);
	assert_true(t.outlet_temp_c == 38.5);
	assert_true(t.vcore_v > 0.8499 && t.vcore_v < 0.8501);
	assert_true(t.power_w > 51.2339 && t.power_w < 51.2341);
	assert_true(t.current_a > 60.2499 && t.current_a < 60.2501);
	assert_true(t.input_power_w == 70.0 && t.input_current_a == 6.0);
	assert_true(t.aiclk_mhz == 1000 && t.axiclk_mhz == 900 &&
		    t.arcclk_mhz == 540);
	assert_true(t.fan_percent == 40 && t.fan_rpm == 2100);
	assert_true(t.tdp_limit_w == 150 && t.tdc_limit_a == 200);
	assert_true(t.thm_limit_throttle_c == 85 &&
		    t.thm_limit_shutdown_c == 105);
	assert_true(t.vdd_min_v > 0.6999 && t.vdd_min_v < 0.7001);
	assert_true(t.vdd_max_v > 0.8999 && t.vdd_max_v < 0.9001);
	assert_true(t.aiclk_max_mhz == 1000 && t.board_power_limit_w == 300);
	assert_int_equal(t.heartbeat, 1234);
	assert_int_equal(t.update_interval_ms, 100);
	assert_true(t.throttled);
	assert_int_equal(t.asic_state, 3);
	assert_int_equal(t.watchdog_ms, 500);
	assert_int_equal(t.therm_trip_count, 2);
	assert_int_equal(t.harvesting, 0x800);
	assert_true(t.board_id == 0x0000018312345678ull);
	assert_int_equal(t.card_type, 0x18);
	assert_string_equal(t.card_name, "n150");
	assert_true(t.asic_id == 0xAABBCCDD11223344ull);
	assert_string_equal(tt_fw_version_str(t.fw_bundle, v, sizeof(v)),
			    "19.7.0.0");
	assert_string_equal(tt_fw_version_str(t.fw_cm, v, sizeof(v)),
			    "0.1.2.3");
	assert_string_equal(tt_fw_version_str(t.fw_core, v, sizeof(v)),
			    "1.0.0.0");
	assert_int_equal(t.fw_dm_app, 0x05060708);
	assert_int_equal(t.fw_dm_bl, 1);
	assert_int_equal(t.fw_eth, 0x00060E00);
	assert_int_equal(t.fw_tt_flash, 0x03020100);
	assert_true(t.valid == (1ull << TT_TELEM_F_COUNT) - 1);
}

static void test_decode_temperatures(void **state)
{
	static const double temps[] = { 0.0, 25.0, 45.5, -0.5, -40.0,
					-10.25, 127.99998, -32768.0 };
	struct tt_telemetry t;

	(void)state;
	for (size_t i = 0; i < sizeof(temps) / sizeof(temps[0]); i++) {
		struct tt_telemetry_entry e = { TT_TAG_ASIC_TEMPERATURE,
						fx(temps[i]) };

		tt_telemetry_decode(&e, 1, &t);
		assert_true(t.asic_temp_c > temps[i] - 1.0 / 65536 &&
			    t.asic_temp_c < temps[i] + 1.0 / 65536);
	}
	/* Raw words with the sign bit: the full negative range. */
	{
		struct tt_telemetry_entry e = { TT_TAG_ASIC_TEMPERATURE,
						0xFFFF0000 };

		tt_telemetry_decode(&e, 1, &t);
		assert_true(t.asic_temp_c == -1.0);
	}
}

/* OUTLET_TEMPERATURE is s16.16 over the whole raw range, unlike the
 * whole-degree BOARD_TEMPERATURE it goes with. */
static void test_decode_outlet(void **state)
{
	static const struct {
		uint32_t raw;
		double c;
	} cases[] = {
		{ 0, 0.0 },
		{ 0x00268000, 38.5 },
		{ 0x00000001, 1.0 / 65536 },
		{ 0xFFFFFFFF, -1.0 / 65536 },
		{ 0xFFF60000, -10.0 },
		{ 0xFFF5C000, -10.25 },
		{ 0x7FFFFFFF, 32768.0 - 1.0 / 65536 },
		{ 0x80000000, -32768.0 },
	};
	struct tt_telemetry t;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tt_telemetry_entry e[] = {
			{ TT_TAG_OUTLET_TEMPERATURE, cases[i].raw },
			{ TT_TAG_BOARD_TEMPERATURE, cases[i].raw },
		};

		tt_telemetry_decode(e, 2, &t);
		if (t.outlet_temp_c != cases[i].c)
			fail_msg("raw 0x%08x: %.10g degC, want %.10g", cases[i].raw,
				 t.outlet_temp_c, cases[i].c);
		/* The inlet tag keeps its own (whole degree) encoding. */
		assert_true(t.board_temp_c == (int32_t)cases[i].raw);
		assert_true(t.valid == ((1ull << TT_TELEM_F_OUTLET_TEMP) |
					(1ull << TT_TELEM_F_BOARD_TEMP)));
	}
	/* Without the tag the field is unset, whatever else is there. */
	{
		struct tt_telemetry_entry e = { TT_TAG_BOARD_TEMPERATURE, 30 };

		tt_telemetry_decode(&e, 1, &t);
		assert_false(TT_TELEM_HAS(&t, TT_TELEM_F_OUTLET_TEMP));
		assert_true(t.outlet_temp_c == 0);
	}
	/* Existing field numbers kept: the new one comes after them. */
	assert_int_equal(TT_TELEM_F_OUTLET_TEMP, TT_TELEM_F_FW_TT_FLASH + 1);
	assert_int_equal(TT_TELEM_F_COUNT, TT_TELEM_F_OUTLET_TEMP + 1);
}

static void test_decode_missing_tags(void **state)
{
	const struct tt_telemetry_entry e[] = {
		{ TT_TAG_AICLK, 500 },
		{ TT_TAG_TDP, 12 }, /* W only: no mW tag */
		{ TT_TAG_ASIC_ID, 0x77 }, /* only the old 32-bit id */
	};
	struct tt_telemetry t;

	(void)state;
	tt_telemetry_decode(e, 3, &t);
	assert_true(t.valid == ((1ull << TT_TELEM_F_AICLK) |
				(1ull << TT_TELEM_F_POWER) |
				(1ull << TT_TELEM_F_ASIC_ID)));
	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_AICLK));
	assert_false(TT_TELEM_HAS(&t, TT_TELEM_F_HEARTBEAT));
	assert_true(t.power_w == 12.0);
	assert_true(t.asic_id == 0x77);
	assert_true(t.asic_temp_c == 0 && t.vdd_max_v == 0);
	assert_string_equal(t.card_name, "unknown");
	tt_telemetry_decode(NULL, 0, &t);
	assert_true(t.valid == 0);
}

static void test_decode_duplicates_and_unknown(void **state)
{
	const struct tt_telemetry_entry e[] = {
		{ 0, 99 },
		{ 0xFFFF, 1 },
		{ 70, 5 }, /* known upstream, not decoded */
		{ TT_TAG_AICLK, 800 },
		{ TT_TAG_AICLK, 1 }, /* a repeat: the first counts */
		{ TT_TAG_BOARD_ID_HIGH, 0x000000030 },
	};
	struct tt_telemetry t;

	(void)state;
	tt_telemetry_decode(e, sizeof(e) / sizeof(e[0]), &t);
	assert_true(t.aiclk_mhz == 800);
	assert_string_equal(t.card_name, "e150");
	assert_true(t.board_id == 0x30ull << 32);
	assert_true(t.valid == ((1ull << TT_TELEM_F_AICLK) |
				(1ull << TT_TELEM_F_BOARD_ID)));
}

static void test_versions_and_card_names(void **state)
{
	char small[6], v[16];

	(void)state;
	assert_string_equal(tt_fw_version_str(0, v, sizeof(v)), "0.0.0.0");
	assert_string_equal(tt_fw_version_str(0xFFFFFFFF, v, sizeof(v)),
			    "255.255.255.255");
	assert_string_equal(tt_fw_version_str(0x01020304, small, sizeof(small)),
			    "1.2.3");
	assert_string_equal(tt_card_type_name(0x14), "n300");
	assert_string_equal(tt_card_type_name(0x18), "n150");
	assert_string_equal(tt_card_type_name(0x40), "p150a");
	assert_string_equal(tt_card_type_name(0x47), "galaxy-blackhole");
	assert_string_equal(tt_card_type_name(0x03), "e150");
	assert_string_equal(tt_card_type_name(0x0A), "unknown");
	assert_string_equal(tt_card_type_name(0x99), "unknown");
}

/* ---- live ---- */

static tt_device *open_booted(void)
{
	tt_device *dev;

	assert_int_equal(tt_device_open(0, &dev), 0);
	if (tt_mgmt_wait_ready(dev, BOOT_MS))
		fail_msg("%s", tt_last_error());
	return dev;
}

static void sleep_ms(unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&t, NULL);
}

static struct tt_telemetry telem(tt_device *dev)
{
	struct tt_telemetry t;

	if (tt_telemetry_read(dev, &t))
		fail_msg("telemetry: %s", tt_last_error());
	return t;
}

static void test_heartbeat(void **state)
{
	tt_device *dev = *state;
	struct tt_telemetry t0 = telem(dev), t;

	assert_true(TT_TELEM_HAS(&t0, TT_TELEM_F_HEARTBEAT));
	assert_true(TT_TELEM_HAS(&t0, TT_TELEM_F_UPDATE_INTERVAL));
	assert_true(t0.update_interval_ms > 0 && t0.update_interval_ms < 500);
	for (int i = 0; i < 10; i++) {
		sleep_ms(50);
		t = telem(dev);
		if (t.heartbeat != t0.heartbeat)
			break;
	}
	assert_true(t.heartbeat - t0.heartbeat >= 1 &&
		    t.heartbeat - t0.heartbeat < 100);
}

static void test_plausible_values(void **state)
{
	const struct tt_device_info *i = tt_device_get_info(*state);
	struct tt_telemetry t = telem(*state);

	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_ASIC_TEMP));
	assert_true(t.asic_temp_c > 10 && t.asic_temp_c < 100);
	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_VCORE));
	assert_true(t.vcore_v > 0.5 && t.vcore_v < 1.2);
	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_POWER));
	assert_true(t.power_w > 0.5 && t.power_w < 500);
	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_CURRENT));
	assert_true(t.current_a > 0.5 && t.current_a < 500);
	/* P = V x I, to the precision of the mV/mA/mW readings. */
	assert_true(t.power_w > 0.95 * t.vcore_v * t.current_a &&
		    t.power_w < 1.05 * t.vcore_v * t.current_a);
	assert_true(t.aiclk_mhz >= 200 && t.aiclk_mhz <= 3000);
	assert_true(t.axiclk_mhz > 0 && t.arcclk_mhz > 0);
	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_FAN_PERCENT));
	assert_true(t.fan_percent >= 0 && t.fan_percent <= 100);
	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_BOARD_TEMP));
	assert_true(t.board_temp_c > 0 && t.board_temp_c < 60);
	assert_false(t.throttled);
	assert_int_equal(t.asic_state, 0);
	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_BOARD_ID));
	assert_string_equal(t.card_name, i->board);
	assert_true(t.board_id != 0);
}

static void test_limits_present(void **state)
{
	struct tt_telemetry t = telem(*state);
	static const unsigned need[] = {
		TT_TELEM_F_TDP_LIMIT, TT_TELEM_F_TDC_LIMIT,
		TT_TELEM_F_THM_LIMIT_THROTTLE, TT_TELEM_F_THM_LIMIT_SHUTDOWN,
		TT_TELEM_F_VDD_LIMITS, TT_TELEM_F_AICLK_MAX,
	};

	for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++)
		assert_true(TT_TELEM_HAS(&t, need[k]));
	assert_true(t.tdp_limit_w > 10 && t.tdc_limit_a > 10);
	assert_true(t.vdd_min_v > 0.4 && t.vdd_min_v < t.vdd_max_v &&
		    t.vdd_max_v < 1.5);
	assert_true(t.thm_limit_throttle_c > 50 &&
		    t.thm_limit_throttle_c < t.thm_limit_shutdown_c);
	assert_true(t.aiclk_mhz <= t.aiclk_max_mhz);
	assert_true(t.power_w < t.tdp_limit_w);
}

static void test_versions_nonzero(void **state)
{
	struct tt_telemetry t = telem(*state);
	uint32_t v = 0;

	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_FW_BUNDLE) && t.fw_bundle);
	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_FW_CM) && t.fw_cm);
	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_FW_CORE) && t.fw_core);
	assert_int_equal(tt_mgmt_fw_version(*state, TT_MGMT_FW_ARC, &v), 0);
	assert_int_equal(v, t.fw_cm);
	assert_int_equal(tt_mgmt_fw_version(*state, TT_MGMT_FW_BUNDLE, &v), 0);
	assert_int_equal(v, t.fw_bundle);
	assert_int_equal(tt_mgmt_fw_version(*state, TT_MGMT_FW_CORE, &v), 0);
	assert_int_equal(v, t.fw_core);
}

static void test_raw_and_tags(void **state)
{
	struct tt_telemetry_entry e[TT_TELEM_MAX_ENTRIES];
	tt_device *dev = *state;
	uint32_t raw = 0;
	int n, seen = 0;

	n = tt_telemetry_raw(dev, e, TT_TELEM_MAX_ENTRIES);
	assert_true(n >= 20 && n <= TT_TELEM_MAX_ENTRIES);
	for (int k = 0; k < n; k++)
		seen += e[k].tag == TT_TAG_TIMER_HEARTBEAT ||
			e[k].tag == TT_TAG_AICLK;
	assert_int_equal(seen, 2);
	/* Fewer than the table holds: still the full count. */
	assert_int_equal(tt_telemetry_raw(dev, e, 2), n);
	assert_int_equal(tt_telemetry_raw(dev, NULL, 0), n);
	assert_int_equal(tt_telemetry_tag(dev, TT_TAG_ARCCLK, &raw), 0);
	assert_true(raw > 0);
	assert_int_equal(tt_telemetry_tag(dev, 99, &raw), -ENOENT);
	assert_non_null(strstr(tt_last_error(), "tag 99"));
}

/* ---- power and thermal ---- */

static const char *fw_tests_dir(void)
{
	return getenv("TT_FW_TESTS_DIR");
}

/* Launch spin_busy with a huge count on every hart of every core. */
static void load_everything(tt_device *dev)
{
	const struct tt_device_info *i = tt_device_get_info(dev);
	const uint32_t forever = 0x7FFFFFFF;
	char path[512];
	uint32_t entry;

	snprintf(path, sizeof(path), "%s/spin_busy.elf", fw_tests_dir());
	for (unsigned c = 0; c < i->tensix_count; c++) {
		struct tt_xy xy;

		assert_int_equal(tt_device_tensix_core(dev, c, &xy), 0);
		if (tt_hart_load_elf_file(dev, xy, path, &entry))
			fail_msg("%s", tt_last_error());
		for (unsigned h = 0; h < TT_HART_TENSIX; h++)
			if (tt_hart_launch(dev, xy, h, entry, &forever, 1))
				fail_msg("%s", tt_last_error());
	}
}

/* Wait up to ms for pred(telemetry) to hold; the last reading in *t. */
static bool wait_telem(tt_device *dev, unsigned ms, struct tt_telemetry *t,
		       bool (*pred)(const struct tt_telemetry *, double),
		       double arg)
{
	for (unsigned waited = 0;; waited += 100) {
		*t = telem(dev);
		if (pred(t, arg))
			return true;
		if (waited >= ms)
			return false;
		sleep_ms(100);
	}
}

static bool power_above(const struct tt_telemetry *t, double w)
{
	return t->power_w > w;
}

static bool power_below(const struct tt_telemetry *t, double w)
{
	return t->power_w < w;
}

static bool temp_above(const struct tt_telemetry *t, double c)
{
	return t->asic_temp_c > c;
}

static bool temp_below(const struct tt_telemetry *t, double c)
{
	return t->asic_temp_c < c;
}

static bool outlet_above(const struct tt_telemetry *t, double c)
{
	return t->outlet_temp_c > c;
}

/* Hold (or release) every Tensix hart in reset with one multicast. */
static void hold_all_harts(tt_device *dev)
{
	const struct tt_device_info *i = tt_device_get_info(dev);
	struct tt_xy lo = { 0, 0 }, hi = { i->grid_x - 1, i->grid_y - 1 };
	uint32_t all = TT_TILE_SOFT_RESET_ALL;

	assert_int_equal(tt_noc_multicast(dev, 0, lo, hi,
					  TT_REG_TILE_CTRL_ADDR +
						  TT_TILE_SOFT_RESET,
					  &all, sizeof(all)),
			 0);
}

/* Wait until the ASIC temperature stops moving (under 0.05 degC in half
 * a second); returns it. */
static double settled_temp(tt_device *dev)
{
	double last = telem(dev).asic_temp_c, now;

	for (unsigned waited = 0; waited < 20000; waited += 500) {
		sleep_ms(500);
		now = telem(dev).asic_temp_c;
		if (now - last < 0.05 && last - now < 0.05)
			return now;
		last = now;
	}
	fail_msg("the ASIC temperature does not settle (%.2f degC)", last);
	return last;
}

/*
 * Busy kernels on every hart raise power at once and temperature over
 * the thermal time constant; stopping them (reset lines, so the fan and
 * clocks stay as they are) brings both down again. The fan is fixed so
 * its policy cannot move the temperature by itself, and the idle chip is
 * let settle first: a chip just powered on warms up even when idle.
 */
static void test_load_heats_the_chip(void **state)
{
	tt_device *dev = *state;
	struct tt_telemetry idle, t;
	double peak_c;

	if (!fw_tests_dir())
		skip_because("TT_FW_TESTS_DIR is not set: no test kernels");
	assert_int_equal(tt_mgmt_force_fan(dev, 60), 0);
	settled_temp(dev);
	idle = telem(dev);
	load_everything(dev);
	if (!wait_telem(dev, 3000, &t, power_above, idle.power_w * 1.2 + 1))
		fail_msg("power stayed at %.2f W under load (idle %.2f W)",
			 t.power_w, idle.power_w);
	/* The air carries the extra power away: the outlet warms with it. */
	if (!wait_telem(dev, 3000, &t, outlet_above, idle.outlet_temp_c + 0.5))
		fail_msg("outlet stayed at %.2f degC under load (idle %.2f degC)",
			 t.outlet_temp_c, idle.outlet_temp_c);
	if (!wait_telem(dev, 10000, &t, temp_above, idle.asic_temp_c + 1.0))
		fail_msg("ASIC stayed at %.2f degC under load (idle %.2f degC)",
			 t.asic_temp_c, idle.asic_temp_c);
	hold_all_harts(dev);
	sleep_ms(300);
	peak_c = telem(dev).asic_temp_c;
	if (!wait_telem(dev, 3000, &t, power_below, idle.power_w * 1.1 + 0.5))
		fail_msg("power stayed at %.2f W after the load (idle %.2f W)",
			 t.power_w, idle.power_w);
	if (!wait_telem(dev, 10000, &t, temp_below, peak_c - 0.5))
		fail_msg("ASIC stayed at %.2f degC after the load (peak %.2f)",
			 t.asic_temp_c, peak_c);
}

/* The harts held in reset need the chip reset to serve launches again. */
static int load_down(void **state)
{
	tt_mgmt_force_fan(*state, -1);
	if (tt_device_reset(*state, 20000)) {
		fprintf(stderr, "# %s\n", tt_last_error());
		return -1;
	}
	return 0;
}

static int set_ambient(tt_device *dev, double degc)
{
	const struct tt_device_info *i = tt_device_get_info(dev);
	uint32_t fx16 = (uint32_t)(int32_t)(degc * 65536);

	for (unsigned y = 0; y < i->grid_y; y++)
		for (unsigned x = 0; x < i->grid_x; x++)
			if (tt_device_core_type(dev, x, y) == TT_CORE_ARC)
				return tt_noc_write32(dev, 0, x, y,
						      TT_REG_ARC_SENSORS_ADDR +
							      TT_SENS_AMBIENT,
						      fx16);
	return -ENODEV;
}

/*
 * The board's air: the inlet is the test chamber's ambient (whole degrees),
 * the outlet is warmer by the power the board sheds, a few degrees when
 * idle, and follows the inlet when the chamber changes.
 */
static void test_outlet_above_inlet(void **state)
{
	tt_device *dev = *state;
	struct tt_telemetry t = telem(dev);

	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_OUTLET_TEMP));
	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_BOARD_TEMP));
	assert_true(t.board_temp_c == 25.0);
	if (!(t.outlet_temp_c >= t.board_temp_c &&
	      t.outlet_temp_c < t.board_temp_c + 20))
		fail_msg("outlet %.3f degC, inlet %.0f degC, %.2f W",
			 t.outlet_temp_c, t.board_temp_c, t.power_w);
	/* Idle power heats the air a little: strictly above the inlet. */
	assert_true(t.outlet_temp_c > t.board_temp_c + 0.5);
	/* A hotter chamber: the outlet rises with it at once. */
	assert_int_equal(set_ambient(dev, 40.0), 0);
	if (!wait_telem(dev, 3000, &t, outlet_above, 40.5))
		fail_msg("outlet %.3f degC with a 40 degC inlet", t.outlet_temp_c);
	assert_true(t.board_temp_c == 40.0);
	assert_true(t.outlet_temp_c < 40.0 + 20);
}

static int ambient_down(void **state)
{
	return set_ambient(*state, 25.0);
}

static bool throttled_is(const struct tt_telemetry *t, double want)
{
	return t->throttled == (want != 0);
}

static void test_throttling(void **state)
{
	struct tt_mgmt_board_info b;
	tt_device *dev = *state;
	struct tt_telemetry t;
	unsigned mhz = 0;

	assert_int_equal(tt_mgmt_board_info(dev, &b), 0);
	assert_int_equal(tt_mgmt_set_power_state(dev, true), 0);
	assert_int_equal(tt_mgmt_get_aiclk(dev, &mhz, NULL), 0);
	assert_int_equal(mhz, b.aiclk_max_mhz);
	assert_int_equal(set_ambient(dev, 80.0), 0);
	if (!wait_telem(dev, 5000, &t, throttled_is, 1))
		fail_msg("not throttled at %.1f degC (limit %.0f)",
			 t.asic_temp_c, t.thm_limit_throttle_c);
	assert_int_equal(tt_mgmt_get_aiclk(dev, &mhz, NULL), 0);
	assert_int_equal(mhz, b.aiclk_min_mhz);
	t = telem(dev);
	assert_true(t.aiclk_mhz == b.aiclk_min_mhz);
	assert_int_equal(set_ambient(dev, 25.0), 0);
	if (!wait_telem(dev, 10000, &t, throttled_is, 0))
		fail_msg("still throttled at %.1f degC", t.asic_temp_c);
	assert_int_equal(tt_mgmt_get_aiclk(dev, &mhz, NULL), 0);
	assert_int_equal(mhz, b.aiclk_max_mhz);
}

static int throttling_down(void **state)
{
	set_ambient(*state, 25.0);
	tt_mgmt_set_power_state(*state, false);
	return 0;
}

static void test_open_booted_twice(void **state)
{
	tt_device *a, *b;

	(void)state;
	a = open_booted();
	b = open_booted();
	assert_int_equal(telem(a).board_id, telem(b).board_id);
	tt_device_close(b);
	tt_device_close(a);
}

/* ---- a hostile table (TT_SIM_INJECT=telemetry-*, docs/ttsim.md) ----
 *
 * Each case builds its own chip with one corruption of the table as the
 * host reads it; libtt must refuse it with a clear error on every entry
 * point, or degrade exactly as designed, and never read out of bounds
 * (the sanitizer build runs these too). */

static int hostile_down(void **state)
{
	tt_device_close(*state);
	*state = NULL;
	unsetenv("TT_SIM_INJECT");
	return 0;
}

static tt_device *open_hostile(void **state, const char *fault)
{
	setenv("TT_SIM_INJECT", fault, 1);
	*state = open_booted();
	return *state;
}

/* Every reader fails with err and a message holding want. */
static void expect_refused(tt_device *dev, int err, const char *want)
{
	struct tt_telemetry_entry e[TT_TELEM_MAX_ENTRIES];
	struct tt_telemetry t;
	uint32_t raw = 0x5A5A5A5A;

	assert_int_equal(tt_telemetry_read(dev, &t), err);
	if (!strstr(tt_last_error(), want))
		fail_msg("read: '%s' lacks '%s'", tt_last_error(), want);
	assert_int_equal(tt_telemetry_tag(dev, TT_TAG_AICLK, &raw), err);
	if (!strstr(tt_last_error(), want))
		fail_msg("tag: '%s' lacks '%s'", tt_last_error(), want);
	assert_int_equal(raw, 0x5A5A5A5A);
	assert_int_equal(tt_telemetry_raw(dev, e, TT_TELEM_MAX_ENTRIES), err);
	if (!strstr(tt_last_error(), want))
		fail_msg("raw: '%s' lacks '%s'", tt_last_error(), want);
}

static void test_hostile_unpublished(void **state)
{
	tt_device *dev = open_hostile(state, "telemetry-unpublished");

	expect_refused(dev, -EAGAIN, "has not published telemetry yet");
}

static void test_hostile_pointer(void **state)
{
	tt_device *dev = open_hostile(state, "telemetry-pointer");

	expect_refused(dev, -EPROTO, "telemetry table at 0x10080000 or values at");
}

static void test_hostile_version(void **state)
{
	tt_device *dev = open_hostile(state, "telemetry-version");

	expect_refused(dev, -EPROTO,
		       "telemetry table version 0xdeadbeef, expected 0x00000100");
}

/* The entry-count bound: one entry more than a table can hold. */
static void test_hostile_count(void **state)
{
	tt_device *dev = open_hostile(state, "telemetry-count");
	char want[80];

	snprintf(want, sizeof(want), "claims %u entries (at most %u fit)",
		 TT_TELEM_MAX_ENTRIES + 1, TT_TELEM_MAX_ENTRIES);
	expect_refused(dev, -EPROTO, want);
}

/* A table in the CSM's last 8 bytes: its header, and no room for the
 * entries it claims. */
static void test_hostile_fit(void **state)
{
	tt_device *dev = open_hostile(state, "telemetry-fit");

	expect_refused(dev, -EPROTO, "entries (at most 0 fit)");
	assert_non_null(strstr(tt_last_error(), "table at 0x1007fff8"));
}

static void test_hostile_offset(void **state)
{
	tt_device *dev = open_hostile(state, "telemetry-offset");

	expect_refused(dev, -EPROTO, "telemetry value offset 65535");
}

/* Values at the CSM's last word: offsets past 0 leave the CSM. */
static void test_hostile_values_end(void **state)
{
	tt_device *dev = open_hostile(state, "telemetry-values-end");

	expect_refused(dev, -EPROTO, "(values at 0x1007fffc) is out of range");
}

/* Entry 1 (BOARD_ID_LOW's value) claims entry 0's tag BOARD_ID_HIGH: the
 * raw table shows both, a tag's value and the decoding take the first;
 * BOARD_ID_LOW is gone, so the board id has no low word. */
static void test_hostile_dup_tag(void **state)
{
	tt_device *dev = open_hostile(state, "telemetry-dup-tag");
	struct tt_telemetry_entry e[TT_TELEM_MAX_ENTRIES];
	struct tt_telemetry t;
	uint32_t raw = 0;
	int n = tt_telemetry_raw(dev, e, TT_TELEM_MAX_ENTRIES);

	assert_true(n >= 20 && n <= TT_TELEM_MAX_ENTRIES);
	assert_int_equal(e[0].tag, TT_TAG_BOARD_ID_HIGH);
	assert_int_equal(e[1].tag, TT_TAG_BOARD_ID_HIGH);
	assert_int_equal(tt_telemetry_tag(dev, TT_TAG_BOARD_ID_HIGH, &raw), 0);
	assert_int_equal(raw, e[0].raw);
	assert_int_equal(tt_telemetry_tag(dev, TT_TAG_BOARD_ID_LOW, &raw),
			 -ENOENT);
	assert_int_equal(tt_telemetry_read(dev, &t), 0);
	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_BOARD_ID));
	assert_true(t.board_id == (uint64_t)e[0].raw << 32);
	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_HEARTBEAT));
}

/* Entry 0's tag 0xFFFF, unknown: listed raw, skipped by the decoding
 * (no board id), everything else intact. */
static void test_hostile_unknown_tag(void **state)
{
	tt_device *dev = open_hostile(state, "telemetry-unknown-tag");
	struct tt_telemetry_entry e[TT_TELEM_MAX_ENTRIES];
	struct tt_telemetry t;
	uint32_t raw = 0;
	int n = tt_telemetry_raw(dev, e, TT_TELEM_MAX_ENTRIES);

	assert_true(n >= 20 && n <= TT_TELEM_MAX_ENTRIES);
	assert_int_equal(e[0].tag, 0xFFFF);
	assert_int_equal(tt_telemetry_tag(dev, 0xFFFF, &raw), 0);
	assert_int_equal(raw, e[0].raw);
	assert_int_equal(tt_telemetry_tag(dev, TT_TAG_BOARD_ID_HIGH, &raw),
			 -ENOENT);
	assert_int_equal(tt_telemetry_read(dev, &t), 0);
	assert_false(TT_TELEM_HAS(&t, TT_TELEM_F_BOARD_ID));
	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_HEARTBEAT));
	assert_true(TT_TELEM_HAS(&t, TT_TELEM_F_AICLK));
}

/* The cases that apply to a live chip behind the driver (testcases.h). */
static const char *const kmd_cases[] = {
	"test_heartbeat",
	"test_plausible_values",
	"test_limits_present",
	"test_versions_nonzero",
	"test_raw_and_tags",
	NULL,
};

int main(void)
{
	const struct CMUnitTest decode[] = {
		cmocka_unit_test(test_decode_every_conversion),
		cmocka_unit_test(test_decode_temperatures),
		cmocka_unit_test(test_decode_outlet),
		cmocka_unit_test(test_decode_missing_tags),
		cmocka_unit_test(test_decode_duplicates_and_unknown),
		cmocka_unit_test(test_versions_and_card_names),
	};
	const struct CMUnitTest live[] = {
		cmocka_unit_test(test_heartbeat),
		cmocka_unit_test(test_plausible_values),
		cmocka_unit_test(test_limits_present),
		cmocka_unit_test(test_versions_nonzero),
		cmocka_unit_test(test_raw_and_tags),
		cmocka_unit_test_teardown(test_outlet_above_inlet, ambient_down),
		cmocka_unit_test_teardown(test_load_heats_the_chip, load_down),
		cmocka_unit_test_teardown(test_throttling, throttling_down),
		cmocka_unit_test(test_open_booted_twice),
	};
	/* Chips the model makes faulty: embedded only. */
	const struct CMUnitTest hostile[] = {
		cmocka_unit_test_teardown(test_hostile_unpublished, hostile_down),
		cmocka_unit_test_teardown(test_hostile_pointer, hostile_down),
		cmocka_unit_test_teardown(test_hostile_version, hostile_down),
		cmocka_unit_test_teardown(test_hostile_count, hostile_down),
		cmocka_unit_test_teardown(test_hostile_fit, hostile_down),
		cmocka_unit_test_teardown(test_hostile_offset, hostile_down),
		cmocka_unit_test_teardown(test_hostile_values_end, hostile_down),
		cmocka_unit_test_teardown(test_hostile_dup_tag, hostile_down),
		cmocka_unit_test_teardown(test_hostile_unknown_tag, hostile_down),
	};
	int fails;

	unsetenv("TT_SIM_BOARD");
	fails = cmocka_run_group_tests_name("telemetry_decode", decode, NULL,
					    NULL);
	fails += RUN_GROUP("telemetry", live, booted_up, booted_down,
			   kmd_cases);
	if (test_on_kmd())
		return fails;
	return fails + cmocka_run_group_tests_name("telemetry_hostile",
						   hostile, NULL, NULL);
}
