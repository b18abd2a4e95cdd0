// SPDX-License-Identifier: Apache-2.0
/* Never returns, and never waits: a runaway kernel for the host's timeout,
 * instruction-budget and reset paths. */
#include "fw/kernel.h"

int32_t kmain(const uint32_t *args, uint32_t nargs)
{
	(void)args;
	(void)nargs;
	for (;;)
		__asm__ volatile("");
}
