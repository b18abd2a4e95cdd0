// SPDX-License-Identifier: Apache-2.0
/*
 * The model's flash (flash.h): factory board info, and burning a firmware
 * bundle into a device's flash after checking every field of it.
 */
#include "flash.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "hw/arc.h"
#include "power.h"
#include "common/soc_desc.h"

#define BOARD_ID_FORMAT 0x01000000u /* [31:24] of board_id_hi */
#define SERIAL_BASE 0x10000000u	    /* board_id_lo of a model-made board */
#define ASIC_ID_TAG 0x53494D00u	    /* "SIM\0" in asic_id_hi */

/* Versions the "factory" programs, a.b.c.d one byte each. */
#define DM_APP_FW_VERSION 0x050D0000u  /* 5.13.0.0 */
#define DM_BL_FW_VERSION 0x020E0000u   /* 2.14.0.0 */
#define FLASH_TOOL_VERSION 0x03010000u /* 3.1.0.0 */

/* Limits that do not come from the power model. */
struct board_limits {
	enum tt_hw_board board;
	uint32_t card_type;
	uint32_t axiclk, arcclk; /* MHz */
	uint32_t tdp, tdc;	 /* W, A: above the model's full load */
	uint32_t thm_throttle, thm_shutdown; /* degC */
	uint32_t board_power;		     /* W, the whole card */
};

static const struct board_limits limits[] = {
	{TT_HW_BOARD_N150, TT_CARD_N150, 900, 540, 150, 170, 90, 110, 160},
	{TT_HW_BOARD_N300, TT_CARD_N300, 900, 540, 150, 170, 90, 110, 300},
	{TT_HW_BOARD_P150, TT_CARD_P150A, 800, 800, 150, 200, 90, 110, 300},
	{TT_HW_BOARD_E150, TT_CARD_E150, 800, 540, 120, 150, 90, 110, 200},
};

static const struct board_limits *limits_of(enum tt_hw_board board)
{
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
		if (limits[i].board == board)
			return &limits[i];
	return NULL;
}

void sim_board_info(enum tt_hw_board board, unsigned chip,
		    const struct soc_desc *soc, struct tt_board_info *out)
{
	const struct board_limits *l = limits_of(board);
	struct sim_power_params p;

	if (!l)
		l = limits_of(TT_HW_BOARD_N150);
	sim_power_defaults(board, &p);
	*out = (struct tt_board_info){
		.card_type = limits_of(board) ? l->card_type : 0,
		.chip_index = chip,
		/* Power-model figures are whole MHz and mV by construction. */
		.aiclk_max = (uint32_t)(p.aiclk_max + 0.5),
		.aiclk_min = (uint32_t)(p.aiclk_min + 0.5),
		.vdd_min = (uint32_t)(p.vdd_min * 1000.0 + 0.5),
		.vdd_max = (uint32_t)(p.vdd_max * 1000.0 + 0.5),
		.axiclk = l->axiclk,
		.arcclk = l->arcclk,
		.tdp_limit = l->tdp,
		.tdc_limit = l->tdc,
		.thm_limit_throttle = l->thm_throttle,
		.thm_limit_shutdown = l->thm_shutdown,
		.board_power_limit = l->board_power,
		.dm_app_fw_version = DM_APP_FW_VERSION,
		.dm_bl_fw_version = DM_BL_FW_VERSION,
		.flash_tool_version = FLASH_TOOL_VERSION,
	};
	out->board_id_hi = BOARD_ID_FORMAT | out->card_type << 4;
	out->board_id_lo = SERIAL_BASE | ((uint32_t)board & 0xFF) << 16 | 1;
	out->asic_id_hi = ASIC_ID_TAG | ((uint32_t)board & 0xFF);
	out->asic_id_lo = (chip & 0xFFFFu) << 16 | 1;
	if (soc) {
		out->grid_x = soc->grid_x;
		out->grid_y = soc->grid_y;
		out->tensix_count = soc->tensix_count;
		out->harvesting = soc->arch == TT_HW_ARCH_BLACKHOLE
					  ? soc->harvested_cols
					  : soc->harvested_rows;
	}
}

/* ------------------------------------------------------------------ */
/* CRC-32 */

/* Reflected polynomial 0xEDB88320, four bits at a time: small and fast
 * enough for a 1 MiB flash. */
static const uint32_t crc_nibble[16] = {
	0x00000000, 0x1DB71064, 0x3B6E20C8, 0x26D930AC, 0x76DC4190, 0x6B6B51F4,
	0x4DB26158, 0x5005713C, 0xEDB88320, 0xF00F9344, 0xD6D6A3E8, 0xCB61B38C,
	0x9B64C2B0, 0x86D3D2D4, 0xA00AE278, 0xBDBDF21C,
};

uint32_t sim_crc32(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t c = 0xFFFFFFFFu;

	for (size_t i = 0; i < n; i++) {
		c ^= b[i];
		c = (c >> 4) ^ crc_nibble[c & 0xF];
		c = (c >> 4) ^ crc_nibble[c & 0xF];
	}
	return c ^ 0xFFFFFFFFu;
}

/* ------------------------------------------------------------------ */
/* Building a flash */

#define HDR_SIZE ((uint32_t)sizeof(struct tt_flash_header))
#define ALIGN4(x) (((x) + 3u) & ~(uint64_t)3)

static int fail(char *err, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err, SIM_ERR_LEN, fmt, ap);
		va_end(ap);
	}
	return ret;
}

static const char *kind_name(uint32_t kind)
{
	switch (kind) {
	case TT_FLASH_EMPTY:
		return "EMPTY";
	case TT_FLASH_ARC_FW:
		return "ARC_FW";
	case TT_FLASH_BRISC_FW:
		return "BRISC_FW";
	case TT_FLASH_NCRISC_FW:
		return "NCRISC_FW";
	case TT_FLASH_COMPUTE_FW:
		return "COMPUTE_FW";
	case TT_FLASH_BOARD_INFO:
		return "BOARD_INFO";
	default:
		return "unknown";
	}
}

static int check_header(const struct tt_flash_header *h, char *err)
{
	if (h->magic != TT_FLASH_MAGIC)
		return fail(err, -EINVAL,
			    "bad magic 0x%08x (expected 0x%08x, \"TTFL\")",
			    h->magic, TT_FLASH_MAGIC);
	if (h->format != TT_FLASH_FORMAT)
		return fail(err, -EINVAL, "unsupported format %u (expected %u)",
			    h->format, TT_FLASH_FORMAT);
	if (h->entry_count > TT_FLASH_MAX_ENTRIES - 1)
		return fail(err, -EINVAL,
			    "entry_count %u: at most %u entries, leaving room "
			    "for the board info",
			    h->entry_count, TT_FLASH_MAX_ENTRIES - 1);
	return 0;
}

/* One entry on its own: kind, payload bounds, CRC, load image. */
static int check_entry(const struct tt_flash_entry *e, unsigned i,
		       const uint8_t *bundle, size_t len, char *err)
{
	uint64_t end = (uint64_t)e->offset + e->size;
	uint64_t load_end = (uint64_t)e->load_addr + e->size + e->bss_size;
	uint32_t crc;

	if (e->kind < TT_FLASH_ARC_FW || e->kind > TT_FLASH_COMPUTE_FW)
		return fail(err, -EINVAL, "entry %u: %s kind %u%s", i,
			    e->kind == TT_FLASH_BOARD_INFO ? "unexpected"
							   : "invalid",
			    e->kind,
			    e->kind == TT_FLASH_BOARD_INFO
				    ? " (BOARD_INFO is written by the factory)"
				    : "");
	if (e->size == 0)
		return fail(err, -EINVAL, "entry %u (%s): empty payload", i,
			    kind_name(e->kind));
	if (e->offset < HDR_SIZE)
		return fail(err, -EINVAL,
			    "entry %u (%s): payload at 0x%x overlaps the "
			    "0x%x-byte header",
			    i, kind_name(e->kind), e->offset, HDR_SIZE);
	if (end > len)
		return fail(err, -EINVAL,
			    "entry %u (%s): payload 0x%x+0x%x runs past the "
			    "end of the 0x%zx-byte bundle",
			    i, kind_name(e->kind), e->offset, e->size, len);
	if (load_end > 0x100000000ull)
		return fail(err, -EINVAL,
			    "entry %u (%s): image 0x%x+0x%x+0x%x (bss) wraps "
			    "the 32-bit address space",
			    i, kind_name(e->kind), e->load_addr, e->size,
			    e->bss_size);
	if (e->entry < e->load_addr || e->entry - e->load_addr >= e->size)
		return fail(err, -EINVAL,
			    "entry %u (%s): entry point 0x%x is outside the "
			    "loaded bytes 0x%x+0x%x",
			    i, kind_name(e->kind), e->entry, e->load_addr,
			    e->size);
	crc = sim_crc32(bundle + e->offset, e->size);
	if (crc != e->crc32)
		return fail(err, -EINVAL,
			    "entry %u (%s): CRC 0x%08x does not match the "
			    "payload's 0x%08x",
			    i, kind_name(e->kind), e->crc32, crc);
	return 0;
}

/* Entries against each other: kinds once, payloads disjoint. */
static int check_pair(const struct tt_flash_entry *a, unsigned i,
		      const struct tt_flash_entry *b, unsigned j, char *err)
{
	if (a->kind == b->kind)
		return fail(err, -EINVAL,
			    "entries %u and %u: duplicate kind %s", i, j,
			    kind_name(a->kind));
	if ((uint64_t)a->offset < (uint64_t)b->offset + b->size &&
	    (uint64_t)b->offset < (uint64_t)a->offset + a->size)
		return fail(err, -EINVAL,
			    "entries %u and %u: payloads 0x%x+0x%x and "
			    "0x%x+0x%x overlap",
			    i, j, a->offset, a->size, b->offset, b->size);
	return 0;
}

/* Check the whole bundle; on success *end is where its payloads end. */
static int check_bundle(const struct tt_flash_header *h, const uint8_t *b,
			size_t len, uint64_t *end, char *err)
{
	bool arc = false;
	int ret;

	ret = check_header(h, err);
	if (ret)
		return ret;
	*end = HDR_SIZE;
	for (unsigned i = 0; i < h->entry_count; i++) {
		const struct tt_flash_entry *e = &h->entry[i];

		ret = check_entry(e, i, b, len, err);
		if (ret)
			return ret;
		for (unsigned j = 0; j < i; j++) {
			ret = check_pair(&h->entry[j], j, e, i, err);
			if (ret)
				return ret;
		}
		arc |= e->kind == TT_FLASH_ARC_FW;
		if ((uint64_t)e->offset + e->size > *end)
			*end = (uint64_t)e->offset + e->size;
	}
	if (!arc)
		return fail(err, -EINVAL, "no ARC_FW entry (kind %u)",
			    TT_FLASH_ARC_FW);
	return 0;
}

int sim_flash_build(const void *bundle, size_t len,
		    const struct tt_board_info *bi, uint8_t *flash, char *err)
{
	struct tt_flash_header h;
	struct tt_flash_entry *info;
	uint64_t end, info_off;
	int ret;

	if (!bundle || len < HDR_SIZE)
		return fail(err, -EINVAL,
			    "bundle is %zu bytes, shorter than the %u-byte "
			    "header",
			    bundle ? len : 0, HDR_SIZE);
	/* A private copy: the caller's buffer need not be aligned. */
	memcpy(&h, bundle, sizeof(h));
	ret = check_bundle(&h, bundle, len, &end, err);
	if (ret)
		return ret;
	info_off = ALIGN4(end);
	if (info_off + sizeof(*bi) > TT_ARC_FLASH_SIZE)
		return fail(
			err, -EFBIG,
			"bundle payloads end at 0x%llx: with the 0x%zx-byte "
			"board info that exceeds the 0x%x-byte flash",
			(unsigned long long)end, sizeof(*bi),
			TT_ARC_FLASH_SIZE);

	memset(flash, 0xFF, TT_ARC_FLASH_SIZE);
	for (unsigned i = 0; i < h.entry_count; i++)
		memcpy(flash + h.entry[i].offset,
		       (const uint8_t *)bundle + h.entry[i].offset,
		       h.entry[i].size);
	memcpy(flash + info_off, bi, sizeof(*bi));

	/* Unused table slots read as EMPTY whatever the bundle held. */
	memset(&h.entry[h.entry_count], 0,
	       (TT_FLASH_MAX_ENTRIES - h.entry_count) * sizeof(h.entry[0]));
	info = &h.entry[h.entry_count++];
	info->kind = TT_FLASH_BOARD_INFO;
	info->offset = (uint32_t)info_off;
	info->size = sizeof(*bi);
	info->crc32 = sim_crc32(bi, sizeof(*bi));
	memcpy(flash, &h, sizeof(h));
	return 0;
}

const struct tt_flash_entry *sim_flash_find(const uint8_t *flash,
					    enum tt_flash_kind kind)
{
	const struct tt_flash_header *h = (const void *)flash;
	uint32_t n = h->entry_count;

	if (h->magic != TT_FLASH_MAGIC || h->format != TT_FLASH_FORMAT ||
	    n > TT_FLASH_MAX_ENTRIES || kind == TT_FLASH_EMPTY)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		const struct tt_flash_entry *e = &h->entry[i];

		if (e->kind != (uint32_t)kind)
			continue;
		if (e->offset < HDR_SIZE || e->offset > TT_ARC_FLASH_SIZE ||
		    e->size > TT_ARC_FLASH_SIZE - e->offset)
			return NULL;
		return e;
	}
	return NULL;
}
