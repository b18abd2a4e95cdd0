/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the command queues need from programs and buffers (internal):
 * a program turned into per-core launch descriptions, and buffer I/O.
 */
#ifndef TT_LIB_DISPATCH_H
#define TT_LIB_DISPATCH_H

#include "launch.h"
#include "tt/queue.h"

/* Finalize prog for dev (building kernels if needed) and describe what
 * each of its cores runs; *cores is the caller's to free. The kernel
 * binaries and argument arrays it points to stay valid until the program
 * changes or is freed. */
TT_HIDDEN int tt_dispatch_program_cores(tt_program *prog,
					struct tt_device *dev,
					struct tt_launch_core **cores,
					unsigned *n);

TT_HIDDEN uint64_t tt_dispatch_buffer_size(tt_buffer *buf);
TT_HIDDEN int tt_dispatch_buffer_write(tt_buffer *buf, uint64_t offset,
				       const void *src, uint64_t size);
TT_HIDDEN int tt_dispatch_buffer_read(tt_buffer *buf, uint64_t offset,
				      void *dst, uint64_t size);

#endif /* TT_LIB_DISPATCH_H */
