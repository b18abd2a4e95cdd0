// SPDX-License-Identifier: Apache-2.0
/*
 * Programs whose kernels are really built (tt_kbuild, needs the kernel
 * SDK of the firmware build): binaries per processor, no rebuild on
 * unrelated changes, compile errors named by kernel.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/program/program_internal.h"
#include "tmpdir.h"
#include "tt.h"

#define assert_error_contains(s)                                         \
	do {                                                             \
		if (!strstr(tt_last_error(), (s)))                       \
			fail_msg("error '%s' lacks '%s'", tt_last_error(), \
				 (s));                                   \
	} while (0)

static const char src[] = "void kernel_main(void) {}\n";

struct fixture {
	tt_device *dev;
	tt_program *p;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || tt_device_open(0, &f->dev) || tt_create_program(&f->p))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	tt_program_free(f->p);
	tt_device_close(f->dev);
	free(f);
	return 0;
}

static tt_kernel_handle kernel_on(tt_program *p, struct tt_core_range_set s,
				  struct tt_kernel_config c)
{
	tt_kernel_handle k = 99;

	if (tt_create_kernel_from_string(p, src, &s, &c, &k))
		fail_msg("%s", tt_last_error());
	return k;
}

static void cb_on(tt_program *p, struct tt_core_range_set s)
{
	struct tt_circular_buffer_config c =
		tt_circular_buffer_config(2048, 0, TT_FLOAT16_B, 2048);
	tt_cb_handle h;

	if (tt_create_circular_buffer(p, &s, &c, &h))
		fail_msg("%s", tt_last_error());
}

static void test_kernels_built(void **state)
{
	struct fixture *f = *state;
	struct tt_core_range_set s = tt_core_range_set_of_range(0, 0, 1, 0);
	const struct tt_program_kernel *k0, *k1;
	struct tt_kbinary *bin;
	uint64_t gen;
	tt_kernel_handle k;

	kernel_on(f->p, s, tt_reader_config());
	kernel_on(f->p, s, tt_writer_config());
	if (tt_program_finalize(f->p, f->dev, NULL))
		fail_msg("%s", tt_last_error());
	k0 = tt_program_kernel(f->p, 0);
	k1 = tt_program_kernel(f->p, 1);
	assert_non_null(k0->bin);
	assert_non_null(k1->bin);
	assert_int_equal(k0->bin->proc, TT_KPROC_NCRISC);
	assert_int_equal(k0->bin->load_addr, TT_L1_KERNEL_SLOT(TT_HART_NCRISC));
	assert_int_equal(k1->bin->load_addr, TT_L1_KERNEL_SLOT(TT_HART_BRISC));
	/* A change elsewhere does not rebuild. */
	bin = k0->bin;
	gen = tt_program_generation(f->p);
	cb_on(f->p, s);
	assert_int_equal(tt_program_finalize(f->p, f->dev, NULL), 0);
	assert_ptr_equal(k0->bin, bin);
	assert_true(tt_program_generation(f->p) > gen);

	/* A kernel that does not compile: named, with the compiler's
	 * messages; the program stays usable. */
	s = tt_core_range_set_of_core(3, 3);
	assert_int_equal(tt_create_kernel_from_string(f->p, "void kernel_main(void) { nope(; }\n",
						      &s, NULL, &k),
			 0);
	assert_int_equal(tt_program_finalize(f->p, f->dev, NULL), -ENOEXEC);
	assert_error_contains("kernel 2 (<string 2>)");
	assert_error_contains("error");
}

static void test_compute_kernel_built(void **state)
{
	struct fixture *f = *state;
	struct tt_kernel_config c = tt_compute_config();
	uint32_t args[2] = { 3, 4 };
	struct tt_define d = { "SCALE", "2" };
	const struct tt_program_kernel *k;

	c.compile_args = args;
	c.compile_arg_count = 2;
	c.defines = &d;
	c.define_count = 1;
	kernel_on(f->p, tt_core_range_set_of_core(0, 0), c);
	if (tt_program_finalize(f->p, f->dev, NULL))
		fail_msg("%s", tt_last_error());
	k = tt_program_kernel(f->p, 0);
	assert_non_null(k->bin);
	assert_int_equal(k->bin->proc, TT_KPROC_COMPUTE);
	assert_int_equal(k->bin->load_addr,
			 TT_L1_KERNEL_SLOT(TT_HART_COMPUTE));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kernels_built, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_compute_kernel_built,
						setup, teardown),
	};

	char cache[256];

	setenv("TT_TRANSPORT", "embedded", 1);
	unsetenv("TT_SIM_BOARD");
	setenv("TT_FIRMWARE", "/dev/null", 1);
	/* Run by hand: never fill the user's kernel cache. */
	if (!getenv("TT_KERNEL_CACHE") &&
	    test_mkdtemp(cache, sizeof(cache), "tt-kcache"))
		setenv("TT_KERNEL_CACHE", cache, 1);
	return cmocka_run_group_tests_name("program_build", tests, NULL, NULL);
}
