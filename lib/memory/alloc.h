/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Device memory allocation (internal): the bank layout of a device
 * (banks.c), lock-step regions and the per-device allocator (alloc.c),
 * and the hooks between buffers and programs (buffer.c).
 *
 * A region is the range [lo, hi) of local addresses every bank of one
 * memory offers; an allocation takes the same range in all banks. Used
 * ranges are kept sorted, so free space is the gaps between them and
 * freeing merges with the neighbouring gaps by construction.
 */
#ifndef TT_LIB_ALLOC_H
#define TT_LIB_ALLOC_H

#include "hw/dram.h"
#include "hw/l1.h"
#include "lib/device/internal.h"
#include "tt/buffer.h"

/* Nothing in a DRAM channel is reserved: the model keeps nothing there. */
#define TT_DRAM_UNRESERVED 0ull
/* Alignment of pages and allocations, TT-Metal's. */
#define TT_DRAM_ALIGN 32u
#define TT_DRAM_ALIGN_BLACKHOLE 64u
#define TT_L1_ALIGN 16u
/* The hart argument areas at the end of L1 (lib/README.md). */
#define TT_L1_ARGS_SIZE 4096u

/* ---- bank layout (banks.c) ---- */

struct tt_bank_layout {
	unsigned dram_banks;
	unsigned dram_channel[TT_DRAM_MAX_CHANNELS]; /* channel of bank b */
	struct tt_xy dram_xy[TT_DRAM_MAX_CHANNELS]; /* its port 0, NOC 0 */
	unsigned l1_banks; /* = enabled Tensix cores */
	unsigned grid_w, grid_h; /* logical grid: l1_banks = w * h */
	struct tt_xy l1_xy[TT_BANKS_MAX_L1]; /* NOC 0, logical order */
	/* Allocatable [lo, hi) in every bank, and the alignment. */
	uint64_t dram_lo, dram_hi, l1_lo, l1_hi;
	uint32_t dram_align, l1_align;
};

/* The bank layout of dev. -EPROTO if the device cannot hold buffers (no
 * DRAM channel, too many cores, L1 too small). */
TT_HIDDEN int tt_banks_layout(struct tt_device *dev,
			      struct tt_bank_layout *out);

/* The device-side bank table (hw/l1.h) of dev. */
TT_HIDDEN int tt_banks_table(struct tt_device *dev, struct tt_bank_table *t);

/* ---- regions (alloc.c) ---- */

struct tt_span {
	uint64_t addr, size; /* size rounded up to the alignment */
	uint64_t owner; /* the buffer's id, for messages */
};

struct tt_region {
	const char *name; /* "DRAM", "L1" */
	uint64_t lo, hi; /* allocatable [lo, hi) per bank */
	uint64_t align; /* a power of two; lo and hi are multiples */
	bool top_down; /* first fit from hi downwards (L1) */
	struct tt_span *spans; /* used ranges, sorted by address */
	size_t n, cap;
};

TT_HIDDEN void tt_region_init(struct tt_region *r, const char *name,
			      uint64_t lo, uint64_t hi, uint64_t align,
			      bool top_down);
TT_HIDDEN void tt_region_fini(struct tt_region *r);

/*
 * Reserve size bytes (rounded up to the alignment) in every bank; *addr
 * is the start. `what` names the buffer in messages. -ENOMEM ("what:
 * cannot allocate N bytes per bank in DRAM: largest free block is M
 * bytes (total free T)") if no gap fits.
 */
TT_HIDDEN int tt_region_alloc(struct tt_region *r, uint64_t size,
			      uint64_t owner, const char *what,
			      uint64_t *addr);

/* Reserve [addr, addr + size) exactly: -EINVAL if addr is not aligned,
 * -ERANGE outside [lo, hi), -EEXIST over a used range (named). */
TT_HIDDEN int tt_region_alloc_at(struct tt_region *r, uint64_t addr,
				 uint64_t size, uint64_t owner,
				 const char *what);

/* Release the range starting at addr; -ENOENT if there is none. */
TT_HIDDEN int tt_region_free(struct tt_region *r, uint64_t addr);

/* Free space: the largest gap and the sum of all gaps, in bytes. */
TT_HIDDEN void tt_region_free_space(const struct tt_region *r,
				    uint64_t *largest, uint64_t *total);

/* Lowest used address, or hi if nothing is used. */
TT_HIDDEN uint64_t tt_region_lowest(const struct tt_region *r);

/* ---- the device's allocator (alloc.c) ---- */

struct tt_allocator {
	pthread_mutex_t lock; /* regions, ids and the buffer list */
	struct tt_bank_layout banks;
	struct tt_region dram, l1;
	uint64_t next_id;
	struct tt_buffer *buffers; /* live buffer objects, to detach */
};

/* dev's allocator in *out, created on first use. -ENOMEM, or -EPROTO
 * as tt_banks_layout. */
TT_HIDDEN int tt_allocator_get(struct tt_device *dev,
			       struct tt_allocator **out);

/* At device close: every buffer still alive loses its memory and its
 * device (buffer.c's tt_buffer_detach), then the allocator is freed. */
TT_HIDDEN void tt_allocator_destroy(struct tt_device *dev);
/* The allocator's close hook runs after those of the layers above memory/,
 * which may still hold buffers while they close (tt_device_on_close). */
#define TT_MEMORY_CLOSE_LEVEL 2

/*
 * For circular-buffer placement: the lowest address of any L1 buffer on
 * logical core `core` (L1 buffers are lock-step over all cores, so the
 * same on every core), or the end of the usable L1 if there is none.
 */
TT_HIDDEN uint64_t tt_alloc_l1_lowest(struct tt_device *dev,
				      struct tt_xy core);

/* The L1 range programs and L1 buffers share: [TT_L1_PROG_UNRESERVED,
 * end of L1 minus the hart argument areas). -EPROTO as tt_banks_layout. */
TT_HIDDEN int tt_alloc_l1_range(struct tt_device *dev, uint64_t *lo,
				uint64_t *hi);

/* ---- buffer objects (buffer.c, buffer_io.c) ---- */

struct tt_buffer {
	struct tt_device *dev; /* NULL once the device was closed */
	struct tt_allocator *alloc; /* dev's; NULL with dev */
	uint64_t id; /* per device, from 1; names the buffer in messages */
	unsigned refs; /* atomic */
	bool allocated;
	enum tt_buffer_type type;
	enum tt_tensor_memory_layout layout;
	uint64_t size, page_size, aligned_page_size, num_pages;
	uint64_t address; /* in every bank */
	uint64_t bank_size; /* reserved in every bank */
	unsigned banks; /* of its memory */
	/* Sharded layouts: the buffer's pages (rows, columns), a shard's,
	 * shards per row of shards, and the bank of each shard. */
	uint64_t rows, cols;
	uint32_t shard_rows, shard_cols;
	uint64_t shards_per_row;
	unsigned nshards;
	unsigned *shard_bank;
	/* The allocator's list of live buffers. */
	struct tt_buffer *prev, *next;
};

/* "DRAM buffer #3 (65536 bytes, page size 2048, at 0x40000)" into out. */
TT_HIDDEN const char *tt_buffer_describe(const struct tt_buffer *buf,
					 char *out, size_t len);

/* Bank and local address of page `page` (< num_pages) of an allocated
 * buffer. */
TT_HIDDEN void tt_buffer_locate(const struct tt_buffer *buf, uint64_t page,
				unsigned *bank, uint64_t *addr);

/* NOC 0 coordinates of bank b of the buffer's memory. */
TT_HIDDEN struct tt_xy tt_buffer_bank_xy(const struct tt_buffer *buf,
					 unsigned bank);

/* ---- buffers and programs (buffer.c; the hook is the program's) ---- */

/* Take / drop a reference; the last one deallocates and frees. */
TT_HIDDEN void tt_buffer_ref(struct tt_buffer *buf);
TT_HIDDEN void tt_buffer_unref(struct tt_buffer *buf);

/* Called with the allocator locked at device close. */
TT_HIDDEN void tt_buffer_detach(struct tt_buffer *buf);

#endif /* TT_LIB_ALLOC_H */
