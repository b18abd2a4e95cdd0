/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The NOC engine behind each node's NIU command buffers (hw/niu.h).
 */
#ifndef TT_SIM_NIU_H
#define TT_SIM_NIU_H

#include "access.h"

/* Run every issued command in the command buffers of node n on `noc`. */
void sim_niu_service(struct sim_ctx *c, struct tt_node_desc *n, unsigned noc);

/* The same for command buffer b only: its ISSUE was just written. */
void sim_niu_service_buf(struct sim_ctx *c, struct tt_node_desc *n,
			 unsigned noc, unsigned b);

#endif /* TT_SIM_NIU_H */
