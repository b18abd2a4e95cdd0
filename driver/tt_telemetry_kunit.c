// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites of telemetry.c's pure parts: the conversions to hwmon units
 * (the chip contract's decoders, hw/telemetry.h), the card names
 * (hw/card.h) and the table parser, fed valid and hostile tables. A module
 * of its own (tt_telemetry_kunit.ko); it uses tenstorrent.ko's symbols
 * exported for KUnit, so tenstorrent.ko must be loaded first.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/module.h>

#include <hw/card.h>
#include <hw/telemetry.h>
#include <hw/tile.h>

#include "telemetry.h"

/*
 * The contract's decoders (hw/telemetry.h) as the kernel compiles them,
 * through tt_telem_hwmon_value(): hwmon's millidegrees C, mV, mA, uW and
 * rpm.
 */
static long hwmon_value(enum hwmon_sensor_types type, u32 attr,
			unsigned int tag, u32 raw)
{
	return tt_telem_hwmon_value(type, attr, tag, raw);
}

static void tt_telem_kunit_s16_16(struct kunit *test)
{
	const unsigned int t = TT_TAG_ASIC_TEMPERATURE;
	const u32 in = hwmon_temp_input;

	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_temp, in, t, 0), 0L);
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_temp, in, t, 0x00198000),
			25500L);
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_temp, in, t, 0xFFFE8000),
			-1500L);
	/* Rounded toward minus infinity. */
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_temp, in, t, 1), 0L);
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_temp, in, t, 0xFFFFFFFF), -1L);
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_temp, in, t, 0x7FFFFFFF),
			32767999L);
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_temp, in, t, 0x80000000),
			-32768000L);
	/* The outlet is s16.16 too. */
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_temp, in,
					  TT_TAG_OUTLET_TEMPERATURE, 0x00264000),
			38250L);
}

static void tt_telem_kunit_whole(struct kunit *test)
{
	const u32 tmax = hwmon_temp_max, pin = hwmon_power_input;

	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_temp, tmax,
					  TT_TAG_THM_LIMIT_THROTTLE, 85), 85000L);
	/* Whole degrees are signed. */
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_temp, tmax,
					  TT_TAG_THM_LIMIT_THROTTLE, (u32)-5),
			-5000L);
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_curr, hwmon_curr_max,
					  TT_TAG_TDC_LIMIT_MAX, 0), 0L);
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_curr, hwmon_curr_input,
					  TT_TAG_TDC, U32_MAX),
			(long)min_t(s64, 4294967295000LL, LONG_MAX));
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_power, pin, TT_TAG_TDP, 150),
			150000000L);
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_power, pin, TT_TAG_TDP,
					  U32_MAX),
			(long)min_t(s64, 4294967295000000LL, LONG_MAX));
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_fan, hwmon_fan_input,
					  TT_TAG_FAN_RPM, 2400), 2400L);
}

/* The precise tags are in thousandths already; VDD_LIMITS is two halves. */
static void tt_telem_kunit_milli(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_in, hwmon_in_input,
					  TT_TAG_VCORE, 850), 850L);
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_curr, hwmon_curr_input,
					  TT_TAG_CURRENT_MA, 61234), 61234L);
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_power, hwmon_power_input,
					  TT_TAG_POWER_MW, 51234), 51234000L);
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_in, hwmon_in_max,
					  TT_TAG_VDD_LIMITS, 950u << 16 | 700),
			950L);
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_in, hwmon_in_min,
					  TT_TAG_VDD_LIMITS, 950u << 16 | 700),
			700L);
	KUNIT_EXPECT_EQ(test, hwmon_value(hwmon_in, hwmon_in_max,
					  TT_TAG_VDD_LIMITS, U32_MAX), 65535L);
}

/* tt_card_type: the contract's names (hw/card.h). */
static void tt_telem_kunit_card_name(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, tt_hw_card_name(tt_hw_card_type(0x18 << 4)),
			   "n150");
	/* The low nibble is not the type. */
	KUNIT_EXPECT_STREQ(test,
			   tt_hw_card_name(tt_hw_card_type(0x14 << 4 | 0xF)),
			   "n300");
	KUNIT_EXPECT_STREQ(test, tt_hw_card_name(tt_hw_card_type(0x47 << 4)),
			   "galaxy-blackhole");
	/* Our Grayskull card, which tt-kmd does not know. */
	KUNIT_EXPECT_STREQ(test,
			   tt_hw_card_name(tt_hw_card_type(TT_CARD_E150 << 4)),
			   "e150");
	KUNIT_EXPECT_STREQ(test, tt_hw_card_name(tt_hw_card_type(0)),
			   "unknown");
	KUNIT_EXPECT_STREQ(test, tt_hw_card_name(tt_hw_card_type(0x99 << 4)),
			   "unknown");
	/* Bits above [19:4] are not the type either. */
	KUNIT_EXPECT_STREQ(test,
			   tt_hw_card_name(tt_hw_card_type(0x01000180)),
			   "n150");
}

/* ---- the parser ---- */

#define CSM_WORDS 64
#define TABLE TT_ARC_CSM_BASE
#define DATA (TT_ARC_CSM_BASE + 128)

struct fake_csm {
	struct tt_telem_csm csm;
	struct kunit *test;
	u32 word[CSM_WORDS];
	struct tt_telemetry t;
};

static u32 fake_read32(const struct tt_telem_csm *csm, u32 off)
{
	const struct fake_csm *f = container_of(csm, struct fake_csm, csm);

	/* The parser reads only what it checked to be inside. */
	KUNIT_ASSERT_EQ(f->test, off % 4, 0u);
	KUNIT_ASSERT_LT(f->test, off, (u32)sizeof(f->word));
	return f->word[off / 4];
}

/* A valid table of three entries, one of them a repeated tag. */
static struct fake_csm *fake_table(struct kunit *test)
{
	struct fake_csm *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->test = test;
	f->csm.read32 = fake_read32;
	f->csm.size = sizeof(f->word);
	f->word[0] = TT_TELEM_VERSION;
	f->word[1] = 3;
	f->word[2] = TT_TELEM_ENTRY(TT_TAG_VCORE, 0);
	f->word[3] = TT_TELEM_ENTRY(TT_TAG_ASIC_TEMPERATURE, 1);
	f->word[4] = TT_TELEM_ENTRY(TT_TAG_VCORE, 2);
	f->word[32] = 750;
	f->word[33] = 0x00198000;
	f->word[34] = 9999;
	/* What a previous read left must not survive. */
	bitmap_fill(f->t.have, TT_TAG_COUNT_MAX);
	return f;
}

static int parse(struct fake_csm *f, u32 table, u32 data)
{
	return tt_telem_parse(&f->csm, table, data, &f->t);
}

static void tt_telem_kunit_parse_valid(struct kunit *test)
{
	struct fake_csm *f = fake_table(test);

	KUNIT_ASSERT_EQ(test, parse(f, TABLE, DATA), 0);
	KUNIT_EXPECT_EQ(test, bitmap_weight(f->t.have, TT_TAG_COUNT_MAX), 2u);
	KUNIT_EXPECT_TRUE(test, test_bit(TT_TAG_VCORE, f->t.have));
	/* The first entry of a tag counts. */
	KUNIT_EXPECT_EQ(test, f->t.value[TT_TAG_VCORE], 750u);
	KUNIT_EXPECT_EQ(test, f->t.value[TT_TAG_ASIC_TEMPERATURE], 0x00198000u);
}

static void tt_telem_kunit_parse_no_table(struct kunit *test)
{
	struct fake_csm *f = fake_table(test);

	f->word[0] = TT_TELEM_VERSION + 1;
	KUNIT_EXPECT_EQ(test, parse(f, TABLE, DATA), -ENODATA);
	f = fake_table(test);
	f->word[1] = TT_TELEM_MAX_ENTRIES + 1;
	KUNIT_EXPECT_EQ(test, parse(f, TABLE, DATA), -ENODATA);
	/* Allowed by the format, but running past the memory's end. */
	f = fake_table(test);
	f->word[CSM_WORDS - 4] = TT_TELEM_VERSION;
	f->word[CSM_WORDS - 3] = 3;
	KUNIT_EXPECT_EQ(test, parse(f, TABLE + 4 * (CSM_WORDS - 4), DATA),
			-ENODATA);
	f->word[CSM_WORDS - 3] = 2;
	KUNIT_EXPECT_EQ(test, parse(f, TABLE + 4 * (CSM_WORDS - 4), DATA), 0);
}

static void tt_telem_kunit_parse_bad_table_address(struct kunit *test)
{
	struct fake_csm *f = fake_table(test);

	KUNIT_EXPECT_EQ(test, parse(f, TABLE - 4, DATA), -ENODATA);
	KUNIT_EXPECT_EQ(test, parse(f, TABLE + 2, DATA), -ENODATA);
	KUNIT_EXPECT_EQ(test, parse(f, TABLE + sizeof(f->word), DATA),
			-ENODATA);
	KUNIT_EXPECT_EQ(test, parse(f, TABLE + sizeof(f->word) - 4, DATA),
			-ENODATA);
	KUNIT_EXPECT_EQ(test, parse(f, 0, DATA), -ENODATA);
	KUNIT_EXPECT_EQ(test, parse(f, U32_MAX - 3, DATA), -ENODATA);
}

static void tt_telem_kunit_parse_skips_bad_entries(struct kunit *test)
{
	struct fake_csm *f = fake_table(test);

	/* A tag beyond the bitmap, a value past the end, a value in range. */
	f->word[2] = TT_TELEM_ENTRY(TT_TAG_COUNT_MAX, 0);
	f->word[3] = TT_TELEM_ENTRY(TT_TAG_ASIC_TEMPERATURE, CSM_WORDS - 32);
	KUNIT_ASSERT_EQ(test, parse(f, TABLE, DATA), 0);
	KUNIT_EXPECT_EQ(test, bitmap_weight(f->t.have, TT_TAG_COUNT_MAX), 1u);
	KUNIT_EXPECT_EQ(test, f->t.value[TT_TAG_VCORE], 9999u);
	/* Values outside the memory: below it, and wrapping past 4 GiB. */
	f = fake_table(test);
	KUNIT_ASSERT_EQ(test, parse(f, TABLE, TABLE - 8), 0);
	KUNIT_EXPECT_EQ(test, bitmap_weight(f->t.have, TT_TAG_COUNT_MAX), 1u);
	KUNIT_EXPECT_TRUE(test, test_bit(TT_TAG_VCORE, f->t.have));
	KUNIT_EXPECT_EQ(test, f->t.value[TT_TAG_VCORE], TT_TELEM_VERSION);
	f = fake_table(test);
	f->word[2] = TT_TELEM_ENTRY(TT_TAG_VCORE, 0x4000);
	KUNIT_ASSERT_EQ(test, parse(f, TABLE, U32_MAX - 0xFFFF + 1), 0);
	KUNIT_EXPECT_FALSE(test, test_bit(TT_TAG_VCORE, f->t.have));
}

static struct kunit_case tt_telem_kunit_cases[] = {
	KUNIT_CASE(tt_telem_kunit_s16_16),
	KUNIT_CASE(tt_telem_kunit_whole),
	KUNIT_CASE(tt_telem_kunit_milli),
	KUNIT_CASE(tt_telem_kunit_card_name),
	KUNIT_CASE(tt_telem_kunit_parse_valid),
	KUNIT_CASE(tt_telem_kunit_parse_no_table),
	KUNIT_CASE(tt_telem_kunit_parse_bad_table_address),
	KUNIT_CASE(tt_telem_kunit_parse_skips_bad_entries),
	{}
};

static struct kunit_suite tt_telem_kunit_suite = {
	.name = "tenstorrent_telemetry",
	.test_cases = tt_telem_kunit_cases,
};

kunit_test_suite(tt_telem_kunit_suite);

MODULE_DESCRIPTION("KUnit suites of tenstorrent.ko's telemetry");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
