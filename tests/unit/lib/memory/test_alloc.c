// SPDX-License-Identifier: Apache-2.0
/*
 * The memory allocator: lock-step regions on their own (first fit both
 * ways, alignment, merging of freed neighbours, fragmentation, fixed
 * addresses, out-of-memory messages) and the device allocator behind
 * buffers on the embedded n150 model (DRAM bottom-up, L1 top-down below
 * the hart argument areas, the range circular buffers may use).
 *
 * n150 facts used: 6 DRAM channels of 2 GiB; 72 Tensix cores (64 in the logical grid, the last row dispatches), L1 1499136
 * bytes.
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

/* ---- regions ---- */

static void test_region_bottom_up_first_fit(void **state)
{
	struct tt_region r;
	uint64_t a, b, c;

	(void)state;
	tt_region_init(&r, "DRAM", 0, 1024, 32, false);
	assert_int_equal(tt_region_alloc(&r, 10, 1, "x", &a), 0);
	assert_int_equal(tt_region_alloc(&r, 32, 2, "x", &b), 0);
	assert_int_equal(tt_region_alloc(&r, 33, 3, "x", &c), 0);
	assert_int_equal(a, 0);
	assert_int_equal(b, 32); /* 10 rounded up to 32 */
	assert_int_equal(c, 64);
	assert_int_equal(r.spans[2].size, 64);
	/* The freed first gap is the first fit again. */
	assert_int_equal(tt_region_free(&r, 0), 0);
	assert_int_equal(tt_region_alloc(&r, 32, 4, "x", &a), 0);
	assert_int_equal(a, 0);
	tt_region_fini(&r);
}

static void test_region_top_down(void **state)
{
	struct tt_region r;
	uint64_t a, b;

	(void)state;
	tt_region_init(&r, "L1", 0x1000, 0x2000, 16, true);
	assert_int_equal(tt_region_alloc(&r, 0x100, 1, "x", &a), 0);
	assert_int_equal(tt_region_alloc(&r, 1, 2, "x", &b), 0);
	assert_int_equal(a, 0x1F00);
	assert_int_equal(b, 0x1EF0);
	assert_int_equal(tt_region_lowest(&r), 0x1EF0);
	assert_int_equal(tt_region_free(&r, 0x1F00), 0);
	/* Highest gap that fits: the top again. */
	assert_int_equal(tt_region_alloc(&r, 0x10, 3, "x", &a), 0);
	assert_int_equal(a, 0x1FF0);
	assert_int_equal(tt_region_free(&r, 0x1EF0), 0);
	assert_int_equal(tt_region_free(&r, 0x1FF0), 0);
	assert_int_equal(tt_region_lowest(&r), 0x2000);
	tt_region_fini(&r);
}

static void test_region_free_merges_neighbours(void **state)
{
	struct tt_region r;
	uint64_t a[4], big, largest, total;

	(void)state;
	tt_region_init(&r, "DRAM", 0, 4096, 32, false);
	for (int i = 0; i < 4; i++)
		assert_int_equal(tt_region_alloc(&r, 1024, i + 1, "x", &a[i]), 0);
	tt_region_free_space(&r, &largest, &total);
	assert_int_equal(largest, 0);
	assert_int_equal(total, 0);
	/* Free the middle two in either order: one 2048-byte block. */
	assert_int_equal(tt_region_free(&r, a[2]), 0);
	assert_int_equal(tt_region_free(&r, a[1]), 0);
	tt_region_free_space(&r, &largest, &total);
	assert_int_equal(largest, 2048);
	assert_int_equal(total, 2048);
	assert_int_equal(tt_region_alloc(&r, 2048, 9, "x", &big), 0);
	assert_int_equal(big, 1024);
	assert_int_equal(tt_region_free(&r, a[0]), 0);
	assert_int_equal(tt_region_free(&r, big), 0);
	assert_int_equal(tt_region_free(&r, a[3]), 0);
	tt_region_free_space(&r, &largest, &total);
	assert_int_equal(largest, 4096);
	assert_int_equal(r.n, 0);
	tt_region_fini(&r);
}

static void test_region_fragmentation(void **state)
{
	char want[256];
	struct tt_region r;
	uint64_t a[64], big;

	(void)state;
	tt_region_init(&r, "DRAM", 0, 64 * 1024, 32, false);
	for (int i = 0; i < 64; i++)
		assert_int_equal(tt_region_alloc(&r, 1024, i + 1, "buf", &a[i]), 0);
	for (int i = 0; i < 64; i += 2)
		assert_int_equal(tt_region_free(&r, a[i]), 0);
	/* 32 KiB free, but in 1 KiB holes. */
	assert_int_equal(tt_region_alloc(&r, 2048, 99, "big buffer", &big),
			 -ENOMEM);
	snprintf(want, sizeof(want),
		 "big buffer: cannot allocate 2048 bytes per bank in DRAM: largest free block is 1024 bytes (total free 32768)");
	assert_string_equal(tt_last_error(), want);
	/* Freeing 9 and 11 merges holes 8..12 into 5 KiB: first fit. */
	assert_int_equal(tt_region_free(&r, a[9]), 0);
	assert_int_equal(tt_region_alloc(&r, 4096, 99, "big buffer", &big),
			 -ENOMEM);
	assert_non_null(strstr(tt_last_error(),
			       "largest free block is 3072 bytes (total free 33792)"));
	assert_int_equal(tt_region_free(&r, a[11]), 0);
	assert_int_equal(tt_region_alloc(&r, 4096, 99, "big buffer", &big), 0);
	assert_int_equal(big, a[8]);
	assert_int_equal(tt_region_alloc(&r, 1024, 100, "small", &big), 0);
	assert_int_equal(big, a[0]);
	assert_int_equal(tt_region_alloc(&r, 1024, 101, "small", &big), 0);
	assert_int_equal(big, a[2]);
	tt_region_fini(&r);
}

static void test_region_fixed_addresses(void **state)
{
	struct tt_region r;
	uint64_t a;

	(void)state;
	tt_region_init(&r, "L1", 0x1000, 0x2000, 16, true);
	assert_int_equal(tt_region_alloc_at(&r, 0x1400, 0x100, 7, "b7"), 0);
	/* Overlaps, on either side and inside. */
	assert_int_equal(tt_region_alloc_at(&r, 0x1300, 0x110, 8, "b8"),
			 -EEXIST);
	assert_non_null(strstr(tt_last_error(),
			       "b8: [0x1300, 0x1410) overlaps buffer #7 at [0x1400, 0x1500) in L1"));
	assert_int_equal(tt_region_alloc_at(&r, 0x14F0, 0x10, 8, "b8"), -EEXIST);
	assert_int_equal(tt_region_alloc_at(&r, 0x1410, 0x10, 8, "b8"), -EEXIST);
	/* Touching is fine. */
	assert_int_equal(tt_region_alloc_at(&r, 0x1300, 0x100, 8, "b8"), 0);
	assert_int_equal(tt_region_alloc_at(&r, 0x1500, 0x10, 9, "b9"), 0);
	/* Out of range: below, above, straddling the end, wrapping. */
	assert_int_equal(tt_region_alloc_at(&r, 0xFF0, 0x10, 10, "b10"),
			 -ERANGE);
	assert_non_null(strstr(tt_last_error(),
			       "b10: [0xff0, 0x1000) is outside the L1 range for buffers [0x1000, 0x2000)"));
	assert_int_equal(tt_region_alloc_at(&r, 0x2000, 0x10, 10, "b10"), -ERANGE);
	assert_int_equal(tt_region_alloc_at(&r, 0x1FF0, 0x20, 10, "b10"), -ERANGE);
	assert_int_equal(tt_region_alloc_at(&r, 0x1FF0, UINT64_MAX - 8, 10, "b10"),
			 -ERANGE);
	/* Misaligned. */
	assert_int_equal(tt_region_alloc_at(&r, 0x1808, 0x10, 10, "b10"),
			 -EINVAL);
	assert_non_null(strstr(tt_last_error(),
			       "b10: address 0x1808 is not aligned to 16 bytes (L1)"));
	/* The allocator works around fixed ranges. */
	assert_int_equal(tt_region_alloc(&r, 0x800, 11, "b11", &a), 0);
	assert_int_equal(a, 0x1800);
	assert_int_equal(tt_region_free(&r, 0x1234), -ENOENT);
	assert_int_equal(tt_region_free(&r, 0x1300), 0);
	assert_int_equal(tt_region_free(&r, 0x1300), -ENOENT);
	tt_region_fini(&r);
}

static void test_region_too_big(void **state)
{
	struct tt_region r;
	uint64_t a;

	(void)state;
	tt_region_init(&r, "DRAM", 0, 4096, 32, false);
	assert_int_equal(tt_region_alloc(&r, 4097, 1, "b1", &a), -ENOMEM);
	assert_string_equal(tt_last_error(),
			    "b1: cannot allocate 4097 bytes per bank in DRAM: largest free block is 4096 bytes (total free 4096)");
	assert_int_equal(tt_region_alloc(&r, UINT64_MAX, 1, "b1", &a), -ENOMEM);
	assert_int_equal(tt_region_alloc(&r, 0, 1, "b1", &a), -ENOMEM);
	assert_int_equal(tt_region_alloc(&r, 4096, 1, "b1", &a), 0);
	assert_int_equal(tt_region_alloc(&r, 1, 2, "b2", &a), -ENOMEM);
	assert_non_null(strstr(tt_last_error(),
			       "largest free block is 0 bytes (total free 0)"));
	tt_region_fini(&r);
}

/* Many allocations and frees in a pseudo-random order keep the spans
 * sorted and disjoint, and freeing everything restores one block. */
static void test_region_stress(void **state)
{
	struct tt_region r;
	uint64_t addr[200] = { 0 };
	bool live[200] = { false };
	uint32_t seed = 12345;

	(void)state;
	tt_region_init(&r, "L1", 0x10000, 0x10000 + 200 * 512, 16, true);
	for (int step = 0; step < 5000; step++) {
		unsigned i;

		seed = seed * 1103515245u + 12345u;
		i = (seed >> 8) % 200;
		if (live[i]) {
			assert_int_equal(tt_region_free(&r, addr[i]), 0);
			live[i] = false;
		} else if (!tt_region_alloc(&r, 16 + (seed >> 20) % 500, i,
					    "x", &addr[i])) {
			live[i] = true;
		}
		for (size_t k = 1; k < r.n; k++)
			assert_true(r.spans[k - 1].addr + r.spans[k - 1].size <=
				    r.spans[k].addr);
	}
	for (unsigned i = 0; i < 200; i++)
		if (live[i])
			assert_int_equal(tt_region_free(&r, addr[i]), 0);
	assert_int_equal(r.n, 0);
	tt_region_fini(&r);
}

/* ---- the device allocator ---- */

static void test_device_layout(void **state)
{
	struct tt_allocator *a;
	uint64_t lo, hi;

	assert_int_equal(tt_allocator_get(*state, &a), 0);
	assert_int_equal(a->banks.dram_banks, 6);
	assert_int_equal(a->banks.l1_banks, 64);
	assert_int_equal(a->banks.grid_w, 8);
	assert_int_equal(a->banks.grid_h, 8);
	assert_int_equal(a->dram.lo, 0);
	assert_int_equal(a->dram.hi, DRAM_CHANNEL);
	assert_int_equal(a->dram.align, 32);
	assert_false(a->dram.top_down);
	assert_int_equal(a->l1.lo, TT_L1_PROG_UNRESERVED);
	assert_int_equal(a->l1.hi, L1_TOP);
	assert_int_equal(a->l1.align, 16);
	assert_true(a->l1.top_down);
	assert_int_equal(tt_alloc_l1_range(*state, &lo, &hi), 0);
	assert_int_equal(lo, 0x38000);
	assert_int_equal(hi, L1_TOP);
}

static void test_l1_top_down_and_lowest(void **state)
{
	tt_device *dev = *state;
	struct tt_xy core = { 3, 4 };
	tt_buffer *a, *b;

	assert_int_equal(tt_alloc_l1_lowest(dev, core), L1_TOP);
	/* 100 pages of 1000 bytes over 64 banks: 2 pages of 1008 per bank. */
	a = test_make_buffer(dev, TT_BUFFER_L1, 100 * 1000, 1000);
	assert_int_equal(tt_buffer_aligned_page_size(a), 1008);
	assert_int_equal(tt_buffer_bank_size(a), 2016);
	assert_int_equal(tt_buffer_address(a), L1_TOP - 2016);
	b = test_make_buffer(dev, TT_BUFFER_L1, 64 * 64, 64);
	assert_int_equal(tt_buffer_address(b), L1_TOP - 2016 - 64);
	assert_int_equal(tt_alloc_l1_lowest(dev, core), L1_TOP - 2016 - 64);
	tt_buffer_free(b);
	assert_int_equal(tt_alloc_l1_lowest(dev, core), L1_TOP - 2016);
	tt_buffer_free(a);
	assert_int_equal(tt_alloc_l1_lowest(dev, core), L1_TOP);
}

static void test_dram_bottom_up_lock_step(void **state)
{
	tt_device *dev = *state;
	tt_buffer *a, *b;

	/* 13 pages over 6 banks: 3 pages per bank, same address in each. */
	a = test_make_buffer(dev, TT_BUFFER_DRAM, 13 * 2048, 2048);
	b = test_make_buffer(dev, TT_BUFFER_DRAM, 32, 32);
	assert_int_equal(tt_buffer_address(a), 0);
	assert_int_equal(tt_buffer_bank_size(a), 3 * 2048);
	assert_int_equal(tt_buffer_address(b), 3 * 2048);
	tt_buffer_free(a);
	tt_buffer_free(b);
}

static void test_device_out_of_memory(void **state)
{
	struct tt_buffer_config c = {
		.device = *state, .type = TT_BUFFER_L1, .page_size = 1024,
	};
	uint64_t usable = L1_TOP - 0x38000;
	char want[300];
	tt_buffer *b, *hog;

	/* One page per bank too many. */
	c.size = (usable / 1024 + 1) * 64 * 1024;
	assert_int_equal(tt_create_buffer(&c, &b), -ENOMEM);
	snprintf(want, sizeof(want),
		 "L1 buffer (%llu bytes, page size 1024): cannot allocate %llu bytes per bank in L1: largest free block is %llu bytes (total free %llu)",
		 (unsigned long long)c.size,
		 (unsigned long long)(usable / 1024 + 1) * 1024,
		 (unsigned long long)usable, (unsigned long long)usable);
	assert_string_equal(tt_last_error(), want);
	/* Exactly everything fits; then nothing more does. */
	c.size = usable / 1024 * 64 * 1024;
	assert_int_equal(tt_create_buffer(&c, &hog), 0);
	assert_int_equal(tt_buffer_address(hog), 0x38000 + usable % 1024);
	c.size = 64 * 1024;
	assert_int_equal(tt_create_buffer(&c, &b), -ENOMEM);
	assert_non_null(strstr(tt_last_error(), "largest free block is"));
	tt_buffer_free(hog);
	assert_int_equal(tt_create_buffer(&c, &b), 0);
	tt_buffer_free(b);
}

/* Fragmentation through buffers: every other DRAM buffer freed leaves
 * holes that a bigger buffer cannot use until neighbours go. */
static void test_device_fragmentation(void **state)
{
	struct tt_buffer_config c = {
		.device = *state, .type = TT_BUFFER_DRAM, .page_size = 1024,
		.fixed_address = true,
	};
	tt_buffer *b[8], *big;
	uint64_t top = DRAM_CHANNEL - 8 * 4096;

	/* Fill the top of DRAM with 8 buffers of 4 KiB per bank, and
	 * everything below with one hog. */
	for (int i = 0; i < 8; i++) {
		c.size = 6 * 4096;
		c.address = top + i * 4096;
		assert_int_equal(tt_create_buffer(&c, &b[i]), 0);
	}
	c.address = 0;
	c.size = top / 1024 * 6 * 1024;
	assert_int_equal(tt_create_buffer(&c, &big), 0);
	for (int i = 0; i < 8; i += 2)
		tt_buffer_free(b[i]);
	c.fixed_address = false;
	c.size = 6 * 8192;
	assert_int_equal(tt_create_buffer(&c, &b[0]), -ENOMEM);
	assert_non_null(strstr(tt_last_error(),
			       "cannot allocate 8192 bytes per bank in DRAM: largest free block is 4096 bytes (total free 16384)"));
	tt_buffer_free(b[3]);
	assert_int_equal(tt_create_buffer(&c, &b[0]), 0);
	/* first fit: the hole of 2, 3 and 4 (12 KiB) */
	assert_int_equal(tt_buffer_address(b[0]), top + 2 * 4096);
	tt_buffer_free(b[0]);
	tt_buffer_free(b[1]);
	tt_buffer_free(b[5]);
	tt_buffer_free(b[7]);
	tt_buffer_free(big);
}

/* ---- a board with harvested DRAM ----
 *
 * No built-in board harvests DRAM, so the test builds one: the n150's
 * descriptor with channels 1 and 4 fused off, given to a freshly opened
 * device before its allocator exists. Banks must skip both channels
 * everywhere: the layout, the kernels' bank table, page placement and
 * what the allocator can hand out. */

#define HARV_DRAM ((1u << 1) | (1u << 4))

static const unsigned harv_channel[4] = { 0, 2, 3, 5 };
/* port 0 of channels 0, 2, 3, 5 (wormhole_b0_n150.yaml) */
static const struct tt_xy harv_xy[4] = { { 0, 0 }, { 5, 0 }, { 5, 2 },
					  { 5, 5 } };

static int harvested_up(void **state)
{
	tt_device *dev;

	unsetenv("TT_SIM_BOARD");
	if (tt_device_open(0, &dev))
		return -1;
	dev->soc.harvested_dram = HARV_DRAM;
	*state = dev;
	return 0;
}

static int harvested_down(void **state)
{
	tt_device_close(*state);
	return 0;
}

static void test_harvested_dram_layout(void **state)
{
	struct tt_allocator *a;
	struct tt_bank_table t;

	assert_int_equal(tt_allocator_get(*state, &a), 0);
	assert_int_equal(a->banks.dram_banks, 4);
	for (unsigned b = 0; b < 4; b++) {
		assert_int_equal(a->banks.dram_channel[b], harv_channel[b]);
		assert_int_equal(a->banks.dram_xy[b].x, harv_xy[b].x);
		assert_int_equal(a->banks.dram_xy[b].y, harv_xy[b].y);
	}
	assert_int_equal(a->dram.lo, 0);
	assert_int_equal(a->dram.hi, DRAM_CHANNEL);
	/* The table kernels read: 4 DRAM banks, nothing after them. */
	assert_int_equal(tt_banks_table(*state, &t), 0);
	assert_int_equal(t.dram_banks, 4);
	for (unsigned b = 0; b < 4; b++)
		assert_int_equal(t.dram_xy[b], harv_xy[b].x | harv_xy[b].y << 8);
	assert_int_equal(t.dram_xy[4], 0);
	assert_int_equal(t.dram_xy[5], 0);
	assert_int_equal(t.l1_banks, 64); /* L1 is not touched */
}

/* 13 pages over 4 banks: 4 pages per bank, page i in bank i % 4 at the
 * buffer's address + (i / 4) pages, on that bank's channel. The data
 * written through the buffer is found there by channel. */
static void test_harvested_dram_interleaved(void **state)
{
	tt_device *dev = *state;
	struct tt_buffer_page_location loc;
	uint8_t data[13 * 2048], got[2048];
	tt_buffer *b;
	uint64_t base;

	b = test_make_buffer(dev, TT_BUFFER_DRAM, 13 * 2048, 2048);
	base = tt_buffer_address(b);
	assert_int_equal(tt_buffer_num_banks(b), 4);
	assert_int_equal(tt_buffer_bank_size(b), 4 * 2048);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + i / 2048);
	assert_int_equal(tt_write_to_buffer(b, data, sizeof(data)), 0);
	for (unsigned p = 0; p < 13; p++) {
		assert_int_equal(tt_buffer_page_location(b, p, &loc), 0);
		assert_int_equal(loc.bank, p % 4);
		assert_int_equal(loc.logical.x, p % 4);
		assert_int_equal(loc.noc.x, harv_xy[p % 4].x);
		assert_int_equal(loc.noc.y, harv_xy[p % 4].y);
		assert_int_equal(loc.address, base + (p / 4) * 2048);
		assert_int_equal(tt_read_from_device_dram_channel(
					 dev, harv_channel[p % 4], loc.address,
					 got, sizeof(got)),
				 0);
		assert_memory_equal(got, data + p * 2048, sizeof(got));
	}
	assert_int_equal(tt_buffer_page_location(b, 13, &loc), -EINVAL);
	tt_buffer_free(b);
}

/* The allocator's totals: 4 whole channels and not a page more. */
static void test_harvested_dram_totals(void **state)
{
	struct tt_buffer_config c = {
		.device = *state, .type = TT_BUFFER_DRAM, .page_size = 1 << 20,
	};
	struct tt_allocator *a;
	uint64_t largest, total;
	tt_buffer *all, *b;

	assert_int_equal(tt_allocator_get(*state, &a), 0);
	c.size = 4 * DRAM_CHANNEL + (1 << 20);
	assert_int_equal(tt_create_buffer(&c, &b), -ENOMEM);
	assert_non_null(strstr(tt_last_error(),
			       "cannot allocate 2148532224 bytes per bank in DRAM"));
	c.size = 4 * DRAM_CHANNEL;
	assert_int_equal(tt_create_buffer(&c, &all), 0);
	assert_int_equal(tt_buffer_address(all), 0);
	assert_int_equal(tt_buffer_bank_size(all), DRAM_CHANNEL);
	tt_region_free_space(&a->dram, &largest, &total);
	assert_int_equal(total, 0);
	c.size = 1 << 20;
	assert_int_equal(tt_create_buffer(&c, &b), -ENOMEM);
	tt_buffer_free(all);
	tt_region_free_space(&a->dram, &largest, &total);
	assert_int_equal(largest, DRAM_CHANNEL);
	assert_int_equal(total, DRAM_CHANNEL);
}

int main(void)
{
	const struct CMUnitTest pure[] = {
		cmocka_unit_test(test_region_bottom_up_first_fit),
		cmocka_unit_test(test_region_top_down),
		cmocka_unit_test(test_region_free_merges_neighbours),
		cmocka_unit_test(test_region_fragmentation),
		cmocka_unit_test(test_region_fixed_addresses),
		cmocka_unit_test(test_region_too_big),
		cmocka_unit_test(test_region_stress),
	};
	const struct CMUnitTest device[] = {
		cmocka_unit_test(test_device_layout),
		cmocka_unit_test(test_l1_top_down_and_lowest),
		cmocka_unit_test(test_dram_bottom_up_lock_step),
		cmocka_unit_test(test_device_out_of_memory),
		cmocka_unit_test(test_device_fragmentation),
	};
	const struct CMUnitTest harvested[] = {
		cmocka_unit_test(test_harvested_dram_layout),
		cmocka_unit_test(test_harvested_dram_interleaved),
		cmocka_unit_test(test_harvested_dram_totals),
	};
	int fails;

	/* No firmware needed: the allocator only does bookkeeping. */
	setenv("TT_FIRMWARE", "/dev/null", 1);
	fails = cmocka_run_group_tests_name("alloc regions", pure, NULL, NULL);
	fails += cmocka_run_group_tests_name("alloc device", device, device_up,
					     device_down);
	fails += cmocka_run_group_tests_name("alloc harvested DRAM", harvested,
					     harvested_up, harvested_down);
	return fails;
}
