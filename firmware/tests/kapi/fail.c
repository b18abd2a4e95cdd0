// SPDX-License-Identifier: Apache-2.0
/*
 * Kernels that go wrong on purpose: arg 0 chooses how, arg 1 is a value
 * the case uses. Each must end in an error report and a halt.
 */
#include "dataflow_api.h"

void kernel_main(void)
{
	uint32_t v = get_arg_val(1);
	volatile uint32_t sink;

	switch (get_arg_val(0)) {
	case 1:
		ASSERT(get_arg_val(1) == 5);
		break;
	case 2:
		sink = get_arg_val(v);
		break;
	case 3:
		sink = get_common_arg_val(0);
		break;
	case 4: /* a node that does not exist */
		noc_async_read(get_noc_addr(63, 63, 0x100), 0x60000, 32);
		noc_async_read_barrier();
		break;
	case 5: /* a Tensix core's address space beyond L1 */
		noc_async_write(0x60000, get_noc_addr(my_x[0], my_y[0], v), 64);
		noc_async_write_barrier();
		break;
	case 6:
		sink = get_semaphore(v);
		break;
	case 7:
		noc_async_read(get_noc_addr_from_bank_id(v, 0, true), 0x60000,
			       32);
		break;
	case 8:
		sink = get_compile_time_arg_val(v);
		break;
	case 9:
		DPRINT("half a line ");
		ASSERT(v == 0);
		break;
	case 10: /* the same on NOC 1 */
		noc_async_write(0x60000, get_noc_addr(my_x[0], my_y[0], v), 64,
				1);
		noc_async_write_barrier(1);
		break;
	}
	(void)sink;
}
