/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The PCIe node's DMA engine (hw/dmaeng.h): a thread that runs the
 * descriptor ring in the device image, copying between host memory (the
 * host memory table, hostmem.h) and node memory (access.h).
 */
#ifndef TT_SIM_DMAENG_H
#define TT_SIM_DMAENG_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "access.h"

struct sim_dmaeng {
	struct sim_ctx *ctx;
	struct tt_node_desc *pcie;
	uint8_t *regs; /* TT_DMA_REG_PAGE of the PCIe node */
	uint8_t *ring; /* TT_DMA_RING_PAGE.. */
	uint32_t cons; /* descriptors finished; only the engine changes it */
	pthread_t thread;
	pthread_mutex_t lock; /* protects kicked and stop */
	pthread_cond_t cond;
	bool kicked, stop, started;
};

/*
 * Publish the engine in the PCIe node's registers (TT_DMA_ID, ring size)
 * and start its thread. Returns 0 or a negative errno.
 */
int sim_dmaeng_start(struct sim_dmaeng *e, struct sim_ctx *c,
		     struct tt_node_desc *pcie);

/* The doorbell moved: wake the engine if the host posted descriptors. */
void sim_dmaeng_kick(struct sim_dmaeng *e);

/* Stop the thread (after the descriptor in progress). Safe if never
 * started. */
void sim_dmaeng_stop(struct sim_dmaeng *e);

/* Run every posted descriptor in the calling thread; returns how many ran.
 * The engine's thread calls it; so may a test whose engine never started. */
unsigned sim_dmaeng_run(struct sim_dmaeng *e);

/* Set up registers and state without a thread (for sim_dmaeng_run). */
void sim_dmaeng_init(struct sim_dmaeng *e, struct sim_ctx *c,
		     struct tt_node_desc *pcie);

#endif /* TT_SIM_DMAENG_H */
