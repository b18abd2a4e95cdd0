/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DMA buffers: host memory the device can read and write. The device
 * reaches a buffer at a NOC address on the PCIe core, through its outbound
 * address translation; kernels and NOC engines use that address like any
 * other.
 */
#ifndef TT_DMA_H
#define TT_DMA_H

#include "device.h"

typedef struct tt_dma_buf tt_dma_buf;

/*
 * Allocate size bytes (rounded up to the page size), zero-filled, mapped
 * into this process and reachable from dev. Returns 0, -EINVAL (size 0 or
 * too large), -ENOSPC (the device cannot reach more host memory) or
 * another error.
 */
TT_API int tt_dma_buf_alloc(tt_device *dev, size_t size, tt_dma_buf **out);

/* Free a buffer; the device can no longer reach it. NULL is ignored. */
TT_API void tt_dma_buf_free(tt_dma_buf *buf);

/* The buffer's memory in this process. */
TT_API void *tt_dma_buf_data(const tt_dma_buf *buf);

/* Its size in bytes. */
TT_API size_t tt_dma_buf_size(const tt_dma_buf *buf);

/* Where the device sees it: PCIe core (NOC 0 coordinates) and the local
 * address of the buffer's first byte there. */
TT_API struct tt_xy tt_dma_buf_noc_xy(const tt_dma_buf *buf);
TT_API uint64_t tt_dma_buf_noc_addr(const tt_dma_buf *buf);

#endif /* TT_DMA_H */
