// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest: /sys/kernel/debug/tenstorrent/N/mappings for $TT_DEVICE
 * (driver/debugfs.c), read as tt-kmd's TestMappingsDebugfs reads it: its
 * warning and column header, and a row of its types for our fd and each
 * thing it holds (OPEN_FD, PIN_PAGES, PIN_PAGES+IATU, DMA_BUF and
 * DMA_BUF+IATU with their ID, TLB-alloc, BAR, TLB; our LOCKS), with the
 * details in tt-kmd's layout; addresses only for CAP_SYS_ADMIN, rows gone
 * with their thing, the file closed to other users; a row per dma-buf
 * export of a window, which outlives its file. debugfs is mounted if the
 * guest has not.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <linux/capability.h>
#include <sys/mount.h>
#include <sys/syscall.h>

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

/* The rows after tt-kmd's header (warning, columns, dashes), or NULL. */
static const char *rows(const char *text)
{
	const char *dashes = strstr(text, "\n----");
	const char *end = dashes ? strchr(dashes + 1, '\n') : NULL;

	return end ? end + 1 : NULL;
}

/* The columns PID, Comm and Type of this process's rows of `type`. */
static void row_prefix(char *buf, size_t len, const char *type)
{
	char comm[32] = "";
	FILE *f = fopen("/proc/self/comm", "r");

	if (f && fgets(comm, sizeof(comm), f))
		comm[strcspn(comm, "\n")] = 0;
	if (f)
		fclose(f);
	snprintf(buf, len, "%-8d %-16s %-14s ", getpid(), comm, type);
}

/*
 * The details of the n-th (from 0) row of this process of `type` (a copy,
 * NUL-terminated at the end of the line, in `out`): 0, or -1 if there is
 * no such row.
 */
static int details(const char *text, const char *type, int n, char *out,
		   size_t len)
{
	char prefix[64];
	const char *line = rows(text);

	row_prefix(prefix, sizeof(prefix), type);
	while (line && *line) {
		if (!strncmp(line, prefix, strlen(prefix)) && !n--) {
			line += strlen(prefix);
			snprintf(out, len, "%.*s", (int)strcspn(line, "\n"),
				 line);
			return 0;
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	return -1;
}

/* How many rows of this process of `type` there are. */
static int count(const char *text, const char *type)
{
	char d[256];
	int n = 0;

	while (!details(text, type, n, d, sizeof(d)))
		n++;
	return n;
}

FIXTURE(debugfs) {
	int fd;
	void *mem;
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
}

FIXTURE_TEARDOWN(debugfs)
{
	if (self->fd >= 0)
		close(self->fd);
	munmap(self->mem, PAGE);
}

/* tt-kmd's header: the warning, the column names, a line of dashes. */
TEST_F(debugfs, begins_with_the_warning_and_the_columns)
{
	char *text;
	int err;

	text = read_mappings(&err);
	ASSERT_NE(NULL, text) TH_LOG("%s", strerror(err));
	EXPECT_EQ(0, strncmp(text, "WARNING: This file is for diagnostic "
			     "purposes only.\n", 50));
	EXPECT_NE(NULL, strstr(text, "not stable"));
	EXPECT_NE(NULL, strstr(text, "\nPID      Comm             Type"
				     "           Mapping Details\n"));
	EXPECT_NE(NULL, rows(text));
	free(text);
}

static int pin(int fd, void *va, uint32_t flags,
	       struct tenstorrent_pin_pages_out_extended *out)
{
	struct {
		struct tenstorrent_pin_pages_in in;
		struct tenstorrent_pin_pages_out_extended out;
	} a = {
		.in.output_size_bytes = 16,
		.in.flags = flags,
		.in.virtual_address = (uintptr_t)va,
		.in.size = PAGE,
	};

	if (ioctl(fd, TENSTORRENT_IOCTL_PIN_PAGES, &a))
		return errno;
	*out = a.out;
	return 0;
}

static int alloc_dma_buf(int fd, uint8_t index, uint8_t flags,
		   struct tenstorrent_allocate_dma_buf_out *out)
{
	struct tenstorrent_allocate_dma_buf a = {
		.in.requested_size = 2 * PAGE,
		.in.buf_index = index,
		.in.flags = flags,
	};

	if (ioctl(fd, TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF, &a))
		return errno;
	*out = a.out;
	return 0;
}

/* Every row type of tt-kmd's that a file's things make, with addresses. */
TEST_F(debugfs, shows_what_each_fd_holds)
{
	struct tenstorrent_allocate_dma_buf_out buf = {}, buf_noc = {};
	struct tenstorrent_pin_pages_out_extended p = {}, p_noc = {};
	struct tenstorrent_allocate_tlb_out tlb = {};
	void *mem2 = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	char want[256], d[256], *text;
	uint64_t size;
	int err;

	ASSERT_NE(MAP_FAILED, mem2);
	ASSERT_EQ(0, alloc_dma_buf(self->fd, 0, 0, &buf));
	ASSERT_EQ(0, alloc_dma_buf(self->fd, 3, TENSTORRENT_ALLOCATE_DMA_BUF_NOC_DMA,
			     &buf_noc));
	ASSERT_EQ(0, pin(self->fd, self->mem, 0, &p));
	ASSERT_EQ(0, pin(self->fd, mem2, TENSTORRENT_PIN_PAGES_NOC_DMA,
			 &p_noc));
	ASSERT_EQ(0, tlb_alloc_smallest(self->fd, &tlb, &size));
	ASSERT_EQ(1, lock_ctl(self->fd, TENSTORRENT_LOCK_CTL_ACQUIRE, 2));
	ASSERT_EQ(1, lock_ctl(self->fd, TENSTORRENT_LOCK_CTL_ACQUIRE, 3));

	text = read_mappings(&err);
	ASSERT_NE(NULL, text) TH_LOG("%s", strerror(err));
	EXPECT_EQ(1, count(text, "OPEN_FD"));
	ASSERT_EQ(0, details(text, "DMA_BUF", 0, d, sizeof(d)));
	snprintf(want, sizeof(want), "ID: 0   -> PA: 0x%016llx (size=0x2000)",
		 (unsigned long long)buf.physical_address);
	EXPECT_STREQ(want, d);
	ASSERT_EQ(0, details(text, "DMA_BUF+IATU", 0, d, sizeof(d)));
	snprintf(want, sizeof(want),
		 "ID: 3   -> PA: 0x%016llx -> NOC: 0x%llx (size=0x2000)",
		 (unsigned long long)buf_noc.physical_address,
		 (unsigned long long)buf_noc.noc_address);
	EXPECT_STREQ(want, d);
	ASSERT_EQ(0, details(text, "PIN_PAGES", 0, d, sizeof(d)));
	snprintf(want, sizeof(want),
		 "VA: 0x%016llx -> PA: 0x%016llx (size=0x1000, busy=0)",
		 (unsigned long long)(uintptr_t)self->mem,
		 (unsigned long long)p.physical_address);
	EXPECT_STREQ(want, d);
	ASSERT_EQ(0, details(text, "PIN_PAGES+IATU", 0, d, sizeof(d)));
	snprintf(want, sizeof(want),
		 "VA: 0x%016llx -> PA: 0x%016llx -> NOC: 0x%llx (size=0x1000, busy=0)",
		 (unsigned long long)(uintptr_t)mem2,
		 (unsigned long long)p_noc.physical_address,
		 (unsigned long long)p_noc.noc_address);
	EXPECT_STREQ(want, d);
	ASSERT_EQ(0, details(text, "TLB-alloc", 0, d, sizeof(d)));
	snprintf(want, sizeof(want), "ID: %-3u", tlb.id);
	EXPECT_STREQ(want, d);
	ASSERT_EQ(0, details(text, "LOCKS", 0, d, sizeof(d)));
	EXPECT_STREQ("2-3", d);
	free(text);
	munmap(mem2, PAGE);
}

/* One BAR row per mapping of a BAR or an aperture, one TLB row per
 * mapping of a window; they go with the mapping. */
TEST_F(debugfs, shows_bar_and_tlb_mappings)
{
	struct tenstorrent_allocate_tlb_out tlb = {};
	char want[256], d[256], *text;
	void *bar2, *bar0, *win;
	uint64_t size = 0;
	int err;

	bar2 = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, self->fd,
		    TENSTORRENT_MMAP_BAR2_UC + PAGE);
	ASSERT_NE(MAP_FAILED, bar2);
	bar0 = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, bar0) TH_LOG("BAR0 UC: %s", strerror(errno));
	ASSERT_EQ(0, tlb_alloc_smallest(self->fd, &tlb, &size));
	win = mmap(NULL, size, PROT_READ, MAP_SHARED, self->fd,
		   tlb.mmap_offset_wc);
	ASSERT_NE(MAP_FAILED, win);

	text = read_mappings(&err);
	ASSERT_NE(NULL, text) TH_LOG("%s", strerror(err));
	EXPECT_EQ(2, count(text, "BAR"));
	ASSERT_EQ(0, details(text, "BAR", 0, d, sizeof(d)));
	EXPECT_STREQ("BAR2 UC (offset=0x1000, size=0x2000)", d);
	ASSERT_EQ(0, details(text, "BAR", 1, d, sizeof(d)));
	EXPECT_STREQ("BAR0 UC (offset=0x0, size=0x1000)", d);
	ASSERT_EQ(0, details(text, "TLB", 0, d, sizeof(d)));
	/* The smallest windows start at BAR0's offset 0 on both chips. */
	snprintf(want, sizeof(want), "ID: %-3u WC -> BAR0 + 0x%llx (size=0x%llx)",
		 tlb.id, (unsigned long long)(tlb.mmap_offset_wc -
					      TENSTORRENT_MMAP_TLB_WC),
		 (unsigned long long)size);
	EXPECT_STREQ(want, d);
	free(text);

	munmap(bar2, 2 * PAGE);
	munmap(bar0, PAGE);
	munmap(win, size);
	text = read_mappings(&err);
	ASSERT_NE(NULL, text) TH_LOG("%s", strerror(err));
	EXPECT_EQ(0, count(text, "BAR"));
	EXPECT_EQ(0, count(text, "TLB"));
	EXPECT_EQ(1, count(text, "TLB-alloc"));
	free(text);
}

/* An EXPORT row per dma-buf export of a window, with its mappings; it
 * stays after the file that made it is closed, and goes with the dma-buf. */
TEST_F(debugfs, shows_tlb_exports_until_the_dmabuf_goes)
{
	struct tenstorrent_allocate_tlb_out a;
	char row[128], *text;
	uint64_t size;
	void *mem;
	int buf, err;

	ASSERT_EQ(0, tlb_alloc_smallest(self->fd, &a, &size));
	buf = export_tlb(self->fd, a.id, PAGE, 2 * PAGE);
	ASSERT_LE(0, buf) TH_LOG("export: %s", err_name(-buf));
	mem = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, buf, 0);
	ASSERT_NE(MAP_FAILED, mem) TH_LOG("mmap: %s", strerror(errno));
	snprintf(row, sizeof(row),
		 "%-8s %-16s %-14s TLB ID: %-3u (offset=0x1000, size=0x2000, maps=1)\n",
		 "", "", "EXPORT", a.id);

	close(self->fd);
	self->fd = -1;
	text = read_mappings(&err);
	ASSERT_NE(NULL, text) TH_LOG("%s", strerror(err));
	EXPECT_NE(NULL, strstr(rows(text), row)) TH_LOG("%s", rows(text));
	free(text);

	munmap(mem, PAGE);
	close(buf);
	text = read_mappings(&err);
	ASSERT_NE(NULL, text) TH_LOG("%s", strerror(err));
	EXPECT_EQ(NULL, strstr(text, "EXPORT")) TH_LOG("%s", rows(text));
	free(text);
}

/* Drop `cap` from this process's sets (capset(2)): 0 or -1. */
static int drop_cap(unsigned int cap)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[cap / 32].effective &= ~(1u << (cap % 32));
	d[cap / 32].permitted &= ~(1u << (cap % 32));
	return (int)syscall(SYS_capset, &h, d);
}

/* Without CAP_SYS_ADMIN a reader sees every address as 0. */
TEST_F(debugfs, addresses_only_for_cap_sys_admin)
{
	struct tenstorrent_allocate_dma_buf_out buf;
	struct tenstorrent_pin_pages_out_extended p;
	pid_t pid;

	ASSERT_EQ(0, alloc_dma_buf(self->fd, 1, TENSTORRENT_ALLOCATE_DMA_BUF_NOC_DMA,
			     &buf));
	ASSERT_EQ(0, pin(self->fd, self->mem, 0, &p));
	pid = spawn_keep(self->fd);
	if (!pid) {
		char *text;
		int err;

		if (drop_cap(CAP_SYS_ADMIN))
			_exit(100);
		text = read_mappings(&err);
		if (!text)
			_exit(101);
		/* The rows are the parent's: this process has no file. */
		if (!strstr(text, "DMA_BUF+IATU   ID: 1   -> PA: 0x0000000000000000 -> NOC: 0x0 (size=0x2000)"))
			_exit(102);
		if (!strstr(text, "PIN_PAGES      VA: 0x0000000000000000 -> PA: 0x0000000000000000 (size=0x1000, busy=0)"))
			_exit(103);
		_exit(0);
	}
	EXPECT_EQ(0, wait_child(pid, 10000));
}

TEST_F(debugfs, rows_go_at_close)
{
	char *text;
	int err;

	close(self->fd);
	self->fd = -1;
	text = read_mappings(&err);
	ASSERT_NE(NULL, text) TH_LOG("%s", strerror(err));
	EXPECT_EQ(0, count(text, "OPEN_FD")) TH_LOG("%s", rows(text));
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
