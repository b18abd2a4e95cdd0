/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * Version of the chip contract (everything under firmware/include/hw/).
 *
 * MAJOR is bumped when a layout or meaning changes incompatibly (a field
 * moves, a register changes meaning); software built for another MAJOR must
 * refuse the device. MINOR is bumped when something is added compatibly
 * (a new register page, a new field in reserved space).
 * The identity page (hw/host.h) carries both numbers.
 */
#ifndef TT_HW_VERSION_H
#define TT_HW_VERSION_H

#define TT_HW_CONTRACT_MAJOR 1
#define TT_HW_CONTRACT_MINOR 5

#endif /* TT_HW_VERSION_H */
