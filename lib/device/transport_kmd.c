// SPDX-License-Identifier: Apache-2.0
/*
 * The kernel-driver transport: /dev/tenstorrent/N of tenstorrent.ko, found
 * with libudev (subsystem "tenstorrent"), used through the tt-kmd ioctls
 * of uapi/linux/tenstorrent.h. Host windows are in kmd_window.c; the design
 * (what goes through TLB windows and what through the device image) is in
 * lib/README.md "The kmd transport".
 *
 * Device index i is the i-th node in the order of its number N.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <libudev.h>

#include "common/board.h"
#include "sim/model/doorbell.h"
#include "transport_kmd.h"

#define KMD_MAX_NODES 64
/* ivshmem (QEMU): the mock device, whose doorbell is in BAR0. */
#define IVSHMEM_VENDOR 0x1af4
#define IVSHMEM_DEVICE 0x1110
/* irq_wait polls the interrupt sequence this often. */
#define IRQ_POLL_US 200

struct kmd_node {
	unsigned n; /* /dev/tenstorrent/<n> */
	char devnode[64];
	char pci_syspath[256];
};

static int by_number(const void *a, const void *b)
{
	const struct kmd_node *x = a, *y = b;

	return (x->n > y->n) - (x->n < y->n);
}

/* N of "/dev/tenstorrent/N", or -1. */
static int node_number(const char *devnode)
{
	const char *s = strrchr(devnode, '/');
	char *end;
	long n;

	if (!s || !s[1])
		return -1;
	n = strtol(s + 1, &end, 10);
	return *end || n < 0 || n > INT_MAX ? -1 : (int)n;
}

static void node_from_udev(struct udev_device *d, struct kmd_node *out,
			   unsigned *count)
{
	const char *devnode = udev_device_get_devnode(d);
	struct udev_device *pci;
	int n = devnode ? node_number(devnode) : -1;

	if (n < 0 || *count >= KMD_MAX_NODES ||
	    strlen(devnode) >= sizeof(out->devnode))
		return;
	out = &out[(*count)++];
	memset(out, 0, sizeof(*out));
	out->n = (unsigned)n;
	snprintf(out->devnode, sizeof(out->devnode), "%s", devnode);
	pci = udev_device_get_parent_with_subsystem_devtype(d, "pci", NULL);
	if (pci)
		snprintf(out->pci_syspath, sizeof(out->pci_syspath), "%s",
			 udev_device_get_syspath(pci));
}

/* The driver's nodes, sorted by number: their count, or an error. */
static int list_nodes(struct kmd_node *out)
{
	struct udev *udev = udev_new();
	struct udev_enumerate *e = udev ? udev_enumerate_new(udev) : NULL;
	struct udev_list_entry *it;
	unsigned count = 0;

	if (!e || udev_enumerate_add_match_subsystem(e, "tenstorrent") < 0 ||
	    udev_enumerate_scan_devices(e) < 0) {
		udev_enumerate_unref(e);
		udev_unref(udev);
		return tt_error(-EIO,
				"kmd: cannot enumerate devices with libudev");
	}
	udev_list_entry_foreach(it, udev_enumerate_get_list_entry(e)) {
		struct udev_device *d = udev_device_new_from_syspath(
			udev, udev_list_entry_get_name(it));

		if (d)
			node_from_udev(d, out, &count);
		udev_device_unref(d);
	}
	udev_enumerate_unref(e);
	udev_unref(udev);
	qsort(out, count, sizeof(*out), by_number);
	return (int)count;
}

static int kmd_count(unsigned *count)
{
	struct kmd_node nodes[KMD_MAX_NODES];
	int n = list_nodes(nodes);

	if (n < 0)
		return n;
	*count = (unsigned)n;
	return 0;
}

/* RESOURCE1 (BAR2, the device image): its mmap offset and size. */
static int query_bar2(struct tt_device *dev, uint64_t *base, uint64_t *size)
{
	struct {
		struct tenstorrent_query_mappings_in in;
		struct tenstorrent_mapping m[8];
	} q = {.in.output_mapping_count = 8};

	if (ioctl(kmd_of(dev)->fd, TENSTORRENT_IOCTL_QUERY_MAPPINGS, &q))
		return tt_error(-errno, "%s: QUERY_MAPPINGS: %s", dev->name,
				strerror(errno));
	for (unsigned i = 0; i < 8; i++) {
		if (q.m[i].mapping_id == TENSTORRENT_MAPPING_RESOURCE1_UC) {
			*base = q.m[i].mapping_base;
			*size = q.m[i].mapping_size;
			return 0;
		}
	}
	return tt_error(-ENODEV, "%s: the driver offers no BAR2 mapping",
			dev->name);
}

/* The device image in BAR2: its size from the identity page, within the
 * BAR, then attached (and checked) as the model's clients attach it. */
static int attach_image(struct tt_device *dev)
{
	struct kmd *k = kmd_of(dev);
	uint64_t base = 0, bar = 0, size;
	char err[SIM_ERR_LEN];
	struct tt_identity *id;
	int fd, ret = query_bar2(dev, &base, &bar);

	if (ret)
		return ret;
	if (bar < TT_IMAGE_NODE_TABLE_OFF)
		return tt_error(-EPROTO,
				"%s: BAR2 is too small for a device image",
				dev->name);
	id = mmap(NULL, sizeof(*id), PROT_READ, MAP_SHARED, k->fd, (off_t)base);
	if (id == MAP_FAILED)
		return tt_error(-errno, "%s: cannot map BAR2: %s", dev->name,
				strerror(errno));
	size = __atomic_load_n(&id->image_size, __ATOMIC_RELAXED);
	munmap(id, sizeof(*id));
	if (size > bar)
		return tt_error(
			-EPROTO,
			"%s: device image of %llu bytes in a BAR of %llu",
			dev->name, (unsigned long long)size,
			(unsigned long long)bar);
	fd = fcntl(k->fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return tt_error(-errno, "%s: %s", dev->name, strerror(errno));
	ret = sim_image_attach_at(fd, (off_t)base, size, &k->ctx.img, err);
	if (ret)
		return tt_error(ret, "%s: %s", dev->name, err);
	return 0;
}

static int get_device_info(struct tt_device *dev)
{
	struct tenstorrent_get_device_info a = {.in.output_size_bytes =
							sizeof(a.out)};

	if (ioctl(kmd_of(dev)->fd, TENSTORRENT_IOCTL_GET_DEVICE_INFO, &a))
		return tt_error(-errno, "%s: GET_DEVICE_INFO: %s", dev->name,
				strerror(errno));
	kmd_of(dev)->pci = a.out;
	return 0;
}

/* The mock's doorbell: BAR0 of the ivshmem function, through sysfs. */
static int map_doorbell(struct tt_device *dev, const struct kmd_node *node)
{
	struct kmd *k = kmd_of(dev);
	char path[300];
	void *p;
	int fd;

	if (k->pci.vendor_id != IVSHMEM_VENDOR ||
	    k->pci.device_id != IVSHMEM_DEVICE)
		return 0;
	snprintf(path, sizeof(path), "%s/resource0", node->pci_syspath);
	fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0)
		return tt_error(-errno,
				"%s: the mock device's doorbell %s: %s (the "
				"model would not see register writes)",
				dev->name, path, strerror(errno));
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return tt_error(-errno, "%s: cannot map %s: %s", dev->name,
				path, strerror(errno));
	k->bar0 = p;
	return 0;
}

/* The SoC descriptor the identity page names, and the board. */
static int describe(struct tt_device *dev)
{
	struct sim_image *img = kmd_of(dev)->ctx.img;
	char soc[sizeof(img->id->soc_name)], err[SOC_ERR_MAX];
	const struct board_info *b;
	struct tt_xy pcie;
	int ret;

	memcpy(soc, img->id->soc_name, sizeof(soc));
	soc[sizeof(soc) - 1] = 0;
	ret = soc_desc_builtin(soc, &dev->soc, err, sizeof(err));
	if (ret)
		return tt_error(ret, "%s: SoC descriptor: %s", dev->name, err);
	tt_device_info_from_soc(dev);
	b = board_by_id((enum tt_hw_board)img->id->board);
	dev->info.board = b ? b->name : "unknown";
	dev->info.chip = img->id->chip_index;
	if (dev->soc.grid_x != img->grid_x || dev->soc.grid_y != img->grid_y)
		return tt_error(-EPROTO,
				"%s: the device's grid %ux%u is not %s's",
				dev->name, img->grid_x, img->grid_y, soc);
	ret = tt_device_pcie_core(dev, &pcie);
	kmd_of(dev)->pcie = pcie;
	return ret;
}

static int open_node(struct tt_device *dev, const struct kmd_node *node)
{
	struct kmd *k = kmd_of(dev);
	int ret;

	k->fd = open(node->devnode, O_RDWR | O_CLOEXEC);
	if (k->fd < 0)
		return tt_error(-errno, "%s: %s", dev->name, strerror(errno));
	ret = get_device_info(dev);
	if (!ret)
		ret = attach_image(dev);
	if (!ret)
		ret = describe(dev);
	if (!ret)
		ret = map_doorbell(dev, node);
	if (!ret)
		ret = tt_kmd_window_open(dev);
	return ret;
}

static void kmd_close(struct tt_device *dev)
{
	struct kmd *k = kmd_of(dev);

	tt_kmd_window_close(dev);
	for (unsigned i = 0; i < k->dma_count; i++)
		munmap(k->dma[i].data, k->dma[i].size);
	if (k->bar0)
		munmap((void *)k->bar0, 4096);
	sim_image_destroy(k->ctx.img);
	if (k->fd >= 0)
		close(k->fd); /* the driver frees windows and buffers */
	pthread_mutex_destroy(&k->dma_lock);
	free(k);
}

static int kmd_open(struct tt_device *dev, unsigned index)
{
	struct kmd_node nodes[KMD_MAX_NODES];
	int n = list_nodes(nodes), ret;
	struct kmd *k;

	if (n < 0)
		return n;
	if (index >= (unsigned)n)
		return tt_error(-ENODEV,
				"kmd device %u does not exist (%d "
				"/dev/tenstorrent nodes)",
				index, n);
	k = calloc(1, sizeof(*k));
	if (!k)
		return tt_error(-ENOMEM, "out of memory");
	k->fd = -1;
	k->node = nodes[index].n;
	pthread_mutex_init(&k->dma_lock, NULL);
	dev->priv = k;
	snprintf(dev->name, sizeof(dev->name), "%s", nodes[index].devnode);
	ret = open_node(dev, &nodes[index]);
	if (ret) {
		kmd_close(dev);
		dev->priv = NULL;
	}
	return ret;
}

/* ---- DMA buffers ---- */

/* A new buffer from the driver into k->dma[k->dma_count]. */
static int dma_new(struct tt_device *dev, uint32_t size)
{
	struct kmd *k = kmd_of(dev);
	struct kmd_dmabuf *b = &k->dma[k->dma_count];
	struct tenstorrent_allocate_dma_buf a = {
		.in.requested_size = size,
		.in.buf_index = (uint8_t)k->dma_count,
		.in.flags = TENSTORRENT_ALLOCATE_DMA_BUF_NOC_DMA,
	};
	void *p;

	if (k->dma_count == TENSTORRENT_MAX_DMA_BUFS)
		return tt_error(
			-ENOMEM,
			"%s: all %d DMA buffers of this handle are in use",
			dev->name, TENSTORRENT_MAX_DMA_BUFS);
	if (ioctl(k->fd, TENSTORRENT_IOCTL_ALLOCATE_DMA_BUF, &a))
		return tt_error(-errno, "%s: ALLOCATE_DMA_BUF of %u bytes: %s",
				dev->name, size, strerror(errno));
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd,
		 (off_t)a.out.mapping_offset);
	if (p == MAP_FAILED)
		return tt_error(-errno, "%s: cannot map DMA buffer %u: %s",
				dev->name, k->dma_count, strerror(errno));
	/* The buffer stays with the fd whatever happens now. */
	*b = (struct kmd_dmabuf){.data = p,
				 .size = size,
				 .index = (uint8_t)k->dma_count,
				 .noc_addr = a.out.noc_address};
	k->dma_count++;
	return 0;
}

static int kmd_dma_alloc(struct tt_device *dev, struct tt_dma_buf *buf)
{
	struct kmd *k = kmd_of(dev);
	struct kmd_dmabuf *b = NULL;
	int ret = 0;

	if (buf->size > UINT32_MAX)
		return tt_error(-EINVAL, "%s: DMA buffer of %zu bytes",
				dev->name, buf->size);
	pthread_mutex_lock(&k->dma_lock);
	for (unsigned i = 0; i < k->dma_count && !b; i++)
		if (!k->dma[i].in_use && k->dma[i].size == buf->size)
			b = &k->dma[i];
	if (!b) {
		ret = dma_new(dev, (uint32_t)buf->size);
		b = ret ? NULL : &k->dma[k->dma_count - 1];
	}
	if (b) {
		b->in_use = true;
		memset(b->data, 0, b->size); /* a reused buffer starts clean */
		buf->data = b->data;
		buf->handle = b->index;
		buf->noc_xy = k->pcie;
		buf->noc_addr = b->noc_addr;
	}
	pthread_mutex_unlock(&k->dma_lock);
	return ret;
}

static void kmd_dma_free(struct tt_device *dev, struct tt_dma_buf *buf)
{
	struct kmd *k = kmd_of(dev);

	pthread_mutex_lock(&k->dma_lock);
	k->dma[buf->handle].in_use = false;
	pthread_mutex_unlock(&k->dma_lock);
}

/* ---- error log, interrupts, resets: the image's host registers ---- */

static uint32_t kmd_error_head(struct tt_device *dev)
{
	return sim_errlog_head(kmd_of(dev)->ctx.img->regs);
}

/* An unknown code is named so by dev_err_str(). */
static int kmd_error_at(struct tt_device *dev, uint32_t seq,
			struct tt_dev_error *rec)
{
	return sim_errlog_read(kmd_of(dev)->ctx.img->regs, seq, rec);
}

static uint32_t kmd_irq_seq(struct tt_device *dev)
{
	return sim_irq_seq(kmd_of(dev)->ctx.img->regs);
}

static int64_t now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

/* Polling: the driver has no interrupt wait for the whole device yet. */
static int kmd_irq_wait(struct tt_device *dev, uint32_t seen, int timeout_ms)
{
	int64_t end = now_us() + (int64_t)timeout_ms * 1000;

	while (kmd_irq_seq(dev) == seen) {
		if (timeout_ms >= 0 && now_us() >= end)
			return -ETIMEDOUT;
		usleep(IRQ_POLL_US);
	}
	return 0;
}

static uint32_t kmd_reset_gen(struct tt_device *dev)
{
	return __atomic_load_n(&kmd_of(dev)->ctx.img->id->reset_gen,
			       __ATOMIC_ACQUIRE);
}

/* ---- processes: the driver's procfs list, one pid per open file ---- */

static bool listed(const int *pids, unsigned n, int pid)
{
	for (unsigned i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

static int kmd_processes(struct tt_device *dev, int *pids, unsigned max)
{
	int seen[1024];
	unsigned n = 0, stored = 0;
	char path[64];
	long pid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/driver/tenstorrent/%u/pids",
		 kmd_of(dev)->node);
	f = fopen(path, "re");
	if (!f)
		return tt_error(-errno, "%s: %s: %s", dev->name, path,
				strerror(errno));
	while (fscanf(f, "%ld", &pid) == 1) {
		if (pid <= 0 || pid > INT_MAX || listed(seen, n, (int)pid))
			continue;
		if (n == sizeof(seen) / sizeof(seen[0]))
			break;
		seen[n++] = (int)pid;
		if (stored < max)
			pids[stored++] = (int)pid;
	}
	fclose(f);
	return (int)n;
}

const struct tt_transport_ops tt_transport_kmd = {
	.name = "kmd",
	.count = kmd_count,
	.open = kmd_open,
	.close = kmd_close,
	.window_size = tt_kmd_window_size,
	.window_configure = tt_kmd_window_configure,
	.window_write = tt_kmd_window_write,
	.window_read = tt_kmd_window_read,
	.dma_alloc = kmd_dma_alloc,
	.dma_free = kmd_dma_free,
	.error_at = kmd_error_at,
	.error_head = kmd_error_head,
	.irq_seq = kmd_irq_seq,
	.irq_wait = kmd_irq_wait,
	.reset_gen = kmd_reset_gen,
	.processes = kmd_processes,
};
