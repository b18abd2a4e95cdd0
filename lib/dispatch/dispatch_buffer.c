// SPDX-License-Identifier: Apache-2.0
/*
 * Buffer transfers of the command queues. Slow and fast dispatch move
 * buffer data the same way on the model: the host writes the banks
 * directly, in queue order (cq.c waits for a running program first).
 */
#include "dispatch.h"
#include "tt/buffer.h"

uint64_t tt_dispatch_buffer_size(tt_buffer *buf)
{
	return tt_buffer_size(buf);
}

int tt_dispatch_buffer_write(tt_buffer *buf, uint64_t offset, const void *src,
			     uint64_t size)
{
	return tt_write_to_buffer_region(buf, offset, src, (size_t)size);
}

int tt_dispatch_buffer_read(tt_buffer *buf, uint64_t offset, void *dst,
			    uint64_t size)
{
	return tt_read_from_buffer_region(buf, offset, dst, (size_t)size);
}
