// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest: RESET_DEVICE on $TT_DEVICE (driver/reset.c, docs/abi.md) and
 * what a reset does to other files: the argument checks, the flows the
 * mock cannot do (EOPNOTSUPP), and with USER_RESET (which only starts a
 * new generation; nothing resets the chip) everything the driver does on
 * its side: other fds stale for good (ENODEV for ioctls and mmap, their
 * mappings SIGBUS), the resetting fd limited to the identity commands
 * until POST_RESET, stale fds' TLB windows back in the pool, locks kept.
 * The chip itself is reset in model_reset.c.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <kselftest_harness.h>

static int query_mappings(int fd)
{
	struct {
		struct tenstorrent_query_mappings q;
		struct tenstorrent_mapping m[6];
	} a = { .q.in.output_mapping_count = 6 };

	return ioctl(fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS, &a) ? -errno : 0;
}

static int alloc_tlb(int fd, uint64_t size)
{
	struct tenstorrent_allocate_tlb a = { .in.size = size };

	return ioctl(fd, TENSTORRENT_IOCTL_ALLOCATE_TLB, &a) ? -errno :
							       (int)a.out.id;
}

#define USER TENSTORRENT_RESET_DEVICE_USER_RESET
#define POST TENSTORRENT_RESET_DEVICE_POST_RESET

FIXTURE(reset) {
	int r;	   /* resets */
	int other; /* opened before the reset */
};

FIXTURE_SETUP(reset)
{
	ASSERT_OPEN_DEVICE(self->r, O_APPEND);
	ASSERT_OPEN_DEVICE(self->other, 0);
}

FIXTURE_TEARDOWN(reset)
{
	/* Leave the device usable for the next test. */
	if (self->r >= 0) {
		reset_device(self->r, POST);
		close(self->r);
	}
	if (self->other >= 0)
		close(self->other);
}

TEST_F(reset, unknown_flags_einval)
{
	EXPECT_EQ(-EINVAL, reset_device(self->r, 7));
	EXPECT_EQ(-EINVAL, reset_device(self->r, UINT32_MAX));
	EXPECT_EQ(0, query_mappings(self->other)) TH_LOG("nothing happened");
}

TEST_F(reset, link_and_config_write_resets_eopnotsupp_on_the_mock)
{
	EXPECT_EQ(-EOPNOTSUPP,
		  reset_device(self->r, TENSTORRENT_RESET_DEVICE_RESET_PCIE_LINK));
	EXPECT_EQ(-EOPNOTSUPP,
		  reset_device(self->r, TENSTORRENT_RESET_DEVICE_CONFIG_WRITE));
	EXPECT_EQ(0, query_mappings(self->other));
}

TEST_F(reset, restore_state_keeps_every_fd)
{
	EXPECT_EQ(0, reset_device(self->r, TENSTORRENT_RESET_DEVICE_RESTORE_STATE));
	EXPECT_EQ(0, query_mappings(self->r));
	EXPECT_EQ(0, query_mappings(self->other));
}

TEST_F(reset, other_fds_get_enodev_for_good)
{
	struct tenstorrent_get_device_info_out o;
	int err;

	ASSERT_EQ(0, reset_device(self->r, USER));
	EXPECT_EQ(-ENODEV, get_device_info(self->other, &o));
	EXPECT_EQ(-ENODEV, query_mappings(self->other));
	EXPECT_EQ(-ENODEV, reset_device(self->other, POST));
	EXPECT_EQ(NULL, map(self->other, TENSTORRENT_MMAP_BAR2_UC, PAGE,
			    MAP_SHARED, &err));
	EXPECT_EQ(ENODEV, err);
	reset_device(self->r, POST);
	EXPECT_EQ(-ENODEV, query_mappings(self->other)) TH_LOG("after POST");
}

TEST_F(reset, resetting_fd_has_identity_only_until_post_reset)
{
	struct tenstorrent_get_device_info_out o;
	int err;
	void *p;

	ASSERT_EQ(0, reset_device(self->r, USER));
	EXPECT_EQ(0, get_device_info(self->r, &o));
	EXPECT_EQ(-ENODEV, query_mappings(self->r));
	EXPECT_EQ(-ENODEV, alloc_tlb(self->r, 1 << 20));
	EXPECT_EQ(NULL, map(self->r, TENSTORRENT_MMAP_BAR2_UC, PAGE,
			    MAP_SHARED, &err));
	/* Nothing reset the chip: POST_RESET says so, and opens up. */
	EXPECT_EQ(1, reset_device(self->r, POST));
	EXPECT_EQ(0, query_mappings(self->r));
	p = map(self->r, TENSTORRENT_MMAP_BAR2_UC, PAGE, MAP_SHARED, &err);
	ASSERT_NE(NULL, p) TH_LOG("mmap after POST_RESET: %s", strerror(err));
	EXPECT_TRUE(signed_image(p));
	munmap(p, PAGE);
}

TEST_F(reset, a_new_open_during_the_reset_is_held_back_until_post_reset)
{
	int fd;

	ASSERT_EQ(0, reset_device(self->r, USER));
	ASSERT_OPEN_DEVICE(fd, 0);
	EXPECT_EQ(-ENODEV, query_mappings(fd));
	reset_device(self->r, POST);
	EXPECT_EQ(0, query_mappings(fd));
	close(fd);
}

TEST_F(reset, stale_mappings_fault)
{
	int err;
	volatile uint32_t *p = map(self->other, TENSTORRENT_MMAP_BAR2_UC, PAGE,
				   MAP_SHARED, &err);

	ASSERT_NE(NULL, p);
	ASSERT_EQ(TT_IDENTITY_MAGIC_LO, peek32(p));
	ASSERT_EQ(0, reset_device(self->r, USER));
	reset_device(self->r, POST);
	EXPECT_EQ(-SIGBUS, peek32(p));
	munmap((void *)p, PAGE);
}

TEST_F(reset, stale_fds_windows_go_back_to_the_pool)
{
	/* Wormhole's largest windows, else Blackhole's 2 MiB ones. */
	uint64_t size = 16 << 20;
	int n = 0, id;

	if (alloc_tlb(self->other, size) == -EINVAL)
		size = 2 << 20;
	else
		n++;
	while (alloc_tlb(self->other, size) >= 0)
		n++;
	ASSERT_LT(0, n);
	EXPECT_EQ(-ENOMEM, alloc_tlb(self->r, size));
	ASSERT_EQ(0, reset_device(self->r, USER));
	reset_device(self->r, POST);
	for (int i = 0; i < n; i++) {
		id = alloc_tlb(self->r, size);
		ASSERT_LE(0, id) TH_LOG("window %d of %d: %s", i, n,
					err_name(-id));
	}
}

TEST_F(reset, locks_survive_until_the_stale_fd_closes)
{
	ASSERT_EQ(1, lock_ctl(self->other, TENSTORRENT_LOCK_CTL_ACQUIRE, 5));
	ASSERT_EQ(0, reset_device(self->r, USER));
	reset_device(self->r, POST);
	EXPECT_EQ(2, lock_ctl(self->r, TENSTORRENT_LOCK_CTL_TEST, 5));
	EXPECT_EQ(-ENODEV,
		  lock_ctl(self->other, TENSTORRENT_LOCK_CTL_RELEASE, 5));
	close(self->other);
	self->other = -1;
	EXPECT_EQ(1, lock_ctl(self->r, TENSTORRENT_LOCK_CTL_ACQUIRE, 5));
}

/* A stale fd's blocking acquire ends with ENODEV at the reset. */
TEST_F(reset, reset_ends_a_stale_blocking_acquire)
{
	pid_t pid;

	ASSERT_EQ(1, lock_ctl(self->r, TENSTORRENT_LOCK_CTL_ACQUIRE, 6));
	pid = spawn_keep(self->other);
	if (!pid)
		_exit(-lock_ctl(self->other,
				TENSTORRENT_LOCK_CTL_ACQUIRE_BLOCKING, 6));
	EXPECT_EQ(-1, wait_child(pid, 300)) TH_LOG("it did not wait");
	ASSERT_EQ(0, reset_device(self->r, USER));
	EXPECT_EQ(ENODEV, wait_child(pid, 5000));
	reap(pid);
}

TEST_HARNESS_MAIN
