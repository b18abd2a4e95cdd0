// SPDX-License-Identifier: Apache-2.0
/*
 * Device tensors (tt/tensor.h): a shape and a format on a run of pages
 * of a device buffer, one tile per page. Writes tilize and convert into
 * a staging copy unless the host tensor is already tiles of the right
 * format, then move the bytes with the buffer's region I/O (direct, or
 * through a command queue to keep the queue's order).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/memory/alloc.h"
#include "lib/dispatch/cq.h"
#include "common/dataformat.h"
#include "tensor_internal.h"

struct tt_device_tensor {
	struct tt_buffer *buf; /* referenced */
	uint64_t first_tile;   /* page of buf holding tile 0 */
	struct tt_shape shape;
	struct tt_tgeom g;
	enum tt_data_format fmt;
};

#define DT_DESC_LEN 400

static const char *describe(const struct tt_device_tensor *dt, char *out,
			    size_t len)
{
	char s[TT_DESC_LEN], b[200];

	snprintf(out, len, "device tensor %s %s on %s, tiles [%llu, +%zu)",
		 tt_shape_str(&dt->shape, s, sizeof(s)),
		 tt_data_format_name(dt->fmt),
		 tt_buffer_describe(dt->buf, b, sizeof(b)),
		 (unsigned long long)dt->first_tile, dt->g.tiles);
	return out;
}

/* Check shape and format of a device tensor to be. */
static int check_tensor(const struct tt_shape *shape, enum tt_data_format fmt,
			struct tt_tgeom *g)
{
	char what[TT_DESC_LEN + 16], s[TT_DESC_LEN];
	int ret = tt_tgeom_init(g, shape, "device tensor");

	if (ret)
		return ret;
	snprintf(what, sizeof(what), "device tensor %s",
		 tt_shape_str(shape, s, sizeof(s)));
	return tt_tensor_check_format(fmt, TT_TENSOR_TILED, what);
}

/* A tensor on buf from first (all checked); takes a buffer reference. */
static int make(struct tt_buffer *buf, uint64_t first,
		const struct tt_shape *shape, const struct tt_tgeom *g,
		enum tt_data_format fmt, tt_device_tensor **out)
{
	struct tt_device_tensor *dt = calloc(1, sizeof(*dt));

	if (!dt)
		return tt_error(-ENOMEM, "out of memory for a device tensor");
	tt_buffer_ref(buf);
	dt->buf = buf;
	dt->first_tile = first;
	dt->shape = *shape;
	for (unsigned i = shape->rank; i < TT_TENSOR_MAX_RANK; i++)
		dt->shape.dims[i] = 0; /* never compare garbage */
	dt->g = *g;
	dt->fmt = fmt;
	*out = dt;
	return 0;
}

int tt_device_tensor_on_buffer(tt_buffer *buf, uint64_t first_tile,
			       const struct tt_shape *shape,
			       enum tt_data_format fmt, tt_device_tensor **out)
{
	char s[TT_DESC_LEN], b[200];
	struct tt_tgeom g;
	int ret;

	if (!buf || !out)
		return tt_error(-EINVAL,
				"tt_device_tensor_on_buffer: %s is NULL",
				buf ? "out" : "buffer");
	ret = check_tensor(shape, fmt, &g);
	if (ret)
		return ret;
	tt_shape_str(shape, s, sizeof(s));
	tt_buffer_describe(buf, b, sizeof(b));
	if (buf->page_size != tt_tile_size(fmt))
		return tt_error(-EINVAL,
				"device tensor %s %s: %s has pages of %llu "
				"bytes, not one %s tile (%zu)",
				s, tt_data_format_name(fmt), b,
				(unsigned long long)buf->page_size,
				tt_data_format_name(fmt), tt_tile_size(fmt));
	if (first_tile > buf->num_pages ||
	    g.tiles > buf->num_pages - first_tile)
		return tt_error(-EINVAL,
				"device tensor %s %s: tiles [%llu, +%zu) are "
				"not inside the %llu pages of %s",
				s, tt_data_format_name(fmt),
				(unsigned long long)first_tile, g.tiles,
				(unsigned long long)buf->num_pages, b);
	return make(buf, first_tile, shape, &g, fmt, out);
}

int tt_device_tensor_create(tt_device *dev, const struct tt_shape *shape,
			    enum tt_data_format fmt, enum tt_buffer_type type,
			    tt_device_tensor **out)
{
	struct tt_buffer_config cfg = {.device = dev, .type = type};
	char s[TT_DESC_LEN];
	struct tt_tgeom g;
	tt_buffer *buf;
	int ret;

	if (!dev || !out)
		return tt_error(-EINVAL, "tt_device_tensor_create: %s is NULL",
				dev ? "out" : "device");
	ret = check_tensor(shape, fmt, &g);
	if (ret)
		return ret;
	cfg.page_size = tt_tile_size(fmt);
	if (__builtin_mul_overflow((uint64_t)g.tiles, cfg.page_size, &cfg.size))
		return tt_error(-ENOMEM,
				"device tensor %s: too large for any memory",
				tt_shape_str(shape, s, sizeof(s)));
	ret = tt_create_buffer(&cfg, &buf);
	if (ret)
		return ret;
	ret = make(buf, 0, shape, &g, fmt, out);
	tt_buffer_free(buf); /* the tensor holds its own reference */
	return ret;
}

int tt_device_tensor_view(const tt_device_tensor *dt, uint64_t first_tile,
			  const struct tt_shape *shape, tt_device_tensor **out)
{
	char d[DT_DESC_LEN], s[TT_DESC_LEN];
	struct tt_shape tiles;
	struct tt_tgeom g;
	int ret;

	if (!dt || !out)
		return tt_error(-EINVAL, "tt_device_tensor_view: %s is NULL",
				dt ? "out" : "device tensor");
	describe(dt, d, sizeof(d));
	if (first_tile >= dt->g.tiles)
		return tt_error(
			-EINVAL,
			"tt_device_tensor_view: %s: tile %llu is past its end",
			d, (unsigned long long)first_tile);
	if (!shape) {
		tiles = TT_SHAPE(dt->g.tiles - first_tile, 32, 32);
		shape = &tiles;
	}
	ret = check_tensor(shape, dt->fmt, &g);
	if (ret)
		return ret;
	if (g.tiles > dt->g.tiles - first_tile)
		return tt_error(-EINVAL,
				"tt_device_tensor_view: %s: a view of %s from "
				"tile %llu (%zu tiles) runs past its end",
				d, tt_shape_str(shape, s, sizeof(s)),
				(unsigned long long)first_tile, g.tiles);
	return make(dt->buf, dt->first_tile + first_tile, shape, &g, dt->fmt,
		    out);
}

void tt_device_tensor_free(tt_device_tensor *dt)
{
	if (!dt)
		return;
	tt_buffer_unref(dt->buf);
	free(dt);
}

tt_buffer *tt_device_tensor_buffer(const tt_device_tensor *dt)
{
	if (TT_ARG_NULL(dt))
		return NULL;
	return dt->buf;
}

const struct tt_shape *tt_device_tensor_shape(const tt_device_tensor *dt)
{
	if (TT_ARG_NULL(dt))
		return NULL;
	return &dt->shape;
}

enum tt_data_format tt_device_tensor_format(const tt_device_tensor *dt)
{
	if (TT_ARG_NULL(dt))
		return TT_FLOAT32;
	return dt->fmt;
}

uint64_t tt_device_tensor_first_tile(const tt_device_tensor *dt)
{
	if (TT_ARG_NULL(dt))
		return 0;
	return dt->first_tile;
}

uint64_t tt_device_tensor_num_tiles(const tt_device_tensor *dt)
{
	if (TT_ARG_NULL(dt))
		return 0;
	return dt->g.tiles;
}

/* ---- transfers ---- */

/* Check a transfer between dt and host tensor t; *bytes is dt's size. */
static int check_xfer(const struct tt_device_tensor *dt, tt_command_queue *cq,
		      const struct tt_tensor *t, const char *fn, size_t *bytes)
{
	char d[DT_DESC_LEN], h[TT_DESC_LEN];

	if (!dt || !t)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				dt ? "host tensor" : "device tensor");
	describe(dt, d, sizeof(d));
	if (!tt_tgeom_same(&dt->g, &t->g))
		return tt_error(-EINVAL, "%s: %s and %s: the shapes differ", fn,
				d, tt_tensor_describe(t, h, sizeof(h)));
	if (cq && cq->dev != dt->buf->dev)
		return tt_error(
			-EINVAL,
			"%s: %s: command queue %u belongs to another device",
			fn, d, cq->id);
	*bytes = dt->g.tiles * tt_tile_size(dt->fmt); /* fits: a buffer */
	return 0;
}

/* Move bytes between the host and dt's tiles. */
static int transfer(const struct tt_device_tensor *dt, tt_command_queue *cq,
		    void *host, size_t len, bool write, const char *fn)
{
	uint64_t off = dt->first_tile * dt->buf->page_size;
	char d[DT_DESC_LEN], why[1024];
	int ret;

	if (cq)
		ret = write ? tt_enqueue_write_sub_buffer(cq, dt->buf, host,
							  off, len, true)
			    : tt_enqueue_read_sub_buffer(cq, dt->buf, host, off,
							 len, true);
	else
		ret = write ? tt_write_to_buffer_region(dt->buf, off, host, len)
			    : tt_read_from_buffer_region(dt->buf, off, host,
							 len);
	if (!ret)
		return 0;
	snprintf(why, sizeof(why), "%s", tt_last_error());
	return tt_error(ret, "%s: %s: %s", fn, describe(dt, d, sizeof(d)), why);
}

/* Is t already dt's bytes (tiles of dt's format)? */
static bool same_form(const struct tt_device_tensor *dt,
		      const struct tt_tensor *t)
{
	return t->layout == TT_TENSOR_TILED && t->fmt == dt->fmt;
}

int tt_device_tensor_write(tt_device_tensor *dt, tt_command_queue *cq,
			   const tt_tensor *src)
{
	const char *fn = "tt_device_tensor_write";
	uint8_t *stage;
	size_t bytes;
	int ret = check_xfer(dt, cq, src, fn, &bytes);

	if (ret)
		return ret;
	if (same_form(dt, src))
		return transfer(dt, cq, src->data, bytes, true, fn);
	stage = malloc(bytes);
	if (!stage)
		return tt_error(-ENOMEM, "%s: out of memory for %zu bytes", fn,
				bytes);
	ret = tt_tensor_convert_raw(&dt->g, dt->fmt, TT_TENSOR_TILED, stage,
				    bytes, src->fmt, src->layout, src->data,
				    src->size);
	if (ret)
		ret = tt_error(ret, "%s: %s", fn, tt_convert_why(ret));
	else
		ret = transfer(dt, cq, stage, bytes, true, fn);
	free(stage);
	return ret;
}

int tt_device_tensor_read(const tt_device_tensor *dt, tt_command_queue *cq,
			  tt_tensor *dst)
{
	const char *fn = "tt_device_tensor_read";
	uint8_t *stage;
	size_t bytes;
	int ret = check_xfer(dt, cq, dst, fn, &bytes);

	if (ret)
		return ret;
	if (same_form(dt, dst))
		return transfer(dt, cq, dst->data, bytes, false, fn);
	stage = malloc(bytes);
	if (!stage)
		return tt_error(-ENOMEM, "%s: out of memory for %zu bytes", fn,
				bytes);
	ret = transfer(dt, cq, stage, bytes, false, fn);
	if (!ret) {
		ret = tt_tensor_convert_raw(&dt->g, dst->fmt, dst->layout,
					    dst->data, dst->size, dt->fmt,
					    TT_TENSOR_TILED, stage, bytes);
		if (ret)
			ret = tt_error(ret, "%s: %s", fn, tt_convert_why(ret));
	}
	free(stage);
	return ret;
}
