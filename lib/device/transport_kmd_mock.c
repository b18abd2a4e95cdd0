// SPDX-License-Identifier: Apache-2.0
/*
 * The kmd transport on the mock device: tenstorrent.ko driving a QEMU
 * ivshmem function whose BAR2 is the chip model's device image, served by
 * a ttsim daemon outside the guest (lib/device/README.md "The kmd transport").
 *
 * A card traps its register stores and routes multicast in hardware; the
 * mock does neither. The driver's windows reach node memory only (a
 * register page is SIGBUS, multicast EOPNOTSUPP), so register accesses,
 * the PCIe node's host window, refused accesses and multicast run the
 * model's own access code on the image, which is what a window onto the
 * model would show and records refusals as the model does. And the daemon
 * cannot see a guest's stores: after a write the model must notice (a
 * register, or memory a hart waits on) its pending bits are set in the
 * image and ivshmem's doorbell register in BAR0 wakes it.
 *
 * This is the only file of the kmd transport that knows the model
 * (sim/embed.h); the rest speaks the driver's uapi and the chip contract.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim/embed.h"
#include "transport_kmd.h"

/* ivshmem (QEMU): the mock device, whose doorbell is in BAR0. */
#define IVSHMEM_VENDOR 0x1af4
#define IVSHMEM_DEVICE 0x1110
/* ivshmem's doorbell register and the value that rings ttsim (its peer
 * id in bits 31:16, vector 0): docs/ttsim.md "Serving QEMU". */
#define IVSHMEM_DOORBELL_REG 3 /* 32-bit word 3, offset 12 */
#define IVSHMEM_RING_TTSIM (1u << 16)
#define IVSHMEM_BAR0_SIZE 4096

struct tt_kmd_mock {
	/* BAR2, the whole image, attached (and checked again) as the
	 * model's clients attach it. */
	struct sim_image *img;
	volatile uint32_t *bar0; /* ivshmem's registers */
};

static struct tt_kmd_mock *mock_of(struct tt_device *dev)
{
	return kmd_of(dev)->mock;
}

static bool is_mock(const struct kmd *k)
{
	return k->pci.vendor_id == IVSHMEM_VENDOR &&
	       k->pci.device_id == IVSHMEM_DEVICE &&
	       k->ident.magic_lo == TT_IDENTITY_MAGIC_LO &&
	       k->ident.magic_hi == TT_IDENTITY_MAGIC_HI;
}

/* The mock's doorbell: BAR0 of the ivshmem function, through sysfs. */
static int map_doorbell(struct tt_device *dev, const char *pci_syspath)
{
	char path[300];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/resource0", pci_syspath);
	fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0)
		return tt_error(-errno,
				"%s: the mock device's doorbell %s: %s (the "
				"model would not see register writes)",
				dev->name, path, strerror(errno));
	p = mmap(NULL, IVSHMEM_BAR0_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return tt_error(-errno, "%s: cannot map %s: %s", dev->name,
				path, strerror(errno));
	mock_of(dev)->bar0 = p;
	return 0;
}

/* The whole image in BAR2, at the size the checked identity gives. */
static int attach_image(struct tt_device *dev, uint64_t bar2_off)
{
	struct kmd *k = kmd_of(dev);
	char err[SIM_ERR_LEN];
	int fd, ret;

	fd = fcntl(k->fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return tt_error(-errno, "%s: %s", dev->name, strerror(errno));
	ret = sim_embed_attach_at(fd, (off_t)bar2_off, k->ident.image_size,
				  &k->mock->img, err);
	if (ret)
		return tt_error(ret, "%s: %s", dev->name, err);
	return 0;
}

int tt_kmd_mock_open(struct tt_device *dev, const char *pci_syspath,
		     uint64_t bar2_off)
{
	struct kmd *k = kmd_of(dev);
	int ret;

	if (!is_mock(k))
		return 0;
	k->mock = calloc(1, sizeof(*k->mock));
	if (!k->mock)
		return tt_error(-ENOMEM, "out of memory");
	ret = attach_image(dev, bar2_off);
	if (!ret)
		ret = map_doorbell(dev, pci_syspath);
	return ret;
}

void tt_kmd_mock_close(struct tt_device *dev)
{
	struct tt_kmd_mock *m = mock_of(dev);

	if (!m)
		return;
	if (m->bar0)
		munmap((void *)m->bar0, IVSHMEM_BAR0_SIZE);
	sim_embed_detach(m->img);
	free(m);
	kmd_of(dev)->mock = NULL;
}

/* Wake the model after a write it must notice. A fence first: the
 * write-combined stores must be in the image before the daemon looks. */
static void ring(struct tt_kmd_mock *m)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (m->bar0)
		m->bar0[IVSHMEM_DOORBELL_REG] = IVSHMEM_RING_TTSIM;
}

enum tt_dev_err tt_kmd_mock_access(struct tt_device *dev,
				   const struct tt_window_config *c,
				   uint64_t addr, void *buf, size_t len,
				   enum tt_dev_op op)
{
	struct tt_kmd_mock *m = mock_of(dev);
	struct sim_host_access a = {
		.op = op,
		.noc = c->noc,
		.x = c->x,
		.y = c->y,
		.x_start = c->x_start,
		.y_start = c->y_start,
		.addr = addr,
		.len = len,
	};
	enum tt_dev_err e = sim_embed_access(m->img, &a, buf);

	if (op != TT_DEV_OP_READ)
		ring(m);
	return e;
}

void tt_kmd_mock_mem_written(struct tt_device *dev, unsigned x, unsigned y)
{
	struct tt_kmd_mock *m = mock_of(dev);

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* Rings the model's event if a hart of the node waits here. */
	if (sim_embed_node_written(m->img, x, y))
		ring(m);
}
