// SPDX-License-Identifier: Apache-2.0
/*
 * Circular buffers: configs, creation and updates with TT-Metal's rules,
 * and their placement in L1 when a program is finalized.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_internal.h"
#include "tt/buffer.h"

/* ---- configs ---- */

struct tt_circular_buffer_config
tt_circular_buffer_config(uint32_t total_size, unsigned buffer_index,
			  enum tt_data_format fmt, uint32_t page_size)
{
	struct tt_circular_buffer_config c = {
		.total_size = total_size,
		.format_count = 1,
		.formats[0] = { buffer_index, fmt, page_size },
	};

	return c;
}

static int bad_index(const char *fn, unsigned index)
{
	return tt_error(-EINVAL, "%s: CB index %u out of range (0..%u)", fn,
			index, TT_NUM_CIRCULAR_BUFFERS - 1);
}

int tt_circular_buffer_config_add(struct tt_circular_buffer_config *c,
				  unsigned buffer_index,
				  enum tt_data_format fmt, uint32_t page_size)
{
	static const char fn[] = "tt_circular_buffer_config_add";

	if (!c)
		return tt_error(-EINVAL, "%s: config is NULL", fn);
	if (buffer_index >= TT_NUM_CIRCULAR_BUFFERS)
		return bad_index(fn, buffer_index);
	if (c->format_count >= TT_NUM_CIRCULAR_BUFFERS)
		return tt_error(-E2BIG, "%s: the config already has %u indices",
				fn, c->format_count);
	for (unsigned i = 0; i < c->format_count; i++)
		if (c->formats[i].buffer_index == buffer_index)
			return tt_error(-EINVAL,
					"%s: CB index %u is already in the config",
					fn, buffer_index);
	c->formats[c->format_count].buffer_index = buffer_index;
	c->formats[c->format_count].data_format = fmt;
	c->formats[c->format_count].page_size = page_size;
	c->format_count++;
	return 0;
}

/* ---- checks ---- */

static int check_buffer(const char *fn, const char *what, tt_buffer *buf,
			uint32_t total_size)
{
	if (tt_buffer_type(buf) != TT_BUFFER_L1)
		return tt_error(-EINVAL,
				"%s: %s: the buffer of a dynamic circular buffer must be L1, not %s",
				fn, what, tt_buffer_type_name(tt_buffer_type(buf)));
	if (!tt_buffer_is_allocated(buf))
		return tt_error(-EINVAL, "%s: %s: the L1 buffer is deallocated",
				fn, what);
	if (tt_buffer_size(buf) < total_size)
		return tt_error(-EINVAL,
				"%s: %s: the L1 buffer at 0x%" PRIx64 " has %" PRIu64 " bytes, less than the total size %u",
				fn, what, tt_buffer_address(buf),
				tt_buffer_size(buf), total_size);
	if (tt_buffer_address(buf) + total_size > UINT32_MAX)
		return tt_error(-EINVAL,
				"%s: %s: the L1 buffer at 0x%" PRIx64 " is beyond any L1",
				fn, what, tt_buffer_address(buf));
	return 0;
}

static int check_format(const char *fn, const struct tt_cb_format *f,
			uint32_t total_size, uint32_t *mask)
{
	if (f->buffer_index >= TT_NUM_CIRCULAR_BUFFERS)
		return bad_index(fn, f->buffer_index);
	if (*mask & 1u << f->buffer_index)
		return tt_error(-EINVAL,
				"%s: CB index %u appears twice in the config",
				fn, f->buffer_index);
	if (!tt_tile_size(f->data_format))
		return tt_error(-EINVAL,
				"%s: CB index %u: %d is not a data format", fn,
				f->buffer_index, (int)f->data_format);
	if (!f->page_size)
		return tt_error(-EINVAL, "%s: CB index %u: page size 0", fn,
				f->buffer_index);
	if (total_size % f->page_size)
		return tt_error(-EINVAL,
				"%s: CB index %u: total size %u is not a multiple of the page size %u",
				fn, f->buffer_index, total_size, f->page_size);
	*mask |= 1u << f->buffer_index;
	return 0;
}

static int check_config(const char *fn,
			const struct tt_circular_buffer_config *c,
			uint32_t *mask)
{
	int ret;

	*mask = 0;
	if (!c->format_count || c->format_count > TT_NUM_CIRCULAR_BUFFERS)
		return tt_error(-EINVAL,
				"%s: the config has %u buffer indices (1..%u)",
				fn, c->format_count, TT_NUM_CIRCULAR_BUFFERS);
	if (!c->total_size)
		return tt_error(-EINVAL, "%s: total size 0", fn);
	for (unsigned i = 0; i < c->format_count; i++) {
		ret = check_format(fn, &c->formats[i], c->total_size, mask);
		if (ret)
			return ret;
	}
	return c->buffer ? check_buffer(fn, "config", c->buffer,
					c->total_size) :
			   0;
}

/* An index of the new CB already used on one of its cores. */
static int check_indices(const tt_program *p, const struct tt_cb_obj *cb,
			 const char *fn)
{
	struct tt_xy c;

	for (unsigned i = 0; i < p->ncbs; i++) {
		const struct tt_cb_obj *o = p->cbs[i];
		uint32_t both = o->mask & cb->mask;

		if (!both || !tt_program_rset_common(&o->cores, &cb->cores, &c))
			continue;
		return tt_error(-EEXIST,
				"%s: CB index %d on core (%u,%u) is already used by circular buffer %u",
				fn, __builtin_ctz(both), c.x, c.y, o->id);
	}
	return 0;
}

/* ---- objects ---- */

void tt_cb_obj_free(struct tt_cb_obj *cb)
{
	if (!cb)
		return;
	tt_program_rset_free(&cb->cores);
	free(cb);
}

static struct tt_cb_obj *find(const tt_program *p, tt_cb_handle cb,
			      const char *fn)
{
	if (cb < p->ncbs)
		return p->cbs[cb];
	tt_error(-EINVAL, "%s: program %u has no circular buffer %u (it has %u)",
		 fn, p->id, cb, p->ncbs);
	return NULL;
}

int tt_create_circular_buffer(tt_program *p,
			      const struct tt_core_range_set *cores,
			      const struct tt_circular_buffer_config *cfg,
			      tt_cb_handle *out)
{
	static const char fn[] = "tt_create_circular_buffer";
	struct tt_cb_obj *cb;
	int ret;

	if (!p || !cfg || !out)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				!p ? "program" : !cfg ? "config" : "out");
	cb = calloc(1, sizeof(*cb));
	if (!cb)
		return tt_error(-ENOMEM, "%s: out of memory", fn);
	cb->id = p->ncbs;
	cb->cfg = *cfg;
	ret = check_config(fn, cfg, &cb->mask);
	if (!ret) /* what tt_get_circular_buffer_config returns */
		memset(&cb->cfg.formats[cfg->format_count], 0,
		       (TT_NUM_CIRCULAR_BUFFERS - cfg->format_count) *
			       sizeof(cb->cfg.formats[0]));
	if (!ret)
		ret = tt_program_rset_from(&cb->cores, cores, fn);
	if (!ret)
		ret = check_indices(p, cb, fn);
	if (!ret && tt_append(&p->cbs, &p->ncbs, cb))
		ret = tt_error(-ENOMEM, "%s: out of memory", fn);
	if (ret) {
		tt_cb_obj_free(cb);
		return ret;
	}
	tt_program_changed(p);
	*out = cb->id;
	return 0;
}

int tt_get_circular_buffer_config(const tt_program *p, tt_cb_handle cb,
				  struct tt_circular_buffer_config *out)
{
	static const char fn[] = "tt_get_circular_buffer_config";
	const struct tt_cb_obj *o;

	if (!p || !out)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				p ? "out" : "program");
	o = find(p, cb, fn);
	if (!o)
		return -EINVAL;
	*out = o->cfg;
	return 0;
}

/* total_size for o, with buf (NULL: static) as its buffer. */
static int check_total(const char *fn, const struct tt_cb_obj *o,
		       uint32_t total_size, tt_buffer *buf)
{
	char what[48];

	if (!total_size)
		return tt_error(-EINVAL, "%s: circular buffer %u: total size 0",
				fn, o->id);
	for (unsigned i = 0; i < o->cfg.format_count; i++) {
		const struct tt_cb_format *f = &o->cfg.formats[i];

		if (total_size % f->page_size)
			return tt_error(-EINVAL,
					"%s: circular buffer %u: total size %u is not a multiple of the page size %u of CB index %u",
					fn, o->id, total_size, f->page_size,
					f->buffer_index);
	}
	snprintf(what, sizeof(what), "circular buffer %u", o->id);
	return buf ? check_buffer(fn, what, buf, total_size) : 0;
}

int tt_update_circular_buffer_total_size(tt_program *p, tt_cb_handle cb,
					 uint32_t total_size)
{
	static const char fn[] = "tt_update_circular_buffer_total_size";
	struct tt_cb_obj *o;
	int ret;

	if (!p)
		return tt_error(-EINVAL, "%s: program is NULL", fn);
	o = find(p, cb, fn);
	if (!o)
		return -EINVAL;
	ret = check_total(fn, o, total_size, o->cfg.buffer);
	if (ret)
		return ret;
	if (o->cfg.total_size != total_size) {
		o->cfg.total_size = total_size;
		tt_program_changed(p);
	}
	return 0;
}

int tt_update_circular_buffer_page_size(tt_program *p, tt_cb_handle cb,
					unsigned buffer_index,
					uint32_t page_size)
{
	static const char fn[] = "tt_update_circular_buffer_page_size";
	struct tt_cb_format *f = NULL;
	struct tt_cb_obj *o;

	if (!p)
		return tt_error(-EINVAL, "%s: program is NULL", fn);
	o = find(p, cb, fn);
	if (!o)
		return -EINVAL;
	if (buffer_index >= TT_NUM_CIRCULAR_BUFFERS)
		return bad_index(fn, buffer_index);
	for (unsigned i = 0; i < o->cfg.format_count; i++)
		if (o->cfg.formats[i].buffer_index == buffer_index)
			f = &o->cfg.formats[i];
	if (!f)
		return tt_error(-EINVAL,
				"%s: circular buffer %u has no CB index %u", fn,
				o->id, buffer_index);
	if (!page_size || o->cfg.total_size % page_size)
		return tt_error(-EINVAL,
				"%s: circular buffer %u, CB index %u: page size %u does not divide the total size %u",
				fn, o->id, buffer_index, page_size,
				o->cfg.total_size);
	if (f->page_size != page_size) {
		f->page_size = page_size;
		tt_program_changed(p);
	}
	return 0;
}

static int update_dynamic(tt_program *p, tt_cb_handle cb, tt_buffer *buf,
			  const uint32_t *total_size, const char *fn)
{
	struct tt_cb_obj *o;
	uint32_t total;
	int ret;

	if (!p || !buf)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				p ? "buffer" : "program");
	o = find(p, cb, fn);
	if (!o)
		return -EINVAL;
	if (!o->cfg.buffer)
		return tt_error(-EINVAL,
				"%s: circular buffer %u is static (not globally allocated): its address cannot be updated",
				fn, o->id);
	total = total_size ? *total_size : o->cfg.total_size;
	ret = check_total(fn, o, total, buf);
	if (ret)
		return ret;
	o->cfg.buffer = buf;
	o->cfg.total_size = total;
	tt_program_changed(p);
	return 0;
}

int tt_update_dynamic_circular_buffer_address(tt_program *p, tt_cb_handle cb,
					      tt_buffer *buf)
{
	return update_dynamic(p, cb, buf, NULL,
			      "tt_update_dynamic_circular_buffer_address");
}

int tt_update_dynamic_circular_buffer_address_and_total_size(
	tt_program *p, tt_cb_handle cb, tt_buffer *buf, uint32_t total_size)
{
	return update_dynamic(
		p, cb, buf, &total_size,
		"tt_update_dynamic_circular_buffer_address_and_total_size");
}

/* ---- placement ---- */

uint64_t tt_cb_dynamic_address(const struct tt_cb_obj *cb)
{
	return cb->cfg.buffer ? tt_buffer_address(cb->cfg.buffer) : 0;
}

/* TT-Metal's rule: a static CB has one address on all its cores, the
 * lowest above every CB placed before it on any of them (so kernels can
 * multicast into it); then it is the top of each of its cores. */
static int place_static(tt_program *p, struct tt_cb_obj *cb, uint32_t *top,
			unsigned w)
{
	const struct tt_program_rset *r = &cb->cores;
	uint64_t addr = 0, end;

	for (unsigned i = 0; i < r->count; i++)
		for (unsigned y = r->r[i].start.y; y <= r->r[i].end.y; y++)
			for (unsigned x = r->r[i].start.x; x <= r->r[i].end.x;
			     x++)
				if (top[y * w + x] > addr)
					addr = top[y * w + x];
	addr = (addr + TT_CB_ALIGN - 1) & ~(uint64_t)(TT_CB_ALIGN - 1);
	end = addr + cb->cfg.total_size;
	if (end > UINT32_MAX)
		return tt_error(-ENOMEM,
				"program %u: circular buffer %u (%u bytes) does not fit in L1",
				p->id, cb->id, cb->cfg.total_size);
	cb->addr = (uint32_t)addr;
	for (unsigned i = 0; i < r->count; i++)
		for (unsigned y = r->r[i].start.y; y <= r->r[i].end.y; y++)
			for (unsigned x = r->r[i].start.x; x <= r->r[i].end.x;
			     x++)
				top[y * w + x] = (uint32_t)end;
	return 0;
}

int tt_cb_place(tt_program *p, uint32_t *top, unsigned w)
{
	int ret;

	for (unsigned i = 0; i < p->ncbs; i++) {
		struct tt_cb_obj *cb = p->cbs[i];

		if (cb->cfg.buffer) {
			/* Checked at every update; it may have gone since. */
			if (!tt_buffer_is_allocated(cb->cfg.buffer))
				return tt_error(-EINVAL,
						"program %u: circular buffer %u: its L1 buffer was deallocated",
						p->id, cb->id);
			cb->addr = (uint32_t)tt_cb_dynamic_address(cb);
			continue;
		}
		ret = place_static(p, cb, top, w);
		if (ret)
			return ret;
	}
	return 0;
}

void tt_cb_fill_table(const tt_program *p, struct tt_xy c,
		      struct tt_cb_table *t)
{
	memset(t, 0, sizeof(*t));
	for (unsigned i = 0; i < p->ncbs; i++) {
		const struct tt_cb_obj *cb = p->cbs[i];

		if (!tt_program_rset_contains(&cb->cores, c))
			continue;
		for (unsigned j = 0; j < cb->cfg.format_count; j++) {
			const struct tt_cb_format *f = &cb->cfg.formats[j];
			struct tt_cb_config *e = &t->cb[f->buffer_index];

			e->addr = cb->addr;
			e->size = cb->cfg.total_size;
			e->page_size = f->page_size;
			e->num_pages = cb->cfg.total_size / f->page_size;
			e->format = (uint32_t)f->data_format;
			t->mask |= 1u << f->buffer_index;
		}
	}
}
