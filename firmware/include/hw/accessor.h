/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tensor accessor arguments: how libtt describes a buffer to a kernel in
 * a few argument words (tt_tensor_accessor_args_append, tt/buffer.h),
 * and how the kernel API reads them back (TensorAccessorArgs,
 * kernel_api/accessor.h). TT-Metal's TensorAccessorArgs carry the same
 * facts in an encoding of their own; this one is libtt's.
 *
 * Word 0 is the header: TT_TA_MAGIC in bits 24..31, the number of words
 * that follow in bits 8..23, flags in bits 0..7. An interleaved buffer is
 * the header alone: banks and alignment come from the bank table
 * (hw/l1.h). A sharded buffer (the layout of tt/buffer.h) adds:
 *
 *   1  rows      the buffer's shape in pages (rows x columns)
 *   2  cols
 *   3  shard_rows   a shard's shape in pages
 *   4  shard_cols
 *   5  nshards   shards of the shard grid, row-major
 *   6..  NOC 0 coordinates of the bank of each shard, two per word:
 *        shard 2i in bits 0..15, shard 2i + 1 in bits 16..31, each
 *        x | y << 8
 *
 * Page (r, c) of a sharded buffer is in shard (r / shard_rows) *
 * ceil(cols / shard_cols) + c / shard_cols at the buffer's address +
 * ((r % shard_rows) * shard_cols + c % shard_cols) * aligned page size.
 */
#ifndef TT_HW_ACCESSOR_H
#define TT_HW_ACCESSOR_H

#include "hw/l1.h"

#define TT_TA_MAGIC 0x7Au
#define TT_TA_F_DRAM 0x01u /* else L1 */
#define TT_TA_F_SHARDED 0x02u /* else interleaved */

#define TT_TA_HEADER(flags, extra) \
	((uint32_t)TT_TA_MAGIC << 24 | (uint32_t)(extra) << 8 | (flags))
#define TT_TA_IS_HEADER(w) ((w) >> 24 == TT_TA_MAGIC)
#define TT_TA_EXTRA(w) (((w) >> 8) & 0xFFFFu)
#define TT_TA_FLAGS(w) ((w) & 0xFFu)

/* Words after the header of a sharded buffer with n shards. */
#define TT_TA_SHARD_FIXED 5u
#define TT_TA_SHARD_EXTRA(n) (TT_TA_SHARD_FIXED + ((n) + 1u) / 2u)

/* Most words one buffer takes: a shard on every L1 bank. */
#define TT_TA_MAX_WORDS (1u + TT_TA_SHARD_EXTRA(TT_BANKS_MAX_L1))

#endif /* TT_HW_ACCESSOR_H */
