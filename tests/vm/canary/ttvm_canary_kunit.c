// SPDX-License-Identifier: GPL-2.0-only
/*
 * A tiny KUnit suite that passes: it proves that tests/vm/run-vm loads
 * *_kunit.ko modules in the debug kernel and reads their KTAP results
 * (the driver's own suites use the same path).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/overflow.h>

static void canary_kunit_arithmetic(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 6, 2 * 3);
	KUNIT_EXPECT_NE(test, 0u, ~0u);
}

static void canary_kunit_overflow(struct kunit *test)
{
	u32 sum;

	KUNIT_EXPECT_TRUE(test, check_add_overflow(U32_MAX, 1u, &sum));
	KUNIT_EXPECT_FALSE(test, check_add_overflow(1u, 2u, &sum));
	KUNIT_EXPECT_EQ(test, sum, 3u);
}

static void canary_kunit_managed_alloc(struct kunit *test)
{
	/* Freed by KUnit when the test ends: kmemleak must stay quiet. */
	u8 *p = kunit_kzalloc(test, 32, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, p[31], 0);
}

static struct kunit_case canary_kunit_cases[] = {
	KUNIT_CASE(canary_kunit_arithmetic),
	KUNIT_CASE(canary_kunit_overflow),
	KUNIT_CASE(canary_kunit_managed_alloc),
	{}
};

static struct kunit_suite canary_kunit_suite = {
	.name = "ttvm_canary",
	.test_cases = canary_kunit_cases,
};

kunit_test_suite(canary_kunit_suite);

MODULE_DESCRIPTION("KUnit suite proving the VM tests' KUnit path");
MODULE_LICENSE("GPL");
