// SPDX-License-Identifier: Apache-2.0
/*
 * The facts the chip contract states once, for firmware, libtt and the
 * driver alike: architecture, board and card names (hw/arch.h,
 * hw/card.h) and the telemetry encodings (hw/telemetry.h), at their
 * boundaries: negative values, rounding, the largest values, unknown ids.
 * Built with -Wpedantic -Wconversion (tests/meson.build), stricter than
 * any of its users. The users are checked to take the contract's word:
 * libtt's names (tt_card_type_name, the device info) and common/'s
 * (soc_arch_name, board_find) must be the contract's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/board.h"
#include "common/soc_desc.h"
#include "hw/tt_hw.h"
#include "tt/telemetry.h"

/* ---- names ---- */

static void test_arch_names(void **state)
{
	(void)state;
	assert_string_equal(tt_hw_arch_name(TT_HW_ARCH_GRAYSKULL), "grayskull");
	assert_string_equal(tt_hw_arch_name(TT_HW_ARCH_WORMHOLE_B0),
			    "wormhole_b0");
	assert_string_equal(tt_hw_arch_name(TT_HW_ARCH_BLACKHOLE), "blackhole");
	assert_string_equal(tt_hw_arch_name(TT_HW_ARCH_UNKNOWN), "unknown");
	assert_string_equal(tt_hw_arch_name(4), "unknown");
	assert_string_equal(tt_hw_arch_name(~0u), "unknown");
	/* common/ answers with the contract's names. */
	for (unsigned a = 0; a < 6; a++)
		assert_string_equal(soc_arch_name((enum tt_hw_arch)a),
				    tt_hw_arch_name(a));
}

static void test_board_names(void **state)
{
	const struct board_info *const *b;
	unsigned n = 0;

	(void)state;
	assert_string_equal(tt_hw_board_name(TT_HW_BOARD_E150), "e150");
	assert_string_equal(tt_hw_board_name(TT_HW_BOARD_N150), "n150");
	assert_string_equal(tt_hw_board_name(TT_HW_BOARD_N300), "n300");
	assert_string_equal(tt_hw_board_name(TT_HW_BOARD_P150), "p150");
	assert_string_equal(tt_hw_board_name(TT_HW_BOARD_UNKNOWN), "unknown");
	assert_string_equal(tt_hw_board_name(5), "unknown");
	assert_string_equal(tt_hw_board_name(~0u), "unknown");
	/* Every board of common/board.c by the contract's name. */
	for (b = board_list(); *b; b++, n++) {
		assert_string_equal((*b)->name, tt_hw_board_name((*b)->id));
		assert_ptr_equal(board_find(tt_hw_board_name((*b)->id)), *b);
	}
	assert_int_equal(n, 4);
	assert_null(board_find("unknown"));
}

static void test_card_type_field(void **state)
{
	(void)state;
	assert_int_equal(tt_hw_card_type(0x18u << 4), TT_CARD_N150);
	/* [3:0] and [31:20] are not the type. */
	assert_int_equal(tt_hw_card_type(0x14u << 4 | 0xF), TT_CARD_N300);
	assert_int_equal(tt_hw_card_type(0x01000000u | 0x40u << 4),
			 TT_CARD_P150A);
	assert_int_equal(tt_hw_card_type(0xFFFFFFFFu), 0xFFFF);
	assert_int_equal(tt_hw_card_type(0xFFF0000Fu), 0);
	assert_int_equal(tt_hw_card_type(0), 0);
}

static void test_card_names(void **state)
{
	/* tt-kmd's table, and luwen's Grayskull codes. */
	static const struct {
		unsigned code;
		const char *name;
	} cards[] = {
		{ 0x03, "e150" },	     { 0x07, "e75" },
		{ 0x14, "n300" },
		{ 0x18, "n150" },	     { 0x35, "galaxy-wormhole" },
		{ 0x36, "p100" },	     { 0x40, "p150a" },
		{ 0x41, "p150b" },	     { 0x42, "p150c" },
		{ 0x43, "p100a" },	     { 0x44, "p300b" },
		{ 0x45, "p300a" },	     { 0x46, "p300c" },
		{ 0x47, "galaxy-blackhole" },
	};
	unsigned known = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(cards) / sizeof(cards[0]); i++) {
		assert_string_equal(tt_hw_card_name(cards[i].code),
				    cards[i].name);
		assert_string_equal(
			tt_hw_card_name(tt_hw_card_type(cards[i].code << 4)),
			cards[i].name);
	}
	assert_int_equal(TT_CARD_E150, 0x03);
	/* Nothing else has a name: not 0, not the largest code. */
	for (unsigned c = 0; c <= 0xFFFF; c++) {
		const char *name = tt_hw_card_name(c);

		/* libtt's public call answers from the contract. */
		assert_string_equal(tt_card_type_name(c), name);
		known += strcmp(name, "unknown") != 0;
	}
	assert_int_equal(known, sizeof(cards) / sizeof(cards[0]));
	assert_string_equal(tt_hw_card_name(~0u), "unknown");
	assert_string_equal(tt_hw_card_name(0x10000 | TT_CARD_N150),
			    "unknown");
}

/* ---- telemetry encodings ---- */

static void test_tag_encodings(void **state)
{
	static const unsigned s16_16[] = { TT_TAG_ASIC_TEMPERATURE,
					   TT_TAG_OUTLET_TEMPERATURE };
	static const unsigned sign[] = {
		TT_TAG_THM_LIMIT_SHUTDOWN, TT_TAG_VREG_TEMPERATURE,
		TT_TAG_BOARD_TEMPERATURE, TT_TAG_THM_LIMIT_THROTTLE
	};
	static const unsigned milli[] = { TT_TAG_VCORE, TT_TAG_POWER_MW,
					  TT_TAG_CURRENT_MA };
	static const unsigned whole[] = {
		TT_TAG_UPDATE_TELEM_SPEED, TT_TAG_TDP, TT_TAG_TDC,
		TT_TAG_AICLK, TT_TAG_AXICLK, TT_TAG_ARCCLK,
		TT_TAG_FAN_SPEED, TT_TAG_INPUT_CURRENT, TT_TAG_FAN_RPM,
		TT_TAG_BOARD_POWER_LIMIT, TT_TAG_INPUT_POWER,
		TT_TAG_TDC_LIMIT_MAX, TT_TAG_AICLK_LIMIT_MAX,
		TT_TAG_TDP_LIMIT_MAX, TT_TAG_WDT_TIMEOUT
	};
	static const unsigned word[] = {
		TT_TAG_BOARD_ID_HIGH, TT_TAG_BOARD_ID_LOW, TT_TAG_ASIC_ID,
		TT_TAG_HARVESTING_STATE, TT_TAG_CM_FW_VERSION,
		TT_TAG_TIMER_HEARTBEAT, TT_TAG_ENABLED_TENSIX_COL,
		TT_TAG_THERM_TRIP_COUNT, TT_TAG_THROTTLED,
		TT_TAG_ASIC_STATE, 0, TT_TAG_COUNT_MAX - 1,
		TT_TAG_COUNT_MAX, 0xFFFF, ~0u
	};

	(void)state;
	for (size_t i = 0; i < sizeof(s16_16) / sizeof(s16_16[0]); i++)
		assert_int_equal(tt_telem_tag_enc(s16_16[i]),
				 TT_TELEM_ENC_S16_16);
	for (size_t i = 0; i < sizeof(sign) / sizeof(sign[0]); i++)
		assert_int_equal(tt_telem_tag_enc(sign[i]),
				 TT_TELEM_ENC_SIGNED);
	for (size_t i = 0; i < sizeof(milli) / sizeof(milli[0]); i++)
		assert_int_equal(tt_telem_tag_enc(milli[i]),
				 TT_TELEM_ENC_MILLI);
	for (size_t i = 0; i < sizeof(whole) / sizeof(whole[0]); i++)
		assert_int_equal(tt_telem_tag_enc(whole[i]),
				 TT_TELEM_ENC_WHOLE);
	for (size_t i = 0; i < sizeof(word) / sizeof(word[0]); i++)
		assert_int_equal(tt_telem_tag_enc(word[i]), TT_TELEM_ENC_WORD);
	assert_int_equal(tt_telem_tag_enc(TT_TAG_VDD_LIMITS),
			 TT_TELEM_ENC_VDD_LIMITS);
}

static void test_s16_16_floor(void **state)
{
	(void)state;
	assert_int_equal(tt_telem_s16_16_floor(0), 0);
	assert_int_equal(tt_telem_s16_16_floor(0xFFFF), 0);
	assert_int_equal(tt_telem_s16_16_floor(0x10000), 1);
	assert_int_equal(tt_telem_s16_16_floor(-1), -1);
	assert_int_equal(tt_telem_s16_16_floor(-0x10000), -1);
	assert_int_equal(tt_telem_s16_16_floor(-0x10001), -2);
	assert_true(tt_telem_s16_16_floor(INT64_MAX) == INT64_MAX >> 16);
	assert_true(tt_telem_s16_16_floor(-(INT64_MAX / 2)) ==
		    -(INT64_C(1) << 46));
}

/* Firmware side: whole units from thousandths, half up. */
static void test_enc_whole_milli(void **state)
{
	(void)state;
	assert_int_equal(tt_telem_enc_whole_milli(0), 0);
	assert_int_equal(tt_telem_enc_whole_milli(499), 0);
	assert_int_equal(tt_telem_enc_whole_milli(500), 1);
	assert_int_equal(tt_telem_enc_whole_milli(1499), 1);
	assert_int_equal(tt_telem_enc_whole_milli(1500), 2);
	assert_int_equal(tt_telem_enc_whole_milli(51234), 51);
	assert_int_equal(tt_telem_enc_whole_milli(UINT32_MAX), 4294967);
	assert_int_equal(tt_telem_enc_whole_milli(UINT32_MAX - 796), 4294966);
	assert_int_equal(tt_telem_enc_whole_milli(UINT32_MAX - 795), 4294967);
}

/* Firmware side: whole degrees from s16.16, half up. */
static void test_enc_signed_s16_16(void **state)
{
	static const struct {
		int32_t fx, want;
	} cases[] = {
		{ 0, 0 },
		{ 0x28000, 3 },		/* 2.5 */
		{ 0x27FFF, 2 },		/* 2.49998 */
		{ -0x28000, -2 },	/* -2.5 */
		{ -0x28001, -3 },	/* -2.50002 */
		{ -1, 0 },
		{ -0x8000, 0 },		/* -0.5 */
		{ -0x8001, -1 },
		{ 25 << 16, 25 },
		{ -40 * 65536, -40 },
		{ INT32_MAX, 32768 },	/* 32767.99998: no overflow */
		{ INT32_MIN, -32768 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t raw = tt_telem_enc_signed_s16_16(cases[i].fx);

		assert_int_equal((int32_t)raw, cases[i].want);
		assert_true(tt_telem_num(TT_TELEM_ENC_SIGNED, raw) ==
			    cases[i].want);
	}
}

static void test_s16_16_of_whole(void **state)
{
	(void)state;
	assert_int_equal(tt_telem_s16_16_of_whole(0), 0);
	assert_int_equal(tt_telem_s16_16_of_whole(90), 90 << 16);
	assert_int_equal(tt_telem_s16_16_of_whole(-40), -40 * 65536);
	assert_int_equal(tt_telem_s16_16_of_whole(0x7FFF), 0x7FFF0000);
	assert_int_equal(tt_telem_s16_16_of_whole(0x8000), 0x7FFF0000);
	assert_int_equal(tt_telem_s16_16_of_whole(INT32_MAX), 0x7FFF0000);
	assert_int_equal(tt_telem_s16_16_of_whole(-0x8000), INT32_MIN);
	assert_int_equal(tt_telem_s16_16_of_whole(-0x8001), INT32_MIN);
	assert_int_equal(tt_telem_s16_16_of_whole(INT32_MIN), INT32_MIN);
	/* And back through the encoder of whole degrees. */
	for (int32_t d = -0x8000; d <= 0x7FFF; d += 0x111)
		assert_int_equal((int32_t)tt_telem_enc_signed_s16_16(
					 tt_telem_s16_16_of_whole(d)), d);
}

static void test_vdd_limits(void **state)
{
	uint32_t raw = tt_telem_enc_vdd_limits(700, 950);

	(void)state;
	assert_int_equal(raw, 950u << 16 | 700);
	assert_int_equal(tt_telem_vdd_min_mv(raw), 700);
	assert_int_equal(tt_telem_vdd_max_mv(raw), 950);
	raw = tt_telem_enc_vdd_limits(0xFFFF, 0xFFFF);
	assert_int_equal(raw, UINT32_MAX);
	assert_int_equal(tt_telem_vdd_min_mv(raw), 0xFFFF);
	assert_int_equal(tt_telem_vdd_max_mv(raw), 0xFFFF);
	/* Each limit is cut to its 16 bits: one cannot spill into the other. */
	raw = tt_telem_enc_vdd_limits(0x12345, 0x10000);
	assert_int_equal(tt_telem_vdd_min_mv(raw), 0x2345);
	assert_int_equal(tt_telem_vdd_max_mv(raw), 0);
	assert_int_equal(tt_telem_enc_vdd_limits(0, 0), 0);
}

/* The exact value: num / den. */
static void test_num_den(void **state)
{
	(void)state;
	assert_int_equal(tt_telem_den(TT_TELEM_ENC_WORD), 1);
	assert_int_equal(tt_telem_den(TT_TELEM_ENC_WHOLE), 1);
	assert_int_equal(tt_telem_den(TT_TELEM_ENC_SIGNED), 1);
	assert_int_equal(tt_telem_den(TT_TELEM_ENC_MILLI), 1000);
	assert_int_equal(tt_telem_den(TT_TELEM_ENC_S16_16), 65536);
	assert_int_equal(tt_telem_den(TT_TELEM_ENC_VDD_LIMITS), 1);
	/* Unsigned forms stay positive at the top of the range. */
	assert_true(tt_telem_num(TT_TELEM_ENC_WHOLE, UINT32_MAX) ==
		    (int64_t)UINT32_MAX);
	assert_true(tt_telem_num(TT_TELEM_ENC_MILLI, UINT32_MAX) ==
		    (int64_t)UINT32_MAX);
	assert_true(tt_telem_num(TT_TELEM_ENC_WORD, UINT32_MAX) ==
		    (int64_t)UINT32_MAX);
	/* Signed forms are two's complement. */
	assert_true(tt_telem_num(TT_TELEM_ENC_SIGNED, 0xFFFFFFFBu) == -5);
	assert_true(tt_telem_num(TT_TELEM_ENC_S16_16, 0xFFFF8000u) == -32768);
	assert_true(tt_telem_num(TT_TELEM_ENC_S16_16, 0x80000000u) ==
		    INT32_MIN);
	assert_true(tt_telem_num(TT_TELEM_ENC_S16_16, 0x7FFFFFFFu) ==
		    INT32_MAX);
	/* What libtt builds its doubles from: exact in a double. */
	assert_true((double)tt_telem_num(TT_TELEM_ENC_S16_16, 0xFFF5C000u) /
			    tt_telem_den(TT_TELEM_ENC_S16_16) == -10.25);
	assert_true((double)tt_telem_num(TT_TELEM_ENC_MILLI, 850) /
			    tt_telem_den(TT_TELEM_ENC_MILLI) == 0.85);
	/* The s16.16 encoder keeps every bit. */
	assert_true(tt_telem_num(TT_TELEM_ENC_S16_16,
				 tt_telem_enc_s16_16(-1)) == -1);
	assert_true(tt_telem_num(TT_TELEM_ENC_S16_16,
				 tt_telem_enc_s16_16(INT32_MIN)) == INT32_MIN);
}

static void test_to_milli(void **state)
{
	const enum tt_telem_enc s = TT_TELEM_ENC_S16_16;

	(void)state;
	/* s16.16: toward minus infinity, as hwmon has always read it. */
	assert_true(tt_telem_to_milli(s, 0) == 0);
	assert_true(tt_telem_to_milli(s, 0x00198000u) == 25500);
	assert_true(tt_telem_to_milli(s, 0xFFFE8000u) == -1500);
	assert_true(tt_telem_to_milli(s, 1) == 0);		/* 0.015 m */
	assert_true(tt_telem_to_milli(s, 66) == 1);		/* 1.007 m */
	assert_true(tt_telem_to_milli(s, 0xFFFFFFFFu) == -1);	/* -0.015 m */
	assert_true(tt_telem_to_milli(s, 0x7FFFFFFFu) == 32767999);
	assert_true(tt_telem_to_milli(s, 0x80000000u) == -32768000);
	/* Whole units, signed and not. */
	assert_true(tt_telem_to_milli(TT_TELEM_ENC_SIGNED, 85) == 85000);
	assert_true(tt_telem_to_milli(TT_TELEM_ENC_SIGNED, 0xFFFFFFFBu) ==
		    -5000);
	assert_true(tt_telem_to_milli(TT_TELEM_ENC_SIGNED, 0x80000000u) ==
		    (int64_t)INT32_MIN * 1000);
	assert_true(tt_telem_to_milli(TT_TELEM_ENC_WHOLE, UINT32_MAX) ==
		    4294967295000LL);
	/* Thousandths already. */
	assert_true(tt_telem_to_milli(TT_TELEM_ENC_MILLI, 850) == 850);
	assert_true(tt_telem_to_milli(TT_TELEM_ENC_MILLI, UINT32_MAX) ==
		    (int64_t)UINT32_MAX);
}

static void test_to_micro(void **state)
{
	const enum tt_telem_enc s = TT_TELEM_ENC_S16_16;

	(void)state;
	assert_true(tt_telem_to_micro(TT_TELEM_ENC_WHOLE, 150) == 150000000);
	assert_true(tt_telem_to_micro(TT_TELEM_ENC_WHOLE, UINT32_MAX) ==
		    4294967295000000LL);
	assert_true(tt_telem_to_micro(TT_TELEM_ENC_MILLI, 51234) == 51234000);
	assert_true(tt_telem_to_micro(TT_TELEM_ENC_MILLI, UINT32_MAX) ==
		    4294967295000LL);
	assert_true(tt_telem_to_micro(TT_TELEM_ENC_SIGNED, 0xFFFFFFFFu) ==
		    -1000000);
	assert_true(tt_telem_to_micro(s, 1) == 15);		/* 15.26 u */
	assert_true(tt_telem_to_micro(s, 0xFFFFFFFFu) == -16);	/* -15.26 u */
	assert_true(tt_telem_to_micro(s, 0x7FFFFFFFu) == 32767999984LL);
	assert_true(tt_telem_to_micro(s, 0x80000000u) == -32768000000LL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arch_names),
		cmocka_unit_test(test_board_names),
		cmocka_unit_test(test_card_type_field),
		cmocka_unit_test(test_card_names),
		cmocka_unit_test(test_tag_encodings),
		cmocka_unit_test(test_s16_16_floor),
		cmocka_unit_test(test_enc_whole_milli),
		cmocka_unit_test(test_enc_signed_s16_16),
		cmocka_unit_test(test_s16_16_of_whole),
		cmocka_unit_test(test_vdd_limits),
		cmocka_unit_test(test_num_den),
		cmocka_unit_test(test_to_milli),
		cmocka_unit_test(test_to_micro),
	};

	return cmocka_run_group_tests_name("hw_contract", tests, NULL, NULL);
}
