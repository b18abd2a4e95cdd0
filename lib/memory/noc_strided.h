/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Strided host transfers (internal): many equal pieces between one node
 * and host memory, each at its own stride on either side, through one
 * host window configuration for as long as the pieces fit in it. The
 * gather/scatter of interleaved buffers: a bank's pages are contiguous in
 * the bank but n pages apart in the host's copy.
 */
#ifndef TT_LIB_NOC_STRIDED_H
#define TT_LIB_NOC_STRIDED_H

#include "lib/device/internal.h"

struct tt_noc_strided {
	unsigned noc, x, y; /* the node, in the coordinates of noc */
	uint64_t addr; /* local address of piece 0 */
	uint64_t dev_stride; /* between pieces on the node */
	uint8_t *host; /* host address of piece 0 */
	size_t host_stride; /* between pieces in host memory */
	size_t len; /* bytes per piece */
	size_t count; /* pieces */
};

/* Copy every piece to the node (write) or from it. Errors as
 * tt_noc_write / tt_noc_read; pieces before a failure may have been
 * moved. */
TT_HIDDEN int tt_noc_strided(struct tt_device *dev,
			     const struct tt_noc_strided *s, bool write);

#endif /* TT_LIB_NOC_STRIDED_H */
