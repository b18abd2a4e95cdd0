/* SPDX-License-Identifier: Apache-2.0 OR GPL-2.0-only */
/*
 * Bit-field helpers for the chip contract. Usable from the kernel, the host
 * and RV32 firmware: nothing here depends on a libc.
 */
#ifndef TT_HW_BITS_H
#define TT_HW_BITS_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif

/* Mask of bits h..l inclusive, 32 and 64 bits wide. */
#define TT_GENMASK(h, l) (((~0u) >> (31 - (h))) & ((~0u) << (l)))
#define TT_GENMASK_ULL(h, l) (((~0ull) >> (63 - (h))) & ((~0ull) << (l)))
#define TT_BIT(n) (1u << (n))

/* Shift of the lowest set bit of a constant mask. */
#define TT_FIELD_SHIFT(mask) (__builtin_ctzll(mask))
/* Extract / build the field described by mask. */
#define TT_FIELD_GET(mask, reg) (((reg) & (mask)) >> TT_FIELD_SHIFT(mask))
#define TT_FIELD_PREP(mask, val) (((val) << TT_FIELD_SHIFT(mask)) & (mask))

#endif /* TT_HW_BITS_H */
