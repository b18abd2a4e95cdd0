/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading the boot flash (hw/flash.h). The flash is untrusted input: the
 * header is checked once, every entry's bounds with it, and every payload
 * against its CRC when it is copied out.
 */
#ifndef TT_ARC_FLASH_H
#define TT_ARC_FLASH_H

#include <stdint.h>

#include "hw/flash.h"

/* Copy the header into h and check it: magic, format, entry count, and
 * that every entry's payload is word-aligned and inside the flash.
 * Returns 0 or -1. */
int flash_read_header(struct tt_flash_header *h);

/* First entry of kind `kind`, or NULL. */
const struct tt_flash_entry *flash_find(const struct tt_flash_header *h,
					uint32_t kind);

/* Copy e's payload to dst (room for max bytes) and check its CRC.
 * Returns 0 or -1. */
int flash_load(const struct tt_flash_entry *e, void *dst, uint32_t max);

#endif /* TT_ARC_FLASH_H */
