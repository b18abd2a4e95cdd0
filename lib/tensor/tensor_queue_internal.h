/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tensor queues, internal side (tt/tensor_queue.h, hw/tqueue.h): the
 * queue object shared by tensor_queue.c (creation, queries, break,
 * reset) and tensor_queue_io.c (header access, waits, push/get/pop).
 */
#ifndef TT_LIB_TENSOR_QUEUE_INTERNAL_H
#define TT_LIB_TENSOR_QUEUE_INTERNAL_H

#include "hw/tqueue.h"
#include "tensor_internal.h"
#include "tt/buffer.h"
#include "tt/tensor_queue.h"

struct tt_tensor_queue {
	tt_device *dev;
	struct tt_shape shape;
	struct tt_tgeom g;
	enum tt_data_format fmt;
	enum tt_queue_placement placement;
	unsigned depth;
	uint32_t wrap;	   /* the counters' wrap point, tt_tq_wrap(depth) */
	size_t entry_size; /* tiles * tile size */
	size_t slot_size;  /* entry_size aligned to TT_TQ_SLOT_ALIGN */
	size_t total;	   /* header + slots */
	/* DRAM: the buffer (one page: the whole queue in bank 0). */
	tt_buffer *buf;
	/* Host: the DMA buffer and its mapping. */
	tt_dma_buf *dma;
	uint8_t *mem;
	struct tt_xy noc_xy; /* where the device sees the header */
	uint64_t noc_addr;
	/* DRAM: conversion staging, one entry each for the producer and the
	 * consumer (they may be different threads). */
	uint8_t *stage_in, *stage_out;
	/* The process that last stored its pid as producer / consumer
	 * (a forked child must store its own). */
	int pid_stored[2];
	char name[TT_DESC_LEN]; /* "DRAM queue [1,1,32,1024] Float16_b x4" */
};

/* ---- header access (tensor_queue_io.c) ---- */

TT_HIDDEN int tt_tensor_queue_hdr_read(struct tt_tensor_queue *q, struct tt_tq_header *h);
/* 0, or -EPROTO naming the queue and the value when h's counters are out
 * of range (>= wrap) or count more than depth entries: nothing the
 * device or the other process wrote is trusted. */
TT_HIDDEN int tt_tensor_queue_hdr_check(struct tt_tensor_queue *q,
					const struct tt_tq_header *h,
					const char *call);
TT_HIDDEN int tt_tensor_queue_hdr_write32(struct tt_tensor_queue *q, uint32_t off,
				uint32_t val);
/* Write val at word `off` of the bell at NOC address bell (kernel's L1). */
TT_HIDDEN int tt_tensor_queue_ring_bell(struct tt_tensor_queue *q, uint64_t bell,
			      uint32_t off, uint32_t val);
/* Wake host threads asleep on the header's word at off (host queues). */
TT_HIDDEN void tt_tensor_queue_wake(struct tt_tensor_queue *q, uint32_t off);
/* Store reason in broken and tell every sleeper; returns -EPIPE with a
 * message (what happened, from the caller). */
TT_HIDDEN int tt_tensor_queue_mark_broken(struct tt_tensor_queue *q, uint32_t reason);
/* -EPIPE with a message naming who broke the queue. */
TT_HIDDEN int tt_tensor_queue_broken_error(struct tt_tensor_queue *q, uint32_t reason,
				 const char *call);

/* ---- tests only (tensor_queue.c) ---- */

/* Store wr and rd in the header as given, unchecked, before either side
 * starts: the unit tests place the counters next to the wrap point, or
 * out of range as a hostile device would. Not part of the API. */
TT_HIDDEN int tt_tensor_queue_set_counters(struct tt_tensor_queue *q,
					   uint32_t wr, uint32_t rd);

#endif /* TT_LIB_TENSOR_QUEUE_INTERNAL_H */
