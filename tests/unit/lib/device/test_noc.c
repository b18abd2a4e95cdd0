// SPDX-License-Identifier: Apache-2.0
/*
 * NOC semantics through libtt on the embedded Wormhole n150 model: sizes
 * and alignment, both NOCs, DRAM ports, registers, multicast rectangles,
 * atomics and device-side transfers, and every kind of refused access.
 *
 * n150 facts used: grid 10x12; Tensix at x in 1..4,6..9 and y in 1..5,7..11,
 * row 11 harvested; L1 1499136 bytes; DRAM channel 0 at 0-0, 0-1, 0-11;
 * PCIe at 0-3; ARC at 0-10.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testcases.h"
#include "testutil.h"

#define L1_SIZE 1499136u

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 131 + seed * 7 + (i >> 8));
}

static void roundtrip(tt_device *dev, unsigned x, unsigned y, uint64_t addr,
		      size_t n, unsigned seed)
{
	uint8_t *out = malloc(n + 1), *in = malloc(n + 1);

	assert_non_null(out);
	assert_non_null(in);
	fill(out, n, seed);
	memset(in, 0xEE, n);
	assert_int_equal(tt_noc_write(dev, 0, x, y, addr, out, n), 0);
	assert_int_equal(tt_noc_read(dev, 0, x, y, addr, in, n), 0);
	assert_memory_equal(in, out, n);
	free(out);
	free(in);
}

static void test_sizes_and_alignment(void **state)
{
	static const size_t sizes[] = { 1, 2, 3, 4, 5, 7, 15, 16, 17, 31, 33,
					63, 65, 4095, 4097, 65537, 1 << 20 };
	static const uint64_t offs[] = { 0, 1, 2, 3, 5, 13, 4093, 65531 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (size_t j = 0; j < sizeof(offs) / sizeof(offs[0]); j++)
			roundtrip(*state, 1, 1, offs[j], sizes[i],
				  (unsigned)(i + j));
}

static void test_zero_length_is_noop(void **state)
{
	assert_int_equal(tt_noc_write(*state, 0, 1, 1, 0, NULL, 0), 0);
	assert_int_equal(tt_noc_read(*state, 0, 1, 1, 0, NULL, 0), 0);
}

static void test_neighbours_untouched(void **state)
{
	uint8_t guard[64], got[64], data[5] = { 1, 2, 3, 4, 5 };

	memset(guard, 0x5A, sizeof(guard));
	assert_int_equal(tt_noc_write(*state, 0, 2, 2, 100, guard, 64), 0);
	assert_int_equal(tt_noc_write(*state, 0, 2, 2, 130, data, 5), 0);
	assert_int_equal(tt_noc_read(*state, 0, 2, 2, 100, got, 64), 0);
	assert_memory_equal(got, guard, 30);
	assert_memory_equal(got + 30, data, 5);
	assert_memory_equal(got + 35, guard + 35, 29);
}

static void test_tiles_are_distinct(void **state)
{
	uint32_t a = 0x11111111, b = 0x22222222, v;

	assert_int_equal(tt_noc_write32(*state, 0, 1, 1, 0x40, a), 0);
	assert_int_equal(tt_noc_write32(*state, 0, 2, 1, 0x40, b), 0);
	assert_int_equal(tt_noc_read32(*state, 0, 1, 1, 0x40, &v), 0);
	assert_int_equal(v, a);
}

static void test_noc1_mirrors_coordinates(void **state)
{
	uint32_t v = 0xC0FFEE01, got = 0;

	/* NOC 0 (1, 2) is NOC 1 (9 - 1, 11 - 2) = (8, 9). */
	assert_int_equal(tt_noc_write32(*state, 0, 1, 2, 0x80, v), 0);
	assert_int_equal(tt_noc_read32(*state, 1, 8, 9, 0x80, &got), 0);
	assert_int_equal(got, v);
	assert_int_equal(tt_noc_write32(*state, 1, 8, 9, 0x84, ~v), 0);
	assert_int_equal(tt_noc_read32(*state, 0, 1, 2, 0x84, &got), 0);
	assert_int_equal(got, ~v);
}

static void test_l1_end_boundary(void **state)
{
	uint8_t buf[16] = { 9 };

	assert_int_equal(tt_noc_write(*state, 0, 1, 1, L1_SIZE - 16, buf, 16), 0);
	assert_int_equal(tt_noc_write(*state, 0, 1, 1, L1_SIZE - 8, buf, 16),
			 -EFAULT);
	assert_non_null(strstr(tt_last_error(), "past the end"));
	assert_non_null(strstr(tt_last_error(), "1-1"));
}

static void expect_refused(tt_device *dev, unsigned noc, unsigned x,
			   unsigned y, uint64_t addr, const char *why)
{
	uint32_t v = 0;

	assert_int_equal(tt_noc_read32(dev, noc, x, y, addr, &v), -EFAULT);
	if (!strstr(tt_last_error(), why))
		fail_msg("expected '%s' in: %s", why, tt_last_error());
	assert_int_equal(tt_noc_write32(dev, noc, x, y, addr, 1), -EFAULT);
	assert_non_null(strstr(tt_last_error(), why));
}

static void test_outside_grid(void **state)
{
	expect_refused(*state, 0, 10, 1, 0, "no node");
	expect_refused(*state, 0, 1, 12, 0, "no node");
	expect_refused(*state, 1, 63, 63, 0, "no node");
}

static void test_harvested_tile(void **state)
{
	expect_refused(*state, 0, 1, 11, 0, "harvested");
}

static void test_unmapped_addresses(void **state)
{
	expect_refused(*state, 0, 1, 1, L1_SIZE, "nothing is mapped");
	expect_refused(*state, 0, 1, 1, 0x20000000, "nothing is mapped");
	expect_refused(*state, 0, 1, 1, 0xFFB50000, "nothing is mapped");
	/* ATU registers exist on the PCIe node only. */
	expect_refused(*state, 0, 1, 1, TT_REG_PCIE_ATU_ADDR, "nothing is mapped");
	/* A router has registers but no memory. */
	expect_refused(*state, 0, 0, 2, 0, "nothing is mapped");
}

static void test_address_space_limit(void **state)
{
	uint8_t b[8] = { 0 };

	assert_int_equal(tt_noc_write(*state, 0, 1, 1, 1ull << 36, b, 1),
			 -EINVAL);
	assert_non_null(strstr(tt_last_error(), "36-bit"));
	assert_int_equal(tt_noc_read(*state, 0, 1, 1, (1ull << 36) - 4, b, 8),
			 -EINVAL);
	/* Ending exactly at 2^36 is inside the address space (nothing is
	 * mapped there); one byte more is outside it. */
	assert_int_equal(tt_noc_read(*state, 0, 1, 1, (1ull << 36) - 4, b, 5),
			 -EINVAL);
	assert_non_null(strstr(tt_last_error(), "36-bit"));
	assert_int_equal(tt_noc_read(*state, 0, 1, 1, (1ull << 36) - 4, b, 4),
			 -EFAULT);
	assert_null(strstr(tt_last_error(), "36-bit"));
	assert_int_equal(tt_noc_write(*state, 2, 1, 1, 0, b, 1), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "NOC 2"));
}

static void test_dram_ports_alias(void **state)
{
	uint8_t out[1000], in[1000];
	uint64_t addr = (2ull << 30) - 1000; /* last bytes of the channel */

	fill(out, sizeof(out), 3);
	assert_int_equal(tt_noc_write(*state, 0, 0, 0, addr, out, 1000), 0);
	memset(in, 0, sizeof(in));
	assert_int_equal(tt_noc_read(*state, 0, 0, 1, addr, in, 1000), 0);
	assert_memory_equal(in, out, 1000);
	memset(in, 0, sizeof(in));
	assert_int_equal(tt_noc_read(*state, 0, 0, 11, addr, in, 1000), 0);
	assert_memory_equal(in, out, 1000);
	/* Channel 1 (0-5) is other memory. */
	assert_int_equal(tt_noc_read(*state, 0, 0, 5, addr, in, 1000), 0);
	assert_memory_not_equal(in, out, 1000);
	assert_int_equal(tt_noc_write(*state, 0, 0, 0, addr, out, 1001), -EFAULT);
}

static void test_dram_transfer_across_windows(void **state)
{
	size_t n = 3u << 20;
	uint64_t addr = (16ull << 20) - 12345; /* straddles a window edge */
	uint8_t *out = malloc(n), *in = malloc(n);

	fill(out, n, 11);
	assert_int_equal(tt_noc_write(*state, 0, 5, 0, addr, out, n), 0);
	assert_int_equal(tt_noc_read(*state, 0, 5, 0, addr, in, n), 0);
	assert_memory_equal(in, out, n);
	free(out);
	free(in);
}

static void test_node_id_registers(void **state)
{
	uint32_t v;

	assert_int_equal(tt_noc_read32(*state, 0, 3, 4,
				       TT_REG_TILE_CTRL_ADDR + TT_TILE_NODE_ID, &v),
			 0);
	assert_int_equal(TT_FIELD_GET(TT_TILE_NODE_ID_X_MASK, v), 3);
	assert_int_equal(TT_FIELD_GET(TT_TILE_NODE_ID_Y_MASK, v), 4);
	assert_int_equal(tt_noc_read32(*state, 0, 3, 4,
				       TT_REG_TILE_CTRL_ADDR + TT_TILE_NODE_TYPE, &v),
			 0);
	assert_int_equal(v, TT_NODE_TENSIX);
	assert_int_equal(tt_noc_read32(*state, 0, 3, 4,
				       TT_REG_NIU1_ADDR + TT_NIU_NODE_ID, &v),
			 0);
	assert_int_equal(TT_FIELD_GET(TT_TILE_NODE_ID_X_MASK, v), 6);
	assert_int_equal(TT_FIELD_GET(TT_TILE_NODE_ID_Y_MASK, v), 7);
}

static void test_read_only_register_kept(void **state)
{
	uint64_t reg = TT_REG_TILE_CTRL_ADDR + TT_TILE_NODE_ID;
	uint32_t before, after;

	assert_int_equal(tt_noc_read32(*state, 0, 3, 4, reg, &before), 0);
	assert_int_equal(tt_noc_write32(*state, 0, 3, 4, reg, 0xDEAD), -EFAULT);
	assert_non_null(strstr(tt_last_error(), "read-only"));
	assert_int_equal(tt_noc_read32(*state, 0, 3, 4, reg, &after), 0);
	assert_int_equal(after, before);
	/* Soft reset is writable. */
	assert_int_equal(tt_noc_write32(*state, 0, 3, 4,
					TT_REG_TILE_CTRL_ADDR + TT_TILE_SOFT_RESET,
					0),
			 0);
}

static void test_misaligned_register(void **state)
{
	uint8_t b[3] = { 0 };
	uint32_t v;

	assert_int_equal(tt_noc_read32(*state, 0, 3, 4,
				       TT_REG_TILE_CTRL_ADDR + 2, &v),
			 -EFAULT);
	assert_non_null(strstr(tt_last_error(), "misaligned"));
	assert_int_equal(tt_noc_read(*state, 0, 3, 4, TT_REG_TILE_CTRL_ADDR, b, 3),
			 -EFAULT);
}

static void test_multicast_rectangle(void **state)
{
	tt_device *dev = *state;
	uint32_t pattern = 0xA5A50001, zero = 0, v;
	struct tt_xy s = { 1, 9 }, e = { 6, 11 }; /* rows 9-11, cols 1-6 */

	for (unsigned y = 1; y <= 10; y++)
		for (unsigned x = 1; x <= 9; x++)
			if (tt_device_core_type(dev, x, y) == TT_CORE_TENSIX)
				assert_int_equal(tt_noc_write32(dev, 0, x, y,
								0x1000, zero),
						 0);
	assert_int_equal(tt_noc_multicast(dev, 0, s, e, 0x1000, &pattern, 4), 0);
	for (unsigned y = 1; y <= 10; y++) {
		for (unsigned x = 1; x <= 9; x++) {
			bool inside = x >= 1 && x <= 6 && y >= 9;

			if (tt_device_core_type(dev, x, y) != TT_CORE_TENSIX)
				continue;
			assert_int_equal(tt_noc_read32(dev, 0, x, y, 0x1000, &v),
					 0);
			assert_int_equal(v, inside ? pattern : 0);
		}
	}
}

static void test_multicast_corners_any_order_and_noc1(void **state)
{
	tt_device *dev = *state;
	uint32_t p = 0x600D, v;
	/* NOC 1 (7, 8)..(8, 9) is NOC 0 (1, 2)..(2, 3). */
	struct tt_xy s = { 8, 9 }, e = { 7, 8 };

	assert_int_equal(tt_noc_multicast(dev, 1, s, e, 0x2000, &p, 4), 0);
	for (unsigned y = 2; y <= 3; y++)
		for (unsigned x = 1; x <= 2; x++) {
			assert_int_equal(tt_noc_read32(dev, 0, x, y, 0x2000, &v), 0);
			assert_int_equal(v, p);
		}
	assert_int_equal(tt_noc_read32(dev, 0, 3, 2, 0x2000, &v), 0);
	assert_int_not_equal(v, p);
}

static void test_multicast_errors(void **state)
{
	uint32_t p = 1;
	struct tt_xy out_s = { 8, 8 }, out_e = { 12, 8 };
	struct tt_xy none_s = { 0, 0 }, none_e = { 0, 11 }; /* column 0 */

	assert_int_equal(tt_noc_multicast(*state, 0, out_s, out_e, 0, &p, 4),
			 -EFAULT);
	assert_non_null(strstr(tt_last_error(), "multicast"));
	assert_int_equal(tt_noc_multicast(*state, 0, none_s, none_e, 0, &p, 4),
			 -EFAULT);
	assert_non_null(strstr(tt_last_error(), "multicast"));
	/* Past the end of L1 on every target. */
	assert_int_equal(tt_noc_multicast(*state, 0, (struct tt_xy){ 1, 1 },
					  (struct tt_xy){ 2, 2 }, L1_SIZE - 2,
					  &p, 4),
			 -EFAULT);
}

static void test_device_error_log(void **state)
{
	struct tt_device_error errs[8];
	uint32_t v;
	int n;

	while ((n = tt_device_errors(*state, errs, 8)) > 0)
		; /* drain earlier ones */
	assert_int_equal(n, 0);
	assert_int_equal(tt_noc_read32(*state, 0, 1, 11, 0x10, &v), -EFAULT);
	assert_int_equal(tt_noc_read32(*state, 0, 15, 1, 0x10, &v), -EFAULT);
	n = tt_device_errors(*state, errs, 8);
	assert_int_equal(n, 2);
	assert_int_equal(errs[0].code, TT_DEV_ERR_HARVESTED);
	assert_non_null(strstr(errs[0].message, "by host to 1-11 addr 0x10"));
	assert_int_equal(errs[1].code, TT_DEV_ERR_NO_NODE);
	assert_int_equal(tt_device_errors(*state, errs, 8), 0);
}

static void test_device_side_copy(void **state)
{
	tt_device *dev = *state;
	uint8_t out[3001], in[3001];
	struct niu_cmd c = { .op = TT_NIU_OP_WRITE, .x = 4, .y = 5,
			     .targ = 0x10003, .ret = 0x20001, .len = 3001 };
	uint32_t done0, done1;

	fill(out, sizeof(out), 5);
	assert_int_equal(tt_noc_write(dev, 0, 2, 3, 0x20001, out, 3001), 0);
	assert_int_equal(tt_noc_read32(dev, 0, 2, 3,
				       TT_REG_NIU0_ADDR + TT_NIU_WRITES_DONE, &done0),
			 0);
	assert_int_equal(niu_run(dev, 2, 3, 0, 1, &c), TT_DEV_ERR_NONE);
	assert_int_equal(tt_noc_read(dev, 0, 4, 5, 0x10003, in, 3001), 0);
	assert_memory_equal(in, out, 3001);
	assert_int_equal(tt_noc_read32(dev, 0, 2, 3,
				       TT_REG_NIU0_ADDR + TT_NIU_WRITES_DONE, &done1),
			 0);
	assert_int_equal(done1, done0 + 1);
	/* And back with a READ on NOC 1 (target 4-5 is 5-6 there). */
	c = (struct niu_cmd){ .op = TT_NIU_OP_READ, .x = 5, .y = 6,
			      .targ = 0x10003, .ret = 0x30000, .len = 3001 };
	assert_int_equal(niu_run(dev, 2, 3, 1, 0, &c), TT_DEV_ERR_NONE);
	assert_int_equal(tt_noc_read(dev, 0, 2, 3, 0x30000, in, 3001), 0);
	assert_memory_equal(in, out, 3001);
}

static void test_device_side_multicast(void **state)
{
	tt_device *dev = *state;
	uint32_t p = 0xBEEF0042, v;
	struct niu_cmd c = { .op = TT_NIU_OP_WRITE, .ctrl = TT_NIU_CTRL_MCAST,
			     .x_start = 6, .y_start = 7, .x = 7, .y = 8,
			     .targ = 0x5000, .ret = 0x5000, .len = 4 };

	assert_int_equal(tt_noc_write32(dev, 0, 1, 1, 0x5000, p), 0);
	assert_int_equal(niu_run(dev, 1, 1, 0, 2, &c), TT_DEV_ERR_NONE);
	for (unsigned y = 7; y <= 8; y++)
		for (unsigned x = 6; x <= 7; x++) {
			assert_int_equal(tt_noc_read32(dev, 0, x, y, 0x5000, &v), 0);
			assert_int_equal(v, p);
		}
}

static void test_device_side_errors(void **state)
{
	tt_device *dev = *state;
	struct niu_cmd c = { .op = TT_NIU_OP_READ, .x = 1, .y = 11,
			     .targ = 0, .ret = 0x100, .len = 4 };
	uint32_t errs0, errs1;

	assert_int_equal(tt_noc_read32(dev, 0, 2, 2, TT_REG_NIU0_ADDR + TT_NIU_ERRORS,
				       &errs0),
			 0);
	assert_int_equal(niu_run(dev, 2, 2, 0, 0, &c), TT_DEV_ERR_HARVESTED);
	c.y = 1;
	c.ret = L1_SIZE - 2; /* local buffer runs past L1 */
	assert_int_equal(niu_run(dev, 2, 2, 0, 0, &c), TT_DEV_ERR_RANGE);
	c.op = 7;
	c.ret = 0;
	assert_int_equal(niu_run(dev, 2, 2, 0, 0, &c), TT_DEV_ERR_BAD_CMD);
	assert_int_equal(tt_noc_read32(dev, 0, 2, 2, TT_REG_NIU0_ADDR + TT_NIU_ERRORS,
				       &errs1),
			 0);
	assert_int_equal(errs1, errs0 + 3);
	/* The command status register itself is read-only to the host. */
	assert_int_equal(tt_noc_write32(dev, 0, 2, 2,
					TT_REG_NIU0_ADDR + TT_NIU_CMD_STATUS, 0),
			 -EFAULT);
}

static void test_atomic_increment(void **state)
{
	tt_device *dev = *state;
	struct niu_cmd c = { .op = TT_NIU_OP_ATOMIC_INC, .x = 3, .y = 3,
			     .targ = 0x7000, .ret = 0x7100, .incr = 5,
			     .ctrl = TT_FIELD_PREP(TT_NIU_CTRL_WRAP_MASK, 31u) |
				     TT_NIU_CTRL_RETURN };
	uint32_t v;

	assert_int_equal(tt_noc_write32(dev, 0, 3, 3, 0x7000, 40), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(niu_run(dev, 1, 2, 0, 3, &c), TT_DEV_ERR_NONE);
	assert_int_equal(tt_noc_read32(dev, 0, 3, 3, 0x7000, &v), 0);
	assert_int_equal(v, 55);
	assert_int_equal(tt_noc_read32(dev, 0, 1, 2, 0x7100, &v), 0);
	assert_int_equal(v, 50); /* old value of the last increment */
}

static void test_atomic_wraps(void **state)
{
	tt_device *dev = *state;
	/* wrap = 3: the low 4 bits count modulo 16, the rest is kept. */
	struct niu_cmd c = { .op = TT_NIU_OP_ATOMIC_INC, .x = 3, .y = 3,
			     .targ = 0x7004, .incr = 3,
			     .ctrl = TT_FIELD_PREP(TT_NIU_CTRL_WRAP_MASK, 3u) };
	uint32_t v;

	assert_int_equal(tt_noc_write32(dev, 0, 3, 3, 0x7004, 0xAB0000F), 0);
	assert_int_equal(niu_run(dev, 1, 2, 0, 3, &c), TT_DEV_ERR_NONE);
	assert_int_equal(tt_noc_read32(dev, 0, 3, 3, 0x7004, &v), 0);
	assert_int_equal(v, 0xAB00002);
}

static void test_atomic_refusals(void **state)
{
	tt_device *dev = *state;
	struct niu_cmd c = { .op = TT_NIU_OP_ATOMIC_INC, .x = 3, .y = 3,
			     .targ = 0x7002, .incr = 1 };

	assert_int_equal(niu_run(dev, 1, 2, 0, 0, &c), TT_DEV_ERR_ALIGN);
	c.x = 0; /* DRAM: atomics are for L1 only */
	c.y = 0;
	c.targ = 0;
	assert_int_equal(niu_run(dev, 1, 2, 0, 0, &c), TT_DEV_ERR_UNMAPPED);
}

/*
 * A device-side command's local buffer (the issuing node's own memory at
 * ret) may end exactly at the end of that memory, and not a byte later:
 * reads, writes, multicast writes and an atomic's returned value, from a
 * Tensix node's L1 and from a DRAM node's channel.
 */
static void test_device_side_local_buffer_at_memory_end(void **state)
{
	tt_device *dev = *state;
	uint8_t out[256], in[256];
	struct niu_cmd c = { .op = TT_NIU_OP_WRITE, .x = 4, .y = 5,
			     .targ = 0x10000, .ret = L1_SIZE - 256,
			     .len = 256 };
	uint32_t v;

	/* WRITE from the last 256 bytes of 2-3's L1 to 4-5. */
	fill(out, sizeof(out), 21);
	assert_int_equal(tt_noc_write(dev, 0, 2, 3, L1_SIZE - 256, out, 256), 0);
	assert_int_equal(niu_run(dev, 2, 3, 0, 0, &c), TT_DEV_ERR_NONE);
	assert_int_equal(tt_noc_read(dev, 0, 4, 5, 0x10000, in, 256), 0);
	assert_memory_equal(in, out, 256);
	c.ret++;
	assert_int_equal(niu_run(dev, 2, 3, 0, 0, &c), TT_DEV_ERR_RANGE);

	/* READ from 4-5 into the last 256 bytes of 2-3's L1, both NOCs (4-5
	 * is 5-6 on NOC 1). */
	fill(out, sizeof(out), 22);
	assert_int_equal(tt_noc_write(dev, 0, 4, 5, 0x10000, out, 256), 0);
	for (unsigned noc = 0; noc < 2; noc++) {
		c = (struct niu_cmd){ .op = TT_NIU_OP_READ, .x = 4 + noc,
				      .y = 5 + noc, .targ = 0x10000,
				      .ret = L1_SIZE - 256, .len = 256 };
		memset(in, 0, sizeof(in));
		assert_int_equal(tt_noc_write(dev, 0, 2, 3, L1_SIZE - 256, in,
					      256),
				 0);
		assert_int_equal(niu_run(dev, 2, 3, noc, 1, &c), TT_DEV_ERR_NONE);
		assert_int_equal(tt_noc_read(dev, 0, 2, 3, L1_SIZE - 256, in, 256),
				 0);
		assert_memory_equal(in, out, 256);
		c.ret++;
		assert_int_equal(niu_run(dev, 2, 3, noc, 1, &c), TT_DEV_ERR_RANGE);
	}

	/* A multicast write of the last 4 bytes of 1-1's L1. */
	assert_int_equal(tt_noc_write32(dev, 0, 1, 1, L1_SIZE - 4, 0xC0FFEE11), 0);
	c = (struct niu_cmd){ .op = TT_NIU_OP_WRITE, .ctrl = TT_NIU_CTRL_MCAST,
			      .x_start = 6, .y_start = 7, .x = 7, .y = 8,
			      .targ = 0x5100, .ret = L1_SIZE - 4, .len = 4 };
	assert_int_equal(niu_run(dev, 1, 1, 0, 2, &c), TT_DEV_ERR_NONE);
	for (unsigned y = 7; y <= 8; y++)
		for (unsigned x = 6; x <= 7; x++) {
			assert_int_equal(tt_noc_read32(dev, 0, x, y, 0x5100, &v), 0);
			assert_int_equal(v, 0xC0FFEE11);
		}
	c.ret++;
	assert_int_equal(niu_run(dev, 1, 1, 0, 2, &c), TT_DEV_ERR_RANGE);

	/* An atomic's old value returned into the last word of 1-2's L1. */
	assert_int_equal(tt_noc_write32(dev, 0, 3, 3, 0x7200, 70), 0);
	c = (struct niu_cmd){ .op = TT_NIU_OP_ATOMIC_INC, .x = 3, .y = 3,
			      .targ = 0x7200, .ret = L1_SIZE - 4, .incr = 2,
			      .ctrl = TT_FIELD_PREP(TT_NIU_CTRL_WRAP_MASK, 31u) |
				      TT_NIU_CTRL_RETURN };
	assert_int_equal(niu_run(dev, 1, 2, 0, 3, &c), TT_DEV_ERR_NONE);
	assert_int_equal(tt_noc_read32(dev, 0, 1, 2, L1_SIZE - 4, &v), 0);
	assert_int_equal(v, 70);
	c.ret = L1_SIZE - 3;
	assert_int_equal(niu_run(dev, 1, 2, 0, 3, &c), TT_DEV_ERR_RANGE);

	/* A DRAM node (channel 0's port 0-0) writing its channel's last 256
	 * bytes to 4-5, and reading them back there. */
	fill(out, sizeof(out), 23);
	assert_int_equal(tt_noc_write(dev, 0, 0, 0, (2ull << 30) - 256, out, 256),
			 0);
	c = (struct niu_cmd){ .op = TT_NIU_OP_WRITE, .x = 4, .y = 5,
			      .targ = 0x10400, .ret = (2ull << 30) - 256,
			      .len = 256 };
	assert_int_equal(niu_run(dev, 0, 0, 0, 0, &c), TT_DEV_ERR_NONE);
	assert_int_equal(tt_noc_read(dev, 0, 4, 5, 0x10400, in, 256), 0);
	assert_memory_equal(in, out, 256);
	c.ret++;
	assert_int_equal(niu_run(dev, 0, 0, 0, 0, &c), TT_DEV_ERR_RANGE);
	fill(out, sizeof(out), 24);
	assert_int_equal(tt_noc_write(dev, 0, 4, 5, 0x10400, out, 256), 0);
	c.op = TT_NIU_OP_READ;
	c.ret = (2ull << 30) - 256;
	assert_int_equal(niu_run(dev, 0, 0, 0, 0, &c), TT_DEV_ERR_NONE);
	assert_int_equal(tt_noc_read(dev, 0, 0, 0, (2ull << 30) - 256, in, 256),
			 0);
	assert_memory_equal(in, out, 256);
	c.ret++;
	assert_int_equal(niu_run(dev, 0, 0, 0, 0, &c), TT_DEV_ERR_RANGE);
}

/*
 * Through libtt's buffers: an L1 buffer that ends exactly where buffers
 * may end (below the hart argument areas) and a DRAM buffer that ends
 * exactly at the end of the channel, written and read back; a DRAM
 * channel's last bytes directly, and one byte past refused.
 */
static void buffer_at_top(tt_device *dev, enum tt_buffer_type type,
			  uint64_t top, uint64_t size, uint64_t page,
			  unsigned seed)
{
	struct tt_buffer_config c = {
		.device = dev, .type = type, .size = size, .page_size = page,
		.fixed_address = true,
	};
	unsigned banks = type == TT_BUFFER_DRAM ? 6 : 64;
	uint8_t *out = malloc(size), *in = malloc(size);
	tt_buffer *b;

	assert_non_null(out);
	assert_non_null(in);
	c.address = top - size / banks + 16;
	assert_int_not_equal(tt_create_buffer(&c, &b), 0);
	c.address -= 16;
	if (tt_create_buffer(&c, &b))
		fail_msg("%s", tt_last_error());
	assert_int_equal(tt_buffer_address(b) + tt_buffer_bank_size(b), top);
	fill(out, size, seed);
	memset(in, 0, size);
	assert_int_equal(tt_write_to_buffer(b, out, size), 0);
	assert_int_equal(tt_read_from_buffer(b, in, size), 0);
	assert_memory_equal(in, out, size);
	tt_buffer_free(b);
	free(out);
	free(in);
}

static void test_buffers_at_memory_end(void **state)
{
	tt_device *dev = *state;
	uint8_t out[64], in[64];

	buffer_at_top(dev, TT_BUFFER_L1, L1_SIZE - 4096, 64 * 2 * 1024, 1024, 31);
	buffer_at_top(dev, TT_BUFFER_DRAM, 2ull << 30, 6 * 3 * 2048, 2048, 32);
	fill(out, sizeof(out), 33);
	assert_int_equal(tt_write_to_device_dram_channel(dev, 5, (2ull << 30) - 64,
							 out, 64),
			 0);
	assert_int_equal(tt_read_from_device_dram_channel(dev, 5, (2ull << 30) - 64,
							  in, 64),
			 0);
	assert_memory_equal(in, out, 64);
	assert_int_equal(tt_write_to_device_dram_channel(dev, 5, (2ull << 30) - 63,
							 out, 64),
			 -EINVAL);
	assert_int_equal(tt_read_from_device_dram_channel(dev, 5, (2ull << 30) - 63,
							  in, 64),
			 -EINVAL);
}

/* The cases that apply to a live chip behind the driver (testcases.h). */
static const char *const kmd_cases[] = {
	"test_sizes_and_alignment",
	"test_zero_length_is_noop",
	"test_neighbours_untouched",
	"test_tiles_are_distinct",
	"test_noc1_mirrors_coordinates",
	"test_l1_end_boundary",
	"test_outside_grid",
	"test_harvested_tile",
	"test_unmapped_addresses",
	"test_address_space_limit",
	"test_dram_ports_alias",
	"test_dram_transfer_across_windows",
	"test_node_id_registers",
	"test_read_only_register_kept",
	"test_misaligned_register",
	"test_multicast_rectangle",
	"test_multicast_corners_any_order_and_noc1",
	"test_multicast_errors",
	"test_device_error_log",
	"test_device_side_copy",
	"test_device_side_multicast",
	"test_device_side_errors",
	"test_atomic_increment",
	"test_atomic_wraps",
	"test_atomic_refusals",
	NULL,
};

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes_and_alignment),
		cmocka_unit_test(test_zero_length_is_noop),
		cmocka_unit_test(test_neighbours_untouched),
		cmocka_unit_test(test_tiles_are_distinct),
		cmocka_unit_test(test_noc1_mirrors_coordinates),
		cmocka_unit_test(test_l1_end_boundary),
		cmocka_unit_test(test_outside_grid),
		cmocka_unit_test(test_harvested_tile),
		cmocka_unit_test(test_unmapped_addresses),
		cmocka_unit_test(test_address_space_limit),
		cmocka_unit_test(test_dram_ports_alias),
		cmocka_unit_test(test_dram_transfer_across_windows),
		cmocka_unit_test(test_node_id_registers),
		cmocka_unit_test(test_read_only_register_kept),
		cmocka_unit_test(test_misaligned_register),
		cmocka_unit_test(test_multicast_rectangle),
		cmocka_unit_test(test_multicast_corners_any_order_and_noc1),
		cmocka_unit_test(test_multicast_errors),
		cmocka_unit_test(test_device_error_log),
		cmocka_unit_test(test_device_side_copy),
		cmocka_unit_test(test_device_side_multicast),
		cmocka_unit_test(test_device_side_errors),
		cmocka_unit_test(test_atomic_increment),
		cmocka_unit_test(test_atomic_wraps),
		cmocka_unit_test(test_atomic_refusals),
		cmocka_unit_test(test_device_side_local_buffer_at_memory_end),
		cmocka_unit_test(test_buffers_at_memory_end),
	};

	/* A blank flash: no firmware runs, so these NOC and memory tests own
	 * every byte of L1 (the core firmware would live in the low 128 KiB). */
	setenv("TT_FIRMWARE", "/dev/null", 1);

	return RUN_GROUP("noc", tests, device_up, device_down, kmd_cases);
}
