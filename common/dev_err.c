// SPDX-License-Identifier: Apache-2.0
#include "dev_err.h"

#include <stdio.h>

static const char *const err_str[TT_DEV_ERR_COUNT] = {
	[TT_DEV_ERR_NONE] = "no error",
	[TT_DEV_ERR_NO_NODE] = "no node at these coordinates",
	[TT_DEV_ERR_HARVESTED] = "the node is harvested (fused off)",
	[TT_DEV_ERR_UNMAPPED] = "nothing is mapped at this address",
	[TT_DEV_ERR_RANGE] = "the access runs past the end of the region",
	[TT_DEV_ERR_ALIGN] = "misaligned access",
	[TT_DEV_ERR_ATU_MISS] = "no ATU region maps this host window address",
	[TT_DEV_ERR_HOST_MEM] = "no host memory behind this bus address",
	[TT_DEV_ERR_MCAST] = "invalid multicast rectangle",
	[TT_DEV_ERR_BAD_CMD] = "unknown NOC command",
	[TT_DEV_ERR_READ_ONLY] = "write to a read-only register",
	[TT_DEV_ERR_NOC] = "the transaction failed on the NOC",
};

static const char *const op_str[] = { "read", "write", "multicast write",
				      "atomic" };

const char *dev_err_str(unsigned code)
{
	if (code >= TT_DEV_ERR_COUNT)
		return "unknown device error";
	return err_str[code];
}

void dev_err_format(const struct tt_dev_error *e, char *buf, size_t len)
{
	const char *op = e->op < 4 ? op_str[e->op] : "access";
	char who[32];

	if (e->initiator_x == TT_DEV_INITIATOR_HOST)
		snprintf(who, sizeof(who), "host");
	else
		snprintf(who, sizeof(who), "node %u-%u", e->initiator_x,
			 e->initiator_y);
	snprintf(buf, len, "NOC %u %s by %s to %u-%u addr 0x%llx (%u bytes): %s",
		 e->noc, op, who, e->target_x, e->target_y,
		 (unsigned long long)e->addr, e->len, dev_err_str(e->code));
}

const char *hart_fault_str(unsigned cause)
{
	static const char *const names[TT_HART_FAULT_COUNT] = {
		[TT_HART_FAULT_NONE] = "no fault",
		[TT_HART_FAULT_ILLEGAL] = "illegal instruction",
		[TT_HART_FAULT_FETCH_ALIGN] = "misaligned instruction fetch",
		[TT_HART_FAULT_FETCH_ACCESS] = "instruction fetch access fault",
		[TT_HART_FAULT_LOAD_ALIGN] = "misaligned load",
		[TT_HART_FAULT_LOAD_ACCESS] = "load access fault",
		[TT_HART_FAULT_STORE_ALIGN] = "misaligned store",
		[TT_HART_FAULT_STORE_ACCESS] = "store access fault",
		[TT_HART_FAULT_ECALL] = "ecall",
		[TT_HART_FAULT_EBREAK] = "ebreak",
		[TT_HART_FAULT_RUNAWAY] = "instruction budget exhausted",
	};

	return cause < TT_HART_FAULT_COUNT ? names[cause] : "unknown fault";
}
