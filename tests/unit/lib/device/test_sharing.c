// SPDX-License-Identifier: Apache-2.0
/*
 * Sharing one chip between processes (docs/api.md, "Sharing a device"):
 * management messages of several processes on one queue each get their
 * own answer (the queue's device lock); the chip's memory and programs
 * belong to one process at a time (the runtime lock), released when it
 * closes or dies, while monitoring works from anywhere. On a ttsim daemon,
 * and the cases that apply on kmd in the VM guest (testcases.h).
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

#include "testcases.h"
#include "testutil.h"
#include "tt/buffer.h"
#include "tt/hart.h"
#include "tt/mgmt.h"
#include "tt/queue.h"
#include "tt/telemetry.h"

#define SENDERS 3
#define MESSAGES 300

static int daemon_up(void **state)
{
	unsetenv("TT_OWNER_WAIT_MS");
	return test_daemon_up(state, "sh0");
}

static int no_wait(void **state)
{
	(void)state;
	unsetenv("TT_OWNER_WAIT_MS");
	return 0;
}

static tt_device *open_booted(void)
{
	tt_device *dev;

	assert_int_equal(tt_device_open(0, &dev), 0);
	if (tt_mgmt_wait_ready(dev, BOOT_MS))
		fail_msg("%s", tt_last_error());
	return dev;
}

/* Child: MESSAGES test messages whose answers depend on the argument
 * (tt_mgmt_test checks n + 1); exits with the failing message's number. */
#define MESSAGE_MS 30000

static int send_many(unsigned who)
{
	tt_device *dev;

	if (tt_device_open(0, &dev) || tt_mgmt_wait_ready(dev, BOOT_MS))
		return 1;
	for (uint32_t i = 0; i < MESSAGES; i++) {
		uint32_t args[7] = { who << 20 | i };
		struct tt_msg_reply r = { 0 };

		/* TEST as tt_mgmt_test sends it, but with room to wait: what
		 * this checks is that no message is lost or mixed up, and the
		 * library's 2 s per message was missed under the debug kernel
		 * on a loaded two-core machine (three senders queue on one
		 * lock). */
		if (tt_mgmt_call(dev, TT_MGMT_QUEUE_APP, TT_MGMT_TEST, args, &r,
				 MESSAGE_MS) ||
		    r.data[0] != args[0] + 1) {
			fprintf(stderr, "sender %u message %u: %s (answer %u)\n",
				who, i, tt_last_error(), r.data[0]);
			return 2;
		}
	}
	tt_device_close(dev);
	return 0;
}

static void test_messages_from_many_processes(void **state)
{
	pid_t pids[SENDERS];

	(void)state;
	tt_device_close(open_booted());
	for (unsigned i = 0; i < SENDERS; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (!pids[i])
			_exit(send_many(i + 1));
	}
	for (unsigned i = 0; i < SENDERS; i++) {
		int st;

		assert_int_equal(waitpid(pids[i], &st, 0), pids[i]);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 0);
	}
}

static int dram_buffer(tt_device *dev, tt_buffer **b)
{
	struct tt_buffer_config c = {
		.device = dev, .size = 4096, .page_size = 1024,
		.type = TT_BUFFER_DRAM, .layout = TT_LAYOUT_INTERLEAVED,
	};

	return tt_buffer_create(&c, b);
}

/* Child: a buffer is refused naming `owner`, monitoring works. */
static int check_refused(pid_t owner)
{
	struct tt_telemetry t;
	char pid_text[32];
	tt_buffer *b;
	tt_device *dev;
	uint32_t got;

	snprintf(pid_text, sizeof(pid_text), "process %d", (int)owner);
	if (tt_device_open(0, &dev))
		return 1;
	if (dram_buffer(dev, &b) != -EBUSY)
		return 2;
	if (!strstr(tt_last_error(), pid_text) &&
	    strcmp(test_transport(), "kmd")) /* the driver names no holder */
		return 3;
	if (tt_telemetry_read(dev, &t) || tt_mgmt_test(dev, 7, &got))
		return 4;
	if (tt_dma_buf_alloc(dev, 4096, &(tt_dma_buf *){ NULL }) != -EBUSY)
		return 5;
	tt_device_close(dev);
	return 0;
}

/* Child: a buffer is allocated. */
static int check_allowed(void)
{
	tt_buffer *b;
	tt_device *dev;

	if (tt_device_open(0, &dev))
		return 1;
	if (dram_buffer(dev, &b)) {
		fprintf(stderr, "%s\n", tt_last_error());
		return 2;
	}
	tt_buffer_free(b);
	tt_device_close(dev);
	return 0;
}

static int run_child(int (*fn)(pid_t), pid_t arg)
{
	pid_t pid = fork();
	int st;

	if (pid == 0)
		_exit(fn(arg));
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int allowed(pid_t unused)
{
	(void)unused;
	return check_allowed();
}

static void test_one_runtime_owner(void **state)
{
	tt_device *dev = open_booted();
	tt_buffer *b;
	char smi[512];

	(void)state;
	assert_int_equal(dram_buffer(dev, &b), 0);
	assert_int_equal(run_child(check_refused, getpid()), 0);
	/* tt-smi monitors the device its owner uses. */
	if (!test_on_kmd()) {
		snprintf(smi, sizeof(smi), "%s/smi/tt-smi -s >/dev/null",
			 getenv("TT_BUILD_ROOT") ? getenv("TT_BUILD_ROOT") :
						   "build");
		assert_int_equal(system(smi), 0);
	}
	tt_buffer_free(b);
	tt_device_close(dev);
	assert_int_equal(run_child(allowed, 0), 0);
}

/* Handles of the owner share the chip: ownership passes to the one left
 * open when the one that took it closes. */
static void test_handles_of_owner_share(void **state)
{
	tt_device *a = open_booted(), *b2;
	tt_buffer *x, *y;

	(void)state;
	assert_int_equal(tt_device_open(0, &b2), 0);
	assert_int_equal(dram_buffer(a, &x), 0);
	assert_int_equal(dram_buffer(b2, &y), 0);
	tt_buffer_free(x);
	tt_device_close(a);
	assert_int_equal(run_child(check_refused, getpid()), 0);
	tt_buffer_free(y);
	tt_device_close(b2);
	assert_int_equal(run_child(allowed, 0), 0);
}

/* Child: own the chip, say so on fd, then wait to be killed. */
static void own_and_wait(int fd, struct tt_xy unused)
{
	tt_device *dev;
	tt_buffer *b;
	char ok = 1;

	(void)unused;
	if (tt_device_open(0, &dev) || dram_buffer(dev, &b))
		ok = 0;
	if (write(fd, &ok, 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

/* A child running fn(fd, core), which says 1 on fd once it owns the
 * chip and then waits to be killed. */
static pid_t start_child(void (*fn)(int fd, struct tt_xy core),
			 struct tt_xy core)
{
	int p[2];
	pid_t pid;
	char ok = 0;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(p[0]);
		fn(p[1], core);
	}
	close(p[1]);
	assert_int_equal(read(p[0], &ok, 1), 1);
	close(p[0]);
	assert_int_equal(ok, 1);
	return pid;
}

static pid_t start_owner(void)
{
	return start_child(own_and_wait, (struct tt_xy){ 0, 0 });
}

static void test_killed_owner_releases(void **state)
{
	tt_device *dev = open_booted();
	pid_t owner = start_owner();
	char pid_text[32];
	tt_buffer *b;
	int st;

	(void)state;
	assert_int_equal(dram_buffer(dev, &b), -EBUSY);
	snprintf(pid_text, sizeof(pid_text), "process %d", (int)owner);
	if (!test_on_kmd())
		assert_non_null(strstr(tt_last_error(), pid_text));
	assert_int_equal(kill(owner, SIGKILL), 0);
	assert_int_equal(waitpid(owner, &st, 0), owner);
	assert_int_equal(dram_buffer(dev, &b), 0);
	tt_buffer_free(b);
	tt_device_close(dev);
}

static void test_owner_wait(void **state)
{
	tt_device *dev = open_booted();
	pid_t owner = start_owner(), killer;
	tt_buffer *b;
	int st;

	(void)state;
	setenv("TT_OWNER_WAIT_MS", "ten", 1);
	assert_int_equal(dram_buffer(dev, &b), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "TT_OWNER_WAIT_MS='ten'"));
	setenv("TT_OWNER_WAIT_MS", "100", 1);
	assert_int_equal(dram_buffer(dev, &b), -EBUSY);
	/* The owner dies while we wait. */
	killer = fork();
	assert_true(killer >= 0);
	if (!killer) {
		usleep(300000);
		kill(owner, SIGKILL);
		_exit(0);
	}
	setenv("TT_OWNER_WAIT_MS", "20000", 1);
	assert_int_equal(dram_buffer(dev, &b), 0);
	unsetenv("TT_OWNER_WAIT_MS");
	assert_int_equal(waitpid(owner, &st, 0), owner);
	assert_int_equal(waitpid(killer, &st, 0), killer);
	tt_buffer_free(b);
	tt_device_close(dev);
}

/* Child: own the chip by running the "hang" test kernel on hart 0 of
 * core, say so on fd, then wait to be killed in the middle of it. */
static void hang_and_wait(int fd, struct tt_xy core)
{
	tt_device *dev;
	uint32_t entry = 0;
	char ok = 1;
	const char *dir = getenv("TT_FW_TESTS_DIR");
	char path[512];

	snprintf(path, sizeof(path), "%s/hang.elf", dir ? dir : ".");
	if (tt_device_open(0, &dev) ||
	    tt_hart_load_elf_file(dev, core, path, &entry) ||
	    tt_hart_launch(dev, core, 0, entry, NULL, 0)) {
		fprintf(stderr, "%s\n", tt_last_error());
		ok = 0;
	}
	if (write(fd, &ok, 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

/* The entry of p[0..n) for core, or NULL. */
static const struct tt_core_problem *
problem_of(const struct tt_core_problem *p, int n, struct tt_xy core)
{
	for (int i = 0; i < n && i < 16; i++)
		if (p[i].core.x == core.x && p[i].core.y == core.y)
			return &p[i];
	return NULL;
}

static pid_t hung_owner;

static int kill_hung_owner(void **state)
{
	int st;

	(void)state;
	if (hung_owner > 0) {
		kill(hung_owner, SIGKILL);
		waitpid(hung_owner, &st, 0);
	}
	hung_owner = 0;
	return 0;
}

/*
 * An owner killed in the middle of a kernel: while it lives its launch is
 * nobody's problem; once it is dead every process sees the core needs
 * recovery, and the next owner recovers it without a chip reset. (Cores
 * other tests left behind may be listed too; only ours is looked at
 * until everything is recovered.)
 */
static void test_dead_owner_core_recovered(void **state)
{
	tt_device *dev = open_booted();
	struct tt_core_problem p[16];
	const struct tt_core_problem *mine;
	struct tt_hart_status st;
	struct tt_xy core, other;
	unsigned done = 0;
	uint32_t entry, args[3] = { 40, 2, 0x60000 };
	int32_t ret = 0;
	int n, wst;

	(void)state;
	if (!getenv("TT_FW_TESTS_DIR"))
		skip();
	/* Earlier tests may have written over a core's firmware, which
	 * only a reset restores. */
	if (tt_device_reset(dev, 20000))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_device_tensix_core(dev, 5, &core), 0);
	assert_int_equal(tt_device_tensix_core(dev, 6, &other), 0);
	hung_owner = start_child(hang_and_wait, core);
	n = tt_device_core_problems(dev, p, 16);
	assert_true(n >= 0);
	mine = problem_of(p, n, core);
	if (mine)
		fail_msg("a live owner's launch is listed: %s", mine->why);
	assert_int_equal(tt_device_recover_cores(dev, &done), -EBUSY);
	assert_int_equal(kill(hung_owner, SIGKILL), 0);
	assert_int_equal(waitpid(hung_owner, &wst, 0), hung_owner);
	hung_owner = 0;

	n = tt_device_core_problems(dev, p, 16);
	mine = problem_of(p, n, core);
	assert_non_null(mine);
	assert_int_equal(mine->hart, 0);
	assert_non_null(strstr(mine->why, "no process owns"));
	/* Room for none: still counted. */
	assert_int_equal(tt_device_core_problems(dev, NULL, 0), n);
	assert_int_equal(tt_device_core_problems(dev, NULL, 1), -EINVAL);

	if (tt_device_recover_cores(dev, &done))
		fail_msg("%s", tt_last_error());
	assert_int_equal(done, (unsigned)n);
	assert_int_equal(tt_device_core_problems(dev, p, 16), 0);
	assert_int_equal(tt_hart_status(dev, core, 0, &st), 0);
	assert_true(st.pc < TT_HART_KERNEL_BASE); /* back in its firmware */
	/* The core runs code again; so does one that was never touched. */
	entry = load_kernel(dev, core, "add");
	if (tt_hart_run(dev, core, 0, entry, args, 3, 5000, &ret))
		fail_msg("%s", tt_last_error());
	assert_int_equal(ret, 42);
	entry = load_kernel(dev, other, "add");
	assert_int_equal(tt_hart_run(dev, other, 1, entry, args, 3, 5000, &ret),
			 0);
	assert_int_equal(ret, 42);
	tt_device_close(dev);
}

/* The embedded chip is private to the process: its handles share it. */
static void test_embedded_handles_share(void **state)
{
	tt_device *a, *b2;
	tt_buffer *x, *y;

	(void)state;
	setenv("TT_TRANSPORT", "embedded", 1);
	assert_int_equal(tt_device_open(0, &a), 0);
	assert_int_equal(tt_device_open(0, &b2), 0);
	assert_int_equal(dram_buffer(a, &x), 0);
	assert_int_equal(dram_buffer(b2, &y), 0);
	tt_buffer_free(x);
	tt_buffer_free(y);
	tt_device_close(a);
	tt_device_close(b2);
	unsetenv("TT_TRANSPORT");
}

static const char *const kmd_cases[] = {
	"test_messages_from_many_processes",
	"test_one_runtime_owner",
	"test_handles_of_owner_share",
	"test_killed_owner_releases",
	"test_owner_wait",
	"test_dead_owner_core_recovered",
	NULL,
};

int main(void)
{
	const struct CMUnitTest shared[] = {
		cmocka_unit_test_setup(test_messages_from_many_processes,
				       no_wait),
		cmocka_unit_test_setup(test_one_runtime_owner, no_wait),
		cmocka_unit_test_setup(test_handles_of_owner_share, no_wait),
		cmocka_unit_test_setup(test_killed_owner_releases, no_wait),
		cmocka_unit_test_setup(test_owner_wait, no_wait),
		cmocka_unit_test_setup_teardown(test_dead_owner_core_recovered,
						no_wait, kill_hung_owner),
	};
	const struct CMUnitTest embedded[] = {
		cmocka_unit_test(test_embedded_handles_share),
	};

	if (test_on_kmd())
		return RUN_GROUP("sharing", shared, NULL, NULL, kmd_cases);
	return cmocka_run_group_tests_name("sharing_ttsim", shared, daemon_up,
					   test_daemon_down) +
	       cmocka_run_group_tests_name("sharing_embedded", embedded, NULL,
					   NULL);
}
