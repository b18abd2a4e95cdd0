// SPDX-License-Identifier: Apache-2.0
/* Loads from an address outside every node's map (hw/tile.h), so the hart
 * halts with TT_HART_FAULT_LOAD_ACCESS and FAULT_ADDR = FAULT_ADDRESS. */
#include "fw/kernel.h"

#define FAULT_ADDRESS 0x40000000u

int32_t kmain(const uint32_t *args, uint32_t nargs)
{
	volatile uint32_t *nowhere = (volatile uint32_t *)FAULT_ADDRESS;

	(void)args;
	(void)nargs;
	return (int32_t)*nowhere;
}
