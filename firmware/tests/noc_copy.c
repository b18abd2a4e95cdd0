// SPDX-License-Identifier: Apache-2.0
/*
 * Copies over the NOC through this core's L1:
 *
 *   args[0], args[1]  source node x, y (NOC 0)
 *   args[2]           source local address
 *   args[3]           bytes
 *   args[4]           buffer in this core's L1 (at least args[3] bytes)
 *   args[5], args[6]  destination node x, y (NOC 0)
 *   args[7]           destination local address
 *
 * Returns 0, -1 for missing arguments, or minus the TT_DEV_ERR_* status
 * of the NOC command that failed.
 */
#include "fw/kernel.h"
#include "fw/noc.h"

int32_t kmain(const uint32_t *args, uint32_t nargs)
{
	uint32_t st;

	if (nargs < 8)
		return -1;
	st = noc_read(0, args[0], args[1], args[2], args[4], args[3]);
	if (st)
		return -(int32_t)st;
	st = noc_write(0, args[5], args[6], args[7], args[4], args[3]);
	return -(int32_t)st;
}
