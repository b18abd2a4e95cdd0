// SPDX-License-Identifier: Apache-2.0
/*
 * DPRINT_TSLICE: args cb, tile, h0, h1, hs, w0, w1, ws, pointer
 * (TSLICE_RD_PTR or TSLICE_WR_PTR), then the pages to push first, so
 * the write pointer stands past them.
 */
#include "dataflow_api.h"

void kernel_main(void)
{
	uint32_t cb = get_arg_val(0), push = get_arg_val(9);
	struct ttk_slice_range r = TTK_SLICE(get_arg_val(2), get_arg_val(3),
					     get_arg_val(4), get_arg_val(5),
					     get_arg_val(6), get_arg_val(7));

	if (push) {
		cb_reserve_back(cb, push);
		cb_push_back(cb, push);
	}
	DPRINT_TSLICE(cb, get_arg_val(1), r, (int)get_arg_val(8));
}
