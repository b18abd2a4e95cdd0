// SPDX-License-Identifier: Apache-2.0
/*
 * ttvm-ioctl: guest-side helper of tests/vm/guest/tests.sh, talking to
 * /dev/tenstorrent/N through <linux/tenstorrent.h>.
 *
 *   unknown PATH|FD        issue an unknown command; print "open: E" if the
 *                          open fails, else "ioctl: E" (E an errno name, or 0)
 *   open PATH FLAGS        open with FLAGS (none, or a comma list of excl,
 *                          nonblock, append); print "open: E"
 *   hold PATH FLAGS SECS   the same, then keep the file open SECS seconds
 *   info PATH              GET_DEVICE_INFO as "key=value ..."
 *   driver PATH            GET_DRIVER_INFO as "key=value ..."
 *   abi PATH               ioctl argument checks
 *   excl PATH              O_EXCL / O_NONBLOCK across fds and processes
 *   mmap PATH              mmap of the BAR2 resource
 *   unbind PATH BDF        unbind the device under an open file and mapping
 *   model PATH BDF ARCH BOARD CHIP GX GY TENSIX
 *                          the node is a running chip model (ttsim behind
 *                          ivshmem-doorbell): its identity says READY and
 *                          these numbers, and its doorbell rings
 *
 * The check commands print one line per check, "ok - what" or
 * "not ok - what: detail", which tests.sh turns into TAP cases; they exit
 * 0 after printing. Usage errors exit 2.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The repository's own headers, found relative to this file. */
#include "../../../uapi/linux/tenstorrent.h"
#include "../../../firmware/include/hw/host.h"

#define PAGE 4096UL
#define FILL 0xAA
#define UNIMPLEMENTED_COUNT 11

static const char *err_name(int e)
{
	const char *s = e ? strerrorname_np(e) : "0";

	return s ? s : "unknown-errno";
}

/* One check line; returns ok so callers can stop early. */
static bool check(bool ok, const char *what, const char *fmt, ...)
{
	va_list ap;

	printf("%s - %s", ok ? "ok" : "not ok", what);
	if (!ok && fmt) {
		printf(": ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
	fflush(stdout);
	return ok;
}

/* ioctl's errno name, or "0" */
static const char *try_ioctl(int fd, unsigned long cmd, void *arg)
{
	return err_name(ioctl(fd, cmd, arg) ? errno : 0);
}

static bool is(const char *got, const char *want)
{
	return strcmp(got, want) == 0;
}

static int parse_flags(const char *s)
{
	char buf[64], *tok, *save;
	int flags = O_RDWR | O_CLOEXEC;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (is(tok, "excl"))
			flags |= O_EXCL;
		else if (is(tok, "nonblock"))
			flags |= O_NONBLOCK;
		else if (is(tok, "append"))
			flags |= O_APPEND;
		else if (!is(tok, "none"))
			return -1;
	}
	return flags;
}

/* open(2) that reports errno as its negative */
static int open_dev(const char *path, int flags)
{
	int fd = open(path, flags | O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Two pages, the second inaccessible: for overrun checks. */
static unsigned char *guarded_page(void)
{
	unsigned char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + PAGE, PAGE, PROT_NONE)) {
		perror("guarded page");
		exit(1);
	}
	memset(p, FILL, PAGE);
	return p;
}

/* Index of the first byte in [from, to) that is not `val`, or -1. */
static long first_not(const unsigned char *p, size_t from, size_t to, int val)
{
	for (size_t i = from; i < to; i++)
		if (p[i] != val)
			return (long)i;
	return -1;
}

/* ---------------------------------------------------------------------- */
/* sysfs facts about a node, to compare the ioctls with                    */

struct sysfs_dev {
	unsigned int vendor, device, subvendor, subdevice;
	unsigned int domain, bus, slot, func;
	unsigned long long bar2_size;
};

static unsigned int read_hex(const char *dir, const char *name)
{
	char path[PATH_MAX];
	unsigned int v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%x", &v) != 1)
		v = ~0u;
	if (f)
		fclose(f);
	return v;
}

static int sysfs_of(const char *node, struct sysfs_dev *s)
{
	unsigned long long start, end, flags;
	char link[PATH_MAX], dir[PATH_MAX], path[PATH_MAX + 16];
	struct stat st;
	FILE *f;

	if (stat(node, &st) || !S_ISCHR(st.st_mode))
		return -1;
	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device",
		 major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(link, dir))
		return -1;
	if (sscanf(basename(dir), "%x:%x:%x.%x", &s->domain, &s->bus,
		   &s->slot, &s->func) != 4)
		return -1;
	s->vendor = read_hex(dir, "vendor");
	s->device = read_hex(dir, "device");
	s->subvendor = read_hex(dir, "subsystem_vendor");
	s->subdevice = read_hex(dir, "subsystem_device");
	/* "resource": one "start end flags" line per resource; BAR2 third. */
	snprintf(path, sizeof(path), "%s/resource", dir);
	f = fopen(path, "r");
	s->bar2_size = 0;
	for (int i = 0; f && i < 3; i++)
		if (fscanf(f, "%llx %llx %llx", &start, &end, &flags) == 3 &&
		    i == 2 && end > start)
			s->bar2_size = end - start + 1;
	if (f)
		fclose(f);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* info, driver                                                           */

static int get_device_info(int fd, struct tenstorrent_get_device_info_out *o)
{
	struct tenstorrent_get_device_info a = {
		.in.output_size_bytes = sizeof(a.out)
	};

	if (ioctl(fd, TENSTORRENT_IOCTL_GET_DEVICE_INFO, &a))
		return -errno;
	*o = a.out;
	return 0;
}

static int cmd_info(int fd)
{
	struct tenstorrent_get_device_info_out o;
	int ret = get_device_info(fd, &o);

	if (ret) {
		printf("ioctl: %s\n", err_name(-ret));
		return 0;
	}
	printf("vendor=%04x device=%04x subsystem_vendor=%04x subsystem=%04x "
	       "bdf=%04x:%02x:%02x.%x dma_log2=%u size=%u reserved=%u\n",
	       o.vendor_id, o.device_id, o.subsystem_vendor_id, o.subsystem_id,
	       o.pci_domain, o.bus_dev_fn >> 8, (o.bus_dev_fn >> 3) & 0x1f,
	       o.bus_dev_fn & 7, o.max_dma_buf_size_log2, o.output_size_bytes,
	       o.reserved);
	return 0;
}

static int cmd_driver(int fd)
{
	struct tenstorrent_get_driver_info a = {
		.in.output_size_bytes = sizeof(a.out)
	};

	if (ioctl(fd, TENSTORRENT_IOCTL_GET_DRIVER_INFO, &a)) {
		printf("ioctl: %s\n", err_name(errno));
		return 0;
	}
	printf("api=%u version=%u.%u.%u size=%u reserved=%u\n",
	       a.out.driver_version, a.out.driver_version_major,
	       a.out.driver_version_minor, a.out.driver_version_patch,
	       a.out.output_size_bytes, a.out.reserved0);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* abi: arguments, output_size_bytes, QUERY_MAPPINGS, commands            */

/* The module's version as three numbers, from sysfs. */
static bool sysfs_version(unsigned int v[3])
{
	FILE *f = fopen("/sys/module/tenstorrent/version", "r");
	bool ok = f && fscanf(f, "%u.%u.%u", &v[0], &v[1], &v[2]) == 3;

	if (f)
		fclose(f);
	return ok;
}

static void abi_device_info(int fd, const struct sysfs_dev *s)
{
	struct tenstorrent_get_device_info_out o;
	unsigned int bdf = s->bus << 8 | s->slot << 3 | s->func;

	if (!check(get_device_info(fd, &o) == 0, "GET_DEVICE_INFO succeeds",
		   "%s", strerror(errno)))
		return;
	check(o.output_size_bytes == sizeof(o), "GET_DEVICE_INFO size is 20",
	      "%u", o.output_size_bytes);
	check(o.vendor_id == s->vendor && o.device_id == s->device,
	      "GET_DEVICE_INFO ids equal sysfs", "%04x:%04x, sysfs %04x:%04x",
	      o.vendor_id, o.device_id, s->vendor, s->device);
	check(o.subsystem_vendor_id == s->subvendor &&
		      o.subsystem_id == s->subdevice,
	      "GET_DEVICE_INFO subsystem ids equal sysfs",
	      "%04x:%04x, sysfs %04x:%04x", o.subsystem_vendor_id,
	      o.subsystem_id, s->subvendor, s->subdevice);
	check(o.bus_dev_fn == bdf && o.pci_domain == s->domain,
	      "GET_DEVICE_INFO bus address equals sysfs",
	      "%04x:%04x, sysfs %04x:%04x", o.pci_domain, o.bus_dev_fn,
	      s->domain, bdf);
	check(o.max_dma_buf_size_log2 == 28 && o.reserved == 0,
	      "GET_DEVICE_INFO max_dma_buf_size_log2 28, reserved 0",
	      "%u, %u", o.max_dma_buf_size_log2, o.reserved);
}

static void abi_driver_info(int fd)
{
	struct tenstorrent_get_driver_info a = {
		.in.output_size_bytes = sizeof(a.out)
	};
	unsigned int v[3];

	if (!check(ioctl(fd, TENSTORRENT_IOCTL_GET_DRIVER_INFO, &a) == 0,
		   "GET_DRIVER_INFO succeeds", "%s", strerror(errno)))
		return;
	check(a.out.output_size_bytes == 12 &&
		      a.out.driver_version == TENSTORRENT_DRIVER_VERSION,
	      "GET_DRIVER_INFO size 12, API version 2", "%u, %u",
	      a.out.output_size_bytes, a.out.driver_version);
	check(sysfs_version(v) && a.out.driver_version_major == v[0] &&
		      a.out.driver_version_minor == v[1] &&
		      a.out.driver_version_patch == v[2] &&
		      a.out.reserved0 == 0,
	      "GET_DRIVER_INFO version equals /sys/module/tenstorrent/version",
	      "%u.%u.%u", a.out.driver_version_major,
	      a.out.driver_version_minor, a.out.driver_version_patch);
}

/*
 * The output_size_bytes rule for a command whose `in` is the u32 and
 * whose `out` has out_size bytes starting with its own size.
 */
static void abi_output_size(int fd, const char *name, unsigned long cmd,
			    size_t out_size)
{
	unsigned char *p = guarded_page();
	unsigned char *tail = p + PAGE - 4; /* `in` ends at the guard */
	uint32_t *in = (uint32_t *)p, got;
	char what[128];
	long bad;
	int ret;

	/* The whole declared range is zeroed, then the known part filled. */
	*in = PAGE - 4;
	ret = ioctl(fd, cmd, p);
	memcpy(&got, p + 4, 4);
	bad = first_not(p, 4 + out_size, PAGE, 0);
	snprintf(what, sizeof(what),
		 "%s zeroes all of a page-long output_size_bytes", name);
	check(ret == 0 && got == out_size && bad < 0, what,
	      "ret %d, size %u, byte %ld not zero", ret, got, bad);

	/* A short output: exactly that many bytes are written. */
	memset(p, FILL, PAGE);
	*in = 3;
	ret = ioctl(fd, cmd, p);
	bad = first_not(p, 4 + 3, PAGE, FILL);
	snprintf(what, sizeof(what),
		 "%s with output_size_bytes 3 writes 3 bytes", name);
	check(ret == 0 && p[4] == out_size && !p[5] && !p[6] && bad < 0, what,
	      "ret %d, first bytes %02x %02x %02x, byte %ld changed", ret, p[4],
	      p[5], p[6], bad);

	/* 0: nothing written, not a byte past `in` (the guard page). */
	memset(p, FILL, PAGE);
	memset(tail, 0, 4);
	ret = ioctl(fd, cmd, tail);
	snprintf(what, sizeof(what),
		 "%s with output_size_bytes 0 at a page end writes nothing",
		 name);
	check(ret == 0 && first_not(p, 0, PAGE - 4, FILL) < 0, what,
	      "%s", err_name(ret ? errno : 0));

	/* Output declared into the guard page: EFAULT. */
	*(uint32_t *)tail = 4;
	snprintf(what, sizeof(what),
		 "%s with output past the caller's memory is EFAULT", name);
	check(is(try_ioctl(fd, cmd, tail), "EFAULT"), what, "%s",
	      try_ioctl(fd, cmd, tail));

	/* The largest size: zeroes up to the guard page, then EFAULT. */
	memset(p, FILL, PAGE);
	in = (uint32_t *)(p + PAGE - 64);
	*in = UINT32_MAX;
	ret = ioctl(fd, cmd, in);
	snprintf(what, sizeof(what),
		 "%s with output_size_bytes 2^32-1 is EFAULT, nothing before it changes",
		 name);
	check(ret && errno == EFAULT &&
		      first_not(p, 0, PAGE - 64, FILL) < 0,
	      what, "%s", err_name(ret ? errno : 0));

	/* Bad argument pointers. */
	snprintf(what, sizeof(what), "%s with a NULL or kernel argument is EFAULT",
		 name);
	check(is(try_ioctl(fd, cmd, NULL), "EFAULT") &&
		      is(try_ioctl(fd, cmd, (void *)0xffff888000000000UL),
			 "EFAULT"),
	      what, "%s", try_ioctl(fd, cmd, NULL));
	munmap(p, 2 * PAGE);
}

static int query(int fd, uint32_t count, struct tenstorrent_mapping *maps)
{
	struct {
		struct tenstorrent_query_mappings q;
		struct tenstorrent_mapping m[16];
	} a;

	memset(&a, FILL, sizeof(a));
	a.q.in.output_mapping_count = count;
	a.q.in.reserved = 0;
	if (ioctl(fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS, &a))
		return -errno;
	memcpy(maps, a.m, sizeof(a.m));
	return 0;
}

static void abi_query_mappings(int fd, const struct sysfs_dev *s)
{
	const uint64_t max = 1ULL << 44;
	struct tenstorrent_mapping m[16], want[2] = {
		{ TENSTORRENT_MAPPING_RESOURCE1_UC, 0, TENSTORRENT_MMAP_BAR2_UC,
		  s->bar2_size },
		{ TENSTORRENT_MAPPING_RESOURCE1_WC, 0, TENSTORRENT_MMAP_BAR2_WC,
		  s->bar2_size },
	};
	unsigned char *p, *zero = calloc(1, sizeof(m));
	uint32_t *in;
	int ret;

	ret = query(fd, 8, m);
	check(ret == 0 && !memcmp(m, want, sizeof(want)),
	      "QUERY_MAPPINGS gives BAR2 UC and WC with the BAR's size",
	      "%s, ids %u %u, bases %#llx %#llx, sizes %#llx %#llx (BAR2 %#llx)",
	      err_name(-ret), m[0].mapping_id, m[1].mapping_id,
	      (unsigned long long)m[0].mapping_base,
	      (unsigned long long)m[1].mapping_base,
	      (unsigned long long)m[0].mapping_size,
	      (unsigned long long)m[1].mapping_size, s->bar2_size);
	check(s->bar2_size && !(s->bar2_size % PAGE) &&
		      TENSTORRENT_MMAP_BAR2_WC + s->bar2_size < max,
	      "QUERY_MAPPINGS sizes are page multiples, bases + sizes below 2^44",
	      "BAR2 %#llx", s->bar2_size);
	check(ret == 0 && !memcmp(&m[2], zero, 6 * sizeof(m[0])) &&
		      first_not((unsigned char *)&m[8], 0, 8 * sizeof(m[0]),
				FILL) < 0,
	      "QUERY_MAPPINGS zeroes the unused requested entries, no more",
	      NULL);

	ret = query(fd, 1, m);
	check(ret == 0 && !memcmp(m, want, sizeof(m[0])) &&
		      first_not((unsigned char *)&m[1], 0, 15 * sizeof(m[0]),
				FILL) < 0,
	      "QUERY_MAPPINGS with count 1 writes the first entry only", NULL);
	ret = query(fd, 0, m);
	check(ret == 0 &&
		      first_not((unsigned char *)m, 0, sizeof(m), FILL) < 0,
	      "QUERY_MAPPINGS with count 0 writes nothing", NULL);

	/* in at the end of a page: count 0 fine, count 1 faults */
	p = guarded_page();
	in = (uint32_t *)(p + PAGE - 8);
	in[0] = 0;
	in[1] = 0;
	check(is(try_ioctl(fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS, in), "0"),
	      "QUERY_MAPPINGS count 0 at a page end succeeds", NULL);
	in[0] = 1;
	check(is(try_ioctl(fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS, in), "EFAULT"),
	      "QUERY_MAPPINGS into an inaccessible page is EFAULT", NULL);
	/* a huge count: entries to the guard, then EFAULT */
	in = (uint32_t *)(p + PAGE - 8 - 3 * sizeof(m[0]));
	in[0] = UINT32_MAX;
	in[1] = 0;
	ret = ioctl(fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS, in);
	check(ret && errno == EFAULT &&
		      first_not(p, 0, PAGE - 8 - 3 * sizeof(m[0]), FILL) < 0,
	      "QUERY_MAPPINGS with count 2^32-1 is EFAULT, nothing before it changes",
	      "%s", err_name(ret ? errno : 0));
	check(is(try_ioctl(fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS, NULL), "EFAULT"),
	      "QUERY_MAPPINGS with a NULL argument is EFAULT", NULL);
	munmap(p, 2 * PAGE);
	free(zero);
}

static void abi_commands(int fd)
{
	static const unsigned long unimplemented[UNIMPLEMENTED_COUNT] = {
		TENSTORRENT_IOCTL_RESET_DEVICE,
		TENSTORRENT_IOCTL_PIN_PAGES,
		TENSTORRENT_IOCTL_LOCK_CTL,
		TENSTORRENT_IOCTL_MAP_PEER_BAR,
		TENSTORRENT_IOCTL_UNPIN_PAGES,
		TENSTORRENT_IOCTL_SET_NOC_CLEANUP,
		TENSTORRENT_IOCTL_SET_POWER_STATE,
		TENSTORRENT_IOCTL_EXPORT_TLB_DMABUF,
		TENSTORRENT_IOCTL_DMA_QUEUE_SUBMIT,
		TENSTORRENT_IOCTL_DMA_QUEUE_WAIT,
		TENSTORRENT_IOCTL_DMA_QUEUE_QUERY,
	};
	static const unsigned long unknown[] = {
		TENSTORRENT_IOCTL_GET_HARVESTING,
		TENSTORRENT_IOCTL_FREE_DMA_BUF,
		_IO(TENSTORRENT_IOCTL_MAGIC, 17),
		_IO(TENSTORRENT_IOCTL_MAGIC, 0x7f),
		_IO(TENSTORRENT_IOCTL_MAGIC, 0x83),
		_IO(TENSTORRENT_IOCTL_MAGIC, 0xff),
		_IO(0xFB, 0),
		_IOWR(TENSTORRENT_IOCTL_MAGIC, 0,
		      struct tenstorrent_get_device_info),
		_IOR(TENSTORRENT_IOCTL_MAGIC, 5,
		     struct tenstorrent_get_driver_info),
		0,
	};
	unsigned char arg[256] = { 0 };
	char what[96];
	size_t i;

	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		snprintf(what, sizeof(what), "command %#lx is EINVAL",
			 unknown[i]);
		check(is(try_ioctl(fd, unknown[i], arg), "EINVAL"), what, "%s",
		      try_ioctl(fd, unknown[i], arg));
	}
	for (i = 0; i < UNIMPLEMENTED_COUNT; i++) {
		snprintf(what, sizeof(what),
			 "command %#lx (not implemented yet) is EOPNOTSUPP",
			 unimplemented[i]);
		check(is(try_ioctl(fd, unimplemented[i], arg), "EOPNOTSUPP"),
		      what, "%s", try_ioctl(fd, unimplemented[i], arg));
	}
}

static int cmd_abi(const char *path, int fd)
{
	struct sysfs_dev s;

	if (!check(sysfs_of(path, &s) == 0, "sysfs describes the node", "%s",
		   path))
		return 0;
	abi_device_info(fd, &s);
	abi_driver_info(fd);
	abi_output_size(fd, "GET_DEVICE_INFO",
			TENSTORRENT_IOCTL_GET_DEVICE_INFO,
			sizeof(struct tenstorrent_get_device_info_out));
	abi_output_size(fd, "GET_DRIVER_INFO",
			TENSTORRENT_IOCTL_GET_DRIVER_INFO,
			sizeof(struct tenstorrent_get_driver_info_out));
	abi_query_mappings(fd, &s);
	abi_commands(fd);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* excl: open(2) flags                                                    */

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Exit status of child `pid` if it ends within `ms`, else -1. */
static int wait_child(pid_t pid, long ms)
{
	int status;

	for (long t = 0; t <= ms; t += 10) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
		sleep_ms(10);
	}
	return -1;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * fork() for the checks: the child drops the files it inherited but
 * `keep` (-1: none): they are the parent's open files, and count as open
 * for O_EXCL.
 */
static pid_t spawn_keep(int keep)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	if (keep > 3)
		close_range(3, keep - 1, 0);
	close_range(keep >= 3 ? keep + 1 : 3, ~0U, 0);
	return 0;
}

static pid_t spawn(void)
{
	return spawn_keep(-1);
}

/* A child that opens `path` with `flags` and exits with the errno (0). */
static pid_t spawn_open(const char *path, int flags)
{
	pid_t pid = spawn();
	int fd;

	if (pid)
		return pid;
	fd = open_dev(path, flags);
	_exit(fd < 0 ? -fd : 0);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* A child whose blocking open is interrupted by a signal handler. */
static pid_t spawn_interrupted_open(const char *path)
{
	struct sigaction sa = { .sa_handler = on_alarm }; /* no SA_RESTART */
	pid_t pid = spawn();
	int fd;

	if (pid)
		return pid;
	sigaction(SIGALRM, &sa, NULL);
	alarm(1);
	fd = open_dev(path, 0);
	_exit(fd < 0 ? -fd : 0);
}

/* A child holding an O_EXCL file until killed; returns once it holds it. */
static pid_t spawn_holder(const char *path)
{
	int pfd[2], fd;
	char c = 0;
	pid_t pid;

	if (pipe(pfd))
		return -1;
	pid = spawn_keep(pfd[1]);
	if (!pid) {
		fd = open_dev(path, O_EXCL);
		c = fd < 0 ? 'n' : 'y';
		if (write(pfd[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(pfd[1]);
	if (read(pfd[0], &c, 1) != 1 || c != 'y') {
		reap(pid);
		pid = -1;
	}
	close(pfd[0]);
	return pid;
}

static void excl_same_process(const char *path)
{
	int a, b, c;

	a = open_dev(path, O_EXCL | O_NONBLOCK);
	check(a >= 0, "O_EXCL open of an idle device succeeds", "%s",
	      err_name(-a));
	b = open_dev(path, O_NONBLOCK);
	check(b == -EAGAIN, "O_NONBLOCK open while O_EXCL is held is EAGAIN",
	      "%s", err_name(b < 0 ? -b : 0));
	c = open_dev(path, O_EXCL | O_NONBLOCK);
	check(c == -EAGAIN, "second O_EXCL|O_NONBLOCK open is EAGAIN", "%s",
	      err_name(c < 0 ? -c : 0));
	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	if (c >= 0)
		close(c);

	a = open_dev(path, O_NONBLOCK);
	b = open_dev(path, O_APPEND | O_NONBLOCK);
	check(a >= 0 && b >= 0,
	      "after close: two plain opens (one O_APPEND) succeed", "%s %s",
	      err_name(a < 0 ? -a : 0), err_name(b < 0 ? -b : 0));
	c = open_dev(path, O_EXCL | O_NONBLOCK);
	check(c == -EAGAIN, "O_EXCL|O_NONBLOCK while others are open is EAGAIN",
	      "%s", err_name(c < 0 ? -c : 0));
	if (c >= 0)
		close(c);
	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	c = open_dev(path, O_EXCL | O_NONBLOCK);
	check(c >= 0, "O_EXCL open succeeds once all are closed", "%s",
	      err_name(c < 0 ? -c : 0));
	if (c >= 0)
		close(c);
}

static void excl_processes(const char *path)
{
	pid_t holder, waiter;
	int fd, st;

	holder = spawn_holder(path);
	if (!check(holder > 0, "another process holds an O_EXCL file", NULL))
		return;
	fd = open_dev(path, O_NONBLOCK);
	check(fd == -EAGAIN,
	      "O_NONBLOCK open while another process holds O_EXCL is EAGAIN",
	      "%s", err_name(fd < 0 ? -fd : 0));
	if (fd >= 0)
		close(fd);
	waiter = spawn_open(path, 0);
	st = wait_child(waiter, 300);
	check(st < 0, "a blocking open waits while O_EXCL is held",
	      "ended with %s", err_name(st));
	st = wait_child(spawn_interrupted_open(path), 5000);
	check(st == EINTR,
	      "a signal (no SA_RESTART) ends the waiting open with EINTR",
	      "%s", err_name(st));
	reap(holder);
	st = wait_child(waiter, 5000);
	check(st == 0, "the waiting open succeeds when the holder is killed",
	      "%s", st < 0 ? "still waiting" : err_name(st));
	if (st < 0)
		reap(waiter);

	/* An O_EXCL open waits for plain files to close. */
	fd = open_dev(path, 0);
	waiter = spawn_open(path, O_EXCL);
	st = wait_child(waiter, 300);
	check(fd >= 0 && st < 0, "an O_EXCL open waits while a file is open",
	      "ended with %s", err_name(st));
	if (fd >= 0)
		close(fd);
	st = wait_child(waiter, 5000);
	check(st == 0, "the waiting O_EXCL open succeeds after the close", "%s",
	      st < 0 ? "still waiting" : err_name(st));
	if (st < 0)
		reap(waiter);
}

static int cmd_excl(const char *path)
{
	excl_same_process(path);
	excl_processes(path);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* mmap                                                                   */

static sigjmp_buf fault_jmp;

static void on_sigbus(int sig)
{
	siglongjmp(fault_jmp, sig);
}

/* Read a u32 from a mapping; SIGBUS/SIGSEGV give -signal. */
static int64_t peek32(const volatile void *addr)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, obus, osegv;
	int64_t v;
	int sig;

	sigaction(SIGBUS, &sa, &obus);
	sigaction(SIGSEGV, &sa, &osegv);
	sig = sigsetjmp(fault_jmp, 1);
	v = sig ? -(int64_t)sig : (int64_t)*(const volatile uint32_t *)addr;
	sigaction(SIGBUS, &obus, NULL);
	sigaction(SIGSEGV, &osegv, NULL);
	return v;
}

static void *map(int fd, uint64_t off, size_t len, int flags, int *err)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd, (off_t)off);

	*err = p == MAP_FAILED ? errno : 0;
	return p == MAP_FAILED ? NULL : p;
}

static bool signed_image(const volatile unsigned char *img)
{
	return peek32(img + TT_IMAGE_IDENTITY_OFF) == TT_IDENTITY_MAGIC_LO &&
	       peek32(img + TT_IMAGE_IDENTITY_OFF + 4) == TT_IDENTITY_MAGIC_HI;
}

/* mmap at `off` must fail with `want` */
static void map_refused(int fd, uint64_t off, size_t len, int flags,
			int want, const char *what)
{
	int err;
	void *p = map(fd, off, len, flags, &err);

	check(!p && err == want, what, "%s", p ? "mapped" : err_name(err));
	if (p)
		munmap(p, len);
}

static void mmap_refusals(int fd, size_t size)
{
	const int sh = MAP_SHARED;

	map_refused(fd, TENSTORRENT_MMAP_BAR2_UC + size - PAGE, 2 * PAGE, sh,
		    EINVAL, "mmap across the end of BAR2 is EINVAL");
	map_refused(fd, TENSTORRENT_MMAP_BAR2_UC + size, PAGE, sh, EINVAL,
		    "mmap at the end of BAR2 is EINVAL");
	map_refused(fd, TENSTORRENT_MMAP_BAR2_WC, size + PAGE, sh, EINVAL,
		    "mmap longer than BAR2 (WC) is EINVAL");
	map_refused(fd, TENSTORRENT_MMAP_BAR2_UC + (1ULL << 35), PAGE, sh,
		    EINVAL, "mmap far inside the BAR2 region, beyond the BAR, is EINVAL");
	map_refused(fd, TENSTORRENT_MMAP_BAR2_UC, PAGE, MAP_PRIVATE, EINVAL,
		    "private mmap of BAR2 is EINVAL");
	map_refused(fd, TENSTORRENT_MMAP_BAR0_UC, PAGE, sh, EINVAL,
		    "mmap of BAR0 (ivshmem's registers, not offered) is EINVAL");
	map_refused(fd, TENSTORRENT_MMAP_BAR4_WC, PAGE, sh, EINVAL,
		    "mmap of BAR4 (absent) is EINVAL");
	map_refused(fd, TENSTORRENT_MMAP_TLB_UC, PAGE, sh, EPERM,
		    "mmap of a TLB window this fd does not own is EPERM");
	map_refused(fd, TENSTORRENT_MMAP_DMA_BUF(PAGE, 0), PAGE, sh, EINVAL,
		    "mmap of a DMA buffer (none allocated) is EINVAL");
	map_refused(fd, 1ULL << 44, PAGE, sh, EINVAL,
		    "mmap at 2^44 is EINVAL");
}

static void mmap_windows(int fd, size_t size)
{
	volatile unsigned char *uc, *wc, *last;
	uint32_t old;
	int err;

	uc = map(fd, TENSTORRENT_MMAP_BAR2_UC, size, MAP_SHARED, &err);
	check(uc && signed_image(uc),
	      "UC mapping of BAR2 reads the identity signature", "%s",
	      uc ? "wrong signature" : err_name(err));
	wc = map(fd, TENSTORRENT_MMAP_BAR2_WC, size, MAP_SHARED, &err);
	check(wc && signed_image(wc),
	      "WC mapping of BAR2 reads the identity signature", "%s",
	      wc ? "wrong signature" : err_name(err));
	last = map(fd, TENSTORRENT_MMAP_BAR2_UC + size - PAGE, PAGE,
		   MAP_SHARED, &err);
	check(last && uc && peek32(last) == peek32(uc + size - PAGE),
	      "a one-page mapping at the end of BAR2 shows that page", "%s",
	      last ? "differs" : err_name(err));
	if (uc && wc && last) {
		/* The last word of the image: unused by these tests. */
		old = *(volatile uint32_t *)(last + PAGE - 4);
		*(volatile uint32_t *)(uc + size - 4) = 0x5a5aa5a5;
		__sync_synchronize();
		check(peek32(wc + size - 4) == 0x5a5aa5a5 &&
			      peek32(last + PAGE - 4) == 0x5a5aa5a5,
		      "a write through UC is seen through WC and another mapping",
		      NULL);
		*(volatile uint32_t *)(uc + size - 4) = old;
	}
	if (last)
		munmap((void *)last, PAGE);
	if (wc)
		munmap((void *)wc, size);
	if (uc)
		munmap((void *)uc, size);
}

static int cmd_mmap(const char *path, int fd)
{
	volatile unsigned char *uc;
	struct sysfs_dev s;
	int err;

	if (!check(sysfs_of(path, &s) == 0 && s.bar2_size,
		   "sysfs gives BAR2's size", "%s", path))
		return 0;
	mmap_windows(fd, s.bar2_size);
	mmap_refusals(fd, s.bar2_size);

	/* A mapping keeps the file: it outlives close(2). */
	uc = map(fd, TENSTORRENT_MMAP_BAR2_UC, PAGE, MAP_SHARED, &err);
	close(fd);
	check(uc && signed_image(uc), "a mapping outlives the closed fd", "%s",
	      uc ? "wrong signature" : err_name(err));
	if (uc)
		munmap((void *)uc, PAGE);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* unbind                                                                 */

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : write(fd, s, strlen(s));

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static int cmd_unbind(const char *path, const char *bdf)
{
	struct tenstorrent_get_device_info_out o;
	volatile unsigned char *uc;
	char self[64];
	pid_t waiter;
	int fd, err, st;
	void *p;

	fd = open_dev(path, O_EXCL);
	if (!check(fd >= 0, "O_EXCL open before unbind", "%s", err_name(-fd)))
		return 0;
	uc = map(fd, TENSTORRENT_MMAP_BAR2_UC, PAGE, MAP_SHARED, &err);
	check(uc && signed_image(uc), "mapping before unbind reads the signature",
	      "%s", uc ? "wrong signature" : err_name(err));
	waiter = spawn_open(path, 0);
	st = wait_child(waiter, 200);
	check(st < 0, "a second open waits", "ended with %s", err_name(st));

	check(write_file("/sys/bus/pci/drivers/tenstorrent/unbind", bdf) == 0,
	      "unbind with an O_EXCL file, a mapping and a waiting open", NULL);
	st = wait_child(waiter, 5000);
	check(st == ENODEV, "the waiting open fails with ENODEV", "%s",
	      st < 0 ? "still waiting" : err_name(st));
	if (st < 0)
		reap(waiter);
	if (uc) {
		int64_t v = peek32(uc);

		check(v == -SIGBUS, "the mapping is zapped: a read is SIGBUS",
		      "read %#llx", (long long)v);
	}
	st = get_device_info(fd, &o);
	check(st == -ENODEV, "GET_DEVICE_INFO after unbind is ENODEV", "%s",
	      err_name(-st));
	check(is(try_ioctl(fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS, &o), "ENODEV"),
	      "QUERY_MAPPINGS after unbind is ENODEV", NULL);
	p = map(fd, TENSTORRENT_MMAP_BAR2_UC, PAGE, MAP_SHARED, &err);
	check(!p && err == ENODEV, "mmap after unbind is ENODEV", "%s",
	      p ? "mapped" : err_name(err));
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	st = open_dev(self, 0);
	check(st == -ENODEV, "reopening the file after unbind is ENODEV", "%s",
	      err_name(st < 0 ? -st : 0));
	if (uc)
		munmap((void *)uc, PAGE);
	close(fd);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* model: the node is the chip model, served by ttsim over ivshmem-doorbell */

/* ivshmem's BAR0 registers (QEMU docs/specs/ivshmem-spec.rst). */
#define IVSHMEM_IVPOSITION 8
#define IVSHMEM_DOORBELL 12
/* Peer 1 (the device, ttsim), vector 0. */
#define IVSHMEM_RING_DEVICE ((1u << 16) | 0u)

struct model_want {
	uint32_t arch, board, chip, grid_x, grid_y, tensix;
};

static void model_identity(const volatile unsigned char *img,
			   const struct model_want *w)
{
	const volatile struct tt_identity *id =
		(const volatile void *)(img + TT_IMAGE_IDENTITY_OFF);

	check(signed_image(img), "BAR2 starts with the identity signature",
	      "%#llx %#llx", (long long)peek32(&id->magic_lo),
	      (long long)peek32(&id->magic_hi));
	check(id->state == TT_DEV_STATE_READY,
	      "device state is READY (the model's firmware runs)", "state %u",
	      id->state);
	check(id->arch == w->arch && id->board == w->board &&
		      id->chip_index == w->chip,
	      "arch, board and chip equal what ttsim printed",
	      "arch %u board %u chip %u, want %u %u %u", id->arch, id->board,
	      id->chip_index, w->arch, w->board, w->chip);
	check(id->grid_x == w->grid_x && id->grid_y == w->grid_y &&
		      id->tensix_count == w->tensix,
	      "grid and Tensix count equal what ttsim printed",
	      "grid %ux%u, %u Tensix, want %ux%u, %u", id->grid_x, id->grid_y,
	      id->tensix_count, w->grid_x, w->grid_y, w->tensix);
}

/* BAR0 of the function through sysfs: the driver offers only BAR2. */
static volatile uint32_t *map_bar0(const char *bdf, int *err)
{
	char path[PATH_MAX];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource0", bdf);
	fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return NULL;
	}
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	*err = p == MAP_FAILED ? errno : 0;
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/* Ring the device's doorbell; the daemon kicks the model, which bumps
 * doorbell_seq in the host registers (hw/host.h): the ring's effect. */
static void model_doorbell(const volatile unsigned char *img, const char *bdf)
{
	const volatile struct tt_host_regs *regs =
		(const volatile void *)(img + TT_IMAGE_HOST_REGS_OFF);
	volatile uint32_t *bar0;
	uint32_t seq;
	int err, ms;

	bar0 = map_bar0(bdf, &err);
	if (!check(bar0, "BAR0 (ivshmem registers) maps through sysfs", "%s",
		   err_name(err)))
		return;
	check(bar0[IVSHMEM_IVPOSITION / 4] == 0, "IVPosition is 0 (peer 0)",
	      "%u", bar0[IVSHMEM_IVPOSITION / 4]);
	seq = regs->doorbell_seq;
	bar0[IVSHMEM_DOORBELL / 4] = IVSHMEM_RING_DEVICE;
	for (ms = 0; ms < 5000 && regs->doorbell_seq == seq; ms += 10)
		sleep_ms(10);
	check(regs->doorbell_seq != seq,
	      "ringing the doorbell (BAR0+12) moves the model's doorbell_seq",
	      "still %u after 5 s", seq);
	munmap((void *)bar0, PAGE);
}

static int cmd_model(const char *path, int fd, const char *bdf, char **num)
{
	struct tenstorrent_get_device_info_out o;
	struct model_want w;
	volatile unsigned char *img;
	int err;

	w = (struct model_want){ atoi(num[0]), atoi(num[1]), atoi(num[2]),
				 atoi(num[3]), atoi(num[4]), atoi(num[5]) };
	err = -get_device_info(fd, &o);
	check(!err && o.vendor_id == 0x1af4 && o.device_id == 0x1110,
	      "GET_DEVICE_INFO gives ivshmem's ids", "%s, ids %04x:%04x",
	      err_name(err), o.vendor_id, o.device_id);
	img = map(fd, TENSTORRENT_MMAP_BAR2_UC, TT_IMAGE_NODE_TABLE_OFF,
		  MAP_SHARED, &err);
	if (!check(img, "mmap of BAR2's first pages", "%s on %s",
		   err_name(err), path))
		return 0;
	model_identity(img, &w);
	model_doorbell(img, bdf);
	munmap((void *)img, TT_IMAGE_NODE_TABLE_OFF);
	return 0;
}

static int cmd_unknown(const char *arg)
{
	int fd;

	if (isdigit((unsigned char)arg[0])) {
		fd = atoi(arg);
	} else {
		fd = open_dev(arg, 0);
		if (fd < 0) {
			printf("open: %s\n", err_name(-fd));
			return 0;
		}
	}
	printf("ioctl: %s\n",
	       try_ioctl(fd, _IO(TENSTORRENT_IOCTL_MAGIC, 0xff), NULL));
	return 0;
}

static int cmd_open(const char *path, const char *flags, int secs)
{
	int f = parse_flags(flags), fd;

	if (f < 0) {
		fprintf(stderr, "ttvm-ioctl: bad flags %s\n", flags);
		return 2;
	}
	fd = open(path, f);
	printf("open: %s\n", err_name(fd < 0 ? errno : 0));
	fflush(stdout);
	if (fd >= 0 && secs > 0)
		sleep(secs);
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: ttvm-ioctl unknown PATH|FD | open PATH FLAGS |\n"
		"       hold PATH FLAGS SECS | info|driver|abi|excl|mmap PATH |\n"
		"       unbind PATH BDF |\n"
		"       model PATH BDF ARCH BOARD CHIP GRID_X GRID_Y TENSIX\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && is(cmd, "unknown"))
		return cmd_unknown(argv[2]);
	if (argc == 4 && is(cmd, "open"))
		return cmd_open(argv[2], argv[3], 0);
	if (argc == 5 && is(cmd, "hold"))
		return cmd_open(argv[2], argv[3], atoi(argv[4]));
	if (argc == 4 && is(cmd, "unbind"))
		return cmd_unbind(argv[2], argv[3]);
	if (argc == 3 && is(cmd, "excl"))
		return cmd_excl(argv[2]);
	if (argc == 10 && is(cmd, "model")) {
		fd = open_dev(argv[2], 0);
		if (fd < 0)
			return !check(false, "open", "%s", err_name(-fd));
		return cmd_model(argv[2], fd, argv[3], argv + 4);
	}
	if (argc != 3 || !(is(cmd, "info") || is(cmd, "driver") ||
			   is(cmd, "abi") || is(cmd, "mmap")))
		return usage();

	fd = open_dev(argv[2], 0);
	if (fd < 0) {
		printf("open: %s\n", err_name(-fd));
		return 0;
	}
	if (is(cmd, "info"))
		return cmd_info(fd);
	if (is(cmd, "driver"))
		return cmd_driver(fd);
	if (is(cmd, "abi"))
		return cmd_abi(argv[2], fd);
	return cmd_mmap(argv[2], fd);
}
