// SPDX-License-Identifier: Apache-2.0
/*
 * Management firmware messages through libtt on a booted embedded chip:
 * round trips on every queue, statuses, board information, power states
 * and clocks, fan and watchdog, ring wrap-around, concurrent callers, and
 * a firmware that does not answer.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testcases.h"
#include "testutil.h"
#include "tmpdir.h"
#include "hw/flash.h"
#include "sim/model/flash.h"

#define CALL_MS 2000
#define SOFT_RESET (TT_REG_TILE_CTRL_ADDR + TT_TILE_SOFT_RESET)

static void sleep_ms(unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&t, NULL);
}

static int test_msg(tt_device *dev, unsigned q, uint32_t n,
		    struct tt_msg_reply *r)
{
	uint32_t args[7] = { n };

	return tt_mgmt_call(dev, q, TT_MGMT_TEST, args, r, CALL_MS);
}

static void test_round_trip_every_queue(void **state)
{
	static const uint32_t values[] = { 0, 1, 41, 0x7FFFFFFF, 0xFFFFFFFE };
	tt_device *dev = *state;

	for (unsigned q = 0; q < TT_MGMT_QUEUES; q++) {
		struct tt_msg_reply r;
		uint32_t serial = 0;

		for (size_t k = 0; k < sizeof(values) / sizeof(*values); k++) {
			if (test_msg(dev, q, values[k], &r))
				fail_msg("queue %u: %s", q, tt_last_error());
			assert_int_equal(r.status, TT_MGMT_STATUS_OK);
			assert_int_equal(r.data[0], values[k] + 1);
			/* The firmware counts the messages it served. */
			if (k)
				assert_int_equal(r.data[1], serial + 1);
			serial = r.data[1];
		}
	}
}

static void test_convenience_test(void **state)
{
	uint32_t out = 0;

	assert_int_equal(tt_mgmt_test(*state, 99, &out), 0);
	assert_int_equal(out, 100);
	assert_int_equal(tt_mgmt_test(*state, 0xFFFFFFFF, &out), 0);
	assert_int_equal(out, 0);
	assert_int_equal(tt_mgmt_test(*state, 5, NULL), 0);
}

static void test_nop_and_unknown(void **state)
{
	struct tt_msg_reply r;
	tt_device *dev = *state;

	assert_int_equal(tt_mgmt_call(dev, TT_MGMT_QUEUE_TOOLS, TT_MGMT_NOP,
				      NULL, &r, CALL_MS),
			 0);
	assert_int_equal(r.status, TT_MGMT_STATUS_OK);
	assert_int_equal(tt_mgmt_call(dev, TT_MGMT_QUEUE_TOOLS, TT_MGMT_NOP,
				      NULL, NULL, CALL_MS),
			 0);
	memset(&r, 0, sizeof(r));
	assert_int_equal(tt_mgmt_call(dev, TT_MGMT_QUEUE_TOOLS, 0xEE, NULL, &r,
				      CALL_MS),
			 -EOPNOTSUPP);
	assert_int_equal(r.status, TT_MGMT_STATUS_UNKNOWN);
	assert_non_null(strstr(tt_last_error(), "0xee"));
	/* The queue is still in step afterwards. */
	assert_int_equal(tt_mgmt_test(dev, 7, NULL), 0);
}

static void test_bad_queue(void **state)
{
	assert_int_equal(tt_mgmt_call(*state, TT_MGMT_QUEUES, TT_MGMT_NOP, NULL,
				      NULL, CALL_MS),
			 -EINVAL);
	assert_non_null(strstr(tt_last_error(), "queue 4"));
}

static void test_board_info(void **state)
{
	const struct tt_device_info *i = tt_device_get_info(*state);
	struct tt_mgmt_board_info b;
	struct tt_telemetry t;

	assert_int_equal(tt_mgmt_board_info(*state, &b), 0);
	assert_string_equal(tt_card_type_name(b.card_type), i->board);
	assert_int_equal(b.chip_index, i->chip);
	assert_int_equal(b.grid_x, i->grid_x);
	assert_int_equal(b.grid_y, i->grid_y);
	assert_int_equal(b.tensix_count, i->tensix_count);
	assert_true(b.aiclk_min_mhz > 0 && b.aiclk_min_mhz < b.aiclk_max_mhz);
	assert_true(b.vdd_min_mv < b.vdd_max_mv);
	assert_true(b.thm_limit_throttle_c < b.thm_limit_shutdown_c);
	assert_int_equal(tt_telemetry_read(*state, &t), 0);
	assert_true(b.board_id == t.board_id);
	assert_true(b.aiclk_max_mhz == t.aiclk_max_mhz);
	assert_true(b.tdp_limit_w == t.tdp_limit_w);
}

static int board_info_raw(tt_device *dev, uint32_t off, uint32_t len,
			  struct tt_msg_reply *r)
{
	uint32_t args[7] = { off, len };

	return tt_mgmt_call(dev, TT_MGMT_QUEUE_APP, TT_MGMT_READ_BOARD_INFO,
			    args, r, CALL_MS);
}

static void test_board_info_offsets(void **state)
{
	struct tt_mgmt_board_info b;
	struct tt_msg_reply r;
	tt_device *dev = *state;

	assert_int_equal(tt_mgmt_board_info(dev, &b), 0);
	/* grid_x, grid_y, tensix_count are words 20..22 (offset 80). */
	assert_int_equal(board_info_raw(dev, 80, 12, &r), 0);
	assert_int_equal(r.data[0], b.grid_x);
	assert_int_equal(r.data[1], b.grid_y);
	assert_int_equal(r.data[2], b.tensix_count);
	/* The last bytes of the structure. */
	assert_int_equal(board_info_raw(dev, 120, 8, &r), 0);
	assert_int_equal(board_info_raw(dev, 127, 1, &r), 0);
	/* Past the end, too long, wrapping around. */
	assert_int_equal(board_info_raw(dev, 128, 4, &r), -EIO);
	assert_int_equal(r.status, TT_MGMT_STATUS_BAD_ARG);
	assert_non_null(strstr(tt_last_error(), "0x19"));
	assert_int_equal(board_info_raw(dev, 124, 8, &r), -EIO);
	assert_int_equal(board_info_raw(dev, 0, 25, &r), -EIO);
	assert_int_equal(board_info_raw(dev, 0xFFFFFFF0u, 24, &r), -EIO);
	assert_int_equal(r.status, TT_MGMT_STATUS_BAD_ARG);
}

static bool telem_aiclk_is(tt_device *dev, unsigned mhz, unsigned ms)
{
	struct tt_telemetry t;

	for (unsigned waited = 0;; waited += 50) {
		if (tt_telemetry_read(dev, &t))
			fail_msg("%s", tt_last_error());
		if (t.aiclk_mhz == mhz)
			return true;
		if (waited >= ms)
			return false;
		sleep_ms(50);
	}
}

static void test_power_states(void **state)
{
	struct tt_mgmt_board_info b;
	tt_device *dev = *state;
	bool forced = true;
	unsigned mhz = 0;

	assert_int_equal(tt_mgmt_board_info(dev, &b), 0);
	assert_int_equal(tt_mgmt_set_power_state(dev, true), 0);
	assert_int_equal(tt_mgmt_get_aiclk(dev, &mhz, &forced), 0);
	assert_int_equal(mhz, b.aiclk_max_mhz);
	assert_false(forced);
	assert_true(telem_aiclk_is(dev, b.aiclk_max_mhz, 2000));
	assert_int_equal(tt_mgmt_set_power_state(dev, false), 0);
	assert_int_equal(tt_mgmt_get_aiclk(dev, &mhz, NULL), 0);
	assert_int_equal(mhz, b.aiclk_min_mhz);
	assert_true(telem_aiclk_is(dev, b.aiclk_min_mhz, 2000));
}

static void test_force_aiclk(void **state)
{
	struct tt_mgmt_board_info b;
	tt_device *dev = *state;
	bool forced = false;
	unsigned mhz = 0, mid;

	assert_int_equal(tt_mgmt_board_info(dev, &b), 0);
	mid = (b.aiclk_min_mhz + b.aiclk_max_mhz) / 2;
	assert_int_equal(tt_mgmt_force_aiclk(dev, mid), 0);
	assert_int_equal(tt_mgmt_get_aiclk(dev, &mhz, &forced), 0);
	assert_int_equal(mhz, mid);
	assert_true(forced);
	assert_true(telem_aiclk_is(dev, mid, 2000));
	/* The power policy does not override a forced clock. */
	assert_int_equal(tt_mgmt_set_power_state(dev, true), 0);
	assert_int_equal(tt_mgmt_get_aiclk(dev, &mhz, NULL), 0);
	assert_int_equal(mhz, mid);
	assert_int_equal(tt_mgmt_force_aiclk(dev, b.aiclk_max_mhz + 500), -EIO);
	assert_non_null(strstr(tt_last_error(), "out of range"));
	assert_int_equal(tt_mgmt_force_aiclk(dev, 1), -EIO);
	assert_int_equal(tt_mgmt_get_aiclk(dev, &mhz, NULL), 0);
	assert_int_equal(mhz, mid);
	assert_int_equal(tt_mgmt_force_aiclk(dev, 0), 0);
	assert_int_equal(tt_mgmt_get_aiclk(dev, &mhz, &forced), 0);
	assert_false(forced);
	assert_int_equal(mhz, b.aiclk_max_mhz);
	assert_int_equal(tt_mgmt_set_power_state(dev, false), 0);
}

static void test_fan_and_watchdog(void **state)
{
	tt_device *dev = *state;
	struct tt_telemetry t;
	unsigned waited;

	assert_int_equal(tt_mgmt_force_fan(dev, 101), -EINVAL);
	assert_int_equal(tt_mgmt_force_fan(dev, -2), -EINVAL);
	assert_int_equal(tt_mgmt_force_fan(dev, 77), 0);
	for (waited = 0; waited < 2000; waited += 50) {
		assert_int_equal(tt_telemetry_read(dev, &t), 0);
		if (t.fan_percent == 77)
			break;
		sleep_ms(50);
	}
	assert_true(t.fan_percent == 77);
	assert_int_equal(tt_mgmt_force_fan(dev, -1), 0);
	/* The firmware pets the watchdog it set up, so nothing resets. */
	assert_int_equal(tt_mgmt_set_watchdog(dev, 1000), 0);
	for (waited = 0; waited < 2000; waited += 50) {
		assert_int_equal(tt_telemetry_read(dev, &t), 0);
		if (t.watchdog_ms == 1000)
			break;
		sleep_ms(50);
	}
	assert_int_equal(t.watchdog_ms, 1000);
	sleep_ms(1500);
	assert_int_equal(tt_mgmt_test(dev, 1, NULL), 0);
	assert_int_equal(tt_mgmt_set_watchdog(dev, 0), 0);
}

/* Many times the ring size in a row: the pointers wrap at 2 x size. */
static void test_wrap_around(void **state)
{
	tt_device *dev = *state;

	for (unsigned q = 0; q < TT_MGMT_QUEUES; q++)
		for (uint32_t n = 0; n < 5 * 2 * TT_MSGQ_SIZE + 3; n++) {
			struct tt_msg_reply r;

			if (test_msg(dev, q, n * 3, &r))
				fail_msg("queue %u message %u: %s", q, n,
					 tt_last_error());
			assert_int_equal(r.data[0], n * 3 + 1);
		}
}

struct racer {
	tt_device *dev;
	unsigned id;
	int bad;
};

static void *race(void *arg)
{
	struct racer *r = arg;

	for (uint32_t n = 0; n < 50; n++) {
		uint32_t v = r->id << 16 | n;
		struct tt_msg_reply rep;

		if (test_msg(r->dev, TT_MGMT_QUEUE_APP, v, &rep) ||
		    rep.data[0] != v + 1)
			r->bad++;
	}
	return NULL;
}

/* Callers on one queue are serialised: every answer reaches its caller. */
static void test_concurrent_callers(void **state)
{
	struct racer r[4];
	pthread_t t[4];

	for (unsigned k = 0; k < 4; k++) {
		r[k] = (struct racer){ .dev = *state, .id = k + 1 };
		assert_int_equal(pthread_create(&t[k], NULL, race, &r[k]), 0);
	}
	for (unsigned k = 0; k < 4; k++) {
		pthread_join(t[k], NULL);
		assert_int_equal(r[k].bad, 0);
	}
}

/*
 * A management hart held in reset answers nothing: the call times out
 * with a clear message, and tt_device_reset still recovers the chip (the
 * firmware cannot act on TRIGGER_RESET, so libtt uses the reset unit).
 */
static void test_timeout_and_recovery(void **state)
{
	struct tt_xy arc = arc_node(*state);
	struct tt_hart_status st;
	tt_device *dev = *state;
	uint32_t v, args[7] = { 5 };
	struct tt_msg_reply r;

	assert_int_equal(tt_noc_read32(dev, 0, arc.x, arc.y, SOFT_RESET, &v),
			 0);
	assert_int_equal(tt_noc_write32(dev, 0, arc.x, arc.y, SOFT_RESET,
					v | tt_hart_reset_bit(0)),
			 0);
	/* The hart stops at its next scheduling point. */
	for (int i = 0; i < 100; i++) {
		assert_int_equal(tt_hart_status(dev, arc, 0, &st), 0);
		if (st.state == TT_HART_STATE_RESET)
			break;
		sleep_ms(10);
	}
	assert_int_equal(st.state, TT_HART_STATE_RESET);
	assert_int_equal(tt_mgmt_call(dev, TT_MGMT_QUEUE_TOOLS, TT_MGMT_TEST,
				      args, &r, 300),
			 -ETIMEDOUT);
	assert_non_null(strstr(tt_last_error(),
			       "management firmware did not answer message 0x90 within 300 ms"));
	if (tt_device_reset(dev, 20000))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_hart_status(dev, arc, 0, &st), 0);
	assert_int_not_equal(st.state, TT_HART_STATE_RESET);
	/* Every queue works again, the one with the lost request too. */
	for (unsigned q = 0; q < TT_MGMT_QUEUES; q++) {
		assert_int_equal(test_msg(dev, q, 10, &r), 0);
		assert_int_equal(r.data[0], 11);
	}
}

/* A caller that gave up leaves an answer behind; the next caller must
 * skip it, not take it for its own. A zero timeout posts the request and
 * gives up at the first look for the answer. */
static void test_late_answer_is_skipped(void **state)
{
	tt_device *dev = *state;
	uint32_t args[7] = { 2000 };
	struct tt_msg_reply r;
	int ret;

	for (uint32_t n = 0; n < 3; n++) {
		args[0] = 2000 + n;
		ret = tt_mgmt_call(dev, TT_MGMT_QUEUE_MONITOR, TT_MGMT_TEST,
				   args, &r, 0);
		/* Rarely, the firmware is quicker than the first look. */
		assert_true(ret == -ETIMEDOUT ||
			    (ret == 0 && r.data[0] == args[0] + 1));
	}
	assert_int_equal(test_msg(dev, TT_MGMT_QUEUE_MONITOR, 3000, &r), 0);
	assert_int_equal(r.data[0], 3001);
	assert_int_equal(test_msg(dev, TT_MGMT_QUEUE_MONITOR, 4000, &r), 0);
	assert_int_equal(r.data[0], 4001);
}

/* A test that failed may leave the chip reset under the group's handle:
 * open a fresh one so the tests after it still mean something. */
static int reopen_if_stale(void **state)
{
	if (tt_mgmt_test(*state, 0, NULL) != -ENODEV)
		return 0;
	tt_device_close(*state);
	return booted_up(state);
}

/* ---- boots that fail (own chips, embedded only) ---- */

/* Open embedded device 0 with TT_FIRMWARE=firmware and wait for its
 * management firmware; returns what the wait returned, the time it took
 * in *ms. */
static int boot_with(const char *firmware, int timeout_ms, long *ms)
{
	struct timespec a, b;
	tt_device *dev;
	int ret;

	setenv("TT_FIRMWARE", firmware, 1);
	setenv("TT_TRANSPORT", "embedded", 1);
	assert_int_equal(tt_device_open(0, &dev), 0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	ret = tt_mgmt_wait_ready(dev, timeout_ms);
	clock_gettime(CLOCK_MONOTONIC, &b);
	*ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
	/* Keep the message past the close. */
	fprintf(stderr, "# %s\n", tt_last_error());
	tt_device_close(dev);
	unsetenv("TT_FIRMWARE");
	return ret;
}

/* A bundle whose management firmware is one illegal instruction (zeros):
 * the ARC hart faults at its first step. The wait says so at once, with
 * the fault, instead of timing out on POST code 0. */
static void test_arc_halts_at_boot(void **state)
{
	static uint32_t words[0x400 / 4];
	struct tt_flash_header *h = (struct tt_flash_header *)words;
	struct tt_flash_entry *e = &h->entry[0];
	char dir[256], path[300], msg[512];
	long ms;
	FILE *f;

	(void)state;
	h->magic = TT_FLASH_MAGIC;
	h->format = TT_FLASH_FORMAT;
	h->entry_count = 1;
	e->kind = TT_FLASH_ARC_FW;
	e->offset = 0x200;
	e->size = 0x10;
	e->load_addr = e->entry = (uint32_t)TT_ARC_CSM_BASE;
	e->crc32 = sim_crc32((uint8_t *)words + e->offset, e->size);
	assert_non_null(test_mkdtemp(dir, sizeof(dir), "tt-arcfw"));
	snprintf(path, sizeof(path), "%s/faulting.bin", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(words, 1, sizeof(words), f), sizeof(words));
	assert_int_equal(fclose(f), 0);

	assert_int_equal(boot_with(path, 10000, &ms), -EIO);
	snprintf(msg, sizeof(msg), "%s", tt_last_error());
	assert_non_null(strstr(msg, "embedded0: the management hart halted at boot (fault: "));
	assert_non_null(strstr(msg, "illegal instruction at pc 0x10000000"));
	assert_non_null(strstr(msg, "POST code 0x00000000: not started"));
	assert_true(ms < 2000);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* A blank flash: the hart stays in reset, and the timeout says that. */
static void test_blank_flash_times_out(void **state)
{
	long ms;

	(void)state;
	assert_int_equal(boot_with("/dev/null", 200, &ms), -ETIMEDOUT);
	assert_non_null(strstr(tt_last_error(),
			       "(POST code 0x00000000: not started; message queues not ready; management hart in reset)"));
}

/* The cases that apply to a live chip behind the driver (testcases.h). */
static const char *const kmd_cases[] = {
	"test_round_trip_every_queue",
	"test_convenience_test",
	"test_nop_and_unknown",
	"test_bad_queue",
	"test_board_info",
	"test_board_info_offsets",
	"test_wrap_around",
	"test_concurrent_callers",
	NULL,
};

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_every_queue),
		cmocka_unit_test(test_convenience_test),
		cmocka_unit_test(test_nop_and_unknown),
		cmocka_unit_test(test_bad_queue),
		cmocka_unit_test(test_board_info),
		cmocka_unit_test(test_board_info_offsets),
		cmocka_unit_test(test_power_states),
		cmocka_unit_test(test_force_aiclk),
		cmocka_unit_test_teardown(test_fan_and_watchdog,
					  reopen_if_stale),
		cmocka_unit_test(test_wrap_around),
		cmocka_unit_test(test_concurrent_callers),
		cmocka_unit_test(test_late_answer_is_skipped),
		cmocka_unit_test(test_timeout_and_recovery),
	};

	const struct CMUnitTest boot_tests[] = {
		cmocka_unit_test(test_arc_halts_at_boot),
		cmocka_unit_test(test_blank_flash_times_out),
	};
	/* Chips of their own, made and gone before the main group's. */
	int failed = test_on_kmd() ? 0 :
		cmocka_run_group_tests_name("mgmt_boot", boot_tests, NULL,
					    NULL);

	return RUN_GROUP("mgmt", tests, booted_up, booted_down, kmd_cases) ||
	       failed;
}
