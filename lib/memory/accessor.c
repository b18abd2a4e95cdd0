// SPDX-License-Identifier: Apache-2.0
/*
 * Tensor accessor arguments (tt/buffer.h, encoding in hw/accessor.h): a
 * buffer described to a kernel in argument words.
 */
#include <errno.h>
#include <string.h>

#include "hw/accessor.h"

#include "alloc.h"

_Static_assert(TT_TENSOR_ACCESSOR_ARGS_MAX == TT_TA_MAX_WORDS,
	       "tt/buffer.h and hw/accessor.h agree");

static bool sharded(const struct tt_buffer *b)
{
	return b->layout != TT_LAYOUT_INTERLEAVED;
}

static unsigned words_of(const struct tt_buffer *b)
{
	return 1 + (sharded(b) ? TT_TA_SHARD_EXTRA(b->nshards) : 0);
}

unsigned tt_tensor_accessor_args_count(const tt_buffer *buf)
{
	if (!buf) {
		tt_error(-EINVAL, "tt_tensor_accessor_args_count: buffer is NULL");
		return 0;
	}
	return words_of(buf);
}

static uint32_t xy16(struct tt_xy xy)
{
	return (xy.x & 0xFFu) | (xy.y & 0xFFu) << 8;
}

int tt_tensor_accessor_args_append(const tt_buffer *buf, uint32_t *args,
				   unsigned cap, unsigned *count)
{
	static const char fn[] = "tt_tensor_accessor_args_append";
	uint32_t w[TT_TA_MAX_WORDS];
	unsigned n, i;
	char what[160];

	if (!buf || !args || !count)
		return tt_error(-EINVAL, "%s: %s is NULL", fn,
				!buf ? "buffer" : !args ? "args" : "count");
	tt_buffer_describe(buf, what, sizeof(what));
	if (!buf->dev)
		return tt_error(-ENODEV, "%s: %s: its device was closed", fn,
				what);
	if (!buf->allocated)
		return tt_error(-ENXIO, "%s: %s is deallocated", fn, what);
	n = words_of(buf);
	if (*count > cap || cap - *count < n)
		return tt_error(-ENOSPC,
				"%s: %s needs %u argument words at index %u, the array holds %u",
				fn, what, n, *count, cap);
	if (!sharded(buf)) {
		w[0] = TT_TA_HEADER(buf->type == TT_BUFFER_DRAM ? TT_TA_F_DRAM : 0,
				    0);
	} else {
		if (buf->rows > UINT32_MAX || buf->cols > UINT32_MAX ||
		    buf->rows * buf->cols > UINT32_MAX)
			return tt_error(-EOVERFLOW,
					"%s: %s has more pages than a kernel's 32-bit page ids reach",
					fn, what);
		w[0] = TT_TA_HEADER((buf->type == TT_BUFFER_DRAM ?
					     TT_TA_F_DRAM : 0) |
					    TT_TA_F_SHARDED,
				    n - 1);
		w[1] = (uint32_t)buf->rows;
		w[2] = (uint32_t)buf->cols;
		w[3] = buf->shard_rows;
		w[4] = buf->shard_cols;
		w[5] = buf->nshards;
		for (i = 0; i < (buf->nshards + 1) / 2; i++)
			w[1 + TT_TA_SHARD_FIXED + i] = 0;
		for (i = 0; i < buf->nshards; i++)
			w[1 + TT_TA_SHARD_FIXED + i / 2] |=
				xy16(tt_buffer_bank_xy(buf, buf->shard_bank[i]))
				<< (i % 2 ? 16 : 0);
	}
	memcpy(args + *count, w, n * sizeof(uint32_t));
	*count += n;
	return 0;
}
