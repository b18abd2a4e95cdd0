// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest: hot-unplug of $TT_DEVICE's PCI function while files, mappings
 * and waiters are live (echo 1 > /sys/bus/pci/devices/<bdf>/remove), and
 * its return (echo 1 > /sys/bus/pci/rescan). The old files get ENODEV from
 * every command and mmap and POLLERR from poll, their mappings fault with
 * SIGBUS (also one whose file is already closed), a blocking lock acquire
 * and a waiting O_EXCL open end with ENODEV, the old files and mappings
 * close, and processes busy with the node when it goes see only ENODEV (or
 * the node gone). The node goes at the unplug and comes back under the
 * same number: the driver frees the number at remove and gives the lowest
 * free one, so this holds also while an old file is still open; the new
 * node works (GET_DEVICE_INFO names the function, BAR2 shows the
 * signature) and the old files stay dead.
 *
 * A rescan that adds a function costs most of a second in the debug guest
 * (the PCI core's, not the driver's: a bind alone is 40 ms), so each test
 * checks one behaviour of one unplug, and there are few of them.
 *
 * The function must stay bound for the programs after this one: every
 * teardown rescans if the function is gone and waits (at most 5 s) for the
 * node, and so does the end of the program (a destructor of the harness's
 * own process), should a test die before its teardown.
 */
#define _GNU_SOURCE
#include "ttdev.h"

#include <poll.h>

#include <kselftest_harness.h>

/* How long the node may take to come back after a rescan. */
#define BACK_MS 5000

/* The node's PCI function ("0000:00:10.0"), found before any test. */
static char bdf[64];
static pid_t harness_pid;

static void __attribute__((constructor)) find_function(void)
{
	char dir[PATH_MAX];

	harness_pid = getpid();
	if (!sysfs_dir_of(tt_device(), true, dir))
		snprintf(bdf, sizeof(bdf), "%s", basename(dir));
}

static void function_path(char *path, size_t len, const char *file)
{
	snprintf(path, len, "/sys/bus/pci/devices/%s%s", bdf, file);
}

/* Poll up to `ms` for the node to exist (`want`) or not. */
static bool node_exists_within(bool want, long ms)
{
	for (long t = 0;; t += 10) {
		if (path_exists(tt_device()) == want)
			return true;
		if (t >= ms)
			return false;
		sleep_ms(10);
	}
}

/* Remove the function, as a hot-unplug does: 0 or -errno. */
static int unplug(void)
{
	char path[PATH_MAX];

	function_path(path, sizeof(path), "/remove");
	return write_sysfs(path, "1");
}

/* If the function is gone, rescan the bus; then wait for the node. */
static bool replug(void)
{
	char path[PATH_MAX];

	function_path(path, sizeof(path), "");
	if (!path_exists(path))
		write_sysfs("/sys/bus/pci/rescan", "1");
	return node_exists_within(true, BACK_MS);
}

/* Whatever a test did, the next program finds the device bound. */
static void __attribute__((destructor)) leave_bound(void)
{
	if (getpid() == harness_pid && bdf[0])
		replug();
}

/* What a test maps before the unplug, through each of its two files; the
 * teardown unmaps what is left. */
enum { BAR2_UC, BAR2_WC, TLB_WINDOW, DMA_BUF, NMAPS };

static const char *const map_name[NMAPS] = {
	"BAR2 UC", "BAR2 WC", "a TLB window", "a DMA buffer"
};

#define KIDS 4

FIXTURE(hotplug) {
	int fd[2];
	pid_t kid[KIDS];
	void *map[2][NMAPS];
	size_t len[2][NMAPS];
	size_t tlb_off; /* the Tensix memory's first byte in the window */
};

FIXTURE_SETUP(hotplug)
{
	self->fd[0] = -1;
	self->fd[1] = -1;
	ASSERT_NE(0, bdf[0])
	TH_LOG("%s: no PCI function behind it when the program started",
	       tt_device());
	ASSERT_TRUE(replug()) TH_LOG("%s (%s) is not there", tt_device(), bdf);
	ASSERT_OPEN_DEVICE(self->fd[0], 0);
}

FIXTURE_TEARDOWN(hotplug)
{
	for (int k = 0; k < KIDS; k++)
		if (self->kid[k] > 0)
			reap(self->kid[k]);
	for (int f = 0; f < 2; f++) {
		for (int i = 0; i < NMAPS; i++)
			if (self->map[f][i])
				munmap(self->map[f][i], self->len[f][i]);
		if (self->fd[f] >= 0)
			close(self->fd[f]);
	}
	EXPECT_TRUE(replug())
	TH_LOG("%s did not come back within %d ms of a rescan of %s",
	       tt_device(), BACK_MS, bdf);
}

/*
 * Map through file `f` BAR2 (UC and WC), a TLB window pointed at a Tensix
 * node's memory and a DMA buffer, and see each of them work.
 */
static void map_everything(struct __test_metadata *_metadata,
			   FIXTURE_DATA(hotplug) * self, int f)
{
	struct tenstorrent_allocate_tlb_out t = { 0 };
	void **m = self->map[f];
	size_t *len = self->len[f];
	struct tt_node_desc n = { 0 };
	uint64_t size = 0, addr;
	int fd = self->fd[f], err, ret;

	len[BAR2_UC] = PAGE;
	m[BAR2_UC] = map(fd, TENSTORRENT_MMAP_BAR2_UC, PAGE, MAP_SHARED, &err);
	ASSERT_NE(NULL, m[BAR2_UC]) TH_LOG("%s", err_name(err));
	len[BAR2_WC] = PAGE;
	m[BAR2_WC] = map(fd, TENSTORRENT_MMAP_BAR2_WC, PAGE, MAP_SHARED, &err);
	ASSERT_NE(NULL, m[BAR2_WC]) TH_LOG("%s", err_name(err));
	ASSERT_TRUE(signed_image(m[BAR2_UC]));
	ASSERT_TRUE(signed_image(m[BAR2_WC]));

	ret = first_tensix(fd, &n);
	ASSERT_EQ(0, ret) TH_LOG("no Tensix node in the image: %s",
				 err_name(-ret));
	ret = tlb_alloc_smallest(fd, &t, &size);
	ASSERT_EQ(0, ret) TH_LOG("ALLOCATE_TLB: %s", err_name(-ret));
	addr = n.mem_base & ~(size - 1);
	ret = tlb_point(fd, t.id, n.x, n.y, addr);
	ASSERT_EQ(0, ret) TH_LOG("CONFIGURE_TLB: %s", err_name(-ret));
	len[TLB_WINDOW] = size;
	m[TLB_WINDOW] = map(fd, t.mmap_offset_uc, size, MAP_SHARED, &err);
	self->tlb_off = n.mem_base - addr;
	ASSERT_NE(NULL, m[TLB_WINDOW]) TH_LOG("%s", err_name(err));
	ASSERT_LE(0, peek32((uint8_t *)m[TLB_WINDOW] + self->tlb_off));

	len[DMA_BUF] = PAGE;
	m[DMA_BUF] = dma_buf(fd, 0, PAGE, &err);
	ASSERT_NE(NULL, m[DMA_BUF]) TH_LOG("%s", err_name(err));
	ASSERT_EQ(0, poke32(m[DMA_BUF], 0x0dd5ea1));
	ASSERT_EQ(0x0dd5ea1, peek32(m[DMA_BUF]));
}

/* The word of mapping `i` of file `f` that a test touches. */
static volatile void *mapped_word(FIXTURE_DATA(hotplug) * self, int f, int i)
{
	return (uint8_t *)self->map[f][i] +
	       (i == TLB_WINDOW ? self->tlb_off : 0);
}

/*
 * The node is there for the same function and works: GET_DEVICE_INFO
 * names the function, a BAR2 mapping shows the signature.
 */
static void expect_usable(struct __test_metadata *_metadata)
{
	unsigned int domain, bus, slot, func;
	struct tenstorrent_get_device_info_out o;
	char dir[PATH_MAX];
	int fd, err, ret;
	void *p;

	ASSERT_EQ(0, sysfs_dir_of(tt_device(), true, dir));
	EXPECT_STREQ(bdf, basename(dir));
	ASSERT_EQ(4, sscanf(bdf, "%x:%x:%x.%x", &domain, &bus, &slot, &func));
	fd = open_dev(tt_device(), O_NONBLOCK);
	ASSERT_LE(0, fd) TH_LOG("open: %s", err_name(-fd));
	ret = get_device_info(fd, &o);
	EXPECT_EQ(0, ret) TH_LOG("GET_DEVICE_INFO: %s", err_name(-ret));
	EXPECT_EQ(bus << 8 | slot << 3 | func, o.bus_dev_fn);
	EXPECT_EQ(domain, o.pci_domain);
	p = map(fd, TENSTORRENT_MMAP_BAR2_UC, PAGE, MAP_SHARED, &err);
	EXPECT_NE(NULL, p) TH_LOG("mmap of BAR2: %s", err_name(err));
	if (p) {
		EXPECT_TRUE(signed_image(p));
		munmap(p, PAGE);
	}
	close(fd);
}

/* What an old file asks of the driver after the unplug. */
static const unsigned long commands[] = {
	TENSTORRENT_IOCTL_GET_DEVICE_INFO,
	TENSTORRENT_IOCTL_GET_HARVESTING,
	TENSTORRENT_IOCTL_QUERY_MAPPINGS,
	TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF,
	TENSTORRENT_IOCTL_FREE_DMA_BUF,
	TENSTORRENT_IOCTL_GET_DRIVER_INFO,
	TENSTORRENT_IOCTL_RESET_DEVICE,
	TENSTORRENT_IOCTL_PIN_PAGES,
	TENSTORRENT_IOCTL_LOCK_CTL,
	TENSTORRENT_IOCTL_MAP_PEER_BAR,
	TENSTORRENT_IOCTL_UNPIN_PAGES,
	TENSTORRENT_IOCTL_ALLOCATE_TLB,
	TENSTORRENT_IOCTL_FREE_TLB,
	TENSTORRENT_IOCTL_CONFIGURE_TLB,
	TENSTORRENT_IOCTL_SET_NOC_CLEANUP,
	TENSTORRENT_IOCTL_SET_POWER_STATE,
	TENSTORRENT_IOCTL_EXPORT_TLB_DMABUF,
	TENSTORRENT_IOCTL_DMA_QUEUE_SUBMIT,
	TENSTORRENT_IOCTL_DMA_QUEUE_WAIT,
	TENSTORRENT_IOCTL_DMA_QUEUE_QUERY,
	_IO(TENSTORRENT_IOCTL_MAGIC, 0x7F), /* no such command */
};

/*
 * Two old files (one O_APPEND, one holding a lock, a TLB window and a DMA
 * buffer it never mapped) get ENODEV from every command, known or not, and
 * from mmap of BAR2, the window and the buffer; poll says POLLERR. The
 * processes waiting on the device when it goes, one in ACQUIRE_BLOCKING of
 * that lock and one in an O_EXCL open, get ENODEV too.
 */
TEST_F(hotplug, old_files_and_their_waiters_get_enodev)
{
	struct tenstorrent_allocate_dma_buf d = {
		.in = { .requested_size = PAGE, .buf_index = 3 }
	};
	struct tenstorrent_allocate_tlb_out t = { 0 };
	static uint64_t arg[PAGE / 8];
	const char *what[4] = { "BAR2 UC", "BAR2 WC", "its TLB window",
				"its DMA buffer" };
	uint64_t offs[4], size = 0;
	int ret, st;

	ASSERT_OPEN_DEVICE(self->fd[1], O_APPEND);
	ret = tlb_alloc_smallest(self->fd[0], &t, &size);
	ASSERT_EQ(0, ret) TH_LOG("ALLOCATE_TLB: %s", err_name(-ret));
	ASSERT_EQ(0, ioctl(self->fd[0], TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF, &d))
	TH_LOG("ALLOCATE_DMA_BUF: %s", err_name(errno));
	offs[0] = TENSTORRENT_MMAP_BAR2_UC;
	offs[1] = TENSTORRENT_MMAP_BAR2_WC;
	offs[2] = t.mmap_offset_uc;
	offs[3] = d.out.mapping_offset;
	ASSERT_EQ(1, lock_ctl(self->fd[0], TENSTORRENT_LOCK_CTL_ACQUIRE, 21));
	self->kid[0] = spawn_keep(-1);
	if (!self->kid[0]) {
		int fd = open_dev(tt_device(), 0);

		if (fd < 0)
			_exit(100);
		_exit(-lock_ctl(fd, TENSTORRENT_LOCK_CTL_ACQUIRE_BLOCKING, 21));
	}
	self->kid[1] = spawn_open(tt_device(), O_EXCL);
	ASSERT_TRUE(asleep_within(self->kid[0], 5000))
	TH_LOG("the acquire did not wait: %d", wait_child(self->kid[0], 0));
	ASSERT_TRUE(asleep_within(self->kid[1], 5000))
	TH_LOG("the open did not wait: %d", wait_child(self->kid[1], 0));

	ASSERT_EQ(0, unplug());
	for (int f = 0; f < 2; f++) {
		struct pollfd p = { .fd = self->fd[f],
				    .events = POLLIN | POLLOUT };

		for (unsigned int i = 0;
		     i < sizeof(commands) / sizeof(commands[0]); i++) {
			int e;

			memset(arg, 0, sizeof(arg));
			e = ioctl(self->fd[f], commands[i], arg) ? errno : 0;
			EXPECT_EQ(ENODEV, e)
			TH_LOG("command %#lx on file %d: %s", commands[i], f,
			       err_name(e));
		}
		EXPECT_EQ(1, poll(&p, 1, 0));
		EXPECT_TRUE(p.revents & POLLERR)
		TH_LOG("file %d: revents %#x", f, p.revents);
	}
	for (int i = 0; i < 4; i++) {
		int err;
		void *p = map(self->fd[0], offs[i], PAGE, MAP_SHARED, &err);

		EXPECT_EQ(NULL, p) TH_LOG("%s was mapped", what[i]);
		EXPECT_EQ(ENODEV, err) TH_LOG("mmap of %s: %s", what[i],
					      err_name(err));
		if (p)
			munmap(p, PAGE);
	}
	st = wait_child(self->kid[0], 5000);
	EXPECT_EQ(ENODEV, st) TH_LOG("the acquire: %s",
				     st < 0 ? "still waiting" : err_name(st));
	st = wait_child(self->kid[1], 5000);
	EXPECT_EQ(ENODEV, st) TH_LOG("the open: %s",
				     st < 0 ? "still waiting" : err_name(st));
}

/*
 * After the unplug every mapping of an old file faults with SIGBUS, for
 * reads and writes: BAR2 UC and WC, a TLB window and a DMA buffer, of a
 * file still open (which also holds a lock and a close-time NOC write) and
 * of a file closed before the unplug. Then munmap and close work.
 */
TEST_F(hotplug, mappings_fault_with_sigbus_and_files_close)
{
	struct tenstorrent_set_noc_cleanup c = {
		.argsz = sizeof(c),
		.enabled = 1,
	};
	struct tt_node_desc n = { 0 };

	ASSERT_OPEN_DEVICE(self->fd[1], O_APPEND);
	map_everything(_metadata, self, 0);
	map_everything(_metadata, self, 1);
	close(self->fd[1]);
	self->fd[1] = -1;
	ASSERT_EQ(1, lock_ctl(self->fd[0], TENSTORRENT_LOCK_CTL_ACQUIRE, 22));
	ASSERT_EQ(0, first_tensix(self->fd[0], &n));
	c.x = n.x;
	c.y = n.y;
	c.addr = n.mem_base + n.mem_size - 4;
	ASSERT_EQ(0, ioctl(self->fd[0], TENSTORRENT_IOCTL_SET_NOC_CLEANUP, &c))
	TH_LOG("SET_NOC_CLEANUP: %s", err_name(errno));

	ASSERT_EQ(0, unplug());
	for (int f = 0; f < 2; f++) {
		for (int i = 0; i < NMAPS; i++) {
			EXPECT_EQ(-SIGBUS, peek32(mapped_word(self, f, i)))
			TH_LOG("a read of %s of the %s file", map_name[i],
			       f ? "closed" : "open");
			EXPECT_EQ(-SIGBUS, poke32(mapped_word(self, f, i), 1))
			TH_LOG("a write to %s of the %s file", map_name[i],
			       f ? "closed" : "open");
		}
	}
	for (int f = 0; f < 2; f++) {
		for (int i = 0; i < NMAPS; i++) {
			EXPECT_EQ(0, munmap(self->map[f][i], self->len[f][i]))
			TH_LOG("munmap of %s: %s", map_name[i],
			       err_name(errno));
			self->map[f][i] = NULL;
		}
	}
	EXPECT_EQ(0, close(self->fd[0])) TH_LOG("%s", err_name(errno));
	self->fd[0] = -1;
}

/* LOCK_CTL that must give 1 (the lock is the caller's own): 0, or -errno
 * (-EBADE for another value). */
static int lock_op(int fd, uint32_t op, unsigned int index)
{
	int v = lock_ctl(fd, op, index);

	return v < 0 ? v : v == 1 ? 0 : -EBADE;
}

static void use_until_gone(int k)
{
	for (int round = 0; round < 10000; round++) {
		struct tenstorrent_get_device_info_out o;
		struct tenstorrent_allocate_tlb_out t;
		int fd = open_dev(tt_device(), 0), ret, err;
		uint64_t size;
		void *p;

		if (fd == -ENOENT || fd == -ENXIO || fd == -ENODEV)
			_exit(0);
		if (fd < 0)
			_exit(-fd);
		for (int i = 0; i < 10; i++) {
			ret = get_device_info(fd, &o);
			if (!ret)
				ret = tlb_alloc_smallest(fd, &t, &size);
			if (!ret)
				ret = lock_op(fd, TENSTORRENT_LOCK_CTL_ACQUIRE,
					      30 + k);
			if (!ret)
				ret = lock_op(fd, TENSTORRENT_LOCK_CTL_RELEASE,
					      30 + k);
			if (ret == -ENODEV)
				_exit(0);
			if (ret)
				_exit(-ret);
			p = map(fd, TENSTORRENT_MMAP_BAR2_UC, PAGE, MAP_SHARED,
				&err);
			if (!p)
				_exit(err == ENODEV ? 0 : err);
			peek32(p);
			munmap(p, PAGE);
			ret = tlb_free(fd, t.id);
			if (ret)
				_exit(ret == -ENODEV ? 0 : -ret);
		}
		close(fd);
	}
	_exit(99);
}

TEST_F(hotplug, unplug_while_processes_use_the_node)
{
	for (int k = 0; k < KIDS; k++) {
		self->kid[k] = spawn_keep(-1);
		if (!self->kid[k])
			use_until_gone(k);
	}
	sleep_ms(100);
	ASSERT_EQ(0, unplug());
	for (int k = 0; k < KIDS; k++) {
		int st = wait_child(self->kid[k], 5000);

		EXPECT_EQ(0, st)
		TH_LOG("process %d: %s", k,
		       st < 0 ? "still running 5 s after the unplug" :
		       st == 99 ? "the device never went" :
		       st == 128 ? "killed by a signal" : err_name(st));
		if (st >= 0)
			self->kid[k] = 0;
	}
}

/*
 * With every file closed (after a window, a buffer and mappings were
 * used), the unplug takes the node, the class device, the function and
 * the procfs entry away; a rescan brings them back under the same number,
 * for the same function, and the node works.
 */
TEST_F(hotplug, node_goes_and_comes_back_under_its_number)
{
	char cls[PATH_MAX], fn[PATH_MAX], proc[PATH_MAX + 32];

	ASSERT_EQ(0, sysfs_dir_of(tt_device(), false, cls));
	function_path(fn, sizeof(fn), "");
	/* The class device is "tenstorrent!N", procfs has N. */
	snprintf(proc, sizeof(proc), "/proc/driver/tenstorrent/%s",
		 strrchr(cls, '!') ? strrchr(cls, '!') + 1 : "?");
	ASSERT_TRUE(path_exists(proc)) TH_LOG("no %s", proc);
	map_everything(_metadata, self, 0);
	for (int i = 0; i < NMAPS; i++) {
		munmap(self->map[0][i], self->len[0][i]);
		self->map[0][i] = NULL;
	}
	close(self->fd[0]);
	self->fd[0] = -1;

	ASSERT_EQ(0, unplug());
	EXPECT_TRUE(node_exists_within(false, 0)) TH_LOG("%s is still there",
							 tt_device());
	EXPECT_FALSE(path_exists(cls)) TH_LOG("%s is still there", cls);
	EXPECT_FALSE(path_exists(fn)) TH_LOG("%s is still there", fn);
	EXPECT_FALSE(path_exists(proc)) TH_LOG("%s is still there", proc);

	ASSERT_EQ(0, write_sysfs("/sys/bus/pci/rescan", "1"));
	ASSERT_TRUE(node_exists_within(true, BACK_MS))
	TH_LOG("%s did not come back within %d ms", tt_device(), BACK_MS);
	EXPECT_TRUE(path_exists(cls)) TH_LOG("no %s", cls);
	EXPECT_TRUE(path_exists(proc)) TH_LOG("no %s", proc);
	expect_usable(_metadata);
}

/*
 * The number is free from the unplug on: the node comes back under it
 * while an old file (here an O_EXCL one, with a mapping) is still open,
 * the new device knows nothing of that file, and the old one stays dead.
 */
TEST_F(hotplug, rescan_while_an_old_file_is_open)
{
	struct tenstorrent_get_device_info_out o;
	volatile void *p;
	int err;

	close(self->fd[0]);
	ASSERT_OPEN_DEVICE(self->fd[0], O_EXCL);
	p = map(self->fd[0], TENSTORRENT_MMAP_BAR2_UC, PAGE, MAP_SHARED, &err);
	ASSERT_NE(NULL, p) TH_LOG("%s", err_name(err));
	self->map[0][BAR2_UC] = (void *)p;
	self->len[0][BAR2_UC] = PAGE;

	ASSERT_EQ(0, unplug());
	ASSERT_EQ(0, write_sysfs("/sys/bus/pci/rescan", "1"));
	ASSERT_TRUE(node_exists_within(true, BACK_MS))
	TH_LOG("%s did not come back within %d ms", tt_device(), BACK_MS);
	expect_usable(_metadata); /* an O_NONBLOCK open: not EAGAIN */
	EXPECT_EQ(-ENODEV, get_device_info(self->fd[0], &o));
	EXPECT_EQ(-SIGBUS, peek32(p));
}

TEST_HARNESS_MAIN
