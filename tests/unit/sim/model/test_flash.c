// SPDX-License-Identifier: Apache-2.0
/*
 * The model's flash (sim/model/flash.c): CRC-32, building a flash from a firmware
 * bundle (a valid one byte for byte, then one case per malformation, each
 * with its error code and message and the flash left untouched), finding
 * entries in a built flash, and the factory board info of every board,
 * decoded the way tt-kmd and UMD decode it.
 *
 * Bundles are made here, laid out as the firmware build lays them out:
 * header at 0, payloads from 0x200 at 16-byte aligned offsets.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/board.h"
#include "sim/model/firmware.h"
#include "sim/model/flash.h"
#include "hw/arc.h"
#include "common/soc_desc.h"
#include "tmpdir.h"

#define HDR sizeof(struct tt_flash_header)
#define BUNDLE_MAX (TT_ARC_FLASH_SIZE + 0x10000)
#define ARC_LOAD 0x10000000u

/* Word arrays keep both buffers 4-byte aligned, as the API asks. */
static uint32_t bundle_words[BUNDLE_MAX / 4];
static uint32_t flash_words[TT_ARC_FLASH_SIZE / 4];
static uint8_t *const bundle = (uint8_t *)bundle_words;
static uint8_t *const flash = (uint8_t *)flash_words;
static char err[SIM_ERR_LEN];

static const struct tt_board_info test_bi = {
	.board_id_hi = 0x01000180,
	.board_id_lo = 0x10020001,
	.card_type = TT_CARD_N150,
	.aiclk_max = 1000,
	.reserved = {7},
};

/* ------------------------------------------------------------------ */
/* Bundles */

static struct tt_flash_header *hdr(void)
{
	return (struct tt_flash_header *)bundle;
}

static void fill_payload(struct tt_flash_entry *e, unsigned seed)
{
	for (uint32_t j = 0; j < e->size; j++)
		bundle[e->offset + j] =
			(uint8_t)(seed * 37 + j * 13 + (j >> 8));
	e->crc32 = sim_crc32(bundle + e->offset, e->size);
}

/* A bundle with one entry per kind and size; returns its length. */
static size_t make_bundle(const uint32_t *kinds, const uint32_t *sizes,
			  unsigned n)
{
	struct tt_flash_header *h = hdr();
	uint32_t off = 0x200;

	memset(bundle, 0, BUNDLE_MAX);
	h->magic = TT_FLASH_MAGIC;
	h->format = TT_FLASH_FORMAT;
	h->bundle_version = 0x13070000;
	h->entry_count = n;
	for (unsigned i = 0; i < n; i++) {
		struct tt_flash_entry *e = &h->entry[i];

		e->kind = kinds[i];
		e->offset = off;
		e->size = sizes[i];
		e->load_addr = kinds[i] == TT_FLASH_ARC_FW ? ARC_LOAD : 0x4000;
		e->entry = e->load_addr;
		e->bss_size = 0x100;
		e->version = 0x01020300 + i;
		fill_payload(e, i + 1);
		off = (off + sizes[i] + 15) & ~15u;
	}
	return h->entry[n - 1].offset + h->entry[n - 1].size;
}

static const uint32_t all_kinds[] = {
	TT_FLASH_ARC_FW,
	TT_FLASH_BRISC_FW,
	TT_FLASH_NCRISC_FW,
	TT_FLASH_COMPUTE_FW,
};
static const uint32_t all_sizes[] = {0x3000, 0x801, 0x7FF, 0x1234};

static size_t full_bundle(void)
{
	return make_bundle(all_kinds, all_sizes, 4);
}

/* After a change to entry i's payload or bounds. */
static void recrc(unsigned i)
{
	struct tt_flash_entry *e = &hdr()->entry[i];

	e->crc32 = sim_crc32(bundle + e->offset, e->size);
}

static void expect_fail(size_t len, int code, const char *why)
{
	memset(flash, 0xA5, TT_ARC_FLASH_SIZE);
	err[0] = 0;
	assert_int_equal(sim_flash_build(bundle, len, &test_bi, flash, err),
			 code);
	if (!strstr(err, why))
		fail_msg("expected '%s' in: '%s'", why, err);
	for (size_t i = 0; i < TT_ARC_FLASH_SIZE; i++)
		if (flash[i] != 0xA5)
			fail_msg("flash changed at 0x%zx", i);
}

static const struct tt_flash_header *flash_hdr(void)
{
	return (const struct tt_flash_header *)flash;
}

/* ------------------------------------------------------------------ */

static void test_crc32(void **state)
{
	static const char fox[] = "The quick brown fox jumps over the lazy dog";
	uint8_t zeros[32] = {0};

	(void)state;
	assert_int_equal(sim_crc32("", 0), 0);
	assert_int_equal(sim_crc32("123456789", 9), 0xCBF43926u);
	assert_int_equal(sim_crc32(fox, strlen(fox)), 0x414FA339u);
	assert_int_equal(sim_crc32("a", 1), 0xE8B7BE43u);
	assert_int_equal(sim_crc32(zeros, sizeof(zeros)), 0x190A55ADu);
}

static void test_build_valid(void **state)
{
	const struct tt_flash_header *f = flash_hdr();
	struct tt_flash_header orig;
	const struct tt_flash_entry *bi;
	size_t len = full_bundle();
	uint32_t end;

	(void)state;
	memcpy(&orig, hdr(), sizeof(orig));
	memset(flash, 0, TT_ARC_FLASH_SIZE);
	assert_int_equal(sim_flash_build(bundle, len, &test_bi, flash, err), 0);

	assert_int_equal(f->magic, TT_FLASH_MAGIC);
	assert_int_equal(f->format, TT_FLASH_FORMAT);
	assert_int_equal(f->bundle_version, 0x13070000);
	assert_int_equal(f->entry_count, 5);
	assert_memory_equal(f->entry, orig.entry, 4 * sizeof(f->entry[0]));
	for (unsigned i = 0; i < 4; i++)
		assert_memory_equal(flash + f->entry[i].offset,
				    bundle + f->entry[i].offset,
				    f->entry[i].size);

	/* Board info right after the last payload, 4-byte aligned. */
	end = orig.entry[3].offset + orig.entry[3].size;
	bi = &f->entry[4];
	assert_int_equal(bi->kind, TT_FLASH_BOARD_INFO);
	assert_int_equal(bi->offset, (end + 3) & ~3u);
	assert_int_equal(bi->size, sizeof(struct tt_board_info));
	assert_int_equal(bi->crc32, sim_crc32(&test_bi, sizeof(test_bi)));
	assert_memory_equal(flash + bi->offset, &test_bi, sizeof(test_bi));

	/* Unused entries EMPTY; every byte outside header and payloads erased.
	 */
	for (unsigned i = 5; i < TT_FLASH_MAX_ENTRIES; i++) {
		static const struct tt_flash_entry zero;

		assert_memory_equal(&f->entry[i], &zero, sizeof(zero));
	}
	for (size_t a = HDR; a < TT_ARC_FLASH_SIZE; a++) {
		int inside = 0;

		for (unsigned i = 0; i < f->entry_count; i++)
			inside |= a >= f->entry[i].offset &&
				  a < f->entry[i].offset + f->entry[i].size;
		if (!inside && flash[a] != 0xFF)
			fail_msg("byte 0x%zx is 0x%02x, not erased", a,
				 flash[a]);
	}

	/* Find every kind; EMPTY and absent kinds are not found. */
	for (unsigned i = 0; i < 5; i++)
		assert_ptr_equal(sim_flash_find(flash, f->entry[i].kind),
				 &f->entry[i]);
	assert_null(sim_flash_find(flash, TT_FLASH_EMPTY));
	assert_null(sim_flash_find(flash, (enum tt_flash_kind)9));
}

static void test_build_arc_only_unaligned_end(void **state)
{
	static const uint32_t kinds[] = {TT_FLASH_ARC_FW};
	static const uint32_t sizes[] = {0x1001};
	const struct tt_flash_entry *e;
	size_t len = make_bundle(kinds, sizes, 1);

	(void)state;
	assert_int_equal(sim_flash_build(bundle, len, &test_bi, flash, err), 0);
	assert_int_equal(flash_hdr()->entry_count, 2);
	assert_null(sim_flash_find(flash, TT_FLASH_BRISC_FW));
	e = sim_flash_find(flash, TT_FLASH_BOARD_INFO);
	assert_non_null(e);
	assert_int_equal(e->offset, 0x200 + 0x1004);
	for (uint32_t a = 0x200 + 0x1001; a < e->offset; a++)
		assert_int_equal(flash[a], 0xFF);
}

/* Bytes the bundle holds outside its payloads are not copied; junk in
 * unused table slots is cleared; a longer buffer is fine. */
static void test_build_ignores_padding(void **state)
{
	size_t len = full_bundle();
	const struct tt_flash_entry *e;

	(void)state;
	memset(bundle + HDR, 0x5A, 0x200 - HDR);
	memset(&hdr()->entry[7], 0x77, sizeof(hdr()->entry[7]));
	memset(bundle + len, 0x33, 0x100);
	assert_int_equal(
		sim_flash_build(bundle, len + 0x100, &test_bi, flash, err), 0);
	for (size_t a = HDR; a < 0x200; a++)
		assert_int_equal(flash[a], 0xFF);
	assert_int_equal(flash_hdr()->entry[7].kind, TT_FLASH_EMPTY);
	assert_int_equal(flash_hdr()->entry[7].offset, 0);
	e = sim_flash_find(flash, TT_FLASH_BOARD_INFO);
	assert_int_equal(e->offset, (len + 3) & ~(size_t)3);
}

static void test_reject_header(void **state)
{
	size_t len;

	(void)state;
	len = full_bundle();
	expect_fail(0, -EINVAL, "shorter than the 496-byte header");
	expect_fail(HDR - 1, -EINVAL, "bundle is 495 bytes");
	memset(flash, 0xA5, TT_ARC_FLASH_SIZE);
	assert_int_equal(sim_flash_build(NULL, len, &test_bi, flash, err),
			 -EINVAL);

	hdr()->magic = 0x4C465455;
	expect_fail(len, -EINVAL, "bad magic 0x4c465455");
	full_bundle();
	hdr()->format = 2;
	expect_fail(len, -EINVAL, "unsupported format 2");
	full_bundle();
	hdr()->entry_count = TT_FLASH_MAX_ENTRIES;
	expect_fail(len, -EINVAL, "entry_count 15: at most 14 entries");
	hdr()->entry_count = 0xFFFFFFFFu;
	expect_fail(len, -EINVAL, "entry_count 4294967295");
	hdr()->entry_count = 0;
	expect_fail(len, -EINVAL, "no ARC_FW entry");
}

static void test_reject_kinds(void **state)
{
	size_t len;

	(void)state;
	len = full_bundle();
	hdr()->entry[2].kind = TT_FLASH_EMPTY;
	expect_fail(len, -EINVAL, "entry 2: invalid kind 0");
	hdr()->entry[2].kind = 9;
	expect_fail(len, -EINVAL, "entry 2: invalid kind 9");
	hdr()->entry[2].kind = TT_FLASH_BOARD_INFO;
	expect_fail(len, -EINVAL, "entry 2: unexpected kind 5");
	hdr()->entry[2].kind = TT_FLASH_BRISC_FW;
	expect_fail(len, -EINVAL, "entries 1 and 2: duplicate kind BRISC_FW");

	/* Every firmware but the management one. */
	len = make_bundle(all_kinds + 1, all_sizes + 1, 3);
	expect_fail(len, -EINVAL, "no ARC_FW entry");
}

static void test_reject_payload_bounds(void **state)
{
	struct tt_flash_entry *e = &hdr()->entry[1];
	size_t len;

	(void)state;
	len = full_bundle();
	e->size = 0;
	expect_fail(len, -EINVAL, "entry 1 (BRISC_FW): empty payload");

	len = full_bundle();
	e->offset = HDR - 4;
	recrc(1);
	expect_fail(len, -EINVAL,
		    "entry 1 (BRISC_FW): payload at 0x1ec overlaps the "
		    "0x1f0-byte header");
	e->offset = 0;
	expect_fail(len, -EINVAL, "overlaps the 0x1f0-byte header");

	/* Last payload one byte short of the bundle. */
	len = full_bundle();
	expect_fail(len - 1, -EINVAL,
		    "entry 3 (COMPUTE_FW): payload 0x4210+0x1234 runs past "
		    "the end of the 0x5443-byte bundle");

	/* offset + size wraps 32 bits. */
	len = full_bundle();
	e->offset = 0xFFFFFFF0u;
	e->size = 0x20;
	expect_fail(len, -EINVAL, "payload 0xfffffff0+0x20 runs past");
	e->offset = 0x200;
	e->size = 0xFFFFFFFFu;
	expect_fail(len, -EINVAL, "payload 0x200+0xffffffff runs past");

	/* Payloads sharing bytes. */
	len = full_bundle();
	e->offset = hdr()->entry[0].offset + hdr()->entry[0].size - 1;
	recrc(1);
	expect_fail(len, -EINVAL, "entries 0 and 1: payloads");
	expect_fail(len, -EINVAL, "overlap");
}

static void test_reject_crc_and_image(void **state)
{
	struct tt_flash_entry *e = &hdr()->entry[3];
	size_t len;

	(void)state;
	len = full_bundle();
	bundle[e->offset + e->size - 1] ^= 0x10;
	expect_fail(len, -EINVAL, "entry 3 (COMPUTE_FW): CRC 0x");
	expect_fail(len, -EINVAL, "does not match");
	len = full_bundle();
	e->crc32 ^= 1;
	expect_fail(len, -EINVAL, "CRC");

	len = full_bundle();
	e->load_addr = 0xFFFFF000u;
	e->entry = e->load_addr;
	expect_fail(len, -EINVAL, "wraps the 32-bit address space");
	e->load_addr = 0x4000;
	e->entry = 0x4000 + e->size;
	expect_fail(len, -EINVAL, "entry point 0x5234 is outside");
	e->entry = 0x3FFC;
	expect_fail(len, -EINVAL, "entry point 0x3ffc is outside");
	/* The last loaded byte is still a valid entry. */
	e->entry = 0x4000 + e->size - 1;
	assert_int_equal(sim_flash_build(bundle, len, &test_bi, flash, err), 0);
}

/* Payloads ending exactly where the board info just fits, and one byte
 * later. */
static void test_fit_boundary(void **state)
{
	static const uint32_t kinds[] = {TT_FLASH_ARC_FW};
	uint32_t sizes[1];
	size_t limit = TT_ARC_FLASH_SIZE - sizeof(struct tt_board_info);
	const struct tt_flash_entry *e;
	size_t len;

	(void)state;
	sizes[0] = (uint32_t)(limit - 0x200);
	len = make_bundle(kinds, sizes, 1);
	assert_int_equal(sim_flash_build(bundle, len, &test_bi, flash, err), 0);
	e = sim_flash_find(flash, TT_FLASH_BOARD_INFO);
	assert_non_null(e);
	assert_int_equal(e->offset, limit);
	assert_memory_equal(flash + limit, &test_bi, sizeof(test_bi));

	sizes[0]++;
	len = make_bundle(kinds, sizes, 1);
	expect_fail(len, -EFBIG, "exceeds the 0x100000-byte flash");

	/* A bundle bigger than the flash altogether. */
	sizes[0] = TT_ARC_FLASH_SIZE;
	len = make_bundle(kinds, sizes, 1);
	expect_fail(len, -EFBIG, "exceeds");
}

static void test_find_checks_the_flash(void **state)
{
	struct tt_flash_header *f = (struct tt_flash_header *)flash;
	size_t len = full_bundle();

	(void)state;
	assert_int_equal(sim_flash_build(bundle, len, &test_bi, flash, err), 0);
	f->entry[1].offset = TT_ARC_FLASH_SIZE - 4;
	assert_null(sim_flash_find(flash, TT_FLASH_BRISC_FW));
	f->entry[1].offset = 0x10;
	assert_null(sim_flash_find(flash, TT_FLASH_BRISC_FW));
	f->entry[1].offset = 0xFFFFFFF0u;
	assert_null(sim_flash_find(flash, TT_FLASH_BRISC_FW));
	assert_non_null(sim_flash_find(flash, TT_FLASH_ARC_FW));
	f->entry_count = 16;
	assert_null(sim_flash_find(flash, TT_FLASH_ARC_FW));
	f->entry_count = 5;
	f->format = 0;
	assert_null(sim_flash_find(flash, TT_FLASH_ARC_FW));
	f->format = TT_FLASH_FORMAT;
	f->magic = 0xFFFFFFFFu;
	assert_null(sim_flash_find(flash, TT_FLASH_ARC_FW));
	memset(flash, 0xFF, TT_ARC_FLASH_SIZE);
	assert_null(sim_flash_find(flash, TT_FLASH_ARC_FW));
}

/* ------------------------------------------------------------------ */
/* Board info */

/* tt-kmd's card names by (BOARD_ID_HIGH >> 4) & 0xFFFF (reference kmd.md
 * 1.10), abridged. */
static const char *kmd_card_name(uint32_t board_id_hi)
{
	switch ((board_id_hi >> 4) & 0xFFFF) {
	case 0x14:
		return "n300";
	case 0x18:
		return "n150";
	case 0x36:
		return "p100";
	case 0x40:
		return "p150a";
	default:
		return "unknown";
	}
}

struct expect_board {
	const char *name, *kmd_name;
	uint32_t card, harvesting;
	unsigned tensix, grid_x, grid_y;
};

static const struct expect_board expected[] = {
	{"n150", "n150", TT_CARD_N150, 1u << 11, 72, 10, 12},
	{"n300", "n300", TT_CARD_N300, 1u << 1 | 1u << 8, 64, 10, 12},
	{"p150", "p150a", TT_CARD_P150A, 1u << 7 | 1u << 10, 120, 17, 12},
	{"e150", "unknown", TT_CARD_E150, 0, 120, 13, 12},
};

static void test_board_info_every_board(void **state)
{
	static struct soc_desc soc;
	uint64_t asic_ids[8];
	unsigned nids = 0;

	(void)state;
	for (unsigned b = 0; b < 4; b++) {
		const struct expect_board *x = &expected[b];
		const struct board_info *board = board_find(x->name);
		struct tt_board_info bi, chip0;
		char serial[17], soc_err[SOC_ERR_MAX];

		assert_non_null(board);
		for (unsigned c = 0; c < board->chips; c++) {
			assert_int_equal(soc_desc_builtin(board->soc[c], &soc,
							  soc_err,
							  sizeof(soc_err)),
					 0);
			sim_board_info(board->id, c, &soc, &bi);
			assert_int_equal(bi.card_type, x->card);
			assert_string_equal(kmd_card_name(bi.board_id_hi),
					    x->kmd_name);
			/* UMD's wider decode agrees. */
			assert_int_equal((bi.board_id_hi >> 4) & 0xFFFFF,
					 x->card);
			assert_int_equal(bi.chip_index, c);
			assert_int_equal(bi.grid_x, x->grid_x);
			assert_int_equal(bi.grid_y, x->grid_y);
			assert_int_equal(bi.tensix_count, x->tensix);
			assert_int_equal(bi.harvesting, x->harvesting);
			snprintf(serial, sizeof(serial), "%08X%08X",
				 bi.board_id_hi, bi.board_id_lo);
			assert_int_equal(strlen(serial), 16);
			assert_true(bi.aiclk_min < bi.aiclk_max);
			assert_true(bi.vdd_min < bi.vdd_max);
			assert_true(bi.thm_limit_throttle <
				    bi.thm_limit_shutdown);
			assert_true(bi.dm_app_fw_version &&
				    bi.flash_tool_version);
			for (unsigned r = 0; r < 8; r++)
				assert_int_equal(bi.reserved[r], 0);
			/* One board id per board, one ASIC id per chip. */
			if (c == 0)
				chip0 = bi;
			assert_int_equal(bi.board_id_hi, chip0.board_id_hi);
			assert_int_equal(bi.board_id_lo, chip0.board_id_lo);
			asic_ids[nids++] =
				(uint64_t)bi.asic_id_hi << 32 | bi.asic_id_lo;
		}
	}
	for (unsigned i = 0; i < nids; i++)
		for (unsigned j = 0; j < i; j++)
			assert_true(asic_ids[i] != asic_ids[j]);
}

static void test_board_info_values(void **state)
{
	struct tt_board_info bi, again;

	(void)state;
	/* Blackhole limits as in the p150a firmware table. */
	sim_board_info(TT_HW_BOARD_P150, 0, NULL, &bi);
	assert_int_equal(bi.card_type, 0x40);
	assert_int_equal(bi.board_id_hi, 0x01000400);
	assert_int_equal(bi.aiclk_max, 1350);
	assert_int_equal(bi.aiclk_min, 800);
	assert_int_equal(bi.vdd_min, 700);
	assert_int_equal(bi.vdd_max, 900);
	assert_int_equal(bi.tdp_limit, 150);
	assert_int_equal(bi.tdc_limit, 200);
	assert_int_equal(bi.thm_limit_throttle, 90);
	assert_int_equal(bi.board_power_limit, 300);
	/* Without a descriptor the grid is unknown. */
	assert_int_equal(bi.grid_x, 0);
	assert_int_equal(bi.tensix_count, 0);

	sim_board_info(TT_HW_BOARD_N150, 0, NULL, &bi);
	assert_int_equal(bi.board_id_hi, 0x01000180);
	assert_int_equal(bi.aiclk_max, 1000);
	assert_int_equal(bi.aiclk_min, 500);
	assert_int_equal(bi.axiclk, 900);
	assert_int_equal(bi.arcclk, 540);

	/* Deterministic; the chip index changes only the chip's fields. */
	sim_board_info(TT_HW_BOARD_N300, 1, NULL, &bi);
	sim_board_info(TT_HW_BOARD_N300, 1, NULL, &again);
	assert_memory_equal(&bi, &again, sizeof(bi));
	sim_board_info(TT_HW_BOARD_N300, 0, NULL, &again);
	assert_int_not_equal(bi.asic_id_lo, again.asic_id_lo);
	again.asic_id_lo = bi.asic_id_lo;
	again.chip_index = 1;
	assert_memory_equal(&bi, &again, sizeof(bi));

	/* Unknown board: no card type, but usable limits. */
	sim_board_info(TT_HW_BOARD_UNKNOWN, 0, NULL, &bi);
	assert_int_equal(bi.card_type, 0);
	assert_string_equal(kmd_card_name(bi.board_id_hi), "unknown");
	assert_int_equal(bi.aiclk_max, 1000);
}

/* The board info survives a flash build and reads back intact. */
static void test_board_info_in_flash(void **state)
{
	static struct soc_desc soc;
	const struct tt_flash_entry *e;
	struct tt_board_info bi, back;
	char soc_err[SOC_ERR_MAX];
	size_t len = full_bundle();

	(void)state;
	assert_int_equal(soc_desc_builtin("blackhole_p150", &soc, soc_err,
					  sizeof(soc_err)),
			 0);
	sim_board_info(TT_HW_BOARD_P150, 0, &soc, &bi);
	assert_int_equal(sim_flash_build(bundle, len, &bi, flash, err), 0);
	e = sim_flash_find(flash, TT_FLASH_BOARD_INFO);
	assert_non_null(e);
	assert_int_equal(sim_crc32(flash + e->offset, e->size), e->crc32);
	memcpy(&back, flash + e->offset, sizeof(back));
	assert_memory_equal(&back, &bi, sizeof(bi));
}

/* TT_FIRMWARE naming an empty file is refused like a bundle shorter than
 * its header; /dev/null, which reads empty on purpose, is a blank flash. */
static void test_firmware_file_empty_refused(void **state)
{
	char dir[256], path[300], want[400];
	const void *data = NULL;
	size_t len = 1;
	FILE *f;

	(void)state;
	assert_non_null(test_mkdtemp(dir, sizeof(dir), "tt-fw"));
	snprintf(path, sizeof(path), "%s/empty.bin", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	setenv("TT_FIRMWARE", path, 1);
	err[0] = 0;
	assert_int_equal(sim_firmware_bundle(&data, &len, err), -EINVAL);
	snprintf(want, sizeof(want),
		 "TT_FIRMWARE=%s: bundle is 0 bytes, shorter than the %zu-byte header",
		 path, HDR);
	assert_non_null(strstr(err, want));
	/* A short one: read, then refused by the same rule when burnt. */
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite("TTFLASH", 1, 7, f), 7);
	fclose(f);
	assert_int_equal(sim_firmware_bundle(&data, &len, err), 0);
	assert_int_equal(len, 7);
	assert_int_equal(sim_flash_build(data, len, &test_bi, flash, err),
			 -EINVAL);
	assert_non_null(strstr(err, "bundle is 7 bytes, shorter than the"));
	/* /dev/null: a blank flash. */
	setenv("TT_FIRMWARE", "/dev/null", 1);
	assert_int_equal(sim_firmware_bundle(&data, &len, err), 0);
	assert_int_equal(len, 0);
	unsetenv("TT_FIRMWARE");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32),
		cmocka_unit_test(test_build_valid),
		cmocka_unit_test(test_build_arc_only_unaligned_end),
		cmocka_unit_test(test_build_ignores_padding),
		cmocka_unit_test(test_reject_header),
		cmocka_unit_test(test_reject_kinds),
		cmocka_unit_test(test_reject_payload_bounds),
		cmocka_unit_test(test_reject_crc_and_image),
		cmocka_unit_test(test_fit_boundary),
		cmocka_unit_test(test_find_checks_the_flash),
		cmocka_unit_test(test_board_info_every_board),
		cmocka_unit_test(test_board_info_values),
		cmocka_unit_test(test_board_info_in_flash),
		cmocka_unit_test(test_firmware_file_empty_refused),
	};

	return cmocka_run_group_tests_name("flash", tests, NULL, NULL);
}
