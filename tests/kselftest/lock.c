// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest: LOCK_CTL on $TT_DEVICE (driver/lock.c, docs/abi.md), as
 * tt-kmd's TestLock checks it: acquire, release and test in one fd and
 * across fds, bounds, all 64 locks, release at close and at a holder's
 * death, blocking acquires woken by the holder's exit and ended by a
 * signal.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <sys/time.h>

#include <kselftest_harness.h>

#define ACQUIRE TENSTORRENT_LOCK_CTL_ACQUIRE
#define RELEASE TENSTORRENT_LOCK_CTL_RELEASE
#define TEST_LOCK TENSTORRENT_LOCK_CTL_TEST
#define BLOCKING TENSTORRENT_LOCK_CTL_ACQUIRE_BLOCKING

FIXTURE(lock) {
	int a, b;
};

FIXTURE_SETUP(lock)
{
	ASSERT_OPEN_DEVICE(self->a, 0);
	ASSERT_OPEN_DEVICE(self->b, 0);
}

FIXTURE_TEARDOWN(lock)
{
	if (self->a >= 0)
		close(self->a);
	if (self->b >= 0)
		close(self->b);
}

TEST_F(lock, acquire_test_release_in_one_fd)
{
	EXPECT_EQ(0, lock_ctl(self->a, TEST_LOCK, 3));
	EXPECT_EQ(1, lock_ctl(self->a, ACQUIRE, 3));
	EXPECT_EQ(3, lock_ctl(self->a, TEST_LOCK, 3)); /* ours, and held */
	EXPECT_EQ(0, lock_ctl(self->a, ACQUIRE, 3)); /* not twice */
	EXPECT_EQ(1, lock_ctl(self->a, RELEASE, 3));
	EXPECT_EQ(0, lock_ctl(self->a, RELEASE, 3));
	EXPECT_EQ(0, lock_ctl(self->a, TEST_LOCK, 3));
}

TEST_F(lock, another_fd_sees_it_held_and_cannot_release_it)
{
	ASSERT_EQ(1, lock_ctl(self->a, ACQUIRE, 7));
	EXPECT_EQ(2, lock_ctl(self->b, TEST_LOCK, 7));
	EXPECT_EQ(0, lock_ctl(self->b, ACQUIRE, 7));
	EXPECT_EQ(0, lock_ctl(self->b, RELEASE, 7));
	EXPECT_EQ(3, lock_ctl(self->a, TEST_LOCK, 7));
	EXPECT_EQ(1, lock_ctl(self->a, RELEASE, 7));
	EXPECT_EQ(1, lock_ctl(self->b, ACQUIRE, 7));
}

TEST_F(lock, all_64_locks_index_64_einval)
{
	for (unsigned int i = 0; i < TENSTORRENT_RESOURCE_LOCK_COUNT; i++) {
		ASSERT_EQ(1, lock_ctl(self->a, ACQUIRE, i)) TH_LOG("lock %u", i);
	}
	for (unsigned int i = 0; i < TENSTORRENT_RESOURCE_LOCK_COUNT; i++) {
		ASSERT_EQ(2, lock_ctl(self->b, TEST_LOCK, i)) TH_LOG("lock %u", i);
	}
	EXPECT_EQ(-EINVAL, lock_ctl(self->a, ACQUIRE, 64));
	EXPECT_EQ(-EINVAL, lock_ctl(self->a, TEST_LOCK, 255));
}

TEST_F(lock, unknown_operation_einval)
{
	EXPECT_EQ(-EINVAL, lock_ctl(self->a, 4, 0));
	EXPECT_EQ(-EINVAL, lock_ctl(self->a, UINT32_MAX, 0));
}

TEST_F(lock, released_when_the_fd_closes)
{
	ASSERT_EQ(1, lock_ctl(self->a, ACQUIRE, 9));
	close(self->a);
	self->a = -1;
	EXPECT_EQ(0, lock_ctl(self->b, TEST_LOCK, 9));
	EXPECT_EQ(1, lock_ctl(self->b, ACQUIRE, 9));
}

TEST_F(lock, released_when_the_holder_is_killed)
{
	int go[2];
	char c;
	pid_t pid;

	ASSERT_EQ(0, pipe(go));
	pid = spawn_keep(go[1]);
	if (!pid) {
		int fd = open_dev(tt_device(), 0);

		c = fd >= 0 && lock_ctl(fd, ACQUIRE, 11) == 1;
		if (write(go[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(go[1]);
	ASSERT_EQ(1, read(go[0], &c, 1));
	close(go[0]);
	ASSERT_EQ(1, c) TH_LOG("the child did not get the lock");
	EXPECT_EQ(2, lock_ctl(self->a, TEST_LOCK, 11));
	reap(pid);
	EXPECT_EQ(1, lock_ctl(self->a, ACQUIRE, 11));
}

/* A child waits in ACQUIRE_BLOCKING and exits with the result. */
static pid_t spawn_blocking(unsigned int index)
{
	pid_t pid = spawn_keep(-1);
	int fd, v;

	if (pid)
		return pid;
	fd = open_dev(tt_device(), 0);
	if (fd < 0)
		_exit(100);
	v = lock_ctl(fd, BLOCKING, index);
	/* Still ours after the call: the lock was really taken. */
	_exit(v < 0 ? 100 + -v : lock_ctl(fd, TEST_LOCK, index));
}

TEST_F(lock, blocking_acquire_waits_for_the_release)
{
	pid_t pid;

	ASSERT_EQ(1, lock_ctl(self->a, ACQUIRE, 13));
	pid = spawn_blocking(13);
	EXPECT_EQ(-1, wait_child(pid, 300)) TH_LOG("it did not wait");
	EXPECT_EQ(1, lock_ctl(self->a, RELEASE, 13));
	EXPECT_EQ(3, wait_child(pid, 5000));
	reap(pid);
}

TEST_F(lock, blocking_acquire_woken_by_the_holders_close)
{
	pid_t pid;

	ASSERT_EQ(1, lock_ctl(self->a, ACQUIRE, 14));
	pid = spawn_blocking(14);
	EXPECT_EQ(-1, wait_child(pid, 300));
	close(self->a);
	self->a = -1;
	EXPECT_EQ(3, wait_child(pid, 5000));
	reap(pid);
}

TEST_F(lock, blocking_acquire_of_a_free_lock_returns_at_once)
{
	EXPECT_EQ(1, lock_ctl(self->a, BLOCKING, 15));
	EXPECT_EQ(3, lock_ctl(self->a, TEST_LOCK, 15));
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* Without SA_RESTART the signal ends the wait with EINTR. */
TEST_F(lock, signal_ends_a_blocking_acquire)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval t = { .it_value.tv_usec = 200000 };

	ASSERT_EQ(1, lock_ctl(self->a, ACQUIRE, 16));
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &t, NULL));
	EXPECT_EQ(-EINTR, lock_ctl(self->b, BLOCKING, 16));
	EXPECT_EQ(2, lock_ctl(self->b, TEST_LOCK, 16));
}

TEST_HARNESS_MAIN
