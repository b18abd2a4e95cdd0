// SPDX-License-Identifier: Apache-2.0
/*
 * ttsim as QEMU's ivshmem-doorbell server (sim/daemon/ivshmem.h), end to end:
 * every test runs the real daemon (`ttsim run --ivshmem`) and talks to it
 * as QEMU would, through a fake QEMU that connects to the socket, takes
 * the set-up messages with their descriptors, maps BAR2 (the image), and
 * then acts as the guest: it writes registers in BAR2, rings the device
 * through its doorbell eventfd and waits for its MSI-X vector eventfd.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "clock.h"
#include "sim/model/doorbell.h"
#include "sim/model/hostmem.h"
#include "hw/tt_hw.h"
#include "sim/model/image.h"
#include "sim/daemon/ivshmem.h"
#include "sim/daemon/proto.h"
#include "sim/daemon/rundir.h"
#include "tmpdir.h"

#define READY_TIMEOUT_MS 30000
#define WAIT_MS 5000
#define SETUP_MSGS (3 + SIM_IVSHMEM_DOORBELLS + SIM_IVSHMEM_VECTORS)

static char ttsim_path[PATH_MAX];

struct fixture {
	char dir[64];
	char sock[128];
	pid_t pid; /* the daemon, 0 if none */
	int out, err; /* its standard output and error */
	char log[32768]; /* what it wrote to standard error so far */
	size_t loglen;
	char outtext[4096]; /* what it wrote to standard output by ready */
};

/* What a fake QEMU holds after the set-up. */
struct guest {
	int sock;
	int shm;
	int doorbell[SIM_IVSHMEM_DOORBELLS];
	int vector[SIM_IVSHMEM_VECTORS];
	struct sim_image *img; /* BAR2, attached */
};

/* ---- helpers ---- */

/* Append what the daemon has written to stderr to fx->log. */
static void pump_log(struct fixture *fx)
{
	ssize_t n;

	while (fx->err >= 0 && fx->loglen < sizeof(fx->log) - 1 &&
	       (n = read(fx->err, fx->log + fx->loglen,
			 sizeof(fx->log) - 1 - fx->loglen)) > 0)
		fx->loglen += (size_t)n;
	fx->log[fx->loglen] = 0;
}

static bool log_has(struct fixture *fx, const char *needle, long timeout_ms)
{
	long deadline = now_ms() + timeout_ms;

	for (;;) {
		pump_log(fx);
		if (strstr(fx->log, needle))
			return true;
		if (now_ms() > deadline)
			return false;
		sleep_ms(5);
	}
}

#define assert_log(fx, needle)                                                 \
	do {                                                                   \
		if (!log_has((fx), (needle), WAIT_MS))                         \
			fail_msg("expected \"%s\" in the daemon's log:\n%s",   \
				 (needle), (fx)->log);                         \
	} while (0)

/* Start `ttsim run ARGS...` (NULL-terminated) with pipes on stdout and
 * stderr; does not wait. */
static pid_t spawn(struct fixture *fx, const char *const *args)
{
	const char *argv[24] = { "ttsim", "run" };
	int o[2], e[2], n = 2;
	pid_t pid;

	while (*args && n < 23)
		argv[n++] = *args++;
	argv[n] = NULL;
	if (pipe2(o, O_CLOEXEC) < 0 || pipe2(e, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(o[1], STDOUT_FILENO);
		dup2(e[1], STDERR_FILENO);
		execv(ttsim_path, (char *const *)argv);
		_exit(127);
	}
	close(o[1]);
	close(e[1]);
	fcntl(o[0], F_SETFL, O_NONBLOCK);
	fcntl(e[0], F_SETFL, O_NONBLOCK);
	fx->out = o[0];
	fx->err = e[0];
	fx->loglen = 0;
	fx->log[0] = 0;
	fx->pid = pid;
	return pid;
}

/* Wait until the daemon has printed `lines` device lines (it is serving)
 * or has exited; returns its exit code if it exited, else -1. */
static int wait_ready(struct fixture *fx, int lines)
{
	long deadline = now_ms() + READY_TIMEOUT_MS;
	char *buf = fx->outtext;
	size_t len = 0;
	int st;

	buf[0] = 0;
	while (now_ms() < deadline) {
		ssize_t n = read(fx->out, buf + len, sizeof(fx->outtext) - 1 - len);
		int seen = 0;

		if (n > 0)
			len += (size_t)n;
		buf[len] = 0;
		for (char *p = buf; (p = strchr(p, '\n')); p++)
			seen++;
		if (seen >= lines)
			return -1;
		if (waitpid(fx->pid, &st, WNOHANG) == fx->pid) {
			fx->pid = 0;
			pump_log(fx);
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
		}
		sleep_ms(5);
	}
	fail_msg("ttsim did not get ready within %d ms", READY_TIMEOUT_MS);
	return -1;
}

/* A daemon serving one n150 as ivs0, with its ivshmem socket at fx->sock. */
static void start_daemon(struct fixture *fx)
{
	const char *args[] = { "--name", "ivs0", "--ivshmem", fx->sock, NULL };

	assert_true(spawn(fx, args) > 0);
	if (wait_ready(fx, 1) != -1)
		fail_msg("ttsim exited:\n%s", fx->log);
}

/* Did the daemon's log report a sanitizer error (ASan, UBSan, LSan)? */
static bool log_clean(const struct fixture *fx)
{
	return !strstr(fx->log, "Sanitizer") &&
	       !strstr(fx->log, "runtime error:");
}

/* Stop the daemon with SIGTERM (a clean shutdown); true if it exited 0
 * (or there was none) with a clean log. */
static bool stop_daemon(struct fixture *fx)
{
	long deadline = now_ms() + 20000;
	bool ok = true;
	int st;

	if (fx->pid > 0) {
		kill(fx->pid, SIGTERM);
		while (waitpid(fx->pid, &st, WNOHANG) != fx->pid) {
			if (now_ms() > deadline) {
				kill(fx->pid, SIGKILL);
				waitpid(fx->pid, &st, 0);
				break;
			}
			sleep_ms(5);
		}
		ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
		fx->pid = 0;
	}
	pump_log(fx);
	if (fx->out >= 0)
		close(fx->out);
	if (fx->err >= 0)
		close(fx->err);
	fx->out = fx->err = -1;
	return ok && log_clean(fx);
}

static int connect_to(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 5 };
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(s >= 0);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (connect(s, (struct sockaddr *)&a, sizeof(a)) < 0)
		fail_msg("connect %s: %s", path, strerror(errno));
	/* A server that stops talking must not hang the test. */
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return s;
}

/*
 * One message as QEMU reads it: 8 bytes, and the descriptors that came
 * with them (room for more than one, to catch a server sending two).
 * Returns 0, -ENODATA at end of stream, or -errno.
 */
static int recv_msg(int s, int64_t *val, int *fds, int *nfds)
{
	union {
		char buf[CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	uint64_t le;
	struct iovec iov = { .iov_base = &le, .iov_len = sizeof(le) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = ctl.buf,
			    .msg_controllen = sizeof(ctl.buf) };
	ssize_t n = recvmsg(s, &m, MSG_WAITALL | MSG_CMSG_CLOEXEC);

	*nfds = 0;
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ENODATA;
	assert_int_equal(n, sizeof(le));
	assert_false(m.msg_flags & (MSG_CTRUNC | MSG_TRUNC));
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
		assert_int_equal(c->cmsg_level, SOL_SOCKET);
		assert_int_equal(c->cmsg_type, SCM_RIGHTS);
		int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));

		memcpy(fds + *nfds, CMSG_DATA(c), (size_t)k * sizeof(int));
		*nfds += k;
	}
	*val = (int64_t)le64toh(le);
	return 0;
}

/* The message must be `want`, with one descriptor (returned) or none. */
static int expect_msg(int s, int64_t want, bool with_fd)
{
	int fds[4], nfds, ret;
	int64_t val;

	ret = recv_msg(s, &val, fds, &nfds);
	if (ret)
		fail_msg("expected message %lld: %s", (long long)want,
			 strerror(-ret));
	assert_int_equal(val, want);
	assert_int_equal(nfds, with_fd ? 1 : 0);
	return with_fd ? fds[0] : -1;
}

static bool readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

/* What descriptor fd is, as /proc/self/fd says ("anon_inode:[eventfd]"). */
static const char *fd_kind(int fd)
{
	static char buf[256];
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	return buf;
}

/* Connect as QEMU does and take the whole set-up, checking every message. */
static void guest_connect(const char *path, struct guest *g)
{
	char err[SIM_ERR_LEN];
	struct stat st;
	unsigned i;

	g->sock = connect_to(path);
	expect_msg(g->sock, 0, false); /* version */
	expect_msg(g->sock, SIM_IVSHMEM_GUEST_ID, false);
	g->shm = expect_msg(g->sock, -1, true);
	for (i = 0; i < SIM_IVSHMEM_DOORBELLS; i++)
		g->doorbell[i] = expect_msg(g->sock, SIM_IVSHMEM_DEVICE_ID, true);
	for (i = 0; i < SIM_IVSHMEM_VECTORS; i++)
		g->vector[i] = expect_msg(g->sock, SIM_IVSHMEM_GUEST_ID, true);
	/* Nothing more: the set-up is complete. */
	assert_false(readable(g->sock, 100));
	/* QEMU maps BAR2 with the size of the object: a power of two. */
	assert_int_equal(fstat(g->shm, &st), 0);
	assert_true(st.st_size > 0 && !(st.st_size & (st.st_size - 1)));
	if (sim_image_attach(dup(g->shm), &g->img, err))
		fail_msg("BAR2 is not a device image: %s", err);
	assert_int_equal(g->img->size, (uint64_t)st.st_size);
}

static void guest_close(struct guest *g)
{
	sim_image_destroy(g->img);
	g->img = NULL;
	close(g->shm);
	for (unsigned i = 0; i < SIM_IVSHMEM_DOORBELLS; i++)
		close(g->doorbell[i]);
	for (unsigned i = 0; i < SIM_IVSHMEM_VECTORS; i++)
		close(g->vector[i]);
	close(g->sock);
}

/* The guest driver's "ring": write (H << 16) | k to BAR0 + 12, which QEMU
 * turns into a write of 1 to doorbell eventfd k. */
static void ring(const struct guest *g)
{
	uint64_t one = 1;

	assert_int_equal(write(g->doorbell[0], &one, sizeof(one)), sizeof(one));
}

/* Did the daemon see the ring? Its doorbell sequence moves. */
static void assert_ring_seen(const struct guest *g)
{
	uint32_t seq = sim_doorbell_seq(g->img->regs);
	long deadline = now_ms() + WAIT_MS;

	ring(g);
	while (sim_doorbell_seq(g->img->regs) == seq) {
		if (now_ms() > deadline)
			fail_msg("the device did not answer the doorbell");
		sleep_ms(1);
	}
}

/*
 * Wait until the device has settled: its management firmware goes on
 * booting after the daemon reports ready, and may ring and interrupt
 * meanwhile. Quiet means neither sequence moved for 200 ms.
 */
static void wait_quiet(const struct guest *g)
{
	long deadline = now_ms() + 20000;

	for (;;) {
		uint32_t db = sim_doorbell_seq(g->img->regs);
		uint32_t irq = sim_irq_seq(g->img->regs);

		sleep_ms(200);
		if (db == sim_doorbell_seq(g->img->regs) &&
		    irq == sim_irq_seq(g->img->regs))
			return;
		if (now_ms() > deadline)
			fail_msg("the device never went quiet");
	}
}

/* Take a vector's pending count; 0 if none. */
static uint64_t take_vector(int fd)
{
	uint64_t n = 0;

	if (read(fd, &n, sizeof(n)) != sizeof(n))
		return 0;
	return n;
}

/* Descriptors the daemon holds. */
static int count_fds(pid_t pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* Wait until the daemon holds `want` descriptors again. */
static void assert_fds_back_to(pid_t pid, int want)
{
	long deadline = now_ms() + WAIT_MS;
	int n;

	while ((n = count_fds(pid)) != want) {
		if (now_ms() > deadline)
			fail_msg("the daemon holds %d descriptors, %d before the guest",
				 n, want);
		sleep_ms(5);
	}
}

/* Has the server hung up on s (end of stream, no message)? */
static void assert_hung_up(int s)
{
	int fds[4], nfds;
	int64_t val;

	assert_int_equal(recv_msg(s, &val, fds, &nfds), -ENODATA);
}

static int run_in(const char *dir, const char *const *args);

/* ---- fixture ---- */

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	if (!test_mkdtemp(fx->dir, sizeof(fx->dir), "ttsim-ivshmem")) {
		free(fx);
		return -1;
	}
	fx->out = fx->err = -1;
	snprintf(fx->sock, sizeof(fx->sock), "%s/vm.sock", fx->dir);
	setenv("TTSIM_RUNTIME_DIR", fx->dir, 1);
	*state = fx;
	return 0;
}

static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char path[PATH_MAX];

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (de->d_type == DT_DIR)
			remove_tree(path);
		else
			unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static int teardown(void **state)
{
	const char *stop_all[] = { "stop", "--all", NULL };
	struct fixture *fx = *state;
	bool ok = stop_daemon(fx);

	if (!ok)
		fprintf(stderr, "the daemon did not stop cleanly:\n%s\n", fx->log);
	run_in("/", stop_all); /* background daemons a failed test left */
	remove_tree(fx->dir);
	unsetenv("TTSIM_RUNTIME_DIR");
	free(fx);
	return ok ? 0 : -1;
}

/* ---- the set-up ---- */

static void test_setup_messages_in_qemu_order(void **state)
{
	struct fixture *fx = *state;
	struct guest g;
	struct stat st;

	start_daemon(fx);
	/* The socket is there, and only for us. */
	assert_int_equal(lstat(fx->sock, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0600);

	guest_connect(fx->sock, &g);
	assert_non_null(strstr(fd_kind(g.shm), "memfd:"));
	for (unsigned i = 0; i < SIM_IVSHMEM_DOORBELLS; i++)
		assert_string_equal(fd_kind(g.doorbell[i]), "anon_inode:[eventfd]");
	for (unsigned i = 0; i < SIM_IVSHMEM_VECTORS; i++)
		assert_string_equal(fd_kind(g.vector[i]), "anon_inode:[eventfd]");
	/* BAR2 is the device: its identity page, and it is running. */
	assert_int_equal(g.img->id->magic_lo, TT_IDENTITY_MAGIC_LO);
	assert_int_equal(g.img->id->magic_hi, TT_IDENTITY_MAGIC_HI);
	assert_int_equal(g.img->id->state, TT_DEV_STATE_READY);
	assert_int_equal(g.img->id->image_size, g.img->size);
	assert_log(fx, "ivs0: ivshmem");
	assert_log(fx, "guest connected");
	guest_close(&g);
	assert_log(fx, "guest disconnected (hang-up)");

	/* The daemon removes the socket when it stops. */
	assert_true(stop_daemon(fx));
	assert_int_equal(lstat(fx->sock, &st), -1);
}

/* ---- guest -> device ---- */

/* The first two enabled Tensix nodes. */
static void two_tensix(struct sim_image *img, struct tt_node_desc **a,
		       struct tt_node_desc **b)
{
	*a = *b = NULL;
	for (unsigned i = 0; i < img->grid_x * img->grid_y; i++) {
		struct tt_node_desc *n = &img->nodes[i];

		if (n->type != TT_NODE_TENSIX || (n->flags & TT_NODE_F_HARVESTED))
			continue;
		if (!*a)
			*a = n;
		else if (!*b)
			*b = n;
	}
	assert_non_null(*a);
	assert_non_null(*b);
}

static uint32_t *reg(uint8_t *page, unsigned off)
{
	return (uint32_t *)(void *)(page + off);
}

/*
 * The guest driver's way to use the device: program a NOC write in a
 * node's NIU registers in BAR2, mark the node's doorbell pending (no kick:
 * BAR2 is plain memory, nothing traps) and ring the ivshmem doorbell. The
 * model runs the command only after the ring, and its completion
 * interrupt arrives on vector 0.
 */
static void test_doorbell_runs_a_noc_command(void **state)
{
	struct fixture *fx = *state;
	struct tt_node_desc *src, *dst;
	uint8_t *niu, *from, *to, pattern[64];
	struct tt_host_regs *regs;
	struct guest g;

	start_daemon(fx);
	guest_connect(fx->sock, &g);
	wait_quiet(&g);
	regs = g.img->regs;
	two_tensix(g.img, &src, &dst);
	from = g.img->base + src->mem_off + 0x80000;
	to = g.img->base + dst->mem_off + 0x90000;
	for (unsigned i = 0; i < sizeof(pattern); i++)
		pattern[i] = (uint8_t)(0xA5 ^ i);
	memcpy(from, pattern, sizeof(pattern));
	memset(to, 0, sizeof(pattern));
	__atomic_and_fetch(&regs->irq_status, ~TT_IRQ_NOC_DONE, __ATOMIC_SEQ_CST);
	take_vector(g.vector[0]);

	niu = sim_image_regs(g.img, src, TT_REG_NIU0);
	*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_TARG_LO)) = 0x90000;
	*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_TARG_HI)) = 0;
	*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_TARG_COORD)) =
		TT_FIELD_PREP(TT_NIU_COORD_X_MASK, dst->x) |
		TT_FIELD_PREP(TT_NIU_COORD_Y_MASK, dst->y);
	*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_RET_LO)) = 0x80000;
	*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_RET_HI)) = 0;
	*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_LEN)) = sizeof(pattern);
	*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_CTRL)) =
		TT_FIELD_PREP(TT_NIU_CTRL_OP_MASK, TT_NIU_OP_WRITE) |
		TT_NIU_CTRL_IRQ;
	__atomic_store_n(reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_ISSUE)), 1,
			 __ATOMIC_RELEASE);
	unsigned bell = TT_DOORBELL_NIU(sim_image_node_index(g.img, src), 0);

	__atomic_or_fetch(&regs->doorbell_pending[bell / 32], 1u << (bell % 32),
			  __ATOMIC_SEQ_CST);

	/* Without the ring the device does not look. */
	sleep_ms(100);
	assert_int_equal(__atomic_load_n(reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_ISSUE)),
					 __ATOMIC_ACQUIRE),
			 1);
	assert_false(readable(g.vector[0], 0));

	ring(&g);
	/* The completion interrupt is MSI-X vector 0. */
	if (!readable(g.vector[0], WAIT_MS))
		fail_msg("no interrupt after the doorbell");
	assert_true(take_vector(g.vector[0]) >= 1);
	assert_int_equal(__atomic_load_n(reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_ISSUE)),
					 __ATOMIC_ACQUIRE),
			 0);
	assert_int_equal(*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_STATUS)),
			 TT_DEV_ERR_NONE);
	assert_memory_equal(to, pattern, sizeof(pattern));
	assert_true(__atomic_load_n(&regs->irq_status, __ATOMIC_ACQUIRE) &
		    TT_IRQ_NOC_DONE);
	guest_close(&g);
}

/* Rings coalesce; each burst is answered, and the daemon keeps serving. */
static void test_many_rings(void **state)
{
	struct fixture *fx = *state;
	struct guest g;

	start_daemon(fx);
	guest_connect(fx->sock, &g);
	for (int i = 0; i < 50; i++)
		assert_ring_seen(&g);
	for (int i = 0; i < 1000; i++)
		ring(&g);
	assert_ring_seen(&g);
	guest_close(&g);
}

/* ---- device -> guest ---- */

static void test_model_interrupt_reaches_vector(void **state)
{
	struct fixture *fx = *state;
	struct guest g;

	start_daemon(fx);
	guest_connect(fx->sock, &g);
	wait_quiet(&g);
	take_vector(g.vector[0]);
	/* An idle device raises nothing. */
	assert_false(readable(g.vector[0], 100));

	/* Any raise by anyone attached to the image reaches the guest. */
	sim_irq_raise(g.img->regs, TT_IRQ_HART);
	if (!readable(g.vector[0], WAIT_MS))
		fail_msg("the interrupt did not reach vector 0");
	assert_true(take_vector(g.vector[0]) >= 1);
	assert_false(readable(g.vector[0], 50));

	/* And again: the forwarder keeps going. */
	for (int i = 0; i < 3; i++) {
		sim_irq_raise(g.img->regs, TT_IRQ_DEV_ERROR);
		if (!readable(g.vector[0], WAIT_MS))
			fail_msg("interrupt %d did not reach vector 0", i);
		take_vector(g.vector[0]);
	}
	guest_close(&g);
}

/* ---- one guest at a time ---- */

static void test_second_guest_is_refused(void **state)
{
	struct fixture *fx = *state;
	struct guest g;
	int s;

	start_daemon(fx);
	guest_connect(fx->sock, &g);
	s = connect_to(fx->sock);
	assert_hung_up(s); /* closed, without a single message */
	close(s);
	assert_log(fx, "refused a second guest");

	/* The first guest is undisturbed, both ways. */
	assert_ring_seen(&g);
	sim_irq_raise(g.img->regs, TT_IRQ_HART);
	assert_true(readable(g.vector[0], WAIT_MS));
	guest_close(&g);
}

static void test_reconnect_frees_everything(void **state)
{
	struct fixture *fx = *state;
	struct guest g;
	int base;

	start_daemon(fx);
	base = count_fds(fx->pid);
	assert_true(base > 0);
	for (int round = 0; round < 3; round++) {
		guest_connect(fx->sock, &g);
		assert_true(count_fds(fx->pid) > base);
		assert_ring_seen(&g);
		guest_close(&g);
		/* Its connection and eventfds are closed... */
		assert_fds_back_to(fx->pid, base);
	}
	/* ...and the next guest gets the full set-up and a working device. */
	guest_connect(fx->sock, &g);
	sim_irq_raise(g.img->regs, TT_IRQ_HART);
	assert_true(readable(g.vector[0], WAIT_MS));
	assert_ring_seen(&g);
	guest_close(&g);
}

/* An interrupt with no guest connected is not kept for the next one:
 * QEMU cannot clear one, so a stale one would be a spurious interrupt. */
static void test_interrupt_without_guest_is_dropped(void **state)
{
	struct fixture *fx = *state;
	struct sim_image *img;
	struct guest g;

	start_daemon(fx);
	guest_connect(fx->sock, &g);
	img = g.img; /* keep the image to raise with */
	g.img = NULL;
	guest_close(&g);
	assert_log(fx, "guest disconnected");
	sim_irq_raise(img->regs, TT_IRQ_HART);
	sleep_ms(100);
	guest_connect(fx->sock, &g);
	assert_false(readable(g.vector[0], 100));
	/* The new guest gets the next one. */
	sim_irq_raise(img->regs, TT_IRQ_HART);
	assert_true(readable(g.vector[0], WAIT_MS));
	guest_close(&g);
	sim_image_destroy(img);
}

/* ---- hostile guests ---- */

static void test_writer_is_dropped(void **state)
{
	struct fixture *fx = *state;
	const char junk[] = "not QEMU: QEMU never writes to this socket";
	struct guest g, h;
	int base;

	start_daemon(fx);
	base = count_fds(fx->pid);
	guest_connect(fx->sock, &g);
	assert_int_equal(send(g.sock, junk, sizeof(junk), MSG_NOSIGNAL),
			 sizeof(junk));
	assert_hung_up(g.sock);
	assert_log(fx, "it wrote to the socket");
	assert_fds_back_to(fx->pid, base);
	guest_close(&g);

	guest_connect(fx->sock, &h);
	assert_ring_seen(&h);
	guest_close(&h);
}

static void test_guest_leaving_during_setup(void **state)
{
	struct fixture *fx = *state;
	struct guest g;
	int base, s, fds[4], nfds;
	int64_t val;

	start_daemon(fx);
	base = count_fds(fx->pid);
	for (int i = 0; i < 5; i++) {
		/* Gone before reading anything... */
		s = connect_to(fx->sock);
		close(s);
		/* ...and after the first two messages. */
		s = connect_to(fx->sock);
		assert_int_equal(recv_msg(s, &val, fds, &nfds), 0);
		assert_int_equal(recv_msg(s, &val, fds, &nfds), 0);
		close(s);
		assert_fds_back_to(fx->pid, base);
	}
	/* Gone with the image in hand but no eventfds taken. */
	s = connect_to(fx->sock);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(recv_msg(s, &val, fds, &nfds), 0);
		for (int k = 0; k < nfds; k++)
			close(fds[k]);
	}
	shutdown(s, SHUT_RDWR);
	close(s);
	assert_fds_back_to(fx->pid, base);

	guest_connect(fx->sock, &g);
	assert_ring_seen(&g);
	sim_irq_raise(g.img->regs, TT_IRQ_HART);
	assert_true(readable(g.vector[0], WAIT_MS));
	guest_close(&g);
}

/* ---- guest RAM: the device's DMA into the guest ---- */

#define RAM_SIZE (64u << 20)
#define RAM_LOWMEM (32u << 20) /* so that some RAM is at 4 GiB */
#define RAM_SPEC "64M,lowmem=32M"
#define GPA_HIGH 0x100000000ull /* where RAM above lowmem starts */
/* Host-window addresses the fake guest's driver maps with its regions. */
#define WIN_LOW (TT_PCIE_HOST_WINDOW_BASE + 0x200000000ull)
#define WIN_HIGH (TT_PCIE_HOST_WINDOW_BASE + 0x300000000ull)
#define WIN_HOLE (TT_PCIE_HOST_WINDOW_BASE + 0x400000000ull)

/* The guest's RAM as QEMU has it: the file ttsim named, mapped shared. */
struct guest_ram {
	char path[64];
	uint8_t *p;
};

/* A daemon serving ivs0 to a guest with guest RAM `spec`: it prints the
 * device line and the guest RAM line. */
static void start_with_ram(struct fixture *fx, const char *spec)
{
	const char *args[] = { "--name", "ivs0", "--ivshmem", fx->sock,
			       "--guest-ram", spec, NULL };

	assert_true(spawn(fx, args) > 0);
	if (wait_ready(fx, 2) != -1)
		fail_msg("ttsim exited:\n%s", fx->log);
}

/* Open the path of "guest RAM: PATH, ..." as QEMU's memory-backend-file
 * does, and map it. */
static void map_guest_ram(struct fixture *fx, struct guest_ram *r)
{
	const char *line = strstr(fx->outtext, "guest RAM: ");
	char want[64];
	struct stat st;
	size_t len;
	int fd;

	if (!line)
		fail_msg("no guest RAM line in:\n%s", fx->outtext);
	line += strlen("guest RAM: ");
	len = strcspn(line, ",");
	assert_true(len < sizeof(r->path));
	memcpy(r->path, line, len);
	r->path[len] = 0;
	/* A descriptor of the daemon's own, as /proc names it. */
	snprintf(want, sizeof(want), "/proc/%d/fd/", (int)fx->pid);
	assert_memory_equal(r->path, want, strlen(want));
	assert_non_null(strstr(fx->outtext, "mem-path="));
	assert_non_null(strstr(fx->outtext, "share=on"));
	fd = open(r->path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		fail_msg("open %s: %s", r->path, strerror(errno));
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, RAM_SIZE);
	assert_non_null(strstr(fd_kind(fd), "memfd:"));
	/* Nobody, QEMU included, can pull pages from under the engine. */
	assert_int_equal(fcntl(fd, F_GET_SEALS) & (F_SEAL_SHRINK | F_SEAL_GROW),
			 F_SEAL_SHRINK | F_SEAL_GROW);
	assert_int_equal(ftruncate(fd, 0), -1);
	r->p = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(r->p != MAP_FAILED);
	close(fd);
}

static struct tt_node_desc *pcie_node(struct sim_image *img)
{
	for (unsigned i = 0; i < img->grid_x * img->grid_y; i++)
		if (img->nodes[i].type == TT_NODE_PCIE)
			return &img->nodes[i];
	fail_msg("no PCIe node in the node table");
	return NULL;
}

/* What a guest driver does to map host-window [win, + size) onto
 * guest-physical gpa: program ATU region r in BAR2, enabling it last. */
static void map_window(struct sim_image *img, unsigned r, uint64_t win,
		       uint64_t size, uint64_t gpa)
{
	uint8_t *atu = sim_image_regs(img, pcie_node(img), TT_REG_PCIE_ATU);
	uint64_t limit = win + size - 1;

	*reg(atu, TT_PCIE_ATU(r, TT_PCIE_ATU_BASE_LO)) = (uint32_t)win;
	*reg(atu, TT_PCIE_ATU(r, TT_PCIE_ATU_BASE_HI)) = (uint32_t)(win >> 32);
	*reg(atu, TT_PCIE_ATU(r, TT_PCIE_ATU_LIMIT_LO)) = (uint32_t)limit;
	*reg(atu, TT_PCIE_ATU(r, TT_PCIE_ATU_LIMIT_HI)) = (uint32_t)(limit >> 32);
	*reg(atu, TT_PCIE_ATU(r, TT_PCIE_ATU_TARGET_LO)) = (uint32_t)gpa;
	*reg(atu, TT_PCIE_ATU(r, TT_PCIE_ATU_TARGET_HI)) = (uint32_t)(gpa >> 32);
	__atomic_store_n(reg(atu, TT_PCIE_ATU(r, TT_PCIE_ATU_CTRL)),
			 TT_PCIE_ATU_CTRL_ENABLE, __ATOMIC_RELEASE);
}

/*
 * Node n moves len bytes between its L1 at `l1` and host-window address
 * `win` of the PCIe node (READ: host to L1, WRITE: L1 to host), issued by
 * the guest through BAR2 and the doorbell as in
 * test_doorbell_runs_a_noc_command. Returns the command's status.
 */
static uint32_t guest_dma(const struct guest *g, struct tt_node_desc *n,
			  unsigned op, uint64_t win, uint64_t l1, uint32_t len)
{
	struct tt_node_desc *pcie = pcie_node(g->img);
	uint8_t *niu = sim_image_regs(g->img, n, TT_REG_NIU0);
	unsigned bell = TT_DOORBELL_NIU(sim_image_node_index(g->img, n), 0);
	long deadline = now_ms() + WAIT_MS;

	*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_TARG_LO)) = (uint32_t)win;
	*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_TARG_HI)) = (uint32_t)(win >> 32);
	*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_TARG_COORD)) =
		TT_FIELD_PREP(TT_NIU_COORD_X_MASK, pcie->x) |
		TT_FIELD_PREP(TT_NIU_COORD_Y_MASK, pcie->y);
	*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_RET_LO)) = (uint32_t)l1;
	*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_RET_HI)) = 0;
	*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_LEN)) = len;
	*reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_CTRL)) =
		TT_FIELD_PREP(TT_NIU_CTRL_OP_MASK, op);
	__atomic_store_n(reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_ISSUE)), 1,
			 __ATOMIC_RELEASE);
	__atomic_or_fetch(&g->img->regs->doorbell_pending[bell / 32],
			  1u << (bell % 32), __ATOMIC_SEQ_CST);
	ring(g);
	while (__atomic_load_n(reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_ISSUE)),
			       __ATOMIC_ACQUIRE)) {
		if (now_ms() > deadline)
			fail_msg("the device did not run the DMA command");
		sleep_ms(1);
	}
	return *reg(niu, TT_NIU_CMD(0, TT_NIU_CMD_STATUS));
}

static void fill(uint8_t *p, size_t len, uint8_t seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 13);
}

/*
 * The whole path a guest driver's DMA takes: the guest's RAM is the file
 * ttsim printed, the driver maps host-window ranges onto guest-physical
 * addresses with ATU regions 1..15, and the device's NOC reads and writes
 * land in the guest's pages, below lowmem and at 4 GiB alike.
 */
static void test_device_reaches_guest_ram(void **state)
{
	struct fixture *fx = *state;
	const uint64_t g_low = 0x123000, g_high = GPA_HIGH + 0x5000;
	uint8_t want[512], *l1;
	struct tt_node_desc *t, *u;
	struct guest_ram ram;
	struct guest g;

	start_with_ram(fx, RAM_SPEC);
	assert_non_null(strstr(fx->outtext, "max-ram-below-4g=32M"));
	map_guest_ram(fx, &ram);
	guest_connect(fx->sock, &g);
	wait_quiet(&g);
	two_tensix(g.img, &t, &u);
	l1 = g.img->base + t->mem_off;
	map_window(g.img, 1, WIN_LOW, 0x100000, g_low);
	map_window(g.img, 2, WIN_HIGH, 0x100000, g_high);

	/* Guest RAM below lowmem -> L1. */
	fill(ram.p + g_low + 0x40, sizeof(want), 0x11);
	memcpy(want, ram.p + g_low + 0x40, sizeof(want));
	memset(l1 + 0x90000, 0, sizeof(want));
	assert_int_equal(guest_dma(&g, t, TT_NIU_OP_READ, WIN_LOW + 0x40,
				   0x90000, sizeof(want)),
			 TT_DEV_ERR_NONE);
	assert_memory_equal(l1 + 0x90000, want, sizeof(want));

	/* L1 -> guest RAM at 4 GiB, which is file offset lowmem on. */
	fill(l1 + 0xA0000, sizeof(want), 0x77);
	memcpy(want, l1 + 0xA0000, sizeof(want));
	memset(ram.p + RAM_LOWMEM + 0x5000, 0, 2 * sizeof(want));
	assert_int_equal(guest_dma(&g, t, TT_NIU_OP_WRITE, WIN_HIGH + 0x100,
				   0xA0000, sizeof(want)),
			 TT_DEV_ERR_NONE);
	assert_memory_equal(ram.p + RAM_LOWMEM + 0x5000 + 0x100, want,
			    sizeof(want));
	for (unsigned i = 0; i < 0x100; i++)
		assert_int_equal(ram.p[RAM_LOWMEM + 0x5000 + i], 0);

	/* And back, through another node. */
	memset(g.img->base + u->mem_off + 0x90000, 0, sizeof(want));
	assert_int_equal(guest_dma(&g, u, TT_NIU_OP_READ, WIN_HIGH + 0x100,
				   0x90000, sizeof(want)),
			 TT_DEV_ERR_NONE);
	assert_memory_equal(g.img->base + u->mem_off + 0x90000, want,
			    sizeof(want));
	munmap(ram.p, RAM_SIZE);
	guest_close(&g);
}

/* The last error record, once the log has more than `before`. */
static struct tt_dev_error last_error(const struct guest *g, uint32_t before)
{
	struct tt_host_regs *regs = g->img->regs;
	uint32_t head = __atomic_load_n(&regs->err_head, __ATOMIC_ACQUIRE);

	assert_true(head > before);
	return regs->err[(head - 1) % TT_DEV_ERR_RING];
}

/* A client of the daemon's device `name` maps a DMA buffer and goes away:
 * the daemon releases what the client held. */
static void client_maps_and_leaves(const char *name)
{
	struct sim_req q = { .magic = SIM_PROTO_MAGIC, .op = SIM_OP_DMA_MAP,
			     .arg = { 4096 } };
	int buf = memfd_create("client", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	char err[SIM_ERR_LEN];
	struct sim_resp r;
	int s = sim_rundir_connect(name, err);

	if (s < 0)
		fail_msg("%s", err);
	assert_int_equal(ftruncate(buf, 4096), 0);
	assert_int_equal(fcntl(buf, F_ADD_SEALS, F_SEAL_SHRINK), 0);
	assert_int_equal(sim_proto_send(s, &q, sizeof(q), buf), 0);
	assert_int_equal(sim_proto_recv(s, &r, sizeof(r), NULL), 0);
	assert_int_equal(r.status, 0);
	assert_true(r.val[1] >= SIM_BUS_BASE); /* its bus address */
	close(s);
	close(buf);
	sleep_ms(100); /* the daemon sees the hang-up */
}

/*
 * Addresses with no guest RAM behind them (the hole below 4 GiB, across
 * lowmem, past the end) are device errors: the command fails with
 * TT_DEV_ERR_HOST_MEM, the error log says where, and the daemon goes on
 * serving. A client of the daemon that maps and leaves takes nothing of
 * the guest's RAM with it.
 */
static void test_no_ram_behind_it(void **state)
{
	struct fixture *fx = *state;
	struct tt_node_desc *t, *u;
	struct tt_dev_error e;
	struct guest_ram ram;
	struct guest g;
	uint32_t head;

	start_with_ram(fx, RAM_SPEC);
	map_guest_ram(fx, &ram);
	guest_connect(fx->sock, &g);
	wait_quiet(&g);
	two_tensix(g.img, &t, &u);
	/* The hole; the last 512 KiB below lowmem; the last page of RAM. */
	map_window(g.img, 3, WIN_HOLE, 0x100000, 0x80000000);
	map_window(g.img, 4, WIN_LOW, 0x100000, RAM_LOWMEM - 0x80000);
	map_window(g.img, 5, WIN_HIGH, 0x100000,
		   GPA_HIGH + (RAM_SIZE - RAM_LOWMEM) - 0x1000);

	head = g.img->regs->err_head;
	assert_int_equal(guest_dma(&g, t, TT_NIU_OP_READ, WIN_HOLE, 0x90000, 64),
			 TT_DEV_ERR_HOST_MEM);
	e = last_error(&g, head);
	assert_int_equal(e.code, TT_DEV_ERR_HOST_MEM);
	assert_int_equal(e.addr, WIN_HOLE);
	assert_int_equal(e.op, TT_DEV_OP_READ);
	assert_true(g.img->regs->irq_status & TT_IRQ_DEV_ERROR);

	/* Across lowmem: the last bytes below it, and none after. */
	assert_int_equal(guest_dma(&g, t, TT_NIU_OP_WRITE, WIN_LOW + 0x7FFF0,
				   0x90000, 32),
			 TT_DEV_ERR_HOST_MEM);
	assert_int_equal(guest_dma(&g, t, TT_NIU_OP_WRITE, WIN_LOW + 0x7FFE0,
				   0x90000, 32),
			 TT_DEV_ERR_NONE);
	/* Past the end of the RAM. */
	assert_int_equal(guest_dma(&g, t, TT_NIU_OP_READ, WIN_HIGH + 0xFF0,
				   0x90000, 32),
			 TT_DEV_ERR_HOST_MEM);
	assert_int_equal(guest_dma(&g, t, TT_NIU_OP_READ, WIN_HIGH + 0x1000,
				   0x90000, 4),
			 TT_DEV_ERR_HOST_MEM);

	client_maps_and_leaves("ivs0");

	/* The device still serves, and the guest's RAM is still there. */
	fill(ram.p + RAM_LOWMEM - 0x80000, 64, 0x42);
	memset(g.img->base + u->mem_off + 0x90000, 0, 64);
	assert_int_equal(guest_dma(&g, u, TT_NIU_OP_READ, WIN_LOW, 0x90000, 64),
			 TT_DEV_ERR_NONE);
	assert_memory_equal(g.img->base + u->mem_off + 0x90000,
			    ram.p + RAM_LOWMEM - 0x80000, 64);
	assert_ring_seen(&g);
	munmap(ram.p, RAM_SIZE);
	guest_close(&g);
}

/* The RAM outlives its guests: the next one finds what the device wrote
 * for the first. */
static void test_ram_outlives_the_guest(void **state)
{
	struct fixture *fx = *state;
	struct tt_node_desc *t, *u;
	struct guest_ram ram;
	struct guest g;

	start_with_ram(fx, RAM_SPEC);
	map_guest_ram(fx, &ram);
	guest_connect(fx->sock, &g);
	wait_quiet(&g);
	two_tensix(g.img, &t, &u);
	map_window(g.img, 1, WIN_LOW, 0x100000, 0x10000);
	fill(g.img->base + t->mem_off + 0x90000, 128, 0x99);
	assert_int_equal(guest_dma(&g, t, TT_NIU_OP_WRITE, WIN_LOW, 0x90000, 128),
			 TT_DEV_ERR_NONE);
	guest_close(&g);
	assert_log(fx, "guest disconnected");
	munmap(ram.p, RAM_SIZE);

	map_guest_ram(fx, &ram);
	guest_connect(fx->sock, &g);
	two_tensix(g.img, &t, &u); /* the old image's table is gone */
	assert_memory_equal(ram.p + 0x10000, g.img->base + t->mem_off + 0x90000,
			    128);
	munmap(ram.p, RAM_SIZE);
	guest_close(&g);
}

/* ---- the command line ---- */

static int run_to_end(struct fixture *fx, const char *const *args)
{
	int code;

	assert_true(spawn(fx, args) > 0);
	code = wait_ready(fx, 1);
	stop_daemon(fx); /* before failing: fx may not be the fixture's */
	if (code < 0)
		fail_msg("ttsim is serving; expected it to fail");
	if (!log_clean(fx))
		fail_msg("sanitizer report from ttsim:\n%s", fx->log);
	return code;
}

static void test_help_describes_ivshmem(void **state)
{
	const char *args[] = { "--help", NULL };
	struct fixture *fx = *state;
	char buf[16384];
	size_t len = 0;
	ssize_t n;
	int st;

	assert_true(spawn(fx, args) > 0);
	waitpid(fx->pid, &st, 0);
	fx->pid = 0;
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	while ((n = read(fx->out, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = 0;
	assert_non_null(strstr(buf, "--ivshmem PATH"));
	assert_non_null(strstr(buf, "ivshmem-doorbell,chardev="));
	assert_non_null(strstr(buf, "PATH/NAME.ivshmem"));
	assert_non_null(strstr(buf, "--guest-ram SIZE[,lowmem=BYTES]"));
	assert_non_null(strstr(buf, "memory-backend-file,id=ram0"));
}

static void test_several_devices_need_a_directory(void **state)
{
	struct fixture *fx = *state;
	const char *args[] = { "--board", "n300", "--ivshmem", fx->sock, NULL };
	struct stat st;

	assert_int_equal(run_to_end(fx, args), 2);
	assert_non_null(strstr(fx->log, "is not a directory, but there are 2 devices"));
	assert_int_equal(lstat(fx->sock, &st), -1);
}

static void test_directory_gives_a_socket_per_device(void **state)
{
	struct fixture *fx = *state;
	char dir[128], path[160];
	const char *args[] = { "--board", "n300", "--ivshmem", dir, NULL };
	struct guest g;

	snprintf(dir, sizeof(dir), "%s/vms", fx->dir);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_true(spawn(fx, args) > 0);
	assert_int_equal(wait_ready(fx, 2), -1);
	for (unsigned chip = 0; chip < 2; chip++) {
		snprintf(path, sizeof(path), "%s/tt%u.ivshmem", dir, chip);
		guest_connect(path, &g);
		assert_int_equal(g.img->id->chip_index, chip);
		assert_ring_seen(&g);
		guest_close(&g);
	}
}

static void test_path_in_the_way(void **state)
{
	struct fixture *fx = *state;
	const char *args[] = { "--name", "ivs1", "--ivshmem", fx->sock, NULL };
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct stat st;
	int fd;

	/* A regular file is not ours to replace. */
	fd = open(fx->sock, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "keep", 4), 4);
	close(fd);
	assert_int_equal(run_to_end(fx, args), 1);
	assert_non_null(strstr(fx->log, "not a socket"));
	assert_int_equal(stat(fx->sock, &st), 0);
	assert_true(S_ISREG(st.st_mode) && st.st_size == 4);
	unlink(fx->sock);

	/* A stale socket (its server is gone) is replaced. */
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", fx->sock);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	close(fd);
	start_daemon(fx);

	/* A live one is not: a second daemon on the same path fails, and the
	 * first keeps serving. */
	{
		struct fixture other = { .out = -1, .err = -1 };
		struct guest g;

		assert_int_equal(run_to_end(&other, args), 1);
		assert_non_null(strstr(other.log, "in use by another server"));
		guest_connect(fx->sock, &g);
		assert_ring_seen(&g);
		guest_close(&g);
	}
}

/* Run `ttsim ARGS...` in directory dir to completion; its exit code. */
static int run_in(const char *dir, const char *const *args)
{
	const char *argv[16] = { "ttsim" };
	int n = 1, st;
	pid_t pid;

	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, STDOUT_FILENO);
		if (chdir(dir) < 0)
			_exit(126);
		execv(ttsim_path, (char *const *)argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* A background daemon leaves the current directory: a relative path is
 * taken relative to where `ttsim start` ran. */
static void test_relative_path_with_start(void **state)
{
	struct fixture *fx = *state;
	const char *start[] = { "start", "--name", "ivs2", "--ivshmem",
				"rel.sock", NULL };
	const char *stop[] = { "stop", "ivs2", NULL };
	char path[128];
	struct guest g;
	struct stat st;

	snprintf(path, sizeof(path), "%s/rel.sock", fx->dir);
	assert_int_equal(run_in(fx->dir, start), 0);
	guest_connect(path, &g);
	assert_ring_seen(&g);
	guest_close(&g);
	assert_int_equal(run_in("/", stop), 0);
	assert_int_equal(lstat(path, &st), -1);
}

static void test_bad_guest_ram_specs(void **state)
{
	struct fixture *fx = *state;
	const char *zero[] = { "--ivshmem", fx->sock, "--guest-ram", "0", NULL };
	const char *big[] = { "--ivshmem", fx->sock, "--guest-ram",
			      "64M,lowmem=128M", NULL };
	const char *odd[] = { "--ivshmem", fx->sock, "--guest-ram", "1000",
			      NULL };
	const char *alone[] = { "--guest-ram", "64M", NULL };
	struct stat st;

	assert_int_equal(run_to_end(fx, zero), 2);
	assert_non_null(strstr(fx->log, "--guest-ram '0': guest RAM size '0' is zero"));
	assert_int_equal(run_to_end(fx, big), 2);
	assert_non_null(strstr(fx->log, "lowmem=128M is more than the guest RAM size"));
	assert_int_equal(run_to_end(fx, odd), 2);
	assert_non_null(strstr(fx->log, "'1000' is not a multiple of 4 KiB"));
	assert_int_equal(run_to_end(fx, alone), 2);
	assert_non_null(strstr(fx->log, "--guest-ram needs --ivshmem"));
	assert_int_equal(lstat(fx->sock, &st), -1);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	static const struct CMUnitTest tests[] = {
		T(test_setup_messages_in_qemu_order),
		T(test_doorbell_runs_a_noc_command),
		T(test_many_rings),
		T(test_model_interrupt_reaches_vector),
		T(test_second_guest_is_refused),
		T(test_reconnect_frees_everything),
		T(test_interrupt_without_guest_is_dropped),
		T(test_writer_is_dropped),
		T(test_guest_leaving_during_setup),
		T(test_device_reaches_guest_ram),
		T(test_no_ram_behind_it),
		T(test_ram_outlives_the_guest),
		T(test_bad_guest_ram_specs),
		T(test_help_describes_ivshmem),
		T(test_several_devices_need_a_directory),
		T(test_directory_gives_a_socket_per_device),
		T(test_path_in_the_way),
		T(test_relative_path_with_start),
	};
	const char *root = getenv("TT_BUILD_ROOT");

	if (!root) {
		fprintf(stderr, "TT_BUILD_ROOT is not set (run through meson test)\n");
		return 1;
	}
	snprintf(ttsim_path, sizeof(ttsim_path), "%s/sim/ttsim", root);
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
