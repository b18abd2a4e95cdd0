// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest: /sys/kernel/debug/tenstorrent/N/mappings for $TT_DEVICE
 * (driver/debugfs.c), as tt-kmd's TestMappingsDebugfs checks it: a row for
 * our fd and for each thing it holds (DMA buffer, pinned range, TLB window,
 * locks), addresses for root, gone at close, and the file closed to other
 * users; a row per dma-buf export of a window, which outlives its file. debugfs is mounted if the guest has not.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <sys/mount.h>

#include <kselftest_harness.h>

#define DEBUGFS "/sys/kernel/debug"

/* The whole mappings file of the node under test; malloc'd, or NULL. */
static char *read_mappings(int *err)
{
	char path[PATH_MAX], *buf = malloc(65536);
	const char *node = strrchr(tt_device(), '/');
	ssize_t n = 0, got;
	int fd;

	snprintf(path, sizeof(path), DEBUGFS "/tenstorrent/%s/mappings",
		 node ? node + 1 : "0");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	*err = fd < 0 ? errno : 0;
	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((got = read(fd, buf + n, 65535 - n)) > 0)
		n += got;
	buf[n] = 0;
	close(fd);
	return buf;
}

/* The value after `key` on the first line holding `row`, or -1. */
static long long field(const char *text, const char *row, const char *key)
{
	const char *line = strstr(text, row), *k;
	const char *end = line ? strchr(line, '\n') : NULL;

	if (!line)
		return -1;
	k = strstr(line, key);
	if (!k || (end && k > end))
		return -1;
	return strtoll(k + strlen(key), NULL, 0);
}

FIXTURE(debugfs) {
	int fd;
	void *mem;
	char fd_row[64];
};

FIXTURE_SETUP(debugfs)
{
	struct stat st;

	if (stat(DEBUGFS "/tenstorrent", &st))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	ASSERT_EQ(0, stat(DEBUGFS "/tenstorrent", &st))
	TH_LOG("no " DEBUGFS "/tenstorrent");
	ASSERT_OPEN_DEVICE(self->fd, 0);
	self->mem = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, self->mem);
	snprintf(self->fd_row, sizeof(self->fd_row), "FD      pid %d gen",
		 getpid());
}

FIXTURE_TEARDOWN(debugfs)
{
	if (self->fd >= 0)
		close(self->fd);
	munmap(self->mem, PAGE);
}

TEST_F(debugfs, shows_what_each_fd_holds)
{
	struct tenstorrent_allocate_dma_buf buf = {
		.in.requested_size = 2 * PAGE,
		.in.buf_index = 3,
		.in.flags = TENSTORRENT_ALLOCATE_DMA_BUF_NOC_DMA,
	};
	struct {
		struct tenstorrent_pin_pages_in in;
		struct tenstorrent_pin_pages_out_extended out;
	} pin = {
		.in.output_size_bytes = 16,
		.in.virtual_address = (uintptr_t)self->mem,
		.in.size = PAGE,
	};
	struct tenstorrent_allocate_tlb tlb = { .in.size = 2 << 20 };
	struct tenstorrent_lock_ctl lock = {
		.in.flags = TENSTORRENT_LOCK_CTL_ACQUIRE,
		.in.index = 2,
	};
	char *text;
	int err;

	ASSERT_EQ(0, ioctl(self->fd, TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF, &buf));
	ASSERT_EQ(0, ioctl(self->fd, TENSTORRENT_IOCTL_PIN_PAGES, &pin));
	ASSERT_EQ(0, ioctl(self->fd, TENSTORRENT_IOCTL_ALLOCATE_TLB, &tlb));
	ASSERT_EQ(0, ioctl(self->fd, TENSTORRENT_IOCTL_LOCK_CTL, &lock));

	text = read_mappings(&err);
	ASSERT_NE(NULL, text) TH_LOG("%s", strerror(err));
	EXPECT_NE(NULL, strstr(text, self->fd_row)) TH_LOG("%s", text);
	EXPECT_EQ(2 * PAGE, field(text, "DMA_BUF index 3", "size "));
	EXPECT_EQ((long long)buf.out.physical_address,
		  field(text, "DMA_BUF index 3", "bus "));
	EXPECT_EQ((long long)buf.out.noc_address,
		  field(text, "DMA_BUF index 3", "noc "));
	EXPECT_EQ((long long)(uintptr_t)self->mem, field(text, "PIN", "va "));
	EXPECT_EQ((long long)pin.out.physical_address,
		  field(text, "PIN", "bus "));
	EXPECT_EQ(2 << 20, field(text, "TLB     id", "size "));
	EXPECT_EQ(tlb.out.id, field(text, "TLB     id", "id "));
	EXPECT_NE(NULL, strstr(text, "LOCKS   2")) TH_LOG("%s", text);
	free(text);
}

/* An EXPORT row per dma-buf export of a window, with its mappings; it
 * stays after the file that made it is closed, and goes with the dma-buf. */
TEST_F(debugfs, shows_tlb_exports_until_the_dmabuf_goes)
{
	struct tenstorrent_allocate_tlb_out a;
	char row[64], *text;
	uint64_t size;
	void *mem;
	int buf, err;

	ASSERT_EQ(0, tlb_alloc_smallest(self->fd, &a, &size));
	buf = export_tlb(self->fd, a.id, PAGE, 2 * PAGE);
	ASSERT_LE(0, buf) TH_LOG("export: %s", err_name(-buf));
	mem = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, buf, 0);
	ASSERT_NE(MAP_FAILED, mem) TH_LOG("mmap: %s", strerror(errno));
	snprintf(row, sizeof(row), "EXPORT  tlb %u offset %#lx", a.id,
		 (unsigned long)PAGE);

	close(self->fd);
	self->fd = -1;
	text = read_mappings(&err);
	ASSERT_NE(NULL, text) TH_LOG("%s", strerror(err));
	EXPECT_EQ(2 * PAGE, field(text, row, "size ")) TH_LOG("%s", text);
	EXPECT_EQ(1, field(text, row, "maps ")) TH_LOG("%s", text);
	free(text);

	munmap(mem, PAGE);
	close(buf);
	text = read_mappings(&err);
	ASSERT_NE(NULL, text) TH_LOG("%s", strerror(err));
	EXPECT_EQ(NULL, strstr(text, row)) TH_LOG("%s", text);
	free(text);
}

TEST_F(debugfs, rows_go_at_close)
{
	char *text;
	int err;

	close(self->fd);
	self->fd = -1;
	text = read_mappings(&err);
	ASSERT_NE(NULL, text) TH_LOG("%s", strerror(err));
	EXPECT_EQ(NULL, strstr(text, self->fd_row)) TH_LOG("%s", text);
	free(text);
}

TEST_F(debugfs, closed_to_other_users)
{
	pid_t pid = spawn_keep(-1);

	if (!pid) {
		int err;

		if (setgid(65534) || setuid(65534))
			_exit(100);
		free(read_mappings(&err));
		_exit(err);
	}
	EXPECT_EQ(EACCES, wait_child(pid, 10000));
}

TEST_HARNESS_MAIN
