// SPDX-License-Identifier: Apache-2.0
/*
 * Devices: transport selection, enumeration, descriptions, core queries, and
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

#include "testcases.h"
#include "testutil.h"

static int reset_env(void **state)
{
	(void)state;
	unsetenv("TT_TRANSPORT");
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
	assert_string_equal(i->transport, "embedded");
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
	setenv("TT_TRANSPORT", "gpu", 1);
	assert_int_equal(tt_device_count(&n), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "'gpu'"));
	/* No tenstorrent.ko node on the host (or no kmd transport built). */
	setenv("TT_TRANSPORT", "kmd", 1);
	assert_int_equal(tt_device_open(0, &dev), -ENODEV);
	assert_non_null(strstr(tt_last_error(), "kmd"));
	setenv("TT_TRANSPORT", "ttsim", 1);
	assert_int_equal(tt_device_count(&n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(tt_device_open(0, &dev), -ENODEV);
}

/* TT_BACKEND, the variable's old name, still selects a transport; a bad
 * value is reported under the name that was set, and TT_TRANSPORT wins. */
static void test_old_variable_name(void **state)
{
	tt_device *dev;
	unsigned n;

	(void)state;
	setenv("TT_BACKEND", "gpu", 1);
	assert_int_equal(tt_device_count(&n), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "TT_BACKEND='gpu'"));
	setenv("TT_BACKEND", "ttsim", 1);
	assert_int_equal(tt_device_count(&n), 0);
	assert_int_equal(tt_device_open(0, &dev), -ENODEV);
	setenv("TT_TRANSPORT", "embedded", 1);
	assert_int_equal(tt_device_count(&n), 0);
	assert_int_equal(n, 1);
	unsetenv("TT_BACKEND");
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

/* ---- through a ttsim daemon ---- */

static int daemon_up(void **state)
{
	reset_env(state);
	return test_daemon_up(state, "t0");
}

static void test_daemon_device_listed(void **state)
{
	const struct tt_device_info *i;
	unsigned n = 0;
	tt_device *dev;

	(void)state;
	assert_int_equal(tt_device_count(&n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(tt_device_open(0, &dev), 0);
	i = tt_device_get_info(dev);
	assert_string_equal(i->transport, "ttsim");
	assert_string_equal(i->name, "t0");
	assert_string_equal(i->board, "n150");
	assert_int_equal(i->tensix_count, 72);
	tt_device_close(dev);
	/* Unset transport: a running daemon wins over the embedded model. */
	unsetenv("TT_TRANSPORT");
	assert_int_equal(tt_device_open(0, &dev), 0);
	assert_string_equal(tt_device_get_info(dev)->transport, "ttsim");
	tt_device_close(dev);
	setenv("TT_TRANSPORT", "ttsim", 1);
}

/* Child: read what the parent wrote, write an answer, exit 0 if right. */
static int child_check(void)
{
	uint32_t v = 0;
	tt_device *dev;

	if (tt_device_open(0, &dev))
		return 10;
	if (tt_noc_read32(dev, 0, 4, 4, 0x300, &v) || v != 0xFEED0001)
		return 11;
	if (tt_noc_write32(dev, 1, 5, 7, 0x304, 0xFEED0002))
		return 12;
	tt_device_close(dev);
	return 0;
}

static void test_two_processes_share_memory(void **state)
{
	tt_device *dev;
	uint32_t v = 0;
	pid_t pid;
	int st;

	(void)state;
	assert_int_equal(tt_device_open(0, &dev), 0);
	assert_int_equal(tt_noc_write32(dev, 0, 4, 4, 0x300, 0xFEED0001), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child_check());
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(tt_noc_read32(dev, 0, 4, 4, 0x304, &v), 0);
	assert_int_equal(v, 0xFEED0002);
	tt_device_close(dev);
}

static void test_daemon_dma_and_engine(void **state)
{
	struct niu_cmd c;
	tt_dma_buf *b;
	tt_device *dev;
	uint32_t v = 0;

	(void)state;
	assert_int_equal(tt_device_open(0, &dev), 0);
	assert_int_equal(tt_dma_buf_alloc(dev, 4096, &b), 0);
	((uint32_t *)tt_dma_buf_data(b))[5] = 0xD15C0;
	c = (struct niu_cmd){ .op = TT_NIU_OP_READ, .x = 0, .y = 3,
			      .targ = tt_dma_buf_noc_addr(b) + 20, .ret = 0x400,
			      .len = 4 };
	assert_int_equal(niu_run(dev, 3, 3, 0, 0, &c), TT_DEV_ERR_NONE);
	assert_int_equal(tt_noc_read32(dev, 0, 3, 3, 0x400, &v), 0);
	assert_int_equal(v, 0xD15C0);
	c.op = TT_NIU_OP_WRITE;
	c.targ = tt_dma_buf_noc_addr(b) + 40;
	assert_int_equal(niu_run(dev, 3, 3, 0, 0, &c), TT_DEV_ERR_NONE);
	assert_int_equal(((uint32_t *)tt_dma_buf_data(b))[10], 0xD15C0);
	tt_dma_buf_free(b);
	tt_device_close(dev);
}

static void test_daemon_errors_visible(void **state)
{
	struct tt_device_error e[4];
	tt_device *dev;
	uint32_t v;

	(void)state;
	assert_int_equal(tt_device_open(0, &dev), 0);
	assert_int_equal(tt_noc_read32(dev, 0, 9, 11, 0, &v), -EFAULT);
	assert_int_equal(tt_device_errors(dev, e, 4), 1);
	assert_int_equal(e[0].code, TT_DEV_ERR_HARVESTED);
	tt_device_close(dev);
}

/* ---- the kmd transport, against /dev/tenstorrent/0 in a guest ---- */

/* With a driver node present, the default transport is kmd. */
static void test_kmd_is_default_and_described(void **state)
{
	const struct tt_device_info *i;
	tt_device *dev;
	unsigned n = 0;

	(void)state;
	assert_int_equal(tt_device_count(&n), 0);
	assert_true(n >= 1);
	assert_int_equal(tt_device_open(0, &dev), 0);
	i = tt_device_get_info(dev);
	assert_string_equal(i->transport, "kmd");
	assert_string_equal(i->name, "/dev/tenstorrent/0");
	assert_string_equal(i->board, "n150");
	assert_int_equal(i->chip, 0);
	assert_int_equal(i->arch, TT_ARCH_WORMHOLE_B0);
	assert_int_equal(i->grid_x, 10);
	assert_int_equal(i->grid_y, 12);
	assert_int_equal(i->tensix_count, 72);
	tt_device_close(dev);
	assert_int_equal(tt_device_open(n, &dev), -ENODEV);
	assert_non_null(strstr(tt_last_error(), "does not exist"));
}

/* The driver's procfs list: this process, once for two handles. */
static void test_kmd_processes(void **state)
{
	tt_device *a, *b;
	int pids[8], n;

	(void)state;
	assert_int_equal(tt_device_open(0, &a), 0);
	assert_int_equal(tt_device_open(0, &b), 0);
	n = tt_device_processes(a, pids, 8);
	assert_int_equal(n, 1);
	assert_int_equal(pids[0], getpid());
	assert_int_equal(tt_device_processes(a, NULL, 0), 1);
	tt_device_close(b);
	tt_device_close(a);
}

/* FREE_DMA_BUF does not exist: a freed buffer is kept by the handle and
 * given again, zeroed, for the same size; other sizes get new ones. */
static void test_kmd_dma_buffers_reused(void **state)
{
	tt_dma_buf *a, *b, *c;
	uint64_t noc;
	tt_device *dev;

	(void)state;
	assert_int_equal(tt_device_open(0, &dev), 0);
	assert_int_equal(tt_dma_buf_alloc(dev, 4096, &a), 0);
	noc = tt_dma_buf_noc_addr(a);
	memset(tt_dma_buf_data(a), 0x5A, 4096);
	tt_dma_buf_free(a);
	assert_int_equal(tt_dma_buf_alloc(dev, 4096, &b), 0);
	assert_int_equal(tt_dma_buf_noc_addr(b), noc);
	assert_int_equal(((uint8_t *)tt_dma_buf_data(b))[4095], 0);
	assert_int_equal(tt_dma_buf_alloc(dev, 8192, &c), 0);
	assert_int_not_equal(tt_dma_buf_noc_addr(c), noc);
	tt_dma_buf_free(c);
	tt_dma_buf_free(b);
	tt_device_close(dev);
}

/* The cases of the embedded group that apply to a live chip behind the
 * driver (testcases.h): the default transport there is kmd. */
static const char *const kmd_cases[] = {
	"test_open_out_of_range",
	"test_core_queries",
	NULL,
};

int main(void)
{
	const struct CMUnitTest embedded[] = {
		cmocka_unit_test_setup(test_default_is_embedded_n150, reset_env),
		cmocka_unit_test_setup(test_every_board, reset_env),
		cmocka_unit_test_setup(test_bad_environment, reset_env),
		cmocka_unit_test_setup(test_old_variable_name, reset_env),
		cmocka_unit_test_setup(test_open_out_of_range, reset_env),
		cmocka_unit_test_setup(test_core_queries, reset_env),
		cmocka_unit_test_setup(test_two_handles_share_embedded_chip,
				       reset_env),
	};

	const struct CMUnitTest daemon[] = {
		cmocka_unit_test(test_daemon_device_listed),
		cmocka_unit_test(test_two_processes_share_memory),
		cmocka_unit_test(test_daemon_dma_and_engine),
		cmocka_unit_test(test_daemon_errors_visible),
	};
	const struct CMUnitTest kmd[] = {
		cmocka_unit_test_setup(test_kmd_is_default_and_described,
				       reset_env),
		cmocka_unit_test_setup(test_kmd_processes, reset_env),
		cmocka_unit_test_setup(test_kmd_dma_buffers_reused, reset_env),
	};
	int fails;

	if (test_on_kmd())
		return RUN_GROUP("device", embedded, NULL, NULL, kmd_cases) +
		       cmocka_run_group_tests_name("device_kmd", kmd, NULL,
						   NULL);

	/* A blank flash: no firmware runs, so these NOC and memory tests own
	 * every byte of L1 (the core firmware would live in the low 128 KiB). */
	setenv("TT_FIRMWARE", "/dev/null", 1);
	fails = RUN_GROUP("device", embedded, NULL, NULL, kmd_cases);

	return fails + cmocka_run_group_tests_name("device_ttsim", daemon,
						   daemon_up, test_daemon_down);
}
