/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * PCIe node: the host window and its outbound address translation (ATU).
 *
 * NOC accesses to a PCIe node's local addresses
 * [TT_PCIE_HOST_WINDOW_BASE, + TT_PCIE_HOST_WINDOW_SIZE) leave the chip as
 * host memory accesses. The ATU translates them: region r, when enabled,
 * maps local addresses [base, limit] (inclusive) to host bus addresses
 * target + (a - base). An access that no enabled region covers, or whose
 * bus address has no host memory behind it, is refused and recorded as a
 * device error.
 *
 * Whoever owns the device on the host side (the kernel driver, or the chip
 * model's host for its own clients) programs the regions; device code only
 * uses the resulting NOC addresses.
 *
 * Region 0 is the host's default: the chip model's host programs it at
 * start to map the whole window onto the bus addresses of its own clients'
 * DMA buffers. A driver leaves region 0 alone and uses regions 1..15,
 * which take precedence over region 0 where they overlap it (among
 * themselves, the lowest-numbered covering region wins). Since contract
 * 1.2; before it, region 0 was looked at first.
 */
#ifndef TT_HW_PCIE_H
#define TT_HW_PCIE_H

#include "bits.h"

#define TT_PCIE_HOST_WINDOW_BASE 0x800000000ull
#define TT_PCIE_HOST_WINDOW_SIZE 0x800000000ull /* 32 GiB */

#define TT_PCIE_ATU_REGIONS 16
#define TT_PCIE_ATU_STRIDE 0x20

/* Region r register offset in the TT_REG_PCIE_ATU page. */
#define TT_PCIE_ATU(r, reg) ((r) * TT_PCIE_ATU_STRIDE + (reg))

#define TT_PCIE_ATU_CTRL 0x00 /* bit 0: region enabled */
#define TT_PCIE_ATU_CTRL_ENABLE TT_BIT(0)
#define TT_PCIE_ATU_BASE_LO 0x04 /* local address, low/high words */
#define TT_PCIE_ATU_BASE_HI 0x08
#define TT_PCIE_ATU_LIMIT_LO 0x0C /* last local address, inclusive */
#define TT_PCIE_ATU_LIMIT_HI 0x10
#define TT_PCIE_ATU_TARGET_LO 0x14 /* host bus address of base */
#define TT_PCIE_ATU_TARGET_HI 0x18

#endif /* TT_HW_PCIE_H */
