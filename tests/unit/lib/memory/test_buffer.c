// SPDX-License-Identifier: Apache-2.0
/*
 * Device buffers (tt/buffer.h) on the embedded model: configuration
 * checks, where every page lands (read back raw over the NOC from the
 * bank and address the interleaving and sharding rules give), region
 * I/O, fixed addresses, deallocation and lifetime, direct L1 and DRAM
 * access, and the device-side bank table of n150 and p150.
 *
 * n150 facts used: 6 DRAM channels (channel c at port 0: 0-0, 0-5, 5-0,
 * 5-2, 5-3, 5-5) of 2 GiB; 72 Tensix cores, a logical 8x8 grid (the last
 * row is the dispatch row), logical
 * core (x, y) at NOC 0 (x < 4 ? x + 1 : x + 2, y < 5 ? y + 1 : y + 2);
 * L1 1499136 bytes. p150: 8 DRAM channels, 120 Tensix (108 logical),
 * grid 17x12.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/memory/alloc.h"
#include "testutil.h"

#define L1_SIZE 1499136u
#define L1_TOP (L1_SIZE - 4096u)
#define DRAM_CHANNEL (2ull << 30)

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 131 + seed * 7 + (i >> 8) + (i >> 16));
}

/* NOC 0 coordinates of n150 logical core (x, y), from the SoC facts. */
static struct tt_xy n150_core(unsigned x, unsigned y)
{
	struct tt_xy xy = { x < 4 ? x + 1 : x + 2, y < 5 ? y + 1 : y + 2 };

	return xy;
}

static struct tt_xy n150_dram(unsigned bank)
{
	static const struct tt_xy xy[6] = {
		{ 0, 0 }, { 0, 5 }, { 5, 0 }, { 5, 2 }, { 5, 3 }, { 5, 5 },
	};

	return xy[bank];
}

/* Page `page` as the device holds it, read raw from (xy, addr). */
static void expect_page(tt_device *dev, struct tt_xy xy, uint64_t addr,
			const uint8_t *want, size_t len)
{
	uint8_t *got = malloc(len);

	assert_non_null(got);
	assert_int_equal(tt_noc_read(dev, 0, xy.x, xy.y, addr, got, len), 0);
	assert_memory_equal(got, want, len);
	free(got);
}

/* Write the whole buffer, check every page against the interleaving rule
 * (bank i % n at address + (i / n) * aligned page size), read it back. */
static void check_interleaved(tt_device *dev, tt_buffer *b, unsigned seed)
{
	uint64_t size = tt_buffer_size(b), ps = tt_buffer_page_size(b);
	uint64_t aps = tt_buffer_aligned_page_size(b);
	bool dram = tt_buffer_type(b) == TT_BUFFER_DRAM;
	unsigned n = dram ? 6 : 64;
	uint8_t *data = malloc(size), *back = malloc(size);

	assert_non_null(data);
	assert_non_null(back);
	fill(data, size, seed);
	assert_int_equal(tt_buffer_num_banks(b), n);
	assert_int_equal(tt_write_to_buffer(b, data, size), 0);
	for (uint64_t i = 0; i < tt_buffer_num_pages(b); i++) {
		struct tt_buffer_page_location loc;
		uint64_t addr = tt_buffer_address(b) + i / n * aps;
		unsigned bank = (unsigned)(i % n);
		struct tt_xy xy = dram ? n150_dram(bank) :
					 n150_core(bank % 8, bank / 8);

		assert_int_equal(tt_buffer_page_location(b, i, &loc), 0);
		assert_int_equal(loc.bank, bank);
		assert_int_equal(loc.address, addr);
		assert_int_equal(loc.noc.x, xy.x);
		assert_int_equal(loc.noc.y, xy.y);
		assert_int_equal(loc.logical.x, dram ? bank : bank % 8);
		assert_int_equal(loc.logical.y, dram ? 0 : bank / 8);
		expect_page(dev, xy, addr, data + i * ps, ps);
	}
	memset(back, 0, size);
	assert_int_equal(tt_read_from_buffer(b, back, size), 0);
	assert_memory_equal(back, data, size);
	free(data);
	free(back);
}

static void test_interleaved_dram(void **state)
{
	tt_buffer *b = test_make_buffer(*state, TT_BUFFER_DRAM, 50 * 2048, 2048);

	assert_int_equal(tt_buffer_aligned_page_size(b), 2048);
	assert_int_equal(tt_buffer_num_pages(b), 50);
	assert_int_equal(tt_buffer_bank_size(b), 9 * 2048);
	assert_int_equal(tt_buffer_layout(b), TT_LAYOUT_INTERLEAVED);
	assert_ptr_equal(tt_buffer_device(b), *state);
	check_interleaved(*state, b, 1);
	tt_buffer_free(b);
}

static void test_interleaved_dram_unaligned_pages(void **state)
{
	/* 100-byte pages are stored 128 apart. */
	tt_buffer *b = test_make_buffer(*state, TT_BUFFER_DRAM, 77 * 100, 100);

	assert_int_equal(tt_buffer_aligned_page_size(b), 128);
	check_interleaved(*state, b, 2);
	tt_buffer_free(b);
}

static void test_interleaved_l1(void **state)
{
	tt_buffer *b = test_make_buffer(*state, TT_BUFFER_L1, 200 * 100, 100);

	assert_int_equal(tt_buffer_aligned_page_size(b), 112);
	assert_int_equal(tt_buffer_type(b), TT_BUFFER_L1);
	check_interleaved(*state, b, 3);
	tt_buffer_free(b);
}

/* Pages of one bank that cross a 16 MiB host window boundary. */
static void test_interleaved_across_windows(void **state)
{
	struct tt_buffer_config c = {
		.device = *state, .size = 6 * 40 * 3000, .page_size = 3000,
		.type = TT_BUFFER_DRAM, .fixed_address = true,
		.address = (16u << 20) - 64 * 1024,
	};
	tt_buffer *b;

	assert_int_equal(tt_create_buffer(&c, &b), 0);
	assert_int_equal(tt_buffer_address(b), c.address);
	check_interleaved(*state, b, 4);
	tt_buffer_free(b);
}

/* Region writes at odd offsets and lengths against a host copy. */
static void check_regions(tt_buffer *b, unsigned seed)
{
	uint64_t size = tt_buffer_size(b);
	uint8_t *shadow = calloc(1, size), *got = malloc(size);
	uint8_t *piece = malloc(size);
	uint32_t r = seed;

	assert_non_null(shadow);
	assert_non_null(got);
	assert_non_null(piece);
	assert_int_equal(tt_write_to_buffer(b, shadow, size), 0);
	for (int k = 0; k < 60; k++) {
		uint64_t off, len;

		r = r * 1103515245u + 12345u;
		off = (r >> 4) % size;
		r = r * 1103515245u + 12345u;
		len = (r >> 4) % (size - off + 1);
		fill(piece, len, (unsigned)k + seed);
		assert_int_equal(tt_write_to_buffer_region(b, off, piece, len), 0);
		memcpy(shadow + off, piece, len);
		r = r * 1103515245u + 12345u;
		off = (r >> 4) % size;
		len = size - off < 5000 ? size - off : 5000;
		assert_int_equal(tt_read_from_buffer_region(b, off, got, len), 0);
		assert_memory_equal(got, shadow + off, len);
	}
	assert_int_equal(tt_read_from_buffer(b, got, size), 0);
	assert_memory_equal(got, shadow, size);
	free(shadow);
	free(got);
	free(piece);
}

static void test_region_io(void **state)
{
	tt_buffer *a = test_make_buffer(*state, TT_BUFFER_DRAM, 37 * 96, 96);
	tt_buffer *b = test_make_buffer(*state, TT_BUFFER_DRAM, 37 * 100, 100);
	tt_buffer *c = test_make_buffer(*state, TT_BUFFER_L1, 301 * 24, 24);

	check_regions(a, 10);
	check_regions(b, 20);
	check_regions(c, 30);
	tt_buffer_free(a);
	tt_buffer_free(b);
	tt_buffer_free(c);
}

static void test_region_bounds(void **state)
{
	tt_buffer *b = test_make_buffer(*state, TT_BUFFER_DRAM, 4096, 1024);
	uint8_t buf[8192] = { 0 };

	assert_int_equal(tt_write_to_buffer_region(b, 4096, buf, 0), 0);
	assert_int_equal(tt_write_to_buffer_region(b, 4000, buf, 97), -EINVAL);
	assert_non_null(strstr(tt_last_error(),
			       "DRAM buffer #"));
	assert_non_null(strstr(tt_last_error(),
			       "(4096 bytes, page size 1024, at 0x"));
	assert_non_null(strstr(tt_last_error(),
			       "region [4000, +97) is outside its 4096 bytes"));
	assert_int_equal(tt_read_from_buffer_region(b, 4097, buf, 0), -EINVAL);
	assert_int_equal(tt_read_from_buffer_region(b, UINT64_MAX, buf, 2),
			 -EINVAL);
	assert_int_equal(tt_read_from_buffer_region(b, 1, buf, SIZE_MAX),
			 -EINVAL);
	assert_int_equal(tt_write_to_buffer(b, buf, 4095), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "writing 4095 bytes, not its size"));
	assert_int_equal(tt_read_from_buffer(b, buf, 8192), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "reading 8192 bytes, not its size"));
	tt_buffer_free(b);
}

/* ---- sharding ---- */

static tt_buffer *make_sharded(tt_device *dev, enum tt_buffer_type type,
			       enum tt_tensor_memory_layout layout,
			       const struct tt_core_range_set *grid,
			       enum tt_shard_orientation o, unsigned rows,
			       unsigned cols, unsigned srows, unsigned scols,
			       uint64_t page, int *err)
{
	/* Pages of 32x32 elements. */
	struct tt_buffer_config c = {
		.device = dev, .size = (uint64_t)rows * cols * page,
		.page_size = page, .type = type, .layout = layout,
		.shard = {
			.spec = { .grid = grid, .shape = { srows * 32, scols * 32 },
				  .orientation = o },
			.page_shape = { 32, 32 },
			.tensor2d_shape_in_pages = { rows, cols },
		},
	};
	tt_buffer *b = NULL;

	*err = tt_create_buffer(&c, &b);
	return b;
}

static struct tt_core_range_set one_range(unsigned x0, unsigned y0,
					  unsigned x1, unsigned y1)
{
	struct tt_core_range_set s = { .count = 1 };

	s.ranges[0] = (struct tt_core_range){ { x0, y0 }, { x1, y1 } };
	return s;
}

/* Write the buffer; check page p is at (xy[p], base + slot[p] * aps). */
static void check_pages(tt_device *dev, tt_buffer *b, const struct tt_xy *xy,
			const unsigned *slot, unsigned seed)
{
	uint64_t size = tt_buffer_size(b), ps = tt_buffer_page_size(b);
	uint64_t aps = tt_buffer_aligned_page_size(b);
	uint8_t *data = malloc(size), *back = malloc(size);

	assert_non_null(data);
	assert_non_null(back);
	fill(data, size, seed);
	assert_int_equal(tt_write_to_buffer(b, data, size), 0);
	for (uint64_t p = 0; p < tt_buffer_num_pages(b); p++) {
		struct tt_buffer_page_location loc;
		uint64_t addr = tt_buffer_address(b) + slot[p] * aps;

		assert_int_equal(tt_buffer_page_location(b, p, &loc), 0);
		assert_int_equal(loc.noc.x, xy[p].x);
		assert_int_equal(loc.noc.y, xy[p].y);
		assert_int_equal(loc.address, addr);
		expect_page(dev, xy[p], addr, data + p * ps, ps);
	}
	assert_int_equal(tt_read_from_buffer(b, back, size), 0);
	assert_memory_equal(back, data, size);
	free(data);
	free(back);
}

/* 10 x 2 pages in shards of 3 x 2 over logical (0,0)-(1,1): shard k is
 * pages 6k..6k+5; the last shard has one row. */
static void test_height_sharded(void **state)
{
	struct tt_core_range_set g = one_range(0, 0, 1, 1);
	struct tt_xy row[4] = { n150_core(0, 0), n150_core(1, 0),
				n150_core(0, 1), n150_core(1, 1) };
	struct tt_xy col[4] = { n150_core(0, 0), n150_core(0, 1),
				n150_core(1, 0), n150_core(1, 1) };
	struct tt_xy xy_row[20], xy_col[20];
	unsigned slot[20];
	tt_buffer *b;
	int err;

	for (unsigned p = 0; p < 20; p++) {
		xy_row[p] = row[p / 6];
		xy_col[p] = col[p / 6];
		slot[p] = p % 6;
	}
	b = make_sharded(*state, TT_BUFFER_L1, TT_LAYOUT_HEIGHT_SHARDED, &g,
			 TT_SHARD_ROW_MAJOR, 10, 2, 3, 2, 2048, &err);
	assert_int_equal(err, 0);
	assert_int_equal(tt_buffer_layout(b), TT_LAYOUT_HEIGHT_SHARDED);
	/* Lock-step: one full shard in every bank. */
	assert_int_equal(tt_buffer_bank_size(b), 6 * 2048);
	assert_int_equal(tt_buffer_address(b) % 16, 0);
	check_pages(*state, b, xy_row, slot, 40);
	tt_buffer_free(b);
	b = make_sharded(*state, TT_BUFFER_L1, TT_LAYOUT_HEIGHT_SHARDED, &g,
			 TT_SHARD_COL_MAJOR, 10, 2, 3, 2, 2048, &err);
	assert_int_equal(err, 0);
	check_pages(*state, b, xy_col, slot, 41);
	tt_buffer_free(b);
}

/* DRAM, 2 x 7 pages in shards of 2 x 3 over banks 1..3: page (r, c) is in
 * bank 1 + c / 3 at slot r * 3 + c % 3; the last shard is one column
 * wide but keeps the stride of 3. */
static void test_width_sharded_dram(void **state)
{
	struct tt_core_range_set g = one_range(1, 0, 3, 0);
	struct tt_xy xy[14];
	unsigned slot[14];
	tt_buffer *b;
	int err;

	for (unsigned p = 0; p < 14; p++) {
		unsigned r = p / 7, c = p % 7;

		xy[p] = n150_dram(1 + c / 3);
		slot[p] = r * 3 + c % 3;
	}
	/* Pages of 100 bytes: stored 128 apart. */
	b = make_sharded(*state, TT_BUFFER_DRAM, TT_LAYOUT_WIDTH_SHARDED, &g,
			 TT_SHARD_ROW_MAJOR, 2, 7, 2, 3, 100, &err);
	assert_int_equal(err, 0);
	assert_int_equal(tt_buffer_aligned_page_size(b), 128);
	assert_int_equal(tt_buffer_bank_size(b), 6 * 128);
	/* literal spot checks of the rule above */
	assert_int_equal(slot[13], 3 + 0);
	assert_int_equal(xy[13].y, 2); /* bank 3 = channel 3 at 5-2 */
	assert_int_equal(xy[13].x, 5);
	check_pages(*state, b, xy, slot, 50);
	tt_buffer_free(b);
}

/* 4 x 7 pages in blocks of 2 x 3 over logical (2,3)-(4,4): 2 x 3 shards;
 * shard (sr, sc) is number sr * 3 + sc. */
static void test_block_sharded(void **state)
{
	struct tt_core_range_set g = one_range(2, 3, 4, 4);
	struct tt_xy row[6] = { n150_core(2, 3), n150_core(3, 3),
				n150_core(4, 3), n150_core(2, 4),
				n150_core(3, 4), n150_core(4, 4) };
	struct tt_xy col[6] = { n150_core(2, 3), n150_core(2, 4),
				n150_core(3, 3), n150_core(3, 4),
				n150_core(4, 3), n150_core(4, 4) };
	struct tt_xy xy_row[28], xy_col[28];
	unsigned slot[28];
	tt_buffer *b;
	int err;

	for (unsigned p = 0; p < 28; p++) {
		unsigned r = p / 7, c = p % 7, k = r / 2 * 3 + c / 3;

		xy_row[p] = row[k];
		xy_col[p] = col[k];
		slot[p] = r % 2 * 3 + c % 3;
	}
	/* Literal: page (3, 6) is in the last shard, slot 3. */
	assert_int_equal(slot[27], 3);
	assert_int_equal(xy_row[27].x, 6); /* logical (4,4) at 6-5 */
	assert_int_equal(xy_row[27].y, 5);
	b = make_sharded(*state, TT_BUFFER_L1, TT_LAYOUT_BLOCK_SHARDED, &g,
			 TT_SHARD_ROW_MAJOR, 4, 7, 2, 3, 1024, &err);
	assert_int_equal(err, 0);
	check_pages(*state, b, xy_row, slot, 60);
	check_regions(b, 61);
	tt_buffer_free(b);
	b = make_sharded(*state, TT_BUFFER_L1, TT_LAYOUT_BLOCK_SHARDED, &g,
			 TT_SHARD_COL_MAJOR, 4, 7, 2, 3, 1024, &err);
	assert_int_equal(err, 0);
	check_pages(*state, b, xy_col, slot, 62);
	tt_buffer_free(b);
}

/* Ranges are taken in the set's order, not sorted. */
static void test_sharded_range_order(void **state)
{
	struct tt_core_range_set g = { .count = 2 };
	struct tt_xy xy[4];
	unsigned slot[4];
	tt_buffer *b;
	int err;

	g.ranges[0] = (struct tt_core_range){ { 5, 5 }, { 5, 5 } };
	g.ranges[1] = (struct tt_core_range){ { 0, 0 }, { 0, 1 } };
	for (unsigned p = 0; p < 4; p++)
		slot[p] = 0;
	xy[0] = n150_core(5, 5);
	xy[1] = n150_core(0, 0);
	xy[2] = n150_core(0, 1);
	b = make_sharded(*state, TT_BUFFER_L1, TT_LAYOUT_HEIGHT_SHARDED, &g,
			 TT_SHARD_ROW_MAJOR, 3, 1, 1, 1, 64, &err);
	assert_int_equal(err, 0);
	check_pages(*state, b, xy, slot, 70);
	tt_buffer_free(b);
}

static void expect_shard_error(tt_device *dev, enum tt_buffer_type type,
			       enum tt_tensor_memory_layout layout,
			       const struct tt_core_range_set *g,
			       enum tt_shard_orientation o, unsigned rows,
			       unsigned cols, unsigned srows, unsigned scols,
			       const char *msg)
{
	int err;
	tt_buffer *b = make_sharded(dev, type, layout, g, o, rows, cols, srows,
				    scols, 2048, &err);

	assert_null(b);
	assert_int_equal(err, -EINVAL);
	if (!strstr(tt_last_error(), msg))
		fail_msg("\"%s\" does not contain \"%s\"", tt_last_error(), msg);
}

static void test_sharded_errors(void **state)
{
	tt_device *dev = *state;
	struct tt_core_range_set g = one_range(0, 0, 1, 1), bad;
	const enum tt_buffer_type L1 = TT_BUFFER_L1;
	const enum tt_tensor_memory_layout H = TT_LAYOUT_HEIGHT_SHARDED;
	struct tt_buffer_config c;
	tt_buffer *b;
	int err;

	expect_shard_error(dev, L1, H, NULL, 0, 4, 1, 1, 1,
			   "the shard grid has 0 ranges");
	bad = g;
	bad.count = 0;
	expect_shard_error(dev, L1, H, &bad, 0, 4, 1, 1, 1,
			   "the shard grid has 0 ranges");
	expect_shard_error(dev, L1, H, &g, (enum tt_shard_orientation)2, 4, 1,
			   1, 1, "shard orientation 2 does not exist");
	expect_shard_error(dev, L1, H, &g, 0, 4, 2, 1, 1,
			   "height sharded, but shards are 1 pages wide and the buffer 2");
	expect_shard_error(dev, L1, TT_LAYOUT_WIDTH_SHARDED, &g, 0, 4, 2, 1, 1,
			   "width sharded, but shards are 1 pages tall and the buffer 4");
	expect_shard_error(dev, L1, H, &g, 0, 9, 1, 2, 1,
			   "height_sharded into 5 shards (5x1 of 2x1 pages) but the shard grid has 4 cores");
	bad = one_range(7, 0, 8, 0);
	expect_shard_error(dev, L1, H, &bad, 0, 2, 1, 1, 1,
			   "shard core (8,0) is outside the 8x8 logical grid");
	bad = one_range(1, 1, 0, 0);
	expect_shard_error(dev, L1, H, &bad, 0, 2, 1, 1, 1,
			   "range (1,1)-(0,0) has its start after its end");
	bad = one_range(0, 0, 1, 0);
	bad.count = 2;
	bad.ranges[1] = (struct tt_core_range){ { 1, 0 }, { 1, 0 } };
	expect_shard_error(dev, L1, H, &bad, 0, 2, 1, 1, 1,
			   "shard core (1,0) appears twice in the shard grid");
	bad = one_range(0, 1, 0, 1);
	expect_shard_error(dev, TT_BUFFER_DRAM, H, &bad, 0, 2, 1, 1, 1,
			   "shard core (0,1) is not a DRAM bank (x < 6, y = 0)");
	bad = one_range(0, 0, 6, 0);
	expect_shard_error(dev, TT_BUFFER_DRAM, H, &bad, 0, 2, 1, 1, 1,
			   "shard core (6,0) is not a DRAM bank");
	/* Shapes. */
	c = (struct tt_buffer_config){
		.device = dev, .size = 4 * 2048, .page_size = 2048, .type = L1,
		.layout = H,
		.shard = { .spec = { .grid = &g, .shape = { 32, 32 } },
			   .page_shape = { 32, 32 },
			   .tensor2d_shape_in_pages = { 4, 1 } },
	};
	assert_int_equal(tt_create_buffer(&c, &b), 0);
	tt_buffer_free(b);
	c.shard.spec.shape[0] = 48;
	assert_int_equal(tt_create_buffer(&c, &b), -EINVAL);
	assert_non_null(strstr(tt_last_error(),
			       "shard shape 48x32 is not a whole number of 32x32 pages"));
	c.shard.spec.shape[0] = 0;
	assert_int_equal(tt_create_buffer(&c, &b), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "must not be 0"));
	c.shard.spec.shape[0] = 32;
	c.shard.page_shape[1] = 0;
	assert_int_equal(tt_create_buffer(&c, &b), -EINVAL);
	c.shard.page_shape[1] = 32;
	c.shard.tensor2d_shape_in_pages[0] = 5;
	assert_int_equal(tt_create_buffer(&c, &b), -EINVAL);
	assert_non_null(strstr(tt_last_error(),
			       "5x1 pages (tensor2d_shape_in_pages) is not its 4 pages"));
	(void)err;
}

/* ---- configuration ---- */

static void test_config_errors(void **state)
{
	struct tt_buffer_config c = {
		.device = *state, .size = 4096, .page_size = 1024,
		.type = TT_BUFFER_DRAM,
	};
	tt_buffer *b = (tt_buffer *)0x1;

	c.sub_device_id = 1;
	assert_int_equal(tt_create_buffer(&c, &b), -EINVAL);
	assert_string_equal(tt_last_error(),
			    "DRAM buffer (4096 bytes, page size 1024): sub-device 1 does not exist (the device has one, 0)");
	c.sub_device_id = 0;
	c.size = 0;
	assert_int_equal(tt_create_buffer(&c, &b), -EINVAL);
	assert_non_null(strstr(tt_last_error(),
			       "DRAM buffer (0 bytes, page size 1024): size and page size must not be 0"));
	c.size = 4096;
	c.page_size = 0;
	assert_int_equal(tt_create_buffer(&c, &b), -EINVAL);
	c.page_size = 1000;
	assert_int_equal(tt_create_buffer(&c, &b), -EINVAL);
	assert_non_null(strstr(tt_last_error(),
			       "page size 1000 does not divide the size 4096"));
	c.page_size = 1024;
	c.type = TT_BUFFER_SYSTEM_MEMORY;
	assert_int_equal(tt_create_buffer(&c, &b), -ENOTSUP);
	assert_non_null(strstr(tt_last_error(),
			       "buffer type SYSTEM_MEMORY is not supported (only DRAM and L1)"));
	c.type = TT_BUFFER_L1_SMALL;
	assert_int_equal(tt_create_buffer(&c, &b), -ENOTSUP);
	c.type = TT_BUFFER_TRACE;
	assert_int_equal(tt_create_buffer(&c, &b), -ENOTSUP);
	c.type = (enum tt_buffer_type)9;
	assert_int_equal(tt_create_buffer(&c, &b), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "buffer type 9 does not exist"));
	c.type = TT_BUFFER_L1;
	c.layout = (enum tt_tensor_memory_layout)1;
	assert_int_equal(tt_create_buffer(&c, &b), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "memory layout 1 does not exist"));
	assert_ptr_equal(b, (tt_buffer *)0x1); /* untouched on failure */
	assert_string_equal(tt_buffer_type_name(TT_BUFFER_L1), "L1");
	assert_string_equal(tt_tensor_memory_layout_name(TT_LAYOUT_BLOCK_SHARDED),
			    "block_sharded");
}

static void test_huge_sizes(void **state)
{
	struct tt_buffer_config c = {
		.device = *state, .page_size = 1ull << 32,
		.type = TT_BUFFER_DRAM,
	};
	tt_buffer *b;

	/* 2 GiB per bank fits exactly, one page more does not. */
	c.page_size = 1ull << 31;
	c.size = 6ull << 31;
	assert_int_equal(tt_create_buffer(&c, &b), 0);
	tt_buffer_free(b);
	c.size = 7ull << 31;
	assert_int_equal(tt_create_buffer(&c, &b), -ENOMEM);
	assert_non_null(strstr(tt_last_error(),
			       "cannot allocate 4294967296 bytes per bank in DRAM: largest free block is 2147483648 bytes"));
	/* Sizes whose per-bank size overflows. */
	c.page_size = 1ull << 62;
	c.size = 3ull << 62;
	assert_int_equal(tt_create_buffer(&c, &b), -ENOMEM);
	c.page_size = UINT64_MAX;
	c.size = UINT64_MAX;
	assert_int_equal(tt_create_buffer(&c, &b), -ENOMEM);
	assert_non_null(strstr(tt_last_error(), "larger than any memory"));
	c.page_size = 1;
	c.size = UINT64_MAX;
	c.type = TT_BUFFER_L1;
	assert_int_equal(tt_create_buffer(&c, &b), -ENOMEM);
}

static void test_fixed_address(void **state)
{
	struct tt_buffer_config c = {
		.device = *state, .size = 6 * 4096, .page_size = 4096,
		.type = TT_BUFFER_DRAM, .fixed_address = true,
		.address = 0x100000,
	};
	tt_buffer *a, *b;

	assert_int_equal(tt_create_buffer(&c, &a), 0);
	assert_int_equal(tt_buffer_address(a), 0x100000);
	c.address = 0x100000 + 4096 - 32;
	assert_int_equal(tt_create_buffer(&c, &b), -EEXIST);
	assert_non_null(strstr(tt_last_error(),
			       "DRAM buffer (24576 bytes, page size 4096, at 0x100fe0): [0x100fe0, 0x101fe0) overlaps buffer #"));
	assert_non_null(strstr(tt_last_error(),
			       "at [0x100000, 0x101000) in DRAM"));
	c.address = 0x100010;
	assert_int_equal(tt_create_buffer(&c, &b), -EINVAL);
	assert_non_null(strstr(tt_last_error(),
			       "address 0x100010 is not aligned to 32 bytes (DRAM)"));
	c.address = DRAM_CHANNEL - 2048;
	assert_int_equal(tt_create_buffer(&c, &b), -ERANGE);
	assert_non_null(strstr(tt_last_error(), "is outside the DRAM range for buffers"));
	c.address = 0x100000 + 4096;
	assert_int_equal(tt_create_buffer(&c, &b), 0);
	tt_buffer_free(b);
	tt_buffer_free(a);
	/* L1: from TT_L1_PROG_UNRESERVED up to the argument areas. */
	c.type = TT_BUFFER_L1;
	c.size = 64 * 64;
	c.page_size = 64;
	c.address = 0x38000;
	assert_int_equal(tt_create_buffer(&c, &a), 0);
	tt_buffer_free(a);
	c.address = 0x37FF0;
	assert_int_equal(tt_create_buffer(&c, &a), -ERANGE);
	assert_non_null(strstr(tt_last_error(),
			       "[0x37ff0, 0x38030) is outside the L1 range for buffers [0x38000, 0x16d000)"));
	c.address = L1_TOP - 48;
	assert_int_equal(tt_create_buffer(&c, &a), -ERANGE);
	c.address = L1_TOP - 64;
	assert_int_equal(tt_create_buffer(&c, &a), 0);
	tt_buffer_free(a);
}

static void test_deallocate(void **state)
{
	tt_buffer *b = test_make_buffer(*state, TT_BUFFER_DRAM, 6 * 1024, 1024), *c, *d;
	struct tt_buffer_page_location loc;
	uint64_t addr = tt_buffer_address(b);
	uint8_t data[6 * 1024] = { 0 };

	assert_true(tt_buffer_is_allocated(b));
	assert_int_equal(tt_deallocate_buffer(b), 0);
	assert_false(tt_buffer_is_allocated(b));
	assert_int_equal(tt_buffer_address(b), 0);
	assert_int_equal(tt_buffer_size(b), 6 * 1024);
	assert_int_equal(tt_write_to_buffer(b, data, sizeof(data)), -ENXIO);
	assert_non_null(strstr(tt_last_error(),
			       "(6144 bytes, page size 1024): deallocated"));
	assert_int_equal(tt_read_from_buffer_region(b, 0, data, 1), -ENXIO);
	assert_int_equal(tt_buffer_page_location(b, 0, &loc), -ENXIO);
	/* The memory is free for the next buffer; deallocating again must
	 * not free that buffer's memory. */
	c = test_make_buffer(*state, TT_BUFFER_DRAM, 6 * 1024, 1024);
	assert_int_equal(tt_buffer_address(c), addr);
	assert_int_equal(tt_deallocate_buffer(b), 0);
	d = test_make_buffer(*state, TT_BUFFER_DRAM, 6 * 1024, 1024);
	assert_int_not_equal(tt_buffer_address(d), addr);
	tt_buffer_free(b);
	tt_buffer_free(c);
	tt_buffer_free(d);
	tt_buffer_free(NULL);
}

static void test_page_location_errors(void **state)
{
	tt_buffer *b = test_make_buffer(*state, TT_BUFFER_L1, 10 * 64, 64);
	struct tt_buffer_page_location loc;

	assert_int_equal(tt_buffer_page_location(b, 9, &loc), 0);
	assert_int_equal(tt_buffer_page_location(b, 10, &loc), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "page 10 out of range (0..9)"));
	assert_int_equal(tt_buffer_page_location(b, UINT64_MAX, &loc), -EINVAL);
	tt_buffer_free(b);
}

/* A reference held elsewhere (a program's) keeps the buffer alive after
 * the creator frees it; the last one releases the memory. */
static void test_references(void **state)
{
	tt_buffer *b = test_make_buffer(*state, TT_BUFFER_L1, 64 * 32, 32), *c;
	uint64_t addr = tt_buffer_address(b);
	uint8_t out[64 * 32], in[64 * 32];

	fill(out, sizeof(out), 5);
	tt_buffer_ref(b);
	tt_buffer_free(b);
	assert_int_equal(tt_write_to_buffer(b, out, sizeof(out)), 0);
	assert_int_equal(tt_read_from_buffer(b, in, sizeof(in)), 0);
	assert_memory_equal(in, out, sizeof(in));
	c = test_make_buffer(*state, TT_BUFFER_L1, 64 * 32, 32);
	assert_int_not_equal(tt_buffer_address(c), addr);
	tt_buffer_free(c);
	tt_buffer_unref(b);
	c = test_make_buffer(*state, TT_BUFFER_L1, 64 * 32, 32);
	assert_int_equal(tt_buffer_address(c), addr);
	tt_buffer_free(c);
}

/* AssignGlobalBufferToProgram: the program keeps the buffer (object and
 * memory) until the program is freed. */
static void test_assign_to_program(void **state)
{
	tt_buffer *b = test_make_buffer(*state, TT_BUFFER_DRAM, 6 * 256, 256), *c;
	uint64_t addr = tt_buffer_address(b);
	uint8_t out[6 * 256], in[6 * 256];
	tt_program *p, *q;

	assert_int_equal(tt_create_program(&p), 0);
	assert_int_equal(tt_create_program(&q), 0);
	assert_int_equal(tt_assign_global_buffer_to_program(b, p), 0);
	assert_int_equal(tt_assign_global_buffer_to_program(b, q), 0);
	tt_buffer_free(b);
	tt_program_free(p);
	fill(out, sizeof(out), 8);
	assert_int_equal(tt_write_to_buffer(b, out, sizeof(out)), 0);
	assert_int_equal(tt_read_from_buffer(b, in, sizeof(in)), 0);
	assert_memory_equal(in, out, sizeof(in));
	c = test_make_buffer(*state, TT_BUFFER_DRAM, 6 * 256, 256);
	assert_int_not_equal(tt_buffer_address(c), addr);
	tt_buffer_free(c);
	tt_program_free(q); /* the last reference */
	c = test_make_buffer(*state, TT_BUFFER_DRAM, 6 * 256, 256);
	assert_int_equal(tt_buffer_address(c), addr);
	tt_buffer_free(c);
}

/* A buffer that outlives its device handle fails cleanly. */
static void test_device_closed_under_buffer(void **state)
{
	tt_device *dev2;
	tt_buffer *b;
	uint8_t data[64];

	(void)state;
	assert_int_equal(tt_device_open(0, &dev2), 0);
	b = test_make_buffer(dev2, TT_BUFFER_DRAM, 6 * 64, 64);
	tt_device_close(dev2);
	assert_null(tt_buffer_device(b));
	assert_false(tt_buffer_is_allocated(b));
	assert_int_equal(tt_read_from_buffer_region(b, 0, data, 64), -ENODEV);
	assert_non_null(strstr(tt_last_error(), "its device was closed"));
	assert_int_equal(tt_deallocate_buffer(b), 0);
	tt_buffer_free(b);
}

static void test_direct_l1_and_dram(void **state)
{
	tt_device *dev = *state;
	struct tt_xy core = { 5, 7 }, xy = n150_core(5, 7);
	uint8_t out[3000], in[3000];

	fill(out, sizeof(out), 9);
	assert_int_equal(tt_write_to_device_l1(dev, core, 0x50000, out,
					       sizeof(out)), 0);
	expect_page(dev, xy, 0x50000, out, sizeof(out));
	assert_int_equal(tt_read_from_device_l1(dev, core, 0x50000, in,
						sizeof(in)), 0);
	assert_memory_equal(in, out, sizeof(in));
	core.x = 8;
	assert_int_equal(tt_write_to_device_l1(dev, core, 0, out, 4), -EINVAL);
	assert_non_null(strstr(tt_last_error(),
			       "logical core (8,7) is outside the 8x8 grid"));
	core = (struct tt_xy){ 0, 8 };
	assert_int_equal(tt_read_from_device_l1(dev, core, 0, in, 4), -EINVAL);
	core.y = 0;
	assert_int_equal(tt_read_from_device_l1(dev, core, L1_SIZE - 4, in, 8),
			 -EINVAL);
	assert_non_null(strstr(tt_last_error(), "is outside the L1 of logical core (0,0)"));

	/* Channel 4 through port 0 (5-3); port 1 (5-4) sees the same. */
	assert_int_equal(tt_write_to_device_dram_channel(dev, 4, 0x7000, out,
							 sizeof(out)), 0);
	expect_page(dev, (struct tt_xy){ 5, 4 }, 0x7000, out, sizeof(out));
	memset(in, 0, sizeof(in));
	assert_int_equal(tt_read_from_device_dram_channel(dev, 4, 0x7000, in,
							  sizeof(in)), 0);
	assert_memory_equal(in, out, sizeof(in));
	assert_int_equal(tt_read_from_device_dram_channel(dev, 6, 0, in, 4),
			 -EINVAL);
	assert_non_null(strstr(tt_last_error(), "DRAM channel 6 port 0 does not exist"));
	assert_int_equal(tt_read_from_device_dram_channel(dev, 0, DRAM_CHANNEL - 2,
							  in, 4), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "is outside DRAM channel 0"));
}

/* ---- tensor accessor arguments ---- */

static void test_accessor_args(void **state)
{
	tt_device *dev = *state;
	struct tt_core_range_set g = one_range(2, 3, 4, 4);
	tt_buffer *dram = test_make_buffer(dev, TT_BUFFER_DRAM, 6 * 40, 40);
	tt_buffer *l1 = test_make_buffer(dev, TT_BUFFER_L1, 64 * 32, 32);
	tt_buffer *sh;
	uint32_t w[TT_TENSOR_ACCESSOR_ARGS_MAX + 4];
	unsigned n = 1;
	int err;

	w[0] = 0xAAAA;
	assert_int_equal(tt_tensor_accessor_args_count(dram), 1);
	assert_int_equal(tt_tensor_accessor_args_append(dram, w, 8, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(w[0], 0xAAAA); /* appended, not overwritten */
	assert_int_equal(w[1], 0x7A000001u); /* magic, no more words, DRAM */
	assert_int_equal(tt_tensor_accessor_args_append(l1, w, 8, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(w[2], 0x7A000000u);

	/* Block sharded, 4x7 pages in shards of 2x3 on logical (2,3)-(4,4):
	 * 2x3 = 6 shards, their cores row-major. */
	sh = make_sharded(dev, TT_BUFFER_L1, TT_LAYOUT_BLOCK_SHARDED, &g,
			  TT_SHARD_ROW_MAJOR, 4, 7, 2, 3, 1024, &err);
	assert_int_equal(err, 0);
	assert_int_equal(tt_tensor_accessor_args_count(sh), 9);
	n = 0;
	assert_int_equal(tt_tensor_accessor_args_append(sh, w, 9, &n), 0);
	assert_int_equal(n, 9);
	assert_int_equal(w[0], 0x7A000802u); /* 8 more words, sharded, L1 */
	assert_int_equal(w[1], 4);
	assert_int_equal(w[2], 7);
	assert_int_equal(w[3], 2);
	assert_int_equal(w[4], 3);
	assert_int_equal(w[5], 6);
	/* Logical (2,3), (3,3) at NOC (3,4), (4,4); (4,3), (2,4) at (6,4),
	 * (3,5); (3,4), (4,4) at (4,5), (6,5). */
	assert_int_equal(w[6], 0x0404u << 16 | 0x0403u);
	assert_int_equal(w[7], 0x0503u << 16 | 0x0406u);
	assert_int_equal(w[8], 0x0506u << 16 | 0x0504u);

	/* Too small: -ENOSPC and nothing written. */
	n = 1;
	w[1] = 0x5555;
	assert_int_equal(tt_tensor_accessor_args_append(sh, w, 9, &n), -ENOSPC);
	assert_non_null(strstr(tt_last_error(), "needs 9 argument words at index 1, the array holds 9"));
	assert_int_equal(n, 1);
	assert_int_equal(w[1], 0x5555);
	n = 10;
	assert_int_equal(tt_tensor_accessor_args_append(dram, w, 9, &n), -ENOSPC);
	assert_int_equal(n, 10);
	/* NULL. */
	assert_int_equal(tt_tensor_accessor_args_append(NULL, w, 9, &n), -EINVAL);
	assert_int_equal(tt_tensor_accessor_args_append(dram, NULL, 9, &n),
			 -EINVAL);
	assert_int_equal(tt_tensor_accessor_args_append(dram, w, 9, NULL),
			 -EINVAL);
	assert_int_equal(tt_tensor_accessor_args_count(NULL), 0);
	/* Deallocated. */
	assert_int_equal(tt_deallocate_buffer(dram), 0);
	n = 0;
	assert_int_equal(tt_tensor_accessor_args_append(dram, w, 9, &n), -ENXIO);
	assert_int_equal(n, 0);
	tt_buffer_free(sh);
	tt_buffer_free(l1);
	tt_buffer_free(dram);
}

/* The largest description fits TT_TENSOR_ACCESSOR_ARGS_MAX: a shard on
 * every L1 bank (64 on the n150). */
static void test_accessor_args_most(void **state)
{
	tt_device *dev = *state;
	struct tt_core_range_set g = one_range(0, 0, 7, 7);
	uint32_t w[TT_TENSOR_ACCESSOR_ARGS_MAX];
	unsigned n = 0;
	tt_buffer *sh;
	int err;

	sh = make_sharded(dev, TT_BUFFER_L1, TT_LAYOUT_HEIGHT_SHARDED, &g,
			  TT_SHARD_COL_MAJOR, 64, 1, 1, 1, 32, &err);
	assert_int_equal(err, 0);
	assert_int_equal(tt_tensor_accessor_args_append(sh, w, 38, &n), 0);
	assert_int_equal(n, 38);
	assert_int_equal(w[5], 64);
	/* Column-major: shard 1 is logical (0,1). */
	assert_int_equal(w[6] >> 16, 0x0201u);
	assert_true(n <= TT_TENSOR_ACCESSOR_ARGS_MAX);
	tt_buffer_free(sh);
}

static void test_alignment_queries(void **state)
{
	assert_int_equal(tt_device_l1_alignment(*state), 16);
	assert_int_equal(tt_device_dram_alignment(*state), 32);
	assert_int_equal(tt_device_l1_alignment(NULL), 0);
	assert_non_null(strstr(tt_last_error(), "tt_device_l1_alignment: device is NULL"));
	assert_int_equal(tt_device_dram_alignment(NULL), 0);
}

/* ---- other boards ---- */

static void test_bank_table_n150(void **state)
{
	struct tt_bank_table t;
	tt_device *dev;

	(void)state;
	unsetenv("TT_SIM_BOARD");
	assert_int_equal(tt_device_open(0, &dev), 0);
	assert_int_equal(tt_banks_table(dev, &t), 0);
	assert_int_equal(t.dram_banks, 6);
	assert_int_equal(t.l1_banks, 64);
	assert_int_equal(t.grid_x, 10);
	assert_int_equal(t.grid_y, 12);
	assert_int_equal(t.dram_xy[0], 0x000);
	assert_int_equal(t.dram_xy[1], 0x500);
	assert_int_equal(t.dram_xy[5], 0x505);
	assert_int_equal(t.dram_xy[6], 0);
	assert_int_equal(t.l1_xy[0], 0x101);
	assert_int_equal(t.l1_xy[4], 0x106); /* column 5 is not Tensix */
	assert_int_equal(t.l1_xy[8], 0x201);
	assert_int_equal(t.l1_xy[63], 0x909); /* row 6 skipped; 10 dispatches */
	assert_int_equal(t.l1_xy[64], 0); /* the dispatch row holds none */
	tt_device_close(dev);
}

static void test_bank_table_p150(void **state)
{
	struct tt_bank_table t;
	tt_device *dev;
	tt_buffer *b;

	(void)state;
	setenv("TT_SIM_BOARD", "p150", 1);
	assert_int_equal(tt_device_open(0, &dev), 0);
	unsetenv("TT_SIM_BOARD");
	assert_int_equal(tt_banks_table(dev, &t), 0);
	assert_int_equal(t.dram_banks, 8);
	assert_int_equal(t.l1_banks, 108);
	assert_int_equal(t.grid_x, 17);
	assert_int_equal(t.grid_y, 12);
	assert_int_equal(t.dram_xy[0], 0x000);
	assert_int_equal(t.dram_xy[1], 0x200);
	assert_int_equal(t.dram_xy[7], 0x509);
	/* Blackhole DRAM pages are 64-byte aligned. */
	b = test_make_buffer(dev, TT_BUFFER_DRAM, 8 * 100, 100);
	assert_int_equal(tt_buffer_aligned_page_size(b), 128);
	tt_buffer_free(b);
	b = test_make_buffer(dev, TT_BUFFER_DRAM, 8 * 32, 32);
	assert_int_equal(tt_buffer_aligned_page_size(b), 64);
	tt_buffer_free(b);
	assert_int_equal(tt_device_dram_alignment(dev), 64);
	assert_int_equal(tt_device_l1_alignment(dev), 16);
	b = test_make_buffer(dev, TT_BUFFER_L1, 108 * 32, 32);
	assert_int_equal(tt_buffer_aligned_page_size(b), 32);
	assert_int_equal(tt_buffer_address(b), 1572864 - 4096 - 32);
	tt_buffer_free(b);
	tt_device_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interleaved_dram),
		cmocka_unit_test(test_interleaved_dram_unaligned_pages),
		cmocka_unit_test(test_interleaved_l1),
		cmocka_unit_test(test_interleaved_across_windows),
		cmocka_unit_test(test_region_io),
		cmocka_unit_test(test_region_bounds),
		cmocka_unit_test(test_height_sharded),
		cmocka_unit_test(test_width_sharded_dram),
		cmocka_unit_test(test_block_sharded),
		cmocka_unit_test(test_sharded_range_order),
		cmocka_unit_test(test_sharded_errors),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_huge_sizes),
		cmocka_unit_test(test_fixed_address),
		cmocka_unit_test(test_deallocate),
		cmocka_unit_test(test_page_location_errors),
		cmocka_unit_test(test_references),
		cmocka_unit_test(test_assign_to_program),
		cmocka_unit_test(test_device_closed_under_buffer),
		cmocka_unit_test(test_direct_l1_and_dram),
		cmocka_unit_test(test_accessor_args),
		cmocka_unit_test(test_accessor_args_most),
		cmocka_unit_test(test_alignment_queries),
	};
	const struct CMUnitTest boards[] = {
		cmocka_unit_test(test_bank_table_n150),
		cmocka_unit_test(test_bank_table_p150),
	};
	int fails;

	/* A blank flash: buffers need no firmware, and the tests may write
	 * any L1 byte. */
	setenv("TT_FIRMWARE", "/dev/null", 1);
	fails = cmocka_run_group_tests_name("buffer", tests, device_up,
					    device_down);
	fails += cmocka_run_group_tests_name("buffer boards", boards, NULL, NULL);
	return fails;
}
