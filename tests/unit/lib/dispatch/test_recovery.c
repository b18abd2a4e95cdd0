// SPDX-License-Identifier: Apache-2.0
/*
 * Recovery of cores a program left busy (docs/dispatch.md, "Recovery"):
 * after a kernel hangs or faults, the next program on its core runs
 * correctly without a chip reset, and no fault is reported under its
 * name; a program that times out is stopped at once (released later,
 * it writes nothing); a recovery that cannot succeed fails with -EBUSY naming the
 * earlier failure; a process killed in the middle of a kernel leaves
 * cores the next owner recovers. On the embedded model, and on a ttsim
 * daemon for the killed process.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "hw/l1.h"
#include "testutil.h"
#include "tt/core.h"
#include "tt/mgmt.h"
#include "tt/noc.h"

/* Where the good kernel leaves its argument: free L1 (no CB, no L1
 * buffer in these programs). */
#define RESULT_ADDR 0x50000u

static const char *const good =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void) { *(volatile uint32_t *)0x50000 = get_arg_val(0); }\n";
static const char *const hang =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void) { WAYPOINT(\"HANG\"); for (;;) noc_semaphore_wait((volatile uint32_t *)0x40000, 12345); }\n";
/* Waits for semaphore 0x40000 to reach 7, then writes RESULT_ADDR: a
 * program that is only slow. */
static const char *const slow =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void) { noc_semaphore_wait((volatile uint32_t *)0x40000, 7); *(volatile uint32_t *)0x50000 = 0xbad; }\n";
static const char *const bad =
	"#include \"dataflow_api.h\"\n"
	"void kernel_main(void) { ASSERT(get_arg_val(0) == 7); }\n";

static const struct tt_xy core_xy = { 1, 1 }; /* logical */

/* Run kernel src on logical core (1,1) with argument arg through queue
 * 0 with a 300 ms timeout; its result. */
static int run(tt_device *dev, const char *src, uint32_t arg)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(1, 1);
	tt_command_queue *cq;
	tt_kernel_handle k;
	tt_program *p;
	int ret;

	p = program_prologue(dev, 0, 300, &cq);
	assert_int_equal(tt_create_kernel_from_string(p, src, &core, NULL, &k),
			 0);
	assert_int_equal(tt_set_runtime_args(p, k, core_xy, &arg, 1), 0);
	ret = tt_enqueue_program(cq, p, true);
	tt_program_free(p);
	return ret;
}

static struct tt_xy noc_of_core(tt_device *dev)
{
	struct tt_xy n = { 0, 0 };

	assert_int_equal(tt_device_worker_core(dev, core_xy, &n), 0);
	return n;
}

/* The good kernel runs on the core and leaves v at RESULT_ADDR. */
static void good_runs(tt_device *dev, uint32_t v)
{
	struct tt_xy n = noc_of_core(dev);
	uint32_t got = 0;

	assert_int_equal(tt_noc_write32(dev, 0, n.x, n.y, RESULT_ADDR, 0), 0);
	if (run(dev, good, v))
		fail_msg("the program after the failure: %s", tt_last_error());
	assert_int_equal(tt_noc_read32(dev, 0, n.x, n.y, RESULT_ADDR, &got),
			 0);
	assert_int_equal(got, v);
}

/* "program N" of a report, as a string. */
static void program_word(const char *msg, char *out, size_t len)
{
	const char *p = strstr(msg, "program ");
	unsigned id;

	assert_non_null(p);
	assert_int_equal(sscanf(p, "program %u", &id), 1);
	snprintf(out, len, "program %u ", id);
}

/* Two programs of the same kernel hang one after the other: each report
 * names its own program; the second was started on a recovered core,
 * and so is a different program after it, without a reset. */
static void test_after_hang(void **state)
{
	tt_device *dev = *state;
	char first[32], second[32];

	assert_int_equal(run(dev, hang, 0), -ETIMEDOUT);
	assert_non_null(strstr(tt_last_error(), "waypoint NSW"));
	program_word(tt_last_error(), first, sizeof(first));
	assert_int_equal(run(dev, hang, 0), -ETIMEDOUT);
	fprintf(stderr, "# %s\n", tt_last_error());
	assert_non_null(strstr(tt_last_error(), "waypoint NSW"));
	program_word(tt_last_error(), second, sizeof(second));
	assert_string_not_equal(first, second);
	good_runs(dev, 0x1234);
	good_runs(dev, 0x5678);
}

/* A program that times out is stopped then, not at its core's next
 * launch: released afterwards, it must not go on to write (a caller
 * frees its buffers on the timeout, and others get them). */
static void test_timed_out_program_stops(void **state)
{
	tt_device *dev = *state;
	struct tt_xy n = noc_of_core(dev);
	uint32_t got = 0;

	assert_int_equal(tt_noc_write32(dev, 0, n.x, n.y, RESULT_ADDR, 0), 0);
	assert_int_equal(tt_noc_write32(dev, 0, n.x, n.y, 0x40000, 0), 0);
	assert_int_equal(run(dev, slow, 0), -ETIMEDOUT);
	assert_int_equal(tt_noc_write32(dev, 0, n.x, n.y, 0x40000, 7), 0);
	usleep(300 * 1000);
	assert_int_equal(tt_noc_read32(dev, 0, n.x, n.y, RESULT_ADDR, &got),
			 0);
	assert_int_equal(got, 0);
	good_runs(dev, 0x4321);
}

/* A kernel halts; the next program on its core runs, and no fault is
 * blamed on it. */
static void test_after_fault(void **state)
{
	tt_device *dev = *state;

	assert_int_equal(run(dev, bad, 3), -EFAULT);
	assert_non_null(strstr(tt_last_error(), "assert"));
	assert_non_null(strstr(tt_last_error(), "recovered at their next launch"));
	good_runs(dev, 77);
	/* And the faulting kernel, run right, is not blamed for the old
	 * fault either. */
	assert_int_equal(run(dev, bad, 7), 0);
}

/* A core whose firmware is gone cannot be recovered: the launch fails
 * with -EBUSY naming the core and the failure it needed recovery after,
 * and the core fails so until a reset. */
static void test_recovery_fails(void **state)
{
	static uint8_t zeros[TT_L1_FW_SIZE];
	tt_device *dev = *state;
	struct tt_xy n = noc_of_core(dev);
	char want[160];

	assert_int_equal(run(dev, hang, 0), -ETIMEDOUT);
	assert_int_equal(tt_noc_write(dev, 0, n.x, n.y, TT_L1_FW_BRISC, zeros,
				      sizeof(zeros)),
			 0);
	assert_int_equal(run(dev, good, 1), -EBUSY);
	fprintf(stderr, "# %s\n", tt_last_error());
	snprintf(want, sizeof(want), "core (%u,%u) needs recovery after program",
		 n.x, n.y);
	assert_non_null(strstr(tt_last_error(), want));
	snprintf(want, sizeof(want), "hung on hart 0 (BRISC) in pid %ld",
		 (long)getpid());
	assert_non_null(strstr(tt_last_error(), want));
	assert_non_null(strstr(tt_last_error(), "halted: illegal instruction"));
	assert_int_equal(run(dev, good, 1), -EBUSY);
	assert_int_equal(tt_device_reset(dev, 10000), 0);
	good_runs(dev, 9);
}

/* ---- a killed owner, on a ttsim daemon ---- */

static int daemon_up(void **state)
{
	unsetenv("TT_OWNER_WAIT_MS");
	return test_daemon_up(state, "rec0");
}

static tt_device *open_booted(void)
{
	tt_device *dev;

	assert_int_equal(tt_device_open(0, &dev), 0);
	if (tt_mgmt_wait_ready(dev, BOOT_MS))
		fail_msg("%s", tt_last_error());
	return dev;
}

/* Child: start a kernel that never ends, say so on fd, wait to be
 * killed. */
static void hang_and_wait(int fd)
{
	struct tt_core_range_set core = tt_core_range_set_of_core(1, 1);
	tt_command_queue *cq;
	tt_kernel_handle k;
	tt_program *p = NULL;
	tt_device *dev;
	char ok = 0;

	if (!tt_device_open(0, &dev) && !tt_mgmt_wait_ready(dev, BOOT_MS) &&
	    !tt_device_command_queue(dev, 0, &cq) && !tt_create_program(&p) &&
	    !tt_create_kernel_from_string(p, hang, &core, NULL, &k) &&
	    !tt_enqueue_program(cq, p, false))
		ok = 1;
	if (write(fd, &ok, 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static void test_killed_owner(void **state)
{
	tt_device *dev;
	int p[2], st;
	pid_t pid;
	char ok = 0;

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(p[0]);
		hang_and_wait(p[1]);
	}
	close(p[1]);
	assert_int_equal(read(p[0], &ok, 1), 1);
	close(p[0]);
	/* Let the kernel get going. */
	usleep(100 * 1000);
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(ok, 1);
	dev = open_booted();
	good_runs(dev, 0xC0FFEE);
	good_runs(dev, 0xBEEF);
	tt_device_close(dev);
}

int main(void)
{
	const struct CMUnitTest embedded[] = {
		cmocka_unit_test(test_after_hang),
		cmocka_unit_test(test_after_fault),
		cmocka_unit_test(test_timed_out_program_stops),
		cmocka_unit_test(test_recovery_fails),
	};
	const struct CMUnitTest ttsim[] = {
		cmocka_unit_test(test_killed_owner),
	};
	int ret = cmocka_run_group_tests_name("recovery", embedded, booted_up,
					      booted_down);

	return ret + cmocka_run_group_tests_name("recovery_ttsim", ttsim,
						 daemon_up, test_daemon_down);
}
