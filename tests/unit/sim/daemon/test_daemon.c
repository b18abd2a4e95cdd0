// SPDX-License-Identifier: Apache-2.0
/*
 * The ttsim daemon and its command-line tool, end to end: every test runs
 * the real binary ($TT_BUILD_ROOT/sim/ttsim) in a runtime directory of its
 * own and talks to the daemon through the control protocol (sim/daemon/proto.h).
 *
 * The test process makes itself a child subreaper: a daemon is orphaned
 * when `ttsim start` returns and is then reparented to us, so we can wait
 * for it, see how it ended, and never leave a zombie or a daemon behind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "clock.h"
#include "hw/tt_hw.h"
#include "sim/daemon/proto.h"
#include "sim/daemon/rundir.h"
#include "sim/daemon/server.h"
#include "common/soc_desc.h"
#include "tmpdir.h"
#include "tt/device.h"
#include "tt/mgmt.h"
#include "tt/noc.h"
#include "tt/telemetry.h"

#define MAX_ARGS 16
#define RUN_TIMEOUT_MS 20000

static char ttsim_path[PATH_MAX];

struct fixture {
	char dir[64];
};

/* What one ttsim command did. */
struct run {
	int status; /* exit code; 128 + signal if killed; -1 if not run */
	char out[8192];
	char err[8192];
};

/* ---- helpers ---- */

static int exit_code(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return -1;
}

/* Start ttsim with argv (NULL-terminated, argv[0] unused); its stdout and
 * stderr go to the pipes returned in out_fd and err_fd. */
static pid_t spawn_ttsim(const char *const *argv, int *out_fd, int *err_fd)
{
	int o[2], e[2];
	pid_t pid;

	if (pipe2(o, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(e, O_CLOEXEC) < 0) {
		close(o[0]);
		close(o[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		dup2(o[1], STDOUT_FILENO);
		dup2(e[1], STDERR_FILENO);
		execv(ttsim_path, (char *const *)argv);
		_exit(127);
	}
	close(o[1]);
	close(e[1]);
	*out_fd = o[0];
	*err_fd = e[0];
	return pid;
}

/* Read both pipes to their end (or until the deadline). */
static void collect(struct run *r, int out_fd, int err_fd, long deadline)
{
	struct pollfd p[2] = { { .fd = out_fd, .events = POLLIN },
			       { .fd = err_fd, .events = POLLIN } };
	size_t len[2] = { 0, 0 };
	char *buf[2] = { r->out, r->err };

	while ((p[0].fd >= 0 || p[1].fd >= 0) && now_ms() < deadline) {
		if (poll(p, 2, 100) <= 0)
			continue;
		for (int i = 0; i < 2; i++) {
			ssize_t n;

			if (p[i].fd < 0 || !p[i].revents)
				continue;
			n = read(p[i].fd, buf[i] + len[i],
				 sizeof(r->out) - 1 - len[i]);
			if (n > 0) {
				len[i] += (size_t)n;
				if (len[i] < sizeof(r->out) - 1)
					continue;
			}
			close(p[i].fd);
			p[i].fd = -1;
		}
	}
	for (int i = 0; i < 2; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
	r->out[len[0]] = 0;
	r->err[len[1]] = 0;
}

/* Run `ttsim args...` (NULL-terminated) to completion. No cmocka asserts:
 * teardown uses it too. */
static int run_ttsim(struct run *r, ...)
{
	const char *argv[MAX_ARGS + 2] = { "ttsim" };
	long deadline = now_ms() + RUN_TIMEOUT_MS;
	int out_fd, err_fd, st, argc = 1;
	va_list ap;
	pid_t pid;

	va_start(ap, r);
	while (argc <= MAX_ARGS && (argv[argc] = va_arg(ap, const char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	r->status = -1;
	r->out[0] = r->err[0] = 0;
	pid = spawn_ttsim(argv, &out_fd, &err_fd);
	if (pid < 0)
		return -1;
	collect(r, out_fd, err_fd, deadline);
	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (now_ms() > deadline)
			kill(pid, SIGKILL);
		sleep_ms(5);
	}
	r->status = exit_code(st);
	return r->status;
}

#define assert_exit(r, code)                                                   \
	do {                                                                   \
		if ((r)->status != (code))                                     \
			fail_msg("ttsim exited with %d, expected %d\n"         \
				 "--- stdout:\n%s--- stderr:\n%s",             \
				 (r)->status, (code), (r)->out, (r)->err);     \
	} while (0)

#define assert_contains(hay, needle)                                           \
	do {                                                                   \
		if (!strstr((hay), (needle)))                                  \
			fail_msg("expected \"%s\" in:\n%s", (needle), (hay));  \
	} while (0)

static void start_ok(const char *arg1, const char *arg2, const char *arg3,
		     const char *arg4)
{
	struct run r;

	run_ttsim(&r, "start", arg1, arg2, arg3, arg4, NULL);
	assert_exit(&r, 0);
}

static int connect_to(const char *name)
{
	char err[SIM_ERR_LEN];
	int s = sim_rundir_connect(name, err);

	if (s < 0)
		fail_msg("%s", err);
	return s;
}

/* One request on socket s; returns the reply's status. */
static int request(int s, uint32_t op, uint64_t arg, int fd_in,
		   struct sim_resp *resp, int *fd_out)
{
	struct sim_req req = { .magic = SIM_PROTO_MAGIC, .op = op,
			       .arg = { arg } };

	assert_int_equal(sim_proto_send(s, &req, sizeof(req), fd_in), 0);
	assert_int_equal(sim_proto_recv(s, resp, sizeof(*resp), fd_out), 0);
	assert_int_equal(resp->magic, SIM_PROTO_MAGIC);
	return resp->status;
}

/* HELLO on device `name` over a fresh connection; returns the image fd. */
static int hello(const char *name, struct sim_resp *resp)
{
	int s = connect_to(name), fd = -1;

	if (request(s, SIM_OP_HELLO, 0, -1, resp, &fd))
		fail_msg("HELLO on %s: %s", name, resp->msg);
	close(s);
	assert_true(fd >= 0);
	return fd;
}

static pid_t daemon_pid(const char *name)
{
	struct sim_resp resp;

	close(hello(name, &resp));
	return (pid_t)resp.val[1];
}

/* A memfd of `size` bytes (sparse: costs nothing until touched). */
static int dma_buffer(uint64_t size)
{
	int fd = memfd_create("test-dma", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	assert_int_equal(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK), 0);
	return fd;
}

/* Is every thread of pid stopped ('T' in /proc/PID/task/TID/stat)? */
static bool all_threads_stopped(pid_t pid)
{
	char path[64], buf[256];
	struct dirent *e;
	bool stopped = true;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return false;
	while (stopped && (e = readdir(d))) {
		FILE *f;
		char *p = NULL;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)pid,
			 e->d_name);
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f))
			p = strrchr(buf, ')');
		if (f)
			fclose(f);
		stopped = p && (p[2] == 'T' || p[2] == 't');
	}
	closedir(d);
	return stopped;
}

/* SIGSTOP takes effect when each thread is next scheduled, not when kill()
 * returns: a loaded machine could still run the daemon for a while. */
static void stop_daemon(pid_t pid)
{
	long deadline = now_ms() + 5000;

	assert_int_equal(kill(pid, SIGSTOP), 0);
	while (!all_threads_stopped(pid)) {
		if (now_ms() > deadline)
			fail_msg("daemon %d did not stop within 5 s", (int)pid);
		sleep_ms(1);
	}
}

/* Wait for our child (an orphaned daemon) to end; its wait status, or -1
 * on timeout. */
static int wait_exit(pid_t pid, long timeout_ms)
{
	long deadline = now_ms() + timeout_ms;
	int st;

	while (now_ms() < deadline) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return st;
		if (r < 0 && errno == ECHILD)
			return kill(pid, 0) < 0 ? 0 : -1;
		sleep_ms(5);
	}
	return -1;
}

static const char *dir_path(void **state, const char *file)
{
	static char buf[2][PATH_MAX];
	static int which;
	struct fixture *fx = *state;

	which ^= 1;
	snprintf(buf[which], sizeof(buf[which]), "%s/%s", fx->dir, file);
	return buf[which];
}

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static int count_dev_shm(void)
{
	DIR *d = opendir("/dev/shm");
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* Does process pid map or hold anything from /dev/shm? */
static bool uses_dev_shm(pid_t pid)
{
	char path[64], line[512];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, "/dev/shm/") != NULL;
	fclose(f);
	return found;
}

/* ---- fixture ---- */

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	if (!test_mkdtemp(fx->dir, sizeof(fx->dir), "ttsim-test")) {
		free(fx);
		return -1;
	}
	setenv("TTSIM_RUNTIME_DIR", fx->dir, 1);
	*state = fx;
	return 0;
}

/* Kill whatever children are left (daemons a failed test did not stop). */
static void kill_children(void)
{
	char path[64];
	FILE *f;
	int pid;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	f = fopen(path, "re");
	if (!f)
		return;
	while (fscanf(f, "%d", &pid) == 1)
		kill(pid, SIGKILL);
	fclose(f);
}

static void reap_children(long timeout_ms)
{
	long deadline = now_ms() + timeout_ms;
	int st;

	while (now_ms() < deadline) {
		pid_t r = waitpid(-1, &st, WNOHANG);

		if (r < 0)
			return; /* ECHILD: none left */
		if (r == 0)
			sleep_ms(5);
	}
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	struct dirent *de;
	struct run r;
	DIR *d;

	run_ttsim(&r, "stop", "--all", NULL);
	reap_children(5000);
	kill_children();
	reap_children(5000);
	d = opendir(fx->dir);
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(dirfd(d), de->d_name, 0);
	if (d)
		closedir(d);
	rmdir(fx->dir);
	unsetenv("TTSIM_RUNTIME_DIR");
	/* What a failed test may have left set. */
	unsetenv("TT_TRANSPORT");
	unsetenv("TT_FIRMWARE");
	unsetenv("TT_SIM_BOARD");
	unsetenv("TT_SIM_TIMEOUT_MS");
	free(fx);
	return 0;
}

/* ---- the command line ---- */

static void test_help_exits_0(void **state)
{
	struct run r;

	(void)state;
	run_ttsim(&r, "--help", NULL);
	assert_exit(&r, 0);
	assert_contains(r.out, "Usage: ttsim start");
	assert_contains(r.out, "Exit status:");
	assert_contains(r.out, "n300");
}

static void test_bogus_board_is_usage_error(void **state)
{
	struct run r;

	(void)state;
	run_ttsim(&r, "start", "--board", "bogus", NULL);
	assert_exit(&r, 2);
	assert_contains(r.err, "unknown board 'bogus'");
	assert_contains(r.err, "n150, n300, p150, e150");
	assert_false(exists(dir_path(state, "tt0.sock")));
}

static void test_unknown_option_is_usage_error(void **state)
{
	struct run r;

	(void)state;
	run_ttsim(&r, "start", "--frobnicate", NULL);
	assert_exit(&r, 2);
	assert_contains(r.err, "--frobnicate");
	run_ttsim(&r, "frobnicate", NULL);
	assert_exit(&r, 2);
	assert_contains(r.err, "unknown command 'frobnicate'");
}

static void test_names_must_match_chips(void **state)
{
	struct run r;

	run_ttsim(&r, "start", "--count", "2", "--name", "a", NULL);
	assert_exit(&r, 2);
	assert_contains(r.err, "--name gives 1 name");
	assert_false(exists(dir_path(state, "a.sock")));
}

static void test_list_without_devices(void **state)
{
	struct run r;

	(void)state;
	run_ttsim(&r, "list", NULL);
	assert_exit(&r, 3);
	assert_contains(r.out, "no ttsim devices");
}

static void test_stop_unknown_name_fails(void **state)
{
	struct run r;

	(void)state;
	run_ttsim(&r, "stop", "nosuch", NULL);
	assert_exit(&r, 3);
	assert_contains(r.err, "device nosuch is not served");
}

/* ---- start, list, stop ---- */

static void test_start_then_list(void **state)
{
	char line[128];
	struct run r;
	pid_t pid;

	run_ttsim(&r, "start", NULL);
	assert_exit(&r, 0);
	assert_contains(r.out, "tt0: n150 chip 0, wormhole_b0, grid ");
	assert_true(exists(dir_path(state, "tt0.sock")));
	assert_true(exists(dir_path(state, "tt0.lock")));
	pid = daemon_pid("tt0");
	snprintf(line, sizeof(line), "Tensix, pid %d\n", (int)pid);
	assert_contains(r.out, line);

	run_ttsim(&r, "list", NULL);
	assert_exit(&r, 0);
	assert_contains(r.out, "tt0: n150 chip 0, wormhole_b0, grid ");
	assert_contains(r.out, line);
}

static void test_published_files(void **state)
{
	char buf[32] = "";
	struct stat st;
	pid_t pid;
	int fd;

	start_ok(NULL, NULL, NULL, NULL);
	pid = daemon_pid("tt0");
	assert_int_equal(lstat(dir_path(state, "tt0.sock"), &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0600);
	fd = open(dir_path(state, "tt0.lock"), O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_true(read(fd, buf, sizeof(buf) - 1) > 0);
	close(fd);
	assert_int_equal(strtol(buf, NULL, 10), pid);
}

static void test_hello_gives_ready_image(void **state)
{
	struct soc_desc *soc = calloc(1, sizeof(*soc));
	char err[SIM_ERR_LEN];
	struct sim_image *img;
	struct sim_resp resp;
	int fd;

	(void)state;
	assert_non_null(soc);
	assert_int_equal(soc_desc_builtin("wormhole_b0_n150", soc, err,
					  sizeof(err)), 0);
	start_ok(NULL, NULL, NULL, NULL);
	fd = hello("tt0", &resp);
	assert_true(resp.val[1] > 1);
	assert_int_equal(kill((pid_t)resp.val[1], 0), 0);
	assert_int_equal(resp.val[2], TT_HW_BOARD_N150);
	assert_int_equal(resp.val[3], 0);
	if (sim_image_attach(fd, &img, err))
		fail_msg("%s", err);
	assert_int_equal(img->size, resp.val[0]);
	assert_int_equal(img->id->state, TT_DEV_STATE_READY);
	assert_int_equal(img->id->arch, TT_HW_ARCH_WORMHOLE_B0);
	assert_int_equal(img->id->grid_x, soc->grid_x);
	assert_int_equal(img->id->grid_y, soc->grid_y);
	assert_int_equal(img->id->tensix_count, soc->tensix_count);
	assert_int_equal(img->id->chip_index, 0);
	sim_image_destroy(img);
	free(soc);
}

static void test_stop_removes_files_and_daemon_exits(void **state)
{
	struct run r;
	pid_t pid;
	int st;

	start_ok(NULL, NULL, NULL, NULL);
	pid = daemon_pid("tt0");
	run_ttsim(&r, "stop", "tt0", NULL);
	assert_exit(&r, 0);
	assert_contains(r.out, "stopped tt0");
	assert_false(exists(dir_path(state, "tt0.sock")));
	assert_false(exists(dir_path(state, "tt0.lock")));
	st = wait_exit(pid, 5000);
	assert_true(st >= 0);
	assert_int_equal(exit_code(st), 0);
}

static void test_second_start_is_refused(void **state)
{
	char msg[256];
	struct run r;
	pid_t pid;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	pid = daemon_pid("tt0");
	run_ttsim(&r, "start", NULL);
	assert_exit(&r, 1);
	snprintf(msg, sizeof(msg),
		 "ttsim: device tt0 is already served by ttsim (pid %d); stop it with 'ttsim stop tt0' or choose other names with --name",
		 (int)pid);
	assert_contains(r.err, msg);
	/* The first daemon still serves. */
	assert_int_equal(daemon_pid("tt0"), pid);
}

static void test_name_and_count(void **state)
{
	struct run r;

	start_ok("--count", "2", "--name", "left,right");
	assert_true(exists(dir_path(state, "left.sock")));
	assert_true(exists(dir_path(state, "right.sock")));
	assert_false(exists(dir_path(state, "tt0.sock")));
	assert_int_equal(daemon_pid("left"), daemon_pid("right"));
	run_ttsim(&r, "list", NULL);
	assert_exit(&r, 0);
	assert_contains(r.out, "left: n150 chip 0");
	assert_contains(r.out, "right: n150 chip 0");
}

static void test_count_gives_default_names(void **state)
{
	struct run r;

	run_ttsim(&r, "start", "--count", "3", NULL);
	assert_exit(&r, 0);
	assert_contains(r.out, "tt0: n150 chip 0");
	assert_contains(r.out, "tt1: n150 chip 0");
	assert_contains(r.out, "tt2: n150 chip 0");
	assert_false(exists(dir_path(state, "tt3.sock")));
}

static void test_n300_has_two_devices(void **state)
{
	struct sim_resp resp;
	struct run r;

	(void)state;
	run_ttsim(&r, "start", "--board", "n300", NULL);
	assert_exit(&r, 0);
	assert_contains(r.out, "tt0: n300 chip 0, wormhole_b0");
	assert_contains(r.out, "tt1: n300 chip 1, wormhole_b0");
	close(hello("tt1", &resp));
	assert_int_equal(resp.val[2], TT_HW_BOARD_N300);
	assert_int_equal(resp.val[3], 1);
}

static void test_stop_one_name_stops_its_daemon(void **state)
{
	struct run r;

	start_ok("--board", "n300", NULL, NULL);
	run_ttsim(&r, "stop", "tt1", NULL);
	assert_exit(&r, 0);
	assert_contains(r.out, "stopped tt0, tt1 (ttsim pid ");
	assert_false(exists(dir_path(state, "tt0.sock")));
	assert_false(exists(dir_path(state, "tt1.sock")));
}

static void test_stop_all_stops_every_daemon(void **state)
{
	struct run r;
	pid_t a, b;

	start_ok("--name", "a", NULL, NULL);
	start_ok("--name", "b", NULL, NULL);
	a = daemon_pid("a");
	b = daemon_pid("b");
	assert_int_not_equal(a, b);
	run_ttsim(&r, "stop", NULL);
	assert_exit(&r, 0);
	assert_contains(r.out, "stopped a ");
	assert_contains(r.out, "stopped b ");
	assert_true(wait_exit(a, 5000) >= 0);
	assert_true(wait_exit(b, 5000) >= 0);
	assert_false(exists(dir_path(state, "a.lock")));
	assert_false(exists(dir_path(state, "b.lock")));
}

static void test_run_serves_in_foreground(void **state)
{
	const char *argv[] = { "ttsim", "run", NULL };
	struct run r = { .status = -1 };
	int out_fd, err_fd, st;
	pid_t pid;

	pid = spawn_ttsim(argv, &out_fd, &err_fd);
	assert_true(pid > 0);
	/* The device line comes once it is published. */
	for (long end = now_ms() + 5000;
	     !exists(dir_path(state, "tt0.sock")) && now_ms() < end;)
		sleep_ms(5);
	assert_int_equal(daemon_pid("tt0"), pid);
	kill(pid, SIGINT);
	collect(&r, out_fd, err_fd, now_ms() + 5000);
	st = wait_exit(pid, 5000);
	assert_true(st >= 0);
	assert_int_equal(exit_code(st), 0);
	assert_contains(r.out, "tt0: n150 chip 0");
	assert_contains(r.err, "stopping on INT");
	assert_false(exists(dir_path(state, "tt0.sock")));
	assert_false(exists(dir_path(state, "tt0.lock")));
}

/* ---- signals and crashes ---- */

static void test_sigterm_shuts_down_cleanly(void **state)
{
	pid_t pid;
	int st;

	start_ok(NULL, NULL, NULL, NULL);
	pid = daemon_pid("tt0");
	assert_int_equal(kill(pid, SIGTERM), 0);
	st = wait_exit(pid, 5000);
	assert_true(st >= 0);
	assert_int_equal(exit_code(st), 0);
	assert_false(exists(dir_path(state, "tt0.sock")));
	assert_false(exists(dir_path(state, "tt0.lock")));
}

static void test_stale_socket_is_cleaned_by_next_start(void **state)
{
	struct run r;
	pid_t old, new;

	start_ok(NULL, NULL, NULL, NULL);
	old = daemon_pid("tt0");
	kill(old, SIGKILL);
	assert_int_equal(exit_code(wait_exit(old, 5000)), 128 + SIGKILL);
	assert_true(exists(dir_path(state, "tt0.sock")));
	run_ttsim(&r, "list", NULL);
	assert_exit(&r, 0);
	assert_contains(r.out, "tt0: stale");

	start_ok(NULL, NULL, NULL, NULL);
	new = daemon_pid("tt0");
	assert_int_not_equal(new, old);
}

static void test_stop_removes_stale_socket(void **state)
{
	struct run r;
	pid_t pid;

	start_ok(NULL, NULL, NULL, NULL);
	pid = daemon_pid("tt0");
	kill(pid, SIGKILL);
	wait_exit(pid, 5000);
	run_ttsim(&r, "stop", "tt0", NULL);
	assert_exit(&r, 0);
	assert_contains(r.out, "tt0: removed stale socket");
	assert_false(exists(dir_path(state, "tt0.sock")));
	assert_false(exists(dir_path(state, "tt0.lock")));
}

/* Big enough that a second one only fits once the first is released. */
#define HALF_WINDOW (TT_PCIE_HOST_WINDOW_SIZE / 2 + 0x1000)

static void test_killed_client_leaves_daemon_healthy(void **state)
{
	struct sim_resp resp;
	int s, buf, st, ret;
	pid_t child;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		struct sim_req req = { .magic = SIM_PROTO_MAGIC,
				       .op = SIM_OP_DMA_MAP,
				       .arg = { HALF_WINDOW } };
		char err[SIM_ERR_LEN];
		int c = sim_rundir_connect("tt0", err);
		int fd = memfd_create("child-dma",
				      MFD_CLOEXEC | MFD_ALLOW_SEALING);

		if (c < 0 || fd < 0 || ftruncate(fd, HALF_WINDOW) < 0 ||
		    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0 ||
		    sim_proto_send(c, &req, sizeof(req), fd) ||
		    sim_proto_recv(c, &resp, sizeof(resp), NULL) || resp.status)
			_exit(1);
		raise(SIGKILL);
		_exit(2);
	}
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	assert_int_equal(exit_code(st), 128 + SIGKILL);

	/* The dead client's mapping is released: the same size fits again
	 * (the daemon sees the hang-up in its own time, so allow a moment). */
	s = connect_to("tt0");
	close(hello("tt0", &resp));
	buf = dma_buffer(HALF_WINDOW);
	for (long end = now_ms() + 2000;;) {
		ret = request(s, SIM_OP_DMA_MAP, HALF_WINDOW, buf, &resp, NULL);
		if (ret != -ENOSPC || now_ms() > end)
			break;
		sleep_ms(10);
	}
	if (ret)
		fail_msg("DMA_MAP after a client died: %s", resp.msg);
	/* ...and only once. */
	assert_int_equal(request(s, SIM_OP_DMA_MAP, HALF_WINDOW, buf, &resp,
				 NULL), -ENOSPC);
	close(buf);
	close(s);
}

/* ---- the protocol ---- */

static void test_dma_map_and_unmap(void **state)
{
	struct sim_resp resp;
	int s, other, buf;
	uint64_t id;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	s = connect_to("tt0");
	buf = dma_buffer(65536);
	assert_int_equal(request(s, SIM_OP_DMA_MAP, 65536, buf, &resp, NULL), 0);
	id = resp.val[0];
	assert_true(id != 0);
	assert_int_equal(resp.val[4] & 0xfff, 0);
	/* Another connection cannot unmap it. */
	other = connect_to("tt0");
	assert_int_equal(request(other, SIM_OP_DMA_UNMAP, id, -1, &resp, NULL),
			 -ENOENT);
	close(other);
	assert_int_equal(request(s, SIM_OP_DMA_UNMAP, id, -1, &resp, NULL), 0);
	assert_int_equal(request(s, SIM_OP_DMA_UNMAP, id, -1, &resp, NULL),
			 -ENOENT);
	close(buf);
	close(s);
}

static void test_dma_map_needs_a_buffer(void **state)
{
	struct sim_resp resp;
	int s, small;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	s = connect_to("tt0");
	assert_int_equal(request(s, SIM_OP_DMA_MAP, 4096, -1, &resp, NULL),
			 -EBADF);
	/* A buffer smaller than the mapping would fault in the daemon. */
	small = dma_buffer(4096);
	assert_int_equal(request(s, SIM_OP_DMA_MAP, 8192, small, &resp, NULL),
			 -EINVAL);
	assert_contains(resp.msg, "fewer than");
	close(small);
	close(s);
}

/* Send raw bytes; expect -EPROTO and a hang-up. */
static void expect_refused(const void *msg, size_t len)
{
	struct sim_resp resp;
	char byte;
	int s = connect_to("tt0");

	assert_int_equal(send(s, msg, len, MSG_NOSIGNAL), (ssize_t)len);
	assert_int_equal(recv(s, &resp, sizeof(resp), 0), (ssize_t)sizeof(resp));
	assert_int_equal(resp.magic, SIM_PROTO_MAGIC);
	assert_int_equal(resp.status, -EPROTO);
	assert_int_equal(recv(s, &byte, 1, 0), 0);
	close(s);
}

static void expect_alive(void)
{
	struct sim_resp resp;

	close(hello("tt0", &resp));
}

static void test_short_message_is_refused(void **state)
{
	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	expect_refused("abc", 3);
	expect_alive();
}

static void test_oversized_message_is_refused(void **state)
{
	char big[sizeof(struct sim_req) + 64];
	struct sim_req *req = (struct sim_req *)(void *)big;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	memset(big, 0, sizeof(big));
	req->magic = SIM_PROTO_MAGIC;
	req->op = SIM_OP_HELLO;
	expect_refused(big, sizeof(big));
	expect_alive();
}

static void test_bad_magic_is_refused(void **state)
{
	struct sim_req req = { .magic = 0xdeadbeef, .op = SIM_OP_SHUTDOWN };

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	expect_refused(&req, sizeof(req));
	expect_alive();
}

static void test_unknown_op_is_refused(void **state)
{
	struct sim_resp resp;
	int s, fd = -1;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	s = connect_to("tt0");
	assert_int_equal(request(s, 99, 0, -1, &resp, NULL), -EOPNOTSUPP);
	assert_contains(resp.msg, "unknown operation 99");
	/* The request was well-formed: the connection stays usable. */
	assert_int_equal(request(s, SIM_OP_HELLO, 0, -1, &resp, &fd), 0);
	assert_true(fd >= 0);
	close(fd);
	close(s);
}

static int count_fds(pid_t pid)
{
	char path[64];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static void test_stray_descriptors_are_closed(void **state)
{
	struct sim_resp resp;
	int s, stray, fd, before;
	pid_t pid;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	pid = daemon_pid("tt0");
	s = connect_to("tt0");
	fd = -1;
	assert_int_equal(request(s, SIM_OP_HELLO, 0, -1, &resp, &fd), 0);
	close(fd);
	before = count_fds(pid);
	stray = dma_buffer(4096);
	/* Descriptors sent with requests that take none must not pile up. */
	for (int i = 0; i < 32; i++) {
		assert_int_equal(request(s, SIM_OP_HELLO, 0, stray, &resp, &fd), 0);
		close(fd);
		assert_int_equal(request(s, SIM_OP_DMA_UNMAP, 7, stray, &resp,
					 NULL), -ENOENT);
	}
	assert_int_equal(count_fds(pid), before);
	close(stray);
	close(s);
}

static void test_too_many_clients_are_refused(void **state)
{
	int s[SIM_SERVER_MAX_CLIENTS + 1];
	struct sim_req req = { .magic = SIM_PROTO_MAGIC, .op = SIM_OP_HELLO };
	struct sim_resp resp;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	/* A reply on each proves the daemon has accepted it. */
	for (int i = 0; i < SIM_SERVER_MAX_CLIENTS; i++) {
		int fd = -1;

		s[i] = connect_to("tt0");
		assert_int_equal(request(s[i], SIM_OP_HELLO, 0, -1, &resp, &fd), 0);
		close(fd);
	}
	s[SIM_SERVER_MAX_CLIENTS] = connect_to("tt0");
	/* The refusal is queued even if the daemon hung up before we sent. */
	sim_proto_send(s[SIM_SERVER_MAX_CLIENTS], &req, sizeof(req), -1);
	assert_int_equal(sim_proto_recv(s[SIM_SERVER_MAX_CLIENTS], &resp,
					sizeof(resp), NULL), 0);
	assert_int_equal(resp.status, -EUSERS);
	assert_contains(resp.msg, "too many clients");
	for (int i = 0; i <= SIM_SERVER_MAX_CLIENTS; i++)
		close(s[i]);
	/* With the others gone, a new client is served. */
	for (long end = now_ms() + 2000;;) {
		int c = connect_to("tt0"), fd = -1, ret;

		sim_proto_send(c, &req, sizeof(req), -1);
		ret = sim_proto_recv(c, &resp, sizeof(resp), &fd);
		close(c);
		if (fd >= 0)
			close(fd);
		if ((!ret && !resp.status) || now_ms() > end) {
			assert_int_equal(ret, 0);
			assert_int_equal(resp.status, 0);
			break;
		}
		sleep_ms(10);
	}
}

static void test_no_shared_memory_is_leaked(void **state)
{
	int before = count_dev_shm();
	struct sim_resp resp;
	struct run r;
	int s, buf, img;
	pid_t pid;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	img = hello("tt0", &resp);
	pid = (pid_t)resp.val[1];
	s = connect_to("tt0");
	buf = dma_buffer(1 << 20);
	assert_int_equal(request(s, SIM_OP_DMA_MAP, 1 << 20, buf, &resp, NULL), 0);
	assert_false(uses_dev_shm(pid));
	close(buf);
	close(s);
	close(img);
	run_ttsim(&r, "stop", "--all", NULL);
	assert_exit(&r, 0);
	assert_true(wait_exit(pid, 5000) >= 0);
	assert_int_equal(count_dev_shm(), before);
}

/* ---- which processes use a device (CLIENTS, tt_device_processes) ---- */

/* A child process that holds a device open until told to go. */
struct holder {
	pid_t pid;
	int go; /* one byte written here lets it exit */
};

/* Child: open `name` (through libtt: device 0 of TT_TRANSPORT=ttsim; else a
 * bare connection) and complete a HELLO, so the daemon has accepted it. */
static int hold_open(const char *name, bool via_libtt)
{
	struct sim_req req = { .magic = SIM_PROTO_MAGIC, .op = SIM_OP_HELLO };
	char err[SIM_ERR_LEN];
	struct sim_resp resp;
	tt_device *dev;
	int s, fd = -1;

	if (via_libtt)
		return tt_device_open(0, &dev);
	s = sim_rundir_connect(name, err);
	if (s < 0 || sim_proto_send(s, &req, sizeof(req), -1) ||
	    sim_proto_recv(s, &resp, sizeof(resp), &fd) || resp.status)
		return -1;
	close(fd);
	return 0; /* s stays open until we exit */
}

/*
 * Fork a holder and wait until it has the device open. It waits for a
 * byte rather than for end of file: later holders inherit the write end.
 */
static struct holder spawn_holder(const char *name, bool via_libtt)
{
	int ready[2], go[2];
	struct holder h;
	char byte = 0;

	assert_int_equal(pipe2(ready, O_CLOEXEC), 0);
	assert_int_equal(pipe2(go, O_CLOEXEC), 0);
	h.pid = fork();
	assert_true(h.pid >= 0);
	if (h.pid == 0) {
		close(ready[0]);
		close(go[1]);
		if (hold_open(name, via_libtt) || write(ready[1], "r", 1) != 1)
			_exit(1);
		_exit(read(go[0], &byte, 1) == 1 ? 0 : 2);
	}
	close(ready[1]);
	close(go[0]);
	if (read(ready[0], &byte, 1) != 1)
		fail_msg("holder %d could not open %s", (int)h.pid, name);
	close(ready[0]);
	h.go = go[1];
	return h;
}

/* Let a holder go and reap it: its connection is closed on return. */
static void release_holder(struct holder *h)
{
	int st;

	assert_int_equal(write(h->go, "g", 1), 1);
	close(h->go);
	while (waitpid(h->pid, &st, 0) < 0)
		assert_int_equal(errno, EINTR);
	assert_int_equal(exit_code(st), 0);
}

/* CLIENTS from index `first` on socket s. */
static void clients(int s, uint64_t first, struct sim_resp *resp)
{
	if (request(s, SIM_OP_CLIENTS, first, -1, resp, NULL))
		fail_msg("CLIENTS %llu: %s", (unsigned long long)first,
			 resp->msg);
}

/* A connection to `name` that the daemon has accepted (HELLO answered). */
static int accepted(const char *name)
{
	struct sim_resp resp;
	int s = connect_to(name), fd = -1;

	assert_int_equal(request(s, SIM_OP_HELLO, 0, -1, &resp, &fd), 0);
	close(fd);
	return s;
}

static void test_clients_lists_each_process_once(void **state)
{
	struct sim_resp resp;
	int a, b;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	a = accepted("tt0");
	b = accepted("tt0");
	clients(a, 0, &resp);
	assert_int_equal(resp.val[0], 1);
	assert_int_equal(resp.val[1], getpid());
	for (int k = 2; k <= SIM_CLIENTS_PER_REPLY; k++)
		assert_int_equal(resp.val[k], 0);
	clients(b, 1, &resp);
	assert_int_equal(resp.val[0], 1);
	assert_int_equal(resp.val[1], 0);
	/* One of two connections closed: the process is still there. */
	close(a);
	clients(b, 0, &resp);
	assert_int_equal(resp.val[0], 1);
	assert_int_equal(resp.val[1], getpid());
	close(b);
}

static void test_clients_are_per_device(void **state)
{
	struct sim_resp resp;
	struct holder h;
	int a, b;

	(void)state;
	start_ok("--count", "2", "--name", "a,b");
	a = accepted("a");
	b = accepted("b");
	h = spawn_holder("a", false);
	clients(a, 0, &resp);
	assert_int_equal(resp.val[0], 2);
	/* Ascending pids, each once. */
	assert_int_equal(resp.val[1], getpid() < h.pid ? getpid() : h.pid);
	assert_int_equal(resp.val[2], getpid() < h.pid ? h.pid : getpid());
	assert_int_equal(resp.val[3], 0);
	clients(b, 0, &resp);
	assert_int_equal(resp.val[0], 1);
	assert_int_equal(resp.val[1], getpid());
	release_holder(&h);
	close(a);
	close(b);
}

static void test_clients_hostile_index(void **state)
{
	static const uint64_t idx[] = { 1, 2, UINT32_MAX, (uint64_t)INT64_MAX,
					UINT64_MAX - 2, UINT64_MAX - 1, UINT64_MAX };
	struct sim_resp resp;
	int s;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	s = accepted("tt0");
	for (size_t i = 0; i < sizeof(idx) / sizeof(idx[0]); i++) {
		clients(s, idx[i], &resp);
		assert_int_equal(resp.val[0], 1);
		/* Past the end, and no index wraps around to the start. */
		for (int k = 1; k <= SIM_CLIENTS_PER_REPLY; k++)
			assert_int_equal(resp.val[k], 0);
	}
	close(s);
	expect_alive();
}

/*
 * A client that has hung up is not listed even before the daemon has
 * dropped it. The daemon is stopped while the holder goes and our request
 * comes, so it sees both at once and serves us (the older connection, an
 * earlier slot) before it handles the hang-up.
 */
static void test_clients_skips_hung_up_connection(void **state)
{
	struct sim_resp resp;
	struct sim_req req = { .magic = SIM_PROTO_MAGIC, .op = SIM_OP_CLIENTS };
	struct holder h;
	pid_t daemon;
	int s;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	daemon = daemon_pid("tt0");
	s = accepted("tt0");
	h = spawn_holder("tt0", false);
	clients(s, 0, &resp);
	assert_int_equal(resp.val[0], 2);
	stop_daemon(daemon);
	release_holder(&h);
	assert_int_equal(sim_proto_send(s, &req, sizeof(req), -1), 0);
	assert_int_equal(kill(daemon, SIGCONT), 0);
	assert_int_equal(sim_proto_recv(s, &resp, sizeof(resp), NULL), 0);
	assert_int_equal(resp.status, 0);
	assert_int_equal(resp.val[0], 1);
	assert_int_equal(resp.val[1], getpid());
	close(s);
}

static bool has_pid(const int *pids, int n, pid_t pid)
{
	for (int i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

static void test_processes_embedded(void **state)
{
	int pids[3] = { -1, -1, -1 };
	tt_device *dev;

	(void)state;
	setenv("TT_TRANSPORT", "embedded", 1);
	/* A blank flash: no firmware needed to ask who uses the chip. */
	setenv("TT_FIRMWARE", "/dev/null", 1);
	if (tt_device_open(0, &dev))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_device_processes(dev, pids, 3), 1);
	assert_int_equal(pids[0], getpid());
	assert_int_equal(pids[1], -1);
	assert_int_equal(tt_device_processes(dev, NULL, 0), 1);
	assert_int_equal(tt_device_processes(dev, NULL, 2), -EINVAL);
	assert_contains(tt_last_error(), "embedded0: pids is NULL but max is 2");
	tt_device_close(dev);
	unsetenv("TT_FIRMWARE");
	unsetenv("TT_TRANSPORT");
}

static void test_processes_ttsim(void **state)
{
	int pids[4] = { -1, -1, -1, -1 };
	tt_device *dev, *dev2;
	struct holder h;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	setenv("TT_TRANSPORT", "ttsim", 1);
	if (tt_device_open(0, &dev))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_device_processes(dev, pids, 4), 1);
	assert_int_equal(pids[0], getpid());
	assert_int_equal(pids[1], -1);

	h = spawn_holder("tt0", true);
	assert_int_equal(tt_device_processes(dev, pids, 4), 2);
	assert_true(has_pid(pids, 2, getpid()));
	assert_true(has_pid(pids, 2, h.pid));
	assert_int_equal(pids[2], -1);
	/* A second handle in this process: still counted once. */
	if (tt_device_open(0, &dev2))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_device_processes(dev2, pids, 4), 2);
	/* Room for one: the full count, one pid stored. */
	pids[0] = pids[1] = -1;
	assert_int_equal(tt_device_processes(dev, pids, 1), 2);
	assert_true(pids[0] == getpid() || pids[0] == h.pid);
	assert_int_equal(pids[1], -1);
	assert_int_equal(tt_device_processes(dev, NULL, 0), 2);
	tt_device_close(dev2);

	release_holder(&h);
	memset(pids, 0xff, sizeof(pids));
	assert_int_equal(tt_device_processes(dev, pids, 4), 1);
	assert_int_equal(pids[0], getpid());
	assert_int_equal(pids[1], -1);
	assert_int_equal(tt_device_processes(dev, NULL, 1), -EINVAL);
	assert_contains(tt_last_error(), "tt0: pids is NULL but max is 1");
	tt_device_close(dev);
	unsetenv("TT_TRANSPORT");
}

/* More processes than one CLIENTS reply holds: libtt walks the list. */
#define HOLDERS (2 * SIM_CLIENTS_PER_REPLY)

static void test_processes_many(void **state)
{
	struct holder h[HOLDERS];
	int pids[HOLDERS + 2];
	tt_device *dev;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	setenv("TT_TRANSPORT", "ttsim", 1);
	if (tt_device_open(0, &dev))
		fail_msg("%s", tt_last_error());
	for (int i = 0; i < HOLDERS; i++)
		h[i] = spawn_holder("tt0", true);
	memset(pids, 0xff, sizeof(pids));
	assert_int_equal(tt_device_processes(dev, pids, HOLDERS + 2),
			 HOLDERS + 1);
	assert_true(has_pid(pids, HOLDERS + 1, getpid()));
	for (int i = 0; i < HOLDERS; i++)
		assert_true(has_pid(pids, HOLDERS + 1, h[i].pid));
	assert_int_equal(pids[HOLDERS + 1], -1);
	/* Stop in the middle of a reply: max is honoured exactly. */
	memset(pids, 0xff, sizeof(pids));
	assert_int_equal(tt_device_processes(dev, pids,
					     SIM_CLIENTS_PER_REPLY + 1),
			 HOLDERS + 1);
	for (int i = 0; i <= SIM_CLIENTS_PER_REPLY; i++) {
		assert_true(pids[i] > 0);
		for (int j = 0; j < i; j++)
			assert_int_not_equal(pids[i], pids[j]);
	}
	assert_int_equal(pids[SIM_CLIENTS_PER_REPLY + 1], -1);
	for (int i = 0; i < HOLDERS; i++)
		release_holder(&h[i]);
	assert_int_equal(tt_device_processes(dev, pids, HOLDERS + 2), 1);
	tt_device_close(dev);
	unsetenv("TT_TRANSPORT");
}

/* ---- a daemon that stops answering, dies or stops under a client ---- */

/* Run fn with stderr going to a file; what it wrote, in buf. */
static int with_stderr(char *buf, size_t len, int (*fn)(void *), void *arg)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO), ret;
	size_t n;

	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	ret = fn(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, len - 1, tmp);
	buf[n] = 0;
	fclose(tmp);
	return ret;
}

static int open_dev0(void *arg)
{
	return tt_device_open(0, arg);
}

static void test_stopped_daemon_times_out(void **state)
{
	const char *bad[] = { "abc", "0", "-5", "3600001", "100ms" };
	long t0, took;
	tt_device *dev;
	unsigned n = 0;
	pid_t pid;
	int ret;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	pid = daemon_pid("tt0");
	unsetenv("TT_TRANSPORT");
	setenv("TT_SIM_TIMEOUT_MS", "300", 1);
	stop_daemon(pid);
	/* Counting only reads the runtime directory. */
	assert_int_equal(tt_device_count(&n), 0);
	assert_int_equal(n, 1);
	t0 = now_ms();
	ret = tt_device_open(0, &dev);
	took = now_ms() - t0;
	assert_int_equal(ret, -ETIMEDOUT);
	assert_contains(tt_last_error(), "tt0: ");
	assert_contains(tt_last_error(), "did not answer within 300 ms");
	assert_true(took >= 250 && took < 2000);
	/* Connecting gives up too once the daemon's backlog is full. */
	for (int i = 0, s[100]; i < 100; i++) {
		char err[SIM_ERR_LEN];

		s[i] = sim_rundir_connect_ms("tt0", 100, err);
		if (s[i] < 0) {
			assert_int_equal(s[i], -ETIMEDOUT);
			assert_contains(err, "ttsim device tt0 did not answer within 100 ms");
			while (i--)
				close(s[i]);
			break;
		}
		assert_true(i < 99);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[64];

		setenv("TT_SIM_TIMEOUT_MS", bad[i], 1);
		assert_int_equal(tt_device_open(0, &dev), -EINVAL);
		snprintf(want, sizeof(want), "TT_SIM_TIMEOUT_MS='%s'", bad[i]);
		assert_contains(tt_last_error(), want);
	}
	setenv("TT_SIM_TIMEOUT_MS", "300", 1);
	assert_int_equal(kill(pid, SIGCONT), 0);
	if (tt_device_open(0, &dev))
		fail_msg("%s", tt_last_error());
	assert_string_equal(tt_device_get_info(dev)->transport, "ttsim");
	tt_device_close(dev);
	unsetenv("TT_SIM_TIMEOUT_MS");
}

static void test_stale_socket_is_skipped_and_reported(void **state)
{
	char out[1024];
	tt_device *dev;
	unsigned n = 0;
	pid_t pid;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	pid = daemon_pid("tt0");
	kill(pid, SIGKILL);
	wait_exit(pid, 5000);
	assert_true(exists(dir_path(state, "tt0.sock")));
	unsetenv("TT_TRANSPORT");
	setenv("TT_FIRMWARE", "/dev/null", 1);
	/* Default: the embedded model, and one warning per process. */
	if (with_stderr(out, sizeof(out), open_dev0, &dev))
		fail_msg("%s", tt_last_error());
	assert_string_equal(tt_device_get_info(dev)->transport, "embedded");
	tt_device_close(dev);
	assert_contains(out, "ttsim device tt0");
	assert_contains(out, "'ttsim stop tt0' cleans it up");
	/* One line. */
	assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
	if (with_stderr(out, sizeof(out), open_dev0, &dev))
		fail_msg("%s", tt_last_error());
	tt_device_close(dev);
	assert_string_equal(out, "");
	/* Asked for by name: reported. */
	setenv("TT_TRANSPORT", "ttsim", 1);
	assert_int_equal(tt_device_count(&n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(tt_device_open(0, &dev), -ENODEV);
	assert_contains(tt_last_error(), "ttsim device tt0 is a leftover of a ttsim daemon that is gone");
	assert_contains(tt_last_error(), "'ttsim stop tt0' cleans it up");
	unsetenv("TT_TRANSPORT");
	unsetenv("TT_FIRMWARE");
}

/* After the daemon's end: every kind of call on the handle fails. */
static void assert_daemon_gone(tt_device *dev, const char *how)
{
	struct tt_telemetry tel;
	struct tt_xy c;
	uint32_t v = 0;

	assert_int_equal(tt_device_tensix_core(dev, 0, &c), 0);
	assert_int_equal(tt_noc_read32(dev, 0, c.x, c.y, 0x1000, &v), -ENODEV);
	assert_contains(tt_last_error(), "tt0: the ttsim daemon");
	assert_contains(tt_last_error(), how);
	assert_int_equal(tt_noc_write32(dev, 0, c.x, c.y, 0x1000, 7), -ENODEV);
	assert_contains(tt_last_error(), "daemon");
	assert_int_equal(tt_telemetry_read(dev, &tel), -ENODEV);
	assert_contains(tt_last_error(), "daemon");
	assert_int_equal(tt_mgmt_test(dev, 1, &v), -ENODEV);
	assert_contains(tt_last_error(), "daemon");
	assert_int_equal(tt_device_processes(dev, NULL, 0), -ENODEV);
	assert_contains(tt_last_error(), "daemon");
}

static void test_stop_fails_open_handles(void **state)
{
	struct tt_xy c;
	uint32_t v = 0;
	tt_device *dev;
	struct run r;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	setenv("TT_TRANSPORT", "ttsim", 1);
	if (tt_device_open(0, &dev))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_device_tensix_core(dev, 0, &c), 0);
	assert_int_equal(tt_noc_write32(dev, 0, c.x, c.y, 0x1000, 5), 0);
	assert_int_equal(tt_noc_read32(dev, 0, c.x, c.y, 0x1000, &v), 0);
	assert_int_equal(v, 5);
	run_ttsim(&r, "stop", "tt0", NULL);
	assert_exit(&r, 0);
	assert_daemon_gone(dev, "has stopped");
	tt_device_close(dev);
	unsetenv("TT_TRANSPORT");
}

struct waiter {
	tt_device *dev;
	int ret;
	long took;
	char msg[512];
};

static void *wait_for_answer(void *arg)
{
	struct waiter *w = arg;
	long t0 = now_ms();
	uint32_t out;

	w->ret = tt_mgmt_test(w->dev, 1, &out);
	w->took = now_ms() - t0;
	snprintf(w->msg, sizeof(w->msg), "%s", tt_last_error());
	return NULL;
}

static void test_killed_daemon_fails_open_handles_and_waits(void **state)
{
	struct waiter w = { .ret = 1 };
	pthread_t t;
	pid_t pid;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	pid = daemon_pid("tt0");
	setenv("TT_TRANSPORT", "ttsim", 1);
	if (tt_device_open(0, &w.dev))
		fail_msg("%s", tt_last_error());
	if (tt_mgmt_wait_ready(w.dev, 20000))
		fail_msg("%s", tt_last_error());
	/* Stopped, the firmware cannot answer: the message waits... */
	stop_daemon(pid);
	assert_int_equal(pthread_create(&t, NULL, wait_for_answer, &w), 0);
	sleep_ms(300);
	/* ...until the daemon dies. */
	assert_int_equal(kill(pid, SIGKILL), 0);
	pthread_join(t, NULL);
	wait_exit(pid, 5000);
	assert_int_equal(w.ret, -ENODEV);
	assert_contains(w.msg, "the ttsim daemon");
	assert_contains(w.msg, "exited or died");
	assert_true(w.took < 3000);
	assert_daemon_gone(w.dev, "exited or died");
	tt_device_close(w.dev);
	unsetenv("TT_TRANSPORT");
}

static void test_extra_client_always_gets_eusers(void **state)
{
	int s[SIM_SERVER_MAX_CLIENTS];
	struct sim_resp resp;
	tt_device *dev;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL);
	for (int i = 0; i < SIM_SERVER_MAX_CLIENTS; i++) {
		int fd = -1;

		s[i] = connect_to("tt0");
		assert_int_equal(request(s[i], SIM_OP_HELLO, 0, -1, &resp, &fd), 0);
		close(fd);
	}
	setenv("TT_TRANSPORT", "ttsim", 1);
	for (int i = 0; i < 20; i++) {
		assert_int_equal(tt_device_open(0, &dev), -EUSERS);
		assert_contains(tt_last_error(), "ttsim device tt0: too many clients (at most 256)");
	}
	/* Refused and hung up on before the request goes out: the send
	 * fails, the reason is read all the same. */
	for (int i = 0; i < 3; i++) {
		char err[SIM_ERR_LEN];
		uint64_t val[SIM_REPLY_VALS];
		int c = sim_embed_connect("tt0", err), fd = -1;
		struct pollfd p = { .fd = c, .events = POLLRDHUP };

		assert_true(c >= 0);
		assert_int_equal(poll(&p, 1, 5000), 1);
		assert_int_equal(sim_embed_call(c, SIM_OP_HELLO, 0, -1, val, &fd,
						err), -EUSERS);
		assert_contains(err, "too many clients");
		assert_int_equal(fd, -1);
		close(c);
	}
	for (int i = 0; i < SIM_SERVER_MAX_CLIENTS; i++)
		close(s[i]);
	unsetenv("TT_TRANSPORT");
}

static void test_sim_board_picks_embedded_over_daemon(void **state)
{
	tt_device *dev;

	(void)state;
	start_ok(NULL, NULL, NULL, NULL); /* n150 */
	unsetenv("TT_TRANSPORT");
	setenv("TT_FIRMWARE", "/dev/null", 1);
	setenv("TT_SIM_BOARD", "p150", 1);
	if (tt_device_open(0, &dev))
		fail_msg("%s", tt_last_error());
	assert_string_equal(tt_device_get_info(dev)->transport, "embedded");
	assert_string_equal(tt_device_get_info(dev)->board, "p150");
	tt_device_close(dev);
	/* Unless the daemon is asked for. */
	setenv("TT_TRANSPORT", "ttsim", 1);
	if (tt_device_open(0, &dev))
		fail_msg("%s", tt_last_error());
	assert_string_equal(tt_device_get_info(dev)->transport, "ttsim");
	assert_string_equal(tt_device_get_info(dev)->board, "n150");
	tt_device_close(dev);
	/* Without it, the daemon's device. */
	unsetenv("TT_TRANSPORT");
	unsetenv("TT_SIM_BOARD");
	if (tt_device_open(0, &dev))
		fail_msg("%s", tt_last_error());
	assert_string_equal(tt_device_get_info(dev)->transport, "ttsim");
	tt_device_close(dev);
	unsetenv("TT_FIRMWARE");
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	static const struct CMUnitTest tests[] = {
		T(test_help_exits_0),
		T(test_bogus_board_is_usage_error),
		T(test_unknown_option_is_usage_error),
		T(test_names_must_match_chips),
		T(test_list_without_devices),
		T(test_stop_unknown_name_fails),
		T(test_start_then_list),
		T(test_published_files),
		T(test_hello_gives_ready_image),
		T(test_stop_removes_files_and_daemon_exits),
		T(test_second_start_is_refused),
		T(test_name_and_count),
		T(test_count_gives_default_names),
		T(test_n300_has_two_devices),
		T(test_stop_one_name_stops_its_daemon),
		T(test_stop_all_stops_every_daemon),
		T(test_run_serves_in_foreground),
		T(test_sigterm_shuts_down_cleanly),
		T(test_stale_socket_is_cleaned_by_next_start),
		T(test_stop_removes_stale_socket),
		T(test_killed_client_leaves_daemon_healthy),
		T(test_dma_map_and_unmap),
		T(test_dma_map_needs_a_buffer),
		T(test_short_message_is_refused),
		T(test_oversized_message_is_refused),
		T(test_bad_magic_is_refused),
		T(test_unknown_op_is_refused),
		T(test_stray_descriptors_are_closed),
		T(test_too_many_clients_are_refused),
		T(test_no_shared_memory_is_leaked),
		T(test_clients_lists_each_process_once),
		T(test_clients_are_per_device),
		T(test_clients_hostile_index),
		T(test_clients_skips_hung_up_connection),
		T(test_processes_embedded),
		T(test_processes_ttsim),
		T(test_processes_many),
		T(test_stopped_daemon_times_out),
		T(test_stale_socket_is_skipped_and_reported),
		T(test_stop_fails_open_handles),
		T(test_killed_daemon_fails_open_handles_and_waits),
		T(test_extra_client_always_gets_eusers),
		T(test_sim_board_picks_embedded_over_daemon),
	};
	const char *root = getenv("TT_BUILD_ROOT");

	if (!root) {
		fprintf(stderr, "test_daemon: set TT_BUILD_ROOT to the build directory\n");
		return 1;
	}
	snprintf(ttsim_path, sizeof(ttsim_path), "%s/sim/ttsim", root);
	/* Orphaned daemons become our children (see the top comment). */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	signal(SIGPIPE, SIG_IGN);
	/* meson runs this with protocol 'tap' (CMOCKA_MESSAGE_OUTPUT wins if
	 * set). */
	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("daemon", tests, NULL, NULL);
}
