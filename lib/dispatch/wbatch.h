/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Write batches (internal): the writes one program launch makes to its
 * cores, collected first and then emitted with as few transfers as
 * possible. Writes of the same bytes to the same address of several cores
 * become multicasts over rectangles of cores; everything of one phase is
 * emitted before anything of the next (a launch's start words come last).
 *
 * Both dispatch paths use it: slow dispatch emits host NOC writes and
 * multicasts, fast dispatch emits the dispatcher's WRITE commands.
 */
#ifndef TT_LIB_WBATCH_H
#define TT_LIB_WBATCH_H

#include "lib/device/internal.h"

struct tt_wentry;

struct tt_wbatch {
	struct tt_wentry *w;
	unsigned n, cap;
	uint8_t *arena; /* copies of transient data */
	size_t used, size;
	const struct tt_device *dev;
};

/*
 * Emit one transfer: data to addr of every enabled Tensix core in the
 * rectangle a..b (NOC 0, a == b for one core).
 */
typedef int (*tt_wemit_fn)(void *ctx, struct tt_xy a, struct tt_xy b,
			   uint32_t addr, const void *data, uint32_t len);

TT_HIDDEN void tt_wbatch_init(struct tt_wbatch *b, const struct tt_device *dev);
TT_HIDDEN void tt_wbatch_free(struct tt_wbatch *b);

/* Add a write of data (referenced: it must stay unchanged until the batch
 * is emitted) or of a copy of data. */
TT_HIDDEN int tt_wbatch_ref(struct tt_wbatch *b, unsigned phase,
			    struct tt_xy core, uint32_t addr, const void *data,
			    uint32_t len);
TT_HIDDEN int tt_wbatch_copy(struct tt_wbatch *b, unsigned phase,
			     struct tt_xy core, uint32_t addr,
			     const void *data, uint32_t len);

/* Emit every write, phase by phase, merged into multicasts. */
TT_HIDDEN int tt_wbatch_emit(struct tt_wbatch *b, tt_wemit_fn emit,
			     void *ctx);

#endif /* TT_LIB_WBATCH_H */
