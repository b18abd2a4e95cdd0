// SPDX-License-Identifier: Apache-2.0
/*
 * Misuse of CB 0 (4 pages) by one hart: arg 0 chooses the mistake, arg 1
 * is the result address, which gets 0x600D if the kernel gets through.
 */
#include "dataflow_api.h"

void kernel_main(void)
{
	volatile uint32_t *out = (volatile uint32_t *)get_arg_val(1);

	switch (get_arg_val(0)) {
	case 1: /* push more than reserved */
		cb_reserve_back(0, 1);
		cb_push_back(0, 2);
		break;
	case 2: /* pop more than available */
		cb_reserve_back(0, 1);
		cb_push_back(0, 1);
		cb_wait_front(0, 1);
		cb_pop_front(0, 2);
		break;
	case 3: /* more pages than the CB has */
		cb_reserve_back(0, 5);
		break;
	case 4: /* a CB that is not configured */
		cb_reserve_back(7, 1);
		break;
	case 5: /* 3 + 3 pages on 4: the pointer jumps past the end */
		cb_reserve_back(0, 3);
		cb_push_back(0, 3);
		cb_wait_front(0, 3);
		cb_pop_front(0, 3);
		cb_reserve_back(0, 3);
		cb_push_back(0, 3);
		break;
	case 6: /* correct use, also with checks: 3 + 1 pages */
		for (uint32_t i = 0; i < 10; i++) {
			cb_reserve_back(0, 3);
			cb_push_back(0, 3);
			cb_wait_front(0, 3);
			cb_pop_front(0, 3);
			cb_reserve_back(0, 1);
			cb_push_back(0, 1);
			cb_wait_front(0, 1);
			cb_pop_front(0, 1);
		}
		if (!cb_pages_reservable_at_back(0, 4) ||
		    cb_pages_available_at_front(0, 1))
			return;
		break;
	}
	out[0] = 0x600D;
}
