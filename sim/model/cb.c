// SPDX-License-Identifier: Apache-2.0
/*
 * Circular-buffer counters (hw/tensix.h): TT_CB_COUNT pairs of 16-bit
 * wrapping counters. Harts of the node, the host and other nodes (over
 * the NOC) change them at once, so every change is one atomic operation
 * on the word in the image.
 */
#include "tensix.h"

static uint32_t *word(uint8_t *page, unsigned off)
{
	return sim_reg32(page, off);
}

/* counter = (counter + v) mod 2^16, in one step. */
static void add16(uint32_t *counter, uint32_t v)
{
	uint32_t cur = __atomic_load_n(counter, __ATOMIC_RELAXED), next;

	do {
		next = (cur + v) & 0xFFFFu;
	} while (!__atomic_compare_exchange_n(counter, &cur, next, false,
					      __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED));
}

void sim_cb_write(uint8_t *page, unsigned off, uint32_t v)
{
	unsigned base = off - off % TT_CB_STRIDE;

	switch (off % TT_CB_STRIDE) {
	case TT_CB_RECEIVED:
	case TT_CB_ACKED:
		__atomic_store_n(word(page, off), v & 0xFFFFu,
				 __ATOMIC_RELEASE);
		break;
	case TT_CB_RECEIVED_INC:
		add16(word(page, base + TT_CB_RECEIVED), v);
		break;
	case TT_CB_ACKED_INC:
		add16(word(page, base + TT_CB_ACKED), v);
		break;
	}
}

void sim_cb_reset(uint8_t *page)
{
	for (unsigned off = 0; off < TT_CB_COUNT * TT_CB_STRIDE; off += 4)
		__atomic_store_n(word(page, off), 0, __ATOMIC_RELEASE);
}
