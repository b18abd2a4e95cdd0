// SPDX-License-Identifier: Apache-2.0
/*
 * The kernel-driver transport: /dev/tenstorrent/N of tenstorrent.ko, found
 * with libudev (subsystem "tenstorrent"), used through the tt-kmd ioctls
 * of uapi/linux/tenstorrent.h, and the chip contract's structures at the
 * head of BAR2 (hw/host.h): identity page, host registers, node table.
 * Host windows are in transport_kmd_window.c, what only the ivshmem mock
 * needs in transport_kmd_mock.c; the design is in lib/device/README.md
 * "The kmd transport".
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
#include "hw/decode.h"
#include "transport_kmd.h"

#define KMD_MAX_NODES 64
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

/* A copy of the identity page, taken before anything in it is trusted. */
static int copy_identity(struct tt_device *dev, uint64_t base)
{
	struct kmd *k = kmd_of(dev);
	const struct tt_identity *id;

	id = mmap(NULL, sizeof(*id), PROT_READ, MAP_SHARED, k->fd, (off_t)base);
	if (id == MAP_FAILED)
		return tt_error(-errno, "%s: cannot map BAR2: %s", dev->name,
				strerror(errno));
	memcpy(&k->ident, id, sizeof(k->ident));
	munmap((void *)id, sizeof(*id));
	return 0;
}

/* The identity copy, checked as the contract says (hw/decode.h), with
 * the model's words for each fault. */
static int check_identity(struct tt_device *dev, uint64_t bar)
{
	const struct tt_identity *id = &kmd_of(dev)->ident;
	uint64_t size = id->image_size;

	if (size > bar)
		return tt_error(
			-EPROTO,
			"%s: device image of %llu bytes in a BAR of %llu",
			dev->name, (unsigned long long)size,
			(unsigned long long)bar);
	if (size < TT_IMAGE_NODE_TABLE_OFF)
		return tt_error(-EPROTO, "%s: not a device image: too small",
				dev->name);
	switch (tt_identity_check(id, size)) {
	case TT_IDENTITY_OK:
		return 0;
	case TT_IDENTITY_BAD_MAGIC:
		return tt_error(-EPROTO,
				"%s: not a device image: bad signature",
				dev->name);
	case TT_IDENTITY_BAD_CONTRACT:
		return tt_error(-EPROTO,
				"%s: device image uses chip contract %u.%u; this build knows %u.x",
				dev->name, id->contract_major,
				id->contract_minor, TT_HW_CONTRACT_MAJOR);
	default:
		return tt_error(-EPROTO,
				"%s: device image: identity page is corrupt",
				dev->name);
	}
}

/* A private copy of the node table, every entry checked. */
static int copy_nodes(struct tt_device *dev)
{
	struct kmd *k = kmd_of(dev);
	unsigned count = k->grid_x * k->grid_y;

	k->nodes = calloc(count, sizeof(*k->nodes));
	if (!k->nodes)
		return tt_error(-ENOMEM, "out of memory");
	memcpy(k->nodes, k->head + TT_IMAGE_NODE_TABLE_OFF,
	       count * sizeof(*k->nodes));
	for (unsigned i = 0; i < count; i++) {
		const struct tt_node_desc *n = &k->nodes[i];

		switch (tt_node_check(n, i, k->grid_x, k->ident.image_size)) {
		case TT_NODE_OK:
			continue;
		case TT_NODE_CORRUPT:
			return tt_error(-EPROTO,
					"%s: device image: node %u is corrupt",
					dev->name, i);
		default:
			return tt_error(-EPROTO,
					"%s: device image: node %u-%u has regions outside the image",
					dev->name, n->x, n->y);
		}
	}
	return 0;
}

/*
 * BAR2's head (identity page, host registers, node table), read-only:
 * checked copies of the identity and the node table, and a mapping kept
 * for the host registers and reset_gen.
 */
static int map_head(struct tt_device *dev, uint64_t base)
{
	struct kmd *k = kmd_of(dev);
	long page = sysconf(_SC_PAGESIZE);
	size_t size;
	void *p;

	k->grid_x = k->ident.grid_x;
	k->grid_y = k->ident.grid_y;
	size = TT_IMAGE_NODE_TABLE_OFF +
	       (size_t)k->grid_x * k->grid_y * sizeof(struct tt_node_desc);
	size = (size + (size_t)page - 1) & ~((size_t)page - 1);
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, k->fd, (off_t)base);
	if (p == MAP_FAILED)
		return tt_error(-errno, "%s: cannot map BAR2: %s", dev->name,
				strerror(errno));
	k->head = p;
	k->head_size = size;
	k->id_live = (const void *)(k->head + TT_IMAGE_IDENTITY_OFF);
	k->regs = (const void *)(k->head + TT_IMAGE_HOST_REGS_OFF);
	return copy_nodes(dev);
}

/* The contract's structures in BAR2, checked: the device is untrusted. */
static int read_bar2(struct tt_device *dev, uint64_t *base)
{
	uint64_t bar = 0;
	int ret = query_bar2(dev, base, &bar);

	if (ret)
		return ret;
	if (bar < TT_IMAGE_NODE_TABLE_OFF)
		return tt_error(-EPROTO,
				"%s: BAR2 is too small for a device image",
				dev->name);
	ret = copy_identity(dev, *base);
	if (!ret)
		ret = check_identity(dev, bar);
	if (!ret)
		ret = map_head(dev, *base);
	return ret;
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

/* The SoC descriptor the identity page names, and the board. */
static int describe(struct tt_device *dev)
{
	const struct kmd *k = kmd_of(dev);
	const struct tt_identity *id = &k->ident;
	char soc[sizeof(id->soc_name)], err[SOC_ERR_MAX];
	const struct board_info *b;
	struct tt_xy pcie;
	int ret;

	memcpy(soc, id->soc_name, sizeof(soc));
	soc[sizeof(soc) - 1] = 0;
	ret = soc_desc_builtin(soc, &dev->soc, err, sizeof(err));
	if (ret)
		return tt_error(ret, "%s: SoC descriptor: %s", dev->name, err);
	tt_device_info_from_soc(dev);
	b = board_by_id((enum tt_hw_board)id->board);
	dev->info.board = b ? b->name : "unknown";
	dev->info.chip = id->chip_index;
	if (dev->soc.grid_x != k->grid_x || dev->soc.grid_y != k->grid_y)
		return tt_error(-EPROTO,
				"%s: the device's grid %ux%u is not %s's",
				dev->name, k->grid_x, k->grid_y, soc);
	ret = tt_device_pcie_core(dev, &pcie);
	kmd_of(dev)->pcie = pcie;
	return ret;
}

static int open_node(struct tt_device *dev, const struct kmd_node *node)
{
	struct kmd *k = kmd_of(dev);
	uint64_t bar2 = 0;
	int ret;

	k->fd = open(node->devnode, O_RDWR | O_CLOEXEC);
	if (k->fd < 0)
		return tt_error(-errno, "%s: %s", dev->name, strerror(errno));
	ret = get_device_info(dev);
	if (!ret)
		ret = read_bar2(dev, &bar2);
	if (!ret)
		ret = describe(dev);
	if (!ret)
		ret = tt_kmd_mock_open(dev, node->pci_syspath, bar2);
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
	tt_kmd_mock_close(dev);
	if (k->head)
		munmap((void *)k->head, k->head_size);
	free(k->nodes);
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

/* ---- error log, interrupts, resets: the contract's host registers ---- */

static uint32_t kmd_error_head(struct tt_device *dev)
{
	return __atomic_load_n(&kmd_of(dev)->regs->err_head, __ATOMIC_ACQUIRE);
}

/*
 * Record seq, copied out of the ring: valid only if its slot holds it
 * (seq written last by the device, with seq + 1) before and after the
 * copy, else -ESTALE (not written yet, being written, or overwritten).
 * An unknown code is named so by dev_err_str().
 */
static int kmd_error_at(struct tt_device *dev, uint32_t seq,
			struct tt_dev_error *rec)
{
	const struct tt_dev_error *e =
		&kmd_of(dev)->regs->err[seq % TT_DEV_ERR_RING];

	if (__atomic_load_n(&e->seq, __ATOMIC_ACQUIRE) != seq + 1)
		return -ESTALE;
	memcpy(rec, e, sizeof(*rec));
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&e->seq, __ATOMIC_ACQUIRE) != seq + 1 ||
	    rec->seq != seq + 1)
		return -ESTALE;
	return 0;
}

static uint32_t kmd_irq_seq(struct tt_device *dev)
{
	return __atomic_load_n(&kmd_of(dev)->regs->irq_seq, __ATOMIC_ACQUIRE);
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
	return __atomic_load_n(&kmd_of(dev)->id_live->reset_gen,
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

/* ---- device locks: the driver's LOCK_CTL, owned by this handle's fd ---- */

static int lock_ctl(struct tt_device *dev, unsigned id, uint32_t op,
		    uint8_t *value)
{
	struct tenstorrent_lock_ctl c = { 0 };

	c.in.output_size_bytes = sizeof(c.out);
	c.in.flags = op;
	c.in.index = (uint8_t)id;
	if (ioctl(kmd_of(dev)->fd, TENSTORRENT_IOCTL_LOCK_CTL, &c))
		return tt_error(-errno, "%s: LOCK_CTL %u of lock %u: %s",
				dev->name, op, id, strerror(errno));
	*value = c.out.value;
	return 0;
}

/* The driver does not say who holds a lock: *holder stays 0. */
static int kmd_trylock(struct tt_device *dev, unsigned id, int *holder)
{
	uint8_t value = 0;
	int ret = lock_ctl(dev, id, TENSTORRENT_LOCK_CTL_ACQUIRE, &value);

	(void)holder;
	if (ret)
		return ret;
	return value == 1 ? 0 : -EBUSY;
}

static void kmd_unlock(struct tt_device *dev, unsigned id)
{
	uint8_t value = 0;

	lock_ctl(dev, id, TENSTORRENT_LOCK_CTL_RELEASE, &value);
}

/* Another fd's lock counts, this handle's too (bit 1: held by anyone). */
static int kmd_lock_held(struct tt_device *dev, unsigned id, int *holder)
{
	uint8_t value = 0;
	int ret = lock_ctl(dev, id, TENSTORRENT_LOCK_CTL_TEST, &value);

	*holder = 0;
	return ret ? ret : !!(value & 2);
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
	.trylock = kmd_trylock,
	.unlock = kmd_unlock,
	.lock_held = kmd_lock_held,
};
