/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hart benchmark's workload (workload_crc.c), built both natively into
 * bench-hart and for RV32IM into the flat image the bench interprets.
 */
#ifndef TT_BENCH_WORKLOAD_H
#define TT_BENCH_WORKLOAD_H

#include <stdint.h>

/* Run `rounds` rounds; returns a checksum of everything computed. */
uint32_t workload(uint32_t rounds);

#endif /* TT_BENCH_WORKLOAD_H */
