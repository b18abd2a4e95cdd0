/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers shared by the libtt tests: issuing device-side NOC commands
 * through a node's NIU registers (as device code or a driver would), and
 * running a private ttsim daemon.
 */
#ifndef TT_TESTS_TESTUTIL_H
#define TT_TESTS_TESTUTIL_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hw/tt_hw.h"
#include "testcases.h"
#include "tmpdir.h"
#include "tt.h"

struct niu_cmd {
	unsigned op; /* TT_NIU_OP_* */
	unsigned x, y; /* target on the command's NOC */
	unsigned x_start, y_start; /* multicast */
	uint64_t targ, ret;
	uint32_t len, ctrl, incr;
};

/*
 * Program command buffer `buf` of node (nx, ny)'s NIU on `noc` and wait
 * until the engine has run it. Returns the command status (TT_DEV_ERR_*),
 * or -1 if the host could not program it or it never completed.
 */
static inline int niu_run(tt_device *dev, unsigned nx, unsigned ny,
			  unsigned noc, unsigned buf, const struct niu_cmd *c)
{
	uint64_t base = TT_REG_NIU_ADDR(noc) + TT_NIU_CMD(buf, 0);
	uint32_t regs[9] = {
		(uint32_t)c->targ, (uint32_t)(c->targ >> 32),
		TT_FIELD_PREP(TT_NIU_COORD_X_MASK, c->x) |
			TT_FIELD_PREP(TT_NIU_COORD_Y_MASK, c->y) |
			TT_FIELD_PREP(TT_NIU_COORD_X_START_MASK, c->x_start) |
			TT_FIELD_PREP(TT_NIU_COORD_Y_START_MASK, c->y_start),
		(uint32_t)c->ret, (uint32_t)(c->ret >> 32), c->len,
		TT_FIELD_PREP(TT_NIU_CTRL_OP_MASK, c->op) | c->ctrl, c->incr,
		1, /* ISSUE */
	};
	struct timespec t0, t;
	uint32_t v;

	if (tt_noc_write(dev, 0, nx, ny, base, regs, sizeof(regs)))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (tt_noc_read32(dev, 0, nx, ny, base + TT_NIU_CMD_ISSUE, &v))
			return -1;
		if (!v)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 10)
			return -1;
	}
	if (tt_noc_read32(dev, 0, nx, ny, base + TT_NIU_CMD_STATUS, &v))
		return -1;
	return (int)v;
}

/* A fresh private runtime directory for ttsim; returns its path. */
static inline const char *test_rundir(char *buf, size_t len)
{
	if (!test_mkdtemp(buf, len, "tt-test"))
		return NULL;
	setenv("TTSIM_RUNTIME_DIR", buf, 1);
	return buf;
}

/* Run the ttsim binary with arguments; returns its exit status. */
static inline int run_ttsim(const char *args)
{
	const char *root = getenv("TT_BUILD_ROOT");
	char cmd[1024];
	int st;

	snprintf(cmd, sizeof(cmd), "%s/sim/ttsim %s >/dev/null 2>&1",
		 root ? root : "build", args);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Stop every daemon of the private runtime directory `rundir` (if
 * `stop`) and remove the directory (if it was made): 0, or -1 if it cannot
 * be removed. */
static inline int ttsim_clean_up(const char *rundir, bool stop)
{
	char cmd[PATH_MAX + 16];

	if (stop)
		run_ttsim("stop --all");
	if (!rundir[0])
		return 0;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", rundir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A private ttsim daemon serving one n150, for a group of cases on
 * TT_TRANSPORT=ttsim (group set-up: test_daemon_up(state, "name")). */
struct test_daemon {
	char dir[64]; /* its runtime directory */
};

static inline int test_daemon_up(void **state, const char *name)
{
	struct test_daemon *d = calloc(1, sizeof(*d));
	char args[96];

	if (!d || !test_rundir(d->dir, sizeof(d->dir))) {
		free(d);
		return -1;
	}
	setenv("TT_TRANSPORT", "ttsim", 1);
	snprintf(args, sizeof(args), "start --board n150 --name %s", name);
	if (run_ttsim(args) != 0) {
		free(d);
		return -1;
	}
	*state = d;
	return 0;
}

/* Stop the daemon and remove its runtime directory. */
static inline int test_daemon_down(void **state)
{
	struct test_daemon *d = *state;

	unsetenv("TT_TRANSPORT");
	if (ttsim_clean_up(d->dir, true))
		return -1;
	free(d);
	return 0;
}

/* How long a test waits for a device's firmware to boot. */
#define BOOT_MS 20000

/* Skip the current test, saying why. */
#define skip_because(why)                      \
	do {                                   \
		print_message("# %s\n", why); \
		skip();                        \
	} while (0)

/*
 * Group set-up and tear-down: device 0 of the embedded transport (or of
 * $TT_TEST_TRANSPORT, tests/unit/testcases.h) on its default board,
 * opened, in *state. No wait for firmware: booted_up adds that.
 */
static inline int device_up(void **state)
{
	tt_device *dev;

	setenv("TT_TRANSPORT", test_transport(), 1);
	unsetenv("TT_SIM_BOARD");
	if (tt_device_open(0, &dev))
		return -1;
	*state = dev;
	return 0;
}

static inline int device_down(void **state)
{
	tt_device_close(*state);
	return 0;
}

/*
 * Group set-up and tear-down: device 0 of the embedded transport (or of
 * $TT_TEST_TRANSPORT, tests/unit/testcases.h), opened and
 * with its firmware ready, in *state. A device that does not boot fails
 * the group, so no test passes without firmware.
 */
static inline int booted_up(void **state)
{
	tt_device *dev;

	setenv("TT_TRANSPORT", test_transport(), 1);
	if (tt_device_open(0, &dev))
		return -1;
	if (tt_mgmt_wait_ready(dev, BOOT_MS)) {
		fprintf(stderr, "# %s\n", tt_last_error());
		tt_device_close(dev);
		return -1;
	}
	*state = dev;
	return 0;
}

/* NOC 0 coordinates of the device's management (ARC) node. */
static inline struct tt_xy arc_node(tt_device *dev)
{
	const struct tt_device_info *i = tt_device_get_info(dev);

	for (unsigned y = 0; y < i->grid_y; y++)
		for (unsigned x = 0; x < i->grid_x; x++)
			if (tt_device_core_type(dev, x, y) == TT_CORE_ARC)
				return (struct tt_xy){ x, y };
	fail_msg("no ARC node");
	return (struct tt_xy){ 0, 0 };
}

static inline int booted_down(void **state)
{
	tt_device_close(*state);
	return 0;
}

/*
 * The prologue of a program case: command queue cq_id of dev in *cq (its
 * timeout set to timeout_ms unless that is 0) and a new, empty program.
 */
static inline tt_program *program_prologue(tt_device *dev, unsigned cq_id,
					   unsigned timeout_ms,
					   tt_command_queue **cq)
{
	tt_program *p = NULL;

	assert_int_equal(tt_device_command_queue(dev, cq_id, cq), 0);
	if (timeout_ms)
		tt_command_queue_set_timeout(*cq, timeout_ms);
	assert_int_equal(tt_create_program(&p), 0);
	return p;
}

/* NOC 0 coordinates of enabled Tensix core `logical`. */
static inline struct tt_xy tensix_xy(tt_device *dev, unsigned logical)
{
	struct tt_xy xy = { 0, 0 };

	assert_int_equal(tt_device_tensix_core(dev, logical, &xy), 0);
	return xy;
}

/* Load test kernel `name` (firmware/tests, found through TT_FW_TESTS_DIR)
 * into core c; returns its entry point. */
static inline uint32_t load_kernel(tt_device *dev, struct tt_xy c,
				   const char *name)
{
	const char *dir = getenv("TT_FW_TESTS_DIR");
	char path[512];
	uint32_t entry = 0;

	if (!dir)
		skip_because("TT_FW_TESTS_DIR is not set: no test kernels");
	snprintf(path, sizeof(path), "%s/%s.elf", dir, name);
	if (tt_hart_load_elf_file(dev, c, path, &entry))
		fail_msg("%s", tt_last_error());
	return entry;
}

/* A buffer of dev, or the case fails with libtt's message. */
static inline tt_buffer *test_make_buffer(tt_device *dev,
					  enum tt_buffer_type type,
					  uint64_t size, uint64_t page)
{
	struct tt_buffer_config c = {
		.device = dev, .size = size, .page_size = page, .type = type,
	};
	tt_buffer *b = NULL;

	if (tt_create_buffer(&c, &b))
		fail_msg("%s", tt_last_error());
	return b;
}

#endif /* TT_TESTS_TESTUTIL_H */
