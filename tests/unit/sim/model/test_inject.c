// SPDX-License-Identifier: Apache-2.0
/*
 * Faults injected into the chip model (TT_SIM_INJECT, sim/model/inject.h): a
 * chip that does not come back from a warm reset, read once when the chip
 * is made, refused when unknown, and inherited by the ttsim daemon; a NOC
 * transaction of the host that fails once armed (noc-fail). The telemetry
 * faults are tested with libtt's checks (tests/unit/lib/device/test_telemetry.c).
 *
 * The embedded chip is shared by the handles of a process and destroyed
 * with the last one, so each test makes its own chip: it sets the variable,
 * opens the first handle, and its teardown closes every handle it opened.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/embed.h"
#include "testutil.h"

/* What the tests give a reset of a dead chip; a healthy one gets more. */
#define DEAD_RESET_MS 2000
#define RESET_MS 20000

struct fixture {
	tt_device *dev;
	char rundir[64]; /* the daemon test's, else empty */
};

static int fixture_up(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	setenv("TT_TRANSPORT", "embedded", 1);
	unsetenv("TT_SIM_BOARD");
	unsetenv("TT_SIM_INJECT");
	*state = f;
	return 0;
}

static int fixture_down(void **state)
{
	struct fixture *f = *state;
	int ret = 0;

	tt_device_close(f->dev);
	unsetenv("TT_SIM_INJECT");
	if (f->rundir[0])
		ret = ttsim_clean_up(f->rundir, true);
	free(f);
	return ret;
}

/* Open device 0 and wait until its firmware serves messages. */
static tt_device *open_booted(struct fixture *f)
{
	if (tt_device_open(0, &f->dev))
		fail_msg("open: %s", tt_last_error());
	if (tt_mgmt_wait_ready(f->dev, BOOT_MS))
		fail_msg("boot: %s", tt_last_error());
	return f->dev;
}

static uint32_t arc_read(tt_device *dev, uint64_t addr)
{
	struct tt_xy arc = arc_node(dev);
	uint32_t v = 0;

	if (tt_noc_read32(dev, 0, arc.x, arc.y, addr, &v))
		fail_msg("ARC read 0x%llx: %s", (unsigned long long)addr,
			 tt_last_error());
	return v;
}

/* A register of the ARC reset unit (hw/arc.h). */
static uint32_t reset_unit(tt_device *dev, unsigned off)
{
	return arc_read(dev, TT_REG_ARC_RESET_ADDR + off);
}

/* A reset of a dead chip times out naming what it waited for. */
static void assert_reset_dies(tt_device *dev)
{
	const char *e;

	assert_int_equal(tt_device_reset(dev, DEAD_RESET_MS), -ETIMEDOUT);
	e = tt_last_error();
	if (!strstr(e, "management firmware not ready again") ||
	    !strstr(e, "2000 ms"))
		fail_msg("unexpected error: %s", e);
}

/*
 * reset-dead: power-on boots as usual; the first reset (the firmware acts
 * on TRIGGER_RESET) leaves the management hart held, and so does the next
 * (the reset unit's line, as the firmware no longer answers).
 */
static void test_reset_dead(void **state)
{
	struct fixture *f = *state;
	tt_device *dev;

	setenv("TT_SIM_INJECT", "reset-dead", 1);
	dev = open_booted(f);
	/* Read once at creation: unsetting it now changes nothing. */
	unsetenv("TT_SIM_INJECT");
	assert_int_equal(tt_mgmt_test(dev, 7, NULL), 0);

	assert_reset_dies(dev);
	assert_int_equal(reset_unit(dev, TT_ARC_RESET_CAUSE),
			 TT_ARC_RESET_FIRMWARE);
	assert_int_equal(reset_unit(dev, TT_ARC_RESET_COUNT), 1);
	/* The hart is held in reset and never ran: no POST code. */
	assert_true(arc_read(dev, TT_REG_TILE_CTRL_ADDR + TT_TILE_SOFT_RESET) &
		    tt_hart_reset_bit(0));
	assert_int_equal(reset_unit(dev, TT_ARC_SCRATCH(0)), 0);

	assert_reset_dies(dev);
	assert_int_equal(reset_unit(dev, TT_ARC_RESET_COUNT), 2);
	assert_int_equal(tt_mgmt_wait_ready(dev, 300), -ETIMEDOUT);
}

/* Made without the variable, a chip resets fine even if it is set later. */
static void test_healthy_chip_resets(void **state)
{
	struct fixture *f = *state;
	tt_device *dev = open_booted(f);

	setenv("TT_SIM_INJECT", "reset-dead", 1);
	if (tt_device_reset(dev, RESET_MS))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_mgmt_test(dev, 3, NULL), 0);
	assert_int_equal(reset_unit(dev, TT_ARC_SCRATCH(0)),
			 TT_ARC_POST(TT_ARC_POST_READY));
}

/* An empty value is no fault at all. */
static void test_empty_is_none(void **state)
{
	struct fixture *f = *state;
	tt_device *dev;

	setenv("TT_SIM_INJECT", "", 1);
	dev = open_booted(f);
	if (tt_device_reset(dev, RESET_MS))
		fail_msg("%s", tt_last_error());
}

/* An unknown fault makes no chip: the message names it and the known ones. */
static void test_unknown_fault_refused(void **state)
{
	static const char *const bad[] = { "reset-dea", "reset-dead ",
					   "RESET-DEAD", "reset-dead,x", "1" };
	struct fixture *f = *state;
	char longval[2048];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[64];

		setenv("TT_SIM_INJECT", bad[i], 1);
		assert_int_equal(tt_device_open(0, &f->dev), -EINVAL);
		assert_null(f->dev);
		snprintf(want, sizeof(want), "TT_SIM_INJECT='%s'", bad[i]);
		if (!strstr(tt_last_error(), want) ||
		    !strstr(tt_last_error(), "known: reset-dead, noc-fail") ||
		    !strstr(tt_last_error(), ",dup-tag,unknown-tag}"))
			fail_msg("for '%s': %s", bad[i], tt_last_error());
	}
	/* A hostile length is cut short in the message. */
	memset(longval, 'x', sizeof(longval) - 1);
	longval[sizeof(longval) - 1] = '\0';
	setenv("TT_SIM_INJECT", longval, 1);
	assert_int_equal(tt_device_open(0, &f->dev), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "TT_SIM_INJECT='xxxx"));
	assert_true(strlen(tt_last_error()) < 400);
	/* Nothing was left half made: a good value works afterwards. */
	unsetenv("TT_SIM_INJECT");
	open_booted(f);
}

/* ---- noc-fail ---- */

/* The armed host access, and only it, fails as a refused transaction does:
 * -EFAULT, the message of TT_DEV_ERR_NOC, a device error record, nothing
 * written; the chip serves the accesses after it. */
static void test_noc_fail(void **state)
{
	struct fixture *f = *state;
	struct tt_device_error e[4];
	tt_device *dev;
	struct tt_xy c;
	uint32_t v = 0;
	const uint64_t a = 0x10000;

	setenv("TT_SIM_INJECT", "noc-fail", 1);
	dev = open_booted(f);
	c = tensix_xy(dev, 0);
	/* Not armed: nothing fails. */
	assert_int_equal(tt_noc_write32(dev, 0, c.x, c.y, a, 1), 0);
	assert_int_equal(tt_device_errors(dev, e, 4), 0);

	sim_embed_noc_fail_arm(1);
	assert_int_equal(tt_noc_write32(dev, 0, c.x, c.y, a, 2), 0);
	assert_int_equal(tt_noc_write32(dev, 0, c.x, c.y, a, 3), -EFAULT);
	if (!strstr(tt_last_error(), "the transaction failed on the NOC"))
		fail_msg("unexpected error: %s", tt_last_error());
	assert_int_equal(tt_noc_read32(dev, 0, c.x, c.y, a, &v), 0);
	assert_int_equal(v, 2); /* the failed write moved nothing */
	assert_int_equal(tt_device_errors(dev, e, 4), 1);
	assert_int_equal(e[0].code, TT_DEV_ERR_NOC);
	assert_non_null(strstr(e[0].message, "write"));

	/* A read fails the same way, and leaves the host's copy alone. */
	sim_embed_noc_fail_arm(0);
	v = 0xAAAA5555u;
	assert_int_equal(tt_noc_read32(dev, 0, c.x, c.y, a, &v), -EFAULT);
	assert_int_equal(v, 0xAAAA5555u);
	assert_int_equal(tt_noc_read32(dev, 0, c.x, c.y, a, &v), 0);
	assert_int_equal(v, 2);

	/* Disarmed before it fires: nothing fails. */
	sim_embed_noc_fail_arm(0);
	sim_embed_noc_fail_arm(-1);
	assert_int_equal(tt_noc_read32(dev, 0, c.x, c.y, a, &v), 0);
	assert_int_equal(tt_device_errors(dev, e, 4), 1);
}

/* A chip made without the fault ignores the arming. */
static void test_noc_fail_needs_the_fault(void **state)
{
	struct fixture *f = *state;
	tt_device *dev = open_booted(f);
	struct tt_xy c = tensix_xy(dev, 0);
	uint32_t v;

	sim_embed_noc_fail_arm(0);
	assert_int_equal(tt_noc_write32(dev, 0, c.x, c.y, 0x10000, 7), 0);
	assert_int_equal(tt_noc_read32(dev, 0, c.x, c.y, 0x10000, &v), 0);
	assert_int_equal(v, 7);
	sim_embed_noc_fail_arm(-1);
}

/* ---- through a ttsim daemon ---- */

static int daemon_up(void **state)
{
	struct fixture *f;

	if (fixture_up(state))
		return -1;
	f = *state;
	if (!test_rundir(f->rundir, sizeof(f->rundir)))
		return -1;
	setenv("TT_TRANSPORT", "ttsim", 1);
	return 0;
}

/* The daemon takes the variable from its environment. */
static void test_daemon_inherits(void **state)
{
	struct fixture *f = *state;

	setenv("TT_SIM_INJECT", "no-such-fault", 1);
	assert_int_equal(run_ttsim("start --name inj0"), 1);
	/* A fault of the host's own accesses cannot be the daemon's. */
	setenv("TT_SIM_INJECT", "noc-fail", 1);
	assert_int_equal(run_ttsim("start --name inj0"), 1);
	setenv("TT_SIM_INJECT", "telemetry-count", 1);
	assert_int_equal(run_ttsim("start --name inj0"), 1);
	setenv("TT_SIM_INJECT", "reset-dead", 1);
	assert_int_equal(run_ttsim("start --name inj0"), 0);
	unsetenv("TT_SIM_INJECT");
	open_booted(f);
	assert_string_equal(tt_device_get_info(f->dev)->transport, "ttsim");
	assert_reset_dies(f->dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reset_dead, fixture_up,
						fixture_down),
		cmocka_unit_test_setup_teardown(test_healthy_chip_resets,
						fixture_up, fixture_down),
		cmocka_unit_test_setup_teardown(test_empty_is_none, fixture_up,
						fixture_down),
		cmocka_unit_test_setup_teardown(test_unknown_fault_refused,
						fixture_up, fixture_down),
		cmocka_unit_test_setup_teardown(test_noc_fail, fixture_up,
						fixture_down),
		cmocka_unit_test_setup_teardown(test_noc_fail_needs_the_fault,
						fixture_up, fixture_down),
		cmocka_unit_test_setup_teardown(test_daemon_inherits,
						daemon_up, fixture_down),
	};

	return cmocka_run_group_tests_name("inject", tests, NULL, NULL);
}
