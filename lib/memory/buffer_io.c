// SPDX-License-Identifier: Apache-2.0
/*
 * Where a buffer's pages live and the direct (slow-dispatch) I/O of
 * tt/buffer.h.
 *
 * Interleaved I/O moves each bank's whole pages in strided passes
 * (noc_strided.h): the pages of bank b are contiguous in the bank and n
 * pages apart in the host's copy, so one window mapping serves a whole
 * pass (one block of the host's copy, below).
 * Partial pages at the ends of a region, and sharded buffers, go through
 * runs: consecutive pieces that are contiguous on the same bank (a
 * shard's pages when page_size is aligned) are merged into one transfer.
 */
#include <errno.h>

#include "alloc.h"
#include "buffer_shard.h"
#include "noc_strided.h"

void tt_buffer_locate(const struct tt_buffer *buf, uint64_t page,
		      unsigned *bank, uint64_t *addr)
{
	if (buf->layout != TT_LAYOUT_INTERLEAVED) {
		tt_buffer_shard_locate(buf, page, bank, addr);
		return;
	}
	*bank = (unsigned)(page % buf->banks);
	*addr = buf->address + page / buf->banks * buf->aligned_page_size;
}

struct tt_xy tt_buffer_bank_xy(const struct tt_buffer *buf, unsigned bank)
{
	const struct tt_bank_layout *b = &buf->alloc->banks;

	return buf->type == TT_BUFFER_DRAM ? b->dram_xy[bank] : b->l1_xy[bank];
}

/* The buffer can be used: its device is open and its memory allocated. */
static int usable(const struct tt_buffer *buf)
{
	char what[160];

	if (!buf->dev)
		return tt_error(-ENODEV, "%s: its device was closed",
				tt_buffer_describe(buf, what, sizeof(what)));
	if (!buf->allocated)
		return tt_error(-ENXIO, "%s: deallocated",
				tt_buffer_describe(buf, what, sizeof(what)));
	return 0;
}

int tt_buffer_page_location(const tt_buffer *buf, uint64_t page,
			    struct tt_buffer_page_location *loc)
{
	char what[160];
	int ret;

	TT_CHECK_ARG(buf);
	TT_CHECK_ARG(loc);
	ret = usable(buf);
	if (ret)
		return ret;
	if (page >= buf->num_pages)
		return tt_error(-EINVAL, "%s: page %llu out of range (0..%llu)",
				tt_buffer_describe(buf, what, sizeof(what)),
				(unsigned long long)page,
				(unsigned long long)buf->num_pages - 1);
	tt_buffer_locate(buf, page, &loc->bank, &loc->address);
	loc->noc = tt_buffer_bank_xy(buf, loc->bank);
	if (buf->type == TT_BUFFER_DRAM) {
		loc->logical = (struct tt_xy){ loc->bank, 0 };
	} else {
		unsigned w = buf->alloc->banks.grid_w;

		loc->logical = (struct tt_xy){ loc->bank % w, loc->bank / w };
	}
	return 0;
}

/* ---- runs: contiguous pieces on one bank ---- */

struct run {
	bool open;
	unsigned bank;
	uint64_t addr; /* on the bank */
	uint8_t *host;
	size_t len;
};

static int run_flush(struct tt_buffer *buf, struct run *r, bool write)
{
	struct tt_xy xy;
	int ret;

	if (!r->open)
		return 0;
	r->open = false;
	xy = tt_buffer_bank_xy(buf, r->bank);
	ret = write ? tt_noc_write(buf->dev, 0, xy.x, xy.y, r->addr, r->host,
				   r->len) :
		      tt_noc_read(buf->dev, 0, xy.x, xy.y, r->addr, r->host,
				  r->len);
	return ret;
}

/* Add a piece; host pieces arrive in order, so only the device side needs
 * checking for contiguity. */
static int run_add(struct tt_buffer *buf, struct run *r, unsigned bank,
		   uint64_t addr, uint8_t *host, size_t len, bool write)
{
	int ret;

	if (r->open && r->bank == bank && r->addr + r->len == addr) {
		r->len += len;
		return 0;
	}
	ret = run_flush(buf, r, write);
	*r = (struct run){ true, bank, addr, host, len };
	return ret;
}

/* Bytes [off, off + len) of the buffer, page piece by page piece. */
static int by_runs(struct tt_buffer *buf, uint64_t off, uint8_t *host,
		   size_t len, bool write)
{
	struct run r = { .open = false };
	int ret = 0;

	while (len && !ret) {
		uint64_t page = off / buf->page_size, in = off % buf->page_size;
		size_t n = buf->page_size - in < len ? buf->page_size - in : len;
		unsigned bank;
		uint64_t addr;

		tt_buffer_locate(buf, page, &bank, &addr);
		ret = run_add(buf, &r, bank, addr + in, host, n, write);
		off += n;
		host += n;
		len -= n;
	}
	if (!ret)
		ret = run_flush(buf, &r, write);
	return ret;
}

/* Whole pages [first, end) of an interleaved buffer, bank by bank; host
 * holds page `first`. */
static int bank_pass(struct tt_buffer *buf, uint64_t first, uint64_t end,
		     uint8_t *host, bool write)
{
	uint64_t n = buf->banks;

	for (uint64_t b = 0; b < n && first + b < end; b++) {
		uint64_t p = first + b; /* first page on this bank */
		unsigned bank;
		struct tt_noc_strided s = {
			.dev_stride = buf->aligned_page_size,
			.host = host + b * buf->page_size,
			.host_stride = n * buf->page_size,
			.len = buf->page_size,
			.count = (end - p + n - 1) / n,
		};
		struct tt_xy xy;
		int ret;

		tt_buffer_locate(buf, p, &bank, &s.addr);
		xy = tt_buffer_bank_xy(buf, bank);
		s.x = xy.x;
		s.y = xy.y;
		ret = tt_noc_strided(buf->dev, &s, write);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Whole pages [first, end) in blocks of about PASS_BYTES of the host's
 * copy, each block one pass per bank: the block stays in the host's
 * caches while the banks fill or drain it, which measurably helps reads
 * (host stores scattered over 64 MiB are slower than over 256 KiB). The
 * cost is one window re-configuration per bank per block.
 */
#define PASS_BYTES (256u << 10)

static int interleaved_pages(struct tt_buffer *buf, uint64_t first,
			     uint64_t end, uint8_t *host, bool write)
{
	uint64_t row = buf->banks * buf->page_size;
	uint64_t step = (PASS_BYTES / row ? PASS_BYTES / row : 1) * buf->banks;

	for (uint64_t p = first; p < end; p += step) {
		uint64_t e = end - p > step ? p + step : end;
		int ret = bank_pass(buf, p, e, host + (p - first) * buf->page_size,
				    write);

		if (ret)
			return ret;
	}
	return 0;
}

static int transfer(struct tt_buffer *buf, uint64_t off, uint8_t *host,
		    size_t len, bool write)
{
	uint64_t ps = buf->page_size, first, end;
	size_t head, tail;
	int ret;

	if (buf->layout != TT_LAYOUT_INTERLEAVED)
		return by_runs(buf, off, host, len, write);
	/* The partial pages at both ends, then the whole pages between. */
	head = off % ps ? (size_t)(ps - off % ps) : 0;
	if (head >= len)
		return by_runs(buf, off, host, len, write);
	first = (off + head) / ps;
	end = (off + len) / ps;
	tail = (size_t)((off + len) % ps);
	ret = by_runs(buf, off, host, head, write);
	if (!ret)
		ret = interleaved_pages(buf, first, end, host + head, write);
	if (!ret)
		ret = by_runs(buf, end * ps, host + (len - tail), tail, write);
	return ret;
}

static int region_io(tt_buffer *buf, uint64_t off, void *host, size_t len,
		     bool write)
{
	char what[160];
	int ret;

	ret = usable(buf);
	if (ret)
		return ret;
	if (off > buf->size || len > buf->size - off)
		return tt_error(-EINVAL,
				"%s: region [%llu, +%zu) is outside its %llu bytes",
				tt_buffer_describe(buf, what, sizeof(what)),
				(unsigned long long)off, len,
				(unsigned long long)buf->size);
	return transfer(buf, off, host, len, write);
}

static int whole_io(tt_buffer *buf, void *host, size_t len, bool write)
{
	char what[160];

	if (buf->dev && len != buf->size)
		return tt_error(-EINVAL, "%s: %s %zu bytes, not its size",
				tt_buffer_describe(buf, what, sizeof(what)),
				write ? "writing" : "reading", len);
	return region_io(buf, 0, host, len, write);
}

int tt_write_to_buffer(tt_buffer *buf, const void *src, size_t len)
{
	if (TT_ARG_NULL(buf) || TT_ARG_NULL_LEN(src, len))
		return -EINVAL;
	return whole_io(buf, (void *)src, len, true);
}

int tt_read_from_buffer(tt_buffer *buf, void *dst, size_t len)
{
	if (TT_ARG_NULL(buf) || TT_ARG_NULL_LEN(dst, len))
		return -EINVAL;
	return whole_io(buf, dst, len, false);
}

int tt_write_to_buffer_region(tt_buffer *buf, uint64_t offset,
			      const void *src, size_t len)
{
	if (TT_ARG_NULL(buf) || TT_ARG_NULL_LEN(src, len))
		return -EINVAL;
	return region_io(buf, offset, (void *)src, len, true);
}

int tt_read_from_buffer_region(tt_buffer *buf, uint64_t offset, void *dst,
			       size_t len)
{
	if (TT_ARG_NULL(buf) || TT_ARG_NULL_LEN(dst, len))
		return -EINVAL;
	return region_io(buf, offset, dst, len, false);
}

/* ---- direct access to one core's L1 or one DRAM channel ---- */

static int l1_io(tt_device *dev, struct tt_xy core, uint64_t addr,
		 void *host, size_t len, bool write)
{
	struct tt_allocator *a;
	struct tt_xy xy;
	int ret;

	ret = tt_allocator_get(dev, &a);
	if (ret)
		return ret;
	if (core.x >= a->banks.grid_w || core.y >= a->banks.grid_h)
		return tt_error(-EINVAL,
				"%s: logical core (%u,%u) is outside the %ux%u grid",
				dev->name, core.x, core.y, a->banks.grid_w,
				a->banks.grid_h);
	if (addr > dev->info.l1_size || len > dev->info.l1_size - addr)
		return tt_error(-EINVAL,
				"%s: [0x%llx, +%zu) is outside the L1 of logical core (%u,%u) (%llu bytes)",
				dev->name, (unsigned long long)addr, len,
				core.x, core.y,
				(unsigned long long)dev->info.l1_size);
	xy = a->banks.l1_xy[core.y * a->banks.grid_w + core.x];
	return write ? tt_noc_write(dev, 0, xy.x, xy.y, addr, host, len) :
		       tt_noc_read(dev, 0, xy.x, xy.y, addr, host, len);
}

int tt_write_to_device_l1(tt_device *dev, struct tt_xy logical_core,
			  uint64_t addr, const void *src, size_t len)
{
	if (TT_ARG_NULL(dev) || TT_ARG_NULL_LEN(src, len))
		return -EINVAL;
	return l1_io(dev, logical_core, addr, (void *)src, len, true);
}

int tt_read_from_device_l1(tt_device *dev, struct tt_xy logical_core,
			   uint64_t addr, void *dst, size_t len)
{
	if (TT_ARG_NULL(dev) || TT_ARG_NULL_LEN(dst, len))
		return -EINVAL;
	return l1_io(dev, logical_core, addr, dst, len, false);
}

static int dram_io(tt_device *dev, unsigned channel, uint64_t addr,
		   void *host, size_t len, bool write)
{
	uint64_t size = dev->info.dram_channel_size;
	struct tt_xy xy;
	int ret;

	ret = tt_device_dram_core(dev, channel, 0, &xy);
	if (ret)
		return ret;
	if (addr > size || len > size - addr)
		return tt_error(-EINVAL,
				"%s: [0x%llx, +%zu) is outside DRAM channel %u (%llu bytes)",
				dev->name, (unsigned long long)addr, len,
				channel, (unsigned long long)size);
	return write ? tt_noc_write(dev, 0, xy.x, xy.y, addr, host, len) :
		       tt_noc_read(dev, 0, xy.x, xy.y, addr, host, len);
}

int tt_write_to_device_dram_channel(tt_device *dev, unsigned channel,
				    uint64_t addr, const void *src, size_t len)
{
	if (TT_ARG_NULL(dev) || TT_ARG_NULL_LEN(src, len))
		return -EINVAL;
	return dram_io(dev, channel, addr, (void *)src, len, true);
}

int tt_read_from_device_dram_channel(tt_device *dev, unsigned channel,
				     uint64_t addr, void *dst, size_t len)
{
	if (TT_ARG_NULL(dev) || TT_ARG_NULL_LEN(dst, len))
		return -EINVAL;
	return dram_io(dev, channel, addr, dst, len, false);
}
