// SPDX-License-Identifier: Apache-2.0
/*
 * Warm reset through libtt: hung and halted cores are cleared, the chip
 * comes back fully booted, many resets in a row, and other handles are
 * told the chip was reset while the resetting handle keeps working.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

#define RUN_MS 5000
#define RESET_MS 20000
#define RESULT_ADDR 0x60000u
#define RESETS 100

static void reset(tt_device *dev)
{
	if (tt_device_reset(dev, RESET_MS))
		fail_msg("%s", tt_last_error());
}

/* add.elf on one hart of c, with the answer checked. */
static void run_add(tt_device *dev, struct tt_xy c, unsigned hart,
		    uint32_t entry, uint32_t a)
{
	uint32_t args[3] = { a, 1, RESULT_ADDR + 4 * hart };
	int32_t ret = 0;

	if (tt_hart_run(dev, c, hart, entry, args, 3, RUN_MS, &ret))
		fail_msg("%s", tt_last_error());
	assert_int_equal(ret, (int32_t)(a + 1));
}

static void test_hung_core_cleared(void **state)
{
	tt_device *dev = *state;
	struct tt_xy c = tensix_xy(dev, 10);
	uint32_t entry = load_kernel(dev, c, "hang");
	int32_t ret;

	for (unsigned h = 0; h < TT_HART_TENSIX; h++)
		assert_int_equal(tt_hart_launch(dev, c, h, entry, NULL, 0), 0);
	assert_int_equal(tt_hart_wait(dev, c, 1, 200, &ret), -ETIMEDOUT);
	assert_non_null(strstr(tt_last_error(), "did not finish"));
	reset(dev);
	entry = load_kernel(dev, c, "add");
	for (unsigned h = 0; h < TT_HART_TENSIX; h++)
		run_add(dev, c, h, entry, 41 + h);
}

static void test_halted_core_cleared(void **state)
{
	tt_device *dev = *state;
	struct tt_xy c = tensix_xy(dev, 11);
	uint32_t entry = load_kernel(dev, c, "fault");
	struct tt_hart_status st;
	int32_t ret;

	assert_int_equal(tt_hart_run(dev, c, 0, entry, NULL, 0, RUN_MS, &ret),
			 -EFAULT);
	reset(dev);
	assert_int_equal(tt_hart_status(dev, c, 0, &st), 0);
	assert_int_equal(st.fault, 0);
	assert_int_not_equal(st.state, TT_HART_STATE_HALTED);
	entry = load_kernel(dev, c, "add");
	run_add(dev, c, 0, entry, 1);
}

/* Hung kernels on every core at once, the management firmware busy. */
static void test_everything_hung(void **state)
{
	tt_device *dev = *state;
	unsigned n = tt_device_get_info(dev)->tensix_count;
	uint32_t entry = 0;

	for (unsigned k = 0; k < n; k++) {
		struct tt_xy c = tensix_xy(dev, k);

		entry = load_kernel(dev, c, "hang");
		for (unsigned h = 0; h < TT_HART_TENSIX; h++)
			assert_int_equal(
				tt_hart_launch(dev, c, h, entry, NULL, 0), 0);
	}
	reset(dev);
	entry = load_kernel(dev, tensix_xy(dev, n - 1), "add");
	run_add(dev, tensix_xy(dev, n - 1), 2, entry, 5);
}

static void test_many_resets(void **state)
{
	tt_device *dev = *state;
	struct tt_xy c = tensix_xy(dev, 0);
	uint32_t entry = load_kernel(dev, c, "add");

	for (uint32_t i = 0; i < RESETS; i++) {
		uint32_t out = 0;

		if (tt_device_reset(dev, RESET_MS))
			fail_msg("reset %u: %s", i, tt_last_error());
		if (tt_mgmt_test(dev, i, &out))
			fail_msg("reset %u: %s", i, tt_last_error());
		/* L1 survives a warm reset: the kernel is still there. */
		run_add(dev, c, i % TT_HART_TENSIX, entry, i);
	}
}

static void test_other_handles_go_stale(void **state)
{
	tt_device *dev = *state, *other, *later;
	struct tt_xy c = tensix_xy(dev, 2);
	uint32_t v = 0;

	assert_int_equal(tt_device_open(0, &other), 0);
	assert_int_equal(tt_noc_read32(other, 0, c.x, c.y, RESULT_ADDR, &v), 0);
	reset(dev);
	assert_int_equal(tt_noc_read32(other, 0, c.x, c.y, RESULT_ADDR, &v),
			 -ENODEV);
	assert_non_null(strstr(tt_last_error(), "was reset"));
	assert_int_equal(tt_mgmt_test(other, 1, NULL), -ENODEV);
	assert_int_equal(tt_device_reset(other, RESET_MS), -ENODEV);
	/* The handle that reset the chip goes on. */
	assert_int_equal(tt_noc_read32(dev, 0, c.x, c.y, RESULT_ADDR, &v), 0);
	assert_int_equal(tt_mgmt_test(dev, 1, NULL), 0);
	/* And a handle opened afterwards is fine. */
	assert_int_equal(tt_device_open(0, &later), 0);
	assert_int_equal(tt_mgmt_test(later, 2, NULL), 0);
	tt_device_close(later);
	tt_device_close(other);
}

/* The firmware did the reset (not the reset-unit fallback) and is back
 * publishing telemetry. */
static void test_telemetry_after_reset(void **state)
{
	tt_device *dev = *state;
	struct tt_xy arc = arc_node(dev);
	struct tt_telemetry t;
	uint32_t cause = 0;

	reset(dev);
	assert_int_equal(tt_telemetry_read(dev, &t), 0);
	assert_true(t.fw_cm != 0 && t.aiclk_mhz > 0);
	assert_int_equal(tt_noc_read32(dev, 0, arc.x, arc.y,
				       TT_REG_ARC_RESET_ADDR +
					       TT_ARC_RESET_CAUSE,
				       &cause),
			 0);
	assert_int_equal(cause, TT_ARC_RESET_FIRMWARE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hung_core_cleared),
		cmocka_unit_test(test_halted_core_cleared),
		cmocka_unit_test(test_everything_hung),
		cmocka_unit_test(test_other_handles_go_stale),
		cmocka_unit_test(test_telemetry_after_reset),
		cmocka_unit_test(test_many_resets),
	};

	return cmocka_run_group_tests_name("reset", tests, booted_up, booted_down);
}
