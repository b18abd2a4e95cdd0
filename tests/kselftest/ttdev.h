/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * Helpers for programs that test /dev/tenstorrent/N from user space: the
 * kselftests here and tests/vm/guest/ttvm-ioctl.c. Needs libc,
 * <linux/tenstorrent.h> (uapi/) and <hw/host.h> (firmware/include/), not
 * the kselftest harness, which ttvm-ioctl does not use: the one macro that
 * uses it, ASSERT_OPEN_DEVICE, is expanded only in kselftests. Everything
 * is static inline, so a program pays only for what it uses and no
 * unused-function warning fires.
 *
 * Conventions: a function that can fail returns -errno (or NULL and the
 * errno through *err); none prints.
 */
#ifndef TT_TESTS_KSELFTEST_TTDEV_H
#define TT_TESTS_KSELFTEST_TTDEV_H

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
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

#include <hw/arch.h>
#include <hw/dmaeng.h>
#include <hw/host.h>
#include <linux/tenstorrent.h>

/* The guests' page size; mmap offsets and lengths are in these. */
#define PAGE 4096UL

/* The device under test of a kselftest: $TT_DEVICE, by default node 0. */
static inline const char *tt_device(void)
{
	const char *path = getenv("TT_DEVICE");

	return path && *path ? path : "/dev/tenstorrent/0";
}

/* An errno's name ("EINVAL"), or "0"; for messages. */
static inline const char *err_name(int e)
{
	const char *s = e ? strerrorname_np(e) : "0";

	return s ? s : "unknown-errno";
}

/* open(2) of a node, read-write as every user opens it: fd or -errno. */
static inline int open_dev(const char *path, int flags)
{
	int fd = open(path, flags | O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/*
 * In a kselftest's FIXTURE_SETUP (a macro, so that the harness's ASSERT
 * is expanded only there): open the device under test into `fd` with
 * `flags`, or fail the test saying which node and why.
 */
#define ASSERT_OPEN_DEVICE(fd, flags)                                        \
	do {                                                                 \
		(fd) = open_dev(tt_device(), (flags));                       \
		ASSERT_LE(0, (fd))                                           \
		TH_LOG("cannot open %s ($TT_DEVICE): %s", tt_device(),       \
		       strerror(-(fd)));                                     \
	} while (0)

static inline int get_device_info(int fd,
				  struct tenstorrent_get_device_info_out *o)
{
	struct tenstorrent_get_device_info a = {
		.in.output_size_bytes = sizeof(a.out)
	};

	if (ioctl(fd, TENSTORRENT_IOCTL_GET_DEVICE_INFO, &a))
		return -errno;
	*o = a.out;
	return 0;
}

/* RESET_DEVICE with `flags`: out.result (0 or 1), or -errno. */
static inline int reset_device(int fd, uint32_t flags)
{
	struct tenstorrent_reset_device a = {
		.in.output_size_bytes = sizeof(a.out),
		.in.flags = flags,
		.out.result = 0xEE,
	};

	if (ioctl(fd, TENSTORRENT_IOCTL_RESET_DEVICE, &a))
		return -errno;
	return (int)a.out.result;
}

/* LOCK_CTL `op` on lock `index`: out.value, or -errno. */
static inline int lock_ctl(int fd, uint32_t op, unsigned int index)
{
	struct tenstorrent_lock_ctl a = {
		.in.output_size_bytes = sizeof(a.out),
		.in.flags = op,
		.in.index = (uint8_t)index,
	};

	if (ioctl(fd, TENSTORRENT_IOCTL_LOCK_CTL, &a))
		return -errno;
	return a.out.value;
}

/* ---------------------------------------------------------------------- */
/* sysfs facts about a node, to compare the ioctls and mappings with       */

struct sysfs_dev {
	unsigned int vendor, device, subvendor, subdevice;
	unsigned int domain, bus, slot, func;
	unsigned long long bar2_size;
};

/* A hex attribute of a PCI function; ~0u if it cannot be read. */
static inline unsigned int read_hex(const char *dir, const char *name)
{
	char path[PATH_MAX + 32]; /* dir is a path, name a short word */
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

/* The sysfs directory of the PCI function behind char device `node`, in
 * dir[PATH_MAX]: 0 or -1. */
static inline int pci_dir_of(const char *node, char *dir)
{
	char link[PATH_MAX];
	struct stat st;

	if (stat(node, &st) || !S_ISCHR(st.st_mode))
		return -1;
	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device",
		 major(st.st_rdev), minor(st.st_rdev));
	return realpath(link, dir) ? 0 : -1;
}

/* The kernel's IORESOURCE_MEM, in the flags of sysfs "resource" lines. */
#define RESOURCE_MEM 0x200

struct pci_resource {
	unsigned long long start, size, flags;
};

/* Resource `bar` of the PCI function at `dir` (its "resource" file); size
 * 0 if it has none. 0, or -1 if the file cannot be read. */
static inline int pci_resource_of(const char *dir, unsigned int bar,
				  struct pci_resource *r)
{
	unsigned long long end;
	char path[PATH_MAX + 16]; /* dir is a path */
	FILE *f;
	int ret = -1;

	snprintf(path, sizeof(path), "%s/resource", dir);
	f = fopen(path, "r");
	for (unsigned int i = 0; f && i <= bar; i++) {
		if (fscanf(f, "%llx %llx %llx", &r->start, &end, &r->flags) !=
		    3)
			break;
		if (i == bar) {
			r->size = end > r->start ? end - r->start + 1 : 0;
			ret = 0;
		}
	}
	if (f)
		fclose(f);
	return ret;
}

/* BAR2's size from the function's "resource" file; 0 if absent. */
static inline unsigned long long bar2_size_of(const char *dir)
{
	struct pci_resource r;

	return pci_resource_of(dir, 2, &r) ? 0 : r.size;
}

/* What sysfs says about the PCI function behind char device `node`. */
static inline int sysfs_of(const char *node, struct sysfs_dev *s)
{
	char dir[PATH_MAX];

	if (pci_dir_of(node, dir))
		return -1;
	if (sscanf(basename(dir), "%x:%x:%x.%x", &s->domain, &s->bus,
		   &s->slot, &s->func) != 4)
		return -1;
	s->vendor = read_hex(dir, "vendor");
	s->device = read_hex(dir, "device");
	s->subvendor = read_hex(dir, "subsystem_vendor");
	s->subdevice = read_hex(dir, "subsystem_device");
	s->bar2_size = bar2_size_of(dir);
	return 0;
}

/* The sysfs directory of `node`'s class device ("tenstorrent!N"), or with
 * `pci` that of its PCI function, into dir[PATH_MAX]: 0 or -errno. */
static inline int sysfs_dir_of(const char *node, bool pci, char *dir)
{
	char link[64];
	struct stat st;

	if (stat(node, &st))
		return -errno;
	if (!S_ISCHR(st.st_mode))
		return -ENOTTY;
	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u%s",
		 major(st.st_rdev), minor(st.st_rdev), pci ? "/device" : "");
	return realpath(link, dir) ? 0 : -errno;
}

/* Write `s` to a sysfs file in one write(2): 0 or -errno. */
static inline int write_sysfs(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	err = n < 0 ? errno : 0;
	close(fd);
	if (n < 0)
		return -err;
	return n == (ssize_t)strlen(s) ? 0 : -EIO;
}

/* A sysfs file's text without its trailing newline, into buf[len]: its
 * length, or -errno (the show() callback's error for an attribute). */
static inline int read_sysfs(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = n < 0 ? errno : 0;
	close(fd);
	if (n < 0)
		return -err;
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = 0;
	return (int)n;
}

/* Does `path` exist (without following a last symbolic link)? */
static inline bool path_exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* ---------------------------------------------------------------------- */
/* mappings                                                               */

static sigjmp_buf fault_jmp;

static inline void on_fault(int sig)
{
	siglongjmp(fault_jmp, sig);
}

/* Read a u32 from a mapping; SIGBUS/SIGSEGV give -signal. */
static inline int64_t peek32(const volatile void *addr)
{
	struct sigaction sa = { .sa_handler = on_fault }, obus, osegv;
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

/* A read-write mapping of the node at `off`; NULL and *err on failure. */
static inline void *map(int fd, uint64_t off, size_t len, int flags, int *err)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd, (off_t)off);

	*err = p == MAP_FAILED ? errno : 0;
	return p == MAP_FAILED ? NULL : p;
}

/* ivshmem's BAR0 registers (QEMU docs/specs/ivshmem-spec.rst). */
#define IVSHMEM_IVPOSITION 8
#define IVSHMEM_DOORBELL 12
/* Peer 1 (the device, ttsim), vector 0. */
#define IVSHMEM_RING_DEVICE ((1u << 16) | 0u)

/* ivshmem's BAR0 of PCI function `bdf` ("0000:00:10.0") through sysfs:
 * the doorbell to the device; NULL and *err on failure. */
static inline volatile uint32_t *map_bar0(const char *bdf, int *err)
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

/* The device image's identity page starts with the signature. */
static inline bool signed_image(const volatile unsigned char *img)
{
	return peek32(img + TT_IMAGE_IDENTITY_OFF) == TT_IDENTITY_MAGIC_LO &&
	       peek32(img + TT_IMAGE_IDENTITY_OFF + 4) == TT_IDENTITY_MAGIC_HI;
}

/*
 * The device image's identity page and a copy of its node table (hw/host.h),
 * read through BAR2: 0 or -errno. *table is malloc'd, free() it. The grid
 * is checked against the NOC's 64 x 64 before it sizes anything.
 */
static inline int read_node_table(int fd, struct tt_identity *id,
				  struct tt_node_desc **table)
{
	const size_t len = TT_IMAGE_NODE_TABLE_OFF +
			   64 * 64 * sizeof(struct tt_node_desc);
	uint8_t *bar;
	size_t n;
	int err;

	*table = NULL;
	bar = map(fd, TENSTORRENT_MMAP_BAR2_UC, len, MAP_SHARED, &err);
	if (!bar)
		return -err;
	memcpy(id, bar, sizeof(*id));
	n = (size_t)id->grid_x * id->grid_y;
	if (id->grid_x <= 64 && id->grid_y <= 64)
		*table = calloc(n + 1, sizeof(**table));
	if (*table)
		memcpy(*table, bar + TT_IMAGE_NODE_TABLE_OFF,
		       n * sizeof(**table));
	munmap(bar, len);
	if (id->grid_x > 64 || id->grid_y > 64)
		return -ERANGE;
	return *table ? 0 : -ENOMEM;
}

/* Write a u32 to a mapping: 0, or -signal for SIGBUS/SIGSEGV. */
static inline int poke32(volatile void *addr, uint32_t v)
{
	struct sigaction sa = { .sa_handler = on_fault }, obus, osegv;
	int sig;

	sigaction(SIGBUS, &sa, &obus);
	sigaction(SIGSEGV, &sa, &osegv);
	sig = sigsetjmp(fault_jmp, 1);
	if (!sig)
		*(volatile uint32_t *)addr = v;
	sigaction(SIGBUS, &obus, NULL);
	sigaction(SIGSEGV, &osegv, NULL);
	return -sig;
}

/* The first Tensix node of the image whose memory lies in it, page-aligned
 * and at least a page long, into *n: 0, -ENOENT if there is none, or
 * -errno. A TLB window pointed at it shows the image's copy. */
static inline int first_tensix(int fd, struct tt_node_desc *n)
{
	struct tt_node_desc *table;
	struct tt_identity id = {0};
	int ret = read_node_table(fd, &id, &table);

	if (ret)
		return ret;
	ret = -ENOENT;
	for (uint32_t i = 0; i < id.grid_x * id.grid_y && ret; i++) {
		const struct tt_node_desc *d = &table[i];

		if (d->type != TT_NODE_TENSIX ||
		    (d->flags & TT_NODE_F_HARVESTED) || d->mem_size < PAGE ||
		    d->mem_off % PAGE || d->mem_off > id.image_size ||
		    d->mem_size > id.image_size - d->mem_off)
			continue;
		*n = *d;
		ret = 0;
	}
	free(table);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* TLB windows                                                             */

/* ALLOCATE_TLB of the chip's smallest window (1 MiB on Wormhole, 2 MiB on
 * Blackhole; the other is EINVAL): 0 or -errno; *size gets the size. */
static inline int tlb_alloc_smallest(int fd,
				     struct tenstorrent_allocate_tlb_out *out,
				     uint64_t *size)
{
	static const uint64_t sizes[] = { 1 << 20, 2 << 20 };

	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct tenstorrent_allocate_tlb a = { .in.size = sizes[i] };

		if (!ioctl(fd, TENSTORRENT_IOCTL_ALLOCATE_TLB, &a)) {
			*out = a.out;
			*size = sizes[i];
			return 0;
		}
		if (errno != EINVAL)
			return -errno;
	}
	return -EINVAL;
}

static inline int tlb_free(int fd, uint32_t id)
{
	struct tenstorrent_free_tlb f = { .in.id = id };

	return ioctl(fd, TENSTORRENT_IOCTL_FREE_TLB, &f) ? -errno : 0;
}

/* CONFIGURE_TLB: window `id` onto local address `addr` of node (x, y) on
 * NOC 0, unicast: 0 or -errno. */
static inline int tlb_point(int fd, uint32_t id, uint8_t x, uint8_t y,
			    uint64_t addr)
{
	struct tenstorrent_configure_tlb t = {
		.in.id = id,
		.in.config = { .addr = addr, .x_end = x, .y_end = y },
	};

	return ioctl(fd, TENSTORRENT_IOCTL_CONFIGURE_TLB, &t) ? -errno : 0;
}

/* EXPORT_TLB_DMABUF of [offset, offset + size) of window `id`: the dma-buf
 * fd, or -errno. */
static inline int export_tlb(int fd, uint32_t id, uint64_t offset,
			     uint64_t size)
{
	struct tenstorrent_export_tlb_dmabuf e = {
		.argsz = sizeof(e), .tlb_id = id, .offset = offset, .size = size,
	};

	return ioctl(fd, TENSTORRENT_IOCTL_EXPORT_TLB_DMABUF, &e) ? -errno :
								     e.fd;
}

/* ---------------------------------------------------------------------- */
/* processes: opens that wait are watched from another process             */

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Exit status of child `pid` if it ends within `ms` (128 if killed by a
 * signal), else -1. */
static inline int wait_child(pid_t pid, long ms)
{
	int status;

	for (long t = 0; t <= ms; t += 10) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
		sleep_ms(10);
	}
	return -1;
}

/* Is process `pid` asleep within `ms` (state S: an interruptible wait,
 * as in a blocked open or lock acquire)? Polled every 5 ms. */
static inline bool asleep_within(pid_t pid, long ms)
{
	char path[32], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (long t = 0;; t += 5) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

		if (fd >= 0)
			close(fd);
		if (n > 0) {
			buf[n] = 0;
			/* "pid (comm) S ...": the comm may hold anything */
			p = strrchr(buf, ')');
			if (p && p[1] == ' ' && p[2] == 'S')
				return true;
		}
		if (t >= ms)
			return false;
		sleep_ms(5);
	}
}

static inline void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * fork() for the checks: the child drops the files it inherited but
 * `keep` (-1: none): they are the parent's open files, and count as open
 * for O_EXCL.
 */
static inline pid_t spawn_keep(int keep)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	if (keep > 3)
		close_range(3, keep - 1, 0);
	close_range(keep >= 3 ? keep + 1 : 3, ~0U, 0);
	return 0;
}

/* A child that opens `path` with `flags` and exits with the errno (0). */
static inline pid_t spawn_open(const char *path, int flags)
{
	pid_t pid = spawn_keep(-1);
	int fd;

	if (pid)
		return pid;
	fd = open_dev(path, flags);
	_exit(fd < 0 ? -fd : 0);
}

/* ---------------------------------------------------------------------- */
/* DMA queues (uapi Part 2)                                               */

/* Does the device publish a DMA engine (hw/dmaeng.h's TT_DMA_ID in the
 * PCIe node's register block)? The driver offers DMA queues exactly then
 * (on the mock, with ivshmem's MSI-X vector, which every image that has
 * an engine, the live model's, comes with). -errno if the image cannot
 * be read. */
static inline int has_dma_engine(int fd)
{
	struct tt_node_desc *table;
	struct tt_identity id = {0};
	uint32_t magic = 0;
	int ret = read_node_table(fd, &id, &table);

	if (ret)
		return ret;
	for (uint32_t i = 0; i < id.grid_x * id.grid_y; i++) {
		uint64_t off = table[i].regs_off +
			       TT_DMA_REG_PAGE * (uint64_t)TT_REG_PAGE_SIZE;
		uint8_t *p;
		int err;

		if (table[i].type != TT_NODE_PCIE)
			continue;
		if (off % PAGE || off + PAGE > id.image_size)
			break;
		p = map(fd, TENSTORRENT_MMAP_BAR2_UC + off, PAGE, MAP_SHARED,
			&err);
		if (!p) {
			free(table);
			return -err;
		}
		magic = *(volatile uint32_t *)(p + TT_DMA_ID);
		munmap(p, PAGE);
		break;
	}
	free(table);
	return magic == TT_DMA_ID_MAGIC;
}

static inline int dmaq_query(int fd, uint32_t flags,
			     struct tenstorrent_dma_queue_query_out *o)
{
	struct tenstorrent_dma_queue_query a = {
		.in = {.output_size_bytes = sizeof(a.out), .flags = flags}};

	if (ioctl(fd, TENSTORRENT_IOCTL_DMA_QUEUE_QUERY, &a))
		return -errno;
	if (o)
		*o = a.out;
	return 0;
}

/* SUBMIT of n descriptors; *first and *last (may be NULL) get the seqnos. */
static inline int dmaq_submit(int fd, const struct tenstorrent_dma_desc *d,
			      uint32_t n, uint64_t *first, uint64_t *last)
{
	struct tenstorrent_dma_queue_submit a = {
		.in = {.output_size_bytes = sizeof(a.out),
		       .descs = (uintptr_t)d,
		       .desc_count = n,
		       .desc_size = sizeof(*d)}};

	if (ioctl(fd, TENSTORRENT_IOCTL_DMA_QUEUE_SUBMIT, &a))
		return -errno;
	if (first)
		*first = a.out.first_seqno;
	if (last)
		*last = a.out.last_seqno;
	return 0;
}

/* WAIT; *completed (may be NULL) gets out.completed_seqno. */
static inline int dmaq_wait(int fd, uint64_t seqno, uint32_t timeout_ms,
			    uint64_t *completed)
{
	struct tenstorrent_dma_queue_wait a = {
		.in = {.output_size_bytes = sizeof(a.out),
		       .seqno = seqno,
		       .timeout_ms = timeout_ms}};
	int ret = ioctl(fd, TENSTORRENT_IOCTL_DMA_QUEUE_WAIT, &a) ? -errno : 0;

	if (completed)
		*completed = a.out.completed_seqno;
	return ret;
}

/* ALLOCATE_DMA_BUF of `size` bytes at `index`, mapped: NULL and *err. */
static inline uint8_t *dma_buf(int fd, uint8_t index, uint32_t size, int *err)
{
	struct tenstorrent_allocate_dma_buf a = {
		.in = {.requested_size = size, .buf_index = index}};

	if (ioctl(fd, TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF, &a)) {
		*err = errno;
		return NULL;
	}
	return map(fd, a.out.mapping_offset, size, MAP_SHARED, err);
}

#endif /* TT_TESTS_KSELFTEST_TTDEV_H */
