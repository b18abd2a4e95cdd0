/* SPDX-License-Identifier: Apache-2.0 */
/* CRC-32 (IEEE 802.3, as zlib.crc32), for the flash payloads (hw/flash.h). */
#ifndef TT_FW_CRC32_H
#define TT_FW_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* CRC of data[0..len) continued from crc (0 to start). */
uint32_t crc32(uint32_t crc, const void *data, size_t len);

#endif /* TT_FW_CRC32_H */
