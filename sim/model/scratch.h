/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-thread scratch memory for work that must not allocate on every call
 * (unpacked coprocessor operands, packed GEMM panels). A few numbered
 * slots per thread, each grown on demand and kept until the thread ends.
 */
#ifndef TT_SIM_SCRATCH_H
#define TT_SIM_SCRATCH_H

#include <stddef.h>

enum sim_scratch_slot {
	SIM_SCRATCH_GEMM, /* gemm.c: packed B panels */
	SIM_SCRATCH_TX_A, /* tensix: unpacked operand blocks */
	SIM_SCRATCH_TX_B,
	SIM_SCRATCH_TX_C,
	SIM_SCRATCH_BF16_A, /* gemm_bf16.c: operands as bfloat16 */
	SIM_SCRATCH_BF16_B,
	SIM_SCRATCH_SLOTS
};

/* At least `bytes` bytes, 64-byte aligned, valid until the calling thread
 * asks for the same slot again or ends; contents undefined. NULL if out of
 * memory. */
void *sim_scratch(enum sim_scratch_slot slot, size_t bytes);

#endif /* TT_SIM_SCRATCH_H */
