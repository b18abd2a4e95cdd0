// SPDX-License-Identifier: Apache-2.0
/*
 * args[0] + args[1]: returned, and stored at the L1 address args[2] so the
 * host can check memory as well as the mailbox. -1 if the arguments are
 * missing or the address is not a word.
 */
#include "fw/kernel.h"

int32_t kmain(const uint32_t *args, uint32_t nargs)
{
	uint32_t sum;

	if (nargs < 3 || args[2] % 4)
		return -1;
	sum = args[0] + args[1];
	*(volatile uint32_t *)args[2] = sum;
	return (int32_t)sum;
}
