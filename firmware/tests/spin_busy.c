// SPDX-License-Identifier: Apache-2.0
/* Stays busy for args[0] loop iterations (0 if no argument), to put load on
 * the power model. Returns the iterations run. */
#include "fw/kernel.h"

int32_t kmain(const uint32_t *args, uint32_t nargs)
{
	uint32_t n = nargs ? args[0] : 0, i;

	/* The empty asm keeps the loop from being optimised away. */
	for (i = 0; i < n; i++)
		__asm__ volatile("");
	return (int32_t)i;
}
