// SPDX-License-Identifier: Apache-2.0
/*
 * DPRINT: arg 0 = 0 prints the lines of dprint_formats.h; arg 0 = 1
 * prints arg 1 numbered lines of 40 characters (more than the ring
 * holds, so the kernel has to wait for the host to read).
 */
#include "dataflow_api.h"

void kernel_main(void)
{
	if (get_arg_val(0) == 0) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
#define PRINT_LINE(...) DPRINT(__VA_ARGS__);
#include "dprint_formats.h"
#pragma GCC diagnostic pop
		return;
	}
	for (uint32_t i = 0; i < get_arg_val(1); i++)
		DPRINT("line %05u: the quick brown fox jumps\n", (unsigned)i);
}
