// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest: open(2) flags on $TT_DEVICE, with tt-kmd's semantics
 * (driver/README.md "open"): O_EXCL waits until no other file is open and
 * makes later opens wait; O_NONBLOCK turns either wait into EAGAIN; the
 * wait is interruptible. Checked within one process and across processes.
 *
 * The device must be idle: nothing else may hold it open while this runs.
 * Every test runs in its own process (the harness forks), so its files
 * are closed when it ends; the processes it starts are killed in the
 * teardown, also when an ASSERT ended the test early.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <kselftest_harness.h>

/* How long an open must keep waiting to count as waiting. */
#define WAITS_MS 300
/* How long a waiting open may take to finish once it can. */
#define ENDS_MS 5000

FIXTURE(excl) {
	const char *path;
	int fd[3];
	pid_t holder, waiter;
};

FIXTURE_SETUP(excl)
{
	int fd;

	self->path = tt_device();
	for (int i = 0; i < 3; i++)
		self->fd[i] = -1;
	/* Say so if the node is missing, rather than fail some open below. */
	ASSERT_OPEN_DEVICE(fd, O_NONBLOCK);
	close(fd);
}

FIXTURE_TEARDOWN(excl)
{
	for (int i = 0; i < 3; i++)
		if (self->fd[i] >= 0)
			close(self->fd[i]);
	if (self->holder > 0)
		reap(self->holder);
	if (self->waiter > 0)
		reap(self->waiter);
}

/* An open that must succeed: the fd is kept in self->fd[i] for teardown. */
#define ASSERT_OPENS(i, flags)                                               \
	do {                                                                 \
		self->fd[i] = open_dev(self->path, (flags));                 \
		ASSERT_LE(0, self->fd[i])                                    \
		TH_LOG("open: %s", err_name(-self->fd[i]));                  \
	} while (0)

/* An open that must fail with `err`, as errno names for the message. */
#define EXPECT_OPEN_FAILS(err, flags)                                        \
	do {                                                                 \
		int _fd = open_dev(self->path, (flags));                     \
		EXPECT_STREQ(err_name(err), err_name(_fd < 0 ? -_fd : 0));   \
		if (_fd >= 0)                                                \
			close(_fd);                                          \
	} while (0)

static void close_fd(int *fd)
{
	close(*fd);
	*fd = -1;
}

/* ---------------------------------------------------------------------- */
/* One process                                                            */

TEST_F(excl, excl_open_of_an_idle_device_succeeds)
{
	ASSERT_OPENS(0, O_EXCL | O_NONBLOCK);
}

TEST_F(excl, nonblock_open_while_excl_is_held_is_eagain)
{
	ASSERT_OPENS(0, O_EXCL | O_NONBLOCK);
	EXPECT_OPEN_FAILS(EAGAIN, O_NONBLOCK);
}

TEST_F(excl, second_excl_nonblock_open_is_eagain)
{
	ASSERT_OPENS(0, O_EXCL | O_NONBLOCK);
	EXPECT_OPEN_FAILS(EAGAIN, O_EXCL | O_NONBLOCK);
}

TEST_F(excl, plain_opens_succeed_after_the_excl_file_closes)
{
	ASSERT_OPENS(0, O_EXCL | O_NONBLOCK);
	close_fd(&self->fd[0]);
	ASSERT_OPENS(1, O_NONBLOCK);
	ASSERT_OPENS(2, O_APPEND | O_NONBLOCK);
}

TEST_F(excl, excl_nonblock_open_while_others_are_open_is_eagain)
{
	ASSERT_OPENS(0, O_NONBLOCK);
	ASSERT_OPENS(1, O_APPEND | O_NONBLOCK);
	EXPECT_OPEN_FAILS(EAGAIN, O_EXCL | O_NONBLOCK);
}

TEST_F(excl, excl_open_succeeds_once_all_are_closed)
{
	ASSERT_OPENS(0, O_NONBLOCK);
	ASSERT_OPENS(1, O_APPEND | O_NONBLOCK);
	close_fd(&self->fd[0]);
	close_fd(&self->fd[1]);
	ASSERT_OPENS(2, O_EXCL | O_NONBLOCK);
}

/* A forked child shares its parent's file: still one open, which ends
 * only when the last of them closes it. */
TEST_F(excl, a_file_shared_with_a_child_stays_open_until_both_close)
{
	int pfd[2];
	char c;

	ASSERT_OPENS(0, O_EXCL | O_NONBLOCK);
	ASSERT_EQ(0, pipe(pfd));
	self->holder = fork();
	ASSERT_LE(0, self->holder);
	if (!self->holder) {
		close(pfd[0]);
		/* Hold the inherited file; tell the parent, then wait. */
		if (write(pfd[1], "y", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(pfd[1]);
	ASSERT_EQ(1, read(pfd[0], &c, 1));
	close(pfd[0]);
	close_fd(&self->fd[0]);
	EXPECT_OPEN_FAILS(EAGAIN, O_NONBLOCK);
	reap(self->holder);
	self->holder = 0;
	ASSERT_OPENS(1, O_EXCL | O_NONBLOCK);
}

/* ---------------------------------------------------------------------- */
/* Processes                                                              */

static void on_alarm(int sig)
{
	(void)sig;
}

/* A child whose blocking open is interrupted by a signal handler. */
static pid_t spawn_interrupted_open(const char *path)
{
	struct sigaction sa = { .sa_handler = on_alarm }; /* no SA_RESTART */
	pid_t pid = spawn_keep(-1);
	int fd;

	if (pid)
		return pid;
	sigaction(SIGALRM, &sa, NULL);
	alarm(1);
	fd = open_dev(path, 0);
	_exit(fd < 0 ? -fd : 0);
}

/* A child holding an O_EXCL file until killed; returns once it holds it,
 * -1 if it could not open it. */
static pid_t spawn_holder(const char *path)
{
	int pfd[2], fd;
	char c = 0;
	pid_t pid;

	if (pipe(pfd))
		return -1;
	pid = spawn_keep(pfd[1]);
	if (!pid) {
		fd = open_dev(path, O_EXCL | O_NONBLOCK);
		c = fd < 0 ? 'n' : 'y';
		if (write(pfd[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(pfd[1]);
	if (pid < 0 || read(pfd[0], &c, 1) != 1 || c != 'y') {
		if (pid > 0)
			reap(pid);
		pid = -1;
	}
	close(pfd[0]);
	return pid;
}

/* How a child's open ended, for messages: an errno name or "waiting". */
static const char *open_result(int status)
{
	return status < 0 ? "still waiting" : err_name(status);
}

/* The waiter's status as wait_child() gives it; once it has ended (and
 * been reaped) the teardown leaves it alone. */
static int wait_waiter(FIXTURE_DATA(excl) *self, long ms)
{
	int st = wait_child(self->waiter, ms);

	if (st >= 0)
		self->waiter = 0;
	return st;
}

#define ASSERT_HOLDER()                                                      \
	do {                                                                 \
		self->holder = spawn_holder(self->path);                     \
		ASSERT_LT(0, self->holder)                                   \
		TH_LOG("another process could not open %s with O_EXCL",     \
		       self->path);                                          \
	} while (0)

TEST_F(excl, nonblock_open_while_another_process_holds_excl_is_eagain)
{
	ASSERT_HOLDER();
	EXPECT_OPEN_FAILS(EAGAIN, O_NONBLOCK);
}

TEST_F(excl, blocking_open_waits_while_another_process_holds_excl)
{
	int st;

	ASSERT_HOLDER();
	self->waiter = spawn_open(self->path, 0);
	st = wait_waiter(self, WAITS_MS);
	EXPECT_EQ(-1, st) TH_LOG("the open ended: %s", open_result(st));
}

TEST_F(excl, a_signal_ends_a_waiting_open_with_eintr)
{
	int st;

	ASSERT_HOLDER();
	self->waiter = spawn_interrupted_open(self->path);
	st = wait_waiter(self, ENDS_MS);
	EXPECT_STREQ("EINTR", open_result(st));
}

TEST_F(excl, the_waiting_open_succeeds_when_the_holder_is_killed)
{
	int st;

	ASSERT_HOLDER();
	self->waiter = spawn_open(self->path, 0);
	ASSERT_EQ(-1, wait_waiter(self, WAITS_MS));
	reap(self->holder);
	self->holder = 0;
	st = wait_waiter(self, ENDS_MS);
	EXPECT_STREQ("0", open_result(st));
}

TEST_F(excl, excl_open_waits_while_a_file_is_open)
{
	int st;

	ASSERT_OPENS(0, 0);
	self->waiter = spawn_open(self->path, O_EXCL);
	st = wait_waiter(self, WAITS_MS);
	EXPECT_EQ(-1, st) TH_LOG("the open ended: %s", open_result(st));
}

TEST_F(excl, the_waiting_excl_open_succeeds_after_the_close)
{
	int st;

	ASSERT_OPENS(0, 0);
	self->waiter = spawn_open(self->path, O_EXCL);
	ASSERT_EQ(-1, wait_waiter(self, WAITS_MS));
	close_fd(&self->fd[0]);
	st = wait_waiter(self, ENDS_MS);
	EXPECT_STREQ("0", open_result(st));
}

TEST_HARNESS_MAIN
