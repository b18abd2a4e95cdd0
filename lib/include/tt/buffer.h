/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Device buffers (TT-Metal's Buffer, CreateBuffer, DeallocateBuffer,
 * AssignGlobalBufferToProgram and the slow-dispatch direct accessors).
 *
 * A buffer is size bytes of DRAM or L1 cut into pages of page_size bytes
 * (size must be a multiple of page_size). Each page is stored at
 * aligned_page_size = page_size rounded up to the memory's alignment:
 * 32 bytes for DRAM (64 on Blackhole), 16 for L1.
 *
 * Banks. DRAM banks are the device's DRAM channels that are not harvested,
 * in channel order; bank b is reached at port 0 of its channel. L1 banks
 * are the enabled Tensix cores in logical order: bank b is logical core
 * (b % w, b / w) of the w x h logical grid (tt/core.h).
 *
 * Allocation is lock-step: a buffer gets the same address range in every
 * bank of its memory, and tt_buffer_address() is that address. DRAM is
 * allocated bottom-up from 0 to the channel size; L1 top-down from the end
 * of L1 minus the 4 KiB of hart argument areas down to
 * TT_L1_PROG_UNRESERVED (hw/l1.h; below it are firmware, program area and
 * kernel slots; circular buffers grow up from it). First fit; freed space
 * merges with its free neighbours.
 *
 * Interleaved layout: page i is in bank i % n (n banks) at
 * address + (i / n) * aligned_page_size. The buffer reserves
 * ceil(num_pages / n) * aligned_page_size bytes in every bank.
 *
 * Sharded layouts (L1 or DRAM). The buffer is a 2D array of
 * tensor2d_shape_in_pages[0] rows x [1] columns of pages (its product must
 * be the number of pages), page i at row i / columns, column i % columns.
 * A shard is shard_pages = shape / page_shape (rows x columns of pages;
 * shape must be a multiple of page_shape):
 *   - height sharded: shards of shard rows x all columns (the shard width
 *     must equal the buffer's);
 *   - width sharded: shards of all rows x shard columns (the shard height
 *     must equal the buffer's);
 *   - block sharded: shards of shard rows x shard columns.
 * Shards are numbered row-major over the grid of shards (shard row
 * r / shard rows, shard column c / shard columns). Shard k goes to core k
 * of the shard grid listed in orientation order: ROW_MAJOR lists the
 * grid's ranges in their order, each row by row (y outer, x inner);
 * COL_MAJOR each column by column (x outer, y inner). Within its core, a
 * shard is stored as a full shard_rows x shard_columns array of pages,
 * row-major: page (r, c) is at
 *   address + ((r % shard_rows) * shard_columns + c % shard_columns)
 *             * aligned_page_size,
 * so shards at the right and bottom edges, which may hold fewer pages,
 * keep the same strides (their missing pages are unused space). The
 * number of shards must not exceed the number of cores of the grid; cores
 * beyond the last shard hold nothing. L1 shard grids are logical Tensix
 * cores; DRAM shard grids name banks as (bank, 0). A sharded buffer
 * reserves shard_rows * shard_columns * aligned_page_size bytes in EVERY
 * bank of its memory (lock-step, as TT-Metal's allocator), not just on
 * its shard cores.
 *
 * Lifetime. tt_create_buffer returns a buffer holding one reference;
 * tt_assign_global_buffer_to_program (tt/program.h) gives a program another one.
 * tt_deallocate_buffer frees the device memory at once (the object stays:
 * its I/O fails with -ENXIO); tt_buffer_free drops the caller's reference,
 * and the last reference frees the memory and the object. A buffer still
 * referenced when its device is closed loses its memory with the device:
 * its I/O fails with -ENODEV, and it must still be freed.
 *
 * Thread-safety: creating, deallocating and freeing buffers of one device
 * may happen in several threads. I/O on one buffer from several threads
 * is safe but unordered.
 */
#ifndef TT_BUFFER_H
#define TT_BUFFER_H

#include "core.h"
#include "device.h"

typedef struct tt_buffer tt_buffer;

/* TT-Metal's BufferType. Only DRAM and L1 are supported. */
enum tt_buffer_type {
	TT_BUFFER_DRAM = 0,
	TT_BUFFER_L1 = 1,
	TT_BUFFER_SYSTEM_MEMORY = 2,
	TT_BUFFER_L1_SMALL = 3,
	TT_BUFFER_TRACE = 4,
};

/* TT-Metal's TensorMemoryLayout (ND sharding is not supported). */
enum tt_tensor_memory_layout {
	TT_LAYOUT_INTERLEAVED = 0,
	TT_LAYOUT_HEIGHT_SHARDED = 2,
	TT_LAYOUT_WIDTH_SHARDED = 3,
	TT_LAYOUT_BLOCK_SHARDED = 4,
};

enum tt_shard_orientation {
	TT_SHARD_ROW_MAJOR = 0,
	TT_SHARD_COL_MAJOR = 1,
};

/* TT-Metal's ShardSpec: the cores, one shard's shape in elements
 * (height, width) and the order of the cores. */
struct tt_shard_spec {
	const struct tt_core_range_set *grid; /* read at creation only */
	uint32_t shape[2];
	enum tt_shard_orientation orientation;
};

/* TT-Metal's ShardSpecBuffer: the spec, one page's shape in elements
 * (height, width) and the buffer's shape in pages (rows, columns). */
struct tt_shard_spec_buffer {
	struct tt_shard_spec spec;
	uint32_t page_shape[2];
	uint32_t tensor2d_shape_in_pages[2];
};

/*
 * What to create. An interleaved buffer needs device, size, page_size and
 * type (layout 0 is TT_LAYOUT_INTERLEAVED); a sharded one also layout and
 * shard. Options (zero for the defaults):
 *   - fixed_address: allocate exactly at address (the first bank's, the
 *     same in every bank) instead of letting the allocator choose; it
 *     must be aligned and must not overlap another buffer.
 *   - sub_device_id: the sub-device to allocate on; only 0 exists.
 */
struct tt_buffer_config {
	tt_device *device;
	uint64_t size;
	uint64_t page_size;
	enum tt_buffer_type type;
	enum tt_tensor_memory_layout layout;
	struct tt_shard_spec_buffer shard; /* sharded layouts only */
	bool fixed_address;
	uint64_t address;
	unsigned sub_device_id;
};

/*
 * Create and allocate a buffer. Errors (the message names the buffer by
 * type, size, page size and address, and the bad value):
 *   -EINVAL   size or page_size 0, size not a multiple of page_size, bad
 *             layout, shard spec or grid, sub-device other than 0, a
 *             fixed address that is not aligned;
 *   -ENOTSUP  a buffer type other than DRAM and L1;
 *   -ENOMEM   no free range is large enough ("cannot allocate N bytes per
 *             bank in DRAM: largest free block is M bytes (total free
 *             T)"), or out of host memory;
 *   -ERANGE   a fixed address range outside the allocatable range;
 *   -EEXIST   a fixed address range overlapping another buffer (named by
 *             its range).
 */
TT_API int tt_buffer_create(const struct tt_buffer_config *cfg,
			    tt_buffer **out);
/* TT-Metal's CreateBuffer: the same constructor by its familiar name. */
TT_API int tt_create_buffer(const struct tt_buffer_config *cfg,
			    tt_buffer **out);

/*
 * Free the buffer's device memory now (TT-Metal's DeallocateBuffer); the
 * handle stays valid, its I/O then fails with -ENXIO. Deallocating a
 * deallocated buffer does nothing.
 */
TT_API int tt_deallocate_buffer(tt_buffer *buf);

/* The destructor of tt_buffer_create: drop the caller's reference
 * (deallocating the memory if it was the last). NULL is ignored. */
TT_API void tt_buffer_free(tt_buffer *buf);

/* ---- queries (valid on a deallocated buffer too) ---- */

/* Address in the first bank (the same in every bank); 0 once
 * deallocated. */
TT_API uint64_t tt_buffer_address(const tt_buffer *buf);
TT_API uint64_t tt_buffer_size(const tt_buffer *buf);
TT_API uint64_t tt_buffer_page_size(const tt_buffer *buf);
TT_API uint64_t tt_buffer_aligned_page_size(const tt_buffer *buf);
TT_API uint64_t tt_buffer_num_pages(const tt_buffer *buf);
TT_API enum tt_buffer_type tt_buffer_type(const tt_buffer *buf);
TT_API enum tt_tensor_memory_layout tt_buffer_layout(const tt_buffer *buf);
/* NULL once the device was closed. */
TT_API tt_device *tt_buffer_device(const tt_buffer *buf);
/* Is the device memory still allocated? */
TT_API bool tt_buffer_is_allocated(const tt_buffer *buf);
/* Number of banks of the buffer's memory. */
TT_API unsigned tt_buffer_num_banks(const tt_buffer *buf);
/* Bytes the buffer reserves in each bank. */
TT_API uint64_t tt_buffer_bank_size(const tt_buffer *buf);

/* Name of a buffer type ("DRAM", "L1", ...) or layout ("interleaved",
 * "height_sharded", ...). */
TT_API const char *tt_buffer_type_name(enum tt_buffer_type type);
TT_API const char *tt_tensor_memory_layout_name(
	enum tt_tensor_memory_layout layout);

/* Where a page lives. */
struct tt_buffer_page_location {
	unsigned bank; /* DRAM bank or L1 bank (logical core index) */
	struct tt_xy logical; /* L1: logical core; DRAM: (bank, 0) */
	struct tt_xy noc; /* NOC 0 coordinates of the bank */
	uint64_t address; /* local address of the page's first byte */
};

/* Location of page `page` (< num_pages); -EINVAL if out of range,
 * -ENXIO if deallocated. */
TT_API int tt_buffer_page_location(const tt_buffer *buf, uint64_t page,
				   struct tt_buffer_page_location *loc);

/* ---- tensor accessor arguments (TT-Metal's TensorAccessorArgs) ----
 *
 * TensorAccessorArgs(buffer).append_to(args): describe buf to a kernel in
 * argument words, appended at args[*count] (*count grows by their
 * number). Append them to the compile-time args of a kernel
 * (tt_kernel_config.compile_args; the kernel reads them with
 * TensorAccessorArgs(offset)) or to its unique or common runtime args
 * (TensorAccessorArgs_rt / _crt); then TensorAccessor(args, address,
 * page size) gives the NOC address of any page, interleaved or sharded,
 * DRAM or L1 (docs/kernels.md). Interleaved buffers take one word,
 * sharded ones 6 + ceil(shards / 2); at most TT_TENSOR_ACCESSOR_ARGS_MAX.
 * The words do not hold the buffer's address: pass that as a runtime
 * argument, as TT-Metal's examples do.
 *
 * -ENOSPC (nothing appended) if cap - *count is too small, -ENXIO for a
 * deallocated buffer, -ENODEV once its device was closed.
 */
#define TT_TENSOR_ACCESSOR_ARGS_MAX 134u
TT_API int tt_tensor_accessor_args_append(const tt_buffer *buf, uint32_t *args,
					  unsigned cap, unsigned *count);
/* How many words tt_tensor_accessor_args_append adds for buf. */
TT_API unsigned tt_tensor_accessor_args_count(const tt_buffer *buf);

/* ---- alignment (TT-Metal's hal::get_l1_alignment, get_dram_alignment) ----
 *
 * The alignment of addresses and page sizes in L1 and in DRAM of dev's
 * chip, in bytes: 16 for L1, 32 for Wormhole's DRAM and 64 for
 * Blackhole's. 0 if dev cannot hold buffers (tt_last_error says why). */
TT_API uint32_t tt_device_l1_alignment(tt_device *dev);
TT_API uint32_t tt_device_dram_alignment(tt_device *dev);

/* ---- direct I/O (TT-Metal's detail::WriteToBuffer/ReadFromBuffer) ----
 *
 * The host itself moves the data over the NOC, synchronously, without a
 * command queue. len must be the buffer's size; the region forms move
 * [offset, offset + len) of the buffer's bytes (any offset and length
 * inside it). -EINVAL for a length or region that does not fit, -ENXIO
 * for a deallocated buffer, -ENODEV once the device was closed.
 */
TT_API int tt_write_to_buffer(tt_buffer *buf, const void *src, size_t len);
TT_API int tt_read_from_buffer(tt_buffer *buf, void *dst, size_t len);
TT_API int tt_write_to_buffer_region(tt_buffer *buf, uint64_t offset,
				     const void *src, size_t len);
TT_API int tt_read_from_buffer_region(tt_buffer *buf, uint64_t offset,
				      void *dst, size_t len);

/* L1 of a logical Tensix core (TT-Metal's WriteToDeviceL1 /
 * ReadFromDeviceL1): -EINVAL for a core outside the logical grid or a
 * range outside L1. */
TT_API int tt_write_to_device_l1(tt_device *dev, struct tt_xy logical_core,
				 uint64_t addr, const void *src, size_t len);
TT_API int tt_read_from_device_l1(tt_device *dev, struct tt_xy logical_core,
				  uint64_t addr, void *dst, size_t len);

/* A DRAM channel (TT-Metal's WriteToDeviceDRAMChannel /
 * ReadFromDeviceDRAMChannel), through its port 0: -EINVAL for a channel
 * that does not exist or a range outside the channel. */
TT_API int tt_write_to_device_dram_channel(tt_device *dev, unsigned channel,
					   uint64_t addr, const void *src,
					   size_t len);
TT_API int tt_read_from_device_dram_channel(tt_device *dev, unsigned channel,
					    uint64_t addr, void *dst,
					    size_t len);

#endif /* TT_BUFFER_H */
