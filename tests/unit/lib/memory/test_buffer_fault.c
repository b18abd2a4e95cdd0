// SPDX-License-Identifier: Apache-2.0
/*
 * Buffer I/O (lib/memory/buffer_io.c) when the NOC fails in the middle of
 * a transfer: a chip made with TT_SIM_INJECT=noc-fail (docs/ttsim.md)
 * refuses the host access the test arms (sim_embed_noc_fail_arm). Every
 * write and read, DRAM and L1, interleaved over several banks in several
 * blocks, with partial pages at both ends, and sharded (one run per
 * shard), must return the failure to its caller, and the chip must serve
 * the next transfer: written and read back whole.
 *
 * A transfer's host accesses are counted first (an arming that never
 * fires), then the fault is put on the first, second, middle, last but
 * one and last of them (on every one when there are few).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/embed.h"
#include "testcases.h"
#include "testutil.h"

#define NEVER (1L << 40)

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 131 + seed * 7 + (i >> 8) + (i >> 16));
}

struct io {
	tt_buffer *buf;
	uint64_t off; /* region I/O when len < the buffer's size */
	size_t len;
};

static int do_io(const struct io *io, void *host, bool write)
{
	if (io->off || io->len != tt_buffer_size(io->buf))
		return write ? tt_write_to_buffer_region(io->buf, io->off, host,
							 io->len) :
			       tt_read_from_buffer_region(io->buf, io->off,
							  host, io->len);
	return write ? tt_write_to_buffer(io->buf, host, io->len) :
		       tt_read_from_buffer(io->buf, host, io->len);
}

/* Host accesses the transfer makes, none failing. */
static long accesses(const struct io *io, void *host, bool write)
{
	long left;

	sim_embed_noc_fail_arm(NEVER);
	assert_int_equal(do_io(io, host, write), 0);
	left = sim_embed_noc_fail_arm(-1);
	assert_true(left >= 0);
	return NEVER - left;
}

/* The fault on access k of the transfer: the caller hears of it, at once
 * (the fault fired: the arming is used up) and with the NOC's reason; the
 * device log holds one record for it. */
static void expect_fails_at(tt_device *dev, const struct io *io, void *host,
			    bool write, long k)
{
	struct tt_device_error e[4];
	int ret;

	assert_true(tt_device_errors(dev, e, 4) >= 0); /* drain */
	sim_embed_noc_fail_arm(k);
	ret = do_io(io, host, write);
	if (ret != -EFAULT)
		fail_msg("%s with the NOC failing at access %ld: %d (%s)",
			 write ? "write" : "read", k, ret,
			 ret ? tt_last_error() : "no error");
	assert_int_equal(sim_embed_noc_fail_arm(-1), -1);
	if (!strstr(tt_last_error(), "the transaction failed on the NOC"))
		fail_msg("access %ld: unexpected error: %s", k,
			 tt_last_error());
	assert_int_equal(tt_device_errors(dev, e, 4), 1);
	assert_int_equal(e[0].code, TT_DEV_ERR_NOC);
}

/* The chip still works: the region written and read back whole. */
static void expect_usable(const struct io *io, unsigned seed)
{
	uint8_t *data = malloc(io->len), *back = malloc(io->len);

	assert_non_null(data);
	assert_non_null(back);
	fill(data, io->len, seed);
	assert_int_equal(do_io(io, data, true), 0);
	memset(back, 0, io->len);
	assert_int_equal(do_io(io, back, false), 0);
	assert_memory_equal(back, data, io->len);
	free(data);
	free(back);
}

static bool picked(long k, long n)
{
	return n <= 64 || k <= 1 || k == n / 2 || k >= n - 2;
}

/* Writes, then reads, failing at each picked access; `min` accesses at
 * least (several chunks). */
static void check_io(tt_device *dev, const struct io *io, long min)
{
	uint8_t *host = malloc(io->len);
	long n;

	assert_non_null(host);
	for (int write = 1; write >= 0; write--) {
		fill(host, io->len, 1);
		n = accesses(io, host, write);
		if (n < min)
			fail_msg("%s: %ld host accesses, expected %ld or more",
				 write ? "write" : "read", n, min);
		for (long k = 0; k < n; k++) {
			if (!picked(k, n))
				continue;
			fill(host, io->len, (unsigned)k + 2);
			expect_fails_at(dev, io, host, write, k);
			expect_usable(io, (unsigned)k + 3);
		}
	}
	free(host);
}

/* Interleaved over every bank, in several blocks of the host's copy
 * (buffer_io.c's PASS_BYTES, 256 KiB). */
static void test_interleaved_dram(void **state)
{
	tt_buffer *b = test_make_buffer(*state, TT_BUFFER_DRAM, 400 * 2048, 2048);
	struct io io = { b, 0, 400 * 2048 };

	check_io(*state, &io, 400);
	tt_buffer_free(b);
}

static void test_interleaved_l1(void **state)
{
	tt_buffer *b = test_make_buffer(*state, TT_BUFFER_L1, 300 * 1024, 1024);
	struct io io = { b, 0, 300 * 1024 };

	check_io(*state, &io, 300);
	tt_buffer_free(b);
}

/* Partial pages at both ends (runs) around whole ones (passes). */
static void test_region_unaligned(void **state)
{
	tt_buffer *b = test_make_buffer(*state, TT_BUFFER_DRAM, 64 * 1000, 1000);
	struct io io = { b, 1500, 64 * 1000 - 1500 - 700 };

	check_io(*state, &io, 60);
	tt_buffer_free(b);
}

/* Height sharded, one 1 x 2 page shard on each of 40 cores: a run per
 * shard, flushed as the next one starts. */
static void test_sharded_l1(void **state)
{
	struct tt_core_range_set g = { .count = 1 };
	struct tt_buffer_config c = {
		.device = *state, .size = 40 * 2 * 2048, .page_size = 2048,
		.type = TT_BUFFER_L1, .layout = TT_LAYOUT_HEIGHT_SHARDED,
		.shard = {
			.spec = { .grid = &g, .shape = { 32, 64 } },
			.page_shape = { 32, 32 },
			.tensor2d_shape_in_pages = { 40, 2 },
		},
	};
	tt_buffer *b = NULL;
	struct io io;

	g.ranges[0] = (struct tt_core_range){ { 0, 0 }, { 7, 4 } };
	if (tt_create_buffer(&c, &b))
		fail_msg("%s", tt_last_error());
	io = (struct io){ b, 0, c.size };
	check_io(*state, &io, 40);
	/* A region inside: runs that start and end mid-shard. */
	io = (struct io){ b, 3000, c.size - 5000 };
	check_io(*state, &io, 39);
	tt_buffer_free(b);
}

/* Width sharded DRAM: 2 x 12 pages in 2 x 2 shards over the 6 banks. */
static void test_sharded_dram(void **state)
{
	struct tt_core_range_set g = { .count = 1 };
	struct tt_buffer_config c = {
		.device = *state, .size = 2 * 12 * 2048, .page_size = 2048,
		.type = TT_BUFFER_DRAM, .layout = TT_LAYOUT_WIDTH_SHARDED,
		.shard = {
			.spec = { .grid = &g, .shape = { 64, 64 } },
			.page_shape = { 32, 32 },
			.tensor2d_shape_in_pages = { 2, 12 },
		},
	};
	tt_buffer *b = NULL;
	struct io io;

	g.ranges[0] = (struct tt_core_range){ { 0, 0 }, { 5, 0 } };
	if (tt_create_buffer(&c, &b))
		fail_msg("%s", tt_last_error());
	io = (struct io){ b, 0, c.size };
	check_io(*state, &io, 12);
	tt_buffer_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interleaved_dram),
		cmocka_unit_test(test_interleaved_l1),
		cmocka_unit_test(test_region_unaligned),
		cmocka_unit_test(test_sharded_l1),
		cmocka_unit_test(test_sharded_dram),
	};

	/* A blank flash: buffers need no firmware. The fault is the chip's
	 * from its making, and fires only when armed. */
	setenv("TT_FIRMWARE", "/dev/null", 1);
	setenv("TT_SIM_INJECT", "noc-fail", 1);
	if (test_on_kmd())
		return 0;
	return cmocka_run_group_tests_name("buffer_fault", tests, device_up,
					   device_down);
}
