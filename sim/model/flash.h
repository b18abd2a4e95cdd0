/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The model's flash chip (hw/flash.h, TT_ARC_FLASH_SIZE bytes): the
 * factory data of each board, and checking a firmware bundle from the
 * firmware build before it is burnt into a device's flash, the way a
 * factory programs a card.
 *
 * The bundle is untrusted input (a file): every field is checked before
 * use. A flash built by sim_flash_build() is well formed; sim_flash_find()
 * still bounds what it returns, since the buffer may have been scribbled
 * on since.
 */
#ifndef TT_SIM_FLASH_H
#define TT_SIM_FLASH_H

#include <stddef.h>
#include <stdint.h>

#include "hw/arch.h"
#include "hw/flash.h"
#include "image.h" /* SIM_ERR_LEN */

struct soc_desc;

/*
 * Board info as the factory writes it for chip `chip` of a `board`:
 *
 *   board_id_hi  0x01000000 | card_type << 4 (tt-kmd and UMD decode the
 *                card type as (hi >> 4) & 0xFFFF, resp. 0xFFFFF)
 *   board_id_lo  0x10000000 | board << 16 | 0x0001: one serial per board,
 *                so both chips of an n300 report the same board id, as
 *                real n300s do (tools pair the chips by it)
 *   asic_id      hi 0x53494D00 | board ("SIM" + board), lo chip << 16 | 1:
 *                different for every chip
 *   limits       AICLK and VDD range from sim_power_defaults(), so the
 *                firmware's limits and the model agree; the rest per board
 *   grid, tensix_count, harvesting  from the SoC descriptor `soc` (NULL:
 *                left 0); harvesting is soc->harvested_cols on Blackhole,
 *                soc->harvested_rows otherwise (bit n = NOC 0 row or
 *                column n)
 *
 * An unknown board gets card type 0 and the n150's limits.
 */
void sim_board_info(enum tt_hw_board board, unsigned chip,
		    const struct soc_desc *soc, struct tt_board_info *out);

/*
 * Check a firmware bundle (struct tt_flash_header at offset 0, then the
 * payloads; offsets from the start; no TT_FLASH_BOARD_INFO entry) and
 * build a flash image from it in `flash` (TT_ARC_FLASH_SIZE bytes, 4-byte
 * aligned): the header and payloads at their offsets, a TT_FLASH_BOARD_INFO
 * entry holding *bi placed after the last payload (4-byte aligned), unused
 * table entries zero, every other byte 0xFF (erased).
 *
 * Refused: short bundle, bad magic or format, too many entries (there must
 * be room for the board info), a kind that is unknown, EMPTY, BOARD_INFO
 * or repeated, an empty payload, a payload overlapping the header, another
 * payload, or running past the bundle (overflow-safe), a CRC mismatch, an
 * image whose load_addr + size + bss_size wraps 32 bits or whose entry is
 * not inside the loaded bytes, no TT_FLASH_ARC_FW, and a result larger
 * than the flash.
 *
 * Returns 0, -EINVAL (malformed; flash untouched) or -EFBIG (does not fit;
 * flash untouched), with a message naming the problem in err (SIM_ERR_LEN
 * bytes, may be NULL).
 */
int sim_flash_build(const void *bundle, size_t len,
		    const struct tt_board_info *bi, uint8_t *flash, char *err);

/*
 * The entry of `kind` in a built flash (TT_ARC_FLASH_SIZE bytes, 4-byte
 * aligned), or NULL if there is none, the header is not valid, or the
 * entry's payload lies outside the flash.
 */
const struct tt_flash_entry *sim_flash_find(const uint8_t *flash,
					    enum tt_flash_kind kind);

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32(0, p, n)). */
uint32_t sim_crc32(const void *p, size_t n);

#endif /* TT_SIM_FLASH_H */
