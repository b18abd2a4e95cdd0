// SPDX-License-Identifier: Apache-2.0
/*
 * Tensor queues: creation, geometry, state, break and reset
 * (tt/tensor_queue.h). The data path is in tensor_queue_io.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_queue_internal.h"

static const char *placement_name(enum tt_queue_placement p)
{
	return p == TT_QUEUE_DRAM   ? "DRAM"
	       : p == TT_QUEUE_HOST ? "host"
				    : "invalid";
}

static int check_args(tt_device *dev, const struct tt_shape *shape,
		      unsigned depth, enum tt_queue_placement placement,
		      tt_tensor_queue **out)
{
	if (!dev || !shape || !out)
		return tt_error(-EINVAL, "tt_tensor_queue_create: %s is NULL",
				!dev	 ? "device"
				: !shape ? "shape"
					 : "out");
	if (depth < 1 || depth > TT_TQ_MAX_DEPTH)
		return tt_error(
			-EINVAL,
			"tt_tensor_queue_create: depth %u is not in 1..%u",
			depth, TT_TQ_MAX_DEPTH);
	if (placement != TT_QUEUE_DRAM && placement != TT_QUEUE_HOST)
		return tt_error(-EINVAL,
				"tt_tensor_queue_create: placement %d is "
				"neither TT_QUEUE_DRAM nor TT_QUEUE_HOST",
				(int)placement);
	return 0;
}

/* Shape, format and sizes; the name for messages. */
static int init_geometry(struct tt_tensor_queue *q,
			 const struct tt_shape *shape, enum tt_data_format fmt)
{
	char s[100];
	int ret = tt_tgeom_init(&q->g, shape, "tt_tensor_queue_create: shape");

	if (!ret)
		ret = tt_tensor_check_format(fmt, TT_TENSOR_TILED,
					     "tt_tensor_queue_create");
	if (!ret)
		ret = tt_tgeom_bytes(&q->g, fmt, TT_TENSOR_TILED,
				     &q->entry_size, "tt_tensor_queue_create");
	if (ret)
		return ret;
	q->shape = *shape;
	q->fmt = fmt;
	q->slot_size = (q->entry_size + TT_TQ_SLOT_ALIGN - 1) &
		       ~(size_t)(TT_TQ_SLOT_ALIGN - 1);
	if (q->slot_size > UINT32_MAX ||
	    q->slot_size > (SIZE_MAX - TT_TQ_HEADER_SIZE) / q->depth)
		return tt_error(-EOVERFLOW,
				"tt_tensor_queue_create: %u slots of %zu bytes "
				"are too large",
				q->depth, q->slot_size);
	q->total = TT_TQ_HEADER_SIZE + q->slot_size * q->depth;
	snprintf(q->name, sizeof(q->name), "%s queue %s %s x%u",
		 placement_name(q->placement),
		 tt_shape_str(shape, s, sizeof(s)), tt_data_format_name(fmt),
		 q->depth);
	return 0;
}

static int alloc_dram(struct tt_tensor_queue *q)
{
	struct tt_buffer_config cfg = {
		.device = q->dev,
		.size = q->total,
		.page_size = q->total, /* one page: all of it in bank 0 */
		.type = TT_BUFFER_DRAM,
	};
	struct tt_buffer_page_location loc;
	int ret = tt_create_buffer(&cfg, &q->buf);

	if (!ret)
		ret = tt_buffer_page_location(q->buf, 0, &loc);
	if (ret)
		return ret;
	q->noc_xy = loc.noc;
	q->noc_addr = loc.address;
	q->stage_in = malloc(q->entry_size);
	q->stage_out = malloc(q->entry_size);
	if (!q->stage_in || !q->stage_out)
		return tt_error(-ENOMEM, "%s: out of memory", q->name);
	return 0;
}

static int alloc_host(struct tt_tensor_queue *q)
{
	int ret = tt_dma_buf_alloc(q->dev, q->total, &q->dma);

	if (ret)
		return ret;
	q->mem = tt_dma_buf_data(q->dma);
	q->noc_xy = tt_dma_buf_noc_xy(q->dma);
	q->noc_addr = tt_dma_buf_noc_addr(q->dma);
	return 0;
}

/* A fresh header: empty, not broken, no bells, no processes. */
static int write_header(struct tt_tensor_queue *q)
{
	struct tt_tq_header h = {
		.magic = TT_TQ_MAGIC,
		.version = TT_TQ_VERSION,
		.depth = q->depth,
		.slot_size = (uint32_t)q->slot_size,
	};

	memset(q->pid_stored, 0, sizeof(q->pid_stored));
	if (q->placement == TT_QUEUE_HOST) {
		memcpy(q->mem, &h, sizeof(h));
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		return 0;
	}
	return tt_write_to_buffer_region(q->buf, 0, &h, sizeof(h));
}

int tt_tensor_queue_create(tt_device *dev, const struct tt_shape *shape,
			   enum tt_data_format fmt, unsigned depth,
			   enum tt_queue_placement placement,
			   tt_tensor_queue **out)
{
	struct tt_tensor_queue *q;
	int ret = check_args(dev, shape, depth, placement, out);

	if (ret)
		return ret;
	q = calloc(1, sizeof(*q));
	if (!q)
		return tt_error(-ENOMEM,
				"tt_tensor_queue_create: out of memory");
	q->dev = dev;
	q->depth = depth;
	q->wrap = tt_tq_wrap(depth);
	q->placement = placement;
	ret = init_geometry(q, shape, fmt);
	if (!ret)
		ret = placement == TT_QUEUE_DRAM ? alloc_dram(q)
						 : alloc_host(q);
	if (!ret)
		ret = write_header(q);
	if (ret) {
		tt_tensor_queue_free(q);
		return ret;
	}
	*out = q;
	return 0;
}

void tt_tensor_queue_free(tt_tensor_queue *q)
{
	if (!q)
		return;
	tt_buffer_free(q->buf);
	tt_dma_buf_free(q->dma);
	free(q->stage_in);
	free(q->stage_out);
	free(q);
}

/* ---- geometry ---- */

const struct tt_shape *tt_tensor_queue_shape(const tt_tensor_queue *q)
{
	if (TT_ARG_NULL(q))
		return NULL;
	return &q->shape;
}

enum tt_data_format tt_tensor_queue_format(const tt_tensor_queue *q)
{
	if (TT_ARG_NULL(q))
		return TT_FLOAT32;
	return q->fmt;
}

enum tt_queue_placement tt_tensor_queue_placement(const tt_tensor_queue *q)
{
	if (TT_ARG_NULL(q))
		return TT_QUEUE_DRAM;
	return q->placement;
}

unsigned tt_tensor_queue_depth(const tt_tensor_queue *q)
{
	if (TT_ARG_NULL(q))
		return 0;
	return q->depth;
}

size_t tt_tensor_queue_entry_size(const tt_tensor_queue *q)
{
	if (TT_ARG_NULL(q))
		return 0;
	return q->entry_size;
}

size_t tt_tensor_queue_slot_size(const tt_tensor_queue *q)
{
	if (TT_ARG_NULL(q))
		return 0;
	return q->slot_size;
}

uint64_t tt_tensor_queue_tiles(const tt_tensor_queue *q)
{
	if (TT_ARG_NULL(q))
		return 0;
	return q->g.tiles;
}

struct tt_xy tt_tensor_queue_noc_xy(const tt_tensor_queue *q)
{
	if (TT_ARG_NULL(q))
		return (struct tt_xy){ 0, 0 };
	return q->noc_xy;
}

uint64_t tt_tensor_queue_noc_addr(const tt_tensor_queue *q)
{
	if (TT_ARG_NULL(q))
		return 0;
	return q->noc_addr;
}

void tt_tensor_queue_kernel_args(const tt_tensor_queue *q,
				 uint32_t args[TT_TQ_KERNEL_ARGS])
{
	if (TT_ARG_NULL(q) || TT_ARG_NULL(args))
		return;
	args[TT_TQ_ARG_XY] = q->noc_xy.x | q->noc_xy.y << 16;
	args[TT_TQ_ARG_ADDR_LO] = (uint32_t)q->noc_addr;
	args[TT_TQ_ARG_ADDR_HI] = (uint32_t)(q->noc_addr >> 32);
	args[TT_TQ_ARG_DEPTH] = q->depth;
	args[TT_TQ_ARG_SLOT_SIZE] = (uint32_t)q->slot_size;
}

/* ---- state ---- */

int tt_tensor_queue_state(tt_tensor_queue *q, struct tt_tensor_queue_state *st)
{
	struct tt_tq_header h;
	int ret;

	if (!q || !st)
		return tt_error(-EINVAL, "tt_tensor_queue_state: %s is NULL",
				q ? "state" : "queue");
	ret = tt_tensor_queue_hdr_read(q, &h);
	if (!ret)
		ret = tt_tensor_queue_hdr_check(q, &h, "tt_tensor_queue_state");
	if (ret)
		return ret;
	st->depth = q->depth;
	st->wr = h.wr;
	st->rd = h.rd;
	st->occupancy = tt_tq_fill(h.wr, h.rd, q->wrap);
	st->broken = h.broken;
	st->device_producer = h.prod_bell != 0;
	st->device_consumer = h.cons_bell != 0;
	return 0;
}

int tt_tensor_queue_break(tt_tensor_queue *q)
{
	if (!q)
		return tt_error(-EINVAL,
				"tt_tensor_queue_break: queue is NULL");
	tt_tensor_queue_mark_broken(q, TT_TQ_BROKEN_HOST);
	return 0;
}

int tt_tensor_queue_reset(tt_tensor_queue *q)
{
	int ret;

	if (!q)
		return tt_error(-EINVAL,
				"tt_tensor_queue_reset: queue is NULL");
	ret = write_header(q);
	/* Sleepers re-read the header and find it empty, not broken. */
	tt_tensor_queue_wake(q, TT_TQ_WR_OFF);
	tt_tensor_queue_wake(q, TT_TQ_RD_OFF);
	return ret;
}

int tt_tensor_queue_set_counters(struct tt_tensor_queue *q, uint32_t wr,
				 uint32_t rd)
{
	int ret = tt_tensor_queue_hdr_write32(q, TT_TQ_WR_OFF, wr);

	return ret ? ret : tt_tensor_queue_hdr_write32(q, TT_TQ_RD_OFF, rd);
}
