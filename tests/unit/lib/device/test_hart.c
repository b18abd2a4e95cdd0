// SPDX-License-Identifier: Apache-2.0
/*
 * Running code on harts through libtt: kernels loaded from ELF files and
 * launched through the core firmware on several cores and every hart,
 * faults, hangs, the raw bring-up path, and hostile ELF buffers. The test
 * kernels come from the firmware build (TT_FW_TESTS_DIR).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

#define RUN_MS 5000
#define RESET_MS 20000
#define RESULT_ADDR 0x60000u /* kernel area, clear of the test kernels */
#define RAW_ADDR 0x70000u /* where the hand-made raw program lives */

/* Put the chip back as booted after a test that leaves harts stuck. */
static int reset_after(void **state)
{
	if (tt_device_reset(*state, RESET_MS)) {
		fprintf(stderr, "# %s\n", tt_last_error());
		return -1;
	}
	return 0;
}

static void test_add_everywhere(void **state)
{
	tt_device *dev = *state;
	unsigned n = tt_device_get_info(dev)->tensix_count;
	const unsigned cores[] = { 0, 1, n / 2, n - 1 };

	for (size_t k = 0; k < sizeof(cores) / sizeof(cores[0]); k++) {
		struct tt_xy c = tensix_xy(dev, cores[k]);
		uint32_t entry = load_kernel(dev, c, "add");

		for (unsigned h = 0; h < TT_HART_TENSIX; h++) {
			uint32_t args[3] = { 1000 * (unsigned)k, 7 + h,
					     RESULT_ADDR + 4 * h };
			struct tt_hart_status st;
			int32_t ret = -99;
			uint32_t mem = 0;

			if (tt_hart_run(dev, c, h, entry, args, 3, RUN_MS,
					&ret))
				fail_msg("%s", tt_last_error());
			assert_int_equal(ret, args[0] + args[1]);
			assert_int_equal(tt_noc_read32(dev, 0, c.x, c.y,
						       args[2], &mem),
					 0);
			assert_int_equal(mem, args[0] + args[1]);
			assert_int_equal(tt_hart_status(dev, c, h, &st), 0);
			assert_true(st.state == TT_HART_STATE_WAITING ||
				    st.state == TT_HART_STATE_RUNNING);
			assert_int_equal(st.fault, 0);
			assert_string_equal(st.fault_name, "no fault");
			assert_true(st.instret > 0);
		}
	}
}

/* All three harts at once, then collected; and the same hart again. */
static void test_parallel_and_repeated(void **state)
{
	tt_device *dev = *state;
	struct tt_xy c = tensix_xy(dev, 5);
	uint32_t entry = load_kernel(dev, c, "add");
	int32_t ret;

	for (unsigned h = 0; h < TT_HART_TENSIX; h++) {
		uint32_t args[3] = { h, 100, RESULT_ADDR + 16 + 4 * h };

		if (tt_hart_launch(dev, c, h, entry, args, 3))
			fail_msg("%s", tt_last_error());
	}
	for (unsigned h = 0; h < TT_HART_TENSIX; h++) {
		assert_int_equal(tt_hart_wait(dev, c, h, RUN_MS, &ret), 0);
		assert_int_equal(ret, (int32_t)h + 100);
	}
	for (uint32_t i = 0; i < 20; i++) {
		uint32_t args[3] = { i, i, RESULT_ADDR };

		assert_int_equal(tt_hart_run(dev, c, 1, entry, args, 3, RUN_MS,
					     &ret),
				 0);
		assert_int_equal(ret, (int32_t)(2 * i));
	}
	/* Too few arguments: the kernel's own error, not libtt's. */
	assert_int_equal(tt_hart_run(dev, c, 0, entry, NULL, 0, RUN_MS, &ret),
			 0);
	assert_int_equal(ret, -1);
}

static void test_fault(void **state)
{
	tt_device *dev = *state;
	struct tt_xy c = tensix_xy(dev, 3);
	uint32_t entry = load_kernel(dev, c, "fault");
	struct tt_hart_status st;
	int32_t ret;

	assert_int_equal(tt_hart_run(dev, c, 2, entry, NULL, 0, RUN_MS, &ret),
			 -EFAULT);
	assert_non_null(strstr(tt_last_error(), "load access fault"));
	assert_non_null(strstr(tt_last_error(), "address 0x40000000"));
	assert_non_null(strstr(tt_last_error(), "hart 2 of core"));
	assert_int_equal(tt_hart_status(dev, c, 2, &st), 0);
	assert_int_equal(st.state, TT_HART_STATE_HALTED);
	assert_string_equal(st.state_name, "halted");
	assert_int_equal(st.fault, TT_HART_FAULT_LOAD_ACCESS);
	assert_string_equal(st.fault_name, "load access fault");
	assert_int_equal(st.fault_addr, 0x40000000);
	assert_true(st.fault_pc >= TT_HART_KERNEL_BASE &&
		    st.fault_pc < RESULT_ADDR);
	/* Halted stays halted: waiting again or launching says so. */
	assert_int_equal(tt_hart_wait(dev, c, 2, 100, &ret), -EFAULT);
	assert_int_equal(tt_hart_launch(dev, c, 2, entry, NULL, 0), -EFAULT);
	/* Its siblings still work. */
	entry = load_kernel(dev, c, "add");
	{
		uint32_t args[3] = { 2, 3, RESULT_ADDR };

		assert_int_equal(tt_hart_run(dev, c, 0, entry, args, 3, RUN_MS,
					     &ret),
				 0);
		assert_int_equal(ret, 5);
	}
}

static void test_hang_times_out(void **state)
{
	tt_device *dev = *state;
	struct tt_xy c = tensix_xy(dev, 4);
	uint32_t entry = load_kernel(dev, c, "hang");
	struct tt_hart_status st;
	int32_t ret;

	assert_int_equal(tt_hart_launch(dev, c, 0, entry, NULL, 0), 0);
	assert_int_equal(tt_hart_wait(dev, c, 0, 300, &ret), -ETIMEDOUT);
	assert_non_null(strstr(tt_last_error(), "did not finish within 300 ms"));
	assert_non_null(strstr(tt_last_error(), "state running"));
	assert_int_equal(tt_hart_launch(dev, c, 0, entry, NULL, 0), -EBUSY);
	assert_non_null(strstr(tt_last_error(), "still running"));
	assert_int_equal(tt_hart_status(dev, c, 0, &st), 0);
	assert_int_equal(st.state, TT_HART_STATE_RUNNING);
	assert_true(st.pc >= TT_HART_KERNEL_BASE && st.pc < RESULT_ADDR);
}

/* ---- hand-made ELF files ---- */

struct raw_elf {
	uint8_t b[52 + 32 + 16];
};

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

/*
 * A minimal RV32 executable at vaddr that stores 0x123 at L1 0x40000 and
 * stops on ebreak: x5 = 0x40000, x6 = 0x123, sw x6, 0(x5), ebreak.
 */
static struct raw_elf make_elf(uint32_t vaddr)
{
	static const uint32_t code[4] = {
		0x000402B7, /* lui x5, 0x40 */
		0x12300313, /* addi x6, x0, 0x123 */
		0x0062A023, /* sw x6, 0(x5) */
		0x00100073, /* ebreak */
	};
	struct raw_elf e;
	uint8_t *ph = e.b + 52;

	memset(&e, 0, sizeof(e));
	memcpy(e.b, "\x7f" "ELF", 4);
	e.b[4] = 1; /* ELFCLASS32 */
	e.b[5] = 1; /* little-endian */
	e.b[6] = 1; /* EV_CURRENT */
	put16(e.b + 16, 2); /* ET_EXEC */
	put16(e.b + 18, 243); /* EM_RISCV */
	put32(e.b + 20, 1);
	put32(e.b + 24, vaddr); /* entry */
	put32(e.b + 28, 52); /* phoff */
	put16(e.b + 40, 52); /* ehsize */
	put16(e.b + 42, 32); /* phentsize */
	put16(e.b + 44, 1); /* phnum */
	put16(e.b + 46, 40); /* shentsize */
	put32(ph, 1); /* PT_LOAD */
	put32(ph + 4, 84); /* offset */
	put32(ph + 8, vaddr);
	put32(ph + 12, vaddr);
	put32(ph + 16, 16); /* filesz */
	put32(ph + 20, 32); /* memsz: 16 bytes of .bss */
	put32(ph + 24, 5); /* R X */
	put32(ph + 28, 4);
	for (int i = 0; i < 4; i++)
		put32(e.b + 84 + 4 * i, code[i]);
	return e;
}

static void test_load_hand_made_elf(void **state)
{
	tt_device *dev = *state;
	struct tt_xy c = tensix_xy(dev, 6);
	struct raw_elf e = make_elf(RAW_ADDR);
	uint32_t entry = 0, words[8];

	assert_int_equal(tt_noc_write32(dev, 0, c.x, c.y, RAW_ADDR + 20,
					0xDEAD),
			 0);
	assert_int_equal(tt_hart_load_elf(dev, c, e.b, sizeof(e.b), &entry), 0);
	assert_int_equal(entry, RAW_ADDR);
	assert_int_equal(tt_noc_read(dev, 0, c.x, c.y, RAW_ADDR, words,
				     sizeof(words)),
			 0);
	assert_int_equal(words[0], 0x000402B7);
	assert_int_equal(words[3], 0x00100073);
	assert_int_equal(words[5], 0); /* memsz beyond filesz is zeroed */
}

/* Every refused ELF leaves L1 untouched. */
static void expect_refused(tt_device *dev, struct tt_xy c, const void *elf,
			   size_t len, int err, const char *why)
{
	uint32_t v = 0;

	assert_int_equal(tt_noc_write32(dev, 0, c.x, c.y, RAW_ADDR, 0x5AFE),
			 0);
	if (tt_hart_load_elf(dev, c, elf, len, NULL) != err)
		fail_msg("%s: expected %d, got: %s", why, err, tt_last_error());
	assert_non_null(strstr(tt_last_error(), "cannot load ELF"));
	assert_int_equal(tt_noc_read32(dev, 0, c.x, c.y, RAW_ADDR, &v), 0);
	assert_int_equal(v, 0x5AFE);
}

static void test_hostile_elf(void **state)
{
	tt_device *dev = *state;
	struct tt_xy c = tensix_xy(dev, 6);
	struct raw_elf e;

	e = make_elf(RAW_ADDR);
	expect_refused(dev, c, e.b, 0, -ENOEXEC, "empty");
	expect_refused(dev, c, e.b, 30, -ENOEXEC, "truncated header");
	e.b[1] = 'X';
	expect_refused(dev, c, e.b, sizeof(e.b), -ENOEXEC, "bad magic");
	e = make_elf(RAW_ADDR);
	e.b[4] = 2;
	expect_refused(dev, c, e.b, sizeof(e.b), -ENOEXEC, "ELFCLASS64");
	e = make_elf(RAW_ADDR);
	put32(e.b + 36, 1); /* EF_RISCV_RVC */
	expect_refused(dev, c, e.b, sizeof(e.b), -ENOEXEC, "compressed");
	e = make_elf(RAW_ADDR);
	put32(e.b + 28, 0xFFFFFFF0); /* phoff past the end */
	expect_refused(dev, c, e.b, sizeof(e.b), -EINVAL, "phoff");
	e = make_elf(RAW_ADDR);
	put32(e.b + 52 + 16, 0x10000); /* filesz past the end of the file */
	expect_refused(dev, c, e.b, sizeof(e.b), -EINVAL, "filesz");
	e = make_elf(RAW_ADDR);
	put32(e.b + 24, RAW_ADDR + 0x1000); /* entry outside the code */
	expect_refused(dev, c, e.b, sizeof(e.b), -EINVAL, "entry");
	/* Valid files, but not where a kernel may go. */
	e = make_elf(0x10000); /* the compute firmware */
	expect_refused(dev, c, e.b, sizeof(e.b), -ERANGE, "firmware area");
	e = make_elf((uint32_t)tt_device_get_info(dev)->l1_size -
		     TT_HART_ARGS_BYTES);
	expect_refused(dev, c, e.b, sizeof(e.b), -ERANGE, "argument area");
	e = make_elf(0x7FFFFFF0);
	expect_refused(dev, c, e.b, sizeof(e.b), -ERANGE, "outside L1");
	assert_int_equal(tt_hart_load_elf_file(dev, c, "/nonexistent/k.elf",
					       NULL),
			 -ENOENT);
	assert_non_null(strstr(tt_last_error(), "/nonexistent/k.elf"));
	assert_int_equal(tt_hart_load_elf_file(dev, c, "/", NULL), -EINVAL);
}

static void test_bad_arguments(void **state)
{
	tt_device *dev = *state;
	struct tt_xy c = tensix_xy(dev, 0), arc = { 0, 10 }, pcie = { 0, 3 };
	struct tt_xy harvested = { 1, 11 };
	uint32_t args[TT_HART_ARGS_MAX + 1] = { 0 };
	struct tt_hart_status st;
	struct raw_elf e = make_elf(RAW_ADDR);

	assert_int_equal(tt_hart_launch(dev, c, 3, RAW_ADDR, NULL, 0), -EINVAL);
	assert_non_null(strstr(tt_last_error(), "no hart 3"));
	assert_int_equal(tt_hart_launch(dev, c, 0, 0x100, NULL, 0), -EINVAL);
	assert_int_equal(tt_hart_launch(dev, c, 0, RAW_ADDR + 2, NULL, 0),
			 -EINVAL);
	assert_int_equal(tt_hart_launch(dev, c, 0, RAW_ADDR, args,
					TT_HART_ARGS_MAX + 1),
			 -EINVAL);
	assert_int_equal(tt_hart_launch(dev, pcie, 0, RAW_ADDR, NULL, 0),
			 -EINVAL);
	assert_non_null(strstr(tt_last_error(), "not an enabled Tensix core"));
	assert_int_equal(tt_hart_load_elf(dev, harvested, e.b, sizeof(e.b),
					  NULL),
			 -EINVAL);
	assert_int_equal(tt_hart_wait(dev, arc, 0, 10, NULL), -EINVAL);
	/* Status also covers the management hart, and only hart 0 there. */
	assert_int_equal(tt_hart_status(dev, arc, 0, &st), 0);
	assert_true(st.state == TT_HART_STATE_RUNNING ||
		    st.state == TT_HART_STATE_WAITING);
	assert_true(st.instret > 0);
	assert_int_equal(tt_hart_status(dev, arc, 1, &st), -EINVAL);
	assert_int_equal(tt_hart_status(dev, pcie, 0, &st), -EINVAL);
	assert_int_equal(tt_hart_status(dev, harvested, 0, &st), -EINVAL);
}

static void test_exec_raw(void **state)
{
	tt_device *dev = *state;
	struct tt_xy c = tensix_xy(dev, 7);
	struct raw_elf e = make_elf(RAW_ADDR);
	struct tt_hart_status st;
	uint32_t v = 0;

	assert_int_equal(tt_noc_write32(dev, 0, c.x, c.y, 0x40000, 0), 0);
	assert_int_equal(tt_hart_exec_raw(dev, c, 1, e.b, sizeof(e.b)), 0);
	for (int i = 0; i < 200; i++) {
		assert_int_equal(tt_hart_status(dev, c, 1, &st), 0);
		if (st.state == TT_HART_STATE_HALTED)
			break;
		usleep(10000);
	}
	assert_int_equal(st.state, TT_HART_STATE_HALTED);
	assert_int_equal(st.fault, TT_HART_FAULT_EBREAK);
	assert_int_equal(st.fault_pc, RAW_ADDR + 12);
	/* Three instructions retired; the ebreak perhaps too. */
	assert_true(st.instret == 3 || st.instret == 4);
	assert_int_equal(tt_noc_read32(dev, 0, c.x, c.y, 0x40000, &v), 0);
	assert_int_equal(v, 0x123);
	/* The firmware no longer serves that hart; its siblings it does. */
	assert_int_equal(tt_hart_launch(dev, c, 1, RAW_ADDR, NULL, 0), -EFAULT);
	e = make_elf(0x100); /* over the BRISC firmware: allowed here */
	assert_int_equal(tt_hart_exec_raw(dev, c, 0, e.b, sizeof(e.b)), 0);
	for (int i = 0; i < 200; i++) {
		assert_int_equal(tt_hart_status(dev, c, 0, &st), 0);
		if (st.state == TT_HART_STATE_HALTED)
			break;
		usleep(10000);
	}
	assert_int_equal(st.fault_pc, 0x100 + 12);
	e = make_elf(0x7FFFFFF0);
	assert_int_equal(tt_hart_exec_raw(dev, c, 2, e.b, sizeof(e.b)),
			 -ERANGE);
	assert_int_equal(tt_hart_status(dev, c, 2, &st), 0);
	assert_int_not_equal(st.state, TT_HART_STATE_RESET);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_everywhere),
		cmocka_unit_test(test_parallel_and_repeated),
		cmocka_unit_test_teardown(test_fault, reset_after),
		cmocka_unit_test_teardown(test_hang_times_out, reset_after),
		cmocka_unit_test(test_load_hand_made_elf),
		cmocka_unit_test(test_hostile_elf),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test_teardown(test_exec_raw, reset_after),
	};

	return cmocka_run_group_tests_name("hart", tests, booted_up, booted_down);
}
