// SPDX-License-Identifier: Apache-2.0
/*
 * Devices: backend selection, enumeration, descriptions, core queries, and
 * sharing one chip between handles and between processes (embedded model
 * and ttsim daemon).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

static int reset_env(void **state)
{
	(void)state;
	unsetenv("TT_BACKEND");
	unsetenv("TT_SIM_BOARD");
	setenv("TTSIM_RUNTIME_DIR", "/nonexistent/tt-test", 1);
	return 0;
}

static void test_default_is_embedded_n150(void **state)
{
	const struct tt_device_info *i;
	unsigned n = 0;
	tt_device *dev;

	(void)state;
	assert_int_equal(tt_device_count(&n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(tt_device_open(0, &dev), 0);
	i = tt_device_get_info(dev);
	assert_string_equal(i->backend, "embedded");
	assert_string_equal(i->board, "n150");
	assert_string_equal(i->arch_name, "wormhole_b0");
	assert_int_equal(i->arch, TT_ARCH_WORMHOLE_B0);
	assert_int_equal(i->grid_x, 10);
	assert_int_equal(i->grid_y, 12);
	assert_int_equal(i->tensix_count, 72);
	assert_int_equal(i->l1_size, 1499136);
	assert_int_equal(i->dram_channels, 6);
	assert_int_equal(i->dram_size, 12ull << 30);
	tt_device_close(dev);
	tt_device_close(NULL);
}

struct board_expect {
	const char *board;
	unsigned count, grid_x, tensix, channels;
	enum tt_arch arch;
};

static void test_every_board(void **state)
{
	static const struct board_expect b[] = {
		{ "n300", 2, 10, 64, 6, TT_ARCH_WORMHOLE_B0 },
		{ "p150", 1, 17, 120, 8, TT_ARCH_BLACKHOLE },
		{ "e150", 1, 13, 120, 8, TT_ARCH_GRAYSKULL },
	};

	(void)state;
	for (size_t k = 0; k < sizeof(b) / sizeof(b[0]); k++) {
		unsigned n = 0;

		setenv("TT_SIM_BOARD", b[k].board, 1);
		assert_int_equal(tt_device_count(&n), 0);
		assert_int_equal(n, b[k].count);
		for (unsigned d = 0; d < n; d++) {
			const struct tt_device_info *i;
			tt_device *dev;

			assert_int_equal(tt_device_open(d, &dev), 0);
			i = tt_device_get_info(dev);
			assert_int_equal(i->chip, d);
			assert_int_equal(i->grid_x, b[k].grid_x);
			assert_int_equal(i->tensix_count, b[k].tensix);
			assert_int_equal(i->dram_channels, b[k].channels);
			assert_int_equal(i->arch, b[k].arch);
			tt_device_close(dev);
		}
	}
}

static void test_bad_environment(void **state)
{
	tt_device *dev;
	unsigned n;

	(void)state;
	setenv("TT_SIM_BOARD", "n999", 1);
	assert_int_equal(tt_device_count(&n), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "n999"));
	assert_int_equal(tt_device_open(0, &dev), -EINVAL);
	unsetenv("TT_SIM_BOARD");
	setenv("TT_BACKEND", "gpu", 1);
	assert_int_equal(tt_device_count(&n), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "'gpu'"));
	setenv("TT_BACKEND", "kmd", 1);
	assert_int_equal(tt_device_open(0, &dev), -ENODEV);
	assert_non_null(strstr(tt_last_error(), "kernel-driver"));
	setenv("TT_BACKEND", "ttsim", 1);
	assert_int_equal(tt_device_count(&n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(tt_device_open(0, &dev), -ENODEV);
}

static void test_open_out_of_range(void **state)
{
	tt_device *dev;

	(void)state;
	assert_int_equal(tt_device_open(1, &dev), -ENODEV);
	assert_non_null(strstr(tt_last_error(), "device 1"));
}

static void test_core_queries(void **state)
{
	struct tt_xy xy;
	tt_device *dev;

	(void)state;
	assert_int_equal(tt_device_open(0, &dev), 0);
	assert_int_equal(tt_device_tensix_core(dev, 0, &xy), 0);
	assert_int_equal(xy.x, 1);
	assert_int_equal(xy.y, 1);
	assert_int_equal(tt_device_tensix_core(dev, 8, &xy), 0);
	assert_int_equal(xy.x, 1);
	assert_int_equal(xy.y, 2);
	assert_int_equal(tt_device_tensix_core(dev, 71, &xy), 0);
	assert_int_equal(xy.x, 9);
	assert_int_equal(xy.y, 10);
	assert_int_equal(tt_device_tensix_core(dev, 72, &xy), -EINVAL);
	assert_int_equal(tt_device_core_type(dev, 1, 11), TT_CORE_TENSIX);
	assert_true(tt_device_core_harvested(dev, 1, 11));
	assert_false(tt_device_core_harvested(dev, 1, 10));
	assert_int_equal(tt_device_core_type(dev, 0, 3), TT_CORE_PCIE);
	assert_int_equal(tt_device_core_type(dev, 0, 10), TT_CORE_ARC);
	assert_int_equal(tt_device_core_type(dev, 40, 3), TT_CORE_NONE);
	assert_string_equal(tt_core_type_name(TT_CORE_DRAM), "dram");
	assert_int_equal(tt_device_dram_core(dev, 5, 2, &xy), 0);
	assert_int_equal(xy.x, 5);
	assert_int_equal(xy.y, 7);
	assert_int_equal(tt_device_dram_core(dev, 6, 0, &xy), -EINVAL);
	assert_int_equal(tt_device_dram_core(dev, 0, 3, &xy), -EINVAL);
	assert_int_equal(tt_device_pcie_core(dev, &xy), 0);
	assert_int_equal(xy.x, 0);
	assert_int_equal(xy.y, 3);
	tt_device_close(dev);
}

static void test_two_handles_share_embedded_chip(void **state)
{
	tt_device *a, *b;
	uint32_t v = 0;

	(void)state;
	assert_int_equal(tt_device_open(0, &a), 0);
	assert_int_equal(tt_device_open(0, &b), 0);
	assert_int_equal(tt_noc_write32(a, 0, 6, 6, 0x100, 0x5EED), 0);
	assert_int_equal(tt_noc_read32(b, 0, 6, 6, 0x100, &v), 0);
	assert_int_equal(v, 0x5EED);
	tt_device_close(a);
	/* The chip lives on while b holds it. */
	assert_int_equal(tt_noc_read32(b, 0, 6, 6, 0x100, &v), 0);
	assert_int_equal(v, 0x5EED);
	tt_device_close(b);
}

int main(void)
{
	const struct CMUnitTest embedded[] = {
		cmocka_unit_test_setup(test_default_is_embedded_n150, reset_env),
		cmocka_unit_test_setup(test_every_board, reset_env),
		cmocka_unit_test_setup(test_bad_environment, reset_env),
		cmocka_unit_test_setup(test_open_out_of_range, reset_env),
		cmocka_unit_test_setup(test_core_queries, reset_env),
		cmocka_unit_test_setup(test_two_handles_share_embedded_chip,
				       reset_env),
	};

	return cmocka_run_group_tests_name("device", embedded, NULL, NULL);
}
