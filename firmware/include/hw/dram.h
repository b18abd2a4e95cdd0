/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * DRAM channels.
 *
 * Each channel is a bank of memory (dram_bank_size bytes, from the SoC
 * descriptor) reached through one or more NOC endpoints ("ports"); every
 * endpoint of a channel addresses the same bytes, from local address
 * TT_DRAM_BASE. The node table (hw/host.h) gives each DRAM node its channel
 * number.
 */
#ifndef TT_HW_DRAM_H
#define TT_HW_DRAM_H

#define TT_DRAM_BASE 0x0ull
#define TT_DRAM_MAX_CHANNELS 16
#define TT_DRAM_MAX_PORTS 4

#endif /* TT_HW_DRAM_H */
