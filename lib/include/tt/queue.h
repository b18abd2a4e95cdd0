/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Command queues and events (TT-Metal's CommandQueue API: the Enqueue*,
 * Finish and Event* calls of tt_metal/api/tt-metalium/host_api.hpp before
 * the mesh API replaced them).
 *
 * A device has TT_CQ_MAX command queues. Commands run in the order they
 * were enqueued on their queue; a command may start before the previous
 * one finished only where the result cannot be told apart (it never is,
 * today: each command completes before the next starts). Non-blocking
 * calls return at once: the memory they read from or write to must stay
 * valid, and unchanged for writes, until the command completed (after
 * tt_finish(), or an event recorded after it). Blocking calls return when
 * their command (and so every earlier one) completed.
 *
 * Programs are dispatched the way TT_DISPATCH selects (docs/dispatch.md):
 * "fast" (the default) or "slow"; both give the same
 * results. A program's kernels are built on its first enqueue; kernel
 * binaries already on a core are not uploaded again.
 *
 * Errors of a command that ran asynchronously (a kernel that faulted, a
 * program that hung) are reported by the next call on the queue that
 * waits (tt_finish, a blocking enqueue, tt_event_synchronize), and the
 * queue stays usable.
 */
#ifndef TT_QUEUE_H
#define TT_QUEUE_H

#include "device.h"

#define TT_CQ_MAX 2

typedef struct tt_command_queue tt_command_queue;
typedef struct tt_event tt_event;
typedef struct tt_program tt_program;
typedef struct tt_buffer tt_buffer;

/* Command queue cq_id (0 .. TT_CQ_MAX - 1) of a device; owned by the
 * device handle. */
TT_API int tt_device_command_queue(tt_device *dev, unsigned cq_id,
				   tt_command_queue **out);

/* Copy len = tt_buffer_size(buf) bytes from src into buf. */
TT_API int tt_enqueue_write_buffer(tt_command_queue *cq, tt_buffer *buf,
				   const void *src, bool blocking);
/* Copy buf into dst (tt_buffer_size(buf) bytes). */
TT_API int tt_enqueue_read_buffer(tt_command_queue *cq, tt_buffer *buf,
				  void *dst, bool blocking);
/* The same with the length of src or dst (TT-Metal's vector forms, whose
 * size is checked): len must be tt_buffer_size(buf), else -EINVAL naming
 * both and nothing is moved. */
TT_API int tt_enqueue_write_buffer_len(tt_command_queue *cq, tt_buffer *buf,
				       const void *src, size_t len,
				       bool blocking);
TT_API int tt_enqueue_read_buffer_len(tt_command_queue *cq, tt_buffer *buf,
				      void *dst, size_t len, bool blocking);
/* The same for [offset, offset + size) of the buffer. */
TT_API int tt_enqueue_write_sub_buffer(tt_command_queue *cq, tt_buffer *buf,
				       const void *src, uint64_t offset,
				       uint64_t size, bool blocking);
TT_API int tt_enqueue_read_sub_buffer(tt_command_queue *cq, tt_buffer *buf,
				      void *dst, uint64_t offset,
				      uint64_t size, bool blocking);

/* Run a program: build its kernels if needed, upload what changed, run
 * it on every core it uses, wait for all its kernels (if blocking). */
TT_API int tt_enqueue_program(tt_command_queue *cq, tt_program *prog,
			      bool blocking);

/* Wait until every command enqueued so far has completed. */
TT_API int tt_finish(tt_command_queue *cq);

/* Events. An event is recorded on a queue and completes when every
 * command enqueued before it has. */
TT_API int tt_event_create(tt_event **out);
TT_API void tt_event_free(tt_event *ev);
TT_API int tt_enqueue_record_event(tt_command_queue *cq, tt_event *ev);
/* Commands enqueued on cq after this wait until ev completed (ev may
 * belong to another queue of the same device). */
TT_API int tt_enqueue_wait_for_event(tt_command_queue *cq, tt_event *ev);
/* Block until ev completed; its queue's error if a command before it
 * failed. */
TT_API int tt_event_synchronize(tt_event *ev);
/* 1 if ev completed, 0 if not yet, < 0 on error (never recorded). */
TT_API int tt_event_query(tt_event *ev);

/* Wait for every queue of the device (TT-Metal's Synchronize). */
TT_API int tt_synchronize(tt_device *dev);

/* Program timeout: a program whose kernels have not all finished after
 * this many ms is reported as hung (default 10000, or TT_PROGRAM_TIMEOUT_MS
 * from the environment); 0 = never. */
TT_API void tt_command_queue_set_timeout(tt_command_queue *cq,
					 unsigned timeout_ms);

/*
 * Recover now, instead of at the next program on each, every core that
 * tt_device_core_problems() (tt/hart.h) reports: harts restarted, launch
 * state cleared, as docs/dispatch.md "Recovery" describes. Takes the chip's
 * runtime first (-EBUSY names another owner). -EBUSY too while a program
 * of this process runs, or when a core cannot be recovered (the message
 * names it). Stores how many cores were recovered in *recovered (may be
 * NULL).
 */
TT_API int tt_device_recover_cores(tt_device *dev, unsigned *recovered);

#endif /* TT_QUEUE_H */
