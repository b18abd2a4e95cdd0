/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sharded buffer geometry (internal; the layout is documented in
 * tt/buffer.h): checking a shard spec against the device and placing a
 * sharded buffer's pages.
 */
#ifndef TT_LIB_BUFFER_SHARD_H
#define TT_LIB_BUFFER_SHARD_H

#include "alloc.h"

/*
 * Check spec for buffer b (type, layout and num_pages set) and fill b's
 * sharded fields: shard shape in pages, the buffer's shape in pages and
 * the bank of each shard (b->shard_bank, malloc'ed). -EINVAL with a
 * message naming the buffer (`what`) and the bad value.
 */
TT_HIDDEN int tt_buffer_shard_setup(struct tt_buffer *b,
				    const struct tt_shard_spec_buffer *spec,
				    const struct tt_bank_layout *banks,
				    const char *what);

/* Bank and local address of page `page` of a sharded buffer. */
TT_HIDDEN void tt_buffer_shard_locate(const struct tt_buffer *b,
				      uint64_t page, unsigned *bank,
				      uint64_t *addr);

#endif /* TT_LIB_BUFFER_SHARD_H */
