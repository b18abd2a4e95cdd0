// SPDX-License-Identifier: Apache-2.0
/*
 * Buffer objects (tt/buffer.h): checking a configuration, allocating it
 * through the device's allocator, reference counting and queries. Page
 * placement and I/O are in buffer_io.c, sharded geometry in
 * buffer_shard.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buffer_shard.h"

const char *tt_buffer_type_name(enum tt_buffer_type type)
{
	switch (type) {
	case TT_BUFFER_DRAM:
		return "DRAM";
	case TT_BUFFER_L1:
		return "L1";
	case TT_BUFFER_SYSTEM_MEMORY:
		return "SYSTEM_MEMORY";
	case TT_BUFFER_L1_SMALL:
		return "L1_SMALL";
	case TT_BUFFER_TRACE:
		return "TRACE";
	}
	return "invalid";
}

const char *tt_tensor_memory_layout_name(enum tt_tensor_memory_layout layout)
{
	switch (layout) {
	case TT_LAYOUT_INTERLEAVED:
		return "interleaved";
	case TT_LAYOUT_HEIGHT_SHARDED:
		return "height_sharded";
	case TT_LAYOUT_WIDTH_SHARDED:
		return "width_sharded";
	case TT_LAYOUT_BLOCK_SHARDED:
		return "block_sharded";
	}
	return "invalid";
}

static const char *describe(char *out, size_t len, enum tt_buffer_type type,
			    uint64_t id, uint64_t size, uint64_t page_size,
			    bool has_addr, uint64_t addr)
{
	char num[32] = "", at[40] = "";

	if (id)
		snprintf(num, sizeof(num), " #%llu", (unsigned long long)id);
	if (has_addr)
		snprintf(at, sizeof(at), ", at 0x%llx", (unsigned long long)addr);
	snprintf(out, len, "%s buffer%s (%llu bytes, page size %llu%s)",
		 tt_buffer_type_name(type), num, (unsigned long long)size,
		 (unsigned long long)page_size, at);
	return out;
}

const char *tt_buffer_describe(const struct tt_buffer *buf, char *out,
			       size_t len)
{
	return describe(out, len, buf->type, buf->id, buf->size, buf->page_size,
			buf->allocated, buf->address);
}

/* Checks that need no device state. */
static int check_config(const struct tt_buffer_config *cfg, const char *what)
{
	if (cfg->sub_device_id)
		return tt_error(-EINVAL,
				"%s: sub-device %u does not exist (the device has one, 0)",
				what, cfg->sub_device_id);
	if (cfg->type == TT_BUFFER_SYSTEM_MEMORY ||
	    cfg->type == TT_BUFFER_L1_SMALL || cfg->type == TT_BUFFER_TRACE)
		return tt_error(-ENOTSUP,
				"%s: buffer type %s is not supported (only DRAM and L1)",
				what, tt_buffer_type_name(cfg->type));
	if (cfg->type != TT_BUFFER_DRAM && cfg->type != TT_BUFFER_L1)
		return tt_error(-EINVAL, "%s: buffer type %d does not exist",
				what, (int)cfg->type);
	if (!cfg->size || !cfg->page_size)
		return tt_error(-EINVAL, "%s: size and page size must not be 0",
				what);
	if (cfg->size % cfg->page_size)
		return tt_error(-EINVAL,
				"%s: page size %llu does not divide the size %llu",
				what, (unsigned long long)cfg->page_size,
				(unsigned long long)cfg->size);
	if (cfg->layout != TT_LAYOUT_INTERLEAVED &&
	    cfg->layout != TT_LAYOUT_HEIGHT_SHARDED &&
	    cfg->layout != TT_LAYOUT_WIDTH_SHARDED &&
	    cfg->layout != TT_LAYOUT_BLOCK_SHARDED)
		return tt_error(-EINVAL, "%s: memory layout %d does not exist",
				what, (int)cfg->layout);
	return 0;
}

/* aligned_page_size and bank_size; -ENOMEM if they overflow. */
static int sizes(struct tt_buffer *b, uint64_t align, const char *what)
{
	uint64_t per_bank;

	if (b->page_size > UINT64_MAX - (align - 1))
		goto huge;
	b->aligned_page_size = (b->page_size + align - 1) & ~(align - 1);
	if (b->layout == TT_LAYOUT_INTERLEAVED)
		per_bank = b->num_pages / b->banks + !!(b->num_pages % b->banks);
	else
		per_bank = (uint64_t)b->shard_rows * b->shard_cols;
	if (per_bank > UINT64_MAX / b->aligned_page_size)
		goto huge;
	b->bank_size = per_bank * b->aligned_page_size;
	return 0;
huge:
	return tt_error(-ENOMEM, "%s: cannot allocate %llu pages of %llu bytes per bank in %s: larger than any memory",
			what, (unsigned long long)b->num_pages,
			(unsigned long long)b->page_size,
			tt_buffer_type_name(b->type));
}

static struct tt_region *region_of(struct tt_buffer *b)
{
	return b->type == TT_BUFFER_DRAM ? &b->alloc->dram : &b->alloc->l1;
}

/* Reserve the memory and join the allocator's list. */
static int place(struct tt_buffer *b, const struct tt_buffer_config *cfg,
		 const char *what)
{
	struct tt_allocator *a = b->alloc;
	int ret;

	pthread_mutex_lock(&a->lock);
	b->id = a->next_id++;
	if (cfg->fixed_address) {
		ret = tt_region_alloc_at(region_of(b), cfg->address,
					 b->bank_size, b->id, what);
		b->address = cfg->address;
	} else {
		ret = tt_region_alloc(region_of(b), b->bank_size, b->id, what,
				      &b->address);
	}
	if (!ret) {
		b->allocated = true;
		b->next = a->buffers;
		if (a->buffers)
			a->buffers->prev = b;
		a->buffers = b;
	}
	pthread_mutex_unlock(&a->lock);
	return ret;
}

static void unlink_locked(struct tt_buffer *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		b->alloc->buffers = b->next;
	if (b->next)
		b->next->prev = b->prev;
	b->prev = b->next = NULL;
}

static int build(struct tt_buffer *b, const struct tt_buffer_config *cfg,
		 const char *what)
{
	const struct tt_bank_layout *banks;
	int ret = tt_allocator_get(cfg->device, &b->alloc);

	if (ret)
		return ret;
	banks = &b->alloc->banks;
	b->dev = cfg->device;
	b->type = cfg->type;
	b->layout = cfg->layout;
	b->size = cfg->size;
	b->page_size = cfg->page_size;
	b->num_pages = cfg->size / cfg->page_size;
	b->banks = b->type == TT_BUFFER_DRAM ? banks->dram_banks : banks->l1_banks;
	if (b->layout != TT_LAYOUT_INTERLEAVED) {
		ret = tt_buffer_shard_setup(b, &cfg->shard, banks, what);
		if (ret)
			return ret;
	}
	ret = sizes(b, b->type == TT_BUFFER_DRAM ? banks->dram_align :
						  banks->l1_align, what);
	if (ret)
		return ret;
	return place(b, cfg, what);
}

/* Both names of the constructor (tt/common.h) build here; fn is the one
 * the caller called, for the messages. */
static int buffer_create(const char *fn, const struct tt_buffer_config *cfg,
			 tt_buffer **out)
{
	struct tt_buffer *b;
	char what[160];
	int ret;

	if (TT_ARG_NULL_IN(fn, cfg) || TT_ARG_NULL_IN(fn, cfg->device) ||
	    TT_ARG_NULL_IN(fn, out))
		return -EINVAL;
	describe(what, sizeof(what), cfg->type, 0, cfg->size, cfg->page_size,
		 cfg->fixed_address, cfg->address);
	ret = check_config(cfg, what);
	if (ret)
		return ret;
	b = calloc(1, sizeof(*b));
	if (!b)
		return tt_error(-ENOMEM, "%s: out of host memory", what);
	b->refs = 1;
	ret = build(b, cfg, what);
	if (ret) {
		free(b->shard_bank);
		free(b);
		return ret;
	}
	*out = b;
	return 0;
}

int tt_buffer_create(const struct tt_buffer_config *cfg, tt_buffer **out)
{
	return buffer_create(__func__, cfg, out);
}

int tt_create_buffer(const struct tt_buffer_config *cfg, tt_buffer **out)
{
	return buffer_create(__func__, cfg, out);
}

int tt_deallocate_buffer(tt_buffer *buf)
{
	struct tt_allocator *a;

	TT_CHECK_ARG(buf);
	a = buf->alloc;
	if (!a)
		return 0; /* the device is gone, and the memory with it */
	pthread_mutex_lock(&a->lock);
	if (buf->allocated) {
		tt_region_free(region_of(buf), buf->address);
		buf->allocated = false;
		unlink_locked(buf);
	}
	pthread_mutex_unlock(&a->lock);
	return 0;
}

void tt_buffer_ref(struct tt_buffer *buf)
{
	__atomic_add_fetch(&buf->refs, 1, __ATOMIC_RELAXED);
}

void tt_buffer_unref(struct tt_buffer *buf)
{
	if (!buf || __atomic_sub_fetch(&buf->refs, 1, __ATOMIC_ACQ_REL))
		return;
	tt_deallocate_buffer(buf);
	free(buf->shard_bank);
	free(buf);
}

void tt_buffer_free(tt_buffer *buf)
{
	tt_buffer_unref(buf);
}

void tt_buffer_detach(struct tt_buffer *buf)
{
	unlink_locked(buf);
	buf->allocated = false;
	buf->alloc = NULL;
	buf->dev = NULL;
}

/* ---- queries ---- */

uint64_t tt_buffer_address(const tt_buffer *buf)
{
	if (TT_ARG_NULL(buf))
		return 0;
	return buf->allocated ? buf->address : 0;
}

uint64_t tt_buffer_size(const tt_buffer *buf)
{
	if (TT_ARG_NULL(buf))
		return 0;
	return buf->size;
}

uint64_t tt_buffer_page_size(const tt_buffer *buf)
{
	if (TT_ARG_NULL(buf))
		return 0;
	return buf->page_size;
}

uint64_t tt_buffer_aligned_page_size(const tt_buffer *buf)
{
	if (TT_ARG_NULL(buf))
		return 0;
	return buf->aligned_page_size;
}

uint64_t tt_buffer_num_pages(const tt_buffer *buf)
{
	if (TT_ARG_NULL(buf))
		return 0;
	return buf->num_pages;
}

enum tt_buffer_type tt_buffer_type(const tt_buffer *buf)
{
	if (TT_ARG_NULL(buf))
		return TT_BUFFER_DRAM;
	return buf->type;
}

enum tt_tensor_memory_layout tt_buffer_layout(const tt_buffer *buf)
{
	if (TT_ARG_NULL(buf))
		return TT_LAYOUT_INTERLEAVED;
	return buf->layout;
}

tt_device *tt_buffer_device(const tt_buffer *buf)
{
	if (TT_ARG_NULL(buf))
		return NULL;
	return buf->dev;
}

bool tt_buffer_is_allocated(const tt_buffer *buf)
{
	if (TT_ARG_NULL(buf))
		return false;
	return buf->allocated;
}

unsigned tt_buffer_num_banks(const tt_buffer *buf)
{
	if (TT_ARG_NULL(buf))
		return 0;
	return buf->banks;
}

uint64_t tt_buffer_bank_size(const tt_buffer *buf)
{
	if (TT_ARG_NULL(buf))
		return 0;
	return buf->bank_size;
}
