/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kmd transport's private state, shared by transport_kmd.c (enumeration,
 * open, DMA buffers, errors, interrupts, processes) and transport_kmd_window.c (host
 * windows). See lib/README.md "The kmd transport".
 */
#ifndef TT_LIB_KMD_H
#define TT_LIB_KMD_H

#include <linux/tenstorrent.h>

#include "sim/model/access.h"
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

struct kmd {
	int fd;	       /* /dev/tenstorrent/N */
	unsigned node; /* the N */
	struct tenstorrent_get_device_info_out pci;
	/* BAR2, the device image, mapped UC through the driver; ctx.img's
	 * node table is a private, checked copy. */
	struct sim_ctx ctx;
	/* The mock's doorbell: ivshmem's BAR0 (sysfs resource0), NULL where
	 * the function is not ivshmem. */
	volatile uint32_t *bar0;
	/* The one TLB window (kmd_window.c). */
	uint32_t tlb_id;
	uint64_t tlb_size;
	uint8_t *tlb; /* WC mapping */
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

/* kmd_window.c: allocate and map the window at open, drop it at close. */
TT_HIDDEN int tt_kmd_window_open(struct tt_device *dev);
TT_HIDDEN void tt_kmd_window_close(struct tt_device *dev);
TT_HIDDEN uint64_t tt_kmd_window_size(struct tt_device *dev);
TT_HIDDEN int tt_kmd_window_configure(struct tt_device *dev, struct tt_window *w,
				   const struct tt_window_config *cfg);
TT_HIDDEN int tt_kmd_window_write(struct tt_device *dev, struct tt_window *w,
			       uint64_t off, const void *src, size_t len);
TT_HIDDEN int tt_kmd_window_read(struct tt_device *dev, struct tt_window *w,
			      uint64_t off, void *dst, size_t len);

#endif /* TT_LIB_KMD_H */
