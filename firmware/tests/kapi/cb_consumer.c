// SPDX-License-Identifier: Apache-2.0
/*
 * Consumer side of a CB stream (cb_producer.c): args n_pages, pages per
 * pop, cb, result address. Checks every word; the result is pages seen,
 * bad words, the first bad page (or ~0) and the last read pointer.
 */
#include "dataflow_api.h"

void kernel_main(void)
{
	uint32_t n = get_arg_val(0), step = get_arg_val(1), cb = get_arg_val(2);
	volatile uint32_t *out = (volatile uint32_t *)get_arg_val(3);
	uint32_t words = get_cb_page_size(cb) / 4, bad = 0, first = ~0u;
	uint32_t seen = 0;

	for (uint32_t i = 0; i < n; i += step) {
		const volatile uint32_t *p;

		cb_wait_front(cb, step);
		p = (const volatile uint32_t *)get_read_ptr(cb);
		for (uint32_t k = 0; k < step; k++) {
			for (uint32_t w = 0; w < words; w++) {
				if (*p++ != ((i + k) << 8) + w) {
					bad++;
					if (first == ~0u)
						first = i + k;
				}
			}
		}
		cb_pop_front(cb, step);
		seen += step;
	}
	out[0] = seen;
	out[1] = bad;
	out[2] = first;
	out[3] = get_read_ptr(cb);
}
