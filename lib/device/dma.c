// SPDX-License-Identifier: Apache-2.0
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

/* Largest buffer, as tt-kmd allows (2^28 bytes). */
#define TT_DMA_MAX_SIZE (1ull << 28)

int tt_dma_buf_alloc(tt_device *dev, size_t size, tt_dma_buf **out)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct tt_dma_buf *buf;
	int ret;

	TT_CHECK_ARG(dev);
	TT_CHECK_ARG(out);
	if (!size || size > TT_DMA_MAX_SIZE)
		return tt_error(-EINVAL,
				"%s: DMA buffer size %zu is not in 1..%llu bytes",
				dev->name, size, TT_DMA_MAX_SIZE);
	/* The device reaches DMA buffers for the runtime's owner. */
	ret = tt_device_own(dev);
	if (ret)
		return ret;
	buf = calloc(1, sizeof(*buf));
	if (!buf)
		return tt_error(-ENOMEM, "%s: out of memory", dev->name);
	buf->dev = dev;
	buf->size = (size + page - 1) / page * page;
	buf->fd = -1;
	ret = dev->ops->dma_alloc(dev, buf);
	if (ret) {
		free(buf);
		return ret;
	}
	pthread_mutex_lock(&dev->lock);
	buf->next = dev->dma_bufs;
	if (buf->next)
		buf->next->pprev = &buf->next;
	buf->pprev = &dev->dma_bufs;
	dev->dma_bufs = buf;
	pthread_mutex_unlock(&dev->lock);
	*out = buf;
	return 0;
}

void tt_dma_buf_free(tt_dma_buf *buf)
{
	struct tt_device *dev;

	if (!buf)
		return;
	dev = buf->dev;
	if (dev) {
		pthread_mutex_lock(&dev->lock);
		tt_dma_buf_unlink(buf);
		pthread_mutex_unlock(&dev->lock);
		dev->ops->dma_free(dev, buf);
	}
	free(buf);
}

void tt_dma_buf_unlink(struct tt_dma_buf *buf)
{
	*buf->pprev = buf->next;
	if (buf->next)
		buf->next->pprev = buf->pprev;
}

/* A buffer still alive at close loses its memory with the device, as
 * device buffers do: its data pointer reads NULL and it must still be
 * freed. */
void tt_dma_buf_detach_all(struct tt_device *dev)
{
	struct tt_dma_buf *buf;

	while ((buf = dev->dma_bufs)) {
		tt_dma_buf_unlink(buf);
		dev->ops->dma_free(dev, buf);
		buf->dev = NULL;
		buf->data = NULL;
	}
}

void *tt_dma_buf_data(const tt_dma_buf *buf)
{
	if (TT_ARG_NULL(buf))
		return NULL;
	return buf->data;
}

size_t tt_dma_buf_size(const tt_dma_buf *buf)
{
	if (TT_ARG_NULL(buf))
		return 0;
	return buf->size;
}

struct tt_xy tt_dma_buf_noc_xy(const tt_dma_buf *buf)
{
	if (TT_ARG_NULL(buf))
		return (struct tt_xy){ 0, 0 };
	return buf->noc_xy;
}

uint64_t tt_dma_buf_noc_addr(const tt_dma_buf *buf)
{
	if (TT_ARG_NULL(buf))
		return 0;
	return buf->noc_addr;
}
