/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Element-wise ops: the order in which a core takes its output tiles,
 * and transfers that merge tiles whose NOC addresses follow one another.
 *
 * Order. The host splits positions 0 .. tiles - 1 among the cores (a
 * contiguous range each). With banks 0, position p is output tile p.
 * With banks n (the output's interleaved bank count), positions go bank
 * by bank: first every tile of bank 0 (tiles 0, n, 2n, ...), then bank
 * 1's, and so on; consecutive tiles of one bank are consecutive pages
 * of that bank, so a core reads and writes runs of them in one NOC
 * transfer each instead of one per tile.
 *
 * Runs. eltwise_run_read/write(&r, noc_addr, l1, len) add a piece to the
 * run r: one that continues both the NOC and the L1 range extends it;
 * anything else issues the run and starts a new one. len 0 issues what
 * is left.
 */
#ifndef TT_OPS_ELTWISE_ORDER_H
#define TT_OPS_ELTWISE_ORDER_H

static inline uint32_t eltwise_tile_at(uint32_t p, uint32_t tiles,
				       uint32_t banks)
{
	uint32_t q, r, big;

	if (!banks)
		return p;
	q = tiles / banks;
	r = tiles % banks;
	big = r * (q + 1); /* the first r banks hold q + 1 tiles */
	if (p < big)
		return (p % (q + 1)) * banks + p / (q + 1);
	p -= big;
	return (p % q) * banks + r + p / q;
}

struct eltwise_run {
	uint64_t noc;
	uint32_t l1, len;
};

static inline bool eltwise_run_extends(const struct eltwise_run *r,
				       uint64_t noc, uint32_t l1, uint32_t len)
{
	return len && r->len && r->noc + r->len == noc && r->l1 + r->len == l1;
}

static inline void eltwise_run_read(struct eltwise_run *r, uint64_t noc,
				    uint32_t l1, uint32_t len)
{
	if (eltwise_run_extends(r, noc, l1, len)) {
		r->len += len;
		return;
	}
	if (r->len)
		noc_async_read(r->noc, r->l1, r->len);
	*r = (struct eltwise_run){ noc, l1, len };
}

static inline void eltwise_run_write(struct eltwise_run *r, uint64_t noc,
				     uint32_t l1, uint32_t len)
{
	if (eltwise_run_extends(r, noc, l1, len)) {
		r->len += len;
		return;
	}
	if (r->len)
		noc_async_write(r->l1, r->noc, r->len);
	*r = (struct eltwise_run){ noc, l1, len };
}

#endif /* TT_OPS_ELTWISE_ORDER_H */
