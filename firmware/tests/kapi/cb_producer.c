// SPDX-License-Identifier: Apache-2.0
/*
 * Producer side of a CB stream: args n_pages, pages per push, cb. Page i
 * holds the words (i << 8) + w.
 */
#include "dataflow_api.h"

void kernel_main(void)
{
	uint32_t n = get_arg_val(0), step = get_arg_val(1), cb = get_arg_val(2);
	uint32_t words = get_cb_page_size(cb) / 4;

	for (uint32_t i = 0; i < n; i += step) {
		volatile uint32_t *p;

		cb_reserve_back(cb, step);
		p = (volatile uint32_t *)get_write_ptr(cb);
		for (uint32_t k = 0; k < step; k++)
			for (uint32_t w = 0; w < words; w++)
				*p++ = ((i + k) << 8) + w;
		cb_push_back(cb, step);
	}
}
