/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tensor queues (docs/queues.md): a ring of `depth` slots, each holding
 * one tensor of a fixed shape and data format in tile layout, with read
 * and write pointers both the host and device kernels can see. One
 * producer and one consumer; either may be the host or a device kernel
 * (kernel side: firmware/include/kernel_api/tensor_queue.h).
 *
 * Placement: TT_QUEUE_DRAM puts header and slots in one DRAM bank of the
 * device (the host reaches it by NOC transfers); TT_QUEUE_HOST in a DMA
 * buffer (tt/dma.h): host memory the device reaches through its PCIe
 * core, which the host reads and writes directly.
 *
 * Waiting. Calls that wait take timeout_ms: TT_TQ_NONBLOCK (0) fails at
 * once with -EAGAIN, TT_TQ_FOREVER (-1) waits until the condition holds
 * or the queue is broken, n > 0 fails with -ETIMEDOUT after n ms. A
 * waiting host thread sleeps (device interrupts, a futex, or sleeps of
 * at most 20 ms); it never spins.
 *
 * Broken queues. tt_tensor_queue_break (host) or tq_break (kernel) marks
 * the queue broken; so does a host side that finds the peer's host
 * process gone while it waits. Every later push, get, pop (and waits in
 * progress, within 20 ms) fail with -EPIPE and a message saying who
 * broke it; tt_tensor_queue_reset starts the queue over, empty.
 *
 * Hostile headers. The counters in the queue's header are written by the
 * other side (a device kernel, another process): when they are out of
 * range or count more than depth entries, push, get, read, pop and state
 * fail with -EPROTO naming the queue and the value (docs/queues.md).
 *
 * Errors: 0 or a negative errno, with tt_last_error() naming the queue
 * ("DRAM queue [1,1,32,1024] Float16_b x4") and the fault.
 *
 * Thread-safety: one thread may produce while another consumes; two
 * producers (or consumers) must not share a queue.
 */
#ifndef TT_TENSOR_QUEUE_H
#define TT_TENSOR_QUEUE_H

#include "tensor.h"

typedef struct tt_tensor_queue tt_tensor_queue;

enum tt_queue_placement {
	TT_QUEUE_DRAM = 0,
	TT_QUEUE_HOST = 1,
};

#define TT_TQ_NONBLOCK 0
#define TT_TQ_FOREVER (-1)

/* Largest depth (a queue also needs depth * slot bytes of memory). */
#define TT_TQ_MAX_DEPTH 65536u

/*
 * A new, empty queue of depth (1..TT_TQ_MAX_DEPTH) entries, each a
 * tensor of shape in fmt (tile layout; any tensor format). Errors:
 * -EINVAL (shape, format, depth, placement), -ENOMEM (device or host
 * memory), -ENOSPC (no more DMA buffers).
 */
TT_API int tt_tensor_queue_create(tt_device *dev, const struct tt_shape *shape,
				  enum tt_data_format fmt, unsigned depth,
				  enum tt_queue_placement placement,
				  tt_tensor_queue **out);

/* Free the queue and its memory; kernels must no longer use it. NULL is
 * ignored. */
TT_API void tt_tensor_queue_free(tt_tensor_queue *q);

/* ---- host producer ---- */

/*
 * Append t (the queue's [w, z, r, c]; any format and layout: converted
 * and tilized into the slot) when a slot is free. -EAGAIN (non-blocking,
 * full), -ETIMEDOUT, -EPIPE (broken), -EINVAL (shape), conversion errors.
 */
TT_API int tt_tensor_queue_push(tt_tensor_queue *q, const tt_tensor *t,
				int timeout_ms);

/* ---- host consumer ---- */

/*
 * The head entry, when there is one, as a new tiled tensor in the queue's
 * format (the caller frees it); the entry stays in the queue until
 * tt_tensor_queue_pop. -EAGAIN (empty, non-blocking), -ETIMEDOUT, -EPIPE.
 */
TT_API int tt_tensor_queue_get(tt_tensor_queue *q, int timeout_ms,
			       tt_tensor **out);

/* The same into the caller's tensor dst (same [w, z, r, c], any format
 * and layout: converted and untilized). */
TT_API int tt_tensor_queue_read(tt_tensor_queue *q, tt_tensor *dst,
				int timeout_ms);

/* Drop the head entry. -EAGAIN if the queue is empty, -EPIPE if broken. */
TT_API int tt_tensor_queue_pop(tt_tensor_queue *q);

/* ---- state ---- */

struct tt_tensor_queue_state {
	unsigned depth;
	unsigned occupancy; /* wr - rd, modulo the wrap point */
	uint32_t wr, rd;    /* counters, wrapping at the largest multiple of
			     * depth below 2^32 (docs/queues.md) */
	unsigned broken;    /* 0, else 1 host, 2 kernel, 3 peer process gone */
	bool device_producer, device_consumer; /* a kernel's bell is set */
};

TT_API int tt_tensor_queue_state(tt_tensor_queue *q,
				 struct tt_tensor_queue_state *st);

/* Mark broken: every waiter and later call of either side fails with
 * -EPIPE (kernels: tq_* return TQ_EPIPE). */
TT_API int tt_tensor_queue_break(tt_tensor_queue *q);

/* Start over: empty, not broken, no bells. Only when no kernel uses the
 * queue. */
TT_API int tt_tensor_queue_reset(tt_tensor_queue *q);

/* ---- geometry ---- */

TT_API const struct tt_shape *tt_tensor_queue_shape(const tt_tensor_queue *q);
TT_API enum tt_data_format tt_tensor_queue_format(const tt_tensor_queue *q);
TT_API enum tt_queue_placement
tt_tensor_queue_placement(const tt_tensor_queue *q);
TT_API unsigned tt_tensor_queue_depth(const tt_tensor_queue *q);
/* Bytes of one entry (tiles * tile size) and of its slot (aligned). */
TT_API size_t tt_tensor_queue_entry_size(const tt_tensor_queue *q);
TT_API size_t tt_tensor_queue_slot_size(const tt_tensor_queue *q);
/* Tiles of one entry. */
TT_API uint64_t tt_tensor_queue_tiles(const tt_tensor_queue *q);

/* Where the device sees the header: node (NOC 0) and local address. */
TT_API struct tt_xy tt_tensor_queue_noc_xy(const tt_tensor_queue *q);
TT_API uint64_t tt_tensor_queue_noc_addr(const tt_tensor_queue *q);

/* The TT_TQ_ARGS (5) runtime arguments a kernel opens the queue from
 * (tq_open in kernel_api/tensor_queue.h), into args[0..4]. */
#define TT_TQ_KERNEL_ARGS 5
TT_API void tt_tensor_queue_kernel_args(const tt_tensor_queue *q,
					uint32_t args[TT_TQ_KERNEL_ARGS]);

#endif /* TT_TENSOR_QUEUE_H */
