/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Doorbells (host -> device) and interrupts (device -> host), through the
 * host registers of the image (hw/host.h). Both sides sleep on futexes in
 * the shared image, so the same code works in one process and across
 * processes; a VM bridge turns its eventfds into the same operations.
 */
#ifndef TT_SIM_DOORBELL_H
#define TT_SIM_DOORBELL_H

#include <stdint.h>

#include "hw/host.h"

/* Ask the device to look at register block `index` (TT_DOORBELL_*). */
void sim_doorbell_ring(struct tt_host_regs *r, unsigned index);

/* Take and clear the pending doorbells of word w (32 blocks). */
uint32_t sim_doorbell_take(struct tt_host_regs *r, unsigned w);

/* Current doorbell sequence; pass it to sim_doorbell_wait. */
uint32_t sim_doorbell_seq(struct tt_host_regs *r);

/*
 * Sleep until the doorbell sequence differs from `seen`, or timeout_ms
 * passes (< 0: no timeout). Returns 0, or -ETIMEDOUT.
 */
int sim_doorbell_wait(struct tt_host_regs *r, uint32_t seen, int timeout_ms);

/* Wake doorbell waiters without ringing (used to stop the engine). */
void sim_doorbell_kick(struct tt_host_regs *r);

/*
 * Node events (hw/host.h): mark node `index` as written and wake the
 * doorbell's waiters; the model takes the marks with sim_event_take.
 */
void sim_event_ring(struct tt_host_regs *r, unsigned index);
uint32_t sim_event_take(struct tt_host_regs *r, unsigned w);

/* The same for control changes made by a node's own hart (hw/host.h). */
void sim_control_ring(struct tt_host_regs *r, unsigned index);
uint32_t sim_control_take(struct tt_host_regs *r, unsigned w);

/* Raise interrupt causes (TT_IRQ_*). */
void sim_irq_raise(struct tt_host_regs *r, uint32_t causes);

uint32_t sim_irq_seq(struct tt_host_regs *r);

/* Sleep until the interrupt sequence differs from `seen`. As above. */
int sim_irq_wait(struct tt_host_regs *r, uint32_t seen, int timeout_ms);

/* One turn of a spin-wait: tell the CPU, where it can be told. */
static inline void sim_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

#endif /* TT_SIM_DOORBELL_H */
