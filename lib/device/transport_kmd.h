/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kmd transport's private state, shared by transport_kmd.c (enumeration,
 * open, DMA buffers, errors, interrupts, processes), transport_kmd_window.c
 * (host windows) and transport_kmd_mock.c (what only the ivshmem mock
 * needs). See lib/device/README.md "The kmd transport".
 */
#ifndef TT_LIB_KMD_H
#define TT_LIB_KMD_H

#include <linux/tenstorrent.h>

#include "hw/host.h"
#include "internal.h"

/* A DMA buffer the driver gave this fd. FREE_DMA_BUF does not exist
 * (EINVAL in tt-kmd), so a freed buffer stays with the fd and is reused by
 * the next allocation of the same size. */
struct kmd_dmabuf {
	void *data;
	uint32_t size;
	uint8_t index;
	bool in_use;
	uint64_t noc_addr;
};

struct tt_kmd_mock;

struct kmd {
	int fd;	       /* /dev/tenstorrent/N */
	unsigned node; /* the N */
	struct tenstorrent_get_device_info_out pci;
	/* BAR2's head, mapped UC read-only through the driver: the identity
	 * page, the host registers and the node table (hw/host.h). The
	 * device may change it at any time: ident and nodes are the
	 * private, checked copies that everything else uses. */
	const uint8_t *head;
	size_t head_size;
	const struct tt_identity *id_live; /* reset_gen */
	const struct tt_host_regs *regs; /* error log, irq_seq */
	struct tt_identity ident;
	struct tt_node_desc *nodes; /* grid_x * grid_y entries */
	unsigned grid_x, grid_y;
	/* The ivshmem mock's side of things (transport_kmd_mock.c), or NULL
	 * on a card. */
	struct tt_kmd_mock *mock;
	/* The one TLB window (transport_kmd_window.c). */
	uint32_t tlb_id;
	uint64_t tlb_size;
	uint8_t *tlb; /* WC mapping */
	volatile uint32_t *tlb_uc; /* UC mapping, for registers; NULL on
				    * the mock */
	bool tlb_set; /* tlb_cfg is what the driver has */
	struct tenstorrent_noc_tlb_config tlb_cfg;
	struct tt_xy pcie; /* the PCIe node, NOC 0 */
	pthread_mutex_t dma_lock;
	struct kmd_dmabuf dma[TENSTORRENT_MAX_DMA_BUFS];
	unsigned dma_count;
};

static inline struct kmd *kmd_of(struct tt_device *dev)
{
	return dev->priv;
}

/* transport_kmd_window.c: allocate and map the window at open, drop it at
 * close. */
TT_HIDDEN int tt_kmd_window_open(struct tt_device *dev);
TT_HIDDEN void tt_kmd_window_close(struct tt_device *dev);
TT_HIDDEN uint64_t tt_kmd_window_size(struct tt_device *dev);
TT_HIDDEN int tt_kmd_window_configure(struct tt_device *dev, struct tt_window *w,
				   const struct tt_window_config *cfg);
TT_HIDDEN int tt_kmd_window_write(struct tt_device *dev, struct tt_window *w,
			       uint64_t off, const void *src, size_t len);
TT_HIDDEN int tt_kmd_window_read(struct tt_device *dev, struct tt_window *w,
			      uint64_t off, void *dst, size_t len);

/*
 * transport_kmd_mock.c: what the ivshmem mock needs that a card does not.
 * On the mock, BAR2 is the chip model's whole image and nothing traps a
 * store: register side effects are the model's own access code run on the
 * image, and the daemon hears of a write only through ivshmem's doorbell.
 *
 * tt_kmd_mock_open sets k->mock where the PCI function is ivshmem
 * (1af4:1110) and the identity page carries the model's signature, and
 * leaves it NULL elsewhere; it needs k->fd, k->pci and k->ident.
 */
TT_HIDDEN int tt_kmd_mock_open(struct tt_device *dev, const char *pci_syspath,
			       uint64_t bar2_off);
TT_HIDDEN void tt_kmd_mock_close(struct tt_device *dev);
/* An access by the model's rules on the image (a multicast when op is
 * TT_DEV_OP_MCAST), followed by the doorbell after a write. Returns the
 * TT_DEV_ERR_* the device recorded, or TT_DEV_ERR_NONE. */
TT_HIDDEN enum tt_dev_err tt_kmd_mock_access(struct tt_device *dev,
					     const struct tt_window_config *c,
					     uint64_t addr, void *buf,
					     size_t len, enum tt_dev_op op);
/* After a write into node memory through the TLB window (NOC 0 node x,
 * y): wake the node's waiting harts. */
TT_HIDDEN void tt_kmd_mock_mem_written(struct tt_device *dev, unsigned x,
				       unsigned y);

#endif /* TT_LIB_KMD_H */
