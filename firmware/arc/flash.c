// SPDX-License-Identifier: Apache-2.0
#include "flash.h"

#include <stdbool.h>
#include <stddef.h>

#include "hw/arc.h"
#include "fw/crc32.h"
#include "fw/mmio.h"

/* Word by word: the flash is a device, not memory the compiler may access
 * in any width it likes. off and len are multiples of 4, checked by the
 * callers against the flash size. */
static void flash_copy(uint32_t off, void *dst, uint32_t len)
{
	uint32_t *d = dst;

	for (uint32_t i = 0; i < len / 4; i++)
		d[i] = mmio_read32(TT_ARC_FLASH_BASE + off + 4 * i);
}

static bool entry_ok(const struct tt_flash_entry *e)
{
	return e->offset % 4 == 0 && e->size % 4 == 0 &&
	       e->offset <= TT_ARC_FLASH_SIZE &&
	       e->size <= TT_ARC_FLASH_SIZE - e->offset;
}

int flash_read_header(struct tt_flash_header *h)
{
	flash_copy(0, h, sizeof(*h));
	if (h->magic != TT_FLASH_MAGIC || h->format != TT_FLASH_FORMAT ||
	    h->entry_count > TT_FLASH_MAX_ENTRIES)
		return -1;
	for (uint32_t i = 0; i < h->entry_count; i++)
		if (!entry_ok(&h->entry[i]))
			return -1;
	return 0;
}

const struct tt_flash_entry *flash_find(const struct tt_flash_header *h,
					uint32_t kind)
{
	for (uint32_t i = 0; i < h->entry_count && i < TT_FLASH_MAX_ENTRIES;
	     i++)
		if (h->entry[i].kind == kind)
			return &h->entry[i];
	return NULL;
}

int flash_load(const struct tt_flash_entry *e, void *dst, uint32_t max)
{
	if (!entry_ok(e) || e->size > max)
		return -1;
	flash_copy(e->offset, dst, e->size);
	return crc32(0, dst, e->size) == e->crc32 ? 0 : -1;
}
