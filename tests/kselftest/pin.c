// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest: PIN_PAGES and UNPIN_PAGES on $TT_DEVICE (driver/pin.c,
 * docs/abi.md), as tt-kmd's TestPinPages checks them and more: argument
 * checks, ranges that cannot be pinned (unmapped, device mappings,
 * physically discontiguous pages without an IOMMU), duplicates, exact
 * unpinning, NOC addresses from the bottom and the top of the host window,
 * the ATU regions running out and coming back at close, huge pages, and
 * RLIMIT_MEMLOCK for processes without CAP_IPC_LOCK (a deliberate
 * difference from tt-kmd, docs/abi.md).
 *
 * The guests have no IOMMU: a pin must be physically contiguous, which
 * /proc/self/pagemap shows, and READ_ONLY is EOPNOTSUPP.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <hw/pcie.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include <kselftest_harness.h>

#define PIN_NOC TENSTORRENT_PIN_PAGES_NOC_DMA
#define PIN_TOP TENSTORRENT_PIN_PAGES_NOC_TOP_DOWN
#define PAGES 64

/* PIN_PAGES: 0 or the errno; *out gets the extended out. */
static int pin(int fd, const void *va, uint64_t size, uint32_t flags,
	       struct tenstorrent_pin_pages_out_extended *out)
{
	struct {
		struct tenstorrent_pin_pages_in in;
		struct tenstorrent_pin_pages_out_extended out;
	} a = {
		.in.output_size_bytes = sizeof(a.out),
		.in.flags = flags,
		.in.virtual_address = (uintptr_t)va,
		.in.size = size,
	};

	if (ioctl(fd, TENSTORRENT_IOCTL_PIN_PAGES, &a))
		return errno;
	if (out)
		*out = a.out;
	return 0;
}

static int unpin(int fd, const void *va, uint64_t size, uint64_t reserved)
{
	struct tenstorrent_unpin_pages a = {
		.in.virtual_address = (uintptr_t)va,
		.in.size = size,
		.in.reserved = reserved,
	};

	return ioctl(fd, TENSTORRENT_IOCTL_UNPIN_PAGES, &a) ? errno : 0;
}

/* The page frame of `va`, 0 if unknown (pagemap gives it to root). */
static uint64_t pfn_of(const void *va)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &e, 8, (off_t)((uintptr_t)va / PAGE * 8)) != 8)
		e = 0;
	close(fd);
	return (e >> 63) ? e & ((1ULL << 55) - 1) : 0;
}

FIXTURE(pin) {
	int fd;
	unsigned char *mem; /* PAGES pages, faulted in from the last */
};

FIXTURE_SETUP(pin)
{
	ASSERT_OPEN_DEVICE(self->fd, 0);
	self->mem = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->mem);
	/* Backwards, so that neighbours are rarely neighbours in RAM. */
	for (int i = PAGES - 1; i >= 0; i--)
		self->mem[i * PAGE] = (unsigned char)i;
}

FIXTURE_TEARDOWN(pin)
{
	if (self->fd >= 0)
		close(self->fd);
	munmap(self->mem, PAGES * PAGE);
}

/* The first page i whose next page is (or is not) the next frame. */
static int find_pair(const unsigned char *mem, bool contiguous)
{
	for (int i = 0; i + 1 < PAGES; i++) {
		uint64_t a = pfn_of(mem + i * PAGE);
		uint64_t b = pfn_of(mem + (i + 1) * PAGE);

		if (a && b && (b == a + 1) == contiguous)
			return i;
	}
	return -1;
}

TEST_F(pin, one_page_gives_its_bus_address)
{
	struct tenstorrent_pin_pages_out_extended o;

	ASSERT_EQ(0, pin(self->fd, self->mem, PAGE, 0, &o));
	/* No IOMMU: the bus address is the physical one. */
	EXPECT_EQ(pfn_of(self->mem) * PAGE, o.physical_address);
	EXPECT_EQ(0, o.noc_address);
	EXPECT_EQ(0, unpin(self->fd, self->mem, PAGE, 0));
}

TEST_F(pin, contiguous_flag_is_accepted)
{
	EXPECT_EQ(0, pin(self->fd, self->mem, PAGE,
			 TENSTORRENT_PIN_PAGES_CONTIGUOUS, NULL));
}

TEST_F(pin, bad_flags_sizes_and_addresses_einval)
{
	EXPECT_EQ(EINVAL, pin(self->fd, self->mem, PAGE, 16, NULL));
	EXPECT_EQ(EINVAL, pin(self->fd, self->mem, PAGE, 1u << 31, NULL));
	EXPECT_EQ(EINVAL, pin(self->fd, self->mem, 0, 0, NULL));
	EXPECT_EQ(EINVAL, pin(self->fd, self->mem, PAGE - 1, 0, NULL));
	EXPECT_EQ(EINVAL, pin(self->fd, self->mem + 1, PAGE, 0, NULL));
	EXPECT_EQ(EINVAL, pin(self->fd, (void *)(uintptr_t)-PAGE, 2 * PAGE,
			      0, NULL));
}

TEST_F(pin, read_only_without_iommu_eopnotsupp)
{
	EXPECT_EQ(EOPNOTSUPP, pin(self->fd, self->mem, PAGE,
				  TENSTORRENT_PIN_PAGES_READ_ONLY, NULL));
}

TEST_F(pin, unmapped_range_efault)
{
	unsigned char *hole = self->mem + (PAGES - 1) * PAGE;

	ASSERT_EQ(0, munmap(hole, PAGE));
	EXPECT_EQ(EFAULT, pin(self->fd, hole - PAGE, 2 * PAGE, 0, NULL));
	EXPECT_EQ(EFAULT, pin(self->fd, hole, PAGE, 0, NULL));
	/* The failed pin left nothing behind. */
	EXPECT_EQ(EINVAL, unpin(self->fd, hole - PAGE, 2 * PAGE, 0));
	ASSERT_EQ(hole, mmap(hole, PAGE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
}

TEST_F(pin, a_device_mapping_cannot_be_pinned)
{
	int err;
	void *bar = map(self->fd, TENSTORRENT_MMAP_BAR2_UC, PAGE, MAP_SHARED,
			&err);

	ASSERT_NE(NULL, bar) TH_LOG("mmap of BAR2: %s", strerror(err));
	EXPECT_EQ(EFAULT, pin(self->fd, bar, PAGE, 0, NULL));
	munmap(bar, PAGE);
}

TEST_F(pin, discontiguous_pages_einval)
{
	int i = find_pair(self->mem, false);

	ASSERT_LE(0, i) TH_LOG("no two neighbouring pages apart in RAM");
	EXPECT_EQ(EINVAL, pin(self->fd, self->mem + i * PAGE, 2 * PAGE, 0,
			      NULL));
}

TEST_F(pin, contiguous_pages_pin_as_one)
{
	struct tenstorrent_pin_pages_out_extended o;
	int i = find_pair(self->mem, true);

	/* Not guaranteed to exist; the other test covers the refusal. */
	if (i < 0) {
		TH_LOG("no two neighbouring pages next to each other in RAM");
		return;
	}
	ASSERT_EQ(0, pin(self->fd, self->mem + i * PAGE, 2 * PAGE, 0, &o));
	EXPECT_EQ(pfn_of(self->mem + i * PAGE) * PAGE, o.physical_address);
}

TEST_F(pin, same_range_twice_eexist_other_range_ok)
{
	ASSERT_EQ(0, pin(self->fd, self->mem, PAGE, 0, NULL));
	EXPECT_EQ(EEXIST, pin(self->fd, self->mem, PAGE, 0, NULL));
	EXPECT_EQ(0, pin(self->fd, self->mem + PAGE, PAGE, 0, NULL));
}

TEST_F(pin, another_fd_may_pin_the_same_range)
{
	int fd2;

	ASSERT_EQ(0, pin(self->fd, self->mem, PAGE, 0, NULL));
	ASSERT_OPEN_DEVICE(fd2, 0);
	EXPECT_EQ(0, pin(fd2, self->mem, PAGE, 0, NULL));
	/* Each fd unpins only its own. */
	EXPECT_EQ(0, unpin(fd2, self->mem, PAGE, 0));
	EXPECT_EQ(EINVAL, unpin(fd2, self->mem, PAGE, 0));
	close(fd2);
	EXPECT_EQ(0, unpin(self->fd, self->mem, PAGE, 0));
}

TEST_F(pin, unpin_wants_the_exact_range_and_reserved_0)
{
	ASSERT_EQ(0, pin(self->fd, self->mem, PAGE, 0, NULL));
	EXPECT_EQ(EINVAL, unpin(self->fd, self->mem, PAGE, 1));
	EXPECT_EQ(EINVAL, unpin(self->fd, self->mem, 2 * PAGE, 0));
	EXPECT_EQ(EINVAL, unpin(self->fd, self->mem, PAGE - 1, 0));
	EXPECT_EQ(EINVAL, unpin(self->fd, self->mem + PAGE, PAGE, 0));
	EXPECT_EQ(0, unpin(self->fd, self->mem, PAGE, 0));
	EXPECT_EQ(EINVAL, unpin(self->fd, self->mem, PAGE, 0));
}

TEST_F(pin, short_output_gets_the_bus_address_only)
{
	struct {
		struct tenstorrent_pin_pages_in in;
		uint64_t out[2];
	} a = {
		.in.output_size_bytes = 8,
		.in.flags = PIN_NOC,
		.in.virtual_address = (uintptr_t)self->mem,
		.in.size = PAGE,
		.out = { 0, 0x5a5a5a5a5a5a5a5aULL },
	};

	ASSERT_EQ(0, ioctl(self->fd, TENSTORRENT_IOCTL_PIN_PAGES, &a));
	EXPECT_EQ(pfn_of(self->mem) * PAGE, a.out[0]);
	EXPECT_EQ(0x5a5a5a5a5a5a5a5aULL, a.out[1]);
}

TEST_F(pin, noc_from_the_bottom_and_the_top_of_the_window)
{
	struct tenstorrent_pin_pages_out_extended lo, hi;

	ASSERT_EQ(0, pin(self->fd, self->mem, PAGE, PIN_NOC, &lo));
	ASSERT_EQ(0, pin(self->fd, self->mem + PAGE, PAGE, PIN_TOP, &hi));
	EXPECT_EQ(TT_PCIE_HOST_WINDOW_BASE, lo.noc_address);
	EXPECT_EQ(TT_PCIE_HOST_WINDOW_BASE + TT_PCIE_HOST_WINDOW_SIZE - PAGE,
		  hi.noc_address);
	/* Unpinned, the range is free for the next pin. */
	ASSERT_EQ(0, unpin(self->fd, self->mem, PAGE, 0));
	ASSERT_EQ(0, pin(self->fd, self->mem + 2 * PAGE, PAGE, PIN_NOC, &lo));
	EXPECT_EQ(TT_PCIE_HOST_WINDOW_BASE, lo.noc_address);
}

/* Regions 1..15 are the driver's: the 16th NOC pin finds none. */
TEST_F(pin, noc_regions_run_out_and_come_back_at_close)
{
	int i, fd2;

	for (i = 0; i < 15; i++) {
		ASSERT_EQ(0, pin(self->fd, self->mem + i * PAGE, PAGE, PIN_NOC,
				 NULL)) TH_LOG("pin %d", i);
	}
	EXPECT_EQ(ENOMEM, pin(self->fd, self->mem + i * PAGE, PAGE, PIN_NOC,
			      NULL));
	/* Without a NOC address a pin needs no region. */
	EXPECT_EQ(0, pin(self->fd, self->mem + i * PAGE, PAGE, 0, NULL));
	close(self->fd);
	ASSERT_OPEN_DEVICE(fd2, 0);
	self->fd = fd2;
	EXPECT_EQ(0, pin(fd2, self->mem, PAGE, PIN_NOC, NULL));
}

/* An unprivileged process may pin up to RLIMIT_MEMLOCK, no more. */
TEST_F(pin, memlock_limit_for_unprivileged_processes)
{
	pid_t pid = spawn_keep(self->fd);

	if (!pid) {
		struct rlimit one = { PAGE, PAGE };

		if (setrlimit(RLIMIT_MEMLOCK, &one) || setgid(65534) ||
		    setuid(65534))
			_exit(100);
		if (pin(self->fd, self->mem, PAGE, 0, NULL))
			_exit(101);
		_exit(pin(self->fd, self->mem + PAGE, PAGE, 0, NULL));
	}
	EXPECT_EQ(ENOMEM, wait_child(pid, 10000));
}

/* Drop `cap` from this process's effective, permitted and inheritable
 * sets (capset(2)): 0 or -1. */
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
	d[cap / 32].inheritable &= ~(1u << (cap % 32));
	return (int)syscall(SYS_capset, &h, d);
}

/*
 * The charge is the process's pinned pages over all its pins: a page
 * unpinned (or a pin gone at close) is given back, and another fd's pins
 * count too. root without CAP_IPC_LOCK is limited like anyone.
 */
TEST_F(pin, memlock_charge_comes_back_at_unpin_and_close)
{
	pid_t pid = spawn_keep(self->fd);

	if (!pid) {
		struct rlimit two = { 2 * PAGE, 2 * PAGE };
		unsigned char *m = self->mem;
		int fd2;

		if (setrlimit(RLIMIT_MEMLOCK, &two) || drop_cap(CAP_IPC_LOCK))
			_exit(100);
		fd2 = open_dev(tt_device(), 0);
		if (fd2 < 0)
			_exit(101);
		if (pin(self->fd, m, PAGE, 0, NULL) ||
		    pin(self->fd, m + PAGE, PAGE, 0, NULL))
			_exit(102);
		if (pin(self->fd, m + 2 * PAGE, PAGE, 0, NULL) != ENOMEM)
			_exit(103);
		/* The unpinned page comes back; another fd's pins count. */
		if (unpin(self->fd, m, PAGE, 0) ||
		    pin(fd2, m + 2 * PAGE, PAGE, 0, NULL))
			_exit(104);
		if (pin(fd2, m + 3 * PAGE, PAGE, 0, NULL) != ENOMEM)
			_exit(105);
		/* fd2 is this process's only: closing it unpins. */
		close(fd2);
		if (pin(self->fd, m + 3 * PAGE, PAGE, 0, NULL))
			_exit(106);
		if (pin(self->fd, m + 4 * PAGE, PAGE, 0, NULL) != ENOMEM)
			_exit(107);
		_exit(0);
	}
	EXPECT_EQ(0, wait_child(pid, 10000));
}

/* CAP_IPC_LOCK lifts the limit, as for mlock(2). */
TEST_F(pin, cap_ipc_lock_is_not_limited)
{
	pid_t pid = spawn_keep(self->fd);

	if (!pid) {
		struct rlimit none = { 0, 0 };

		if (setrlimit(RLIMIT_MEMLOCK, &none))
			_exit(100);
		_exit(pin(self->fd, self->mem, PAGE, 0, NULL));
	}
	EXPECT_EQ(0, wait_child(pid, 10000));
}

#define HUGE (2UL << 20)
#define HUGE_POOL "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f && fscanf(f, "%ld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

static int write_long(const char *path, long v)
{
	FILE *f = fopen(path, "w");
	int ok = f && fprintf(f, "%ld\n", v) > 0;

	return (f && fclose(f) == 0 && ok) ? 0 : -1;
}

/*
 * A 2 MiB huge page is one physically contiguous piece: it pins whole
 * and in parts, with and without a NOC address, and counts 512 pages
 * against RLIMIT_MEMLOCK.
 */
TEST_F(pin, a_huge_page_pins_whole_and_in_parts)
{
	struct tenstorrent_pin_pages_out_extended o;
	long pool = read_long(HUGE_POOL);
	unsigned char *huge;
	pid_t pid;

	ASSERT_LE(0, pool) TH_LOG("no %s: a kernel without hugetlbfs",
				  HUGE_POOL);
	ASSERT_EQ(0, write_long(HUGE_POOL, pool + 1));
	huge = mmap(NULL, HUGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	ASSERT_NE(MAP_FAILED, huge) TH_LOG("MAP_HUGETLB: %s", strerror(errno));
	memset(huge, 0x5a, HUGE);
	ASSERT_EQ(0, pin(self->fd, huge, HUGE, 0, &o));
	EXPECT_EQ(pfn_of(huge) * PAGE, o.physical_address);
	EXPECT_EQ(0, o.physical_address % HUGE) TH_LOG("%#llx",
		(unsigned long long)o.physical_address);
	EXPECT_EQ(0, pin(self->fd, huge + PAGE, 2 * PAGE, PIN_NOC, &o));
	EXPECT_EQ(pfn_of(huge) * PAGE + PAGE, o.physical_address);
	EXPECT_LE(TT_PCIE_HOST_WINDOW_BASE, o.noc_address);
	EXPECT_EQ(0, unpin(self->fd, huge, HUGE, 0));
	EXPECT_EQ(0, unpin(self->fd, huge + PAGE, 2 * PAGE, 0));

	pid = spawn_keep(self->fd);
	if (!pid) {
		struct rlimit most = { HUGE - PAGE, HUGE - PAGE };

		if (setrlimit(RLIMIT_MEMLOCK, &most) ||
		    drop_cap(CAP_IPC_LOCK))
			_exit(100);
		_exit(pin(self->fd, huge, HUGE, 0, NULL));
	}
	EXPECT_EQ(ENOMEM, wait_child(pid, 10000));
	munmap(huge, HUGE);
	EXPECT_EQ(0, write_long(HUGE_POOL, pool));
}

TEST_HARNESS_MAIN
