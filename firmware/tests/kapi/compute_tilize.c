// SPDX-License-Identifier: Apache-2.0
/*
 * Layout changes: args mode, tiles. CB 0 holds the input (tiles pages),
 * CB 16 gets the output.
 *   0 tilize_block: CB 0 is a row-major block of 32 rows x 32 * tiles
 *   1 untilize_block: the other way round
 */
#include "compute_kernel_api.h"

void kernel_main(void)
{
	uint32_t mode = get_arg_val(0), n = get_arg_val(1);

	cb_wait_front(0, n);
	cb_reserve_back(16, n);
	if (mode == 0) {
		tilize_init(0, n, 16);
		tilize_block(0, n, 16);
	} else {
		untilize_init(0, 16);
		untilize_block(0, n, 16);
	}
	cb_push_back(16, n);
	cb_pop_front(0, n);
}
